"""The cities' checks (analysis/solver/bound_tiles.py): what one or two land tiles can do to a
city, found by the engine, and the bound cut down to them.

A check looks at the first tile only near the city and at the second only next to the groups
that count; every pair anywhere (``benchmarks.reference.city_check_ref``) must give the same.
The bound with the checks must stay admissible: on busy boards with 2 or 3 AP, where the
checks cut it (on 8 and 29 of issue 21's 40 positions), it is never below what branch and
bound (with the bound of tests/test_solver_bound.py, checked against brute force there)
proves best.
"""

from __future__ import annotations

import pytest

from analysis.solver.bnb import meets_bound, solve_bnb
from analysis.solver.bound import checks_cut, upper_bound
from analysis.solver.bound_tiles import _KNOWN, check_cities, check_city, known
from analysis.solver.common import Deadline, replay
from benchmarks.reference import city_check_ref
from core.actions import parse_actions
from core.state import GameState
from tests.test_solver_bound import position as mini_position


def busy(game: int, at: int, ap: int | None = None) -> GameState:
    """The start of turn after ``at`` actions of ``planner-<game>.json`` (issue 21's busy
    turns), with ``ap`` AP and no token where given."""
    from benchmarks.busy import position

    s = position(f"{game}@{at}")
    if ap is not None:
        s.turn.ap = ap
        s.players[s.to_move].tokens = 0
    return s


def palaces(s: GameState) -> list[int]:
    g = s.groups()
    return [g.palace[gi] for gi in range(len(g.members)) if g.palace[gi] >= 0]


@pytest.fixture(autouse=True)
def _forget() -> None:
    _KNOWN.clear()


@pytest.mark.parametrize("seed", range(8))
def test_r10_r15_r23_a_check_equals_every_pair_of_tiles_on_the_mini_maps(seed: int) -> None:
    s = mini_position(seed, 2)
    for ph in palaces(s):
        got = check_city(s, ph, Deadline(None))
        assert got is not None
        assert (got.size, got.parts) == city_check_ref(s, ph), ph


@pytest.mark.slow
@pytest.mark.parametrize(("game", "at"), [(57, 183), (36, 278), (35, 358)])
def test_r10_r15_r23_a_check_equals_every_pair_of_tiles_on_a_busy_board(game: int, at: int) -> None:
    """The regions matter here: a busy board, where the first tile may lie far from the city
    and still cut a city next to it off its palace (R15, R23)."""
    s = busy(game, at)
    for ph in palaces(s):
        got = check_city(s, ph, Deadline(None))
        assert got is not None
        assert (got.size, got.parts) == city_check_ref(s, ph), ph


def test_r21_r28_no_two_tiles_make_k7_a_city_of_ten_so_the_festival_line_is_proved() -> None:
    """planner-57@183, Green with 6 AP and the token: the bound (17) let two tiles grow the
    city K7 (two hexes, palace 2) to ten and enlarge it (5 points), with the 12-point pond.
    Every pair of tiles leaves K7 five hexes at most (the mover's developers lifted off), so
    the enlargement to 10 needs three tiles, which the pond's AP leave no room for: the bound
    falls to 16, the points of the pond and the festival line, which it then proves."""
    from core.hexmap import parse_hex

    s = busy(57, 183)
    k7 = parse_hex("K7")
    check = check_city(s, k7, Deadline(None))
    assert check is not None and check.size[2] < 10
    top = s.turn.ap + s.token_bonus()
    views: dict = {}
    plain = upper_bound(s, top, views=views)
    line = parse_actions("irrigate E7; irrigate E8; irrigate E9; irrigate F8; tile D7r; token; "
                         "draw deck; draw deck; festival E10 DP")
    out, _ = replay(s, line)
    assert out.points == 16 < plain and not meets_bound(s, out, plain)
    assert check_cities(s, palaces(s), Deadline(None)) == len(palaces(s))
    assert checks_cut(s, top, views)  # the options of the bound before the checks
    assert known(s) and upper_bound(s, top) == 16
    assert meets_bound(s, out, 16)


def test_the_checks_are_known_for_their_position_and_its_copies_only() -> None:
    """``known`` turns most positions away on part of the key (``_light``): one that differs
    there (a developer moved) and one that differs only further on (a hex irrigated) both get
    none; a copy gets the checks."""
    s = busy(36, 278)
    check_cities(s, palaces(s)[:1], Deadline(None))
    assert known(s) and known(s.copy()) == known(s)
    moved = s.copy()
    h = next(i for i, d in enumerate(moved.dev) if d == moved.to_move)
    moved.dev[h] = -1
    wet = s.copy()
    wet.irrigated[next(i for i in wet.map.central if wet.level[i] == 0 and not wet.irrigated[i])] = True
    assert known(moved) == {} and known(wet) == {}


FAST = [(36, 278, 2), (41, 328, 2), (37, 112, 2), (35, 358, 3), (43, 342, 3), (49, 389, 3)]
SLOW = [(52, 184, 2), (67, 99, 2), (32, 250, 3), (40, 232, 3)]


@pytest.mark.parametrize(("game", "at", "ap"),
                         FAST + [pytest.param(*x, marks=pytest.mark.slow) for x in SLOW])
def test_r28_r29_the_checked_bound_is_never_below_the_best_line(game: int, at: int, ap: int) -> None:
    """Where the checks cut the bound with 2 or 3 AP, the cut bound still covers the best
    line, which branch and bound (the bound without the checks) proves."""
    s = busy(game, at, ap=ap)
    plain = upper_bound(s)
    ref = solve_bnb(s.copy(), 300)
    assert ref.optimal
    check_cities(s, palaces(s), Deadline(None))
    checked = upper_bound(s)
    assert ref.best <= checked < plain

