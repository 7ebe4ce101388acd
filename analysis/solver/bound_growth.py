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
touches the new hex only there does not join (``View.tiles``, ``lost``). Where every tile's hexes are
known, a city next to a new hex joins only where those hexes cut the new hex off its palace
(R15, R23). With two tiles, a new hex no tile lies flat on now takes the other tile first, flat
one level below it: it ends one level up, and the other tile's village hex, if any, is a second
new hex on that lower level or lifts a group hex there one level.
"""

from __future__ import annotations

from collections.abc import Iterable

from analysis.solver.bound_view import Comps, View, component

Growth = tuple[int, Comps, list[int]]


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


def _big_enough(v: View, gi: int, grow: int, joined: list[int], least: int) -> bool:
    """Whether the group, ``grow`` hexes more and the groups ``joined``, has ``least`` hexes."""
    g = v.g
    return len(g.members[gi]) + grow + sum(len(g.members[o]) for o in joined) >= least


def _growths(v: View, gi: int, cities: bool, k: int, least: int) -> list[Growth]:
    """The options of ``one_tile_growths`` (``k`` = 1) and ``two_tile_growths`` (2), worked out
    once per view. One long function on purpose: its helpers read the group's lookups as
    closure variables, and it is the bound's hottest code (pond-17, profiled: 45 % of the
    solve)."""
    got = v.growths.get((gi, cities, k, least))
    if got is not None:
        return got
    if least and cities:
        # A city's parts cut off its palace ask again without ``least``
        # (``bound_palaces._part_options``): the options are worked out once, and those big
        # enough kept (in the same order: ``least`` only leaves options out).
        got = v.growths[gi, cities, k, least] = [
            o for o in _growths(v, gi, cities, k, 0) if _big_enough(v, gi, o[0], o[2], least)]
        return got
    s, g = v.s, v.g
    nbrs, level, label = s.map.nbrs, s.level, g.label
    me = s.players[v.me]
    NONE = frozenset[int]()

    def ready(h: int) -> int:
        """0: a tile lies flat on ``h`` now; 1: only after a tile raises a neighbour; 2: never
        in ``k`` tiles (R11, R12)."""
        f = v.flat(h)
        return 0 if f == level[h] else 1 if f == level[h] - 1 and k > 1 else 2

    covers: dict[tuple[object, ...], list[frozenset[int]]] = {}
    fits = v.tiles

    def lost(rest: Iterable[int], lv: int) -> frozenset[int]:
        """The group hexes among a tile's other hexes on level ``lv``: rice now (R10), so they
        leave their group, and a group touching the new hex only there does not join."""
        return frozenset(x for x in rest if label[x] >= 0 and level[x] == lv)

    def lower(h: int, near: Iterable[int] | None = None) -> frozenset[int]:
        """Free hexes next to ``h`` one level lower: the other tile may lift them first (only
        those in ``near``, where given)."""
        return frozenset(x for x in nbrs[h] if level[x] == level[h] - 1 and v.free(x)
                         and (near is None or x in near))

    def cut_off(o: int, cover: frozenset[int], new: dict[int, int]) -> bool:
        """Whether the covered hexes part city ``o``'s palace from every new hex (R23), so
        that what the new hexes join of it is a village again (R15)."""
        if cover.isdisjoint(g.members[o]):
            return False
        kept = component(g.palace[o], set(g.members[o]) - cover, nbrs)
        return not any(n in kept for h in new for n in nbrs[h])

    def touching(h: int, cover: frozenset[int] = NONE) -> set[int]:
        return {label[n] for n in nbrs[h] if label[n] >= 0 and n not in cover} - {gi}

    out: dict[tuple[object, ...], Growth] = {}
    emitted: set[tuple[object, ...]] = set()  # the same option met again (a third of them)

    def emit(new: dict[int, int], lifts: dict[tuple[int, int], tuple[int, ...]],
             cover: frozenset[int] = NONE, exact: bool = True) -> None:
        """Record the option with new hexes ``new`` (hex -> level it ends on), ``lifts``
        ((group, part) -> levels added to its highest raisable hexes, the most to the highest:
        for a rank key (R24) no other spread of the same raises is greater) and group hexes
        ``cover`` under rice hexes: they leave the group, and join nothing. ``exact``: every
        tile's hexes are known (else another tile may cover more)."""
        asked = (tuple(new.items()), tuple(lifts.items()), cover, exact)
        if asked in emitted:
            return
        emitted.add(asked)
        joined = sorted({o for h in new for o in touching(h, cover)})
        if not cities and any(g.palace[o] >= 0 for o in joined):
            return
        if exact and any(g.palace[o] >= 0 and not cut_off(o, cover, new) for o in joined):
            return  # R15: the new hexes would join a city (its palace's part) to another
        # hexes lost by the group and the villages it joins (a city's part is counted by
        # ``View.split``, where the covered hexes are the cut)
        grow = len(new) - sum(1 for x in cover if label[x] == gi or label[x] in joined and g.palace[label[x]] < 0)
        if not _big_enough(v, gi, grow, joined, least):
            return  # too small for any palace that scores
        nodes: list[tuple[list[int], int, set[int]]] = []
        for o in [gi, *joined]:
            for i, (levels, mine, hexes) in enumerate(v.parts(o) if o == gi else v.joinable_parts(o)):
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

    def shown(h: int, other: int = -1) -> list[frozenset[int]]:
        """What a village tile on ``h`` covers: flat now, or with two tiles after the other
        one (on ``other`` and next to it, where given; it does not cover ``other``) lifted
        some of its hexes (those are not counted); none where no village tile fits. Where a
        tile must first raise a neighbour (``ready``), not worked out: one option, no cover."""
        if ready(h):
            return [NONE]
        raised, avoid = NONE, NONE
        if k > 1:
            raised = lower(h, None if other < 0 else {other, *nbrs[other]})
            if other in nbrs[h]:  # a tile on h covers only h's neighbours
                avoid = frozenset((other,))
        key = (h, raised, avoid)
        got = covers.get(key)
        if got is None:
            got = covers[key] = list({lost(r, level[h]) for r in fits(h, level[h], me.villages, raised, avoid)})
        return got

    for h1 in first:
        r1 = ready(h1)
        if r1 > 1 or (k == 1 and r1):
            continue
        for c in shown(h1):
            # with two tiles, the other one may lie anywhere (and cut a city)
            emit({h1: level[h1] + 1}, {}, c, exact=k == 1)
        if k == 1:
            continue
        lv = level[h1]
        if r1 == 0:
            # Two tiles on the new hex: the first, flat now, any tile; the second shows its
            # village on it, flat one level up (on hexes the first lifted, or on that level
            # now). The first's village hex may be a group hex it covers, raised (a lift)
            # instead of lost; then the second does not cover it.
            for ra in fits(h1, lv, me.villages + me.rice):
                ca = lost(ra, lv)
                for rb in fits(h1, lv + 1, me.villages, frozenset(ra)):
                    cb = lost(rb, lv + 1)
                    emit({h1: lv + 2}, {}, ca | cb)
                    for y in ca - set(rb):
                        part = part_of(y)
                        emit({h1: lv + 2}, {part: (1,)} if part else {}, ca - {y} | cb)
            # The village tile on h1 first, flat now; its rice hex y under the other tile's
            # village hex, two levels up; that tile does not cover h1.
            for r in fits(h1, lv):
                c = lost(r, lv)
                for y in c:
                    part = part_of(y)
                    for rt in fits(y, lv + 1, me.villages, frozenset(r), frozenset((h1,))):
                        emit({h1: lv + 1}, {part: (2,)} if part else {}, c - {y} | lost(rt, lv + 1))
        joined1 = touching(h1)
        if r1 == 1:
            # No tile lies flat on h1 now (R12): the other tile comes first, flat one level
            # below h1 to raise a neighbour of it, and does not cover h1, so h1 ends one level
            # up; that tile's village hex (R10) may lift a group hex on its level one level
            # (the village tile on h1 shows rice on its other hexes: a hex under both is rice).
            for o in [gi, *joined1]:
                for i, (_, _, hexes) in enumerate(v.parts(o)):
                    if any(level[x] == lv - 1 and v.flat(x) == level[x] for x in hexes):
                        emit({h1: lv + 1}, {(o, i): (1,)}, exact=False)
        region = members | {h1} | {x for o in joined1 for x in g.members[o]}
        for h2 in {h for x in region for h in nbrs[x] if label[h] < 0 and h != h1}:
            r2 = ready(h2)
            if r2 > 1 or r1 + r2 > 1 or h2 < h1 and h2 in first:
                continue  # both need a tile first, or the pair was met from h2
            if r1 and level[h2] != lv - 1 or r2 and lv != level[h2] - 1:
                continue  # the one that lies flat only once a neighbour is raised needs the
                # other tile to raise it, flat one level below (R12)
            # each new hex its own village tile, which does not cover the other
            for c1 in shown(h1, h2):
                for c2 in shown(h2, h1):
                    emit({h1: lv + 1, h2: level[h2] + 1}, {}, c1 | c2, exact=not r1 + r2)
            if h2 in nbrs[h1] and lv == level[h2] and not r1 + r2:
                # One tile, flat (R12), shows its village on one and rice on the other, under
                # the other tile's village hex, flat one level up, which does not cover the
                # first village. That first tile is the first of the two, flat now on both
                # hexes: none where a tile must first raise a neighbour of either (``ready``).
                for up, low in ((h1, h2), (h2, h1)):
                    for r in fits(low, lv):
                        if up in r:
                            rest = tuple(x for x in r if x != up)
                            for r_up in fits(up, lv + 1, me.villages, frozenset(rest), frozenset((low,))):
                                emit({up: lv + 2, low: lv + 1}, {}, lost(rest, lv) | lost(r_up, lv + 1))
    got = v.growths[gi, cities, k, least] = list(out.values())
    return got


def _raisable(v: View, hexes: set[int], k: int) -> list[int]:
    """The levels of the hexes in ``hexes`` that a tile may raise (one may lie flat on it, with
    ``k`` = 2 after another tile; with one tile, not exactly on one tile of its size, R13),
    highest first."""
    s = v.s
    if k > 1:
        return sorted((s.level[h] for h in hexes if v.flat(h) >= s.level[h] - 1), reverse=True)
    p = s.players[v.me]
    return sorted((s.level[h] for h in hexes if v.flat(h) >= s.level[h]
                   and v.tiles(h, s.level[h], p.villages + p.rice)), reverse=True)
