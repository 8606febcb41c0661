"""The ``search`` NPC: looks ahead on forks of the scene, never on the scene's own dice."""

from __future__ import annotations

import re

import numpy as np
import pytest
from conftest import SHIPPED, make_scene

from agents.base import controllers_for, make_controller, play
from agents.search import SearchController, harm, outlook
from fate_env.rules.engine import replay, start
from fate_env.rules.options import Attack
from fate_env.content.scenes import load_scene

pytestmark = pytest.mark.kernel  # runs the fast core (tests/conftest.py)

DUO = {
    "hero": {"kind": "pc", "side": "pcs", "zone": "room", "skills": {"Fight": 2, "Athletics": 1},
             "high_concept": "Tired Hero", "fate_points": 0},
    "npc": {"kind": "major", "side": "npcs", "zone": "room", "skills": {"Fight": 4, "Athletics": 2},
            "high_concept": "Hired Blade"},
}
QUICK = {"simulations": 4, "depth": 1}


def test_a_fork_plays_on_its_own_dice_and_leaves_the_scene_alone():
    sc = load_scene("duel")
    a, b = start(sc, 5), start(sc, 5)
    fork = a.fork(np.random.default_rng(99))
    assert fork.pending.kind == a.pending.kind and fork.log() == a.log()
    ctr = controllers_for(sc, seed=0)
    play(fork, ctr)
    play(a, ctr)
    play(b, ctr)
    assert a.log() == b.log()          # forking drew nothing from the scene's dice
    assert fork.log() != a.log()       # the fork rolled other dice (seed 99's, not 5's)


def test_search_plays_every_shipped_kind_of_decision_and_its_choices_replay():
    sc = load_scene("duel")
    ctr = controllers_for(sc, {"rival": "search"}, seed=3)
    ctr["blade"] = SearchController(3, **QUICK)
    game = play(start(sc, 11), ctr)
    again = replay(sc, 11, game.choices, reasons=game.reasons)
    assert again.log() == game.log()   # the real dice were never touched by the look-ahead
    said = [r for r, e in zip(game.reasons, game.events) if "outlook" in r]
    assert said and all("within 1 exchange" in r for r in said)
    kept = [r for r in said if "the look-ahead finds nothing surely better" in r]
    assert len(kept) < len(said)   # it takes its own choices, and keeps basic's where it cannot tell


def test_the_same_scene_and_seeds_give_the_same_choices():
    sc = load_scene("duel")
    logs = []
    for _ in range(2):
        ctr = controllers_for(sc, seed=0)
        ctr["blade"] = SearchController(7, **QUICK)
        logs.append(play(start(sc, 4), ctr).log())
    assert logs[0] == logs[1]


def test_it_finishes_a_foe_who_is_one_hit_from_out():
    c = start(make_scene(DUO, first="npc"), seed=0)
    hero = c.f["hero"]
    for tr in hero.tracks.values():
        tr.marked = [True] * len(tr.marked)
    for s in hero.slots:
        s.aspect = 0 if s.severity != "mild" else None
    d = c.pending
    assert d.kind == "turn" and d.actor == "npc"
    index, reason = SearchController(0, simulations=8, depth=1).choose(c, d)
    assert type(d.options[index]) is Attack and d.options[index].target == "hero", reason
    assert reason.startswith("attacks Hero with Fight: ") and "to take Hero out within 1 exchange" in reason


def test_outlook_scores_an_ended_scene_by_its_winner_and_a_running_one_by_harm():
    sc = make_scene(DUO, first="npc")
    c = start(sc, seed=1)
    assert outlook(c, "npcs") == 0.5 and harm(c, "hero") == 0.0
    c.f["hero"].tracks["physical"].marked[0] = True
    assert outlook(c, "npcs") > 0.5 > outlook(c, "pcs")
    c.concede("hero")
    assert c.pending is None and outlook(c, "npcs") == 1.0 and outlook(c, "pcs") == 0.0
    c2 = start(sc, seed=1)
    c2.gm_end()
    assert outlook(c2, "npcs") == 0.0 and outlook(c2, "npcs", draw=0.5) == 0.5


def test_a_time_limit_bounds_the_search():
    c = start(load_scene("warehouse"), seed=2)
    while c.pending.kind != "turn" or c.side_of(c.pending.actor) != "smugglers":
        c.step(make_controller("basic").choose(c, c.pending)[0])
    index, reason = SearchController(0, simulations=10_000, depth=0, time_limit=0.05).choose(c, c.pending)
    assert 0 <= index < len(c.pending.options)
    # "N simulations each" when it picks, "N simulations of M options" when it keeps the scripted choice
    rounds = int(re.search(r"(\d+) simulations? (?:each|of \d+ options)", reason).group(1))
    assert 1 <= rounds < 10_000   # the limit is checked after each round of every option


@pytest.mark.parametrize("params", [{"simulations": 0}, {"depth": -1}, {"rollout": "search"}, {"rollout": "random"},
                                    {"foes": "basic,random"}, {"foes": []}, {"foes": "ppo:x.zip"}])
def test_bad_parameters_are_refused(params):
    with pytest.raises(ValueError, match="search: "):
        SearchController(0, **params)


