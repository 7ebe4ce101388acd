"""Issue 23, hidden information in the app (R44): no seed shown, the shuffle from the OS, the
study on what the player may see, no undo of a draw, no hand before the hand-over is confirmed.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from textual.screen import Screen

from core.actions import parse_action
from core.game import Game, as_seen_by
from core.state import GameState
from tests.helpers import open_app
from tests.test_app import SIZE, aio, two_humans
from tui.app import create_app
from tui.keybar import KeyBar
from tui.screens.game import GameScreen
from tui.screens.handover import HandOverScreen
from tui.screens.newgame import NewGameScreen, seed_from
from tui.session import Session

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
    async with open_app(Screen, game=game) as (app, pilot, _):
        await pilot.press("a")
        await pilot.pause()
        study = app.screen
        assert isinstance(study, StudyScreen)
        assert "Ann sees it (R44)" in str(study.query_one("#study-note").render())
        seen = study.start
        assert seen.players[0].hand == game.state.players[0].hand
        assert sorted(seen.players[1].hand + seen.deck) == sorted(real)
        await app.workers.wait_for_complete()
        await pilot.press("escape")


@aio
async def test_r44_a_deck_draw_cannot_be_undone() -> None:
    game = two_humans("tile B6v B7r C7r")
    s = game.state
    async with open_app(GameScreen, game=game) as (_, pilot, screen):
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
    async with open_app(GameScreen, game=game) as (app, pilot, screen):
        game.apply_action(parse_action("tile B6v B7r C7r"))
        await pilot.press("E")
        await pilot.pause()
        assert isinstance(app.screen, HandOverScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, HandOverScreen) and "hidden" in screen.hand_text()
        keys = str(screen.query_one(KeyBar).render())
        assert "Ready" in keys and "Quit" in keys and "End turn" not in keys  # what works here
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is screen and "Hand of Bob" in screen.hand_text()
        assert "End turn" in str(screen.query_one(KeyBar).render())


# ------------------------------------------------- who is at the keyboard is not known (R44)
def _screen_text(app: object) -> str:
    """Everything the game screen under the dialogs shows in its panels."""
    from textual.widgets import Static

    screen = next(s for s in app.screen_stack if isinstance(s, GameScreen))  # type: ignore[attr-defined]
    return "\n".join(str(w.render()) for w in screen.query(Static))


@aio
async def test_r44_a_hot_seat_game_opens_on_the_hand_over_with_every_hand_hidden() -> None:
    game = two_humans("tile B6v B7r C7r")
    ann = game.state.players[0]
    async with open_app(HandOverScreen, game=game, keyboard=False) as (app, pilot, hand_over):
        assert ann.name in hand_over.title_text
        shown = _screen_text(app)
        assert "Hand of" not in shown and "hidden" in shown
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        assert f"Hand of {ann.name}" in _screen_text(app)


@aio
async def test_r44_a_saved_hot_seat_game_opened_again_hands_over_first(kraton_home: Path) -> None:
    from tui.saves import save_game

    game = two_humans("tile B6v B7r C7r", "end")  # Bob to act
    kraton_home.mkdir(parents=True, exist_ok=True)
    path = kraton_home / "hot-seat.json"
    save_game(Session(game), str(path))
    async with open_app(HandOverScreen, "play", path, keyboard=False) as (app, _, hand_over):
        assert "Bob" in hand_over.title_text
        assert "Hand of" not in _screen_text(app)


@aio
async def test_r44_nothing_opens_from_the_command_palette_behind_the_hand_over() -> None:
    game = two_humans()
    async with open_app(Screen, game=game) as (app, pilot, _):
        assert "Browse saves" in {c.title for c in app.get_system_commands(app.screen)}
        app.screen.hand_over(1)  # type: ignore[attr-defined]
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, HandOverScreen)
        # app.screen is screen, typed as the Screen[object] that get_system_commands takes
        titles = {c.title for c in app.get_system_commands(app.screen)}
        assert not titles & {"Browse saves", "New game", "Puzzles", "Study position"}


def test_r44_the_browsers_study_of_a_hot_seat_game_deals_every_hand() -> None:
    from tui.screens.browse import study_view

    game = two_humans("tile B6v B7r C7r")
    s = game.state
    other = two_humans("tile B6v B7r C7r")
    o = other.state
    k = len(s.players[0].hand)
    o.players[0].hand, o.deck = o.deck[:k], s.players[0].hand + o.deck[k:]
    assert o.players[0].hand != s.players[0].hand  # the mover's hidden hand differs
    seen, note = study_view(Session(game), random.Random(3))
    seen_o, _ = study_view(Session(other), random.Random(3))
    assert "onlooker" in note and "(R44)" in note
    assert [p.hand for p in seen.players] == [p.hand for p in seen_o.players]
    assert seen.deck == seen_o.deck
    dealt = sorted([*(c for p in seen.players for c in p.hand), *seen.deck])
    assert dealt == sorted([*(c for p in s.players for c in p.hand), *s.deck])


def test_r44_the_browsers_study_takes_the_only_humans_view_and_a_puzzles_as_it_is() -> None:
    from tui.screens.browse import study_view

    game = two_humans("tile B6v B7r C7r")
    game.seats = [None, "planner"]
    seen, note = study_view(Session(game), random.Random(3))
    assert seen.players[0].hand == game.state.players[0].hand and "Ann sees it (R44)" in note
    game.seats = ["planner", "planner"]  # computers only: nothing hidden from anyone at the keyboard
    seen, note = study_view(Session(game), random.Random(3))
    assert note == "" and seen.players[1].hand == game.state.players[1].hand


@aio
@pytest.mark.parametrize(("quit_key", "stay_key"), [("q", "n"), ("ctrl+q", "escape")])
async def test_r44_quitting_on_the_hand_over_asks_first_and_shows_no_hand(quit_key: str,
                                                                         stay_key: str) -> None:
    """q on the hand-over, or Textual's own quit key, asks the question q asks in the game
    (naming the autosave), with no hand shown behind it (R44); no (n, Escape) goes back to the
    hand-over, still with no hand shown; yes quits."""
    from tui.screens.dialogs import ConfirmDialog

    game = two_humans("tile B6v B7r C7r")
    async with open_app(HandOverScreen, game=game, keyboard=False) as (app, pilot, _):
        await pilot.press(quit_key)
        await pilot.pause()
        assert app.is_running and isinstance(app.screen, ConfirmDialog)
        assert app.screen.title_text == "Quit the game in progress?" and "autosave-" in app.screen.body
        assert "Hand of" not in _screen_text(app) and "hidden" in _screen_text(app)
        await pilot.press(stay_key)
        await pilot.pause()
        assert app.is_running and isinstance(app.screen, HandOverScreen)
        assert "Hand of" not in _screen_text(app)
        await pilot.press(quit_key)
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        assert not app.is_running
