"""The board as one Line-API widget: ``core.drawing`` lines rendered row by row, scrollable.

``core.drawing.draw_board`` gives styled text (2 lines per hex row, 4 characters per hex); each
style name maps to a component class (``board--rice-3``), so the theme colours it while the text
still reads without colour (terrain letter + level digit). On top come overlays the screens set:
the cursor, highlighted targets with their AP cost, and a tile preview. A cursor move refreshes
only the lines of the two hexes concerned (``refresh_lines``), never the whole widget.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import ClassVar

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import Binding, BindingType
from textual.geometry import Region, Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

from core.drawing import CELL, LEFT, draw_board, hex_at, hex_origin
from core.hexmap import MAX_COLS, OFF, hex_col, hex_id, hex_row
from core.state import GameState

STYLE_NAMES = (
    [f"rice-{i}" for i in range(1, 7)]
    + [f"village-{i}" for i in range(1, 7)]
    + [f"player-{i}" for i in range(4)]
    + ["bare", "irrigation", "lowland", "mountain", "palace", "label", "blank"]
    + ["cursor", "target", "preview-ok", "preview-bad", "selected", "recent"]
)

@dataclass(frozen=True)
class Overlay:
    """What a screen paints over one hex: a style and optionally the text of its lines."""

    style: str
    top: str | None = None
    bottom: str | None = None


class BoardView(ScrollView, can_focus=True):
    """Java's board. Screens set ``state``, ``overlays`` and move ``cursor``."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up,k", "step(-1, 0)", "Up", show=False),
        Binding("down,j", "step(1, 0)", "Down", show=False),
        Binding("left,h", "step(0, -1)", "Left", show=False),
        Binding("right,l", "step(0, 1)", "Right", show=False),
    ]

    COMPONENT_CLASSES: ClassVar[set[str]] = {f"board--{n}" for n in STYLE_NAMES}

    DEFAULT_CSS = """
    BoardView { background: $surface; }
    """

    class HexClicked(Message):
        """A hex was clicked (``button`` 1 = left, 3 = right)."""

        def __init__(self, hex: int, button: int) -> None:
            self.hex = hex
            self.button = button
            super().__init__()

    class CursorMoved(Message):
        def __init__(self, hex: int) -> None:
            self.hex = hex
            super().__init__()

    def __init__(self, state: GameState, *, name: str | None = None, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.state = state
        self.overlays: dict[int, Overlay] = {}
        self.recent: set[int] = set()  # hexes of the last turn shown (underlined)
        self._recent_at: dict[int, set[int]] = {}  # line -> columns of those hexes
        self.cursor = self._first_hex(state)
        self.show_cursor = True
        self.on_cursor: Callable[[int], None] | None = None
        self._lines: list[list[tuple[str, str]]] = []
        self._cells: list[list[tuple[str, str]]] = []  # per line: (char, style) per column
        self._rebuild()

    @staticmethod
    def _first_hex(s: GameState) -> int:
        """The central hex nearest the middle of the map: where the cursor starts."""
        m = s.map
        mid_r, mid_c = m.rows / 2, m.cols / 2
        pool = m.central or m.hexes
        return min(pool, key=lambda h: (abs(hex_row(h) - mid_r) * 2 + abs(hex_col(h) - mid_c), h))

    # ------------------------------------------------------------------ data
    def set_state(self, state: GameState, overlays: Mapping[int, Overlay] | None = None) -> None:
        """Show another state (or the same one after a change) and repaint."""
        self.state = state
        if not state.map.on_map(self.cursor):
            self.cursor = self._first_hex(state)
        self.set_overlays(overlays or {})

    def set_overlays(self, overlays: Mapping[int, Overlay]) -> None:
        self.overlays = dict(overlays)
        self._rebuild()
        self.refresh()

    def _rebuild(self) -> None:
        lines = draw_board(self.state)
        cells: list[list[tuple[str, str]]] = []
        for segs in lines:
            row: list[tuple[str, str]] = []
            for text, style in segs:
                row.extend((ch, style) for ch in text)
            cells.append(row)
        for h, ov in self.overlays.items():
            x, y = hex_origin(h)
            for part, over in ((0, ov.top), (1, ov.bottom)):
                line = cells[y + part]
                base = [line[x + i][0] for i in range(3)] if over is None else list(f"{over:<3}"[:3])
                for i in range(3):
                    line[x + i] = (base[i], ov.style)
        self._cells = cells
        self._recent_at = {}
        for h in self.recent:
            if self.state.map.on_map(h):
                x, y = hex_origin(h)
                for row_y in (y, y + 1):
                    self._recent_at.setdefault(row_y, set()).update(range(x, x + 3))
        width = max(len(r) for r in cells)
        self.virtual_size = Size(width, len(cells))

    # ------------------------------------------------------------------ rendering
    def _style(self, name: str) -> Style:
        return self.get_component_rich_style(f"board--{name}", default=Style())

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        # The column numbers (line 0) stay at the top when the board scrolls down.
        index = 0 if y == 0 else y + scroll_y
        width = self.size.width
        if index >= len(self._cells):
            return Strip.blank(width, self.rich_style)
        row = self._cells[index]
        cx, cy = hex_origin(self.cursor)
        cursor_here = self.show_cursor and index in (cy, cy + 1)
        recent = self._recent_at.get(index, set())
        segments: list[Segment] = []
        run_text = ""
        run_style: Style | None = None
        for x, (ch, name) in enumerate(row):
            style = self._style(name)
            if x in recent:
                style = style + self._style("recent")
            if cursor_here and cx <= x < cx + 3:
                style = style + self._style("cursor")
            if style is run_style:
                run_text += ch
                continue
            if run_text:
                segments.append(Segment(run_text, run_style))
            run_text, run_style = ch, style
        if run_text:
            segments.append(Segment(run_text, run_style))
        strip = Strip(segments, len(row))
        if scroll_x > 0 and width > LEFT:
            # The row labels stay put when the board scrolls sideways.
            return Strip.join([strip.crop(0, LEFT), strip.crop(scroll_x + LEFT, scroll_x + width)]
                              ).extend_cell_length(width, self.rich_style)
        return strip.crop(scroll_x, scroll_x + width).extend_cell_length(width, self.rich_style)

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self.refresh()

    # ------------------------------------------------------------------ cursor
    def move_cursor_to(self, h: int) -> None:
        if h < 0 or not self.state.map.on_map(h) or h == self.cursor:
            return
        old = self.cursor
        self.cursor = h
        for hx in (old, h):
            _, y = hex_origin(hx)
            self.refresh_lines(y, 2)
        x, y = hex_origin(h)
        # LEFT more on the left and one line more on top: the pinned row labels and column
        # numbers cover that much of a scrolled board.
        self.scroll_to_region(Region(x - 1 - LEFT, y - 2, CELL + 2 + LEFT, 5), animate=False,
                              immediate=True)
        if self.on_cursor is not None:
            self.on_cursor(h)  # synchronous, so a key right after sees the new message
        else:
            self.post_message(self.CursorMoved(h))

    def show_hexes(self, hexes: set[int]) -> None:
        """Scroll so that the hexes (a turn looked back at) are in view; the cursor stays."""
        if not hexes:
            return
        xs, ys = zip(*(hex_origin(h) for h in hexes))
        region = Region(min(xs) - 1 - LEFT, min(ys) - 2, max(xs) - min(xs) + CELL + 2 + LEFT,
                        max(ys) - min(ys) + 5)
        self.scroll_to_region(region, animate=False, immediate=True)

    def step_cursor(self, dr: int, dc: int) -> None:
        """Move by rows / columns, skipping gaps in the map (arrows, hjkl)."""
        r, c = hex_row(self.cursor), hex_col(self.cursor)
        m = self.state.map
        for _ in range(MAX_COLS):
            r, c = r + dr, c + dc
            if not (0 <= r < m.rows and 0 <= c < MAX_COLS):
                return
            h = hex_id(r, c)
            if m.kind[h] != OFF:
                self.move_cursor_to(h)
                return
            if dr:  # vertical moves look sideways for the nearest hex on that row
                for off in (1, -1, 2, -2):
                    h2 = hex_id(r, c + off) if 0 <= c + off < MAX_COLS else -1
                    if h2 >= 0 and m.kind[h2] != OFF:
                        self.move_cursor_to(h2)
                        return

    def action_step(self, dr: int, dc: int) -> None:
        self.step_cursor(dr, dc)

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        sx, sy = self.scroll_offset
        if (sx > 0 and offset.x < LEFT) or (sy > 0 and offset.y == 0):
            return  # a click on the pinned row labels or column numbers
        h = hex_at(self.state, offset.y + sy, offset.x + sx)
        if h >= 0:
            self.move_cursor_to(h)
            self.post_message(self.HexClicked(h, event.button))
