"""The statistics as text lines: ``kraton puzzles stats`` prints them and the statistics
screen shows the same lines under its chart, so the two never disagree."""

from __future__ import annotations

from analysis.trainer.progress import Stats


def pct(ok: int, n: int) -> str:
    return f"{100 * ok / n:.0f}%" if n else "-"


def stats_lines(st: Stats) -> list[str]:
    h = st.history
    lines = [(f"rating {st.rating.rating:.0f} (RD {st.rating.rd:.0f})"
              f"   lowest {min(h):.0f}, highest {max(h):.0f} over {len(h) - 1} rated attempts"),
             (f"attempts {st.attempts}, solved {st.solved} ({pct(st.solved, st.attempts)})"
              f"   best streak {st.best_streak} ({st.streaks} streaks)"),
             "success per theme:"]
    if not st.themes:
        lines.append("  (no attempts yet)")
    for t, (n, ok) in sorted(st.themes.items(), key=lambda kv: (kv[1][1] / max(kv[1][0], 1), kv[0])):
        lines.append(f"  {t:<20} {ok:>4}/{n:<4} {pct(ok, n):>5}")
    return lines


def sparkline(values: list[float], width: int = 60) -> str:
    """The rating path in block characters, for the terminal (the screen uses a widget); ""
    before the first rated attempt (the history holds only the starting rating)."""
    if len(values) < 2:
        return ""
    vals = values[-width:]
    lo, hi = min(vals), max(vals)
    blocks = "▁▂▃▄▅▆▇█"
    return "".join(blocks[int((v - lo) / (hi - lo) * 7) if hi > lo else 3] for v in vals)
