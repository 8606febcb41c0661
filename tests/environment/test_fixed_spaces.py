"""Fixed-size spaces (issue 16): one layout shared by several scenes, padded to common maxima,
so one policy can train on many scenes; the padding is never a legal action and always zero."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

from agents.base import REGISTRY
from fate_env.environment.actions import ActionLayout
from fate_env.environment.aec import raw_env
from fate_env.environment.maxima import Maxima
from fate_env.environment.multi_scene import MultiSceneEnv
from fate_env.environment.observation import ObservationEncoder
from fate_env.content.scenes import list_scenes, load_scene

CONFLICTS = [n for n in list_scenes() if load_scene(n).kind == "conflict"]


def test_every_conflict_scene_shares_one_layout_under_their_maxima():
    scenes = [load_scene(n) for n in CONFLICTS]
    m = Maxima.of(scenes)
    sizes = {(ActionLayout(s, fixed=m).n, ObservationEncoder(ActionLayout(s, fixed=m)).size) for s in scenes}
    assert len(sizes) == 1
    assert Maxima.from_json(m.to_json()) == m


def test_without_maxima_a_layout_is_what_it_always_was():
    for name in CONFLICTS:
        s = load_scene(name)
        own = ActionLayout(s)
        same = ActionLayout(s, fixed=Maxima.of([s]))
        assert own.n == same.n and [(g.name, g.size) for g in own.segments.values()] == \
            [(g.name, g.size) for g in same.segments.values()]
        assert ObservationEncoder(own).size == ObservationEncoder(same).size


def test_a_scene_too_big_for_the_maxima_is_refused_with_what_overflows():
    small = Maxima.of([load_scene("duel")])
    with pytest.raises(ValueError, match=r"scene 'warehouse' does not fit these maxima: characters 8 > 2"):
        ActionLayout(load_scene("warehouse"), fixed=small)


@pytest.mark.parametrize("name", ["duel", "warehouse"])
def test_padded_envs_pass_pettingzoo_s_api_test(name):
    m = Maxima.of([load_scene(n) for n in ("duel", "warehouse", "ghoul")])
    env = raw_env(scene=name, fixed=m)
    api_test(env, num_cycles=200)
    assert env.core == "reference"


def test_padded_observations_match_the_scene_s_own_where_they_overlap():
    """The warehouse under the duel+warehouse maxima: the same numbers, with zeros in the padding."""
    from fate_env.environment.actions import AspectSlots, usable_boosts
    from fate_env.rules.engine import start
    scene = load_scene("duel")
    own = ActionLayout(scene)
    big = ActionLayout(scene, fixed=Maxima.of([scene, load_scene("warehouse")]))
    e = start(scene, 3)
    for _ in range(25):
        d = e.pending
        ego = d.actor
        a, b = ObservationEncoder(own), ObservationEncoder(big)
        sa, sb = AspectSlots(own.A), AspectSlots(big.A)
        sa.sync(e)
        sb.sync(e)
        oa, ob = a.encode(e, ego, sa), b.encode(e, ego, sb)
        assert np.count_nonzero(oa) == np.count_nonzero(ob)
        assert sorted(oa[oa != 0].round(5)) == sorted(ob[ob != 0].round(5))
        boosts = usable_boosts(e, d.options)
        masks = ({own.encode(e, ego, o, sa, boosts) for o in d.options},
                 {big.encode(e, ego, o, sb, boosts) for o in d.options})
        assert len(masks[0]) == len(masks[1]) == len(set(d.keys()))
        e.step(0)


def test_the_multi_scene_env_draws_scenes_and_checks():
    env = MultiSceneEnv(["warehouse", "warehouse_mobs"], side="smugglers", controllers=REGISTRY,
                        learn=("turn",), actions="compact", outcome="side")
    check_env(env, skip_render_check=True)
    seen = set()
    obs, info = env.reset(seed=1)
    rng = np.random.default_rng(0)
    for _ in range(600):
        mask = env.action_masks()
        obs, r, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        assert env.observation_space.contains(obs)
        if term or trunc:
            seen.add(info["scene"])
            obs, info = env.reset()
    assert seen == {"warehouse", "warehouse_mobs"}
    with pytest.raises(ValueError, match="side 'smugglers' is not in scene"):
        MultiSceneEnv(["warehouse", "duel"], side="smugglers", controllers=REGISTRY)


def test_the_multi_scene_example_trains_and_its_model_plays_every_scene(tmp_path):
    import importlib.util
    import json

    from conftest import ROOT

    from agents.base import controllers_for, play
    from fate_env.rules.engine import start
    spec = importlib.util.spec_from_file_location("train_multi_scene", ROOT / "scripts" / "train_multi_scene.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    out = tmp_path / "multi.zip"
    assert mod.main(["--timesteps", "256", "--eval", "0", "--out", str(out)]) == 0
    assert json.loads(out.with_suffix(".json").read_text())["fixed"]["characters"] == 8
    for name in ("warehouse", "warehouse_mobs"):
        scene = load_scene(name)
        c = play(start(scene, 7), controllers_for(scene, {"smugglers": f"ppo:{out}"}, seed=7))
        assert c.outcome is not None
        assert any(e.reason.endswith("the learned policy's choice") for e in c.events
                   if type(e).__name__ == "DecisionMade" and e.actor in {x.id for x in scene.characters
                                                                          if x.side == "smugglers"})
