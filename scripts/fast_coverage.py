"""Which scenes the fast core plays (issue 38's shares): the shipped scenes under their own rule set,
under Fate Condensed and under Fate Core; a scene written by `fate-npc new`; and a scene holding
each character of the importers' real-file fixtures (tests/data/import/), pasted into the warehouse
in a PC's place. A scene the kernel does not play is listed with its first reason.

    python scripts/fast_coverage.py

Nothing is timed: the figures depend only on the code (fate_env/fast/coverage.py).
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from fate_env.content.importers import ImportError_, read, to_character
from fate_env.content.scene_template import write
from fate_env.content.scenes import list_scenes, load_scene, read_scene_data, scene_from_dict
from fate_env.fast import covered
from fate_env.rules.skills import DEFAULT_SKILLS

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "data" / "import"


def share(label: str, results: dict[str, list[str]]) -> None:
    played = [name for name, why in results.items() if not why]
    print(f"{label:34} {len(played):3} of {len(results):3}")
    for name, why in results.items():
        if why:
            print(f"    {name:30} {why[0]}")


def imported(path: Path) -> dict[str, list[str]]:
    """Each character of one fixture file, in the warehouse in the first PC's place."""
    file, data = read_scene_data("warehouse")
    pc, sheet = next((cid, c) for cid, c in data["characters"].items() if c["kind"] == "pc")
    out = {}
    for i, c in enumerate(read(str(path))):
        char = to_character(c, "pc", sheet["side"], sheet["zone"])
        extra = sorted(set(char["skills"]) - set(DEFAULT_SKILLS))
        scene = scene_from_dict({**data, "skills": list(data.get("skills", [])) + extra,
                                 "characters": {**data["characters"], pc: char}}, file)
        out[f"{path.name}#{i}" if i else path.name] = covered(scene)
    return out


def main() -> None:
    names = list_scenes()
    share("shipped, own rule set", {n: covered(load_scene(n)) for n in names})
    for rules in ("condensed", "core"):
        share(f"shipped, {rules}", {n: covered(load_scene(n, rules=rules)) for n in names})
    with tempfile.TemporaryDirectory() as tmp:
        share("fate-npc new", {rules: covered(load_scene(write(Path(tmp) / f"mine_{rules}", rules=rules)))
                               for rules in ("condensed", "core")})
    for source in ("fari", "foundry"):
        results: dict[str, list[str]] = {}
        for path in sorted((FIXTURES / source).glob("*")):
            if path.suffix not in (".json", ".db") or "dnd5e" in path.name:  # dnd5e: refused by the importer
                continue
            try:
                results.update(imported(path))
            except ImportError_:  # a fixture the importer refuses on purpose (a pack of macros): no character
                continue
        share(f"import, {source} fixtures", results)


if __name__ == "__main__":
    main()
