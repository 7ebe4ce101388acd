"""Computer players: ``make_player(name, seed)`` gives an object whose ``choose(state)`` returns
the next action for ``state.current_player()`` (turn actions and festival decisions alike).

- ``random``: uniform over ``state.legal_actions()``.
- ``greedy``: the most points this turn (palaces R29, ponds R38, festivals R34); ties broken by
  a simple positional measure (projected final count R41 and the height of its developers).
- ``planner``: plays for the final count too: the whole turn is scored by
  ``analysis.evaluation.standing`` (each city's standing, palace and pond chances) relative to
  the best opponent.

The two searching players plan the turn once (``analysis.beam``), cache the plan keyed
by the position and then play it one action at a time, closing with ``end`` (or a festival).
They plan on what they may see (R44): opponents' hands and the deck order are dealt at random
from the unseen cards; after a draw shows something else, they plan again.
Where ``analysis.solver`` is available its best line competes with the beam search's lines.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Protocol

from analysis.beam import Plan, board_key, festival_decision, search_turn
from analysis.evaluation import positional, relative, standing
from core.actions import Action, End, Festival, parse_actions
from core.errors import KratonError
from core.game import determinize, observation
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


class SearchPlayer:
    """Plans a turn with the beam search and plays it out; subclasses choose the score."""

    name = "search"
    width = 3
    tile_cap = 25
    budget_s = 1.0
    use_solver = False
    solver_time = 1.0
    fair = True  # plan on a deal of the unseen cards, not on the hidden ones (R44)

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        self.turns = 0
        self._plan: list[Action] = []
        self._key: int | None = None

    def score_fn(self, state: GameState) -> Callable[[GameState], float]:
        raise NotImplementedError

    def world(self, state: GameState) -> GameState:
        """What the player may plan on: his own view with opponents' hands and the deck order
        dealt at random (R44), or the full state when ``fair`` is off."""
        if not self.fair:
            return state
        return determinize(observation(state, state.to_move), self.rng)

    def plan(self, state: GameState) -> Plan:
        state = self.world(state)
        extra = []
        if self.use_solver and state.festival is None:
            line = solver_line(state, self.solver_time)
            if line:
                extra.append(line)
        self.turns += 1
        return search_turn(state, self.score_fn(state), festival_decision, width=self.width,
                           tile_cap=self.tile_cap, seed=self.seed * 1_000_003 + self.turns,
                           budget_s=self.budget_s, extra=extra)

    def choose(self, state: GameState) -> Action:
        if state.is_terminal():
            raise KratonError("no legal action: the game is over (R40)")
        if state.festival is not None:
            return festival_decision(state)
        for _ in range(2):
            if self._key != board_key(state) or not self._plan:
                line = self.plan(state).line
                if not line or not isinstance(line[-1], Festival):
                    line = line + [End()]
                self._plan = line
            a = self._plan.pop(0)
            after = state.copy()
            try:
                after.push(a)
            except ValueError:  # the cached plan no longer fits: plan again from here
                self._key, self._plan = None, []
                continue
            self._key = board_key(after) if after.to_move == state.to_move else None
            return a
        return next(iter(state.legal_actions()))


class GreedyPlayer(SearchPlayer):
    """Most points this turn; ties broken by ``evaluation.positional``."""

    name = "greedy"
    width = 2
    tile_cap = 20

    def score_fn(self, state: GameState) -> Callable[[GameState], float]:
        me = state.to_move
        base = state.players[me].score

        def score(s: GameState) -> float:
            return 100.0 * (s.players[me].score - base) + positional(s, me)

        return score


class PlannerPlayer(SearchPlayer):
    """Plays for the final count: ``evaluation.standing`` relative to the best opponent."""

    name = "planner"
    width = 3
    tile_cap = 25

    def score_fn(self, state: GameState) -> Callable[[GameState], float]:
        me = state.to_move

        def score(s: GameState) -> float:
            return relative(standing(s), me)

        return score


class ExactGreedyPlayer(GreedyPlayer):
    """``greedy`` whose candidate lines include the exact solver's (slow: seconds a turn)."""

    name = "greedy-exact"
    use_solver = True


class ExactPlannerPlayer(PlannerPlayer):
    """``planner`` whose candidate lines include the exact solver's (slow: seconds a turn)."""

    name = "planner-exact"
    use_solver = True


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
