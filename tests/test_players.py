"""Computer players: legal choices, whole turns, palaces (R28, R29), the final count (R41),
festival decisions (R32) and the plan cache."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analysis.beam import board_key, other_actions
from analysis.players import PLAYER_NAMES, make_player
from core.actions import Action, Palace, Tile
from core.errors import KratonError
from core.scoring import city_standings
from core.state import GameState
from tests.helpers import build, contested_festival, tower


def random_position(seed: int, steps: int) -> GameState:
    s = GameState.new(2 + seed % 3, seed=seed)
    p = make_player("random", seed)
    for _ in range(steps):
        if s.is_terminal():
            break
        s.push(p.choose(s))
    return s


def play_turn(s: GameState, name: str, seed: int = 0, limit: int = 20) -> list[Action]:
    """Let the player act until the turn passes; every action must be accepted by the engine."""
    bot = make_player(name, seed)
    mover = s.to_move
    done: list[Action] = []
    while s.to_move == mover and not s.is_terminal() and len(done) < limit:
        assert s.current_player() == mover or s.festival is not None
        a = (bot if s.current_player() == mover else make_player("random", 1)).choose(s)
        s.push(a)  # raises IllegalAction (with the R-number) if the player broke a rule
        done.append(a)
    return done


def test_player_names_and_unknown_name():
    assert {"random", "greedy", "planner"} <= set(PLAYER_NAMES)
    for name in PLAYER_NAMES:
        assert make_player(name).name == name
    with pytest.raises(KratonError, match="unknown player 'wizard'"):
        make_player("wizard")


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 80))
def test_random_player_chooses_a_legal_action_and_leaves_the_state(seed, steps):
    s = random_position(seed, steps)
    if s.is_terminal():
        return
    key = board_key(s)
    a = make_player("random", seed).choose(s)
    assert board_key(s) == key
    assert s.is_legal(a)


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 100))
def test_other_actions_cover_every_legal_non_tile_action(seed, steps):
    """The search's own generator misses nothing the engine allows (R7–R37), tiles aside."""
    s = random_position(seed, steps)
    if s.is_terminal() or s.festival is not None:
        return
    legal = {a for a in s.legal_actions() if not isinstance(a, Tile) and a.kind != "end"}
    assert legal <= set(other_actions(s))


@pytest.mark.parametrize("name", ["greedy", "planner"])
def test_r28_r29_searching_players_build_the_biggest_palace(name):
    """Red holds the highest position in a village of 4 with 1 AP left: a palace of 4 scores 2
    at once (R29); both searching players take it."""
    s = build(players=2, tiles=["G6v", "G7v", "G8v", "G9v"], developers={"G7": 0}, ap=1)
    acts = play_turn(s, name)
    assert any(isinstance(a, Palace) and a.value == 4 for a in acts)
    assert s.players[0].score >= 2


def test_r41_planner_climbs_to_the_first_position():
    """City H5–H8 (palace 4 on H5): Yellow stands 2 high on H6, Red 1 high on H7; H8 is 3 high.
    Moving H7 → H8 along villages costs 0 AP (R27) and turns Red's second place (2 at the final
    count) into the first (4)."""
    s = build(players=3, tiles=["H5v", *tower("H6", 2), "H7v", *tower("H8", 3)],
              developers={"H6": 1, "H7": 0}, palaces={"H5": 4}, ap=1)
    (c,) = city_standings(s)
    assert c.first == (1,)
    play_turn(s, "planner")
    (c,) = city_standings(s)
    assert c.first == (0,)


@pytest.mark.parametrize("name", ["greedy", "planner"])
def test_r8_searching_players_place_a_tile_when_one_is_owed(name):
    s = GameState.new(3, seed=5)
    acts = play_turn(s, name)
    assert any(isinstance(a, Tile) for a in acts)
    assert acts[-1].kind in ("end", "festival")


def test_plan_is_made_once_per_turn_and_played_one_action_at_a_time():
    s = build(players=2, tiles=["G6v", "G7v", "G8v", "G9v"], developers={"G7": 0}, ap=2)
    bot = make_player("planner", 3)
    mover = s.to_move
    while s.to_move == mover:
        s.push(bot.choose(s))
    assert bot.turns == 1  # type: ignore[attr-defined]


def test_r32_festival_decisions_are_legal():
    """A festival in a city where both players stand: the other player's decision (bid, pass)
    comes from the same ``choose``."""
    s = contested_festival()
    assert s.festival is not None and s.current_player() == 1
    for name in PLAYER_NAMES:
        a = make_player(name).choose(s)
        assert a in set(s.legal_actions()), name


@pytest.mark.slow
@pytest.mark.parametrize("names", [("planner", "random"), ("greedy", "planner")])
def test_complete_two_player_games(names):
    from analysis.tournament import GameSpec, play_game

    r = play_game(GameSpec(0, names, 21))
    assert r.turns > 10 and r.scores == r.history[-1]
