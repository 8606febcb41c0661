"""fate-npc: a Fate conflict engine, scene files, and NPC controllers.

``fate_env.env(scene=...)`` and ``fate_env.raw_env(...)`` give the PettingZoo
environment; they import PettingZoo only when called, so the rules core
(``fate_env.rules``) stays free of it.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys
import warnings
from typing import Any

__version__ = "0.1.0"

#: modules that moved into the folders by audience (0.2): the old name still imports, with a
#: DeprecationWarning, until 0.3
MOVED = {
    **{m: f"content.{m}" for m in ("scenes", "yaml_input", "json_input", "importers", "npc_spec", "scene_template",
                                   "dials", "policy_file", "paths", "safe_text", "narrate")},
    **{m: f"live.{m}" for m in ("session", "state_panel", "table_menu", "handles", "report", "consequence_names")},
    **{m: f"evaluation.{m}" for m in ("stats", "cluster")},
    **{m: f"learn.{m}" for m in ("training", "league", "league_training", "exploit", "imitation", "ray_training")},
}


class _MovedModules(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """``import fate_env.scenes`` gives ``fate_env.content.scenes`` itself (one module object, so
    patching either name patches both), and says where it went."""

    def find_spec(self, fullname: str, path: Any, target: Any = None):
        prefix, _, name = fullname.partition(".")
        if prefix == __name__ and name in MOVED:
            return importlib.util.spec_from_loader(fullname, self)
        return None

    def create_module(self, spec):
        new = f"{__name__}.{MOVED[spec.name.partition('.')[2]]}"
        warnings.warn(f"{spec.name} moved to {new}; the old name goes in fate-npc 0.3", DeprecationWarning,
                      stacklevel=2)
        return importlib.import_module(new)

    def exec_module(self, module) -> None:
        pass


sys.meta_path.append(_MovedModules())


def env(**kwargs: Any):
    """The wrapped PettingZoo AEC environment (see ``fate_env.environment.aec``)."""
    from .environment.aec import env as _env
    return _env(**kwargs)


def raw_env(**kwargs: Any):
    """The bare PettingZoo AEC environment."""
    from .environment.aec import raw_env as _raw_env
    return _raw_env(**kwargs)
