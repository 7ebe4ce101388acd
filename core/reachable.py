"""Positions the rules cannot reach: refused when a file is loaded, naming the field and rule.

``core.position`` checks each field alone (types, ranges, material); these checks relate
fields to each other, because an engine started from an unreachable position goes wrong in
quiet ways (a last round that never starts, a final count that never comes, 8 AP).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from core.errors import PositionError
from core.hexmap import hex_name

if TYPE_CHECKING:
    from core.state import GameState

AP_PER_TURN = 6


def check_reachable(s: GameState) -> None:
    """Raise PositionError when no sequence of legal actions from R3's set-up leads here."""
    _check_turn(s)
    _check_last_round(s)
    _check_festival(s)


def _check_turn(s: GameState) -> None:
    """R7: 6 AP, 7 with the token; every draw and palace change costs 1 AP (R28, R36).

    A tile placed is not counted: ``tile_placed`` true with the full AP is the project's way to
    set the tile obligation (R8) aside in test and study positions (README, "Position files")."""
    t = s.turn
    spent = t.cards_drawn + len(t.palaces_changed)
    most = AP_PER_TURN + int(t.token_used) - spent
    if t.ap > most:
        what = "with the token spent" if t.token_used else "without the token (token_used is false)"
        raise PositionError(
            f"turn.ap: {t.ap} AP left but at most {most} {what}, after {spent} AP of draws"
            " and palace changes (R7, R28, R36)")
    if t.token_used and s.players[s.to_move].tokens > 2:
        raise PositionError(f"players[{s.to_move}].tokens: 3 tokens left although turn.token_used"
                            " is true: the token spent came from them (R7)")
    seen: set[int] = set()
    for j, h in enumerate(t.palaces_changed):
        if h in seen:
            raise PositionError(f"turn.palaces_changed[{j}]: {hex_name(h)} twice; a palace changes"
                                " value at most once a turn (R29)")
        seen.add(h)


def _check_last_round(s: GameState) -> None:
    """R40/R41: the last round starts with the last three-space tile; the players play their
    last turns clockwise from the one who ended it, each counting at the end of his own."""
    n = s.n_players
    if s.last_round is None:
        if s.triples == 0:
            raise PositionError("last_round: null although supply.triples is 0; placing the last"
                                " three-space tile starts the last round (R40)")
        for i, p in enumerate(s.players):
            if p.final_counted:
                raise PositionError(f"players[{i}].final_counted: true before the last round; the"
                                    " final count comes at the end of one's last turn (R40, R41)")
        return
    order = [s.to_move, *s.last_round]
    for j, r in enumerate(s.last_round):
        if r in order[:j + 1]:
            who = "the player to move" if r == s.to_move else "a duplicate"
            raise PositionError(f"last_round.remaining[{j}]: player {r} is {who}; each player has"
                                " one last turn (R40)")
        if r != (order[j] + 1) % n:
            raise PositionError(f"last_round.remaining[{j}]: player {r} out of turn; the last turns"
                                f" go clockwise, so player {(order[j] + 1) % n} is next (R40)")
    for i, p in enumerate(s.players):
        done = i not in order
        if i == s.to_move:
            done = p.final_counted and not s.last_round  # only the very last may have counted
        if p.final_counted != done:
            state = "true" if p.final_counted else "false"
            raise PositionError(f"players[{i}].final_counted: {state} does not fit last_round: those"
                                " whose last turn is over have counted, the others not (R40, R41)")
    if len(s.last_round) == n - 1 and not (s.turn.tile_placed and s.triples == 0):
        raise PositionError("last_round.remaining: every other player is still to play, so the"
                            " player to move placed the last three-space tile this turn; but"
                            " turn.tile_placed is false or tiles are left (R40)")


def _check_festival(s: GameState) -> None:
    """R30: the mover holds a festival only in a city where he has a developer."""
    f = s.festival
    if f is None:
        return
    g = s.groups()
    city = g.group_of(f.palace)
    if not any(s.dev[h] == f.opener for h in g.members[city]):
        raise PositionError(f"festival.opener: player {f.opener} has no developer in the city of"
                            f" {hex_name(f.palace)}; the festival needs one (R30)")
