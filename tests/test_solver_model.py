"""The turn as one CP-SAT model (issue 21): its bound must never fall below a legal line.

- the rank-key encoding (``model_keys.beats``) against ``core.ranking`` on random keys (R24, R25);
- the stacking of the board part: a tile at height 1 needs one below on each hex (R12), none
  exactly on one tile of its size (R13), and an overhang pays (R14);
- soundness: the model's bound is at least the brute force's best on random mini-map positions
  (1–2 AP here, 500 positions with 1–4 AP under ``-m slow``), at least every mini-map puzzle's
  best, and never below what random playouts of the turn score (hypothesis); on Java-Centre,
  where CP-SAT gives no bound on a full turn, line by line (``test_solver_model_lines.py``);
- the engine ``model``: never below the recipe engine nor the computer players' turns.
"""

from __future__ import annotations

import os
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analysis.solver.brute import solve_brute
from analysis.solver.common import Outcome, SolveResult, replay
from analysis.solver.model import STEPS, build_turn_model, model_bound, solve_model
from analysis.solver.model_board import build_board
from analysis.solver.model_keys import beats, counts_of
from analysis.solver.model_reach import OFF
from analysis.solver.ortools_cp import cp_model
from analysis.solver.selfplay import random_action, random_position
from core.actions import Action, End, Enter, Exit, Festival, Move, Tile, parse_action, parse_actions
from core.errors import IllegalAction
from core.ranking import highest
from core.state import GameState
from puzzles.loader import load_puzzles
from tests.helpers import build
from tests.test_solver_agreement import BRUTE_NODES, settled

MINI_B = os.path.join(os.path.dirname(__file__), "maps", "mini-b.txt")


def position(seed: int, ap: int) -> GameState:
    s = random_position(seed, MINI_B, players=2 + seed % 2, turns=3 + seed % 4, ap=ap)
    s.turn.token_used = True
    return s


def _key_counts(levels: list[int], top: int) -> list[int]:
    return [sum(1 for x in levels if x >= lv) for lv in range(1, top + 1)]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(1, 5), max_size=4), st.lists(st.integers(1, 5), max_size=4))
def test_r24_r25_beats_matches_the_engines_ranking(mine: list[int], theirs: list[int]) -> None:
    """The model's comparison of counts per level says what ``core.ranking`` says (R24, R25)."""
    m = cp_model.CpModel()
    top = 5
    win = beats(m, [m.new_constant(c) for c in _key_counts(mine, top)], _key_counts(theirs, top),
                "win")
    m.add(win == 1)
    feasible = cp_model.CpSolver().solve(m) in (cp_model.OPTIMAL, cp_model.FEASIBLE)
    devs = [(lv, 0) for lv in mine] + [(lv, 1) for lv in theirs]
    assert feasible == (highest(devs) == 0), (mine, theirs)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(1, 5), max_size=4), st.lists(st.integers(1, 5), max_size=4),
       st.lists(st.integers(1, 5), max_size=2))
def test_r24_r25_beats_with_an_opponents_key_of_literals(mine: list[int], theirs: list[int],
                                                          absent: list[int]) -> None:
    """As above where the opponent's counts are sums of literals (developers surely in the
    group or not: ``absent`` ones are 0), compared through their caps: still exact."""
    m = cp_model.CpModel()
    top = 5
    here = [(lv, m.new_bool_var(f"t{i}")) for i, lv in enumerate(theirs)]
    gone = [(lv, m.new_bool_var(f"a{i}")) for i, lv in enumerate(absent)]
    for _, v in here:
        m.add(v == 1)
    for _, v in gone:
        m.add(v == 0)
    counts, caps = counts_of([*here, *gone], top)
    win = beats(m, [m.new_constant(c) for c in _key_counts(mine, top)], counts, "win", caps)
    m.add(win == 1)
    feasible = cp_model.CpSolver().solve(m) in (cp_model.OPTIMAL, cp_model.FEASIBLE)
    devs = [(lv, 0) for lv in mine] + [(lv, 1) for lv in theirs]
    assert feasible == (highest(devs) == 0), (mine, theirs, absent)


