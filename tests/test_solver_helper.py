"""The checks' helper process of a busy-turn solve (``analysis/solver/helper.py``, issue 21):
the same checks as in this process, a bound they cut and that stays admissible, no process
left behind, and a helper that fails or dies changing nothing."""

from __future__ import annotations

import multiprocessing as mp

import pytest

from analysis.solver.bound import checks_worth, upper_bound
from analysis.solver.bound_tiles import _KNOWN, check_cities, known
from analysis.solver.common import Deadline, replay
from analysis.solver.helper import ChecksHelper, _checks_main
from analysis.solver.model import solve_model
from tests.test_solver_bound_tiles import busy


@pytest.fixture(autouse=True)
def _forget() -> None:
    _KNOWN.clear()


def test_r21_r23_r28_the_helper_sends_the_checks_this_process_would_make() -> None:
    s = busy(36, 278)
    helper = ChecksHelper(s, None)
    got = helper.result(wait=None)
    assert helper.over and got
    budget = s.turn.ap + s.token_bonus()
    check_cities(s, checks_worth(s, budget, {}), Deadline(None))
    assert got == known(s)
    assert not mp.active_children()  # the helper is gone once it has answered


def test_r21_r28_a_solve_with_a_helper_cuts_the_bound_and_stays_admissible() -> None:
    s = busy(36, 278)  # the checks cut its bound from 16 to 13 (benchmarks/README.md)
    plain = upper_bound(s, s.turn.ap + s.token_bonus())
    r = solve_model(s, 6, processes=2)
    assert r.bound is not None and r.best <= r.bound < plain
    assert replay(s, r.line)[0].points == r.best
    assert not mp.active_children()


def test_a_helper_starts_only_for_a_busy_turn_with_the_time_and_a_second_process(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import analysis.solver.helper as helper_module
    from analysis.solver.model import STEPS, _helper
    from tests.test_solver_bound import position as mini_position

    started: list[float | None] = []
    monkeypatch.setattr(helper_module, "ChecksHelper", lambda s, seconds: started.append(seconds))
    s = busy(36, 278)
    _helper(s, Deadline(10), False, STEPS, 2)
    assert started and started[0] is not None and 7.5 < started[0] <= 8.0  # 80 % of the time
    _helper(s, Deadline(None), False, STEPS, 2)
    assert started[-1] is None
    n = len(started)
    _helper(s, Deadline(10), False, STEPS, 1)  # one process only
    _helper(s, Deadline(2), False, STEPS, 2)  # too little time (HELPER_LEAST)
    _helper(s, Deadline(10), False, STEPS - {"checks"}, 2)
    _helper(mini_position(0, 3), Deadline(10), True, STEPS, 2)  # the model fits: no busy turn
    assert len(started) == n


def test_a_helper_that_dies_answers_nothing_and_leaves_no_process() -> None:
    helper = ChecksHelper(busy(36, 278), None)
    helper._process.kill()
    assert helper.result(wait=5.0) is None
    assert helper.over and helper.result(wait=0.0) is None
    assert not mp.active_children()


def test_a_helper_given_a_bad_position_sends_none_rather_than_raise() -> None:
    rx, tx = mp.Pipe(duplex=False)
    _checks_main({"format": "java-position", "map": "nowhere"}, 1.0, tx)
    assert rx.recv() is None
