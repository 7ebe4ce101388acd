"""The second core's share of a busy-turn solve (issue 21: every core at work).

On a busy turn the model engine's searches are Python, one core; the cities' checks
(``bound_tiles``: what one or two tiles can do to each city, 0.2–5 s a position) lower the
bound, but run in the same process they take that time from the searches. ``ChecksHelper``
runs them in a process of their own, started with the solve, and hands the checks back for the
solver to keep for the position (``remember``): every bound worked out on it afterwards uses
them. The helper is a plain ``python -m analysis.solver.helper`` (the position in on stdin as
notation.md's JSON, the checks out on stdout): unlike ``multiprocessing`` it neither forks the
app's threads nor runs the caller's main module again. It is stopped with the solve, so a
solve that ends early never waits for it, and at exit where a solve is cut short (the app quit
mid-solve); one that fails or is late (its stderr is dropped) leaves the solve as it would
have been without it.
"""

from __future__ import annotations

import json
import sys
import threading
from typing import Any

from analysis.solver.bound_tiles import CityCheck
from analysis.solver.subprocs import end, start
from core.state import GameState


class ChecksHelper:
    """The cities' checks of ``s`` in a process of their own, within ``seconds`` (None: all)."""

    def __init__(self, s: GameState, seconds: float | None) -> None:
        from core.position import position_to_dict

        self._process = start(
            self, ["-m", "analysis.solver.helper", "" if seconds is None else f"{seconds:.3f}"])
        self._sent = json.dumps(position_to_dict(s))
        self._out: list[bytes] = []
        self._reader = threading.Thread(target=self._talk, name="kraton-checks", daemon=True)
        self._reader.start()
        self._got: dict[int, CityCheck] | None = None
        self.over = False  # answered, failed or stopped: nothing more will come

    def _talk(self) -> None:
        """Send the position, read the answer (in a thread: neither pipe may block the solve)."""
        p = self._process
        assert p.stdin is not None and p.stdout is not None
        try:
            p.stdin.write(self._sent.encode())
            p.stdin.close()
            self._out.append(p.stdout.read())
        except (OSError, ValueError):
            pass  # stopped, or dead: no answer

    def result(self, wait: float | None = 0.0) -> dict[int, CityCheck] | None:
        """The checks (palace hex -> check) once the helper has sent them, waiting up to
        ``wait`` seconds (None: until it does); None while it works, and for good where it
        failed."""
        if self.over:
            return self._got
        self._reader.join(wait)
        if self._reader.is_alive():
            return None
        self._got = _read(self._out[0] if self._out else b"")
        self.stop()
        return self._got

    def stop(self) -> None:
        """End the helper (it may be mid-check: its answer is no longer wanted)."""
        self.over = True
        end(self._process, self._reader)


def _read(out: bytes) -> dict[int, CityCheck] | None:
    """The checks from the helper's output, None where it sent none that reads."""
    try:
        rows = json.loads(out)["checks"]
        return {int(r[0]): CityCheck(int(r[0]), [int(x) for x in r[1]],
                                     [[int(x) for x in row] for row in r[2]]) for r in rows}
    except (ValueError, KeyError, TypeError, IndexError):
        return None


def checks_of(position: Any, seconds: float | None) -> dict[str, Any]:
    """In the helper: check the cities whose options claim most first; the checks as JSON."""
    from analysis.solver.bound import checks_worth
    from analysis.solver.bound_tiles import check_cities, known
    from analysis.solver.common import Deadline
    from core.position import position_from_dict

    s = position_from_dict(position)
    check_cities(s, checks_worth(s, s.turn.ap + s.token_bonus(), {}), Deadline(seconds))
    return {"checks": [[c.palace, c.size, c.parts] for c in known(s).values()]}


def main(argv: list[str]) -> int:
    """``python -m analysis.solver.helper [SECONDS]``: position JSON in, checks JSON out."""
    try:
        seconds = float(argv[0]) if argv and argv[0] else None
        print(json.dumps(checks_of(json.load(sys.stdin), seconds)))
    except Exception:  # noqa: BLE001 - no answer is the answer: the solve goes on without
        return 1
    return 0


__all__ = ["ChecksHelper", "checks_of"]

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
