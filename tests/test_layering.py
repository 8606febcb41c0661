"""The package's layering, checked on the source (issue 12): what may import what, what
controllers may touch, and how big a rules class may grow."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

from conftest import ROOT

RULES = ROOT / "fate_env" / "rules"


def _py(*dirs: Path) -> list[Path]:
    return sorted(p for d in dirs for p in d.rglob("*.py"))


def _imports(path: Path) -> list[tuple[int, str]]:
    """Every absolute module a file imports (anywhere in it, functions included)."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            out.extend((node.lineno, a.name) for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            out.append((node.lineno, node.module))
    return out


def test_the_rules_core_is_pure():
    """Standard library and numpy only: no PettingZoo, Gymnasium, torch, SB3, nor anything else."""
    bad = [f"{p.relative_to(ROOT)}:{line} imports {mod}" for p in _py(RULES) for line, mod in _imports(p)
           if mod.split(".")[0] not in sys.stdlib_module_names | {"numpy", "fate_env"}
           or mod.startswith("fate_env.") and not mod.startswith("fate_env.rules")]
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("layer", ["rules", "environment"])
def test_rules_and_environment_import_nothing_from_agents(layer):
    bad = [f"{p.relative_to(ROOT)}:{line} imports {mod}" for p in _py(ROOT / "fate_env" / layer)
           for line, mod in _imports(p) if mod.split(".")[0] == "agents"]
    assert not bad, "\n".join(bad)


def test_no_class_swaps():
    bad = []
    for p in _py(ROOT / "fate_env", ROOT / "agents"):
        for node in ast.walk(ast.parse(p.read_text())):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(
                node, (ast.AugAssign, ast.AnnAssign)) else []
            bad.extend(f"{p.relative_to(ROOT)}:{node.lineno}" for t in targets
                       if isinstance(t, ast.Attribute) and t.attr == "__class__")
    assert not bad, "__class__ assigned at " + ", ".join(bad)


def _private_uses(path: Path) -> list[str]:
    """Attribute reads of ``_name`` on anything but ``self``, ``cls`` or ``super()``."""
    out = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
            owner = node.value
            if isinstance(owner, ast.Name) and owner.id in ("self", "cls"):
                continue
            if isinstance(owner, ast.Call) and isinstance(owner.func, ast.Name) and owner.func.id == "super":
                continue
            out.append(f"{path.relative_to(ROOT)}:{node.lineno} .{node.attr}")
    return out


def test_no_controller_touches_a_private_member():
    """Controllers read the engine through its public view (fate_env/rules/view.py) only."""
    bad = [u for p in _py(ROOT / "agents") for u in _private_uses(p)]
    assert not bad, "\n".join(bad)


def test_the_check_catches_a_private_use(tmp_path):
    probe = ROOT / "agents" / "_probe_for_test.py"
    probe.write_text("def f(c):\n    return c._effective('x', 'Fight', 'attack')\n")
    try:
        assert _private_uses(probe) == ["agents/_probe_for_test.py:2 ._effective"]
    finally:
        probe.unlink()


