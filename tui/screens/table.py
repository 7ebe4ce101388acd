"""A game on the table: the board, the side panel, the engine and the computer players.

``GameScreen`` adds the human's input (keys, mouse, modes) on top. Every action goes through
``GameState.push``, so the engine alone decides legality; the screens show its message with
the R-number.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.markup import escape
from textual import work
from textual.app import ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Static
from textual.worker import get_current_worker

from core.actions import Action, End, Festival
from core.errors import IllegalAction, KratonError
from core.game import as_seen_by
from core.state import GameState
from tui import panel, turnlog
from tui.board import BoardView, Overlay
from tui.festival_view import decision_order, festival_note, festival_result, option_label
from tui.keybar import KeyBar
from tui.saves import (
    AUTOSAVE_PREFIX,
    Game,
    autosave_path,
    replay_final_counts,
    save_game,
    save_position_only,
    saves_dir,
)
from tui.screens.dialogs import (
    ChoiceDialog,
    ConfirmDialog,
    HelpScreen,
    MessageScreen,
    SaveDialog,
)
from tui.turn import Chooser, TileShape, make_computer


def turn_start(history: list[Action]) -> int:
    """Index of the first action of the turn in progress (after the last ``end``)."""
    for i in range(len(history) - 1, -1, -1):
        if isinstance(history[i], End):
            return i + 1
    return 0


class TableScreen(Screen[None]):
    """The game in progress and its players; no key bindings of its own."""

    def __init__(self, game: Game, step_delay: float = 0.4) -> None:
        super().__init__()
        self.game = game
        self.step_delay = step_delay
        self.mode = "look"  # look | tile | enter | move
        self.shape = TileShape()
        self.selected = -1  # developer picked up in move mode
        self.targets: dict[int, int] = {}
        self.message = ""
        self.busy = False
        self.turn_start = turn_start(game.state.history)
        self.final_counts: dict[int, int] = {}
        if any(p.final_counted for p in game.state.players):
            self.final_counts = replay_final_counts(game)  # counted before the file was loaded
        self.players: dict[int, Chooser] = {}
        # Hot-seat (R44): whose eyes are on the screen; a hand shows only to them.
        first = game.state.current_player()
        self.at_keyboard: int | None = first if game.computer[first] is None else None
        self.handing_over = False

    @property
    def state(self) -> GameState:
        return self.game.state

    def compose(self) -> ComposeResult:
        with Horizontal(id="game"):
            yield BoardView(self.state, id="board")
            with VerticalScroll(id="side"):
                yield Static(id="status")
                yield Static(id="scores")
                yield Static(id="supply")
                yield Static(id="hand")
                yield Static(id="message")
                yield Static(id="log")
        yield KeyBar()

    def on_mount(self) -> None:
        self.board.focus()
        self.refresh_all()
        self.call_after_refresh(self.after_action)

    @property
    def board(self) -> BoardView:
        return self.query_one("#board", BoardView)

    def is_human(self, p: int) -> bool:
        return self.game.computer[p] is None

    def pname(self, p: int) -> str:
        return panel.player_label(self.state, p)

    def refresh_all(self) -> None:
        s = self.state
        self.board.recent = turnlog.recent_hexes(self.game.movers, s.history, s.current_player())
        self.board.set_state(s, self.overlays())
        self.query_one("#status", Static).update(self.status_text())
        self.query_one("#scores", Static).update(panel.scores_text(s))
        self.query_one("#supply", Static).update(panel.supply_text(s))
        self.query_one("#hand", Static).update(self.hand_text())
        self.query_one("#message", Static).update(self.message)
        self.query_one("#log", Static).update(self.log_text())
        self.refresh_bindings()
        self.call_after_refresh(self.query_one(KeyBar).refresh_keys)

    def status_text(self) -> str:
        return panel.status_text(self.state, self.game.computer, self.mode_text())

    def hand_text(self) -> str:
        if self.handing_over:
            return "[b]Hand[/b] hidden until the next player is at the keyboard (R44)"
        return panel.hand_text(self.state, self.game.computer)

    def log_text(self) -> str:
        return turnlog.log_text(self.state, self.game.movers, self.game.deltas)

    def say(self, text: str) -> None:
        self.message = text
        self.query_one("#message", Static).update(text)

    def describe(self, h: int) -> str:
        return panel.describe(self.state, h)

    def can_act(self) -> bool:
        s = self.state
        if s.is_terminal():
            self.say("the game is over (R40)")
            return False
        if self.busy or not self.is_human(s.current_player()):
            self.say("the computer player is moving; wait for your turn")
            return False
        return True

    def apply(self, a: Action) -> bool:
        """Push one action for whoever is to act; shows the engine's refusal otherwise."""
        s = self.state
        who = s.current_player()
        before = [p.final_counted for p in s.players]
        festival = s.festival.palace if s.festival is not None else (
            a.hex if isinstance(a, Festival) else None)
        scores = [p.score for p in s.players]
        try:
            s.push(a)
        except IllegalAction as e:
            self.say(f"[b]illegal[/b]: {e.rule} {e.why}{self.festival_reminder()}")
            return False
        except KratonError as e:
            self.say(f"[b]illegal[/b]: {e}")
            return False
        self.game.push(a, who, scores)
        counted = [0] * s.n_players
        for i, p in enumerate(s.players):
            if p.final_counted and not before[i]:
                counted[i] = self.final_counts[i] = p.score - scores[i]
        if isinstance(a, End):
            self.turn_start = len(s.history)
        self.message = f"{self.pname(who)}: {a}"
        if self.game.deltas and len(self.game.deltas) == len(self.game.movers):
            self.message += turnlog.gains_text(a, self.game.deltas[-1])
        if festival is not None and s.festival is None:
            pre = [scores[i] + counted[i] for i in range(s.n_players)]
            result = festival_result(s, festival, pre)
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
        if self.game.puzzle is not None:
            return
        first = self.game.autosave is None
        try:
            path = autosave_path(self.game)
            save_game(self.game, path)
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
            self.refresh_panel_only()

    def refresh_panel_only(self) -> None:
        self.query_one("#message", Static).update(self.message)

    def reset_mode(self) -> None:
        self.mode = "look"
        self.selected = -1
        self.targets = {}

    def after_action(self) -> None:
        """Refresh, then hand over to a computer player or a festival dialog as needed."""
        self.refresh_all()
        s = self.state
        if s.is_terminal():
            self.show_game_over()
            return
        me = s.current_player()
        if not self.is_human(me):
            if not self.busy:
                self.busy = True
                self.run_computer()
            return
        humans = sum(1 for c in self.game.computer if c is None)
        if humans >= 2 and me != self.at_keyboard:
            self.hand_over(me)
            return
        if s.festival is not None:
            self.festival_dialog()

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
        """Computer players think on a copy in this worker thread; each step is applied on the
        UI thread and shown before the next."""
        steps = 0
        while True:
            s = self.state
            if s.is_terminal():
                break
            me = s.current_player()
            name = self.game.computer[me]
            if name is None:
                break
            player = self.players.get(me)
            if player is None:
                player = make_computer(name, s.seed * 7 + me)
                self.players[me] = player
            copy = s.copy()
            steps += 1
            try:
                action = player.choose(copy)
            except KratonError as e:
                self._ui(self.say, f"computer player failed: {e}")
                break
            if steps > 60 and copy.is_legal(End()):
                action = End()  # a safety net: a turn of a random player may wander
            if isinstance(action, End):
                steps = 0
            if get_current_worker().is_cancelled:
                return
            ok = self._ui(self.apply, action)
            if not ok:
                break
            self._ui(self.refresh_all)
            if self.step_delay:
                time.sleep(self.step_delay)
        self._ui(self._computer_done)

    def _ui(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Run ``fn`` on the UI thread; after the app has closed, do nothing."""
        try:
            return self.app.call_from_thread(fn, *args)
        except RuntimeError:
            return False

    def _computer_done(self) -> None:
        self.busy = False
        self.turn_start = len(self.state.history)
        self.after_action()

    def show_game_over(self) -> None:
        text = panel.game_over_text(self.state, self.final_counts)
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

    def action_save(self) -> None:
        path = self.game.path
        if path and Path(path).name.startswith(AUTOSAVE_PREFIX):
            path = None
        default = path or str(saves_dir() / f"game-{time.strftime('%Y%m%d-%H%M%S')}.json")

        def done(result: tuple[str, str] | None) -> None:
            if result is None:
                return
            kind, path = result
            try:
                if kind == "position":
                    save_position_only(self.game, path)
                else:
                    save_game(self.game, path)
                    self.game.path = path
            except (OSError, KratonError) as e:
                self.say(f"[b]not saved[/b]: {e}")
                return
            self.say(f"saved the {kind} to {path}")

        self.app.push_screen(SaveDialog(default), done)

    def action_study(self) -> None:
        """R44: in a game, the study sees what the player at the keyboard may see: the others'
        hands and the deck are dealt at random from the cards he cannot see (a puzzle is full
        information, so it is studied as it is)."""
        from tui.screens.study import StudyScreen

        s = self.state
        if self.game.puzzle is not None or s.is_terminal():
            self.app.push_screen(StudyScreen(s.copy()))
            return
        viewer = self.viewer()
        seen = as_seen_by(s, viewer, random.Random())
        note = (f"As {self.pname(viewer)} sees it (R44): the other hands and the deck are dealt"
                " at random from the cards he cannot see; the answer is one such deal.")
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

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen())

    def action_quit_game(self) -> None:
        """A game in progress asks first and says where it is saved (issue 24)."""
        s = self.state
        if s.is_terminal() or self.game.puzzle is not None:
            self.app.exit()
            return
        self.autosave()
        where = self.game.autosave or "(not saved)"
        text = (f"The game is saved to\n{where}\n"
                f"[b]kraton play {where}[/b] continues it (or b in the new-game screen).")

        def answer(quit_now: bool | None) -> None:
            if quit_now:
                self.app.exit()

        self.app.push_screen(ConfirmDialog("Quit the game in progress?", text, "Quit (y)"),
                             answer)

    def mode_text(self) -> str:
        """What the keys do now (the input screens say more)."""
        return "watch"

    def overlays(self) -> dict[int, Overlay]:
        """What to paint over the board (cursor targets, tile preview): nothing here."""
        return {}
