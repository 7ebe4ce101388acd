"""Every fast path against its plain reference (benchmarks/reference.py), the same oracle the
benchmarks compare it with: packed-integer height ranking (R24, R25, R41), incremental village
groups (R20–R23), the layered developer-path search (R27) and legal action generation with the
R8 obligation (R7–R38), on hand-built, random and saved positions."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks.common import choose, position
from benchmarks.reference import (
    FESTIVAL_KINDS,
    first_second_ref,
    highest_ref,
    legal_actions_ref,
    move_costs_ref,
    rank_keys_ref,
    village_partition_ref,
)
from core.actions import Tile
from core.groups import Groups, update_groups, village_groups
from core.hexmap import SIZE, load_map
from core.paths import move_costs
from core.ranking import (
    first_second,
    first_second_at,
    highest,
    highest_at,
    key_value,
    rank_keys,
    rank_values_at,
)
from core.state import GameState

CENTRAL = load_map("java-centre").central

# (level, player) developers: levels as a real board has them (1..96), up to 4 players (R1).
devs_st = st.lists(st.tuples(st.integers(1, 96), st.integers(0, 3)), max_size=24)
small_devs_st = st.lists(st.tuples(st.integers(1, 4), st.integers(0, 3)), max_size=14)


def _on_board(devs: list[tuple[int, int]], empty: int = 3) -> tuple[list[int], list[int], list[int]]:
    """The developers written into flat level / dev lists, plus some empty hexes in the set."""
    hexes = list(CENTRAL[: len(devs) + empty])
    level, dev = [0] * SIZE, [-1] * SIZE
    for h, (lv, p) in zip(hexes, devs):
        level[h], dev[h] = lv, p
    return hexes, level, dev


# ----------------------------------------------------------------------------- ranking
def test_r24_packed_keys_order_like_the_rule_book_examples() -> None:
    """R24: (4, 4) beats (4, 3, 3); (2, 1) beats (2); equal keys are equal."""
    assert key_value([4, 4]) > key_value([4, 3, 3])
    assert key_value([2, 1]) > key_value([2])
    assert key_value([3, 1, 2]) == key_value([1, 2, 3])
    assert key_value([]) < key_value([1])


@given(st.lists(st.integers(1, 20), max_size=12), st.lists(st.integers(1, 20), max_size=12))
def test_r24_packed_key_comparison_equals_sorted_tuple_comparison(a: list[int], b: list[int]) -> None:
    ka, kb = tuple(sorted(a, reverse=True)), tuple(sorted(b, reverse=True))
    assert (key_value(a) > key_value(b)) == (ka > kb)
    assert (key_value(a) == key_value(b)) == (ka == kb)


@settings(max_examples=150)
@given(small_devs_st | devs_st)
def test_r25_highest_and_highest_at_equal_the_reference(devs: list[tuple[int, int]]) -> None:
    want = highest_ref(devs)
    assert highest(devs) == want
    assert highest_at(*_on_board(devs)) == want


@settings(max_examples=100)
@given(st.lists(st.tuples(st.integers(1, 3), st.integers(0, 1)), min_size=16, max_size=40))
def test_r25_many_developers_at_one_level_never_carry(devs: list[tuple[int, int]]) -> None:
    """More than 15 developers at one level (hand-built sets, beyond 12 per player) still rank
    exactly: the packing widens its digits with the size of the set."""
    assert highest_at(*_on_board(devs)) == highest_ref(devs)
    assert highest(devs) == highest_ref(devs)


def test_r25_ties_and_absent_players() -> None:
    assert highest_ref([(3, 0), (3, 1)]) == -1
    assert highest_at(*_on_board([(3, 0), (3, 1)])) == -1
    assert highest_at(*_on_board([(3, 0), (3, 1), (1, 1)])) == 1
    assert highest_at(*_on_board([])) == -1
    assert highest([]) == -1


@settings(max_examples=150)
@given(small_devs_st | devs_st)
def test_r41_first_second_fast_paths_equal_the_reference(devs: list[tuple[int, int]]) -> None:
    keys = rank_keys_ref(devs, 4)
    want = first_second_ref(keys)
    assert first_second_at(*_on_board(devs), 4) == want
    assert first_second(rank_keys(devs, 4)) == want
    assert [tuple(k) for k in rank_keys(devs, 4)] == keys


@settings(max_examples=150)
@given(small_devs_st | devs_st)
def test_r24_packed_rank_values_order_players_like_their_keys(devs: list[tuple[int, int]]) -> None:
    vals = rank_values_at(*_on_board(devs), 4)
    keys = rank_keys_ref(devs, 4)
    for p in range(4):
        assert (vals[p] == 0) == (keys[p] == ())
        for q in range(4):
            assert (vals[p] > vals[q]) == (keys[p] > keys[q])


def test_r41_second_is_the_next_distinct_key_after_a_shared_first() -> None:
    devs = [(3, 0), (3, 1), (2, 2), (2, 3), (1, 3)]
    assert first_second_at(*_on_board(devs), 4) == ([0, 1], [3])
    assert first_second_ref(rank_keys_ref(devs, 4)) == ([0, 1], [3])


# ----------------------------------------------------------------------------- groups
def _canon(g: Groups) -> set[tuple[frozenset[int], int]]:
    return {(frozenset(m), p) for m, p in zip(g.members, g.palace)}


def _consistent(g: Groups) -> bool:
    labelled = sum(1 for x in g.label if x >= 0)
    return labelled == sum(len(m) for m in g.members) and all(
        g.label[h] == i for i, m in enumerate(g.members) for h in m
    )


@pytest.mark.parametrize("seed", [3, 4])
def test_r20_r23_incremental_groups_equal_from_scratch_and_networkx(seed: int) -> None:
    """After every tile of a random game (R20), incl. covers that split a city (R23)."""
    s = GameState.new(4, seed=seed)
    rng = random.Random(seed)
    placed = 0
    while not s.is_terminal():
        a = choose(list(s.legal_actions()), rng, True)
        before = s.groups()
        s.push(a)
        if isinstance(a, Tile):
            placed += 1
            inc = update_groups(before, a.hexes, s.terrain, s.map.nbrs, s.palace)
            full = village_groups(s.map.hexes, s.terrain, s.map.nbrs, s.palace, SIZE)
            assert _canon(inc) == _canon(full)
            assert _consistent(inc)
            assert {frozenset(m) for m in inc.members} == village_partition_ref(
                s.map.hexes, s.terrain, s.map.nbrs)
    assert placed >= 56  # the game ends with the last of the 56 three-space tiles (R40)


def test_r23_covering_a_city_hex_splits_it_and_the_palace_stays_with_its_part() -> None:
    """Hand-built: a village line A-B-C with a palace on A; covering B with rice splits it."""
    s = GameState.new(2, seed=0)
    m = s.map
    a = next(h for h in m.central if all(n in m.central for n in m.nbrs[h]))
    b = next(n for n in m.nbrs[a] if all(x in m.central for x in m.nbrs[n]))
    c = next(n for n in m.nbrs[b] if n != a and n not in m.nbrs[a])
    for h in (a, b, c):
        s.level[h], s.terrain[h] = 1, 2
    s.palace[a] = 2
    s._touch_terrain()
    g = s.groups()
    assert _canon(g) == {(frozenset({a, b, c}), a)}
    s.terrain[b] = 1
    inc = update_groups(g, (b,), s.terrain, m.nbrs, s.palace)
    assert _canon(inc) == {(frozenset({a}), a), (frozenset({c}), -1)}
    assert _consistent(inc)


def test_r20_state_groups_stay_exact_through_push_pop_and_copy() -> None:
    """GameState.groups() (incremental after tiles and palaces, the previous groups kept for
    pop) always equals the from-scratch walk."""
    rng = random.Random(5)
    s = GameState.new(4, seed=5)

    def exact(x: GameState) -> bool:
        full = village_groups(x.map.hexes, x.terrain, x.map.nbrs, x.palace, SIZE)
        return _canon(x.groups()) == _canon(full) and _consistent(x.groups())

    while not s.is_terminal():
        actions = list(s.legal_actions())
        for a in rng.sample(actions, min(2, len(actions))):
            s.push(a)
            c = s.copy()
            assert exact(s)
            s.pop()
            assert exact(s) and exact(c)
        s.push(choose(actions, rng, True))


# ----------------------------------------------------------------------------- paths
@pytest.mark.parametrize("stage", ["middle", "late"])
def test_r27_move_costs_equal_dijkstra_for_every_developer(stage: str) -> None:
    s = position(stage)
    for h in s.map.hexes:
        if s.dev[h] >= 0:
            args = (h, s.dev[h], s.level, s.terrain, s.dev, s.palace, s.map.nbrs)
            assert move_costs(*args) == move_costs_ref(*args)
            for limit in (0, 1, 3):
                assert move_costs(*args, limit) == move_costs_ref(*args, limit)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_r27_move_costs_equal_dijkstra_on_random_boards(seed: int) -> None:
    """Random levels, terrain, developers and palaces over the whole centre."""
    rng = random.Random(seed)
    m = load_map("java-centre")
    level, terrain, dev, palace = [0] * SIZE, [0] * SIZE, [-1] * SIZE, [0] * SIZE
    for h in m.hexes:
        if rng.random() < 0.8:
            level[h], terrain[h] = rng.randint(1, 4), rng.choice((1, 2))
            r = rng.random()
            if r < 0.1:
                dev[h] = rng.randrange(3)
            elif r < 0.13 and terrain[h] == 2:
                palace[h] = 2
    src = rng.choice([h for h in m.hexes if level[h] and not palace[h]])
    dev[src] = 0
    args = (src, 0, level, terrain, dev, palace, m.nbrs)
    full = move_costs_ref(*args)
    assert move_costs(*args) == full
    assert move_costs(*args, 2) == move_costs_ref(*args, 2)
    for dst in rng.sample(m.hexes, 12):  # the early stop at a target keeps its exact cost
        assert move_costs(*args, 99, dst).get(dst) == full.get(dst)
        assert move_costs(*args, 1, dst).get(dst) == (full.get(dst) if full.get(dst, 9) <= 1 else None)


# ----------------------------------------------------------------------------- generation
def _turn_actions(s: GameState) -> set:
    got = list(s.legal_actions())
    assert len(got) == len(set(got)), "legal_actions repeats an action"
    return {a for a in got if a.kind not in FESTIVAL_KINDS}


@pytest.mark.parametrize("stage", ["early", "middle", "late"])
def test_r7_r38_legal_actions_equal_brute_force_on_saved_positions(stage: str) -> None:
    """Every candidate action tried with push/pop (R8 obligation included)."""
    s = position(stage)
    assert _turn_actions(s) == legal_actions_ref(s)


def test_r8_legal_actions_equal_brute_force_after_the_tile_and_mid_turn() -> None:
    """The obligation pending and settled, AP spent, a token used (R7, R8)."""
    rng = random.Random(9)
    s = position("late")
    checked = 0
    for _ in range(5):
        if s.festival is not None or s.is_terminal():
            break
        assert _turn_actions(s) == legal_actions_ref(s)
        checked += 1
        actions = [a for a in s.legal_actions() if a.kind not in FESTIVAL_KINDS | {"end"}]
        if not actions:
            break
        s.push(rng.choice(actions))
    assert checked >= 3


def test_r7_r27_path_costs_kept_for_the_push_follow_ap_board_and_developers() -> None:
    """``legal_actions`` leaves its path costs for ``push`` (``GameState.path_costs``); they
    are keyed by the board and the developers, not the AP. Through a random game that prefers
    draws (fewer AP on the same board, R36), the token (more, R7), moves and undoing them: the
    actions generated are the brute force's, and each move ``push`` accepts costs what a
    fresh search says (R27)."""
    rng = random.Random(5)
    s = GameState.new(3, seed=5)
    for _ in range(60):  # developers on the board first
        s.push(choose(list(s.legal_actions()), rng, True))
    same_board = 0
    for step in range(200):
        if s.is_terminal():
            break
        if s.festival is not None:
            s.push(choose(list(s.legal_actions()), rng, True))
            continue
        got = _turn_actions(s)
        if step % 4 == 0:
            assert got == legal_actions_ref(s)
        for a in [a for a in got if a.kind == "move"][:6]:
            ap = s.turn.ap
            s.push(a)
            spent = ap - s.turn.ap
            s.pop()
            fresh = move_costs(a.src, s.to_move, s.level, s.terrain, s.dev, s.palace, s.map.nbrs)
            assert spent == fresh[a.dst]
        picks = [a for a in got if a.kind in {"draw", "token"}]
        same_board += bool(picks) and any(a.kind == "move" for a in got)
        if not picks or rng.random() < 0.3:
            picks = [a for a in got if a.kind not in FESTIVAL_KINDS | {"end"}] or list(got)
        a = rng.choice(picks) if picks else choose(list(s.legal_actions()), rng, True)
        s.push(a)
        if a.kind == "move" and rng.random() < 0.3:
            s.pop()  # back to a board whose costs were kept
    assert same_board >= 5  # the case the key leaves out (fewer AP, same board) did occur


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(6))
def test_r7_r38_legal_actions_equal_brute_force_through_random_games(seed: int) -> None:
    rng = random.Random(seed)
    s = GameState.new(2 + seed % 3, seed=seed)
    while not s.is_terminal():
        if s.festival is None and rng.random() < 0.15:
            assert _turn_actions(s) == legal_actions_ref(s)
        s.push(choose(list(s.legal_actions()), rng, True))


@given(st.integers(0, 10_000))
@settings(max_examples=12, deadline=None)
def test_r8_the_hinted_witness_exists_exactly_when_a_placement_does(seed: int) -> None:
    """push's R8 test looks for a placement near the one it found last
    (``movegen.some_placement``): through random play, with the hint left by the actions
    before, it finds one exactly when the full scan does, and the one it finds is legal."""
    from core.movegen import first_placement, some_placement, tile_placements

    rng = random.Random(seed)
    s = GameState.new(2 + seed % 3, seed=seed)
    hinted = 0
    for _ in range(400):
        if s.is_terminal():
            break
        if s.festival is None:
            budget = s.turn.ap + s.token_bonus()
            had = s._r8_hint
            got, ref = some_placement(s, budget), first_placement(s, budget)
            assert (got is None) == (ref is None)
            if got is not None:
                assert got in set(tile_placements(s, budget))
                hinted += had is not None
        s.push(choose(list(s.legal_actions()), rng, True))
    assert hinted > 0
