"""An admissible upper bound on the points the mover can still score this turn.

Used by branch and bound to prune and by the CP-SAT engine's proof, so every step below must
over-estimate what any legal line can do; ``tests/test_solver_bound.py`` and the agreement test
check it against the brute force. The bound relaxes the turn into *events* and a count of AP:

- **palace events** (R28, R29): one per village group, at most one palace change each. A value
  ``v`` needs the group to reach ``v`` hexes. Each land tile shows one village hex at most
  (R10), so ``k`` tiles add at most ``k`` hexes to a group, and each new hex joins at most two
  other groups (a hex touches at most three distinct groups); a group ``d`` hexes away needs
  ``d − 1`` of them. R15 keeps cities apart, but a part cut off another city's palace is a
  village again (R23) and may join: no larger than ``_View.split`` allows. A village that joins
  a city grows that city's palace, so it counts in the city's options (R29: one change a turn),
  not its own. The mover must hold the highest position (R25) against every opponent's key,
  merged over the groups that join (R24). His developers climb for free only inside the free
  part of their group (R27: one terrain, never over an opponent or a palace); each paid
  arrival or move adds one more level from the rest; a tile raises a hex one level, ``k``
  tiles a hex ``d`` away from the groups ``k − d + 1`` levels at most above ``flat``. What
  one tile may do is worked out hex by hex (``_one_tile_growths``); more tiles pool the
  groups' free hexes. An opponent he cannot beat must be cut off (R23): his hexes and one
  covered hex leave the group. A 0-AP move (R27) never leaves the terrain it starts on, so a
  developer reaches a village group from outside only by a paid move or an entry (≥ 1 AP, the
  cheapest one when no tile can change the paths; it lands in one group only), or by a tile
  joining his group to this one (a growth tile). Parts cut off a group (R23) may get palaces
  of their own: ``j`` of them cost ``j`` actions and a developer of his each, and their values
  add up to no more than their hexes (villages they join included); one new palace must
  out-rank the opponents left in its part.
- **pond events** (R37, R38; ``bound_ponds.py``): enclosing a pond (grown by irrigating its
  bare neighbours, or a new pond made by irrigation) scores 3 per space. Its bare neighbours
  must be covered by land tiles: at least the sum over them of ``1/c(h)``, ``c(h)`` the most
  of them one flat tile of his supplies through ``h`` covers (R10, R12), one single tile of
  his own for each that no larger tile fits, plus 1 AP per rim hex (R14). Placements near
  each other may serve several ponds: ponds whose bare rings lie within one hex of each other
  form a cluster that needs the cover of the union of the rings it closes as they are, and the
  tiles of each grown or new pond alone. The mover must hold the highest position on the ring: a developer of his
  reaches it for free, or across one tile laid as a bridge before the enclosing placement, or
  by a paid move.
- Tiles are pooled: a growth tile may also cover a pond's ring, bridge a path or be the tile
  owed under R8; no more tiles than the supplies hold (R10). So the AP of a line are at least
  ``palace actions + max(growth tiles, pond tiles, bridges) + irrigations and overhangs +
  max(paid arrivals into groups, 1 if a ring needs one)``.
- **festival** (R30–R34): half the value of a city without a festival since it last changed, or
  of a palace the chosen events build or enlarge within the same AP (one palace: 5 at most,
  even where the option counts several palaces of a split group), with a developer of his
  there (else a paid arrival) and cards worth more than those of every opponent sure to stay
  in the city (all of them when he has no land tile; else those tied to the palace through
  hexes no tile may cover, R11): the solver counts a festival only when nobody can join
  (R32); each card drawn to get there costs 1 AP (R36) and is worth 2 at most.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations, product

from analysis.solver.bound_ponds import cluster_table, clusters, pareto, pond_items
from core.legality import PALACE_VALUES
from core.state import GameState


class _View:
    """Facts about the position that the event options share, computed once per bound."""

    def __init__(self, s: GameState, ap: int) -> None:
        self.s = s
        self.ap = ap
        self.me = s.to_move
        self.g = s.groups()
        n = len(self.g.members)
        self.mine = [False] * n  # a developer of the mover stands in the group
        self.count = [0] * n  # how many
        self.opp_top = [0] * n  # highest level of an opponent's developer there (0: none)
        self.opp_key: list[tuple[int, ...]] = [()] * n  # the best opponent's rank key (R24)
        self.opp_levels: list[dict[int, list[int]]] = [{}] * n  # opponent -> his levels there
        for gi, members in enumerate(self.g.members):
            keys: dict[int, list[int]] = {}
            for h in members:
                d = s.dev[h]
                if d == self.me:
                    self.mine[gi] = True
                    self.count[gi] += 1
                elif d >= 0:
                    self.opp_top[gi] = max(self.opp_top[gi], s.level[h])
                    keys.setdefault(d, []).append(s.level[h])
            self.opp_key[gi] = max((tuple(sorted(k, reverse=True)) for k in keys.values()), default=())
            self.opp_levels[gi] = keys
        top = max((v for v in PALACE_VALUES if s.palace_supply[v] > 0), default=0)
        self.cap = top
        p = s.players[self.me]
        self.village_tiles = s.triples + p.doubles + p.villages  # tiles that show a village (R10)
        self.land_tiles = self.village_tiles + p.rice
        self.arrival = self._arrivals()
        self.link = self._links()
        self._flat: dict[int, int] = {}
        self._around: dict[int, list[int]] = {}
        self._parts: dict[int, list[tuple[list[int], int, set[int]]]] = {}
        self._split: dict[int, list[int]] = {}
        self.growths: dict[tuple[int, bool], list[tuple[int, Comps, list[int]]]] = {}  # _one_tile_growths
        self._events: list[tuple[int, list[tuple[int, ...]]]] | None = None
        self._ponds: list[tuple[int, ...]] | None = None
        # the highest hex of the group a developer of his may stand on (no palace, no opponent)
        self.free_levels = [sorted((s.level[h] for h in m if not s.palace[h] and s.dev[h] in (-1, self.me)),
                                   reverse=True) for m in self.g.members]
        self.free_top = [f[0] if f else 0 for f in self.free_levels]

    def events(self) -> list[tuple[int, list[tuple[int, ...]]]]:
        """``_palace_events`` with this view's AP (cached: the festivals ask again)."""
        if self._events is None:
            self._events = _palace_events(self)
        return self._events

    def ponds(self) -> list[tuple[int, ...]]:
        """``_pond_options`` with this view's AP (cached)."""
        if self._ponds is None:
            self._ponds = _pond_options(self.s, self.ap)
        return self._ponds

    def parts(self, gi: int) -> list[tuple[list[int], int, set[int]]]:
        """The free parts of group ``gi``: its hexes without palace or opponent's developer,
        split where those block the way (R27): (levels, highest first; his developers there;
        hexes). Cached."""
        got = self._parts.get(gi)
        if got is None:
            s, me = self.s, self.me
            free = {h for h in self.g.members[gi] if not s.palace[h] and s.dev[h] in (-1, me)}
            got = []
            while free:
                stack = [free.pop()]
                hexes = set(stack)
                while stack:
                    for n in s.map.nbrs[stack.pop()]:
                        if n in free:
                            free.discard(n)
                            hexes.add(n)
                            stack.append(n)
                got.append((sorted((s.level[h] for h in hexes), reverse=True),
                            sum(1 for h in hexes if s.dev[h] == me), hexes))
            self._parts[gi] = got
        return got

    def split(self, gi: int, cuts: int) -> int:
        """Most hexes of city ``gi`` one part cut off its palace may hold, when at most
        ``cuts`` of its hexes are covered (R23; a cover needs no developer there, R11, though
        his own may step aside, and no palace): exact for one or two covered hexes, else
        every hex but the palace and the covered ones. A village: its size."""
        g, s = self.g, self.s
        members, ph = g.members[gi], g.palace[gi]
        if ph < 0:
            return len(members)
        got = self._split.get(gi)
        if got is None:
            coverable = [h for h in members if not s.palace[h] and s.dev[h] in (-1, self.me)]
            inside = set(members)
            best = [0, 0, 0]
            for c in (1, 2):
                for cut in combinations(coverable, c):
                    left = inside - set(cut)
                    seen = {ph}
                    stack = [ph]
                    while stack:
                        for n in s.map.nbrs[stack.pop()]:
                            if n in left and n not in seen:
                                seen.add(n)
                                stack.append(n)
                    best[c] = max(best[c], _largest_part(left - seen, s.map.nbrs))
            got = self._split[gi] = best
        if cuts <= 2:
            return max(got[1:cuts + 1], default=0)
        return max(got[1], got[2], len(members) - 1 - 3)

    def flat(self, h: int) -> int:
        """A level that ``k`` tiles raise hex ``h`` to at most ``k`` above: its level if a tile
        of his supplies lies flat over it now (R10–R12; his own developers may step aside,
        R11), one less if a tile must first raise a neighbour to make it flat (that tile does
        not cover ``h``), −99 if no tile may ever cover it (an opponent's developer, a palace,
        irrigation). Computed on demand: only hexes near groups are asked."""
        got = self._flat.get(h)
        if got is None:
            got = self._flat[h] = self._flat_level(h)
        return got

    def _flat_level(self, h: int) -> int:
        s = self.s
        if not self._free(h):
            return -99
        from analysis.solver.bound_ponds import _shapes

        tris, pairs = _shapes(s)
        p = s.players[self.me]
        level, lv, free = s.level, s.level[h], self._free
        if ((p.villages + p.rice > 0 and s.map.is_central(h))
                or (p.doubles > 0 and any(level[x] == lv and free(x) for x in pairs[h]))
                or (s.triples > 0 and any(all(level[x] == lv and free(x) for x in tri)
                                          for tri in tris[h]))):
            return lv
        return lv - 1

    def _free(self, h: int) -> bool:
        s = self.s
        return ((s.dev[h] < 0 or s.dev[h] == self.me) and not s.palace[h] and not s.irrigated[h]
                and s.map.kind[h] != 0)

    def around(self, gi: int) -> list[int]:
        """``_levels_near`` of group ``gi`` (cached)."""
        got = self._around.get(gi)
        if got is None:
            got = self._around[gi] = self._levels_near(self.g.members[gi])
        return got

    def _levels_near(self, members: list[int]) -> list[int]:
        """The most of ``flat`` over the hexes within distance ``d`` of the group, for
        d = 0 … ap."""
        s, flat = self.s, self.flat
        seen = set(members)
        layer = list(members)
        best = max(flat(h) for h in members)
        out = [best]
        for _ in range(self.ap):
            nxt = []
            for h in layer:
                for n in s.map.nbrs[h]:
                    if n not in seen:
                        seen.add(n)
                        nxt.append(n)
                        best = max(best, flat(n))
            out.append(best)
            layer = nxt
        return out

    def _arrivals(self) -> list[int]:
        """Per group, the fewest AP one paid arrival of a developer of his costs (R26, R27): at
        least 1; with no land tile left to change paths, the cheapest move of one of his
        developers there or entry onto one of its border or rim hexes (any other way — an entry
        elsewhere and a move in, or an exit first — costs 2 at least)."""
        s, g = self.s, self.g
        n = len(g.members)
        if self.land_tiles:
            return [1] * n
        from core.paths import move_costs

        me = self.me
        best = [99] * n
        for h in s.map.hexes:
            if s.dev[h] == me:
                for x, c in move_costs(h, me, s.level, s.terrain, s.dev, s.palace, s.map.nbrs,
                                       self.ap).items():
                    gi = g.label[x]
                    if gi >= 0 and s.dev[x] in (-1, me) and c < best[gi]:
                        best[gi] = c
        off = s.players[me].developers_off > 0
        for gi, members in enumerate(g.members):
            if off:
                for h in members:
                    e = s.map.border_cost[h] or s.map.rim_cost[h]
                    if e and s.dev[h] in (-1, me) and not s.palace[h]:
                        best[gi] = min(best[gi], e)
            best[gi] = min(best[gi], 2)  # an exit or entry elsewhere and a move in, at least
        return [max(1, b) for b in best]

    def _links(self) -> list[dict[int, int]]:
        """For each group, the other groups within reach of ``ap − 1`` tiles: {group: new
        village hexes needed to join it} (shortest chain over groups, ``distance − 1`` per hop)."""
        g, ap = self.g, self.ap
        n = len(g.members)
        near: list[list[tuple[int, int]]] = [[] for _ in range(n)]
        axial = [[self._axial(h) for h in m] for m in g.members]
        for a in range(n):
            for b in range(a + 1, n):
                d = _set_distance(axial[a], axial[b], ap)
                if d <= ap:
                    near[a].append((b, d - 1))
                    near[b].append((a, d - 1))
        out = []
        for a in range(n):
            best = {a: 0}
            frontier = [a]
            while frontier:  # tiny graphs: relax until nothing improves
                nxt = []
                for x in frontier:
                    for y, w in near[x]:
                        c = best[x] + w
                        if c < ap and c < best.get(y, ap):
                            best[y] = c
                            nxt.append(y)
                frontier = nxt
            del best[a]
            out.append(best)
        return out

    @staticmethod
    def _axial(h: int) -> tuple[int, int, int]:
        got = _CUBE.get(h)
        if got is None:
            from core.hexmap import to_axial

            q, r = to_axial(h)
            got = _CUBE[h] = (q, r, -q - r)
        return got


