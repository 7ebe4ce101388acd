"""Issue 22 in the app: the controller, looking back through a game, the last turn's marks, the
review mode with best vs played filling in from workers, the score chart, comments."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.screen import Screen

from analysis.review import mark_for
from core.actions import parse_action
from core.game import Game
from core.hexmap import parse_hex
from core.record import load_record
from core.state import GameState
from tests.helpers import aio, open_app
from tui.app import create_app, puzzle_dir
from tui.chart import ScoreChart, chart_cells
from tui.controller import Controller
from tui.saves import load_game
from tui.screens.dialogs import ConfirmDialog
from tui.screens.game import GameScreen
from tui.screens.review import ReviewScreen
from tui.session import Session

SIZE = (120, 40)
RECORD = str(puzzle_dir() / "games" / "planner-38.json")
TURNS = ["tile B6v B7r C7r", "enter B6", "end",
         "tile L9v M10r", "end",
         "tile C6v", "palace C6 2", "end"]


pytestmark = pytest.mark.usefixtures("kraton_home", "colour")


def three_turns() -> Game:
    """Ann and Bob (two humans) after three turns: Ann, Bob, Ann (a palace, +1, R29)."""
    s = GameState.new(2, seed=1, names=["Ann", "Bob"])
    s.to_move = 0
    g = Game(s, [None, None])
    for a in TURNS:
        g.apply_action(parse_action(a))
    return g


def fake_evaluate(task: Any) -> dict[str, Any]:
    """A stand-in for the solver (which has its own tests): best = played + turn number mod 7."""
    missed = task.turn % 7
    return {"player": task.player, "first": task.first, "end": task.end,
            "played": task.real_points, "best": task.real_points + missed,
            "bound": task.real_points + missed, "proved": True, "line": "tile A1v",
            "engine": "fake", "seconds": 0.0, "mark": mark_for(missed), "seen": task.seen}


# ---------------------------------------------------------------------- the controller
def test_controller_preview_never_touches_the_live_state(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 22: a tile preview runs on a copy; pushing on the live state would raise here."""
    from core.hexgeom import TileShape

    g = three_turns()
    ctl = Controller(Session(g))
    live = g.state
    push, pop = GameState.push, GameState.pop

    def checked_push(self: GameState, a: Any) -> None:
        assert self is not live, "the live state was pushed"
        push(self, a)

    def checked_pop(self: GameState) -> Any:
        assert self is not live, "the live state was popped"
        return pop(self)

    monkeypatch.setattr(GameState, "push", checked_push)
    monkeypatch.setattr(GameState, "pop", checked_pop)
    pv = ctl.preview_tile(TileShape(3), parse_hex("H10"))
    assert pv.action is not None and pv.message.startswith(("legal", "illegal"))
    assert ctl.preview(parse_action("enter B6")).message


def test_controller_looks_back_on_copies_and_refuses_play_meanwhile() -> None:
    g = three_turns()
    ctl = Controller(Session(g))
    live = g.state
    seen = ctl.view_at(2)
    assert seen is not live and len(seen.history) == 2 and len(live.history) == len(TURNS)
    assert ctl.looking_back and "looking back" in (ctl.refusal() or "")
    with pytest.raises(Exception, match="looking back"):
        ctl.apply(parse_action("end"))
    assert ctl.step_turn(1) and ctl.shown == 3  # the end of Ann's first turn
    assert ctl.step_turn(-1) and ctl.shown == 0
    ctl.apply(parse_action("tile L7v L8r"), by_user=False)  # a computer player goes on
    assert ctl.shown == 0 and len(g.actions) == len(TURNS) + 1
    ctl.present()
    assert not ctl.looking_back and ctl.view() is live


def test_controller_undo_redo_stays_in_the_turn_and_keeps_draws_r44() -> None:
    g = three_turns()
    ctl = Controller(Session(g))
    ctl.apply(parse_action("tile L7v L8r"))
    assert str(ctl.undo()) == "tile L7v L8r" and g.can_redo
    assert str(ctl.redo()) == "tile L7v L8r" and len(g.actions) == len(TURNS) + 1
    ctl.apply(parse_action("draw deck"))
    with pytest.raises(Exception, match="cannot be undone"):
        ctl.undo()


