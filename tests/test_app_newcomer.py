"""Pilot tests of issue 24: what a newcomer's first evening ran into (NO_COLOR, festival dialogs
Esc stranded, puzzles without a verdict, labels, autosaves, quitting, small terminals).

Positions are small and hand-built (``tests/festival_positions``) or the collection's own
puzzles, so the tests stay fast.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest
from rich.segment import Segment
from textual.screen import Screen

from core.actions import parse_actions
from core.game import Game
from core.hexmap import parse_hex
from tests.festival_positions import city_position
from tests.helpers import aio, open_app, take_keyboard
from tui.app import create_app, puzzle_dir
from tui.screens.dialogs import ChoiceDialog, MessageScreen, VerdictDialog
from tui.screens.game import GameScreen
from tui.screens.handover import HandOverScreen
from tui.screens.puzzle import PuzzleScreen
from tui.session import Session

SIZE = (120, 40)


pytestmark = pytest.mark.usefixtures("kraton_home", "colour")


def festival_game() -> Session:
    """Two humans, Red to move with a palace 8 on F4 (R30); Yellow can join (R32)."""
    s = city_position(players=2, hands=[["D", "M"], ["D", "DM"]], developers={"F5": 0, "F6": 1})
    return Session.new(s, [None, None])


@aio
async def test_no_color_never_draws_black_on_black(monkeypatch: pytest.MonkeyPatch) -> None:
    """Item 1: with NO_COLOR the side panel and key bar keep a foreground unlike their
    background (Textual's Monochrome made both colour 16 under the ansi-dark theme)."""
    monkeypatch.setenv("NO_COLOR", "1")
    async with open_app(Screen, game=festival_game()) as (app, pilot, _):
        await pilot.pause()
        filters = app.get_line_filters()
        for widget in [app.screen.query_one("#status"), app.screen.query_one("KeyBar"),
                       app.screen.query_one("#board")]:
            seg = [Segment("x", widget.rich_style)]
            for f in filters:
                seg = f.apply(seg, widget.styles.background)
            style = seg[0].style
            assert style is not None
            fg, bg = style.color, style.bgcolor
            # The terminal's default pair is readable; equal explicit colours are not.
            assert fg is None or bg is None or fg.is_default or fg != bg, (widget, style)


@aio
async def test_esc_on_festival_dialog_then_f_reopens_it_r32() -> None:
    """Item 2: Esc on Yellow's bidding dialog leaves him on the board; E says how to get back and
    f reopens the dialog (R32)."""
    game = festival_game()
    s = game.state
    async with open_app(GameScreen, game=game) as (app, pilot, screen):
        screen.board.move_cursor_to(parse_hex("F4"))
        await pilot.press("f", "enter")
        await pilot.pause()
        assert isinstance(app.screen, HandOverScreen)  # hot-seat hand-over (R44)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ChoiceDialog)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen and s.festival is not None
        assert "f" in screen.message and "reopens" in screen.message
        await pilot.press("E")
        assert "reopens the festival dialog" in screen.message
        await pilot.press("f")
        await pilot.pause()
        assert isinstance(app.screen, ChoiceDialog)
        assert "Yellow" in app.screen.title_text


@aio
async def test_festival_dialog_shows_card_worths_stakes_and_announces_result_r31_r34() -> None:
    """Item 7: the dialog shows the face-up card, each card's worth, the highest bid, the
    points at stake, that a bid adds to the cards played; the result is announced."""
    game = festival_game()
    s = game.state
    async with open_app(GameScreen, game=game) as (app, pilot, screen):
        screen.board.move_cursor_to(parse_hex("F4"))
        await pilot.press("f")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, ChoiceDialog)
        assert any("alone 4 points" in label for label, _ in dialog.options)  # palace 8 (R34)
        await pilot.press("enter", "enter")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, ChoiceDialog)
        note = dialog.note
        for text in ("Face-up card [b]DM[/b]", "alone 4 points", "agreement 2",
                     "Highest bid so far", "adds its cards", "DM (worth 2)", "D (worth 1)"):
            assert text in note, text
        assert "decides in the festival" in str(screen.query_one("#status").render())
        labels = [label for label, _ in dialog.options]
        assert any("makes your total" in x for x in labels)
        assert any(x.startswith("pass") for x in labels)
        choices = [a for _, a in dialog.options]
        from core.actions import Pass

        await pilot.press(*["down"] * choices.index(Pass()), "enter")
        await pilot.pause()
        assert s.festival is None
        assert "[b]festival at F4 over[/b]" in screen.message and "Red +4" in screen.message


