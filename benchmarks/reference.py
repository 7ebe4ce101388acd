"""Plain reference implementations: the oracles of tests/test_fastpaths.py and the baselines
every fast path is benchmarked against in the same run.

Each one follows the rule text as literally as possible and is deliberately unoptimised:
rank keys as full sorted tuples (R24), village groups and developer paths through networkx
graphs (R20, R27).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

import networkx as nx

from core.actions import (
    RICE,
    VILLAGE,
    Action,
    Draw,
    End,
    Enter,
    Exit,
    Irrigate,
    Move,
    Palace,
    Tile,
    Token,
)
from core.state import GameState


# ----------------------------------------------------------------------------- ranking
def rank_keys_ref(devs: Iterable[tuple[int, int]], n_players: int) -> list[tuple[int, ...]]:
    """R24: each player's levels, highest first, as a tuple (tuples compare like R24 says)."""
    levels: list[list[int]] = [[] for _ in range(n_players)]
    for level, player in devs:
        levels[player].append(level)
    return [tuple(sorted(ls, reverse=True)) for ls in levels]


def highest_ref(devs: Sequence[tuple[int, int]], n_players: int = 4) -> int:
    """R25: the player whose key is strictly greater than every other present key, or -1."""
    keys = rank_keys_ref(devs, n_players)
    present = [(k, p) for p, k in enumerate(keys) if k]
    for k, p in present:
        if all(k > other for other, q in present if q != p):
            return p
    return -1


def highest_at_ref(hexes: Sequence[int], level: Sequence[int], dev: Sequence[int]) -> int:
    return highest_ref([(level[h], dev[h]) for h in hexes if dev[h] >= 0])


def first_second_ref(keys: Sequence[Sequence[int]]) -> tuple[list[int], list[int]]:
    """R41: the best present key shared by all holding it, then the next distinct key."""
    distinct = sorted({tuple(k) for k in keys if k}, reverse=True)
    first = [p for p, k in enumerate(keys) if distinct and k and tuple(k) == distinct[0]]
    second = [p for p, k in enumerate(keys) if len(distinct) > 1 and k and tuple(k) == distinct[1]]
    return first, second


# ----------------------------------------------------------------------------- groups
def village_partition_ref(
    hexes: Iterable[int], terrain: Sequence[int], nbrs: Sequence[Sequence[int]]
) -> set[frozenset[int]]:
    """R20: connected components of the graph of village hexes and their village neighbours."""
    g = nx.Graph()
    villages = [h for h in hexes if terrain[h] == VILLAGE]
    g.add_nodes_from(villages)
    g.add_edges_from((h, n) for h in villages for n in nbrs[h] if terrain[n] == VILLAGE)
    return {frozenset(c) for c in nx.connected_components(g)}


# ----------------------------------------------------------------------------- paths
def move_costs_ref(
    src: int,
    player: int,
    level: Sequence[int],
    terrain: Sequence[int],
    dev: Sequence[int],
    palace: Sequence[int],
    nbrs: Sequence[Sequence[int]],
    limit: int = 99,
) -> dict[int, int]:
    """R27 by Dijkstra: a directed graph of steps into passable land hexes, weight 1 for a
    rice/village change, 0 otherwise."""
    g = nx.DiGraph()
    g.add_node(src)
    for h in range(len(level)):
        if h != src and (level[h] == 0 or palace[h] or (dev[h] >= 0 and dev[h] != player)):
            continue
        for n in nbrs[h]:
            if level[n] == 0 or palace[n] or (dev[n] >= 0 and dev[n] != player):
                continue
            g.add_edge(h, n, weight=int(terrain[n] != terrain[h]))
    dist = nx.single_source_dijkstra_path_length(g, src, cutoff=limit, weight="weight")
    return {h: int(d) for h, d in dist.items()}


# ----------------------------------------------------------------------------- generation
FESTIVAL_KINDS = frozenset({"festival", "bid", "pass", "agree"})


