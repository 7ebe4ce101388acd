"""The recipe engine (``cpsat``): the engine derives scoring recipes, the best choice of them
within the AP budget is searched (``choice.py`` in Python; CP-SAT's model of the same choice,
``_model``, past its node cap), the engine replays the chosen line and has the last word.

The loop: choose the recipes; replay them (tile recipes first, R8) on a copy of the state
(``common.replay``); a replay that the engine refuses or that earns other points than the choice
predicted gets a no-good cut (that set of recipes together is forbidden) and the choice is made
again. The best replayed line, stripped of detours (``common.simplify``), is the incumbent.
Where it falls short of the root's bound, the turn search the computer players use
(``beam.py``, a fifth of the time limit and 2 s at most) offers another line first (the model
engine leaves that out on the small positions where it builds its own model).

Exactness: the recipe derivation is not complete for every position (lines can score through
longer chains of actions than a recipe holds). So the incumbent is reported optimal only when
(a) it meets the admissible bound of ``bound.upper_bound`` — the same points, no points handed
and the fewest AP that bound allows for those points — or (b) branch and bound, seeded with the
incumbent, finishes its exact search. Otherwise ``optimal`` is False.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

from analysis.solver.bnb import leaf_options, meets_bound, solve_bnb
from analysis.solver.bound import upper_bound
from analysis.solver.bound_view import View
from analysis.solver.choice import Choice, Filler, TooMany, choose, value
from analysis.solver.common import (
    ZERO,
    Deadline,
    Outcome,
    Reporter,
    SolveResult,
    make_result,
    may_end,
    replay,
    shortened,
)
from analysis.solver.recipes import Recipe, derive, pond_recipes
from core.actions import Action, End, Festival, Token
from core.errors import IllegalAction
from core.state import GameState

if TYPE_CHECKING:
    from ortools.sat.python.cp_model import CpModel, CpSolver, IntVar

MAX_ROUNDS = 20


def _cp_model() -> Any:
    """OR-Tools' ``cp_model``, imported when first needed (``choice.py``: a puzzle's choice
    never needs it, and the import is half of ``kraton solve`` on one)."""
    from analysis.solver.ortools_cp import cp_model as module

    return module


def _model(recipes: list[Recipe], ap: int, token: bool, fillers: list[Filler],
           owed: bool, supply: list[int], cuts: list[list[int]]) -> CpModel:
    m = _cp_model().CpModel()
    n = len(recipes)
    x = [m.new_bool_var(f"r{i}") for i in range(n)]
    f = [m.new_bool_var(f"f{j}") for j in range(len(fillers))]
    t = m.new_bool_var("token")
    if not token:
        m.add(t == 0)
    # AP budget (R7): the token adds one.
    m.add(sum(r.cost * x[i] for i, r in enumerate(recipes))
          + sum(c * f[j] for j, (_, c, _) in enumerate(fillers)) <= ap + t)
    # One recipe per opportunity (R29: a palace changes once a turn; a pond is scored once).
    by_opp: dict[str, list[int]] = {}
    for i, r in enumerate(recipes):
        by_opp.setdefault(r.opportunity, []).append(i)
    for idx in by_opp.values():
        m.add_at_most_one(x[i] for i in idx)
    # Palace pieces (R28): no more of a value than the supply holds.
    for v in (2, 4, 6, 8, 10):
        idx = [i for i, r in enumerate(recipes) if r.piece == v]
        if len(idx) > supply[v]:
            m.add(sum(x[i] for i in idx) <= supply[v])
    # Interactions: recipes whose footprints overlap are not combined — at most one chosen
    # recipe (or filler) per hex, which is the same as forbidding every overlapping pair.
    by_hex: dict[int, list[IntVar]] = {}
    for i, r in enumerate(recipes):
        for h in r.footprint:
            by_hex.setdefault(h, []).append(x[i])
    for j, (_, _, fp) in enumerate(fillers):
        for h in fp:
            by_hex.setdefault(h, []).append(f[j])
    for lits in by_hex.values():
        if len(lits) > 1:
            m.add_at_most_one(lits)
    # R8: a tile is owed: some chosen recipe places one, or a filler tile does.
    if owed:
        m.add(sum(x[i] for i, r in enumerate(recipes) if r.has_tile) + sum(f) >= 1)
    m.add_at_most_one(f)
    for cut in cuts:
        m.add_bool_or([x[i].Not() for i in cut])
    # No order in the model: chosen recipes have disjoint footprints, so any order replays the
    # same, except that a tile owed under R8 goes first (the replay puts tile recipes first).
    # Lexicographic objective: points, then fewer handed, then fewer AP, then no token.
    pts = sum(r.points * x[i] for i, r in enumerate(recipes))
    handed = sum(r.handed * x[i] for i, r in enumerate(recipes))
    cost = sum(r.cost * x[i] for i, r in enumerate(recipes)) + sum(
        c * f[j] for j, (_, c, _) in enumerate(fillers))
    m.maximize(pts * 100000 - handed * 1000 - cost * 10 - t)
    m._vars = (x, f, t)  # type: ignore[attr-defined]
    return m


def _cpsat_choice(recipes: list[Recipe], ap: int, token: bool, fillers: list[Filler], owed: bool,
                  supply: list[int], cuts: list[list[int]], dl: Deadline,
                  verbose: bool) -> Choice | None:
    """The choice of ``choice.choose``, by CP-SAT: for more recipes than that search takes on."""
    cp = _cp_model()
    m = _model(recipes, ap, token, fillers, owed, supply, cuts)
    solver = cp.CpSolver()
    solver.parameters.num_workers = 1
    if verbose:
        log_to_stderr(solver)
    limit = dl.limit()
    if limit is not None:
        solver.parameters.max_time_in_seconds = limit
    status = solver.solve(m)
    if status not in (cp.OPTIMAL, cp.FEASIBLE):
        return None
    x, f, t = m._vars  # type: ignore[attr-defined]
    chosen = tuple(i for i in range(len(recipes)) if solver.value(x[i]))
    filler = next((j for j in range(len(fillers)) if solver.value(f[j])), None)
    token_spent = bool(solver.value(t))
    return Choice(chosen, filler, token_spent, value(recipes, fillers, chosen, filler, token_spent))


def _fillers(s: GameState, budget: int, limit: int = 12) -> list[Filler]:
    """Cheap tile placements to meet the obligation (R8) when no scoring recipe places one."""
    from core.movegen import tile_placements

    out: list[Filler] = []
    for tile, cost in tile_placements(s, budget):
        if s.is_legal(tile):
            around = set(tile.hexes)
            for h in tile.hexes:
                around.update(s.map.nbrs[h])
            out.append((tile, cost, frozenset(around)))
            if len(out) >= limit:
                break
    return out


def _finish(s: GameState, line: list[Action]) -> tuple[Outcome, list[Action]] | None:
    """Replay ``line`` and add the best way to end the turn (draws + festival, R30–R36)."""
    try:
        out, _ = replay(s, line)
    except IllegalAction:
        return None
    if any(isinstance(a, Festival) for a in line):
        return out, list(line)  # the festival ended the turn (R30)
    c = s.copy()
    for a in line:
        c.push(a)
    best = ZERO
    tail: tuple[Action, ...] = ()
    if may_end(c):
        for o, t in leaf_options(c):
            if o > best:
                best, tail = o, t
    return out + best, [*line, *tail]


def _as_line(s: GameState, pond: Recipe) -> list[Action]:
    """A pond's recipe as played alone: after the token where it costs more than the AP (R7)."""
    line = list(pond.actions)
    return [Token(), *line] if pond.cost > s.turn.ap else line


