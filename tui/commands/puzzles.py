"""``kraton puzzles``: the collection (list, ``--check``) and its tools — ``mine``, ``make``,
``rate`` — and the trainer's progress — ``stats``, ``export``, ``import``, ``train`` (also
``kraton train``). Issue 25."""

from __future__ import annotations

import argparse
import json
import os
from collections.abc import Callable
from typing import Any

from core.errors import KratonError, shown


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("puzzles", help="the puzzle collection (list, --check) and its tools: "
                                       "mine, make, rate, stats, export, import, train")
    p.add_argument("--json", action="store_true")
    p.add_argument("--check", action="store_true", help="solve each puzzle and compare with its best")
    p.add_argument("--time-limit", type=float, default=None, metavar="S",
                   help="with --check: seconds per puzzle (default and 0: no limit)")
    p.add_argument("--workers", type=int, default=2, metavar="N", help="with --check or rate: processes")
    p.add_argument("--only", default=None, metavar="ID[,ID]", help="just these puzzles")
    p.set_defaults(func=cmd_list)
    tools = p.add_subparsers(dest="tool", metavar="TOOL", parser_class=type(p))
    from analysis import mine, puzzle_make

    t = tools.add_parser("mine", help="mine puzzles from self-play or saved game records")
    mine.add_arguments(t)
    t.set_defaults(func=_tool(mine.run))
    t = tools.add_parser("make", help="solve the hand-designed puzzles and write them")
    puzzle_make.add_arguments(t)
    t.set_defaults(func=_tool(puzzle_make.run))
    t = tools.add_parser("rate", help="(re)compute themes, uniqueness, source and first ratings")
    t.add_argument("--only", default=None, metavar="ID[,ID]")
    t.add_argument("--reset", action="store_true", help="also replace ratings and uniqueness already there")
    t.add_argument("--no-uniqueness", action="store_true", help="skip the uniqueness search")
    t.add_argument("--deadline", type=float, default=30.0, metavar="S", help="seconds of uniqueness search per puzzle")
    t.add_argument("--workers", type=int, default=2, metavar="N")
    t.set_defaults(func=cmd_rate)
    t = tools.add_parser("stats", help="your trainer statistics (the statistics screen's figures)")
    t.add_argument("--json", action="store_true")
    t.set_defaults(func=cmd_stats)
    t = tools.add_parser("export", help="write your trainer progress to FILE (JSON)")
    t.add_argument("file")
    t.set_defaults(func=cmd_export)
    t = tools.add_parser("import", help="merge trainer progress from FILE (an export)")
    t.add_argument("file")
    t.set_defaults(func=cmd_import)
    for parent in (tools, sub):
        t = parent.add_parser("train", help="the puzzle trainer (rated, streak, theme, mix)")
        add_train_arguments(t)
        t.set_defaults(func=cmd_train)


def _tool(run: Callable[[argparse.Namespace], None]) -> Callable[[argparse.Namespace], int]:
    def go(args: argparse.Namespace) -> int:
        run(args)
        return 0

    return go


def add_train_arguments(t: argparse.ArgumentParser) -> None:
    from analysis.trainer import MODES  # not the session: the CLI starts without it

    t.add_argument("--mode", choices=MODES, default="rated")
    t.add_argument("--theme", default=None, help="with --mode theme: the theme")
    t.add_argument("--puzzles", metavar="DIR", default=None,
                   help="also offer the puzzles of DIR in the set 'My games' "
                        "(besides $KRATON_HOME/my-puzzles, where kraton review --puzzles should write)")
    t.add_argument("--set", choices=("collection", "my-games"), default="collection", dest="puzzle_set")


def progress_path() -> str:
    from tui.saves import home_dir

    return str(home_dir() / "progress.sqlite")


def open_progress() -> Any:
    from analysis.trainer.progress import Progress

    return Progress(progress_path())


def _selected(only: str | None) -> list[Any]:
    """The collection, or with ``--only`` the puzzles it names (an empty selection, like an
    unknown name, is refused: it would do nothing and say it did)."""
    from puzzles.loader import load_puzzles

    rows = load_puzzles()
    if only is not None:
        wanted = {w.strip() for w in only.split(",") if w.strip()}
        if not wanted:
            raise KratonError(f"--only '{shown(only)}': no puzzle id given (ID[,ID], see `kraton puzzles`)")
        unknown = wanted - {pz.id for pz in rows}
        if unknown:
            raise KratonError(f"no puzzle named {', '.join(sorted(unknown))} (see `kraton puzzles`)")
        rows = [pz for pz in rows if pz.id in wanted]
    return rows


def check_one(job: tuple[str, float | None]) -> dict[str, Any]:
    """Re-solve one puzzle file (a worker process): proved at its best or not."""
    from analysis.solver import solve
    from puzzles.loader import load_puzzle

    pz = load_puzzle(job[0])
    r = solve(pz.state, time_limit=job[1])
    return {**pz.summary(), "solved": r.best, "optimal": r.optimal, "ok": r.best == pz.best and r.optimal,
            "proved_by": r.proved_by, "bound": r.bound, "seconds": round(r.seconds, 3)}


def cmd_list(args: argparse.Namespace) -> int:
    from tui.options import check_workers, time_limit

    time_limit(args.time_limit)  # bad option values: one line, before any work
    check_workers(args.workers)
    rows = _selected(args.only)
    if args.check:
        return check(rows, args)
    if args.json:
        print(json.dumps([pz.summary() for pz in rows], indent=2))
        return 0
    print(f"{'id':<28} {'difficulty':<10} {'theme':<22} {'AP':>3} {'best':>4} {'rating':>6}  map")
    for pz in rows:
        print(f"{pz.id:<28} {pz.difficulty:<10} {pz.theme:<22} {pz.ap:>3} {pz.best:>4} {pz.rating:>6.0f}  {pz.map}")
    print(f"{len(rows)} puzzles")
    return 0


