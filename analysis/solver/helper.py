"""The second core's share of a busy-turn solve (issue 21: every core at work).

On a busy turn the model engine's searches are Python, one core; the cities' checks
(``bound_tiles``: what one or two tiles can do to each city, 0.2–5 s a position) lower the
bound, but run in the same process they take that time from the searches. ``ChecksHelper``
runs them in a process of their own, started with the solve (``spawn``: safe beside the app's
threads), and hands the checks back for the solver to keep for the position (``remember``):
every bound worked out on it afterwards uses them. The helper is stopped with the solve, so a
solve that ends early never waits for it. A helper that fails or is late leaves the solve as it
would have been without it.
"""

from __future__ import annotations

import multiprocessing as mp
from multiprocessing.connection import Connection
from typing import Any

from analysis.solver.bound_tiles import CityCheck
from core.state import GameState

START_SECONDS = 0.6  # a spawned interpreter importing the bound's modules, on the 2-core machine


class ChecksHelper:
    """The cities' checks of ``s`` in a process of their own, within ``seconds`` (None: all)."""

    def __init__(self, s: GameState, seconds: float | None) -> None:
        from core.position import position_to_dict

        ctx = mp.get_context("spawn")
        self._rx, tx = ctx.Pipe(duplex=False)
        self._process = ctx.Process(target=_checks_main, args=(position_to_dict(s), seconds, tx),
                                    name="kraton-checks", daemon=True)
        self._process.start()
        tx.close()  # the child holds the only writer: a child that dies is an EOF here
        self._got: dict[int, CityCheck] | None = None
        self.over = False  # answered, failed or stopped: nothing more will come

    def result(self, wait: float | None = 0.0) -> dict[int, CityCheck] | None:
        """The checks (palace hex -> check) once the helper has sent them, waiting up to
        ``wait`` seconds (None: until it does); None while it works, and for good where it
        failed."""
        if not self.over and self._rx.poll(wait):
            try:
                self._got = self._rx.recv()
            except (EOFError, OSError):
                self._got = None
            self.over = True
            self.stop()
        return self._got

    def stop(self) -> None:
        """End the helper (it may be mid-check: its answer is no longer wanted)."""
        self.over = True
        if self._process.is_alive():
            self._process.terminate()
        self._process.join(1.0)
        self._rx.close()


def _checks_main(position: dict[str, Any], seconds: float | None, out: Connection) -> None:
    """In the helper: check the cities whose options claim most first, send the checks."""
    from analysis.solver.bound import checks_worth
    from analysis.solver.bound_tiles import check_cities, known
    from analysis.solver.common import Deadline
    from core.position import position_from_dict

    got: dict[int, CityCheck] | None = None
    try:
        s = position_from_dict(position)
        check_cities(s, checks_worth(s, s.turn.ap + s.token_bonus(), {}), Deadline(seconds))
        got = known(s)
    except Exception:  # noqa: BLE001 - a helper never breaks the solve: it goes on without
        got = None
    try:
        out.send(got)
    finally:
        out.close()


__all__ = ["START_SECONDS", "ChecksHelper"]
