"""Maps: hex names, ids, neighbours, border spaces and entry costs (R4, R5; notation.md).

Hex ids are ``row * 32 + col`` (offset coordinates, 0-based), so a hex's name follows from its
id alone and actions need no map to print. Hot paths index flat lists of size ``SIZE``.
"""

from __future__ import annotations

import functools
import os
from dataclasses import dataclass, field
from importlib import resources

from core.errors import KratonError, MapError, NotationError, shown, shown_path

MAX_ROWS = 26
MAX_COLS = 32
SIZE = MAX_ROWS * MAX_COLS

# Hex kinds on a map.
OFF, CENTRAL, PRINTED_IRRIGATION, LOWLAND, MOUNTAIN = 0, 1, 2, 3, 4
KIND_CHARS = {".": CENTRAL, "~": PRINTED_IRRIGATION, "L": LOWLAND, "M": MOUNTAIN}
BUILTIN_MAPS = ("java-centre",)


def hex_id(row: int, col: int) -> int:
    return row * MAX_COLS + col


def hex_row(h: int) -> int:
    return h >> 5


def hex_col(h: int) -> int:
    return h & 31


def hex_name(h: int) -> str:
    """'G6' for row G (index 6), column 6 (index 5)."""
    return f"{chr(65 + (h >> 5))}{(h & 31) + 1}"


def parse_hex(text: str) -> int:
    """Parse a hex name ('g6' and 'G6' alike). Does not check that the hex is on a map.

    Only an ASCII row letter and ASCII digits: ``str.isdigit`` and ``int`` also take '²' or
    '٥', which would crash here or name another hex (notation.md)."""
    t = text.strip().upper()
    if not (2 <= len(t) <= 4 and t[0] in _ROW_LETTERS and all(c in _DIGITS for c in t[1:])):
        raise NotationError(f"'{shown(text)}' is not a hex name (a row letter A-Z and a column"
                            " number, e.g. G6)")
    col = int(t[1:]) - 1
    if not 0 <= col < MAX_COLS:
        raise NotationError(f"'{shown(text)}' is not a hex name (columns run 1..{MAX_COLS})")
    return hex_id(ord(t[0]) - 65, col)


_ROW_LETTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
_DIGITS = frozenset("0123456789")


def offset_neighbours(h: int) -> list[int]:
    """The six offset neighbours of notation.md (odd rows shifted right), clipped to the grid."""
    r, c = h >> 5, h & 31
    if r % 2 == 0:
        cand = [(r, c - 1), (r, c + 1), (r - 1, c - 1), (r - 1, c), (r + 1, c - 1), (r + 1, c)]
    else:
        cand = [(r, c - 1), (r, c + 1), (r - 1, c), (r - 1, c + 1), (r + 1, c), (r + 1, c + 1)]
    return [hex_id(rr, cc) for rr, cc in cand if 0 <= rr < MAX_ROWS and 0 <= cc < MAX_COLS]


def to_axial(h: int) -> tuple[int, int]:
    """Axial (q, r) coordinates of an odd-r offset hex (Red Blob Games)."""
    r, c = h >> 5, h & 31
    return c - (r - (r & 1)) // 2, r


def axial_distance(a: int, b: int) -> int:
    aq, ar = to_axial(a)
    bq, br = to_axial(b)
    return (abs(aq - bq) + abs(ar - br) + abs((aq + ar) - (bq + br))) // 2


@dataclass(eq=False)
class HexMap:
    """A loaded map. ``kind``, ``nbrs``, ``border_cost`` and ``rim_cost`` are flat per-id lists."""

    name: str
    rows: int
    cols: int
    kind: list[int]
    nbrs: list[tuple[int, ...]]
    hexes: tuple[int, ...]
    central: tuple[int, ...]
    rim: tuple[int, ...]
    printed_irrigation: tuple[int, ...]
    border_cost: list[int]  # R5: 0 = not a border space, else 1 (touches lowland) or 2
    rim_cost: list[int]  # R26: 1 lowland rim, 2 mountain rim, 0 otherwise
    triangles: tuple[tuple[int, int, int], ...] = field(default=())
    pairs: tuple[tuple[int, int], ...] = field(default=())
    # Per hex id, worked out with the shapes (``_add_shapes``) and read only: the triangles
    # through it, the other hex of each pair through it, and every pair then triangle through it.
    tris_at: list[list[tuple[int, int, int]]] = field(default_factory=list)
    partners: list[list[int]] = field(default_factory=list)
    shapes_at: list[list[tuple[int, ...]]] = field(default_factory=list)

    def on_map(self, h: int) -> bool:
        return 0 <= h < SIZE and self.kind[h] != OFF

    def is_central(self, h: int) -> bool:
        return self.kind[h] in (CENTRAL, PRINTED_IRRIGATION)

    def is_rim(self, h: int) -> bool:
        return self.kind[h] in (LOWLAND, MOUNTAIN)

    def edge_cost(self, h: int) -> int:
        """Cost to enter onto / exit from h (R5, R26); 0 when h is neither border nor rim."""
        return self.border_cost[h] or self.rim_cost[h]

    def hex(self, text: str) -> int:
        """Parse a hex name and check it is on this map."""
        h = parse_hex(text)
        if not self.on_map(h):
            raise NotationError(f"hex {hex_name(h)} is not on the map '{self.name}' (R4)")
        return h

    def adjacent(self, a: int, b: int) -> bool:
        return b in self.nbrs[a]


