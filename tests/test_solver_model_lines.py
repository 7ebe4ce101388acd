"""The turn model on busy Java-Centre boards (issue 21): every legal line is one of its solutions.

Asked for a bound on a busy 6–7 AP turn, CP-SAT gives none within minutes (``model_fits``), so
soundness there is checked line by line instead: the model with its board pinned to a legal
line's (``pin_line``: the line's tiles at their heights, its irrigations, nothing else) must
admit a solution worth at least the line's points within its AP. Where it does not, the model
restricts what a legal line does, and its bound would not be admissible. The lines are the
Java-Centre puzzles' best lines, and random playouts and the computer players' turns from
positions of the planner games (hypothesis)."""

from __future__ import annotations

import os
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analysis.search_players import GreedyPlayer, PlannerPlayer
from analysis.solver.common import Outcome, replay
from analysis.solver.model import (
    TurnModel,
    build_turn_model,
    line_board,
    model_bound,
    pin_line,
    player_turn,
)
from analysis.solver.ortools_cp import cp_model
from core.actions import Action, Tile, parse_actions
from core.errors import IllegalAction
from core.record import load_record, replay_file
from core.state import GameState
from puzzles.loader import GAMES, Puzzle, load_puzzles
from tests.test_solver_model import _playout

LIMIT = 120.0  # seconds for CP-SAT to complete a pinned board (1–8 s measured)


def _java_centre(full: bool) -> list[Puzzle]:
    """The Java-Centre puzzles: the full turns (6–7 AP), or the others (1 AP)."""
    out = []
    for pz in load_puzzles():
        s = pz.state
        if s.map.name == "java-centre" and (s.turn.ap + s.token_bonus() > 1) == full:
            out.append(pz)
    return out


def _solution_status(s: GameState, line: list[Action], o: Outcome) -> str:
    """CP-SAT's status for the model pinned to ``line``'s board, asked for its points or more
    within its AP (the model's AP are a lower bound too: the tie-break's proof reads them)."""
    tm = build_turn_model(s)
    pin_line(tm, s, line)
    return _admits(tm, o)


def _admits(tm: TurnModel, o: Outcome) -> str:
    """CP-SAT's status for ``tm`` asked for ``o``'s points or more within its AP."""
    tm.model.add(tm.points >= o.points)
    tm.model.add(tm.ap <= -o.neg_ap)
    tm.model.clear_objective()
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 2
    solver.parameters.max_time_in_seconds = LIMIT
    return str(solver.status_name(solver.solve(tm.model)))


def _check_line(s: GameState, line: list[Action], what: object) -> None:
    o = replay(s, line)[0]
    status = _solution_status(s, line, o)
    assert status in ("OPTIMAL", "FEASIBLE"), (what, [str(a) for a in line], o, status)


def _check_puzzle(pz: Puzzle) -> None:
    line = parse_actions(pz.line)
    assert replay(pz.state, line)[0].points == pz.best
    _check_line(pz.state, line, pz.id)


FULL_TURNS = _java_centre(True)


@pytest.mark.parametrize("pz", FULL_TURNS[::12], ids=lambda pz: pz.id)
def test_r10_r38_a_java_centre_full_turns_best_line_is_a_solution_of_the_turn_model(
        pz: Puzzle) -> None:
    """Every twelfth Java-Centre full-turn puzzle in CI; all of them under ``-m slow``."""
    _check_puzzle(pz)


@pytest.mark.slow
@pytest.mark.parametrize("pz", FULL_TURNS, ids=lambda pz: pz.id)
def test_r10_r38_every_java_centre_full_turns_best_line_is_a_solution_of_the_turn_model(
        pz: Puzzle) -> None:
    _check_puzzle(pz)


@pytest.mark.slow
@pytest.mark.parametrize("pz", _java_centre(False), ids=lambda pz: pz.id)
def test_r28_r38_the_model_bounds_every_one_ap_java_centre_puzzle(pz: Puzzle) -> None:
    """With 1 AP the model fits (``model_fits``): CP-SAT settles it and its bound is at least
    the puzzle's best."""
    b, _, _ = model_bound(pz.state, LIMIT)
    assert b.points is not None and b.points >= pz.best, (pz.id, b)


def test_a_line_tile_the_model_lacks_is_reported_when_pinned() -> None:
    """A line the model cannot express is reported, never silently dropped: with the variable
    of the line's first tile taken out of the model, pinning the line raises."""
    pz = next(pz for pz in FULL_TURNS if any(isinstance(a, Tile) for a in parse_actions(pz.line)))
    s, line = pz.state, parse_actions(pz.line)
    tm = build_turn_model(s)
    pin_line(tm, s, line)  # every variable is there: accepted
    tiles, _ = line_board(s, line)
    tile, j = tiles[0]
    index = next(i for i, p in enumerate(tm.board.placements) if p.tile.cells == tile.cells)
    del tm.board.y[index, j]
    with pytest.raises(ValueError, match=f"no variable for {tile} at height {j}"):
        pin_line(tm, s, line)


def _busy_position(game: int, at: int) -> GameState | None:
    """The start of the first turn after ``at`` actions of planner game ``game`` (a whole turn
    to play, 6–7 AP), None where the record ends first."""
    path = os.path.join(GAMES, f"planner-{game}.json")
    rec, _ = load_record(path)
    at = min(at, len(rec.actions))
    s = replay_file(path, at).state
    me = s.to_move
    for a in rec.actions[at:]:
        if s.to_move != me and s.festival is None:
            return s
        s.push(a)
    return None


