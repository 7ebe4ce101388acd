"""The best turn as one CP-SAT model (issue 21): the model's own bound is the proof.

``build_turn_model`` states what the turn does to the board: tile placements with their
stacking (``model_board``), irrigations, where the mover's developers stand at each scoring
moment and what their walks cost (``model_reach``, ``model_keys``), ponds enclosed and who holds
their ring (``model_ponds``), palaces built or enlarged and festivals (``model_palaces``), card
draws, the token (R7) and the tile obligation (R8), and maximises the mover's points. Wherever
it cannot be exact it relaxes (each module says where), so every legal line is a solution worth
at least its points and CP-SAT's bound is admissible.

``solve_model`` takes lines from the recipe engine, the computer players' own turns and
``goals`` (palaces worked toward), improves them with ``polish``, lets the engine replay them
(it has the last word), and reports the best line proved when its points meet the model's
bound and its AP the fewest the model allows for them, with nothing handed to opponents (the
objective's tie-breaks). The model's own solutions are not turned into lines yet: on the busy
turns where that would matter the model is not built (``model_fits``), and asked there only
whether a line beats the best found, its answers lean on what it relaxes (benchmarks/README.md,
"Busy mid-game turns").
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from analysis.solver.common import (
    MINI_MAP_HEXES,
    Deadline,
    Outcome,
    Reporter,
    SolveResult,
    make_result,
    replay,
    shortened,
)
from core.actions import Action, End, Festival, Irrigate, Tile, Token, actions_text
from core.errors import IllegalAction
from core.state import GameState

if TYPE_CHECKING:
    from collections.abc import Callable

    from ortools.sat.python import cp_model

    from analysis.search_players import SearchPlayer
    from analysis.solver.bound_tiles import CityCheck
    from analysis.solver.bound_view import View
    from analysis.solver.helper import ChecksHelper
    from analysis.solver.model_board import Board, LinearExpr
    from analysis.solver.model_keys import Devs
    from analysis.solver.model_reach import Reach

# The model's modules and OR-Tools are imported where the model is built (``build_turn_model``,
# ``model_bound``): a turn the recipe engine proves never needs them, and OR-Tools' import is
# half of ``kraton solve`` on a puzzle (``choice.py``).


@dataclass
class TurnModel:
    """The CP-SAT model of one turn and the expressions the engine reads back."""

    model: cp_model.CpModel
    board: Board
    reach: Reach
    devs: Devs
    points: LinearExpr
    ap: LinearExpr
    token: cp_model.IntVar


def build_turn_model(s: GameState) -> TurnModel:
    """The whole turn of the player to move as one model (see the module docstring)."""
    from analysis.solver.model_board import build_board
    from analysis.solver.model_keys import build_devs
    from analysis.solver.model_palaces import festival_points, palace_anchors
    from analysis.solver.model_ponds import pond_points
    from analysis.solver.model_reach import build_reach
    from analysis.solver.ortools_cp import cp_model

    m = cp_model.CpModel()
    token = m.new_bool_var("token_spent")  # R7
    if not s.token_bonus():
        m.add(token == 0)
    budget = s.turn.ap + s.token_bonus()
    b = build_board(m, s, budget)
    r = build_reach(m, b)
    d = build_devs(m, b, r)
    ponds = pond_points(m, b, r, d)
    anchors = palace_anchors(m, b, r, d)
    fest, draws_ap = festival_points(m, b, r, d, anchors)
    ap = (b.tiles_ap + sum(b.irr.values()) + sum(d.cost) + draws_ap
          + sum(a.actions for a in anchors))
    m.add(ap <= s.turn.ap + token)
    if s.obligation_pending() and s.find_placement(budget) is not None:
        m.add(b.n_tiles >= 1)  # R8: a tile is owed and one fits
    points = ponds + sum(a.points for a in anchors) + fest
    m.maximize(points)
    return TurnModel(m, b, r, d, points, ap, token)


def line_board(s: GameState, line: list[Action]) -> tuple[list[tuple[Tile, int]], set[int]]:
    """The board decisions of ``line`` from ``s``: each tile with the height it is laid at (the
    level of its hexes then, R12), and the hexes it irrigates."""
    c = s.copy()
    tiles: list[tuple[Tile, int]] = []
    irrigated: set[int] = set()
    for a in line:
        if isinstance(a, Festival):
            break  # the last action (R30): it changes no hex
        if isinstance(a, Tile):
            tiles.append((a, c.level[a.hexes[0]]))
        elif isinstance(a, Irrigate):
            irrigated.add(a.hex)
        c.push(a)
    return tiles, irrigated


def pin_line(tm: TurnModel, s: GameState, line: list[Action]) -> None:
    """Fix the model's board to ``line``'s: its tiles at their heights, its irrigations, no
    other tile or irrigation. The model relaxes and never restricts, so a legal line's board
    admits a solution worth at least its points: on busy turns, where CP-SAT gives no bound,
    the tests check soundness so, line by line. Raises ValueError where the model has no
    variable for one of the line's tiles or irrigations (a line it would wrongly exclude)."""
    b = tm.board
    tiles, irrigated = line_board(s, line)
    ones: set[tuple[int, int]] = set()
    index = {p.tile.cells: i for i, p in enumerate(b.placements)}
    for tile, j in tiles:
        key = (index.get(tile.cells, -1), j)
        if key not in b.y:
            raise ValueError(f"the turn model has no variable for {tile} at height {j}")
        ones.add(key)
    missing = irrigated - b.irr.keys()
    if missing:
        raise ValueError(f"the turn model has no variable for irrigating {sorted(missing)}")
    decisions = [(v, key in ones) for key, v in b.y.items()]
    decisions += [(v, h in irrigated) for h, v in b.irr.items()]
    for v, on in decisions:
        tm.model.add(v == int(on))


