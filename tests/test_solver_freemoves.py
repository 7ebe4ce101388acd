"""Free moves (R27) in branch and bound (``analysis/solver/freemoves.py``): searched only just
before an action they can change, and still exact."""

from __future__ import annotations

import os

import pytest

from analysis.solver import solve
from analysis.solver.freemoves import (
    NONE,
    _irrigation_encloses,
    _placeable_after,
    _tile_encloses,
    after_free_move,
)
from analysis.solver.selfplay import random_position
from core.actions import Draw, Enter, Exit, Festival, Irrigate, Move, Palace, Tile, Token
from core.groups import all_ponds, pond_ring
from core.position import load_position
from core.state import GameState
from tests.helpers import H, lay, put_dev, put_palace
from tests.test_solver import ENGINES, check, mini
from tests.test_solver_bound import MAPS

BUSY = os.path.join(os.path.dirname(__file__), "positions", "java-centre-turn-33.json")


def busy(ap: int) -> GameState:
    """Turn 33 of a four-player planner game on Java-Centre (60 tiles, 29 developers, 10
    palaces): Red to move with ``ap`` AP and no token."""
    s = load_position(BUSY)
    s.turn.ap = ap
    s.players[s.to_move].tokens = 0
    return s


def test_r27_pending_free_moves_wait_for_their_action() -> None:
    """Each free move waits for an action it changes; a move onto the hex another one left
    settles that one (it had to come first)."""
    a, b, c, d = H("C3"), H("C4"), H("C5"), H("D4")
    p = after_free_move(NONE, a, b)
    assert p == {(a, b)}
    assert after_free_move(p, c, d) == {(a, b), (c, d)}
    assert after_free_move(p, d, a) == {(d, a)}


@pytest.mark.parametrize("engine", ENGINES)
def test_r27_r38_a_free_step_onto_the_ring_before_the_closing_tile(engine: str) -> None:
    """R27/R38: the mover's developer on C2 is off the ring of the pond D3, where the opponent
    stands on D2 (level 1); stepping for free along the rice to C3 (level 2) wins the ring,
    then the tile on E4 closes it for 3."""
    s = mini(tiles=("D2r", "D4r", "C3r", "C3r", "C4r", "E3r", "C2r"))
    put_dev(s, "C2", 0)
    put_dev(s, "D2", 1)
    assert check(s, engine) == (3, "move C2 C3; tile E4r")


def test_r27_busy_board_free_moves_wait_for_an_action_they_change() -> None:
    """R8/R27: on a busy Java-Centre board with 1 AP the tile is owed and nothing scores. The
    search used to try every arrangement of Red's developers reachable by free moves (9457
    states); now a free move comes only before an action it changes."""
    r = solve(busy(1), "bnb")
    assert r.optimal and r.best == 0 and r.ap_spent == 1
    assert r.line[0].kind == "tile"
    assert r.nodes < 500


def _enclosed(s: GameState, h: int) -> list[frozenset[int]]:
    """The ponds with ``h`` on their ring whose ring is all land (R38), each as its hexes."""
    nbrs = s.map.nbrs
    out = []
    for pond in all_ponds(s.map.hexes, s.irrigated, nbrs):
        ring = pond_ring(pond, nbrs)
        if h in ring and all(s.level[r] > 0 for r in ring):
            out.append(frozenset(pond))
    return out


@pytest.mark.parametrize("seed", range(24))
def test_r27_r38_enclosure_told_before_the_action_as_the_board_after_it(seed: int) -> None:
    """R38: whether a tile or an irrigation encloses a pond with a free move's hexes on its
    ring, worked out before it is pushed (the search then pushes only the actions a pending
    move waits for), is what the board after it shows: a pond with ``x`` or ``y`` on its ring,
    enclosed after the action and not before (for an irrigation: the pond it joins)."""
    s = random_position(seed, MAPS[seed % 2], players=2 + seed % 2, turns=2 + seed % 10, ap=3)
    nbrs = s.map.nbrs
    rings = {r for p in all_ponds(s.map.hexes, s.irrigated, nbrs) for r in pond_ring(p, nbrs)}
    land = [h for h in s.map.hexes if not s.irrigated[h] and s.level[h] > 0]
    near = [h for h in land if h in rings or any(n in rings for n in nbrs[h])]
    pairs = [(x, y) for x in near[seed % 2::2] for y in (land[seed % 5::5]) if y != x][:12]
    tried = 0
    for a in s.legal_actions():
        if not isinstance(a, (Tile, Irrigate)):
            continue
        before = {h: _enclosed(s, h) for xy in pairs for h in xy}
        told = {xy: (_tile_encloses(s, frozenset(a.hexes), *xy) if isinstance(a, Tile)
                     else _irrigation_encloses(s, a.hex, *xy)) for xy in pairs}
        s.push(a)
        for (x, y), got in told.items():
            if isinstance(a, Tile):
                new = [p for h in (x, y) for p in _enclosed(s, h) if p not in before[h]]
            else:
                new = [p for h in (x, y) for p in _enclosed(s, h) if a.hex in p]
            assert got == bool(new), (str(a), x, y)
            tried += 1
        s.pop()
    assert tried > 0


