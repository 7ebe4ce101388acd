"""Exceptions. Every refusal is a ValueError subclass with one clear, single-line message."""

from __future__ import annotations


class KratonError(ValueError):
    """Base of every refusal the engine makes (bad file, bad text, illegal action)."""


class MapError(KratonError):
    """A map file that cannot be used; the message names the line and column."""


class NotationError(KratonError):
    """Action or hex text that cannot be parsed (notation.md)."""


class PositionError(KratonError):
    """A position file that is malformed or physically impossible; names the field."""


class IllegalAction(KratonError):
    """An action the rules forbid. ``rule`` is the R-number of java-rules.md it breaks."""

    def __init__(self, action: object, rule: str, why: str) -> None:
        self.action = action
        self.rule = rule
        self.why = why
        super().__init__(f"illegal action '{shown(str(action))}': {rule} {why}")



def shown(text: object, cap: int = 40) -> str:
    """``text`` as it may appear inside a one-line message: control and other unprintable
    characters escaped (a newline would split the message), at most ``cap`` characters, with
    ``…`` where it was cut. Every message that echoes user input goes through this."""
    if isinstance(text, int) and not isinstance(text, bool) and text.bit_length() > 128:
        return f"an integer of about {int(text.bit_length() * 0.30103)} digits"
    s = text if isinstance(text, str) else repr(text)
    head = s[: cap * 4]  # never escape megabytes only to cut them
    out = _escaped(head)
    if len(out) <= cap and len(head) == len(s):
        return out
    return out[:cap] + "…"


def shown_path(path: object, cap: int = 160) -> str:
    """A file name as ``shown`` makes it safe, but cut at the front where it is too long: the
    end of a path (its file name) is the part that tells which file."""
    s = str(path)
    tail = s[-cap * 4:]
    out = _escaped(tail)
    if len(out) <= cap and len(tail) == len(s):
        return out
    return "…" + out[-cap:]


def _escaped(s: str) -> str:
    """Control and other unprintable characters as their escapes (a newline would split the
    message it is part of)."""
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in s)


def one_line(message: str, cap: int = 400) -> str:
    """A whole message made safe for one line on stderr (the CLI's last word on any error)."""
    return shown(message, cap)
