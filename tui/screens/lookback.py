"""A game session on the screen, stepped through: the base of the table and review screens.

It holds the ``tui.session.Session`` and its ``tui.controller.Controller``, renders after the
controller's events, and has what every view of a game shares — looking back by action and by
turn (the game itself never changes), comments on the action shown, saving, the help.
Subclasses compose the widgets and say how to render them (``refresh_all``).
"""

from __future__ import annotations

import time
from pathlib import Path

from rich.markup import escape
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Static

from core.errors import KratonError
from core.game import Game
from core.state import GameState
from tui import panel
from tui.board import BoardView
from tui.controller import Controller, Event, turn_of
from tui.saves import AUTOSAVE_PREFIX, bundled, save_error, save_game, save_position_only, saves_dir
from tui.screens.dialogs import HelpScreen, SaveDialog
from tui.session import Session, as_session

# The keys that step through a game, one entry in the key bar. Home/End have priority over the
# board's own scrolling keys.
LOOK = Binding.Group("Look back")
LOOK_BACK = (
    Binding("comma", "nav('back')", "One action back", key_display=",", group=LOOK),
    Binding("full_stop", "nav('forward')", "One action forward", key_display=".", group=LOOK),
    Binding("less_than_sign", "nav('turn_back')", "One turn back", key_display="<", group=LOOK),
    Binding("greater_than_sign", "nav('turn_forward')", "One turn forward", key_display=">",
            group=LOOK),
    Binding("home", "nav('home')", "The start", key_display="home", priority=True, group=LOOK),
    Binding("end", "nav('end')", "The present", key_display="end", priority=True, group=LOOK),
)


class LookBackScreen(Screen[None]):
    """A game session and the keys' actions to look back through it; no bindings of its own."""

    def __init__(self, game: Session | Game) -> None:
        super().__init__()
        self.session = as_session(game)
        self.ctl = Controller(self.session)
        self.ctl.listeners.append(self.on_game_event)
        self.message = ""

    @property
    def game(self) -> Game:
        """The one game session (``core.game.Game``), through the controller."""
        return self.ctl.game

    @property
    def state(self) -> GameState:
        """The live position (the present), whatever the board shows."""
        return self.ctl.state

    @property
    def board(self) -> BoardView:
        return self.query_one("#board", BoardView)

    def is_human(self, p: int) -> bool:
        return self.session.seats[p] is None

    def pname(self, p: int) -> str:
        return panel.player_label(self.state, p)

    def on_game_event(self, event: Event) -> None:
        """The controller changed something: the next refresh shows it (actions refresh in
        ``after_action``; a look back or an annotation at once)."""
        if event.kind in ("view", "annotation") and self.is_mounted:
            self.refresh_all()

    def _put(self, wid: str, text: str) -> None:
        found = self.query(f"#{wid}")
        if found:
            found.first(Static).update(text)

    def looking_back_text(self) -> str:
        n, total = self.ctl.shown, len(self.game.actions)
        span = turn_of(self.game, n)
        where = "the start" if span is None else f"turn {span.index + 1}, {self.pname(span.player)}"
        return (f"[b]Looking back[/b]: action {n} of {total} ({where})\n"
                "[reverse] End [/reverse] or Esc returns to the present; the game is unchanged")

    def say(self, text: str) -> None:
        self.message = text
        self.show_message()

    def show_message(self) -> None:
        """The message under the status, taking no room while there is none."""
        self._put("message", self.message)
        for w in self.query("#message"):
            w.display = bool(self.message)

    # ------------------------------------------------------------------ looking back
    def action_nav(self, how: str) -> None:
        """Step through the game: ``back``/``forward`` one action, ``turn_back``/``turn_forward``
        a turn, ``home`` the start, ``end`` the present. The game itself never changes."""
        ctl = self.ctl
        {"back": lambda: ctl.step(-1), "forward": lambda: ctl.step(1),
         "turn_back": lambda: ctl.step_turn(-1), "turn_forward": lambda: ctl.step_turn(1),
         "home": lambda: ctl.view_at(0), "end": ctl.present}[how]()
        if not ctl.looking_back:
            self.message = "back at the present"
            self.after_action()
        else:
            self.reset_mode()
            self.message = self.action_note()
            self.refresh_all()
            self.board.show_hexes(self.board.recent)

    def action_note(self) -> str:
        n = self.ctl.shown
        if n == 0:
            return "the start of the game"
        st = self.game.steps[n - 1]
        note = f"action {n}: {self.pname(st.player)} {escape(str(st.action))}"
        comment = self.ctl.comment(n)
        return note + (f"\n[b]#[/b] {escape(comment)}" if comment else "")

    def action_comment(self) -> None:
        """A comment on the action shown (saved with the record, ``annotations.comments``)."""
        from tui.screens.dialogs import CommentDialog

        n = self.ctl.shown
        if n == 0:
            self.say("no action to comment on at the start of the game")
            return
        st = self.game.steps[n - 1]

        def done(text: str | None) -> None:
            if text is None:
                return
            try:
                self.ctl.set_comment(n, text)
            except KratonError as e:
                self.say(f"[b]no comment[/b]: {e}")
                return
            self.autosave()
            self.say(f"comment on action {n} {'added' if text.strip() else 'removed'}")

        self.app.push_screen(CommentDialog(f"Comment on action {n}: {st.action}", self.ctl.comment(n)), done)

    def action_save(self) -> None:
        path = self.session.path
        if path and Path(path).name.startswith(AUTOSAVE_PREFIX):
            path = None
        own = path
        if path and bundled(path):  # a shipped game or puzzle: saved as a copy in the saves
            path, own = str(saves_dir() / Path(path).name), None
        default = path or str(saves_dir() / f"game-{time.strftime('%Y%m%d-%H%M%S')}.json")

        def save(kind: str, target: Path) -> str | None:
            try:
                if kind == "position":
                    save_position_only(self.session, target)
                else:
                    save_game(self.session, target)
                    self.session.path = str(target)
                    self.saved()
            except (OSError, KratonError) as e:
                return save_error(e)
            return None

        def done(result: tuple[str, str] | None) -> None:
            if result is not None:
                self.say(f"saved the {result[0]} to {escape(result[1])}")

        self.app.push_screen(SaveDialog(default, save, own=own), done)

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen())

    # ------------------------------------------------------------------ what subclasses render
    def refresh_all(self) -> None:
        """Render the controller into the widgets (the subclasses have them)."""

    def after_action(self) -> None:
        """Back at the present: what comes next (a computer player, a dialog) — here nothing."""
        self.refresh_all()

    def reset_mode(self) -> None:
        """Drop an input mode (tile, move) when the view moves."""

    def autosave(self) -> None:
        """Keep a change (a comment) safe; the table autosaves the game."""

    def saved(self) -> None:
        """The game record was written (s)."""

    def rescue(self) -> None:
        """The terminal went away (the app is closing without asking): write what no file
        holds yet. A game in play is autosaved after every action already."""
