"""fate-npc bench: determinism across workers and Ray, the statistics, sweeps and tuning."""

from __future__ import annotations

import json

import pytest
import yaml

from fate_env.evaluation import bench as B
from fate_env.cli import main
from fate_env.evaluation.stats import wilson

pytestmark = pytest.mark.kernel  # runs the fast core (tests/conftest.py)

HARMLESS = {
    "name": "harmless",
    "rules": {"name": "condensed", "dials": {"weapons": True}},
    "gm_fate_points": 0,
    "zones": [{"id": "room"}],
    "characters": {
        "hero": {"kind": "pc", "side": "pcs", "zone": "room", "skills": {"Fight": 5, "Athletics": 8},
                 "armor": 4, "fate_points": 0},
        "mook": {"kind": "minor", "side": "npcs", "zone": "room", "skills": {"Fight": 0}, "stress": 0},
    },
}


def write(tmp_path, data, name="scene.yaml"):
    p = tmp_path / name
    p.write_text(yaml.safe_dump(data))
    return str(p)


def test_a_foe_that_cannot_hurt_the_pcs_means_a_100_percent_win_rate(tmp_path, capsys):
    """The NPC's best effort (0 + 4 dice + a boost's 2) never gets past Athletics 8-4 and Armor 4."""
    path = write(tmp_path, HARMLESS)
    out = tmp_path / "runs.json"
    assert main(["bench", path, "-n", "200", "--seed", "5", "--json", str(out)]) == 0
    text = capsys.readouterr().out
    lo, hi = wilson(200, 200)
    assert round(lo, 4) == 0.9812
    assert f"pcs wins 100.0% [95% {lo:.1%}, {hi:.1%}]  (200/200)" in text
    data = json.loads(out.read_text())
    assert all(r["winner"] == "pcs" and r["sides"]["pcs"]["consequences"] == {k: 0 for k in B.SEVERITIES}
               for r in data["episodes"])


def test_same_seed_same_json_with_one_or_two_workers(tmp_path):
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    args = ["bench", "ghoul", "-n", "60", "--seed", "9", "--vary", "characters.ghoul.skills.Fight=1,3"]
    assert main(args + ["--json", str(a)]) == 0
    assert main(args + ["--json", str(b), "--workers", "2"]) == 0
    assert a.read_bytes() == b.read_bytes()
    assert json.loads(a.read_text())["variants"] == [{"characters.ghoul.skills.Fight": 1},
                                                     {"characters.ghoul.skills.Fight": 3}]


def test_same_json_with_ray_on_a_local_instance(tmp_path):
    ray = pytest.importorskip("ray")
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    args = ["bench", "duel", "-n", "40", "--seed", "2"]
    assert main(args + ["--json", str(a)]) == 0
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        assert main(args + ["--json", str(b), "--ray", "auto"]) == 0
    finally:
        ray.shutdown()
    assert a.read_bytes() == b.read_bytes()


def test_variants_share_their_dice_and_differences_are_paired():
    """Common random numbers: every variant's episode i has the same seed, so two identical
    variants give identical records and their paired difference is exactly zero."""
    base = yaml.safe_load(open(B.__file__.replace("fate_env/evaluation/bench.py", "configs/scenes/duel.yaml")).read())
    grid = B.variants(base, [B.parse_vary("characters.blade.skills.Fight=3..4")])
    jobs = [(base, "duel.yaml", g, None, {}, 1, vi, i) for vi, g in enumerate(grid) for i in range(20)]
    recs = B.run_jobs(jobs)
    seeds = [[r["seed"] for r in recs if r["variant"] == vi] for vi in range(2)]
    assert seeds[0] == seeds[1] and len(set(seeds[0])) == 20
    same = B.paired_difference([r for r in recs if r["variant"] == 0], [r for r in recs if r["variant"] == 0], "rival")
    assert same == {"difference": 0.0, "ci95": [0.0, 0.0]}
    assert B.baseline_index(base, grid) == 1  # Sethra's Fight is 4 as written


def test_two_identical_variants_give_identical_records(tmp_path, capsys):
    out = tmp_path / "same.json"
    assert main(["bench", "warehouse", "-n", "60", "--seed", "1", "--vary", "characters.og.skills.Fight=4,4",
                 "--json", str(out)]) == 0
    data = json.loads(out.read_text())
    strip = [[{k: v for k, v in r.items() if k != "variant"} for r in data["episodes"] if r["variant"] == vi]
             for vi in (0, 1)]
    assert strip[0] == strip[1]
    first, second = data["summary"]
    assert first["sides"] == second["sides"]
    assert second["difference_vs_baseline"] == {"difference": 0.0, "ci95": [0.0, 0.0]}


