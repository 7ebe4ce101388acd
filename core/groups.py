"""Village groups and cities (R20–R23) and ponds (R37, R38), from the flat board lists.

These are the simple from-scratch computations; ``GameState.groups()`` caches them per board
version. ``tests`` and ``benchmarks`` compare them with networkx.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from core.actions import VILLAGE


class Groups:
    """Village groups of a board: ``label[h]`` = group index or -1; ``members[g]`` = hexes."""

    __slots__ = ("_near_two", "label", "members", "palace")

    def __init__(self, label: list[int], members: list[list[int]], palace: list[int]) -> None:
        self.label = label
        self.members = members
        self.palace = palace  # palace hex of each group, -1 for a village (R22)
        self._near_two: set[int] | None = None

    def near_two_cities(self, nbrs: Sequence[Sequence[int]]) -> set[int]:
        """Hexes next to two different cities: only a village cell there can join two cities
        (R15). Worked out once per board (the groups are per board), not per placement search."""
        if self._near_two is None:
            near: dict[int, int] = {}
            risky: set[int] = set()
            cities = [gi for gi, ph in enumerate(self.palace) if ph >= 0]
            if len(cities) >= 2:
                for gi in cities:
                    for h in self.members[gi]:
                        for n in nbrs[h]:
                            if near.setdefault(n, gi) != gi:
                                risky.add(n)
            self._near_two = risky
        return self._near_two

    def group_of(self, h: int) -> int:
        return self.label[h]

    def cities(self) -> list[int]:
        return [g for g, p in enumerate(self.palace) if p >= 0]


def _flood(
    start: int,
    gi: int,
    label: list[int],
    terrain: Sequence[int],
    nbrs: Sequence[Sequence[int]],
    palace: Sequence[int],
) -> tuple[list[int], int]:
    """Label the village group of ``start`` as ``gi`` (R20); its hexes and palace hex (or -1)."""
    label[start] = gi
    stack = [start]
    group = []
    ph = -1
    while stack:
        h = stack.pop()
        group.append(h)
        if palace[h]:
            ph = h
        for n in nbrs[h]:
            if terrain[n] == VILLAGE and label[n] < 0:
                label[n] = gi
                stack.append(n)
    return group, ph


def village_groups(
    hexes: Iterable[int],
    terrain: Sequence[int],
    nbrs: Sequence[Sequence[int]],
    palace: Sequence[int],
    size: int,
) -> Groups:
    """Maximal edge-connected sets of village hexes (R20); palaces mark cities (R22)."""
    label = [-1] * size
    members: list[list[int]] = []
    pal: list[int] = []
    for start in hexes:
        if terrain[start] != VILLAGE or label[start] >= 0:
            continue
        group, ph = _flood(start, len(members), label, terrain, nbrs, palace)
        members.append(group)
        pal.append(ph)
    return Groups(label, members, pal)


def update_groups(
    g: Groups,
    changed: Iterable[int],
    terrain: Sequence[int],
    nbrs: Sequence[Sequence[int]],
    palace: Sequence[int],
) -> Groups:
    """The village groups after the terrain of ``changed`` hexes changed (a tile, R20–R23).

    Incremental: only the old groups touching a changed hex are walked again; every other group
    keeps its index and member list. ``g`` is left untouched (it may still be cached for the
    previous board). Group numbering can differ from ``village_groups``; the partition and the
    palace of each group are the same.
    """
    old_label = g.label
    label = list(old_label)
    members = list(g.members)
    pal = list(g.palace)
    changed = list(changed)
    hit: set[int] = set()
    for h in changed:
        gi = old_label[h]
        if gi >= 0:
            hit.add(gi)
        if terrain[h] == VILLAGE:
            for n in nbrs[h]:
                gi = old_label[n]
                if gi >= 0:
                    hit.add(gi)
    seeds = list(changed)
    for gi in hit:
        grp = members[gi]
        seeds.extend(grp)
        for h in grp:
            label[h] = -1
    for h in changed:
        label[h] = -1
    free = sorted(hit, reverse=True)
    for start in seeds:
        if terrain[start] != VILLAGE or label[start] >= 0:
            continue
        gi = free.pop() if free else len(members)
        if gi == len(members):
            members.append([])
            pal.append(-1)
        members[gi], pal[gi] = _flood(start, gi, label, terrain, nbrs, palace)
    # Fewer groups than before: fill each hole with the last group, so indices stay 0..k-1.
    holes = set(free)
    while holes:
        last = len(members) - 1
        if last in holes:
            holes.discard(last)
        else:
            hole = min(holes)
            holes.discard(hole)
            members[hole] = members[last]
            pal[hole] = pal[last]
            for h in members[hole]:
                label[h] = hole
        members.pop()
        pal.pop()
    return Groups(label, members, pal)


def with_palace(g: Groups, h: int) -> Groups:
    """The groups after a palace was built on ``h`` (R22): same partition, one more city."""
    pal = list(g.palace)
    pal[g.label[h]] = h
    return Groups(g.label, g.members, pal)


def pond_at(start: int, irrigated: Sequence[bool], nbrs: Sequence[Sequence[int]]) -> list[int]:
    """The pond (maximal edge-connected irrigation spaces, R37) containing ``start``."""
    seen = {start}
    stack = [start]
    while stack:
        h = stack.pop()
        for n in nbrs[h]:
            if irrigated[n] and n not in seen:
                seen.add(n)
                stack.append(n)
    return sorted(seen)


def pond_ring(pond: Sequence[int], nbrs: Sequence[Sequence[int]]) -> list[int]:
    """Hexes next to a pond that are not in it (R38)."""
    inside = set(pond)
    return sorted({n for h in pond for n in nbrs[h] if n not in inside})


def all_ponds(hexes: Iterable[int], irrigated: Sequence[bool], nbrs: Sequence[Sequence[int]]) -> list[list[int]]:
    seen: set[int] = set()
    ponds = []
    for h in hexes:
        if irrigated[h] and h not in seen:
            p = pond_at(h, irrigated, nbrs)
            seen.update(p)
            ponds.append(p)
    return ponds
