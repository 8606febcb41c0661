"""The entity view (issue 53): decisions of scenes of every size and rule set as sets of rows, one
network scoring the options of any of them, and the scenes past its limits refused in one line."""

from __future__ import annotations

import numpy as np
import pytest

from fate_env.content.generate import RULE_SETS, scene
from fate_env.content.scenes import load_scene, scene_from_dict
from fate_env.environment.entities import (
    ASPECT_FEATURES, CHARACTER_FEATURES, LIMITS, OPTION_FEATURES, OPTION_TYPES, ZONE_FEATURES, EntityEncoder,
    TooLarge, check,
)
from fate_env.rules.conflict import Conflict
from fate_env.rules import options as option_module
from conftest import random_decisions


def _decisions(sc, seed: int, most: int = 60):
    return random_decisions(sc, seed, most)


@pytest.mark.parametrize("rules", RULE_SETS)
def test_decisions_of_generated_scenes_of_every_size_are_rows_with_valid_pointers(rules):
    sizes = set()
    for seed in range(12):
        sc = scene_from_dict(scene(seed, rules), f"generated {seed}")
        sizes.add(len(sc.characters))
        for e, d in _decisions(sc, seed):
            n, z = len(sc.characters), len(sc.zones)
            assert e.characters.shape == (n, CHARACTER_FEATURES) and e.characters[0, 0] == 1.0  # the ego first
            assert e.zones.shape == (z, ZONE_FEATURES) and e.aspects.shape[1] == ASPECT_FEATURES
            assert e.options.shape == (len(d.options), OPTION_FEATURES)
            for rows in (e.characters, e.zones, e.aspects, e.options, e.glob):
                assert np.isfinite(rows).all()
            assert ((e.option_char >= -1) & (e.option_char < n)).all()
            assert ((e.option_zone >= -1) & (e.option_zone < z)).all()
            assert ((e.option_aspect >= -1) & (e.option_aspect < len(e.aspects))).all()
            assert (e.options[:, :len(OPTION_TYPES)].sum(1) == 1).all()  # each option's type, one-hot
    assert len(sizes) >= 6


def test_every_option_class_has_a_type_column():
    import dataclasses
    defined = [v for v in vars(option_module).values() if isinstance(v, type) and dataclasses.is_dataclass(v)
               and v.__module__ == option_module.__name__]
    assert list(OPTION_TYPES) == defined


def test_an_attack_points_at_its_target_and_names_its_skill():
    sc = load_scene("duel")
    c = Conflict(sc, seed=0)
    while c.pending.kind != "turn":
        c.step(0)
    d = c.pending
    e = EntityEncoder(sc).encode(c, d.actor)
    from fate_env.rules.options import Attack
    i = next(i for i, o in enumerate(d.options) if type(o) is Attack)
    foe = d.options[i].target
    assert e.option_char[i] == 1 and e.characters[1, 2] == 1.0  # the other row, a foe
    assert foe != d.actor


def test_a_hidden_aspect_is_not_in_the_view():
    data = {"name": "h", "zones": [{"id": "a"}], "aspects": [{"name": "Trapdoor", "hidden": True}, {"name": "Fog"}],
            "characters": {"p": {"kind": "pc", "side": "pcs", "zone": "a", "skills": {"Fight": 2}},
                           "n": {"kind": "minor", "side": "npcs", "zone": "a", "skills": {"Fight": 1}}}}
    sc = scene_from_dict(data, "h")
    c = Conflict(sc, seed=0)
    e = EntityEncoder(sc).encode(c, c.pending.actor)
    assert len(e.aspects) == 1


def test_a_scene_past_the_limits_is_refused_in_one_line():
    data = scene(3, "condensed")
    data["characters"].update({f"extra{i}": {"kind": "minor", "side": "npcs", "zone": "z1", "skills": {"Fight": 1}}
                               for i in range(LIMITS.characters)})
    sc = scene_from_dict(data, "big")
    with pytest.raises(TooLarge) as err:
        check(sc)
    assert "\n" not in str(err.value) and f"at most {LIMITS.characters} characters" in str(err.value)
    from agents.base import UnknownController, controllers_for
    with pytest.raises(UnknownController) as err:  # and the learned NPC is refused it before any play
        controllers_for(sc, {"npcs": "learned"})
    assert "\n" not in str(err.value) and f"at most {LIMITS.characters} characters" in str(err.value)


def test_one_network_scores_the_options_of_any_scene_and_batches_without_leaking():
    torch = pytest.importorskip("torch")
    from fate_env.learn.entity_net import collate, net
    model = net(seed=0)
    batch, dims = [], set()
    for name, rules in (("duel", None), ("warehouse", None), ("horde", "core")):
        sc = load_scene(name, rules=rules)
        batch += [e for e, _ in _decisions(sc, 1, most=5)]
    for i, rules in enumerate(RULE_SETS):
        sc = scene_from_dict(scene(40 + i, rules), "g")
        batch += [e for e, _ in _decisions(sc, 2, most=5)]
    alone = [model.probabilities([e])[0] for e in batch]
    together = model.probabilities(batch)
    for e, a, t in zip(batch, alone, together):
        dims.add(len(e.characters))
        assert a.shape == (len(e.options),) and abs(a.sum() - 1) < 1e-5
        np.testing.assert_allclose(a, t, rtol=1e-5, atol=1e-6)  # padding other scenes' rows changes nothing
    assert len(dims) >= 4
    logits, value = model(collate(batch))
    assert value.shape == (len(batch),) and torch.isfinite(value).all()
