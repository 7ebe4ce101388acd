"""Issue 21, soundness as properties: no line the computer players' beam search, a random
playout, ``goals`` or ``polish`` finds beats a proved optimum, and the bound is never below a line that
replays (small random positions, any engine's answer checked by the engine's replay)."""

from __future__ import annotations

import random
import sys

from hypothesis import given, settings
from hypothesis import strategies as st

from analysis.solver import solve
from analysis.solver.bnb import DEPTH
from analysis.solver.common import Deadline, replay
from analysis.solver.goals import goal_lines
from analysis.solver.model import player_lines
from analysis.solver.polish import polish
from core.errors import IllegalAction
from tests.test_solver_agreement import position
from tests.test_solver_model import _playout

# branch and bound raises the recursion limit on its first search; raised here first, so
# hypothesis does not see it change during an example
sys.setrecursionlimit(max(sys.getrecursionlimit(), DEPTH))


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 100_000), st.sampled_from(["model", "cpsat"]))
def test_no_beam_search_or_playout_line_beats_a_proved_optimum(seed: int, engine: str) -> None:
    s = position(seed, 2 + seed % 2)
    r = solve(s, engine=engine, time_limit=10)
    assert r.bound is not None and r.bound >= r.best
    lines = player_lines(s, Deadline(None), seeds=2)
    rng = random.Random(seed)
    lines += [_playout(s, rng) for _ in range(20)]
    lines += [line for _, line in goal_lines(s, Deadline(3))]
    found = polish(s, lines, Deadline(3))
    for line in lines + ([found[1]] if found else []):
        try:
            o, _ = replay(s, line)
        except IllegalAction:
            continue
        assert o.points <= r.bound, (seed, engine, line)  # the bound is admissible
        if r.optimal:
            assert o.points <= r.best, (seed, engine, line)
