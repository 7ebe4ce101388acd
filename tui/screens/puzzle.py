"""Puzzles: the user plays one turn; the app says whether it reached the best score, gives a
hint (the next action of a best line) and steps through the solution on the board."""

from __future__ import annotations

from typing import Any, ClassVar

from textual import work
from textual.binding import Binding, BindingType

from core.actions import Action, End, parse_actions
from core.errors import KratonError
from tui.saves import Game
from tui.screens.dialogs import MessageScreen
from tui.screens.game import GameScreen


class PuzzleScreen(GameScreen):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("H", "hint", "Hint"),
        Binding("S", "solution", "Solution step"),
        Binding("z", "restart", "Restart"),
    ]

    def __init__(self, game: Game, step_delay: float = 0.0) -> None:
        game.computer = [None] * game.state.n_players  # the user plays the turn
        super().__init__(game, step_delay)
        self.puzzle: dict[str, Any] = game.puzzle or {}
        self.start_len = len(game.state.history)
        self.mover = game.state.to_move
        self.start_score = game.state.players[self.mover].score
        try:
            self.line: list[Action] = parse_actions(str(self.puzzle.get("line", "")))
        except KratonError:
            self.line = []
        self.best = self.puzzle.get("best")
        self.solution_step = -1

    def played(self) -> list[Action]:
        return list(self.state.history[self.start_len:])

    def gained(self) -> int:
        return self.state.players[self.mover].score - self.start_score

    def mode_text(self) -> str:
        goal = f"best {self.best} points" if self.best is not None else "most points"
        return f"PUZZLE ({goal}; H hint, S solution) - " + super().mode_text()

    def action_hint(self) -> None:
        played = self.played()
        if self.line and played == self.line[: len(played)]:
            if len(played) < len(self.line):
                self.say(f"hint: {self.line[len(played)]}")
            else:
                self.say("hint: you have played the whole best line; press E to end the turn")
            return
        self.say("hint: asking the solver…")
        self.solver_hint()

    @work(thread=True, exclusive=True, group="hint")
    def solver_hint(self) -> None:
        """Off the known line (or none given): the solver's best line from here."""
        from tui.screens.study import solve_best

        try:
            result = solve_best(self.state.copy(), 2.0)
        except ImportError:
            text = "hint: the solver is not installed; press z to restart"
            if self.line:
                text += f" (a best line opens with {self.line[0]})"
        except KratonError as e:
            text = f"hint: none ({e})"
        else:
            line = list(result.line)
            text = (f"hint: {line[0]}  (the solver's best from here: {result.best} more points)"
                    if line else "hint: nothing more scores; press E to end the turn")
        self.app.call_from_thread(self.say, text)

    def action_restart(self) -> None:
        while len(self.state.history) > self.start_len:
            self.state.pop()
            self.game.movers.pop()
        self.turn_start = self.start_len
        self.solution_step = -1
        self.reset_mode()
        self.message = "restarted the puzzle"
        self.refresh_all()

    def action_solution(self) -> None:
        """Each press shows one more action of the solution on the board."""
        if not self.line:
            self.say("no solution line in this puzzle file")
            return
        if self.solution_step < 0 or self.played() != self.line[: len(self.played())]:
            self.action_restart()
            self.solution_step = 0
        k = len(self.played())
        if k >= len(self.line):
            self.say(f"the solution is complete: {self.gained()} points")
            return
        a = self.line[k]
        if self.apply(a):
            self.solution_step = k + 1
            self.reset_mode()
            self.refresh_all()
            self.say(f"solution step {k + 1} of {len(self.line)}: {a}  ({self.gained()} points so far)")

    def action_end_turn(self) -> None:
        gained = self.gained()
        if self.state.obligation_pending() and not self.state.is_legal(End()):
            self.say(self.state_end_message())
            return
        best = self.best
        if best is None:
            verdict = f"You scored {gained} points this turn."
        elif gained >= int(best):
            verdict = f"You scored {gained} points: the best possible ({best}). Solved!"
        else:
            verdict = (f"You scored {gained} points; the best is {best}. Press z to try again,"
                       " H for a hint, S to step through the solution.")
        self.app.push_screen(MessageScreen("Puzzle", verdict))
        self.say(verdict)

    def state_end_message(self) -> str:
        from tui.turn import try_action

        return try_action(self.state, End()).message

    def autosave(self) -> None:  # puzzles are not autosaved over the game in progress
        return
