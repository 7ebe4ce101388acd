"""Group ``review``: ``kraton review``'s path (``turn_tasks`` + ``run_review``) on two turns of
``planner-38`` at 0.2 s a turn, with a pool of 2 worker processes (fast) against the sequential
in-process run (reference). The real measurement (62 turns at 2 s, issue 22's 2-minute target)
is ``benchmarks/review_bench.py``, run by hand; its figures are in the README."""

from __future__ import annotations

import pytest

from analysis.review_report import Review
from benchmarks.review_bench import GAME, timed_review

TURNS = (21, 22)  # the turn at action 137 is turn 22


@pytest.mark.benchmark(group="review")
@pytest.mark.parametrize("workers, role", [(2, "fast"), (1, "reference")])
def test_review_smoke(bench, workers: int, role: str) -> None:
    got: dict[str, Review] = {}

    def run() -> None:
        _, got["review"] = timed_review(GAME, 0.2, workers, TURNS)

    bench(run, pair="review planner-38 turns 21-22, 0.2 s", role=role, rounds=1)
    review = got["review"]
    assert sorted(review.evaluations) == [21, 22] and not review.failed
    assert all(e["best"] >= e["played"] for e in review.evaluations.values())
