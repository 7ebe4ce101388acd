"""Pilot tests of the Textual app (issue 6): a turn played by keys, computer players, saving.

Positions are hand-built with the engine; every assertion reads the engine's state after the
app acted, so a key that did nothing fails the test.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from textual.screen import Screen

from core.actions import Enter, Move, Palace, Tile, parse_action
from core.game import Game
from core.hexmap import parse_hex
from core.state import GameState
from tests.helpers import aio, open_app
from tui.app import create_app
from tui.keybar import KeyBar
from tui.saves import load_game
from tui.screens.game import GameScreen
from tui.screens.handover import HandOverScreen

SIZE = (120, 40)


pytestmark = pytest.mark.usefixtures("kraton_home")


def two_humans(*actions: str) -> Game:
    s = GameState.new(2, seed=1, names=["Ann", "Bob"])
    s.to_move = 0
    game = Game(s, [None, None])
    for a in actions:
        game.apply_action(parse_action(a))
    return game


@aio
async def test_new_game_screen_enter_starts_at_once() -> None:
    """Enter on the new-game screen starts a game with the defaults (3 players, 2 computers)."""
    app = create_app(step_delay=0, seed=3)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        assert app.screen.session.seats == [None, "planner", "planner"]
        assert app.screen.state.seed == 3
        app.screen.workers.cancel_all()


@aio
async def test_place_tile_by_keys_then_undo_r10_r8() -> None:
    """t shows a legal preview at the cursor (R10), Enter places it, u takes it back."""
    game = two_humans()
    async with open_app(GameScreen, game=game) as (_, pilot, screen):
        await pilot.press("t")
        assert screen.message.startswith("legal: tile")
        await pilot.press("r", "right", "enter")
        await pilot.pause()
        s = game.state
        assert len(s.tiles) == 1 and len(s.tiles[0]) == 3
        assert s.turn.tile_placed and s.turn.ap < 6
        assert "[b]A Ann[/b], turn 1" in screen.log_text() and "[reverse]> tile" in screen.log_text()
        await pilot.press("u")
        assert s.tiles == [] and s.turn.ap == 6 and not s.history
        await pilot.press("u")
        assert "nothing to undo" in screen.message


@aio
async def test_y_with_nothing_to_redo_says_so_like_u_with_nothing_to_undo() -> None:
    """y with nothing to redo did nothing at all (its binding is hidden then), so the last
    message stood as if it still applied; now it says there is nothing to redo, as u does."""
    game = two_humans()
    async with open_app(GameScreen, game=game) as (_, pilot, screen):
        await pilot.press("y")
        await pilot.pause()
        assert screen.message == "nothing to redo" and not game.state.history
        await pilot.press("t", "enter", "u", "y")
        await pilot.pause()
        assert screen.message.startswith("redone: tile") and len(game.state.tiles) == 1
        assert "Redo" not in str(screen.query_one(KeyBar).render())  # still shown only when it works
        await pilot.press("y")
        await pilot.pause()
        assert screen.message == "nothing to redo" and len(game.state.tiles) == 1


@aio
async def test_illegal_tile_preview_names_rule_r12() -> None:
    """A tile across two levels is previewed as illegal with R12 and Enter does nothing."""
    game = two_humans("tile H10r")
    async with open_app(GameScreen, game=game) as (_, pilot, screen):
        screen.board.move_cursor_to(parse_hex("H10"))
        await pilot.press("t", "t")  # t twice: size 3 -> 2; H10 is level 1, its neighbour 0
        assert screen.shape.size == 2
        assert "R12" in screen.message or "R13" in screen.message
        before = len(game.state.tiles)
        await pilot.press("enter")
        assert len(game.state.tiles) == before
        assert "illegal" in screen.message


@aio
async def test_a_refused_tile_preview_shows_the_developer_in_its_way_r11() -> None:
    """The preview over a developer's hex (R11) keeps his letter in sight, not "new"."""
    game = two_humans("tile B6v B7r C7r", "enter B6", "end")  # Bob to act, Ann's developer on B6
    async with open_app(GameScreen, game=game) as (_, pilot, screen):
        screen.board.move_cursor_to(parse_hex("B6"))
        await pilot.press("t")
        await pilot.pause()
        over = screen.overlays()
        assert "R11" in screen.message and over[parse_hex("B6")].style == "preview-bad"
        assert over[parse_hex("B6")].bottom == "A"


