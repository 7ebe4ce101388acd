"""Hex geometry the app needs beyond the map: directions in cyclic order and tile shapes.

Kept in core, free of widgets, so a controller, the tests and any front end lay out a tile the
same way (R10: a three-space tile covers a hex and two neighbours that touch each other).
"""

from __future__ import annotations

from dataclasses import dataclass

from core.actions import RICE, VILLAGE
from core.hexmap import MAX_COLS, MAX_ROWS, hex_col, hex_id, hex_row

# Axial directions in cyclic order (E, NE, NW, W, SW, SE): consecutive ones are adjacent to
# each other, so a hex and two consecutive neighbours form a three-space tile shape (R10).
AXIAL_DIRS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def neighbour(h: int, d: int) -> int:
    """The neighbour of hex ``h`` in direction ``d`` (0..5, cyclic), or -1 off the grid."""
    r, c = hex_row(h), hex_col(h)
    q = c - (r - (r & 1)) // 2
    dq, dr = AXIAL_DIRS[d % 6]
    q2, r2 = q + dq, r + dr
    if r2 < 0 or r2 >= MAX_ROWS:
        return -1
    c2 = q2 + (r2 - (r2 & 1)) // 2
    if not 0 <= c2 < MAX_COLS:
        return -1
    return hex_id(r2, c2)


@dataclass
class TileShape:
    """The tile being placed: size 1–3, rotation 0–5, which cell is the village (R10)."""

    size: int = 3
    rotation: int = 0
    village: int = 0  # index of the village cell; for a single tile 0 = rice, 1 = village

    def cells(self, anchor: int) -> tuple[tuple[int, int], ...] | None:
        """The (hex, terrain) cells with the cursor on ``anchor``, or None off the grid."""
        if self.size == 1:
            return ((anchor, VILLAGE if self.village else RICE),)
        hexes = [anchor, neighbour(anchor, self.rotation)]
        if self.size == 3:
            hexes.append(neighbour(anchor, self.rotation + 1))
        if min(hexes) < 0:
            return None
        v = self.village % self.size
        return tuple((h, VILLAGE if i == v else RICE) for i, h in enumerate(hexes))

    def rotate(self, step: int = 1) -> None:
        self.rotation = (self.rotation + step) % 6

    def next_village(self) -> None:
        self.village = (self.village + 1) % (2 if self.size == 1 else self.size)


__all__ = ["AXIAL_DIRS", "TileShape", "neighbour"]
