"""The trainer's statistics: the rating over time (Textual's ``Sparkline``) and the figures of
``kraton puzzles stats`` (``analysis.trainer.report``: the same lines)."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Label, Sparkline, Static

from analysis.trainer.progress import Progress
from analysis.trainer.report import stats_lines
from core.errors import KratonError
from tui.keybar import KeyBar


class StatsScreen(Screen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,V", "close", "Back"),
        Binding("question_mark", "help", "Help"),
    ]

    def __init__(self, progress: Progress) -> None:
        super().__init__()
        self.progress = progress
        self.lines: list[str] = []
        self.history: list[float] = []

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="stats", classes="dialog"):
            yield Label("Puzzle trainer - statistics", classes="dialog-title")
            yield Label("rating over time", id="chart-label")
            yield Sparkline([], id="rating-chart")
            yield Static(id="stats-text")
        yield KeyBar()

    def on_mount(self) -> None:
        try:
            st = self.progress.stats()
        except KratonError as e:
            self.query_one("#stats-text", Static).update(f"cannot read the progress: {e}")
            return
        self.history = st.history
        self.lines = stats_lines(st)
        chart = self.query_one("#rating-chart", Sparkline)
        chart.data = st.history
        lo, hi = min(st.history), max(st.history)
        self.query_one("#chart-label", Label).update(f"rating over time ({lo:.0f} to {hi:.0f})")
        self.query_one("#stats-text", Static).update("\n".join(self.lines))

    def action_close(self) -> None:
        self.app.pop_screen()

    def action_help(self) -> None:
        from tui.screens.dialogs import HelpScreen

        self.app.push_screen(HelpScreen())