@pytest.mark.parametrize("seed", range(24))
def test_r8_r27_placement_told_before_the_action_is_what_the_board_after_it_shows(seed: int) -> None:
    """R8: whether a placement remains after an action (a tile owed, a developer back on
    ``x``), told before the action is pushed, is what the board after it shows: exactly, both
    ways, for a move, an entry, an exit and an irrigation; for a palace only where it says
    one remains (else it leaves the question to the board after it). The search skips, or
    settles, those actions without pushing them, as it did once it had pushed them."""
    s = random_position(seed, MAPS[seed % 2], players=2 + seed % 2, turns=2 + seed % 10, ap=3)
    assert s.obligation_pending()
    land = [h for h in s.map.hexes if s.level[h] > 0 and s.dev[h] < 0 and not s.palace[h]]
    told = {True: 0, False: 0}
    for a in list(s.legal_actions()):
        if isinstance(a, (Tile, Token, Draw, Festival)):
            continue
        for x in land[seed % 4::4]:
            got = _placeable_after(s, a, x)
            if got is None:
                assert isinstance(a, Palace) or (isinstance(a, Move) and not s.path_costs(
                    a.src, s.turn.ap).get(a.dst)), str(a)
                continue
            assert isinstance(a, (Move, Enter, Exit, Irrigate)) or got, str(a)
            told[got] += 1
            s.push(a)
            after = s.find_placement(s.turn.ap + s.token_bonus(), frozenset((x,)))
            s.pop()
            assert (after is not None) == got, (str(a), x)
    assert told[True] > 0


def test_r8_r15_a_palace_may_leave_no_placement_but_the_hex_a_free_move_left() -> None:
    """R8/R15: a tile is owed and the mover has one village tile; the free hexes are E3 (where
    his developer stood before a free move) and C4, between the village C2–C3 and the city C5.
    His palace on C3 makes C2–C3 a city, so a village on C4 would join two cities (R15): after
    it, E3 is the only placement. So the palace needs the developer off E3 first, and the
    test before the push must not say a placement avoiding E3 is left (C4 is one only now)."""
    s = mini(ap=3)
    s.turn.tile_placed = False
    p = s.players[0]
    p.rice = p.doubles = 0
    p.villages, s.triples = 1, 0
    for t in ("C2v", "C3v", "C5v"):
        lay(s, t)
    put_palace(s, "C5", 2)
    put_dev(s, "C2", 0)
    keep = {H(n) for n in ("C2", "C3", "C4", "C5", "E3")}
    for h in s.map.central:
        s.irrigated[h] = h not in keep
    x, palace = H("E3"), Palace(H("C3"), 2)
    assert s.find_placement(3, frozenset((x,))) is not None  # C4, while C2–C3 is a village
    assert not _placeable_after(s, palace, x)
    s.push(palace)
    assert s.find_placement(s.turn.ap, frozenset((x,))) is None
    assert s.find_placement(s.turn.ap) is not None  # E3: the palace itself is legal (R8)


@pytest.mark.slow
def test_r27_busy_board_two_ap_proved() -> None:
    """With 2 AP on the busy board the bound allows 6 (a palace and its festival, R29, R34);
    the search proves 3 is the most: the tile that grows the city E13, then its palace of 6
    (the festival would need draws, R36, that 2 AP cannot pay for)."""
    r = solve(busy(2), "bnb", time_limit=120)
    assert r.optimal and r.best == 3
    assert [a.kind for a in r.line] == ["tile", "palace"]


@pytest.mark.slow
def test_r27_busy_board_agrees_with_brute_force() -> None:
    """The reduction loses nothing: 1 AP on the busy board, branch and bound against the brute
    force over every legal sequence, free moves included."""
    a, b = solve(busy(1), "bnb"), solve(busy(1), "brute")
    assert a.optimal and b.optimal
    assert (a.best, a.handed, a.ap_spent) == (b.best, b.handed, b.ap_spent)
