"""Review a game: the board at the cursor, the move list, the score chart, and best vs played
filling in turn by turn from background workers (``analysis.review.evaluate``, one turn at a
time in a thread, so the keys stay live).

A finished game is reviewed with full information. During play (V) only the viewer's own turns
are evaluated, each as he could see it (R44: ``seen`` "player"); no evaluation of another
player's turn is shown before the game is over. Evaluations go to ``game.evaluations`` and are
saved with the record (s), comments too (C). During play they go to the game's autosave; a
finished record is not autosaved — leaving with new evaluations or comments asks whether to save
them (nothing is lost silently).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, ClassVar

from rich.markup import escape
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Static
from textual.worker import get_current_worker

from analysis.review import MARK_NAMES, TurnTask, evaluate, review_tasks
from core.errors import KratonError
from core.game import Game
from tui import panel
from tui.board import BoardView
from tui.chart import ScoreChart
from tui.controller import final_counts, turn_of
from tui.keybar import KeyBar
from tui.movelist import MoveList
from tui.saves import bundled, new_save_path, save_game, saves_dir
from tui.screens.dialogs import ConfirmDialog
from tui.screens.lookback import LOOK_BACK
from tui.screens.table import TableScreen
from tui.session import Session

TIME_LIMIT = 2.0  # the solver's seconds per turn


class ReviewScreen(TableScreen):
    """A game stepped through with its evaluations; nothing is played here."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *LOOK_BACK,
        Binding("C", "comment", "Comment"),
        Binding("s", "save", "Save"),
        Binding("a", "study", "Study"),
        Binding("question_mark", "help", "Help"),
        Binding("q,escape", "close", "Close"),
    ]

    def __init__(self, game: Session | Game, viewer: int | None = None,
                 time_limit: float = TIME_LIMIT) -> None:
        super().__init__(game, step_delay=0)
        self.time_limit = time_limit
        self.review_viewer = viewer  # during play: whose turns are evaluated (R44)
        self.tasks: list[TurnTask] = []
        self.done = 0
        self.progress = ""
        self.unsaved = False  # new evaluations or comments not written to a file yet
        self._actions = 0  # the game's actions at the last refresh (``follow``)

    def compose(self) -> ComposeResult:
        with Horizontal(id="game"):
            yield BoardView(self.state, id="board")
            with Vertical(id="review-side"):
                yield Static(id="status")
                yield Static(id="evaluation")
                yield ScoreChart(id="chart")
                yield MoveList(id="log")
        yield KeyBar()

    def on_mount(self) -> None:
        self.board.show_cursor = False
        self.tasks = self.make_tasks()
        self.progress = (f"review: 0 of {len(self.tasks)} turns evaluated ({self.time_limit:g} s each)"
                         if self.tasks else "review: every turn evaluated")
        if self.tasks:
            self.run_review(self.tasks)
        self.refresh_all()
        self._actions = len(self.game.actions)
        if not self.game.is_terminal():
            self.set_interval(1.0, self.follow)  # computer players may go on underneath

    def follow(self) -> None:
        """During play the game screen below goes on: show its new actions."""
        if len(self.game.actions) != self._actions:
            self._actions = len(self.game.actions)
            self.refresh_all()

    def on_unmount(self) -> None:
        self.workers.cancel_group(self, "review")

    def make_tasks(self) -> list[TurnTask]:
        """The turns still without an evaluation; during play the viewer's own only (R44)."""
        game = self.game
        spans = [t for t in game.turn_spans() if t.complete and (t.index + 1) not in game.evaluations]
        if not game.is_terminal():
            v = self.viewer()
            if not self.is_human(v):
                return []
            spans = [t for t in spans if t.player == v]
        try:
            return review_tasks(game, self.time_limit, turns=spans)
        except KratonError as e:
            self.message = f"no review: {e}"
            return []

    def viewer(self) -> int:
        return self.review_viewer if self.review_viewer is not None else super().viewer()

    # ------------------------------------------------------------------ the workers
    @work(thread=True, exclusive=True, group="review")
    def run_review(self, tasks: list[TurnTask]) -> None:
        """One turn after the other in this thread; each result goes to the UI thread."""
        worker = get_current_worker()
        for task in tasks:
            if worker.is_cancelled:
                return
            try:
                ev = evaluate(task)
            except (KratonError, ValueError, ImportError) as e:
                self._ui(self.say, f"review of turn {task.turn} failed: {e}")
                continue
            if worker.is_cancelled:
                return
            self._ui(self.evaluated, task.turn, ev)

    def evaluated(self, turn: int, ev: dict[str, Any]) -> None:
        self.done += 1
        self.ctl.add_evaluation(turn, ev)  # refreshes through the controller's event
        self.autosave()
        left = len(self.tasks) - self.done
        self.progress = (f"review: {self.done} of {len(self.tasks)} turns evaluated"
                         + ("" if left else " - done; s saves them with the game"))
        self.refresh_all()

    # ------------------------------------------------------------------ rendering
    def refresh_all(self) -> None:
        super().refresh_all()
        if not self.query(ScoreChart):
            return
        game, n = self.game, self.ctl.shown
        self._put("evaluation", self.evaluation_text())
        done_turns = sum(1 for t in game.turn_spans() if t.complete and t.end <= n)
        self.query_one(ScoreChart).show(game.score_history(), [p.name for p in self.state.players],
                                        done_turns)

    def after_action(self) -> None:
        """Nothing is played here: no computer players, no dialogs."""
        self.refresh_all()

    def status_text(self) -> str:
        game, n = self.game, self.ctl.shown
        total = len(game.actions)
        span = turn_of(game, n)
        where = "start" if span is None else f"turn {span.index + 1}, {self.pname(span.player)}"
        head = f"[b]Review[/b] action {n} of {total} ({where})\n{self.progress}"
        if n == total and game.is_terminal():
            head += "\n" + panel.game_over_text(self.state, final_counts(game))
        return head

    def evaluation_text(self) -> str:
        """Best vs played for the turn at the cursor (R44: only what the user may see), and
        the comment on the action shown (C writes one)."""
        n = self.ctl.shown
        comment = self.ctl.comment(n) if n else None
        text = self._evaluation_text()
        return text + (f"\n[b]#[/b] {escape(comment)}" if comment else "")

    def _evaluation_text(self) -> str:
        span = turn_of(self.game, self.ctl.shown)
        if span is None:
            return "[b]Best vs played[/b]: step into a turn (. or >)"
        ev = self.evaluations().get(span.index + 1)
        who = self.pname(span.player)
        if ev is None:
            why = ("not evaluated during play: only your own turns (R44)"
                   if not self.game.is_terminal() and span.player != self.viewer() else "not evaluated yet")
            return f"[b]Turn {span.index + 1}[/b], {who}: {span.points:+d} points; {why}"
        best = f"{ev['best']}" + (" (proved)" if ev.get("proved") else f" found, at most {ev.get('bound')}")
        missed = int(ev["best"]) - int(ev["played"])
        mark = ev.get("mark") or ""
        best_played = "the best was played" if ev.get("proved") else "the best found was played"
        verdict = f"[b]{escape(mark)}[/b] {MARK_NAMES.get(mark, '')}, {missed} missed" if mark else (
            best_played if missed <= 0 else f"{missed} missed")
        seen = ("\nas he could see it (R44): unseen cards dealt at random"
                if ev.get("seen") == "player" else "")
        return (f"[b]Turn {span.index + 1}[/b], {who}: played {ev['played']}, best {best}: {verdict}\n"
                f"best line: {escape(str(ev.get('line', '')))}{seen}")

    def autosave(self) -> None:
        """During play: the game's own autosave. A finished record: kept for ``s`` or the
        question on leaving (a review does not scatter autosave files)."""
        if not self.game.is_terminal():
            super().autosave()
        else:
            self.unsaved = True

    def saved(self) -> None:
        self.unsaved = False

    def asks_before_quitting(self) -> bool:
        return self.unsaved or super().asks_before_quitting()

    def rescue(self) -> None:
        """No one is left to ask whether to save the review: it goes to a new file in the saves
        folder (the record it was opened from stays as it was)."""
        if self.unsaved:
            save_game(self.session, new_save_path("rescued-review-"))
            self.unsaved = False

    def action_close(self) -> None:
        """Back to the game it was opened from, or out of the app; asks first when evaluations
        or comments of a finished record were not saved."""
        self.workers.cancel_group(self, "review")
        if not self.unsaved:
            self._leave()
            return
        path = self.session.path or str(saves_dir() / f"review-{time.strftime('%Y%m%d-%H%M%S')}.json")
        if bundled(path):  # the collection's own games stay as shipped: a copy in the saves
            path = str(saves_dir() / f"{Path(path).stem}-review.json")

        def answer(save: bool | None) -> None:
            if save:
                try:
                    save_game(self.session, path)
                except (OSError, KratonError) as e:
                    self.say(f"[b]not saved[/b]: {e}")
                    return
            self._leave()

        self.app.push_screen(ConfirmDialog(
            "Save the review?", f"New evaluations and comments are not saved yet.\n"
            f"y writes them with the game to\n{path}", "Save (y)", "Leave without saving (n, Esc)"),
            answer)

    def _leave(self) -> None:
        if len(self.app.screen_stack) > 2:
            self.app.pop_screen()
        else:
            self.app.exit()

    def action_quit_game(self) -> None:
        self.action_close()
