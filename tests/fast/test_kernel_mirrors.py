"""The kernel is organised like the reference: every compiled function names the reference
functions it mirrors (``kernel/mirror.py``), and every name imports."""

from __future__ import annotations

import ast
import importlib
import pkgutil

import pytest

from fate_env.fast import kernel
from fate_env.fast.jit import kernel_files
from fate_env.fast.kernel.mirror import MIRRORS, REASONS

MODULES = [importlib.import_module(f"fate_env.fast.kernel.{m.name}") for m in pkgutil.iter_modules(kernel.__path__)]


def _compiled() -> list[str]:
    out = []
    for path in kernel_files():
        if path.parent.name != "kernel":
            continue
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.FunctionDef) and any("njit" in ast.unparse(d) for d in node.decorator_list):
                out.append(f"fate_env.fast.kernel.{path.stem}.{node.name}")
    return out


def _resolve(path: str):
    parts = path.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for name in parts[cut:]:
            obj = getattr(obj, name)
        return obj
    raise ModuleNotFoundError(path)


def test_every_compiled_function_says_what_it_mirrors():
    compiled = _compiled()
    assert len(compiled) > 90
    assert [f for f in compiled if f not in MIRRORS] == []
    assert [f for f, targets in MIRRORS.items() if not targets and not REASONS.get(f)] == []


@pytest.mark.parametrize("target", sorted({t for ts in MIRRORS.values() for t in ts}))
def test_every_mirrored_target_imports(target):
    found = _resolve(target)
    assert callable(found) or isinstance(found, property)


def test_kernel_modules_import_only_lower_ones():
    """The order of kernel/__init__.py's docstring: no module imports one named after it."""
    order = ["layout", "mirror", "events", "table", "seats", "reach", "solo", "rolls", "aspects", "countdowns", "checkpoint", "stress",
             "basic", "harm", "tactics", "invokes", "protect", "block", "attack", "advantage", "overcome", "overcome_move", "exploit", "remove", "shove",
             "support", "zone_attack", "hazards", "task", "picks", "turn", "conflict", "contest", "challenge", "flow", "entry"]
    assert sorted(order) == sorted(m.__name__.rsplit(".", 1)[1] for m in MODULES)
    bad = []
    for module in MODULES:
        name = module.__name__.rsplit(".", 1)[1]
        for node in ast.walk(ast.parse(open(module.__file__).read())):
            if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module in order:
                if order.index(node.module) >= order.index(name):
                    bad.append(f"{name} imports {node.module}")
    assert bad == []


def test_each_kernel_function_mirrors_one_or_two_reference_functions():
    """The turn is its options, one pick per policy and the taking (issue 74): a kernel function that
    mirrors many reference functions is several of them woven together, and each new rule would
    weave into it again."""
    wide = {f: targets for f, targets in MIRRORS.items() if len(targets) > 2}
    assert wide == {}
