"""The entity rows written from the kernel's arrays (``fast/entity_rows.py``) are the reference's
(``EntityEncoder.encode``), number for number, at every decision of shipped and generated scenes; the
kernel's copy gives the helper script's move (``Session.script_pick``) as the reference's ``basic``
chooses it; and the compiled forward scores as the numpy one does (issue 53: the learned NPC at the
fast core's pace)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba")

from agents.registry import make_controller  # noqa: E402
from fate_env.content.generate import RULE_SETS, scene as generated  # noqa: E402
from fate_env.content.scenes import load_scene, scene_from_dict  # noqa: E402
from fate_env.environment.entities import EntityEncoder  # noqa: E402
from fate_env.environment.fast_entities import FastEntities  # noqa: E402
from fate_env.fast.core import FastCore  # noqa: E402
from fate_env.fast.kernel import layout as k  # noqa: E402
from fate_env.fast.tables import DECISION_BITS, covered  # noqa: E402
from fate_env.rules.engine import start  # noqa: E402

FIELDS = ("glob", "characters", "char_zone", "zones", "aspects", "aspect_owner", "aspect_zone", "options",
          "option_char", "option_zone", "option_aspect")


def _covered_generated(count: int) -> list:
    """Generated scenes the fast core plays, of every rule set the generator draws that it covers."""
    out = []
    for seed in range(300):
        sc = scene_from_dict(generated(seed, RULE_SETS[seed % len(RULE_SETS)]), f"generated {seed}")
        if not covered(sc):
            out.append(sc)
        if len(out) == count:
            return out
    raise AssertionError(f"fewer than {count} covered generated scenes in 300 seeds")


SCENES = [load_scene(n) for n in ("duel", "warehouse", "ghoul", "horde", "leviathan")] + _covered_generated(4)
#: contests (opposed and passive), a challenge, and the vault (a conflict holding a challenge that turns into its
#: contest): their decisions, their victories and what each side invoked on its own roll
CONTESTS = [load_scene("race"), load_scene("debate", rules="core"), load_scene("ritual"), load_scene("vault"),
            load_scene("chase")]


def _walk(sc, seed: int, asks: dict, check) -> int:
    """Play ``sc`` on the fast core with ``asks`` answered at random, and the reference beside it with
    the same answers; ``check(session, conflict)`` at every decision asked. Returns how many."""
    core = FastCore(sc, None, asks)
    s, c = core.session(seed), start(sc, seed)
    rng = np.random.default_rng(seed)
    n = 0
    while s.pending is not None:
        kind, actor, count = s.pending
        while c.pending is not None and not (c.pending.actor == actor and c.pending.kind == kind):
            c.step(*make_controller("basic", seed).choose(c, c.pending))  # what the kernel's scripts did
        assert c.pending is not None and len(c.pending.options) == count
        check(core, s, c)
        answer = int(rng.integers(count))
        s.answer(answer)
        c.step(answer)
        n += 1
    return n


@pytest.mark.parametrize("sc", SCENES, ids=lambda sc: sc.name)
def test_the_kernel_writes_the_references_rows_at_every_decision(sc):
    encoder = EntityEncoder(sc)
    entities: dict = {}
    kinds: set = set()

    def check(core, s, c):
        fast = entities.setdefault(id(core), FastEntities(core))
        d = c.pending
        kinds.add(d.kind)
        suggested = len(d.options) // 2
        want = encoder.encode(c, d.actor, suggested)
        got = fast.encode(s, core.tables.ids.index(d.actor), suggested)
        for name in FIELDS:
            a, b = getattr(want, name), getattr(got, name)
            assert a.shape == b.shape and a.dtype == b.dtype, (name, a.shape, b.shape)
            assert np.array_equal(a, b), (d.kind, name, np.argwhere(a != b)[:4].tolist())
    everyone = {ch.id: tuple(DECISION_BITS) for ch in sc.characters}
    n = sum(_walk(sc, seed, everyone, check) for seed in range(5))
    assert n > 25 and {"turn", "respond", "invoke"} <= kinds


@pytest.mark.parametrize("sc", CONTESTS, ids=lambda sc: sc.name)
def test_the_kernel_writes_the_references_rows_in_contests_and_challenges(sc):
    encoder = EntityEncoder(sc)
    entities: dict = {}
    kinds: set = set()
    victories: list = []

    def check(core, s, c):
        fast = entities.setdefault(id(core), FastEntities(core))
        d = c.pending
        kinds.add(d.kind)
        want = encoder.encode(c, d.actor, 0)
        got = fast.encode(s, core.tables.ids.index(d.actor), 0)
        for name in FIELDS:
            a, b = getattr(want, name), getattr(got, name)
            assert a.shape == b.shape and np.array_equal(a, b), (d.kind, name, np.argwhere(a != b)[:4].tolist())
        victories.append(bool(c.victories and any(c.victories.values())))
    # the vault: its PCs' basic works the challenge and calls the retreat, so that the contest comes
    asked = {ch.id: tuple(DECISION_BITS) for ch in sc.characters if sc.name != "vault" or ch.kind != "pc"}
    n = sum(_walk(sc, seed, asked, check) for seed in range(6))
    assert n > 25
    if sc.kind == "challenge":
        assert "task" in kinds
    elif sc.kind == "contest":
        assert {"contest_advantage", "invoke"} <= kinds and any(victories)
    else:  # the vault: its conflict's turns, then the contest it turns into
        assert {"turn", "contest_advantage"} <= kinds


def test_the_kernels_copy_gives_the_helpers_move():
    basic = make_controller("basic", 0)
    picks = []

    def check(core, s, c):
        want, _ = basic.choose(c, c.pending)
        got = s.script_pick()
        assert got == want, (c.pending.actor, c.pending.options[want], c.pending.options[got])
        past = core._script_events[s.G[k.G_NEV]:s._copy.G[k.G_NEV], 0]
        assert k.E_TURN not in past and k.E_EXCHANGE not in past  # the copy stopped at the move, in its turn
        picks.append(type(c.pending.options[got]).__name__)
    for sc in SCENES[:5]:
        npcs = {ch.id: ("turn",) for ch in sc.characters if ch.kind != "pc"}
        assert sum(_walk(sc, seed, npcs, check) for seed in range(4)) > 10
    assert len(set(picks)) > 2  # attacks, moves, concessions...: not one fixed move


def test_the_compiled_forward_scores_as_numpy_does_alone_whatever_the_batch_or_its_memos():
    from agents.learned import _load_policy, shipped_path
    from conftest import random_decisions
    from fate_env.fast.entity_forward import memos
    policy = _load_policy(shipped_path())
    batch = [e for sc in SCENES for e, _ in random_decisions(sc, 5, 12)]
    assert len({len(e.characters) for e in batch}) >= 4
    numpy_scores = policy._logits(batch)
    compiled = policy.logits(batch)
    alone = [policy.logits([e])[0] for e in batch]
    kept = policy._memos
    assert kept.option.used.sum() > 0 and kept.aspect.used.sum() > 0  # rows seen are kept...
    policy._memos = memos(policy.net, 4)  # ...and a memo too small to keep most rows changes no score
    try:
        computed = [policy.logits([e])[0] for e in batch]
    finally:
        policy._memos = kept
    for e, a, b, c, d in zip(batch, numpy_scores, compiled, alone, computed):
        np.testing.assert_allclose(b, a, rtol=1e-5, atol=1e-5)
        assert np.array_equal(b, c)  # a decision's scores are its own, bit for bit
        assert np.array_equal(b, d)