# ---------------------------------------------------------------------- looking back in play
@aio
async def test_step_by_action_by_turn_home_end_and_back_to_the_present() -> None:
    g = three_turns()
    n = len(g.actions)
    async with open_app(GameScreen, game=g) as (_, pilot, screen):
        await pilot.pause()
        await pilot.press("comma")
        assert screen.ctl.shown == n - 1 and "Looking back" in screen.status_text()
        assert screen.board.state is not g.state and screen.board.state.palace[parse_hex("C6")] == 2
        await pilot.press("comma")
        assert screen.board.state.palace[parse_hex("C6")] == 0  # before "palace C6 2"
        await pilot.press("less_than_sign")
        assert screen.ctl.shown == 5  # the end of Bob's turn
        await pilot.press("less_than_sign")
        assert screen.ctl.shown == 3
        await pilot.press("full_stop")
        assert screen.ctl.shown == 4 and "action 4: B Bob tile L9v M10r" in screen.message
        await pilot.press("greater_than_sign")
        assert screen.ctl.shown == 5
        await pilot.press("home")
        assert screen.ctl.shown == 0 and not any(screen.board.state.level)
        await pilot.press("t")  # no play while looking back: one line, nothing changes
        assert "looking back" in screen.message and screen.mode == "look"
        assert len(g.actions) == n and g.state.palace[parse_hex("C6")] == 2
        await pilot.press("end")
        assert not screen.ctl.looking_back and screen.board.state is g.state
        await pilot.press("comma", "comma", "escape")  # Esc returns to the present too
        assert not screen.ctl.looking_back
        await pilot.press("t")
        assert screen.mode == "tile"


@aio
async def test_the_last_turns_hexes_are_marked_and_follow_the_cursor() -> None:
    g = three_turns()
    async with open_app(GameScreen, game=g) as (_, pilot, screen):
        await pilot.pause()
        c6 = parse_hex("C6")
        assert screen.board.recent == {c6}  # Ann's last turn: a tile and a palace on C6
        await pilot.press("less_than_sign")
        assert screen.board.recent == {parse_hex("L9"), parse_hex("M10")}  # Bob's turn
        await pilot.press("home", "greater_than_sign")
        assert screen.board.recent == {parse_hex(h) for h in ("B6", "B7", "C7")}
        assert screen.board._style("recent").underline  # marked without colour too


@aio
async def test_the_move_list_lists_turns_with_points_and_marks() -> None:
    g = three_turns()
    for a in ("tile L7v L8r", "end"):  # Bob's second turn: Ann (the viewer) is to move
        g.apply_action(parse_action(a))
    g.evaluations[3] = {"player": 0, "played": 1, "best": 9, "proved": True, "mark": "?",
                        "seen": "player"}
    async with open_app(GameScreen, game=g) as (_, pilot, screen):
        await pilot.pause()
        log = screen.log_text()
        assert "[b]B Bob[/b], turn 2: +0" in log
        assert "[b]A Ann[/b], turn 3: +1  [b]?[/b] best 9" in log  # Ann's own turn (R44)
        assert "palace C6 2  [b]A +1[/b] (palace, R29)" in log
        assert "[b]B Bob[/b], turn 4: +0\n" in log
        g.evaluations[2] = {"player": 1, "played": 0, "best": 5, "proved": True, "mark": "?",
                            "seen": "all"}
        screen.refresh_all()
        assert "turn 2: +0  [b]?" not in screen.log_text()  # not Bob's, during play (R44)


