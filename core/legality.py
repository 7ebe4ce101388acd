"""Legality of each action (R7–R38): every check returns the AP cost or raises IllegalAction.

The checks read the state and never change it; ``GameState.push`` applies what they allow.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from core.actions import RICE, VILLAGE, Draw, Enter, Exit, Irrigate, Move, Palace, Tile, Token
from core.errors import IllegalAction
from core.hexmap import PRINTED_IRRIGATION, hex_name
from core.paths import move_costs
from core.ranking import highest_at

if TYPE_CHECKING:
    from core.state import GameState

PALACE_VALUES = (2, 4, 6, 8, 10)


def _need_ap(s: GameState, a: object, cost: int) -> int:
    if cost > s.turn.ap:
        raise IllegalAction(a, "R7", f"it costs {cost} AP and only {s.turn.ap} AP are left")
    return cost


def _on_map(s: GameState, a: object, h: int) -> None:
    if not s.map.on_map(h):
        raise IllegalAction(a, "R4", f"{hex_name(h)} is not on the map '{s.map.name}'")


def tile_shape_error(s: GameState, cells: tuple[tuple[int, int], ...]) -> str | None:
    """Why these cells are not a tile of the game (R10), or None. Shared with position loading."""
    n = len(cells)
    hexes = [h for h, _ in cells]
    villages = sum(1 for _, t in cells if t == VILLAGE)
    adj = s.map.adjacent
    if n == 3:
        a, b, c = hexes
        if not (adj(a, b) and adj(b, c) and adj(a, c)):
            return "the three hexes of a three-space tile must be mutually adjacent"
        if villages != 1:
            return "a three-space tile has 2 rice and 1 village"
    elif n == 2:
        if not adj(hexes[0], hexes[1]):
            return "the two hexes of a two-space tile must be adjacent"
        if villages != 1:
            return "a two-space tile has 1 rice and 1 village"
    elif n != 1:
        return "a tile covers 1, 2 or 3 hexes"
    return None


def joins_two_cities(s: GameState, village_cells: list[int], covered: set[int]) -> bool:
    """R15: would the placement put two palaces into one village group?

    A necessary condition is cheap (the new village cell touches two different cities); only then
    is the group after placement walked exactly.
    """
    g = s.groups()
    lab, pal = g.label, g.palace
    terrain, nbrs = s.terrain, s.map.nbrs
    for v in village_cells:
        cities = {lab[n] for n in nbrs[v] if n not in covered and terrain[n] == VILLAGE and pal[lab[n]] >= 0}
        if len(cities) < 2:
            continue
        # Exact walk of the group through v after placement.
        seen = {v}
        stack = [v]
        palaces = 0
        while stack:
            h = stack.pop()
            for n in nbrs[h]:
                if n in seen:
                    continue
                if n in covered:
                    if n in village_cells:
                        seen.add(n)
                        stack.append(n)
                    continue
                if terrain[n] == VILLAGE:
                    seen.add(n)
                    stack.append(n)
                    if s.palace[n]:
                        palaces += 1
                        if palaces >= 2:
                            return True
    return False


def check_tile(s: GameState, a: Tile) -> int:
    p = s.players[s.to_move]
    cells = a.cells
    for h, _ in cells:
        _on_map(s, a, h)
    why = tile_shape_error(s, cells)
    if why:
        raise IllegalAction(a, "R10", why)
    n = len(cells)
    if n == 3 and s.triples <= 0:
        raise IllegalAction(a, "R10", "the shared supply of three-space tiles is empty")
    if n == 2 and p.doubles <= 0:
        raise IllegalAction(a, "R10", "you have no two-space tile left")
    if n == 1:
        if cells[0][1] == RICE and p.rice <= 0:
            raise IllegalAction(a, "R10", "you have no one-space rice tile left")
        if cells[0][1] == VILLAGE and p.villages <= 0:
            raise IllegalAction(a, "R10", "you have no one-space village tile left")
    m = s.map
    central = [h for h, _ in cells if m.is_central(h)]
    if not central:
        raise IllegalAction(a, "R14", "a tile needs at least one hex in Java-Centre")
    if n == 1 and not m.is_central(cells[0][0]):
        raise IllegalAction(a, "R14", "one-space tiles never overhang")
    for h, _ in cells:
        if s.irrigated[h] or m.kind[h] == PRINTED_IRRIGATION:
            raise IllegalAction(a, "R11", f"{hex_name(h)} is an irrigation space")
        if s.dev[h] >= 0:
            raise IllegalAction(a, "R11", f"{hex_name(h)} carries a developer")
        if s.palace[h]:
            raise IllegalAction(a, "R11", f"{hex_name(h)} carries a palace")
    levels = {s.level[h] for h, _ in cells}
    if len(levels) > 1:
        desc = ", ".join(f"{hex_name(h)}={s.level[h]}" for h, _ in cells)
        raise IllegalAction(a, "R12", f"a tile must lie flat, but the levels differ ({desc})")
    tops = {s.top[h] for h, _ in cells}
    if len(tops) == 1:
        t = next(iter(tops))
        if t >= 0 and len(s.tiles[t]) == n:
            raise IllegalAction(a, "R13", f"it would lie exactly on one {n}-space tile")
    covered = {h for h, _ in cells}
    if joins_two_cities(s, [h for h, t in cells if t == VILLAGE], covered):
        raise IllegalAction(a, "R15", "it would join two cities into one village group")
    return _need_ap(s, a, tile_cost(s, cells))


def tile_cost(s: GameState, cells: tuple[tuple[int, int], ...]) -> int:
    """1 AP, plus 1 per hex outside Java-Centre that carries no tile yet (R14)."""
    m = s.map
    return 1 + sum(1 for h, _ in cells if not m.is_central(h) and s.level[h] == 0)


def _free_land(s: GameState, a: object, h: int) -> None:
    if s.level[h] == 0:
        raise IllegalAction(a, "R26", f"{hex_name(h)} is not land (level 0)")
    if s.palace[h]:
        raise IllegalAction(a, "R26", f"{hex_name(h)} carries a palace")
    if s.dev[h] >= 0:
        raise IllegalAction(a, "R26", f"{hex_name(h)} already carries a developer")


def check_enter(s: GameState, a: Enter) -> int:
    _on_map(s, a, a.hex)
    if s.players[s.to_move].developers_off <= 0:
        raise IllegalAction(a, "R26", "you have no developer off the board")
    cost = s.map.edge_cost(a.hex)
    if not cost:
        raise IllegalAction(a, "R26", f"{hex_name(a.hex)} is neither a border space nor a rim hex")
    _free_land(s, a, a.hex)
    return _need_ap(s, a, cost)


def check_exit(s: GameState, a: Exit) -> int:
    _on_map(s, a, a.hex)
    if s.dev[a.hex] != s.to_move:
        raise IllegalAction(a, "R27", f"you have no developer on {hex_name(a.hex)}")
    cost = s.map.edge_cost(a.hex)
    if not cost:
        raise IllegalAction(a, "R27", f"{hex_name(a.hex)} is neither a border space nor a rim hex")
    return _need_ap(s, a, cost)


def check_move(s: GameState, a: Move) -> int:
    _on_map(s, a, a.src)
    _on_map(s, a, a.dst)
    if s.dev[a.src] != s.to_move:
        raise IllegalAction(a, "R27", f"you have no developer on {hex_name(a.src)}")
    if a.src == a.dst:
        raise IllegalAction(a, "R27", "the developer is already there")
    _free_land(s, a, a.dst)
    cost = s.cached_path_cost(a.src, a.dst)  # generated with the move (``legal_actions``)?
    if cost is not None:
        return _need_ap(s, a, cost)
    args = (a.src, s.to_move, s.level, s.terrain, s.dev, s.palace, s.map.nbrs)
    cost = move_costs(*args, s.turn.ap, a.dst).get(a.dst)  # stops at the AP left, or at dst
    if cost is None:
        cost = move_costs(*args, 99, a.dst).get(a.dst)  # too dear (R7) or no path at all (R27)?
    if cost is None:
        raise IllegalAction(
            a, "R27", f"no path of land hexes free of opponents' developers and palaces leads to {hex_name(a.dst)}"
        )
    return _need_ap(s, a, cost)


def ring_holder(s: GameState, hexes: list[int]) -> int:
    """The player holding the highest position (R25) among developers on ``hexes``, or -1."""
    return highest_at(hexes, s.level, s.dev)


def check_palace(s: GameState, a: Palace) -> int:
    _on_map(s, a, a.hex)
    h = a.hex
    if s.terrain[h] != VILLAGE:
        raise IllegalAction(a, "R28", f"{hex_name(h)} is not a village hex")
    if a.value not in PALACE_VALUES:
        raise IllegalAction(a, "R28", f"a palace is worth 2, 4, 6, 8 or 10, not {a.value}")
    g = s.groups()
    gi = g.label[h]
    members = g.members[gi]
    old = s.palace[h]
    if old:
        if h in s.turn.palaces_changed:
            raise IllegalAction(a, "R29", "this palace already changed value this turn")
        if a.value <= old:
            raise IllegalAction(a, "R28", f"enlarging needs a value above the current {old}")
    else:
        if s.dev[h] >= 0:
            raise IllegalAction(a, "R28", f"{hex_name(h)} carries a developer")
        if g.palace[gi] >= 0:
            raise IllegalAction(
                a, "R28", f"this group is already a city (palace on {hex_name(g.palace[gi])})"
            )
    if a.value > len(members):
        raise IllegalAction(
            a, "R28", f"the value {a.value} exceeds the group's size of {len(members)} hexes"
        )
    if s.palace_supply[a.value] <= 0:
        raise IllegalAction(a, "R28", f"no palace piece of value {a.value} is left in the supply")
    if ring_holder(s, members) != s.to_move:
        raise IllegalAction(
            a, "R28", f"you do not hold the highest position in this {'city' if old else 'village'} (R25)"
        )
    return _need_ap(s, a, 1)


def check_irrigate(s: GameState, a: Irrigate) -> int:
    _on_map(s, a, a.hex)
    h = a.hex
    m = s.map
    if s.irrigation_supply <= 0:
        raise IllegalAction(a, "R37", "the supply of irrigation tiles is empty")
    if not m.is_central(h):
        raise IllegalAction(a, "R37", f"{hex_name(h)} is not in Java-Centre")
    if s.irrigated[h]:
        raise IllegalAction(a, "R37", f"{hex_name(h)} is already an irrigation space")
    if s.level[h] > 0:
        raise IllegalAction(a, "R37", f"{hex_name(h)} is land (level {s.level[h]}), not bare")
    if m.border_cost[h]:
        raise IllegalAction(a, "R37", f"{hex_name(h)} is a border space")
    return _need_ap(s, a, 1)


def check_draw(s: GameState, a: Draw) -> int:
    if s.turn.cards_drawn >= 2:
        raise IllegalAction(a, "R36", "at most two cards may be drawn per turn")
    if a.faceup and s.face_up is None:
        raise IllegalAction(a, "R36", "there is no face-up card")
    if not a.faceup and not s.deck and not s.discard:
        raise IllegalAction(a, "R36", "the deck and the discard pile are empty")
    return _need_ap(s, a, 1)


def check_token(s: GameState, a: Token) -> int:
    if s.turn.token_used:
        raise IllegalAction(a, "R7", "an action token was already spent this turn")
    if s.players[s.to_move].tokens <= 0:
        raise IllegalAction(a, "R7", "you have no action token left")
    return 0


CHECKS = {
    Tile: check_tile,
    Enter: check_enter,
    Exit: check_exit,
    Move: check_move,
    Palace: check_palace,
    Irrigate: check_irrigate,
    Draw: check_draw,
    Token: check_token,
}
