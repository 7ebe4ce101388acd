"""The 40 busy mid-game turns of issue 21: each solver engine against what was played there.

    python benchmarks/busy.py                       # every engine but brute and bnb, 10 s each
    python benchmarks/busy.py --engines cpsat,model --time-limit 10 --jobs 2
    python benchmarks/busy.py --only 38@137,32@250  # a subset: printed, README left alone
    python benchmarks/busy.py --table-only          # rebuild the README section from the JSON
    python benchmarks/busy.py --sample --engines model   # the held-out sample of 48 turns

A position ``38@137`` is the start of the turn after the first 137 actions of
``puzzles/games/planner-38.json`` (``GameRecord.replay(upto=137)``): 25+ tiles on the board,
three-space tiles left, 6 AP (most with the token). Each solve runs in a fresh subprocess (two
at a time at most: the machine has two cores; ``--jobs 1`` runs them one by one) that reports
best, bound, proof, seconds and its own peak RSS. Beside the engines, each position scores,
under the solver's objective (points, then fewer handed): the turn the record played from there
(to the mover's ``end`` or festival), and the turn the ``planner`` and ``greedy`` players
(``analysis/players.py``) would play (each in its own subprocess too, seed 0). A full run
writes ``benchmarks/results/busy.json`` and the section "Busy mid-game turns" of
``benchmarks/README.md``.

``--sample`` runs instead 48 turns kept aside from the 40 (issue 21's acceptance sample is
not in the repository, so this one is drawn the same way from the other records):
``sample_positions`` pools every busy mid-game turn start (``analysis.mine.mid_game``: turn 8
on, before the last round, 25+ land tiles, three-space tiles left) of the planner records
outside 30–69 and draws 48 with a fixed seed; results go to ``results/busy-sample.json`` and
the section "A held-out sample of busy turns".
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import TYPE_CHECKING, Any

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
if ROOT not in sys.path:  # run as a script: benchmarks/ is sys.path[0], the project is not
    sys.path.insert(0, ROOT)

from benchmarks.busy_table import MARKS, README, SAMPLE_MARKS, render, summary, write_section
from puzzles.loader import GAMES

if TYPE_CHECKING:
    from core.actions import Action
    from core.record import GameRecord
    from core.state import GameState

JSON_PATH = os.path.join(HERE, "results", "busy.json")
SAMPLE_PATH = os.path.join(HERE, "results", "busy-sample.json")
PARTIAL_PATH = os.path.join(ROOT, ".benchmarks", "busy-partial.json")
# Issue 21's positions: game number @ actions replayed (one busy start of turn per game).
POSITIONS = [
    "30@122", "31@348", "32@250", "33@190", "34@142", "35@358", "36@278", "37@112", "38@137",
    "39@185", "40@232", "41@328", "42@206", "43@342", "44@191", "45@364", "46@283", "47@134",
    "48@218", "49@389", "50@169", "51@131", "52@184", "53@259", "54@148", "55@130", "56@159",
    "57@183", "58@165", "59@100", "60@205", "61@245", "62@128", "63@187", "64@161", "65@145",
    "66@268", "67@99", "68@248", "69@254"]
PLAYERS = ("planner", "greedy")
SAMPLE_SIZE, SAMPLE_SEED = 48, 21
# The records the sample is drawn from: the planner games there were when it was first drawn.
# Records added since (puzzles mined from newer games) stay out, so the sample stays the same.
SAMPLE_GAMES = range(100, 214)


def sample_positions(n: int = SAMPLE_SIZE, seed: int = SAMPLE_SEED) -> list[str]:
    """``n`` busy turn starts drawn with ``seed`` from the planner records of ``SAMPLE_GAMES``,
    which ``POSITIONS`` does not use (``analysis.mine.mid_game`` decides what is busy), in game
    order."""
    import random
    import re

    from analysis.mine import indexed_record_turns, mid_game

    used = {int(pid.partition("@")[0]) for pid in POSITIONS}
    pool: list[tuple[int, int]] = []
    for name in sorted(os.listdir(GAMES)):
        m = re.fullmatch(r"planner-(\d+)\.json", name)
        if m is None or int(m.group(1)) in used or int(m.group(1)) not in SAMPLE_GAMES:
            continue
        pool += [(int(m.group(1)), idx) for turn, idx, s in
                 indexed_record_turns(os.path.join(GAMES, name)) if mid_game(turn, s)]
    return [f"{g}@{i}" for g, i in sorted(random.Random(seed).sample(pool, min(n, len(pool))))]


def default_engines() -> list[str]:
    from analysis.solver import ENGINES

    return [e for e in ENGINES if e not in ("brute", "bnb")]


def load(pid: str) -> tuple[GameRecord, list[Action], int]:
    """The record of ``pid`` (``38@137``), its actions and the index; checks the id."""
    from core.record import load_record

    game, _, upto = pid.partition("@")
    if not (game.isdigit() and upto.isdigit()):
        raise SystemExit(f"busy.py: a position is GAME@ACTIONS, like 38@137, not {pid!r}")
    rec, _ = load_record(os.path.join(GAMES, f"planner-{game}.json"))
    return rec, list(rec.actions), int(upto)


def position(pid: str) -> GameState:
    """The game state at ``pid``: the start of the mover's turn."""
    rec, _, upto = load(pid)
    return rec.replay(upto, GAMES).state


