"""What the rules see of a scene in play: :class:`Play`, narrower than the whole engine.

Every rule is a function of ``e``, the scene in play. ``e`` is the :class:`~fate_env.rules.engine.Engine`,
but a rule may read and call only what this protocol declares: the table (``t``, everything that
changes), the dice, the event log's ``emit``, the flow's ``checkpoint``, and the scene's fixed facts,
worked out once when the scene starts (and again when the GM adds a character) and shared by every
copy. ``tests/test_layering.py`` checks that the rules use nothing else of ``e`` and that no module of
the rules imports the engine, so the engine sits on top of the rules and none of them below it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from .dice import Dice
    from .events import Event
    from .facts import Facts
    from .ruleset import RuleSet
    from .scene import Scene
    from .table import Table
    from .zones import ZoneMap


class Play(Protocol):
    """A scene in play as the rules see it (module docstring)."""

    # -- what changes, and how it is written down
    t: "Table"
    dice: "Dice"

    def emit(self, event: "Event") -> None:
        """Append ``event`` to the scene's log."""

    def checkpoint(self) -> None:
        """A flow is where it can resume from the table alone (copies start here)."""

    # -- the scene's fixed facts (Engine._static; shared by copies)
    scene: "Scene"
    rules: "RuleSet"
    kind: str                      # the track the scene is fought on
    tracks_in_play: tuple[str, ...]
    map: "ZoneMap"                 # the zone map with the blocks cleared so far

    def map_for(self, cleared: frozenset) -> "ZoneMap":
        """The zone map with the blocks on the ``cleared`` borders gone."""

    scene_has_blocks: bool
    zone_challenges: bool          # some zone has its own challenge (003:2606-2609)
    facts: "Facts"                 # what the rules read off the rule set's dials (fate_env.rules.facts)
    contest_immune: str | None     # the big bad with contest immunity (003:2527-2532)
    autostep_single: bool          # a decision with one option answers itself
    interned: dict[tuple, Any]     # option objects reused across turns (they are values)

    # -- facts read off the characters (again when the GM adds one: ``facts_from_characters``)
    order: list[str]
    bonus_stunts: dict[str, list]
    scaled: bool
    solo: bool
    immunity: bool
    hive: bool
    fixed_order: list[str] | None  # the fixed turn order, once worked out
    actions: tuple                 # the turn actions this scene can offer

    def facts_from_characters(self) -> None:
        """Work out the facts read off the characters again (the GM added one)."""