@dataclass
class Bound:
    points: int | None  # no line scores more (None: the time ran out before CP-SAT had one)
    exact: bool  # CP-SAT proved the model's optimum (else its bound)
    model_best: int
    seconds: float


def model_bound(s: GameState, time_limit: float | None, workers: int = 2,
                log: bool = False) -> tuple[Bound, TurnModel, cp_model.CpSolver]:
    """Solve the turn model; its bound caps every legal line's points."""
    from analysis.solver.ortools_cp import cp_model

    tm = build_turn_model(s)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = workers
    if log:
        from analysis.solver.cpsat import log_to_stderr

        log_to_stderr(solver)
    if time_limit is not None:
        solver.parameters.max_time_in_seconds = max(0.05, time_limit)
    status = solver.solve(tm.model)
    if status == cp_model.OPTIMAL:
        best = round(solver.objective_value)
        return Bound(best, True, best, solver.wall_time), tm, solver
    if status == cp_model.FEASIBLE:
        return Bound(int(solver.best_objective_bound + 1e-6), False,
                     round(solver.objective_value), solver.wall_time), tm, solver
    # UNKNOWN: stopped before its first solution, so its bound is not one. INFEASIBLE cannot
    # happen to a sound model (every legal line is a solution): no bound either, never a crash;
    # the tests hold the model to a bound on every small position.
    return Bound(None, False, 0, solver.wall_time), tm, solver


def player_lines(s: GameState, dl: Deadline, seeds: int = 12,
                 enough: int | None = None) -> list[list[Action]]:
    """The turns the ``planner`` and ``greedy`` computer players would play here (as they do in
    a game: action by action, planning again when the board changes), planned on the full
    position like the solver: they see value in moves that prepare a palace or a ring, which a
    line scored by points alone does not. Their search is randomised, so it restarts with other
    seeds while 15 % of the time left lasts (the first of each always plays: a few tenths of a
    second, each search within its share of half the time left); without a limit, ``seeds`` of
    each. A line whose closing festival an opponent
    could join (which scores nothing here) is also offered without it. No restart once a line
    scores ``enough`` (the bound: only the tie-breaks are left, for branch and bound)."""
    from analysis.search_players import GreedyPlayer, PlannerPlayer

    kinds: tuple[type[SearchPlayer], ...] = (PlannerPlayer, GreedyPlayer)
    out: list[list[Action]] = []
    share = (None if dl.end is None
             else time.perf_counter() + PLAYERS_SHARE * (dl.end - time.perf_counter()))
    for seed in range(seeds if share is None else 10_000):
        for i, kind in enumerate(kinds):
            if seed and share is not None and time.perf_counter() > share:
                return out
            p = kind(seed)
            p.fair = False
            p.turns = 3 * seed  # another stream of the search's random sample
            left = dl.left()
            if left is not None:  # the first turns too keep to the limit (review's 2 s)
                p.budget_s = max(0.05, min(p.budget_s, PLAYERS_FIRST * left / (len(kinds) - i)))
            line = player_turn(s, p)
            out.append(line)
            if line and isinstance(line[-1], Festival):
                out.append(line[:-1])
            if enough is not None and any(_points(s, x) >= enough for x in out[-2:]):
                return out
    return out