_CUBE: dict[int, tuple[int, int, int]] = {}  # hex id -> cube coordinates (ids are map-free)


def _largest_part(hexes: set[int], nbrs: Sequence[Sequence[int]]) -> int:
    """Size of the largest edge-connected part of ``hexes``."""
    left, best = set(hexes), 0
    while left:
        stack = [left.pop()]
        size = 1
        while stack:
            for n in nbrs[stack.pop()]:
                if n in left:
                    left.discard(n)
                    size += 1
                    stack.append(n)
        best = max(best, size)
    return best


_UNCUT: dict[tuple[object, ...], frozenset[int]] = {}


def _uncut(s: GameState, members: list[int], ph: int) -> set[int]:
    """Opponents of the mover in the city ``members`` (palace on ``ph``) whom one land tile
    cannot cut off the palace (R23): it covers one hex, or two next to each other (a
    three-space tile's rice hexes, R10), never a palace nor a developer (R11; the mover's own
    may step aside). Cached on the city's layout."""
    me = s.to_move
    key = (me, ph, tuple(sorted((h, s.dev[h], s.palace[h] > 0) for h in members)))
    got = _UNCUT.get(key)
    if got is None:
        inside = set(members)
        coverable = [h for h in members if not s.palace[h] and s.dev[h] in (-1, me)]
        opps = {h for h in members if s.dev[h] >= 0 and s.dev[h] != me}
        cut: set[int] = set()
        cuts = [{h} for h in coverable] + [{a, b} for a in coverable for b in s.map.nbrs[a]
                                           if b in inside and b > a and b in coverable]
        for c in cuts:
            seen, stack = {ph}, [ph]
            while stack:
                for n in s.map.nbrs[stack.pop()]:
                    if n in inside and n not in seen and n not in c:
                        seen.add(n)
                        stack.append(n)
            cut |= opps - seen
        got = frozenset(s.dev[h] for h in opps if h not in cut)
        if len(_UNCUT) > 4096:
            _UNCUT.clear()
        _UNCUT[key] = got
    return set(got)


