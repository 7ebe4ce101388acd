"""R37, R38: placing irrigation, ponds, enclosure and its points."""

from __future__ import annotations

import pytest

from core.errors import IllegalAction
from core.groups import pond_at, pond_ring
from tests.helpers import H, act, build, lay, names, play, put_dev

A, B, C = 0, 1, 2

E8_RING = ["D7", "D8", "E7", "E9", "F7", "F8"]


def refused(s, text: str, rule: str, match: str = "") -> None:
    with pytest.raises(IllegalAction) as e:
        s.push(act(text))
    assert e.value.rule == rule, str(e.value)
    assert match in str(e.value)


def around(pond: list[str], open_: list[str], devs: dict[str, int], players: int = 2,
           to_move: int = A, levels: dict[str, int] | None = None):
    """Irrigation on ``pond``; every hex next to it is land (rice, level 1 unless given in
    ``levels``) except the ``open_`` ones; developers stood on the land."""
    s = build(players=players, to_move=to_move, irrigation=pond)
    ring = pond_ring([H(n) for n in pond], s.map.nbrs)
    for h in ring:
        n = names([h])[0]
        if n in open_:
            continue
        for _ in range((levels or {}).get(n, 1)):
            lay(s, f"{n}r")
    for n, p in devs.items():
        put_dev(s, n, p)
    return s


# ------------------------------------------------------------------ R37 placing irrigation

def test_r37_irrigation_on_a_bare_inner_central_space_costs_1() -> None:
    s = build()
    play(s, "irrigate E8")
    assert s.irrigated[H("E8")] and s.placed_irrigation == [H("E8")]
    assert s.turn.ap == 5 and s.irrigation_supply == 15
    s.pop()
    assert not s.irrigated[H("E8")] and s.irrigation_supply == 16


def test_r37_irrigation_refusals() -> None:
    s = build(tiles=["G6v G5r H5r"], irrigation=["E8"])
    refused(s, "irrigate B7", "R37", "border space")
    refused(s, "irrigate A6", "R37", "not in Java-Centre")
    refused(s, "irrigate G6", "R37", "land")
    refused(s, "irrigate G10", "R37", "already an irrigation space")  # printed
    refused(s, "irrigate E8", "R37", "already an irrigation space")
    s.irrigation_supply = 0
    refused(s, "irrigate E9", "R37", "supply")
    assert not [a for a in s.legal_actions() if a.kind == "irrigate"]


def test_r37_irrigation_needs_1_ap() -> None:
    s = build(ap=0, token_used=True)
    refused(s, "irrigate E8", "R7")


def test_r37_ponds_are_edge_connected_irrigation_spaces() -> None:
    s = build(irrigation=["E8", "E9", "E11"])
    assert names(pond_at(H("E8"), s.irrigated, s.map.nbrs)) == ["E8", "E9"]
    assert names(pond_at(H("E11"), s.irrigated, s.map.nbrs)) == ["E11"]
    assert names(pond_at(H("G10"), s.irrigated, s.map.nbrs)) == ["G10"]


# ------------------------------------------------------------------ R38 enclosure

def test_r38_a_tile_enclosing_a_pond_scores_3_per_space_to_the_highest_position() -> None:
    s = around(["E8"], ["F8"], {"D7": B, "E7": A}, levels={"D7": 2})
    play(s, "tile F8r G8v")  # A encloses; B holds the highest position
    assert [p.score for p in s.players] == [0, 3]
    s.pop()
    assert [p.score for p in s.players] == [0, 0]


def test_r38_points_go_to_the_holder_whoever_moves() -> None:
    s = around(["E8"], ["F8"], {"D7": A}, to_move=B)
    play(s, "tile F8r G8v")
    assert [p.score for p in s.players] == [3, 0]


def test_r38_a_two_space_pond_scores_6() -> None:
    s = around(["E8", "E9"], ["F9"], {"D8": A})
    assert len(pond_ring([H("E8"), H("E9")], s.map.nbrs)) == 8
    play(s, "tile F9r")
    assert s.players[A].score == 6


def test_r38_no_highest_position_nobody_scores() -> None:
    s = around(["E8"], ["F8"], {"D7": A, "E9": B})
    play(s, "tile F8r G8v")
    assert [p.score for p in s.players] == [0, 0]
    s = around(["E8"], ["F8"], {})
    play(s, "tile F8r G8v")
    assert [p.score for p in s.players] == [0, 0]


def test_r38_only_developers_next_to_the_pond_count() -> None:
    s = around(["E8"], ["F8"], {"D7": A})
    lay(s, "C7r")
    lay(s, "C7r")
    put_dev(s, "C7", B)  # B stands higher, but not next to the pond
    play(s, "tile F8r G8v")
    assert [p.score for p in s.players] == [3, 0]


def test_r38_the_longer_key_wins_the_pond() -> None:
    s = around(["E8"], ["F8"], {"D7": A, "D8": B, "E9": B}, players=3, to_move=C)
    play(s, "tile F8r G8v")
    assert [p.score for p in s.players] == [0, 3, 0]


def test_r38_irrigation_filling_a_hole_encloses_the_pond() -> None:
    s = build()
    for n in E8_RING:
        lay(s, f"{n}r")
    put_dev(s, "F7", B)
    play(s, "irrigate E8")
    assert [p.score for p in s.players] == [0, 3]


def test_r38_irrigation_joining_a_pond_encloses_both_spaces() -> None:
    s = around(["E8"], ["E9"], {"D7": A})
    for n in ("D9", "E10", "F9"):
        lay(s, f"{n}r")
    play(s, "irrigate E9")
    assert s.players[A].score == 6


def test_r38_irrigation_that_leaves_the_pond_open_scores_nothing() -> None:
    s = around(["E8"], ["E9"], {"D7": A})
    play(s, "irrigate E9")
    assert s.players[A].score == 0


def test_r38_one_tile_enclosing_two_ponds_scores_both() -> None:
    s = build(irrigation=["E8", "E10"])
    for n in ("D7", "D8", "E7", "F7", "F8", "D9", "D10", "E11", "F9", "F10"):
        lay(s, f"{n}r")
    put_dev(s, "D8", A)
    put_dev(s, "F10", B)
    put_dev(s, "D10", B)
    play(s, "tile E9v")
    # E8's ring: A alone (D8); E10's ring: B with D10, F10
    assert [p.score for p in s.players] == [3, 3]


def test_r38_an_enclosed_pond_is_scored_once() -> None:
    s = around(["E8"], ["F8"], {"D7": A})
    play(s, "tile F8r G8v")
    assert s.players[A].score == 3
    play(s, "tile E7v F7r")  # covering ring hexes again does not score the pond again
    assert s.players[A].score == 3


def test_r38_printed_irrigation_is_a_pond_too() -> None:
    s = build()
    ring = pond_ring([H("G10")], s.map.nbrs)
    assert names(ring) == ["F10", "F9", "G11", "G9", "H10", "H9"]
    for h in ring:
        if names([h])[0] != "F9":
            lay(s, f"{names([h])[0]}r")
    put_dev(s, "H9", B)
    play(s, "tile F9r")
    assert [p.score for p in s.players] == [0, 3]
