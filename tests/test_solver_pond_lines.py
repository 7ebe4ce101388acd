"""Whole-turn pond enclosures (issue 5, R37, R38): on a busy Java-Centre board the biggest score
is often a pond that takes five or six tiles and a developer's walk to close. The one- and
two-step recipes never reach it; ``pond_lines`` does, and the CP-SAT engine must report it.

The two positions are turns of a seeded game of four ``planner`` players (seed 30, turns 33
and 27; ``puzzles.mine.planner_turns``), kept as files because those games depend on the
machine's speed.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from analysis.solver import solve
from analysis.solver.common import Deadline, replay
from analysis.solver.pond_lines import as_played, pond_lines
from core.actions import Action, Irrigate, Tile, Token
from core.groups import all_ponds, pond_ring
from core.position import load_position, position_to_dict
from core.state import GameState

HERE = os.path.join(os.path.dirname(__file__), "positions")


def load(name: str) -> GameState:
    return load_position(os.path.join(HERE, name))


def open_ponds(s: GameState) -> int:
    """Ponds with a bare neighbour left (R38: not enclosed yet)."""
    return sum(1 for p in all_ponds(s.map.hexes, s.irrigated, s.map.nbrs)
               if any(s.level[h] == 0 for h in pond_ring(p, s.map.nbrs)))


def test_r24_r38_a_walk_onto_the_ring_then_five_tiles_enclose_thirteen_spaces() -> None:
    """Yellow does not hold the ring of the 13-space pond (Green does, R25): one move wins it,
    then five tiles cover its six bare neighbours and the last one scores 39 (R38)."""
    s = load("java-centre-open-pond-13.json")
    assert s.players[s.to_move].name == "Yellow" and s.turn.ap == 6
    before = position_to_dict(s)
    r = solve(s, "cpsat", time_limit=8)
    assert position_to_dict(s) == before, "solve must not change its input"
    out, steps = replay(s, r.line)
    assert out.points == r.best >= 39
    assert max(steps) >= 39, "one step, the enclosing tile, scores the whole pond"
    assert sum(isinstance(a, Tile) for a in r.line) >= 5
    c = s.copy()
    for a in r.line:
        c.push(a)
    assert open_ponds(c) == open_ponds(s) - 1


def test_r7_r37_r38_the_token_pays_for_irrigations_that_grow_the_pond_first() -> None:
    """With 6 AP and the token (R7), Green walks onto the ring, irrigates two bare neighbours
    (R37: 3 more points each, and fewer tiles to lay) and closes the pond: 30 points or more."""
    s = load("java-centre-pond-grown-with-token.json")
    assert s.turn.ap == 6 and s.token_bonus() == 1
    r = solve(s, "cpsat", time_limit=8)
    out, _ = replay(s, r.line)
    assert out.points == r.best >= 30
    assert isinstance(r.line[0], Token) and any(isinstance(a, Irrigate) for a in r.line)


def enclosed_ponds(s: GameState) -> int:
    """Ponds with no bare neighbour (R38: enclosed)."""
    return sum(1 for p in all_ponds(s.map.hexes, s.irrigated, s.map.nbrs)
               if not any(s.level[h] == 0 for h in pond_ring(p, s.map.nbrs)))


def test_r38_every_pond_line_is_legal_and_encloses_a_pond() -> None:
    """Each line ``pond_lines`` proposes replays through the engine (after the token where it
    says so) and encloses one pond more: an open one, grown or not, or one it makes (R37);
    no open pond is left bare that was not; the position is left as it was."""
    for name in ("java-centre-open-pond-13.json", "java-centre-pond-grown-with-token.json"):
        s = load(name)
        before = position_to_dict(s)
        lines = list(pond_lines(s, s.turn.ap + s.token_bonus()))
        assert lines and position_to_dict(s) == before
        for line, token in lines:
            c = s.copy()
            for a in as_played(line, token):
                c.push(a)
            assert enclosed_ponds(c) == enclosed_ponds(s) + 1, [str(a) for a in line]
            assert open_ponds(c) <= open_ponds(s), [str(a) for a in line]


def test_r25_r38_a_walk_onto_the_ring_then_the_irrigation_that_encloses_a_new_pond() -> None:
    """full-turn-24 (planner-61, turn 84): J9's neighbours are all land, so irrigating it makes
    a one-space pond enclosed at once (R37, R38: 3 points), but Yellow does not hold its ring
    (R25): alone the irrigation hands the points away, and a move alone scores nothing. The
    walk onto the ring first, then the irrigation: 3 points for him."""
    from core.hexmap import parse_hex
    from puzzles.loader import HERE as PUZZLES
    from puzzles.loader import load_puzzle

    s = load_puzzle(os.path.join(PUZZLES, "full-turn-24.json")).state
    before = position_to_dict(s)
    j9 = parse_hex("J9")
    found = [as_played(line, tok) for line, tok in pond_lines(s, s.turn.ap + s.token_bonus())]
    assert position_to_dict(s) == before
    closing = [line for line in found if line[-1] == Irrigate(j9)]
    assert closing
    for line in closing:
        assert replay(s, line)[0].points == 3
    alone = s.copy()
    alone.push(Irrigate(j9))
    assert alone.players[s.to_move].score == s.players[s.to_move].score  # handed away


def test_r27_r37_r38_irrigations_grow_the_pond_to_a_ring_his_free_move_holds() -> None:
    """planner-66@268 (Red, 6 AP and the token): the pond J5 has nobody on its ring, and none
    of Red's developers reaches it. Irrigating I5, I6, I7, J7 and K8 first (R37) grows it to six
    spaces whose ring takes in hexes his developers walk to for free (R27: I3 to I4, or G12
    to I8); the grown ring's two bare hexes L7, L8 take one tile (R14: M8 overhangs the rim),
    which encloses it: 18 points (R38). Growing the pond one hex at a time, as the cover
    search did, never got there (its best line scored 4)."""
    from benchmarks.busy import position as busy_position

    s = busy_position("66@268")
    assert s.players[s.to_move].name == "Red" and s.token_bonus() == 1
    best = 0
    for line, token in pond_lines(s, s.turn.ap + s.token_bonus()):
        if not any(isinstance(a, Tile) for a in line):
            continue  # a pond the last irrigation encloses: a tile is still owed (R8)
        out, _ = replay(s, as_played(line, token))
        if out.points > best:
            best = out.points
            assert sum(isinstance(a, Irrigate) for a in line) == 5 and isinstance(line[-1], Tile)
    assert best == 18


def test_r37_r38_four_irrigations_make_a_new_pond_that_one_tile_encloses() -> None:
    """planner-57@183 (Green, 7 AP with the token, 4 irrigation tiles left): E7, E8, E9 and F8
    lie bare among land; irrigated one after another they make one new pond (R37: each
    touches the ones before) whose one bare neighbour left, D7, a single rice tile covers,
    enclosing four spaces for the ring's holder, Green: 12 points (R38) for 5 AP. No
    existing pond leads there, so only the new ponds' search finds it."""
    from benchmarks.busy import position as busy_position

    s = busy_position("57@183")
    assert s.players[s.to_move].name == "Green" and s.irrigation_supply == 4
    best: tuple[int, list[str]] = (0, [])
    for line, token in pond_lines(s, s.turn.ap + s.token_bonus()):
        out, _ = replay(s, as_played(line, token))
        if out.points > best[0]:
            best = (out.points, [str(a) for a in line])
    assert best[0] == 12
    assert sum(a.startswith("irrigate") for a in best[1]) == 4


