"""Proof of exactness (issue 5): CP-SAT and branch and bound agree with the brute-force
reference on random positions from seeded self-play on the mini maps, with 1–3 AP left.

The default run covers 60 positions with 1 AP; the ``slow`` run at least 300 (1, 2 and 3 AP: those
of 440 seeds where the brute force finishes within its limit); each also checks that the
admissible bound (``bound.py``) is not below the brute force's best. The action
token is spent in these positions to keep the brute force small; the token itself is covered
by tests/test_solver.py.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator

import pytest

from analysis.solver.bnb import solve_bnb
from analysis.solver.bound import upper_bound
from analysis.solver.brute import solve_brute
from analysis.solver.common import SolveResult
from analysis.solver.cpsat import solve_cpsat
from analysis.solver.selfplay import random_position
from core.state import GameState

MAPS = [os.path.join(os.path.dirname(__file__), "maps", m) for m in ("mini-b.txt", "mini-a.txt")]


def position(seed: int, ap: int) -> GameState:
    s = random_position(seed, MAPS[0], players=2 + seed % 2, turns=3 + seed % 4, ap=ap)
    s.turn.token_used = True
    return s


def agree(seed: int, ap: int) -> None:
    s = position(seed, ap)
    ref = solve_brute(s)
    assert ref.optimal
    assert ref.best <= upper_bound(s), (seed, "the bound must never fall below the best")
    for r in (solve_cpsat(s), solve_bnb(s)):
        assert r.optimal, (seed, r.engine)
        assert (r.best, r.handed, r.ap_spent) == (ref.best, ref.handed, ref.ap_spent), (
            seed, r.engine, r.line_text, ref.line_text)


@pytest.mark.parametrize("seed", range(60))
def test_cpsat_and_bnb_agree_with_brute_force(seed: int) -> None:
    """R7–R38 as the engine applies them: three engines, one optimum (60 positions, 1 AP)."""
    agree(seed, 1)


# A reference that needs more positions than this is left out (its position does not count):
# a budget of nodes, not of seconds, so that which positions count is the same on any machine
# and under any load (with 20 s, two blocks covered 73 and 64 of 110 on a loaded machine; with
# this budget the four blocks cover 85, 76, 86 and 85, every time).
BRUTE_NODES = 30_000
ENGINE_S = 120.0


def settled(seeds: Iterable[int], make: Callable[[int], GameState]
            ) -> Iterator[tuple[int, GameState, SolveResult]]:
    """The positions ``make`` gives for ``seeds`` that the brute force settles within
    ``BRUTE_NODES``, each with its seed and the brute force's answer."""
    for seed in seeds:
        s = make(seed)
        ref = solve_brute(s, max_nodes=BRUTE_NODES)
        if ref.optimal:
            yield seed, s, ref


def test_the_brute_force_budget_of_nodes_stops_it_unproved_and_is_enough_when_large() -> None:
    """``solve_brute(max_nodes=)``: a position that needs hundreds of nodes stops
    unproved at a budget of 200, the same on every run; with a budget it does not reach, it
    is the unlimited search."""
    s = position(1110, 1)
    full = solve_brute(s)
    assert full.optimal and full.nodes > 200
    small = solve_brute(s, max_nodes=200)
    assert not small.optimal and small.nodes == 201
    again = solve_brute(s, max_nodes=200)
    assert again.nodes == small.nodes and again.line_text == small.line_text
    big = solve_brute(s, max_nodes=full.nodes + 1)
    assert big.optimal and (big.best, big.line_text) == (full.best, full.line_text)


def agree_timed(seed: int, ap: int) -> bool:
    """Like ``agree`` with limits; False when the brute force itself did not finish within
    its budget of nodes."""
    s = position(seed, ap)
    ref = solve_brute(s, max_nodes=BRUTE_NODES)
    if not ref.optimal:
        return False
    assert ref.best <= upper_bound(s), (seed, "the bound must never fall below the best")
    for r in (solve_cpsat(s, ENGINE_S), solve_bnb(s, ENGINE_S)):
        assert r.optimal, (seed, r.engine, "not proved within", ENGINE_S)
        assert (r.best, r.handed, r.ap_spent) == (ref.best, ref.handed, ref.ap_spent), (
            seed, r.engine, r.line_text, ref.line_text)
    return True


@pytest.mark.slow
@pytest.mark.parametrize("block", range(4))
def test_agreement_300_positions(block: int) -> None:
    """The issue's 300 random positions with 1–3 AP left: four blocks of 110 seeds (run them in
    parallel with ``-k``), each with at least 75 positions where the brute force finished within
    its limit; every one of those must agree. Prints how many each block covered."""
    seeds = range(1000 + 110 * block, 1110 + 110 * block)
    covered = [seed for seed in seeds if agree_timed(seed, 1 + seed % 3)]
    print(f"block {block}: {len(covered)} of {len(seeds)} positions covered "
          f"(the rest needed over {BRUTE_NODES} nodes of brute force)")
    assert len(covered) >= 75