def test_the_policies_file_sets_the_search_and_the_constructor_overrides_it(tmp_path, monkeypatch):
    """configs/policies.yaml's search entry is read (the built-in defaults used to override it,
    so editing the file changed nothing); a parameter given to the constructor wins over both."""
    import shutil
    from fate_env.content.scenes import config_dir
    configs = tmp_path / "configs"
    shutil.copytree(config_dir(), configs)
    text = (configs / "policies.yaml").read_text()
    text = text.replace("simulations: 16, depth: 2", "simulations: 5, depth: 3").replace("foes: [basic]", "foes: [sniper, brute]")
    (configs / "policies.yaml").write_text(text)
    monkeypatch.setenv("FATE_NPC_CONFIGS", str(configs))
    s = SearchController(0)
    assert (s.simulations, s.depth, s.foes, s.rollout) == (5, 3, ["sniper", "brute"], "basic")
    s = SearchController(0, depth=1)
    assert (s.simulations, s.depth) == (5, 1)


def test_other_decisions_are_basics():
    c = start(make_scene(DUO, first="hero"), seed=0)
    c.step(Attack("npc", "Fight"))
    d = c.pending
    assert (d.kind, d.actor) == ("respond", "npc")
    assert SearchController(0).choose(c, d) == make_controller("basic").choose(c, d)


@pytest.mark.parametrize("scene", SHIPPED)
def test_search_finishes_every_shipped_scene(scene):
    sc = load_scene(scene)
    ctr = controllers_for(sc, seed=1)
    look = SearchController(1, simulations=2, depth=1)
    for c in sc.characters:
        if c.is_npc:
            ctr[c.id] = look
    game = play(start(sc, 3), ctr)
    assert game.over and game.outcome is not None


# -- the kernel's look-ahead: the same copies as the forks, number for number -----------------
fast = pytest.importorskip("fate_env.fast.core")


@pytest.mark.parametrize("scene,rules,seed,depth,foes", [
    ("duel", "condensed", 3, 1, "basic"), ("duel", "core", 8, 0, "basic"), ("warehouse", "condensed", 2, 1, "basic"),
    ("warehouse", "core", 5, 2, "sniper,brute"), ("warehouse_mobs", "condensed", 4, 1, "basic"),
    ("ghoul", "core", 1, 1, "tactician,basic,sniper"), ("interrogation", "condensed", 2, 1, "basic"),
])
def test_the_kernels_copies_choose_exactly_as_the_forks_do(scene, rules, seed, depth, foes):
    sc = load_scene(scene, rules=rules)
    logs = {}
    for core in ("fast", "reference"):
        ctr = controllers_for(sc, seed=1)
        look = SearchController(1, simulations=3, depth=depth, core=core, foes=foes, forks=None)  # the same work
        for c in sc.characters:
            if c.is_npc:
                ctr[c.id] = look
        logs[core] = play(start(sc, seed), ctr).log()
        if core == "fast":
            assert look._looks and all(lk is not None for _, lk in look._looks.values())
    assert logs["fast"] == logs["reference"]  # every reason carries the outlook: the same numbers


def test_a_scene_with_forced_dice_or_gm_powers_is_looked_at_on_the_reference():
    sc = load_scene("duel")
    look = SearchController(0, simulations=1, depth=1, core="fast")
    c = start(sc, 3)
    assert c.reproducible and look._lookahead(c, c.pending) is not None
    c.gm_fate_points("cynere", 1)
    assert not c.reproducible and look._lookahead(c, c.pending) is None
    assert not c.clone().reproducible   # a copy remembers it
    forced = start(sc, 3, forced=[(1, 1, 1, 1)])
    while forced.dice.forced_pending:
        forced.step(make_controller("basic").choose(forced, forced.pending)[0])
    assert not forced.reproducible and not start(sc, None).reproducible


def test_a_fight_that_outgrew_the_kernels_tables_is_looked_at_with_forks(monkeypatch):
    """Generated fights of 14-15 characters ran past the kernel's tables (361 aspects made; 4,806
    events): the replay stopped short and search raised "a bug". The kernel now says why it stopped,
    and such a fight's copies are forks, choosing as the forks always do."""
    from fate_env.fast import TooLong
    from fate_env.fast.kernel import layout as k
    from fate_env.fast.lookahead import Lookahead
    sc = load_scene("warehouse")
    c = start(sc, 2)
    first = max(c.aspects)
    while c.pending.kind != "turn" or not sc.character(c.pending.actor).is_npc or max(c.aspects) <= first:
        c.step(make_controller("basic").choose(c, c.pending)[0])  # on to a turn after an aspect was made
    d = c.pending
    look = SearchController(1, simulations=2, depth=1, core="auto", forks=None)
    forks = SearchController(1, simulations=2, depth=1, core="reference", forks=None)
    real = Lookahead.play
    outgrown = []

    def play(self, seed, answers, *rest):
        P = self.core.arrays.P
        room = int(P[k.P_AMAX])
        P[k.P_AMAX] = self.core.arrays.A0.shape[0] + 1  # room for the scene's own aspects, no more
        try:
            return real(self, seed, answers, *rest)
        except TooLong as exc:
            outgrown.append(str(exc))
            raise
        finally:
            P[k.P_AMAX] = room
    monkeypatch.setattr(Lookahead, "play", play)
    assert look.choose(c, d) == forks.choose(c, d)
    assert outgrown and "too many aspects" in outgrown[0]