def test_json_summary_per_variant_and_the_sweep_table(tmp_path, capsys):
    out = tmp_path / "sweep.json"
    assert main(["bench", "ghoul", "-n", "50", "--seed", "3", "--vary", "characters.ghoul.skills.Fight=1,3",
                 "--json", str(out)]) == 0
    text = capsys.readouterr().out
    data = json.loads(out.read_text())
    assert len(data["summary"]) == 2 and data["focus"] == "investigators"
    for s, recs in zip(data["summary"], ([r for r in data["episodes"] if r["variant"] == v] for v in (0, 1))):
        wins = sum(r["winner"] == "investigators" for r in recs)
        assert s["sides"]["investigators"]["wins"] == wins and s["sides"]["investigators"]["ci95"] == list(wilson(wins, 50))
        assert s["exchanges"] == sum(r["exchanges"] for r in recs) / 50
        assert s["disasters"]["pc_taken_out"] == sum(1 for r in recs if r["pc_taken_out"])
    base = next(i for i, s in enumerate(data["summary"]) if s["baseline"])  # the value written in the file
    other = 1 - base
    d = B.paired_difference([r for r in data["episodes"] if r["variant"] == other],
                            [r for r in data["episodes"] if r["variant"] == base], "investigators")
    assert data["summary"][other]["difference_vs_baseline"] == d
    assert data["summary"][base]["difference_vs_baseline"] is None
    table = text.split("\n\n")[0]  # the summary table comes before the per-variant detail
    assert "difference [95%, paired]" in table and "(baseline)" in table and "== characters" not in table


