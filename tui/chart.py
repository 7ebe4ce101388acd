"""The score chart: every player's score after each turn, drawn with the Line API.

Each player's line is drawn with his letter (A-D), ``*`` where players tie (the leader where
two share a row), so it reads with NO_COLOR too; colour comes from component classes like the
board's. A legend under it names the players and their scores
at the cursor; the cursor's turn is a reversed column. Chosen over Textual's ``Sparkline``
(one series per widget, no axis, no shared scale) and ``textual-plotext`` (not installed; no
new dependency) — measured in benchmarks/README.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.segment import Segment
from rich.style import Style
from textual.strip import Strip
from textual.widget import Widget

from core.drawing import PLAYER_LETTERS

AXIS = 4  # columns of the score labels on the left
Cell = tuple[str, int]  # (character, player or -1)


def chart_cells(history: Sequence[Sequence[int]], width: int, height: int) -> tuple[list[list[Cell]], list[int]]:
    """The plot as rows of cells (top row first) and the turn shown in each column: turn ``t``
    (0 = the start) lands in column ``t * (plot width - 1) / turns``, so the whole game fits."""
    pw = max(1, width - AXIS)
    ph = max(1, height)
    turns = max(1, len(history) - 1)
    top = max([1] + [max(row) for row in history])
    rows: list[list[Cell]] = [[(" ", -1)] * width for _ in range(ph)]
    for y in range(ph):
        label = top * (ph - 1 - y) // max(1, ph - 1) if y in (0, ph - 1) or ph <= 3 else None
        text = f"{label:>3}|" if label is not None else "   |"
        rows[y][:AXIS] = [(ch, -1) for ch in text[:AXIS]]
    columns = [round(x * turns / max(1, pw - 1)) for x in range(pw)] if turns >= pw else []
    if not columns:  # fewer turns than columns: spread them
        step = (pw - 1) / turns
        columns = [-1] * pw
        for t in range(turns + 1):
            columns[round(t * step)] = t
    for x, t in enumerate(columns):
        if t < 0 or t >= len(history):
            continue
        taken: dict[int, int] = {}  # row -> the score drawn there
        for p, score in enumerate(history[t]):
            y = ph - 1 - round(score * (ph - 1) / top)
            if y not in taken or score > taken[y]:  # the leader shows where two share a row
                rows[y][AXIS + x] = (PLAYER_LETTERS[p], p)
                taken[y] = score
            elif score == taken[y]:
                rows[y][AXIS + x] = ("*", -1)  # a tie
    return rows, columns


def legend(names: Sequence[str], scores: Sequence[int], width: int = 80) -> str:
    """'A Red 67  B Yellow 47 ...  * tied', shortened to fit ``width`` (at last: letters only)."""
    text = ""
    for cut, tie in ((8, True), (5, True), (5, False), (0, True)):
        parts = [f"{PLAYER_LETTERS[p]}{' ' + n[:cut] if cut else ''} {s}"
                 for p, (n, s) in enumerate(zip(names, scores))]
        text = "  ".join(parts) + ("  * tied" if tie else "")
        if len(text) <= width:
            return text
    return text[:width]


class ScoreChart(Widget):
    """Scores after each turn; ``show`` with the history, the names and the cursor's turn."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {f"chart--player-{p}" for p in range(4)} | {"chart--cursor"}
    DEFAULT_CSS = """
    ScoreChart { height: 12; }
    ScoreChart > .chart--player-0 { color: #e74c3c; text-style: bold; }
    ScoreChart > .chart--player-1 { color: #f1c40f; text-style: bold; }
    ScoreChart > .chart--player-2 { color: #3498db; text-style: bold; }
    ScoreChart > .chart--player-3 { color: #2ecc71; text-style: bold; }
    ScoreChart > .chart--cursor { text-style: reverse; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.history: list[tuple[int, ...]] = []
        self.names: list[str] = []
        self.cursor_turn = 0  # index into history
        self._cells: tuple[tuple[int, int], list[list[Cell]], list[int]] | None = None

    def show(self, history: Sequence[Sequence[int]], names: Sequence[str], cursor_turn: int) -> None:
        self.history = [tuple(h) for h in history]
        self.names = list(names)
        self.cursor_turn = max(0, min(len(self.history) - 1, cursor_turn))
        self._cells = None
        self.refresh()

    def cells(self, width: int, height: int) -> tuple[list[list[Cell]], list[int]]:
        """The plot for this size, drawn once per change (``render_line`` asks line by line)."""
        if self._cells is None or self._cells[0] != (width, height):
            rows, columns = chart_cells(self.history, width, height)
            self._cells = ((width, height), rows, columns)
        return self._cells[1], self._cells[2]

    def text_rows(self, width: int, height: int) -> list[str]:
        """The chart as plain text (for tests and the README)."""
        rows, _ = chart_cells(self.history or [()], width, height - 1)
        scores = self.history[self.cursor_turn] if self.history else ()
        return ["".join(ch for ch, _ in r) for r in rows] + [legend(self.names, scores, width)]

    def render_line(self, y: int) -> Strip:
        width, height = self.size.width, self.size.height
        if not self.history or width <= AXIS:
            return Strip.blank(width, self.rich_style)
        if y == height - 1:
            text = legend(self.names, self.history[self.cursor_turn], width)
            segs = [Segment(ch, self._style(f"player-{PLAYER_LETTERS.index(ch)}")
                            if ch in PLAYER_LETTERS and (x == 0 or text[x - 1] == " ") and
                            (x + 1 == len(text) or text[x + 1] == " ") else Style())
                    for x, ch in enumerate(text)]
            return Strip(segs).simplify().crop(0, width).extend_cell_length(width, self.rich_style)
        rows, columns = self.cells(width, height - 1)
        cursor_x = {AXIS + x for x, t in enumerate(columns) if t == self.cursor_turn}
        if not cursor_x and columns:  # the cursor's turn fell between columns: the nearest
            cursor_x = {AXIS + min(range(len(columns)), key=lambda x: abs(columns[x] - self.cursor_turn))}
        segs = []
        for x, (ch, p) in enumerate(rows[y]):
            style = self._style(f"player-{p}") if p >= 0 else Style()
            if x in cursor_x:
                style = style + self._style("cursor")
                ch = "|" if ch == " " else ch
            segs.append(Segment(ch, style))
        return Strip(segs).simplify().extend_cell_length(width, self.rich_style)

    def _style(self, name: str) -> Style:
        return self.get_component_rich_style(f"chart--{name}", default=Style())


__all__ = ["ScoreChart", "chart_cells", "legend"]
