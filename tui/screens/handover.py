"""The hot-seat hand-over: hands stay hidden until the next player confirms (R44).

Unlike a message, it cannot be waved away: only Enter (or its button) dismisses it, ``q``
quits the app (the game is autosaved after every action) and Escape does nothing, so no key
shows the next player's hand to whoever is still at the keyboard.
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Label, Static


class HandOverScreen(ModalScreen[None]):
    """Dismissed only by its owner's confirmation (Enter or the button)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "ready", "Ready"),
        Binding("q", "app.quit", "Quit"),
        Binding("escape", "stay", "Stay", show=False),
    ]

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

    def action_ready(self) -> None:
        self.dismiss(None)

    def action_stay(self) -> None:
        """Escape: the hand-over waits for its owner (R44)."""
