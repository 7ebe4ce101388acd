"""The recipe engine's choice searched in Python (``analysis/solver/choice.py``) against CP-SAT's
(``cpsat._cpsat_choice``, the reference): the same optimum on random recipe sets, every rule of
the choice kept (R7 token, R8 tile owed, R28 palace supply, R29 one change per palace), and a
puzzle the recipe engine proves never imports OR-Tools."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analysis.solver.choice import Choice, Filler, TooMany, choose
from analysis.solver.common import Deadline
from analysis.solver.cpsat import _cpsat_choice
from analysis.solver.recipes import Recipe
from core.actions import Token

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

recipes_st = st.lists(st.builds(
    Recipe, actions=st.just(()), cost=st.integers(0, 4), points=st.integers(0, 9),
    handed=st.integers(0, 3), opportunity=st.sampled_from("abcde"), piece=st.sampled_from((0, 0, 2, 4, 6)),
    footprint=st.frozensets(st.integers(0, 9), min_size=1, max_size=3), has_tile=st.booleans()),
    max_size=12)
fillers_st = st.lists(st.tuples(st.just(Token()), st.integers(1, 3), st.frozensets(st.integers(0, 9), min_size=1,
                                                                                   max_size=3)), max_size=3)


def _kept(c: Choice, recipes: list[Recipe], ap: int, token: bool, fillers: list[Filler], owed: bool,
          supply: list[int], cuts: list[list[int]]) -> None:
    chosen = [recipes[i] for i in c.recipes]
    cost = sum(r.cost for r in chosen) + (fillers[c.filler][1] if c.filler is not None else 0)
    assert cost <= ap + int(c.token) and (token or not c.token)  # R7
    assert len({r.opportunity for r in chosen}) == len(chosen)  # R29, a pond once
    for v in (2, 4, 6):
        assert sum(r.piece == v for r in chosen) <= supply[v]  # R28
    prints = [r.footprint for r in chosen] + ([fillers[c.filler][2]] if c.filler is not None else [])
    assert sum(len(p) for p in prints) == len(frozenset().union(*prints))
    assert not owed or any(r.has_tile for r in chosen) or c.filler is not None  # R8
    assert not any(set(cut) <= set(c.recipes) for cut in cuts)


@settings(max_examples=150, deadline=None)
@given(recipes=recipes_st, fillers=fillers_st, ap=st.integers(1, 6), token=st.booleans(),
       owed=st.booleans(), pieces=st.lists(st.integers(0, 2), min_size=3, max_size=3),
       cut_seeds=st.lists(st.lists(st.integers(0, 11), min_size=1, max_size=3), max_size=2))
def test_r7_r8_r28_r29_the_choice_searched_here_is_cp_sats_optimum(
        recipes: list[Recipe], fillers: list[Filler], ap: int, token: bool, owed: bool,
        pieces: list[int], cut_seeds: list[list[int]]) -> None:
    supply = [0] * 11
    supply[2], supply[4], supply[6] = pieces
    fillers = fillers if owed else []  # as the engine builds them (cpsat._fillers)
    cuts = [sorted({i for i in c if i < len(recipes)}) for c in cut_seeds]
    cuts = [c for c in cuts if c]
    mine = choose(recipes, ap, token, fillers, owed, supply, cuts)
    ref = _cpsat_choice(recipes, ap, token, fillers, owed, supply, cuts, Deadline(None), False)
    assert (mine is None) == (ref is None)
    if mine is not None and ref is not None:
        _kept(mine, recipes, ap, token, fillers, owed, supply, cuts)
        assert mine.value == ref.value


def test_a_choice_past_the_node_cap_goes_to_cp_sat() -> None:
    """Forty interchangeable one-point recipes: every set of seven is as good, the bound cuts
    nothing, and the search gives up at ``NODE_CAP`` nodes; CP-SAT takes 6 AP and the token."""
    many = [Recipe((), 1, 1, 0, f"o{i}", 0, frozenset({i}), False) for i in range(40)]
    with pytest.raises(TooMany):
        choose(many, 6, True, [], False, [0] * 11, [])
    ref = _cpsat_choice(many, 6, True, [], False, [0] * 11, [], Deadline(None), False)
    assert ref is not None and len(ref.recipes) == 7 and ref.token  # R7
    assert choose(many[:9], 6, True, [], False, [0] * 11, []) is not None  # C(9, <=7): searched


def test_a_puzzle_the_recipe_engine_proves_never_imports_ortools() -> None:
    """Issue 21: ``kraton solve`` on a puzzle within 1 s as a whole process. OR-Tools with numpy
    is about half of that; a puzzle proved by the recipe engine and the bound needs neither."""
    code = ("import sys; from puzzles.loader import load_puzzle; from analysis.solver import solve; "
            "r = solve(load_puzzle('puzzles/pond-01.json').state, time_limit=10); "
            "print(r.best, r.proved_by, sorted(m for m in sys.modules if m.split('.')[0] in ('ortools', 'numpy')))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["3", "bound", "[]"]