def _incumbent(s: GameState, best: tuple[Outcome, list[Action]] | None, ub: int,
               views: dict[int, View] | None = None) -> tuple[tuple[Outcome, list[Action]], bool]:
    """The best line without its detours (``common.shortened``), and whether it meets the
    root bound ``ub``."""
    inc = shortened(s, best if best is not None else (ZERO, []))
    return inc, meets_bound(s, inc[0], ub, views)


def _beam_line(s: GameState, seconds: float) -> list[Action]:
    """A quick incumbent from the turn search the computer players use (``beam``), scored by
    this solver's objective; the replay decides what it is worth."""
    from analysis.beam import festival_decision, search_turn

    me = s.to_move
    base = s.players[me].score
    others = sum(p.score for i, p in enumerate(s.players) if i != me)
    ap = s.turn.ap

    def score(x: GameState) -> float:
        handed = sum(p.score for i, p in enumerate(x.players) if i != me) - others
        return 1e4 * (x.players[me].score - base) - 100.0 * handed - (ap - x.turn.ap)

    plan = search_turn(s, score, festival_decision, width=3, tile_cap=40, budget_s=seconds)
    return [a for a in plan.line if not isinstance(a, End)]


def _better(a: tuple[Outcome, list[Action]] | None, b: tuple[Outcome, list[Action]] | None
            ) -> tuple[Outcome, list[Action]] | None:
    if a is None:
        return b
    if b is None:
        return a
    return b if b[0] > a[0] else a


