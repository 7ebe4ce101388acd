"""The pond side of the solver's admissible bound (``bound.py``): enclosing ponds (R37, R38).

Each pond (grown by irrigating bare neighbours, or made new by irrigation) is an *item* with
options ``(tiles, irrigations, overhang AP, ring class, lifts, points)``: its bare ring must be covered
by flat tiles (R12; rim hexes cost 1 AP more, R14), and the mover must hold the highest position
on the ring (R24, R25), reached for free, across the covering tiles, with one tile more, or
with two more or a paid move onto a hex lifted as high as the best opponent's highest
developer there (``ring_class``). Items whose bare rings
lie within one hex of each other form a cluster whose tiles may serve several rings: it needs at
least the cover of the union of the rings it encloses as they are, and at least the tiles of
each grown or new pond alone. Every count here is a lower bound on what a real line spends,
every point total an upper bound on what it earns.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Sequence

from analysis.solver.bound_rings import Parts, Reach, bridged_reach, holder_routes, ring_class
from analysis.solver.bound_view import Raw, pareto
from core.groups import all_ponds
from core.hexmap import MAPS_KEPT, HexMap
from core.state import GameState

Cover = tuple[int, int] | None
Shapes = dict[int, list[tuple[frozenset[int], int, int]]]
# Per map (a few, ``MAPS_KEPT``: keyed on the map object, as every cache of what a map implies):
# the covers worked out, and the hexes each set of bare hexes and their neighbours make up.
_COVERS: dict[object, tuple[dict[tuple[object, ...], Cover], dict[frozenset[int], tuple[int, ...]]]] = {}
COVERS_CAP = 20_000  # covers remembered per map (~200 bytes each); past it the table starts again


def _cover(s: GameState, bare: set[int], budget: int = 7, avoid: frozenset[int] = frozenset()
           ) -> Cover:
    """``_cover_now``, remembered on everything it reads: the map, ``bare``, ``budget``,
    ``avoid``, the supplies (counted up to as many as it could ever use) and which hexes of
    ``bare`` and next to it are level 0 without irrigation (every flat shape through a bare
    hex lies there, R12). A branch and bound on a busy board asks the same rings again at
    node after node whose tile lay elsewhere (planner-37@112, the last 2 AP of a line: 42
    covers per bound, 94 % of them met before; they took 63 % of the search's time)."""
    if not bare:
        return 0, 0
    m, level, irr = s.map, s.level, s.irrigated
    tables = _COVERS.get(m)
    if tables is None:
        if len(_COVERS) >= MAPS_KEPT:
            _COVERS.clear()
        tables = _COVERS[m] = ({}, {})
    covers, nears = tables
    frozen = frozenset(bare)
    near = nears.get(frozen)
    if near is None:
        if len(nears) >= COVERS_CAP:
            nears.clear()
        near = nears[frozen] = tuple(sorted(frozen.union(*(m.nbrs[h] for h in frozen))))
    flat = 0
    for x in near:
        flat = flat << 1 | (level[x] == 0 and not irr[x])
    me = s.players[s.to_move]
    most = max(budget, len(bare)) + 1  # more of a kind than this can never all be used
    key = (frozen, budget, avoid, flat, min(me.villages + me.rice, most), min(me.doubles, most),
           min(s.triples, most))
    if key in covers:
        return covers[key]
    if len(covers) >= COVERS_CAP:
        covers.clear()
    got = covers[key] = _cover_now(s, bare, budget, avoid)
    return got


def _cover_now(s: GameState, bare: set[int], budget: int = 7, avoid: frozenset[int] = frozenset()
               ) -> Cover:
    """(fewest land tiles that can cover these bare hexes, extra AP for the rim hexes among
    them and next to them, ``_overhang``), None when they cannot all be covered. A tile lies
    flat (R12) on level-0 hexes; if ``c(h)`` is the most of ``bare`` one tile through ``h`` can
    cover, each tile covers at most 1 in the sum of ``1/c(h)``, so that sum is a lower bound. A
    hex no flat pair or triangle of his supplies covers needs a one-space tile of his own
    (R10), one each. Where that sum is below the number of hexes, a search (``_fewest_tiles``)
    finds the fewest tiles, up to ``budget`` AP with the overhang's. No tile covers a hex of
    ``avoid``: the bare hexes the line irrigates to grow the pond (R37: a tile there first
    would leave it land, never irrigated; R11: none on it after)."""
    if not bare:
        return 0, 0
    me = s.players[s.to_move]
    shapes = _flat_shapes(s, bare)  # a bare hex is level 0 without irrigation: flat (R12)
    if avoid:
        shapes = {h: [o for o in here if avoid.isdisjoint(o[0])] for h, here in shapes.items()}
    sixths = 0
    only_single = 0
    for h in bare:
        c = 1
        multi = False
        for shape, kind, _ in shapes[h]:
            if kind:  # a pair or a triangle (a three-space tile covers two only through one)
                multi = True
                if c < 3:
                    c = max(c, len(shape & bare))
        only_single += not multi
        sixths += 6 // c
    if only_single > me.villages + me.rice:
        return None
    rim = _overhang(s, bare, shapes)
    least = -(-sixths // 6)
    if least + rim <= budget and len(bare) <= EXACT_BARE:
        try:  # exact (at least the search below finds), where its nodes suffice
            exact = _disjoint_cover(s, bare, budget, shapes)
        except OverflowError:
            pass
        else:
            return None if exact is None else (max(least, exact[0]), max(rim, exact[1]))
    if least < len(bare) and least + rim <= budget:
        least = _fewest_tiles(s, bare, least, budget - rim, shapes)
    return least, rim


EXACT_BARE = 9  # bare hexes ``_disjoint_cover`` tries to cover exactly, at most
COVER_NODES = 2000  # its search nodes; past them the estimates above stand


def _disjoint_cover(s: GameState, bare: set[int], budget: int, shapes: Shapes
                    ) -> tuple[int, int] | None:
    """(fewest tiles, fewest overhang AP) of any cover of ``bare`` within ``budget`` AP, each
    the least over every cover (not of one cover); None where none fits; OverflowError where
    the search runs past ``COVER_NODES``. Every bare hex is first covered by a tile lying flat on
    level 0 (R12), and a tile laid before it raised its own hexes, so those first tiles are
    disjoint flat shapes of level-0 hexes without irrigation now (``shapes``: none on a hex
    the line irrigates, R11, R37), of his supplies (R10), each rim hex of them 1 AP more
    (R14). The hexes are bits of one integer (the bare ones first), so a node tests and takes
    a shape with one ``&``; a branch stops once the tiles its bare hexes still need (a third
    of them, at least) no longer fit or beat the best."""
    me = s.players[s.to_move]
    supply = [me.villages + me.rice, me.doubles, s.triples]
    bit = {h: 1 << i for i, h in enumerate(bare)}

    def mask(shape: frozenset[int]) -> int:
        m = 0
        for x in shape:
            b = bit.get(x)
            if b is None:
                b = bit[x] = 1 << len(bit)
            m |= b
        return m

    by_hex = [(bit[h], [(mask(shape), kind, rim) for shape, kind, rim in shapes[h]]) for h in bare]
    best = [99, 99]
    nodes = 0

    def dfs(left: int, used: int, tiles: int, rim: int) -> None:
        nonlocal nodes
        if not left:
            if tiles + rim <= budget:
                best[0], best[1] = min(best[0], tiles), min(best[1], rim)
            return
        nodes += 1
        if nodes > COVER_NODES:
            raise OverflowError
        more = -(-left.bit_count() // 3)  # tiles still to come: each covers three at most
        if tiles + more + rim > budget or (tiles + more >= best[0] and rim >= best[1]):
            return  # no room, or nothing better on either count down here
        fits: list[tuple[int, int, int]] | None = None  # of the hex with fewest
        for hb, options in by_hex:
            if left & hb:
                here = [o for o in options if supply[o[1]] and not used & o[0]]
                if not here:
                    return
                if fits is None or len(here) < len(fits):
                    fits = here
        assert fits is not None
        for shape, kind, extra in sorted(fits, key=lambda o: (-(o[0] & left).bit_count(), o[2])):
            supply[kind] -= 1
            dfs(left & ~shape, used | shape, tiles + 1, rim + extra)
            supply[kind] += 1

    dfs((1 << len(by_hex)) - 1, 0, 0, 0)
    return None if best[0] == 99 else (best[0], best[1])


def _overhang(s: GameState, bare: set[int], shapes: Shapes) -> int:
    """The fewest extra AP (R14) any flat cover of ``bare`` pays: each tile over a bare hex
    lies on level 0, so each of its hexes outside Java-Centre carries no tile and costs 1 AP
    more. Every bare rim hex pays; and bare hexes no two of which one tile can cover (not
    next to each other, as a tile's hexes all are) lie under different tiles, each paying at
    least the cheapest flat shape of his supplies through its hex (planner-44@191: the
    bare H3 lies only under triangles that overhang onto H2). ``shapes``: those the cover
    may use (none on a hex the line irrigates)."""
    m = s.map
    least = {h: min((rim for _, _, rim in shapes[h]), default=0) for h in bare}
    apart, chosen = 0, set()
    for h in sorted(bare, key=lambda x: (-least[x], x)):
        if least[h] and not any(n in chosen for n in m.nbrs[h]):
            chosen.add(h)
            apart += least[h]
    return max(sum(1 for h in bare if not m.is_central(h)), apart)


NODES = 3000  # per search in ``_fewest_tiles``; past it, the sum above stands


Entry = tuple[tuple[int, ...], frozenset[int], int]  # a shape, its hexes, its rim hexes


@functools.lru_cache(maxsize=MAPS_KEPT)  # as ``core.movegen._shapes``: a few maps held
def _map_entries(m: HexMap) -> list[tuple[list[Entry], list[Entry], list[Entry]]]:
    """Per hex: every single (central hexes only, R14), pair and triangle through it, with its
    rim hexes. What a position adds is only which of them lie flat now."""

    def entry(shape: tuple[int, ...]) -> Entry:
        return shape, frozenset(shape), sum(1 for x in shape if not m.is_central(x))

    return [([entry((h,))] if m.is_central(h) else [],
             [entry((h, y)) for y in m.partners[h]],
             [entry(tri) for tri in m.tris_at[h]])
            for h in range(len(m.nbrs))]


# Per map, the flat shapes through a hex for each supply and each flat pattern of it and its
# neighbours (every shape through a hex lies among them): a position's ring covers ask the same
# hexes again and again (busy positions, profiled: 7 % of the bound's time went to working them out).
_SHAPES: dict[object, dict[tuple[int, tuple[bool, ...], int], list[tuple[frozenset[int], int, int]]]] = {}


def _flat_shapes(s: GameState, hexes: Iterable[int]) -> Shapes:
    """Per hex of ``hexes``: the singles (kind 0), pairs (1) and triangles (2) of his supplies
    that may lie flat on level 0 through it now (R10, R12, R14: singles only in Java-Centre),
    each with its hexes outside Java-Centre (1 AP more each, R14). Remembered per map on the
    hex, the supplies that are not empty and which of the hex and its neighbours are flat."""
    me = s.players[s.to_move]
    supply = (me.villages + me.rice > 0, me.doubles > 0, s.triples > 0)
    m = s.map
    entries, nbrs = _map_entries(m), m.nbrs
    level, irr, kind = s.level, s.irrigated, m.kind
    memo = _SHAPES.get(m)
    if memo is None:
        if len(_SHAPES) >= MAPS_KEPT:
            _SHAPES.clear()
        memo = _SHAPES[m] = {}

    def flat(x: int) -> bool:
        return level[x] == 0 and not irr[x] and kind[x] != 0

    got: Shapes = {}
    for h in hexes:
        mask = int(flat(h))
        for x in nbrs[h]:
            mask = mask << 1 | flat(x)
        key = (h, supply, mask)
        here = memo.get(key)
        if here is None:
            here = []
            if mask >> len(nbrs[h]):  # h itself is flat
                for k, of_kind in enumerate(entries[h]):
                    if supply[k]:
                        here += [(hx, k, rim) for shape, hx, rim in of_kind
                                 if all(flat(x) for x in shape)]
            if len(memo) >= COVERS_CAP:
                memo.clear()
            memo[key] = here
        got[h] = here
    return got


def _fewest_tiles(s: GameState, bare: set[int], least: int, most: int, shapes: Shapes) -> int:
    """The fewest flat tiles of his supplies that cover ``bare`` (R10, R12), searched from
    ``least`` (a lower bound) up to ``most`` (``most + 1`` where even that many cannot):
    every tile over a bare hex lies on level 0, so only the singles, pairs and triangles
    of level-0 hexes without irrigation there now count. Each step covers the hex with the
    fewest such tiles, and a branch stops where the sum of ``1/c(h)`` over what is left
    (``_cover``) exceeds the tiles left. Where the search runs past ``NODES`` it returns the
    count it was trying, still a lower bound. ``shapes``: those the cover may use."""
    me = s.players[s.to_move]
    options = {h: sorted({(shape & bare, k) for shape, k, _ in shapes[h]},
                         key=lambda o: -len(o[0])) for h in bare}
    supply = [me.villages + me.rice, me.doubles, s.triples]
    nodes = 0

    def fits(left: frozenset[int], k: int) -> bool:
        nonlocal nodes
        if not left:
            return True
        nodes += 1
        if nodes > NODES:
            raise OverflowError
        sixths, pick, fewest = 0, -1, 99
        for h in left:
            usable = [o for o, kind_ in options[h] if supply[kind_]]
            if not usable:
                return False
            sixths += 6 // max(len(o & left) for o in usable)
            if len(usable) < fewest:
                pick, fewest = h, len(usable)
        if -(-sixths // 6) > k:
            return False
        for o, kind_ in options[pick]:
            if supply[kind_]:
                supply[kind_] -= 1
                ok = fits(left - o, k - 1)
                supply[kind_] += 1
                if ok:
                    return True
        return False

    whole = frozenset(bare)
    for k in range(least, most + 1):
        try:
            if fits(whole, k):
                return k
        except OverflowError:
            return k
    return most + 1


PondOption = tuple[int, ...]  # (tiles, irrigations, overhang AP, ring class, lifts, points)
# Per item: the bare hexes of all its rings, its options, each with the ponds there now that
# it encloses (a bit per pond), and for a pond there already, the option that encloses it as
# it is (no irrigation) with its bare ring, kept apart: rings that stay put add up their tiles
# as a union (``cluster_table``). Last, the ponds any of its options encloses.
Zero = tuple[PondOption, frozenset[int], int]
Item = tuple[frozenset[int], list[tuple[PondOption, int]], Zero | None, int]


def pond_items(s: GameState, ap: int, raw: Raw | None = None) -> list[Item]:
    """Per pond (or new pond), its bare rings and options ``(tiles, irrigations, overhang AP,
    ring class, lifts, points)``, the class and lifts as in ``ring_class``. Each option also names the
    ponds there now that it encloses: a pond is scored once (R38), and once enclosed it has no
    bare neighbour left (R37: only a bare hex is irrigated), so no other pond may take it in.
    ``raw`` (``raw_items``, worked out with at least ``ap`` AP) saves the work: a bound asks
    with several counts of AP, and an option that fits fewer AP is one with more (the same
    irrigations and ring; its cover's search is only told how many tiles are worth trying,
    and any count it returns is one no cover goes below), so keeping those that fit is sound.
    It need not give the same items as asking with ``ap``: a new pond grown from one seed
    hex with more AP may be met from another with fewer (``pond_growths``' ``seen``), so it
    sits in another item, and each item keeps its own best options; every one is still an
    option of its seed. On the 267 puzzles and the 88 busy turns, at five counts of AP
    each, the bound is the same either way."""
    if raw is None or raw[0] < ap:
        raw = raw_items(s, ap)
    supply = min(s.irrigation_supply, ap)
    items: list[Item] = []
    for opts, zero in raw[1]:
        kept = [(o, m, b) for o, m, b in opts if o[0] + o[2] + o[1] <= ap and o[1] <= supply]
        if zero is not None and zero[0][0] + zero[0][2] > ap:
            zero = None
        if not kept and zero is None:
            continue
        bare_all = set().union(*(b for _, _, b in kept), zero[1] if zero else ())
        taken = 0
        for _, m, _ in kept:
            taken |= m
        by_mask: dict[int, list[PondOption]] = {}
        for o, m, _ in kept:
            by_mask.setdefault(m, []).append(o)
        items.append((frozenset(bare_all), [(o, m) for m, os in by_mask.items() for o in pareto(os)],
                      zero, taken | (zero[2] if zero else 0)))
    return items


def raw_items(s: GameState, ap: int) -> Raw:
    """``pond_items``' options with ``ap`` AP, each with its bare ring, before they are kept."""
    nbrs, level, irr = s.map.nbrs, s.level, s.irrigated
    supply = min(s.irrigation_supply, ap)
    reach: list[Reach] = []  # worked out at the first ring that can be closed

    def holder(ring: set[int]) -> tuple[int, int]:
        if not reach:
            reach.append((Parts(s), bridged_reach(s)))
        return ring_class(s, ring, reach[0])

    def irrigable(h: int) -> bool:
        return (s.map.kind[h] != 0 and s.map.is_central(h) and level[h] == 0 and not irr[h]
                and not s.map.border_cost[h] and s.dev[h] < 0)

    out: list[tuple[list[tuple[PondOption, int, frozenset[int]]], Zero | None]] = []
    ponds = all_ponds(s.map.hexes, irr, nbrs)
    pond_of = {h: i for i, p in enumerate(ponds) for h in p}

    def add(pond: set[int], grown: list[frozenset[int]], seed_irr: int) -> None:
        opts: list[tuple[PondOption, int, frozenset[int]]] = []
        zero: Zero | None = None
        for extra in grown:
            q = pond | extra
            # An irrigation next to another pond joins the whole of it (R37: a pond is maximal):
            # the pond that may be enclosed is q with every pond it touches, and so is its ring.
            joined = {h for i in {pond_of[n] for h in q for n in nbrs[h] if irr[n] and n not in q}
                      for h in ponds[i]}
            whole = q | joined
            ring = {n for h in whole for n in nbrs[h] if n not in whole}
            bare = {n for n in ring if level[n] == 0}
            if not bare and not extra and not seed_irr:
                continue  # enclosed already: scored once, ever (R38)
            n_irr = len(extra) + seed_irr
            cover = _cover(s, bare, ap - n_irr, frozenset(h for h in q if not irr[h]))
            if cover is None:
                continue
            tiles, rim = cover
            if tiles + rim + n_irr > ap or n_irr > supply:
                continue
            option = (tiles, n_irr, rim, *holder(ring), 3 * len(whole))
            mask = sum(1 << i for i in {pond_of[h] for h in whole if h in pond_of})
            if n_irr:
                opts.append((option, mask, frozenset(bare)))
            else:
                zero = option, frozenset(bare), mask
        if opts or zero:
            out.append((opts, zero))

    for pond in ponds:
        p = set(pond)
        add(p, pond_growths(p, irrigable, nbrs, supply, level, irr, ap), 0)
    if supply:
        seen: set[frozenset[int]] = set()
        for h in s.map.hexes:
            if irrigable(h) and not any(irr[n] for n in nbrs[h]) and frozenset((h,)) not in seen:
                p = {h}
                seen.add(frozenset(p))
                add(p, pond_growths(p, irrigable, nbrs, supply - 1, level, irr, ap - 1, seen), 1)
    return ap, out


def pond_growths(pond: set[int], ok: Callable[[int], bool], nbrs: Sequence[Sequence[int]],
                 most: int, level: Sequence[int], irrigated: Sequence[bool], ap: int,
                 seen: set[frozenset[int]] | None = None) -> list[frozenset[int]]:
    """Connected sets of up to ``most`` irrigable hexes attached to ``pond`` (the empty set too)
    whose enclosure could still fit in ``ap``: irrigations plus a third of the bare ring. That
    count never falls as the set grows (one more irrigation removes at most one bare hex from
    the ring), so larger sets of a pruned one are pruned too. ``seen`` (whole ponds) skips
    what an earlier call already returned."""
    found: set[frozenset[int]] = {frozenset()}
    kept = [frozenset[int]()]
    layer = [frozenset[int]()]
    if seen is None:
        seen = set()
    for size in range(1, most + 1):
        nxt = []
        for extra in layer:
            q = pond | extra
            for n in {n for h in q for n in nbrs[h]} - q:
                if ok(n):
                    e = extra | {n}
                    qq = frozenset(q | {n})
                    if e in found or qq in seen:
                        continue
                    found.add(e)
                    seen.add(qq)
                    bare = sum(1 for m in {m for h in qq for m in nbrs[h]} - qq
                               if level[m] == 0 and not irrigated[m])
                    if size + -(-bare // 3) <= ap:
                        nxt.append(e)
                        kept.append(e)
        layer = nxt
    return kept


def clusters(items: list[Item], s: GameState) -> list[list[Item]]:
    """Group pond items whose bare rings lie within one hex of each other (a tile may serve
    both), or that may enclose the same pond there now (only one of them can, R38); other
    items never share a tile."""
    n = len(items)
    parent = list(range(n))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    near = [set(b) | {m for h in b for m in s.map.nbrs[h]} for b, _, _, _ in items]
    for i in range(n):
        for j in range(i + 1, n):
            if near[i] & items[j][0] or items[i][3] & items[j][3]:
                parent[find(i)] = find(j)
    groups: dict[int, list[Item]] = {}
    for i in range(n):
        groups.setdefault(find(i), []).append(items[i])
    return list(groups.values())


def cluster_table(members: list[Item], ap: int, s: GameState) -> list[tuple[int, ...]]:
    """Options ``(shared tiles, irrigations and overhang AP, tiles needed with bridges, paid
    arrival, irrigations, points)`` for one cluster: its items choose at most one option each. Tiles near
    several rings may serve them all, so the cluster needs at least the cover (``_cover``) of
    the union of the rings that stay as they are, and at least the tiles of each grown or new
    pond alone (their rings move with the irrigations; tracking every union of them costs too
    much); a ring that needs help takes bridges or a paid move (R26, R27). No two chosen
    options enclose the same pond there now (R38, ``pond_items``)."""
    covers: dict[frozenset[int], tuple[int, int] | None] = {frozenset(): (0, 0)}

    def cover(u: frozenset[int]) -> tuple[int, int] | None:
        if u not in covers:
            covers[u] = _cover(s, set(u), ap)
        return covers[u]

    # (union of unchanged rings, tiles of the others, irrigations and their overhangs,
    # tiles with bridges, paid arrival, ponds enclosed, irrigations) -> points
    Key = tuple[frozenset[int], int, int, int, int, int, int]
    table: dict[Key, int] = {(frozenset(), 0, 0, 0, 0, 0, 0): 0}
    supply = s.irrigation_supply  # R37: every irrigation comes from it
    for _, opts, zero, _ in members:
        choices: list[tuple[PondOption, frozenset[int] | None, int, list[tuple[int, int]]]] = [
            (o, None, m, holder_routes(o[0], o[3], o[4], o[1])) for o, m in opts]
        if zero:
            choices.append((*zero, holder_routes(zero[0][0], zero[0][3], zero[0][4], zero[0][1])))
        nxt = dict(table)
        for (u, t, i, b, a, taken, n), pts in table.items():
            for (ot, oi, orim, _, _, op), ring, mask, routes in choices:
                if taken & mask or n + oi > supply:
                    continue
                if ring is None:
                    uu, tt, ii = u, max(t, ot), i + oi + orim
                else:
                    uu, tt, ii = u | ring, t, i
                c = cover(uu)
                if c is None:
                    continue
                for ob, oa in routes:
                    key = (uu, tt, ii, max(b, ob), max(a, oa), taken | mask, n + oi)
                    if (max(c[0], tt, key[3]) + c[1] + ii + key[4] <= ap
                            and nxt.get(key, -1) < pts + op):
                        nxt[key] = pts + op
        table = nxt
    out = []
    for (u, t, i, b, a, _, n), pts in table.items():
        c = cover(u)
        if pts > 0 and c is not None:
            out.append((max(c[0], t), i + c[1], b, a, n, pts))
    return pareto(out)


def pond_options(s: GameState, ap: int, raw: Raw | None = None) -> list[tuple[int, ...]]:
    """Pond side: (tiles, irrigations and overhang AP, tiles with bridges, paid arrival,
    points); clusters add their tiles, and their irrigations no more than the supply holds
    (R37: every irrigation, in any cluster, comes from it; ``cluster_table`` counts them apart
    from the overhang AP they share a count with)."""
    pond: dict[tuple[int, int, int, int, int], int] = {(0, 0, 0, 0, 0): 0}
    supply = s.irrigation_supply
    for cluster in clusters(pond_items(s, ap, raw), s):
        table = cluster_table(cluster, ap, s)
        grown = dict(pond)
        for (t, i, b, a, n), pts in pond.items():
            for ct, ci, cb, ca, cn, cp in table:
                key = (t + ct, i + ci, max(b, cb), max(a, ca), n + cn)
                if (max(key[0], key[2]) + key[1] + key[3] <= ap and key[4] <= supply
                        and grown.get(key, -1) < pts + cp):
                    grown[key] = pts + cp
        pond = grown
    return pareto([(*k[:4], p) for k, p in pond.items()])
