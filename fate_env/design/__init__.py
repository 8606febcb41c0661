"""`fate-npc design`: a side's NPCs built for a target win rate inside Fate's guidelines (docs/design.md)."""
