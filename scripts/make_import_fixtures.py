"""How tests/data/import/fari/*.json were made: Fari's own Fate templates (their layout, version,
field names, nesting and labels, in every language Fari ships them) filled in as a GM would fill
them, with our own character and fresh ids. Run against a checkout of https://github.com/farirpgs/fari-app
(the fixtures were made from commit 8aebafb67dbb4ff56e152b5065c2c7b1000baa1f); each fixture's source file
is listed in tests/data/import/fari/SOURCES.md.

    python scripts/make_import_fixtures.py --fari PATH_TO_FARI_CHECKOUT
"""

from __future__ import annotations

import argparse
import json
import uuid
from pathlib import Path

TEMPLATES = Path("lib/domains/character/character-templates")
OUT = Path(__file__).resolve().parents[1] / "tests" / "data" / "import" / "fari"

#: template -> (fixture name, the ratings written into it by label as the sheet spells them)
FILL: dict[str, tuple[str, dict[str, int]]] = {
    "Fate Core/Fate Core.json": ("core_en", {"Fight": 4, "Athletics": 3, "Will": 2, "Physique": 2, "Notice": 1}),
    "Fate Core/Fate Core (DE).json": ("core_de", {"Kämpfen": 4, "Athletik": 3, "Wille": 2, "Kraft": 2, "Wahrnehmung": 1}),
    "Fate Core/Fate Core (ES).json": ("core_es", {"Pelear": 4, "Atletismo": 3, "Voluntad": 2, "Físico": 2, "Percepción": 1}),
    "Fate Core/Fate Core (FR).json": ("core_fr", {"combat": 4, "Athlétisme": 3, "volonté": 2, "Physique": 2, "observation": 1}),
    "Fate Core/Fate Core (ITA).json": ("core_it", {"COMBATTERE": 4, "ATLETICA": 3, "VOLONTA'": 2, "FISICO": 2, "DISCREZIONE": 1}),
    "Fate Core/Fate Core (PL).json": ("core_pl", {"walka": 4, "Sprawność": 3, "wola": 2, "Budowa": 2, "Spostrzegawczość": 1}),
    "Fate Core/Fate Core General.json": ("core_general", {}),
    "Fate Condensed/Fate Condensed.json": ("condensed_en", {"Fight": 4, "Athletics": 3, "Will": 2, "Physique": 2, "Notice": 1}),
    "Fate Condensed/Fate Condensed (DE).json": ("condensed_de", {"Kämpfen": 4, "Athletik": 3, "Wille": 2, "Kraft": 2, "Bildung": 1}),
    "Fate Condensed/Fate Condensed (ES).json": ("condensed_es", {"Pelear": 4, "Atletismo": 3, "Voluntad": 2, "Físico": 2, "Conocimiento Académico": 1}),
    "Fate Condensed/Fate Condensed (IT).json": ("condensed_it", {"Combattere": 4, "Atletica": 3, "Volontà": 2, "Fisico": 2, "Conoscenze": 1}),
    "Fate Condensed/Fate Condensed (PL).json": ("condensed_pl", {"walka": 4, "Sprawność": 3, "wola": 2, "Budowa": 2, "nauka": 1}),
    "Fate Condensed/Fate Condensed (PT-BR).json": ("condensed_ptbr", {"lutar": 4, "Atletismo": 3, "vontade": 2, "vigor": 2, "Estudos": 1}),
    "Fate Condensed/Fate Condensed (TR).json": ("condensed_tr", {"Yakın dövüş": 4, "ÇEVİKLİK": 3, "İrade": 2, "Beden": 2, "Gözlem": 1}),
    "Fate Accelerated/Fate Accelerated.json": ("accelerated_en", {}),
    "Fate Accelerated/FateAccelerated (DE).json": ("accelerated_de", {}),
    "Fate Accelerated/Fate Accelerated (ES).json": ("accelerated_es", {}),
    "Fate Accelerated/Fate Accelerated (FR).json": ("accelerated_fr", {}),
    "Fate Accelerated/Fate Accelerated (PL).json": ("accelerated_pl", {}),
    "Fate Accelerated/Fate Accelerated (PT-BR).json": ("accelerated_ptbr", {}),
    "Fate Of Cthulhu/Fate Of Cthulhu.json": ("cthulhu", {"Fight": 4, "Athletics": 3, "Will": 2, "Physique": 2, "Notice": 1}),
}
ASPECTS = ["Veteran of the Harbour Wars", "Owes the Wrong People", "My Sister Runs the Docks", "Knows Every Alley",
           "Never Leaves a Friend Behind"]
STUNTS = ["Brawler: +2 to Fight when you attack.", "Iron Will: You can use Will to defend against Provoke attacks.",
          "Tough as Nails: You get two additional physical stress boxes."]


#: sheets that are not Fate templates, each made the way a user would meet it (issue 48's real files):
#: source -> (fixture, how it is made)
OTHERS: dict[str, tuple[str, str]] = {
    "lib/domains/character/mocks/LoremIpsum.json": ("mock_stress_test", "scrub"),
    f"{TEMPLATES}/Tachyon Squadron/Tachyon Squadron - Ship.json": ("tachyon_ship", "ship"),
    f"{TEMPLATES}/Dungeons and Dragons/DnD 5e.json": ("dnd5e", "name"),
}
SHIP = {"aspect": "Patched Hull, Proud Crew",
        "stunt or power": ["Twin Cannons: +2 to Shoot when you attack.", "Ejection Seat: the pilot walks away from a wreck."]}


