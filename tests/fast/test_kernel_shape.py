"""The fast core's shape: no compiled function takes more than 12 parameters (the larger flows
take the bundles of ``fast/bundles.py``), and the bundles name arrays the kernel has."""

from __future__ import annotations

import ast

from fate_env.fast import bundles
from fate_env.fast.jit import kernel_files
from fate_env.fast.tables import Tables

MAX_PARAMETERS = 12


def _compiled_functions():
    for path in kernel_files():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef) and any("njit" in ast.unparse(d) for d in node.decorator_list):
                yield path, node


def test_kernel_functions_are_found():
    names = {node.name for _, node in _compiled_functions()}
    assert {"play_batch", "advance", "playouts", "_turn", "_run", "observe"} <= names


def test_no_kernel_function_takes_more_than_twelve_parameters():
    wide = [f"{path.name}:{node.lineno} {node.name} takes {len(node.args.args)}"
            for path, node in _compiled_functions() if len(node.args.args) > MAX_PARAMETERS]
    assert wide == []


def test_the_scene_bundle_is_the_tables_arrays():
    fields = {f for f in Tables.__dataclass_fields__}
    assert set(bundles.Scene._fields) <= fields
    # every array the tables hold travels in the bundle
    arrays = {f for f, spec in Tables.__dataclass_fields__.items() if spec.type == "np.ndarray"}
    assert arrays == set(bundles.Scene._fields)


