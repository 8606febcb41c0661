"""The trainer's commands declared: ``train``, ``export``, ``exploit`` and ``learn``, each its arguments
and the run they name in ``cli_runs``; where training's configs are by default."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..content import command_line as cl
from ..content.scene_files import config_dir
from ..evaluation.cli_commands import workers


def default_train_config() -> Path:
    """The training config a run takes when ``--config`` is not given (Ray's is beside it)."""
    return config_dir() / "train" / "default.yaml"


def add_train(t: argparse.ArgumentParser) -> None:
    """``fate-npc train``'s arguments."""
    t.add_argument("scene")
    t.add_argument("--side", help="the side that learns (default: the first NPC side)")
    t.add_argument("--opponent",
                   help="who plays the other sides: a policy name or ppo:PATH; several, comma-separated, "
                        "for one of them per episode (default basic)")
    t.add_argument("--timesteps", type=cl.count, default=100_000)
    t.add_argument("--out", default="runs/model.zip", help="the model to write (and PATH.json, its sidecar)")
    t.add_argument("--force", action="store_true", help="replace the --out model and its sidecar if they exist")
    t.add_argument("--config", help="the training config (default: configs/train/default.yaml, which teaches a first "
                                    "run to fight; with --ray, configs/train/ray.yaml)")
    t.add_argument("--self-play", action="store_true", help="play against frozen snapshots of itself")
    t.add_argument("--league", action="store_true",
                   help="train against a league: the config's league population (every scripted policy and "
                        "search by default), snapshots of the learner and exploiters trained against it, "
                        "the ones it loses to drawn most")
    t.add_argument("--init", help="start from this saved model's weights (same scene maxima and net_arch)")
    t.add_argument("--ray", metavar="ADDRESS",
                   help="train on Ray RLlib's multi-agent PPO instead of SB3: a cluster's address (auto, "
                        "ray://head:10001) or local; --envs sets the env runners (needs the cluster extra)")
    t.add_argument("--envs", type=workers, default=1,
                   help="environments stepping together in this process, one policy forward for all (default 1)")
    t.add_argument("--subprocess-envs", action="store_true",
                   help="step the --envs environments in processes of their own (SB3's SubprocVecEnv: for "
                        "machines with cores to spare; each process imports torch and the engine)")
    t.add_argument("--torch-threads", type=cl.count, default=1,
                   help="torch threads in the learner's process (default 1: fastest on a small shared machine)")
    t.add_argument("--seed", type=cl.seed, default=0)
    t.add_argument("--rules")
    t.add_argument("--json", action="store_true")
    t.add_argument("--quiet", action="store_true")
    t.set_defaults(run="fate_env.learn.cli_runs:cmd_train")


def add_export(xp: argparse.ArgumentParser) -> None:
    """``fate-npc export``'s arguments."""
    xp.add_argument("model", help="a model saved by fate-npc train (PATH.zip, with its .json sidecar)")
    xp.add_argument("out", help="the policy-only file to write (its sidecar is copied beside it)")
    xp.add_argument("--force", action="store_true", help="replace OUT (and its sidecar) if they exist")
    xp.set_defaults(run="fate_env.learn.cli_runs:cmd_export")


def add_exploit(x: argparse.ArgumentParser) -> None:
    """``fate-npc exploit``'s arguments."""
    x.add_argument("model", help="the NPC: ppo:PATH, a model's PATH.zip, or a scripted policy (then --scene)")
    x.add_argument("--side", required=True, help="the side the NPC plays; the best response plays the other")
    x.add_argument("--scene", help="the scene (default: the one in the model's .json sidecar)")
    x.add_argument("--baseline", default="basic",
                   help="NPC policies to measure the same way, comma-separated (default: basic)")
    x.add_argument("--timesteps", type=cl.count, default=100_000, help="each best response's training budget")
    x.add_argument("--config", default=str(default_train_config().with_name("exploit.yaml")))
    x.add_argument("--episodes", type=cl.count, help="fresh seeds for each win rate (default: the config's)")
    x.add_argument("--out-dir", default="runs/exploit", help="where the best responses are saved")
    x.add_argument("--envs", type=workers, default=1)
    x.add_argument("--torch-threads", type=cl.count, default=1)
    x.add_argument("--seed", type=cl.seed, help="the best responses' seed (default 0)")
    x.add_argument("--seeds", type=cl.seeds, help="several seeds, e.g. 0,1,2: a best response per seed for every NPC, "
                                                 "each run reported and pooled (a seed is one draw of the figure)")
    x.add_argument("--rules")
    x.add_argument("--json", action="store_true")
    x.add_argument("--quiet", action="store_true")
    x.set_defaults(run="fate_env.learn.cli_runs:cmd_exploit")


def add_learn(ln: argparse.ArgumentParser) -> None:
    ln.add_argument("--out", required=True, metavar="FILE",
                    help="the policy file to write (learned:FILE plays it); its sidecar (.json) goes beside it")
    ln.add_argument("--force", action="store_true", help="replace the file and its sidecar if they exist")
    ln.add_argument("--fights", type=cl.count, default=760,
                    help="generated fights the fast core plays (default 760); with --distill, the fights the file plays")
    ln.add_argument("--slow-fights", type=int, default=60,
                    help="generated fights only the Python engine plays, where the generator makes any (default 60)")
    ln.add_argument("--most", type=cl.count, default=20, help="turns recorded per slow fight (default 20)")
    ln.add_argument("--first-seed", type=cl.seed, default=10000, help="the first generated scene (default 10000)")
    ln.add_argument("--epochs", type=cl.count, default=15, help="passes over the recorded turns per cloning (default 15)")
    ln.add_argument("--width", type=cl.count, default=64, help="the network's width (default 64)")
    ln.add_argument("--seed", type=cl.seed, default=0, help="the network's first weights and the batches' order")
    ln.add_argument("--workers", type=cl.count, default=2, help="processes recording the teacher (default 2)")
    ln.add_argument("--torch-threads", type=cl.count, default=1,
                    help="torch's threads while cloning (default 1: the same file on every run)")
    ln.add_argument("--rounds", type=cl.count, default=2, help="rounds: the first records search playing, each "
                                                          "next one the network so far, search labelling (default 2)")
    ln.add_argument("--dagger-fights", type=cl.count, default=500,
                    help="generated fights each round after the first records (default 500)")
    ln.add_argument("--recording", metavar="DIR", help="each round's recording (round-N.npz): read when there, "
                                                       "else recorded and written there")
    ln.add_argument("--start", metavar="FILE", help="begin from this learned policy file's network instead of "
                                                   "imitating search (the recording rounds are skipped)")
    ln.add_argument("--distill", metavar="FILE", help="learn a learned policy file's own turns instead of search's: "
                                                     "it plays --fights fights of the self-play scenes, and a fresh "
                                                     "network of --width clones it (a narrower one is cheaper)")
    ln.add_argument("--helper", metavar="SCRIPT",
                    help="the scripted policy the written file plays beside its network: it answers the decisions "
                         "the network does not make, and its move is the one the network reads (default: the "
                         "--start or --distill file's, else basic; the shipped file's is spender)")
    ln.add_argument("--rehearse", metavar="SCRIPTS",
                    help="other helpers the written file may play beside, comma-separated (e.g. stacker): before its "
                         "first decision in a scene it plays the scene through with each against the scripted PC "
                         "policies and keeps the one that won most (default: the --start or --distill file's; none: "
                         "no other helper)")
    ln.add_argument("--outright", metavar="SCRIPTS",
                    help="scripts the written file's rehearsal may also pick to play its side outright, the network "
                         "playing no turn, comma-separated (e.g. counter); kept only on scenes where they won more "
                         "(default: the --start or --distill file's; none: no such line)")
    ln.add_argument("--rehearse-fights", type=cl.count, default=None, metavar="N",
                    help="a rehearsal's fights per line and PC policy (default: the --start or --distill file's, "
                         "else 8)")
    ln.add_argument("--self-play", type=cl.seed, default=500, metavar="N",
                    help="then N iterations of self-play against the scripts and past selves (default 500; 0: "
                         "imitation only)")
    ln.add_argument("--self-play-scenes", type=cl.count, default=16, help="close generated scenes per iteration (default 16)")
    ln.add_argument("--self-play-group", type=cl.count, default=8,
                    help="fights per scene, one opponent, each on its own dice (default 8; at least 2)")
    ln.add_argument("--temperature", type=cl.positive, default=0.5,
                    help="how widely self-play draws the NPCs' turns from the network (default 0.5)")
    ln.add_argument("--self-play-lr", type=cl.positive, default=3e-4, help="self-play's step size (default 0.0003)")
    ln.add_argument("--self-play-keep", metavar="DIR", help="also keep the network at each snapshot (every 10 "
                                                          "iterations) in DIR, to measure the run's course")
    ln.add_argument("--json", action="store_true", help="the sidecar on stdout, progress on stderr")
    ln.set_defaults(run="fate_env.learn.cli_runs:cmd_learn")
