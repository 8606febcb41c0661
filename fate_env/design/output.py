"""What `fate-npc design` writes: the designed scene file, its report and the trade-offs plot.

The scene file is the one the GM wrote with the designed side's entries replaced: every other line
(the PCs' entries byte for byte, the map, the aspects, the comments) is kept, so a diff against the
original shows the design and nothing else. Each designed NPC is written out in full (no anchors)
under a comment that says what changed from the scene as written.
"""

from __future__ import annotations

import re
from typing import Any

import yaml

from . import space as S
from .judge import Figures


#: an entry that defines an anchor or uses an alias is written out in full (its source may go)
_ANCHORED = re.compile(r"(^|[\s\[{,:])[&*][^\s]")


def entries(text: str) -> tuple[Any, list[tuple[str, int, int]], int]:
    """The ``characters`` mapping's node, each entry's (id, first line, end line) and the indent."""
    root = yaml.compose(text, Loader=yaml.SafeLoader)
    node = next((v for k, v in root.value if k.value == "characters"), None)
    if node is None or not isinstance(node, yaml.MappingNode):
        raise S.DesignError("the scene file has no characters mapping to design")
    if node.flow_style:
        raise S.DesignError("the scene's characters are written in flow style ({...}); the designer rewrites "
                            "block-style entries (one character under another) so that the rest stays as written")
    starts = [k.start_mark.line for k, _ in node.value]
    ends = starts[1:] + [node.value[-1][1].end_mark.line + (0 if node.value[-1][1].end_mark.column == 0 else 1)]
    out = [(k.value, a, b) for (k, _), a, b in zip(node.value, starts, ends)]
    return node, out, node.value[0][0].start_mark.column


def _changes(before: dict[str, Any], after: dict[str, Any] | None, copies: int) -> str:
    """In words, what the design changed on one NPC as written."""
    if after is None:
        return "left out (0 of it)"
    out = []
    for s in sorted(set(before.get("skills", {})) | set(after.get("skills", {}))):
        a, b = before.get("skills", {}).get(s, 0), after.get("skills", {}).get(s, 0)
        if a != b:
            out.append(f"{s} {a} -> {b}")
    for key, default in (("stress", None), ("count", None), ("weapon", 0), ("armor", 0)):
        a, b = before.get(key, default), after.get(key, default)
        if a != b and b is not None:
            out.append(f"{key} {a if a is not None else 'default'} -> {b}")
    if after.get("zone") != before.get("zone"):
        out.append(f"starts in {after.get('zone')} (was {before.get('zone')})")
    if after.get("controller", "basic") != before.get("controller", "basic"):
        words = dict(S.ATTENTION).get(after["controller"], after["controller"])
        out.append(f"{words} ({after['controller']}; was {before.get('controller', 'basic')})")
    added = [x for x in after.get("aspects", []) if x not in before.get("aspects", [])]
    dropped = [x for x in before.get("aspects", []) if x not in after.get("aspects", [])]
    if added:
        out.append("aspects added: " + ", ".join(added))
    if dropped:
        out.append("aspects dropped: " + ", ".join(dropped))
    new_stunts = [st.get("name") for st in after.get("stunts", []) if st not in before.get("stunts", [])]
    if new_stunts:
        out.append("stunts added: " + ", ".join(new_stunts))
    if copies != 1:
        out.append(f"{copies} of it")
    return "; ".join(out) or "as written"


def _dump(cid: str, c: dict[str, Any], indent: int) -> list[str]:
    text = yaml.safe_dump({cid: c}, sort_keys=False, default_flow_style=None, allow_unicode=True, width=110)
    return [" " * indent + line for line in text.splitlines()]


def with_rules(text: str, rules: str | None) -> str:
    """``text`` with its rule set named ``rules`` (None: as written): the top-level ``rules`` scalar, or a
    ``rules`` mapping's ``name``, replaced where it stands; a file without one gains ``rules: NAME``
    after its ``name``. A file designed under ``--rules`` then benches as designed with no flag."""
    if rules is None:
        return text
    root = yaml.compose(text, Loader=yaml.SafeLoader)
    lines = text.splitlines(keepends=True)
    node = next((v for k, v in root.value if k.value == "rules"), None)
    if isinstance(node, yaml.MappingNode):
        node = next((v for k, v in node.value if k.value == "name"), node)
    if isinstance(node, yaml.ScalarNode):
        a, b = node.start_mark, node.end_mark
        if a.line != b.line:
            raise S.DesignError("the scene's rules name spans lines; write it on one line and design again")
        line = lines[a.line]
        lines[a.line] = line[:a.column] + rules + line[b.column:]
        return "".join(lines)
    if node is not None:  # a rules mapping without a name: the loader refuses it before the design
        raise S.DesignError("the scene's rules mapping has no name; give it one and design again")
    name = next((k for k, _ in root.value if k.value == "name"), None)
    at = name.end_mark.line + 1 if name is not None else 0
    lines.insert(at, f"rules: {rules}  # designed under --rules {rules}\n")
    return "".join(lines)