def parse_map(text: str, name: str = "<map>") -> HexMap:
    """Build a map from its text (notation.md). Refuses bad files naming line and column."""
    kind, where, rows = _read_kinds(text, name)
    hexes = tuple(h for h in range(SIZE) if kind[h] != OFF)
    if not any(kind[h] in (CENTRAL, PRINTED_IRRIGATION) for h in hexes):
        raise MapError(f"{name}: the map has no central space")
    nbrs = _neighbours(kind, hexes, where, name)
    border_cost = [0] * SIZE
    rim_cost = [0] * SIZE
    for h in hexes:
        k = kind[h]
        if k == LOWLAND:
            rim_cost[h] = 1
        elif k == MOUNTAIN:
            rim_cost[h] = 2
        else:
            rim_kinds = {kind[n] for n in nbrs[h]} & {LOWLAND, MOUNTAIN}
            if rim_kinds:
                border_cost[h] = 1 if LOWLAND in rim_kinds else 2
    m = HexMap(
        name=name,
        rows=rows,
        cols=max((h & 31) for h in hexes) + 1,
        kind=kind,
        nbrs=nbrs,
        hexes=hexes,
        central=tuple(h for h in hexes if kind[h] == CENTRAL),
        rim=tuple(h for h in hexes if kind[h] in (LOWLAND, MOUNTAIN)),
        printed_irrigation=tuple(h for h in hexes if kind[h] == PRINTED_IRRIGATION),
        border_cost=border_cost,
        rim_cost=rim_cost,
    )
    _add_shapes(m)
    return m


def _read_kinds(text: str, name: str) -> tuple[list[int], dict[int, tuple[int, int]], int]:
    """The kind of every hex of the map text, where each stands (line, column), and the count
    of rows; a character or offset the format does not allow is refused where it stands."""
    kind = [OFF] * SIZE
    row = -1
    where: dict[int, tuple[int, int]] = {}
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip("\r\n")
        if line.startswith("#"):
            continue
        row += 1
        if row >= MAX_ROWS:
            raise MapError(f"{name}: line {lineno}: more than {MAX_ROWS} rows")
        for i, ch in enumerate(line):
            if ch in " \t":
                if ch == "\t":
                    raise MapError(f"{name}: line {lineno}, column {i + 1}: tab character")
                continue
            if ch not in KIND_CHARS:
                raise MapError(
                    f"{name}: line {lineno}, column {i + 1}: unknown map character"
                    " (expected . ~ L M or a space, R4; not echoed)"
                )
            if i % 2 != row % 2:
                raise MapError(
                    f"{name}: line {lineno}, column {i + 1}: hex at the wrong offset"
                    f" (row {chr(65 + row)} uses {'even' if row % 2 == 0 else 'odd'} positions)"
                )
            col = i // 2
            if col >= MAX_COLS:
                raise MapError(f"{name}: line {lineno}, column {i + 1}: more than {MAX_COLS} columns")
            h = hex_id(row, col)
            kind[h] = KIND_CHARS[ch]
            where[h] = (lineno, i + 1)
    return kind, where, row + 1


