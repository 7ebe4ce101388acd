"""Pilot tests: browsing saved files (live preview, broken files) and puzzles (hint, solution)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from core.actions import parse_actions
from core.position import position_to_dict, save_position
from core.state import GameState
from tests.helpers import open_app, take_keyboard
from tui.app import create_app
from tui.screens.browse import BrowseScreen
from tui.screens.game import GameScreen
from tui.screens.puzzle import PuzzleScreen

SIZE = (120, 40)


pytestmark = pytest.mark.usefixtures("kraton_home")


def position(*actions: str) -> GameState:
    s = GameState.new(3, seed=9, names=["Ann", "Bob", "Cid"])
    s.to_move = 0
    for a in parse_actions("; ".join(actions)):
        s.push(a)
    return s


def text_of(screen: BrowseScreen, wid: str) -> str:
    return str(screen.query_one(wid).render())


def test_browse_previews_files_and_survives_a_broken_one(tmp_path: Path) -> None:
    """The list shows both files; the good one previews its board and summary, the broken one
    shows its error in place; opening the broken one keeps the app on the browser."""
    folder = tmp_path / "saves"
    folder.mkdir()
    save_position(position("tile H10v G11r H11r"), str(folder / "good.json"))
    (folder / "broken.json").write_text('{"format": "java-position", "map": ', encoding="utf-8")
    import os

    os.utime(folder / "good.json", (1, 1))  # the broken file is newer, yet listed apart

    async def run() -> None:
        async with open_app(BrowseScreen, "browse", str(folder),
                            keyboard=False) as (app, pilot, screen):
            # Positions first, unreadable files in a group of their own (issue 24).
            assert [p.name for p in screen.files] == ["good.json", "broken.json"]
            summary = text_of(screen, "#preview-text")
            assert "1 tile placed" in summary and "Ann to act" in summary
            board = screen.query_one("#preview-board")
            assert board.display and board.state.level[board.state.map.hex("H10")] == 1  # type: ignore[attr-defined]
            await pilot.press("down")
            await pilot.pause()
            assert "invalid JSON" in text_of(screen, "#preview-text")
            await pilot.press("a")  # studying it: said why not, as opening it
            await pilot.pause()
            assert app.screen is screen
            assert any("invalid JSON" in n.message for n in app._notifications)
            await pilot.press("enter")  # opening a broken file: an error, no crash
            await pilot.pause()
            assert app.screen is screen
            await pilot.press("up")
            await pilot.pause()
            await pilot.press("enter")
            await take_keyboard(pilot)  # every seat of a position file is human: hot-seat (R44)
            assert isinstance(app.screen, GameScreen)
            assert len(app.screen.state.tiles) == 1

    asyncio.run(run())


def test_browse_empty_folder_says_so(tmp_path: Path) -> None:
    async def run() -> None:
        app = create_app("browse", str(tmp_path))
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert "no position files" in text_of(app.screen, "#preview-text")  # type: ignore[arg-type]

    asyncio.run(run())


def puzzle_file(tmp_path: Path) -> tuple[Path, list[str]]:
    """A hand-built puzzle: a developer stands on a two-hex village; the line builds a palace."""
    s = position("tile B6v B7r C7r", "enter B6", "tile C6v", "end", "tile K10r", "end",
                  "tile K13r", "end")
    line = ["palace C6 2", "tile D6v"]
    d = position_to_dict(s)
    d["puzzle"] = {"id": "test-01", "goal": "max-points", "best": 1, "line": "; ".join(line)}
    p = tmp_path / "puzzle.json"
    p.write_text(json.dumps(d), encoding="utf-8")
    return p, line


def test_puzzle_hint_solution_and_verdict_r29(tmp_path: Path) -> None:
    """H gives the next action of a best line; S steps through it on the board; E says whether
    the best score (the palace's R29 points) was reached."""
    path, line = puzzle_file(tmp_path)

    async def run() -> None:
        async with open_app(PuzzleScreen, "puzzle", str(path),
                            keyboard=False) as (_, pilot, screen):
            await pilot.press("H")
            assert screen.message == f"hint: {line[0]}"
            await pilot.press("S")
            assert [str(a) for a in screen.played()] == line[:1]
            assert screen.gained() == 1
            await pilot.press("H")
            assert screen.message == f"hint: {line[1]}"
            await pilot.press("z")
            assert screen.played() == []
            await pilot.press("E")  # the tile is still owed (R8)
            assert "R8" in screen.message
            await pilot.press("S", "S", "E")
            await pilot.pause()
            assert "Solved" in screen.message

    asyncio.run(run())


def test_cli_refuses_a_broken_file_before_opening_the_app(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`kraton play BAD` and `kraton puzzle MISSING`: one line on stderr, exit 2, no app."""
    from tui.cli import main

    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "java-position", "players": 5}', encoding="utf-8")
    assert main(["play", str(bad)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("kraton: ") and "\n" not in err and str(bad) in err
    assert main(["puzzle", str(tmp_path / "missing.json")]) == 2
    assert "no such file" in capsys.readouterr().err
    assert main(["browse", str(tmp_path / "nowhere")]) == 2
    assert "not a folder" in capsys.readouterr().err
