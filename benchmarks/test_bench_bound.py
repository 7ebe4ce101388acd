"""Group ``bound``: the admissible bound (``analysis.solver.bound``) as a solve asks it, each fast
path against the plain way in the same run (issue 21's puzzle targets).

- *root and tie-break*: the root's bound with the token's AP, then with one AP less (what
  ``bnb.meets_bound`` asks to prove the fewest AP), on full-turn-63 (Java-Centre, 18 points):
  the two calls sharing their views (``views=``) against two calls each from scratch.
- *checks looked up on a miss*: ``bound_tiles.known`` for a position that has none (a search
  node after a move), while the root's checks are kept: the part of the key that turns it away
  (``_light``) against the whole key looked up.
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


@pytest.mark.benchmark(group="bound")
@pytest.mark.parametrize("role", ["fast", "reference"])
def test_checks_looked_up_on_a_miss(bench, role: str) -> None:
    from analysis.solver.bound_tiles import _KNOWN, CityCheck, known, position_key, remember

    s = _puzzle("full-turn-63").state
    remember(s, {0: CityCheck(0, [0, 0, 0])})
    node = s.copy()
    h = next(i for i, d in enumerate(node.dev) if d == node.to_move)
    node.dev[h] = -1  # a developer of his moved off
    try:
        look = (lambda: known(node)) if role == "fast" else (lambda: _KNOWN.get(position_key(node), {}))
        got = bench(look, pair="checks looked up on a miss (full-turn-63)", role=role, calls=1)
        assert got == {}
    finally:
        _KNOWN.clear()
