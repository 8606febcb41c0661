"""The zone map: which zones touch, how far apart they are, what a move costs.

Zones and borders follow 003:1313-1348 and 000:457-465: a free move crosses
one open border; moving farther, or across an impeded border, is an
Athletics overcome whose passive difficulty here is the number of extra
zones plus the difficulty of each impeded border on the cheapest path.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable

from .scene import Border, Scene


class PerZone(dict):
    """``zone -> value``, each value computed by ``make(zone)`` the first time it is read."""

    def __init__(self, make: Callable[[str], dict[str, int]]):
        super().__init__()
        self._make = make

    def __missing__(self, zone: str) -> dict[str, int]:
        value = self[zone] = self._make(zone)
        return value


def beaten(zone: str) -> tuple[str, str]:
    """How ``cleared`` names a zone whose own challenge is beaten (zone_challenge.py)."""
    return ("beaten", zone)


class ZoneMap:
    """The map as it stands: ``cleared`` names the borders whose block has been cleared (a block
    that stands sets its border's difficulty and stops shots as it says, ``Border.standing``) and
    the zones whose own challenge is beaten (:func:`beaten`); until then no move goes from such a
    zone into its deeper zones (``sealed``, one way: 003:2606-2609)."""

    def __init__(self, scene: Scene, cleared: frozenset = frozenset()):
        self.ids = [z.id for z in scene.zones]
        self.borders: dict[frozenset, Border] = {}
        for b in scene.borders:
            key = frozenset((b.a, b.b))
            self.borders[key] = b.cleared() if key in cleared else b.standing()
        self.sealed: frozenset = frozenset((z.id, d) for z in scene.zones if z.own_challenge is not None
                                           and beaten(z.id) not in cleared for d in z.own_challenge.deeper)
        self.neighbours: dict[str, list[str]] = {z: [] for z in self.ids}
        for b in scene.borders:
            self.neighbours[b.a].append(b.b)
            self.neighbours[b.b].append(b.a)
        # distances from a zone are worked out when first asked for: a scene of 10,000 zones
        # costs what its fight looks at, not 10,000 searches up front
        self.hops = PerZone(lambda z: self._bfs(z, ranged=False))
        self.sight = PerZone(lambda z: self._bfs(z, ranged=True))
        self._prev: dict[str, dict[str, str]] = {}
        self.cost = PerZone(self._dijkstra)

    def border(self, a: str, b: str) -> Border | None:
        return self.borders.get(frozenset((a, b)))

    def minor_moves(self, zone: str) -> list[str]:
        """Fate 3.0's one-zone move as a minor action (002:50-51): a border's value does not stop it, it
        adds to the penalty; a standing block and a sealed way still do. The one list the engine's free
        move (reach.free_moves) and the fast core's tables both read."""
        return [n for n in self.neighbours[zone] if self.borders[frozenset((zone, n))].block is None
                and (zone, n) not in self.sealed]

    def free_moves(self, zone: str) -> list[str]:
        """Adjacent zones across an open border (and not sealed by a zone's challenge)."""
        return [n for n in self.neighbours[zone] if not self.borders[frozenset((zone, n))].impeded
                and (zone, n) not in self.sealed]

    def move_difficulty(self, a: str, b: str) -> int:
        return self.cost[a][b]

    def path_borders(self, a: str, b: str) -> list[Border]:
        """The borders a cheapest move from ``a`` to ``b`` crosses (the one ``move_difficulty`` prices)."""
        self.cost[a]  # fills _prev[a]
        prev = self._prev[a]
        out, z = [], b
        while z != a and z in prev:
            out.append(self.borders[frozenset((prev[z], z))])
            z = prev[z]
        return out[::-1]

    def reachable(self, a: str) -> list[str]:
        return [z for z in self.ids if z != a and z in self.cost[a]]

    def in_range(self, a: str, b: str, reach: int) -> bool:
        """Can a shot from ``a`` reach ``b`` within ``reach`` zones, through borders that let it pass?"""
        d = self.sight[a].get(b)
        return d is not None and d <= reach

    def _bfs(self, start: str, ranged: bool) -> dict[str, int]:
        dist = {start: 0}
        frontier = [start]
        while frontier:
            nxt = []
            for z in frontier:
                for n in self.neighbours[z]:
                    if ranged and self.borders[frozenset((z, n))].blocks_ranged:
                        continue
                    if n not in dist:
                        dist[n] = dist[z] + 1
                        nxt.append(n)
            frontier = nxt
        return dist

    def _dijkstra(self, start: str) -> dict[str, int]:
        """Move difficulties from ``start``; the cheapest paths' last steps kept in ``_prev``."""
        best = {start: 0}
        prev: dict[str, str] = {}
        self._prev[start] = prev
        heap = [(0, start)]
        while heap:
            d, z = heapq.heappop(heap)
            if d > best.get(z, 1 << 30):
                continue
            for n in self.neighbours[z]:
                if (z, n) in self.sealed:
                    continue
                nd = d + 1 + self.borders[frozenset((z, n))].difficulty
                if nd < best.get(n, 1 << 30):
                    best[n], prev[n] = nd, z
                    heapq.heappush(heap, (nd, n))
        return {z: max(0, d - 1) for z, d in best.items()}
