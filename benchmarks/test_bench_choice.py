"""Group ``choice``: the recipe engine's choice of recipes (issue 21, ``analysis.solver.choice``),
searched in Python (fast) against CP-SAT's model of the same choice (``cpsat._cpsat_choice``,
the reference), same recipes, same run: full-turn-07's 253 recipes (a puzzle) and
planner-38@137's 3 228 (a busy turn). Deriving the recipes is set-up, not timed; CP-SAT is
imported and warmed before the clock. Both must reach the same optimum."""

from __future__ import annotations

import os

import pytest

from analysis.solver.choice import Filler, choose
from analysis.solver.common import Deadline
from analysis.solver.cpsat import _cpsat_choice
from analysis.solver.recipes import Recipe, derive
from core.record import replay_file
from core.state import GameState
from puzzles.loader import load_puzzle

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CASES = {"full-turn-07": lambda: load_puzzle(os.path.join(ROOT, "puzzles", "full-turn-07.json")).state,
         "38@137": lambda: replay_file(os.path.join(ROOT, "puzzles", "games", "planner-38.json"), 137).state}
# choose's arguments: recipes, AP, token, fillers, a tile owed, the palace supply, cuts
Inputs = tuple[list[Recipe], int, bool, list[Filler], bool, list[int], list[list[int]]]


def _inputs(s: GameState) -> Inputs:
    budget = s.turn.ap + s.token_bonus()
    return (derive(s, budget), s.turn.ap, bool(s.token_bonus()), [], False, s.palace_supply, [])


@pytest.mark.benchmark(group="choice")
@pytest.mark.parametrize("case", list(CASES))
@pytest.mark.parametrize("role", ["fast", "reference"])
def test_the_choice_of_recipes(bench, case: str, role: str) -> None:
    args = _inputs(CASES[case]())
    ref = _cpsat_choice(*args, Deadline(None), False)  # also imports and warms OR-Tools
    if role == "fast":
        got = bench(lambda: choose(*args), pair=f"choose among {len(args[0])} recipes ({case})", role=role)
    else:
        got = bench(lambda: _cpsat_choice(*args, Deadline(None), False),
                    pair=f"choose among {len(args[0])} recipes ({case})", role=role)
    assert got is not None and ref is not None and got.value == ref.value and got.value > 0