# ---------------------------------------------------------------------- review mode
def _review_copy(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """A copy of planner-38's record to review, its evaluations faked (``fake_evaluate``)."""
    import tui.screens.review as review_mod

    monkeypatch.setattr(review_mod, "evaluate", fake_evaluate)
    path = tmp_path / "planner-38.json"
    path.write_text(Path(RECORD).read_text())
    return path


@aio
async def test_review_mode_opens_a_record_and_fills_in_turn_by_turn(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    path = _review_copy(monkeypatch, tmp_path)
    async with open_app(ReviewScreen, "review", path, keyboard=False) as (app, pilot, screen):
        await app.workers.wait_for_complete()
        await pilot.pause()
        g = screen.game
        assert g.is_terminal() and len(screen.tasks) > 40
        assert set(g.evaluations) == {t.turn for t in screen.tasks}
        assert all(ev["seen"] == "all" for ev in g.evaluations.values())  # finished: R44 lifted
        assert "done" in screen.status_text()
        await pilot.press("home", "greater_than_sign")
        first = screen.tasks[0]
        while screen.ctl.shown < first.end:
            await pilot.press("greater_than_sign")
        text = screen.evaluation_text()
        assert f"Turn {first.turn}" in text and "best line: tile A1v" in text
        log = screen.log_text()
        mark = mark_for(first.turn % 7)
        assert f"turn {first.turn}: " in log and (not mark or f"[b]{mark}[/b]" in log)
        await pilot.press("q")  # new evaluations of a finished record: asks, y saves them
        await pilot.pause()
        assert isinstance(app.screen, ConfirmDialog) and str(path) in app.screen.body
        await pilot.press("y")
        await pilot.pause()
    assert not app.is_running
    _, raw = load_record(str(path))
    assert set(raw["annotations"]["evaluations"]) == {str(t.turn) for t in screen.tasks}
    assert load_game(path).game.evaluations == g.evaluations
    assert not list((tmp_path / "home").glob("saves/autosave-*"))  # no autosave of a review


@aio
async def test_review_leaving_after_a_cancelled_save_still_asks(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Nothing is lost silently: Esc in the save dialog keeps the question on leaving; n leaves
    the file as it was."""
    path = _review_copy(monkeypatch, tmp_path)
    before = path.read_bytes()
    async with open_app(Screen, "review", path, keyboard=False) as (app, pilot, _):
        await app.workers.wait_for_complete()
        await pilot.pause()
        await pilot.press("s")
        await pilot.pause()
        await pilot.press("escape", "q")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("n")
        await pilot.pause()
    assert not app.is_running and path.read_bytes() == before


@aio
async def test_review_stays_responsive_while_it_fills_in(monkeypatch: pytest.MonkeyPatch) -> None:
    """Keys are handled while a worker is still evaluating a turn: the first evaluation is held
    until the keys are done (on the UI thread it would have finished before they ran)."""
    import threading

    import tui.screens.review as review_mod

    release = threading.Event()
    on_ui: list[bool] = []

    def held(task: Any) -> dict[str, Any]:
        on_ui.append(threading.current_thread() is threading.main_thread())
        release.wait(10)
        return fake_evaluate(task)

    monkeypatch.setattr(review_mod, "evaluate", held)
    async with open_app(ReviewScreen, "review", RECORD, keyboard=False) as (_, pilot, screen):
        await pilot.press("home", "greater_than_sign", "greater_than_sign", "full_stop")
        assert screen.ctl.shown > 0 and screen.done == 0  # moved while turn 1 is evaluated
        assert on_ui == [False]  # in a worker thread, not on the UI thread
        release.set()
        await pilot.pause(0.3)
        assert 0 < screen.done
        await pilot.press("greater_than_sign")
        assert "review:" in screen.status_text()
        screen.workers.cancel_group(screen, "review")


@aio
async def test_review_during_play_evaluates_only_the_viewers_turns_r44(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import tui.screens.review as review_mod

    monkeypatch.setattr(review_mod, "evaluate", fake_evaluate)
    g = three_turns()
    g.seats = [None, "random"]  # Ann plays Bob, a computer player
    g.apply_action(parse_action("tile L7v L8r"))  # Bob's turn in progress is no part of it
    async with open_app(Screen, game=Session(g), keyboard=False) as (app, pilot, _):
        assert isinstance(app.screen, GameScreen)
        app.screen.workers.cancel_group(app.screen, "computer")
        review = ReviewScreen(app.screen.session, viewer=0)
        app.push_screen(review)
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert {t.player for t in review.tasks} == {0}
        assert set(g.evaluations) == {1, 3} and all(v["seen"] == "player" for v in g.evaluations.values())
        await pilot.press("home", "greater_than_sign", "greater_than_sign")  # Bob's turn 2
        assert "only your own turns (R44)" in review.evaluation_text()


# ---------------------------------------------------------------------- the chart
def test_chart_cells_draw_every_player_with_his_letter_and_ties() -> None:
    history = [(0, 0, 0, 0), (5, 0, 2, 0), (9, 3, 2, 12), (20, 7, 11, 12)]
    rows, columns = chart_cells(history, 24, 8)
    text = ["".join(ch for ch, _ in r) for r in rows]
    assert columns[0] == 0 and columns[-1] == 3
    assert text[0].rstrip().endswith("A")  # the leader at the end is on top
    assert "*" in text[-1]  # everybody at 0 at the start: a tie
    assert all(any(letter in line for line in text) for letter in "ABCD")
    assert text[0].startswith(" 20|") and text[-1].startswith("  0|")


@aio
async def test_review_chart_has_a_line_per_player_and_a_legend(monkeypatch: pytest.MonkeyPatch) -> None:
    import tui.screens.review as review_mod

    monkeypatch.setattr(review_mod, "evaluate", fake_evaluate)
    async with open_app(Screen, "review", RECORD, size=(80, 24), keyboard=False) as (app, pilot, _):
        chart = app.screen.query_one(ScoreChart)
        rows = chart.text_rows(chart.size.width, chart.size.height)
        assert len(rows) == chart.size.height >= 5
        assert all(any(letter in r for r in rows[:-1]) for letter in "ABCD")
        legend = rows[-1]
        assert "A Red 67" in legend and "C Blue 85" in legend  # the final scores at the end
        await pilot.press("home")
        assert "A Red 0" in chart.text_rows(chart.size.width, chart.size.height)[-1]
        await pilot.press("q")


# ---------------------------------------------------------------------- comments
@aio
async def test_a_comment_is_added_saved_and_reloaded(kraton_home: Path) -> None:
    g = three_turns()
    target = kraton_home / "commented.json"
    async with open_app(GameScreen, game=Session(g)) as (app, pilot, screen):
        await pilot.pause()
        await pilot.press("comma", "C")
        await pilot.pause()
        await pilot.press(*"why not the palace first?", "enter")
        await pilot.pause()
        assert g.comments == {len(TURNS) - 1: "why not the palace first?"}
        assert "[b]#[/b]" in screen.log_text()
        await pilot.press("end", "s")
        await pilot.pause()
        app.screen.query_one("#save-path").value = str(target)  # type: ignore[attr-defined]
        await pilot.press("enter")
        await pilot.pause()
    _, raw = load_record(str(target))
    assert raw["annotations"]["comments"] == {str(len(TURNS) - 1): "why not the palace first?"}
    again = load_game(target)
    assert again.game.comments == g.comments and len(again.game.actions) == len(TURNS)


@aio
async def test_a_comment_shows_in_the_review_beside_its_action(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    path = _review_copy(monkeypatch, tmp_path)
    async with open_app(ReviewScreen, "review", path, keyboard=False) as (_, pilot, screen):
        await pilot.press("home", "full_stop", "full_stop", "C")
        await pilot.pause()
        await pilot.press(*"the tile first", "enter")
        await pilot.pause()
        shown = str(screen.query_one("#evaluation").render())
        assert "# the tile first" in shown
        await pilot.press("full_stop")  # the next action has none
        await pilot.pause()
        assert "the tile first" not in str(screen.query_one("#evaluation").render())
        screen.workers.cancel_group(screen, "review")
        screen.unsaved = False


@aio
async def test_leaving_a_review_of_a_shipped_game_offers_a_copy_in_the_saves(
        monkeypatch: pytest.MonkeyPatch, kraton_home: Path) -> None:
    import tui.screens.review as review_mod

    monkeypatch.setattr(review_mod, "evaluate", fake_evaluate)
    # puzzles/games/planner-38.json, shipped with kraton
    async with open_app(ReviewScreen, "review", RECORD, keyboard=False) as (app, pilot, screen):
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert screen.unsaved
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmDialog)
        body = str(app.screen.body)
        assert str(kraton_home / "saves" / "planner-38-review.json") in body and "games" not in body
        await pilot.press("n")


# ---------------------------------------------------------------------- snapshots
def _review_app(monkeypatch: pytest.MonkeyPatch) -> Any:
    import tui.screens.review as review_mod

    monkeypatch.setattr(review_mod, "evaluate", fake_evaluate)
    return create_app("review", RECORD)


async def _to_a_turn(pilot: Any) -> None:
    await pilot.app.workers.wait_for_complete()
    await pilot.press("home", *["greater_than_sign"] * 12, "full_stop")
    await pilot.pause()


def test_snapshot_review_120x40(snap_compare: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    assert snap_compare(_review_app(monkeypatch), terminal_size=SIZE, run_before=_to_a_turn)


def test_snapshot_review_80x24(snap_compare: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    assert snap_compare(_review_app(monkeypatch), terminal_size=(80, 24), run_before=_to_a_turn)


def test_snapshot_review_no_color(snap_compare: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    assert snap_compare(_review_app(monkeypatch), terminal_size=(80, 24), run_before=_to_a_turn)


def test_the_move_list_says_how_many_points_a_turn_missed_below_the_marks() -> None:
    from tui.movelist import evaluation_text

    assert evaluation_text({"played": 0, "best": 2, "proved": False, "mark": ""}) == "  -2 best 2+"
    assert evaluation_text({"played": 4, "best": 4, "proved": True, "mark": ""}) == "  = best 4"
    assert "?!" in evaluation_text({"played": 0, "best": 3, "proved": True, "mark": "?!"})
    assert evaluation_text(None) == ""
