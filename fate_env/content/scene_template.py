"""``fate-npc new SCENE``: a commented scene file to start from.

The template is a small, playable fight (two PCs against a major NPC and a mob) whose comments
name every field a GM is likely to want first, what it takes and what it defaults to; docs/scene_format.md's
"Scene files" section has the whole list. ``tests/test_cli.py`` loads and resolves what it writes,
under every rule set, so the template cannot drift from the loader.
"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

from .npc_spec import slug
from .paths import check_output, write_atomically
from .safe_text import printable

TEMPLATE = """\
# A scene for fate-npc. Check it with `fate-npc validate {path}`, play it with
# `fate-npc resolve {path}`; docs/scene_format.md lists every field.
name: {name}
title: {title}
description: >
  One or two sentences for the GM: what is at stake, who wants what.
rules: {rules}            # condensed (default), core, fate2 or fate3; or {{name: core, dials: {{weapons: true}}}}
conflict: physical        # physical or mental: the stress track attacks harm
kind: conflict            # conflict (default), contest or challenge (these need their own section)
first: hero               # who opens the first exchange under popcorn order (default: by skills)
# Reach: melee attacks (Fight) hit the attacker's zone only; ranged ones (Shoot, or a use_skill
# stunt with reach: ranged) reach this many zones away (default 1; 0 keeps every shot in its zone).
shoot_range: 2
foes_block_movement: false  # true: a foe in your zone stands in the way of leaving it

zones:                    # at least one; ids are what characters and borders name
  - {{id: street, name: The street}}
  - {{id: tavern, name: The tavern}}
borders:                  # which zones touch; difficulty and aspect impede the free move across
  - {{between: [street, tavern], difficulty: 1, aspect: Barred Door}}
aspects:                  # situation aspects: on the scene, or on one zone
  - {{name: Barred Door}}
  - {{name: Pouring Rain, zone: street}}

characters:
  hero:
    name: Ada Quill
    kind: pc              # pc, major, minor (a few boxes, no consequences) or mob (count members)
    side: pcs             # any name; two sides or more
    zone: street
    high_concept: Thief-Taker of the Docks
    trouble: Owes the Harbourmaster
    aspects: [Knows Every Alley]
    # Skills by name, 0-8. The 19 defaults (Fight, Shoot, Athletics, Physique, Will, Notice,
    # Provoke, Empathy, Rapport, Deceive, Lore...) or the scene's `skills:` list.
    skills: {{Fight: 3, Athletics: 2, Notice: 2, Physique: 1, Will: 1, Provoke: 1}}
    fate_points: 3        # PCs' fate points (default: refresh, 3); NPCs draw on the GM's pool
    stunts:
      # A bonus stunt: +2 (bonus) to a skill for an action, when a circumstance holds, one the
      # engine can check: "aspect: NAME", "zone: ZONE", "target: ID" (quoted, or as a mapping:
      # {{zone: street}}), same_zone, other_zone or full_defense. The name may be left out.
      - {{name: Alley Fighter, kind: bonus, skill: Fight, action: attack, when: {{zone: street}}}}
  friend:
    name: Brother Tam
    kind: pc
    side: pcs
    zone: street
    high_concept: Fighting Monk on Leave
    skills: {{Will: 3, Physique: 2, Fight: 2, Lore: 1}}
    stunts:
      # use_skill: attack with a skill that cannot otherwise (here Lore, at range).
      - {{name: Words of Binding, kind: use_skill, skill: Lore, action: attack, reach: ranged}}
  boss:
    name: Red Mags
    kind: major           # takes consequences like a PC
    side: gang
    zone: tavern
    high_concept: Queen of the Wharf Gangs
    trouble: Never Backs Down
    skills: {{Fight: 3, Provoke: 3, Athletics: 2, Physique: 2}}
    controller: tactician # who plays it: basic (default), tactician, sniper, brute, coward, ...
  gang:
    name: Wharf rats
    kind: mob             # identical members acting as one: teamwork bonus, hits roll on
    count: 3
    side: gang
    zone: tavern
    skills: {{Fight: 1, Athletics: 1}}
    stress: 1             # boxes per member (minor NPCs and mobs, 0-3)
  # A character may be one line: name (xN: a mob of N), kind, skills, stress, key: value fields.
  bouncer: "Bouncer: minor, Fight 2, Physique 2, stress 2, side: gang, zone: tavern"

# Held back for the GM: `/add watch` in live play brings them in mid-fight.
reserves:
  watch: "City Watch x3: mob, Fight 2, Notice 1, side: gang, zone: street"

# Names for the consequences taken here, used in order (live play also asks for names).
consequence_names:
  mild: [Split Lip, Bloody Knuckles]
  moderate: [Cracked Ribs]
"""


def write(path: str | Path, rules: str = "condensed", force: bool = False) -> Path:
    """Write the template to ``path`` (``.yaml`` added when it has no suffix), its scene id made
    from the file name (``My Scene.yaml`` -> ``my_scene``). Refuses, changing nothing, if the file
    exists and ``force`` is not given."""
    p = Path(path)
    if not p.suffix:
        p = p.with_suffix(".yaml")
    check_output(p, "new", force=force)  # OutputPathError: a missing folder, or a file there already
    name = slug(p.stem, "scene")
    title = " ".join(w[:1].upper() + w[1:] for w in re.split(r"[\s_-]+", p.stem) if w) or "New Scene"
    write_atomically(p, TEMPLATE.format(path=_quoted(str(p)), name=name, title=json.dumps(title, ensure_ascii=False),
                                        rules=rules))
    return p


def _quoted(path: str) -> str:
    """A path as the comment's command line would need it typed."""
    return printable(shlex.quote(path))  # a newline in a file name would end the comment
