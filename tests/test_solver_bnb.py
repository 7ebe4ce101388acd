"""Branch and bound's cuts (``analysis/solver/bnb.py``) on a busy Java-Centre board."""

from __future__ import annotations

import os

import pytest

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


def test_transposition_table_is_capped() -> None:
    """Issue 21: the table keeps at most its cap (two generations; the older half goes when
    the newer fills), the newest entries stay, and a dropped state is only a miss."""
    from analysis.solver.bnb import Seen
    from analysis.solver.common import Outcome

    t = Seen(cap=10)
    for i in range(1000):
        t[(i,)] = Outcome(i, 0, 0, 0)
        assert len(t) <= 10
    assert t.get((999,)) == Outcome(999, 0, 0, 0) and t.get((995,)) is not None
    assert t.get((0,)) is None and t.dropped >= 980


def test_capped_bnb_still_exact(monkeypatch: pytest.MonkeyPatch) -> None:
    """A tiny cap (the table dropped all the time) changes no answer: the table only prunes."""
    from analysis.solver import bnb, solve
    from analysis.solver.selfplay import random_position

    mini_b = os.path.join(os.path.dirname(__file__), "maps", "mini-b.txt")
    for seed in (2, 5):
        s = random_position(seed, mini_b, players=2, turns=4, ap=2)
        full = solve(s, "bnb", time_limit=30)
        monkeypatch.setattr(bnb.Seen.__init__, "__defaults__", (4,))
        capped = solve(s, "bnb", time_limit=30)
        monkeypatch.undo()
        assert full.optimal and capped.optimal
        assert (capped.best, capped.handed, capped.ap_spent) == (full.best, full.handed, full.ap_spent)
        assert any("capped" in n for n in capped.notes), capped.notes


def test_brute_memo_cap_changes_no_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 21: the brute force's memo is cleared when full; its values are exact, so a
    memo of 20 entries answers the same as a full one (only slower)."""
    from analysis.solver import brute, solve
    from analysis.solver.selfplay import random_position

    s = random_position(2, os.path.join(os.path.dirname(__file__), "maps", "mini-b.txt"),
                        players=2, turns=4, ap=1)
    full = solve(s, "brute", time_limit=60)
    monkeypatch.setattr(brute, "MEMO_CAP", 20)
    capped = solve(s, "brute", time_limit=60)
    assert full.optimal and capped.optimal and full.nodes > 20
    assert (capped.best, capped.handed, capped.ap_spent) == (full.best, full.handed, full.ap_spent)
