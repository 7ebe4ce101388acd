"""Issue 21's puzzle targets: the collection all proved, median solve ≤ 0.1 s in-process, and
``kraton solve`` on a puzzle ≤ 1 s as a whole process.

    python benchmarks/puzzle_times.py                 # 10 s a puzzle, every 8th as a process
    python benchmarks/puzzle_times.py --every 1       # every puzzle as a process too

In-process: one Python process, the solver imported once (as in the app or ``kraton review``),
then ``analysis.solver.solve`` with the default engine and a 10-s limit on every puzzle in
turn, one at a time. Whole process: ``kraton solve FILE`` from the shell's point of view, start-up
and imports included. Prints both summaries; writes ``benchmarks/results/puzzles.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from typing import TypedDict

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

JSON_PATH = os.path.join(HERE, "results", "puzzles.json")


def in_process(limit: float) -> list[dict[str, object]]:
    """Every puzzle solved in this process: seconds, how it was proved, best against stated."""
    # The imports are paid once, before the clock (OR-Tools only when first needed, choice.py).
    import analysis.solver.model
    import analysis.solver.ortools_cp  # noqa: F401
    from analysis.solver import solve
    from puzzles.loader import load_puzzles

    rows: list[dict[str, object]] = []
    for pz in load_puzzles():
        t = time.perf_counter()
        r = solve(pz.state, time_limit=limit)
        rows.append({"id": pz.id, "seconds": round(time.perf_counter() - t, 4),
                     "proved_by": r.proved_by, "best": r.best, "stated": pz.best})
    return rows


class ProcessRow(TypedDict):
    file: str
    seconds: float
    status: int


def whole_process(every: int, limit: float) -> list[ProcessRow]:
    """``kraton solve`` on every ``every``-th puzzle file, timed from outside."""
    from puzzles.loader import puzzle_files

    kraton = os.path.join(os.path.dirname(sys.executable), "kraton")
    rows: list[ProcessRow] = []
    for path in puzzle_files(os.path.join(ROOT, "puzzles"))[::every]:
        t = time.perf_counter()
        done = subprocess.run([kraton, "solve", path, "--time-limit", str(limit)],
                              capture_output=True, text=True, check=False)
        rows.append({"file": os.path.basename(path), "seconds": round(time.perf_counter() - t, 3),
                     "status": done.returncode})
    return rows


def _summary(times: list[float]) -> str:
    return (f"median {statistics.median(times):.3f} s, mean {statistics.mean(times):.3f} s, "
            f"max {max(times):.2f} s")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--time-limit", type=float, default=10.0)
    ap.add_argument("--every", type=int, default=8, help="time every K-th puzzle as a process")
    args = ap.parse_args(argv)
    rows = in_process(args.time_limit)
    times = [float(r["seconds"]) for r in rows]  # type: ignore[arg-type]
    proved = sum(r["proved_by"] is not None for r in rows)
    wrong = [r["id"] for r in rows if r["best"] != r["stated"]]
    print(f"in-process: {len(rows)} puzzles, {proved} proved at {args.time_limit:g} s, "
          f"{len(wrong)} answers other than the stated best {wrong}")
    print(f"  {_summary(times)}; {sum(t <= 0.1 for t in times)} within 0.1 s")
    print(f"  not proved: {[r['id'] for r in rows if r['proved_by'] is None]}")
    procs = whole_process(args.every, args.time_limit)
    ptimes = [float(r["seconds"]) for r in procs]
    print(f"kraton solve as a process: {len(procs)} puzzles (every {args.every}th), "
          f"{_summary(ptimes)}; {sum(t <= 1.0 for t in ptimes)} within 1 s; "
          f"exit statuses {sorted({r['status'] for r in procs})}")
    os.makedirs(os.path.dirname(JSON_PATH), exist_ok=True)
    with open(JSON_PATH, "w") as f:
        json.dump({"time_limit": args.time_limit, "in_process": rows, "processes": procs}, f,
                  indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
