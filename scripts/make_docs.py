"""Write the reference pages generated from the code (fate_env/reference.py):

    python scripts/make_docs.py          # docs/scene_format.md, docs/spaces.md, docs/not_modelled.md, the README's parts
    python scripts/make_docs.py --check  # exit 1 if any of them is out of date (the tests run this check)
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from fate_env.reference import not_modelled_reference, scene_reference, spaces_reference  # noqa: E402

START, END = "<!-- scene-reference:start -->", "<!-- scene-reference:end -->"
NM_START, NM_END = "<!-- not-modelled:start -->", "<!-- not-modelled:end -->"


def _between(text: str, start: str, end: str, body: str, name: str) -> str:
    """``text`` with what stands between the markers ``start`` and ``end`` replaced by ``body``."""
    head, _, rest = text.partition(start)
    if not rest or end not in rest:
        raise SystemExit(f"{name}: expected the markers {start} ... {end}")
    _, _, tail = rest.partition(end)
    return f"{head}{start}\n{body}{end}{tail}"


def wanted() -> dict[Path, str]:
    """Each generated file's path and the text it should hold now."""
    scene, missing = scene_reference(), not_modelled_reference()
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    readme = _between(readme, START, END, scene, "README.md")
    readme = _between(readme, NM_START, NM_END, missing, "README.md")
    return {ROOT / "docs" / "scene_format.md": "# Scene format: every field\n\n" + scene,
            ROOT / "docs" / "spaces.md": spaces_reference(),
            ROOT / "docs" / "not_modelled.md": "# Rules not modelled\n\n" + missing,
            ROOT / "README.md": readme}


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
