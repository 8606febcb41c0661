"""A rule set's facts, worked out once: what the rules ask of the dials, in one place.

A dial is a value in a rule-set file (``concession: offered``); a fact is what a rule needs to know
(whether a concession is made between decisions, what it pays). Every rule of the Python engine, the
fast core's tables, the environment and the live table read the facts here, never a dial's value:
so a dial's meaning is written once, and two copies of a rule cannot disagree about it (the trap
this module closes: a concession's payout was worked out in two places, and a changed payout
reached the fate points but not the event that told the table). ``tests/test_layering.py`` refuses
a comparison of a dial's value anywhere else.

``RuleSet.facts`` holds a rule set's facts (built on first use, kept with the rule set).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .ruleset import RuleSet


@dataclass(frozen=True)
class Facts:
    """What the rules read off one rule set's dials (each with the lines that set it)."""

    # -- turn order ------------------------------------------------------------------------------
    #: the actor picks who goes next (003:1408-1413)
    popcorn: bool
    #: fixed by Alertness (Empathy socially), ties by Resolve, then PCs (Fate 3.0's order, 002:22-24)
    initiative: bool
    #: Fate Core's order by skills, the GM's NPCs all at the best NPC's place (an option, 000:252)
    npcs_at_best_slot: bool
    # -- concessions -----------------------------------------------------------------------------
    #: any character may concede before the dice hit the table (003:1693-1712; 000:408)
    concede_anytime: bool
    #: a concession is offered while taking a consequence, to the one who hit (001:150-152)
    concession_offered: bool
    # -- consequences and stress -----------------------------------------------------------------
    #: consequences taken in order, each a penalty to its holder's rolls (001:117-123)
    ordered: bool
    #: conditions in place of consequences (003:2062-2087), and whether each row is kept apart (003:2092-2101)
    conditions: bool
    conditions_apart: bool
    #: an extreme consequence open to major NPCs too ("a character", 003:2204-2217), not PCs only (000:400)
    extreme_for_npcs: bool
    # -- weapons and armor -----------------------------------------------------------------------
    #: ratings as roll modifiers (FATE 2.0, 001:86-101), or on a hit's shifts (003:2675-2693)
    weapon_rolls: bool
    weapon_shifts: bool
    # -- defense ---------------------------------------------------------------------------------
    #: full defense for the exchange, declarable when first attacked (001:78-80, 002:40-41)
    exchange_defense: bool
    #: Condensed's full defense: a boost when nothing came at it (003:2245-2248), and its +2 on the
    #: defenses of its focus only (003:2240-2244); Core's and the older editions' +2 is on every defend
    #: action of the exchange (000:274, 001:78-80, 002:40-41), one made for an ally included (000:270)
    full_defense_boost: bool
    full_defense_for_its_focus: bool
    #: a defense won by three or more gives a spin token, not a boost (002:94-95)
    spin: bool
    # -- overcoming, advantages, moves -----------------------------------------------------------
    #: a tie on an overcome: success at a minor cost, or fail with a boost (003:791-793); else a minor cost (000:465)
    tie_choice: bool
    #: a failed move or clear may succeed at a major cost (003:786-789, 003:3291-3294), and whether the cost is a consequence
    major_cost: bool
    major_cost_consequence: bool
    #: taking advantage of an aspect no foe holds is opposed by a foe in its zone, not a difficulty (003:834-838)
    exploit_against_foe: bool
    #: Fate 3.0's maneuver: an advantage needs a shift; no boost on a tie, no cost on a failure (002:79)
    maneuvers: bool
    #: the one-zone move as a minor action, a penalty on the turn's main action (002:28, 002:50-51)
    minor_moves: bool
    #: a sprint: Athletics against Mediocre, a zone per shift, borders subtract (002:50-51)
    sprint_by_shifts: bool
    #: teamwork's bonus at most the leader's skill (003:1454-1455); Core has no cap (000:560)
    teamwork_capped: bool
    # -- scale -----------------------------------------------------------------------------------
    #: scale's +1 per level before the roll, or taken after the roll on a success (003:2430-2439)
    scale_on_effort: bool
    scale_after_roll: bool

    def consequence_penalty(self, severity: str) -> int:
        """What a consequence of ``severity`` takes off its holder's rolls under the ordered rule
        (001:119): -1, -2, -3; nothing under the shifts rule (a consequence is invoked instead)."""
        if not self.ordered:
            return 0
        return {"mild": 1, "moderate": 2, "severe": 3}.get(severity, 3)

    def teamwork_bonus(self, leader_skill: int, helpers: int) -> int:
        """+1 per helper with at least Average, capped at the leader's skill under Condensed
        (003:1450-1455); uncapped under Core (000:560)."""
        if self.teamwork_capped:
            return max(0, min(helpers, leader_skill))
        return helpers

    def concession_payout(self, consequences_taken: int) -> int:
        """Fate points a character who concedes gets: one, and one per consequence taken in this
        conflict (003:1693-1712; 000:408); none where a concession is offered (001:150-152)."""
        return 1 + consequences_taken if self.concede_anytime else 0


def facts_of(rules: "RuleSet") -> Facts:
    """The facts of ``rules`` (``RuleSet.facts`` keeps them; call that)."""
    return Facts(
        popcorn=rules.turn_order == "popcorn",
        initiative=rules.turn_order == "initiative",
        npcs_at_best_slot=rules.npcs_at_best_slot and rules.turn_order == "skills",
        concede_anytime=rules.concession == "anytime",
        concession_offered=rules.concession == "offered",
        ordered=rules.consequence_rule == "ordered",
        conditions=rules.conditions != "off",
        conditions_apart=rules.conditions == "apart",
        extreme_for_npcs=rules.extreme_for == "characters",
        weapon_rolls=rules.weapons and rules.weapon_effect == "roll",
        weapon_shifts=rules.weapons and rules.weapon_effect == "shifts",
        exchange_defense=rules.full_defense == "exchange",
        full_defense_boost=rules.full_defense == "condensed",
        full_defense_for_its_focus=rules.full_defense == "condensed",
        spin=rules.defense_overflow == "spin",
        tie_choice=rules.overcome_tie == "choice",
        major_cost=rules.major_cost != "off",
        major_cost_consequence=rules.major_cost == "consequence",
        exploit_against_foe=rules.exploit_opposition == "foe_in_zone",
        maneuvers=rules.advantage_rule == "maneuver",
        minor_moves=rules.move_cost == "minor",
        sprint_by_shifts=rules.sprint == "shifts",
        teamwork_capped=rules.teamwork_cap == "leader_skill",
        scale_on_effort=rules.scale_benefit == "effort",
        scale_after_roll=rules.scale_benefit == "after_roll",
    )