def test_tune_writes_json_csv_and_plot(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    j, c, p = tmp_path / "t.json", tmp_path / "t.csv", tmp_path / "t.png"
    assert main(["bench", "duel", "-n", "20", "--seed", "1", "--tune", "characters.blade.skills.Fight",
                 "--target-win", "0.5", "--vary", "characters.blade.skills.Fight=2..4",
                 "--json", str(j), "--csv", str(c), "--plot", str(p)]) == 0
    assert "<- closest" in capsys.readouterr().out
    assert len(json.loads(j.read_text())["summary"]) == 3
    assert len(c.read_text().splitlines()) == 1 + 60 and p.stat().st_size > 5000


@pytest.mark.parametrize("flag", ["--json", "--csv", "--plot", "--save"])
def test_output_paths_are_checked_before_the_run(tmp_path, capsys, flag):
    missing = tmp_path / "no-such-folder" / "out.file"
    command = "play" if flag == "--save" else "bench"
    assert main([command, "duel", flag, str(missing)] + (["-n", "5"] if command == "bench" else [])) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "does not exist" in err and str(missing.parent) in err


def test_bad_numbers_and_no_cluster_are_one_line_errors(capsys):
    for args in (["bench", "duel", "-n", "0"], ["bench", "duel", "-n", "-5"], ["resolve", "duel", "--seed", "-1"],
                 ["bench", "duel", "--tune", "characters.blade.skills.Fight", "--target-win", "7"]):
        with pytest.raises(SystemExit) as exc:
            main(args)
        assert exc.value.code == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "expected" in err
    pytest.importorskip("ray")
    assert main(["bench", "duel", "-n", "2", "--ray", "auto"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no Ray cluster" in err


def test_two_workers_with_a_learned_controller_finish_and_match_one_worker(tmp_path):
    """A spawn pool: forked children of a process running torch threads could deadlock."""
    pytest.importorskip("sb3_contrib")
    model, cfg = tmp_path / "tiny.zip", tmp_path / "tiny.yaml"
    cfg.write_text("n_steps: 128\nbatch_size: 64\nn_epochs: 1\nnet_arch: [32]\neval_episodes: 2\nlearn: [turn]\n")
    assert main(["train", "duel", "--side", "rival", "--timesteps", "128", "--out", str(model), "--config", str(cfg),
                 "--quiet", "--json"]) == 0  # torch has now started its threads in this process
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    args = ["bench", "duel", "-n", "16", "--seed", "4", "--control", f"rival=ppo:{model}"]
    assert main(args + ["--json", str(a)]) == 0
    assert main(args + ["--json", str(b), "--workers", "2"]) == 0
    assert a.read_bytes() == b.read_bytes()


def test_vary_values_and_paths():
    assert B.parse_values("2..5") == [2, 3, 4, 5]
    assert B.parse_values("2,4,6") == [2, 4, 6]
    assert B.parse_values("on,off") == [True, False]
    data = {"rules": "core", "characters": {"og": {"skills": {"Fight": 4}}}}
    B.set_path(data, "rules.weapons", True)
    B.set_path(data, "characters.og.skills.Fight", 2)
    assert data["rules"] == {"name": "core", "dials": {"weapons": True}}
    assert data["characters"]["og"]["skills"]["Fight"] == 2
    with pytest.raises(ValueError, match="no field 'ogg'"):
        B.set_path(data, "characters.ogg.skills.Fight", 2)
    data["countdowns"] = [{"name": "Gate", "boxes": 4}]
    B.set_path(data, "countdowns.0.boxes", 6)  # a list's items by number
    assert B.get_path(data, "countdowns.0.boxes") == 6 and B.get_path(data, "countdowns.1.boxes") is None
    with pytest.raises(ValueError, match="no field '1'"):
        B.set_path(data, "countdowns.1.boxes", 2)


def test_bad_vary_is_one_clear_error(capsys):
    assert main(["bench", "duel", "-n", "5", "--vary", "characters.nobody.skills.Fight=1,2"]) == 2
    assert "no field 'nobody'" in capsys.readouterr().err
    assert main(["bench", "duel", "-n", "5", "--vary", "characters.blade.count=1,2"]) == 2
    assert "expected count only on a mob" in capsys.readouterr().err


def test_tune_finds_the_closest_value(capsys):
    assert main(["bench", "duel", "-n", "40", "--seed", "1", "--tune", "characters.blade.skills.Fight",
                 "--target-win", "0.5", "--vary", "characters.blade.skills.Fight=2..6"]) == 0
    text = capsys.readouterr().out
    assert "<- closest" in text and "characters.blade.skills.Fight =    2" in text


def test_csv_and_plot(tmp_path):
    pytest.importorskip("matplotlib")
    csv, png = tmp_path / "r.csv", tmp_path / "p.png"
    assert main(["bench", "ghoul", "-n", "20", "--vary", "characters.ghoul.skills.Fight=1..3",
                 "--csv", str(csv), "--plot", str(png)]) == 0
    lines = csv.read_text().splitlines()
    assert len(lines) == 1 + 60 and lines[0].startswith("variant,index,seed,winner")
    assert png.stat().st_size > 5000


@pytest.mark.parametrize("engine", ["fast", "reference"])
def test_bench_records_each_character_and_they_add_up_to_the_sides(tmp_path, engine, capsys):
    """Per-character figures (issue 52), the same on either engine: the sides' totals are their sums."""
    from fate_env.content.scenes import load_scene
    out = tmp_path / "runs.json"
    assert main(["bench", "warehouse", "-n", "30", "--seed", "4", "--engine", engine, "--json", str(out)]) == 0
    printed = capsys.readouterr().out
    scene = load_scene("warehouse")
    side_of = {c.id: c.side for c in scene.characters}
    assert "who carried the fight" in printed
    assert all(f"{p:>12}: " in printed for p in ("cynere", "zird", "landon"))  # a line per PC
    dealt_any = 0
    for r in json.loads(out.read_text())["episodes"]:
        chars = r["characters"]
        assert set(chars) == set(side_of)
        for side, totals in r["sides"].items():
            mine = [c for cid, c in chars.items() if side_of[cid] == side]
            for key in ("taken_out", "conceded", "invokes", "fate_points", "advantages", "shifts_dealt", "shifts_taken", "assists"):
                assert sum(int(c[key]) for c in mine) == totals[key], (side, key)
            assert sum(len(c["consequences"]) for c in mine) == sum(totals["consequences"].values())
        # and against the record's figures worked out from the outcome on their own
        assert sum(chars[p]["taken_out"] for p in ("cynere", "zird", "landon")) == r["pc_taken_out"]
        dealt_any += sum(c["shifts_dealt"] for c in chars.values())
        # every shift dealt lands on someone (a hazard's has no dealer)
        assert sum(c["shifts_dealt"] for c in chars.values()) <= sum(c["shifts_taken"] for c in chars.values())
    assert dealt_any > 0
