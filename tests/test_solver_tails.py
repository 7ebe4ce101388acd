"""``analysis.solver.tails``: a line's last AP searched exactly (issue 21)."""

from __future__ import annotations

import os
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analysis.solver.bnb import solve_bnb
from analysis.solver.common import Deadline, replay
from analysis.solver.tails import better_end, split, tail_lines
from core.actions import Festival, parse_actions
from core.errors import IllegalAction
from core.record import replay_file
from core.state import GameState
from puzzles.loader import GAMES
from tests.test_solver_agreement import position
from tests.test_solver_model import _playout


def _planner_41() -> GameState:
    return replay_file(os.path.join(GAMES, "planner-41.json"), 328).state


LINE_41 = ("tile K8v J8r K9r; tile L7v L8r M8r; move J7 K8; palace I9 10; draw faceup; "
           "festival I9 D")


def test_r7_r30_split_keeps_the_longest_prefix_with_the_ap_left_and_stops_at_the_festival():
    """planner-41@328, 6 AP and the token (R7): after the two tiles and the free move (R27)
    4 AP and the token are left, after the palace 3 and the token, after the draw 2 and the
    token; the festival ends the turn (R30) and is never kept."""
    s = _planner_41()
    line = parse_actions(LINE_41)
    assert s.turn.ap == 6 and s.token_bonus() == 1
    assert split(s, line, 5) == 3
    assert split(s, line, 4) == 4
    assert split(s, line, 3) == 5
    assert split(s, line, 1) == 5  # not past the festival
    assert split(s, line, 8) == 0


def test_r28_r34_the_end_searched_exactly_finds_a_second_palace_and_its_festival():
    """planner-41@328: the line's palace 10 at I9 (5) and a festival there (5) that an
    opponent may join, so 5 points under the solver's objective (R32). Kept to the palace and
    the draw, the last 2 AP and the token searched exactly give a second palace 10 at G4 and
    a festival no one can join there: 15 points, the root's bound."""
    s = _planner_41()
    line = parse_actions(LINE_41)
    assert replay(s, line)[0].points == 10
    got = better_end(s, line, 5, Deadline(None))
    assert got is not None
    outcome, found = got
    assert outcome.points == 15 and replay(s, found)[0] == outcome
    assert found[:5] == line[:5]
    assert isinstance(found[-1], Festival) and str(found[-1]).startswith("festival G4")


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 5000))
def test_tails_never_worse_replayed_and_never_above_the_optimum(seed: int) -> None:
    """Property: from a random playout of the turn on a small position (2–3 AP), the line that
    ``tail_lines`` returns replays to the outcome it reports, is at least the playout's, and
    never beats the optimum (branch and bound without a limit, which the agreement tests
    hold to the brute force: the brute force itself takes up to 100 s on some of these)."""
    s = position(seed, 2 + seed % 2)
    start = _playout(s, random.Random(seed))
    try:
        was = replay(s, start)[0]
    except IllegalAction:
        return  # a playout that leaves a tile owed (R8) is no line to start from
    outcome, line = tail_lines(s, (was, start), Deadline(20))
    assert replay(s, line)[0] == outcome
    assert outcome >= was
    exact = solve_bnb(s)
    assert exact.optimal and outcome.points <= exact.best


def test_r11_r28_the_ends_of_the_next_best_lines_are_searched_when_the_best_ends_short() -> None:
    """A small position (4 AP, the mini map): every line that starts with rice at C5 scores
    at most 2 (a palace of 2 at E5 and its festival, R28), so no end of such a line reaches
    the optimum, 4. A worse line that starts with rice at B3 does: its end, searched exactly,
    is the optimum (branch and bound without a limit). ``tail_lines`` finds it only when that
    line is among ``others``, and the line it returns replays to what it reports."""
    s = position(3, 4)
    best = parse_actions("tile C5r; tile C6r; move B6 D4; palace E5 2; festival E5 DP")
    other = parse_actions("tile B3r")
    b, o = replay(s, best)[0], replay(s, other)[0]
    assert b.points == 2 and o.points == 0 and o < b
    exact = solve_bnb(s)
    assert exact.optimal and exact.best == 4
    alone = tail_lines(s, (b, best), Deadline(None))
    assert alone[0].points < exact.best and alone[1][0] == best[0]
    found: list[int] = []
    outcome, line = tail_lines(s, (b, best), Deadline(None), lambda o, _: found.append(o.points),
                               others=[(o, other)])
    assert outcome.points == exact.best and line[0] == other[0]
    assert replay(s, line)[0] == outcome and found[-1] == exact.best


def test_no_tail_search_starts_with_too_little_time_left(monkeypatch: pytest.MonkeyPatch) -> None:
    """A tail search's root bound is not cut short, so one started just before the limit
    overran it (review's 2 s): with less than ``MIN_LEFT`` left, ``tail_lines`` starts none and
    returns the line it was given; with time enough, it searches."""
    import analysis.solver.tails as tails_module

    calls: list[int] = []

    def counted(*args: object, **kwargs: object) -> None:
        calls.append(1)

    monkeypatch.setattr(tails_module, "better_end", counted)
    s = _planner_41()
    line = parse_actions(LINE_41)
    start = (replay(s, line)[0], line)
    got = tail_lines(s, start, Deadline(tails_module.MIN_LEFT / 2), others=[start])
    assert got == start and calls == []
    tail_lines(s, start, Deadline(30))
    assert calls  # each (start, AP) once: 2, then 3 AP
