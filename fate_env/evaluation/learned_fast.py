"""The ``learned`` NPC on the fast core, for ``bench`` and ``eval`` (issue 53: at the fast core's pace).

A learned seat is, to the kernel, its helper script (``spender`` for the shipped file) that asks the
decision kinds its file learned (its turns) from outside. ``LearnedFights`` plays a batch of seeds in
one call into the kernel (``fast/entity_rows.play_learned``): at each pause the helper's move from a
copy of the turn, the entity rows from the kernel's arrays, the compiled network's scores, and
``LearnedController.choose``'s rule (the helper's move unless another beats it by ``keep_within``).
The decisions are the reference's, so the fights are too: differential tests hold them to
``LearnedController`` on the reference engine, record for record.
"""

from __future__ import annotations

from typing import Mapping, Sequence

import numpy as np

from agents.learned import LearnedController
from agents.registry import make_controller
from fate_env.fast.core import FastCore
from fate_env.fast.tables import CONTROLLERS, DECISION_BITS, Unsupported

LEARNED = "learned"


def is_learned(spec: str) -> bool:
    return spec == LEARNED or spec.startswith(LEARNED + ":")


def learned_seats(controls: Mapping[str, str]) -> dict[str, str]:
    """The seats ``controls`` (character -> controller spec) gives to a learned NPC."""
    return {cid: spec for cid, spec in controls.items() if is_learned(spec)}


def kernel_controls(controls: Mapping[str, str], scene=None) -> tuple[dict[str, str], dict[str, tuple[str, ...]], list[str]]:
    """What the kernel plays for each seat (a learned seat: its helper script), the decision kinds
    each learned seat asks from outside, and why the fast core cannot play them (empty: it can).
    With ``scene``, a learned seat's helper is the line its side rehearsed there (``agents/rehearsal.py``;
    a line played outright asks nothing); without, its file's helper. Every line its file may take is checked."""
    scripts, asks, why = dict(controls), {}, []
    learned = learned_seats(controls)
    if len(set(learned.values())) > 1:
        why.append(f"learned seats playing different files ({', '.join(sorted(set(learned.values())))}): the fast "
                   "core plays one file a run")
    side_of = {c.id: c.side for c in scene.characters} if scene is not None else {}
    for cid, spec in learned.items():
        ctrl = _controller(spec)
        for helper in ctrl.lines:
            if helper not in CONTROLLERS:
                why.append(f"{cid} played by {spec!r}, whose helper {helper!r} the fast core does not play")
        unknown = [x for x in ctrl.learn if x not in DECISION_BITS]
        if unknown:
            why.append(f"{cid} played by {spec!r}, which decides {', '.join(unknown)} (the fast core asks only a "
                       "conflict's decisions)")
        line = ctrl.line_for(scene, side_of[cid], spec).line if scene is not None and not why else ctrl.helper.name
        scripts[cid] = line
        asks[cid] = () if line in ctrl.outright else tuple(ctrl.learn)  # an outright line: the script alone
    return scripts, asks, why


def _controller(spec: str) -> LearnedController:
    """The learned controller of a spec (its file read once per process while unchanged: agents.learned)."""
    return make_controller(spec, 0)


class LearnedFights:
    """One scene's fights with learned seats, on the fast core (``environment/fast_entities.py``):
    ``run`` plays a batch of seeds in one call into the kernel, as ``FastCore.run`` does.
    ``controls``: who plays each character (learned specs among them; each side's learned seats
    play beside the line it rehearsed in ``scene``)."""

    def __init__(self, scene, controls: Mapping[str, str]):
        from fate_env.environment.fast_entities import FastLearned
        scripts, asks, why = kernel_controls(controls, scene)
        if why:
            raise Unsupported("; ".join(why))
        spec = next(iter(learned_seats(controls).values()))
        ctrl = _controller(spec)
        ctrl.check_scene(scene)
        self.scene = scene
        self.core = FastCore(scene, scripts, asks)
        self.fights = FastLearned(self.core, ctrl.policy, ctrl.keep_within)

    def run(self, seeds: Sequence[int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Every seed played to its end or to a bail-out: the final (CH, SLOTA, G), one row per seed."""
        return self.fights.run(seeds)


def fast_reasons(scene, controls: Mapping[str, str]) -> list[str]:
    """Why the fast core cannot play ``scene`` with ``controls`` (empty: it can), learned seats
    read as their helper script asking what their file learned."""
    from fate_env.fast.tables import covered
    scripts, _, why = kernel_controls(controls)
    return why + covered(scene, scripts)


def fast_outcomes(scene, controls: Mapping[str, str], seeds: Sequence[int]) -> list:
    """Each seed's ``Outcome`` on the fast core, None where the kernel handed it back (play that one
    on the reference): ``FastCore.outcomes``, with learned seats answered inside the kernel."""
    if not learned_seats(controls):
        return FastCore(scene, dict(controls)).outcomes(list(seeds))
    from fate_env.fast.decode import outcome
    from fate_env.fast.kernel import layout as k
    fights = LearnedFights(scene, controls)
    CH, SLOTA, G = fights.run(seeds)
    return [None if G[i, k.G_BAIL] else outcome(fights.core.tables, CH[i], SLOTA[i], G[i]) for i in range(len(G))]
