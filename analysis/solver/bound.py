"""An admissible upper bound on the points the mover can still score this turn.

Used by branch and bound to prune and by the CP-SAT engine's proof, so every step below must
over-estimate what any legal line can do; ``tests/test_solver_bound.py`` and the agreement test
check it against the brute force. The bound relaxes the turn into *events* and a count of AP:

- **palace events** (R28, R29): one per village group, at most one palace change each. A value
  ``v`` needs the group to reach ``v`` hexes. Each land tile shows one village hex at most
  (R10), so ``k`` tiles add at most ``k`` hexes to a group, and each new hex joins at most two
  other groups (a hex touches at most three distinct groups); a group ``d`` hexes away needs
  ``d − 1`` of them; R15 keeps cities apart, and a village that joins a city grows that
  city's palace, so it counts in the city's options (R29: one change a turn), not its own.
  The mover must hold the highest position (R25): without tiles his rank key is at best his
  developers there (and paid arrivals) on the highest free hexes; with tiles it is at best as
  many developers as this group and the groups it may join hold (and paid arrivals), none
  higher than the nearby hexes plus one level per tile. Either way it must beat the best
  opponent's key there (R24), or the opponent is cut off and the group counts two hexes less
  (R23). A 0-AP move (R27) never leaves the terrain it starts
  on, so a developer reaches a village group from outside only by a paid move or an entry
  (≥ 1 AP, the cheapest one when no tile can change the paths; it lands in one group only),
  or by a tile joining his group to this one (a growth tile). Parts cut off a group (R23) may
  get palaces of their own: ``j`` of them cost ``j`` actions and a developer of his each, and
  their values add up to no more than their hexes (villages they join included).
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
from itertools import product

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
        top = max((v for v in PALACE_VALUES if s.palace_supply[v] > 0), default=0)
        self.cap = top
        p = s.players[self.me]
        self.village_tiles = s.triples + p.doubles + p.villages  # tiles that show a village (R10)
        self.land_tiles = self.village_tiles + p.rice
        self.arrival = self._arrivals()
        self.link = self._links()
        self._flat: dict[int, int] = {}
        self._around: dict[int, list[int]] = {}
        self._events: list[tuple[int, list[tuple[int, ...]]]] | None = None
        self._ponds: list[tuple[int, ...]] | None = None
        # the highest hex of the group a developer of his may stand on (no palace, no opponent)
        self.free_top = [max((s.level[h] for h in m if not s.palace[h] and s.dev[h] in (-1, self.me)),
                             default=0) for m in self.g.members]

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


def _one_tile_growth(v: _View, gi: int) -> int:
    """The largest group one new village hex next to group ``gi`` can make (R15 ignored: an
    over-estimate)."""
    s, g = v.s, v.g
    members = set(g.members[gi])
    best = len(members)
    for h in {n for m in members for n in s.map.nbrs[m]} - members:
        if s.dev[h] >= 0 or s.palace[h] or s.irrigated[h]:
            continue
        joined = {g.label[n] for n in s.map.nbrs[h] if g.label[n] >= 0} - {gi}
        best = max(best, len(members) + 1 + sum(len(g.members[o]) for o in joined))
    return best


def _palace_events(v: _View) -> list[tuple[int, list[tuple[int, ...]]]]:
    """Per group (its index; −1 for a group made from nothing), options ``(palace actions,
    growth tiles, paid arrivals, points)``."""
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
                free = sorted((s.level[h] for h in members if not s.palace[h]
                               and (s.dev[h] < 0 or s.dev[h] == v.me)), reverse=True)
                val = _best_value(v, len(members), old)
                for arrive in range(ap):
                    key = tuple(free[:v.count[gi] + arrive])
                    if key and key > v.opp_key[gi] and val:
                        if 1 + arrive * v.arrival[gi] <= ap:
                            opts.append((1, 0, arrive * v.arrival[gi], val // 2))
                        break
                continue
            # Only villages join (R15: never two cities; a village joining a city counts in the
            # city's options, where this group is one of the villages).
            near = {o: need for o, need in links.items() if need <= k and g.palace[o] < 0}
            # A developer of his stands on a free hex of the groups, or on a new hex: every new
            # hex lies within k of this group or of one it joins, and k tiles raise it at most
            # k levels above ``flat`` (R12). A village holding an opponent above that joins only
            # in part, split from him (R23): two hexes less.
            reach = max([v.free_top[gi], *(v.free_top[o] for o in near),
                         max([v.around(gi)[k], *(v.around(o)[k] for o in near)]) + k])
            size_of = {o: len(g.members[o]) - (2 if v.opp_top[o] > reach else 0) for o in near}
            # R24, R25: his developers there (at most those in this group and the groups it
            # may join, and paid arrivals) stand no higher than ``reach``; the best opponent
            # here stays unless cut off (R23, two hexes less).
            have = v.count[gi] + sum(v.count[o] for o in near)
            ways = [(len(members) - 2, 0 if have else 1)] if v.opp_key[gi] else []  # cut him off
            need_devs = _devs_to_beat(reach, v.opp_key[gi])
            if need_devs is not None:  # or beat him
                ways.append((len(members), max(0 if have else 1, need_devs - have)))
            for own, arrive in ways:
                if 1 + k + arrive > ap:
                    continue
                for size, base in _merged_sizes(v, gi, k, own, size_of, old):
                    val = _best_value(v, size, base)
                    if val:
                        opts.append((1, k, arrive, val // 2))
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
                within = [o for o, need in links.items() if need <= k and g.palace[o] < 0]
                joinable = sorted((len(g.members[o]) for o in within), reverse=True)
                size = len(members) - 2 + k + sum(joinable[:2 * k])
                have = v.count[gi] + sum(v.count[o] for o in within)
                for j in range(1, 4):
                    paid = max(0, j - have)
                    if size >= 2 * j and j + k + paid <= ap:
                        second.append((j, k, paid, min(size, v.cap * j) // 2))
            if second:
                out.append((gi, pareto(second)))
    # A group made from nothing: two new village hexes, an entry and the palace (value 2);
    # four hexes for value 4.
    for _ in range(4, ap + 1 if v.village_tiles >= 2 else 0, 4):
        opts = [(1, 2, 1, 1)]
        if ap >= 6 and _best_value(v, 4, 0) >= 4:
            opts.append((1, 4, 1, 2))
        out.append((-1, opts))
    return out


def _merged_sizes(v: _View, gi: int, k: int, own: int, size_of: dict[int, int],
                  old: int) -> list[tuple[int, int]]:
    """(largest size, old palace value) of the group after ``k`` tiles: ``k`` new hexes and at
    most ``2k`` joined villages (``size_of``: how much of each may come). R15: a city never
    joins another city. A village that joins a city enlarges that city's palace (R28): the
    city's own options count that growth, from its side, so the village's list leaves it out
    (R29: the city's palace changes once, whichever village grows it)."""
    villages = sorted(size_of.values(), reverse=True)
    out = [(own + k + sum(villages[:2 * k]), old)]
    if k == 1:
        one = _one_tile_growth(v, gi)
        out = [(min(size, one), was) for size, was in out]
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
    fixed = s.players[me].doubles + s.players[me].rice + s.players[me].villages + s.triples == 0
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

    def sure(gi: int) -> set[int]:
        """Opponents whose developers stay in the group whatever he does: all of them when he
        has no land tile; else those tied to the palace through hexes no tile may cover
        (palaces and opponents' developers, R11)."""
        members = g.members[gi]
        if fixed:
            return {s.dev[h] for h in members if s.dev[h] >= 0} - {me}
        ph = g.palace[gi]
        if ph < 0:
            return set()
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
        need = cards_ap(sure(gi))
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
    needs = {gi: cards_ap(sure(gi) if gi >= 0 else set()) for gi, _ in view(ap).events()}
    built: dict[int, dict[int, int]] = {}
    for d in sorted({n for n in needs.values() if n is not None and n < ap}):
        built[d] = {gi: v.cap // 2 for gi, n in needs.items() if n is not None and n <= d}
    return out, built
