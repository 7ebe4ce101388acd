"""R26, R27: developers — entering, moving by the cheapest path, leaving the board."""

from __future__ import annotations

import pytest

from core.errors import IllegalAction
from tests.helpers import H, act, build, lay, play, put_dev, put_palace

A, B = 0, 1


def refused(s, text: str, rule: str, match: str = "") -> None:
    with pytest.raises(IllegalAction) as e:
        s.push(act(text))
    assert e.value.rule == rule, str(e.value)
    assert match in str(e.value)


def moves(s) -> dict[str, int]:
    """Generated moves -> AP they cost (pushed and popped)."""
    out = {}
    for a in s.legal_actions():
        if a.kind == "move":
            before = s.turn.ap
            s.push(a)
            out[str(a)] = before - s.turn.ap
            s.pop()
    return out


def land(*tiles: str, **devs: int):
    """A position with these tiles laid directly and developers (hex=player) stood on them."""
    s = build()
    for t in tiles:
        lay(s, t)
    for name, p in devs.items():
        put_dev(s, name, p)
    return s


# ------------------------------------------------------------------ R26 entering

def test_r26_enter_a_border_space_touching_lowland_costs_1() -> None:
    s = build(tiles=["B6v C6r C7r"])
    play(s, "enter B6")
    assert s.turn.ap == 5 and s.dev[H("B6")] == A and s.players[A].developers_off == 11


def test_r26_enter_a_border_space_touching_only_mountains_costs_2() -> None:
    s = build(tiles=["I2r"])
    play(s, "enter I2")
    assert s.turn.ap == 4


def test_r26_border_space_touching_lowland_and_mountain_costs_1() -> None:
    s = build(tiles=["H3r"])
    play(s, "enter H3")
    assert s.turn.ap == 5


def test_r26_enter_a_land_rim_hex_lowland_1_mountain_2() -> None:
    s = build(tiles=["B6v A6r B5r", "N5v O5r O6r"])
    play(s, "enter A6")
    assert s.turn.ap == 5
    play(s, "enter O5")
    assert s.turn.ap == 3


def test_r26_entering_is_refused_off_the_edge_on_bare_or_occupied_hexes() -> None:
    s = build(tiles=["G6v G5r H5r", "B6v C6r C7r", "B12v B13r", "C12r"], developers={"B13": B},
              palaces={"B12": 2})
    refused(s, "enter G6", "R26", "neither a border space nor a rim hex")
    refused(s, "enter B7", "R26", "not land")
    refused(s, "enter A6", "R26", "not land")  # bare rim
    refused(s, "enter B13", "R26", "developer")
    refused(s, "enter B12", "R26", "palace")
    s.players[A].developers_off = 0
    refused(s, "enter B6", "R26", "no developer off the board")


def test_r26_entering_needs_its_ap() -> None:
    s = build(tiles=["I2r"], ap=1, token_used=True)
    refused(s, "enter I2", "R7", "2 AP")
    assert "enter I2" not in {str(a) for a in s.legal_actions()}


def test_r26_generated_entries() -> None:
    s = build(tiles=["B6v A6r B5r", "I2r", "G6v G5r H5r"], developers={"B5": B})
    got = {str(a) for a in s.legal_actions() if a.kind == "enter"}
    assert got == {"enter B6", "enter A6", "enter I2"}


# ------------------------------------------------------------------ R27 moving

def test_r27_moving_along_one_terrain_is_free_whatever_the_levels() -> None:
    s = land("H4r", "H5r", "H5r", "H6r", "H6r", "H6r", "H7r", H4=A)
    play(s, "move H4 H7")
    assert s.turn.ap == 6
    assert s.dev[H("H4")] == -1 and s.dev[H("H7")] == A


def test_r27_each_change_of_terrain_costs_1() -> None:
    s = land("H4r", "H5v", "H6r", "H7v", H4=A)
    assert moves(s) == {"move H4 H5": 1, "move H4 H6": 2, "move H4 H7": 3}
    play(s, "move H4 H7")
    assert s.turn.ap == 3


def test_r27_the_engine_charges_the_cheapest_path() -> None:
    # direct H4 r → H5 v → H6 r costs 2; the detour H4 → G5 → G6 → H6 stays on rice: 0
    s = land("H4r", "H5v", "H6r", "G5r", "G6r", H4=A)
    play(s, "move H4 H6")
    assert s.turn.ap == 6


