"""``kraton solve FILE``: the best turn (issue 5). ``kraton puzzles`` is in ``puzzles.py``."""

from __future__ import annotations

import argparse
import json
import sys
import threading
import time
from typing import TYPE_CHECKING, TextIO

from core.errors import KratonError
from tui.commands.position import add_at, load_for_command, say
from tui.options import time_limit

if TYPE_CHECKING:
    from analysis.solver import Progress

# Seconds (issue 21): the answer is anytime, the best line and bound so far are shown as they
# improve; a proof either comes in seconds or, on a busy 6-AP turn, not at all.
SOLVE_LIMIT = 10.0
INFO_EVERY = 0.2  # seconds between two info lines at least (the last one is always shown)


def register(sub: argparse._SubParsersAction) -> None:
    from analysis.solver import DEFAULT_ENGINE, DEFAULT_PROCESSES, ENGINES

    p = sub.add_parser("solve", help="the best turn for the player to move (points per step)")
    p.add_argument("file")
    p.add_argument("--json", action="store_true", help='print {"best", "line", "optimal", "bound", ...}')
    p.add_argument("--time-limit", type=float, default=SOLVE_LIMIT, metavar="S",
                   help=f"stop after S seconds (default {SOLVE_LIMIT:g}; 0: no limit); an answer cut "
                        "short is marked not proven, with the bound no line can exceed")
    p.add_argument("--engine", default=DEFAULT_ENGINE, choices=ENGINES)
    p.add_argument("--processes", type=int, default=DEFAULT_PROCESSES, metavar="N",
                   help=f"processes the solve may run at once (default {DEFAULT_PROCESSES}: the "
                        "cores, at most 2: the second checks a busy turn's cities or searches "
                        "half of branch and bound's tree)")
    talk = p.add_mutually_exclusive_group()
    talk.add_argument("--quiet", action="store_true", help="no info lines on stderr while solving")
    talk.add_argument("--verbose", action="store_true", help="also the engine's own search log on stderr")
    add_at(p)
    p.set_defaults(func=cmd_solve)


class InfoLines:
    """Prints the solver's progress to ``out`` as engine-style info lines, at most one every
    ``every`` seconds. A report that comes too soon is held and printed by a timer when its
    turn comes (a search may then be silent for a long time), or by ``flush`` at the end, so
    the last report is always shown; one that says nothing new (the answer repeating the line
    last shown) is not."""

    def __init__(self, out: TextIO, every: float = INFO_EVERY) -> None:
        self.out = out
        self.every = every
        self.last = -1e9
        self.held: Progress | None = None
        self._shown: tuple[int, int | None, str] | None = None  # best, bound, line last printed
        self._lock = threading.Lock()
        self._timer: threading.Timer | None = None

    def __call__(self, p: Progress) -> None:
        with self._lock:
            wait = self.last + self.every - time.monotonic()
            if wait > 0:
                self.held = p
                if self._timer is None:
                    self._timer = threading.Timer(wait, self.flush)
                    self._timer.daemon = True
                    self._timer.start()
                return
            self.held = None
            self._print(p)

    def flush(self) -> None:
        with self._lock:
            self._timer = None
            if self.held is not None:
                self._print(self.held)
                self.held = None

    def close(self) -> None:
        """Print what is held and stop the timer (before the answer goes to stdout)."""
        timer = self._timer
        if timer is not None:
            timer.cancel()
        self.flush()

    def _print(self, p: Progress) -> None:
        from core.actions import actions_text

        line = actions_text(p.line) or "(nothing)"
        if (p.best, p.bound, line) == self._shown:
            return  # the final report of a line already shown: nothing new to say
        self._shown = (p.best, p.bound, line)
        self.last = time.monotonic()
        bound = "?" if p.bound is None else str(p.bound)
        print(f"info {p.seconds:.2f}s best {p.best} bound {bound} line {line}", file=self.out,
              flush=True)


def cmd_solve(args: argparse.Namespace) -> int:
    from analysis.solver import solve

    limit = time_limit(args.time_limit)
    if args.processes < 1:
        raise KratonError("--processes must be 1 or more (1: this process alone)")
    s, note = load_for_command(args.file, args.at)  # read only: a solve never changes the file
    info = None if args.quiet else InfoLines(sys.stderr)
    try:
        r = solve(s, engine=args.engine, time_limit=limit, progress=info, verbose=args.verbose,
                  processes=args.processes)
    finally:
        if info is not None:
            info.close()
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
    proof = (f"optimal (proved by the {r.proved_by})" if r.optimal else
             f"best found, NOT proved optimal (time limit; no line scores more than {r.bound})")
    extra = f", {r.handed} handed to opponents" if r.handed else ""
    print(f"best: {r.best} points, {r.ap_spent} AP{extra} — {proof}; {r.engine}, {r.seconds:.2f} s")
    print(f"line: {r.line_text}")
    return 0
