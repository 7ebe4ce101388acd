"""What the events of the admissible bound (``bound.py``) share about a position: the mover's
village groups, their free parts, the levels tiles can reach near them, how far apart they lie.
A ``View`` is made for one position and one count of AP, and caches what it works out. The
pieces every bound module uses (``pareto``, ``Comps``) live here too, at
the bottom of the bound's layers: nothing here imports another bound module."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import lru_cache
from itertools import combinations
from math import comb

from core.legality import PALACE_VALUES
from core.state import GameState

# ``bound_ponds.raw_items``: the AP it was worked out with, and per pond (or new pond) each
# option (tiles, irrigations, overhang AP, ring class, lifts, points) with its mask of ponds
# and its bare ring, and the option that encloses it as it is (``bound_ponds.Zero``). Here,
# where the views keep it, so that bound_ponds may import this module and not the reverse.
Raw = tuple[int, list[tuple[list[tuple[tuple[int, ...], int, frozenset[int]]],
                            tuple[tuple[int, ...], frozenset[int], int] | None]]]

Comps = list[tuple[list[int], int]]  # free parts of groups: (levels, highest first; his developers)

Entry = tuple[int, list[tuple[int, ...]]]  # a palace event's key (``bound_palaces``) and options


class PalaceEntries:
    """The palace side's entries of one position, worked out with ``ap`` AP
    (``bound_palaces.palace_entries``; the views of the position share them): per key, its
    options, exact for the keys in ``exact`` and quick for the others (``upper_bound``'s
    ``below`` refines them one by one); ``checked``: ``options`` as the checked cities cap
    them (``bound._checked``), kept until an entry changes."""

    __slots__ = ("ap", "checked", "exact", "keys", "new", "opts")

    def __init__(self, ap: int, keys: list[int], opts: dict[int, list[tuple[int, ...]]],
                 new: list[Entry], exact: set[int]) -> None:
        self.ap, self.keys, self.opts, self.new, self.exact = ap, keys, opts, new, exact
        self.checked: list[Entry] | None = None

    def options(self) -> list[Entry]:
        """The entries in order (the groups, each followed by its parts, then the groups made from
        nothing), none empty."""
        return [(k, self.opts[k]) for k in self.keys if self.opts[k]] + self.new

    def quick(self) -> list[int]:
        """The keys still quick (an entry with no option has no exact one either)."""
        return [k for k in self.keys if k not in self.exact and self.opts[k]]


def pareto(opts: Iterable[tuple[int, ...]]) -> list[tuple[int, ...]]:
    """Drop options that cost at least as much in every count and score no more."""
    ordered = sorted(set(opts), key=lambda o: (o[-1]), reverse=True)
    kept: list[tuple[int, ...]] = []
    for o in ordered:
        if not any(all(k[i] <= o[i] for i in range(len(o) - 1)) and k[-1] >= o[-1] for k in kept):
            kept.append(o)
    return kept


EXACT_COVERS = 64  # sets of three covered hexes or more ``View.split`` tries one by one, at most
_CUTS: dict[tuple[object, ...], tuple[list[int], list[int]]] = {}


def free_hexes(s: GameState, members: Iterable[int], me: int) -> list[int]:
    """The hexes of ``members`` with no palace and no opponent's developer: where a tile may
    lie (R11; his own developers may step aside) and a developer of his may stand (R27)."""
    return [h for h in members if not s.palace[h] and s.dev[h] in (-1, me)]


def coverable(s: GameState, me: int) -> Callable[[int], bool]:
    """Whether a tile of player ``me`` may cover a hex (R11): on the map, no palace, no
    irrigation, no other player's developer (his own may step aside). A closure over the
    state's lists, which push and pop change in place: the bound's hottest test."""
    dev, palace, irrigated, kind = s.dev, s.palace, s.irrigated, s.map.kind

    def free(h: int) -> bool:
        d = dev[h]
        return (d < 0 or d == me) and not palace[h] and not irrigated[h] and kind[h] != 0

    return free


def _cut_sets(members: list[int], ph: int, coverable: tuple[int, ...], c: int,
              nbrs: Sequence[Sequence[int]]) -> Iterator[set[int]]:
    """Per set of ``c`` coverable hexes of the city, the hexes it cuts off the palace (R23)."""
    inside = set(members)
    for cut in combinations(coverable, c):
        left = inside - set(cut)
        yield left - component(ph, left, nbrs)


def _covers(members: list[int], ph: int, coverable: tuple[int, ...],
            nbrs: Sequence[Sequence[int]]) -> tuple[list[int], list[int]]:
    """``View._cuts`` worked out: every set of ``c`` coverable hexes tried, for ``c`` = 1, 2
    and on while the sets of three or more number ``EXACT_COVERS`` at most."""
    best, total = [0], [0]
    tried = 0
    for c in range(1, len(coverable) + 1):
        if c > 2:
            tried += comb(len(coverable), c)
            if tried > EXACT_COVERS:
                break
        offs = list(_cut_sets(members, ph, coverable, c, nbrs))
        best.append(max(largest_part(off, nbrs) for off in offs))
        total.append(max(len(off) for off in offs))
    return best, total


_PARTS: dict[tuple[object, ...], list[tuple[int, dict[int, list[int]]]]] = {}


def _cut_parts(members: list[int], ph: int, coverable: tuple[int, ...],
               opps: tuple[tuple[int, int, int], ...], cuts: int,
               nbrs: Sequence[Sequence[int]]) -> list[tuple[int, dict[int, list[int]]]]:
    """``View.cut_parts`` worked out: every set of at most ``cuts`` covers tried."""
    seen: set[frozenset[int]] = set()
    for c in range(1, cuts + 1):
        for off in _cut_sets(members, ph, coverable, c, nbrs):
            parts = []
            while off:
                part = frozenset(component(next(iter(off)), off, nbrs))
                off -= part
                parts.append(part)
            for mask in range(1, 1 << len(parts)):
                seen.add(frozenset().union(*(p for i, p in enumerate(parts) if mask >> i & 1)))
    out: dict[tuple[object, ...], tuple[int, dict[int, list[int]]]] = {}
    for part in seen:
        levels: dict[int, list[int]] = {}
        for h, d, lv in opps:
            if h in part:
                levels.setdefault(d, []).append(lv)
        key = (len(part), tuple(sorted((d, tuple(sorted(lv))) for d, lv in levels.items())))
        out[key] = (len(part), levels)
    # A part no larger than another, with each opponent's developers there a superset of his
    # there, gives no palace the other does not (the caller takes the best of them).
    kept = list(out.values())
    return [a for a in kept if not any(b is not a and b[0] >= a[0] and _within(b[1], a[1]) for b in kept)]


def _within(small: dict[int, list[int]], big: dict[int, list[int]]) -> bool:
    """Each opponent's levels in ``small`` are some of his levels in ``big``."""
    for p, lv in small.items():
        rest = list(big.get(p, ()))
        for x in lv:
            if x not in rest:
                return False
            rest.remove(x)
    return True