def test_r27_a_path_may_pass_the_movers_own_developers() -> None:
    s = land("H4r", "H5r", "H6r", H4=A, H5=A)
    play(s, "move H4 H6")
    assert s.turn.ap == 6


def test_r27_opponents_block_the_path() -> None:
    s = land("H4r", "H5r", "H6r", H4=A, H5=B)
    refused(s, "move H4 H6", "R27", "no path")
    assert moves(s) == {}
    # with a detour, the detour's cost is charged
    s = land("H4r", "H5r", "H6r", "G5v", "G6v", H4=A, H5=B)
    play(s, "move H4 H6")
    assert s.turn.ap == 4


def test_r27_palaces_block_the_path() -> None:
    s = land("H4v", "H5v", "H6v", "G5r", "G6r", H4=A)
    put_palace(s, "H5", 2)
    assert moves(s) == {"move H4 G5": 1, "move H4 G6": 1, "move H4 H6": 2}
    refused(s, "move H4 H5", "R26", "palace")


def test_r27_irrigation_and_bare_hexes_block_the_path() -> None:
    s = land("H4r", "H6r", H4=A)
    refused(s, "move H4 H6", "R27", "no path")
    s = build(tiles=["E7r", "E9r"], developers={"E7": A}, irrigation=["E8"])
    refused(s, "move E7 E9", "R27", "no path")


def test_r27_the_destination_must_be_free_land() -> None:
    s = land("H4r", "H5r", "H6r", H4=A, H6=B)
    refused(s, "move H4 H6", "R26", "already carries a developer")
    refused(s, "move H4 H7", "R26", "not land")
    refused(s, "move H4 H4", "R27", "already there")
    refused(s, "move H5 H4", "R27", "no developer on H5")
    s.to_move = B
    refused(s, "move H4 H5", "R27", "no developer on H4")


def test_r27_moving_needs_its_ap() -> None:
    s = land("H4r", "H5v", "H6r", "H7v", H4=A)
    s.turn.ap = 2
    s.turn.token_used = True
    refused(s, "move H4 H7", "R7", "3 AP")
    assert moves(s) == {"move H4 H5": 1, "move H4 H6": 2}


def test_r27_a_developer_may_move_onto_rim_land() -> None:
    s = build(tiles=["B6v A6r B5r"], developers={"B6": A})
    play(s, "move B6 A6")
    assert s.turn.ap == 5


# ------------------------------------------------------------------ R27 leaving the board

def test_r27_exit_from_a_border_space_or_rim_hex_costs_as_entering() -> None:
    s = build(tiles=["B6v A6r B5r", "I2r", "N5v O5r O6r"],
              developers={"B6": A, "I2": A, "O5": A, "A6": A})
    play(s, "exit B6")
    assert s.turn.ap == 5 and s.players[A].developers_off == 9 and s.dev[H("B6")] == -1
    play(s, "exit I2")
    assert s.turn.ap == 3
    play(s, "exit A6")
    assert s.turn.ap == 2
    play(s, "exit O5")
    assert s.turn.ap == 0
    assert s.players[A].developers_off == 12


def test_r27_exit_is_refused_from_inner_spaces_and_for_other_developers() -> None:
    s = build(tiles=["G6v G5r H5r", "B6v C6r C7r"], developers={"G6": A, "B6": B})
    refused(s, "exit G6", "R27", "neither a border space nor a rim hex")
    refused(s, "exit B6", "R27", "no developer on B6")
    refused(s, "exit C7", "R27", "no developer on C7")


def test_r27_a_developer_that_left_may_re_enter() -> None:
    s = build(tiles=["B6v C6r C7r"], developers={"B6": A})
    play(s, "exit B6; enter B6")
    assert s.turn.ap == 4 and s.dev[H("B6")] == A


def test_r27_generated_exits() -> None:
    s = build(tiles=["G6v G5r H5r", "B6v A6r B5r", "I2r"], developers={"G6": A, "B6": A, "I2": A,
                                                                         "A6": B})
    got = {str(a) for a in s.legal_actions() if a.kind == "exit"}
    assert got == {"exit B6", "exit I2"}
