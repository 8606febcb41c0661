"""A plain, non-editable install carries the shipped scenes and rule sets (issue 34): the wheel is
built from this checkout and installed into a folder of its own, and ``fate-npc`` runs a shipped
scene from a folder that is not the repository."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from conftest import ROOT


def _builds_here() -> bool:
    """Whether this environment's own setuptools can build the wheel (pyproject.toml asks for 77 or
    later); if not, pip builds it in an isolated environment with the setuptools it fetches."""
    from importlib import metadata
    try:
        major = int(metadata.version("setuptools").split(".")[0])
        metadata.version("wheel")
    except (metadata.PackageNotFoundError, ValueError):
        return False
    return major >= 77


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    wheels, target = tmp_path_factory.mktemp("wheel"), tmp_path_factory.mktemp("site")
    isolation = ["--no-build-isolation"] if _builds_here() else []
    build = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", *isolation,
                            "-w", str(wheels), str(ROOT)], capture_output=True, text=True, timeout=300)
    if build.returncode and "No module named pip" in build.stderr:
        pytest.skip("no pip in this interpreter")
    assert build.returncode == 0, build.stderr
    (wheel,) = wheels.glob("fate_npc-*.whl")
    done = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(target),
                           str(wheel)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return target


def _run(installed, elsewhere, *argv):
    env = {k: v for k, v in os.environ.items() if k != "FATE_NPC_CONFIGS"}
    env["PYTHONPATH"] = str(installed)
    return subprocess.run([sys.executable, *argv], cwd=elsewhere, env=env, capture_output=True, text=True, timeout=300)


def test_the_installed_package_reads_its_own_copy_of_the_configs(installed, tmp_path):
    r = _run(installed, tmp_path, "-c", "import fate_env.content.scenes as s; print(s.__file__); print(s.config_dir())")
    module, configs = r.stdout.split()
    assert module.startswith(str(installed)) and configs == str(installed / "fate_env" / "configs"), r.stderr
    assert sorted(p.name for p in (installed / "fate_env" / "configs" / "scenes").glob("*.yaml")) == \
        sorted(p.name for p in (ROOT / "configs" / "scenes").glob("*.yaml"))


def test_fate_npc_resolves_a_shipped_scene_from_any_folder(installed, tmp_path):
    r = _run(installed, tmp_path, "-m", "fate_env.cli", "resolve", "warehouse", "--seed", "1")
    assert r.returncode == 0 and "Winner" in r.stdout, r.stderr
    r = _run(installed, tmp_path, str(installed / "bin" / "fate-npc"), "scenes")
    assert r.returncode == 0 and "warehouse" in r.stdout, r.stderr
