"""Issue 22's performance target, measured by hand: ``kraton review`` of a 60-turn 4-player
record with ``--time-limit 2`` in at most 2 minutes on 2 cores with 2 workers.

    .venv/bin/python -m benchmarks.review_bench [--time-limit 2] [--workers 2] [--engine E] [--no-sequential]

Runs the review as the command does (``turn_tasks`` + ``run_review``: a process pool fed with
tasks that carry their start position), then the sequential in-process reference (one worker,
no pool) in the same run, and prints wall times, the sum of solver seconds and the speed-up.
``benchmarks/test_bench_review.py`` runs the same path once with a tiny limit in CI.
"""

from __future__ import annotations

import argparse
import os
import time
from typing import Any

from analysis.review_report import Review, run_review, turn_tasks
from analysis.solver import DEFAULT_ENGINE
from core.record import replay_file

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GAME = os.path.join(ROOT, "puzzles", "games", "planner-38.json")


def timed_review(path: str, time_limit: float, workers: int, turns: tuple[int, int] | None = None,
                 engine: str = DEFAULT_ENGINE) -> tuple[float, Review]:
    """Wall seconds of a whole review, from reading the record to the last evaluation."""
    t0 = time.perf_counter()
    game = replay_file(path)
    review = run_review(turn_tasks(game, time_limit, engine, turns=turns), workers=workers)
    return time.perf_counter() - t0, review


def describe(label: str, secs: float, review: Review) -> dict[str, Any]:
    solver = sum(float(e["seconds"]) for e in review.evaluations.values())
    proved = sum(1 for e in review.evaluations.values() if e["proved"])
    print(f"{label:<28} {secs:7.1f} s wall, {len(review.evaluations)} turns ({len(review.failed)} failed,"
          f" {proved} proved), solver {solver:.1f} s")
    return {"wall": secs, "solver": solver, "turns": len(review.evaluations)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", default=GAME)
    ap.add_argument("--time-limit", type=float, default=2.0)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--engine", default=DEFAULT_ENGINE)
    ap.add_argument("--no-sequential", action="store_true", help="skip the one-process reference")
    args = ap.parse_args()
    print(f"{os.path.basename(args.game)}, --engine {args.engine} --time-limit {args.time_limit:g}, {os.cpu_count()} CPUs,"
          f" load {os.getloadavg()[0]:.2f}")
    par = describe(f"{args.workers} worker processes", *timed_review(args.game, args.time_limit, args.workers, engine=args.engine))
    if not args.no_sequential:
        seq = describe("sequential, in-process", *timed_review(args.game, args.time_limit, 1, engine=args.engine))
        print(f"speed-up {seq['wall'] / par['wall']:.2f}x")


if __name__ == "__main__":
    main()
