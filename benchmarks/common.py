"""Shared material of the benchmark suites: seeded random play, the saved positions, and
hand-built inputs on the engine's real data layout (flat per-hex lists)."""

from __future__ import annotations

import os
import random

from core.actions import Action, Tile
from core.hexmap import SIZE, load_map
from core.position import load_position, save_position
from core.state import GameState

HERE = os.path.dirname(os.path.abspath(__file__))
POSITIONS = os.path.join(HERE, "positions")
# Saved from seeded random play by kind (``python -m benchmarks.common`` rewrites them): the state at
# the start of the first turn after this many land tiles were on the board.
STAGES = {"early": 12, "middle": 48, "late": 84}
POSITION_SEED = 2026


def choose(actions: list[Action], rng: random.Random, by_kind: bool) -> Action:
    """Uniform over the actions, or (``by_kind``) over the kinds first, then within the kind:
    the second policy enters developers and builds palaces instead of mostly laying tiles."""
    if not by_kind:
        return rng.choice(actions)
    kinds: dict[str, list[Action]] = {}
    for a in actions:
        kinds.setdefault(a.kind, []).append(a)
    return rng.choice(kinds[rng.choice(sorted(kinds))])


def random_game(seed: int, n_players: int = 4, stop_at_tiles: int | None = None,
                by_kind: bool = False) -> GameState:
    """Play random legal actions (see ``choose``) until the game is over (R40), or until the
    start of a turn with at least ``stop_at_tiles`` tiles on the board."""
    s = GameState.new(n_players, seed=seed)
    rng = random.Random(seed)
    while not s.is_terminal():
        if (stop_at_tiles is not None and len(s.tiles) >= stop_at_tiles
                and s.festival is None and s.turn.ap == 6 and not s.turn.tile_placed
                and s.turn.cards_drawn == 0 and not s.turn.token_used):
            return s
        s.push(choose(list(s.legal_actions()), rng, by_kind))
    return s


def position(stage: str) -> GameState:
    """The saved early / middle / late position."""
    return load_position(os.path.join(POSITIONS, f"{stage}.json"))


def make_positions() -> None:
    for stage, tiles in STAGES.items():
        s = random_game(POSITION_SEED, 4, tiles, by_kind=True)
        save_position(s, os.path.join(POSITIONS, f"{stage}.json"))
        print(f"{stage}: {len(s.tiles)} tiles, {sum(d >= 0 for d in s.dev)} developers,"
              f" {sum(1 for _ in s.legal_actions())} legal actions")


def midgame_sample(count: int = 16, seed: int = 11) -> list[GameState]:
    """``count`` turn-start states with 36..60 tiles on the board, from one seeded random game
    by kind: the mid-game as a spread of positions rather than a single one."""
    s = GameState.new(4, seed=seed)
    rng = random.Random(seed)
    found: list[GameState] = []
    while not s.is_terminal() and len(s.tiles) <= 60:
        if (len(s.tiles) >= 36 and s.festival is None and s.turn.ap == 6
                and not s.turn.tile_placed and s.turn.cards_drawn == 0 and not s.turn.token_used):
            found.append(s.copy())
        s.push(choose(list(s.legal_actions()), rng, True))
    step = max(1, len(found) // count)
    return found[::step][:count]


def ranking_cases(n_devs: int, n_players: int, count: int, seed: int = 0) -> list[list[int]]:
    """``count`` cities of ``n_devs`` developers of up to ``n_players`` players, written into
    the flat ``level`` / ``dev`` lists returned by ``ranking_board``; each case lists its hexes
    (the developers among some empty village hexes, as in a real group)."""
    rng = random.Random(seed * 1000 + n_devs * 10 + n_players)
    central = list(load_map("java-centre").central)
    cases = []
    for _ in range(count):
        hexes = rng.sample(central, n_devs + n_devs // 2)
        cases.append(hexes)
    return cases


def ranking_board(cases: list[list[int]], n_devs: int, n_players: int, seed: int = 0
                  ) -> list[tuple[list[int], list[int], list[int]]]:
    """Per case: (hexes, level, dev) flat lists of the engine's size; levels 1..6 (low levels
    make ties and long common prefixes, the expensive comparisons)."""
    rng = random.Random(seed)
    out = []
    for hexes in cases:
        level, dev = [0] * SIZE, [-1] * SIZE
        for h in hexes:
            level[h] = rng.randint(1, 6)
        for h in hexes[:n_devs]:
            dev[h] = rng.randrange(n_players)
        out.append((hexes, level, dev))
    return out


def tile_cases(seed: int, count: int) -> list[tuple[GameState, Tile]]:
    """``count`` (state before, tile) pairs spread over a random game: the placements whose
    group update is measured."""
    s = GameState.new(4, seed=seed)
    rng = random.Random(seed)
    found: list[tuple[GameState, Tile]] = []
    while not s.is_terminal():
        actions: list[Action] = list(s.legal_actions())
        a = rng.choice(actions)
        if isinstance(a, Tile):
            s.groups()
            found.append((s.copy(), a))
        s.push(a)
    step = max(1, len(found) // count)
    return found[::step][:count]


if __name__ == "__main__":
    make_positions()