def _lone_tile_model(s: GameState, text: str, height: int) -> bool:
    """Whether the board part lets ``text`` lie at ``height`` with nothing else laid."""
    m = cp_model.CpModel()
    b = build_board(m, s, 6)
    tile = parse_action(text)
    assert isinstance(tile, Tile)
    keys = [k for k, p in enumerate(b.placements) if p.tile == tile]
    if not keys or (keys[0], height) not in b.y:
        return False
    m.add(b.y[keys[0], height] == 1)
    m.add(b.n_tiles == 1)
    return cp_model.CpSolver().solve(m) in (cp_model.OPTIMAL, cp_model.FEASIBLE)


def test_r12_a_tile_on_this_turns_tile_needs_one_under_each_hex() -> None:
    s = build(tile_placed=False)
    assert _lone_tile_model(s, "tile G6v G5r H5r", 0)
    assert not _lone_tile_model(s, "tile G6v G5r H5r", 1)  # nothing below it (R12)


def test_r13_no_tile_exactly_on_one_of_its_size() -> None:
    s = build(tiles=["G6v G5r H5r"], tile_placed=False)
    assert not _lone_tile_model(s, "tile G5v G6r H5r", 1)  # exactly on the tile (R13)
    assert _lone_tile_model(s, "tile G6v G5r", 1)  # a two-space tile on it is fine


def test_r14_an_overhang_costs_one_ap_more_per_rim_hex() -> None:
    s = build(tile_placed=False)
    m = cp_model.CpModel()
    b = build_board(m, s, 6)
    rim = [p for p in b.placements if p.rim0 > 0]
    assert rim and all(p.kind in ("2", "3") for p in rim)  # one-space tiles never overhang
    p = rim[0]
    k = b.placements.index(p)
    m.add(b.y[k, 0] == 1)
    m.minimize(b.tiles_ap)
    solver = cp_model.CpSolver()
    assert solver.solve(m) == cp_model.OPTIMAL
    assert solver.objective_value == 1 + p.rim0


@pytest.mark.parametrize("seed", range(24))
def test_model_bound_is_never_below_brute_force(seed: int) -> None:
    """Soundness on random mini-map positions with 1 and 2 AP (R7–R38 as the engine plays)."""
    s = position(seed, 1 + seed % 2)
    ref = solve_brute(s, max_nodes=BRUTE_NODES)  # the same positions on any machine
    assert ref.optimal, (seed, "the brute force did not settle it within its budget")
    b, _, _ = model_bound(s, 30, workers=1)
    assert b.points is not None and b.points >= ref.best, (seed, ref.line_text, b)


@pytest.mark.slow
@pytest.mark.parametrize("block", range(5))
def test_model_bound_500_positions(block: int) -> None:
    """The issue's ≥ 500 random small positions, 1–4 AP: 5 blocks of 100 positions the brute
    force settles (within ``BRUTE_NODES`` nodes each, the same positions on any machine; a
    block takes the seeds it needs, from its own range of 1 000)."""
    covered = seed = 0
    for seed, s, ref in settled(range(5000 + 1000 * block, 6000 + 1000 * block),
                                lambda seed: position(seed, 1 + seed % 4)):
        covered += 1
        b, _, _ = model_bound(s, 60, workers=1)
        assert b.points is not None and b.points >= ref.best, (seed, ref.line_text, b)
        if covered == 100:
            break
    print(f"block {block}: {covered} positions, last seed {seed}")
    assert covered == 100


def _puzzles(java_centre: bool) -> list[object]:
    return [pz for pz in load_puzzles() if (pz.state.map.name == "java-centre") == java_centre]


def _check_bound(pz: object) -> None:
    b, _, _ = model_bound(pz.state, 30, workers=1)  # type: ignore[attr-defined]
    assert b.points is not None and b.points >= pz.best  # type: ignore[attr-defined]


@pytest.mark.parametrize("pz", _puzzles(False)[::6], ids=lambda pz: pz.id)
def test_model_bound_covers_a_sixth_of_the_mini_map_puzzles(pz: object) -> None:
    """Every sixth mini-map puzzle in CI (all 165 take 3–4 minutes: the slow test below)."""
    _check_bound(pz)


@pytest.mark.slow
@pytest.mark.parametrize("pz", _puzzles(False), ids=lambda pz: pz.id)
def test_model_bound_covers_every_mini_map_puzzle(pz: object) -> None:
    _check_bound(pz)


