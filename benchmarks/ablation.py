"""What each step of the model engine earns on issue 21's 40 busy turns (deliver 2: a piece
the model does not replace stays only where a measurement shows it earns its place).

    python benchmarks/ablation.py                  # every variant, 10 s a solve, 2 at a time
    python benchmarks/ablation.py --time-limit 5 --only 69@254,41@328

Each variant is ``solve_model`` with one step left out (``analysis.solver.model.STEPS``:
the recipe engine, the players' turns, ``goals``, ``polish``, ``tails``; ``search`` never runs
on these turns, where the model does not fit), each solve in a fresh worker process. Prints, per
variant, the points in all, the positions where it answers less than the whole engine, and
the median seconds; writes ``benchmarks/results/ablation.json``.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import statistics
import sys
import time
from typing import TypedDict

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from benchmarks.busy import POSITIONS, position

VARIANTS = {
    "all": (),
    "no recipes": ("recipes",),
    "no players": ("players",),
    "no goals": ("goals",),
    "no polish": ("polish",),
    "no tails": ("tails",),
    "no checks": ("checks",),
}
JSON_PATH = os.path.join(HERE, "results", "ablation.json")


class Row(TypedDict):
    id: str
    variant: str
    best: int
    bound: int | None
    seconds: float
    line: str


def _solve(job: tuple[str, str, float]) -> Row:
    pid, variant, limit = job
    from analysis.solver.model import STEPS, solve_model

    s = position(pid)
    t = time.perf_counter()
    r = solve_model(s, limit, steps=STEPS - frozenset(VARIANTS[variant]))
    return {"id": pid, "variant": variant, "best": r.best, "bound": r.bound,
            "seconds": round(time.perf_counter() - t, 3), "line": r.line_text}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--time-limit", type=float, default=10.0)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--only", default="", help="positions, e.g. 69@254,41@328")
    args = ap.parse_args(argv)
    ids = [p for p in args.only.split(",") if p] or POSITIONS
    jobs = [(pid, v, args.time_limit) for pid in ids for v in VARIANTS]
    with mp.get_context("spawn").Pool(args.jobs, maxtasksperchild=1) as pool:
        rows: list[Row] = []
        for row in pool.imap_unordered(_solve, jobs):
            rows.append(row)
            print(f"{row['id']:>7} {row['variant']:<11} best {row['best']:>3} "
                  f"{row['seconds']:>6} s", flush=True)
    full = {r["id"]: r["best"] for r in rows if r["variant"] == "all"}
    print()
    print("| variant | points | below the whole engine on | median s |")
    print("|---|---:|---|---:|")
    for v in VARIANTS:
        mine = [r for r in rows if r["variant"] == v]
        lower = sorted(f"{r['id']} ({r['best']} < {full[r['id']]})" for r in mine
                       if r["best"] < full[r["id"]])
        print(f"| {v} | {sum(r['best'] for r in mine)} | "
              f"{len(lower)}: {', '.join(lower) or '–'} | "
              f"{statistics.median(r['seconds'] for r in mine):.2f} |")
    if not args.only:
        with open(JSON_PATH, "w", encoding="utf-8") as f:
            json.dump({"time_limit": args.time_limit, "jobs": args.jobs, "rows": rows}, f, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
