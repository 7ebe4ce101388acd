"""The game screen: a turn played by keys or mouse on top of ``TableScreen``.

Modes: look, tile (size, rotation, village hex, live preview), enter and move (targets marked
with their AP cost). Previews come from the controller (on a copy, never the live state); the
engine decides. The looking-back keys step through the game without changing it.
"""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType

from core.actions import Action, Draw, End, Festival, Token
from core.drawing import PLAYER_LETTERS
from core.errors import KratonError
from core.hexmap import hex_name
from core.state import GameState
from tui.board import BoardView, Overlay
from tui.festival_view import hand_worths, option_label, stakes
from tui.screens.dialogs import ChoiceDialog
from tui.screens.lookback import LOOK_BACK
from tui.screens.table import TableScreen
from tui.turn import entry_targets, move_targets, palace_choices

SIZE_CYCLE = {3: 2, 2: 1, 1: 3}


class GameScreen(TableScreen):
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
        Binding("y", "redo", "Redo"),  # shown only while there is something to redo
        Binding("y", "nothing_to_redo", show=False),  # y when "redo" is off (check_action)
        Binding("E", "end_turn", "End turn"),
        *LOOK_BACK,
        Binding("C", "comment", "Comment", show=False),  # in the help; 80x24 has no room
        Binding("V", "review", "Review"),
        Binding("enter", "confirm", "Confirm"),
        Binding("escape", "cancel", "Cancel"),
        Binding("s", "save", "Save"),
        Binding("a", "study", "Study"),
        Binding("question_mark", "help", "Help"),
        Binding("q", "quit_game", "Quit"),
    ]

    def on_mount(self) -> None:
        # Textual also runs TableScreen.on_mount (handlers run for each class of the MRO).
        self.board.on_cursor = self.cursor_moved

    def mode_text(self) -> str:
        if self.state.festival is not None:
            return "festival: f opens the bidding dialog (R32)"
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
            pv = self.ctl.preview_tile(self.shape, self.board_cursor)
            cells = self.shape.cells(self.board_cursor) or ()
            for h, t in cells:
                if s.map.on_map(h):
                    lv = s.level[h] + 1
                    out[h] = Overlay("preview-ok" if pv.legal else "preview-bad",
                                     top=f"{'v' if t == 2 else 'r'}{lv}",
                                     bottom="new" if pv.legal else _in_the_way(s, h))
            self.message = pv.message
        return out


    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Rotate and village only show while a tile is being placed, redo while there is
        something to redo."""
        if action in ("rotate", "rotate_back", "village"):
            return self.mode == "tile"
        if action == "redo":
            return self.game.can_redo
        return True


    @property
    def board_cursor(self) -> int:
        return self.query_one("#board", BoardView).cursor


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
        self.targets = entry_targets(self.ctl.scratch())
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
        self.targets = move_targets(self.ctl.scratch(), h)
        self.refresh_all()
        self.say(f"{len(self.targets)} hexes reachable from {hex_name(h)} (R27)"
                 if self.targets else f"the developer on {hex_name(h)} cannot move now (R27)")


    def action_exit_dev(self) -> None:
        if not self.can_act():
            return
        from core.actions import Exit

        pv = self.ctl.preview(Exit(self.board.cursor))
        if pv.action is not None and pv.legal:
            self.human_act(pv.action)
        else:
            self.say(pv.message)


    def action_palace(self) -> None:
        if not self.can_act():
            return
        h = self.board.cursor
        choices = palace_choices(self.ctl.scratch(), h)
        if not choices:
            from core.actions import Palace

            value = (self.state.palace[h] or 0) + 2
            self.say(self.ctl.preview(Palace(h, min(value, 10))).message)
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
        if self.state.festival is not None:
            self.festival_dialog()  # Esc closed the bidding dialog: f brings it back (R32)
            return
        h = self.board.cursor
        s = self.state
        opts = [(option_label(s, a, s.to_move), a) for a in s.legal_actions()
                if isinstance(a, Festival) and a.hex == h]
        if not opts:
            self.say(self.ctl.preview(Festival(h)).message)
            return
        note = (f"Face-up card [b]{s.face_up}[/b]: a card is worth the number of its symbols"
                f" shown on it (R31).\n{stakes(s, h)}\nThe festival is the last action of your"
                " turn (R30); every card played goes to the discard pile (R33).\n"
                f"Your hand: {hand_worths(s, s.to_move)}")

        def chosen(a: Action | None) -> None:
            if a is not None:
                self.human_act(a)

        self.app.push_screen(ChoiceDialog(f"Festival at {hex_name(h)} (R30)", opts, note), chosen)


    def action_undo(self) -> None:
        """Undo stays inside the turn and never takes back a card draw (R36, R44)."""
        if not self.can_act():
            return
        try:
            a = self.ctl.undo()
        except KratonError as e:
            self.say(str(e))
            return
        self.reset_mode()
        self.message = f"undone: {a}  (y redoes it)"
        self.autosave()
        self.refresh_all()

    def action_redo(self) -> None:
        if not self.can_act():
            return
        try:
            a = self.ctl.redo()
        except KratonError as e:
            self.say(str(e))
            return
        self.reset_mode()
        self.message = f"redone: {a}"
        self.autosave()
        self.after_action()

    def action_nothing_to_redo(self) -> None:
        """y while the Redo binding is off: say why (as u with nothing to undo does) rather
        than leave the last message standing as if it still applied."""
        self.action_redo()

    def action_end_turn(self) -> None:
        if self.can_act():
            self.human_act(End())


    def action_confirm(self) -> None:
        if not self.can_act():
            return
        h = self.board.cursor
        s = self.state
        if self.mode == "tile":
            pv = self.ctl.preview_tile(self.shape, h)
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
        if self.ctl.looking_back:
            self.action_nav("end")
            return
        self.reset_mode()
        self.message = "cancelled"
        self.refresh_all()



def _in_the_way(s: GameState, h: int) -> str:
    """What a refused tile preview shows under its hex: the piece on it that may be why (a
    developer's letter, a palace, irrigation: R11), not hidden by the preview."""
    if s.dev[h] >= 0:
        return PLAYER_LETTERS[s.dev[h]]
    if s.palace[h]:
        return f"P{s.palace[h]}"
    return "~~" if s.irrigated[h] else "new"
