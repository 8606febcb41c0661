"""fate-npc design (issue 52): the guidelines every design keeps, the search (deterministic for a
seed, the target reached on an easy case), the files it writes, and bench's per-character figures
the designer's balance objective reads."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fate_env.cli import main
from fate_env.content.scenes import load_scene, scene_from_dict
from fate_env.design import search as Q
from fate_env.design import space as S
from fate_env.design.judge import Figures
from fate_env.design.steps import expanded

pytestmark = pytest.mark.kernel  # judges designs on the fast core (tests/conftest.py)
pytest.importorskip("optuna")

#: two PCs against a boss and a pack of nameless guards: the PCs win most fights as written
KEEP = """\
name: keep
title: The Keep Gate
zones:
  - {id: gate}
  - {id: wall}
borders:
  - {between: [gate, wall], difficulty: 1}
characters:
  # the party: kept byte for byte
  ash:
    kind: pc
    side: pcs
    zone: gate
    high_concept: Exiled Knight
    skills: {Fight: 4, Athletics: 3, Physique: 2, Will: 1}
    fate_points: 3
  bryn:
    kind: pc
    side: pcs
    zone: gate
    high_concept: Hedge Archer
    skills: {Shoot: 4, Athletics: 2, Notice: 3, Physique: 1}
    fate_points: 3   # her own comment stays
  captain:
    kind: major
    side: garrison
    zone: wall
    high_concept: Captain of the Gate
    skills: {Fight: 3, Physique: 2, Athletics: 2, Will: 1}
  guard: &guard
    name: Gate Guard
    kind: minor
    side: garrison
    zone: gate
    high_concept: Bored Spearman
    skills: {Fight: 1, Athletics: 1}
    stress: 1
  guard2:
    <<: *guard
    name: Gate Guard (2)
