"""Computer players: ``make_player(name, seed)`` gives an object whose ``choose(state)`` returns
the next action for ``state.current_player()`` (turn actions and festival decisions alike).

- ``random``: uniform over ``state.legal_actions()``.
- ``greedy``: the most points this turn (palaces R29, ponds R38, festivals R34); ties broken by
  a simple positional measure (projected final count R41 and the height of its developers).
- ``planner``: plays for the final count too: the whole turn is scored by
  ``analysis.evaluation.standing`` (each city's standing, palace and pond chances) relative to
  the best opponent.

The players themselves live in ``analysis.search_players`` (the solver's model engine starts
from their turns, so they must not import the solver); this module adds ``greedy-exact`` and
``planner-exact``, whose candidate lines include the exact solver's, and the registry by name.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from analysis.search_players import (
    GreedyPlayer,
    PlannerPlayer,
    Player,
    RandomPlayer,
    SearchPlayer,
)
from core.actions import Action, End, parse_actions
from core.errors import KratonError
from core.state import GameState

SOLVER_TIME = 1.0  # seconds of the exact solver per turn for the "-exact" players


def solver_line(state: GameState, time_limit: float) -> list[Action] | None:
    """The best-turn solver's line (issue 5) when that module is present, else None."""
    try:
        from analysis.solver import solve
    except Exception:  # noqa: BLE001 - absent or broken: the beam search plays alone
        return None
    try:
        res: Any = solve(state, engine="cpsat", time_limit=time_limit)
    except Exception:  # noqa: BLE001 - a solver failure must not lose the game
        return None
    line = res.line
    if isinstance(line, str):
        line = parse_actions(line)
    return [a for a in line if not isinstance(a, End)]


class _SolverLines(SearchPlayer):
    """Adds the exact solver's line to the beam search's candidates (slow: seconds a turn)."""

    def extra_lines(self, state: GameState) -> list[list[Action]]:
        line = solver_line(state, SOLVER_TIME)
        return [line] if line else []


class ExactGreedyPlayer(_SolverLines, GreedyPlayer):
    """``greedy`` whose candidate lines include the exact solver's."""

    name = "greedy-exact"


class ExactPlannerPlayer(_SolverLines, PlannerPlayer):
    """``planner`` whose candidate lines include the exact solver's."""

    name = "planner-exact"


_KINDS: dict[str, Callable[[int], Player]] = {
    "random": RandomPlayer,
    "greedy": GreedyPlayer,
    "planner": PlannerPlayer,
    "greedy-exact": ExactGreedyPlayer,
    "planner-exact": ExactPlannerPlayer,
}
PLAYER_NAMES: tuple[str, ...] = tuple(_KINDS)


def make_player(name: str, seed: int = 0) -> Player:
    """A computer player by name (one of PLAYER_NAMES); a bad name is a KratonError."""
    key = name.strip().lower()
    if key not in _KINDS:
        raise KratonError(f"unknown player '{name}' (one of {', '.join(PLAYER_NAMES)})")
    return _KINDS[key](seed)


__all__ = ["PLAYER_NAMES", "GreedyPlayer", "PlannerPlayer", "Player", "RandomPlayer",
           "SearchPlayer", "make_player", "solver_line"]