def _playout(s: GameState, rng: random.Random) -> list[Action]:
    c = s.copy()
    me = c.to_move
    line: list[Action] = []
    for _ in range(12):
        a = random_action(c, rng)
        if a is None or isinstance(a, End) or c.to_move != me:
            break
        c.push(a)
        line.append(a)
        if isinstance(a, Festival):
            break
    return line


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 10_000))
def test_no_random_playout_beats_the_models_bound(seed: int) -> None:
    """Property: the bound is never below a replayed line (random playouts of the turn)."""
    s = position(seed, 2 + seed % 2)
    b, _, _ = model_bound(s, 30, workers=1)
    rng = random.Random(seed)
    for _ in range(20):
        line = _playout(s, rng)
        try:
            out, _ = replay(s, line)  # type: ignore[arg-type]
        except ValueError:
            continue
        assert b.points is not None and out.points <= b.points, (seed, [str(a) for a in line], b)


@pytest.mark.parametrize("seed", range(3))
def test_model_engine_proves_only_the_true_optimum(seed: int) -> None:
    """The ``model`` engine: a proved answer is the brute force's best, and its bound is never
    below it (2 AP on mini-b)."""
    s = position(seed + 40, 2)
    ref = solve_brute(s, max_nodes=BRUTE_NODES)
    r = solve_model(s, 30)
    assert r.bound is not None and r.bound >= r.best
    if ref.optimal:
        assert r.bound >= ref.best
        if r.optimal:
            assert (r.best, r.handed, r.ap_spent) == (ref.best, ref.handed, ref.ap_spent)


def test_r26_r27_a_walks_least_ap_is_never_above_the_engines_path_cost() -> None:
    """The model charges each developer at least ``Labels.least[h]`` AP for standing on ``h``
    (a cut the LP sees): sound only if no walk the engine allows now costs less, and no hex
    such a walk reaches within the budget is left out. Tiles of this turn only make walks
    cheaper, so the engine's cost on the board as it is bounds ``least`` from above."""
    costs: list[int] = []
    entries: list[int] = []
    for seed in range(16):
        s = position(seed, 2 + seed % 3)
        tm = build_turn_model(s)
        budget = s.turn.ap + s.token_bonus()
        for src in s.developers(s.to_move):
            least = tm.reach.systems[src].least
            assert least[src] == 0
            for h, c in s.path_costs(src, budget).items():
                if c <= budget and s.dev[h] < 0 and not s.palace[h]:
                    assert h in least and least[h] <= c, (seed, src, h, c, least.get(h))
                    assert tm.reach.systems[src].least_laid[h] <= c
            costs += least.values()
        if OFF in tm.reach.systems:  # R26: entering costs the space's cost, 1 AP at least
            entries += tm.reach.systems[OFF].least.values()
    assert len(costs) > 50 and max(costs) >= 1 and entries and min(entries) >= 1


def _walks(s: GameState, rng: random.Random) -> tuple[list[tuple[int, int, int]], int] | None:
    """A random turn of the mover: (source, hex, walk AP) of each developer that moved or
    entered, and the tiles laid; None when one left the board (who comes back is unclear)."""
    me, tiles = s.to_move, 0
    origin: dict[int, int] = {}  # hex -> where the developer there started
    spent: dict[int, int] = {}  # hex -> the AP its developer's moves cost
    for _ in range(10):
        a = random_action(s, rng)
        if a is None or isinstance(a, End) or s.to_move != me:
            break
        ap = s.turn.ap
        s.push(a)
        if isinstance(a, Exit):
            return None
        if isinstance(a, Tile):
            tiles += 1
        elif isinstance(a, Move):
            origin[a.dst] = origin.pop(a.src, a.src)
            spent[a.dst] = spent.pop(a.src, 0) + ap - s.turn.ap
        elif isinstance(a, Enter):
            origin[a.hex], spent[a.hex] = OFF, ap - s.turn.ap
    return [(src, h, spent[h]) for h, src in origin.items()], tiles