def score_line(s: GameState, actions: list[Action]) -> dict[str, object]:
    """Play ``actions`` (a turn, perhaps closed by a festival) on ``s`` and score them under
    the solver's objective: the mover's points and the points handed to opponents; a festival
    an opponent may take part in counts nothing (R32: its points are not his to take)."""
    from analysis.solver.common import festival_outcome, step_outcome
    from core.actions import End, Festival, actions_text

    points = handed = 0
    shared = False
    line: list[Action] = []
    for a in actions:
        if isinstance(a, End):
            break
        line.append(a)
        if isinstance(a, Festival):
            o = festival_outcome(s, a)
            shared = o is None
            if o is not None:
                points, handed = points + o.points, handed - o.neg_handed
            break
        o = step_outcome(s, a)
        points, handed = points + o.points, handed - o.neg_handed
    return {"points": points, "handed": handed, "line": actions_text(line),
            "festival_shared": shared}


def played(pid: str) -> dict[str, object]:
    """The turn the record played from ``pid``, scored like the solver scores its lines."""
    rec, actions, upto = load(pid)
    return score_line(rec.replay(upto, GAMES).state, actions[upto:])


def play_player(pid: str, name: str) -> dict[str, object]:
    """The turn the computer player ``name`` (seed 0) plays from ``pid`` on the real state."""
    from analysis.players import make_player
    from core.actions import End, Festival

    s = position(pid)
    start = s.copy()
    me, p = s.to_move, make_player(name, 0)
    line: list[Action] = []
    while len(line) < 60 and s.to_move == me and s.festival is None:
        a = p.choose(s)
        line.append(a)
        if isinstance(a, (End, Festival)):
            break
        s.push(a)
    return score_line(start, line)


def run_engine(pid: str, engine: str, limit: float | None, processes: int = 1) -> dict[str, object]:
    from analysis.solver import solve

    r = solve(position(pid), engine=engine, time_limit=limit, processes=processes)
    return {"best": r.best, "bound": r.bound, "optimal": r.optimal, "proved_by": r.proved_by,
            "seconds": round(r.seconds, 3), "nodes": r.nodes, "handed": r.handed,
            "line": r.line_text}


def worker(kind: str, pid: str, limit: float, processes: int = 1) -> int:
    """One task in this (fresh) process; prints its JSON with the process's peak RSS."""
    import resource
    import time

    t = time.perf_counter()
    what, _, name = kind.partition(":")
    out = (run_engine(pid, name, limit or None, processes) if what == "engine"
           else play_player(pid, name))
    out["wall"] = round(time.perf_counter() - t, 3)
    out["rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    print(json.dumps(out))
    return 0


def spawn(kind: str, pid: str, limit: float, processes: int = 1) -> dict[str, object]:
    """Run one task in a subprocess; a crash or a hang is recorded, not raised."""
    import subprocess

    cmd = [sys.executable, os.path.abspath(__file__), "--worker", kind, pid, str(limit),
           "--processes", str(processes)]
    hang = 3 * (limit or 600) + 120
    try:
        p = subprocess.run(cmd, check=False, cwd=ROOT, capture_output=True, text=True, timeout=hang)
    except subprocess.TimeoutExpired:
        return {"error": f"no answer within {hang:.0f} s"}
    if p.returncode != 0:
        return {"error": (p.stderr.strip().splitlines() or ["exit " + str(p.returncode)])[-1]}
    return dict(json.loads(p.stdout.strip().splitlines()[-1]))


def run_all(ids: list[str], engines: list[str], limit: float, jobs: int,
            players: bool, processes: int = 1) -> list[dict[str, Any]]:
    """Every task of every position, ``jobs`` subprocesses at a time (each solve may run
    ``processes`` at once); rows in ``ids`` order."""
    from concurrent.futures import ThreadPoolExecutor

    rows: list[dict[str, Any]] = []
    for pid in ids:
        s = position(pid)
        rows.append({"id": pid, "ap": s.turn.ap, "token": s.token_bonus(), "played": played(pid),
                     "engines": {}})
    tasks = [(i, f"engine:{e}") for i in range(len(ids)) for e in engines]
    if players:
        tasks += [(i, f"player:{n}") for i in range(len(ids)) for n in PLAYERS]
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = [(i, kind, pool.submit(spawn, kind, ids[i], limit, processes)) for i, kind in tasks]
        for i, kind, fut in futures:
            got = fut.result()
            what, _, name = kind.partition(":")
            row = rows[i]
            if what == "engine":
                row["engines"][name] = got
            else:
                row[name] = got
            print(f"{ids[i]:>7} {kind:<16} " + (
                f"best {got.get('best')} bound {got.get('bound')} {got.get('proved_by') or '-'}"
                f" {got.get('seconds')} s" if what == "engine" else
                f"points {got.get('points')}") + (f" ERROR {got['error']}" if "error" in got else ""),
                flush=True)
    return rows


def machine() -> str:
    import platform
    import subprocess

    try:
        commit = subprocess.run(["git", "rev-parse", "--short=10", "HEAD"], check=False, cwd=ROOT,
                                capture_output=True, text=True).stdout.strip()
    except OSError:
        commit = "?"
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return (f"{platform.processor() or platform.machine()}, {cores} cores available; "
            f"CPython {platform.python_version()}; commit {commit}")


def save(path: str, data: dict[str, object]) -> None:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=1)
        f.write("\n")
    os.replace(tmp, path)


