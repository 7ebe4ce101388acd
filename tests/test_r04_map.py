"""R4, R5: the map — counts, hex names, neighbours, border spaces, entry costs, bad map files."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import pytest

from core.errors import MapError, NotationError
from core.hexmap import (
    CENTRAL,
    LOWLAND,
    MOUNTAIN,
    PRINTED_IRRIGATION,
    hex_name,
    load_map,
    parse_hex,
    parse_map,
)
from tests.helpers import H, names

SHARED_MAP = Path(__file__).resolve().parents[2] / "shared" / "board" / "java-centre.txt"


def map_text() -> str:
    return resources.files("core").joinpath("maps", "java-centre.txt").read_text(encoding="utf-8")


def independent_cells(text: str) -> dict[tuple[int, int], str]:
    """(row, col) -> map character, read straight from notation.md's description."""
    cells = {}
    row = -1
    for line in text.splitlines():
        if line.startswith("#"):
            continue
        row += 1
        for i, ch in enumerate(line):
            if ch != " ":
                cells[(row, i // 2)] = ch
    return cells


def test_r4_counts_150_central_and_3_printed_irrigation() -> None:
    m = load_map("java-centre")
    assert len(m.central) == 150
    assert len(m.printed_irrigation) == 3
    assert all(m.kind[h] == CENTRAL for h in m.central)
    cells = independent_cells(map_text())
    assert sum(1 for ch in cells.values() if ch == ".") == 150
    assert sum(1 for ch in cells.values() if ch == "~") == 3


def test_r4_printed_irrigation_names() -> None:
    m = load_map()
    assert names(m.printed_irrigation) == ["G10", "J11", "J5"]
    for n in ("G10", "J5", "J11"):
        assert m.kind[H(n)] == PRINTED_IRRIGATION


def test_r4_b6_is_the_top_left_central_space() -> None:
    m = load_map()
    central = sorted(m.central)  # ids are row-major: reading order
    assert hex_name(central[0]) == "B6"
    assert not any(hex_name(h).startswith("A") for h in m.central)
    assert m.kind[H("B5")] == LOWLAND  # its left neighbour is rim


def test_r4_rim_is_lowland_north_and_mountain_south() -> None:
    m = load_map()
    rows_l = {hex_name(h)[0] for h in m.rim if m.kind[h] == LOWLAND}
    rows_m = {hex_name(h)[0] for h in m.rim if m.kind[h] == MOUNTAIN}
    assert max(rows_l) < min(rows_m)


def test_r4_shipped_map_is_a_copy_of_the_shared_board() -> None:
    if not SHARED_MAP.exists():
        pytest.skip("../shared/board is not next to this checkout")
    assert SHARED_MAP.read_text(encoding="utf-8") == map_text()


def test_r4_hex_names_round_trip_and_ignore_case() -> None:
    m = load_map()
    for h in m.hexes:
        assert parse_hex(hex_name(h)) == h
        assert parse_hex(hex_name(h).lower()) == h
    assert m.hex("g6") == H("G6")


@pytest.mark.parametrize("bad", ["", "G", "6G", "GG", "G0", "G33", "?6", "G-1"])
def test_r4_bad_hex_names_are_refused(bad: str) -> None:
    with pytest.raises(NotationError):
        parse_hex(bad)


def test_r4_hex_off_the_map_is_refused_by_name() -> None:
    with pytest.raises(NotationError, match=r"A1 is not on the map.*R4"):
        load_map().hex("A1")


def notation_neighbours(r: int, c: int) -> set[tuple[int, int]]:
    if r % 2 == 0:
        return {(r, c - 1), (r, c + 1), (r - 1, c - 1), (r - 1, c), (r + 1, c - 1), (r + 1, c)}
    return {(r, c - 1), (r, c + 1), (r - 1, c), (r - 1, c + 1), (r + 1, c), (r + 1, c + 1)}


def test_r4_neighbours_follow_notation_md() -> None:
    m = load_map()
    cells = independent_cells(map_text())
    for r, c in cells:
        want = {rc for rc in notation_neighbours(r, c) if rc in cells}
        got = {(n >> 5, n & 31) for n in m.nbrs[(r << 5) | c]}
        assert got == want, f"neighbours of {hex_name((r << 5) | c)}"


def test_r4_neighbours_agree_with_the_axial_formula() -> None:
    """Odd rows shifted right = 'odd-r' offset coordinates; in axial coordinates neighbours are
    exactly the hexes at distance 1."""
    m = load_map()

    def axial(h: int) -> tuple[int, int]:
        r, c = h >> 5, h & 31
        return c - (r - (r & 1)) // 2, r

    def dist(a: int, b: int) -> int:
        (aq, ar), (bq, br) = axial(a), axial(b)
        return max(abs(aq - bq), abs(ar - br), abs(aq + ar - bq - br))

    for a in m.hexes:
        for b in m.hexes:
            assert (dist(a, b) == 1) == (b in m.nbrs[a]), (hex_name(a), hex_name(b))


def test_r4_example_neighbours() -> None:
    m = load_map()
    assert names(m.nbrs[H("G6")]) == ["F5", "F6", "G5", "G7", "H5", "H6"]  # even row
    assert names(m.nbrs[H("H6")]) == ["G6", "G7", "H5", "H7", "I6", "I7"]  # odd row


def test_r4_every_central_space_has_six_neighbours_on_the_map() -> None:
    m = load_map()
    for h in m.central + m.printed_irrigation:
        assert len(m.nbrs[h]) == 6


def test_r5_border_spaces_are_central_spaces_touching_the_rim() -> None:
    m = load_map()
    for h in m.hexes:
        touches = {m.kind[n] for n in m.nbrs[h]} & {LOWLAND, MOUNTAIN}
        if m.kind[h] in (CENTRAL, PRINTED_IRRIGATION) and touches:
            assert m.border_cost[h] == (1 if LOWLAND in touches else 2), hex_name(h)
        else:
            assert m.border_cost[h] == 0, hex_name(h)


def test_r5_entry_costs_examples() -> None:
    m = load_map()
    assert m.edge_cost(H("B6")) == 1  # border, touches lowland
    assert m.edge_cost(H("I2")) == 2  # border, touches mountains only
    assert m.edge_cost(H("H3")) == 1  # touches both lowland (G3) and mountain (H2): lowland wins
    assert m.edge_cost(H("E8")) == 0  # inner space
    assert m.edge_cost(H("A6")) == 1  # lowland rim (R26)
    assert m.edge_cost(H("O5")) == 2  # mountain rim (R26)
    assert m.border_cost[H("A6")] == 0 and m.rim_cost[H("A6")] == 1


def test_r5_border_space_counts() -> None:
    m = load_map()
    border = [h for h in m.central if m.border_cost[h]]
    # Bare inner spaces are where irrigation may go on the empty board (R37).
    assert len(m.central) - len(border) == 93
    assert all(not m.border_cost[h] for h in m.printed_irrigation)


def test_r4_map_from_a_file_path(tmp_path: Path) -> None:
    p = tmp_path / "tiny.txt"
    p.write_text("# a one-space island\n  L L\n L . M\n  M M\n", encoding="utf-8")
    m = load_map(str(p))
    assert names(m.central) == ["B2"]
    assert len(m.rim) == 6
    assert m.border_cost[H("B2")] == 1
    assert m.pairs == tuple(sorted(m.pairs)) and all(H("B2") in pr for pr in m.pairs)
    assert len(m.pairs) == 6 and len(m.triangles) == 6


def test_r4_relative_map_path_from_base_dir(tmp_path: Path) -> None:
    (tmp_path / "tiny.txt").write_text("  L L\n L . L\n  L L\n", encoding="utf-8")
    m = load_map("tiny.txt", base_dir=str(tmp_path))
    assert names(m.central) == ["B2"]


BAD_MAPS = [
    # (text, line, column, what the message says)
    ("  L L\n L x L\n  L L\n", 2, 4, "unknown map character"),
    ("  L L\n L . L\n L L\n", 3, 2, "wrong offset"),
    ("# comment\n  L L\n L . L\n  L L \tL\n", 4, 7, "tab"),
    ("L L\n . L\nL L\n", 2, 2, "edge of the grid"),
    ("  L L\n L . L\n  L\n", 2, 4, "has no neighbour"),
]


@pytest.mark.parametrize("text,line,col,what", BAD_MAPS)
def test_r4_bad_map_files_are_refused_with_line_and_column(
    tmp_path: Path, text: str, line: int, col: int, what: str
) -> None:
    p = tmp_path / "bad.txt"
    p.write_text(text, encoding="utf-8")
    with pytest.raises(MapError) as e:
        load_map(str(p))
    msg = str(e.value)
    assert f"line {line}, column {col}" in msg
    assert what in msg
    assert "\n" not in msg


def test_r4_map_without_central_space_is_refused() -> None:
    with pytest.raises(MapError, match="no central space"):
        parse_map("L L\n L\n", "x")


def test_r4_map_with_too_many_rows_is_refused() -> None:
    with pytest.raises(MapError, match="line 27"):
        parse_map("L\n L\n" * 14, "x")


def test_r4_missing_or_binary_map_file_is_refused(tmp_path: Path) -> None:
    with pytest.raises(MapError, match="cannot read"):
        load_map(str(tmp_path / "nope.txt"))
    p = tmp_path / "bin.txt"
    p.write_bytes(b"\xff\xfe\x00L")
    with pytest.raises(MapError, match="not a text file"):
        load_map(str(p))
