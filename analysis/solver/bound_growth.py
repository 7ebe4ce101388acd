"""What one or two land tiles may do for a village group, hex by hex, for the palace side of
the admissible bound (``bound_palaces.py``).

Each option is ``(new village hexes, free parts, groups joined)``. A tile shows one village
hex at most (R10): it either lands on a hex outside every group (a *new* hex, which joins the
groups next to it) or raises a hex one level. A tile lies flat (R12) and covers no developer of
another player, no palace, no irrigation (R11): ``View.flat`` says where one may lie now, and
where one may lie only after another tile has raised a neighbour. The free parts (``Comps``)
are what his rank key is made of (``bound_palaces._key``): the levels of the hexes his
developers may reach for free (R27), linked by the new hexes they touch.

Enumerating the hexes themselves is what keeps the bound tight on a crowded board: a group
joins only the groups its new hexes touch, never more. A tile showing its village on a new hex
covers its other hexes with rice (R10), flat on the same level (R12): where every tile that
fits there covers a hex of a group next to it, that hex leaves its group, and a group that
touches the new hex only there does not join (``covers``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from analysis.solver.bound_palaces import Comps
    from analysis.solver.bound_view import View

Growth = tuple[int, "Comps", list[int]]


def one_tile_growths(v: View, gi: int, cities: bool, least: int = 0) -> list[Growth]:
    """What one land tile may do for group ``gi``: raise a free hex of the group by one where a
    tile lies flat on it now, or land on a hex next to it where one lies flat now, joining the
    groups next to that hex (without ``cities``, a hex next to a city is left out: that village
    then counts in the city's options). Options that leave the group fewer than ``least``
    hexes, counting every hex of the groups it joins, are left out."""
    return _growths(v, gi, cities, 1, least)


def two_tile_growths(v: View, gi: int, cities: bool, least: int = 0) -> list[Growth]:
    """What two land tiles may do for group ``gi``: two new hexes (each next to the group, to a
    group the other joins, or to the other), one new hex raised again, one new hex and a raised
    free hex, or raises only. The first tile may make the second's hexes flat, so one of the
    two may need it. A tile's rice hex may lie under the village hex of the other: a new hex
    next to the other new hex on its level, or a raised hex, may end two levels up (raises
    only: one hex two levels, another one). ``least`` as above."""
    return _growths(v, gi, cities, 2, least)


def _growths(v: View, gi: int, cities: bool, k: int, least: int) -> list[Growth]:
    got = v.growths.get((gi, cities, k, least))
    if got is not None:
        return got
    from analysis.solver.bound_ponds import _shapes

    s, g = v.s, v.g
    nbrs, level, label = s.map.nbrs, s.level, g.label
    tris, pairs = _shapes(s)
    me = s.players[v.me]
    NONE = frozenset[int]()

    def ready(h: int) -> int:
        """0: a tile lies flat on ``h`` now; 1: only after a tile raises a neighbour; 2: never
        in ``k`` tiles (R11, R12)."""
        f = v.flat(h)
        return 0 if f == level[h] else 1 if f == level[h] - 1 and k > 1 else 2

    def covers(h: int, must: tuple[int, ...] = (), single: int = 0, lenient: bool = False
               ) -> list[frozenset[int]]:
        """The sets of group hexes a tile through ``h`` (and every hex of ``must``) covers
        besides those: its other hexes lie flat on ``h``'s level (R12; with ``lenient``, one
        level lower too, where the other tile may raise them first; those are not counted)
        and are free (R11). Such a hex leaves its group (a rice hex, R10), and a group that
        touches ``h`` only there does not join. ``single``: one-space tiles of his that may
        lie there (central hexes, R14) and cover nothing else. Empty: no tile fits."""
        lv = level[h]
        found: set[frozenset[int]] = {NONE} if single > 0 and not must and s.map.is_central(h) else set()
        shapes: list[tuple[int, ...]] = []
        if me.doubles > 0:
            shapes += [(h, x) for x in pairs[h]]
        if s.triples > 0:
            shapes += tris[h]
        for shape in shapes:
            rest = [x for x in shape if x != h and x not in must]
            if len(rest) + len(must) + 1 != len(shape) or not all(
                    v.free(x) and (level[x] == lv or lenient and level[x] == lv - 1) for x in rest):
                continue
            found.add(frozenset(x for x in rest if label[x] >= 0 and level[x] == lv))
        return list(found)

    def touching(h: int, cover: frozenset[int] = NONE) -> set[int]:
        return {label[n] for n in nbrs[h] if label[n] >= 0 and n not in cover} - {gi}

    out: dict[tuple[object, ...], Growth] = {}

    def emit(new: dict[int, int], lifts: dict[tuple[int, int], tuple[int, ...]],
             cover: frozenset[int] = NONE) -> None:
        """Record the option with new hexes ``new`` (hex -> level it ends on), ``lifts``
        ((group, part) -> levels added to its highest raisable hexes, the most to the highest:
        for a rank key (R24) no other spread of the same raises is greater) and group hexes
        ``cover`` under rice hexes: they leave the group, and join nothing."""
        joined = sorted({o for h in new for o in touching(h, cover)})
        if not cities and any(g.palace[o] >= 0 for o in joined):
            return
        # hexes lost by the group and the villages it joins (a city's part is counted by
        # ``View.split``, where the covered hexes are the cut)
        grow = len(new) - sum(1 for x in cover if label[x] == gi or label[x] in joined and g.palace[label[x]] < 0)
        if len(members) + grow + sum(len(g.members[o]) for o in joined) < least:
            return  # too small for any palace that scores
        nodes: list[tuple[list[int], int, set[int]]] = []
        for o in [gi, *joined]:
            for i, (levels, mine, hexes) in enumerate(v.parts(o)):
                ups = lifts.get((o, i), ())
                if ups:
                    tops = _raisable(v, hexes, k)[:len(ups)]
                    levels = list(levels)
                    for top in tops:
                        levels.remove(top)
                    levels = sorted([*levels, *(top + up for top, up in zip(tops, ups))], reverse=True)
                nodes.append((levels, mine, hexes))
        # union the parts and new hexes that touch
        parent = list(range(len(nodes) + len(new)))

        def find(x: int) -> int:
            while parent[x] != x:
                parent[x] = parent[parent[x]]
                x = parent[x]
            return x

        hexes_new = list(new)
        for j, h in enumerate(hexes_new):
            near = set(nbrs[h]) - cover
            for i, (_, _, hexes) in enumerate(nodes):
                if near & hexes:
                    parent[find(i)] = find(len(nodes) + j)
            for j2 in range(j):
                if hexes_new[j2] in near:
                    parent[find(len(nodes) + j2)] = find(len(nodes) + j)
        comps: dict[int, tuple[list[int], int]] = {}
        for i, (levels, mine, _) in enumerate(nodes):
            lv, c = comps.setdefault(find(i), ([], 0))
            comps[find(i)] = (lv + levels, c + mine)
        for j, h in enumerate(hexes_new):
            lv, c = comps.setdefault(find(len(nodes) + j), ([], 0))
            comps[find(len(nodes) + j)] = ([*lv, new[h]], c)
        final: Comps = [(sorted(lv, reverse=True), c) for lv, c in comps.values()]
        key = (grow, tuple(sorted((tuple(lv), c) for lv, c in final)), tuple(joined))
        out.setdefault(key, (grow, final, joined))

    def part_of(x: int) -> tuple[int, int] | None:
        for i, (_, _, hexes) in enumerate(v.parts(label[x])):
            if x in hexes:
                return label[x], i
        return None

    members = set(g.members[gi])
    # Raises only. With two tiles, one's rice hex may lie under the other's village hex: one
    # hex two levels up and another one.
    own_parts = [(gi, i) for i, (_, _, hexes) in enumerate(v.parts(gi)) if _raisable(v, hexes, k)]
    emit({}, {})
    for p in own_parts:
        emit({}, {p: (1,)})
        if k == 2:
            emit({}, {p: (2, 1)})
    if k == 2:
        for a in own_parts:
            for b in own_parts:
                if a != b:
                    emit({}, {a: (2,), b: (1,)})
    first = {h for m in members for h in nbrs[m] if label[h] < 0}
    # a village tile through the hex, flat now (or, with two tiles, after the other one)
    shown = {h: covers(h, single=me.villages, lenient=k > 1) if ready(h) == 0 else [NONE]
             for h in first}
    for h1 in first:
        r1 = ready(h1)
        if r1 > 1 or (k == 1 and r1):
            continue
        for c in shown[h1]:
            emit({h1: level[h1] + 1}, {}, c)
        if k == 1:
            continue
        if r1 == 0:
            # a second tile on the new hex: the first, flat now, is any tile; its village
            # hex may be a hex of a group it covers, raised (a lift) instead of lost
            for c in covers(h1, single=me.villages + me.rice):
                emit({h1: level[h1] + 2}, {}, c)
                for y in c:
                    part = part_of(y)
                    emit({h1: level[h1] + 2}, {part: (1,)} if part else {}, c - {y})
            # the village tile on h1 first, flat now: its rice hex under the other tile's
            # village hex, two levels up
            for c in covers(h1):
                for y in c:
                    part = part_of(y)
                    emit({h1: level[h1] + 1}, {part: (2,)} if part else {}, c - {y})
        joined1 = touching(h1)
        if r1 == 1:
            for o in [gi, *joined1]:
                for i, (_, _, hexes) in enumerate(v.parts(o)):
                    if _raisable(v, hexes, k):
                        # one tile's rice hex may lie under the other's village hex
                        emit({h1: level[h1] + 1}, {(o, i): (2,)})
                        emit({h1: level[h1] + 2}, {(o, i): (1,)})
        region = members | {h1} | {x for o in joined1 for x in g.members[o]}
        for h2 in {h for x in region for h in nbrs[x] if label[h] < 0 and h != h1}:
            r2 = ready(h2)
            if r2 > 1 or r1 + r2 > 1 or h2 < h1 and h2 in first:
                continue  # both need a tile first, or the pair was met from h2
            for c1 in shown[h1]:
                for c2 in shown[h2] if h2 in shown else (
                        covers(h2, single=me.villages, lenient=True) if r2 == 0 else [NONE]):
                    emit({h1: level[h1] + 1, h2: level[h2] + 1}, {}, c1 | c2)
            if h2 in nbrs[h1] and level[h1] == level[h2]:
                # one tile, flat (R12), may show its village on one and rice on the other,
                # under the other tile's village hex
                for up, low in ((h1, h2), (h2, h1)):
                    for c in covers(low, (up,)) if r1 + r2 == 0 else [NONE]:
                        emit({up: level[up] + 2, low: level[low] + 1}, {}, c)
    got = v.growths[gi, cities, k, least] = list(out.values())
    return got


def _raisable(v: View, hexes: set[int], k: int) -> list[int]:
    """The levels of the hexes in ``hexes`` that a tile may raise (one may lie flat on it, with
    ``k`` = 2 after another tile), highest first."""
    s = v.s
    return sorted((s.level[h] for h in hexes if v.flat(h) >= s.level[h] - (k > 1)), reverse=True)
