"""A game on the table: the view of a ``tui.controller.Controller`` — the board at the cursor,
the side panel, the move list — and the computer players run in a worker. Looking back,
comments and saving come from ``LookBackScreen``.

``GameScreen`` adds the human's input (keys, mouse, modes) on top, ``ReviewScreen`` the
review. The controller plays every action through ``core.game.Game`` (the engine decides
legality); this screen shows its refusals with the R-number and renders it after each event.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from rich.markup import escape
from rich.text import Text
from textual import events, work
from textual.app import ComposeResult, RenderResult
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Static
from textual.worker import get_current_worker

from core.actions import Action, End
from core.errors import IllegalAction, KratonError
from core.game import Game, as_seen_by
from core.hexgeom import TileShape
from core.state import GameState
from tui import panel, turnlog
from tui.board import BoardView, Overlay
from tui.controller import final_counts
from tui.festival_view import decision_order, festival_note, festival_result, option_label
from tui.keybar import KeyBar
from tui.movelist import MoveList
from tui.saves import autosave_path, save_game
from tui.screens.dialogs import ChoiceDialog, ConfirmDialog, MessageScreen
from tui.screens.lookback import LookBackScreen
from tui.session import Session

SIDE_WIDTH = 37  # #side in kraton.tcss: the panel's width at its narrowest
SIDE_FRAME = 3  # its border and padding


class ScoreTable(Static):
    """The score table laid out for the width it has, drawn again when that changes: every
    name whole where it fits, else cut with an ellipsis (``panel.scores_text``)."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.shown: GameState | None = None

    def show(self, s: GameState) -> None:
        self.shown = s
        self.refresh(layout=True)

    def render(self) -> RenderResult:
        if self.shown is None:
            return ""
        return Text.from_markup(panel.scores_text(self.shown, self.content_size.width or panel.SCORE_WIDTH))


