"""Small modal screens: a choice among options, the help, save-as, a message, a comment."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, ClassVar

from rich.markup import escape
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from core.errors import KratonError


class ChoiceDialog(ModalScreen[Any]):
    """Pick one of several options (palace values, festival bids); Esc cancels (None)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, title: str, options: Sequence[tuple[str, Any]], note: str = "",
                 hint: str = "Enter chooses, Esc cancels") -> None:
        super().__init__()
        self.title_text = title
        self.options = list(options)
        self.note = note
        self.hint = hint

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(self.title_text, classes="dialog-title")
            if self.note:
                yield Static(self.note, classes="dialog-note")
            yield OptionList(*[Option(label, id=str(i)) for i, (label, _) in enumerate(self.options)],
                             id="choices")
            yield Label(self.hint, classes="dialog-hint")

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(self.options[int(event.option.id or 0)][1])

    def action_cancel(self) -> None:
        self.dismiss(None)


class MessageScreen(ModalScreen[None]):
    """A message to read and close (end of game, puzzle verdicts)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,enter,q", "close", "Close")]

    def __init__(self, title: str, body: str) -> None:
        super().__init__()
        self.title_text = title
        self.body = body

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(self.title_text, classes="dialog-title")
            yield Static(self.body, id="message-body")
            yield Button("Close", id="close", variant="primary")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(None)

    def action_close(self) -> None:
        self.dismiss(None)


class VerdictDialog(ModalScreen[str | None]):
    """A puzzle's verdict: the next puzzle (n), try again (z) or close (Esc) to look."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "choose('next')", "Next puzzle"),
        Binding("z", "choose('retry')", "Try again"),
        Binding("escape,q", "choose('close')", "Close"),
    ]

    def __init__(self, title: str, body: str, next_id: str | None) -> None:
        super().__init__()
        self.title_text = title
        self.body = body
        self.next_id = next_id

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(self.title_text, classes="dialog-title")
            yield Static(self.body, id="message-body")
            with Horizontal(classes="buttons"):
                if self.next_id:
                    yield Button(f"Next: {self.next_id} (n)", id="next", variant="primary")
                yield Button("Try again (z)", id="retry")
                yield Button("Close (Esc)", id="close")

    def on_mount(self) -> None:
        self.query_one(Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.action_choose(event.button.id or "close")

    def action_choose(self, what: str) -> None:
        if what == "next" and not self.next_id:
            return
        self.dismiss(what)


class ConfirmDialog(ModalScreen[bool]):
    """Yes (y, Enter on the first button) or no (n, Esc)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "Yes"),
        Binding("n,escape", "answer(False)", "No"),
    ]

    def __init__(self, title: str, body: str, yes: str = "Yes (y)", no: str = "Stay (n, Esc)"
                 ) -> None:
        super().__init__()
        self.title_text, self.body, self.yes, self.no = title, body, yes, no

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(self.title_text, classes="dialog-title")
            yield Static(self.body, id="message-body")
            with Horizontal(classes="buttons"):
                yield Button(self.yes, id="yes", variant="error")
                yield Button(self.no, id="no", variant="primary")

    def on_mount(self) -> None:
        self.query_one("#no", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


class SaveDialog(ModalScreen[tuple[str, str] | None]):
    """Ask where to save and what: the game record (default) or the bare position. The dialog
    stays open until the file is written: a blank name, a missing folder or a failed write is
    said in it (one line), and a file that is there already (not the game's own) is replaced
    only when asked again. ``save(kind, path)`` writes, and returns an error or None."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, path: str, save: Callable[[str, Path], str | None],
                 own: str | None = None) -> None:
        super().__init__()
        self.path = path
        self.save = save
        self.own = own  # the game's own file: saved again without asking
        self.asked: tuple[str, Path] | None = None  # the replacement asked about

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label("Save", classes="dialog-title")
            yield Input(self.path, id="save-path")
            yield Static("A name alone saves in the saves folder.", id="save-note")
            with Horizontal(classes="buttons"):
                yield Button("Save game (Enter)", id="save-game", variant="primary")
                yield Button("Save position", id="save-position")
                yield Button("Cancel", id="cancel")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.attempt("game")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "cancel":
            self.dismiss(None)
            return
        self.attempt("position" if event.button.id == "save-position" else "game")

    def attempt(self, kind: str) -> None:
        from tui.saves import save_target

        note = self.query_one("#save-note", Static)
        try:
            target = save_target(self.query_one(Input).value)
        except KratonError as e:
            note.update(f"[b]not saved[/b]: {escape(str(e))}")
            return
        own = self.own is not None and os.path.realpath(self.own) == os.path.realpath(target)
        if target.exists() and not own and self.asked != (kind, target):
            self.asked = (kind, target)
            note.update(f"[b]{escape(str(target))} is there already[/b]: the same again"
                        " replaces it, Esc keeps it")
            return
        error = self.save(kind, target)
        if error is not None:
            note.update(f"[b]not saved[/b]: {escape(error)}")
            return
        self.dismiss((kind, str(target)))

    def action_cancel(self) -> None:
        self.dismiss(None)


class CommentDialog(ModalScreen[str | None]):
    """A one-line comment on an action (Enter keeps it; an empty one removes it; Esc cancels)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, title: str, text: str = "") -> None:
        super().__init__()
        self.title_text, self.text = title, text

    def compose(self) -> ComposeResult:
        from core.record import MAX_COMMENT

        with Vertical(classes="dialog"):
            yield Label(self.title_text, classes="dialog-title")
            yield Input(self.text, id="comment", max_length=MAX_COMMENT)
            yield Label("Enter keeps it (saved with the game); empty removes it; Esc cancels",
                        classes="dialog-hint")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value)

    def action_cancel(self) -> None:
        self.dismiss(None)


HELP = """\
[b]Moving around[/b]
  arrows or h j k l   move the cursor (odd rows sit half a hex right)
  mouse click         put the cursor on a hex; click it again to confirm
  Enter               confirm (place the tile, enter/move the developer);
                      on your own developer: pick it up to move it
  Esc                 cancel what is being done

[b]A turn in short[/b]
  Place at least one land tile (R8), spend the rest of your 6 AP,
  press E. Developers enter on land at the edge of Java-Centre (next
  to the rim) or on the rim itself (R26). A palace needs a village of
  2+ hexes where one of your developers stands highest (R25, R28);
  its value is at most the village's size.

[b]Your turn[/b] (6 action points, R7)
  t          place a land tile; t again cycles its size 3 -> 2 -> 1
  r / R      rotate the tile (right click rotates too)
  v          choose which hex of the tile is the village (single: rice/village)
  e          enter a developer: legal hexes show their AP cost (R26)
  m          move the developer under the cursor: targets show AP costs (R27)
  x          take the developer under the cursor off the board (R27)
  p          build or enlarge the palace on the cursor's village (R28, R29)
  i          place an irrigation tile on the cursor (R37)
  c / d      draw the face-up festival card / the deck's top card (R36)
  o          spend an action token: one more AP (R7)
  f          hold a festival in the city of the palace under the cursor
             (R30); while a festival is bid, f reopens the bidding dialog
  u / y      undo the last action of this turn / redo it (a draw stays, R44)
  E          end the turn (a tile must have been placed, R8)

[b]Looking back[/b] (in play and in review; the game itself never changes)
  , / .      one action back / forward
  < / >      one turn back / forward
  Home       the start of the game
  End, Esc   back to the present (play is refused while looking back)
  C          comment on the action shown (saved with the game)
  V          review: best vs played per turn, the score chart (R44: during
             play only your own turns, as you could see them)

[b]Game[/b]
  s          save the game (or the position)
  a          study this position: rankings, final count, best turn
  ?          this help          Ctrl+P  command palette
  q          quit (asks first; the game is autosaved after every action)
  colours    the terminal's own; Ctrl+P "theme" or KRATON_THEME picks another

[b]Puzzles[/b] (kraton puzzle: one player's turn, the best score to reach)
  H          a hint: the next action of a best line
  S          step through the solution      z  start again
  E          the verdict (a festival ends the turn too, R30); n in it opens
             the next puzzle, z tries again

[b]Review[/b] (kraton play on a finished game, kraton review GAME, V)
  , . < > Home End   step through the game as above
  C          comment      s  save (with comments and evaluations)
  q / Esc    back         marks: ?! >= 3 points missed, ? >= 6, ?? >= 10
  "best 9+": the best found, not proved; "=": the best was played; "-2": 2 points missed

[b]Puzzle trainer[/b] (kraton train; T in the new-game screen and the browser)
  Enter      start a session     r / k / t / x  mode: rated, streak, theme, mix
  g          the set: the collection or My games ($KRATON_HOME/my-puzzles)
  V          statistics: your rating over time, success per theme
  H          hint: the kind of action and where; H again: the action
             (solved after the first hint counts half, after the second nothing)
  n          next puzzle (before the verdict: give up, counts as not solved)
  a          study: shows the best turn (before the verdict it asks first:
             the attempt then counts as not solved)
  q / Esc    back to the trainer's home, then out
  In streak mode one mistake is allowed; the second ends the streak.
  A failed puzzle comes back three puzzles later (unrated).

[b]Study[/b] (a)
  n / b      step the best turn on the board / back (also ] / \\[)
  PageDown / PageUp   scroll the report      w  the report full width
  Esc        back to the game

[b]Reading the board[/b]
  r2 rice on level 2, v3 village on level 3 (the darker, the higher)
  .  bare land   ~~ irrigation   L lowland rim   M mountain rim
  A-D a developer of that player   P8 a palace of value 8   * festival held
  1ap  a hex you can reach, with its cost in action points
  underlined: the hexes of the last turn (at the cursor when looking back)
  The move list (right) lists each turn with its points, the review's mark
  and best; "+2 A (palace, R29)" says who scored what and by which rule;
  # marks a comment; > the action shown.
"""


class HelpScreen(ModalScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q,question_mark", "close", "Close")]

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="dialog help"):
            yield Label("kraton - keys", classes="dialog-title")
            yield Static(HELP)

    def action_close(self) -> None:
        self.dismiss(None)
