"""Study a position: rankings of every city and pond ring, the projected final count, and the
best turn from the solver (in a worker, with a spinner), stepped through on the board."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from rich.markup import escape
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, ScrollableContainer
from textual.screen import Screen
from textual.widgets import Footer, LoadingIndicator, Static

from analysis.report import position_report, report_text
from core.actions import Action
from core.errors import KratonError
from core.state import GameState
from tui.board import BoardView

SOLVER_SECONDS = 10.0


def solve_best(state: GameState, time_limit: float | None = None,
               progress: Callable[[Any], None] | None = None) -> Any:
    """``analysis.solver.solve`` (written alongside); raises ImportError when it is absent.
    ``progress`` hears of each better line and tighter bound as the search goes (issue 21)."""
    from analysis.solver import (  # type: ignore[attr-defined,unused-ignore]
        DEFAULT_ENGINE,
        DEFAULT_PROCESSES,
        solve,
    )

    limit = SOLVER_SECONDS if time_limit is None else time_limit
    return solve(state, engine=DEFAULT_ENGINE, time_limit=limit, progress=progress,
                 processes=DEFAULT_PROCESSES)


def line_text(line: list[Action]) -> str:
    """A line as numbered steps, one a row: the panel wraps at its column (a narrow terminal),
    and an action is never cut in two there (``n`` steps through them by these numbers)."""
    return "\n".join(f"{i}. {a}" for i, a in enumerate(line, 1)) or "(no action)"


def progress_text(p: Any) -> str:
    """The search so far, like ``kraton solve``'s info lines: best, bound, line."""
    bound = "?" if p.bound is None else str(p.bound)
    return (f"solving ({p.seconds:.1f} s): best so far {p.best}, no line scores more than "
            f"{bound}\n{line_text(p.line)}")


def solver_text(result: Any) -> str:
    line = line_text(result.line)
    if getattr(result, "optimal", False):
        kind = "optimal"
    else:
        bound = getattr(result, "bound", None)
        kind = "best found" + ("" if bound is None else f"; no line scores more than {bound}")
    pts = f"{result.best} point{'' if result.best == 1 else 's'}"
    return f"[b]Best turn[/b] ({kind}): {pts}\n{line}"


class StudyScreen(Screen[None]):
    """Read-only analysis of a copy of a position."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n,right_square_bracket", "step(1)", "Next step"),
        Binding("b,left_square_bracket", "step(-1)", "Step back"),
        Binding("pagedown", "page(1)", "Page down", priority=True),
        Binding("pageup", "page(-1)", "Page up", priority=True),
        Binding("w", "wide", "Wide report"),
        Binding("escape,q", "close", "Close"),
    ]

    def __init__(self, state: GameState, solve: bool = True, note: str = "") -> None:
        super().__init__()
        self.note = note  # says whose view a study during a game takes (R44)
        self.start = state
        self.shown = state.copy()
        self.line: list[Action] = []
        self.pos = 0
        self.want_solve = solve

    def compose(self) -> ComposeResult:
        with Horizontal(id="study"):
            yield BoardView(self.shown, id="study-board")
            # The best turn first; the tables below keep their lines (no wrapping: hex names
            # whole) and scroll both ways; w gives them the whole width.
            with ScrollableContainer(id="study-side"):
                # whose view (R44), wrapped at the column as the best turn: not a table line
                note = Static(escape(self.note), id="study-note")
                note.display = bool(self.note)
                yield note
                yield Static("", id="solver")
                yield LoadingIndicator(id="spinner")
                yield Static(self.report(), id="report")
        yield Footer()

    def report(self) -> str:
        return "[b]Study[/b]\n" + escape(report_text(self.start, position_report(self.start)))

    def on_mount(self) -> None:
        board = self.query_one(BoardView)
        board.show_cursor = False
        board.styles.width = board.virtual_size.width + 2  # its own width; the report the rest
        board.styles.max_width = "70%"  # a small terminal keeps room for the report (w: all)
        board.focus()
        if self.want_solve and not self.start.is_terminal():
            self.query_one("#solver", Static).update("solving the best turn: every AP left and the token (R7)…")
            self.run_solver()
        else:
            self.query_one("#spinner").display = False

    @work(thread=True, exclusive=True, group="solver")
    def run_solver(self) -> None:
        def show(p: Any) -> None:
            self.app.call_from_thread(self.query_one("#solver", Static).update, progress_text(p))

        try:
            result = solve_best(self.start.copy(), progress=show)
        except ImportError:
            text = "the solver (analysis.solver) is not installed yet: no best turn"
            self.app.call_from_thread(self.solved, text, [])
            return
        except (KratonError, ValueError) as e:
            self.app.call_from_thread(self.solved, f"the solver failed: {e}", [])
            return
        self.app.call_from_thread(self.solved, solver_text(result), list(result.line))

    def solved(self, text: str, line: list[Action]) -> None:
        self.query_one("#spinner").display = False
        self.line = line
        hint = "\nn / ] steps through it on the board, b / [ steps back" if line else ""
        self.query_one("#solver", Static).update(text + hint)

    def action_step(self, d: int) -> None:
        target = max(0, min(len(self.line), self.pos + d))
        s = self.start.copy()
        for a in self.line[:target]:
            try:
                s.push(a)
            except KratonError:
                break
        self.pos = target
        self.shown = s
        self.query_one(BoardView).set_state(s)
        self.notify(f"step {self.pos} of {len(self.line)}"
                    + (f": {self.line[self.pos - 1]}" if self.pos else ""))

    def action_page(self, d: int) -> None:
        side = self.query_one("#study-side", ScrollableContainer)
        if d > 0:
            side.scroll_page_down(animate=False)
        else:
            side.scroll_page_up(animate=False)

    def action_wide(self) -> None:
        board = self.query_one(BoardView)
        board.display = not board.display

    def action_close(self) -> None:
        self.app.pop_screen()