def designed_text(text: str, data: dict[str, Any], side: str, values: dict[str, int],
                  header: list[str], rules: str | None = None) -> str:
    """The scene file's text with ``side`` designed: ``header`` (comment lines) first, the designed
    side's entries where its first entry was, the rule set ``rules`` named (None: as written), every
    other line as written."""
    text = with_rules(text, rules)
    _, spans, indent = entries(text)
    lines = text.splitlines(keepends=True)
    ids = set(S.designed_ids(data, side))
    designed = S.designed_side(data, side, values, S.pc_peak(data))
    span = {cid: (a, b) for cid, a, b in spans}
    block: list[str] = []
    for cid in S.designed_ids(data, side):
        copies = S.copies(values, cid)
        original = "".join(lines[span[cid][0]:span[cid][1]])
        if copies == 1 and designed.get(cid) == data["characters"][cid] and not _ANCHORED.search(original):
            block.append(" " * indent + f"# designed: {cid}: kept as written")
            block += original.rstrip("\n").split("\n")
            continue
        block.append(" " * indent + f"# designed: {cid}: {_changes(data['characters'][cid], designed.get(cid), copies)}")
        for key, c in designed.items():
            if key == cid or key.startswith(f"{cid}_") and key not in data["characters"]:
                block += _dump(key, c, indent)
    added = [(key, c) for key, c in designed.items() if key not in data["characters"]
             and not any(key.startswith(f"{cid}_") for cid in ids)]
    for key, c in added:
        what = f"a mob of {c['count']} nameless NPCs" if c["kind"] == "mob" else "one nameless NPC"
        block.append(" " * indent + f"# designed: added {what} (name them, give them an aspect of the scene)")
        block += _dump(key, c, indent)
    out: list[str] = [f"# {h}\n" if h else "#\n" for h in header]
    skip: set[int] = set()
    first = None
    for cid, a, b in spans:
        if cid in ids:
            skip.update(range(a, b))
            first = a if first is None else first
    for i, line in enumerate(lines):
        if i == first:
            out += [x + "\n" for x in block]
        if i not in skip:
            out.append(line)
    if first is not None and first >= len(lines):
        out += [x + "\n" for x in block]
    return "".join(out)


def pc_lines(fig: Figures) -> list[str]:
    """A line per PC: who carried the fight (its share of the PCs' contribution: shifts dealt and the
    free invokes allies spent on its advantages; fights it came off worst)."""
    shares, worst = fig.shares(), fig.worst_rates()
    equal = 1 / len(fig.pcs) if fig.pcs else 0
    n = max(fig.fights, 1)
    return [f"  {p:>12}: {shares[p]:6.1%} of the PCs' contribution (an equal share is {equal:.1%}: "
            f"{fig.dealt.get(p, 0) / n:.1f} shifts and {fig.assists.get(p, 0) / n:.2f} assists a fight); "
            f"worst-off in {worst[p]:.1%} of fights" for p in fig.pcs]


def plot(path: str, trials: list, chosen: int, target: float) -> None:
    """The trade-offs the search saw: each candidate's PCs' win rate against how far a PC was left
    behind, coloured by the fight's length; the scene as written and the design marked."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    xs = [t.figures.win_rate for t in trials if t.figures]
    ys = [t.figures.left_behind() for t in trials if t.figures]
    cs = [t.figures.mean_exchanges for t in trials if t.figures]
    fig, ax = plt.subplots(figsize=(7, 4.5))
    sc = ax.scatter(xs, ys, c=cs, cmap="viridis", s=18)
    fig.colorbar(sc, ax=ax, label="mean exchanges")
    ax.axvline(target, color="grey", linestyle="--", linewidth=1, label=f"target {target:.0%}")
    first = next(t for t in trials if t.figures)
    ax.scatter([first.figures.win_rate], [first.figures.left_behind()], marker="s", s=60, facecolors="none",
               edgecolors="black", label="the scene as written")
    pick = next(t for t in trials if t.number == chosen)
    ax.scatter([pick.figures.win_rate], [pick.figures.left_behind()], marker="*", s=160, color="red",
               label="the design")
    ax.set_xlabel("PCs' win rate (search fights)")
    ax.set_ylabel("PC left behind (0: none)")
    ax.set_xlim(-0.02, 1.02)
    ax.legend(loc="upper left", fontsize=8)
    ax.set_title("fate-npc design: the candidates it judged")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
