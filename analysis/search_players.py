"""The searching computer players (``greedy``, ``planner``) and the random one, without the
exact solver: the solver's model engine starts from their turns (``analysis.solver.model``),
so this module must not import it; ``analysis.players`` adds the players that consult it and
the registry by name.

The two searching players plan the turn once (``analysis.beam``), cache the plan keyed
by the position and then play it one action at a time, closing with ``end`` (or a festival).
They plan on what they may see (R44): opponents' hands and the deck order are dealt at random
from the unseen cards; after a draw shows something else, they plan again.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol

from analysis.beam import Plan, board_key, festival_decision, search_turn
from analysis.evaluation import positional, relative, standing
from core.actions import Action, End, Festival
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


class SearchPlayer:
    """Plans a turn with the beam search and plays it out; subclasses choose the score."""

    name = "search"
    width = 3
    tile_cap = 25
    budget_s = 1.0
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

    def extra_lines(self, state: GameState) -> list[list[Action]]:
        """Lines that compete with the beam search's own (none here; see ``analysis.players``)."""
        return []

    def plan(self, state: GameState) -> Plan:
        state = self.world(state)
        extra = self.extra_lines(state) if state.festival is None else []
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