def _lines(s: GameState, seed: int) -> list[list[Action]]:
    """Three legal lines of the turn: a random playout, and the turns the ``greedy`` and
    ``planner`` players play (they score more often); a closing festival an opponent could
    join (R32: no line of the solver's) is left off."""
    rng = random.Random(seed)
    found = [_playout(s, rng)]
    for kind in (GreedyPlayer, PlannerPlayer):
        p = kind(seed)
        p.fair = False
        found.append(player_turn(s, p))
    out = []
    for line in found:
        for cut in (line, line[:-1]):
            try:
                replay(s, cut)
            except IllegalAction:
                continue
            out.append(cut)
            break
    return out


def _check_lines(seed: int, which: slice) -> None:
    s = _busy_position(30 + seed % 40, 60 + seed % 300)
    if s is not None:
        for line in _lines(s, seed)[which]:
            _check_line(s, line, seed)


@settings(max_examples=3, deadline=None)
@given(st.integers(0, 10_000))
def test_r7_r38_lines_on_busy_boards_are_solutions_of_the_turn_model(seed: int) -> None:
    """Property: a legal line of a whole turn from a planner game's position (random, or a
    computer player's) is a solution of the turn model worth at least its points (one line
    per example in CI, three under ``-m slow``)."""
    _check_lines(seed, slice(seed % 3, seed % 3 + 1))


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000))
def test_r7_r38_many_lines_on_busy_boards_are_solutions_of_the_turn_model(seed: int) -> None:
    _check_lines(seed, slice(None))


def _check_recorded(game: int, at: int, text: str, points: int
                    ) -> tuple[GameState, list[Action]]:
    """Check the line ``text`` (worth ``points``) from the start of the turn after ``at``
    actions of planner game ``game``."""
    s = _busy_position(game, at)
    assert s is not None
    line = parse_actions(text)
    assert replay(s, line)[0].points == points
    _check_line(s, line, f"planner-{game} after {at} actions")
    return s, line


def _cut_city_line() -> tuple[GameState, list[Action]]:
    """planner-33 after 63 actions and the planner's 11-point turn there (below)."""
    s = _busy_position(33, 63)
    assert s is not None
    return s, parse_actions("tile G8v H7r; palace E7 10; tile G8v F7r G7r; tile D9v D10r E10r; "
                            "tile E10v F9r F10r; palace E10 6; move F8 G8; festival E10 M")


def test_r23_r30_a_festival_at_a_palace_built_in_a_part_cut_off_a_city_is_a_solution() -> None:
    """Regression (found by the property above, seed 3): the planner's turn on planner-33 after
    63 actions enlarges the city at E7 to 10 (G8 joins it), cuts E9, F8 and G8 off it with a
    rice cell on F7 (R23), grows that part with this turn's cells to six hexes, builds a
    palace of 6 there on the new cell E10, and holds a festival in it that no one can join
    (5 + 3 + 3 points). The model once had festivals only in the cities of the board now, and
    palaces only on their hexes: it allowed 10 points with this board."""
    s, line = _cut_city_line()
    assert replay(s, line)[0].points == 11
    _check_line(s, line, "planner-33 after 63 actions")


def test_r20_r30_a_festival_in_a_village_of_this_turns_cells_counts_its_developer() -> None:
    """Regression (found by the property above, seed 70): greedy's turn on planner-60 after 130
    actions encloses a pond (3), makes a village of two cells of this turn (C5, a rim hex, and
    D5), builds a palace of 2 there and holds a festival (1 + 1). D5 may also join another
    group, and the model counted a developer in the festival's city only on the terms of the
    first group it met there: it allowed 4 points with this board."""
    _check_recorded(60, 130, "tile C5v D4r D5r; move E9 G6; enter C5; tile D5v; move C5 D5; "
                    "token; palace C5 2; festival C5 MP", 5)


def test_r11_r28_a_palace_on_a_village_cell_of_this_turn_is_a_solution() -> None:
    """A palace may stand on a village cell laid this turn (E10 in the regression above): with
    every site the model offers on the hexes of the groups as they are ruled out, as where
    each of them held an opponent's developer, the line's 11 points are still a solution."""
    s, line = _cut_city_line()
    o = replay(s, line)[0]
    tm = build_turn_model(s)
    pin_line(tm, s, line)
    sites = [i for i, v in enumerate(tm.model.proto.variables) if "_site_" in v.name
             and not v.name.endswith("_site_on_a_joined_hex") and v.name.startswith(("part", "build"))]
    assert sites
    for i in sites:
        tm.model.add(tm.model.get_int_var_from_proto_index(i) == 0)
    assert _admits(tm, o) in ("OPTIMAL", "FEASIBLE")


def test_r15_r23_a_part_cut_off_one_city_may_join_another_and_grow_its_palace() -> None:
    """Regression (found by the property above, seed 441): on planner-31 after 201 actions,
    ``tile G5v F4r`` cuts G4 and H3 off the city at E6 (R23: a village again) and joins them,
    through the village cell G5, to the city at I6 (R15 allows a city and a village), which
    then has 8 hexes for a palace of 8 (4 points; 9 with the rest of the planner's turn). The
    model joined only the villages of the board as it is: it allowed 5 points with this
    board."""
    s, line = _check_recorded(31, 201, "tile G5v F4r; palace I6 8; enter L10; tile L9v K9r L8r; "
                              "palace L9 2; festival I6 P", 9)
    _check_line(s, line[:2], "planner-31 after 201 actions, its first two actions")
