"""The NPCs' controllers: scripted (basic and its tactics, random), searching and learned.

Importing the package registers every controller by name (``agents.registry``), so
``make_controller("basic")`` works whichever part of it was imported first.
"""

from . import basic, learned, random_policy, search, tactics  # noqa: F401  (each registers itself)
