"""Group ``goals``: the goal search of issue 21 (``analysis.solver.goals``) asks at every node
for the tiles that touch one village group; ``movegen.tile_placements(near=)`` looks only at
the shapes through those hexes (fast), the reference generates every placement of the board
and keeps those touching the group. Same position in the same run: planner-69@254 (a busy
Java-Centre board, 33 three-space tiles left), the zone of the city of I5. A third case times
the whole goal search there (``goal_lines``, which finds the 5-point palace)."""

from __future__ import annotations

import os

import pytest

from analysis.solver.common import Deadline
from analysis.solver.goals import goal_lines
from core.hexmap import parse_hex
from core.movegen import tile_placements
from core.record import replay_file
from core.state import GameState
from puzzles.loader import GAMES


def _position() -> tuple[GameState, set[int]]:
    s = replay_file(os.path.join(GAMES, "planner-69.json"), 254).state
    g = s.groups()
    members = g.members[g.label[parse_hex("I5")]]
    zone = set(members)
    for h in members:
        zone.update(s.map.nbrs[h])
    return s, zone


def _near(s: GameState, zone: set[int]) -> list[object]:
    return [t for t, _ in tile_placements(s, s.turn.ap - 1, near=zone)]


def _filtered(s: GameState, zone: set[int]) -> list[object]:
    return [t for t, _ in tile_placements(s, s.turn.ap - 1) if any(h in zone for h in t.hexes)]


@pytest.mark.benchmark(group="goals")
@pytest.mark.parametrize("role", ["fast", "reference"])
def test_tiles_touching_a_group(bench, role: str) -> None:
    s, zone = _position()
    fn = _near if role == "fast" else _filtered
    got = bench(lambda: fn(s, zone), pair="tiles touching the city of I5 (69@254)", role=role)
    assert sorted(map(str, got)) == sorted(map(str, _filtered(s, zone)))
    assert got  # the search has tiles to try there


@pytest.mark.benchmark(group="goals")
def test_goal_search_on_a_busy_turn(bench) -> None:
    s, _ = _position()
    got: list[object] = []

    def run() -> None:
        got[:] = goal_lines(s, Deadline(30))

    bench(run, pair="goal_lines on 69@254", role="fast", rounds=1)
    assert got and got[0][0].points >= 5  # type: ignore[index]
