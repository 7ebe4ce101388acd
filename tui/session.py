"""A game opened in the app: the one game session (``core.game.Game``) and where it lives.

The history, the seats, comments and evaluations are the ``Game``'s; this adds only what the
app alone needs — the file it came from, its own autosave and the puzzle it poses — never a
second history.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from core.game import Game
from core.state import GameState


@dataclass
class Session:
    """What the app opened: a game, the file it came from, its autosave, a puzzle."""

    game: Game
    path: str | None = None
    autosave: str | None = None  # this game's autosave file, chosen on the first save
    puzzle: dict[str, Any] | None = None

    @classmethod
    def new(cls, state: GameState, seats: list[str | None] | None = None) -> Session:
        """A game starting at ``state`` (its history, if any, is taken as given)."""
        return cls(Game(state, seats))

    @property
    def state(self) -> GameState:
        return self.game.state

    @property
    def seats(self) -> list[str | None]:
        """Per player: None for a human, else the computer player's name."""
        return self.game.seats

    @seats.setter
    def seats(self, seats: list[str | None]) -> None:
        self.game.seats = list(seats)

    @property
    def finished(self) -> bool:
        return self.game.is_terminal()


def as_session(game: Game | Session) -> Session:
    """A ``core.game.Game`` handed to the app (tests, the new-game screen) becomes a session."""
    return game if isinstance(game, Session) else Session(game)


__all__ = ["Session", "as_session"]
