"""Training NPC tactics: MaskablePPO over the single-agent view, self-play and leagues, best
responses (``exploit``), imitation warm starts, and RLlib on Ray. Needs the ``train`` extra."""