def _points(s: GameState, line: list[Action]) -> int:
    """The points of ``line`` from ``s``, −1 where the engine refuses it."""
    try:
        return replay(s, line)[0].points
    except IllegalAction:
        return -1


def player_turn(s: GameState, p: SearchPlayer) -> list[Action]:
    """The mover's turn as ``p.choose`` plays it on a copy, up to its end or festival."""
    c = s.copy()
    me = c.to_move
    line: list[Action] = []
    for _ in range(40):
        a = p.choose(c)
        if isinstance(a, End):
            break
        c.push(a)
        line.append(a)
        if isinstance(a, Festival) or c.to_move != me:
            break
    return line


MODEL_HEXES = MINI_MAP_HEXES  # maps up to this size get the model at any AP
POLISH_STARTS = 3  # the best quick lines (players', goals') that ``polish`` starts from
TAIL_STARTS = 3  # and that ``tails`` searches the ends of, after the best line's
RECIPE_SHARE = 0.35  # of the limit for the recipe engine where the model does not fit
# Where the model fits, the recipe engine's branch and bound proves more than the model does
# with the same time (60 random mini-map positions, 2–4 AP, 10 s: 46 proved at 0.3 of the
# limit, 48 at 0.5, 50 at 0.7, 53 at 0.9, none lost; benchmarks/README.md, eighth session).
FIT_RECIPE_SHARE = 0.9
PLAYERS_SHARE = 0.15  # of the time left: the players' turns, restarted with other seeds
PLAYERS_FIRST = 0.5  # of the time left, at most, for each round of the players' searches
UNLIMITED_RECIPES = 10.0  # seconds of the recipe engine on a large map when there is no limit
EARLY_POLISH_SHARE = 0.2  # of the time left after them: ``polish`` from their lost festivals
GOALS_SHARE = 0.4  # of the time left after the players' turns and the first polish: ``goals``
POLISH_SHARE = 0.3  # of the time left then, where the line's ends are searched after it (``tails``)
MODEL_AP = 1  # larger maps get it with this many AP (measured: see ``model_fits``)
CHECK_GAP = 3  # the cities are checked (``bound_tiles``) where the best line is this close
CHECK_SHARE = 0.3  # of the time left then, for the checks


def model_fits(s: GameState) -> bool:
    """Whether CP-SAT can be expected to settle the model within seconds: on the mini maps, and
    on Java-Centre with 1 AP (the 1-AP puzzles: 0.1–3 s). A busy Java-Centre turn with 6–7 AP
    gives a model of ~40 000 variables that CP-SAT neither solves nor bounds usefully in 60 s
    (bound 30 against the hand-built bound's 28 on planner-38@137); with 2–3 AP on such a board
    it has no bound yet after 10 s (32@250, 38@137, 41@328). There the time goes to the
    searches."""
    return len(s.map.hexes) <= MODEL_HEXES or s.turn.ap + s.token_bonus() <= MODEL_AP


STEPS = frozenset({"recipes", "players", "checks", "goals", "polish", "tails", "search"})  # all


