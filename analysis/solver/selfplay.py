"""Seeded random self-play: mid-game positions for the agreement tests and puzzle mining.

A biased random player (palaces, developers and tiles are likelier than draws) plays whole
turns; the position is then cut to a chosen number of AP left. Deterministic for a seed.
"""

from __future__ import annotations

import random

from core.actions import Action, Draw, End, Enter, Festival, Irrigate, Move, Palace, Tile, Token
from core.state import GameState

_WEIGHT = {Palace: 30.0, Enter: 2.0, Tile: 4.0, Move: 1.0, Irrigate: 1.5, Draw: 0.3,
           Token: 0.2, End: 1.0, Festival: 2.0}


def random_action(s: GameState, rng: random.Random) -> Action | None:
    acts = list(s.legal_actions())
    if not acts:
        return None
    weights = [_WEIGHT.get(type(a), 1.0) / (40.0 if isinstance(a, Tile) and len(acts) > 40 else 1.0)
               for a in acts]
    return rng.choices(acts, weights)[0]


def play_turn(s: GameState, rng: random.Random, max_actions: int = 12) -> None:
    """Play the mover's turn with random actions, then end it."""
    me = s.to_move
    for _ in range(max_actions):
        if s.is_terminal() or s.to_move != me:
            return
        a = random_action(s, rng)
        if a is None:
            return
        s.push(a)
        if isinstance(a, End):
            return
    from analysis.solver.common import may_end

    while not s.is_terminal() and s.to_move == me and s.festival is None and not may_end(s):
        tile = s.find_placement(s.turn.ap + s.token_bonus())
        if tile is None or not s.is_legal(tile):
            if s.is_legal(Token()):
                s.push(Token())
                continue
            break
        s.push(tile)
    if not s.is_terminal() and s.to_move == me and s.festival is None and may_end(s):
        s.push(End())


def random_position(seed: int, map_spec: str, players: int = 2, turns: int = 6,
                    ap: int | None = None, partial: int = 0) -> GameState:
    """A position after ``turns`` random turns and ``partial`` random actions of the next one;
    ``ap`` overrides the AP left (1–3 for the agreement tests)."""
    rng = random.Random(seed)
    s = GameState.new(players, seed=seed, map_spec=map_spec)
    for _ in range(turns):
        if s.is_terminal():
            break
        play_turn(s, rng)
    for _ in range(partial):
        a = random_action(s, rng)
        if a is None or isinstance(a, (End, Festival)):
            break
        s.push(a)
    s = s.copy()
    s.history = []
    if ap is not None:
        s.turn.ap = ap
    return s
