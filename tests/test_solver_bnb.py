"""Branch and bound's cuts (``analysis/solver/bnb.py``) on a busy Java-Centre board."""

from __future__ import annotations

import os

from analysis.solver import solve
from analysis.solver.bound import upper_bound
from core.position import load_position

BOARD = os.path.join(os.path.dirname(__file__), "positions", "java-centre-turn-21.json")


def test_r30_r34_a_tie_on_points_needs_fewer_ap_to_win() -> None:
    """R8/R30–R36 and issue 5's tie-breaks: turn 21 of a four-player planner game, the mover
    with 2 AP. The owed tile, a card drawn and a festival alone at K11 score 5, which is also
    the bound, so only a line with as many points and fewer AP could do better. The search cuts
    every branch whose bound with that many AP falls short; without that cut it ran past 30 s
    (here the time limit of 20 s would leave it unproved)."""
    s = load_position(BOARD)
    s.turn.ap = 2
    s.players[s.to_move].tokens = 0
    assert upper_bound(s) == 5
    r = solve(s, "bnb", time_limit=20)
    assert r.optimal and r.best == 5 and r.ap_spent == 2
    assert "festival K11" in r.line_text
    assert r.nodes < 2000
