"""The turn (R7–R9): action tokens, the tile obligation and its lapse, the festival ending it."""

from __future__ import annotations

import pytest

from core.actions import RICE, Draw, End, Tile, Token, parse_action
from core.errors import IllegalAction
from core.state import GameState
from tests.festival_positions import city_position, play
from tests.helpers import random_states


def rule_of(s: GameState, text: str) -> str:
    with pytest.raises(IllegalAction) as e:
        s.push(parse_action(text))
    return e.value.rule


def test_r7_token_gives_a_seventh_ap_once_per_turn() -> None:
    s = GameState.new(2, seed=1)
    me = s.players[s.to_move]
    s.push(Token())
    assert s.turn.ap == 7 and me.tokens == 2 and s.turn.token_used
    assert Token() not in set(s.legal_actions())
    assert rule_of(s, "token") == "R7"


def test_r7_token_at_any_moment_even_with_no_ap_left() -> None:
    s = GameState.new(2, seed=1)
    s.turn.tile_placed = True
    s.turn.ap = 0
    assert Token() in set(s.legal_actions())
    s.push(Token())
    assert s.turn.ap == 1


def test_r7_no_token_left_and_unused_ap_are_lost() -> None:
    s = GameState.new(2, seed=1)
    s.players[s.to_move].tokens = 0
    assert rule_of(s, "token") == "R7"
    s.push(next(a for a in s.legal_actions() if isinstance(a, Tile)))
    s.push(End())
    assert s.turn.ap == 6 and not s.turn.token_used  # a fresh turn for the next player


def test_r8_end_is_refused_while_a_tile_can_be_placed() -> None:
    s = GameState.new(3, seed=2)
    assert End() not in set(s.legal_actions())
    assert rule_of(s, "end") == "R8"
    s.push(parse_action("tile G6v G5r H5r"))
    assert End() in set(s.legal_actions())


def test_r8_an_action_leaving_no_ap_for_the_owed_tile_is_refused() -> None:
    s = GameState.new(3, seed=2)
    s.turn.ap = 1
    s.players[s.to_move].tokens = 0
    assert Draw(False) not in set(s.legal_actions())
    assert rule_of(s, "draw deck") == "R8"


def test_r8_the_token_counts_for_the_owed_tile() -> None:
    s = GameState.new(3, seed=2)
    s.turn.ap = 1  # 1 AP + the token: the draw leaves 1 AP for a tile
    assert Draw(False) in set(s.legal_actions())
    s.push(Draw(False))


def test_r8_obligation_lapses_when_no_placement_is_possible() -> None:
    """R8 decision: with no placement within the AP left (token included), ``end`` is legal."""
    s = GameState.new(3, seed=2)
    s.turn.ap = 0
    s.players[s.to_move].tokens = 0
    assert s.find_placement(0) is None
    assert End() in set(s.legal_actions())
    before = s.to_move
    s.push(End())
    assert s.to_move == (before + 1) % 3


def test_r9_the_festival_is_the_last_action_and_ends_the_turn() -> None:
    s = city_position(players=2, hands=[["D"], []], developers={"F5": 0}, face_up="D")
    assert s.turn.ap == 6
    play(s, "festival F4")
    assert s.to_move == 1 and s.turn.ap == 6 and not s.turn.tile_placed
    assert s.players[0].score == 4  # alone at 8 (R34)


def test_r8_an_irrigation_on_the_last_hex_a_tile_fits_is_refused() -> None:
    """R8 with R11: one rice tile left to him and every other central space irrigated, the
    owed tile fits only on E6; irrigating E6 leaves none (``push`` must not trust the
    placement it found before the action), so it is refused."""
    from core.actions import Irrigate
    from core.hexmap import parse_hex
    from core.movegen import tile_placements

    s = GameState.new(3, seed=2)
    me = s.players[s.to_move]
    me.villages, me.rice, me.doubles, s.triples = 0, 1, 0, 0
    x = parse_hex("E6")
    for h in s.map.central:
        s.irrigated[h] = s.irrigated[h] or (h != x and s.level[h] == 0)
    assert [t for t, _ in tile_placements(s, 7)] == [Tile(((x, RICE),))]
    assert Irrigate(x) not in set(s.legal_actions())
    assert rule_of(s, "irrigate E6") == "R8"


@pytest.mark.parametrize("seed", [3, 8])
def test_r8_push_refuses_exactly_the_actions_after_which_no_tile_fits(seed: int) -> None:
    """Through random games, at every state that owes a tile: each action legal were no tile
    owed (not a tile, not the token) is refused by ``push`` with R8 exactly when a tile fits
    now and none fits after it, the board searched again each time (``push`` reuses the
    placement it found before where the action left it alone)."""
    from core.movegen import find_placement

    checked = refused = 0
    for s, _ in random_states(3, seed, 500):
        if s.festival is None and s.obligation_pending():
            before = find_placement(s, s.turn.ap + s.token_bonus())
            free = s.copy()
            free.turn.tile_placed = True  # owes nothing: R8 left out
            for a in list(free.legal_actions()):
                if isinstance(a, (Tile, Token, End)) or a.kind == "festival":
                    continue
                free.push(a)
                fits = find_placement(free, free.turn.ap + free.token_bonus()) is not None
                free.pop()
                try:
                    s.push(a)
                    s.pop()
                    ok = True
                except IllegalAction as e:
                    assert e.rule == "R8", (a, e)
                    ok = False
                assert ok == (before is None or fits), a
                checked += 1
                refused += not ok
    assert checked >= 200 and refused >= 5
