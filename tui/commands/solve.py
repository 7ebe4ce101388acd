"""``kraton solve FILE`` (the best turn, issue 5) and ``kraton puzzles`` (the collection)."""

from __future__ import annotations

import argparse
import json

from core.errors import KratonError
from tui.commands.position import add_at, load_for_command, say

SOLVE_LIMIT = 60.0  # seconds: a proof either comes in seconds or, on a busy 6-AP turn, not at all


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("solve", help="the best turn for the player to move (points per step)")
    p.add_argument("file")
    p.add_argument("--json", action="store_true", help='print {"best", "line", "optimal", ...}')
    p.add_argument("--time-limit", type=float, default=SOLVE_LIMIT, metavar="S",
                   help=f"stop after S seconds (default {SOLVE_LIMIT:g}: a full turn on a busy board "
                        "may not be provable at all); an answer cut short is marked not proven")
    p.add_argument("--engine", default="cpsat", choices=("cpsat", "bnb", "brute"))
    add_at(p)
    p.set_defaults(func=cmd_solve)

    p = sub.add_parser("puzzles", help="list the puzzle collection (difficulty, theme, best)")
    p.add_argument("--json", action="store_true")
    p.add_argument("--check", action="store_true", help="solve each puzzle and compare with its best")
    p.add_argument("--time-limit", type=float, default=None, metavar="S")
    p.add_argument("--only", default="", metavar="ID[,ID]", help="just these puzzles")
    p.set_defaults(func=cmd_puzzles)


def cmd_solve(args: argparse.Namespace) -> int:
    from analysis.solver import solve

    if args.time_limit is not None and args.time_limit <= 0:
        raise KratonError("--time-limit must be a positive number of seconds")
    s, note = load_for_command(args.file, args.at)  # read only: a solve never changes the file
    r = solve(s, engine=args.engine, time_limit=args.time_limit)
    say(note)
    if args.json:
        print(json.dumps(r.to_json(), indent=2))
        return 0
    who = s.players[s.to_move].name
    print(f"{who} to move, {s.turn.ap} AP left{' + token' if s.token_bonus() else ''}")
    for a, pts in zip(r.line, r.step_points):
        print(f"  {a!s:<32} {'+' + str(pts) if pts else ''}")
    if not r.line:
        print("  (nothing to do: no action scores)")
    proof = ("optimal (proved)" if r.optimal else
             f"best found, NOT proved optimal (time limit; no line scores more than {r.bound})")
    extra = f", {r.handed} handed to opponents" if r.handed else ""
    print(f"best: {r.best} points, {r.ap_spent} AP{extra} — {proof}; {r.engine}, {r.seconds:.2f} s")
    print(f"line: {r.line_text}")
    return 0


def cmd_puzzles(args: argparse.Namespace) -> int:
    from puzzles.loader import load_puzzles

    rows = load_puzzles()
    if args.only:
        wanted = {w.strip() for w in args.only.split(",") if w.strip()}
        unknown = wanted - {pz.id for pz in rows}
        if unknown:
            raise KratonError(f"no puzzle named {', '.join(sorted(unknown))} (see `kraton puzzles`)")
        rows = [pz for pz in rows if pz.id in wanted]
    if args.check:
        import statistics

        from analysis.solver import solve

        bad = 0
        checked = []
        times: list[float] = []
        for pz in rows:
            r = solve(pz.state, time_limit=args.time_limit)
            ok = r.best == pz.best and r.optimal
            bad += not ok
            times.append(r.seconds)
            checked.append({**pz.summary(), "solved": r.best, "optimal": r.optimal, "ok": ok,
                            "seconds": round(r.seconds, 3)})
            if not args.json:
                print(f"{pz.id:<28} best {pz.best:>3}  solved {r.best:>3} {'ok' if ok else 'MISMATCH'}"
                      f"  {r.seconds:.2f} s", flush=True)
        if args.json:
            print(json.dumps({"puzzles": checked, "mismatches": bad,
                              "median_s": statistics.median(times) if times else 0,
                              "max_s": max(times, default=0)}, indent=2))
        elif times:
            print(f"{len(rows)} puzzles, {bad} mismatch(es); median {statistics.median(times):.2f} s,"
                  f" worst {max(times):.2f} s")
        return 1 if bad else 0
    if args.json:
        print(json.dumps([pz.summary() for pz in rows], indent=2))
        return 0
    print(f"{'id':<28} {'difficulty':<10} {'theme':<22} {'AP':>3} {'best':>4}  map")
    for pz in rows:
        print(f"{pz.id:<28} {pz.difficulty:<10} {pz.theme:<22} {pz.ap:>3} {pz.best:>4}  {pz.map}")
    print(f"{len(rows)} puzzles")
    return 0