@aio
async def test_enter_and_move_developer_r26_r27() -> None:
    """e marks entry hexes with their cost; m on the developer marks targets; Enter moves."""
    game = two_humans("tile B6v B7r C7r")
    async with open_app(GameScreen, game=game) as (_, pilot, screen):
        b6, b7 = parse_hex("B6"), parse_hex("B7")
        await pilot.press("e")
        assert b6 in screen.targets and screen.targets[b6] == game.state.map.edge_cost(b6)
        screen.board.move_cursor_to(b6)
        await pilot.press("enter")
        assert game.state.dev[b6] == 0
        assert game.state.history[-1] == Enter(b6)
        await pilot.press("m")
        assert screen.selected == b6 and screen.targets.get(b7) == 1  # rice after village: 1 AP
        ap = game.state.turn.ap
        await pilot.press("right", "enter")
        assert game.state.dev[b7] == 0 and game.state.dev[b6] == -1
        assert game.state.history[-1] == Move(b6, b7)
        assert game.state.turn.ap == ap - 1


@aio
async def test_build_palace_r28_r29() -> None:
    """p on a two-hex village where I stand highest builds the only allowed value, 2 (+1)."""
    game = two_humans("tile B6v B7r C7r", "enter B6", "tile C6v")
    async with open_app(GameScreen, game=game) as (_, pilot, screen):
        c6 = parse_hex("C6")
        screen.board.move_cursor_to(c6)
        await pilot.press("p")
        s = game.state
        assert s.palace[c6] == 2 and s.history[-1] == Palace(c6, 2)
        assert s.players[0].score == 1
        await pilot.press("p")  # R29: no second change this turn
        assert "R29" in screen.message or "R28" in screen.message


@aio
async def test_palace_dialog_offers_allowed_values_r28() -> None:
    """With a four-hex village, p asks which value (2 or 4) and builds the chosen one."""
    game = two_humans("tile B6v B7r C7r", "enter B6", "tile C6v", "tile D6v")
    s = game.state
    async with open_app(GameScreen, game=game) as (_, pilot, screen):
        d6 = parse_hex("D6")
        screen.board.move_cursor_to(d6)
        values = [a.value for a in s.legal_actions() if isinstance(a, Palace) and a.hex == d6]
        await pilot.press("p")
        await pilot.pause()
        if len(values) > 1:
            await pilot.press("down", "enter")  # the second offered value
            await pilot.pause()
            assert s.palace[d6] == values[1]
        else:
            assert s.palace[d6] == values[0]


@aio
async def test_end_turn_lets_computer_player_move_r8() -> None:
    """E refuses before a tile is placed (R8); after one, the computer player takes its turn."""
    s = GameState.new(2, seed=4, names=["Ann", "Cpu"])
    s.to_move = 0
    game = Game(s, [None, "random"])
    app = create_app(game=game, step_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, GameScreen)
        await pilot.press("E")
        assert "R8" in screen.message and s.to_move == 0
        await pilot.press("t", "enter", "E")
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert s.current_player() == 0
        assert 1 in [st.player for st in game.steps]  # the computer acted
        assert sum(1 for t in s.tiles) >= 2  # it placed its owed tile (R8)
        assert not screen.busy


@aio
async def test_save_game_and_reload_replays_moves(kraton_home: Path) -> None:
    """s saves the game record atomically; loading replays every move; autosave exists too."""
    game = two_humans()
    target = kraton_home / "mine.json"
    async with open_app(Screen, game=game) as (app, pilot, _):
        await pilot.press("t", "enter")
        await pilot.press("s")
        await pilot.pause()
        inp = app.screen.query_one("#save-path")
        inp.value = str(target)  # type: ignore[attr-defined]
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        session = app.screen.session
    from core.position import read_json
    from core.record import record_from_dict

    rec = record_from_dict(read_json(str(target)))  # the project's java-game record (R44 API)
    assert [str(a) for a in rec.actions] == [str(a) for a in game.state.history]
    assert rec.tags["players"] == "human,human"
    loaded = load_game(target)
    assert [str(a) for a in loaded.state.history] == [str(a) for a in game.state.history]
    assert loaded.state.tiles == game.state.tiles
    assert session.autosave is not None and Path(session.autosave).exists()  # its own autosave
    assert Path(session.autosave).parent == kraton_home / "saves"


def test_tile_shape_cells_are_a_tile_r10() -> None:
    """Every rotation of a 3-space shape gives three mutually adjacent hexes, 1 village."""
    from core.hexgeom import TileShape
    from core.hexmap import load_map

    m = load_map("java-centre")
    for h in m.central:
        for rot in range(6):
            for size in (2, 3):
                cells = TileShape(size, rot, 1).cells(h)
                assert cells is not None
                hexes = [c[0] for c in cells]
                assert all(b in m.nbrs[a] for a in hexes for b in hexes if a != b and m.on_map(b))
                assert sum(1 for _, t in cells if t == 2) == 1
                Tile(cells)  # a valid action value


