"""One puzzle of a training session: the puzzle screen plus the session's status line, the
two-stage hint (``H``: the kind of action and where, ``H`` again: the action) and a verdict
that records the attempt and offers the next puzzle (``n``)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, ClassVar

from textual.binding import Binding, BindingType

from analysis.trainer.catalog import Entry
from analysis.trainer.hints import where_hint
from analysis.trainer.session import Result, Session, attempt_score
from core.actions import Action
from core.errors import KratonError
from tui.screens.puzzle import PuzzleScreen
from tui.session import Session as GameSession


class TrainerPuzzleScreen(PuzzleScreen):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("H", "hint", "Hint (2 stages)"),
        Binding("n", "next_puzzle", "Next puzzle"),
        Binding("V", "stats", "Statistics"),
        Binding("q", "quit_game", "Back to the trainer"),
    ]

    def __init__(self, game: GameSession, training: Session, entry: Entry,
                 serve_next: Callable[[], None]) -> None:
        super().__init__(game)
        self.training = training  # ``self.session`` is the game's (tui.session)
        self.entry = entry
        self.serve_next = serve_next
        self.hint_stage = 0  # 0 none, 1 kind and where, 2 the action
        self.hint_action: Action | None = None
        self.result: Result | None = None
        self.started = time.monotonic()

    def mode_text(self) -> str:
        s = self.training
        head = f"TRAINER {s.mode}{' ' + s.theme if s.mode == 'theme' and s.theme else ''}"
        if self.training.current_retry:
            head += " (retry)"
        if s.mode == "streak":
            head += f", streak {s.streak}, mistakes {s.mistakes}/1"
        else:
            head += f", you {s.progress.user().rating:.0f}"
        head += f"; puzzle {self.entry.id} ({self.entry.rating:.0f})"
        if self.result is not None:
            return f"{head} - done: n next puzzle, z tries again (unrated)"
        return f"{head} - " + super().mode_text()

    # ------------------------------------------------------------------ the two-stage hint
    def action_hint(self) -> None:
        """First press: the kind of action and where; second: the action itself. Off the
        known line, the solver finds the next action first."""
        played = self.played()
        if self.line and played == self.line[: len(played)]:
            if len(played) >= len(self.line):
                self.say("hint: you have played the whole best line; press E to end the turn")
                return
            self.give_hint(self.line[len(played)])
            return
        self.say("hint: asking the solver…")
        self.solver_next()

    def give_hint(self, a: Action) -> None:
        if self.hint_action != a:
            self.hint_action = a
            stage = 1
        else:
            stage = 2
        if self.result is None:
            self.hint_stage = max(self.hint_stage, stage)
        if stage == 1:
            self.say(f"hint 1/2: {where_hint(a)}  (H again shows the action)")
        else:
            self.say(f"hint 2/2: {a}")

    def solver_next(self) -> None:
        from tui.screens.study import solve_best

        def work() -> None:
            try:
                r = solve_best(self.state.copy(), 2.0)
            except (KratonError, ImportError) as e:
                self.app.call_from_thread(self.say, f"hint: none ({e})")
                return
            if not r.line:
                self.app.call_from_thread(self.say, "hint: nothing more scores; press E")
                return
            self.app.call_from_thread(self.give_hint, r.line[0])

        self.run_worker(work, thread=True, exclusive=True, group="hint")

    # ------------------------------------------------------------------ verdict and next
    def show_verdict(self) -> None:
        """Record the first verdict (one transaction), then the dialog: n next, z again."""
        from tui.screens.dialogs import VerdictDialog

        text, solved = self.verdict()
        if self.result is None:
            score = attempt_score(solved, self.hint_stage, self.used_solution)
            try:
                self.result = self.training.finish(self.entry, score, time.monotonic() - self.started,
                                                  self.hint_stage)
            except KratonError as e:
                self.app.notify(str(e), severity="error", timeout=10)
            if self.result is not None:
                how = ("counts as solved" if score == 1 else "counts half (the first hint)" if score
                       else "counts as not solved" + (" (the action was shown)" if solved else ""))
                text = f"{text}\n{how}; {self.result.text()}"
        self.verdict_shown = True
        self.say(text.replace("\n", "  "))
        title = f"Puzzle {self.entry.id}: " + ("solved" if solved else "not yet")

        def chosen(what: str | None) -> None:
            if what == "next":
                self.action_next_puzzle()
            elif what == "retry":
                self.action_restart()

        nxt = "a new puzzle" if not self.training.over else None
        self.app.push_screen(VerdictDialog(title, text, nxt), chosen)
        self.refresh_all()

    def action_next_puzzle(self) -> None:
        """After a verdict the next puzzle; before it, skipping counts as not solved."""
        if self.result is None:
            self.hint_stage = 2
            self.show_verdict()
            return
        self.app.pop_screen()
        self.serve_next()

    def action_study(self) -> None:
        """The study view shows the solver's best turn: like the solution, the attempt then
        counts as not solved, so before the verdict it asks first."""
        if self.result is not None or self.hint_stage >= 2:
            super().action_study()
            return
        from tui.screens.dialogs import ConfirmDialog

        def answered(yes: bool | None) -> None:
            if yes:
                self.hint_stage = 2
                super(TrainerPuzzleScreen, self).action_study()

        self.app.push_screen(ConfirmDialog(
            "Study this puzzle?", "The study shows the best turn: the attempt then counts as"
            " not solved (as after the solution hint).", yes="Study (y)"), answered)

    def action_stats(self) -> None:
        from tui.screens.stats import StatsScreen

        self.app.push_screen(StatsScreen(self.training.progress))

    def action_quit_game(self) -> None:
        self.app.pop_screen()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "save":
            return False  # a trainer puzzle is not saved over anything
        return super().check_action(action, parameters)

    def summary(self) -> dict[str, Any]:
        return {"id": self.entry.id, "hint_stage": self.hint_stage,
                "score": None if self.result is None else self.result.score}
