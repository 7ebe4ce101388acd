"""``kraton analyze FILE… [--json]``: cities, rankings, who could build next, ponds, villages,
the projected final count and the best turn.

Several files make a batch: they are analysed in parallel processes (or on a Dask cluster with
``--scheduler``) with a progress bar on stderr and a summary table at the end; a file that
cannot be read is reported and the others go on (exit status 2 if any failed).
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass, replace
from typing import Any

from core.errors import one_line
from core.record import load_any
from tui.commands.position import add_at


@dataclass(frozen=True)
class Job:
    path: str
    solve: bool
    time_limit: float | None
    at: int | None = None
    processes: int = 1  # for the solve: a batch's workers keep 1, a single file gets the cores


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("analyze", help="cities, keys, first/second, build costs, ponds, final count, best turn")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("--json", action="store_true", help="print JSON (notation.md contract keys)")
    p.add_argument("--no-solve", action="store_true", help="skip the best turn (solver)")
    p.add_argument("--time-limit", type=float, default=5.0, metavar="S",
                   help="seconds for the best-turn search per file (default 5; 0: no limit)")
    p.add_argument("--workers", type=int, default=None, help="processes for a batch (default: CPU count)")
    p.add_argument("--scheduler", metavar="ADDRESS", help="run a batch on this Dask scheduler")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    add_at(p)
    p.set_defaults(func=cmd_analyze)


def analyze_file(job: Job) -> dict[str, Any]:
    """Runs in a worker: the report and its text for one file (errors raise ValueError)."""
    from analysis.report import position_report, report_text

    s, note = load_any(job.path, job.at)
    r = position_report(s, solve=job.solve, time_limit=job.time_limit, processes=job.processes)
    return {"file": job.path, "report": r, "text": report_text(s, r), "note": note}


def summary_row(path: str, r: dict[str, Any] | None, error: str = "") -> str:
    if r is None:
        return f"{path:<40} FAILED: {error}"
    bt = r.get("best_turn")
    best = "-" if not bt else f"{bt['best']}{'' if bt.get('optimal') else '?'}"
    leader = max(range(len(r["projected"])), key=lambda p: r["projected"][p])
    return (f"{path:<40}{len(r['cities']):>7}{len(r['villages']):>9}{len(r['ponds']):>6}"
            f"{best:>6}  {r['players'][leader]} {r['projected'][leader]}")


def cmd_analyze(args: argparse.Namespace) -> int:
    from tui.options import check_workers, time_limit

    limit = time_limit(args.time_limit)  # bad option values: one line, before any work
    check_workers(args.workers)
    jobs = [Job(f, not args.no_solve, limit, args.at) for f in args.files]
    if len(jobs) == 1 and args.scheduler is None:
        from analysis.solver import DEFAULT_PROCESSES

        # a single file: errors go straight to the one-line message, and the solve may use
        # the cores (a batch's workers keep one each)
        out = analyze_file(replace(jobs[0], processes=DEFAULT_PROCESSES))
        if out["note"]:  # a game record: which position (stderr, so JSON stays clean)
            print(f"kraton: {out['note']}", file=sys.stderr)
        print(json.dumps(out["report"], indent=2) if args.json else out["text"])
        return 0
    from analysis.parallel import ProgressBar, run_parallel

    bar = None if args.quiet else ProgressBar(f"{len(jobs)} files")
    done: dict[int, tuple[dict[str, Any] | None, str]] = {}
    for o in run_parallel(analyze_file, jobs, workers=args.workers, scheduler=args.scheduler,
                          progress=bar):
        done[o.index] = (o.value, "") if o.ok else (None, o.error)
    failed = 0
    if args.json:
        items = []
        for i, job in enumerate(jobs):
            value, error = done[i]
            if value is None:
                failed += 1
                items.append({"file": job.path, "error": error})
            else:
                if value.get("note"):
                    print(f"kraton: {value['note']}", file=sys.stderr)
                items.append({"file": job.path, **value["report"]})
        print(json.dumps(items, indent=2))
    else:
        rows = []
        for i, job in enumerate(jobs):
            value, error = done[i]
            if value is None:
                failed += 1
                rows.append(summary_row(job.path, None, error))
            else:
                if value.get("note"):
                    print(f"kraton: {value['note']}", file=sys.stderr)
                print(f"== {job.path}\n{value['text']}\n")
                rows.append(summary_row(job.path, value["report"]))
        print(f"{'file':<40}{'cities':>7}{'villages':>9}{'ponds':>6}{'best':>6}  leader (score + count)")
        print("\n".join(rows))
    for i, job in enumerate(jobs):
        if done[i][0] is None:
            msg = done[i][1] if done[i][1].startswith(job.path) else f"{job.path}: {done[i][1]}"
            print(f"kraton: {one_line(msg)}", file=sys.stderr)
    if failed:
        print(f"kraton: {failed} of {len(jobs)} files failed", file=sys.stderr)
    return 2 if failed else 0