def test_r25_r37_r38_the_walk_onto_the_ring_goes_before_the_irrigation_that_encloses() -> None:
    """planner-66@268: irrigating F5, F6, F7 and G8 grows the pond E5 to five spaces whose
    ring is all land, so the last irrigation encloses it (R38) and scores for whoever holds
    the ring then: Yellow on D4 (level 2) unless Red stands there first with a greater key
    (R24, R25: two developers, (2, 1) beats (2)). The line walks before that irrigation and
    scores 15 (a tile is still owed, R8, which other steps of the turn pay)."""
    from analysis.solver.common import step_outcome
    from benchmarks.busy import position as busy_position

    s = busy_position("66@268")
    found = 0
    for line, token in pond_lines(s, s.turn.ap + s.token_bonus()):
        if not isinstance(line[-1], Irrigate):
            continue
        c = s.copy()
        points = [step_outcome(c, a).points for a in as_played(line, token)]
        assert points[-1] == sum(points) and not any(isinstance(a, Tile) for a in line)
        found = max(found, points[-1])
    assert found == 15


def test_r38_a_held_pond_line_at_the_bound_is_proved_before_the_other_recipes(monkeypatch: pytest.MonkeyPatch) -> None:
    """full-turn-67: holding and covering the pond as it is scores 30 (R38), the bound. The
    recipe engine holds that line against the bound before it grows ponds or derives the other
    recipes, so it proves the turn without them; a grown pond or another recipe asked for
    would fail here."""
    from analysis.solver import cpsat
    from puzzles.loader import HERE as PUZZLES
    from puzzles.loader import load_puzzle

    s = load_puzzle(os.path.join(PUZZLES, "full-turn-67.json")).state

    def refused(*args: object, **kwargs: object) -> None:
        raise AssertionError("not needed: a held pond line meets the bound")

    monkeypatch.setattr(cpsat, "derive", refused)
    r = cpsat.solve_cpsat(s, 10.0)
    assert (r.best, r.optimal, r.proved_by) == (30, True, "bound")
    assert replay(s, r.line)[0].points == 30