def solve_model(state: GameState, time_limit: float | None = None,
                report: Reporter | None = None, verbose: bool = False,
                steps: frozenset[str] = STEPS, processes: int = 1) -> SolveResult:
    """The recipe engine's line (it proves the puzzles in a fraction of a second), the players'
    turns, ``goals``, ``polish`` from them, then the model's bound, and the proof when they
    meet. ``steps`` leaves some out (``benchmarks/ablation.py`` measures what each earns); the
    bound of a busy turn comes from the recipe engine, or ``bound.upper_bound`` without it.
    With ``processes`` ≥ 2, a busy turn's cities are checked from the start in a second
    process (``helper.ChecksHelper``), and the bound uses the checks once they are back."""
    from analysis.solver.bnb import split_available

    dl = Deadline(time_limit)
    rep = report if report is not None else Reporter(None, "model")
    s = state.copy()
    fits = model_fits(s)
    helper = _helper(s, dl, fits, steps, processes)
    # Branch and bound's second process, started ahead where the search is the proof (the mini
    # maps); on a busy board a search runs only for the tie-breaks, late, and a process
    # started at once would take the core from the checks' helper (full-turn-67 1.3 → 1.5 s).
    two = processes >= 2 and split_available()
    if two and fits and "search" in steps:
        from analysis.solver.split import warm

        warm()
    try:
        return _solve_model(state, s, dl, rep, verbose, steps, fits, helper, processes)
    finally:
        if helper is not None:
            helper.stop()
        if two:  # started ahead here or once a line met the bound (``_to_the_search``)
            from analysis.solver.split import cool

            cool()


HELPER_LEAST = 3.0  # seconds of limit below which a busy turn's solve starts no helper


def _helper(s: GameState, dl: Deadline, fits: bool, steps: frozenset[str],
            processes: int) -> ChecksHelper | None:
    """The checks' helper process of a busy turn, where the solve may use a second process
    and has the time to start one (``HELPER_LEAST``); it stops at 80 % of the time left."""
    left = dl.left()
    if fits or processes < 2 or "checks" not in steps or (left is not None and left < HELPER_LEAST):
        return None
    from analysis.solver.helper import ChecksHelper

    try:
        return ChecksHelper(s, None if left is None else 0.8 * left)
    except OSError:  # no process to be had (a limit on processes, no interpreter): one it is
        return None


def _solve_model(state: GameState, s: GameState, dl: Deadline, rep: Reporter, verbose: bool,
                 steps: frozenset[str], fits: bool, helper: ChecksHelper | None,
                 processes: int) -> SolveResult:
    """``solve_model``'s work, ``helper`` (if any) stopped by the caller; branch and bound
    takes the second process where no checks' helper has it (``split.py``)."""
    from analysis.solver.bnb import meets_bound
    from analysis.solver.cpsat import solve_cpsat

    if "recipes" in steps:
        limit = dl.limit(FIT_RECIPE_SHARE if fits else RECIPE_SHARE)
        if limit is None and not fits:
            limit = UNLIMITED_RECIPES  # no limit: the quick searches first, the proof after
        first = solve_cpsat(s, limit, report=rep, verbose=verbose, quick_beam=False,
                            search=fits, processes=processes)
    else:
        first = _no_recipes(s)
    if first.optimal:
        first.engine, first.seconds, first.bound = "model", dl.elapsed(), first.best
        first.notes.append("proved by the recipe engine; the model was not needed")
        return first
    best, first.bound = _quick_lines(s, dl, rep, (replay(s, first.line)[0], first.line), fits,
                                     steps, first.bound, helper)
    if not fits:
        best = shortened(s, best)
        met = first.bound is not None and meets_bound(s, best[0], first.bound)
        proved_by = "bound" if met else None
        # No limit, or only the tie-breaks left to prove (branch and bound then cuts every
        # branch whose bound is below the best's points): search on for the proof.
        tie_breaks = first.bound is not None and best[0].points >= first.bound
        if not met and (dl.end is None or tie_breaks and not dl.over()) and "search" in steps:
            if tie_breaks:
                _to_the_search(helper)
            best, optimal = _search_on(s, dl.limit(0.95), best, rep, first.bound,
                                       1 if helper is not None and not helper.over else processes)
            proved_by = "search" if optimal else None
        r = make_result(state, best[1], proved_by is not None, "model", dl.elapsed(),
                        notes=["model skipped (a full turn on a large map; see model_fits)",
                               f"recipe engine's bound {first.bound}"])
        r.bound = None if first.bound is None else max(r.best, first.bound)
        r.proved_by = proved_by
        return r
    bound, tm, _ = model_bound(s, dl.limit(0.7), log=verbose)
    known = [x for x in (bound.points, first.bound) if x is not None]
    ub = min(known) if known else None
    rep(bound=ub)
    proved = _proved(s, tm, best[0], bound, ub, dl)
    by = "model" if proved else None
    if not proved and not dl.over() and "search" in steps:  # the rest: branch and bound
        best, optimal = _search_on(s, dl.limit(0.9), best, rep, first.bound, processes)
        by = "search" if optimal else None
        proved = optimal or _proved(s, tm, best[0], bound, ub, dl)
        by = by or ("model" if proved else None)
    r = make_result(state, best[1], proved, "model", dl.elapsed(),
                    notes=[(f"model bound {bound.points} ({'exact' if bound.exact else 'bound'}), "
                            f"recipe engine's bound {first.bound}")])
    r.bound = None if ub is None else max(r.best, ub)
    r.proved_by = by
    return r


