"""Group ``bound``: the admissible bound (``analysis.solver.bound``) as a solve asks it, each fast
path against the plain way in the same run (issue 21's puzzle targets).

- *root and tie-break*: the root's bound with the token's AP, then with one AP less (what
  ``bnb.meets_bound`` asks to prove the fewest AP), on full-turn-63 (Java-Centre, 18 points):
  the two calls sharing their views (``views=``) against two calls each from scratch.
- *checks looked up on a miss*: ``bound_tiles.known`` for a position that has none (a search
  node after a move), while the root's checks are kept: the part of the key that turns it away
  (``_light``) against the whole key looked up.
- *pond covers at search nodes*: the bounds of 40 children of planner-37@112's last 2 AP (the
  tail ``tails.py`` searches: ``irrigate J3; tile K3v K4r L3r; move H6 J4; enter K3; token``,
  2 AP left), one
  after the other as branch and bound asks them, with the pond bound's covers remembered
  (``bound_ponds._cover``, its table emptied at the start of each round) against each worked
  out anew (``_cover_now``).
- *search to the bound*: branch and bound on pond-32 (15 points, which the root's bound
  allows) stopping at the line that meets the bound, against the same search told a bound one
  point higher, which no line meets, so that it searches on to the end.
- *pond covers, exactly*: every exact cover of a bare ring (``bound_ponds._disjoint_cover``)
  the cold root bounds of full-turn-67 and full-turn-77 ask (Java-Centre, 30 and 24 points:
  524 rings), the hexes as bits of one integer and a branch stopped once the tiles its
  hexes still need (a third of them) no longer fit, against the plain search
  (``reference.disjoint_cover_ref``: frozensets, no node limit, stopped only where one tile
  more would not fit).
- *bounds asked below a value*: the bounds with 4 AP of 40 children of planner-44@191 (busy,
  6 AP; the tie-break search asks whether a line within 5 AP scores the 10 points found, so
  each child is cut when its bound falls below 10), asked only that (``upper_bound``'s
  ``below``: the palace entries quick first, made exact one by one) against worked out in
  full.
- *two processes*: branch and bound on pond-17 (6 points, proved by the search alone) with a
  second process claiming its part of the tree (``split.py``, started after 0.08 s as a solve
  does without ``split.warm``) against one process.

Each pair must give the same answer."""

from __future__ import annotations

import os

import pytest

from analysis.solver.bnb import solve_bnb
from analysis.solver.bound import upper_bound
from analysis.solver.bound_view import View
from core.state import GameState
from puzzles.loader import Puzzle, load_puzzle

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _puzzle(name: str) -> Puzzle:
    return load_puzzle(os.path.join(ROOT, "puzzles", f"{name}.json"))


@pytest.mark.benchmark(group="bound")
@pytest.mark.parametrize("role", ["fast", "reference"])
def test_root_and_tie_break_bounds(bench, role: str) -> None:
    s = _puzzle("full-turn-63").state
    ap = s.turn.ap + s.token_bonus()

    def shared() -> tuple[int, int]:
        views: dict[int, View] = {}
        return upper_bound(s, ap, views=views), upper_bound(s, ap - 1, views=views)

    def apart() -> tuple[int, int]:
        return upper_bound(s, ap), upper_bound(s, ap - 1)

    got = bench(shared if role == "fast" else apart,
                pair="root bound and tie-break bound (full-turn-63)", role=role, rounds=5)
    assert got == apart() and got[0] >= 18


@pytest.mark.benchmark(group="bound")
@pytest.mark.parametrize("role", ["fast", "reference"])
def test_search_stops_at_the_bound(bench, role: str) -> None:
    pz = _puzzle("pond-32")
    s = pz.state
    if role == "fast":
        r = bench(lambda: solve_bnb(s, 60), pair="branch and bound to the bound (pond-32)",
                  role=role, rounds=3)
    else:
        r = bench(lambda: solve_bnb(s, 60, bound=pz.best + 1),
                  pair="branch and bound to the bound (pond-32)", role=role, rounds=3)
    assert r.optimal and r.best == pz.best


@pytest.mark.benchmark(group="bound")
@pytest.mark.parametrize("role", ["fast", "reference"])
def test_search_in_two_processes(bench, role: str) -> None:
    pz = _puzzle("pond-17")
    r = bench(lambda: solve_bnb(pz.state, 60, processes=2 if role == "fast" else 1),
              pair="branch and bound in two processes (pond-17)", role=role, rounds=3)
    assert r.optimal and r.best == pz.best


