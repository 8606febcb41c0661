"""``fate-npc learn``: the general NPC made from scratch, teacher to policy file (issue 53).

It records ``search`` on generated scenes (``teacher.py``; the shipped scenes are never drawn),
clones the entity network from it (``general.py``) and writes the ``learned`` policy file with its
sidecar: the scenes it was trained on, the view's limits, how it agrees with its teacher. The same
seed, fights and epochs give the same file on one machine.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from agents.rehearsal import Rehearsal, RehearsalError

from ..content.generate import RULE_SETS, scene as generated
from ..content.safe_text import OneLineError
from ..content.json_input import JSONInputError, load_json
from ..content.paths import write_atomically
from ..content.policy_file import ModelFileError
from ..content.scenes import scene_from_dict
from ..environment.entity_policy import EntityPolicy
from ..fast.tables import CONTROLLERS, covered
from .distill import SCENES, teacher_record
from .distill import record as record_distilled
from .entity_net import net as make_net
from .general import clone, file_meta, save
from .self_play import Settings, improve
from .teacher import OPPONENTS, Recording, record


class Refused(OneLineError):
    """A learn run refused before it starts."""


#: how many seeds past the fights asked for the search for ones the fast core does not play looks at
SLOW_WINDOW = 100


def training_seeds(first: int, fights: int, slow_fights: int) -> tuple[list[int], list[int]]:
    """The generated scenes to record, from seed ``first`` on: ``fights`` the fast core plays (the
    teacher's copies are cheap there) and up to ``slow_fights`` it does not (played on the Python engine,
    for the rule features only it has), looked for among the next ``fights + slow_fights + SLOW_WINDOW``
    seeds: since the fast core plays every rule set's conflicts (issue 74) the generator's scenes are all
    its own, and none may be found."""
    fast, slow = [], []
    s = first
    while len(fast) < fights or len(slow) < slow_fights and s < first + fights + slow_fights + SLOW_WINDOW:
        (slow if covered(scene_from_dict(generated(s), f"generated {s}")) else fast).append(s)
        s += 1
    return fast[:fights], slow[:slow_fights]


def _round(args: Any, r: int, first: int, actor: str | None, log) -> tuple[Any, int]:
    """Round ``r``'s recording (read from ``--recording DIR`` when it holds it) and the next free seed."""
    fights = args.fights if r == 0 else args.dagger_fights
    fast, slow = training_seeds(first, fights, args.slow_fights if r == 0 else 0)
    after = max(fast + slow) + 1
    path = Path(args.recording) / f"round-{r}.npz" if args.recording else None
    if path is not None and path.exists():
        rec = Recording.load(path)
        log(f"round {r}: the teacher's {len(rec)} decisions read from {path}")
        return rec, after
    who = "search playing" if actor is None else "the network playing, search saying what it would do"
    log(f"round {r}: {who}, on {len(fast)} generated fights the fast core plays and {len(slow)} it does not "
        f"(at most {args.most} turns each), seeds {first}-{after - 1}, {args.workers} workers")
    rec = Recording.join([record(fast, args.workers, actor=actor), record(slow, args.workers, most=args.most)])
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        rec.save(path)
    return rec, after


def _started(path: str, seed: int):
    """The torch network of the learned policy file ``path``, and what its sidecar says it was trained on."""
    import torch

    policy = _policy(path, "--start")
    model = make_net(seed, width=int(policy.meta.get("width", 64)))
    try:
        model.load_state_dict({k: torch.from_numpy(v) for k, v in policy.w.items()})
    except RuntimeError as exc:
        first = str(exc).splitlines()[0][:120]
        raise Refused(f"--start {path}: its weights are not this network's ({first})") from None
    model.eval()
    return model, _card(path, "--start")


def _policy(path: str, flag: str):
    """The learned policy file ``path`` (``EntityPolicy``); a missing, foreign or damaged one refused, naming ``flag``."""
    try:
        return EntityPolicy(path)
    except ModelFileError as exc:
        raise Refused(f"{flag}: {exc}") from None


def _helper(args: Any) -> str:
    """The written file's helper script: ``--helper``, else the ``--start`` or ``--distill`` file's (a
    network goes on playing beside the script it learned with), else ``basic``. Refused in one line
    unless the fast core plays it as a script (``learned`` plays its seats there as their helper)."""
    given = getattr(args, "helper", None)
    if given is None:
        source = args.start or args.distill
        given = str(_policy(source, "--start" if args.start else "--distill").meta.get("helper", "basic")) if source \
            else "basic"
    scripts = [c for c in CONTROLLERS if c != "random"]
    if given not in scripts:
        raise Refused(f"--helper {given[:40]!r}: expected a scripted policy, one of {', '.join(scripts)}")
    return given


