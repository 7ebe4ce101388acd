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
        super().__init__(f"illegal action '{action}': {rule} {why}")