def _tell(report: Reporter, best: tuple[Outcome, list[Action]] | None) -> None:
    if best is not None:
        report(best[0].points, best[1])


def log_to_stderr(solver: CpSolver) -> None:
    """CP-SAT's search log on stderr (``--verbose``): stdout may be carrying JSON."""
    solver.parameters.log_search_progress = True
    solver.parameters.log_to_stdout = False
    solver.log_callback = lambda line: print(line, file=sys.stderr, flush=True)


def _recipe_rounds(s: GameState, recipes: list[Recipe], token: bool,
                   best: tuple[Outcome, list[Action]] | None, dl: Deadline, report: Reporter,
                   verbose: bool) -> tuple[tuple[Outcome, list[Action]] | None, str]:
    """Choose recipes, replay them, cut the set that fell short, and choose again (at most
    ``MAX_ROUNDS``): the best line replayed, and a note on the rounds."""
    ap = s.turn.ap
    budget = ap + int(token)
    owed = s.obligation_pending() and s.find_placement(budget) is not None
    fillers = _fillers(s, budget) if owed else []
    cuts: list[list[int]] = []
    rounds = 0
    by_cpsat = 0
    while rounds < MAX_ROUNDS and not dl.expired():
        rounds += 1
        try:
            pick = choose(recipes, ap, token, fillers, owed, s.palace_supply, cuts)
            if verbose:
                print(f"recipe choice, round {rounds}: {len(recipes)} recipes searched in Python "
                      "(choice.py), CP-SAT not needed", file=sys.stderr, flush=True)
        except TooMany:
            by_cpsat += 1
            pick = _cpsat_choice(recipes, ap, token, fillers, owed, s.palace_supply, cuts, dl,
                                 verbose)
        if pick is None:
            break
        chosen = sorted(pick.recipes, key=lambda i: (not recipes[i].has_tile, i))
        predicted = sum(recipes[i].points for i in chosen)
        line: list[Action] = [Token()] if pick.token else []
        if pick.filler is not None:
            line.append(fillers[pick.filler][0])
        for i in chosen:
            line.extend(recipes[i].actions)
        best = _better(best, _finish(s, line))
        _tell(report, best)
        if best is not None and predicted <= best[0].points:
            break  # the model cannot promise more than the incumbent
        if not chosen:
            break
        cuts.append(chosen)
    return best, (f"{len(recipes)} recipes, {rounds} round(s) ({by_cpsat} chosen by CP-SAT), "
                  f"{len(cuts)} cut(s)")


