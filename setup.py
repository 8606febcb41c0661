"""The build's one custom step: the shipped content travels with the package.

``configs/`` (scenes, rule sets, training configs, the NPC library, the policies file) stays at
the repository's top level, where a GM or designer edits it; a wheel or a non-editable install
copies it into the package as ``fate_env/configs``, where ``fate_env.content.scenes.config_dir`` finds it.
Everything else about the build is declared in ``pyproject.toml``.
"""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent


class build_py_with_configs(build_py):
    def run(self) -> None:
        super().run()
        source = HERE / "configs"
        target = Path(self.build_lib) / "fate_env" / "configs"
        if source.is_dir():
            shutil.copytree(source, target, dirs_exist_ok=True,
                            ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))


setup(cmdclass={"build_py": build_py_with_configs})