def _private_imports(path: Path, root: Path = ROOT) -> list[str]:
    """Names ``_like_this`` a module imports from another of the project's (the fast core's kernel
    aside: its compiled functions are private by its own convention, and only ``fast/`` reaches in)."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if not isinstance(node, ast.ImportFrom) or node.module == "__future__":
            continue
        ours = node.level > 0 or (node.module or "").split(".")[0] in ("fate_env", "agents")
        kernel = "kernel" in (node.module or "").split(".") or "kernel" in path.relative_to(root).parts
        out.extend(f"{path.relative_to(root)}:{node.lineno} imports {a.name}" for a in node.names
                   if ours and not kernel and a.name.startswith("_") and not a.name.startswith("__"))
    return out


def test_no_private_name_is_imported_across_modules():
    """A name with a leading underscore is its module's own: another module that needs it needs a
    public name (the scene builder's parts, the fast core's decoding, issue 77)."""
    bad = [line for p in _py(ROOT / "fate_env", ROOT / "agents") for line in _private_imports(p)]
    assert not bad, "\n".join(bad)


def test_the_private_import_check_catches_one(tmp_path):
    probe = tmp_path / "fate_env" / "content" / "probe.py"
    probe.parent.mkdir(parents=True)
    probe.write_text("from .scene_build import _character, build\nfrom .kernel.stress import _cap\n")
    assert _private_imports(probe, tmp_path) == ["fate_env/content/probe.py:1 imports _character"]


def test_no_rules_class_over_400_lines():
    bad = []
    for p in _py(RULES):
        for node in ast.walk(ast.parse(p.read_text())):
            if isinstance(node, ast.ClassDef) and node.end_lineno - node.lineno + 1 > 400:
                bad.append(f"{p.relative_to(ROOT)}: {node.name} has {node.end_lineno - node.lineno + 1} lines")
    assert not bad, "\n".join(bad)


def test_actions_are_offered_in_the_order_saved_sessions_and_models_rely_on():
    from fate_env.rules.actions import ACTIONS
    names = [a.option.__name__ for a in ACTIONS]
    assert names[:19] == ["Move", "Attack", "CreateAdvantage", "Exploit", "OvercomeMove", "RemoveAspect", "TakeTask",
                     "TurnToContest", "FullDefense", "Support", "Concede", "Pass",
                     # issue 15's, appended: offered only in scenes that use them, so no earlier index moves
                     "ZoneAttack", "SplitAttack", "ShoveInto",
                     # the FATE 2.0 and Fate 3.0 rule sets', appended the same way
                     "Hold", "Protect", "BlockAction", "SplitAdvantage"], "an action moved: append new ones"
    modules = {p.stem for p in (RULES / "actions").glob("*.py")} - {"__init__", "base"}
    assert {a.run.__module__.rsplit(".", 1)[1] for a in ACTIONS} == modules, "an action module is not registered"


def test_tests_mirror_the_package():
    """Each test folder is named for the package folder it tests."""
    package = {name: ROOT / "fate_env" / name for name in PARTS if name not in ("agents", "top")}
    package["agents"] = ROOT / "agents"
    folders = {p.name for p in (ROOT / "tests").iterdir() if p.is_dir() and any(p.glob("test_*.py"))}
    assert folders <= set(package), f"test folders without a package folder: {folders - set(package)}"
    for name in folders:
        assert package[name].is_dir()


#: the parts, lowest first: each imports only parts before it (function-level imports included).
#: ``agents`` (the controllers) sits in the middle: the rules, content, the fast core and the
#: environment never import it (controllers are handed in); learned controllers read the
#: environment's observation encoder. ``top`` is ``fate_env/__init__.py``, ``cli.py`` and
#: ``reference.py`` (the docs generator): tools over everything.
PARTS = ["rules", "content", "fast", "environment", "agents", "live", "web", "evaluation", "design", "learn", "top"]


def _part(module: str) -> str | None:
    head, _, rest = module.partition(".")
    if head == "agents":
        return "agents"
    if head != "fate_env":
        return None
    sub = rest.partition(".")[0]
    return sub if sub in PARTS else "top"


def _module(path: Path, root: Path = ROOT) -> tuple[str, list[str]]:
    parts = list(path.relative_to(root).with_suffix("").parts)
    package = parts[:-1]
    if parts[-1] == "__init__":
        parts = package
    return ".".join(parts), package


def _from_module(node: ast.ImportFrom, package: list[str]) -> str:
    """The absolute module a ``from ... import`` names, relative levels resolved against ``package``."""
    base = ".".join(package[:len(package) - node.level + 1]) if node.level else ""
    return ".".join(x for x in (base, node.module or "") if x)


def _part_edges() -> dict[tuple[str, str], list[str]]:
    """(importer's part, imported part) -> where, for every import in fate_env/ and agents/."""
    edges: dict[tuple[str, str], list[str]] = {}
    for path in _py(ROOT / "fate_env", ROOT / "agents"):
        name, package = _module(path)
        mine = _part(name)
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                module = _from_module(node, package)
                # ``from fate_env import fast``: the names may be modules themselves
                targets = [module] if node.module and _part(module) != "top" else [f"{module}.{a.name}"
                                                                                     for a in node.names]
            else:
                continue
            for target in targets:
                theirs = _part(target)
                if theirs and theirs != mine:
                    edges.setdefault((mine, theirs), []).append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return edges


def test_every_part_imports_only_the_parts_below_it():
    rank = {p: i for i, p in enumerate(PARTS)}
    bad = [f"{a} -> {b}: {', '.join(where[:3])}" for (a, b), where in sorted(_part_edges().items())
           if rank[a] < rank[b]]
    assert not bad, "imports against the layering:\n" + "\n".join(bad)


def test_the_layering_check_sees_function_level_and_relative_imports():
    edges = _part_edges()
    assert ("fast", "content") in edges  # fast/core.py reads the policies' parameters inside a function
    assert ("live", "content") in edges and ("evaluation", "agents") in edges


def test_no_loose_modules_beside_the_parts():
    loose = sorted(p.name for p in (ROOT / "fate_env").glob("*.py"))
    assert loose == ["__init__.py", "cli.py", "reference.py"], loose


def test_an_old_module_name_still_imports_and_says_where_it_went():
    import importlib
    import warnings
    sys.modules.pop("fate_env.scenes", None)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        old = importlib.import_module("fate_env.scenes")
    from fate_env.content import scenes
    assert old is scenes
    assert any(issubclass(w.category, DeprecationWarning) and "fate_env.content.scenes" in str(w.message)
               for w in caught)


def _module_graph(folder: Path, root: Path = ROOT) -> dict[str, set[str]]:
    """Module -> the modules of the same folder tree it imports, at the top or inside a function (an
    import under ``if TYPE_CHECKING:`` runs nothing and is left out). ``from . import x`` names the
    module ``x``; ``from .x import y`` the module ``x`` (or ``x.y`` when that is a module)."""
    names = {_module(p, root)[0]: p for p in _py(folder)}
    graph: dict[str, set[str]] = {}
    for name, path in names.items():
        package = _module(path, root)[1]
        graph[name] = set()

        def visit(node: ast.AST) -> None:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                    continue
                targets: list[str] = []
                if isinstance(child, ast.Import):
                    targets = [a.name for a in child.names]
                elif isinstance(child, ast.ImportFrom):
                    module = _from_module(child, package)
                    targets = [module] + [f"{module}.{a.name}" for a in child.names]
                graph[name] |= {t for t in targets if t in names and t != name}
                visit(child)
        visit(ast.parse(path.read_text()))
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def strong(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            strong(v)
    return out


@pytest.mark.parametrize("folder", ["fate_env/rules", "agents", "fate_env/learn"])
def test_no_import_cycle_inside_the_rules_the_controllers_or_learning(folder):
    """No module of these folders imports (even from a function) one that imports it back: the rules
    core's modules stack in an order, each flow hands over through flows/registry.py, the controllers
    register themselves in agents/registry.py, the league callback is handed its trainer."""
    assert _cycles(_module_graph(ROOT / folder)) == []


def test_the_cycle_check_finds_a_cycle_made_through_a_function(tmp_path):
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from .b import f\n")
    (pkg / "b.py").write_text("def f():\n    from . import a\n")
    assert _cycles(_module_graph(pkg, tmp_path)) == [["pkg.a", "pkg.b"]]
    assert len(_module_graph(RULES)["fate_env.rules.engine"]) > 10  # the real graph is read too


def test_no_import_inside_a_function_in_the_rules():
    """Every import of the rules core is at the top of its module (or under TYPE_CHECKING), where the
    order the modules stack in can be read."""
    inner = []
    for path in _py(RULES):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for sub in ast.walk(node):
                    if isinstance(sub, (ast.Import, ast.ImportFrom)):
                        inner.append(f"{path.relative_to(ROOT)}:{sub.lineno}")
    assert inner == []


def _declared(protocol: type) -> set[str]:
    return set(protocol.__annotations__) | {n for n, v in vars(protocol).items() if callable(v) and not n.startswith("__")}


def test_the_rules_use_of_the_scene_in_play_is_what_play_declares():
    """A rule reads and calls on ``e`` only what rules/play.py's ``Play`` declares (the table, the dice,
    emit, checkpoint and the scene's fixed facts), never the rest of the engine."""
    from fate_env.content.scenes import load_scene
    from fate_env.rules.engine import start
    from fate_env.rules.play import Play
    declared = _declared(Play)
    used: dict[str, str] = {}
    for path in _py(RULES):
        if path.name == "engine.py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "e":
                used.setdefault(node.attr, f"{path.relative_to(ROOT)}:{node.lineno}")
    assert {a: w for a, w in used.items() if a not in declared} == {}
    assert len(used) > 20  # the scan sees the rules' uses
    engine = start(load_scene("warehouse"), 1)
    assert [n for n in declared if not hasattr(engine, n)] == []  # the engine has everything Play declares


def test_no_rule_imports_the_engine():
    """The engine sits on the rules: none of them imports it, not even for its annotations."""
    bad = []
    for path in _py(RULES):
        if path.name in ("engine.py", "conflict.py") and path.parent == RULES:  # conflict.py: the old names
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and (node.module or "").endswith("engine"):
                bad.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert bad == []


def _dial_comparisons(tree: ast.AST) -> list[int]:
    """Lines where a choice dial's value is compared with words (``rules.concession == "offered"``)."""
    from fate_env.rules.ruleset import CHOICES
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Compare):
            continue
        sides = [node.left, *node.comparators]
        dial = any(isinstance(s, ast.Attribute) and s.attr in CHOICES for s in sides)
        words = any(isinstance(s, ast.Constant) and isinstance(s.value, str)
                    or isinstance(s, (ast.Tuple, ast.List, ast.Set)) and s.elts
                    and all(isinstance(x, ast.Constant) and isinstance(x.value, str) for x in s.elts) for s in sides)
        if dial and words:
            found.append(node.lineno)
    return found


def test_no_dial_value_is_compared_outside_the_facts_module():
    """A dial's meaning is worked out once, in fate_env/rules/facts.py, and every rule reads the fact
    (issue 73): a comparison of a dial's value anywhere else is a second copy of a rule waiting to
    disagree with the first (the concession payout did, between the event and the fate points)."""
    facts = ROOT / "fate_env" / "rules" / "facts.py"
    bad = []
    for p in [*_py(ROOT / "fate_env"), *_py(ROOT / "agents")]:
        if p == facts:
            continue
        bad += [f"{p.relative_to(ROOT)}:{line}" for line in _dial_comparisons(ast.parse(p.read_text()))]
    assert not bad, "dial values compared outside fate_env/rules/facts.py (read a fact instead):\n" + "\n".join(bad)


def test_the_dial_comparison_check_finds_what_it_looks_for():
    tree = ast.parse('if e.rules.concession == "offered" or r.turn_order in ("popcorn", "skills"): pass\n'
                     'if e.facts.concession_offered: pass')
    assert _dial_comparisons(tree) == [1, 1]
