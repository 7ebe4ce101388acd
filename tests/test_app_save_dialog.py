"""The save dialog (``s``): saving never loses data and never writes where no one looked.
A blank name, a missing folder or a failed write is said in the dialog, which stays open; a
relative name goes to the saves folder; a file already there is replaced only when asked
again (the game's own file is saved again without asking)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from textual.screen import Screen
from textual.widgets import Input

from core.errors import KratonError
from tests.helpers import open_app
from tests.test_app import aio, two_humans
from tui.saves import load_game, save_target
from tui.screens.dialogs import SaveDialog
from tui.screens.game import GameScreen

pytestmark = pytest.mark.usefixtures("kraton_home")


def test_a_typed_name_is_a_file_in_the_saves_folder_unless_it_says_where(kraton_home: Path) -> None:
    saves = kraton_home / "saves"
    assert save_target("mine") == saves / "mine.json"
    assert save_target("  mine.json ") == saves / "mine.json"
    assert save_target(str(kraton_home / "x.json")) == kraton_home / "x.json"
    for bad, why in (("", "no file name"), ("   ", "no file name"),
                     (str(kraton_home / "nowhere" / "x.json"), "no folder"),
                     (str(saves), "is a folder")):
        with pytest.raises(KratonError, match=why):
            save_target(bad)


async def _save_as(pilot: object, text: str) -> SaveDialog:
    app = pilot.app  # type: ignore[attr-defined]
    if not isinstance(app.screen, SaveDialog):
        await pilot.press("s")  # type: ignore[attr-defined]
        await pilot.pause()  # type: ignore[attr-defined]
    dialog = app.screen
    assert isinstance(dialog, SaveDialog)
    dialog.query_one("#save-path", Input).value = text
    await pilot.press("enter")  # type: ignore[attr-defined]
    await pilot.pause()  # type: ignore[attr-defined]
    return dialog


def _note(dialog: SaveDialog) -> str:
    return str(dialog.query_one("#save-note").render())


@aio
async def test_a_blank_name_writes_nothing_and_the_dialog_says_so(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    start = tmp_path / "started-here"
    start.mkdir()
    monkeypatch.chdir(start)
    async with open_app(Screen, game=two_humans()) as (app, pilot, _):
        dialog = await _save_as(pilot, "   ")
        assert app.screen is dialog and "no file name" in _note(dialog)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
    assert list(start.iterdir()) == []  # nothing in the folder the app was started from


@aio
async def test_a_file_already_there_is_replaced_only_when_asked_again(tmp_path: Path) -> None:
    other = tmp_path / "other.json"
    other.write_text('{"important": true}')
    async with open_app(Screen, game=two_humans("tile B6v B7r C7r")) as (app, pilot, _):
        dialog = await _save_as(pilot, str(other))
        assert app.screen is dialog and "there already" in _note(dialog)
        assert other.read_text() == '{"important": true}'
        await pilot.press("enter")  # the same again: replace it
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        assert len(load_game(other).state.history) == 1
        dialog = await _save_as(pilot, str(other))  # the game's own file now: no question
        assert isinstance(app.screen, GameScreen) and "saved the game" in app.screen.message


@aio
async def test_a_missing_folder_or_a_failed_write_keeps_the_dialog_open(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    async with open_app(Screen, game=two_humans()) as (app, pilot, _):
        dialog = await _save_as(pilot, str(tmp_path / "nodir" / "x.json"))
        assert app.screen is dialog and "no folder" in _note(dialog)
        dialog = await _save_as(pilot, str(fifo))
        await pilot.press("enter")  # replace it, asked again: the write is refused
        await pilot.pause()
        assert app.screen is dialog and "not a regular file" in _note(dialog)
        assert "Errno" not in _note(dialog)
        dialog = await _save_as(pilot, "kept")  # typed again in the same dialog: saved
        assert isinstance(app.screen, GameScreen)
    assert (Path(os.environ["KRATON_HOME"]) / "saves" / "kept.json").exists()


@aio
async def test_a_shipped_game_is_saved_as_a_copy_in_the_saves_folder(kraton_home: Path) -> None:
    from tui.app import puzzle_dir

    shipped = puzzle_dir() / "games" / "planner-38.json"
    before = shipped.read_bytes()
    async with open_app(Screen, "play", shipped, keyboard=False) as (app, pilot, _):
        await pilot.press("s")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, SaveDialog)
        assert (dialog.query_one("#save-path", Input).value
                == str(kraton_home / "saves" / "planner-38.json"))
        await pilot.press("escape")
    assert shipped.read_bytes() == before
