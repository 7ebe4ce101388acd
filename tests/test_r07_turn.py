"""R7, R8: action points, the action token, the tile obligation."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.errors import IllegalAction
from core.hexmap import load_map
from core.state import GameState, Player
from tests.helpers import H, act, build, lay, play

A, B = 0, 1

# Seven central spaces: C3 in the middle (not a border space), six around it, a rim outside.
FLOWER = """\
  L L L
 L . . L
L . . . L
 L . . L
  L L L
"""


def refused(s, text: str, rule: str, match: str = "") -> IllegalAction:
    with pytest.raises(IllegalAction) as e:
        s.push(act(text))
    assert e.value.rule == rule, str(e.value)
    assert match in str(e.value)
    return e.value


def legal(s) -> set[str]:
    return {str(a) for a in s.legal_actions()}


# ------------------------------------------------------------------ R7 action points, token

def test_r1_r3_a_new_game_has_as_many_players_as_asked() -> None:
    for n in (2, 3, 4):
        s = GameState.new(n, seed=5, names=[f"p{i}" for i in range(n)])
        assert s.n_players == n and [p.name for p in s.players] == [f"p{i}" for i in range(n)]
        assert len(s.deck) == 30 - 1 - 3 * n and 0 <= s.to_move < n
    with pytest.raises(ValueError, match="3 names given for 2 players"):
        GameState.new(2, seed=1, names=["a", "b", "c"])
    with pytest.raises(ValueError, match="R1"):
        GameState.new(5)


def test_r7_a_turn_starts_with_6_ap() -> None:
    s = GameState.new(3, seed=1)
    assert s.turn.ap == 6 and not s.turn.token_used and not s.turn.tile_placed


def test_r7_the_token_gives_a_seventh_ap_once_per_turn() -> None:
    s = build()
    play(s, "token")
    assert s.turn.ap == 7 and s.turn.token_used and s.players[A].tokens == 2
    refused(s, "token", "R7", "already spent this turn")
    assert "token" not in legal(s)


def test_r7_the_token_may_be_spent_at_any_moment() -> None:
    s = build()
    play(s, "irrigate E8; irrigate E10; irrigate E12; irrigate H7; irrigate H9; irrigate H11")
    assert s.turn.ap == 0
    refused(s, "irrigate K8", "R7", "only 0 AP")
    play(s, "token; irrigate K8")
    assert s.turn.ap == 0 and s.irrigation_supply == 9


def test_r7_no_token_left() -> None:
    s = build()
    s.players[A].tokens = 0
    refused(s, "token", "R7", "no action token")
    assert "token" not in legal(s)


def test_r7_unused_ap_are_lost_and_the_next_player_gets_6() -> None:
    s = build(ap=6)
    play(s, "token; end")
    assert s.to_move == B and s.turn.ap == 6 and not s.turn.token_used
    assert s.players[A].tokens == 2 and s.players[B].tokens == 3


def test_r7_costs_add_up() -> None:
    s = build(tiles=["B6v C6r C7r", "I2r"], tile_placed=False)
    play(s, "tile B7v A7r")  # 2 (overhang)
    play(s, "enter B6")  # 1
    play(s, "move B6 A7")  # v -> r: 1
    play(s, "exit A7")  # lowland rim: 1
    assert s.turn.ap == 1
    refused(s, "enter I2", "R7")


# ------------------------------------------------------------------ R8 the tile obligation

def test_r8_end_is_refused_while_a_placement_exists() -> None:
    s = build(tile_placed=False)
    e = refused(s, "end", "R8", "must place at least one land tile")
    assert "e.g. tile" in str(e)
    assert "end" not in legal(s)
    play(s, "tile G6r; end")
    assert s.to_move == B


def test_r8_a_placement_the_token_pays_for_still_binds() -> None:
    s = build(tile_placed=False, ap=0)
    refused(s, "end", "R8")
    assert legal(s) == {"token"}
    play(s, "token; tile G6r; end")


def test_r8_an_action_that_spends_the_last_ap_needed_for_a_tile_is_refused() -> None:
    s = build(tile_placed=False, ap=1, token_used=True)
    refused(s, "irrigate E8", "R8", "place a tile first")
    refused(s, "draw deck", "R8")
    assert not {a for a in legal(s) if not a.startswith("tile")}
    # with the token still available, the same action is allowed
    s = build(tile_placed=False, ap=1)
    play(s, "irrigate E8; token; tile G6r; end")


def flower(tmp_path: Path) -> GameState:
    """The flower map with its six outer spaces each under a one-space tile, the centre bare; the
    mover holds one-space tiles only and the three-space supply is empty: the only placements
    are one-space tiles on C3."""
    p = tmp_path / "flower.txt"
    p.write_text(FLOWER, encoding="utf-8")
    m = load_map(str(p))
    assert not m.border_cost[H("C3")] and len(m.central) == 7
    s = GameState(m, [Player("Red"), Player("Yellow")])
    for n in ("B2", "B3", "C2", "C4", "D2", "D3"):
        lay(s, f"{n}r")
    s.triples = 0
    s.players[A].doubles = 0
    return s


def test_r8_an_action_making_every_placement_impossible_is_refused(tmp_path: Path) -> None:
    s = flower(tmp_path)
    assert {a for a in legal(s) if a.startswith("tile")} == {"tile C3r", "tile C3v"}
    refused(s, "irrigate C3", "R8", "no land tile could be placed")
    assert "irrigate C3" not in legal(s)
    refused(s, "end", "R8")
    play(s, "tile C3r")
    assert "end" in legal(s)


def test_r8_the_obligation_lapses_when_no_placement_exists(tmp_path: Path) -> None:
    s = flower(tmp_path)
    s.players[A].rice = s.players[A].villages = 0
    assert not [a for a in legal(s) if a.startswith("tile")]
    assert "irrigate C3" in legal(s) and "end" in legal(s)
    play(s, "irrigate C3; end")
    assert s.to_move == B


def test_r8_the_obligation_lapses_when_no_ap_can_pay_for_a_tile() -> None:
    s = build(tile_placed=False, ap=0, token_used=True)
    assert legal(s) == {"end"}
    play(s, "end")


def test_r8_tiles_are_owed_again_each_turn() -> None:
    s = build(tile_placed=True)
    play(s, "end")
    assert s.to_move == B and not s.turn.tile_placed
    refused(s, "end", "R8")


def test_r8_move_keeping_a_placement_possible_is_allowed(tmp_path: Path) -> None:
    s = flower(tmp_path)
    s.dev[H("B2")] = A
    s.players[A].developers_off -= 1
    assert "move B2 B3" in legal(s)
    play(s, "move B2 B3; tile C3v; end")