@pytest.mark.benchmark(group="bound")
@pytest.mark.parametrize("role", ["fast", "reference"])
def test_checks_looked_up_on_a_miss(bench, role: str) -> None:
    from analysis.solver.bound_tiles import _KNOWN, CityCheck, known, position_key, remember

    s = _puzzle("full-turn-63").state
    remember(s, {0: CityCheck(0, [0, 0, 0])})
    node = s.copy()
    h = next(i for i, d in enumerate(node.dev) if d == node.to_move)
    node.dev[h] = -1  # a developer of his moved off
    try:
        look = (lambda: known(node)) if role == "fast" else (lambda: _KNOWN.get(position_key(node), {}))
        got = bench(look, pair="checks looked up on a miss (full-turn-63)", role=role, calls=1)
        assert got == {}
    finally:
        _KNOWN.clear()


@pytest.mark.benchmark(group="bound")
@pytest.mark.parametrize("role", ["fast", "reference"])
def test_pond_covers_at_search_nodes(bench, role: str, monkeypatch: pytest.MonkeyPatch) -> None:
    import analysis.solver.bound_ponds as bp
    from benchmarks.busy import position
    from core.actions import Draw, End, Festival, Token, parse_actions

    s = position("37@112")
    for a in parse_actions("irrigate J3; tile K3v K4r L3r; move H6 J4; enter K3; token"):
        s.push(a)
    children: list[GameState] = []
    for a in s.legal_actions():
        if not isinstance(a, (Token, Draw, End, Festival)) and len(children) < 40:
            c = s.copy()
            c.push(a)
            children.append(c)

    def bounds() -> list[int]:
        bp._COVERS.clear()
        return [upper_bound(c) for c in children]

    plain = [upper_bound(c) for c in children]
    if role == "reference":
        monkeypatch.setattr(bp, "_cover", bp._cover_now)
    got = bench(bounds, pair="pond covers at 40 search nodes (planner-37@112, last 2 AP)",
                role=role, rounds=3)
    assert got == plain


@pytest.mark.benchmark(group="bound")
@pytest.mark.parametrize("role", ["fast", "reference"])
def test_bounds_asked_below_a_value(bench, role: str) -> None:
    from benchmarks.busy import position
    from core.actions import Draw, End, Festival, Token

    s = position("44@191")
    children: list[GameState] = []
    for a in s.legal_actions():
        if not isinstance(a, (Token, Draw, End, Festival)) and len(children) < 40:
            c = s.copy()
            c.push(a)
            if c.turn.ap >= 4:
                children.append(c)
    need = 10

    def below() -> list[int]:
        return [upper_bound(c, 4, below=need) for c in children]

    def full() -> list[int]:
        return [upper_bound(c, 4) for c in children]

    got = bench(below if role == "fast" else full,
                pair="bounds of 40 search nodes asked below 10 (planner-44@191, 4 AP)", role=role,
                rounds=3)
    exact = full()
    assert [g < need for g in got] == [e < need for e in exact]
    assert all(g == e for g, e in zip(got, exact) if g >= need)
    assert sum(e < need for e in exact) > 20  # most are cut, as in the search


@pytest.mark.benchmark(group="bound")
@pytest.mark.parametrize("role", ["fast", "reference"])
def test_exact_pond_covers(bench, role: str, monkeypatch: pytest.MonkeyPatch) -> None:
    import analysis.solver.bound_ponds as bp
    from benchmarks.reference import disjoint_cover_ref

    asked: list[tuple[GameState, set[int], int, bp.Shapes]] = []
    plain_cover = bp._disjoint_cover

    def record(s: GameState, bare: set[int], budget: int, shapes: bp.Shapes) -> tuple[int, int] | None:
        asked.append((s, set(bare), budget, shapes))
        return plain_cover(s, bare, budget, shapes)

    monkeypatch.setattr(bp, "_disjoint_cover", record)
    for name in ("full-turn-67", "full-turn-77"):
        bp._COVERS.clear()
        s = _puzzle(name).state
        upper_bound(s, s.turn.ap + s.token_bonus())
    monkeypatch.undo()

    def supply(s: GameState) -> list[int]:
        me = s.players[s.to_move]
        return [me.villages + me.rice, me.doubles, s.triples]

    def fast() -> list[tuple[int, int] | None]:
        return [bp._disjoint_cover(s, bare, budget, shapes) for s, bare, budget, shapes in asked]

    def reference() -> list[tuple[int, int] | None]:
        return [disjoint_cover_ref(bare, budget, supply(s), shapes)
                for s, bare, budget, shapes in asked]

    got = bench(fast if role == "fast" else reference,
                pair="exact pond covers of two cold root bounds (full-turn-67, -77)", role=role,
                rounds=3)
    assert len(asked) > 100 and got == reference()
