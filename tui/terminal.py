"""The app's output to a terminal that may go away under it (a closed window, a dropped
connection).

Textual writes the screen from a thread (``WriterThread``) through a queue of 30 writes. On a
terminal that has gone, a write raises (EIO), the thread dies, and 30 writes later the app's
own thread blocks on the full queue for good: the check that would notice the hang-up (``tui.app
.KratonApp.watch_terminal``) never runs again, and ``kraton play`` hangs on a closed terminal
(seen under load, when a computer player's moves keep the screen busy). Here a write to a
terminal that has gone is dropped instead, so the app goes on to notice and exit (status 129).
"""

from __future__ import annotations

from typing import IO, Any

from textual.drivers.linux_driver import LinuxDriver


class TerminalStream:
    """A text stream whose writes and flushes, once the terminal has gone (OSError), are
    dropped (``gone``) instead of raised into the writer thread."""

    def __init__(self, stream: IO[str]) -> None:
        self.stream = stream
        self.gone = False

    def write(self, text: str) -> int:
        if not self.gone:
            try:
                return self.stream.write(text)
            except OSError:
                self.gone = True
        return len(text)

    def flush(self) -> None:
        if not self.gone:
            try:
                self.stream.flush()
            except OSError:
                self.gone = True

    def __getattr__(self, name: str) -> Any:  # fileno, isatty, encoding: the stream's own
        return getattr(self.stream, name)


class KeepOnDriver(LinuxDriver):
    """Textual's Linux driver, writing through a ``TerminalStream``."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self._file is not None:  # sys.__stderr__, None without one
            self._file = TerminalStream(self._file)  # type: ignore[assignment]


__all__ = ["KeepOnDriver", "TerminalStream"]
