"""R20–R25: village groups, cities and the height ranking (rank keys, highest position)."""

from __future__ import annotations

import pytest

from core.errors import IllegalAction
from core.ranking import first_second, highest, rank_keys
from tests.helpers import H, act, build, names, play

A, B, C, D = 0, 1, 2, 3


def devs(**levels: tuple[int, ...]) -> list[tuple[int, int]]:
    """devs(A=(4, 4), B=(4, 3, 3)) -> [(level, player), ...]."""
    out = []
    for who, ls in levels.items():
        for lv in ls:
            out.append((lv, "ABCD".index(who)))
    return out


# ------------------------------------------------------------------ R24, R25 the ranking function

def test_r24_rule_book_example_two_level_4_beats_4_3_3() -> None:
    d = devs(A=(4, 4), B=(4, 3, 3))
    assert rank_keys(d, 2) == [[4, 4], [4, 3, 3]]
    assert highest(d) == A
    assert highest(list(reversed(d))) == A


def test_r24_rule_book_example_c_with_2_and_1_beats_a_2_and_b_1() -> None:
    d = devs(A=(2,), B=(1,), C=(2, 1))
    assert rank_keys(d, 3) == [[2], [1], [2, 1]]
    assert highest(d) == C


def test_r24_a_longer_key_beats_its_prefix() -> None:
    assert highest(devs(A=(2,), B=(2, 1))) == B
    assert highest(devs(A=(3, 3, 1), B=(3, 3))) == A
    assert highest(devs(A=(3, 1, 1, 1), B=(3, 2))) == B  # lexicographic, not by sum or count


def test_r24_keys_are_sorted_highest_first_whatever_the_order() -> None:
    assert rank_keys([(1, A), (3, A), (2, A), (5, B)], 3) == [[3, 2, 1], [5], []]


def test_r25_equal_keys_give_nobody_the_highest_position() -> None:
    assert highest(devs(A=(3, 1), B=(1, 3))) == -1
    assert highest(devs(A=(2,), B=(2,), C=(1,))) == -1
    # a tie below the best does not matter
    assert highest(devs(A=(4,), B=(2,), C=(2,))) == A


def test_r25_tie_for_best_then_a_better_key_later() -> None:
    assert highest(devs(A=(2,), B=(2,), C=(3,))) == C
    assert highest(devs(C=(3,), A=(2,), B=(2,))) == C


def test_r24_players_without_developers_take_no_part() -> None:
    assert highest([]) == -1
    assert highest(devs(B=(1,))) == B
    assert first_second([[], [1], []]) == ([1], [])


def test_r41_first_second_positions() -> None:
    assert first_second([[3, 2], [3, 2, 1], [3, 2]]) == ([1], [0, 2])
    assert first_second([[3, 2], [3, 2], [3]]) == ([0, 1], [2])
    assert first_second([[2], [2]]) == ([0, 1], [])
    assert first_second([[5], [1], [3], [1]]) == ([0], [2])


# ------------------------------------------------------------------ R20–R22 groups on the board

def test_r20_village_groups_are_edge_connected_village_hexes() -> None:
    s = build(tiles=["G6v G5r H5r", "G7v", "F7v F8r", "I8v"])
    g = s.groups()
    assert names(g.members[g.label[H("G6")]]) == ["F7", "G6", "G7"]
    assert names(g.members[g.label[H("I8")]]) == ["I8"]
    assert g.label[H("G5")] == -1  # rice is in no group
    assert len(g.members) == 2


def test_r21_r22_a_palace_counts_in_its_group_and_makes_it_a_city() -> None:
    s = build(tiles=["G6v G5r H5r", "G7v", "F7v F8r", "I8v"], palaces={"G7": 2})
    g = s.groups()
    gi = g.label[H("G6")]
    assert len(g.members[gi]) == 3
    assert g.palace[gi] == H("G7")
    assert g.cities() == [gi]
    assert g.palace[g.label[H("I8")]] == -1  # a village


def test_r20_groups_follow_pushes_and_pops() -> None:
    s = build(tiles=["G6v G5r H5r", "G8v"])
    g = s.groups()
    assert g.label[H("G6")] != g.label[H("G8")]
    play(s, "tile G7v F7r F6r")
    g = s.groups()
    assert g.label[H("G6")] == g.label[H("G7")] == g.label[H("G8")]
    s.pop()
    g = s.groups()
    assert g.label[H("G6")] != g.label[H("G8")] and g.label[H("G7")] == -1


# ------------------------------------------------------------------ the ranking on the board

EXAMPLE_1_TILES = [
    # G6, G5, H5 at level 4; H6, I6 at level 3; G7 at level 1; every top a village. No tile
    # lies exactly on one of its size (R13): a triple, a double and a single under a triple.
    "G6v G5r H5r", "G6r G5v", "H5v", "G6r G5r H5v",
    "H6r", "I6r", "H6v I6r",
    "G6v", "G5v", "H5v", "H6v", "I6v", "G7v",
]


def test_r24_rule_book_example_1_on_the_board() -> None:
    s = build(players=4, tiles=EXAMPLE_1_TILES,
              developers={"G6": A, "G5": A, "H5": B, "H6": B, "I6": B})
    assert [s.level[H(n)] for n in ("G6", "G5", "H5", "H6", "I6", "G7")] == [4, 4, 4, 3, 3, 1]
    g = s.groups()
    assert len(g.members[g.label[H("G7")]]) == 6
    play(s, "palace G7 6")  # A holds the highest position (R28)
    assert s.players[A].score == 3


def test_r24_rule_book_example_1_the_other_player_is_refused() -> None:
    s = build(players=4, to_move=B, tiles=EXAMPLE_1_TILES,
              developers={"G6": A, "G5": A, "H5": B, "H6": B, "I6": B})
    with pytest.raises(IllegalAction, match="R28.*highest position.*R25"):
        s.push(act("palace G7 2"))
    assert not [a for a in s.legal_actions() if a.kind == "palace"]


def test_r24_rule_book_example_2_on_the_board() -> None:
    # A level 2, B level 1, C levels 2 and 1: C holds the highest position.
    tiles = ["G6v G5r", "G6v", "G5v", "H5v", "H6v", "G7v"]
    layout = {"G6": A, "H5": B, "G5": C, "H6": C}
    s = build(players=3, to_move=C, tiles=tiles, developers=layout)
    assert [s.level[H(n)] for n in ("G6", "G5", "H5", "H6")] == [2, 2, 1, 1]
    play(s, "palace G7 4")
    for mover in (A, B):
        s = build(players=3, to_move=mover, tiles=tiles, developers=layout)
        with pytest.raises(IllegalAction, match="R28"):
            s.push(act("palace G7 2"))