def test_r37_r38_a_grown_pond_line_at_the_bound_ends_the_search_largest_pond_first(monkeypatch: pytest.MonkeyPatch) -> None:
    """full-turn-77: irrigating E13 and G13 grows the larger pond, and holding and covering it
    scores 24 (R37, R38), the bound. The grown ponds are tried the largest first, and the
    line that meets the bound ends their search: no other grown line is looked for, nor the
    other recipes derived. (It came 16th of 20, after the smaller pond's lines.)"""
    from analysis.solver import cpsat
    from analysis.solver import pond_lines as lines
    from puzzles.loader import HERE as PUZZLES
    from puzzles.loader import load_puzzle

    s = load_puzzle(os.path.join(PUZZLES, "full-turn-77.json")).state
    grown: list[list[Action]] = []
    real = lines._held_lines

    def counted(c: GameState, seed: int, deadline: Deadline | None, first: bool = False
                ) -> Iterator[list[Action]]:
        for line in real(c, seed, deadline, first):
            if first:
                grown.append(line)
            yield line

    def refused(*args: object, **kwargs: object) -> None:
        raise AssertionError("not needed: a grown pond line meets the bound")

    monkeypatch.setattr(lines, "_held_lines", counted)
    monkeypatch.setattr(cpsat, "derive", refused)
    r = cpsat.solve_cpsat(s, 10.0)
    assert (r.best, r.optimal, r.proved_by) == (24, True, "bound")
    assert replay(s, r.line)[0].points == 24
    assert len(grown) <= 3  # E13 alone (21), then E13 and G13 (24): the larger pond first


def test_r38_without_a_line_at_the_bound_the_other_recipes_are_derived(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where no held pond line meets the bound, the grown ponds and the other recipes follow
    as before: the 13-space pond's line scores 39 (R38), the bound is higher (49)."""
    from analysis.solver import cpsat
    from analysis.solver.recipes import derive

    asked: list[bool] = []

    def counted(*args: object, **kwargs: object) -> object:
        asked.append(True)
        return derive(*args, **kwargs)  # type: ignore[arg-type]

    s = load("java-centre-open-pond-13.json")
    monkeypatch.setattr(cpsat, "derive", counted)
    r = cpsat.solve_cpsat(s, 5.0, search=False)
    assert asked and replay(s, r.line)[0].points >= 39


def test_r37_r38_every_size_of_irrigation_set_is_tried_not_only_the_largest() -> None:
    """planner-50 after 169 actions: Blue (7 AP with the token) grows the pond of I5-J5 by three
    irrigations, covers its bare neighbours with three tiles and walks onto the ring between
    them: 15 points (R37, R38). The sets of four or more irrigations, which used to fill every
    place of the ``GROWN`` tried, leave too few AP to hold and cover; the best line then closed
    only 6."""
    from core.record import load_record
    from puzzles.loader import HERE as PUZZLES

    rec, _ = load_record(os.path.join(PUZZLES, "games", "planner-50.json"))
    s = rec.replay(169).state
    best = max(replay(s, as_played(line, tok))[0].points
               for line, tok in pond_lines(s, s.turn.ap + s.token_bonus()))
    assert best >= 15
