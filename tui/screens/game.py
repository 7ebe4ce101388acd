"""The game screen: the board, a side panel, a turn played by keys or mouse, computer players.

Every action goes through ``GameState.push``, so the engine alone decides legality; the screen
only previews (``tui.turn``) and shows the engine's message with its R-number.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

from rich.markup import escape
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Static
from textual.worker import get_current_worker

from core.actions import Action, Draw, End, Festival, Token
from core.drawing import PLAYER_LETTERS
from core.errors import IllegalAction, KratonError
from core.hexmap import hex_name
from core.state import GameState
from tui.board import BoardView, Overlay
from tui.keybar import KeyBar
from tui.saves import Game, autosave_path, save_game, save_position_only, saves_dir
from tui.screens.dialogs import ChoiceDialog, HelpScreen, MessageScreen, SaveDialog
from tui.turn import (
    TileShape,
    entry_targets,
    exit_preview,
    make_computer,
    move_targets,
    palace_choices,
    tile_preview,
    try_action,
)

SIZE_CYCLE = {3: 2, 2: 1, 1: 3}


def turn_start(history: list[Action]) -> int:
    """Index of the first action of the turn in progress (after the last ``end``)."""
    for i in range(len(history) - 1, -1, -1):
        if isinstance(history[i], End):
            return i + 1
    return 0


class GameScreen(Screen[None]):
    """Play a game (hot-seat humans and computer players)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("t", "tile", "Tile"),
        Binding("r", "rotate", "Rotate"),
        Binding("R", "rotate_back", "Rotate back", show=False),
        Binding("v", "village", "Village"),
        Binding("e", "enter_mode", "Enter"),
        Binding("m", "move_mode", "Move"),
        Binding("x", "exit_dev", "Exit"),
        Binding("p", "palace", "Palace"),
        Binding("i", "irrigate", "Irrigate"),
        Binding("c", "draw(True)", "Card"),
        Binding("d", "draw(False)", "Deck card"),
        Binding("o", "token", "Token"),
        Binding("f", "festival", "Festival"),
        Binding("u", "undo", "Undo"),
        Binding("E", "end_turn", "End turn"),
        Binding("enter", "confirm", "Confirm"),
        Binding("escape", "cancel", "Cancel"),
        Binding("s", "save", "Save"),
        Binding("a", "study", "Study"),
        Binding("question_mark", "help", "Help"),
        Binding("q", "quit_game", "Quit"),
    ]

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
        self.players: dict[int, Any] = {}

    @property
    def state(self) -> GameState:
        return self.game.state

    # ------------------------------------------------------------------ layout
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
        self.board.on_cursor = self.cursor_moved
        self.board.focus()
        self.refresh_all()
        self.call_after_refresh(self.after_action)

    @property
    def board(self) -> BoardView:
        return self.query_one("#board", BoardView)

    # ------------------------------------------------------------------ panel
    def is_human(self, p: int) -> bool:
        return self.game.computer[p] is None

    def pname(self, p: int) -> str:
        return f"{PLAYER_LETTERS[p]} {escape(self.state.players[p].name)}"

    def refresh_all(self) -> None:
        s = self.state
        self.board.set_state(s, self.overlays())
        me = s.current_player()
        t = s.turn
        if s.is_terminal():
            status = "[b]Game over[/b] (R40)"
        else:
            who = "you" if self.is_human(me) else f"computer: {self.game.computer[me]}"
            status = (f"[b]{self.pname(me)}[/b] to act ({who})\n"
                      f"AP left [b]{t.ap}[/b]   token {'used' if t.token_used else 'unused'}"
                      f"   tile {'placed' if t.tile_placed else '[b]owed[/b] (R8)'}")
            if s.last_round is not None:
                status += "\n[b]last round[/b] (R40)"
            if s.festival is not None:
                status += "\n" + self.festival_text()
            status += f"\nmode: {self.mode_text()}"
        self.query_one("#status", Static).update(status)
        rows = ["[b]Scores[/b]   pts dev  2t 1r 1v tok"]
        for i, p in enumerate(s.players):
            mark = ">" if i == me else " "
            rows.append(f"{mark}{PLAYER_LETTERS[i]} {escape(f'{p.name[:8]:<8}')}"
                        f"{p.score:>3} {p.developers_off:>3} {p.doubles:>3}{p.rice:>3}{p.villages:>3}"
                        f"{p.tokens:>4}")
        self.query_one("#scores", Static).update("\n".join(rows))
        pal = " ".join(f"{v}:{s.palace_supply[v]}" for v in (2, 4, 6, 8, 10))
        self.query_one("#supply", Static).update(
            f"[b]Supply[/b] 3-tiles {s.triples}  irrigation {s.irrigation_supply}\n"
            f"palaces {pal}\nface-up card {s.face_up or '-'}  deck {len(s.deck)}"
            f"  discard {len(s.discard)}")
        self.query_one("#hand", Static).update(self.hand_text())
        self.query_one("#message", Static).update(self.message)
        self.query_one("#log", Static).update(self.log_text())
        self.refresh_bindings()
        self.call_after_refresh(self.query_one(KeyBar).refresh_keys)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Rotate and village only show while a tile is being placed."""
        if action in ("rotate", "rotate_back", "village"):
            return self.mode == "tile"
        return True

    def festival_text(self) -> str:
        """The bids so far (R32): cards are open on the table once bid."""
        f = self.state.festival
        parts = []
        for p, (bid, st) in enumerate(zip(getattr(f, "bids", ()), getattr(f, "status", ()))):
            parts.append(f"{PLAYER_LETTERS[p]} {'+'.join(bid) or '-'} ({st})")
        where = hex_name(f.palace) if hasattr(f, "palace") else "?"
        return f"[b]festival at {where}[/b] (R32): " + ", ".join(parts)

    def hand_text(self) -> str:
        """Only the hand of the human whose decision it is, or of the only human (R44)."""
        s = self.state
        me = s.current_player()
        humans = [i for i in range(s.n_players) if self.is_human(i)]
        who = me if self.is_human(me) else (humans[0] if len(humans) == 1 else -1)
        if who < 0:
            return "[b]Hand[/b] hidden (R44)"
        hand = ", ".join(s.players[who].hand) or "no cards"
        return f"[b]Hand of {escape(s.players[who].name)}[/b]: {hand}"

    def log_text(self) -> str:
        s = self.state
        movers = self.game.movers
        lines = [f"{PLAYER_LETTERS[p]} {a}" for p, a in zip(movers, s.history)][-16:]
        return "[b]Log[/b] (newest first)\n" + ("\n".join(reversed(lines)) if lines else "-")

    def mode_text(self) -> str:
        if self.mode == "tile":
            return f"{self.shape.size}-space tile (r rotate, v village, Enter place)"
        if self.mode == "enter":
            return "enter a developer (Enter on a marked hex)"
        if self.mode == "move":
            if self.selected < 0:
                return "move: put the cursor on your developer, Enter"
            return f"move from {hex_name(self.selected)} (Enter on a marked hex)"
        return "look (t tile, e enter, m move, ? help)"

    def overlays(self) -> dict[int, Overlay]:
        out: dict[int, Overlay] = {}
        s = self.state
        for h, c in self.targets.items():
            out[h] = Overlay("target", bottom=f"{c}ap")
        if self.selected >= 0:
            out[self.selected] = Overlay("selected")
        if self.mode == "tile" and not self.busy:
            pv = tile_preview(s, self.shape, self.board_cursor)
            cells = self.shape.cells(self.board_cursor) or ()
            for h, t in cells:
                if s.map.on_map(h):
                    lv = s.level[h] + 1
                    out[h] = Overlay("preview-ok" if pv.legal else "preview-bad",
                                     top=f"{'v' if t == 2 else 'r'}{lv}", bottom="new")
            self.message = pv.message
        return out

    @property
    def board_cursor(self) -> int:
        return self.query_one("#board", BoardView).cursor

    def say(self, text: str) -> None:
        self.message = text
        self.query_one("#message", Static).update(text)

    # ------------------------------------------------------------------ events
    def cursor_moved(self, h: int) -> None:
        if self.mode == "tile":
            self.board.set_overlays(self.overlays())
            self.say(self.message)
        elif self.mode in ("enter", "move") and h in self.targets:
            self.say(f"{hex_name(h)}: {self.targets[h]} AP")
        else:
            self.say(self.describe(h))

    def on_board_view_hex_clicked(self, event: BoardView.HexClicked) -> None:
        if event.button == 3 and self.mode == "tile":
            self.action_rotate()
        elif self._last_click == event.hex:
            self.action_confirm()
        self._last_click = event.hex

    _last_click = -1

    def describe(self, h: int) -> str:
        s = self.state
        parts = [hex_name(h)]
        if s.level[h]:
            parts.append(f"{'village' if s.terrain[h] == 2 else 'rice'} on level {s.level[h]}")
        if s.dev[h] >= 0:
            parts.append(f"developer of {s.players[s.dev[h]].name}")
        if s.palace[h]:
            parts.append(f"palace {s.palace[h]}{' (festival held)' if s.fest[h] else ''}")
        if s.map.edge_cost(h):
            parts.append(f"entry/exit {s.map.edge_cost(h)} AP")
        return ", ".join(parts)

    # ------------------------------------------------------------------ acting
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
        scores = [p.score for p in s.players]
        try:
            s.push(a)
        except IllegalAction as e:
            self.say(f"[b]illegal[/b]: {e.rule} {e.why}")
            return False
        except KratonError as e:
            self.say(f"[b]illegal[/b]: {e}")
            return False
        self.game.movers.append(who)
        for i, p in enumerate(s.players):
            if p.final_counted and not before[i]:
                self.final_counts[i] = p.score - scores[i]
        if isinstance(a, End):
            self.turn_start = len(s.history)
        self.message = f"{self.pname(who)}: {a}"
        self.autosave()
        return True

    def autosave(self) -> None:
        if self.game.puzzle is not None:
            return
        try:
            save_game(self.game, autosave_path())
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
        if not self.is_human(s.current_player()):
            if not self.busy:
                self.busy = True
                self.run_computer()
            return
        if s.festival is not None:
            self.festival_dialog()

    # ------------------------------------------------------------------ computer players
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

    # ------------------------------------------------------------------ end of game
    def show_game_over(self) -> None:
        s = self.state
        best = max(p.score for p in s.players)
        winners = [p.name for p in s.players if p.score == best]
        lines = []
        for i, p in enumerate(s.players):
            fc = self.final_counts.get(i)
            lines.append(f"{PLAYER_LETTERS[i]} {p.name:<10} final count "
                         f"{fc if fc is not None else '-':>3}   total {p.score:>3}")
        lines.append("")
        lines.append(("Winner: " if len(winners) == 1 else "Shared win: ") + ", ".join(winners)
                     + " (R42)")
        self.app.push_screen(MessageScreen("Game over", "\n".join(lines)))

    # ------------------------------------------------------------------ actions (keys)
    def action_tile(self) -> None:
        if not self.can_act():
            return
        if self.mode == "tile":
            self.shape.size = SIZE_CYCLE[self.shape.size]
            self.shape.village = 0
        else:
            self.reset_mode()
            self.mode = "tile"
        self.refresh_all()

    def action_rotate(self) -> None:
        if self.mode == "tile":
            self.shape.rotate(1)
            self.refresh_all()

    def action_rotate_back(self) -> None:
        if self.mode == "tile":
            self.shape.rotate(-1)
            self.refresh_all()

    def action_village(self) -> None:
        if self.mode == "tile":
            self.shape.next_village()
            self.refresh_all()

    def action_enter_mode(self) -> None:
        if not self.can_act():
            return
        self.reset_mode()
        self.targets = entry_targets(self.state)
        if not self.targets:
            self.say("no developer can enter now (R26: a free land hex on the border or rim,"
                     " a developer off the board and enough AP)")
            self.refresh_all()
            return
        self.mode = "enter"
        self.refresh_all()
        self.say(f"{len(self.targets)} hexes to enter, marked with their AP cost")

    def action_move_mode(self) -> None:
        if not self.can_act():
            return
        h = self.board.cursor
        self.reset_mode()
        self.mode = "move"
        if self.state.dev[h] == self.state.to_move:
            self.pick(h)
        else:
            self.refresh_all()
            self.say("put the cursor on one of your developers and press Enter")

    def pick(self, h: int) -> None:
        self.selected = h
        self.targets = move_targets(self.state, h)
        self.refresh_all()
        self.say(f"{len(self.targets)} hexes reachable from {hex_name(h)} (R27)"
                 if self.targets else f"the developer on {hex_name(h)} cannot move now (R27)")

    def action_exit_dev(self) -> None:
        if not self.can_act():
            return
        pv = exit_preview(self.state, self.board.cursor)
        if pv.action is not None and pv.legal:
            self.human_act(pv.action)
        else:
            self.say(pv.message)

    def action_palace(self) -> None:
        if not self.can_act():
            return
        h = self.board.cursor
        choices = palace_choices(self.state, h)
        if not choices:
            from core.actions import Palace

            value = (self.state.palace[h] or 0) + 2
            self.say(try_action(self.state, Palace(h, min(value, 10))).message)
            return
        if len(choices) == 1:
            self.human_act(choices[0])
            return
        opts = [(f"palace of value {a.value} (+{a.value // 2} points, R29)", a) for a in choices]

        def chosen(a: Action | None) -> None:
            if a is not None:
                self.human_act(a)

        self.app.push_screen(ChoiceDialog(f"Palace on {hex_name(h)}", opts), chosen)

    def action_irrigate(self) -> None:
        if not self.can_act():
            return
        from core.actions import Irrigate

        self.human_act(Irrigate(self.board.cursor))

    def action_draw(self, faceup: bool) -> None:
        if self.can_act():
            self.human_act(Draw(faceup))

    def action_token(self) -> None:
        if self.can_act():
            self.human_act(Token())

    def action_festival(self) -> None:
        if not self.can_act():
            return
        h = self.board.cursor
        opts = [(str(a), a) for a in self.state.legal_actions()
                if isinstance(a, Festival) and a.hex == h]
        if not opts:
            self.say(try_action(self.state, Festival(h)).message)
            return

        def chosen(a: Action | None) -> None:
            if a is not None:
                self.human_act(a)

        self.app.push_screen(ChoiceDialog(f"Festival at {hex_name(h)} (R30)", opts), chosen)

    def festival_dialog(self) -> None:
        s = self.state
        me = s.current_player()
        opts = [(str(a), a) for a in s.legal_actions()]
        if not opts:
            return
        hand = ", ".join(s.players[me].hand) or "no cards"
        note = f"{s.players[me].name}, your hand: {hand}"

        def chosen(a: Action | None) -> None:
            if a is not None:
                self.human_act(a)

        self.app.push_screen(ChoiceDialog(f"Festival: {s.players[me].name} decides (R32)", opts,
                                          note), chosen)

    def action_undo(self) -> None:
        if not self.can_act():
            return
        s = self.state
        if len(s.history) <= self.turn_start:
            self.say("nothing to undo in this turn")
            return
        a = s.pop()
        self.game.movers.pop()
        self.reset_mode()
        self.message = f"undone: {a}"
        self.autosave()
        self.refresh_all()

    def action_end_turn(self) -> None:
        if self.can_act():
            self.human_act(End())

    def action_confirm(self) -> None:
        if not self.can_act():
            return
        h = self.board.cursor
        s = self.state
        if self.mode == "tile":
            pv = tile_preview(s, self.shape, h)
            if pv.action is not None and pv.legal:
                self.human_act(pv.action)
            else:
                self.say(pv.message)
        elif self.mode == "enter":
            from core.actions import Enter

            self.human_act(Enter(h))
        elif self.mode == "move" and self.selected >= 0 and h != self.selected:
            from core.actions import Move

            self.human_act(Move(self.selected, h))
        elif s.dev[h] == s.to_move:
            self.mode = "move"
            self.pick(h)
        else:
            self.say(self.describe(h) + "  (t tile, e enter a developer, ? help)")

    def action_cancel(self) -> None:
        self.reset_mode()
        self.message = "cancelled"
        self.refresh_all()

    def action_save(self) -> None:
        path = self.game.path
        if path and Path(path).resolve() == autosave_path().resolve():
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
        from tui.screens.study import StudyScreen

        self.app.push_screen(StudyScreen(self.state.copy()))

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen())

    def action_quit_game(self) -> None:
        self.autosave()
        self.app.exit()