def _search_on(s: GameState, limit: float | None, best: tuple[Outcome, list[Action]],
               rep: Reporter, bound: int | None, processes: int = 1
               ) -> tuple[tuple[Outcome, list[Action]], bool]:
    """Branch and bound from the best line within ``limit`` (``bound``: the recipe engine's,
    the root's): the better line, and whether the search finished (a proof)."""
    from analysis.solver.bnb import solve_bnb

    r = solve_bnb(s, limit, incumbent=best, engine="model", report=rep, bound=bound,
                  processes=processes)
    o = replay(s, r.line)[0]
    return ((o, r.line) if o > best[0] else best), r.optimal


def _no_recipes(s: GameState) -> SolveResult:
    """In place of the recipe engine's result: the hand-built bound and a first legal line
    (the empty turn, or one tile where one is owed, R8)."""
    from analysis.solver.bound import upper_bound

    line: list[Action] = []
    if s.obligation_pending():
        tile = s.find_placement(s.turn.ap + s.token_bonus())
        if tile is not None:
            line = [Token(), tile] if not s.is_legal(tile) else [tile]
    r = make_result(s, line, False, "model", 0.0)
    r.bound = upper_bound(s, s.turn.ap + s.token_bonus())
    return r


def _quick_lines(s: GameState, dl: Deadline, rep: Reporter, best: tuple[Outcome, list[Action]],
                 fits: bool, steps: frozenset[str] = STEPS, ub: int | None = None,
                 helper: ChecksHelper | None = None
                 ) -> tuple[tuple[Outcome, list[Action]], int | None]:
    """The players' turns; ``polish`` from those whose closing festival an opponent could join
    (at most 20 % of the time left, ``EARLY_POLISH_SHARE``: one tile elsewhere may cut him out,
    and found before ``goals`` such a line shows seconds sooner, planner-38@137's 10 points at
    ~4.5 s instead of ~7 s); the palaces ``goals`` works toward (also from where the best lines
    end); then ``polish`` from the best few not polished yet (``best``, the recipe engine's,
    among them): one action away from better lines. Without the model, 30 % of the time left
    (``POLISH_SHARE``), then ``tails``: the
    best line's last 2–3 AP searched exactly, then those of the next-best few
    (``TAIL_STARTS``). A line already at the bound ``ub`` is not polished, and one that reaches
    it stops ``polish`` and ``tails`` (``_until``): only the tie-breaks are left, and branch and
    bound settles those exactly. Where the players' best line comes within ``CHECK_GAP`` of
    the bound, the cities are checked (``checked_bound``) and the searches aim at the bound
    cut down to them; with a ``helper`` checking them in a process of its own, its checks
    are taken up as soon as they are back, whatever the gap. Returns the best line and the
    bound."""
    from analysis.solver.goals import goal_lines

    checks = _Checks(s, dl, rep, steps, ub, helper)
    failing: list[list[Action]] = []
    valid: list[tuple[Outcome, list[Action]]] = [best]
    for line in player_lines(s, dl, enough=checks.ub) if "players" in steps else []:
        try:
            valid.append((replay(s, line)[0], line))
        except IllegalAction:
            failing.append(line)
    valid.sort(key=lambda x: x[0], reverse=True)
    rep(valid[0][0].points, valid[0][1])
    checks(valid[0][0].points)
    polished: set[str] = set()  # lines polish ended at: no neighbour is better
    # ``failing``: their festival an opponent could join (R32), so they do not replay
    if "polish" in steps and failing and (checks.ub is None or valid[0][0].points < checks.ub):
        pdl = dl.share(EARLY_POLISH_SHARE)
        got = _polished(s, failing, pdl, valid[0], _until(pdl, checks.ub, rep))
        if got is not None and got[0] > valid[0][0]:
            valid.append(got)
            valid.sort(key=lambda x: x[0], reverse=True)
            if not pdl.over():
                polished.add(actions_text(got[1]))
        checks(valid[0][0].points)
    if "goals" in steps:
        after = [v[1] for v in valid[:POLISH_STARTS] if v[1]]
        valid += goal_lines(s, dl.share(GOALS_SHARE), after=after)[:POLISH_STARTS]
        valid.sort(key=lambda x: x[0], reverse=True)
        rep(valid[0][0].points, valid[0][1])
        checks(valid[0][0].points)
    if checks.ub is not None and valid[0][0].points >= checks.ub:
        return valid[0], checks.ub
    best = valid[0]
    starts = [v[1] for v in valid[:POLISH_STARTS] if actions_text(v[1]) not in polished]
    if "polish" in steps and starts:
        share = 0.4 if fits else (POLISH_SHARE if "tails" in steps else 0.95)
        pdl = dl.share(share)
        best = _polished(s, starts, pdl, best, _until(pdl, checks.ub, rep)) or best
        checks(best[0].points)
    if "tails" in steps and not fits and (checks.ub is None or best[0].points < checks.ub):
        from analysis.solver.tails import tail_lines

        checks(best[0].points)
        others = _distinct(valid, best[1], TAIL_STARTS)
        tdl = dl.share(0.95)
        best = tail_lines(s, best, tdl, _until(tdl, checks.ub, rep), others)
    left = dl.left()
    if helper is not None and (left is None or left > HELPER_BOUND_S):  # the checks' last chance
        checks(best[0].points, wait=None if left is None else left - HELPER_BOUND_S)
    return best, checks.ub


