"""The solver's admissible bound (analysis/solver/bound.py) never under-estimates: on random
positions from seeded self-play on the mini maps, the brute force's best is at most the bound.

The bound is what proves a line optimal without a full search (issue 5), so a bound that is too
low would let the solver call a line optimal that is not. This file covers 40 positions
with 1 or 2 AP (plus a known hard case); tests/test_solver_agreement.py checks the bound on its
300 slow positions (1–3 AP) as well.
"""

from __future__ import annotations

import os

import pytest

from analysis.solver.bound import upper_bound
from analysis.solver.brute import solve_brute
from analysis.solver.selfplay import random_position
from core.state import GameState
from tests.test_solver_agreement import position as agreement_position

MAPS = [os.path.join(os.path.dirname(__file__), "maps", m) for m in ("mini-b.txt", "mini-a.txt")]


def position(seed: int, ap: int) -> GameState:
    s = random_position(seed, MAPS[seed % 2], players=2 + seed % 2, turns=3 + seed % 5, ap=ap)
    s.turn.token_used = True
    return s


def check(seed: int, ap: int) -> None:
    s = position(seed, ap)
    ref = solve_brute(s)
    assert ref.optimal
    assert ref.best <= upper_bound(s), (seed, ap, ref.line_text)


def test_r37_r38_bridge_tile_then_irrigation_encloses() -> None:
    """R26/R27/R38: a tile on a bare hex lets a developer walk onto the ring for free, then an
    irrigation makes and encloses a pond in one placement (3 points with 2 AP)."""
    s = position(181, 2)
    ref = solve_brute(s)
    assert ref.best == 3 and "irrigate" in ref.line_text
    assert upper_bound(s) >= 3


def test_r15_r30_a_tile_joins_his_developer_to_the_city_for_a_festival() -> None:
    """R15/R30/R38: one tile encloses a pond (9) and, showing a village, joins the group where
    his developer stands to a city, so he may hold a festival there alone (2): 11 with 1 AP."""
    s = agreement_position(1227, 1)
    ref = solve_brute(s)
    assert ref.best == 11 and ref.ap_spent == 1
    assert "festival" in ref.line_text and upper_bound(s) >= 11


@pytest.mark.parametrize("seed", range(40))
def test_bound_is_admissible(seed: int) -> None:
    check(seed, 2 if seed % 8 == 0 else 1)