"""


def _keep(tmp_path: Path) -> str:
    p = tmp_path / "keep.yaml"
    p.write_text(KEEP)
    return str(p)


def _data():
    raw = yaml.safe_load(KEEP)
    return expanded(raw, "keep.yaml")


def _values(data, draw):
    return {k.name: draw(st.integers(k.low, k.high)) for k in S.knobs(data, "garrison", gear=True)}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_every_design_keeps_the_guidelines_and_the_pcs(draw):
    """Nameless NPCs: skills Average to Good (Mediocre ones left), 0-3 stress, no consequences; a
    major NPC's peak within two of the PCs'; the PCs and every other field as written."""
    data = _data()
    values = _values(data, draw.draw)
    designed = S.apply(data, "garrison", values)
    scene = scene_from_dict(designed, "keep.yaml")
    for c in scene.characters:
        if c.kind in ("minor", "mob"):
            assert all(v == 0 or 1 <= v <= 3 for v in c.skills.values()), c.skills
            assert 0 <= designed["characters"][c.id]["stress"] <= 3
        if c.kind == "major":
            assert max(c.skills.values()) <= 4 + S.BOSS_PEAK
    from fate_env.rules.conflict import Conflict
    conflict = Conflict(scene, seed=0)
    for c in scene.characters:
        if c.kind in ("minor", "mob"):
            assert conflict.f[c.id].slots == [], f"{c.id} has consequence slots"
    for cid in ("ash", "bryn"):
        assert designed["characters"][cid] == data["characters"][cid]
    assert {k: v for k, v in designed.items() if k != "characters"} == \
        {k: v for k, v in data.items() if k != "characters"}


def test_the_search_is_the_same_for_a_seed_and_trial_count():
    data = _data()

    def once():
        r = Q.run(Q.Ask(data, "keep.yaml", "garrison", 0.5, seed=3, trials=6, budget=600, tolerance=0.04))
        return [(t.values, t.figures and (t.figures.wins, t.figures.fights)) for t in r.trials], r.chosen.values
    assert once() == once()


def test_an_easy_target_is_reached_and_the_search_settles():
    """As written the knight alone wins nearly every fight; half of them is within the knobs' reach. Once a
    good candidate is found the search looks SETTLE trials further and stops, trials to spare. (A lone PC is
    never left behind, so the first good candidate settles the search.)"""
    both = _data()
    data = {**both, "characters": {c: v for c, v in both["characters"].items() if c != "bryn"}}
    r = Q.run(Q.Ask(data, "keep.yaml", "garrison", 0.5, seed=1, trials=600, budget=600, tolerance=0.04))
    assert r.settled is not None and Q.good(r.trials[r.settled].figures, 0.5, 0.04)
    assert len(r.trials) == r.settled + Q.SETTLE + 1 < 600, (r.settled, len(r.trials))
    assert not any(Q.good(t.figures, 0.5, 0.04) for t in r.trials[:r.settled] if t.figures)
    first = r.trials[0].figures
    assert first.win_rate > 0.8, first.win_rate  # the scene as written is far from the target
    assert r.met, [(t.values, t.figures and t.figures.win_rate) for t in r.trials]
    chosen = r.finals[r.chosen.number]
    assert abs(chosen.win_rate - 0.5) <= 0.04
    assert chosen.unresolved <= Q.MAX_UNRESOLVED * chosen.fights  # a fight that ends, not a stand-off


@settings(max_examples=60, deadline=None)
@given(st.floats(0, 1), st.floats(0, 1), st.sampled_from([1.0, -1.0]))
def test_toning_the_side_moves_every_strength_knob_one_way_and_nothing_else(a, b, sign):
    """space.toward: at 0 the settings given, at 1 every strength knob at its strongest (at -1 its weakest);
    between, each knob only ever moves one way as the fraction grows; where and whom are left alone."""
    data = _data()
    ks = S.knobs(data, "garrison", gear=True)
    base = S.written(ks)
    lo, hi = sorted((a, b))
    weak, strong = S.toward(ks, base, sign * lo), S.toward(ks, base, sign * hi)
    assert S.toward(ks, base, 0.0) == base
    for k in ks:
        if not k.name.endswith(S.STRENGTH):
            assert weak[k.name] == strong[k.name] == base[k.name], k.name
            continue
        assert S.toward(ks, base, sign)[k.name] == (k.high if sign > 0 else k.low), k.name
        assert k.low <= weak[k.name] <= k.high and k.low <= strong[k.name] <= k.high
        assert (strong[k.name] - weak[k.name]) * sign >= 0, (k.name, weak[k.name], strong[k.name])


def test_the_line_tones_the_whole_side_then_halves_towards_the_target(monkeypatch):
    """Where no candidate has come near the target (here: after the scene as written, in which the PCs win
    nearly every fight) the next trial is the side at its strongest, and the halvings that follow put a
    candidate inside the band within the line's trials."""
    monkeypatch.setattr(Q, "LINE_AFTER", 1)
    data = _data()
    ks = S.knobs(data, "garrison", gear=False)
    r = Q.run(Q.Ask(data, "keep.yaml", "garrison", 0.5, seed=1, trials=2 + Q.LINE_STEPS, budget=600,
                    tolerance=0.04))
    assert r.trials[0].figures.win_rate > 0.8
    assert r.trials[1].values == S.toward(ks, S.written(ks), 1.0)
    assert r.trials[1].figures.win_rate < 0.5  # the strongest side brackets the target
    assert any(abs(t.figures.win_rate - 0.5) <= 0.04 for t in r.trials[2:]), [t.figures.win_rate for t in r.trials]


def test_a_candidate_that_buys_the_target_with_stand_offs_does_not_keep_the_line_from_starting():
    """7010 at 30% in the 50-scene study: NPCs placed out of reach gave the PCs 30% of the fights and left
    67% unresolved at the cap; counted as near the target, they kept the line from starting, and the
    scene came back as written."""
    stalled = Figures(("a", "b"), fights=800, wins=240, unresolved=536)
    fighting = Figures(("a", "b"), fights=800, wins=240, unresolved=8)
    assert not Q.near(stalled, 0.3, 0.04) and Q.near(fighting, 0.3, 0.04)
    # 35% is 0.05 off; 3% unresolved adds the 1% over MAX_UNRESOLVED (near), 6% adds 4% (not near)
    assert Q.near(Figures(("a",), fights=800, wins=280, unresolved=24), 0.3, 0.04)
    assert not Q.near(Figures(("a",), fights=800, wins=280, unresolved=48), 0.3, 0.04)