def candidate_actions(s: GameState) -> Iterator[Action]:
    """Every turn action that could conceivably be legal, festival decisions left out: all
    shapes on all mutually adjacent hexes, every hex for entries / palaces / irrigation, every
    (developer, hex) pair for moves."""
    m = s.map
    me = s.to_move
    on = m.hexes
    for h in on:
        yield Tile(((h, RICE),))
        yield Tile(((h, VILLAGE),))
        for n in m.nbrs[h]:
            if n > h:
                yield Tile(((h, VILLAGE), (n, RICE)))
                yield Tile(((n, VILLAGE), (h, RICE)))
                for o in m.nbrs[n]:
                    if o > n and o in m.nbrs[h]:
                        yield Tile(((h, VILLAGE), (n, RICE), (o, RICE)))
                        yield Tile(((n, VILLAGE), (h, RICE), (o, RICE)))
                        yield Tile(((o, VILLAGE), (h, RICE), (n, RICE)))
    yield Token()
    yield Draw(True)
    yield Draw(False)
    mine = [h for h in on if s.dev[h] == me]
    for h in on:
        yield Enter(h)
        yield Irrigate(h)
        if s.terrain[h] == VILLAGE:
            for v in (2, 4, 6, 8, 10):
                yield Palace(h, v)
        for src in mine:
            if src != h:
                yield Move(src, h)
    for h in mine:
        yield Exit(h)
    yield End()


def legal_actions_ref(s: GameState) -> set[Action]:
    """The legal turn actions by brute force: every candidate tried with ``push`` / ``pop``,
    on a copy (none of the path costs ``legal_actions`` left on ``s`` for ``push`` to find)."""
    c = s.copy()
    return {a for a in candidate_actions(c) if c.is_legal(a)}