def meet(a: Sequence[tuple[int, ...]], b: Sequence[tuple[int, ...]]) -> list[tuple[int, ...]]:
    """Options two admissible relaxations of the same event both allow: a line that one option
    of each covers (its counts at least the option's, its points at most) is covered by their
    meet, the larger of each count and the smaller points."""
    a, b = pareto(a), pareto(b)
    return pareto([(*(max(x, y) for x, y in zip(o[:-1], q[:-1])), min(o[-1], q[-1])) for o in a for q in b])


def rank(levels: list[int]) -> tuple[int, ...]:
    """A rank key (R24): the levels, highest first. Tuples compare as R24 orders keys: level
    by level, and a longer key beats its own prefix."""
    return tuple(sorted(levels, reverse=True))


def best_key(levels: dict[int, list[int]]) -> tuple[int, ...]:
    """The greatest rank key among players' levels (``()`` when nobody stands there)."""
    return max((rank(lv) for lv in levels.values()), default=())


class View:
    """Facts about the position that the event options share, computed once per bound."""

    def __init__(self, s: GameState, ap: int, like: View | None = None) -> None:
        self.s = s
        self.ap = ap
        self.me = s.to_move
        self.free = coverable(s, self.me)
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
            self.opp_key[gi] = best_key(keys)
            self.opp_levels[gi] = keys
        top = max((v for v in PALACE_VALUES if s.palace_supply[v] > 0), default=0)
        self.cap = top
        p = s.players[self.me]
        self.village_tiles = s.triples + p.doubles + p.villages  # tiles that show a village (R10)
        self.land_tiles = self.village_tiles + p.rice
        self._moves: dict[int, dict[int, int]] | None = None  # ``_move_costs``
        self.link = links(ap, tuple(tuple(m) for m in self.g.members))  # read only (cached)
        self._around: dict[int, list[int]] = {}
        # What no count of AP changes, shared with ``like`` (a view of the same position).
        self._flat: dict[int, int] = {} if like is None else like._flat
        self._tiles: dict[tuple[object, ...], list[tuple[int, ...]]] = {} if like is None else like._tiles
        self._parts: dict[int, list[tuple[list[int], int, set[int]]]] = {} if like is None else like._parts
        self._joinable: dict[int, list[tuple[list[int], int, set[int]]]] = (
            {} if like is None else like._joinable)
        self._split: dict[int, tuple[list[int], list[int]]] = {} if like is None else like._split
        self.growths: dict[tuple[int, bool, int, int], list[tuple[int, Comps, list[int]]]] = (
            {} if like is None else like.growths)  # bound_growth
        self.joined_sizes: dict[tuple[int, bool, int, int], int] = (
            {} if like is None else like.joined_sizes)  # bound_palaces._joined_size
        # ``bound_ponds.raw_items`` with the most AP any view asked: fewer AP keep fewer of them
        self.pond_raw: list[Raw] = [] if like is None else like.pond_raw
        # ``bound_palaces.palace_entries`` likewise (with the AP they were worked out with)
        self.palace_shared: list[PalaceEntries] = [] if like is None else like.palace_shared
        # the event options with this view's AP, kept by ``bound`` (the festivals ask again)
        self.palace_options: list[tuple[int, list[tuple[int, ...]]]] | None = None
        self.pond_options: list[tuple[int, ...]] | None = None
        # the highest hex of the group a developer of his may stand on (no palace, no opponent)
        self.free_levels = [sorted((s.level[h] for h in free_hexes(s, m, self.me)), reverse=True)
                            for m in self.g.members]
        self.free_top = [f[0] if f else 0 for f in self.free_levels]

    def parts(self, gi: int) -> list[tuple[list[int], int, set[int]]]:
        """The free parts of group ``gi``: its hexes without palace or opponent's developer,
        split where those block the way (R27): (levels, highest first; his developers there;
        hexes). Cached."""
        got = self._parts.get(gi)
        if got is None:
            s, me = self.s, self.me
            free = set(free_hexes(s, self.g.members[gi], me))
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

    def joinable_parts(self, gi: int) -> list[tuple[list[int], int, set[int]]]:
        """``parts`` of group ``gi`` as another group's tiles may join them: all of a village;
        of a city only hexes not next to its palace, since a part joins another city only cut
        off its own palace (R15, R23) and no cover parts a hex from the palace beside it (a
        palace is never covered, R11): his developers there may walk to the rest of their
        part first (R27), so each part keeps them, as many as its hexes left. Parts keep their
        places in ``parts`` (a lift names a part by its place). Cached."""
        got = self._joinable.get(gi)
        if got is None:
            ph = self.g.palace[gi]
            if ph < 0:
                got = self.parts(gi)
            else:
                near = set(self.s.map.nbrs[ph])
                level = self.s.level
                got = []
                for _, mine, hexes in self.parts(gi):
                    kept = hexes - near
                    got.append((sorted((level[h] for h in kept), reverse=True), min(mine, len(kept)),
                                kept))
            self._joinable[gi] = got
        return got

    def split(self, gi: int, cuts: int) -> int:
        """Most hexes of city ``gi`` one part cut off its palace may hold, when at most
        ``cuts`` of its hexes are covered (R23; a cover needs no developer there, R11, though
        his own may step aside, and no palace): exact where the covers are few enough to try
        one by one (``_cuts``), else every hex but the palace and the covered ones. A
        village: its size."""
        return self._cut_off(gi, cuts, 0)

    def split_total(self, gi: int, cuts: int) -> int:
        """Most hexes of city ``gi`` all the parts cut off its palace may hold together, as in
        ``split``."""
        return self._cut_off(gi, cuts, 1)

    def _cut_off(self, gi: int, cuts: int, which: int) -> int:
        members = self.g.members[gi]
        if self.g.palace[gi] < 0:
            return len(members)
        got = self._cuts(gi)[which]
        # A cover needs a hex without a palace or an opponent's developer (R11), and none
        # becomes one during his turn (opponents stay, palaces stay): no more cuts than those.
        cuts = min(cuts, len(self.free_levels[gi]))
        tried = len(got) - 1
        if cuts <= tried:
            return max(got[1:cuts + 1], default=0)
        return max(*got[1:], len(members) - 1 - (tried + 1))

    def _cuts(self, gi: int) -> tuple[list[int], list[int]]:
        """Per number ``c`` of covered hexes of city ``gi`` (index ``c``, from 1): the largest
        part cut off its palace, and all the parts together; for one and two covered hexes,
        and for more while the sets of covers stay few (``EXACT_COVERS``). Cached on the
        city's layout: in a search most positions share their cities."""
        got = self._split.get(gi)
        if got is None:
            members, ph = self.g.members[gi], self.g.palace[gi]
            coverable = self._coverable(gi)
            key = (ph, tuple(members), coverable)
            got = _CUTS.get(key)
            if got is None:
                got = _CUTS[key] = _covers(members, ph, coverable, self.s.map.nbrs)
                if len(_CUTS) > 4096:
                    _CUTS.clear()
                    _CUTS[key] = got
            self._split[gi] = got
        return got

    def _coverable(self, gi: int) -> tuple[int, ...]:
        """The hexes of group ``gi`` a tile may cover (``free_hexes``), as a cache key."""
        return tuple(free_hexes(self.s, self.g.members[gi], self.me))

    def cut_parts(self, gi: int, cuts: int) -> list[tuple[int, dict[int, list[int]]]] | None:
        """What covering at most ``cuts`` hexes of city ``gi`` may cut off its palace (R23),
        where ``_cuts`` tries every set of covers: per set, its parts and any of them joined
        (new village hexes may join them again), as (hexes, opponent -> his levels there). The
        opponents' developers never move in his turn, so a part holds every one of them that
        stands in it. None where the covers are too many to try."""
        cuts = min(cuts, len(self.free_levels[gi]))
        if cuts > len(self._cuts(gi)[0]) - 1:
            return None
        s, me = self.s, self.me
        members, ph = self.g.members[gi], self.g.palace[gi]
        coverable = self._coverable(gi)
        opps = tuple((h, s.dev[h], s.level[h]) for h in members if s.dev[h] not in (-1, me))
        key = (ph, tuple(members), coverable, opps, cuts)
        got = _PARTS.get(key)
        if got is None:
            got = _PARTS[key] = _cut_parts(members, ph, coverable, opps, cuts, s.map.nbrs)
            if len(_PARTS) > 4096:
                _PARTS.clear()
                _PARTS[key] = got
        return got

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
        if not self.free(h):
            return -99
        p = self.s.players[self.me]
        lv = self.s.level[h]
        # R13 is left to the tile lists: a shape it forbids now may be laid after another
        # tile lifts a neighbour, which ``flat`` one lower would not say.
        return lv if self.tiles(h, lv, p.villages + p.rice, r13=False) else lv - 1

    def tiles(self, h: int, lv: int, single: int = 0, raised: frozenset[int] = frozenset(),
              avoid: frozenset[int] = frozenset(), r13: bool = True) -> list[tuple[int, ...]]:
        """The other hexes of each tile of his that may lie on ``h`` on level ``lv`` (R10–R12):
        free (R11), on that level now or in ``raised`` (hexes another tile lifts to it first),
        none in ``avoid``. ``single``: one-space tiles of his that fit (central hexes, R14).
        Empty: no tile fits. With ``r13``, none lies exactly on one tile of its size (R13): a
        hex still on its level now still shows the same tile, so this holds for the rest of
        the turn unless one of them is raised first. Cached."""
        key = (h, lv, single > 0, raised, avoid, r13)
        got = self._tiles.get(key)
        if got is None:
            got = self._tiles[key] = self._fitting(h, lv, single > 0, raised, avoid, r13)
        return got

    def _fitting(self, h: int, lv: int, single: bool, raised: frozenset[int],
                 avoid: frozenset[int], r13: bool) -> list[tuple[int, ...]]:
        """``tiles`` worked out."""
        s, level, free = self.s, self.s.level, self.free

        def fits(x: int) -> bool:
            return (level[x] == lv or x in raised) and x not in avoid and free(x)

        got: list[tuple[int, ...]] = []
        if single and s.map.is_central(h) and not (r13 and self._on_one(h, lv, (h,), raised)):
            got.append(())
        if s.players[self.me].doubles > 0:
            for x in s.map.partners[h]:
                if fits(x) and not (r13 and self._on_one(h, lv, (h, x), raised)):
                    got.append((x,))
        if s.triples > 0:
            for tri in s.map.tris_at[h]:
                a, b, c = tri
                rest = (b, c) if a == h else (a, c) if b == h else (a, b)
                if fits(rest[0]) and fits(rest[1]) and not (r13 and self._on_one(h, lv, tri, raised)):
                    got.append(rest)
        return got

    def _on_one(self, h: int, lv: int, shape: Sequence[int], raised: frozenset[int]) -> bool:
        """R13: ``shape`` (with ``h`` on level ``lv``), none of it raised first, would lie
        exactly on one tile of its own size."""
        s = self.s
        if s.level[h] != lv or any(x in raised or s.level[x] != lv for x in shape):
            return False
        tops = {s.top[x] for x in shape}
        t = next(iter(tops))
        return len(tops) == 1 and t >= 0 and len(s.tiles[t]) == len(shape)


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

    def part_arrivals(self, gi: int) -> list[int]:
        """Per free part of group ``gi`` (as ``parts``), the fewest AP one paid arrival of a
        developer of his into it costs (R26, R27): at least 1; with no land tile left to change
        paths, the cheapest move of one of his developers from outside the part onto one of its
        hexes (inside it he then climbs for free), or entry onto one of its border or rim hexes
        (any other way — an entry elsewhere and a move in, or an exit first — costs 2 at
        least). Paths only lengthen during his turn (palaces and irrigation block; no tile
        lifts or changes a hex), so each is a lower bound."""
        parts = self.parts(gi)
        if self.land_tiles:
            return [1] * len(parts)
        s, me = self.s, self.me
        off = s.players[me].developers_off > 0
        out = []
        for _, _, hexes in parts:
            best = 2  # an exit or entry elsewhere and a move in, at least
            for h, costs in self._move_costs().items():
                if h not in hexes:
                    best = min([best, *(c for x, c in costs.items() if x in hexes)])
            if off:
                for h in hexes:
                    e = s.map.border_cost[h] or s.map.rim_cost[h]
                    if e:
                        best = min(best, e)
            out.append(max(1, best))
        return out

    def _move_costs(self) -> dict[int, dict[int, int]]:
        """Per developer of his (his hex), the cheapest cost of a move to each hex within the
        view's AP (``core.paths``), worked out once."""
        if self._moves is None:
            from core.paths import move_costs

            s, me = self.s, self.me
            self._moves = {h: move_costs(h, me, s.level, s.terrain, s.dev, s.palace, s.map.nbrs, self.ap)
                           for h in s.map.hexes if s.dev[h] == me}
        return self._moves

    @staticmethod
    def _axial(h: int) -> tuple[int, int, int]:
        got = _CUBE.get(h)
        if got is None:
            from core.hexmap import to_axial

            q, r = to_axial(h)
            got = _CUBE[h] = (q, r, -q - r)
        return got


