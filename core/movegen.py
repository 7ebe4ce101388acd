"""Legal action generation: every tile placement, entry, move, exit, palace, irrigation, draw,
token and end the rules allow the player to act now, lazily and without duplicates.

The tile obligation (R8) is honoured exactly: while a tile is still owed and one could be placed
within the AP left (action token included), an action after which none could be placed any more
is not generated — the same rule ``GameState.push`` enforces. Two cheap witnesses usually settle
it; otherwise the action is tried on the board.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from core.actions import RICE, VILLAGE, Action, Draw, End, Enter, Exit, Irrigate, Move, Palace, Tile, Token
from core.hexmap import CENTRAL
from core.legality import PALACE_VALUES, joins_two_cities, ring_holder
from core.paths import move_costs

if TYPE_CHECKING:
    from core.state import GameState


def tile_placements(s: GameState, budget: int, avoid: frozenset[int] = frozenset()) -> Iterator[tuple[Tile, int]]:
    """(tile, AP cost) for every legal placement costing ≤ budget (R10–R15), singles first."""
    if budget < 1:
        return
    m = s.map
    p = s.players[s.to_move]
    level, dev, pal, irr, top, tiles = s.level, s.dev, s.palace, s.irrigated, s.top, s.tiles
    kind = m.kind

    def free(h: int) -> bool:
        return not irr[h] and dev[h] < 0 and not pal[h] and h not in avoid

    if p.rice > 0 or p.villages > 0:
        for h in m.central:
            if not free(h):
                continue
            t = top[h]
            if t >= 0 and len(tiles[t]) == 1:
                continue  # R13
            if p.rice > 0:
                yield Tile(((h, RICE),)), 1
            if p.villages > 0 and not joins_two_cities(s, [h], {h}):
                yield Tile(((h, VILLAGE),)), 1
    if p.doubles > 0:
        for a, b in m.pairs:
            if not (free(a) and free(b)) or level[a] != level[b]:
                continue
            t = top[a]
            if t >= 0 and t == top[b] and len(tiles[t]) == 2:
                continue  # R13
            cost = 1 + (kind[a] != CENTRAL and level[a] == 0) + (kind[b] != CENTRAL and level[b] == 0)
            if cost > budget:
                continue
            cov = {a, b}
            for v, r in ((a, b), (b, a)):
                if not joins_two_cities(s, [v], cov):
                    yield Tile(((v, VILLAGE), (r, RICE))), cost
    if s.triples > 0:
        for a, b, c in m.triangles:
            if not (free(a) and free(b) and free(c)) or not (level[a] == level[b] == level[c]):
                continue
            t = top[a]
            if t >= 0 and t == top[b] == top[c] and len(tiles[t]) == 3:
                continue  # R13
            cost = 1
            if level[a] == 0:
                cost += (kind[a] != CENTRAL) + (kind[b] != CENTRAL) + (kind[c] != CENTRAL)
            if cost > budget:
                continue
            cov = {a, b, c}
            for v, r1, r2 in ((a, b, c), (b, a, c), (c, a, b)):
                if not joins_two_cities(s, [v], cov):
                    yield Tile(((v, VILLAGE), (r1, RICE), (r2, RICE))), cost


def find_placement(s: GameState, budget: int, avoid: frozenset[int] = frozenset()) -> Tile | None:
    for tile, _ in tile_placements(s, budget, avoid):
        return tile
    return None


class _Obligation:
    """Decides whether a non-tile action keeps a tile placement possible this turn (R8)."""

    def __init__(self, s: GameState, placements: list[tuple[Tile, int]]) -> None:
        self.s = s
        self.active = s.obligation_pending() and bool(placements)
        self.budget = s.turn.ap + s.token_bonus()
        self.placements = placements
        self.min_cost = min((c for _, c in placements), default=99)

    def keeps(self, a: Action, cost: int, touched: int = -1) -> bool:
        if not self.active:
            return True
        after = self.budget - cost
        if touched < 0 and after >= self.min_cost and not isinstance(a, Palace):
            return True  # the board is unchanged for tiles (draw) or only freed (exit)
        if touched >= 0 and after >= self.min_cost:
            for tile, c in self.placements:
                if c <= after and touched not in tile.hexes:
                    return True
        return self.s.is_legal(a)


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
                if ob.keeps(a, c, h):
                    yield a
    mine = [h for h in m.hexes if dev[h] == me]
    for src in mine:
        costs = move_costs(src, me, level, s.terrain, dev, pal, m.nbrs, ap)
        for dst, c in costs.items():
            if dst != src and dev[dst] < 0:
                mv = Move(src, dst)
                if ob.keeps(mv, c, dst):
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
                    if ob.keeps(ir, 1, h):
                        yield ir
    if s.festival is None:
        from core import festival

        yield from festival.openings(s)
    if not ob.active:
        yield End()


def _palaces(s: GameState, ob: _Obligation) -> Iterator[Action]:
    g = s.groups()
    me = s.to_move
    supply = s.palace_supply
    for gi, members in enumerate(g.members):
        size = len(members)
        if size < 2:
            continue
        ph = g.palace[gi]
        old = s.palace[ph] if ph >= 0 else 0
        if ph >= 0 and ph in s.turn.palaces_changed:
            continue  # R29
        values = [v for v in PALACE_VALUES if old < v <= size and supply[v] > 0]
        if not values or ring_holder(s, members) != me:
            continue
        sites = [ph] if ph >= 0 else [h for h in members if s.dev[h] < 0]
        for h in sites:
            for v in values:
                a = Palace(h, v)
                if ob.keeps(a, 1):
                    yield a