def _names(given: str) -> list[str]:
    """A comma-separated list of scripts on the command line (``none``: none)."""
    return [x.strip() for x in given.split(",")] if given.strip() != "none" else []


def _rehearse(args: Any, helper: str) -> dict[str, Any] | None:
    """The written file's ``rehearse`` entry (``agents/rehearsal.py``): ``--rehearse``'s lines after
    the helper and ``--outright``'s scripts, against the eight PC scripts, ``--rehearse-fights`` each.
    Either left out is the --start or --distill file's (its other lines after this helper); ``none``:
    no such lines. Without any line but the helper, no rehearsal."""
    given, outright_given = getattr(args, "rehearse", None), getattr(args, "outright", None)
    source = args.start or args.distill
    before = (_policy(source, "--start" if args.start else "--distill").meta.get("rehearse") if source else None) or {}
    others = [x for x in before.get("lines", []) if x != helper] if given is None else _names(given)
    outright = list(before.get("outright", [])) if outright_given is None else _names(outright_given)
    # the source's foes go on unless --rehearse names new lines; its fights unless --rehearse-fights is given
    foes = list(before.get("foes") or OPPONENTS) if given is None else list(OPPONENTS)
    fights = getattr(args, "rehearse_fights", None) or before.get("fights") or 8
    if helper in others:
        raise Refused(f"--rehearse {given[:60]!r}: {helper!r} is the --helper already; name the other lines")
    if not others and not outright:
        return None
    entry = {"lines": [helper, *others], **({"outright": outright} if outright else {}), "foes": foes, "fights": fights}
    where = "--outright" if given is None and outright_given is not None else "--rehearse"
    try:
        Rehearsal.from_meta({"helper": helper, "rehearse": entry}, where)
    except RehearsalError as exc:
        raise Refused(str(exc)) from None
    return entry


def _agreement(fitted: Any) -> dict[str, float]:
    """A fit's agreement with its teacher, for the sidecar (``general.Fitted``)."""
    return {"train": round(fitted.train_agree, 4), "held_out_fights": round(fitted.held_agree, 4),
            "teacher_with_basic": round(fitted.held_script_agree, 4)}


def _card(path: str, flag: str) -> dict[str, Any]:
    """The sidecar beside policy file ``path`` ({} when there is none); a damaged one refused, naming ``flag``."""
    card = Path(path).with_suffix(".json")
    if not card.is_file():
        return {}
    try:
        before = load_json(card, "JSON sidecar (the one fate-npc learn writes)", limit=4 * 1024 * 1024)
    except JSONInputError as exc:
        raise Refused(f"{flag}: {str(exc)[:300]}") from None
    return before if isinstance(before, dict) else {}


def _distill(args: Any, log) -> tuple[Any, dict[str, Any], float]:
    """``--distill FILE``: the file's own turns on the self-play scenes, cloned into a fresh network of
    ``--width`` (``distill.py``): the network, what it was trained on, and the seconds the recording took."""
    path = args.distill
    _policy(path, "--distill")
    card = _card(path, "--distill")
    t = time.perf_counter()
    log(f"{path} playing the NPCs of {args.fights} fights on the first {min(SCENES, args.fights)} self-play scenes, "
        f"{args.workers} workers")
    rec = record_distilled(path, args.fights, args.workers, args.seed)
    recorded = time.perf_counter() - t
    log(f"cloning on its {len(rec)} turns ({args.epochs} epochs, width {args.width})")
    fitted = clone(rec, epochs=args.epochs, seed=args.seed, width=args.width, threads=args.torch_threads, log=log)
    seeds = sorted(set(rec.fight.tolist()))
    info = {"epochs": args.epochs, "teacher": f"learned:{Path(path).name}",
            "trained_on": {"generator_seeds": [min(seeds), max(seeds)] if seeds else [], "scenes": len(seeds),
                           "fights": args.fights, "decisions": len(rec), "shipped_scenes": "none (held out)"},
            "agreement": _agreement(fitted),
            "distilled_from": teacher_record(card)}
    log(f"cloned: agrees with {path} on {fitted.held_agree:.1%} of the turns of fights it did not train on")
    return fitted.net, info, recorded