def check(rows: list[Any], args: argparse.Namespace) -> int:
    """``--check``: every puzzle re-solved in ``--workers`` processes, the slowest first."""
    import statistics
    import time

    from analysis.parallel import run_parallel
    from tui.options import time_limit

    limit = time_limit(args.time_limit)
    slow_first = sorted(rows, key=lambda pz: -float(_solver_seconds(pz.path)))
    start = time.perf_counter()
    checked, bad = [], 0
    for out in run_parallel(check_one, [(pz.path, limit) for pz in slow_first], workers=args.workers):
        pz = slow_first[out.index]
        if not out.ok or out.value is None:
            bad += 1
            print(f"{pz.id:<28} ERROR {out.error}", flush=True)
            continue
        r = out.value
        checked.append(r)
        bad += not r["ok"]
        if not args.json:
            how = f"proved by {r['proved_by']}" if r["proved_by"] else f"not proved, bound {r['bound']}"
            print(f"{pz.id:<28} best {pz.best:>3}  solved {r['solved']:>3} {'ok' if r['ok'] else 'MISMATCH'}"
                  f"  {r['seconds']:.2f} s  {how}", flush=True)
    order = {pz.id: i for i, pz in enumerate(rows)}
    checked.sort(key=lambda r: order[r["id"]])  # the collection's order, whatever finished first
    times = [r["seconds"] for r in checked]
    wall = time.perf_counter() - start
    if args.json:
        print(json.dumps({"puzzles": checked, "mismatches": bad, "wall_s": round(wall, 1),
                          "median_s": statistics.median(times) if times else 0,
                          "max_s": max(times, default=0)}, indent=2))
    elif times:
        print(f"{len(rows)} puzzles, {bad} mismatch(es); median {statistics.median(times):.2f} s,"
              f" worst {max(times):.2f} s, {wall:.0f} s in all on {args.workers} workers")
    return 1 if bad else 0


def _solver_seconds(path: str) -> float:
    from core.position import read_json

    meta = read_json(path).get("puzzle", {}).get("solver", {})
    v = meta.get("seconds", 0) if isinstance(meta, dict) else 0
    return float(v) if isinstance(v, (int, float)) else 0.0


def rate_one(job: tuple[str, bool, bool, float]) -> dict[str, Any]:
    from analysis.puzzle_meta import rate_file

    return rate_file(job[0], reset=job[1], unique=job[2], deadline=job[3])


def cmd_rate(args: argparse.Namespace) -> int:
    from analysis.parallel import run_parallel
    from tui.options import check_workers

    check_workers(args.workers)
    rows = _selected(args.only)
    jobs = [(pz.path, args.reset, not args.no_uniqueness, args.deadline) for pz in rows]
    failed = 0
    for out in run_parallel(rate_one, jobs, workers=args.workers):
        name = os.path.basename(rows[out.index].path)
        if not out.ok or out.value is None:
            failed += 1
            print(f"{name}: {out.error}", flush=True)
            continue
        p = out.value
        print(f"{name:<30} rating {p['rating']:>6.0f}  uniqueness {p.get('uniqueness')!s:>4}"
              f"  themes {','.join(p['themes'])}", flush=True)
    print(f"{len(rows)} puzzles rated, {failed} failed")
    return 2 if failed else 0


def cmd_stats(args: argparse.Namespace) -> int:
    from analysis.trainer.report import sparkline, stats_lines

    prog = open_progress()
    try:
        st = prog.stats()
    finally:
        prog.close()
    if args.json:
        print(json.dumps({"rating": round(st.rating.rating, 1), "rd": round(st.rating.rd, 1),
                          "history": [round(h, 1) for h in st.history], "attempts": st.attempts,
                          "solved": st.solved, "best_streak": st.best_streak,
                          "themes": {t: {"attempts": n, "solved": ok} for t, (n, ok) in st.themes.items()}},
                         indent=2))
        return 0
    if path := sparkline(st.history):
        print(path)
    for line in stats_lines(st):
        print(line)
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    from analysis.trainer.progress import write_export

    prog = open_progress()
    try:
        write_export(prog, args.file)
        n = len(prog.export()["attempts"])
    finally:
        prog.close()
    print(f"wrote {n} attempts to {args.file}")
    return 0


def cmd_import(args: argparse.Namespace) -> int:
    from analysis.trainer.progress import read_export

    data = read_export(args.file)
    prog = open_progress()
    try:
        added = prog.import_(data, args.file)
    finally:
        prog.close()
    print("merged: " + ", ".join(f"{n} {t}" for t, n in added.items()))
    return 0


def cmd_train(args: argparse.Namespace) -> int:
    from tui.app import create_app, run_app

    if args.puzzles is not None and not os.path.isdir(args.puzzles):
        raise KratonError(f"{args.puzzles}: not a folder (--puzzles)")
    if args.mode == "theme" and not args.theme:
        raise KratonError("--mode theme needs --theme NAME (see `kraton puzzles --json` for themes)")
    open_progress().close()  # a bad database: one line, exit 2, before the screen opens
    app = create_app("train")
    app.train_options = {"mode": args.mode, "theme": args.theme, "puzzles": args.puzzles,
                         "set": args.puzzle_set}
    return run_app(app)
