"""The checks' helper process of a busy-turn solve (``analysis/solver/helper.py``, issue 21):
the same checks as in this process, a bound they cut and that stays admissible, no process
left behind, and a helper that fails or dies changing nothing."""

from __future__ import annotations

import os

import pytest

from analysis.solver.bound import checks_worth, upper_bound
from analysis.solver.bound_tiles import _KNOWN, check_cities, known
from analysis.solver.common import Deadline, replay
from analysis.solver.helper import ChecksHelper, _read
from analysis.solver.helper import main as helper_main
from analysis.solver.model import solve_model
from analysis.solver.subprocs import ROOT
from tests.helpers import children_running
from tests.test_solver_bound_tiles import busy


@pytest.fixture(autouse=True)
def _forget() -> None:
    _KNOWN.clear()


def helpers_alive() -> int:
    return children_running("analysis.solver.helper")


def test_r21_r23_r28_the_helper_sends_the_checks_this_process_would_make() -> None:
    s = busy(36, 278)
    helper = ChecksHelper(s, None)
    got = helper.result(wait=None)
    assert helper.over and got
    budget = s.turn.ap + s.token_bonus()
    check_cities(s, checks_worth(s, budget, {}), Deadline(None))
    assert got == known(s)
    assert helper._process.poll() is not None  # the helper is gone once it has answered


def test_r21_r28_a_solve_with_a_helper_cuts_the_bound_and_stays_admissible() -> None:
    s = busy(36, 278)  # the checks cut its bound from 16 to 13 (benchmarks/README.md)
    plain = upper_bound(s, s.turn.ap + s.token_bonus())
    r = solve_model(s, 6, processes=2)
    assert r.bound is not None and r.best <= r.bound < plain
    assert replay(s, r.line)[0].points == r.best
    assert helpers_alive() == 0  # stopped with the solve


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
    assert helper._process.poll() is not None


def test_a_helper_given_a_bad_position_answers_nothing_and_no_traceback(capsys: pytest.CaptureFixture[str],
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO('{"format": "java-position", "map": "nowhere"}'))
    assert helper_main(["1.0"]) == 1
    out = capsys.readouterr()
    assert out.out == "" and out.err == ""
    assert _read(b"") is None and _read(b'{"checks": [[1, "x"]]}') is None


def test_the_helper_runs_from_a_script_read_on_stdin() -> None:
    """Where ``multiprocessing``'s spawn would run the caller's main module again (a script on
    stdin has none to run), the helper is a module of its own and answers."""
    import subprocess
    import sys

    script = ("from tests.test_solver_bound_tiles import busy\n"
              "from analysis.solver.helper import ChecksHelper\n"
              "h = ChecksHelper(busy(36, 278), None)\n"
              "print(len(h.result(wait=None) or {}))\n")
    p = subprocess.run([sys.executable, "-"], input=script, capture_output=True, text=True,
                       cwd=ROOT, timeout=120, check=False)
    assert p.returncode == 0 and p.stderr == "" and int(p.stdout) > 0


def test_a_solve_whose_helper_cannot_start_goes_on_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    import subprocess

    def refuse(*args: object, **kwargs: object) -> None:
        raise OSError("no more processes")

    monkeypatch.setattr(subprocess, "Popen", refuse)
    s = busy(36, 278)
    r = solve_model(s, 4, processes=2)
    assert r.bound is not None and r.best <= r.bound
    assert replay(s, r.line)[0].points == r.best


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads Linux's /proc")
def test_a_helper_left_running_is_ended_when_its_process_exits() -> None:
    """The app may quit in the middle of a solve: its helper must not outlive it."""
    import subprocess
    import sys
    import time

    script = ("from tests.test_solver_bound_tiles import busy\n"
              "from analysis.solver.helper import ChecksHelper\n"
              "h = ChecksHelper(busy(67, 99), None)\n"  # checks of several seconds
              "print(h._process.pid, flush=True)\n")
    p = subprocess.run([sys.executable, "-"], input=script, capture_output=True, text=True,
                       cwd=ROOT, timeout=120, check=False)
    assert p.returncode == 0 and p.stderr == ""
    pid = int(p.stdout)
    time.sleep(0.2)
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as f:
            state = f.read().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        state = "gone"
    assert state in ("gone", "Z", "X")  # ended (a zombie until init reaps it)


def test_a_line_at_the_bound_stops_the_checks_and_readies_the_search_second_process() -> None:
    """The checks only cut points; once a line meets the bound only branch and bound's
    tie-breaks are left, and the helper's core goes to its second process (``split.warm``)."""
    from analysis.solver import split
    from analysis.solver.common import Reporter
    from analysis.solver.model import STEPS, _Checks

    class Helper:
        over = False

        def result(self, wait: float | None) -> None:
            return None  # at work

        def stop(self) -> None:
            self.over = True

    helper = Helper()
    checks = _Checks(busy(36, 278), Deadline(10), Reporter(None, "model"), STEPS, 12,
                     helper)  # type: ignore[arg-type]
    try:
        checks(11)  # below the bound: the checks go on
        assert not helper.over and not split._SPARE
        checks(12)
        assert helper.over and len(split._SPARE) == 1
    finally:
        split.cool()
    assert not split._SPARE
