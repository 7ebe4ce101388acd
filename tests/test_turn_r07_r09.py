"""The turn (R7–R9): action tokens, the tile obligation and its lapse, the festival ending it."""

from __future__ import annotations

import pytest

from core.actions import Draw, End, Tile, Token, parse_action
from core.errors import IllegalAction
from core.state import GameState
from tests.festival_positions import city_position, play


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
