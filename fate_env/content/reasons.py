"""The scripted policies' one-line reasons, declared once.

A scripted NPC says why it chose, in a line the table reads ("attacks Zird with Fight: the best
odds in reach"); the reason goes into the event log, so the narration, the fight report and the
golden logs all read it. The Python controllers (``agents/basic.py``, ``agents/tactics.py``,
``agents/random_policy.py``) and the fast core's decoder (``fast/decode.py``, which spells the
kernel's reason codes) format the same strings from here, so the two engines cannot drift apart.
The fields are the option's (``target``, ``skill``, ``zone``, ``character``, ``template``,
``ally``) or named in the key's comment.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

REASONS: dict[str, str] = {
    # a turn (basic, and the tactics built on it)
    "concede": "concedes while it can: the next hit would take it out",
    "attack": "attacks {target} with {skill}: the best odds in reach",
    "blast": "catches {foes} foes in one {skill} attack on {zone}",  # a zone attack
    "step": "steps into {zone} to reach a foe",
    "close_in_better": "closes in to {zone} to use {skill} rather than {mediocre} at Mediocre",
    "force_way": "forces a way to {zone} to reach a foe",
    "set_up": "sets up {template}: no foe in reach",
    "full_defense": "goes on full defense: no foe in reach",
    "nothing": "has nothing useful to do",
    "smash": "smashes the closest foe, {target}",  # brute
    "spread": "spreads its blows: strikes {target}, the foe with the most left to take",  # spreader
    "back_off": "backs off to {zone} to keep its distance",  # sniper
    "shoot": "shoots {target} from range",  # sniper
    "guard": "goes on full defense: one hit from out",  # tactician
    "outmatched": "goes on full defense: outmatched (every attack rated below the defense)",  # counter
    "cash_in": "cashes its stacked invokes on {target}, the most wounded",  # tactician
    "set_up_on": "sets up {template} on {target} before striking",  # tactician
    "focus": "focuses fire on {target}, the most wounded",  # tactician
    "set_up_for": "sets up {template} on {target} for its allies",  # support
    "back_up": "backs {ally} up: +1 teamwork on its {skill}",  # support
    "stack": "takes advantage of its own {aspect} to stack free invokes ({held} held)",  # stacker
    # the free move
    "stay": "stays in reach",
    "close_in": "closes in to {zone}",
    "hold_position": "holds position",
    "fall_back": "falls back to a firing position",  # sniper
    # a defense
    "concede_first": "concedes before the dice: the hit would take it out",
    "defend": "defends",
    # invokes
    "enough": "already enough",
    "holds": "the defense holds",
    "cannot_pay": "cannot pay for enough invokes to change the outcome",
    "no_own": "no invoke of its own to pay for",
    # a +2 toward turning the result (one of several, when one is not enough), with what makes the
    # aspect bear on the roll (invokes.bears_on): the actor's own, the other party's, the situation's,
    # or, under a policy's invoke_any, an aspect in play
    "free_invoke_own": "free invoke on its own {aspect}: +2 toward turning the result",
    "free_invoke_foe": "free invoke on {aspect}, on the one it faces in this roll: +2 toward turning the result",
    "free_invoke_scene": "free invoke on {aspect}, the situation of this roll: +2 toward turning the result",
    "free_invoke_any": "free invoke on {aspect}, an aspect in play: +2 toward turning the result",
    "paid_invoke_own": "pays a fate point to invoke its own {aspect}: +2 toward turning the result",
    "paid_invoke_foe": "pays a fate point to invoke {aspect}, on the one it faces in this roll: "
                       "+2 toward turning the result",
    "paid_invoke_scene": "pays a fate point to invoke {aspect}, the situation of this roll: "
                         "+2 toward turning the result",
    "paid_invoke_any": "pays a fate point to invoke {aspect}, an aspect in play: +2 toward turning the result",
    "cash_invoke": "cashes a free invoke on {aspect}",  # tactician
    "stacked_invoke": "spends a stacked free invoke on {aspect}",  # stacker
    # a hit, a style, a cost
    "full_hit": "takes the full hit",
    "least_cost": "absorbs at the least cost",
    "nothing_left": "has nothing left to absorb the hit",
    "give_nothing": "gives the enemy nothing",
    "minor_cost": "gets there at a minor cost",
    "only_way": "the only way",  # a cost question basic has no rule for: the first option
    "offer_concession": "offers to concede rather than fight on with a {severity} consequence",  # FATE 2.0 (001:150)
    "accept_concession": "accepts {offerer}'s concession: one foe fewer, no fate point lost",  # FATE 2.0
    "act_now": "takes its held turn",  # FATE 2.0 (001:82-84): at the first chance
    "take_aspect": "takes the aspect and keeps its fate points",
    "spend_spin": "spends {holder}'s spin token: +1 to hold the defense",
    "minor_step": "steps into {zone} first: better odds there even at the minor action's cost",  # Fate 3.0 (002:28)
    "protect": "blocks for {ally}: the next likely hit would take them out",  # Fate 3.0 (002:44-46)
    "block_attacks": "blocks {target}'s attacks: an ally could not take its next hit",  # Fate 3.0 (002:47)  # Fate 3.0 (002:95): enough tokens to hold it  # Fate 3.0's maneuver (002:79): never pays to avoid it
    "major_cost": "gets there at a major cost while still unhurt",
    "too_hurt": "too hurt to pay a major cost",
    # contests and challenges (basic)
    "contest_roll": "{character} rolls {skill}, the side's best",
    "contest_help": "adds a teamwork bonus",
    "contest_no_rank": "has no rank in the skill to help with",
    "contest_all_in": "puts everything into the roll",
    "contest_keep": "keeps the roll; the other side gets a free invoke",  # a failed advantage, under Condensed
    "task_odds": "{character} takes on {task}: the best odds",
    "task_done": "gets it done, whatever it costs",  # a failed task taken at a major cost
    "work_on_task": "works on {task}",  # a conflict holding the scene's challenge
    "retreat": "calls the retreat now that the way is open",  # ... its challenge done: the scene's contest
    # who goes next (popcorn)
    "hand_over": "hands the turn to {character}",
    "let_weakest": "lets the least dangerous foe, {character}, go",
    "hand_to_holder": "hands the turn to {character}, who holds free invokes",  # tactician
    # no script
    "random": "at random",
    "agent": "",
}


#: the fields that hold a character's or a zone's id: the reason names them as the table does
#: ("attacks Zird with Fight", not "attacks zird")
NAMED = frozenset({"target", "character", "ally", "holder", "offerer", "zone"})


def reason(key: str, names: Mapping[str, str] | None = None, **fields: Any) -> str:
    """The reason ``key`` with its fields filled in, characters and zones by their names
    (``names``: id -> name, the scene's ``display_names``; required when a field names one)."""
    named = NAMED.intersection(fields)
    if named and names is None:
        raise TypeError(f"reason {key!r} names {', '.join(sorted(named))}: pass the scene's display_names")
    if named:
        fields = {f: names.get(v, v) if f in NAMED else v for f, v in fields.items()}
    return REASONS[key].format(**fields)