def puzzle_path(name: str) -> str:
    return str(puzzle_dir() / f"{name}.json")


@aio
async def test_festival_puzzle_ends_with_verdict_and_offers_next_r30() -> None:
    """Items 3 and 10: the festival ends the puzzle's turn (R30): no hand-over screen, the
    verdict says Solved, and n opens the next puzzle of the collection."""
    async with open_app(PuzzleScreen, "puzzle", puzzle_path("festival-01"),
                        keyboard=False) as (app, pilot, screen):
        for a in parse_actions(str(screen.puzzle["line"])):
            screen.human_act(a)
            await pilot.pause()
        assert not isinstance(app.screen, (MessageScreen, HandOverScreen))
        assert isinstance(app.screen, VerdictDialog)
        assert "Solved" in app.screen.body
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, PuzzleScreen)
        assert app.screen.puzzle["id"] == "festival-02"


@aio
async def test_a_hint_shows_under_the_status_at_80x24_and_no_message_takes_no_room() -> None:
    """At 80x24 the side panel does not hold everything: the message (a hint, a refusal, what
    the cursor is on) sits under the status, so H's hint is in sight without scrolling (it
    was below the hand, out of sight). While there is no message it takes no room."""
    async with open_app(PuzzleScreen, "puzzle", puzzle_path("full-turn-66"), size=(80, 24),
                        keyboard=False) as (_, pilot, screen):
        side, message = screen.query_one("#side"), screen.query_one("#message")
        screen.say("")
        await pilot.pause()
        assert not message.display
        await pilot.press("H")
        await pilot.pause()
        assert message.display and "hint: token" in str(message.render())
        assert side.region.y <= message.region.y
        assert message.region.bottom <= side.region.bottom  # in sight


@aio
async def test_each_game_has_its_own_autosave(kraton_home: Path) -> None:
    """Item 6: a second game's autosave never overwrites the first's; reopening an autosave
    goes on writing to it."""
    from tui.saves import load_game

    first = festival_game()
    second = festival_game()
    async with open_app(Screen, game=first) as (app, pilot, _):
        await pilot.press("d")  # draw from the deck (R36): one action, autosaved
        await pilot.pause()
        app.open_game(second)
        await take_keyboard(pilot)
        await pilot.press("d", "d")
        await pilot.pause()
    assert first.autosave and second.autosave and first.autosave != second.autosave
    # R44: the seed reproduces every hand; no file name shows it
    for path in (first.autosave, second.autosave):
        assert re.fullmatch(r"autosave-\d{8}-\d{6}(-\d+)?\.json", os.path.basename(path))
    assert len(load_game(first.autosave).state.history) == 1
    assert len(load_game(second.autosave).state.history) == 2
    again = load_game(first.autosave)
    async with open_app(Screen, game=again) as (_, pilot, _):
        await pilot.press("d")
        await pilot.pause()
    assert again.autosave == first.autosave
    assert len(load_game(first.autosave).state.history) == 2
    assert len(list((kraton_home / "saves").glob("autosave-*.json"))) == 2


@aio
async def test_q_asks_before_quitting_a_game_in_progress() -> None:
    """Item 6: q in a game in progress asks (and names the autosave); n stays, y quits."""
    from tui.screens.dialogs import ConfirmDialog

    async with open_app(Screen, game=festival_game()) as (app, pilot, screen):
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmDialog)
        assert "autosave-" in app.screen.body
        await pilot.press("n")
        await pilot.pause()
        assert app.screen is screen and app.is_running
        await pilot.press("ctrl+q")  # Textual's own quit key asks too
        await pilot.pause()
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen and app.is_running
        await pilot.press("q", "y")
        await pilot.pause()
        assert not app.is_running


