"""The flows by the kind of scene they run, filled in by the package (``flows/__init__.py``).

A flow may hand the scene to another (a conflict turned into its contest, a contest whose win opens
the conflict with the big bad): it looks the other up here at that moment, so no flow module imports
another and none imports the package that imports it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

FLOWS: dict[str, Callable[[Any], Any]] = {}
