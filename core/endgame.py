"""A board on which no land tile can ever be placed again (an engine decision beside R40).

R40 ends the game when the three-space supply is empty. Random play can reach a board where
three-space tiles remain but none can ever be placed: every flat triangle lies exactly on one
three-space tile (R13) or holds a palace or irrigation (R11), which never leave, and no player
has a smaller tile that fits. Levels change only by placing tiles, so such a board never changes
again and R40 would never end the game.

**Decision (engine; the rule book is silent):** when a turn ends without a tile and no tile of
any supply could be placed by anyone even with every developer off the board, the game ends as
if that turn had used the last three-space tile: the mover makes his final count, each other
player plays one more turn and counts (R40, R41).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from core.movegen import find_placement

if TYPE_CHECKING:
    from core.state import GameState

ANY_BUDGET = 99  # more than any placement costs (R14: at most 1 + 2 overhanging hexes)


def no_tile_can_ever_be_placed(s: GameState) -> bool:
    """True when no player could place any tile he or the shared supply holds, on this board
    with all developers removed (developers move; palaces, irrigation and levels do not)."""
    c = s.copy()
    c.dev = [-1] * len(s.dev)
    for p in range(s.n_players):
        c.to_move = p
        if find_placement(c, ANY_BUDGET) is not None:
            return False
    return True


def adjudicate_stall(s: GameState, mover: int) -> None:
    """Tournament rule for a stalled game (not in the rule book): three-space tiles remain, but
    for rounds no tile could be placed, because developers block every flat spot and nobody
    moves them (players holding positions never need to). R40 would never end such a game, so
    it is ended the way ``no_tile_can_ever_be_placed`` ends a board where no tile fits ever
    again: as if ``mover``'s turn, just finished, had used the last three-space tile (his final
    count now; each other player one more turn, then his count, R40/R41). Applied through
    ``core.game.Game.adjudicate``, which the record keeps."""
    from core.scoring import final_count

    n = s.n_players
    s.players[mover].score += final_count(s)[mover]
    s.players[mover].final_counted = True
    s.last_round = [(mover + i) % n for i in range(2, n)]  # to_move is mover + 1 already


__all__ = ["adjudicate_stall", "no_tile_can_ever_be_placed"]