def test_r26_r27_a_walk_and_its_tiles_cost_no_less_than_least_laid() -> None:
    """``Labels.least_laid[h]`` (the walk's AP plus the tiles it needs, a cut the LP sees)
    is sound only if no real turn gets a developer to ``h`` for less: random turns that lay
    tiles and walk over them, on mini maps, never do; and it charges something beyond the
    walk somewhere (else the cut would be idle)."""
    rng = random.Random(5)
    checked = charged = 0
    for seed in range(20):
        s = position(seed, 3 + seed % 2)
        tm = build_turn_model(s)
        for system in tm.reach.systems.values():
            charged += sum(system.least_laid[h] > c for h, c in system.least.items())
        for _ in range(25):
            got = _walks(s.copy(), rng)
            if got is None:
                continue
            walks, tiles = got
            for src, h, ap in walks:
                lab = tm.reach.systems[src]
                assert h in lab.least, (seed, src, h)
                assert lab.least[h] <= ap and lab.least_laid[h] <= ap + tiles, (seed, src, h)
                checked += 1
    assert checked > 100 and charged > 0, (checked, charged)


def test_build_turn_model_does_not_change_the_state() -> None:
    s = position(7, 3)
    before = (list(s.level), list(s.dev), s.turn.ap, [p.snapshot() for p in s.players])
    build_turn_model(s)
    assert before == (list(s.level), list(s.dev), s.turn.ap, [p.snapshot() for p in s.players])


def test_model_fits_small_maps_and_few_ap_only() -> None:
    """Where the engine builds the model: the mini maps at any AP, Java-Centre with 1 AP."""
    from analysis.solver.model import model_fits

    assert model_fits(position(3, 3))
    big = build(ap=6)
    assert not model_fits(big)
    assert model_fits(build(ap=1, token_used=True))
    assert not model_fits(build(ap=2, token_used=True))


def _planner_38_at_137() -> GameState:
    """Issue 21's planner-38@137: the start of Blue's turn after the record's first 137 actions."""
    from core.record import replay_file

    path = os.path.join(os.path.dirname(__file__), "..", "puzzles", "games", "planner-38.json")
    return replay_file(path, 137).state


@pytest.mark.slow
def test_model_engine_answers_the_turn_played_on_planner_38_at_137() -> None:
    """Issue 21's acceptance: at 10 s the answer is at least the 10 points the game's planner
    scored there (a 10-palace at G7 and a festival no one can join, R29, R34)."""
    r = solve_model(_planner_38_at_137(), 10)
    assert r.best >= 10, r.line_text


def test_r38_a_bare_ring_hex_a_tile_makes_land_may_hold_a_developer_of_the_ring() -> None:
    """R26/R38 regression (seed 244, 2 AP on mini-b): a tile encloses pond D3 and makes D4 land;
    a developer steps onto D4, and a second tile encloses pond C5, whose ring holds D4. D4 is an
    irrigable hex of the ponds' water, and the model once left such hexes off the rings."""
    s = position(244, 2)
    line = "move E6 E4; tile C4v D4r; move E4 D4; tile B5v C6r"
    out, _ = replay(s, [parse_action(a) for a in line.split("; ")])
    assert out.points == 6
    b, _, _ = model_bound(s, 30, workers=1)
    assert b.points is not None and b.points >= 6


def test_r20_r28_a_palace_in_a_village_of_this_turns_cells_is_a_solution() -> None:
    """R20/R28 on mini-b, 4 AP: two village singles make a new village beside the mover's
    developer, he steps in and builds a 2 there (1 point, the line replays). The model must
    admit that line: its new-village event is feasible with exactly those two tiles."""
    from core.state import GameState
    from tests.helpers import lay, put_dev

    s = GameState.new(2, seed=0, map_spec=MINI_B)
    s.to_move = 0
    lay(s, "F3r")
    put_dev(s, "F3", 0)
    s.irrigation_supply, s.triples, s.turn.ap, s.turn.token_used = 0, 0, 4, True
    line = [parse_action(a) for a in ("tile E3v", "tile E4v", "move F3 E3", "palace E4 2")]
    assert replay(s, line)[0].points == 1
    tm = build_turn_model(s)
    m, b = tm.model, tm.board
    for text in ("tile E3v", "tile E4v"):
        k = next(k for k, p in enumerate(b.placements) if p.tile == parse_action(text))
        m.add(b.y[k, 0] == 1)
    m.add(b.n_tiles == 2)
    names = {v.name: i for i, v in enumerate(m.Proto().variables)}
    m.add(m.get_int_var_from_proto_index(names["new_village"]) == 1)
    assert cp_model.CpSolver().solve(m) in (cp_model.OPTIMAL, cp_model.FEASIBLE)


