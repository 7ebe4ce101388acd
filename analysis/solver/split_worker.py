"""The second process of a branch and bound (``split.py``): ``python -m
analysis.solver.split_worker FD``. A module of its own, above ``bnb`` and ``split``, so that
neither imports the other back (tests/test_layering.py)."""

from __future__ import annotations

import base64
import json
import pickle
import sys
import threading

from analysis.solver.bnb import solve_bnb
from analysis.solver.common import replay
from analysis.solver.split import Claims, Partner
from core.actions import actions_text, parse_actions
from core.state import GameState


def _read_lines(partner: Partner) -> None:
    """In the helper: the parent's better lines, as they come, until it closes the pipe."""
    for row in sys.stdin:
        kind, _, rest = row.rstrip("\n").partition(" ")
        if kind == "best":
            partner.heard = rest


def main(argv: list[str]) -> int:
    """The claims' file (inherited, its descriptor in ``argv``); on stdin the state, the best
    line, the bound and the seconds as one JSON line, then better lines; better lines and
    ``done`` out."""
    try:
        first = json.loads(sys.stdin.readline())
        seconds = None if first.get("seconds") is None else float(first["seconds"])
        s = pickle.loads(base64.b64decode(first["state"]))  # from the parent, which started it
        if not isinstance(s, GameState):
            return 1
        line = parse_actions(first["line"])
        partner = Partner(Claims(int(argv[0])), sys.stdout, 1)
        threading.Thread(target=_read_lines, args=(partner,), daemon=True).start()
        r = solve_bnb(s, seconds, incumbent=(replay(s, line)[0], line), bound=int(first["bound"]),
                      partner=partner)
        print("done " + json.dumps({"line": actions_text(r.line), "finished": r.optimal}),
              flush=True)
    except Exception:  # noqa: BLE001 - no answer is the answer: the parent's stays unproved
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