def test_core_fast_refuses_a_scene_the_kernel_does_not_cover_and_auto_looks_on_the_reference():
    sc = load_scene("warehouse", dials={"conditions": "together"})  # conditions: the kernel refuses them by name
    c = start(sc, 1)
    while c.pending.kind != "turn":
        c.step(make_controller("basic").choose(c, c.pending)[0])
    with pytest.raises(fast.Unsupported, match="'warehouse': conditions: together"):
        SearchController(0, simulations=1, depth=1, core="fast")._lookahead(c, c.pending)
    auto = SearchController(0, simulations=1, depth=1)
    assert auto._lookahead(c, c.pending) is None
    index, reason = auto.choose(c, c.pending)
    assert "outlook" in reason
    with pytest.raises(ValueError, match="search: core"):
        SearchController(0, core="gpu")


@pytest.mark.parametrize("rules", ["condensed", "fate3"])
def test_every_turn_option_of_the_shipped_scenes_is_described_in_words(rules):
    from agents.search import describe
    for name in SHIPPED:
        c = start(load_scene(name, rules=rules), 0)
        while c.pending is not None and c.pending.kind != "turn":
            c.step(make_controller("basic").choose(c, c.pending)[0])
        if c.pending is None:
            continue
        for o in c.pending.options:
            words = describe(c, c.pending.actor, o)
            assert words != type(o).__name__.lower() and "aspect " not in words, (name, o, words)


def test_the_python_engines_forks_are_counted_so_search_plays_every_scene():
    """On the Python engine (``core: reference``, as on any scene the fast core does not play) each
    decision plays at most ``forks`` copies (options times simulations, at least two simulations), the
    same choices on every machine."""
    c = start(load_scene("burning_mill"), seed=1)
    while c.pending.kind != "turn" or c.side_of(c.pending.actor) != "kesslers" or len(c.pending.options) < 8:
        c.step(make_controller("basic").choose(c, c.pending)[0])
    m = len(c.pending.options)

    def simulations(**params):
        look = SearchController(0, simulations=16, depth=1, core="reference", **params)
        assert look._lookahead(c, c.pending) is None  # the Python engine's forks
        forks = []
        real = look._fork
        look._fork = lambda *a: (forks.append(a[2]), real(*a))[1]
        choice = look.choose(c, c.pending)
        return len(forks) // m, choice
    budgeted, choice = simulations(forks=48)
    assert budgeted == max(2, 48 // m) and budgeted < 16
    assert simulations(forks=48)[1] == choice  # counted, not timed: the same choice again
    assert simulations(forks=None)[0] == 16


def test_the_foes_of_each_copy_take_turns():
    sc = load_scene("duel")
    c = start(sc, 2)
    while c.pending.kind != "turn" or c.pending.actor != "blade":
        c.step(make_controller("basic").choose(c, c.pending)[0])
    look = SearchController(0, simulations=4, depth=1, foes=["basic", "sniper"], core="reference", forks=None)
    played = []
    real = look._play_on
    look._play_on = lambda copy, ex, side, foe: (played.append(foe), real(copy, ex, side, foe))[1]
    look.choose(c, c.pending)
    m = len(c.pending.options)
    assert played == [f for f in ["basic", "sniper", "basic", "sniper"] for _ in range(m)]


def _turn_where_the_copies_disagree(sc):
    """The first smugglers' turn (over a few seeds) where the look-ahead's best mean is not the script's move."""
    for seed in range(20):
        c = start(sc, seed)
        while not c.over:
            d = c.pending
            if d.kind == "turn" and c.side_of(d.actor) == "smugglers" and len(d.options) > 1:
                eager = SearchController(0, simulations=8, depth=1, confidence=-1e9)
                if eager.choose(c, d)[0] != make_controller("basic").choose(c, d)[0]:
                    return c
            c.step(make_controller("basic").choose(c, d)[0])
    raise AssertionError("no turn where the copies disagree with the script")


def test_it_keeps_the_scripts_choice_unless_the_copies_show_better():
    sc = load_scene("warehouse")
    c = _turn_where_the_copies_disagree(sc)
    script = make_controller("basic").choose(c, c.pending)[0]
    doubtful = SearchController(0, simulations=8, depth=1, confidence=1e9)  # never sure: the script's move
    index, reason = doubtful.choose(c, c.pending)
    assert index == script and "finds nothing surely better" in reason
    eager = SearchController(0, simulations=8, depth=1, confidence=-1e9)   # any better mean will do
    vals = []
    real = eager._copies
    eager._copies = lambda *a: (lambda got: (vals.append(got[0]), got)[1])(real(*a))
    index, _ = eager.choose(c, c.pending)
    means = np.concatenate(vals).mean(axis=0)
    assert means[index] == means.max()