def test_r25_r28_a_palace_needs_the_lead_over_the_rivals_its_group_brings() -> None:
    """R25/R28 on mini-b, 2 AP: the mover's village C2+C3 (his developer on C2, level 1), a
    gap at C4, and a one-hex village C5 where an opponent stands at level 2. A village single
    on C4 makes a group of 4, but the opponent comes with it and outranks the mover, so no
    palace of 4 (and a 2 alone leaves the tile owed, R8): 1 point at best, by brute force. The
    model's bound must say 1 too: it counted the size C5 brings but not its rival (and not
    the rival of an anchor whose palace went on a joined hex), and said 2."""
    from tests.helpers import lay, put_dev

    s = GameState.new(2, seed=0, map_spec=MINI_B)
    s.to_move = 0
    lay(s, "C2v C3v")
    lay(s, "C5r")
    lay(s, "C5v")
    put_dev(s, "C2", 0)
    put_dev(s, "C5", 1)
    s.irrigation_supply, s.triples, s.turn.ap, s.turn.token_used = 0, 0, 2, True
    s.players[0].doubles = 0
    s.players[0].hand = []
    with pytest.raises(IllegalAction, match="R28"):
        replay(s, parse_actions("tile C4v; palace C3 4"))
    assert solve_brute(s).best == 1
    bound = model_bound(s, 20)[0]
    assert (bound.points, bound.exact) == (1, True)


def _on_full_turn_24(monkeypatch: pytest.MonkeyPatch, text: str) -> SolveResult:
    """The model engine on a Java-Centre last-round turn (the hand-built bound: 4 points),
    its quick lines replaced by the one line ``text``: only the proof step is under test."""
    import analysis.solver.model as model_module

    pz = next(p for p in load_puzzles() if p.id == "full-turn-24")
    line = parse_actions(text)

    def quick(s: GameState, dl: object, rep: object, best: object, fits: bool,
              steps: object = None, ub: int | None = None, helper: object = None
              ) -> tuple[tuple[Outcome, list[Action]], int | None]:
        return (replay(s, line)[0], line), ub

    monkeypatch.setattr(model_module, "_quick_lines", quick)
    return solve_model(pz.state, 5, steps=STEPS - {"recipes"})


