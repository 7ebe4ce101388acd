"""Group ``busy``: issue 21's busy mid-game turns (``benchmarks/busy.py``), here ONE of them,
``38@137``, at 1 s, in this process, so that CI stays fast; ``busy.py`` runs all 40 in
subprocesses and writes the README's table. The assertions are the benchmark's contract: the
answer is a legal line whose bound is at least its best, and the turn the record played scores
under the same objective (10 points there: palace G7 10, then a festival no one could join)."""

from __future__ import annotations

import json

import pytest

from benchmarks import busy


@pytest.mark.benchmark(group="busy")
def test_busy_position_smoke(bench) -> None:
    got: dict[str, object] = {}

    def run() -> None:
        got.update(busy.run_engine("38@137", "cpsat", 1.0))

    bench(run, pair="busy 38@137, 1 s", role="fast", rounds=1)
    assert isinstance(got["best"], int) and isinstance(got["bound"], int)
    assert got["bound"] >= got["best"] >= 0
    assert (got["proved_by"] is None) == (not got["optimal"])
    played = busy.played("38@137")
    assert played["points"] == 10 and "palace G7 10" in str(played["line"])


def test_busy_table_marks_answers_below_the_played_turn() -> None:
    """The summary counts an answer below the played turn, and the section renders it."""
    from benchmarks.busy_table import render, summary

    rows = [{"id": "38@137", "ap": 6, "token": 1, "played": {"points": 10},
             "planner": {"points": 0}, "greedy": {"points": 3},
             "engines": {"cpsat": {"best": 6, "bound": 28, "optimal": False, "proved_by": None,
                                   "seconds": 10.0, "rss_mb": 150.0}}}]
    s = summary(rows, "cpsat")
    assert s["below"] == {"played": ["38@137"], "planner": [], "greedy": []}
    assert s["proved"] == 0 and s["gap_le_2"] == 0 and s["gaps"][">20"] == 1
    text = render({"machine": "m", "time_limit": 10, "jobs": 1, "engines": ["cpsat"],
                   "positions": rows, "summary": {"cpsat": s}})
    assert "| 38@137 | 6+1 | 10 | 0 | 3 | 6 ↓ | 28 | no | 10.00 |" in text


def test_the_held_out_sample_is_busy_and_apart_from_the_40() -> None:
    """``--sample``: 48 starts of turn from records the 40 do not use, each busy as
    ``analysis.mine.mid_game`` says (R8: tiles in every supply; 25+ land tiles), the same on
    every call (a fixed seed), and another seed draws others."""
    from analysis.mine import BUSY

    ids = busy.sample_positions()
    assert len(ids) == len(set(ids)) == busy.SAMPLE_SIZE
    # the same 48 as the committed run: records added for puzzles since do not move it
    with open(busy.SAMPLE_PATH, encoding="utf-8") as f:
        assert ids == [p["id"] for p in json.load(f)["positions"]]
    used = {pid.partition("@")[0] for pid in busy.POSITIONS}
    assert not {pid.partition("@")[0] for pid in ids} & used
    assert ids == busy.sample_positions()
    assert ids != busy.sample_positions(seed=busy.SAMPLE_SEED + 1)
    for pid in ids[::12]:
        s = busy.position(pid)
        assert s.turn.ap == 6 and not s.turn.token_used and s.festival is None
        assert len(s.tiles) >= BUSY and s.triples > 0 and s.last_round is None
