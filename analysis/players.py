"""Computer players: ``make_player(name, seed)`` gives an object whose ``choose(state)`` returns
the next action for ``state.current_player()`` (turn actions and festival decisions alike).

Players (see README "Computer players"):

- ``random``: uniform over ``state.legal_actions()``.
"""

from __future__ import annotations

import random
from typing import Protocol

from core.actions import Action
from core.errors import KratonError
from core.state import GameState


class Player(Protocol):
    """What the app, the tournament and the tests rely on."""

    name: str

    def choose(self, state: GameState) -> Action:
        """The next action for ``state.current_player()``; never mutates ``state``."""
        ...


class RandomPlayer:
    """Uniform over the legal actions: the baseline every other player must beat."""

    def __init__(self, seed: int = 0) -> None:
        self.name = "random"
        self.rng = random.Random(seed)

    def choose(self, state: GameState) -> Action:
        actions = list(state.legal_actions())
        if not actions:
            raise KratonError("no legal action: the game is over (R40)")
        return self.rng.choice(actions)


PLAYER_NAMES: tuple[str, ...] = ("random",)


def make_player(name: str, seed: int = 0) -> Player:
    """A computer player by name (one of PLAYER_NAMES); a bad name is a KratonError."""
    key = name.strip().lower()
    if key == "random":
        return RandomPlayer(seed)
    raise KratonError(f"unknown player '{name}' (one of {', '.join(PLAYER_NAMES)})")