class _Checks:
    """The cities' checks for ``_quick_lines``, and the root's bound ``ub`` they cut: a
    ``helper``'s, taken up once back (``__call__`` waiting up to ``wait`` seconds, None: until
    they are), or, with none (or one that failed), this process's own once the best line comes
    within ``CHECK_GAP`` of the bound (``checked_bound``)."""

    def __init__(self, s: GameState, dl: Deadline, rep: Reporter, steps: frozenset[str],
                 ub: int | None, helper: ChecksHelper | None) -> None:
        self.s, self.dl, self.rep, self.helper = s, dl, rep, helper
        self.ub = ub
        self.done = "checks" not in steps

    def __call__(self, points: int, wait: float | None = 0.0) -> None:
        if self.ub is not None and self.ub <= points:
            self._met()  # only the tie-breaks are left: branch and bound's
            return
        if self.done or self.ub is None:
            return
        helper = self.helper
        if helper is not None and not helper.over:
            got = helper.result(wait)
            if got is not None:
                self._cut(helper_bound(self.s, self.ub, got))
            if not helper.over or got is not None:
                return  # at work, or done; one that failed leaves the checks to this process
        if self.ub - points <= CHECK_GAP:
            self._cut(checked_bound(self.s, self.ub, self.dl.share(CHECK_SHARE)))

    def _met(self) -> None:
        helper, self.helper = self.helper, None
        _to_the_search(helper)

    def _cut(self, ub: int) -> None:
        self.done = True
        self.ub = ub
        self.rep(bound=ub)


def _to_the_search(helper: ChecksHelper | None) -> None:
    """A line meets the bound: the checks (which cut points) are not needed, only branch and
    bound's tie-breaks are left; the checks' core goes to that search, whose second process is
    started now (``split.warm``), ready when it begins (full-turn-78)."""
    from analysis.solver.bnb import split_available

    if helper is not None and not helper.over:
        helper.stop()
        if split_available():
            from analysis.solver.split import warm

            warm()


