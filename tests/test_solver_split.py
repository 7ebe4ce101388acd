"""Branch and bound in two processes (``analysis/solver/split.py``, issue 21: every core at
work): the shared claims hand each action to exactly one process, the two together give the
one process's answer and proof, a second process that dies leaves the answer unproved, and
nothing is left behind (no process, no file)."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import time

import pytest

from analysis.solver import bnb, split, split_worker
from analysis.solver.common import replay
from analysis.solver.split import Claims, Partner
from analysis.solver.subprocs import ROOT
from puzzles.loader import load_puzzle
from tests.helpers import children_running
from tests.test_solver_bound import position

HERE = os.path.dirname(os.path.abspath(__file__))
# A second process that claims three of the root's actions and dies without a word.
DIES = ("import sys; from analysis.solver.split import Claims; c = Claims(int(sys.argv[1])); "
        "[c.take(0) for _ in range(3)]")
CLAIM = ("import sys; from analysis.solver.split import Claims; c = Claims(int(sys.argv[1])); "
         "print(' '.join(str(c.take(0)) for _ in range(int(sys.argv[2]))))")


def split_children() -> int:
    return children_running("analysis.solver.split_worker")


def test_two_processes_claiming_at_once_take_each_index_exactly_once() -> None:
    c = Claims()
    try:
        env = dict(os.environ, PYTHONPATH=ROOT)
        procs = [subprocess.Popen([sys.executable, "-c", CLAIM, str(c.fd), "400"], env=env,
                                  stdout=subprocess.PIPE, text=True, pass_fds=(c.fd,))
                 for _ in range(2)]
        mine = [c.take(0) for _ in range(200)]
        theirs = [p.communicate(timeout=60)[0].split() for p in procs]
        got = sorted(mine + [int(x) for out in theirs for x in out])
        assert got == list(range(1000))
        assert c.take(1) == 0  # each root its own counter
    finally:
        c.close()


def test_a_claim_waits_while_the_other_process_holds_the_lock() -> None:
    """The helper inherits the parent's open file: the lock must still keep them apart."""
    c = Claims()
    try:
        env = dict(os.environ, PYTHONPATH=ROOT)
        with split._Lock(c.fd):
            p = subprocess.Popen([sys.executable, "-c", CLAIM, str(c.fd), "1"], env=env,
                                 stdout=subprocess.PIPE, text=True, pass_fds=(c.fd,))
            with pytest.raises(subprocess.TimeoutExpired):
                p.wait(timeout=1.5)  # Python starts well within this: it waits for the lock
        assert p.communicate(timeout=60)[0].split() == ["0"]
    finally:
        c.close()


def test_a_steal_takes_the_other_process_node_nearest_a_root_with_actions_left() -> None:
    c = Claims()
    try:
        deep = c.publish(0, 1, (3, 2))
        near = c.publish(0, 0, (5,))
        assert deep is not None and near is not None
        assert c.publish(0, 0, (1,) * (split.SHARE_DEPTH + 1)) is None  # too deep: alone
        assert c.steal(0, set()) is None and c.idle(0)  # its own nodes are not stolen
        assert c.steal(1, set()) == (near, 0, (5,)) and not c.idle(1)
        c.count(near, 2)
        c.take(near), c.take(near)
        assert c.steal(1, set()) == (deep, 1, (3, 2))  # every action of the nearer one taken
        assert c.steal(1, {deep}) is None and c.idle(1)  # tried already
        c.close_entry(deep)
        assert c.steal(1, set()) is None
    finally:
        c.close()


def test_a_partner_searches_the_indices_it_claims_and_counts_those_it_leaves() -> None:
    c = Claims()
    try:
        p = Partner(c, None)
        assert p.mine(0, 0)
        assert c.take(0) == 1  # the other process takes index 1
        assert not p.mine(0, 1) and p.mine(0, 2)
        assert p.skipped == 1
    finally:
        c.close()


def helped(notes: list[str]) -> int:
    """The actions the second process searched, from the result's note (0: none, or none
    started)."""
    note = next((n for n in notes if "two processes" in n), None)
    return 0 if note is None else int(note.split(": ")[1].split()[0])


