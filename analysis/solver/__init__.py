"""The best-turn solver (issue 5): the most points the mover can score this turn, exactly.

    from analysis.solver import solve, SolveResult, Progress
    r = solve(state, engine="cpsat")   # or "bnb", "brute"; time_limit in seconds or None

Three engines share one objective (``common.Outcome``): ``brute`` (every legal sequence, the
reference), ``bnb`` (branch and bound) and ``cpsat`` (the recipe engine: the best choice of
scoring recipes, searched in Python or by OR-Tools CP-SAT, proved by an admissible bound or
finished by branch and bound); ``model`` (the default) runs the recipe engine first.
``optimal`` is True only when the engine proved the line best; ``proved_by`` says how.
``solve`` never changes ``state``.

Anytime (issue 21): ``progress`` is called with a ``Progress`` (best, bound, line, seconds,
engine) whenever the best line found rises or the bound falls, and once more at the end with
the answer, so a caller can show the search as it goes; ``verbose`` lets an engine show its
own log on stderr (CP-SAT's search log). An engine gets the ``common.Reporter`` of the solve
and calls ``report(best, line)`` / ``report(bound=ub)`` as they improve (it ignores anything
not better, so calling it often is cheap), and sets ``proved_by`` on a proved result.
"""

from __future__ import annotations

import os
import time

from analysis.solver.common import Progress, ProgressFn, Reporter, SolveResult
from core.errors import KratonError
from core.state import GameState

ENGINES = ("cpsat", "model", "bnb", "brute")
# What the commands and the app use: the model engine runs the recipe engine first (the
# puzzles are proved as fast), then the players' turns, ``goals``, ``polish`` and ``tails``
# (busy turns: README, "Busy mid-game turns"). Computer players keep "cpsat": the model
# engine runs them.
DEFAULT_ENGINE = "model"
# What ``kraton solve`` and the app let one solve use: both cores of the 2-core machine.
DEFAULT_PROCESSES = min(2, os.cpu_count() or 1)


def solve(state: GameState, engine: str = DEFAULT_ENGINE, time_limit: float | None = None,
          progress: ProgressFn | None = None, verbose: bool = False,
          processes: int = 1) -> SolveResult:
    """The best line for the player to move this turn (see the module docstring); ``bound``
    says how many points no line can exceed (``best`` when proved). ``processes``: how many
    processes the solve may run at once, this one included (the model engine gives a second
    one the cities' checks of a busy turn, ``helper.py``); callers that already solve in
    parallel (``kraton review --workers``, tournaments) keep 1."""
    report = Reporter(progress, engine)
    r = _solve(state, engine, time_limit, report, verbose, processes)
    # the whole solve, the engine's import included, as the progress lines counted it
    r.seconds = max(r.seconds, time.perf_counter() - report.start)
    if r.optimal:
        r.bound = r.best
        if r.proved_by is None:
            r.proved_by = "search"  # brute force, or an engine that did not say: it finished
    else:
        r.proved_by = None
        if r.bound is None:  # the engines bring the one they computed; brute force has none
            from analysis.solver.bound import upper_bound

            r.bound = upper_bound(state, state.turn.ap + state.token_bonus())
        r.bound = max(r.best, r.bound)
    _final_report(report, r)
    return r


def _final_report(report: Reporter, r: SolveResult) -> None:
    """The answer as the last report: the simplified line, the final bound (brute force and
    a finished search report nothing before)."""
    if report.progress is None:
        return
    report.progress(Progress(r.best, r.bound, list(r.line), r.seconds, r.engine))


def _after_import(time_limit: float | None, report: Reporter) -> float | None:
    """The time limit less what the engine's import took (OR-Tools' ``cp_model``: ~0.15 s in
    a fresh process), which ``solve`` counts in the answer's seconds."""
    if time_limit is None:
        return None
    return max(0.05, time_limit - (time.perf_counter() - report.start))


def _solve(state: GameState, engine: str, time_limit: float | None, report: Reporter,
           verbose: bool, processes: int) -> SolveResult:
    if state.festival is not None:
        raise KratonError("a festival is being bid; the solver answers for a turn's actions (R30–R32)")
    if state.is_terminal():
        raise KratonError("the game is over (R40): there is no turn to solve")
    if engine == "brute":
        from analysis.solver.brute import solve_brute

        return solve_brute(state, time_limit)
    if engine == "bnb":
        from analysis.solver.bnb import solve_bnb

        return solve_bnb(state, time_limit, report=report, processes=processes)
    if engine == "model":
        from analysis.solver.model import solve_model

        return solve_model(state, _after_import(time_limit, report), report=report, verbose=verbose,
                           processes=processes)
    if engine == "cpsat":
        try:
            from analysis.solver.cpsat import solve_cpsat
        except ImportError:  # the CP-SAT engine not there yet: exact branch and bound
            from analysis.solver.bnb import solve_bnb

            return solve_bnb(state, time_limit, report=report)
        return solve_cpsat(state, _after_import(time_limit, report), report=report, verbose=verbose,
                           processes=processes)
    raise KratonError(f"unknown solver engine '{engine}' (one of {', '.join(ENGINES)})")


__all__ = ["DEFAULT_PROCESSES", "ENGINES", "Progress", "ProgressFn", "SolveResult", "solve"]
