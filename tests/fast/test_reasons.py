"""The scripted reasons are declared once (content/reasons.py): the fast core's decoder spells every
kernel reason code from there, and the Python controllers format the same strings."""

from __future__ import annotations

import ast
import string
from pathlib import Path

from fate_env.content.reasons import REASONS
from fate_env.fast import kernel as k
from fate_env.fast.decode import OPTION_FIELDS, REASON_KEYS

ROOT = Path(__file__).resolve().parents[2]


def _keys_used_by_controllers() -> set[str]:
    used = set()
    for path in (ROOT / "agents").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "reason":
                key = node.args[0]
                if isinstance(key, ast.JoinedStr):  # f"{word}_invoke_{bearing}": the prefix, then each bearing
                    used |= {key.values[0].value + how for how in k.BEARINGS}
                else:
                    used.add(key.value)
    return used


def test_every_kernel_reason_code_has_a_shared_reason():
    roll_fields = {"R_ACTOR", "R_OPP", "R_BASE", "R_FACES", "R_BONUS", "R_OBASE", "R_OFACES", "R_OBONUS", "R_Z1",
                   "R_Z2", "R_ACTION"}  # R_* also names the roll record's fields (kernel/layout.py)
    codes = {value for name, value in vars(k).items() if name.startswith("R_") and name not in roll_fields}
    # an invoke's reason code is R_I_FREE or R_I_PAID plus how the aspect bears on the roll
    codes |= {base + bear for base in (k.R_I_FREE, k.R_I_PAID) for bear in range(len(k.BEARINGS))}
    assert codes == set(REASON_KEYS) == set(range(len(REASON_KEYS)))
    assert set(REASON_KEYS.values()) == set(REASONS)


def test_every_shared_reason_is_one_a_controller_gives():
    assert set(REASONS) - _keys_used_by_controllers() == {"agent"}  # an agent's decisions carry no reason


def test_the_fields_a_reason_names_are_ones_the_decoder_fills():
    fields = {f for text in REASONS.values() for _, f, _, _ in string.Formatter().parse(text) if f}
    assert fields <= set(OPTION_FIELDS) | {"aspect", "held", "mediocre", "foes", "severity", "offerer", "task"}
