"""Why a score changed and which hexes an action changed: the words of the move list and the
board's marks of the last turn.

A score change names its rule (R29 palace, R34 festival, R38 pond, R41 final count), so a
newcomer can follow the computer players.
"""

from __future__ import annotations

from collections.abc import Sequence

from core.actions import (
    Action,
    Agree,
    Bid,
    End,
    Enter,
    Exit,
    Festival,
    Irrigate,
    Move,
    Palace,
    Pass,
    Tile,
)
from core.drawing import PLAYER_LETTERS


def reason(a: Action) -> str:
    """Which rule a score change of this action comes from."""
    if isinstance(a, Palace):
        return "palace, R29"
    if isinstance(a, (Festival, Bid, Pass, Agree)):
        return "festival, R34"
    if isinstance(a, (Tile, Irrigate)):
        return "pond closed, R38"
    if isinstance(a, End):
        return "final count, R41"
    return "R38/R41"


def gains_text(a: Action, delta: Sequence[int]) -> str:
    """'  +2 A (palace, R29)' or '' when nobody scored."""
    won = [f"{PLAYER_LETTERS[p]} +{d}" for p, d in enumerate(delta) if d]
    return f"  [b]{', '.join(won)}[/b] ({reason(a)})" if won else ""


def touched(a: Action) -> tuple[int, ...]:
    """The hexes an action changed (for the board's marks)."""
    if isinstance(a, Tile):
        return a.hexes
    if isinstance(a, Move):
        return (a.src, a.dst)
    if isinstance(a, (Enter, Exit, Palace, Irrigate, Festival)):
        return (a.hex,)
    return ()