def _set_distance(a: Sequence[tuple[int, int, int]], b: Sequence[tuple[int, int, int]], limit: int) -> int:
    best = limit + 1
    for q1, r1, s1 in a:
        for q2, r2, s2 in b:
            d = max(abs(q1 - q2), abs(r1 - r2), abs(s1 - s2))
            if d < best:
                best = d
                if d <= 1:
                    return d
    return best


def _devs_to_beat(level: int, key: tuple[int, ...]) -> int | None:
    """Fewest developers at ``level`` whose rank key beats ``key`` (R24, R25); None if none do."""
    if not key or level > key[0]:
        return 1
    if level < key[0]:
        return None
    return sum(1 for x in key if x == level) + 1


def _beaten(level: int, devs: int, key: tuple[int, ...]) -> bool:
    """Whether ``devs`` developers at ``level`` at most may out-rank ``key`` (R24, R25)."""
    need = _devs_to_beat(level, key)
    return need is not None and need <= devs


def _reach(v: _View, gi: int, k: int, near: dict[int, int], t: int) -> int:
    """Highest level a developer of his may stand on in group ``gi`` after ``k`` tiles, ``t`` of
    them stacked on his hex (R12, R24), where it may join the groups ``near`` ({group: new
    hexes to join it}): a free hex of these groups, a hex of a group joined with ``n`` tiles
    raised by the ``t``, or a hex ``d`` away from it, which the group reaches only through
    ``d − 1`` more new village hexes (one per tile, R10): ``n + d − 1 + t ≤ k``."""
    top = max(v.free_top[o] for o in [gi, *near])
    for o, n in [(gi, 0), *near.items()]:
        if n + t <= k:
            top = max(top, v.around(o)[k - t - n + 1] + t)
    return top


