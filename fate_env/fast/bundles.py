"""The bundles the fast core's arrays travel in between its larger flows.

Named tuples, which numba compiles as plain structs: a field read is free, and a bundle passed to
a function costs what its arrays passed one by one would. So only the flows that would otherwise
take more than 12 parameters take bundles; they unpack the fields they read at their top, and the
small helpers called in the inner loops (``_base``, ``_stunt``, ``_foes``, ...) keep taking just
the arrays they read, so no call copies arrays its callee never reads. The field names are the
arrays' names in the kernel (their layouts are in ``kernel/layout.py``).
"""

from __future__ import annotations

from collections import namedtuple

#: the scene, read only: per-character statics, skills, stunts, consequence slots, the opening
#: aspects and their free invokes, parameters, zone sight and hops, free moves, reachable zones,
#: advantage templates (built once per scene: ``tables.Tables.arrays()``)
Scene = namedtuple("Scene", "SC SK ST SLOTS A0 AF0 P SIGHT HOPS ZF ZFN ZR ZRN TPL")
#: one fight's state: characters, marked boxes, used slots, globals (and the answers past NG),
#: aspects (rows, free invokes, the live list), invoke marks, the dice. A checkpoint (the state
#: at a turn's start, which a paused session resumes from) is a Fight too.
Fight = namedtuple("Fight", "CH MARK SLOTA G A AF AL INV RNG")
#: working buffers sized for the scene, allocated once per call into the kernel: the roll in
#: progress, then each flow's scratch
Work = namedtuple("Work", "R buf skills allies payers pick_free pick_paid plans faces moves att_t att_s usable pool "
                          "adv_k adv_g")
#: what the environment's observation is laid out by (``observe.observe``): the aspect in each
#: slot, the layout's sizes, each character's fixed features, its box counts, and the
#: environment's index of each decision kind
View = namedtuple("View", "SLOT_AT LP STATIC BOXES DK2OBS")
#: the entity view's fixed columns for one scene (``entity_rows.rows``; built by
#: ``environment/fast_entities.py``): the block starts, each character's and zone's fixed columns,
#: a decision kind's and an option code's place in the view, a skill's column, a template's target
#: kind, each character's boxes on both tracks
EntityView = namedtuple("EntityView", "EP CHS ZS DK OTYPE OWORD SKW TPLK BOXES")
#: one decision's entity rows (``environment/entities.Entities``'s arrays, in its order), and a
#: scratch of each aspect id's row
Rows = namedtuple("Rows", "glob chars czone zones aspects owner azone options o_char o_zone o_asp row_of")
#: what ``entity_rows.play_learned`` hands back: each fight's final characters, slots and globals,
#: and where it stopped when it could not go on (the fight, the count past a limit)
Outcomes = namedtuple("Outcomes", "CH SLOTA G where")
#: rows the ``learned`` network has seen, and what it computed from each (``entity_forward``): the
#: rows (keys), the values ([embedding | score-block product] per row), which slots hold one, and
#: the integers a row's hash weighs its columns by
Memo = namedtuple("Memo", "keys vals used H")
#: one memo per kind of row
Memos = namedtuple("Memos", "char zone aspect option")
#: the learned network as ``entity_rows.play_learned`` reads it: its weights (``entity_forward.Net``)
#: and its memos
Scorer = namedtuple("Scorer", "net memos")