@aio
async def test_festival_bidding_dialog_for_each_human_r30_r32() -> None:
    """f on a palace offers the openings (R30); the other human then gets a bidding dialog
    (R32) and his choice goes through the engine."""
    from core.actions import Festival, Pass
    from tests.festival_positions import city_position
    from tui.screens.dialogs import ChoiceDialog

    s = city_position(players=2, hands=[["D", "M"], ["D", "DM"]], developers={"F5": 0, "F6": 1})
    game = Game(s, [None, None])
    async with open_app(GameScreen, game=game) as (app, pilot, screen):
        screen.board.move_cursor_to(parse_hex("F4"))
        await pilot.press("f")
        await pilot.pause()
        assert isinstance(app.screen, ChoiceDialog)
        offered = [a for _, a in app.screen.options]
        assert offered and all(isinstance(a, Festival) for a in offered)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(s.history[-1], Festival) and s.festival is not None
        assert isinstance(app.screen, HandOverScreen)  # hot-seat: pass the keyboard (R44)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ChoiceDialog)  # Bob's decision
        assert s.players[1].name in app.screen.title_text
        choices = [a for _, a in app.screen.options]
        assert Pass() in choices
        index = choices.index(Pass())
        await pilot.press(*["down"] * index, "enter")
        await pilot.pause()
        assert Pass() in s.history
        assert app.screen is screen


@aio
async def test_mouse_click_moves_cursor_and_second_click_confirms() -> None:
    """A click puts the cursor on the hex under the mouse (core.drawing.hex_at); a second
    click on the same hex confirms the previewed tile."""
    from core.drawing import hex_origin

    game = two_humans()
    async with open_app(GameScreen, game=game) as (_, pilot, screen):
        h = parse_hex("E8")
        x, y = hex_origin(h)
        await pilot.press("t")
        await pilot.click("#board", offset=(x + 1, y))
        assert screen.board.cursor == h and not game.state.tiles
        await pilot.click("#board", offset=(x + 1, y + 1))
        await pilot.pause()
        assert len(game.state.tiles) == 1 and h in dict(game.state.tiles[0])


@aio
async def test_only_the_deciding_humans_hand_shows_r44() -> None:
    """Hot-seat: the panel shows the mover's hand only; with one human, always his (R44)."""
    game = two_humans()
    s = game.state
    async with open_app(GameScreen, game=game) as (app, pilot, screen):
        assert screen.hand_text().startswith(f"[b]Hand of {s.players[0].name}")
        await pilot.press("t", "enter", "E")
        assert s.to_move == 1
        assert isinstance(app.screen, HandOverScreen)  # pass the keyboard first
        assert "hidden" in screen.hand_text()
        await pilot.press("enter")
        assert app.screen is screen
        assert screen.hand_text().startswith(f"[b]Hand of {s.players[1].name}")
        game.seats = [None, "random"]
        assert screen.hand_text().startswith(f"[b]Hand of {s.players[0].name}")
        game.seats = ["random", "random"]
        assert "hidden" in screen.hand_text()


@aio
async def test_board_scrolls_to_the_cursor_in_a_small_terminal() -> None:
    """At 60x20 the board scrolls so that the cursor stays in view, with the row labels."""
    from core.drawing import LEFT, hex_origin
    from core.hexmap import hex_row

    game = two_humans()
    async with open_app(GameScreen, game=game, size=(60, 20)) as (_, pilot, screen):
        board = screen.board
        for _ in range(12):
            await pilot.press("j")
        for _ in range(8):
            await pilot.press("l")
        await pilot.pause()
        x, y = hex_origin(board.cursor)
        sx, sy = board.scroll_offset
        assert sy > 0
        assert sy <= y < sy + board.size.height
        assert sx + LEFT <= x < sx + board.size.width  # not under the pinned labels
        assert sx > 0
        # The row labels stay at the left edge when the board scrolls sideways.
        row = hex_row(board.cursor)
        line = board.render_line(y - sy)
        assert line.text.startswith(chr(65 + row))


