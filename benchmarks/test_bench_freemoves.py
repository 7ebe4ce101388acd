"""Group ``freemoves``: branch and bound after a free move (R27, ``analysis/solver/freemoves.py``)
asks of each action whether it changes every free move waiting for one; only those it does
are searched. The fast path tells it before the action is pushed (a pond it would enclose,
R38; a tile owed still placeable after it, R8); the reference pushes every tile, irrigation,
and while a tile is owed every action, to tell it from the board after it, then pops the many
it turns away (``reference.unsettled_ref``, ``reference.interacts_after_ref``). The same search
node for node: on pond-32 (15 points) and festival-21 (13 points, a tile owed), one process.
Each pair must give the same answer and the same count of nodes."""

from __future__ import annotations

import os

import pytest

from analysis.solver import bnb
from analysis.solver.bnb import solve_bnb
from benchmarks.reference import interacts_after_ref, unsettled_ref
from puzzles.loader import load_puzzle

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.mark.benchmark(group="freemoves")
@pytest.mark.parametrize("name", ["pond-32", "festival-21"])
@pytest.mark.parametrize("role", ["fast", "reference"])
def test_bnb_after_free_moves(bench, monkeypatch: pytest.MonkeyPatch, role: str, name: str) -> None:
    pz = load_puzzle(os.path.join(ROOT, "puzzles", f"{name}.json"))
    if role == "reference":
        monkeypatch.setattr(bnb, "unsettled", unsettled_ref)
        monkeypatch.setattr(bnb, "interacts_after", interacts_after_ref)
    got = bench(lambda: solve_bnb(pz.state, 60), pair=f"branch and bound after free moves ({name})",
                role=role, rounds=3)
    monkeypatch.undo()
    plain = solve_bnb(pz.state, 60)
    assert got.optimal and got.best == pz.best
    assert (got.nodes, got.line_text) == (plain.nodes, plain.line_text)
