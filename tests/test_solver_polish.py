"""``analysis.solver.polish``: local search on lines (issue 21)."""

from __future__ import annotations

import os
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from analysis.solver.common import Deadline, replay
from analysis.solver.polish import polish
from core.actions import Festival, parse_actions
from core.errors import IllegalAction
from core.record import replay_file
from puzzles.loader import GAMES
from tests.test_solver_agreement import position
from tests.test_solver_model import _playout


def test_r9_r30_no_action_follows_the_festival_in_a_line_that_replays() -> None:
    """R9/R30: the festival ends the turn. ``replay`` once stopped at the festival and ignored
    what followed, so polish could replace an action before it by a second festival and the
    answer showed "palace F6 4; festival D13 …; festival D13 …" (busy turn 114@91). Such a
    line is refused, and polished lines end at their festival."""
    import pytest

    s = replay_file(os.path.join(GAMES, "planner-38.json"), 137).state
    line = parse_actions("move A12 E10; move E7 H7; palace G7 10; tile I5v H4r I4r; "
                         "move E10 F10; token; tile G8r; festival G7 P")
    assert replay(s, line)[0].points == 10
    for extra in ("festival G7 P", "move F10 E10"):
        with pytest.raises(IllegalAction, match="R9"):
            replay(s, line + parse_actions(extra))
    got = polish(s, [line[:-2] + parse_actions("festival G7 P; tile G8r; festival G7 P")], Deadline(30))
    assert got is not None and got[0].points == 10
    assert not any(isinstance(a, Festival) for a in got[1][:-1])


def test_r23_r32_a_festival_an_opponent_could_join_becomes_one_he_cannot():
    """planner-38@137: the planner's palace 10 at G7 and a festival there, which an opponent
    could join (R32), so the line does not score as the solver counts it. Laying the last tile
    on G8 instead of E7 cuts the opponent out of the city (R23): 5 + 5 points."""
    s = replay_file(os.path.join(GAMES, "planner-38.json"), 137).state
    line = parse_actions("move A12 E10; move E7 H7; palace G7 10; tile I5v H4r I4r; "
                         "move E10 F10; token; tile E7r; festival G7 P")
    got = polish(s, [line], Deadline(30))
    assert got is not None
    outcome, best = got
    assert outcome.points == 10 and replay(s, best)[0] == outcome
    assert str(best[-1]) == "festival G7 P"


def test_r7_r29_the_token_kept_to_the_end_buys_one_more_palace():
    """planner-66@268: five irrigations, a free walk onto the grown ring and one tile enclose a
    pond of 6 (18 points) with the 6 AP; the action token (R7) was kept, and with it a palace
    of 2 (R28, R29: 1 point) fits after the line: two actions, which no single insertion
    reaches (the token alone scores nothing). The solver answered 18 here."""
    s = replay_file(os.path.join(GAMES, "planner-66.json"), 268).state
    line = parse_actions("irrigate I5; irrigate I6; irrigate I7; irrigate J7; irrigate K8; "
                         "move G12 I8; tile L7v L8r M8r")
    assert replay(s, line)[0].points == 18
    got = polish(s, [line], Deadline(60))
    assert got is not None
    outcome, best = got
    assert outcome.points == 19 and replay(s, best)[0] == outcome
    assert [a.kind for a in best[-2:]] == ["token", "palace"]


def test_r7_r36_the_token_kept_to_the_end_buys_the_draws_for_a_festival():
    """planner-57@183: four irrigations and a rice tile close a pond (12 points) with the 6 AP,
    the token kept. With it, two cards drawn from the deck (R36, the deck's order is part of
    the position) make a festival in E10 that no opponent can join (R30–R34): 4 points more,
    three actions and a festival after the line."""
    s = replay_file(os.path.join(GAMES, "planner-57.json"), 183).state
    line = parse_actions("irrigate E7; irrigate E8; irrigate E9; irrigate F8; tile D7r")
    assert replay(s, line)[0].points == 12
    got = polish(s, [line], Deadline(60))
    assert got is not None
    outcome, best = got
    assert outcome.points >= 16 and replay(s, best)[0] == outcome
    assert best[len(line)].kind == "token" and best[-1].kind == "festival"


def test_each_better_line_is_heard_as_soon_as_it_is_found() -> None:
    """Issue 21 (anytime): ``better`` hears every line better than all before it, when found,
    not once the search is over: on planner-38@137 the polished 10-point line is heard before
    polish goes on to its second start, and the last line heard is the answer."""
    s = replay_file(os.path.join(GAMES, "planner-38.json"), 137).state
    joinable = parse_actions("move A12 E10; move E7 H7; palace G7 10; tile I5v H4r I4r; "
                             "move E10 F10; token; tile E7r; festival G7 P")
    heard: list[tuple[int, int]] = []  # (points, starts begun when heard)
    begun = 0

    def starts():  # type: ignore[no-untyped-def]
        nonlocal begun
        for line in (joinable, parse_actions("token; tile J7v K7r K8r")):
            begun += 1
            yield line

    got = polish(s, starts(), Deadline(30), better=lambda o, line: heard.append((o.points, begun)))
    assert got is not None
    assert heard and heard[-1][0] == got[0].points == 10
    assert [p for p, _ in heard] == sorted(p for p, _ in heard)  # never a worse line
    assert any(p == 10 and n == 1 for p, n in heard)  # heard during the first start


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 5000))
def test_polish_returns_a_line_that_replays_and_is_never_worse(seed: int) -> None:
    """Property: from a random playout of the turn, the line found replays to the outcome
    reported, at least as good as the playout (when the playout is a legal turn, R8)."""
    s = position(seed, 2 + seed % 3)
    start = _playout(s, random.Random(seed))
    try:
        was = replay(s, start)[0]
    except IllegalAction:
        was = None
    got = polish(s, [start], Deadline(5))
    if got is None:
        assert was is None
        return
    outcome, line = got
    assert replay(s, line)[0] == outcome
    assert was is None or outcome >= was
