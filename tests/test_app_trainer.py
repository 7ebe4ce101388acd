"""Pilot tests of the puzzle trainer (issue 25): a rated session, a streak that ends on its
second mistake, the two-stage hint, the statistics screen, and a broken database shown in
the app while it keeps running."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from analysis.trainer.progress import Progress
from analysis.trainer.report import stats_lines
from core.actions import parse_actions
from core.position import position_to_dict
from tests.helpers import aio
from tests.test_app_browse import position
from tui.app import KratonApp, create_app
from tui.screens.dialogs import VerdictDialog
from tui.screens.stats import StatsScreen
from tui.screens.trainer import TrainerScreen
from tui.screens.trainer_puzzle import TrainerPuzzleScreen

SIZE = (120, 40)
LINE = "palace C6 2; tile D6v"  # the palace scores 1 point (R29), then the owed tile (R8)


pytestmark = pytest.mark.usefixtures("kraton_home")


def puzzle_dir(tmp_path: Path, n: int = 6) -> Path:
    """``n`` copies of a small hand-built puzzle (a palace on a two-hex village, R28), rated
    1200 upwards, as the set "My games" would hold them."""
    s = position("tile B6v B7r C7r", "enter B6", "tile C6v", "end", "tile K10r", "end", "tile K13r", "end")
    folder = tmp_path / "mine"
    folder.mkdir()
    for i in range(n):
        d = position_to_dict(s)
        d["puzzle"] = {"id": f"t-{i:02d}", "goal": "max-points", "best": 1, "line": LINE,
                       "themes": ["palace"] if i % 2 else ["palace", "token"],
                       "rating": 1200 + 100 * i, "rd": 80}
        (folder / f"t-{i:02d}.json").write_text(json.dumps(d), encoding="utf-8")
    return folder


def trainer_app(folder: Path, mode: str = "rated") -> KratonApp:
    app = create_app("train")
    app.train_options = {"mode": mode, "set": "my-games", "puzzles": str(folder)}
    return app


async def solve_it(pilot: object, screen: TrainerPuzzleScreen) -> None:
    for a in parse_actions(LINE):
        screen.human_act(a)
        await pilot.pause()  # type: ignore[attr-defined]
    await pilot.press("E")  # type: ignore[attr-defined]
    await pilot.pause()  # type: ignore[attr-defined]


@aio
async def test_a_rated_session_moves_the_rating_and_serves_the_next_puzzle(tmp_path: Path,
                                                                          kraton_home: Path) -> None:
    app = trainer_app(puzzle_dir(tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, TrainerScreen)
        await pilot.press("enter")
        await pilot.pause()
        first = app.screen
        assert isinstance(first, TrainerPuzzleScreen) and first.entry.key.startswith("my/")
        assert "TRAINER rated, you 1500" in first.mode_text()
        await solve_it(pilot, first)
        assert isinstance(app.screen, VerdictDialog)
        assert "counts as solved" in app.screen.body and "rating 1500 -> " in app.screen.body
        up = Progress(kraton_home / "progress.sqlite").user().rating
        assert up > 1500
        await pilot.press("n")
        await pilot.pause()
        second = app.screen
        assert isinstance(second, TrainerPuzzleScreen) and second.entry.key != first.entry.key
        await pilot.press("n")  # give up before the verdict: not solved
        await pilot.pause()
        assert isinstance(app.screen, VerdictDialog) and "counts as not solved" in app.screen.body
        assert Progress(kraton_home / "progress.sqlite").user().rating < up
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, TrainerPuzzleScreen)
        st = Progress(kraton_home / "progress.sqlite").stats()
        assert (st.attempts, st.solved) == (2, 1) and len(st.history) == 3


@aio
async def test_a_streak_ends_on_its_second_mistake(tmp_path: Path) -> None:
    app = trainer_app(puzzle_dir(tmp_path), mode="streak")
    async with app.run_test(size=SIZE) as pilot:
        screen = await first_puzzle(pilot)
        await solve_it(pilot, screen)
        await pilot.press("n")
        await pilot.pause()
        await pilot.press("n")  # first mistake: allowed
        await pilot.pause()
        assert isinstance(app.screen, VerdictDialog) and "mistakes 1 of 1 allowed" in app.screen.body
        assert app.screen.next_id is not None
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, TrainerPuzzleScreen)
        await pilot.press("n")  # second mistake: the streak is over
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, VerdictDialog)
        assert "streak over: 1 solved" in dialog.body and dialog.next_id is None
        await pilot.press("n")  # no next puzzle in a finished streak
        await pilot.pause()
        assert app.screen is dialog


async def first_puzzle(pilot: Any) -> TrainerPuzzleScreen:
    """Start the session (Enter on the trainer's home): its first puzzle."""
    await pilot.pause()
    await pilot.press("enter")
    await pilot.pause()
    screen = pilot.app.screen
    assert isinstance(screen, TrainerPuzzleScreen)
    return screen


@aio
async def test_the_two_stage_hint(tmp_path: Path) -> None:
    app = trainer_app(puzzle_dir(tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        screen = await first_puzzle(pilot)
        await pilot.press("H")
        assert screen.message.startswith("hint 1/2: build or enlarge a palace on C6")
        assert "palace C6 2" not in screen.message
        await pilot.press("H")
        assert screen.message == "hint 2/2: palace C6 2"
        assert screen.hint_stage == 2
        await solve_it(pilot, screen)
        assert isinstance(app.screen, VerdictDialog)
        assert "counts as not solved (the action was shown)" in app.screen.body


@aio
async def test_study_before_the_verdict_asks_first_and_then_counts_as_not_solved(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from types import SimpleNamespace

    import tui.screens.study as study_mod
    from tui.screens.dialogs import ConfirmDialog
    from tui.screens.study import StudyScreen

    monkeypatch.setattr(study_mod, "solve_best", lambda *a, **k: SimpleNamespace(
        best=1, line=parse_actions(LINE), optimal=True, bound=1))
    app = trainer_app(puzzle_dir(tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        screen = await first_puzzle(pilot)
        await pilot.press("a")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmDialog)  # the answer is not shown unasked
        await pilot.press("n")
        await pilot.pause()
        assert app.screen is screen and screen.hint_stage == 0
        await pilot.press("a")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        assert isinstance(app.screen, StudyScreen) and screen.hint_stage == 2
        await app.workers.wait_for_complete()
        await pilot.press("escape")
        await pilot.pause()
        await solve_it(pilot, screen)
        assert isinstance(app.screen, VerdictDialog)
        assert "counts as not solved" in app.screen.body


@aio
async def test_the_statistics_screen_shows_the_cli_figures(tmp_path: Path, kraton_home: Path) -> None:
    app = trainer_app(puzzle_dir(tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        await solve_it(pilot, app.screen)  # type: ignore[arg-type]
        await pilot.press("n")
        await pilot.pause()
        await pilot.press("V")
        await pilot.pause()
        stats = app.screen
        assert isinstance(stats, StatsScreen)
        want = Progress(kraton_home / "progress.sqlite").stats()
        assert stats.lines == stats_lines(want) and stats.history == want.history
        assert any(line.strip().startswith("palace") for line in stats.lines)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, TrainerPuzzleScreen)


@aio
async def test_a_broken_database_is_shown_and_the_app_keeps_running(kraton_home: Path) -> None:
    kraton_home.mkdir(parents=True)
    (kraton_home / "progress.sqlite").write_bytes(b"garbage" * 500)
    app = create_app("train")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, TrainerScreen) and screen.progress is None
        assert "progress.sqlite" in screen.error and "\n" not in screen.error
        await pilot.press("enter")
        await pilot.press("V")
        await pilot.pause()
        assert app.screen is screen and app.is_running


@aio
async def test_the_new_game_screen_offers_the_trainer() -> None:
    app = create_app("play")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("T")
        await pilot.pause()
        assert isinstance(app.screen, TrainerScreen)


@aio
async def test_a_last_round_festival_puzzle_counts_the_lines_points_not_the_final_count() -> None:
    """A festival ends the last-round turn (R30, R40) and the mover's final count follows
    (R41); the verdict compares the line's own points with the puzzle's best, as the solver
    and ``tests/test_puzzles.py`` count them (the count used to be added: "18 points")."""
    from tui.app import puzzle_dir

    app = create_app("puzzle", str(puzzle_dir() / "full-turn-05.json"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        best = screen.puzzle["best"]  # type: ignore[attr-defined]
        for a in parse_actions(str(screen.puzzle["line"])):  # type: ignore[attr-defined]
            screen.human_act(a)  # type: ignore[attr-defined]
            await pilot.pause()
        assert screen.state.players[screen.mover].final_counted  # type: ignore[attr-defined]
        assert isinstance(app.screen, VerdictDialog)
        assert f"You scored {best} points: the best possible ({best})" in app.screen.body
