"""Issue 23, hidden information in the app (R44): no seed shown, the shuffle from the OS, the
study on what the player may see, no undo of a draw, no hand before the hand-over is confirmed.
"""

from __future__ import annotations

import random

import pytest

from core.actions import parse_action
from core.game import Game, as_seen_by
from core.state import GameState
from tests.test_app import SIZE, aio, two_humans
from tui.app import create_app
from tui.screens.game import GameScreen
from tui.screens.handover import HandOverScreen
from tui.screens.newgame import NewGameScreen, seed_from

pytestmark = pytest.mark.usefixtures("kraton_home")


def test_r44_seed_from_the_os_unless_typed() -> None:
    assert seed_from("42", None) == 42 and seed_from("-7", None) == -7
    assert seed_from("", 9) == 9
    drawn = {seed_from("", None) for _ in range(20)}
    assert len(drawn) == 20 and max(drawn) > 10**12  # 63 bits, not a few hundred candidates
    assert seed_from("²", None) != 2  # int() would read it; a typed seed is ASCII digits


@aio
async def test_r44_new_game_screen_shows_no_seed_it_chose() -> None:
    app = create_app(step_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, NewGameScreen)
        from textual.widgets import Input

        assert screen.query_one("#seed", Input).value == ""
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)


def test_r44_as_seen_by_does_not_depend_on_hidden_cards() -> None:
    """Two states that differ only in the opponent's hand and the deck look the same to
    player 0, so anything computed on as_seen_by (the study view) is the same too."""
    a = GameState.new(2, seed=5)
    b = a.copy()
    b.players[1].hand, b.deck = b.deck[:3], b.players[1].hand + b.deck[3:]
    assert a.players[1].hand != b.players[1].hand
    sa, sb = as_seen_by(a, 0, random.Random(1)), as_seen_by(b, 0, random.Random(1))
    assert sa.players[1].hand == sb.players[1].hand and sa.deck == sb.deck
    assert sa.players[0].hand == a.players[0].hand


@aio
async def test_r44_study_in_a_game_uses_the_players_view_and_says_so() -> None:
    from tui.screens.study import StudyScreen

    game = two_humans("tile B6v B7r C7r")
    real = list(game.state.players[1].hand) + list(game.state.deck)
    app = create_app(game=game, step_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("a")
        await pilot.pause()
        study = app.screen
        assert isinstance(study, StudyScreen)
        assert "Ann sees it (R44)" in str(study.query_one("#report").render())
        seen = study.start
        assert seen.players[0].hand == game.state.players[0].hand
        assert sorted(seen.players[1].hand + seen.deck) == sorted(real)
        await app.workers.wait_for_complete()
        await pilot.press("escape")


@aio
async def test_r44_a_deck_draw_cannot_be_undone() -> None:
    game = two_humans("tile B6v B7r C7r")
    s = game.state
    app = create_app(game=game, step_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, GameScreen)
        await pilot.press("d")
        await pilot.pause()
        drawn = len(s.history)
        assert str(s.history[-1]) == "draw deck"
        await pilot.press("u")
        await pilot.pause()
        assert len(s.history) == drawn and "cannot be undone" in screen.message


@aio
async def test_r44_q_and_escape_do_not_dismiss_the_hand_over() -> None:
    game: Game = two_humans()
    app = create_app(game=game, step_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, GameScreen)
        game.apply_action(parse_action("tile B6v B7r C7r"))
        await pilot.press("E")
        await pilot.pause()
        assert isinstance(app.screen, HandOverScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, HandOverScreen) and "hidden" in screen.hand_text()
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is screen and "Hand of Bob" in screen.hand_text()
