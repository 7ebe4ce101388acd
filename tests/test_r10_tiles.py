"""R10–R15 (and R23): land tiles — supplies, shapes, covering, flatness, sizes, overhang, cities."""

from __future__ import annotations

import pytest

from core.actions import RICE, VILLAGE, Tile
from core.errors import IllegalAction
from tests.helpers import H, act, build, play


def refused(s, text: str, rule: str, match: str = "") -> IllegalAction:
    with pytest.raises(IllegalAction) as e:
        s.push(act(text))
    assert e.value.rule == rule, str(e.value)
    assert rule in str(e.value)
    if match:
        assert match in str(e.value)
    return e.value


def generated(s, text: str) -> bool:
    return act(text) in set(s.legal_actions())


# ------------------------------------------------------------------ R10 supplies and shapes

def test_r10_three_space_tile_comes_from_the_shared_supply() -> None:
    s = build(tile_placed=False)
    play(s, "tile G6v G5r H5r")
    assert s.triples == 55
    assert [p.doubles for p in s.players] == [5, 5]
    assert s.turn.ap == 5 and s.turn.tile_placed
    assert s.level[H("G6")] == s.level[H("G5")] == s.level[H("H5")] == 1
    assert s.terrain[H("G6")] == VILLAGE and s.terrain[H("G5")] == RICE
    assert s.top[H("G6")] == s.top[H("H5")] == 0
    tile = act("tile G6v G5r H5r")
    assert isinstance(tile, Tile) and s.tiles == [tile.cells]


def test_r10_two_and_one_space_tiles_come_from_the_movers_own_supply() -> None:
    s = build(to_move=1)
    play(s, "tile G6v G7r; tile E8r; tile I8v")
    p0, p1 = s.players
    assert (p0.doubles, p0.rice, p0.villages) == (5, 3, 2)
    assert (p1.doubles, p1.rice, p1.villages) == (4, 2, 1)
    assert s.triples == 56


def test_r10_empty_supplies_are_refused() -> None:
    s = build()
    s.triples = 0
    refused(s, "tile G6v G5r H5r", "R10", "shared supply")
    s.players[0].doubles = 0
    refused(s, "tile G6v G7r", "R10", "two-space")
    s.players[0].rice = 0
    refused(s, "tile G6r", "R10", "rice")
    s.players[0].villages = 0
    refused(s, "tile G6v", "R10", "village")
    assert not [a for a in s.legal_actions() if a.kind == "tile"]


@pytest.mark.parametrize(
    "text",
    [
        "tile G6v G5r H6r",  # G5 and H6 are not adjacent
        "tile G6v G5v H5r",  # two villages
        "tile G6r G5r H5r",  # no village
        "tile G6v G8r",  # not adjacent
        "tile G6r G7r",  # two-space tile with two rice
        "tile G6v G7v",
    ],
)
def test_r10_shapes_and_terrains_of_the_tiles(text: str) -> None:
    refused(build(), text, "R10")


def test_r10_canonical_order_of_cells() -> None:
    assert act("tile G5r G6v H5r") == act("tile H5r G6v G5r") == act("tile G6v G5r H5r")
    assert str(act("tile h5R g5r G6V")) == "tile G6v G5r H5r"


# ------------------------------------------------------------------ R11 what may be covered

def test_r11_a_tile_may_not_cover_a_developer_a_palace_or_irrigation() -> None:
    s = build(tiles=["G5v", "G6v G7r"], developers={"G7": 1}, palaces={"G5": 2},
              irrigation=["E8"])
    refused(s, "tile G7r", "R11", "developer")
    refused(s, "tile G5r", "R11", "palace")
    refused(s, "tile G6v G5r", "R11", "palace")
    refused(s, "tile E8r", "R11", "irrigation")
    refused(s, "tile G10r", "R11", "irrigation")  # printed irrigation space
    refused(s, "tile G9v G10r", "R11", "irrigation")
    s.push(act("tile G6r"))  # the village hex next to the palace may be covered


# ------------------------------------------------------------------ R12 flat

def test_r12_a_tile_must_lie_flat() -> None:
    s = build(tiles=["G6v G5r H5r"])
    refused(s, "tile H6r H5v", "R12", "flat")
    refused(s, "tile G7v G6r H6r", "R12")
    play(s, "tile H6r")  # level 0 → 1
    play(s, "tile H6v H5r")  # now both at level 1


# ------------------------------------------------------------------ R13 sizes

def test_r13_not_exactly_on_one_tile_of_its_own_size() -> None:
    s = build(tiles=["G6v G5r H5r", "F7v F8r", "I8v"])
    refused(s, "tile G6r G5v H5r", "R13", "3-space")
    refused(s, "tile F7r F8v", "R13", "2-space")
    refused(s, "tile I8r", "R13", "1-space")
    for text in ("tile G6r G5v H5r", "tile F7r F8v", "tile I8r", "tile I8v"):
        assert not generated(s, text)


def test_r13_parts_of_several_tiles_or_another_size_are_allowed() -> None:
    s = build(tiles=["G6v G5r", "H5v", "F7v F8r E8r"])
    assert generated(s, "tile G6v G5r H5r")
    play(s, "tile G6v G5r H5r")  # parts of a two- and a one-space tile
    s = build(tiles=["G6v G5r H5r", "F7v F8r"])
    play(s, "tile G6r G5v")  # two of the three hexes of a three-space tile
    play(s, "tile F8v")  # one hex of a two-space tile
    play(s, "tile G5r")  # one-space on one hex of a two-space tile


