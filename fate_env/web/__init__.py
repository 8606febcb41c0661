"""``fate-npc serve``: the live table in a browser, on the same ``Session`` as ``play``."""
