"""The scripted policies' parameters: read in one place, by the Python controllers
(``agents/``) and the fast core alike, so the two can never play with different numbers.

The values live in ``configs/policies.yaml`` (config, not code); a key a policy's entry leaves
out takes the defaults below, which are ``basic``'s.
"""

from __future__ import annotations

from .safe_text import OneLineError

import functools
import math
from typing import Any

#: a modestly good roll for the foe: what "likely" means to a scripted policy
LIKELY_ROLL = 1
#: what every scripted policy starts from before its entry in the policies file
BASIC_DEFAULTS: dict[str, Any] = {"concede_margin": 1, "hurt_first": True, "fp_reserve": 0,
                                  "likely_roll": LIKELY_ROLL, "pool_share_minor": 0.0, "pool_share_mob": 0.0,
                                  "pool_share_major": 1.0, "invoke_any": False, "fitting_invokes": True,
                                  "fate_points_on_any_roll": False, "mediocre_attacks": False}


def pool_floor(params: dict[str, Any], kind: str, start: int) -> int:
    """The GM pool an NPC of ``kind`` leaves untouched: it may spend the share ``pool_share_KIND``
    of the pool the scene started with (003:2007-2030), rounded up, and no more. Nameless NPCs
    (minor, mob) have no share unless the table gives them one (003:1990-1999: they are not
    meant to stick around); a major NPC may spend its share of whatever is left."""
    share = float(params.get(f"pool_share_{kind}", 0.0))
    return start - min(start, math.ceil(share * start - 1e-9))


def policy_params(name: str) -> dict[str, Any]:
    """A policy's own entry in ``configs/policies.yaml`` ({} if it has none)."""
    from .scenes import config_dir  # when first asked: importing a controller stays cheap
    path = config_dir() / "policies.yaml"
    if not path.exists():
        return {}
    st = path.stat()
    return dict(_policies(str(path), st.st_mtime_ns, st.st_size).get(name, {}))


def scripted_params(name: str, **given: Any) -> dict[str, Any]:
    """What a scripted policy plays with: the defaults, its entry in the file, then ``given``."""
    return {**BASIC_DEFAULTS, **policy_params(name), **given}


#: the parameters a policies file may set besides BASIC_DEFAULTS' (agents/tactics.py, agents/search.py),
#: each with the kinds of value it takes (None: may be left empty)
MORE_PARAMS: dict[str, tuple[type | None, ...]] = {
    "stack": (int,), "guard": (bool,), "concede_when_marked": (bool,), "simulations": (int,), "depth": (int,), "rollout": (str,),
    "foes": (list,), "confidence": (int, float), "time_limit": (int, float, None), "forks": (int, None), "draw": (int, float),
    "core": (str,)}
#: what each parameter takes, every one of them: BASIC_DEFAULTS' by the kind of its default
PARAM_KINDS: dict[str, tuple[type | None, ...]] = {
    **{k: (bool,) if isinstance(v, bool) else (int,) if isinstance(v, int) else (int, float)
       for k, v in BASIC_DEFAULTS.items()}, **MORE_PARAMS}
_KIND_WORDS = {bool: "true or false", int: "a whole number", float: "a number", str: "a name", list: "a list",
               None: "empty"}


def _kind_ok(value: Any, kinds: tuple[type | None, ...]) -> bool:
    if value is None:
        return None in kinds
    if isinstance(value, bool):  # YAML's true is no number, and a number is no true
        return bool in kinds
    return any(k is not None and k is not bool and isinstance(value, k) for k in kinds)


class PolicyFileError(OneLineError):
    """A policies file with a name or parameter no policy reads."""


@functools.lru_cache(maxsize=8)
def _policies(path: str, mtime_ns: int, size: int) -> dict:
    """A policies file, parsed once while it is unchanged (re-parsing it for every controller
    was a quarter of a fight's cost). A misspelled parameter is refused, never silently ignored."""
    from .suggest import did_you_mean
    from .yaml_input import load_file
    try:
        data = load_file(path, "policies file") or {}
    except ValueError as exc:
        raise PolicyFileError(str(exc)) from None
    if not isinstance(data, dict):
        raise PolicyFileError(f"{path}: expected a mapping of policy names to their parameters")
    known = [*BASIC_DEFAULTS, *MORE_PARAMS]
    for name, entry in data.items():
        if not isinstance(entry, dict):
            raise PolicyFileError(f"{path}: {name}: expected a mapping of parameters, got {entry!r}")
        for key in entry:
            if key not in known:
                raise PolicyFileError(f"{path}: {name}.{key}: unknown parameter{did_you_mean(key, known)}; "
                                      f"expected one of {', '.join(known)}")
            kinds = PARAM_KINDS[key]
            if not _kind_ok(entry[key], kinds):
                raise PolicyFileError(f"{path}: {name}.{key}: {entry[key]!r} is not "
                                      f"{' or '.join(dict.fromkeys(_KIND_WORDS[k] for k in kinds))}")
    return data