Comps = list[tuple[list[int], int]]  # free parts of groups: (levels, highest first; his developers)


def _key(comps: Comps, paid: int) -> tuple[int, ...]:
    """Highest rank key he may have (R24) over free parts ``comps``: his developers climb for
    free inside their own part (R27: one terrain, never over an opponent or a palace); each
    paid action (an arrival, or a paid move across) adds one more level from the rest. A sorted
    superset is a greater key, so a paid move counts like an arrival."""
    base: list[int] = []
    rest: list[int] = []
    for levels, mine in comps:
        base += levels[:mine]
        rest += levels[mine:]
    rest.sort(reverse=True)
    return tuple(sorted(base + rest[:paid], reverse=True))


def _one_tile_growths(v: _View, gi: int, cities: bool) -> list[tuple[int, Comps, list[int]]]:
    """What one land tile may do for group ``gi`` (R10–R15): (hexes it adds, free parts, groups
    it joins). Its village hex either raises a free hex of the group by one (no growth), or
    lands next to the group on a hex it may lie flat on, joins the groups next to that hex
    (of a city, only a part cut off its palace: ``_joined_size``; without ``cities``, a hex next
    to a city is left out) and links the free parts it touches."""
    got = v.growths.get((gi, cities))
    if got is not None:
        return got
    s, g = v.s, v.g
    members = g.members[gi]
    parts = v.parts(gi)
    out: list[tuple[int, Comps, list[int]]] = [(0, [(lv, c) for lv, c, _ in parts], [])]
    for i, (levels, mine, hexes) in enumerate(parts):
        for lv in sorted({s.level[h] for h in hexes if v.flat(h) == s.level[h]}):
            up = sorted(levels, reverse=True)
            up.remove(lv)
            up = sorted([*up, lv + 1], reverse=True)
            out.append((0, [(up, mine) if j == i else (x, c) for j, (x, c, _) in enumerate(parts)], []))
    seen = set(members)
    for m in members:
        for h in s.map.nbrs[m]:
            if h in seen:
                continue
            seen.add(h)
            if g.label[h] >= 0 or v.flat(h) != s.level[h]:
                continue
            joined = sorted({g.label[n] for n in s.map.nbrs[h] if g.label[n] >= 0} - {gi})
            if not cities and any(g.palace[o] >= 0 for o in joined):
                continue
            touch = set(s.map.nbrs[h])
            linked: list[int] = [s.level[h] + 1]
            mine = 0
            comps: Comps = []
            for o in [gi, *joined]:
                for levels, c, hexes in v.parts(o):
                    if touch & hexes:
                        linked += levels
                        mine += c
                    else:
                        comps.append((levels, c))
            comps.append((sorted(linked, reverse=True), mine))
            out.append((1, comps, joined))
    unique = {(grow, tuple(sorted((tuple(lv), c) for lv, c in comps)), tuple(joined)): (grow, comps, joined)
              for grow, comps, joined in out}
    got = v.growths[gi, cities] = list(unique.values())
    return got


