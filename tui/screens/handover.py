"""The hot-seat hand-over: hands stay hidden until the next player confirms (R44).

Unlike a message, it cannot be waved away: only Enter (or its button) dismisses it, ``q``
asks whether to quit the app, as in the game (which is autosaved after every action), and
Escape does nothing, so no key shows the next player's hand to whoever is still at the
keyboard.
"""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType

from tui.screens.dialogs import MessageScreen


class HandOverScreen(MessageScreen):
    """Dismissed only by its owner's confirmation (Enter or the button): a message whose Escape
    and ``q`` do not close it."""

    inherit_bindings = False
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "ready", "Ready"),
        Binding("q", "app.quit", "Quit"),
        Binding("escape", "stay", "Stay", show=False),
    ]

    def action_ready(self) -> None:
        self.dismiss(None)

    def action_stay(self) -> None:
        """Escape: the hand-over waits for its owner (R44)."""
