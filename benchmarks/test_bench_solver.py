"""Group ``solver``: the best-turn solver (issue 5) on the puzzle collection, its three engines
in the same run: ``cpsat`` (fast), ``bnb`` (other) and ``brute`` (the reference: every legal
sequence). One round solves every puzzle once.

Slow (minutes with the brute-force engine), so CI skips it; ``benchmarks/run.py`` runs it. Each
solve gets ``KRATON_BENCH_SOLVER_LIMIT`` seconds (default 20); the table notes how many answers
were proved optimal and equal the puzzle's stated best (tests/ checks correctness, not this). Skipped cleanly while the
solver or the puzzles are not there.
"""

from __future__ import annotations

import os
from typing import Any

import pytest

LIMIT = float(os.environ.get("KRATON_BENCH_SOLVER_LIMIT", "20"))
ROLES = {"cpsat": "fast", "bnb": "bnb", "brute": "reference"}


def _puzzles() -> list[Any]:
    try:
        from analysis.solver import solve  # noqa: F401
        from puzzles import load_puzzles
    except ImportError as e:
        pytest.skip(f"the solver or the puzzle collection is not importable yet ({e})")
    rows = list(load_puzzles())
    if not rows:
        pytest.skip("the puzzle collection is empty")
    return rows


@pytest.mark.slow
@pytest.mark.parametrize("engine", list(ROLES))
@pytest.mark.benchmark(group="solver")
def test_solver_on_puzzles(bench, engine: str) -> None:
    from analysis.solver import solve

    rows = _puzzles()
    results: list[Any] = []

    def run() -> None:
        results.clear()
        results.extend(solve(pz.state, engine=engine, time_limit=LIMIT) for pz in rows)

    bench(run, pair=f"solve {len(rows)} puzzles", role=ROLES[engine], calls=len(rows), rounds=1)
    optimal = sum(1 for r in results if r.optimal)
    agree = sum(1 for r, pz in zip(results, rows) if r.best == pz.best)
    bench.benchmark.extra_info["note"] = (
        f"{engine}: {optimal}/{len(rows)} proved optimal, {agree}/{len(rows)} equal the stated best")
    assert len(results) == len(rows)