def _imitate(args: Any, log) -> tuple[Any, dict[str, Any], float]:
    """Record, clone, and for each further ``--rounds`` round play the network so far while search
    labels the turns it reaches (DAgger), the recordings pooled: the network, what it was trained
    on, and the seconds the recording took."""
    import tempfile

    parts, first, fitted, recorded = [], args.first_seed, None, 0.0
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(args.rounds):
            actor = None
            if fitted is not None:
                actor = f"learned:{Path(tmp) / f'round-{r}.zip'}"
                save(actor[len("learned:"):], fitted.net)
            t = time.perf_counter()
            rec, first = _round(args, r, first, actor, log)
            recorded += time.perf_counter() - t
            parts.append(rec)
            pooled = Recording.join(parts)
            log(f"cloning on {len(pooled)} decisions ({args.epochs} epochs)")
            fitted = clone(pooled, epochs=args.epochs, seed=args.seed, width=args.width, threads=args.torch_threads,
                           log=log)
    seeds = sorted(set(pooled.fight.tolist()))
    rules = {r: 0 for r in RULE_SETS}
    for s in seeds:
        rules[generated(s)["rules"]] += 1
    info = {"epochs": args.epochs, "rounds": args.rounds, "teacher": "search",
            "trained_on": {"generator_seeds": [min(seeds), max(seeds)] if seeds else [], "fights": len(seeds),
                           "by_rule_set": rules, "decisions": len(pooled), "shipped_scenes": "none (held out)"},
            "agreement": _agreement(fitted)}
    log(f"cloned: agrees with search on {fitted.held_agree:.1%} of the turns of fights it did not train on "
        f"(search's fallback, basic, on {fitted.held_script_agree:.1%})")
    return fitted.net, info, recorded


def _league(members: list[dict[str, Any]]) -> dict[str, Any]:
    """The league's record for the sidecar: each script's fights and the learner's wins, the past
    selves together (there is one every 10 iterations)."""
    out: dict[str, Any] = {m["name"]: {"fights": m["fights"], "wins": m["wins"]}
                           for m in members if m["kind"] != "snapshot"}
    selves = [m for m in members if m["kind"] == "snapshot"]
    out["past selves"] = {"count": len(selves), "fights": sum(m["fights"] for m in selves),
                          "wins": sum(m["wins"] for m in selves)}
    return out


def run(args: Any, log=print) -> dict[str, Any]:
    """Imitate search (or ``--start`` from a policy file), then ``--self-play`` iterations of play
    against the league; write the file and its sidecar."""
    out = Path(args.out)
    sidecar = out.with_suffix(".json")
    if not args.force and (out.exists() or sidecar.exists()):
        raise Refused(f"{out if out.exists() else sidecar} exists; --force replaces it")
    start_file, iterations = args.start, args.self_play
    if start_file and args.recording:
        raise Refused("--start skips the recording rounds: drop --recording (or --start)")
    if args.distill and (start_file or args.recording):
        raise Refused(f"--distill learns from a file's own turns: drop {'--start' if start_file else '--recording'}")
    helper = _helper(args)
    rehearse = _rehearse(args, helper)
    if iterations and args.self_play_group < 2:
        raise Refused("--self-play-group: at least 2 fights per scene (each fight is measured against the others)")
    start = time.perf_counter()
    if start_file:
        net, before = _started(start_file, args.seed)
        # what the network learned before carries over: its sidecar's record of the imitation
        info = {**{k: before[k] for k in ("epochs", "rounds", "teacher", "trained_on", "agreement", "distilled_from")
                    if k in before},
                "started_from": str(start_file)}
        recorded = 0.0
    elif args.distill:
        net, info, recorded = _distill(args, log)
    else:
        net, info, recorded = _imitate(args, log)
    net.helper = helper
    info = {**file_meta(net), "seed": args.seed, **info, "opponents": list(OPPONENTS)}
    if iterations:
        done = improve(net, Settings(iterations=iterations, scenes=args.self_play_scenes, group=args.self_play_group,
                                     temperature=args.temperature, lr=args.self_play_lr, workers=args.workers,
                                     seed=args.seed, keep=args.self_play_keep), log=log)
        info["self_play"] = {"iterations": done["iterations"], "fights": done["fights"],
                             "scenes_per_iteration": args.self_play_scenes, "group": args.self_play_group,
                             "temperature": args.temperature, "lr": args.self_play_lr,
                             "generator_seeds": done["scene_pool"], "seconds": done["seconds"],
                             "league": _league(done["league"]),
                             "npc_reward_by_iteration": [h["npc_reward"] for h in done["history"]]}
    info["seconds"] = {"recording_this_run": round(recorded, 1), "all": round(time.perf_counter() - start, 1)}
    # set only now: self-play's own files (its league's past selves) play the helper alone
    net.rehearse = rehearse
    if rehearse:
        info["rehearse"] = rehearse
    out.parent.mkdir(parents=True, exist_ok=True)
    save(out, net)
    write_atomically(sidecar, json.dumps(info, indent=1) + "\n")
    log(f"wrote {out} and {sidecar}")
    return info
