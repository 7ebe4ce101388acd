"""The score chart's widget, measured (issue 22): the hand-drawn Line-API ``tui.chart.ScoreChart``
against Textual's own ``Sparkline`` (one per player, stacked: it draws one series, no axis,
no shared scale). ``textual-plotext`` is not installed and no dependency is added, so it is
not measured. Each widget is rendered at the review panel's size (42x12 and 120x40's panel)
after a change of data, 200 times; prints the median milliseconds per full render.

    .venv/bin/python benchmarks/chart_compare.py
"""

from __future__ import annotations

import asyncio
import statistics
import time
from collections.abc import Callable, Sequence

from textual.app import App, ComposeResult
from textual.containers import Vertical
from textual.geometry import Region
from textual.widget import Widget
from textual.widgets import Sparkline

from core.record import replay_file
from tui.app import puzzle_dir
from tui.chart import ScoreChart

RECORD = str(puzzle_dir() / "games" / "planner-38.json")
ROUNDS = 200


class Bench(App[None]):
    def __init__(self, history: list[tuple[int, ...]]) -> None:
        super().__init__()
        self.history = history

    def compose(self) -> ComposeResult:
        yield ScoreChart(id="chart")
        with Vertical(id="sparks"):
            for p in range(len(self.history[0])):
                yield Sparkline([h[p] for h in self.history], id=f"s{p}")


def timed(widgets: Sequence[Widget], change: Callable[[], None]) -> float:
    """Median ms to render every line of ``widgets`` after ``change()`` invalidated them."""
    samples = []
    for _ in range(ROUNDS):
        t0 = time.perf_counter()
        change()
        for w in widgets:
            w.refresh()
            w.render_lines(Region(0, 0, w.size.width, w.size.height))
        samples.append((time.perf_counter() - t0) * 1000)
    return statistics.median(samples)


async def measure(history: list[tuple[int, ...]], width: int, height: int) -> tuple[float, float]:
    names = ["Red", "Yellow", "Blue", "Green"]
    app = Bench(history)
    async with app.run_test(size=(width, height * 2 + 2)) as pilot:
        chart = app.query_one(ScoreChart)
        chart.styles.height = height
        sparks = list(app.query(Sparkline))
        for s in sparks:
            s.styles.height = max(1, (height - 1) // 4)  # four series in the same rows
        await pilot.pause()
        k = [0]

        def move_chart() -> None:
            k[0] = (k[0] + 1) % len(history)
            chart.show(history, names, k[0])

        def move_sparks() -> None:
            k[0] = (k[0] + 1) % len(history)
            for p, s in enumerate(sparks):
                s.data = [h[p] for h in history[: k[0] + 2]]

        return timed([chart], move_chart), timed(sparks, move_sparks)


async def main() -> None:
    history = replay_file(RECORD).score_history()
    for width, height in ((42, 12), (42, 7)):
        a, b = await measure(history, width, height)
        print(f"{width}x{height}: ScoreChart {a:.3f} ms   4 x Sparkline {b:.3f} ms"
              f"   ({len(history)} points x 4 players)")


if __name__ == "__main__":
    asyncio.run(main())