def solve_cpsat(state: GameState, time_limit: float | None = None, report: Reporter | None = None,
                verbose: bool = False, quick_beam: bool = True, search: bool = True,
                processes: int = 1) -> SolveResult:
    """``report`` hears of each better line and of the root bound (issue 21); ``verbose``
    shows CP-SAT's search log on stderr (stdout may be carrying JSON). Where the recipes' line
    does not meet the root bound, the players' beam search offers a quick line before branch
    and bound; ``quick_beam=False`` leaves it out: the model engine does, as it runs the players'
    turns itself next (the beam line cost more than the rest of a puzzle's solve on the mini
    maps, benchmarks/README.md, "Puzzles in-process"; on full-turn-78 0.4 s of 1.6, for no line).
    ``search=False`` stops short of branch and bound where the bound is not met: the answer is
    then the best line, unproved, with the bound (the model engine on a busy full turn, where
    branch and bound finishes nothing in the time and its own searches come next).
    ``processes`` ≥ 2: branch and bound in two processes (``split.py``)."""
    dl = Deadline(time_limit)
    report = report or Reporter(None, "cpsat")
    s = state.copy()
    token = s.festival is None and s.is_legal(Token())
    best: tuple[Outcome, list[Action]] | None = _finish(s, [])
    _tell(report, best)
    budget = s.turn.ap + int(token)
    # The quick pond lines (ponds as they are, held and covered) first, then the root's bound:
    # where one of them meets it (a puzzle's full turn, often) the grown ponds, the other
    # recipes, their choice and OR-Tools' import (0.4 s of a process) are not needed. The
    # bound's time is not taken from the lines (``extend``): on a slow or busy machine working
    # it out before all of them left the pond lines too little of the time (a 30-point puzzle
    # answered 4), so it came after them until now. The recipes are only a source of lines: on
    # a busy board deriving them all could take the whole limit and leave CP-SAT and the proof
    # none, so they get half of what is left.
    ponds = pond_recipes(s, budget, dl.share(0.5), grown=False)
    for pond in ponds:  # each alone: the line of a pond is often the best line itself
        best = _better(best, _finish(s, _as_line(s, pond)))
    _tell(report, best)
    views: dict[int, View] = {}  # the root's bound and its tie-breaks share their work
    started = dl.elapsed()
    ub = upper_bound(s, budget, views=views)
    dl.extend(dl.elapsed() - started)
    report(bound=ub)
    inc, met = _incumbent(s, best, ub, views)
    met = met and best is not None  # no line yet where a tile is owed (R8): the empty one is not
    notes = [f"{len(ponds)} pond lines"]
    if not met:
        share = dl.share(0.5)

        def meets(pond: Recipe) -> bool:
            """Each grown pond's line replayed as it comes: one that meets the bound ends the
            search for them (full-turn-77: the 16th of 20, half their time) and the rest."""
            nonlocal best, inc, met
            best = _better(best, _finish(s, _as_line(s, pond)))
            if best is None or best[0].points < ub:
                return False
            _tell(report, best)
            inc, met = _incumbent(s, best, ub, views)
            return met

        ponds += pond_recipes(s, budget, share, held=False, enough=meets)
        if met:
            notes = [f"{len(ponds)} pond lines"]
        else:
            recipes = derive(s, budget, share, closing=ponds)
            best, note = _recipe_rounds(s, recipes, token, best, dl, report, verbose)
            notes = [note]
            inc, met = _incumbent(s, best, ub, views)
    if quick_beam and not met:
        # The recipes' line falls short of the bound: the players' beam search may find a
        # better one before branch and bound. Only now: on the puzzles the recipes' line meets
        # the bound, and the beam search was most of their solve (full turns: median 0.53 ->
        # 0.07 s without it; benchmarks/README.md, "Puzzles in-process").
        quick = 0.5 if time_limit is None else max(0.05, min(2.0, time_limit / 5,
                                                             time_limit - dl.elapsed()))
        beam = _beam_line(s, quick)
        for quick_line in (beam, beam[:-1] if beam and isinstance(beam[-1], Festival) else []):
            if quick_line:
                best = _better(best, _finish(s, quick_line))
        _tell(report, best)
        inc, met = _incumbent(s, best, ub, views)
    if met:
        notes.append(f"proved by the bound ({ub})")
        r = make_result(state, inc[1], True, "cpsat", dl.elapsed(), notes=notes)
        r.proved_by = "bound"
        return r
    if not search:
        r = make_result(state, inc[1], False, "cpsat", dl.elapsed(), notes=notes)
        r.bound = ub
        return r
    # Keep a little of the limit for tidying the line (simplify + replay, make_result).
    left = None if dl.end is None else max(0.0, dl.end - dl.start - dl.elapsed()
                                           - min(0.5, 0.15 * (dl.end - dl.start)))
    r = solve_bnb(state, left, incumbent=inc if best is not None else None, engine="cpsat",
                  report=report, bound=ub, processes=processes)
    r.seconds = dl.elapsed()
    r.notes = notes + [f"bound {ub} not met: finished by branch and bound ({r.nodes} nodes)"]
    r.bound = ub  # the root's bound, computed above; ``solve`` need not compute it again
    return r
