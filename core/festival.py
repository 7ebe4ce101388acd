"""Festivals (R30–R35). Part 2 of the engine (issue 3) completes this module."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from core.actions import Action
from core.errors import IllegalAction

if TYPE_CHECKING:
    from core.state import GameState


def apply(s: GameState, a: Action) -> None:
    raise IllegalAction(a, "R30", "festivals are not implemented yet (issue 3)")


def openings(s: GameState) -> Iterator[Action]:
    return iter(())


def legal_decisions(s: GameState) -> Iterator[Action]:
    return iter(())