def other(data: dict, how: str, name: str) -> dict:
    """Fari's stress-test mock with its filler words replaced by ours (its layout and its 999 ratings
    kept); the Tachyon Squadron ship with our aspect and stunts where the template keeps its own; the
    D&D sheet as Fari ships it, named."""
    data = json.loads(json.dumps(data))
    data["name"] = name
    data["id"] = str(uuid.uuid5(uuid.NAMESPACE_URL, f"fate-npc/{name}"))
    stunts = iter(SHIP["stunt or power"])
    for i, s in enumerate(_sections(data)):
        if how == "scrub" and s.get("label") != "Skills":
            s["label"] = f"Filler section {i}"
        for j, b in enumerate(s.get("blocks", [])):
            if how == "scrub":
                b["label"] = f"Filler {b['type']} {i}.{j}"
                if b["type"] in ("Text", "RichText") and b.get("value"):
                    b["value"] = f"Filler words {i}.{j}"
                elif b["type"] == "SlotTracker":
                    b["value"] = [{**box, "label": str(k + 1)} for k, box in enumerate(b["value"])]
            elif how == "ship" and b["type"] == "Text" and b.get("label") == "aspect":
                b["value"] = SHIP["aspect"]
            elif how == "ship" and b["type"] == "Text" and b.get("label") == "stunt or power":
                b["value"] = next(stunts)
    return data


def fill(data: dict, ratings: dict[str, int], name: str) -> dict:
    data = json.loads(json.dumps(data))
    data["name"] = name
    data["id"] = str(uuid.uuid5(uuid.NAMESPACE_URL, f"fate-npc/{name}"))
    counters = {"n": 0}

    def fresh() -> str:
        counters["n"] += 1
        return str(uuid.uuid5(uuid.NAMESPACE_URL, f"fate-npc/{name}/{counters['n']}"))

    section_no = {"aspect": 0, "stunt": 0}
    pyramid = {"5": "", "4": "Fight", "3": "Athletics, Notice", "2": "Will, Physique", "1": ""}
    approach = iter([3, 2, 2, 1, 1, 0])
    for s in _sections(data):
        s["id"] = fresh()
        kind = _kind(s)
        for b in s.get("blocks", []):
            b["id"] = fresh()
            if b["type"] == "Skill":
                label = b.get("label", "")
                if label.lstrip("+")[:1].isdigit() and ":" in label:  # a pyramid row (Fate Core General)
                    rating = label.lstrip("+")[0]
                    b["label"] = f"{label.split(':')[0]}: {pyramid[rating]}".rstrip(": ") + (":" if not pyramid[rating] else "")
                elif ratings:
                    b["value"] = str(ratings[label]) if label in ratings else ""
                else:  # approaches (Fate Accelerated): Good, Fair, Fair, Average, Average, Mediocre
                    b["value"] = str(next(approach, 0))
            elif b["type"] == "Text" and kind == "aspect" and section_no["aspect"] < len(ASPECTS):
                b["value"] = ASPECTS[section_no["aspect"]]
                section_no["aspect"] += 1
            elif b["type"] == "Text" and kind == "stunt" and section_no["stunt"] < len(STUNTS):
                b["value"] = STUNTS[section_no["stunt"]]
                section_no["stunt"] += 1
    return data


def _kind(section: dict) -> str:
    label = section.get("label", "").lower()
    if "aspe" in label:
        return "aspect"
    if any(w in label for w in ("stunt", "proez", "talent", "sztucz", "prouess", "faça")):
        return "stunt"
    return ""


def _sections(data: dict):
    for p in data.get("pages", []):
        held = p.get("sections")
        if isinstance(held, list):
            yield from held
        elif isinstance(held, dict):
            for side in held.values():
                yield from side
        for r in p.get("rows") or []:
            for c in r["columns"]:
                yield from c["sections"]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--fari", type=Path, required=True, help="a checkout of farirpgs/fari-app")
    args = p.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    for template, (fixture, ratings) in FILL.items():
        data = json.loads((args.fari / TEMPLATES / template).read_text(encoding="utf-8"))
        out = fill(data, ratings, "Magda Ørsted-Kowalczyk")
        (OUT / f"{fixture}.json").write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"{fixture}.json <- {TEMPLATES / template}")
    names = {"mock_stress_test": "Stress Test", "tachyon_ship": "SF-46D Blackfish", "dnd5e": "Brannoc the Bold"}
    for source, (fixture, how) in OTHERS.items():
        data = json.loads((args.fari / source).read_text(encoding="utf-8"))
        (OUT / f"{fixture}.json").write_text(json.dumps(other(data, how, names[fixture]), indent=1, ensure_ascii=False)
                                             + "\n", encoding="utf-8")
        print(f"{fixture}.json <- {source}")


if __name__ == "__main__":
    main()
