"""The best-turn solver (issue 5): the most points the mover can score this turn, exactly.

    from analysis.solver import solve, SolveResult
    r = solve(state, engine="cpsat")   # or "bnb", "brute"; time_limit in seconds or None

Three engines share one objective (``common.Outcome``): ``brute`` (every legal sequence, the
reference), ``bnb`` (branch and bound) and ``cpsat`` (OR-Tools CP-SAT over scoring recipes,
proved by an admissible bound or finished by branch and bound). ``optimal`` is True only when
the engine proved the line best. ``solve`` never changes ``state``.
"""

from __future__ import annotations

from analysis.solver.common import SolveResult
from core.errors import KratonError
from core.state import GameState

ENGINES = ("cpsat", "model", "bnb", "brute")


def solve(state: GameState, engine: str = "cpsat", time_limit: float | None = None) -> SolveResult:
    """The best line for the player to move this turn (see the module docstring); ``bound``
    says how many points no line can exceed (``best`` when proved)."""
    r = _solve(state, engine, time_limit)
    if r.optimal:
        r.bound = r.best
    else:
        if r.bound is None:  # cpsat brings the one it computed; bnb and brute have none
            from analysis.solver.bound import upper_bound

            r.bound = upper_bound(state, state.turn.ap + state.token_bonus())
        r.bound = max(r.best, r.bound)
    return r


def _solve(state: GameState, engine: str, time_limit: float | None) -> SolveResult:
    if state.festival is not None:
        raise KratonError("a festival is being bid; the solver answers for a turn's actions (R30–R32)")
    if state.is_terminal():
        raise KratonError("the game is over (R40): there is no turn to solve")
    if engine == "brute":
        from analysis.solver.brute import solve_brute

        return solve_brute(state, time_limit)
    if engine == "bnb":
        from analysis.solver.bnb import solve_bnb

        return solve_bnb(state, time_limit)
    if engine == "model":
        from analysis.solver.model import solve_model

        return solve_model(state, time_limit)
    if engine == "cpsat":
        try:
            from analysis.solver.cpsat import solve_cpsat
        except ImportError:  # the CP-SAT engine not there yet: exact branch and bound
            from analysis.solver.bnb import solve_bnb

            return solve_bnb(state, time_limit)
        return solve_cpsat(state, time_limit)
    raise KratonError(f"unknown solver engine '{engine}' (one of {', '.join(ENGINES)})")


__all__ = ["ENGINES", "SolveResult", "solve"]