HELPER_BOUND_S = 0.7  # kept for the bound worked out again with the helper's checks (busy: ≤ 0.65 s)


def helper_bound(s: GameState, ub: int, checks: dict[int, CityCheck]) -> int:
    """The root's bound ``ub`` with the cities' checks a helper did (``helper.py``)."""
    from analysis.solver.bound import upper_bound
    from analysis.solver.bound_tiles import remember

    remember(s, checks)
    return min(ub, upper_bound(s, s.turn.ap + s.token_bonus())) if checks else ub


def checked_bound(s: GameState, ub: int, dl: Deadline) -> int:
    """The root's bound ``ub`` with the cities checked (``bound_tiles``: what one or two
    tiles can do there, by the engine), those whose options claim most first, while ``dl``
    lasts; worked out again only where a check cut an option. The checks cost 0.1–5 s on a
    busy board, so the solver spends them only where the players' line is near the bound."""
    from analysis.solver.bound import checks_cut, checks_worth, upper_bound
    from analysis.solver.bound_tiles import check_cities

    budget = s.turn.ap + s.token_bonus()
    views: dict[int, View] = {}  # the palace options before the checks, for ``checks_cut``
    done = check_cities(s, checks_worth(s, budget, views), dl)
    if done == 0 or not checks_cut(s, budget, views):
        return ub
    return min(ub, upper_bound(s, budget))


def _until(dl: Deadline, ub: int | None, rep: Reporter) -> Callable[[Outcome, list[Action]], None]:
    """A callback for each better line a search finds: it reports the line, and stops the
    search (its deadline ``dl``) at a line that meets the bound ``ub``, so that the time left
    goes to branch and bound, which settles the tie-breaks (fewer AP, no token)."""
    def heard(o: Outcome, line: list[Action]) -> None:
        rep(o.points, line)
        if ub is not None and o.points >= ub:
            dl.stop()

    return heard


def _distinct(lines: list[tuple[Outcome, list[Action]]], but: list[Action], n: int
              ) -> list[tuple[Outcome, list[Action]]]:
    """The first ``n`` of ``lines`` that differ from each other and from ``but`` (the players'
    restarts often play the same turn)."""
    seen = {actions_text(but)}
    out: list[tuple[Outcome, list[Action]]] = []
    for o, line in lines:
        key = actions_text(line)
        if key not in seen and len(out) < n:
            seen.add(key)
            out.append((o, line))
    return out


def _polished(s: GameState, starts: list[list[Action]], dl: Deadline,
              best: tuple[Outcome, list[Action]] | None,
              heard: Callable[[Outcome, list[Action]], None]) -> tuple[Outcome, list[Action]] | None:
    """``polish`` the lines within ``dl``; ``heard`` hears of each better line as it is
    found. Polish never returns a line worse than ``best``."""
    from analysis.solver.polish import polish

    return polish(s, starts, dl, best, better=heard)


def _proved(s: GameState, tm: TurnModel, o: Outcome, bound: Bound, ub: int | None,
            dl: Deadline) -> bool:
    """Points at the bound, nothing handed, and the fewest AP the model allows (tie-breaks)."""
    return (ub is not None and bound.points is not None and o.points >= ub
            and o.neg_handed == 0 and _fewest_ap(s, tm, o, dl))


def _fewest_ap(s: GameState, tm: TurnModel, o: Outcome, dl: Deadline) -> bool:
    """The objective's last tie-breaks: no line with these points spends fewer AP, or as few
    without the token (R7). Solved on the same model with the points fixed."""
    from analysis.solver.ortools_cp import cp_model

    m = tm.model
    m.clear_objective()
    m.add(tm.points >= o.points)
    m.minimize(2 * tm.ap + tm.token)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 2
    left = dl.limit()
    if left is not None:
        solver.parameters.max_time_in_seconds = left
    status = solver.solve(m)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE, cp_model.UNKNOWN):
        return False  # INFEASIBLE cannot be: the line itself is a solution
    return 2 * -o.neg_ap + -o.neg_token <= int(solver.best_objective_bound + 1e-6)


__all__ = ["STEPS", "Bound", "TurnModel", "build_turn_model", "line_board", "model_bound", "pin_line",
           "player_lines", "player_turn", "solve_model"]
