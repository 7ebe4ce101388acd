"""The Textual app. ``create_app`` builds it for the CLI (``kraton play|browse|puzzle|review``)
and for the tests alike, so both run exactly the same code."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from collections.abc import Iterable
from pathlib import Path

from textual.app import App, SystemCommand
from textual.driver import Driver
from textual.filter import Monochrome, NoColor
from textual.screen import Screen

from core.errors import KratonError
from core.game import Game
from tui.saves import load_game, saves_dir
from tui.session import Session, as_session


class KratonApp(App[None]):
    CSS_PATH = "kraton.tcss"
    # "-short" below 30 lines: dialogs drop their padding so 80x24 shows them whole.
    VERTICAL_BREAKPOINTS = [(0, "-short"), (30, "-tall")]  # noqa: RUF012 - as Textual declares it
    TITLE = "kraton"
    SUB_TITLE = "Java by Kramer & Kiesling"

    def __init__(self, mode: str = "play", path: str | None = None, *, step_delay: float = 0.4,
                 players: int = 3, seed: int | None = None, game: Game | Session | None = None) -> None:
        super().__init__()
        self.mode_name = mode
        self.path = path
        self.step_delay = step_delay
        self.players = players
        self.seed = seed
        self.initial_game = game
        self.review_seconds = 2.0  # the solver's time per turn in the review
        self.train_options: dict[str, object] | None = None  # kraton train's options
        self.hung_up = False  # the terminal went away (hang_up)
        if self.no_color:
            # NO_COLOR: Textual picks Monochrome for the textual-dark theme it starts with, and
            # Monochrome turns the ansi-dark theme's "default" colours into black on black.
            # NoColor keeps the terminal's own colours and every bold/reverse the board uses.
            self._filters = [NoColor() if isinstance(f, Monochrome) else f for f in self._filters]

    def on_mount(self) -> None:
        # The terminal's own colours by default (ansi-dark); KRATON_THEME picks another theme
        # (any name of the command palette's "Change theme"), e.g. textual-dark.
        wanted = os.environ.get("KRATON_THEME", "ansi-dark")
        if wanted in self.available_themes:
            self.theme = wanted
        if self.initial_game is not None:
            self.open_game(self.initial_game)
        elif self.mode_name == "browse":
            self.action_browse(self.path)
        elif self.mode_name == "puzzle":
            self.open_puzzle(self.path)
        elif self.mode_name == "review" and self.path:
            self.open_path(self.path, review=True)
        elif self.mode_name == "train":
            self.action_trainer()
        elif self.path:
            self.open_path(self.path)
        else:
            self.action_new_game()
        if not self.is_headless:
            self._watch_for_hang_up()

    async def action_quit(self) -> None:
        """Ctrl+Q on a game in progress asks first, like q (it is autosaved either way); so
        does q on the hot-seat hand-over in front of it (the question shows no hand, R44)."""
        from tui.screens.handover import HandOverScreen
        from tui.screens.table import TableScreen

        screen: object = self.screen
        if isinstance(screen, HandOverScreen):
            screen = next((x for x in reversed(self.screen_stack) if isinstance(x, TableScreen)), None)
        if isinstance(screen, TableScreen) and screen.asks_before_quitting():
            screen.action_quit_game()
            return
        await super().action_quit()

    # ------------------------------------------------------------------ the terminal going away
    def get_driver_class(self) -> type[Driver]:
        """Textual's driver, but on Linux one whose writes to a terminal that has gone are
        dropped (``tui.terminal``): else the app blocks before it can notice the hang-up."""
        from textual.drivers.linux_driver import LinuxDriver

        from tui.terminal import KeepOnDriver

        driver = super().get_driver_class()
        return KeepOnDriver if driver is LinuxDriver else driver

    def _watch_for_hang_up(self) -> None:
        if hasattr(signal, "SIGHUP"):
            asyncio.get_running_loop().add_signal_handler(signal.SIGHUP, self.hang_up)
        stdin = sys.__stdin__
        if stdin is not None and os.isatty(stdin.fileno()):
            self.watch_terminal(stdin.fileno())

    def watch_terminal(self, fd: int) -> None:
        """Close the app when the terminal on ``fd`` hangs up. A terminal closed under ``make
        play`` sends the app no SIGHUP, and Textual's input thread then reads nothing from the
        dead tty forever, keeping a core busy; so the app looks twice a second."""
        def check() -> None:
            if not os.isatty(fd):
                self.hang_up()

        self.set_interval(0.5, check, name="terminal")

    def hang_up(self) -> None:
        """The terminal is gone (SIGHUP, or a dead tty): rescue what no file holds yet, then
        exit with status 129 (128 + SIGHUP). No one is left to ask or to tell."""
        from tui.screens.lookback import LookBackScreen

        if self.hung_up:
            return
        self.hung_up = True
        for screen in self.screen_stack:
            if isinstance(screen, LookBackScreen):
                try:
                    screen.rescue()
                except (OSError, KratonError):
                    pass  # nowhere to say it: the terminal is gone
        self.exit(return_code=129)

    # ------------------------------------------------------------------ navigation
    def action_new_game(self) -> None:
        from tui.screens.newgame import NewGameScreen

        def started(game: Game | None) -> None:
            if game is not None:
                self.open_game(game)

        self.push_screen(NewGameScreen(self.players, self.seed), started)

    def action_trainer(self) -> None:
        """The puzzle trainer (issue 25): ratings, streaks, themes, progress."""
        from tui.screens.trainer import TrainerScreen

        self.push_screen(TrainerScreen(self.train_options))

    def action_browse(self, folder: str | None = None) -> None:
        from tui.screens.browse import BrowseScreen

        self.push_screen(BrowseScreen(Path(folder) if folder else saves_dir()))

    def open_game(self, game: Game | Session, review: bool = False) -> None:
        """A puzzle, a game to play, or the review (asked for, or the game is over)."""
        from tui.screens.game import GameScreen
        from tui.screens.puzzle import PuzzleScreen
        from tui.screens.review import ReviewScreen

        session = as_session(game)
        screen: Screen[None]
        if session.puzzle is not None and not review:
            screen = PuzzleScreen(session)
        elif review or (session.finished and session.game.actions):
            screen = ReviewScreen(session, time_limit=self.review_seconds)
        else:
            screen = GameScreen(session, self.step_delay)
        self.push_screen(screen)

    def open_path(self, path: str, review: bool = False) -> None:
        try:
            game = load_game(path)
        except Exception as e:  # noqa: BLE001 - any bad file: say so, keep running
            self.notify(str(e), severity="error", timeout=10)
            if review:
                self.exit(message=str(e))
                return
            self.action_new_game()
            return
        self.open_game(game, review)

    def open_puzzle(self, path: str | None) -> None:
        if path is None:
            folder = puzzle_dir()
            files = sorted(folder.glob("*.json")) + sorted(folder.glob("*/*.json"))
            if not files:
                self.notify(f"no puzzle files in {folder}", severity="error", timeout=10)
                self.action_browse(str(folder))
                return
            self.action_browse(str(folder))
            return
        self.open_path(path)

    # ------------------------------------------------------------------ command palette
    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        from tui.screens.handover import HandOverScreen

        yield from super().get_system_commands(screen)
        if isinstance(screen, HandOverScreen):
            return  # R44: nothing opens from behind the hand-over (a saved game, a study)
        yield SystemCommand("New game", "Start a new game of Java", self.action_new_game)
        yield SystemCommand("Browse saves", "Saved games, positions and puzzles",
                            self.action_browse)
        yield SystemCommand("Puzzle trainer", "Rated puzzles, streaks, themes and your progress",
                            self.action_trainer)
        yield SystemCommand("Puzzles", "Browse the puzzle collection",
                            lambda: self.action_browse(str(puzzle_dir())))
        for key, title, help_text in (
            ("tile", "Place a tile", "Tile mode: t size, r rotate, v village, Enter places"),
            ("enter_mode", "Enter a developer", "Show the hexes where a developer may enter"),
            ("move_mode", "Move a developer", "Move the developer under the cursor"),
            ("palace", "Build a palace", "Build or enlarge the palace under the cursor"),
            ("undo", "Undo", "Undo the last action of this turn"),
            ("end_turn", "End turn", "End the turn (R8: a tile must be placed)"),
            ("save", "Save", "Save the game or the position"),
            ("study", "Study position", "Rankings, final count and the best turn"),
            ("review", "Review the game", "Best vs played per turn, marks, the score chart"),
            ("comment", "Comment", "Comment on the action shown (saved with the game)"),
            ("help", "Help", "Every key of the game screen"),
        ):
            if hasattr(screen, f"action_{key}"):
                yield SystemCommand(title, help_text, getattr(screen, f"action_{key}"))


def puzzle_dir() -> Path:
    return Path(__file__).resolve().parent.parent / "puzzles"


def run_app(app: KratonApp) -> int:
    """Run the app in this terminal; the exit status is 0, or 129 when the terminal hung up."""
    app.run()
    return app.return_code or 0


def create_app(mode: str = "play", path: str | None = None, *, step_delay: float = 0.4,
               players: int = 3, seed: int | None = None, game: Game | Session | None = None) -> KratonApp:
    """The app for ``kraton play [FILE]``, ``kraton browse [DIR]``, ``kraton puzzle [FILE]``,
    ``kraton review GAME`` (mode ``review``: the record opened in review mode) and ``kraton
    train`` (mode ``train``)."""
    return KratonApp(mode, path, step_delay=step_delay, players=players, seed=seed, game=game)