def test_r29_model_engine_proves_a_large_map_line_that_meets_the_bound(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the model is not built, a line at the hand-built bound with the fewest AP it
    allows is proved by the bound; the walk through G12 is a detour (5 AP where 3 do, R27)
    and is taken out first."""
    r = _on_full_turn_24(monkeypatch, "palace G6 2; move G11 G12; move G12 I10; irrigate J9")
    assert (r.best, r.bound, r.proved_by) == (4, 4, "bound")
    assert r.line_text == "palace G6 2; move G11 I10; irrigate J9"


def test_model_engine_proves_nothing_below_the_large_map_bound(
        monkeypatch: pytest.MonkeyPatch) -> None:
    r = _on_full_turn_24(monkeypatch, "palace G6 2")
    assert (r.best, r.bound, r.proved_by, r.optimal) == (1, 4, None, False)


@pytest.mark.parametrize("pid", ["palace-01", "full-turn-78"])
def test_model_engine_leaves_out_the_recipe_engines_beam_line(
        monkeypatch: pytest.MonkeyPatch, pid: str) -> None:
    """The recipe engine runs without the quick beam line, where the model fits (palace-01: its
    cost was most of a puzzle's solve) and on the large map too (full-turn-78: 0.4 of 1.6 s,
    for no line; the players' turns come next), and the answer is still the proved best."""
    import analysis.solver.cpsat as cpsat_module

    def no_beam(*args: object) -> list[Action]:
        raise AssertionError("the beam line was asked for")

    monkeypatch.setattr(cpsat_module, "_beam_line", no_beam)
    pz = next(p for p in load_puzzles() if p.id == pid)
    r = solve_model(pz.state, 10)
    assert r.optimal and r.best == pz.best


def test_the_players_stop_restarting_once_a_line_meets_the_bound() -> None:
    """``player_lines`` restarts the planner and greedy players with other seeds; once a line
    scores the bound (``enough``) only the tie-breaks are left, so it stops there. Without it,
    every seed plays."""
    from analysis.solver.common import Deadline
    from analysis.solver.model import player_lines

    pz = next(p for p in load_puzzles() if p.id == "full-turn-24")
    every = player_lines(pz.state, Deadline(None), seeds=2)
    assert len(every) >= 4  # two seeds of two players
    first = player_lines(pz.state, Deadline(None), seeds=2, enough=0)
    assert 1 <= len(first) <= 2  # the planner's first line (and it without its festival)
    some = player_lines(pz.state, Deadline(None), seeds=2, enough=10**6)
    assert len(some) >= 4  # no line meets it: every seed plays (their searches are timed,
    # so the lines themselves may differ from run to run)


def test_a_line_at_the_bound_stops_polish_and_tails_for_the_tie_break_search() -> None:
    """``polish`` and ``tails`` hear of each better line through ``_until``: it reports the
    line, and a line whose points meet the bound stops their search (its deadline), so that
    branch and bound gets the time left for the tie-breaks. A line below it does not."""
    import analysis.solver.model as model_module
    from analysis.solver.common import Deadline, Reporter

    heard: list[int] = []
    rep = Reporter(lambda p: heard.append(p.best), "model")
    dl = Deadline(60)
    until = model_module._until(dl, 5, rep)
    until(Outcome(4, 0, -3, 0), [])
    assert not dl.over() and heard == [4]
    until(Outcome(5, 0, -6, 0), [])
    assert dl.over() and heard == [4, 5]
    free = Deadline(None)  # no limit and no bound: nothing stops it
    model_module._until(free, None, rep)(Outcome(9, 0, -1, 0), [])
    assert not free.over()


def test_a_line_at_the_bound_is_not_polished(monkeypatch: pytest.MonkeyPatch) -> None:
    """A quick line already at the bound is left to branch and bound (only the tie-breaks
    remain); one below it is polished."""
    import analysis.solver.model as model_module
    import analysis.solver.polish as polish_module
    from analysis.solver.common import Deadline, Reporter

    pz = next(p for p in load_puzzles() if p.id == "full-turn-24")
    line = parse_actions("palace G6 2; move G11 I10; irrigate J9")  # 4 points (R29)
    monkeypatch.setattr(model_module, "player_lines", lambda s, dl, enough=None: [line])
    calls: list[int] = []

    def counted(*args: object, **kwargs: object) -> None:
        calls.append(1)

    monkeypatch.setattr(polish_module, "polish", counted)
    start: tuple[Outcome, list[Action]] = (replay(pz.state, [])[0], [])
    steps = frozenset({"players", "polish"})
    for ub, polished in ((4, 0), (5, 1)):
        got, aim = model_module._quick_lines(pz.state, Deadline(5), Reporter(None, "model"),
                                             start, False, steps, ub)
        assert got[0].points == 4 and len(calls) == polished and aim == ub


def test_a_players_line_whose_festival_an_opponent_joins_is_polished_before_goals_r32(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """planner-38@137: the planner's palace 10 and a festival an opponent could join, which
    does not replay (R32); ``polish`` starts from it before ``goals`` runs (one tile
    elsewhere cuts him out, R23), and from no other player's line."""
    import analysis.solver.goals as goals_module
    import analysis.solver.model as model_module
    import analysis.solver.polish as polish_module
    from analysis.solver.common import Deadline, Reporter

    s = _planner_38_at_137()
    lost = parse_actions("move A12 E10; move E7 H7; palace G7 10; tile I5v H4r I4r; "
                         "move E10 F10; token; tile E7r; festival G7 P")
    with pytest.raises(IllegalAction, match="R32"):
        replay(s, lost)
    assert replay(s, lost[:-1])[0].points == 5  # without the festival: the palace alone
    monkeypatch.setattr(model_module, "player_lines",
                        lambda s, dl, enough=None: [lost, lost[:-1]])
    order: list[object] = []

    def polish(s: GameState, starts: list[list[Action]], *args: object, **kw: object) -> None:
        order.append([str(x[-1]) for x in starts])

    def goal_lines(*args: object, **kw: object) -> list[tuple[Outcome, list[Action]]]:
        order.append("goals")
        return []

    monkeypatch.setattr(polish_module, "polish", polish)
    monkeypatch.setattr(goals_module, "goal_lines", goal_lines)
    start = (replay(s, lost[:-1])[0], lost[:-1])  # the empty line leaves a tile owed (R8)
    model_module._quick_lines(s, Deadline(5), Reporter(None, "model"), start, False,
                              frozenset({"players", "polish", "goals"}))
    assert order[0] == ["festival G7 P"] and order[1] == "goals"