def test_r13_only_the_tiles_showing_on_top_matter() -> None:
    # The three-space tile below is hidden by a two- and a one-space tile: allowed.
    s = build(tiles=["G6v G5r H5r", "G6v G5r", "H5r"])
    play(s, "tile G6v G5r H5r")
    assert s.level[H("G6")] == 3
    # A three-space tile showing on top, whatever lies below: refused.
    s = build(tiles=["G6v G5r", "H5v", "G6v G5r H5r"])
    refused(s, "tile G6v G5r H5r", "R13")


# ------------------------------------------------------------------ R14 overhang

def test_r14_rule_book_example_three_space_tile_with_two_hexes_outside_costs_3() -> None:
    s = build(tile_placed=False)
    assert s.map.is_rim(H("A6")) and s.map.is_rim(H("B5")) and not s.map.is_rim(H("B6"))
    play(s, "tile B6v A6r B5r")
    assert s.turn.ap == 3
    assert s.level[H("A6")] == 1 and s.level[H("B5")] == 1


def test_r14_two_space_overhang_costs_2() -> None:
    s = build()
    play(s, "tile B7v A7r")
    assert s.turn.ap == 4


def test_r14_rim_hex_already_covered_costs_nothing_extra() -> None:
    s = build(tiles=["B6v A6r B5r", "B7v A7r"])
    play(s, "tile B6v A6r A7r")
    assert s.turn.ap == 5
    s = build(tiles=["B6v A6r B5r", "B7v A7r"])
    play(s, "tile A7v B6r B7r")  # one rim hex, already land
    assert s.turn.ap == 5


def test_r14_one_space_tiles_never_overhang() -> None:
    refused(build(), "tile A6r", "R14")
    refused(build(tiles=["B6v A6r B5r"]), "tile A6r", "R14")  # not even on rim land


def test_r14_a_tile_needs_a_hex_in_java_centre() -> None:
    refused(build(), "tile A6v A7r", "R14")
    refused(build(tiles=["B6v A6r B5r", "B7v A7r"]), "tile A6v A7r", "R14")


def test_r14_overhang_needs_its_ap() -> None:
    s = build(ap=2, token_used=True)
    assert not generated(s, "tile B6v A6r B5r")
    assert generated(s, "tile B7v A7r")
    refused(s, "tile B6v A6r B5r", "R7", "3 AP")
    s = build(ap=3)
    assert generated(s, "tile B6v A6r B5r")


def test_r14_overhang_off_the_map_is_refused() -> None:
    # A1 is not a hex of java-centre.
    refused(build(), "tile B6v A6r A5r", "R4")


# ------------------------------------------------------------------ R15 joining cities

def two_cities(second_palace: bool = True):
    return build(
        tiles=["G5v H5r", "G6v H6r", "G8v H8r", "G9v H9r"],
        palaces={"G5": 2, "G9": 2} if second_palace else {"G5": 2},
    )


def test_r15_joining_two_cities_is_refused() -> None:
    s = two_cities()
    refused(s, "tile G7v F7r F6r", "R15", "two cities")
    refused(s, "tile G7v", "R15")
    refused(s, "tile G7v F7r", "R15")
    for text in ("tile G7v F7r F6r", "tile G7v", "tile G7v F7r"):
        assert not generated(s, text)
    # The same hexes with the village elsewhere join nothing.
    assert generated(s, "tile F7v G7r F6r")
    play(s, "tile F7v G7r F6r")


def test_r15_joining_a_city_and_a_village_is_allowed() -> None:
    s = two_cities(second_palace=False)
    assert generated(s, "tile G7v F7r F6r")
    play(s, "tile G7v F7r F6r")
    g = s.groups()
    assert len(g.members[g.label[H("G5")]]) == 5
    assert g.palace[g.label[H("G9")]] == H("G5")


def test_r15_cutting_a_city_first_makes_the_join_legal() -> None:
    # Covering G6 with rice splits city A: G7 then touches city B and a palace-less village.
    s = two_cities()
    play(s, "tile G6r")
    play(s, "tile G7v")
    g = s.groups()
    assert g.label[H("G7")] == g.label[H("G9")] != g.label[H("G5")]


# ------------------------------------------------------------------ R23 splitting a city

def test_r23_splitting_a_city_keeps_the_palace_value_and_frees_the_rest() -> None:
    s = build(tiles=["G5v H5r", "G6v H6r", "G7v H7r", "G8v H8r"], palaces={"G5": 4},
              developers={"G8": 0})
    g = s.groups()
    assert len(g.members[g.label[H("G5")]]) == 4
    play(s, "tile G6r")
    assert s.palace[H("G5")] == 4
    g = s.groups()
    assert g.members[g.label[H("G5")]] == [H("G5")]
    split = g.label[H("G7")]
    assert g.palace[split] == -1  # a village again
    assert sorted(g.members[split]) == [H("G7"), H("G8")]
    play(s, "palace G7 2")  # and it may receive a palace of its own
    assert s.palace[H("G5")] == 4 and s.palace[H("G7")] == 2


def test_r23_a_shrunk_city_cannot_be_enlarged_above_its_size() -> None:
    s = build(tiles=["G5v H5r", "G6v H6r", "G7v H7r"], palaces={"G5": 2}, developers={"G6": 0})
    play(s, "tile G7r")
    refused(s, "palace G5 4", "R28", "size")
