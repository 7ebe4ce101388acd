"""The end of the game (R40–R43) and properties of complete random games."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from core.actions import CARD_KINDS, VILLAGE, End, Tile, parse_action
from core.endgame import no_tile_can_ever_be_placed
from core.errors import IllegalAction
from core.game import MAX_ACTIONS, TERMINAL, Game, random_action
from core.movegen import tile_placements
from core.scoring import final_count
from core.state import (
    DEVELOPERS,
    DOUBLES,
    IRRIGATION_TILES,
    PALACE_SUPPLY,
    RICE_SINGLES,
    TRIPLES,
    VILLAGE_SINGLES,
    GameState,
)
from tests.festival_positions import H, city_position, play


def last_triple(s: GameState) -> Tile:
    """A legal three-space placement away from the test city (rows J and below)."""
    for t, cost in tile_placements(s, 1):
        if t.size == 3 and all(h >= 9 * 32 for h in t.hexes):
            return t
    raise AssertionError("no three-space placement")


@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize("placer", [0, 1])
def test_r40_end_order_with_n_players(n: int, placer: int) -> None:
    """R40: the placer of the last three-space tile finishes his turn, then makes his final
    count; each other player in turn order plays one more turn without the tile obligation and
    counts; then the game is over."""
    devs = {f"F{5 + i}": i for i in range(n)}
    s = city_position(players=n, to_move=placer, developers=devs, tile_placed=False)
    s.triples = 1
    s.push(last_triple(s))
    assert s.triples == 0 and s.last_round == [(placer + i) % n for i in range(1, n)]
    assert s.turn.ap == 5 and not s.players[placer].final_counted
    s.push(parse_action("draw deck"))  # the placer finishes his turn with the AP left
    order = []
    while not s.is_terminal():
        assert End() in set(s.legal_actions())  # R40: no tile obligation in the last round
        me = s.to_move
        expected = final_count(s)[me]
        score = s.players[me].score
        s.push(End())
        order.append(me)
        assert s.players[me].final_counted and s.players[me].score == score + expected
    assert order == [(placer + i) % n for i in range(n)]
    assert list(s.legal_actions()) == []
    with pytest.raises(IllegalAction) as e:
        s.push(End())
    assert e.value.rule == "R40"


def test_r41_each_player_counts_at_his_own_moment() -> None:
    """R40/R41: the placer counts first at 8 (tied first); afterwards the next player takes the
    first position with two developers, so he scores 8 and the last one 4 — the placer's count
    is not redone."""
    s = city_position(players=3, to_move=0, developers={"F5": 0, "F6": 2, "E5": 1, "E6": 1},
                      tile_placed=False, palace_value=8)
    s.triples = 1
    play(s, str(last_triple(s)) + "; end")
    assert s.players[0].score == 8
    play(s, "move E5 F7; move E6 F8; end")
    assert s.players[1].score == 8
    play(s, "end")
    assert [p.score for p in s.players] == [8, 8, 4] and s.is_terminal()


def test_r40_popping_the_last_triple_undoes_the_last_round() -> None:
    s = city_position(players=2, developers={"F5": 0}, tile_placed=False)
    s.triples = 1
    s.push(last_triple(s))
    s.pop()
    assert s.last_round is None and s.triples == 1


def test_r43_equal_scores_share_the_victory() -> None:
    s = city_position(players=3, to_move=0, developers={"F5": 0, "F6": 1}, tile_placed=False)
    g = Game(s)
    s.triples = 1
    g.apply_action(last_triple(s))
    for _ in range(3):
        g.apply_action("end")
    assert g.is_terminal() and g.current_player() == TERMINAL
    assert [p.score for p in s.players] == [8, 8, 0]
    assert g.winners() == [0, 1]


def dead_board(n: int) -> GameState:
    """Every central space irrigated but the triangle G5 G6 H5, no own tiles left (R10)."""
    s = GameState.new(n, seed=4)
    keep = {H("G5"), H("G6"), H("H5")}
    for h in s.map.central:
        if h not in keep:
            s.irrigated[h] = True
    for p in s.players:
        p.doubles = p.rice = p.villages = 0
    return s


@pytest.mark.parametrize("n", [2, 4])
def test_r40_decision_a_dead_board_ends_the_game(n: int) -> None:
    """Engine decision (core/endgame.py): three-space tiles remain but none can ever be placed
    (the only flat triangle is exactly one three-space tile, R13): the turn that finds it so
    ends like the last three-space tile's turn (R40)."""
    s = dead_board(n)
    first = s.to_move
    play(s, "tile G6v G5r H5r; end")
    assert s.last_round is None and s.triples == 55
    stuck = s.to_move
    assert s.find_placement(99) is None and End() in set(s.legal_actions())  # R8 lapses
    s.push(End())
    assert s.players[stuck].final_counted
    assert s.to_move == (stuck + 1) % n and s.last_round == [(stuck + i) % n for i in range(2, n)]
    order = [stuck]
    while not s.is_terminal():
        order.append(s.to_move)
        s.push(End())
    assert order == [(stuck + i) % n for i in range(n)] and first in order


