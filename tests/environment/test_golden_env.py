"""The golden environment streams (see ``tests/golden_env.py``): a speed-up of the environment
changes no observation, mask, reward or ending that an agent receives — and the environment on
the fast core (``core="fast"``: the kernel steps, observations and masks written from its flat
state) hands out the reference's streams exactly."""

from __future__ import annotations

import json

import pytest

import golden_env as g

EXPECTED = json.loads((g.HERE / "env.json").read_text())


def _fast_keys() -> list[str]:
    """The streams whose scene the fast core covers (the others run on the reference whatever
    the core asked for)."""
    from fate_env.fast.core import available, covered
    from fate_env.content.scenes import load_scene
    if not available():
        return []
    scenes = {key: load_scene(key.split("/")[1], rules=key.split("/")[2]) for key in EXPECTED}
    return [key for key in sorted(EXPECTED) if not covered(scenes[key])]


def test_every_shipped_scene_is_pinned():
    assert {k.split("/")[1] for k in EXPECTED} == set(g.SCENES)
    assert {k.split("/")[0] for k in EXPECTED} == {"aec", "single"}


@pytest.mark.parametrize("key", sorted(EXPECTED))
def test_stream_unchanged(key):
    view, scene, rules = key.split("/")
    digest = (g.aec_digest(scene, rules, core="reference") if view == "aec"
              else g.single_digest(scene, rules, core="reference"))
    assert digest == EXPECTED[key], (f"{key}: the observations, masks or rewards changed; if deliberate, "
                                     "rewrite with python tests/golden_env.py --write and say why in the commit")


@pytest.mark.kernel
@pytest.mark.parametrize("key", _fast_keys())
def test_fast_core_gives_the_same_stream(key):
    view, scene, rules = key.split("/")
    if view == "single":  # the kernel really plays the opponents (else this would check the reference twice)
        probe = g.FateSingleAgentEnv(scene=scene, rules=rules, learn=("turn",), controllers=g.REGISTRY, reward={},
                                     outcome="characters")
        assert probe._fast is not None and probe._fast.plays(0)
    digest = (g.aec_digest(scene, rules, core="fast") if view == "aec"
              else g.single_digest(scene, rules, core="fast"))
    assert digest == EXPECTED[key], f"{key}: the environment on the fast core hands out another stream"


def test_digest_sees_a_change(monkeypatch):
    """The check can fail: one float of one observation moved changes the digest."""
    from fate_env.environment.observation import ObservationEncoder
    real = ObservationEncoder.encode

    def nudged(self, c, ego, slots):
        obs = real(self, c, ego, slots)
        obs[0] += 1e-3
        return obs

    monkeypatch.setattr(ObservationEncoder, "encode", nudged)
    assert g.aec_digest("duel", "condensed", core="reference") != EXPECTED["aec/duel/condensed"]
