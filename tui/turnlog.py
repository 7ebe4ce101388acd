"""The turn log and the board's "just played" marks, from the history, who made each action
and the score changes each caused.

The log groups actions by turn (a heading with the player and the points of that turn) and
says why a score changed (R29 palace, R34 festival, R38 pond, R41 final count), so a newcomer
can follow the computer players.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.markup import escape

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
from core.state import GameState

Deltas = Sequence[Sequence[int]]  # per action: each player's score change


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


def turns(movers: Sequence[int], history: Sequence[Action]) -> list[tuple[int, int, int]]:
    """(first index, end index, player) of each turn: a turn ends with ``end`` or a
    festival's last decision (R30); festival decisions by others belong to the opener's turn."""
    out: list[tuple[int, int, int]] = []
    start = 0
    for i, a in enumerate(history):
        last = i + 1 == len(history)
        closes = isinstance(a, End) or (
            isinstance(a, (Festival, Bid, Pass, Agree)) and not last
            and not isinstance(history[i + 1], (Bid, Pass, Agree)))
        if closes or last:
            out.append((start, i + 1, movers[start]))
            start = i + 1
    return out


def log_text(s: GameState, movers: Sequence[int], deltas: Deltas, n: int = 18) -> str:
    """The last ``n`` lines, newest turn first: a heading per turn, then its actions."""
    # Only the actions whose player is known (a game begun from a position with a history
    # knows its own actions only): the tail of the history.
    history = list(s.history[len(s.history) - len(movers):]) if movers else []
    known = len(deltas) == len(movers)
    blocks: list[list[str]] = []
    for k, (a0, a1, p) in enumerate(turns(movers, history), start=1):
        pts = sum(deltas[i][p] for i in range(a0, a1)) if known else None
        head = f"[b]{PLAYER_LETTERS[p]} {escape(s.players[p].name)}[/b], turn {k}"
        head += "" if pts is None else f": {'+' if pts >= 0 else ''}{pts}"
        lines = [head]
        for i in range(a0, a1):
            who = "" if movers[i] == p else f"{PLAYER_LETTERS[movers[i]]} "
            lines.append(f"  {who}{history[i]}" + (gains_text(history[i], deltas[i]) if known else ""))
        blocks.append(lines)
    out: list[str] = []
    for lines in reversed(blocks):
        out.extend(lines)
        if len(out) >= n:
            break
    return "[b]Log[/b] (newest turn first)\n" + ("\n".join(out[:n]) if out else "-")


def touched(a: Action) -> tuple[int, ...]:
    """The hexes an action changed (for the board's marks)."""
    if isinstance(a, Tile):
        return a.hexes
    if isinstance(a, Move):
        return (a.src, a.dst)
    if isinstance(a, (Enter, Exit, Palace, Irrigate, Festival)):
        return (a.hex,)
    return ()


def recent_hexes(movers: Sequence[int], history: Sequence[Action], me: int) -> set[int]:
    """Hexes the other players changed since ``me`` last acted (before his current turn)."""
    history = list(history[len(history) - len(movers):]) if movers else []
    i = len(history) - 1
    while i >= 0 and i < len(movers) and movers[i] == me:
        i -= 1
    out: set[int] = set()
    while i >= 0 and i < len(movers) and movers[i] != me:
        out.update(touched(history[i]))
        i -= 1
    return out
