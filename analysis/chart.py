"""A chart of scores per turn, written by hand as SVG (an image file needing no dependency)."""

from __future__ import annotations

from collections.abc import Sequence
from xml.sax.saxutils import escape

COLOURS = ("#d62728", "#c9a100", "#1f77b4", "#2ca02c")  # Red, Yellow, Blue, Green seats


def scores_svg(history: Sequence[Sequence[int]], labels: Sequence[str], title: str = "",
               width: int = 720, height: int = 400,
               marks: Sequence[tuple[int, int, str]] = ()) -> str:
    """Scores after every turn (row 0 = the start), one line per player, as an SVG document.
    ``marks``: (row, player, text) — a turn annotated ``?!``/``?``/``??`` by a review, drawn as
    a ringed dot on that player's line with the text above it."""
    if not history or not labels:
        raise ValueError("a chart needs at least one turn and one player")
    n = len(labels)
    left, right, top, bottom = 50, 150, 30, 40
    pw, ph = width - left - right, height - top - bottom
    turns = len(history) - 1
    top_score = max(1, max(max(row) for row in history))
    step = _nice_step(top_score)
    y_max = step * -(-top_score // step)

    def x(t: int) -> float:
        return left + pw * t / max(1, turns)

    def y(v: float) -> float:
        return top + ph * (1 - v / y_max)

    out = [(f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">'),
           f'<rect width="{width}" height="{height}" fill="white"/>']
    if title:
        out.append(f'<text x="{left}" y="18" font-size="14">{escape(title)}</text>')
    for v in range(0, y_max + 1, step):
        out.append(f'<line x1="{left}" y1="{y(v):.1f}" x2="{left + pw}" y2="{y(v):.1f}" stroke="#ddd"/>')
        out.append(f'<text x="{left - 6}" y="{y(v) + 4:.1f}" text-anchor="end">{v}</text>')
    t_step = _nice_step(max(1, turns))
    for t in range(0, turns + 1, t_step):
        out.append(f'<text x="{x(t):.1f}" y="{top + ph + 16}" text-anchor="middle">{t}</text>')
    out.append(f'<line x1="{left}" y1="{top + ph}" x2="{left + pw}" y2="{top + ph}" stroke="black"/>')
    out.append(f'<line x1="{left}" y1="{top}" x2="{left}" y2="{top + ph}" stroke="black"/>')
    out.append(f'<text x="{left + pw / 2:.1f}" y="{height - 6}" text-anchor="middle">turn</text>')
    for p in range(n):
        colour = COLOURS[p % len(COLOURS)]
        pts = " ".join(f"{x(t):.1f},{y(row[p]):.1f}" for t, row in enumerate(history))
        out.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="{pts}"/>')
        ly = top + 16 + 18 * p
        out.append(f'<line x1="{left + pw + 12}" y1="{ly - 4}" x2="{left + pw + 32}" y2="{ly - 4}" '
                   f'stroke="{colour}" stroke-width="3"/>')
        out.append(f'<text x="{left + pw + 38}" y="{ly}">{escape(labels[p])} {history[-1][p]}</text>')
    for row, p, text in marks:
        if 0 <= row < len(history) and 0 <= p < n:
            cx, cy = x(row), y(history[row][p])
            colour = COLOURS[p % len(COLOURS)]
            out.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="4" fill="white" stroke="{colour}" '
                       f'stroke-width="2"><title>{escape(labels[p])}, turn {row}: {escape(text)}</title></circle>')
            out.append(f'<text x="{cx:.1f}" y="{cy - 7:.1f}" text-anchor="middle" font-size="10" '
                       f'fill="{colour}">{escape(text)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _nice_step(span: int) -> int:
    """A round grid step giving about 5 to 10 lines."""
    for s in (1, 2, 5, 10, 20, 25, 50, 100, 200, 500):
        if span / s <= 10:
            return s
    return 1000
