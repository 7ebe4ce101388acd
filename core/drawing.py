"""The board as text: two lines per hex row, four characters per hex, odd rows shifted right.

Line 1 of a hex: terrain letter and level digit (``r2`` rice on level 2, ``v3`` village on
level 3, ``.`` bare, ``~~`` irrigation, ``L``/``M`` rim), then ``*`` when its palace held its
festival. Line 2: what stands there (``A``–``D`` a developer of that player, ``P8`` a palace of
value 8). Each piece of text carries a style name, so the CLI prints it plain and the app colours
it; the drawing reads without colour.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from core.actions import RICE
from core.hexmap import CENTRAL, LOWLAND, MOUNTAIN, OFF, hex_col, hex_id, hex_row

if TYPE_CHECKING:
    from core.state import GameState

Segment = tuple[str, str]  # (text, style name)
CELL = 4
LEFT = 3  # row label width
PLAYER_LETTERS = "ABCD"


def level_char(level: int) -> str:
    return str(level) if level < 10 else chr(ord("a") + level - 10) if level < 36 else "+"


def hex_cell(s: GameState, h: int) -> tuple[Segment, Segment]:
    """The two 3-character texts of hex ``h`` with their styles."""
    m = s.map
    k = m.kind[h]
    lv = s.level[h]
    if s.irrigated[h]:
        top: Segment = ("~~ ", "irrigation")
    elif lv > 0:
        t = "r" if s.terrain[h] == RICE else "v"
        mark = "*" if s.palace[h] and s.fest[h] else " "
        top = (f"{t}{level_char(lv)}{mark}", f"{'rice' if s.terrain[h] == RICE else 'village'}-{min(lv, 6)}")
    elif k == CENTRAL:
        top = (" . ", "bare")
    elif k == LOWLAND:
        top = ("L  ", "lowland")
    elif k == MOUNTAIN:
        top = ("M  ", "mountain")
    else:
        top = ("   ", "blank")
    if s.dev[h] >= 0:
        bottom: Segment = (f" {PLAYER_LETTERS[s.dev[h]]} ", f"player-{s.dev[h]}")
    elif s.palace[h]:
        bottom = (f"P{s.palace[h]:<2d}", "palace")
    else:
        bottom = ("   ", top[1] if lv > 0 or s.irrigated[h] else "blank")
    return top, bottom


def hex_origin(h: int) -> tuple[int, int]:
    """(x, line) of the first character of hex ``h`` in the drawing (line 0 is the header)."""
    r, c = hex_row(h), hex_col(h)
    return LEFT + (CELL // 2 if r % 2 else 0) + c * CELL, 1 + 2 * r


def hex_at(s: GameState, line: int, x: int) -> int:
    """The hex drawn at (line, x) of ``draw_board``, or -1 (for mouse clicks)."""
    if line < 1:
        return -1
    row = (line - 1) // 2
    off = LEFT + (CELL // 2 if row % 2 else 0)
    if x < off:
        return -1
    col = (x - off) // CELL
    if row >= s.map.rows or col >= 32:
        return -1
    h = hex_id(row, col)
    return h if s.map.kind[h] != OFF else -1


def draw_board(s: GameState, marks: Mapping[int, str] | None = None) -> list[list[Segment]]:
    """Lines of styled segments. ``marks`` overrides the style of chosen hexes (cursor, targets)."""
    m = s.map
    marks = marks or {}
    width = LEFT + CELL * m.cols + CELL // 2
    header: list[Segment] = [(" " * LEFT, "label")]
    for c in range(m.cols):
        header.append((f"{c + 1:<{CELL}d}", "label"))
    lines: list[list[Segment]] = [header]
    for r in range(m.rows):
        for part in (0, 1):
            label = f"{chr(65 + r)}  " if part == 0 else "   "
            segs: list[Segment] = [(label, "label")]
            if r % 2:
                segs.append((" " * (CELL // 2), "blank"))
            for c in range(m.cols):
                h = hex_id(r, c)
                if m.kind[h] == OFF:
                    segs.append((" " * CELL, "blank"))
                    continue
                text, style = hex_cell(s, h)[part]
                segs.append((text, marks.get(h, style)))
                segs.append((" ", "blank"))
            used = sum(len(t) for t, _ in segs)
            if used < width:
                segs.append((" " * (width - used), "blank"))
            lines.append(segs)
    footer: list[Segment] = [(" " * (LEFT + CELL // 2), "label")]
    for c in range(m.cols):
        footer.append((f"{c + 1:<{CELL}d}", "label"))
    lines.append(footer)
    return lines


LEGEND = (
    "r2 rice on level 2   v3 village on level 3   .  bare   ~~ irrigation   L lowland rim"
    "   M mountain rim\n"
    " A a developer of player A (B, C, D likewise)   P8 a palace of value 8   * festival held"
    "\nodd rows (B, D, ...) sit half a hex right; their column numbers are on the bottom line"
)


def board_text(s: GameState, legend: bool = True) -> str:
    out = ["".join(t for t, _ in line).rstrip() for line in draw_board(s)]
    if legend:
        names = "   ".join(f"{PLAYER_LETTERS[i]} = {p.name}" for i, p in enumerate(s.players))
        out += ["", LEGEND, names]
    return "\n".join(out)


__all__ = ["LEGEND", "PLAYER_LETTERS", "board_text", "draw_board", "hex_at", "hex_cell"]