def test_r40_decision_a_board_with_room_does_not_end() -> None:
    s = dead_board(2)
    s.players[0].rice = s.players[1].rice = 1
    s.irrigated[H("K4")] = False  # room for a one-space tile
    play(s, "tile G6v G5r H5r; end")
    s.turn.ap = 0  # this turn nobody can place (no AP), but the board is not dead
    s.players[s.to_move].tokens = 0
    s.push(End())
    assert s.last_round is None


# ------------------------------------------------------------------ complete random games
def material_ok(s: GameState) -> None:
    """R1/R2: every piece is on the board, in a supply, or in play; nothing appears or vanishes."""
    n = s.n_players
    sizes = Counter(len(t) if len(t) > 1 else ("v" if t[0][1] == VILLAGE else "r") for t in s.tiles)
    assert sizes[3] + s.triples == TRIPLES
    assert sizes[2] + sum(p.doubles for p in s.players) == DOUBLES * n
    assert sizes["r"] + sum(p.rice for p in s.players) == RICE_SINGLES * n
    assert sizes["v"] + sum(p.villages for p in s.players) == VILLAGE_SINGLES * n
    assert len(s.placed_irrigation) + s.irrigation_supply == IRRIGATION_TILES
    devs = Counter(s.dev[h] for h in s.map.hexes if s.dev[h] >= 0)
    assert all(devs[i] + s.players[i].developers_off == DEVELOPERS for i in range(n))
    on = Counter(s.palace[h] for h in s.map.hexes if s.palace[h])
    assert all(on[v] <= PALACE_SUPPLY[v] - s.palace_supply[v] for v in PALACE_SUPPLY)
    cards = Counter(s.deck) + Counter(s.discard) + Counter(c for p in s.players for c in p.hand)
    cards[s.face_up or "none"] += 1 if s.face_up else 0
    if s.festival is not None:
        cards += Counter(s.festival.cards_in_play())
    assert +cards == Counter({k: 5 for k in CARD_KINDS})


def check_random_game(n: int, seed: int, policy: str) -> Game:
    """Play one game and check, after every action: material conserved, scores never fall,
    every player counted once, in the R40 order; and that the game ends."""
    g = Game.new(n, seed=seed)
    s = g.state
    rng = random.Random(seed)
    counted: list[int] = []
    placer = -1
    scores = [0] * n
    while not g.is_terminal():
        assert len(g.actions) < MAX_ACTIONS, "the game does not end"
        mover = s.to_move
        a = random_action(s, rng, policy)
        g.apply_action(a)
        if placer < 0 and s.last_round is not None:
            placer = mover
        now = [p.score for p in s.players]
        assert all(x >= y for x, y in zip(now, scores)), f"a score fell after {a}"
        scores = now
        for i, p in enumerate(s.players):
            if p.final_counted and i not in counted:
                assert i == mover, "a player counted outside his own turn end (R40)"
                counted.append(i)
        assert all(s.players[i].final_counted for i in counted)
        material_ok(s)
    assert s.triples == 0 or no_tile_can_ever_be_placed(s)  # R40, or the dead-board decision
    assert counted == [(placer + i) % n for i in range(n)]
    assert not list(s.legal_actions())
    return g


GAMES = [(2 + k % 3, 1000 + k, ("festive", "uniform", "kinds")[k // 3 % 3]) for k in range(200)]


@pytest.mark.parametrize(("n", "seed", "policy"), GAMES[:10])
def test_r40_random_complete_games_keep_the_invariants(n: int, seed: int, policy: str) -> None:
    check_random_game(n, seed, policy)


@pytest.mark.slow
@pytest.mark.parametrize(("n", "seed", "policy"), GAMES)
def test_r40_two_hundred_random_complete_games(n: int, seed: int, policy: str) -> None:
    check_random_game(n, seed, policy)


def test_random_games_hold_festivals_and_decisions() -> None:
    """The festive random players open festivals and take bid/pass/agree decisions (R30, R32)."""
    g = check_random_game(4, 7, "festive")
    kinds = Counter(a.kind for a in g.actions)
    assert kinds["festival"] >= 3 and kinds["bid"] + kinds["pass"] + kinds["agree"] >= 1
