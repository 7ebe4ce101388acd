"""Whole-turn lines that enclose a pond for the mover: the CP-SAT engine's longest recipes.

Enclosing a pond (R37, R38) is the biggest score of a busy board, and it takes a chain of
actions no one- or two-step recipe holds: first win the highest position on the ring (R24,
R25: a developer moves or enters onto a ring hex, perhaps onto a tile laid to lift it), then
cover every bare neighbour with land tiles lying flat (R12; the last one encloses the pond
and scores it), perhaps after irrigating some of them to enlarge the pond (R37, 3 more per
space). Where no walk wins the ring first, the covering tiles go first and the walk before
the last one: the tiles may open its path (R27). Ponds grown, or made new, by a connected set
of irrigations first (``_grown_ponds``) are held and covered on their grown ring, which may
lie where his developers walk for free though the old ring did not. The covering tiles are found by a search for
the fewest that fit the AP (iterative deepening over the flat singles, pairs and triangles
through the bare hex with the fewest of them, R10–R12; the engine decides legality, R13–R15),
capped at ``NODES`` per search. The engine checks every step as it is pushed; these lines are
only the incumbent's source, never the proof (``cpsat.py``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from analysis.solver.bound_ponds import pond_growths
from analysis.solver.common import Deadline
from core.actions import RICE, VILLAGE, Action, Enter, Irrigate, Move, Tile, Token
from core.errors import IllegalAction
from core.groups import all_ponds, pond_at, pond_ring
from core.legality import ring_holder
from core.movegen import tile_placements
from core.paths import move_costs
from core.state import GameState

NODES = 4000  # cover-search nodes per pond and start, so that one pond cannot eat the limit
GROWN = 24  # sets of irrigations tried per pond, every size in turn (``_irrigation_sets``)


def pond_lines(s: GameState, budget: int, deadline: Deadline | None = None,
               held: bool = True, grown: bool = True) -> Iterator[tuple[list[Action], bool]]:
    """(actions, planned after the token) for lines that enclose a pond, with ``budget`` AP
    (the token's included where it is still playable, R7: the line is then legal after it,
    and the CP-SAT model decides from its cost whether to spend it). ``s`` is left as it was.
    ``held``: the ponds as they are, held and covered (quick); ``grown``: ponds grown or made
    by irrigation first (most of the time)."""
    c = s.copy()
    token = budget > c.turn.ap and c.is_legal(Token())
    if token:
        c.push(Token())
    for pond in all_ponds(c.map.hexes, c.irrigated, c.map.nbrs) if held else ():
        if deadline is not None and deadline.over():
            return
        for line in _held_lines(c, pond[0], deadline):
            yield line, token
    if not grown:
        return
    for line in _grown_ponds(c, deadline):
        yield line, token
    for line in _enclosing_irrigations(c):
        yield line, token


def as_played(line: list[Action], token: bool) -> list[Action]:
    """A line of ``pond_lines`` as the mover plays it: after the token where it was planned
    after it (R7)."""
    return [Token(), *line] if token else line


def _grown_ponds(c: GameState, deadline: Deadline | None) -> Iterator[list[Action]]:
    """Ponds enlarged first by irrigating a connected set of bare hexes next to them (R37: 3
    more points a space), and new ponds made the same way from one bare hex, sets of every
    size in turn, the largest first (``_irrigation_sets``), then held and covered as above:
    the ring that matters is the grown pond's, which a developer may reach where the old ring
    was out of reach (planner-66@268: five
    irrigations, a free walk onto the grown ring and one tile, 18 points, which growing the
    pond one hex at a time, ``_covers``, never reached). At most ``GROWN`` sets a pond, and as
    many new ponds in all, each cover search capped as elsewhere."""
    supply = min(c.irrigation_supply, c.turn.ap - 1)
    if supply < 1:
        return
    nbrs, level, irr = c.map.nbrs, c.level, c.irrigated
    ok = {h for h in c.map.central if c.is_legal(Irrigate(h))}
    tries: list[list[list[int]]] = []  # per pond (the new ones last, together): irrigations
    # The largest ponds first: they score the most (R38), and the caller may stop at a line
    # that meets its bound (full-turn-77: the 24 points of its larger pond came 16th of 20).
    for pond in sorted(all_ponds(c.map.hexes, irr, nbrs), key=len, reverse=True):
        sets = pond_growths(set(pond), ok.__contains__, nbrs, supply, level, irr, c.turn.ap)
        tries.append([_outward(set(pond), e, nbrs) for e in _irrigation_sets(c, set(pond), sets)])
    seen: set[frozenset[int]] = set()
    fresh: list[frozenset[int]] = []
    for h in sorted(ok):
        if not any(irr[n] for n in nbrs[h]):
            seen.add(frozenset((h,)))
            fresh += [e | {h} for e in pond_growths({h}, ok.__contains__, nbrs, supply - 1, level,
                                                    irr, c.turn.ap - 1, seen)]
    tries.append([_outward(set(), e, nbrs) for e in _irrigation_sets(c, set(), fresh)])
    for hexes in (x for pond_tries in tries for x in pond_tries):
        if deadline is not None and deadline.over():
            return
        irrs: list[Action] = [Irrigate(h) for h in hexes]
        done = _push_all(c, irrs[:-1])
        if done == len(irrs) - 1:
            ring = pond_ring([*pond_at(hexes[0], c.irrigated, nbrs), hexes[-1]], nbrs)
            if any(c.level[x] == 0 and x != hexes[-1] for x in ring):
                if _push_all(c, irrs[-1:]):
                    yield from ([*irrs, *line] for line in _held_lines(c, hexes[0], deadline, True))
                    c.pop()
            else:
                # The last irrigation encloses it (R38): the walk that wins its ring goes first.
                yield from ([*irrs[:-1], *pre, irrs[-1]] for pre in _holder_steps(c, ring)[:1]
                            if _fits(c, [*pre, irrs[-1]]))
        for _ in range(done):
            c.pop()


def _irrigation_sets(c: GameState, pond: set[int], sets: list[frozenset[int]]
                     ) -> list[frozenset[int]]:
    """The ``GROWN`` non-empty sets of irrigations tried for ``pond``: the sizes in turn, the
    largest first (each size's set whose grown pond leaves the fewest bare neighbours, then
    each size's second, ...). Largest first alone filled every place with sets of four or more
    irrigations, which leave too few AP to win the ring and cover it (planner-50@169: 15
    points with three, where they left 6). A set whose irrigations and the tiles its bare
    neighbours need (a tile covers three at most, R12) exceed the AP can never be enclosed
    (R38) and is not tried."""
    nbrs, level, irr = c.map.nbrs, c.level, c.irrigated
    ap = c.turn.ap

    def bare(e: frozenset[int]) -> int:
        q = pond | e
        return sum(1 for n in {n for h in q for n in nbrs[h]} - q if level[n] == 0 and not irr[n])

    by_size: dict[int, list[tuple[int, frozenset[int]]]] = {}
    for e in sets:
        b = bare(e)
        if e and len(e) + -(-b // 3) <= ap:
            by_size.setdefault(len(e), []).append((b, e))
    ranked = [sorted(by_size[k], key=lambda x: x[0]) for k in sorted(by_size, reverse=True)]
    out: list[frozenset[int]] = []
    for i in range(max(map(len, ranked), default=0)):
        out += [r[i][1] for r in ranked if i < len(r)]
    return out[:GROWN]


def _outward(pond: set[int], extra: frozenset[int], nbrs: list[tuple[int, ...]]) -> list[int]:
    """The hexes of ``extra`` in an order where each one touches the pond grown so far (from
    its lowest hex, for a new pond), so that every irrigation joins it (R37) and none makes a
    pond of its own."""
    order: list[int] = []
    left, have = set(extra), set(pond)
    while left:
        h = min(x for x in left if not have or any(n in have for n in nbrs[x]))
        order.append(h)
        left.discard(h)
        have.add(h)
    return order


def _held_lines(c: GameState, seed: int, deadline: Deadline | None, first: bool = False
                ) -> Iterator[list[Action]]:
    """Lines that win the highest position on the ring of the pond holding ``seed``
    (``_holder_steps``) and then cover its bare neighbours: every cover ``_covers`` finds, or,
    with ``first`` (a grown pond, its irrigations spent), the first the capped search finds;
    where no walk wins the ring first, the tiles first (``_late_holder``)."""
    ring = pond_ring(pond_at(seed, c.irrigated, c.map.nbrs), c.map.nbrs)
    bare = [h for h in ring if c.level[h] == 0]
    if not bare or -(-len(bare) // 3) > c.turn.ap:
        return
    found = False
    for pre in _holder_steps(c, ring):
        if deadline is not None and deadline.over():
            return
        done = _push_all(c, pre)
        if done == len(pre):
            if first:
                one = _cover_search(c, seed, deadline, [0])
                covers: Iterable[list[Action]] = [] if one is None else [one]
            else:
                covers = _covers(c, seed, deadline)
            for cover in covers:
                found = True
                yield [*pre, *cover]
        for _ in range(done):
            c.pop()
        if found and first:
            return
    if not found and ring_holder(c, ring) != c.to_move:
        yield from _late_holder(c, seed, ring, deadline)


def _enclosing_irrigations(c: GameState) -> Iterator[list[Action]]:
    """An irrigation whose pond has no bare neighbour once it is made (R37, R38: it scores at
    once, a new pond among land tiles or an enclosed pond grown by one space), after the walk
    that wins its ring where he does not hold it: the irrigation alone would hand the points to
    the holder, and a move alone scores nothing, so no search that keeps only steps that pay
    finds the pair (full-turn-24: "move G11 I10; irrigate J9")."""
    nbrs, level, irrigated = c.map.nbrs, c.level, c.irrigated
    for h in c.map.central:
        if level[h] or irrigated[h] or any(level[n] == 0 and not irrigated[n] for n in nbrs[h]):
            continue  # a bare neighbour of its own keeps the pond open (R38)
        a = Irrigate(h)
        try:
            c.push(a)  # the engine decides legality (R37, R8)
        except IllegalAction:
            continue
        ring = pond_ring(pond_at(h, irrigated, nbrs), nbrs)
        enclosed = all(level[x] > 0 for x in ring)
        c.pop()
        if enclosed:
            yield from ([*pre, a] for pre in _holder_steps(c, ring) if pre)


def _late_holder(c: GameState, seed: int, ring: list[int], deadline: Deadline | None
                 ) -> Iterator[list[Action]]:
    """Cover tiles first, then the walk onto the ring, then the enclosing tile: the tiles may
    open the path (R27) or give a ring hex to stand on."""
    nodes = [0]
    cover = _cover_search(c, seed, deadline, nodes)
    if not cover:
        return
    for i, last in enumerate(cover):
        rest = cover[:i] + cover[i + 1:]
        done = _push_all(c, rest)
        if done == len(rest):
            for pre in _holder_steps(c, ring):
                tail = [*pre, last]
                ok = _push_all(c, tail)
                for _ in range(ok):
                    c.pop()
                if pre and ok == len(tail):
                    yield [*rest, *tail]
                    break
        for _ in range(done):
            c.pop()


def _fits(c: GameState, line: list[Action]) -> bool:
    """Whether every action of ``line`` is legal in turn from here (``c`` is left as it was)."""
    done = _push_all(c, line)
    for _ in range(done):
        c.pop()
    return done == len(line)


def _push_all(c: GameState, line: list[Action]) -> int:
    done = 0
    for a in line:
        try:
            c.push(a)
        except IllegalAction:
            break
        done += 1
    return done


def _holder_steps(c: GameState, ring: list[int]) -> list[list[Action]]:
    """Cheap ways for the mover to hold the highest position on the ring (R24, R25): none if
    he holds it; else developers moving or entering onto ring hexes (R26, R27), the one that
    raises his key most first, perhaps after a tile lifts ring hexes one level (R12) — the
    cheapest few."""
    me = c.to_move
    if ring_holder(c, ring) == me:
        return [[]]
    ring_set = set(ring)
    found: list[tuple[int, list[Action]]] = []
    start = c.turn.ap

    def key() -> tuple[int, ...]:
        return tuple(sorted((c.level[h] for h in ring if c.dev[h] == me), reverse=True))

    def arrivals() -> Iterator[Action]:
        """Moves and entries onto free land ring hexes that the AP left may pay for (R26,
        R27); the engine has the last word when they are pushed."""
        free = [h for h in ring if c.level[h] > 0 and c.dev[h] < 0 and not c.palace[h]]
        for src in c.map.hexes:
            if c.dev[src] == me:
                costs = move_costs(src, me, c.level, c.terrain, c.dev, c.palace, c.map.nbrs,
                                   c.turn.ap)
                yield from (Move(src, h) for h in free if h in costs)
        if c.players[me].developers_off > 0:
            yield from (Enter(h) for h in free if c.map.edge_cost(h))

    def greedy(prefix: list[Action], steps: int) -> None:
        """Every arrival that makes him the holder; where none does, the one that raises his
        key most (the cheapest of those), and again, up to ``steps``."""
        line = list(prefix)
        pushed = 0
        for _ in range(steps):
            best: tuple[tuple[int, ...], int, Action] | None = None
            done = False
            for a in arrivals():
                before = c.turn.ap
                try:
                    c.push(a)
                except IllegalAction:
                    continue
                k, spent = key(), before - c.turn.ap
                if ring_holder(c, ring) == me:
                    found.append((start - c.turn.ap, [*line, a]))
                    done = True
                c.pop()
                if best is None or (k, -spent) > (best[0], -best[1]):
                    best = (k, spent, a)
            if done or best is None:
                break
            c.push(best[2])
            pushed += 1
            line.append(best[2])
        for _ in range(pushed):
            c.pop()

    greedy([], 3)
    if found:
        return _cheapest(found)
    for tile, _ in list(tile_placements(c, c.turn.ap - 1)):
        if not ring_set & set(tile.hexes) or any(c.level[h] == 0 for h in tile.hexes):
            continue  # a lift raises a ring hex that is land already
        try:
            c.push(tile)
        except IllegalAction:
            continue
        greedy([tile], 2)
        c.pop()
    return _cheapest(found)


def _cheapest(found: list[tuple[int, list[Action]]]) -> list[list[Action]]:
    """The four cheapest distinct lines of (AP, line) pairs."""
    found.sort(key=lambda f: (f[0], len(f[1])))
    out: list[list[Action]] = []
    for _, line in found:
        if line not in out:
            out.append(line)
        if len(out) >= 4:
            break
    return out


def _covers(c: GameState, seed: int, deadline: Deadline | None) -> Iterator[list[Action]]:
    """Lines of flat tiles that cover every bare neighbour of the pond holding ``seed`` (R12,
    R38), the fewest tiles first (iterative deepening); and with irrigations of bare
    neighbours first where the AP allow (R37: each one adds a space, 3 more points)."""
    nodes = [0]
    best = _cover_search(c, seed, deadline, nodes)
    if best is None:
        return
    yield best
    # Enlarged ponds: irrigate bare neighbours one by one while a cover still fits.
    line: list[Action] = []
    while c.irrigation_supply > 0 and c.turn.ap > 1:
        pond = pond_at(seed, c.irrigated, c.map.nbrs)
        grown = None
        for h in pond_ring(pond, c.map.nbrs):
            if c.level[h] != 0:
                continue
            try:
                c.push(Irrigate(h))
            except IllegalAction:
                continue
            nodes[0] = 0
            cover = _cover_search(c, seed, deadline, nodes)
            if cover is not None:
                grown = h
                yield [*line, Irrigate(h), *cover]
                break
            c.pop()
        if grown is None:
            break
        line.append(Irrigate(grown))
    for _ in line:
        c.pop()


def _cover_search(c: GameState, seed: int, deadline: Deadline | None, nodes: list[int]
                  ) -> list[Action] | None:
    """The fewest flat tiles, in the AP left, covering the pond's bare neighbours (the last
    one encloses it), or None."""
    for depth in range(1, c.turn.ap + 1):
        line: list[Action] = []
        if _dfs(c, seed, depth, line, deadline, nodes):
            return line
        if nodes[0] > NODES:
            return None
    return None


def _shapes_through(c: GameState, h: int) -> list[tuple[int, ...]]:
    """The single, pairs and triangles of the map through ``h`` (the bound's per-map cache)."""
    tris, pairs = c.map.tris_at, c.map.partners
    return [(h,), *((h, b) for b in pairs[h]), *tris[h]]


def _flat_shapes(c: GameState, h: int) -> list[tuple[int, ...]]:
    """The shapes through ``h`` that may lie flat on bare hexes (R11, R12) and that the mover's
    supplies hold (R10)."""
    p = c.players[c.to_move]
    have = (False, p.rice + p.villages > 0, p.doubles > 0, c.triples > 0)
    level, irrigated, dev = c.level, c.irrigated, c.dev
    return [shape for shape in _shapes_through(c, h)
            if have[len(shape)] and not any(level[x] or irrigated[x] or dev[x] >= 0 for x in shape)]


def _layouts(c: GameState, shape: tuple[int, ...]) -> int:
    """How many tiles ``_flat_tiles`` makes of ``shape``: its terrain layouts (R10)."""
    if len(shape) > 1:
        return len(shape)
    p = c.players[c.to_move]
    return (p.rice > 0) + (p.villages > 0)


def _flat_tiles(c: GameState, h: int, shapes: list[tuple[int, ...]]) -> list[Tile]:
    """The tiles of ``shapes`` (``_flat_shapes`` of ``h``) in every terrain layout; ``_dfs``
    searches the first layout of each shape that the engine accepts (R13–R15)."""
    p = c.players[c.to_move]
    out: list[Tile] = []
    for shape in shapes:
        layouts: list[tuple[tuple[int, int], ...]] = []
        if len(shape) == 1:
            layouts = [((h, RICE),)] if p.rice else []
            if p.villages:
                layouts.append(((h, VILLAGE),))
        else:
            layouts = [tuple((x, VILLAGE if x == v else RICE) for x in shape) for v in shape]
        out.extend(Tile(cells) for cells in layouts)
    return out


def _dfs(c: GameState, seed: int, depth: int, line: list[Action], deadline: Deadline | None,
         nodes: list[int]) -> bool:
    ring = pond_ring(pond_at(seed, c.irrigated, c.map.nbrs), c.map.nbrs)
    bare = {h for h in ring if c.level[h] == 0}
    if not bare:
        return True
    if depth <= 0 or -(-len(bare) // 3) > depth or nodes[0] > NODES:
        return False
    if deadline is not None and deadline.over():
        return False
    # The bare hex with the fewest tiles through it, counted without making them.
    by_hex = {h: _flat_shapes(c, h) for h in bare}
    h = min(bare, key=lambda x: sum(_layouts(c, shape) for shape in by_hex[x]))
    cands = sorted(_flat_tiles(c, h, by_hex[h]), key=lambda t: -sum(1 for x in t.hexes if x in bare))
    tried: set[tuple[int, ...]] = set()
    for tile in cands:
        if tuple(sorted(tile.hexes)) in tried:
            continue  # another layout of a shape already searched: the cover is the same
        nodes[0] += 1
        try:
            c.push(tile)
        except IllegalAction:
            continue
        tried.add(tuple(sorted(tile.hexes)))
        line.append(tile)
        if _dfs(c, seed, depth - 1, line, deadline, nodes):
            c.pop()
            return True
        line.pop()
        c.pop()
    return False
