"""Where the turn model (issue 21, deliver 1) stands on the busy turns: the board or the search.

    python benchmarks/model_probe.py 38@137,57@183 --time-limit 30

For each position (``busy.py``'s ids), with the model engine's best line from
``results/busy.json``:

- **pinned**: the model with its board fixed to that line's tiles and irrigations
  (``model.pin_line``), solved to optimality: what the model thinks the rest of the turn
  (developers, palaces, ponds, festival) can add to that board. Equal to the line's points
  where the model is tight beyond the board.
- **hinted**: the whole model, every variable hinted with the pinned solution, for
  ``--time-limit`` seconds (two workers): when the first solution shows, the best and the bound
  at the end. A best above the hand-built bound is a solution no legal line can match: the model
  relaxes more there than the hand-built bound does.

Prints one line per position; writes nothing (benchmarks/README.md, "Busy mid-game turns",
fifteenth session, gives a run).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ortools.sat.python import cp_model

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
for path in (ROOT, HERE):
    if path not in sys.path:
        sys.path.insert(0, path)


def _solver(limit: float) -> cp_model.CpSolver:
    """CP-SAT as the model engine runs it on this machine: two workers, ``limit`` seconds."""
    from analysis.solver.ortools_cp import cp_model

    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 2
    solver.parameters.max_time_in_seconds = limit
    return solver


def probe(pid: str, row: dict[str, object], limit: float) -> str:
    from busy import position

    from analysis.solver.model import build_turn_model, pin_line
    from analysis.solver.ortools_cp import cp_model
    from core.actions import parse_actions

    s = position(pid)
    best = row["best"]
    line = parse_actions(str(row["line"]))
    t = time.perf_counter()
    pinned = build_turn_model(s)
    built = time.perf_counter() - t
    pin_line(pinned, s, line)
    solver = _solver(limit)
    if solver.solve(pinned.model) not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return f"{pid}: the pinned model has no solution in {limit:g} s"
    m = pinned.model
    hint = [solver.value(m.get_int_var_from_proto_index(i)) for i in range(len(m.proto.variables))]
    whole = build_turn_model(s)
    for i, v in enumerate(hint):
        whole.model.add_hint(whole.model.get_int_var_from_proto_index(i), v)
    first: list[float] = []
    start = time.perf_counter()

    class First(cp_model.CpSolverSolutionCallback):
        def on_solution_callback(self) -> None:
            if not first:
                first.append(time.perf_counter() - start)

    solver2 = _solver(limit)
    status = solver2.solve(whole.model, First())
    found = (f"best {solver2.objective_value:g}, bound {solver2.best_objective_bound:g}"
             if status in (cp_model.OPTIMAL, cp_model.FEASIBLE) else "no solution")
    return (f"{pid}: line {best} (hand-built bound {row['bound']}); model "
            f"{len(m.proto.variables)} variables, built in {built:.1f} s; pinned to the line's "
            f"board {solver.objective_value:g} ({solver.wall_time:.1f} s); whole, hinted, "
            f"{limit:g} s: {solver2.status_name(status)}, {found}, first solution at "
            f"{first[0]:.1f} s" if first else f"{pid}: hinted: {solver2.status_name(status)}, {found}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("ids", help="positions like 38@137,57@183")
    ap.add_argument("--time-limit", type=float, default=30.0)
    args = ap.parse_args(argv)
    with open(os.path.join(HERE, "results", "busy.json"), encoding="utf-8") as f:
        rows = {p["id"]: p["engines"]["model"] for p in json.load(f)["positions"]}
    for pid in args.ids.split(","):
        if pid not in rows:
            print(f"model_probe.py: {pid} is not one of the 40 in results/busy.json", file=sys.stderr)
            return 2
        print(probe(pid, rows[pid], args.time_limit), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
