"""Puzzles: the user plays one turn; the app says whether it reached the best score, gives a
hint (the next action of a best line) and steps through the solution on the board."""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

from textual import work
from textual.binding import Binding, BindingType

from core.actions import Action, End, Festival, parse_actions
from core.errors import KratonError
from core.game import Game
from tui.panel import plural
from tui.saves import puzzle_files
from tui.screens.game import GameScreen
from tui.session import Session, as_session


def next_puzzle(path: str | None) -> Path | None:
    """The puzzle after ``path`` in the collection's order (by theme, then number)."""
    if path is None:
        return None
    here = Path(path).resolve()
    files = puzzle_files(here.parent)
    if here not in files:
        return None
    i = files.index(here)
    return files[i + 1] if i + 1 < len(files) else None


def solver_hint_text(result: Any) -> str:
    """The solver's hint; "nothing more scores" only when the solver proved it."""
    line = list(result.line)
    if line:
        return f"hint: {line[0]}  (the solver's best from here: {plural(result.best, 'more point')})"
    if getattr(result, "optimal", False):
        return "hint: nothing more scores (proved); press E to end the turn"
    return ("hint: the solver found nothing better within 2 s (not proved);"
            " E ends the turn, S shows the solution")


class PuzzleScreen(GameScreen):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("H", "hint", "Hint"),
        Binding("S", "solution", "Solution step"),
        Binding("z", "restart", "Restart"),
    ]

    def __init__(self, game: Session | Game, step_delay: float = 0.0) -> None:
        session = as_session(game)
        session.seats = [None] * session.state.n_players  # the user plays the turn
        super().__init__(session, step_delay)
        self.puzzle: dict[str, Any] = session.puzzle or {}
        self.start_len = len(self.game.actions)
        self.mover = self.state.to_move
        self.start_score = self.state.players[self.mover].score
        self.start_state = self.state.copy()  # the puzzle's position, for ``gained``
        try:
            self.line: list[Action] = parse_actions(str(self.puzzle.get("line", "")))
        except KratonError:
            self.line = []
        self.best = self.puzzle.get("best")
        self.solution_step = -1
        self.at_keyboard = self.mover
        self.verdict_shown = False
        self.used_solution = False  # S was pressed: the verdict says so

    def hand_over(self, p: int) -> None:
        """A puzzle is one player's turn: never a pass-the-keyboard screen."""
        self.at_keyboard = p

    def status_text(self) -> str:
        """Once the turn is over, the puzzle's result, not the next seat's AP."""
        if not self.turn_over():
            return super().status_text()
        name = self.pname(self.mover)
        return (f"[b]Puzzle over[/b]: {name} scored {plural(self.gained(), 'point')}"
                f"\nmode: {self.mode_text()}")

    def can_act(self) -> bool:
        """After the puzzle's turn nothing more is played (the next seat is no part of it)."""
        if self.turn_over():
            self.say("the puzzle's turn is over: E shows the verdict, z tries again")
            return False
        return super().can_act()

    def turn_over(self) -> bool:
        s, acts = self.state, self.game.actions
        return len(acts) > self.start_len and s.festival is None and (
            s.is_terminal() or s.to_move != self.mover or isinstance(acts[-1], End))

    def after_action(self) -> None:
        """The other seats answer a festival at once (as the solver assumes, R32); once the
        turn is over (E, or a festival ended it, R30), the verdict."""
        from analysis.beam import festival_decision

        s = self.state
        while s.festival is not None and s.current_player() != self.mover:
            if not self.apply(festival_decision(s), by_user=False):
                break
        if self.turn_over():
            self.refresh_all()
            if not self.verdict_shown:
                self.show_verdict()
            return
        super().after_action()

    def played(self) -> list[Action]:
        return list(self.game.actions[self.start_len:])

    def gained(self) -> int:
        """The turn's points as the puzzle's ``best`` counts them: a festival ending a
        last-round turn is followed by the mover's final count (R40, R41), which is no part of
        the line's points; it is the count of the board before the festival (as in
        ``tests/test_puzzles.py``)."""
        from core.scoring import final_count

        raw = self.state.players[self.mover].score - self.start_score
        if self.start_state.players[self.mover].final_counted or \
                not self.state.players[self.mover].final_counted:
            return raw
        before = self.start_state.copy()
        for a in self.played():
            if isinstance(a, (Festival, End)):
                break
            before.push(a)
        return raw - final_count(before)[self.mover]

    def mode_text(self) -> str:
        if self.turn_over():
            return "PUZZLE over - E shows the verdict, z tries again"
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

        def show(p: Any) -> None:  # the search so far, as in the study view
            bound = "?" if p.bound is None else p.bound
            self.app.call_from_thread(self.say, f"hint: asking the solver… best so far {p.best}"
                                                f" (no line scores more than {bound})")

        try:
            result = solve_best(self.state.copy(), 2.0, progress=show)
        except ImportError:
            text = "hint: the solver is not installed; press z to restart"
            if self.line:
                text += f" (a best line opens with {self.line[0]})"
        except KratonError as e:
            text = f"hint: none ({e})"
        else:
            text = solver_hint_text(result)
        self.app.call_from_thread(self.say, text)

    def action_restart(self) -> None:
        self.ctl.present()
        while len(self.game.actions) > self.start_len:
            self.game.undo()  # the whole puzzle turn, draws too: a puzzle hides nothing (R44)
        self.ctl.version += 1  # the previews' copy is made again
        self.solution_step = -1
        self.verdict_shown = False
        self.used_solution = False
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
            self.say(f"the solution is complete: {plural(self.gained(), 'point')}")
            return
        a = self.line[k]
        if self.apply(a):
            self.solution_step = k + 1
            self.reset_mode()
            self.used_solution = True
            self.after_action()
            self.say(f"solution step {k + 1} of {len(self.line)}: {a}  ({plural(self.gained(), 'point')} so far)")

    def action_end_turn(self) -> None:
        if self.turn_over():
            self.show_verdict()
            return
        if self.state.festival is not None or (
                self.state.obligation_pending() and not self.ctl.scratch().is_legal(End())):
            self.say(self.state_end_message())
            return
        self.show_verdict()

    def verdict(self) -> tuple[str, bool]:
        gained, best = self.gained(), self.best
        if best is None:
            return f"You scored {plural(gained, 'point')} this turn.", True
        if gained >= int(best):
            return f"You scored {plural(gained, 'point')}: the best possible ({best}). Solved!", True
        return (f"You scored {plural(gained, 'point')}; the best is {best}. z tries again,"
                " H gives a hint, S steps through the solution."), False

    def show_verdict(self) -> None:
        """The verdict, with the next puzzle of the collection one key away."""
        from tui.screens.dialogs import VerdictDialog

        text, solved = self.verdict()
        if self.used_solution:
            text += " (with the solution's steps, S)"
        self.verdict_shown = True
        self.say(text)
        nxt = next_puzzle(self.session.path)
        title = f"Puzzle {self.puzzle.get('id', '')}: " + ("solved" if solved else "not yet")

        def chosen(what: str | None) -> None:
            if what == "next" and nxt is not None:
                self.app.pop_screen()
                self.app.open_path(str(nxt))  # type: ignore[attr-defined]
            elif what == "retry":
                self.action_restart()

        self.app.push_screen(VerdictDialog(title, text, nxt.stem if nxt else None), chosen)

    def state_end_message(self) -> str:
        return self.ctl.preview(End()).message

    def autosave(self) -> None:  # puzzles are not autosaved over the game in progress
        return