def _neighbours(kind: list[int], hexes: tuple[int, ...], where: dict[int, tuple[int, int]],
                name: str) -> list[tuple[int, ...]]:
    """Each hex's neighbours on the map; a central space must have all six there (R4)."""
    nbrs: list[tuple[int, ...]] = [()] * SIZE
    for h in hexes:
        on = []
        for n in offset_neighbours(h):
            if kind[n] != OFF:
                on.append(n)
            elif kind[h] in (CENTRAL, PRINTED_IRRIGATION):
                lineno, colno = where[h]
                raise MapError(
                    f"{name}: line {lineno}, column {colno}: central space {hex_name(h)} has no"
                    f" neighbour on the map at {hex_name(n) if n >= 0 else 'the edge'}"
                    " (every hex next to a central space must be central or rim)"
                )
        # A central hex on the grid's own edge has fewer than six neighbours: refuse it too.
        if kind[h] in (CENTRAL, PRINTED_IRRIGATION) and len(offset_neighbours(h)) < 6:
            lineno, colno = where[h]
            raise MapError(
                f"{name}: line {lineno}, column {colno}: central space {hex_name(h)} lies on the"
                " edge of the grid (it needs a rim around it)"
            )
        nbrs[h] = tuple(on)
    return nbrs


def _add_shapes(m: HexMap) -> None:
    """Every place a two- or three-space tile could lie: ≥ 1 central hex (R14), no printed
    irrigation (R11)."""
    placeable = {h for h in m.hexes if m.kind[h] != PRINTED_IRRIGATION}
    pairs = set()
    tris = set()
    for h in placeable:
        ns = [n for n in m.nbrs[h] if n in placeable]
        for n in ns:
            if m.is_central(h) or m.is_central(n):
                pairs.add((min(h, n), max(h, n)))
            for o in ns:
                if o > n and o in m.nbrs[n]:
                    t = tuple(sorted((h, n, o)))
                    if any(m.is_central(x) for x in t):
                        tris.add(t)
    m.pairs = tuple(sorted(pairs))
    m.triangles = tuple(sorted(tris))  # type: ignore[arg-type]
    m.tris_at = [[] for _ in range(SIZE)]
    m.partners = [[] for _ in range(SIZE)]
    m.shapes_at = [[] for _ in range(SIZE)]
    for a, b in m.pairs:
        m.partners[a].append(b)
        m.partners[b].append(a)
    for shape in (*m.pairs, *m.triangles):
        for h in shape:
            m.shapes_at[h].append(shape)
    for tri in m.triangles:
        for h in tri:
            m.tris_at[h].append(tri)


# Maps parsed once and kept. What a map implies belongs on the map (``_add_shapes``); a cache
# of what a map and a position imply is keyed on the map object itself and holds this many
# maps at most: keyed on ``id(map)``, a map freed and another made at the same address would
# be handed the first one's entries.
MAPS_KEPT = 16


@functools.lru_cache(maxsize=MAPS_KEPT)
def _load_cached(spec: str) -> HexMap:
    """A built-in map, parsed once."""
    text = resources.files("core").joinpath("maps", f"{spec}.txt").read_text(encoding="utf-8")
    return parse_map(text, spec)


@functools.lru_cache(maxsize=MAPS_KEPT)
def _parse_cached(text: str, name: str) -> HexMap:
    """A map file, parsed once per content: an edited file is read anew."""
    return parse_map(text, name)


def _read_map_file(path: str) -> str:
    """A regular file of at most MAX_MAP_BYTES; devices, FIFOs and large files are refused
    without reading them (``/dev/zero`` would never end, ``/dev/stdin`` would block)."""
    from core.safefile import MAX_MAP_BYTES, read_bounded

    try:
        data = read_bounded(path, MAX_MAP_BYTES, "map")
    except KratonError as e:
        raise MapError(f"map {e}") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise MapError(f"map {shown_path(path)}: not a text file (not UTF-8)") from None


def load_map(spec: str = "java-centre", base_dir: str | None = None) -> HexMap:
    """A built-in map by name, or a map file by path.

    A relative path is read from ``base_dir`` (the folder of the position file naming it) when the
    file is there, else from the working folder. File maps are named by their absolute path, so a
    position keeps pointing at its map wherever it is saved (``core.position.save_position``
    writes the path relative to the new file again). Only a regular file of bounded size is
    read (``core.safefile``); it is parsed once per path and content.
    """
    if spec in BUILTIN_MAPS:
        return _load_cached(spec)
    if not spec or "\0" in spec or len(spec) > 1024:
        raise MapError(f"map '{shown(spec)}': not a built-in map ({', '.join(BUILTIN_MAPS)}) nor a file name")
    path = spec
    if base_dir and not os.path.isabs(spec):
        cand = os.path.join(base_dir, spec)
        if os.path.lexists(cand):
            path = cand
    if not os.path.lexists(path):
        raise MapError(
            f"map '{shown_path(spec)}': cannot read it (no such file, and the built-in maps are"
            f" {', '.join(BUILTIN_MAPS)})"
        )
    path = os.path.abspath(path)
    return _parse_cached(_read_map_file(path), path)  # devices, FIFOs, large files refused
