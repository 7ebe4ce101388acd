"""A key bar that wraps onto a second line, so every binding of a busy screen stays visible
(Textual's Footer is one line and would cut the game screen's keys off at 120 columns).
Bindings of one ``Binding.Group`` share one entry: ``, . < > home end Look back``."""

from __future__ import annotations

from rich.markup import escape
from textual.binding import Binding
from textual.widgets import Static


class KeyBar(Static):
    DEFAULT_CSS = """
    KeyBar { dock: bottom; height: auto; max-height: 3; background: $panel; color: $text; padding: 0 1; }
    """

    def on_mount(self) -> None:
        self.refresh_keys()

    def refresh_keys(self) -> None:
        """Rebuild from the screen's active bindings (those hidden by check_action drop out).
        While the screen hands the keyboard over (R44), only that screen's keys work: those."""
        if getattr(self.screen, "handing_over", False):
            from tui.screens.handover import HandOverScreen

            self.update("  ".join(f"[b]{escape(b.key)}[/b] {escape(b.description)}"
                                  for b in HandOverScreen.BINDINGS
                                  if isinstance(b, Binding) and b.show))
            return
        seen: set[str] = set()
        entries: list[tuple[object, list[str], str, bool]] = []  # group, keys, text, enabled
        for active in self.screen.active_bindings.values():
            b = active.binding
            if not b.show or b.action in seen:
                continue
            seen.add(b.action)
            key = b.key_display or self.app.get_key_display(b)
            same = [e for e in entries if b.group is not None and e[0] == b.group]
            if same:
                same[0][1].append(key)
                continue
            text = b.group.description if b.group is not None else b.description
            entries.append((b.group, [key], text, active.enabled))
        parts = []
        for _, keys, text, enabled in entries:
            style = "b" if enabled else "dim"
            keys.sort(key=len)  # ", . < > home end": the short ones first
            parts.append(f"[{style}]{escape(' '.join(keys))}[/{style}] {escape(text)}")
        parts.append("[b]^p[/b] palette")
        self.update("  ".join(parts))