def _joined_size(v: _View, o: int, cut: bool, top: int, cuts: int) -> int:
    """Hexes group ``o`` brings when ``k`` tiles join it: all of a village, or when its
    opponents are cut off (R23), less their hexes and one covered hex to part them. Of a city only a part cut off its palace may join (R15),
    a village again: at most ``_View.split`` of it with ``cuts`` hexes covered (R10: a tile
    shows two rice hexes at most), and less each opponent's developer higher than
    ``top`` (his highest level there), who would out-rank him in it (R24, R25); the other
    opponents are left out (an over-estimate: they may be in it)."""
    g, s = v.g, v.s
    if g.palace[o] < 0:
        return max(0, len(g.members[o]) - (1 + sum(map(len, v.opp_levels[o].values())) if cut else 0))
    above = sum(1 for h in g.members[o] if s.dev[h] >= 0 and s.dev[h] != v.me and s.level[h] > top)
    return max(0, min(len(g.members[o]) - 2 - above, v.split(o, cuts)))


def rank(levels: list[int]) -> tuple[int, ...]:
    """A rank key (R24): the levels, highest first."""
    return tuple(sorted(levels, reverse=True))


def _ranked_options(v: _View, gi: int, k: int, grow: int, joined: list[int], old: int,
                    comps: Comps | None = None, reach: int = 0, lift: list[int] | None = None,
                    part: tuple[int, dict[int, list[int]]] | None = None) -> list[tuple[int, int, int, int]]:
    """Options ``(1, k, paid arrivals, points)`` for a palace in group ``gi`` after ``k`` growth
    tiles that add ``grow`` hexes and may join the villages ``joined``, no developer of his
    standing higher than ``reach``.

    R24, R25: his rank key must beat every opponent's key there. An opponent he cannot beat
    must be cut off (R23): his developers' hexes leave the group, and a covered hex at least
    to part them from the rest (none more for a ``part``, whose size counts one already). A
    joined village brings its developers into the rank, or is joined only in part, cut off all
    of them. With ``comps`` (one tile: the free parts it leaves, ``_one_tile_growths``) his key
    is ``_key`` of them and the opponents' keys are merged over the groups that join (each cut
    or not). Else his key is at most the levels of the highest free hexes there and of the hexes
    the tiles make or raise (``lift``: each to ``reach`` at most), one per developer of his in
    these groups and per paid arrival (1 AP at least), each group's keys are beaten on their
    own (merged keys only grow), and the ``2 · grow`` largest groups join. ``part``: (most hexes, opponents' levels) of the
    part of the group that gets the palace, where not all of it does (R23): no more than
    ``_View.split`` either."""
    g, ap = v.g, v.ap
    exact = comps is not None
    size0, self_levels = part if part is not None else (len(g.members[gi]), v.opp_levels[gi])
    sep = 0 if part is not None else 1
    have = v.count[gi] + sum(v.count[o] for o in joined)
    pool = sorted([*v.free_levels[gi], *(x for o in joined for x in v.free_levels[o]),
                   *([reach] * k if lift is None else lift)], reverse=True)
    rivals = [o for o in joined if v.opp_key[o] and g.palace[o] < 0]
    whole = sorted((_joined_size(v, o, False, 99, 2 * k) for o in joined), reverse=True)
    ceiling = _best_value(v, size0 + grow + sum(whole if exact else whole[:2 * grow]), old)
    merged = {p: list(lv) for p, lv in self_levels.items()}  # with every rival village joined
    for o in rivals:
        for p, lv in v.opp_levels[o].items():
            merged.setdefault(p, []).extend(lv)
    out: list[tuple[int, int, int, int]] = []
    top = 0
    for arrive in range(ap - k):  # 1 palace action + k tiles + arrivals fit in the AP
        if top >= ceiling:
            break
        if have + arrive == 0:
            continue
        key = _key(comps, arrive) if comps is not None else tuple(pool[:have + arrive])
        # Only an opponent he may not beat is worth cutting off (his key only shrinks when
        # villages stay out); the others stay.
        strong = [p for p in self_levels if rank(merged[p] if exact else self_levels[p]) >= key]
        best = 0
        for drop in range(1 << len(strong)):  # the opponents cut off this group
            gone_p = {p for i, p in enumerate(strong) if drop >> i & 1}
            stay = {p: lv for p, lv in self_levels.items() if p not in gone_p}
            gone = sum(len(self_levels[p]) for p in gone_p)
            own = max(0, size0 - gone - (sep if gone else 0))
            if part is not None:
                own = min(own, v.split(gi, 2 * k))
            if exact:
                for mask in range(1 << len(rivals)):
                    cut = {o for i, o in enumerate(rivals) if mask >> i & 1}
                    # One tile covers two hexes at most besides its village hex (R10), one in
                    # each group it cuts (R23); two cut groups get one covered hex each.
                    cuts = (part is not None or gone > 0) + len(cut) + sum(g.palace[o] >= 0 for o in joined)
                    if cuts > 2:
                        continue
                    levels = {p: list(lv) for p, lv in stay.items()}
                    for o in rivals:
                        if o not in cut:
                            for p, lv in v.opp_levels[o].items():
                                levels.setdefault(p, []).extend(lv)
                    if any(rank(lv) >= key for lv in levels.values()):
                        continue
                    size = (min(own, v.split(gi, 1)) if cuts == 2 and part is not None else own) + grow + sum(
                        _joined_size(v, o, o in cut, key[0], 1 if cuts == 2 else 2) for o in joined)
                    best = max(best, _best_value(v, size, old))
            else:
                if any(rank(lv) >= key for lv in stay.values()):
                    continue
                sizes = sorted((_joined_size(v, o, not key > v.opp_key[o], key[0], 2 * k) for o in joined),
                               reverse=True)
                best = max(best, _best_value(v, own + grow + sum(sizes[:2 * grow]), old))
        if best > top:
            top = best
            out.append((1, k, arrive, best // 2))
    return out


def _palace_events(v: _View) -> list[tuple[int, list[tuple[int, ...]]]]:
    """Per group (its index; −1 for a group made from nothing; −2 − its index for new palaces
    in parts cut off it), options ``(palace actions, growth tiles, paid arrivals, points)``."""
    s, g, ap = v.s, v.g, v.ap
    changed = set(s.turn.palaces_changed)
    out: list[tuple[int, list[tuple[int, ...]]]] = []
    for gi, members in enumerate(g.members):
        ph = g.palace[gi]
        old = s.palace[ph] if ph >= 0 else 0
        if ph >= 0 and ph in changed:
            old = 99  # R29: this palace changed this turn already
        links = v.link[gi]
        opts: list[tuple[int, ...]] = []
        for k in range(min(ap, v.village_tiles + 1)):  # each growth tile shows a village (R10)
            if k == 0:
                # No tile: the group stays as it is. His developers there may climb inside it
                # for free (R27, one terrain); each paid arrival brings one more (R26).
                parts = [(lv, c) for lv, c, _ in v.parts(gi)]
                val = _best_value(v, len(members), old)
                for arrive in range(ap):
                    key = _key(parts, arrive)
                    if key and key > v.opp_key[gi] and val:
                        if 1 + arrive * v.arrival[gi] <= ap:
                            opts.append((1, 0, arrive * v.arrival[gi], val // 2))
                        break
                continue
            # A village that joins a city counts in the city's options, where this group is one
            # of the villages; or a part of the city cut off its palace joins this village, in
            # the city's options for its parts (below). A city joins villages, and parts of
            # other cities cut off their palaces (R15, R23).
            near = {o: need for o, need in links.items() if need <= k and (ph >= 0 or g.palace[o] < 0)}
            if k == 1:
                for grow, comps, joined in _one_tile_growths(v, gi, ph >= 0):
                    opts.extend(_ranked_options(v, gi, 1, grow, joined, old, comps=comps))
            else:
                # ``t`` tiles stacked on his highest hex leave ``k − t + 1`` new hexes at most,
                # each of the others one level above ``flat``.
                one = _reach(v, gi, k, near, 1)
                for t in range(1, k + 1):
                    near_t = {o: n for o, n in near.items() if n <= k - t + 1}
                    high = _reach(v, gi, k, near_t, t)
                    opts.extend(_ranked_options(v, gi, k, k - t + 1, list(near_t), old, reach=high,
                                                lift=[high] + [one] * (k - t)))
        if opts:
            out.append((gi, pareto(opts)))
        if len(members) >= 3 and v.land_tiles:
            # R23: tiles cut the group; the parts without its palace are villages that may get
            # palaces of their own (even when this palace changed this turn, R29), and may grow
            # and join other groups. ``j`` such palaces cost ``j`` actions and their values add
            # up to no more than their hexes. Each needs a developer of his in its part (R28):
            # those of this group and the groups it may join, else a paid arrival (≥ 1 AP).
            second = []
            for k in range(1, min(ap, v.land_tiles + 1)):
                # a part that joins a city grows that city's palace (its own list), not a new one
                within = {o: need for o, need in links.items() if need <= k}
                # R24, R25: an opponent's developer higher than any of his may stand there
                # out-ranks him, so it stays out of every part that gets a palace, and so does
                # at least one hex cut off with it; a village with one joins in part.
                reach = max(_reach(v, gi, k, within, t) for t in range(1, k + 1))
                above = sum(1 for h in members if s.dev[h] >= 0 and s.dev[h] != v.me and s.level[h] > reach)
                joinable = sorted((_joined_size(v, o, v.opp_top[o] > reach, reach, 2 * k) for o in within),
                                  reverse=True)
                size = len(members) - 2 - above + k + sum(joinable[:2 * k])
                have = v.count[gi] + sum(v.count[o] for o in within)
                # One new palace: in the part he must out-rank the opponents left there too.
                levels: dict[int, list[int]] = {}
                for h in members:
                    if s.dev[h] >= 0 and s.dev[h] != v.me and s.level[h] <= reach:
                        levels.setdefault(s.dev[h], []).append(s.level[h])
                part = (max(0, len(members) - 2 - above), levels)
                if k == 1:
                    for grow, comps, joined in _one_tile_growths(v, gi, True):
                        second += _ranked_options(v, gi, 1, grow, joined, 0, comps=comps, part=part)
                else:
                    second += _ranked_options(v, gi, k, k, list(within), 0, reach=reach, part=part)
                for j in range(2, 4):
                    paid = max(0, j - have)
                    if size >= 2 * j and j + k + paid <= ap:
                        second.append((j, k, paid, min(size, v.cap * j) // 2))
            if second:
                # Keyed apart (−2 − gi): a festival on a palace in a part is not spoilt by the
                # opponents tied to the city's old palace (``_festival_options``).
                out.append((-2 - gi, pareto(second)))
    # A group made from nothing: two new village hexes, an entry and the palace (value 2);
    # four hexes for value 4.
    for _ in range(4, ap + 1 if v.village_tiles >= 2 else 0, 4):
        opts = [(1, 2, 1, 1)]
        if ap >= 6 and _best_value(v, 4, 0) >= 4:
            opts.append((1, 4, 1, 2))
        out.append((-1, opts))
    return out


def _best_value(v: _View, size: int, old: int) -> int:
    best = 0
    for val in PALACE_VALUES:
        if old < val <= min(size, v.cap) and v.s.palace_supply[val] > 0:
            best = val
    return best


# ------------------------------------------------------------------------------------- the bound


def upper_bound(s: GameState, ap: int | None = None, festivals: bool = True) -> int:
    """Most points the mover could still score with ``ap`` AP (default: AP left, no token)."""
    if ap is None:
        ap = s.turn.ap
    by_ap: dict[int, int] = {}
    views: dict[int, _View] = {}

    def view(a: int) -> _View:
        if a not in views:
            views[a] = _View(s, a)
        return views[a]

    def events(a: int) -> int:
        if a not in by_ap:
            by_ap[a] = _event_bound(s, a, view)
        return by_ap[a]

    best = events(ap)
    if festivals:
        cities, built = _festival_options(s, ap, view)
        for cost, pts in cities:
            best = max(best, events(ap - cost) + pts)
        for cards, eligible in built.items():
            best = max(best, _event_bound(s, ap - cards, view, eligible))
    return best


def _event_bound(s: GameState, ap: int, view: Callable[[int], _View] | None = None,
                 festival: dict[int, int] | None = None) -> int:
    """Most points from palace and pond events with ``ap`` AP (no tile is counted as owed:
    R8 lapses when the AP run out, so spending them all elsewhere is legal). With
    ``festival`` (group -> most a festival there may give), also one festival on a palace the
    chosen events build or enlarge: half its value (R34), no more than that palace scored
    when it changed (R29), so no more than its option's points."""
    if ap <= 0:
        return 0
    v = _View(s, ap) if view is None else view(ap)
    events, pond_options = v.events(), v.ponds()
    # Palace side: (palace actions, growth tiles, paid arrivals, festival) -> points.
    pal: dict[tuple[int, int, int, int], int] = {(0, 0, 0, 0): 0}
    for gi, opts in events:
        cap = 0 if festival is None else festival.get(gi, 0)
        nxt = dict(pal)
        for (p, k, e, f), pts in pal.items():
            for op, ok, oe, opts_pts in opts:
                key = (p + op, k + ok, e + oe, max(f, min(cap, opts_pts)))
                if sum(key[:3]) <= ap and nxt.get(key, -1) < pts + opts_pts:
                    nxt[key] = pts + opts_pts
        pal = nxt
    pal = {k: pts + k[3] for k, pts in pal.items()}
    best = 0
    palace_options = pareto([(*k[:3], p) for k, p in pal.items()])
    for (p, k, e, pp), (t, i, b, a, qp) in product(palace_options, pond_options):
        if max(k, t, b) > v.land_tiles:
            continue  # R10: no more tiles than his supply and the shared one hold
        if p + max(k, t, b) + i + max(e, a) <= ap:
            best = max(best, pp + qp)
    return best


def _pond_options(s: GameState, ap: int) -> list[tuple[int, ...]]:
    """Pond side: (tiles, irrigations, tiles with bridges, paid arrival, points); clusters add
    their tiles."""
    pond: dict[tuple[int, int, int, int], int] = {(0, 0, 0, 0): 0}
    for cluster in clusters(pond_items(s, ap), s):
        table = cluster_table(cluster, ap, s)
        grown = dict(pond)
        for (t, i, b, a), pts in pond.items():
            for ct, ci, cb, ca, cp in table:
                key4 = (t + ct, i + ci, max(b, cb), max(a, ca))
                if max(key4[0], key4[2]) + key4[1] + key4[3] <= ap and grown.get(key4, -1) < pts + cp:
                    grown[key4] = pts + cp
        pond = grown
    return pareto([(*k, p) for k, p in pond.items()])


def _festival_options(s: GameState, ap: int, view: Callable[[int], _View] | None = None
                      ) -> tuple[list[tuple[int, int]], dict[int, dict[int, int]]]:
    """Festivals the mover might hold alone at the end of the turn (R30–R34): (AP, points) in a
    city without a festival since it last changed; and for a palace this turn builds or
    enlarges, per AP for cards, the most a festival may give in each group
    (``_event_bound``). He needs a developer there (one already there or joined by a tile,
    else a paid arrival, 1 AP at least) and cards: the solver counts a festival only when no
    opponent there can join (R32: cards worth at least the opening bid), so he needs more worth
    than each opponent who is sure to be there, with draws (1 AP each, R36) where his hand
    falls short."""
    from analysis.solver.common import festival_live
    from core.festival import card_worth

    if not festival_live() or s.face_up is None:
        return [], {}  # no face-up card: nothing matches (R31), and it is never replaced (R36)
    me = s.to_move
    hand = s.players[me].hand
    draws = min(2 - s.turn.cards_drawn, ap)
    land = s.players[me].doubles + s.players[me].rice + s.players[me].villages + s.triples
    fixed = land == 0
    g = s.groups()
    out: list[tuple[int, int]] = []

    def worth(cards: list[str], f: str | None) -> int:
        return sum(card_worth(c, f) for c in cards)

    def cards_ap(opps: set[int]) -> int | None:
        """Fewest draws after which his best opening could beat every one of ``opps`` (each
        drawn card is worth 2 at most; a draw of the face-up card turns up the next one)."""
        for d in range(draws + 1):
            if len(s.deck) < d:
                return d  # a reshuffle: the faces are unknown
            for f in [s.face_up, *s.deck[:d]]:
                top = worth(hand, f) + 2 * d
                if top >= 1 and all(worth(s.players[o].hand, f) < top for o in opps):
                    return d
        return None

    def sure(gi: int, tiles: int) -> set[int]:
        """Opponents whose developers stay in the group whatever he does with ``tiles`` land
        tiles at most: all of them without a tile; else those tied to the palace through
        hexes no tile may cover (palaces and opponents' developers, R11), and with one tile
        those it cannot cut off (``_uncut``)."""
        members = g.members[gi]
        if tiles <= 0:
            return {s.dev[h] for h in members if s.dev[h] >= 0} - {me}
        ph = g.palace[gi]
        if ph < 0:
            return set()
        if tiles == 1:
            return _uncut(s, members, ph)
        seen, stack, found = {ph}, [ph], set()
        while stack:
            h = stack.pop()
            for n in s.map.nbrs[h]:
                if n not in seen and g.label[n] == gi and (s.palace[n] or (s.dev[n] >= 0 and s.dev[n] != me)):
                    seen.add(n)
                    stack.append(n)
                    if not s.palace[n]:
                        found.add(s.dev[n])
        return found

    if view is None:
        def view(a: int) -> _View:
            return _View(s, a)
    v = view(ap + 1)  # links over ap tiles: the festival itself costs no AP
    for gi, members in enumerate(g.members):
        ph = g.palace[gi]
        if ph < 0 or s.fest[ph]:
            continue
        need = cards_ap(sure(gi, 0 if fixed else min(ap, land)))
        if need is None:
            continue
        # His developer is there, or a tile (which may serve another event too) joins a group
        # of his to the city (R15 allows a city to take in villages), or a paid arrival.
        joined = v.land_tiles > 0 and any(v.mine[o] for o in v.link[gi])
        cost = (0 if v.mine[gi] or joined else 1) + need
        if cost <= ap:
            out.append((cost, s.palace[ph] // 2))
    # One festival, in one city: at most half the highest value (R34), even where the option
    # counts several palaces of a split group (R23).
    # Per number of draws, the groups whose festival needs no more (fewer AP for more groups;
    # a number no group needs exactly adds none).
    # The palace action leaves ap − 1 AP for tiles.
    needs = {gi: cards_ap(sure(gi, 0 if fixed else min(ap - 1, land)) if gi >= 0 else set())
             for gi, _ in view(ap).events()}
    built: dict[int, dict[int, int]] = {}
    for d in sorted({n for n in needs.values() if n is not None and n < ap}):
        built[d] = {gi: v.cap // 2 for gi, n in needs.items() if n is not None and n <= d}
    return out, built