def test_a_finalist_a_little_short_of_half_a_share_is_not_taken_over_one_that_keeps_every_pc_in():
    """The search ranks its own candidates' "left behind" in steps of 0.05; among the replayed finalists a
    PC a little short of half an equal share (here 24% of two PCs' contribution: 0.02 short) is behind,
    as the check will find, and the finalist that keeps both in is taken though it moves more knobs."""
    def replay(dealt):
        return Figures(("ash", "bryn"), fights=3000, wins=1500, exchanges=3000 * 8,
                       dealt=dict(zip(("ash", "bryn"), dealt)))
    short, fair = replay((76, 24)), replay((60, 40))
    assert 0 < short.left_behind() < 0.05 and fair.left_behind() == 0
    few, many = Q.Trial(1, {}, short, None, moved=1), Q.Trial(2, {}, fair, None, moved=6)
    assert Q.rank(few, 0.5, short) < Q.rank(many, 0.5, fair)   # on rank alone the short one would win
    assert min([few, many], key=lambda t: Q.preference(t, t.figures, 0.5, 0.04)) is many
    assert Q.holds(fair, 0.5, 0.04) and not Q.holds(short, 0.5, 0.04)


@pytest.mark.parametrize("pcs,worst,behind", [(2, 0.70, False), (2, 0.80, True), (3, 0.49, False),
                                                 (3, 0.55, True), (4, 0.36, False), (4, 0.40, True)])
