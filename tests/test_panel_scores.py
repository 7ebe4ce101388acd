"""The side panel's score table: names whole where the width allows (a name may have 16
characters), else cut visibly with an ellipsis, never silently; the columns stay aligned."""

from __future__ import annotations

import pytest

from core.game import Game
from core.state import GameState
from tests.helpers import aio, take_keyboard
from tui.app import create_app
from tui.panel import SCORE_NAME, SCORE_WIDTH, score_table_width, scores_text, short_name
from tui.screens.table import ScoreTable

LONG = ["Bartholomew-Long", "Ann", "Christopherson", "Wilhelmina Smith"]  # 16, 3, 14, 16

pytestmark = pytest.mark.usefixtures("kraton_home")


def test_a_name_that_fits_is_shown_whole() -> None:
    assert short_name("Ann") == "Ann"
    assert SCORE_NAME == 10 and short_name("Bartholome") == "Bartholome"  # exactly the room


def test_a_longer_name_is_cut_with_an_ellipsis_to_the_room() -> None:
    cut = short_name("Alexandra the Great")
    assert cut == "Alexandra…" and len(cut) == SCORE_NAME
    assert short_name("Wilhelmi Smith") == "Wilhelmi…"  # not "Wilhelmi …"
    assert short_name("名前名前名前名前", 9) == "名前名前…"  # wide characters take two columns


def rows(text: str) -> list[str]:
    return text.replace("[b]", "").replace("[/b]", "").splitlines()


def test_at_the_narrowest_panel_names_of_up_to_10_are_whole_and_longer_ones_cut_visibly() -> None:
    """The 37-column panel (80x24, 120x40) used to cut every name at 8, silently."""
    s = GameState.new(4, seed=1, names=["Wilhelmina", "Ann", "Christopherson", "Bea"])
    table = rows(scores_text(s))
    assert [r[3:].split("  ")[0] for r in table[1:]] == ["Wilhelmina", "Ann", "Christoph…", "Bea"]
    assert max(len(r) for r in table) <= SCORE_WIDTH


def test_where_the_width_allows_every_name_is_whole() -> None:
    s = GameState.new(4, seed=1, names=LONG)
    assert score_table_width(s) == 40
    table = rows(scores_text(s, 40))
    assert [r[3:19].rstrip() for r in table[1:]] == LONG
    assert "…" not in "".join(table) and "…" in scores_text(s, 39)


@pytest.mark.parametrize("width", [20, SCORE_WIDTH, 40, 60])
def test_the_heading_and_every_number_stay_in_their_columns(width: int) -> None:
    s = GameState.new(3, seed=1, names=["Bartholomew-Long", "Ann", "Bea"])
    s.players[0].score = 104  # three digits never run into the name
    table = rows(scores_text(s, width))
    assert len({len(r) for r in table}) == 1
    ends = [i for i, ch in enumerate(table[0]) if ch != " " and (i + 1 == len(table[0]) or table[0][i + 1] == " ")]
    for r in table[1:]:
        assert [i for i, ch in enumerate(r) if ch != " " and (i + 1 == len(r) or r[i + 1] == " ")][-6:] == ends[-6:]
    assert " 104 " in table[1]


@aio
@pytest.mark.parametrize("size, shown", [
    ((80, 24), ["Bartholom…", "Ann", "Christoph…", "Wilhelmin…"]),  # the board needs every column
    ((140, 40), LONG),  # the board is whole in 97 columns: the panel takes what the names need
])
async def test_the_app_shows_whole_names_where_the_board_leaves_room(
        size: tuple[int, int], shown: list[str]) -> None:
    game = Game(GameState.new(4, seed=5, names=LONG), [None] * 4)
    app = create_app(game=game, step_delay=0)
    async with app.run_test(size=size) as pilot:
        await take_keyboard(pilot)
        await pilot.pause()
        table = app.screen.query_one(ScoreTable)
        text = rows(str(table.render()))
        assert [r[3:].split("  ")[0].strip() for r in text[1:]] == shown
        board = app.screen.query_one("#board")
        assert board.size.width >= min(board.virtual_size.width, size[0] - 37)  # the board first


@aio
async def test_at_120_columns_the_panel_takes_only_the_columns_the_board_leaves() -> None:
    game = Game(GameState.new(4, seed=5, names=LONG), [None] * 4)
    app = create_app(game=game, step_delay=0)
    async with app.run_test(size=(120, 40)) as pilot:
        await take_keyboard(pilot)
        await pilot.pause()
        board = app.screen.query_one("#board")
        assert board.size.width == board.virtual_size.width == 81  # Java-Centre, whole
        assert app.screen.query_one(ScoreTable).content_size.width == 36
        assert "Christopher…" in str(app.screen.query_one(ScoreTable).render())


def test_dialogs_line_up_whole_names_of_any_length() -> None:
    """The game-over dialog (R41–R43) pads every name to the longest, whole: a 16-character
    name pushed the rest of its line out of line under a 10-column pad; markup in a name is
    shown, not read."""
    from tui.panel import game_over_text

    s = GameState.new(3, seed=2, names=["Ann", "Alexandra Great!", "[b]Bo[/b]"])
    rows = game_over_text(s, {}).splitlines()[:3]
    assert "Alexandra Great!" in rows[1] and r"\[b]Bo\[/b]" in rows[2]
    cols = {r.replace("\\", "").index("final count") for r in rows}
    assert len(cols) == 1
