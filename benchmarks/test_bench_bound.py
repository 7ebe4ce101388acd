"""Group ``bound``: the admissible bound (``analysis.solver.bound``) as a solve asks it, each fast
path against the plain way in the same run (issue 21's puzzle targets).

- *root and tie-break*: the root's bound with the token's AP, then with one AP less (what
  ``bnb.meets_bound`` asks to prove the fewest AP), on full-turn-63 (Java-Centre, 18 points):
  the two calls sharing their views (``views=``) against two calls each from scratch.
- *search to the bound*: branch and bound on pond-32 (15 points, which the root's bound
  allows) stopping at the line that meets the bound, against the same search told a bound one
  point higher, which no line meets, so that it searches on to the end.

Each pair must give the same answer."""

from __future__ import annotations

import os

import pytest

from analysis.solver.bnb import solve_bnb
from analysis.solver.bound import upper_bound
from analysis.solver.bound_view import View
from puzzles.loader import Puzzle, load_puzzle

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _puzzle(name: str) -> Puzzle:
    return load_puzzle(os.path.join(ROOT, "puzzles", f"{name}.json"))


@pytest.mark.benchmark(group="bound")
@pytest.mark.parametrize("role", ["fast", "reference"])
def test_root_and_tie_break_bounds(bench, role: str) -> None:
    s = _puzzle("full-turn-63").state
    ap = s.turn.ap + s.token_bonus()

    def shared() -> tuple[int, int]:
        views: dict[int, View] = {}
        return upper_bound(s, ap, views=views), upper_bound(s, ap - 1, views=views)

    def apart() -> tuple[int, int]:
        return upper_bound(s, ap), upper_bound(s, ap - 1)

    got = bench(shared if role == "fast" else apart,
                pair="root bound and tie-break bound (full-turn-63)", role=role, rounds=5)
    assert got == apart() and got[0] >= 18


@pytest.mark.benchmark(group="bound")
@pytest.mark.parametrize("role", ["fast", "reference"])
def test_search_stops_at_the_bound(bench, role: str) -> None:
    pz = _puzzle("pond-32")
    s = pz.state
    if role == "fast":
        r = bench(lambda: solve_bnb(s, 60), pair="branch and bound to the bound (pond-32)",
                  role=role, rounds=3)
    else:
        r = bench(lambda: solve_bnb(s, 60, bound=pz.best + 1),
                  pair="branch and bound to the bound (pond-32)", role=role, rounds=3)
    assert r.optimal and r.best == pz.best
