"""Which scenes the fast core plays (issue 38's shares): the shipped scenes under their own rule set,
under Fate Condensed and under Fate Core; a scene written by `fate-npc new`; and a scene holding
each character of the importers' real-file fixtures (tests/data/import/), pasted into the warehouse
in a PC's place; and generated scenes (``content/generate.py``, as GMs write them), by rule set, on
the seeds ``--generated`` names (fresh ones: a range no one tuned on). A scene the kernel does not
play is listed with its first reason; for the generated ones, each reason with how many scenes it
stops and how many it alone stops.

    python scripts/fast_coverage.py [--generated 1600:2000]

Nothing is timed: the figures depend only on the code (fate_env/fast/coverage.py).
"""

from __future__ import annotations

import argparse
import collections
import tempfile
from pathlib import Path

from fate_env.content.generate import scene as generated
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


def generated_share(first: int, last: int) -> None:
    """Generated scenes on seeds first..last-1: the share the fast core plays by rule set, and why not."""
    total, played = collections.Counter(), collections.Counter()
    stops, alone = collections.Counter(), collections.Counter()
    for seed in range(first, last):
        data = generated(seed)
        rules = data["rules"] if isinstance(data.get("rules"), str) else (data.get("rules") or {}).get("name", "condensed")
        total[rules] += 1
        why = covered(scene_from_dict(data, f"generated {seed}"))
        if not why:
            played[rules] += 1
            continue
        reasons = {f"{rules}: {w.split(':')[0]}" for w in why}
        stops.update(reasons)
        if len(reasons) == 1:
            alone.update(reasons)
    print(f"generated, seeds {first}-{last - 1}: " + ", ".join(f"{r} {played[r]} of {total[r]}" for r in sorted(total))
          + f"; all {sum(played.values())} of {sum(total.values())}")
    for reason, n in sorted(stops.items()):
        print(f"    {n:4} stopped by {reason} (by it alone: {alone[reason]})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--generated", default="1600:2000", help="a range of generator seeds, FIRST:LAST")
    args = ap.parse_args()
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
    first, last = (int(x) for x in args.generated.split(":"))
    generated_share(first, last)


if __name__ == "__main__":
    main()