@pytest.mark.parametrize("seed", range(8))
def test_r7_r38_branch_and_bound_in_two_processes_gives_the_one_process_answer(
        seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Random positions on the mini maps with 3 AP (the token spent by hand: a state no
    position file would carry, so the second process is sent the state itself): the same
    points, handed points, AP and token (the objective and its tie-breaks), both proved, with
    the second process searching part of the tree."""
    s = position(seed, 3)
    one = bnb.solve_bnb(s, 60)
    slow_here(monkeypatch, 0.02)  # 20 nodes: 0.4 s at least, for a helper that starts in 0.2 s
    two = bnb.solve_bnb(s, 60, processes=2)
    assert one.optimal and two.optimal
    assert (two.best, two.handed, two.ap_spent, two.token_used) == (
        one.best, one.handed, one.ap_spent, one.token_used), (seed, one.line_text, two.line_text)
    assert replay(s, two.line)[0].points == two.best
    assert one.nodes < 20 or helped(two.notes) > 0
    assert split_children() == 0


def slow_here(monkeypatch: pytest.MonkeyPatch, seconds: float = 0.005) -> None:
    """This process's bound ``seconds`` slower at every node (the second process's is not):
    the second one, started at once, has time to claim actions however loaded the machine."""
    plain = bnb.upper_bound

    def slow(*args: object, **kw: object) -> int:
        time.sleep(seconds)
        return plain(*args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(bnb, "upper_bound", slow)
    monkeypatch.setattr(bnb, "START_AFTER", 0.0)


def test_the_second_process_searches_part_of_a_puzzle_and_both_prove_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    slow_here(monkeypatch)
    p = load_puzzle(os.path.join(HERE, "..", "puzzles", "pond-31.json"))
    r = bnb.solve_bnb(p.state, 60, processes=2)
    assert r.optimal and r.best == p.best
    assert helped(r.notes) > 0


def test_a_second_process_that_dies_leaves_the_answer_unproved(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """It claims three of the root's actions and ends without searching them: the line found
    stands, replayed, but nothing is proved."""
    slow_here(monkeypatch)
    monkeypatch.setattr(split.SearchHelper, "command", ["-c", DIES])
    monkeypatch.setenv("PYTHONPATH", ROOT)
    p = load_puzzle(os.path.join(HERE, "..", "puzzles", "pond-31.json"))
    r = bnb.solve_bnb(p.state, 60, processes=2)
    assert not r.optimal and r.proved_by is None
    assert replay(p.state, r.line)[0].points == r.best
    assert split_children() == 0


def test_one_process_stays_one_process(monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[str] = []
    monkeypatch.setattr(split.Claims, "__init__", lambda self, fd=None: made.append("claims"))
    monkeypatch.setattr(bnb, "START_AFTER", 0.0)
    r = bnb.solve_bnb(position(1, 2), 60)
    assert r.optimal and not made and not any("two processes" in n for n in r.notes)


def test_the_second_process_with_input_it_cannot_read_answers_nothing(
        monkeypatch: pytest.MonkeyPatch) -> None:
    c = Claims()
    try:
        monkeypatch.setattr(sys, "stdin", io.StringIO("{not json\n"))
        out = io.StringIO()
        monkeypatch.setattr(sys, "stdout", out)
        assert split_worker.main([str(c.fd), "1"]) == 1
        assert out.getvalue() == ""
    finally:
        c.close()


def test_the_shared_table_keeps_the_outcome_each_state_was_last_reached_with() -> None:
    c = Claims()
    try:
        assert c.seen(12345) is None
        c.saw(12345, (3, 0, -2, -1))
        assert c.seen(12345) == (3, 0, -2, -1)
        c.saw(12345, (5, -1, -4, 0))
        assert c.seen(12345) == (5, -1, -4, 0)
        clash = 12345 + split.TABLE_SLOTS  # the same first slot: the next one is probed
        c.saw(clash, (1, 0, 0, 0))
        assert c.seen(clash) == (1, 0, 0, 0) and c.seen(12345) == (5, -1, -4, 0)
        for k in range(2, split.PROBES + 2):  # a full probe overwrites the first slot
            c.saw(12345 + k * split.TABLE_SLOTS, (k, 0, 0, 0))
        assert c.seen(12345) is None
    finally:
        c.close()


def test_a_state_hashes_alike_in_every_process() -> None:
    """Python's ``hash`` of a string changes from process to process; the shared table's may
    not. The pending free moves are a set: their order may not count either."""
    from analysis.solver.split import state_hash

    s = position(3, 3)
    from analysis.solver.common import KeyMaker

    board = KeyMaker(s)(s)
    key = (board, frozenset({(5, 9), (2, 7)}))
    code = ("import sys; from analysis.solver.split import state_hash; "
            f"print(state_hash(({board!r}, frozenset({{(2, 7), (5, 9)}}))))")
    for seed in ("1", "2"):
        env = dict(os.environ, PYTHONPATH=ROOT, PYTHONHASHSEED=seed)
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                             text=True, check=True).stdout
        assert int(out) == state_hash(key) > 0


def test_each_counter_counts_alone() -> None:
    """The roots' counters, the idle flags and each entry's counter are slots of their own:
    taking from one, or counting a node's actions, moves no other."""
    c = Claims()
    try:
        e = c.publish(0, 0, (2,))
        assert e is not None
        assert [c.take(0), c.take(0), c.take(1), c.take(e), c.take(0)] == [0, 1, 0, 0, 2]
        c.count(0, 5)  # a root's count is not kept (its actions are never stolen)
        c.count(1, 5)
        assert not c.idle(0) and not c.idle(1)
        assert c.take(1) == 1 and c.take(e) == 1
        c.count(e, 2)
        assert c.steal(1, set()) is None  # both of its actions taken
    finally:
        c.close()


def test_a_helper_started_ahead_takes_its_part_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """``split.warm`` (the model engine calls it at the start of a solve): the search gives it
    its part from the first node, without waiting ``START_AFTER``."""
    slow_here(monkeypatch)
    monkeypatch.setattr(bnb, "START_AFTER", 100.0)
    split.warm()
    spare = split._SPARE[0]
    p = load_puzzle(os.path.join(HERE, "..", "puzzles", "pond-31.json"))
    r = bnb.solve_bnb(p.state, 60, processes=2)
    assert r.optimal and r.best == p.best and helped(r.notes) > 0
    assert not split._SPARE and spare.over  # taken, and ended with the search
    assert split_children() == 0


def test_a_solve_ends_the_helper_it_started_ahead_when_no_search_needs_it() -> None:
    from analysis.solver.model import solve_model

    p = load_puzzle(os.path.join(HERE, "..", "puzzles", "one-ap-01.json"))
    r = solve_model(p.state, 10, processes=2)  # the recipe engine proves it: no search
    assert r.optimal and r.best == p.best
    assert not split._SPARE and split_children() == 0
