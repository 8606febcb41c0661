"""scripts/compare_runs.py reads the learning curves `fate-npc train` logs and lines runs up."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def fake_run(folder: Path, returns: list[float]) -> None:
    folder.mkdir()
    lines = ["time/total_timesteps,rollout/ep_rew_mean,train/loss"]
    lines += [f"{1000 * (i + 1)},{r},0.1" for i, r in enumerate(returns)]
    (folder / "progress.csv").write_text("\n".join(lines) + "\n")


def test_runs_side_by_side_and_the_mean_of_seeds(tmp_path):
    fake_run(tmp_path / "full_s1.log", [-1.0, -0.5, 0.0, 0.5])
    fake_run(tmp_path / "full_s2.log", [-1.0, -0.7, -0.2, 0.1])
    r = subprocess.run([sys.executable, str(ROOT / "scripts" / "compare_runs.py"), str(tmp_path / "full_s1.log"),
                        str(tmp_path / "full_s2.log"), "--every", "2000"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    rows = {line.split()[0]: line.split()[-2:] for line in r.stdout.splitlines()[1:]}
    assert rows["full_s1"] == ["-0.500", "0.500"]
    assert rows["full_s2"] == ["-0.700", "0.100"]
    assert rows["full"] == ["-0.600", "0.300"]  # "full (mean of 2)": the last two cells


def test_a_run_without_curves_is_refused(tmp_path):
    (tmp_path / "old.log").mkdir()
    (tmp_path / "old.log" / "progress.csv").write_text("time/total_timesteps,train/loss\n1000,0.1\n")
    r = subprocess.run([sys.executable, str(ROOT / "scripts" / "compare_runs.py"), str(tmp_path / "old.log")],
                       capture_output=True, text=True)
    assert r.returncode != 0 and "no rollout/ep_rew_mean" in r.stderr
