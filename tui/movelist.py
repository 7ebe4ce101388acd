"""The move list: the game by turns (turn, seat, actions, points, the review's mark and best, a
comment marker), the action at the cursor marked, as a widget that shows the lines around it.

Text first (``movelist_lines``) so tests read it without a screen; the action at the cursor is
shown in reverse with a ``>`` before it (seen even when a long line is cut), so it reads with
NO_COLOR too.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rich.markup import escape
from textual.widgets import Static

from core.drawing import PLAYER_LETTERS
from core.game import Game
from tui.turnlog import gains_text

COMMENT = "#"  # marks an action with a comment


@dataclass(frozen=True)
class Line:
    text: str  # Textual markup
    action: int  # the action number (1-based) the line stands for; 0 for a turn heading
    turn: int  # 0-based turn index


def evaluation_text(ev: dict[str, Any] | None) -> str:
    """'  ?! best 9' (marked; best proved), '  -2 best 4+' (2 points missed, below the marks;
    the best found, not proved), '  = best 4' (the best was played); '' when not evaluated."""
    if not ev:
        return ""
    mark = ev.get("mark") or ""
    best = ev.get("best")
    missed = (best - ev["played"]) if isinstance(best, int) and isinstance(ev.get("played"), int) else 0
    proved = "" if ev.get("proved") else "+"
    head = f"  [b]{escape(mark)}[/b]" if mark else (f"  -{missed}" if missed > 0 else "  =")
    return f"{head} best {best}{proved}"


def movelist_lines(game: Game, names: list[str],
                   evaluations: dict[int, dict[str, Any]] | None = None) -> list[Line]:
    """A heading per turn, then its actions with who scored what; ``evaluations`` (by turn
    number) are those the user may see (R44), the game's own by default."""
    evals = game.evaluations if evaluations is None else evaluations
    out: list[Line] = []
    for t in game.turn_spans():
        pts = t.points
        head = (f"[b]{PLAYER_LETTERS[t.player]} {escape(names[t.player])}[/b], turn {t.index + 1}:"
                f" {'+' if pts >= 0 else ''}{pts}" + evaluation_text(evals.get(t.index + 1)))
        out.append(Line(head, 0, t.index))
        for i in range(t.first, t.end):
            st = game.steps[i]
            who = "" if st.player == t.player else f"{PLAYER_LETTERS[st.player]} "
            gains = tuple(a - b for a, b in zip(st.scores, game.scores_at(i)))
            note = f" [b]{COMMENT}[/b]" if (i + 1) in game.comments else ""
            out.append(Line(f"  {who}{escape(str(st.action))}{gains_text(st.action, gains)}{note}",
                            i + 1, t.index))
    return out


def window(lines: list[Line], shown: int, height: int) -> tuple[list[Line], int]:
    """The lines to show (``height`` of them) so the cursor's line stays in view, and its index
    in them (-1 at the start of the game)."""
    at = next((k for k, ln in enumerate(lines) if ln.action == shown), -1) if shown else -1
    if len(lines) <= height:
        return lines, at
    top = max(0, min(len(lines) - height, at - height // 2)) if at >= 0 else 0
    return lines[top:top + height], at - top if at >= 0 else -1


def render(lines: list[Line], shown: int, height: int, title: str = "Moves") -> str:
    part, at = window(lines, shown, max(1, height - 1))
    rows = []
    for k, ln in enumerate(part):
        rows.append(f"[reverse]>{ln.text[1:]}[/reverse]" if k == at else ln.text)  # "  " starts it
    head = f"[b]{title}[/b]" + (" (start of the game)" if shown == 0 and lines else "")
    return head + "\n" + ("\n".join(rows) if rows else "-")


class MoveList(Static):
    """The game by turns around the cursor; ``show`` after every change."""

    DEFAULT_CSS = """
    MoveList { height: auto; text-wrap: nowrap; text-overflow: ellipsis; }
    """

    def __init__(self, *, lines: int = 14, id: str | None = None) -> None:
        super().__init__("", id=id)
        self.max_lines = lines  # the window when the widget's height is auto
        self.text = ""
        self._last: tuple[Game, int, dict[int, dict[str, Any]] | None, str] | None = None

    def on_resize(self) -> None:
        if self._last is not None:
            self.show(*self._last)

    def show(self, game: Game, shown: int, evaluations: dict[int, dict[str, Any]] | None = None,
             title: str = "Moves") -> None:
        self._last = (game, shown, evaluations, title)
        names = [p.name for p in game.state.players]
        height = self.max_lines
        if self.styles.height is not None and not self.styles.height.is_auto and self.size.height:
            height = self.size.height
        self.text = render(movelist_lines(game, names, evaluations), shown, height, title)
        self.update(self.text)


__all__ = ["COMMENT", "Line", "MoveList", "evaluation_text", "movelist_lines", "render", "window"]
