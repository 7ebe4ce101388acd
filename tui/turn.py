"""Turn helpers for the app, free of widgets: tile shapes under the cursor, previews that say
legal or illegal with the R-number, developer targets with their AP costs, computer players.

Kept apart from the screens so the tests can check them directly and the screens stay small.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from analysis.players import PLAYER_NAMES, make_player
from core.actions import Action, Enter, Exit, Move, Palace, Tile
from core.errors import IllegalAction, KratonError
from core.hexgeom import TileShape
from core.hexmap import hex_name
from core.paths import move_costs
from core.state import GameState


@dataclass(frozen=True)
class Preview:
    """The verdict on an action before it is confirmed."""

    action: Action | None
    legal: bool
    message: str
    cost: int = 0


def try_action(s: GameState, a: Action) -> Preview:
    """Would ``a`` be legal now? Says the AP cost, or the R-number and why not."""
    ap = s.turn.ap
    try:
        s.push(a)
    except IllegalAction as e:
        return Preview(a, False, f"illegal: {e.rule} {e.why}")
    except KratonError as e:
        return Preview(a, False, f"illegal: {e}")
    cost = ap - s.turn.ap
    s.pop()
    return Preview(a, True, f"legal: {a} costs {cost} AP", cost)


def tile_preview(s: GameState, shape: TileShape, anchor: int) -> Preview:
    cells = shape.cells(anchor)
    if cells is None or any(not s.map.on_map(h) for h, _ in cells):
        return Preview(None, False, f"illegal: R4 the tile would leave the map at {hex_name(anchor)}")
    return try_action(s, Tile(cells))


def move_targets(s: GameState, src: int) -> dict[int, int]:
    """{hex: AP cost} the developer on ``src`` can legally move to now (R27, R8)."""
    me = s.to_move
    costs = move_costs(src, me, s.level, s.terrain, s.dev, s.palace, s.map.nbrs, s.turn.ap)
    out = {}
    for h, c in costs.items():
        if h != src and s.dev[h] < 0 and s.is_legal(Move(src, h)):
            out[h] = c
    return out


def entry_targets(s: GameState) -> dict[int, int]:
    """{hex: AP cost} where a developer may enter now (R26)."""
    return {h: s.map.edge_cost(h) for h in s.map.hexes
            if s.map.edge_cost(h) and s.level[h] and s.dev[h] < 0 and s.is_legal(Enter(h))}


def palace_choices(s: GameState, h: int) -> list[Palace]:
    """The legal palace actions on hex ``h`` (every allowed value, R28, R29)."""
    return [Palace(h, v) for v in (2, 4, 6, 8, 10) if s.is_legal(Palace(h, v))]


def exit_preview(s: GameState, h: int) -> Preview:
    return try_action(s, Exit(h))


def player_names() -> tuple[str, ...]:
    return tuple(PLAYER_NAMES)


class Chooser(Protocol):
    """What the app needs of a computer player (``analysis.players.Player``)."""

    def choose(self, state: GameState) -> Action: ...


def make_computer(name: str, seed: int) -> Chooser:
    """A computer player from ``analysis.players.make_player``."""
    return make_player(name, seed)
