"""The puzzle trainer's home: the user's rating, the mode (rated, streak, theme, mix), the
theme and the set of puzzles (the collection or "My games"), and the statistics.

The logic is ``analysis.trainer``; this screen only opens the progress database (an error is
shown here and the app keeps running), builds a ``Session`` and serves its puzzles on
``TrainerPuzzleScreen``.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, Label, Select, Static

from analysis.trainer import MODES
from analysis.trainer.catalog import Entry, sets
from analysis.trainer.progress import Progress
from analysis.trainer.session import Session
from core.errors import KratonError
from tui.keybar import KeyBar
from tui.saves import home_dir, load_game

MODE_HELP = {"rated": "puzzles near your rating; both ratings move (Glicko-2)",
             "streak": "rising difficulty, unrated; one mistake allowed, the second ends it",
             "theme": "rated, of the theme chosen below",
             "mix": "rated, themes drawn toward your weakest"}


class TrainerScreen(Screen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "start", "Start", priority=False),
        Binding("r", "mode('rated')", "Rated"),
        Binding("k", "mode('streak')", "Streak"),
        Binding("t", "mode('theme')", "Theme"),
        Binding("x", "mode('mix')", "Mix"),
        Binding("g", "toggle_set", "Set"),
        Binding("V", "stats", "Statistics"),
        Binding("question_mark", "help", "Help"),
        Binding("escape,q", "close", "Back"),
    ]

    def __init__(self, options: dict[str, Any] | None = None, rng: random.Random | None = None) -> None:
        super().__init__()
        self.options = options or {}
        self.rng = rng or random.Random()
        self.progress: Progress | None = None
        self.error = ""
        self.sets: dict[str, tuple[list[Entry], list[str]]] = {}
        self.session: Session | None = None

    # ------------------------------------------------------------------ layout
    def compose(self) -> ComposeResult:
        self.load()
        themes = sorted({t for rows, _ in self.sets.values() for e in rows for t in e.themes})
        want = self.options.get("theme")
        with Vertical(id="trainer", classes="dialog"):
            yield Label("Puzzle trainer", classes="dialog-title")
            yield Static(self.summary(), id="trainer-summary")
            with Horizontal(classes="row"):
                yield Label("Mode", classes="field-label")
                yield Select([(m, m) for m in MODES], value=self.options.get("mode", "rated"),
                             allow_blank=False, id="mode")
            with Horizontal(classes="row"):
                yield Label("Set", classes="field-label")
                yield Select([(f"{k} ({len(v[0])})", k) for k, v in self.sets.items()] or [("collection", "collection")],
                             value=self.options.get("set", "collection") if self.options.get("set") in self.sets
                             else "collection", allow_blank=False, id="set")
            with Horizontal(classes="row"):
                yield Label("Theme", classes="field-label")
                yield Select([(t, t) for t in themes] or [("-", "-")],
                             value=want if want in themes else (themes[0] if themes else "-"),
                             allow_blank=False, id="theme")
            yield Static(id="mode-help", classes="dialog-note")
            with Horizontal(classes="buttons"):
                yield Button("Start (Enter)", id="start", variant="primary")
                yield Button("Statistics (V)", id="go-stats")
                yield Button("Back (Esc)", id="go-back")
        yield KeyBar()

    def load(self) -> None:
        """Open the database and the sets; a failure is shown, never raised."""
        from tui.commands.puzzles import progress_path

        try:
            self.progress = Progress(progress_path())
        except KratonError as e:
            self.error = str(e)
        extra = self.options.get("puzzles")
        self.sets = sets(home_dir(), extra)

    def summary(self) -> str:
        if self.progress is None:
            return f"[b]progress unavailable[/b]: {self.error}\n(training is off until it is fixed)"
        try:
            u = self.progress.user()
        except KratonError as e:
            self.progress, self.error = None, str(e)
            return self.summary()
        lines = [f"your rating {u.rating:.0f} (RD {u.rd:.0f})"]
        for name, (rows, errors) in self.sets.items():
            bad = f", {len(errors)} unreadable file(s): {errors[0]}" if errors else ""
            lines.append(f"{name}: {len(rows)} puzzles{bad}")
        return "\n".join(lines)

    def on_mount(self) -> None:
        self.query_one("#start", Button).focus()
        self.show_help()

    def show_help(self) -> None:
        mode = str(self.query_one("#mode", Select).value)
        self.query_one("#mode-help", Static).update(f"{mode}: {MODE_HELP.get(mode, '')}")

    def on_select_changed(self, event: Select.Changed) -> None:
        self.show_help()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        {"start": self.action_start, "go-stats": self.action_stats,
         "go-back": self.action_close}.get(event.button.id or "", self.action_close)()

    # ------------------------------------------------------------------ actions
    def action_mode(self, mode: str) -> None:
        self.query_one("#mode", Select).value = mode
        self.show_help()

    def action_toggle_set(self) -> None:
        names = list(self.sets)
        sel = self.query_one("#set", Select)
        sel.value = names[(names.index(str(sel.value)) + 1) % len(names)] if str(sel.value) in names else names[0]

    def action_stats(self) -> None:
        from tui.screens.stats import StatsScreen

        if self.progress is None:
            self.app.notify(self.error, severity="error", timeout=10)
            return
        self.app.push_screen(StatsScreen(self.progress))

    def action_help(self) -> None:
        from tui.screens.dialogs import HelpScreen

        self.app.push_screen(HelpScreen())

    def action_close(self) -> None:
        if len(self.app.screen_stack) > 2:
            self.app.pop_screen()
        else:
            self.app.exit()

    def action_start(self) -> None:
        """A new session with the chosen mode, theme and set; its first puzzle."""
        if self.progress is None:
            self.app.notify(self.error or "progress unavailable", severity="error", timeout=10)
            return
        mode = str(self.query_one("#mode", Select).value)
        theme = str(self.query_one("#theme", Select).value) if mode == "theme" else None
        rows = self.sets.get(str(self.query_one("#set", Select).value), ([], []))[0]
        if not rows:
            self.app.notify("this set has no puzzles", severity="warning")
            return
        self.session = Session(rows, self.progress, mode, theme, self.rng)
        self.serve_next()

    def serve_next(self) -> None:
        """The session's next puzzle (a file that no longer loads is skipped, and said)."""
        from tui.screens.trainer_puzzle import TrainerPuzzleScreen

        assert self.session is not None
        for _ in range(20):
            try:
                entry = self.session.next()
            except KratonError as e:
                self.app.notify(str(e), severity="error", timeout=10)
                return
            if entry is None:
                done = "the streak is over" if self.session.over else "no puzzle left"
                self.app.notify(f"{done}; press Enter for a new session", timeout=6)
                self.query_one("#trainer-summary", Static).update(self.summary())
                return
            try:
                game = load_game(entry.path)
            except Exception as e:  # noqa: BLE001 - a bad file: say so, serve another
                self.app.notify(str(e), severity="error", timeout=10)
                continue
            self.app.push_screen(TrainerPuzzleScreen(game, self.session, entry, self.serve_next))
            return

    def on_screen_resume(self) -> None:
        self.query_one("#trainer-summary", Static).update(self.summary())
