"""R28, R29: building and enlarging palaces, their values, the supply, once per turn, scoring."""

from __future__ import annotations

import pytest

from core.errors import IllegalAction
from tests.helpers import H, act, build, play

A, B = 0, 1

# Eight village hexes I4..I11 (each the village of a two-space tile, rice above on row H).
ROW = [f"I{c}v H{c}r" for c in range(4, 12)]


def refused(s, text: str, rule: str, match: str = "") -> None:
    with pytest.raises(IllegalAction) as e:
        s.push(act(text))
    assert e.value.rule == rule, str(e.value)
    assert match in str(e.value)


def palaces(s) -> set[str]:
    return {str(a) for a in s.legal_actions() if a.kind == "palace"}


# ------------------------------------------------------------------ R28 building

def test_r28_build_a_palace_in_a_village_where_the_mover_is_highest() -> None:
    s = build(tiles=ROW[:3], developers={"I4": A})
    play(s, "palace I5 2")
    assert s.palace[H("I5")] == 2
    assert s.turn.ap == 5
    assert s.palace_supply[2] == 5
    assert s.players[A].score == 1  # R29: half the new value
    assert s.turn.palaces_changed == [H("I5")]
    g = s.groups()
    assert g.palace[g.label[H("I4")]] == H("I5")  # a city now (R22)


def test_r28_values_may_be_skipped_up_to_the_group_size() -> None:
    s = build(tiles=ROW[:6], developers={"I4": A})
    play(s, "palace I9 6")
    assert s.players[A].score == 3


def test_r28_build_refusals() -> None:
    s = build(tiles=ROW[:3] + ["G6v G5r F5r"], developers={"I4": A, "I6": B, "G6": A})
    refused(s, "palace H5 2", "R28", "not a village hex")
    refused(s, "palace I4 2", "R28", "developer")  # tie A/B: also no highest position
    refused(s, "palace I5 2", "R28", "highest position")  # A (1) ties B (1)
    refused(s, "palace G6 2", "R28", "developer")
    refused(s, "palace I5 3", "R28", "2, 4, 6, 8 or 10")
    refused(s, "palace F9 2", "R28", "not a village hex")  # bare


def test_r28_value_never_more_than_the_group_size() -> None:
    s = build(tiles=ROW[:3], developers={"I4": A})
    refused(s, "palace I5 4", "R28", "exceeds the group's size of 3")
    s = build(tiles=["G6v G5r F5r"], developers={"G5": A})
    refused(s, "palace G6 2", "R28", "size of 1")  # a single village hex takes no palace


def test_r28_a_piece_of_that_value_must_remain_in_the_supply() -> None:
    s = build(tiles=ROW[:3], developers={"I4": A})
    s.palace_supply[2] = 0
    refused(s, "palace I5 2", "R28", "no palace piece of value 2")
    assert palaces(s) == set()


def test_r28_build_in_a_city_is_refused() -> None:
    s = build(tiles=ROW[:3], developers={"I4": A}, palaces={"I6": 2})
    refused(s, "palace I5 2", "R28", "already a city")


def test_r28_build_needs_1_ap() -> None:
    s = build(tiles=ROW[:3], developers={"I4": A}, ap=0, token_used=True)
    refused(s, "palace I5 2", "R7")


def test_r28_the_highest_position_decides_not_the_mover() -> None:
    s = build(tiles=ROW[:3] + ["I5v"], developers={"I4": A, "I5": B})  # B on level 2
    refused(s, "palace I6 2", "R28", "highest position")
    s = build(to_move=B, tiles=ROW[:3] + ["I5v"], developers={"I4": A, "I5": B})
    play(s, "palace I6 2")


def test_r28_generated_builds() -> None:
    s = build(tiles=ROW[:5], developers={"I4": A, "I6": A})
    assert palaces(s) == {f"palace {h} {v}" for h in ("I5", "I7", "I8") for v in (2, 4)}


# ------------------------------------------------------------------ R28 enlarging

def test_r28_rule_book_example_enlarged_from_2_to_8_scores_4() -> None:
    s = build(tiles=ROW, developers={"I6": A}, palaces={"I4": 2}, scores=[10, 0])
    assert s.palace_supply[2] == 5 and s.palace_supply[8] == 9
    play(s, "palace I4 8")
    assert s.palace[H("I4")] == 8
    assert s.players[A].score == 14
    assert s.palace_supply[8] == 8
    assert s.palace_supply[2] == 5  # the old piece never returns to the supply
    assert s.turn.ap == 5


def test_r28_enlarge_refusals() -> None:
    s = build(tiles=ROW[:4], developers={"I6": A}, palaces={"I4": 4})
    refused(s, "palace I4 4", "R28", "above the current 4")
    refused(s, "palace I4 2", "R28", "above the current 4")
    refused(s, "palace I4 6", "R28", "size of 4")
    s = build(to_move=B, tiles=ROW[:4], developers={"I6": A}, palaces={"I4": 2})
    refused(s, "palace I4 4", "R28", "highest position in this city")
    s = build(tiles=ROW[:4], developers={"I6": A}, palaces={"I4": 2})
    s.palace_supply[4] = 0
    refused(s, "palace I4 4", "R28", "no palace piece of value 4")


def test_r28_generated_enlargements() -> None:
    s = build(tiles=ROW[:6], developers={"I6": A}, palaces={"I4": 2})
    assert palaces(s) == {"palace I4 4", "palace I4 6"}


# ------------------------------------------------------------------ R29 once per turn

def test_r29_a_palace_changes_value_at_most_once_per_turn() -> None:
    s = build(tiles=ROW, developers={"I6": A})
    play(s, "palace I4 2")
    refused(s, "palace I4 4", "R29", "already changed value this turn")
    assert palaces(s) == set()
    play(s, "end; tile E8r; end")  # B's turn, then A's again
    assert s.to_move == A and s.turn.palaces_changed == []
    play(s, "palace I4 4")
    refused(s, "palace I4 6", "R29")
    assert s.players[A].score == 3


def test_r29_listed_in_the_position_counts_too() -> None:
    s = build(tiles=ROW[:4], developers={"I6": A}, palaces={"I4": 2}, palaces_changed=["I4"],
              ap=5)  # the change cost 1 of his 6 AP (R28)
    refused(s, "palace I4 4", "R29")


def test_r29_another_palace_may_change_the_same_turn() -> None:
    s = build(tiles=ROW[:3] + [f"K{c}v J{c}r" for c in (6, 7, 8)], developers={"I4": A, "K8": A})
    play(s, "palace I5 2; palace K6 2")
    assert s.players[A].score == 2


def test_r29_pop_restores_score_supply_and_turn() -> None:
    s = build(tiles=ROW, developers={"I6": A}, palaces={"I4": 2})
    play(s, "palace I4 8")
    s.pop()
    assert s.palace[H("I4")] == 2 and s.players[A].score == 0
    assert s.palace_supply[8] == 9 and s.turn.palaces_changed == [] and s.turn.ap == 6