def test_study_screen_reports_cities_and_steps_a_best_line_r41(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """a opens the study view: city rankings and the projected final count (R41); the best
    line (here a stand-in for the solver, which has its own tests) is stepped with n / b."""
    from types import SimpleNamespace

    import tui.screens.study as study_mod

    def fake_solve(state: GameState, time_limit: float | None = None,
                   progress: object = None) -> SimpleNamespace:
        if callable(progress):  # the worker shows the search as it goes (issue 21)
            progress(SimpleNamespace(best=0, bound=3, line=[], seconds=0.1))
        return SimpleNamespace(best=1, line=[parse_action("tile D6v")], optimal=True)

    monkeypatch.setattr(study_mod, "solve_best", fake_solve)
    asyncio.run(_study(real_solver=False))


def test_study_solver_text_says_proved_or_gives_the_bound() -> None:
    """The study view's best turn says "optimal" only for a proved answer; an unproved one
    (time limit on a busy turn) gives the solver's admissible bound with it."""
    from types import SimpleNamespace

    from tui.screens.study import solver_text

    line = [parse_action("tile D6v")]
    proved = solver_text(SimpleNamespace(best=1, line=line, optimal=True, bound=1))
    assert "(optimal)" in proved and "tile D6v" in proved
    open_ = solver_text(SimpleNamespace(best=4, line=line, optimal=False, bound=12))
    assert "optimal" not in open_ and "best found; no line scores more than 12" in open_


@pytest.mark.slow
def test_study_screen_with_the_real_solver(monkeypatch: pytest.MonkeyPatch) -> None:
    """The study view runs analysis.solver.solve in a worker (or says it is not installed)."""
    import tui.screens.study as study_mod

    monkeypatch.setattr(study_mod, "SOLVER_SECONDS", 0.3)
    asyncio.run(_study(real_solver=True))


async def _study(real_solver: bool) -> None:
    from tui.screens.study import StudyScreen

    have_solver = True
    if real_solver:
        try:
            from analysis.solver import solve  # noqa: F401
        except ImportError:
            have_solver = False
    game = two_humans("tile B6v B7r C7r", "enter B6", "tile C6v", "palace C6 2")
    async with open_app(Screen, game=game) as (app, pilot, _):
        await pilot.press("a")
        await pilot.pause()
        study = app.screen
        assert isinstance(study, StudyScreen)
        report = str(study.query_one("#report").render())
        assert "C6" in report and "Projected final count" in report
        await app.workers.wait_for_complete()
        await pilot.pause()
        solver = str(study.query_one("#solver").render())
        if not have_solver:
            assert "not installed" in solver
        else:
            assert "Best turn" in solver
            if study.line:
                await pilot.press("n")
                assert study.pos == 1 and study.shown.history[-1] == study.line[0]
                assert len(game.state.history) == 4  # the game itself is untouched
                await pilot.press("b")
                assert study.pos == 0 and len(study.shown.history) == len(study.start.history)
        await pilot.press("escape")
        assert isinstance(app.screen, GameScreen)


@aio
async def test_new_game_screen_players_names_and_kinds() -> None:
    """The new-game screen builds what it shows: 2 players, the names typed, both human."""
    from textual.widgets import Input, Select

    from tui.screens.newgame import HUMAN, NewGameScreen

    app = create_app(step_delay=0, seed=8)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, NewGameScreen)
        screen.query_one("#n-players", Select).value = 2
        screen.query_one("#name-0", Input).value = "Ann"
        screen.query_one("#name-1", Input).value = "Bob"
        screen.query_one("#kind-1", Select).value = HUMAN
        await pilot.pause()
        assert not screen.query_one("#row-2").display
        game = screen.build()
        assert [p.name for p in game.state.players] == ["Ann", "Bob"]
        assert game.seats == [None, None] and game.state.seed == 8


@aio
async def test_command_palette_runs_end_turn_r8() -> None:
    """Ctrl+P, "End turn": the palette reaches the screen's action (refused by R8 here)."""
    game = two_humans()
    async with open_app(GameScreen, game=game) as (app, pilot, screen):
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"End turn")
        await pilot.pause(0.5)
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is screen
        assert "R8" in screen.message


def test_click_geometry_matches_the_drawing_r4() -> None:
    """Every character of a hex's two lines maps back to that hex (clicks, cursor, overlays)."""
    from core.drawing import hex_at, hex_origin

    s = GameState.new(2, seed=0)
    for h in s.map.hexes:
        x, y = hex_origin(h)
        for dx in range(3):
            for dy in (0, 1):
                assert hex_at(s, y + dy, x + dx) == h


def test_neighbour_directions_agree_with_the_map_r4() -> None:
    """core.hexgeom.neighbour's six directions are exactly the map's neighbours of a hex."""
    from core.hexgeom import neighbour
    from core.hexmap import load_map

    m = load_map("java-centre")
    for h in m.central:
        assert {neighbour(h, d) for d in range(6)} == set(m.nbrs[h])


def test_study_progress_text_says_best_bound_and_line() -> None:
    """Issue 21: the study view shows the search as it goes, like `kraton solve`'s info lines."""
    from types import SimpleNamespace

    from tui.screens.study import progress_text

    text = progress_text(SimpleNamespace(best=4, bound=9, line=[parse_action("tile D6v")],
                                         seconds=1.25))
    assert "best so far 4" in text and "more than 9" in text and "tile D6v" in text
    assert "more than ?" in progress_text(SimpleNamespace(best=0, bound=None, line=[], seconds=0))
