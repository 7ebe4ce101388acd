"""Snapshot tests of the board in the app at 120x40 (pytest-textual-snapshot): an empty board,
a mid-game with terraces, developers and a palace, and the end of a game.

Regenerate with ``pytest tests/test_app_snapshots.py --snapshot-update`` and look at the SVGs in
``tests/__snapshots__/`` before committing them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from core.actions import parse_actions
from core.game import Game
from core.state import GameState
from tui.app import create_app
from tui.session import Session

SIZE = (120, 40)


pytestmark = pytest.mark.usefixtures("kraton_home")


MID_GAME = [
    "tile A6v A7r B6r; enter A6; end", "tile L9v M10r; end",
    "tile A8v B7r B8r; enter A7; end", "tile L6v L7r; end",
    "tile A12v A13r B12r; enter A8; end", "tile K18v L18r; end",
    "tile A14v B13r B14r; enter A12; end", "tile K16v L16r; end",
    "tile A13v A14r B13r; enter A13; end", "tile K14v K13r; end",
    "tile B5v C5r C6r; enter A14; end", "tile L8v K8r; end",
    "tile B5v B6r C6r; enter B5; end", "tile L7v K8r; end",
    "tile B9v B10r C10r; enter B6; end", "tile K5v L5r; end",
    "tile B11v C11r C12r; enter B7; end", "tile K4v K3r; palace B11 2; end",
    "tile B10v C10r C11r; enter B8; end", "tile J18v J17r; end",
    "tile J17v J18r K18r; enter B9; palace B11 4; end", "tile J16v K17r; end",
    "tile J16v K16r K17r; enter B10; end", "tile J17v K17r; end",
]


def mid_game() -> GameState:
    """A fixed game of 24 turns: terraces up to level 3 (R12, R13), developers, a palace 4."""
    s = GameState.new(3, seed=11, names=["Ann", "Bob", "Cid"])
    s.to_move = 0
    for a in parse_actions("; ".join(MID_GAME)):
        s.push(a)
    return s


def game_of(s: GameState) -> Game:
    """Every seat human (hot-seat): the app opens on the hand-over (R44), Enter takes it."""
    return Game(s, [None] * s.n_players)


def test_snapshot_empty_board(snap_compare: Any) -> None:
    s = GameState.new(3, seed=1, names=["Ann", "Bob", "Cid"])
    s.to_move = 0
    assert snap_compare(create_app(game=game_of(s), step_delay=0), terminal_size=SIZE,
                        press=["enter"])  # Ann takes the keyboard (R44)


def test_snapshot_mid_game_terraces(snap_compare: Any) -> None:
    s = mid_game()
    assert max(s.level) >= 3 and any(s.palace) and any(d >= 0 for d in s.dev)
    assert snap_compare(create_app(game=game_of(s), step_delay=0), terminal_size=SIZE,
                        press=["enter", "t"])


def test_snapshot_end_of_game_r40(snap_compare: Any) -> None:
    s = mid_game()
    s.last_round = []
    for p in s.players:
        p.final_counted = True
    assert s.is_terminal()
    assert snap_compare(create_app(game=game_of(s), step_delay=0), terminal_size=SIZE)


# Issue 24: the main screens at 120x40 and 80x24 and without colour (NO_COLOR); look at the
# SVGs as images (rsvg-convert x.svg -o x.png) before committing them.
SMALL = (80, 24)


def test_snapshot_mid_game_80x24(snap_compare: Any) -> None:
    assert snap_compare(create_app(game=game_of(mid_game()), step_delay=0), terminal_size=SMALL,
                        press=["enter", "j", "j", "j", "j", "j", "j"])


def test_snapshot_mid_game_no_color(snap_compare: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    assert snap_compare(create_app(game=game_of(mid_game()), step_delay=0), terminal_size=SIZE,
                        press=["enter", "t"])


def test_snapshot_new_game_80x24(snap_compare: Any) -> None:
    assert snap_compare(create_app(step_delay=0, seed=3), terminal_size=SMALL)


def test_snapshot_new_game_80x24_no_color_focus_and_choice_show(
        snap_compare: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without colour and without the fields' borders (under 30 lines) the focused field is in
    reverse video and the highlighted choice of an open list bold and underlined."""
    monkeypatch.setenv("NO_COLOR", "1")
    assert snap_compare(create_app(step_delay=0, seed=3), terminal_size=SMALL,
                        press=["tab", "tab", "tab", "tab", "tab", "tab", "enter", "down"])


def test_snapshot_new_game_no_color(snap_compare: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    assert snap_compare(create_app(step_delay=0, seed=3), terminal_size=SIZE)


def festival_app() -> Any:
    from tests.festival_positions import city_position

    s = city_position(players=2, hands=[["D", "M"], ["D", "DM"]], developers={"F5": 0, "F6": 1})
    s.players[0].name, s.players[1].name = "Ann", "Bob"
    return create_app(game=Game(s, [None, "planner"]), step_delay=0)


async def open_festival(pilot: Any) -> None:
    from core.hexmap import parse_hex

    pilot.app.screen.board.move_cursor_to(parse_hex("F4"))
    await pilot.press("f")
    await pilot.pause()


def test_snapshot_festival_dialog(snap_compare: Any) -> None:
    """The opening dialog: face-up card, card worths, the points at stake (R30-R34)."""
    assert snap_compare(festival_app(), terminal_size=SIZE, run_before=open_festival)


def test_snapshot_festival_dialog_80x24(snap_compare: Any) -> None:
    assert snap_compare(festival_app(), terminal_size=SMALL, run_before=open_festival)


def test_snapshot_puzzle_verdict(snap_compare: Any) -> None:
    """A festival puzzle played to its end: the verdict and the next puzzle (issue 24)."""
    from core.actions import parse_actions
    from tui.app import puzzle_dir

    async def play(pilot: Any) -> None:
        await pilot.pause()
        screen = pilot.app.screen
        for a in parse_actions(str(screen.puzzle["line"])):
            screen.human_act(a)
            await pilot.pause()

    app = create_app("puzzle", str(puzzle_dir() / "festival-01.json"))
    assert snap_compare(app, terminal_size=SIZE, run_before=play)


def test_snapshot_festival_bidding_dialog(snap_compare: Any, tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """The second player's decision: every bid so far, the highest, what each choice makes his
    total, and that bids add up (R31-R34); two humans, after the hand-over screen (R44)."""
    from tests.festival_positions import city_position

    s = city_position(players=2, hands=[["D", "M"], ["D", "DM"]], developers={"F5": 0, "F6": 1})
    s.players[0].name, s.players[1].name = "Ann", "Bob"
    game = Session.new(s, [None, None])
    monkeypatch.chdir(tmp_path)
    game.autosave = "autosave-snapshot.json"  # the autosave notice names a fixed file
    app = create_app(game=game, step_delay=0)

    async def bid(pilot: Any) -> None:
        await pilot.press("enter")  # the hand-over screen: Ann is at the keyboard
        await pilot.pause()
        await open_festival(pilot)
        await pilot.press("enter")  # Ann opens with M (worth 1)
        await pilot.pause()
        await pilot.press("enter")  # the hand-over screen: Bob is at the keyboard
        await pilot.pause()

    assert snap_compare(app, terminal_size=SIZE, run_before=bid)
