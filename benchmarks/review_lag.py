"""Does the app stay responsive while the review fills in? (issue 22: no frame blocked > 100 ms)

    .venv/bin/python -m benchmarks.review_lag [--seconds 30]

Opens ``puzzles/games/planner-38.json`` in review mode (the app's own factory, headless, at
120x40), where thread workers evaluate turn after turn, and meanwhile measures how late the
event loop runs a timer due every 10 ms, while keys step through the game. The same is measured
for an idle review (no worker) as the reference in the same run. Prints max, 99th percentile
and median lateness, the number of late ticks over 100 ms, how long the app took to handle each
key (sent as the terminal would, timed until the cursor has moved; ``Pilot.press`` waits for
the process to go idle, which it never does while a worker computes), and the turns evaluated.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import time

from textual import events

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GAME = os.path.join(ROOT, "puzzles", "games", "planner-38.json")
TICK = 0.010


async def measure(seconds: float, workers: bool) -> dict[str, float]:
    from tui.app import create_app
    from tui.screens.review import ReviewScreen

    app = create_app("review", GAME)
    lags: list[float] = []
    presses: list[float] = []  # from sending a key to the app having handled it
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause(0.5)
        screen = app.screen
        assert isinstance(screen, ReviewScreen), type(screen)
        if not workers:
            app.workers.cancel_group(screen, "review")
        loop = asyncio.get_running_loop()
        end = loop.time() + seconds
        keys = [("comma", ","), ("full_stop", ".")]  # one action back, one forward
        k = 0
        while loop.time() < end:
            due = loop.time() + TICK
            await asyncio.sleep(TICK)
            lags.append(max(0.0, loop.time() - due))
            if len(lags) % 25 == 0:  # a key every ~quarter second
                before = screen.ctl.shown
                key, char = keys[k % len(keys)]
                t0 = loop.time()
                event = events.Key(key, char)
                event.set_sender(app)
                assert app._driver is not None
                app._driver.send_message(event)  # as the terminal would: no waiting for idle
                while screen.ctl.shown == before and loop.time() - t0 < 5:
                    await asyncio.sleep(0.001)
                presses.append(loop.time() - t0)
                k += 1
        done = len(screen.session.game.evaluations)
        app.workers.cancel_group(screen, "review")
    lags.sort()
    return {"max_ms": 1000 * lags[-1], "p99_ms": 1000 * lags[int(0.99 * (len(lags) - 1))],
            "median_ms": 1000 * statistics.median(lags), "over_100ms": sum(x > 0.1 for x in lags),
            "ticks": len(lags), "evaluated": done, "keys": len(presses),
            "key_max_ms": 1000 * max(presses, default=0.0),
            "key_median_ms": 1000 * statistics.median(presses) if presses else 0.0}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=30.0)
    a = ap.parse_args()
    os.environ.setdefault("KRATON_HOME", "/tmp/kraton-review-lag")
    for label, workers in (("review filling in", True), ("idle review (reference)", False)):
        t0 = time.perf_counter()
        r = asyncio.run(measure(a.seconds, workers))
        print(f"{label:<26} max {r['max_ms']:.1f} ms  p99 {r['p99_ms']:.1f} ms  median "
              f"{r['median_ms']:.1f} ms  ticks over 100 ms: {r['over_100ms']} of {r['ticks']}; "
              f"{r['keys']} keys handled in median {r['key_median_ms']:.0f} ms, max "
              f"{r['key_max_ms']:.0f} ms; turns evaluated: {r['evaluated']}"
              f"  ({time.perf_counter() - t0:.0f} s)")


if __name__ == "__main__":
    main()