def table_only(sample: bool = False) -> int:
    with open(SAMPLE_PATH if sample else JSON_PATH, encoding="utf-8") as f:
        data = json.load(f)
    text = render(data)
    write_section(text, SAMPLE_MARKS if sample else MARKS)
    print(text)
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--engines", default="", help="comma-separated (default: every engine "
                    "in analysis.solver.ENGINES but brute and bnb)")
    ap.add_argument("--time-limit", type=float, default=10.0, metavar="S", help="per solve (0: none)")
    ap.add_argument("--jobs", type=int, default=2, choices=(1, 2), help="subprocesses at a time")
    ap.add_argument("--processes", type=int, default=1, metavar="N",
                    help="processes each solve may run (analysis.solver.solve; kraton solve: 2); "
                         "with 2, run one job at a time")
    ap.add_argument("--only", default="", metavar="ID[,ID]", help="a subset, e.g. 38@137,32@250")
    ap.add_argument("--no-players", action="store_true", help="skip the planner and greedy players")
    ap.add_argument("--sample", action="store_true",
                    help=f"the {SAMPLE_SIZE} held-out turns of sample_positions instead of the 40")
    ap.add_argument("--table-only", action="store_true", help="rebuild the README section from the JSON")
    ap.add_argument("--worker", nargs=3, metavar=("KIND", "ID", "LIMIT"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker:
        return worker(args.worker[0], args.worker[1], float(args.worker[2]), args.processes)
    if args.table_only:
        return table_only(args.sample)
    if args.time_limit < 0:
        ap.error("--time-limit must be 0 (no limit) or a positive number of seconds")
    engines = [e.strip() for e in args.engines.split(",") if e.strip()] or default_engines()
    from analysis.solver import ENGINES

    if set(engines) - set(ENGINES):
        ap.error(f"unknown engine(s) {', '.join(sorted(set(engines) - set(ENGINES)))} "
                 f"(one of {', '.join(ENGINES)})")
    ids = ([w.strip() for w in args.only.split(",") if w.strip()]
           or (sample_positions() if args.sample else list(POSITIONS)))
    for pid in ids:
        load(pid)  # a bad id or a missing record stops here, before any solve
    rows = run_all(ids, engines, args.time_limit, args.jobs, not args.no_players, args.processes)
    data: dict[str, Any] = {"machine": machine(), "time_limit": args.time_limit,
                            "jobs": args.jobs, "processes": args.processes, "engines": engines,
                            "positions": rows}
    data["summary"] = {e: summary(rows, e) for e in engines}
    text = render(data)
    print(text)
    if args.only:
        save(PARTIAL_PATH, data)
        print(f"\nsaved {os.path.relpath(PARTIAL_PATH, ROOT)}; a subset leaves the README alone")
        return 0
    path = SAMPLE_PATH if args.sample else JSON_PATH
    save(path, data)
    write_section(text, SAMPLE_MARKS if args.sample else MARKS)
    print(f"\nwrote {os.path.relpath(path, ROOT)} and {os.path.relpath(README, ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