_CUBE: dict[int, tuple[int, int, int]] = {}  # hex id -> cube coordinates (ids are map-free)


def component(start: int, hexes: set[int], nbrs: Sequence[Sequence[int]]) -> set[int]:
    """The hexes of ``hexes`` edge-connected to ``start`` (``start`` included)."""
    seen, stack = {start}, [start]
    while stack:
        for n in nbrs[stack.pop()]:
            if n in hexes and n not in seen:
                seen.add(n)
                stack.append(n)
    return seen


def largest_part(hexes: set[int], nbrs: Sequence[Sequence[int]]) -> int:
    """Size of the largest edge-connected part of ``hexes``."""
    left, best = set(hexes), 0
    while left:
        part = component(next(iter(left)), left, nbrs)
        left -= part
        best = max(best, len(part))
    return best



@lru_cache(maxsize=4096)
def links(ap: int, members: tuple[tuple[int, ...], ...]) -> tuple[dict[int, int], ...]:
    """For each group (its hexes), the other groups within reach of ``ap − 1`` tiles: {group:
    new village hexes needed to join it} (shortest chain over groups, ``distance − 1`` per
    hop). Cached on the groups' hexes, which a search meets again at many nodes; read only."""
    n = len(members)
    near: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    axial = [[View._axial(h) for h in m] for m in members]
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
    return tuple(out)


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