class TableScreen(LookBackScreen):
    """The game and its players; no key bindings of its own."""

    def __init__(self, game: Session | Game, step_delay: float = 0.4) -> None:
        super().__init__(game)
        self.step_delay = step_delay
        self.mode = "look"  # look | tile | enter | move
        self.shape = TileShape()
        self.selected = -1  # developer picked up in move mode
        self.targets: dict[int, int] = {}
        self.busy = False
        # Hot-seat (R44): whose eyes are on the screen; a hand shows only to them. With two
        # humans or more no one is known to be there yet (a new game set up by anyone, a saved
        # one opened by anyone): the first human to decide is handed the keyboard first.
        first = self.state.current_player()
        hot_seat = (self.humans() >= 2 and self.session.puzzle is None
                    and not self.state.is_terminal())
        self.at_keyboard: int | None = first if self.is_human(first) and not hot_seat else None
        self.handing_over = hot_seat


    def compose(self) -> ComposeResult:
        with Horizontal(id="game"):
            yield BoardView(self.state, id="board")
            with VerticalScroll(id="side"):
                # The message (what a key just did, a hint, a refusal) under the status: on a
                # small terminal what comes later in the panel is out of sight until scrolled.
                yield Static(id="status")
                yield Static(id="message")
                yield ScoreTable(id="scores")
                yield Static(id="supply")
                yield Static(id="hand")
                yield MoveList(id="log")
        yield KeyBar()

    def on_mount(self) -> None:
        self.board.focus()
        self.refresh_all()
        self.call_after_refresh(self.after_action)
        self.call_after_refresh(self.fit_side)

    def on_resize(self, _: events.Resize) -> None:
        self.fit_side()

    def fit_side(self) -> None:
        """Widen the side panel into columns the board does not need (it is drawn whole), as
        far as the score table needs for whole names: at 37 columns it has room for 10 of a
        name's 16 characters; the board keeps its width first (80x24, 120x40)."""
        sides = self.query("#side")
        if not sides or not self.query(ScoreTable):
            return
        board = self.board
        needed = board.virtual_size.width
        if board.virtual_size.height > board.size.height:
            needed += board.styles.scrollbar_size_vertical
        want = SIDE_FRAME + panel.score_table_width(self.ctl.view())
        width = max(SIDE_WIDTH, min(want, self.size.width - needed))
        side = sides.first()
        if side.styles.width is None or side.styles.width.value != width:
            side.styles.width = width

    def refresh_all(self) -> None:
        if not self.query(KeyBar):
            return  # not composed yet, or taken down (a worker's result came late)
        view = self.ctl.view()
        self.board.recent = self.ctl.last_turn_hexes()
        self.board.set_state(view, self.overlays() if not self.ctl.looking_back else {})
        self._put("status", self.status_text())
        for table in self.query(ScoreTable):
            table.show(view)
        self._put("supply", panel.supply_text(view))
        self._put("hand", self.hand_text())
        self.show_message()
        self.query_one(MoveList).show(self.game, self.ctl.shown, self.evaluations())
        self.refresh_bindings()
        self.call_after_refresh(self.query_one(KeyBar).refresh_keys)

    def status_text(self) -> str:
        if self.ctl.looking_back:
            return self.looking_back_text()
        return panel.status_text(self.state, self.session.seats, self.mode_text())

    def hand_text(self) -> str:
        if self.handing_over:
            return "[b]Hand[/b] hidden until the next player is at the keyboard (R44)"
        if self.ctl.looking_back:
            # R44: looking back shows only the viewer's own hand as it was, never another's.
            view, me = self.ctl.view(), self.viewer()
            if not self.is_human(me) or self.state.is_terminal():
                return "[b]Hand[/b] not shown while looking back (R44)"
            return f"[b]Hand of {escape(view.players[me].name)}[/b] then: {', '.join(view.players[me].hand) or 'no cards'}"
        return panel.hand_text(self.state, self.session.seats)

    def evaluations(self) -> dict[int, dict[str, Any]]:
        """The evaluations the user may see (R44, ``Controller.visible_evaluations``)."""
        return self.ctl.visible_evaluations(self.viewer())

    def log_text(self) -> str:
        return self.query_one(MoveList).text

    def describe(self, h: int) -> str:
        return panel.describe(self.ctl.view(), h)

    # ------------------------------------------------------------------ playing
    def can_act(self) -> bool:
        why = self.ctl.refusal()
        if why is not None:
            self.say(why)
            return False
        if self.busy or not self.is_human(self.state.current_player()):
            self.say("the computer player is moving; wait for your turn")
            return False
        return True

    def apply(self, a: Action, by_user: bool = True) -> bool:
        """Play one action for whoever is to act; shows the engine's refusal otherwise."""
        try:
            done = self.ctl.apply(a, by_user)
        except IllegalAction as e:
            self.say(f"[b]illegal[/b]: {e.rule} {e.why}{self.festival_reminder()}")
            return False
        except KratonError as e:
            self.say(f"[b]illegal[/b]: {e}")
            return False
        s = self.state
        self.message = f"{self.pname(done.player)}: {a}" + turnlog.gains_text(a, done.gains)
        if done.festival is not None:
            pre = [b + c for b, c in zip(done.before, done.counted)]
            result = festival_result(s, done.festival, pre)
            self.message += "\n" + result
            self.notify(result, title="Festival", timeout=8)
        self.autosave()
        return True

    def festival_reminder(self) -> str:
        """While a human must still bid, say how to get back to the dialog (Esc closed it)."""
        s = self.state
        if s.festival is not None and self.is_human(s.current_player()):
            return "\n[b]f[/b] reopens the festival dialog"
        return ""

    def autosave(self) -> None:
        if self.session.puzzle is not None:
            return
        first = self.session.autosave is None
        try:
            path = autosave_path(self.session)
            save_game(self.session, path)
            if first:
                self.notify(f"this game is saved after every action to {path}", title="Autosave",
                            timeout=6)
        except (OSError, KratonError) as e:
            self.message += f"\n(autosave failed: {e})"

    def human_act(self, a: Action) -> None:
        if not self.can_act():
            return
        if self.apply(a):
            self.reset_mode()
            self.after_action()
        else:
            self.show_message()

    def reset_mode(self) -> None:
        self.mode = "look"
        self.selected = -1
        self.targets = {}

    def after_action(self) -> None:
        """Refresh, then hand over to a computer player or a festival dialog as needed."""
        self.refresh_all()
        s = self.state
        if s.is_terminal():
            if not self.ctl.looking_back:
                self.show_game_over()
            return
        me = s.current_player()
        if not self.is_human(me):
            if not self.busy:
                self.busy = True
                self.run_computer()
            return
        if self.ctl.looking_back:
            return  # the dialogs wait until the user is back at the present (End)
        if self.humans() >= 2 and me != self.at_keyboard:
            self.hand_over(me)
            return
        if s.festival is not None:
            self.festival_dialog()

    def humans(self) -> int:
        """How many seats are human: two or more share the keyboard (hot-seat, R44)."""
        return sum(1 for c in self.session.seats if c is None)

    def hand_over(self, p: int) -> None:
        """Hot-seat: hide the hands until player ``p`` is at the keyboard (R44)."""
        self.handing_over = True
        self.refresh_all()
        name = self.pname(p)

        def ready(_: None) -> None:
            self.at_keyboard = p
            self.handing_over = False
            self.after_action()

        what = "decide in the festival" if self.state.festival is not None else "play"
        from tui.screens.handover import HandOverScreen

        self.app.push_screen(HandOverScreen(
            f"{name}'s turn", f"Pass the keyboard to {name} to {what}.\n"
            "Hands stay hidden until then (R44). Press Enter when ready."), ready)

    @work(thread=True, exclusive=True, group="computer")
    def run_computer(self) -> None:
        """Computer players think on a copy in this worker thread (``Controller.computer_choice``);
        each action is applied on the UI thread and shown before the next."""
        steps = 0
        while True:
            steps += 1
            try:
                action = self.ctl.computer_choice(steps)
            except KratonError as e:
                self._ui(self.say, f"computer player failed: {e}")
                break
            if action is None or get_current_worker().is_cancelled:
                break
            if isinstance(action, End):
                steps = 0
            if not self._ui(self.apply, action, False):
                break
            self._ui(self.refresh_all)
            if self.step_delay:
                time.sleep(self.step_delay)
        if not get_current_worker().is_cancelled:
            self._ui(self._computer_done)

    def _ui(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Run ``fn`` on the UI thread; after the app has closed, do nothing."""
        try:
            return self.app.call_from_thread(fn, *args)
        except RuntimeError:
            return False

    def _computer_done(self) -> None:
        self.busy = False
        self.after_action()

    def show_game_over(self) -> None:
        text = panel.game_over_text(self.state, final_counts(self.game))
        self.app.push_screen(MessageScreen("Game over", text))

    def festival_dialog(self) -> None:
        """The bidding dialog (R32) with everything needed to bid: card worths, bids, stakes."""
        s = self.state
        me = s.current_player()
        opts = [(option_label(s, a, me), a) for a in sorted(
            s.legal_actions(), key=lambda a: decision_order(s, a))]
        if not opts:
            return

        def chosen(a: Action | None) -> None:
            if a is not None:
                self.human_act(a)
            else:
                self.say("the festival waits for your decision (R32): [b]f[/b] reopens the dialog")

        self.app.push_screen(ChoiceDialog(
            f"Festival: {escape(s.players[me].name)} decides (R32)", opts,
            festival_note(s, me), hint="Enter chooses; Esc looks at the board (f reopens)"),
            chosen)

    # ------------------------------------------------------------------ files and views
    def action_study(self) -> None:
        """R44: in a game, the study sees what the player at the keyboard may see: the others'
        hands and the deck are dealt at random from the cards he cannot see (a puzzle is full
        information, so it is studied as it is). Looking back, the position shown."""
        from tui.screens.study import StudyScreen

        s = self.ctl.view()
        if self.session.puzzle is not None or self.state.is_terminal():
            self.app.push_screen(StudyScreen(s.copy()))
            return
        viewer = self.viewer()
        seen = as_seen_by(s, viewer, random.Random())
        note = panel.seen_note(self.pname(viewer))
        self.app.push_screen(StudyScreen(seen, note=note))

    def viewer(self) -> int:
        """Whose view the study takes: the human deciding, else the one at the keyboard, else
        the first human (a game of computers only: the player to act)."""
        me = self.state.current_player()
        if self.is_human(me):
            return me
        if self.at_keyboard is not None:
            return self.at_keyboard
        return next((p for p in range(self.state.n_players) if self.is_human(p)), me)

    def action_review(self) -> None:
        """The review of this game (R44: during play, only the viewer's own turns, as he saw
        them; after the end, every turn with full information)."""
        from tui.screens.review import ReviewScreen

        self.app.push_screen(ReviewScreen(self.session, viewer=self.viewer()))

    def action_quit_game(self) -> None:
        """A game in progress asks first and says where it is saved (issue 24)."""
        s = self.state
        if s.is_terminal() or self.session.puzzle is not None:
            self.app.exit()
            return
        self.autosave()
        where = self.session.autosave or "(not saved)"
        text = (f"The game is saved to\n{where}\n"
                f"[b]kraton play {where}[/b] continues it (or b in the new-game screen).")

        def answer(quit_now: bool | None) -> None:
            if quit_now:
                self.app.exit()

        self.app.push_screen(ConfirmDialog("Quit the game in progress?", text, "Quit (y)"),
                             answer)

    def asks_before_quitting(self) -> bool:
        """A game in progress asks before the app quits (it is autosaved either way)."""
        return self.session.puzzle is None and not self.state.is_terminal()

    def mode_text(self) -> str:
        """What the keys do now (the input screens say more)."""
        return "watch"

    def overlays(self) -> dict[int, Overlay]:
        """What to paint over the board (cursor targets, tile preview): nothing here."""
        return {}
