"""Legal action generation: every tile placement, entry, move, exit, palace, irrigation, draw,
token and end the rules allow the player to act now, lazily and without duplicates.

The tile obligation (R8) is honoured exactly: while a tile is still owed and one could be placed
within the AP left (action token included), an action after which none could be placed any more
is not generated — the same rule ``GameState.push`` enforces. Two cheap witnesses usually settle
it; otherwise the action is tried on the board.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

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
from core.hexmap import CENTRAL, MAPS_KEPT, HexMap
from core.legality import PALACE_VALUES, joins_two_cities, ring_holder

if TYPE_CHECKING:
    from core.state import GameState


@functools.lru_cache(maxsize=MAPS_KEPT)  # a few maps held, not every one ever met
def _shapes(m: HexMap) -> tuple[list[tuple[int, Tile, Tile]],
                                list[tuple[int, int, Tile, Tile]],
                                list[tuple[int, int, int, Tile, Tile, Tile]]]:
    """Every single, pair and triangle of the map with its Tile values built once (actions are
    immutable, so generation hands out the same objects instead of building new ones)."""
    singles = [(h, Tile(((h, RICE),)), Tile(((h, VILLAGE),))) for h in m.central]
    pairs = [(a, b, Tile(((a, VILLAGE), (b, RICE))), Tile(((b, VILLAGE), (a, RICE))))
             for a, b in m.pairs]
    tris = [(a, b, c, Tile(((a, VILLAGE), (b, RICE), (c, RICE))),
             Tile(((b, VILLAGE), (a, RICE), (c, RICE))), Tile(((c, VILLAGE), (a, RICE), (b, RICE))))
            for a, b, c in m.triangles]
    return singles, pairs, tris


def _near_two_cities(s: GameState) -> set[int]:
    """Hexes next to two different cities: only a village cell there can join two cities (R15),
    so ``joins_two_cities`` is asked about these alone (cached with the board's groups)."""
    return s.groups().near_two_cities(s.map.nbrs)


def tile_placements(s: GameState, budget: int, avoid: frozenset[int] = frozenset(),
                    near: set[int] | None = None) -> Iterator[tuple[Tile, int]]:
    """(tile, AP cost) for every legal placement costing ≤ budget (R10–R15), singles first;
    with ``near``, only those covering one of its hexes at least."""
    if budget < 1:
        return
    m = s.map
    p = s.players[s.to_move]
    level, dev, pal, irr, top, tiles = s.level, s.dev, s.palace, s.irrigated, s.top, s.tiles
    kind = m.kind
    singles, pairs, tris = _shapes(m) if near is None else _shapes_near(m, frozenset(near))
    risky: set[int] | None = None  # computed at the first village cell that needs it
    # A hex is free for a tile unless irrigated, carrying a developer or a palace (R11).
    if p.rice > 0 or p.villages > 0:
        for h, rice, village in singles:
            if irr[h] or dev[h] >= 0 or pal[h] or h in avoid:
                continue
            t = top[h]
            if t >= 0 and len(tiles[t]) == 1:
                continue  # R13
            if p.rice > 0:
                yield rice, 1
            if p.villages > 0:
                if risky is None:
                    risky = _near_two_cities(s)
                if h not in risky or not joins_two_cities(s, [h], {h}):
                    yield village, 1
    if p.doubles > 0:
        for a, b, va, vb in pairs:
            if (irr[a] or dev[a] >= 0 or pal[a] or irr[b] or dev[b] >= 0 or pal[b]
                    or level[a] != level[b] or a in avoid or b in avoid):
                continue
            t = top[a]
            if t >= 0 and t == top[b] and len(tiles[t]) == 2:
                continue  # R13
            cost = 1 + (kind[a] != CENTRAL and level[a] == 0) + (kind[b] != CENTRAL and level[b] == 0)
            if cost > budget:
                continue
            if risky is None:
                risky = _near_two_cities(s)
            if a not in risky or not joins_two_cities(s, [a], {a, b}):
                yield va, cost
            if b not in risky or not joins_two_cities(s, [b], {a, b}):
                yield vb, cost
    if s.triples > 0:
        for a, b, c, va, vb, vc in tris:
            if (irr[a] or dev[a] >= 0 or pal[a] or irr[b] or dev[b] >= 0 or pal[b]
                    or irr[c] or dev[c] >= 0 or pal[c] or not (level[a] == level[b] == level[c])
                    or a in avoid or b in avoid or c in avoid):
                continue
            t = top[a]
            if t >= 0 and t == top[b] == top[c] and len(tiles[t]) == 3:
                continue  # R13
            cost = 1
            if level[a] == 0:
                cost += (kind[a] != CENTRAL) + (kind[b] != CENTRAL) + (kind[c] != CENTRAL)
            if cost > budget:
                continue
            if risky is None:
                risky = _near_two_cities(s)
            if a not in risky or not joins_two_cities(s, [a], {a, b, c}):
                yield va, cost
            if b not in risky or not joins_two_cities(s, [b], {a, b, c}):
                yield vb, cost
            if c not in risky or not joins_two_cities(s, [c], {a, b, c}):
                yield vc, cost


def first_placement(s: GameState, budget: int, avoid: frozenset[int] = frozenset()
                    ) -> tuple[Tile, int] | None:
    """A legal tile placement of cost ≤ budget with its AP cost (R14), or None (R8)."""
    for found in tile_placements(s, budget, avoid):
        return found
    return None


def find_placement(s: GameState, budget: int, avoid: frozenset[int] = frozenset()) -> Tile | None:
    found = first_placement(s, budget, avoid)
    return None if found is None else found[0]


def some_placement(s: GameState, budget: int) -> tuple[Tile, int] | None:
    """Like ``first_placement``, for push's R8 test, where any witness will do: it looks first
    among the shapes over the hexes of the placement it found last (``GameState._r8_hint``).
    Between two actions of a search the board changes in a hex or two, so that placement, or
    one beside it, usually still fits, and the whole board need not be scanned again."""
    hint = s._r8_hint
    if hint is not None:
        for near in tile_placements(s, budget, near=set(hint.hexes)):
            return near
    found = first_placement(s, budget)
    s._r8_hint = None if found is None else found[0]
    return found


def still_placeable(s: GameState, a: Action, before: tuple[Tile, int]) -> bool:
    """After the action ``a`` (not a tile, not the token, done on ``s``), whether a tile can
    still be placed this turn (R8): the placement ``before`` found just before it, where it
    survives ``a`` (``_survives``), else the board searched again."""
    budget = s.turn.ap + s.token_bonus()
    return _survives(a, (before,), budget) or some_placement(s, budget) is not None


def _survives(a: Action, placements: Iterable[tuple[Tile, int]], after: int) -> bool:
    """R8's shortcut, one rule for push (``still_placeable``) and the move generator
    (``_Obligation.keeps``): one of ``placements`` stays legal after the non-tile action
    ``a`` where it costs no more than the ``after`` AP left (R14) and ``a`` took none of its
    hexes (R11: a developer's new hex, an irrigation) and changed no group (a palace may make
    a village cell join two cities, R15); levels, supplies and the token are as they were."""
    if isinstance(a, Palace):
        return False
    taken = a.dst if isinstance(a, Move) else a.hex if isinstance(a, (Enter, Irrigate)) else -1
    return any(c <= after and taken not in tile.hexes for tile, c in placements)


class _Obligation:
    """Decides whether a non-tile action keeps a tile placement possible this turn (R8)."""

    def __init__(self, s: GameState, placements: list[tuple[Tile, int]]) -> None:
        self.s = s
        self.active = s.obligation_pending() and bool(placements)
        self.budget = s.turn.ap + s.token_bonus()
        self.placements = placements

    def keeps(self, a: Action, cost: int) -> bool:
        if not self.active or _survives(a, self.placements, self.budget - cost):
            return True
        if self.budget - cost < 1:
            return False  # every tile costs at least 1 AP (R14)
        return self._placeable_after(a, self.budget - cost)

    def _placeable_after(self, a: Action, after: int) -> bool:
        """Exactly push's R8 test for an action already known legal: could a tile still be
        placed with ``after`` AP once it is done? (``placeable_after``; a palace, which may
        change the groups, R15, is pushed and popped.)"""
        got = placeable_after(self.s, a, after)
        return self.s.is_legal(a) if got is None else got


def placeable_after(s: GameState, a: Action, after: int, avoid: frozenset[int] = frozenset()
                    ) -> bool | None:
    """Whether a tile could still be placed (R8) with ``after`` AP, keeping off ``avoid``,
    once the move, entry, exit or irrigation ``a`` (legal on ``s``) is done; None for any other
    action. Those only make hexes free or not free (R11: a developer, water), so they are
    written into the board for the test and undone, the rest of the state untouched."""
    writes: list[tuple[list[Any], int, Any]]
    if isinstance(a, Move):
        writes = [(s.dev, a.src, -1), (s.dev, a.dst, s.to_move)]
    elif isinstance(a, Enter):
        writes = [(s.dev, a.hex, s.to_move)]
    elif isinstance(a, Exit):
        writes = [(s.dev, a.hex, -1)]
    elif isinstance(a, Irrigate):
        writes = [(s.irrigated, a.hex, True)]
    else:
        return None
    old = [(arr, h, arr[h]) for arr, h, _ in writes]
    try:
        for arr, h, v in writes:
            arr[h] = v
        if avoid:
            return first_placement(s, after, avoid) is not None
        return some_placement(s, after) is not None
    finally:
        for arr, h, v in reversed(old):
            arr[h] = v


@functools.lru_cache(maxsize=4096)  # the R8 hints (``some_placement``) ask the same few often
def _shapes_near(m: HexMap, near: frozenset[int]) -> tuple[list[tuple[int, Tile, Tile]],
                                                     list[tuple[int, int, Tile, Tile]],
                                                     list[tuple[int, int, int, Tile, Tile, Tile]]]:
    """The shapes of ``_shapes`` that cover a hex of ``near``."""
    by_hex = _shapes_by_hex(m)
    singles: dict[int, tuple[int, Tile, Tile]] = {}
    pairs: dict[tuple[int, int], tuple[int, int, Tile, Tile]] = {}
    tris: dict[tuple[int, int, int], tuple[int, int, int, Tile, Tile, Tile]] = {}
    for h in sorted(near):
        one, two, three = by_hex.get(h, ((), (), ()))
        for x in one:
            singles[x[0]] = x
        for y in two:
            pairs[y[0], y[1]] = y
        for z in three:
            tris[z[0], z[1], z[2]] = z
    return list(singles.values()), list(pairs.values()), list(tris.values())


@functools.lru_cache(maxsize=MAPS_KEPT)
def _shapes_by_hex(m: HexMap) -> dict[int, tuple[list[tuple[int, Tile, Tile]],
                                                 list[tuple[int, int, Tile, Tile]],
                                                 list[tuple[int, int, int, Tile, Tile, Tile]]]]:
    singles, pairs, tris = _shapes(m)
    out: dict[int, tuple[list[Any], list[Any], list[Any]]] = {}
    for x in singles:
        out.setdefault(x[0], ([], [], []))[0].append(x)
    for y in pairs:
        for h in y[:2]:
            out.setdefault(h, ([], [], []))[1].append(y)
    for z in tris:
        for h in z[:3]:
            out.setdefault(h, ([], [], []))[2].append(z)
    return out


def legal_actions(s: GameState) -> Iterator[Action]:
    if s.is_terminal():
        return
    if s.festival is not None:
        from core import festival

        yield from festival.legal_decisions(s)
        return
    me = s.to_move
    p = s.players[me]
    m = s.map
    ap = s.turn.ap
    level, dev, pal = s.level, s.dev, s.palace
    placements = list(tile_placements(s, ap + s.token_bonus()))
    for tile, cost in placements:
        if cost <= ap:
            yield tile
    ob = _Obligation(s, placements)
    if not s.turn.token_used and p.tokens > 0:
        yield Token()
    if s.turn.cards_drawn < 2 and ap >= 1:
        if s.face_up is not None and ob.keeps(Draw(True), 1):
            yield Draw(True)
        if (s.deck or s.discard) and ob.keeps(Draw(False), 1):
            yield Draw(False)
    if p.developers_off > 0:
        for h in m.hexes:
            c = m.border_cost[h] or m.rim_cost[h]
            if c and c <= ap and level[h] and dev[h] < 0 and not pal[h]:
                a = Enter(h)
                if ob.keeps(a, c):
                    yield a
    mine = [h for h in m.hexes if dev[h] == me]
    for src in mine:
        costs = s.path_costs(src, ap)  # may hold dearer hexes, worked out with more AP
        for dst, c in costs.items():
            if dst != src and dev[dst] < 0 and c <= ap:
                mv = Move(src, dst)
                if ob.keeps(mv, c):
                    yield mv
    for h in mine:
        c = m.border_cost[h] or m.rim_cost[h]
        if c and c <= ap:
            ex = Exit(h)
            if ob.keeps(ex, c):
                yield ex
    if ap >= 1:
        yield from _palaces(s, ob)
        if s.irrigation_supply > 0:
            irr = s.irrigated
            for h in m.central:
                if not irr[h] and level[h] == 0 and not m.border_cost[h]:
                    ir = Irrigate(h)
                    if ob.keeps(ir, 1):
                        yield ir
    if s.festival is None:
        from core import festival

        yield from festival.openings(s)
    if not ob.active:
        yield End()


def _palaces(s: GameState, ob: _Obligation) -> Iterator[Action]:
    g = s.groups()
    for gi, members in enumerate(g.members):
        for a in group_palaces(s, members, g.palace[gi]):
            if ob.keeps(a, 1):
                yield a


def group_palaces(s: GameState, members: list[int], ph: int) -> list[Palace]:
    """The palace builds or enlargements the rules allow in one village group now (R28, R29),
    before the tile obligation (R8) is asked: ``ph`` its palace hex, -1 for a village."""
    if len(members) < 2 or (ph >= 0 and ph in s.turn.palaces_changed):
        return []  # R28 (a palace needs two hexes at least), R29
    old = s.palace[ph] if ph >= 0 else 0
    supply = s.palace_supply
    values = [v for v in PALACE_VALUES if old < v <= len(members) and supply[v] > 0]
    if not values or ring_holder(s, members) != s.to_move:
        return []
    sites = [ph] if ph >= 0 else [h for h in members if s.dev[h] < 0]
    return [Palace(h, v) for h in sites for v in values]
