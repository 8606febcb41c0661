"""The bundles the kernel's arrays travel in: a scene's tables, one fight's state, a checkpoint of
that state, and the scratch buffers a flow writes into.

Named tuples, which numba compiles as plain structs (``T.SC`` is a field read, nothing more), so a
kernel function takes ``(T, W, ...)`` instead of the 20-odd arrays it reads: no function of the
fast core takes over 12 parameters. The field names are the arrays' names in the kernel (see the
layout at the top of ``kernel.py``); ``core.py`` builds them from ``tables.Tables``.
"""

from __future__ import annotations

from collections import namedtuple

#: the scene, read only: per-character statics, skills, stunts, consequence slots, parameters,
#: zone sight and hops, free moves, reachable zones, advantage templates
Static = namedtuple("Static", "SC SK ST SLOTS P SIGHT HOPS ZF ZFN ZR ZRN TPL")
#: one fight: characters, marked boxes, used slots, globals, aspects (rows, free invokes, live
#: list), invoke marks, the roll record, the events written, the dice
State = namedtuple("State", "CH MARK SLOTA G A AF AL INV R EV RNG")
#: the state at a turn's start (a paused session resumes from it; a look-ahead's copies start there)
Checkpoint = namedtuple("Checkpoint", "CKCH CKMARK CKSLOTA CKG CKA CKAF CKAL CKINV CKRNG")
#: working buffers, sized for the scene once per call into the kernel
Scratch = namedtuple("Scratch", "buf skills allies payers pick_free pick_paid plans faces moves att_t att_s pool "
                                "usable adv_k adv_g")