GAME = str(puzzle_dir() / "games" / "planner-30.json")


@aio
async def test_a_loaded_finished_game_shows_every_final_count_and_its_seats_r41(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Item 5: the final counts (R41) made before the file was loaded are found from the
    game's steps, and a record tagged ``planner x4`` has four computer seats, also in the
    browser. Issue 22: a finished game opens in review mode, at its end, with the counts."""
    import tui.screens.review as review_mod
    from tui.saves import load_game
    from tui.screens.browse import summary
    from tui.screens.review import ReviewScreen

    monkeypatch.setattr(review_mod, "evaluate", lambda task: {"player": task.player, "played": 0,
                                                              "best": 0, "mark": ""})

    game = load_game(GAME)
    assert game.seats == ["planner"] * 4
    assert "human" not in summary(game)
    async with open_app(ReviewScreen, "play", GAME, keyboard=False) as (_, _, screen):
        lines = [x for x in screen.status_text().splitlines() if "final count" in x]
        assert len(lines) == 4
        for line in lines:
            count = line.split("final count")[1].split()[0]
            assert count.isdigit(), line


def test_last_round_lifts_the_tile_obligation_label_r40() -> None:
    """Item 5: in the last round no tile is owed (R40), and the panel says so."""
    from tui.panel import status_text

    s = city_position(players=2, hands=[[], []], tile_placed=False)
    assert "[b]owed[/b] (R8)" in status_text(s, [None, None], "look")
    s.last_round = [1]
    text = status_text(s, [None, None], "look")
    assert "owed[/b]" not in text and "last round, R40" in text


def test_off_line_hint_claims_nothing_the_solver_has_not_proved() -> None:
    """Item 5: "nothing more scores" only with a proof; otherwise the hint says it is unproved."""
    from types import SimpleNamespace

    from tui.screens.puzzle import solver_hint_text

    unproved = SimpleNamespace(line=[], best=0, optimal=False)
    assert "nothing more scores" not in solver_hint_text(unproved)
    assert "not proved" in solver_hint_text(unproved)
    proved = SimpleNamespace(line=[], best=0, optimal=True)
    assert "nothing more scores (proved)" in solver_hint_text(proved)


def test_text_slips_plural_hex_names_and_empty_report_headers(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Item 12: '1 tile', a bad hex name cites the notation and the map's real size (not R10),
    the study report never prints a header with nothing under it."""
    from analysis.report import position_report, report_text
    from core.actions import parse_action
    from core.errors import NotationError
    from core.position import save_position
    from tui.panel import plural

    assert plural(1, "tile") == "1 tile" and plural(2, "tile") == "2 tiles"
    with pytest.raises(NotationError) as e:
        parse_action("tile Z99v")
    assert "R10" not in str(e.value) and "notation.md" in str(e.value)
    s = city_position(players=2, hands=[[], []])
    path = tmp_path / "p.json"
    save_position(s, str(path))
    from tui.cli import main

    assert main(["apply", str(path), "tile Z99v"]) == 2
    err = capsys.readouterr().err
    assert "R10" not in err and "columns 1..19" in err, err
    from core.state import GameState

    fresh = GameState.new(2, seed=1)
    fresh.push(parse_action("tile G6v"))
    lines = report_text(fresh, position_report(fresh, solve=False)).splitlines()
    for i, line in enumerate(lines[:-1]):
        if line.endswith(":"):
            assert lines[i + 1].startswith("  "), (line, lines[i + 1])


def _study_app(monkeypatch: pytest.MonkeyPatch, answer: object, shown: object = None) -> Any:
    """The app on a game record after 120 actions (mid-game: the record's end has no turn to
    solve), its solver replaced by one that reports ``shown`` as its search goes (issue 21)
    and answers ``answer``."""
    import tui.screens.study as study_mod
    from core.state import GameState
    from tui.saves import load_game

    def fake_solve(state: GameState, time_limit: float | None = None,
                   progress: object = None) -> object:
        if callable(progress) and shown is not None:
            progress(shown)
        return answer

    monkeypatch.setattr(study_mod, "solve_best", fake_solve)
    game = load_game(GAME)
    while len(game.game.actions) > 120:
        game.game.undo()
    game.seats = [None] * 4
    return create_app(game=game, step_delay=0)


async def _open_study(app: Any, pilot: Any) -> Any:
    """``a`` opens the study view; its solver's worker has answered when this returns."""
    from tui.screens.study import StudyScreen

    await pilot.press("a")
    await pilot.pause()
    study = app.screen
    assert isinstance(study, StudyScreen)
    await app.workers.wait_for_complete()
    await pilot.pause()
    return study


@aio
async def test_study_view_best_turn_on_top_tables_unwrapped_pagedown_scrolls(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Item 9: the best turn is the first thing of the panel, the tables keep their lines
    (hex names whole, no wrapping in a narrow panel), PageDown scrolls, w widens."""
    from types import SimpleNamespace

    from tui.board import BoardView

    app = _study_app(monkeypatch, SimpleNamespace(best=0, line=[], optimal=True),
                     SimpleNamespace(best=0, bound=3, line=[], seconds=0.1))
    async with app.run_test(size=(120, 16)) as pilot:
        await take_keyboard(pilot)
        study = await _open_study(app, pilot)
        side = study.query_one("#study-side")
        solver, report = study.query_one("#solver"), study.query_one("#report")
        assert solver.region.y < report.region.y  # the best turn on top
        longest = max(len(x) for x in str(report.render()).splitlines())
        assert report.size.width >= longest  # no line wrapped
        assert side.max_scroll_y > 0
        await pilot.press("pagedown")
        await pilot.pause()
        assert side.scroll_y > 0
        await pilot.press("w")
        await pilot.pause()
        assert not study.query_one(BoardView).display


@aio
async def test_study_view_best_turn_wraps_at_80_columns_one_whole_action_a_row(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """At 80x24 the best turn stays inside its column: the panel is narrow, so its text wraps
    (it was cut at the right edge), and the line is numbered steps, one a row, so no action's
    text is split."""
    from types import SimpleNamespace

    line = parse_actions("irrigate G9; irrigate G8; irrigate F7; tile F5v F6r; move G14 J16")
    app = _study_app(monkeypatch, SimpleNamespace(best=12, line=line, optimal=False, bound=30))
    async with app.run_test(size=(80, 24)) as pilot:
        await take_keyboard(pilot)
        study = await _open_study(app, pilot)
        side, solver = study.query_one("#study-side"), study.query_one("#solver")
        assert solver.region.right <= side.content_region.right  # inside the column
        rows = [r.strip() for r in str(solver.render()).splitlines()]
        for i, a in enumerate(line, 1):
            assert f"{i}. {a}" in rows  # each action whole on its own row
        assert "no line scores more than 30" in " ".join(rows)


@aio
async def test_puzzle_browser_groups_and_orders_puzzles_with_difficulty_and_theme() -> None:
    """Item 10: puzzles first in the collection's order (one-ap-01 … before one-ap-06), the
    game records apart, each puzzle line with difficulty and theme, one line each."""
    from textual.widgets import OptionList

    from tui.screens.browse import BrowseScreen

    app = create_app("puzzle")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, BrowseScreen)
        titles = [t for t, _ in screen.groups]
        assert titles[0] == "Puzzles" and "Games" in titles
        names = [p.stem for p, _ in screen.groups[0][1]]
        from puzzles.loader import puzzle_files

        assert len(names) == len(puzzle_files()) and not any(n.startswith("planner") for n in names)
        ones = [n for n in names if n.startswith("one-ap")]
        assert ones == sorted(ones) and ones[0] == "one-ap-01"
        opts = screen.query_one(OptionList)
        label = str(opts.get_option_at_index(opts.highlighted or 0).prompt)
        assert names[0] in label and screen.groups[0][1][0][1]["difficulty"] in label
        current = screen.current()
        assert current is not None and current.stem == names[0]


@aio
async def test_80x24_new_game_and_help_fit_and_column_numbers_stay() -> None:
    """Item 11: at 80x24 the new-game screen shows its Start button, the help dialog fits the
    width, and the column numbers stay on top when the board scrolls down."""
    from textual.widgets import Button

    from tui.screens.dialogs import HelpScreen

    small = (80, 24)
    app = create_app(step_delay=0, seed=3)
    async with app.run_test(size=small) as pilot:
        await pilot.pause()
        start = app.screen.query_one("#start", Button)
        region = start.region
        assert region.height > 0 and region.bottom <= small[1] and region.right <= small[0]
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        assert app.screen.query_one(".dialog").region.right <= small[0]
    async with open_app(GameScreen, game=festival_game(), size=small) as (app, pilot, screen):
        for _ in range(8):
            await pilot.press("j")
        await pilot.pause()
        board = screen.board
        assert board.scroll_offset.y > 0
        top = board.render_line(0).text.split()
        assert top and all(t.isdigit() for t in top), top  # the column numbers, not a row


@aio
async def test_log_has_turns_points_and_reasons_and_board_marks_the_computers_turn_r29(
        ) -> None:
    """Item 8: the log heads each turn with its player and points, a score change names its
    rule (palace, R29); after a computer player's turn its hexes are marked on the board."""
    from core.actions import parse_action
    from core.state import GameState

    s = GameState.new(2, seed=1, names=["Ann", "Bob"])
    s.to_move = 0
    game = Game(s, [None, "random"])
    app = create_app(game=game, step_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, GameScreen)
        for text in ("tile B6v B7r C7r", "enter B6", "tile C6v", "palace C6 2"):
            screen.human_act(parse_action(text))
        log = screen.log_text()
        assert "[b]A Ann[/b], turn 1: +1" in log
        assert "palace C6 2  [b]A +1[/b] (palace, R29)" in log
        assert "+1" in screen.message and "R29" in screen.message
        screen.human_act(parse_action("end"))
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        movers = [st.player for st in game.steps]
        assert s.to_move == 0 and len(movers) > 5
        assert "[b]B Bob[/b], turn 2" in screen.log_text()
        bob = [a for a, p in zip(s.history, movers) if p == 1]
        from tui.turnlog import touched

        marked = {h for a in bob for h in touched(a)}
        assert marked and screen.board.recent == marked


@aio
async def test_puzzle_verdict_also_after_solution_steps_then_own_festival_r30() -> None:
    """Item 3: S steps part of the solution, the player ends with his own festival (R30):
    the verdict still comes, saying the solution helped."""
    async with open_app(PuzzleScreen, "puzzle", puzzle_path("festival-01"),
                        keyboard=False) as (app, pilot, screen):
        line = parse_actions(str(screen.puzzle["line"]))
        await pilot.press(*["S"] * (len(line) - 1))
        screen.human_act(line[-1])
        await pilot.pause()
        assert isinstance(app.screen, VerdictDialog)
        assert "Solved" in app.screen.body and "solution" in app.screen.body
        await pilot.press("escape", "t")  # the next seat's turn is no part of the puzzle
        assert app.screen is screen and "turn is over" in screen.message
        assert screen.mode == "look"


@aio
async def test_a_name_longer_than_the_panels_take_stops_while_typed() -> None:
    """The new-game form takes 16 characters of a name as they are typed (not cut silently
    when the game starts)."""
    from textual.widgets import Input

    from tui.screens.newgame import NAME_CHARS, NewGameScreen

    app = create_app(step_delay=0, seed=3)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)
        field = app.screen.query_one("#name-0", Input)
        field.focus()
        field.value = ""
        await pilot.press(*"Alice the Extremely Patient")
        assert field.value == "Alice the Extremely Patient"[:NAME_CHARS] and NAME_CHARS == 16