# ----------------------------------------------------------------------------- bound checks
def city_check_ref(s: GameState, palace: int) -> tuple[list[int], list[list[int]]]:
    """``bound_tiles.check_city`` by brute force: every sequence of at most two tile placements
    anywhere on the board (the mover's developers lifted off, R11; any AP, R14), each pushed
    through the engine; per count of tiles k, the most hexes of the palace's group (R21) and,
    per count j of new palaces, half the sum of the j largest values (R28) that village groups
    on the city's hexes take after some prefix of the sequence (parts cut off it, R23)."""
    from core.errors import IllegalAction
    from core.legality import PALACE_VALUES
    from core.movegen import tile_placements

    c = s.copy()
    for h in c.map.hexes:
        if c.dev[h] == c.to_move:
            c.dev[h] = -1
    c.turn.ap = 99
    g = c.groups()
    home = set(g.members[g.group_of(palace)])
    size = [0, 0, 0]
    parts = [[0] * 4 for _ in range(3)]

    def look() -> tuple[int, list[int]]:
        gg = c.groups()
        values = []
        for gi, m in enumerate(gg.members):
            if gg.palace[gi] < 0 and home & set(m):
                fit = [v for v in PALACE_VALUES if v <= len(m) and c.palace_supply[v] > 0]
                if fit:
                    values.append(max(fit))
        return len(gg.members[gg.group_of(palace)]), values

    def seen(k: int, trail: list[tuple[int, list[int]]]) -> None:
        ranked = sorted((v for _, vs in trail for v in vs), reverse=True)
        for kk in range(k, 3):
            size[kk] = max(size[kk], trail[-1][0])
            for j in range(1, 4):
                parts[kk][j] = max(parts[kk][j], sum(ranked[:j]) // 2)

    start = look()
    seen(0, [start])
    for t1, _ in list(tile_placements(c, 99)):
        try:
            c.push(t1)
        except IllegalAction:
            continue
        one = look()
        seen(1, [start, one])
        for t2, _ in list(tile_placements(c, 99)):
            try:
                c.push(t2)
            except IllegalAction:
                continue
            seen(2, [start, one, look()])
            c.pop()
        c.pop()
    return size, parts


# ----------------------------------------------------------------------------- free moves
def unsettled_ref(s: GameState, a: Action, pending: frozenset[tuple[int, int]],
                  owed: bool) -> frozenset[tuple[int, int]] | None:
    """``freemoves.unsettled`` telling only what needs no board after ``a`` (the hex a free
    move left taken, an exit of it, a tile on it or across every free path, a palace in its
    group): a tile or an irrigation, and any action while a tile is owed (R8), are pushed to
    be told (``interacts_after_ref``)."""
    from analysis.solver.freemoves import _path_avoiding

    later = isinstance(a, (Tile, Irrigate)) or (owed and not isinstance(a, Tile))
    rest = []
    for x, y in pending:
        if isinstance(a, Tile):
            told = x in a.hexes or not _path_avoiding(s, x, y, frozenset(a.hexes))
        elif isinstance(a, Move):
            told = a.dst == x
        elif isinstance(a, Enter):
            told = a.hex == x
        elif isinstance(a, Exit):
            told = a.hex == y
        elif isinstance(a, Palace):
            label = s.groups().label
            told = label[a.hex] in (label[x], label[y])
        else:
            told = False
        if told:
            continue
        if not later:
            return None
        rest.append((x, y))
    return frozenset(rest)


def interacts_after_ref(s: GameState, a: Action, rest: frozenset[tuple[int, int]],
                        owed: bool) -> bool:
    """On the board after ``a``: it encloses a pond with ``x`` or ``y`` on its ring (a tile: a
    ring hex it laid on bare ground, now level 1; an irrigation: the pond it joined), or a tile
    owed could be placed only on the hex ``x`` the free move left (R8, R38)."""
    from core.groups import all_ponds, pond_ring

    nbrs = s.map.nbrs
    enclosed: list[tuple[list[int], list[int]]] = []
    if isinstance(a, (Tile, Irrigate)):  # nothing else encloses a pond
        rings = [(p, pond_ring(p, nbrs)) for p in all_ponds(s.map.hexes, s.irrigated, nbrs)]
        enclosed = [(p, r) for p, r in rings if all(s.level[h] > 0 for h in r)]
    for x, y in rest:
        if isinstance(a, Tile):
            laid = {h for h in a.hexes if s.level[h] == 1}
            hit = any((x in r or y in r) and laid & set(r) for _, r in enclosed)
        elif isinstance(a, Irrigate):
            hit = any((x in r or y in r) and a.hex in p for p, r in enclosed)
        else:
            hit = False
        placeable = not owed or isinstance(a, Tile) or s.find_placement(
            s.turn.ap + s.token_bonus(), frozenset((x,))) is not None
        if not hit and placeable:
            return False
    return True


# ----------------------------------------------------------------------------- pond covers
def disjoint_cover_ref(bare: set[int], budget: int, supply: list[int],
                       shapes: dict[int, list[tuple[frozenset[int], int, int]]]
                       ) -> tuple[int, int] | None:
    """``bound_ponds._disjoint_cover`` written plainly: every set of disjoint flat shapes (of
    ``shapes``, R12; one tile of a kind each, ``supply``, R10) that covers ``bare`` within
    ``budget`` AP, tiles plus overhang (R14), hexes as frozensets, no node limit, and a branch
    stopped only where one tile more would not fit. (fewest tiles, fewest overhang) over
    them, each on its own; None where none fits."""
    best = [99, 99]

    def dfs(left: frozenset[int], used: frozenset[int], tiles: int, rim: int) -> None:
        if not left:
            best[0], best[1] = min(best[0], tiles), min(best[1], rim)
            return
        if tiles + 1 + rim > budget:
            return
        h = min(left)  # some tile covers it: try each
        for shape, kind, extra in shapes[h]:
            if supply[kind] and used.isdisjoint(shape) and tiles + 1 + rim + extra <= budget:
                supply[kind] -= 1
                dfs(left - shape, used | shape, tiles + 1, rim + extra)
                supply[kind] += 1

    dfs(frozenset(bare), frozenset(), 0, 0)
    return None if best[0] == 99 else (best[0], best[1])
