"""Write the reference pages generated from the code (fate_env/reference.py):

    python scripts/make_docs.py          # docs/scene_format.md, docs/spaces.md, docs/not_modelled.md
    python scripts/make_docs.py --check  # exit 1 if any of them is out of date (the tests run this check)
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from fate_env.reference import not_modelled_reference, scene_reference, spaces_reference  # noqa: E402


def wanted() -> dict[Path, str]:
    """Each generated file's path and the text it should hold now."""
    return {ROOT / "docs" / "scene_format.md": "# Scene format: every field\n\n" + scene_reference(),
            ROOT / "docs" / "spaces.md": spaces_reference(),
            ROOT / "docs" / "not_modelled.md": "# Rules not modelled\n\n" + not_modelled_reference()}


def main(argv: list[str]) -> int:
    stale = [p for p, text in wanted().items() if not p.exists() or p.read_text(encoding="utf-8") != text]
    if "--check" in argv:
        for p in stale:
            print(f"{p.relative_to(ROOT)} is out of date: run python scripts/make_docs.py")
        return 1 if stale else 0
    for p, text in wanted().items():
        p.write_text(text, encoding="utf-8")
    print("wrote " + ", ".join(str(p.relative_to(ROOT)) for p in wanted()))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