def test_a_pc_is_left_behind_half_an_equal_share_off_either_way(pcs, worst, behind):
    """Half an equal share too little of the PCs' contribution, or the worst-off in one and a half equal
    shares of the fights too many (judge.OFF_SHARE): of two PCs the frailer is the worst-off in most
    fights without being left behind (three in four is the line); of three, in most fights is too many;
    of four, three in eight."""
    ids = tuple(f"p{i}" for i in range(pcs))
    fights = 1000
    rest = round(fights * (1 - worst) / (pcs - 1))
    fig = Figures(ids, fights=fights, wins=500, dealt={p: 100 for p in ids},
                  worst={p: (fights * worst if p == "p0" else rest) for p in ids})
    assert bool(fig.behind()) is behind and (fig.left_behind() > 0) is behind, fig.behind()
    short = Figures(ids, fights=fights, wins=500, dealt={p: (100 if p != "p0" else 100 // (2 * pcs)) for p in ids},
                    worst={p: fights / pcs for p in ids})
    assert short.behind() == [f"p0 brings {short.shares()['p0']:.0%} of the PCs' contribution "
                              f"(half an equal share is {0.5 / pcs:.0%})"]


def test_the_finalists_are_each_design_once():
    """Two candidates with the same fights on the search's dice (a design TPE suggested again, or one
    differing only where it cannot matter) are one finalist: the first, in the order given."""
    def t(n, wins, moved):
        return Q.Trial(n, {"k": n}, Figures(("a",), fights=800, wins=wins, exchanges=6400, dealt={"a": 9}), None, moved)
    got = Q.distinct([t(1, 400, 2), t(2, 400, 5), t(3, 410, 1), t(4, 400, 1)])
    assert [x.number for x in got] == [1, 3]


def test_the_line_brackets_the_target_and_halves_or_says_it_is_out_of_reach():
    """Line's bisection on its own: the PCs' win rate falls as the side is toned up (here 0.9 - 0.8 a); from
    the scene as written (a = 0) it tries the end the target lies on, then halves the bracket, and stops
    once a trial is within half the tolerance; a target beyond the far end ends it there."""
    data = _data()
    ks = S.knobs(data, "garrison", gear=False)

    def walk(rate_at, target):
        line, tried = Q.Line(ks, target, 0.04), []
        line.start(Figures(("ash",), fights=100, wins=round(100 * rate_at(0.0))))
        while line.trying is not None and len(tried) < 10:
            tried.append(line.trying)
            line.learn(Figures(("ash",), fights=100, wins=round(100 * rate_at(line.trying))))
        return tried
    assert walk(lambda a: 0.9 - 0.8 * a, 0.5) == [1.0, 0.5]                 # 0.1 at the end; 0.5 at a half
    assert walk(lambda a: 0.9 - 0.8 * a, 0.3) == [1.0, 0.5, 0.75]           # 0.5, then 0.3
    assert walk(lambda a: 0.9 - 0.8 * a, 0.05) == [1.0]                     # out of reach: 0.1 at the end
    assert walk(lambda a: 0.2 - 0.2 * a, 0.6) == [-1.0]                     # weakest 0.4: out of reach
    assert len(walk(lambda a: 0.9 if a < 0.3 else 0.1, 0.5)) == 1 + Q.LINE_STEPS  # a cliff: the halvings run out


def test_the_finalists_are_replayed_best_first_until_one_holds_on_fresh_dice():
    """Replays stop at the first finalist that holds on dice the search never saw (fights that end, no PC
    left behind, well inside the band): it is the design, and it is the last one replayed. Where none
    holds, every finalist is replayed and the design is the best of them."""
    both = _data()
    alone = {**both, "characters": {c: v for c, v in both["characters"].items() if c != "bryn"}}  # Ash alone
    unarmed = {**both["characters"]["bryn"], "skills": {"Will": 1}}
    mute = {**both, "characters": {**both["characters"], "bryn": unarmed}}
    seen = set()
    # one PC is never left behind (and a wider band is held more easily); an archer with no skill but Will
    # is still brought in by some garrisons (its Mediocre rolls against guards weak and near enough), but
    # on this seed those leave the PCs winning about 44%, and a band of one point either way around half
    # leaves no finalist that holds
    for data, tolerance in ((alone, 0.08), (mute, 0.01)):
        r = Q.run(Q.Ask(data, "keep.yaml", "garrison", 0.5, seed=1, trials=600, budget=600, tolerance=tolerance))
        order = list(r.finals)
        held = [n for n in order if Q.holds(r.finals[n], 0.5, tolerance)]
        assert held in ([], [order[-1]]), {n: (r.finals[n].win_rate, r.finals[n].left_behind()) for n in order}
        if held:
            assert r.chosen.number == held[0] and len(order) <= Q.FINALISTS
        else:
            inside = [t for t in r.trials if t.figures and not t.figures.raced_out
                      and abs(t.figures.win_rate - 0.5) <= tolerance]
            assert len(order) >= min(len(inside), Q.FINALISTS)
        seen.add(bool(held))
    assert seen == {True, False}  # both ways are exercised


def test_the_command_writes_a_file_that_loads_benches_and_keeps_the_pcs_byte_for_byte(tmp_path, capsys):
    scene = _keep(tmp_path)
    out = tmp_path / "designed.yaml"
    args = ["design", scene, "--side", "garrison", "--target-win", "0.6", "--trials", "8", "--seed", "2",
            "--out", str(out)]
    assert main(args) == 0
    text = out.read_text()
    printed = capsys.readouterr().out
    assert "independent bench" in printed and "who carried the fight" in printed
    for name in ("ash", "bryn"):  # each PC's entry, line for line, comments included
        entry = KEEP.split(f"  {name}:\n", 1)[1].split("\n  ", 1)[0]
        assert f"  {name}:\n{entry}\n" in text
    assert "    fate_points: 3   # her own comment stays\n" in text
    assert "# designed: captain:" in text
    load_scene(str(out))
    assert main(["bench", str(out), "-n", "40"]) == 0
    assert out.with_suffix(".report.md").exists() and out.with_suffix(".png").stat().st_size > 0
    # the outputs exist: refused without --force, nothing rewritten; replaced with it
    before = out.read_bytes()
    assert main(args) == 2
    assert "--force" in capsys.readouterr().err and out.read_bytes() == before
    assert main(args + ["--force"]) == 0


def test_a_side_that_is_the_pcs_or_missing_is_refused_in_one_line(tmp_path, capsys):
    scene = _keep(tmp_path)
    assert main(["design", scene, "--side", "pcs", "--target-win", "0.7", "--out", str(tmp_path / "o.yaml")]) == 2
    assert "PCs' side" in capsys.readouterr().err
    assert main(["design", scene, "--side", "nobody", "--target-win", "0.7", "--out", str(tmp_path / "o.yaml")]) == 2
    err = capsys.readouterr().err
    assert "nobody" in err and "garrison" in err
    assert not (tmp_path / "o.yaml").exists()


def test_the_budget_stops_the_search_and_says_how_to_repeat_it(tmp_path, capsys):
    out = tmp_path / "d.yaml"
    assert main(["design", _keep(tmp_path), "--side", "garrison", "--target-win", "0.6", "--trials", "400",
                 "--budget", "0.001", "--out", str(out)]) == 0
    report = capsys.readouterr().out
    # the budget is first asked after the second trial: the first pays for loading the compiled kernel, once
    assert "stopped by --budget: --trials 2 repeats it exactly" in report
    assert out.with_suffix(".report.md").read_text().count("stopped by --budget") == 1


def test_another_rule_set_designs_with_its_own_shapes_and_is_written_into_the_file(tmp_path):
    """Under Fate Core the designed file loads with Core's stress boxes (1, 2 ...) for its NPCs, and it
    says `rules: core` itself: benched with no flag it is the scene that was designed (issue 76)."""
    out = tmp_path / "core.yaml"
    assert main(["design", _keep(tmp_path), "--side", "garrison", "--target-win", "0.6", "--trials", "6",
                 "--rules", "core", "--out", str(out)]) == 0
    assert "\nrules: core  # designed under --rules core\n" in out.read_text()
    scene = load_scene(str(out))  # no flag
    assert scene.rules.name == "core"
    from fate_env.rules.conflict import Conflict
    captain = Conflict(scene, seed=0).f["captain"]
    assert captain.tracks["physical"].values[:2] == [1, 2]


def test_without_the_design_extra_it_says_what_to_install(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "optuna", None)  # as if not installed: importing it fails
    assert main(["design", _keep(tmp_path), "--side", "garrison", "--target-win", "0.6",
                 "--out", str(tmp_path / "o.yaml")]) == 2
    err = capsys.readouterr().err
    assert 'pip install -e ".[design]"' in err and err.count("\n") == 1
    assert not (tmp_path / "o.yaml").exists()


def test_a_pc_written_from_an_npcs_anchor_is_refused_before_the_search(tmp_path, capsys):
    """Splicing out the guard would break the PC that borrows its lines: said at once, nothing written."""
    text = """name: anchored
zones:
  - {id: gate}
characters:
  guard: &guard
    kind: minor
    side: garrison
    zone: gate
    skills: {Fight: 1}
  bryn:
    <<: *guard
    kind: pc
    side: pcs
    skills: {Shoot: 3, Athletics: 2}
"""
    p = tmp_path / "anchored.yaml"
    p.write_text(text)
    load_scene(str(p))  # the scene itself is fine
    out = tmp_path / "o.yaml"
    code = main(["design", str(p), "--side", "garrison", "--target-win", "0.6", "--out", str(out)])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "bryn" in err and "anchor" in err, err
    assert not out.exists()


#: two PCs at a ford: the bandits wait across it and in the reeds, so the swordsman (Fight 4, a weapon)
#: has little to strike as written while the poacher shoots across (issue 76)
BRIDGE = """\
name: bridge
title: The Ford at Dusk
zones:
  - {id: near, name: The near bank}
  - {id: far, name: The far bank}
  - {id: reeds, name: The reeds}
borders:
  - {between: [near, far], difficulty: 2}
  - {between: [far, reeds], difficulty: 0}
characters:
  kael: {name: Kael, kind: pc, side: pcs, zone: near, high_concept: Sellsword with a Grudge,
         skills: {Fight: 4, Physique: 3, Athletics: 1, Will: 2}, weapon: 2, fate_points: 3}
  lia: {name: Lia, kind: pc, side: pcs, zone: near, high_concept: Poacher's Daughter,
        skills: {Shoot: 4, Athletics: 3, Notice: 2, Stealth: 2}, fate_points: 3}
  boss: {name: Rusk, kind: major, side: bandits, zone: far, high_concept: Bandit Chief of the Ford,
         skills: {Shoot: 3, Fight: 2, Athletics: 2, Physique: 2}}
  cutthroat: {name: Cutthroat, kind: minor, side: bandits, zone: reeds, high_concept: Knife in the Reeds,
              skills: {Shoot: 2, Athletics: 1}, stress: 1}
  archer: {name: Bandit Archer, kind: minor, side: bandits, zone: far, high_concept: Crossbow on the Bank,
           skills: {Shoot: 2, Athletics: 1}, stress: 1}
"""


def test_placement_and_attention_are_knobs_a_gm_would_turn():
    """Each NPC's starting zone and whom it goes for (a scripted policy of ATTENTION) are knobs; the
    design writes them into its sheet."""
    data = expanded(yaml.safe_load(BRIDGE), "bridge.yaml")
    ks = {k.name: k for k in S.knobs(data, "bandits", gear=False)}
    assert ks["cutthroat.zone"].show(ks["cutthroat.zone"].written) == "reeds"
    assert ks["boss.attention"].show(ks["boss.attention"].written) == "basic"
    values = {**S.written(list(ks.values())), "cutthroat.zone": 0, "boss.attention": S.ATTENTION_NAMES.index("brute")}
    designed = S.apply(data, "bandits", values)["characters"]
    assert designed["cutthroat"]["zone"] == "near" and designed["boss"]["controller"] == "brute"
    assert S.knobs(data, "bandits", gear=False, controlled=frozenset({"bandits"})) == [
        k for k in ks.values() if not k.name.endswith(".attention")]  # --control fixes who plays them


def test_who_shows_up_is_a_knob_only_where_the_npcs_outnumber_the_pcs_in_major_npcs_and_mobs():
    """One PC against a captain, a duelist and a gang (a mob): the duelist and the gang may sit the fight
    out, the captain (the side's lead) may not; with two more PCs the side no longer outnumbers them
    and nobody's presence is a knob. A left-out NPC is not written into the scene."""
    data = expanded(yaml.safe_load(BRIDGE), "bridge.yaml")
    data["characters"]["duelist"] = {**data["characters"]["boss"], "name": "Duelist"}
    data["characters"]["gang"] = {"name": "Gang", "kind": "mob", "side": "bandits", "zone": "far", "count": 3,
                                  "high_concept": "Ford Bandits", "skills": {"Fight": 1}, "stress": 1}
    del data["characters"]["lia"]
    ks = {k.name: k for k in S.knobs(data, "bandits", gear=False)}
    assert {n for n in ks if n.endswith(".present")} == {"duelist.present", "gang.present"}
    values = {**S.written(list(ks.values())), "duelist.present": 0}
    assert S.moved(list(ks.values()), values) == 1
    designed = S.apply(data, "bandits", values)["characters"]
    assert "duelist" not in designed and {"boss", "gang"} <= set(designed)
    for extra in ("lia", "mira"):
        data["characters"][extra] = {**data["characters"]["kael"], "name": extra.title()}
    assert not any(k.name.endswith(".present") for k in S.knobs(data, "bandits", gear=False))


def test_a_fighter_left_behind_as_written_is_brought_into_the_fight():
    """As written the swordsman brings under half an equal share of the PCs' contribution; the design (the
    bandits' numbers, where they start, whom they go for) gives both PCs at least half an equal share,
    on dice the search never saw."""
    data = expanded(yaml.safe_load(BRIDGE), "bridge.yaml")
    r = Q.run(Q.Ask(data, "bridge.yaml", "bandits", 0.6, seed=1, trials=150, budget=600, tolerance=0.04))
    written = r.trials[0].figures  # the scene as written, on the search's dice (replayed only when no design is met)
    assert written.shares()["kael"] < 0.25, written.shares()
    final = r.finals[r.chosen.number]
    assert r.met and abs(final.win_rate - 0.6) <= 0.04
    assert min(final.shares().values()) >= 0.25, final.shares()


def test_a_target_out_of_reach_returns_the_scene_unchanged_with_the_reason(tmp_path, capsys):
    """No candidate but the scene as written (one trial): the target is not met and nothing is moved
    for nothing; the report says so and the file's characters are the scene's."""
    out = tmp_path / "same.yaml"
    assert main(["design", _keep(tmp_path), "--side", "garrison", "--target-win", "0.05", "--trials", "1",
                 "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "the scene is returned unchanged" in printed and "knobs moved (0 of" in printed
    assert yaml.safe_load(out.read_text())["characters"] == yaml.safe_load(KEEP)["characters"]


@pytest.mark.parametrize("scene,side", [("burning_mill", "kesslers"), ("crossing", "raiders"), ("race", "teran")])
def test_a_hazard_scene_a_fate_3_scene_and_a_contest_are_designed_and_benched(tmp_path, capsys, scene, side):
    """On the fast core, which plays every scene: the burning mill's fire, the crossing's Fate 3.0 rules,
    a race (a contest's target: the PCs' side wins it)."""
    out = tmp_path / f"{scene}.yaml"
    assert main(["design", scene, "--side", side, "--target-win", "0.5", "--trials", "4", "--out", str(out)]) == 0
    assert "independent bench" in capsys.readouterr().out
    load_scene(str(out))
    assert main(["bench", str(out), "-n", "40"]) == 0


def test_a_challenge_is_refused_with_why(tmp_path, capsys):
    assert main(["design", "ritual", "--side", "horde", "--target-win", "0.5", "--out", str(tmp_path / "r.yaml")]) == 2
    err = capsys.readouterr().err
    assert "a challenge has no opposition" in err and err.count("\n") == 1
    assert not (tmp_path / "r.yaml").exists()


def test_the_judge_and_the_bench_report_agree_on_who_carried_each_fight(tmp_path, capsys):
    """The designer's figures (the kernel's arrays, judge.add_fights) and bench's report (its records,
    bench_report.carried) are worked out apart: on the same fights they agree on each PC's shifts and
    worst-off fights, a fight's most harmed sharing it (some fights here are tied)."""
    import json

    from fate_env.evaluation.bench import effective_controls
    from fate_env.evaluation.bench_report import carried
    from fate_env.fast import FastCore
    from fate_env.design.judge import judge
    out = tmp_path / "runs.json"
    assert main(["bench", "warehouse", "-n", "300", "--seed", "3", "--engine", "fast", "--json", str(out)]) == 0
    capsys.readouterr()
    records = json.loads(out.read_text())["episodes"]
    scene = load_scene("warehouse")
    by_bench = carried(scene, records)
    pcs = tuple(by_bench)
    fig = judge(FastCore(scene, effective_controls(scene, {})), pcs, [r["seed"] for r in records], 0.5, 1.0, 300)
    assert fig.fights == len(records) == 300
    for p in pcs:
        assert fig.dealt[p] / fig.fights == pytest.approx(by_bench[p]["shifts_dealt"])
        assert fig.worst_rates()[p] == pytest.approx(by_bench[p]["worst_off"])
    assert any(w % 1 for w in fig.worst.values())  # a tie shared (the first listed no longer takes it all)
    assert sum(fig.worst.values()) <= fig.fights


def test_a_fights_most_harmed_share_worst_off():
    import numpy as np
    from fate_env.evaluation.bench_report import worst_off_parts
    from fate_env.evaluation.bench_report import harms
    fights = np.array([[10, 10, 2], [0, 0, 0], [1, 3, 0]])  # a tie; nobody harmed; one most harmed
    assert worst_off_parts(fights).tolist() == [[0.5, 0.5, 0.0], [0.0, 0.0, 0.0], [0.0, 1.0, 0.0]]
    # the score: taken out with a mild consequence, 10 + 1; a moderate and a severe, 2 + 3; untouched, 0
    out = np.array([[True, False, False]])
    taken = np.array([[[1, 0, 0, 0], [0, 1, 1, 0], [0, 0, 0, 0]]])  # counts by severity, mild to extreme
    assert harms(out, taken).tolist() == [[11, 5, 0]]
