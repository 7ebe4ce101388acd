"""Self-play tournaments: seat rotation, complete games (R40–R43), statistics, exports, chart."""

from __future__ import annotations

import csv
import json
import math
import xml.etree.ElementTree as ET

import pytest

from analysis.chart import scores_svg
from analysis.tournament import (
    GameResult,
    GameSpec,
    csv_text,
    mean_ci,
    play_game,
    seatings,
    summarize,
    summary_text,
)
from tui.cli import main


def fake(index: int, seats: list[str], scores: list[int]) -> GameResult:
    top = max(scores)
    return GameResult(index, index, seats, scores, [i for i, v in enumerate(scores) if v == top],
                      turns=10, actions=50, seconds=1.0 + index, think=[0.5] * len(seats),
                      history=[[0] * len(seats), scores], movers=[0])


def test_seats_rotate_so_everyone_sits_everywhere():
    specs = seatings(["planner", "greedy", "random"], 3, seed=7)
    assert [s.seats for s in specs] == [
        ("planner", "greedy", "random"),
        ("greedy", "random", "planner"),
        ("random", "planner", "greedy"),
    ]
    assert [s.seed for s in specs] == [7, 8, 9]


def test_r40_r43_a_random_game_is_played_to_its_end():
    r = play_game(GameSpec(0, ("random", "random"), 11))
    assert r.scores == r.history[-1]
    assert r.winners == [i for i, v in enumerate(r.scores) if v == max(r.scores)]  # R43
    assert r.history[0] == [0, 0] and r.turns == len(r.movers) == len(r.history) - 1
    for before, after in zip(r.history, r.history[1:]):
        assert all(b <= a for b, a in zip(before, after))  # scores never fall
    # R3 / R40: play goes round the table, the last round included.
    assert all(b == (a + 1) % 2 for a, b in zip(r.movers, r.movers[1:]))


def test_a_game_replays_identically_from_its_seed():
    a = play_game(GameSpec(0, ("random", "random"), 3))
    b = play_game(GameSpec(0, ("random", "random"), 3))
    assert (a.scores, a.history, a.actions) == (b.scores, b.history, b.actions)


def test_mean_and_95_percent_interval():
    m, ci = mean_ci([2, 4, 6, 8])
    sd = math.sqrt(((3**2) + 1 + 1 + 3**2) / 3)
    assert m == 5 and ci == pytest.approx(1.96 * sd / 2)
    assert mean_ci([3]) == (3, 0.0)


def test_r43_summary_counts_shared_wins_and_head_to_head():
    results = [
        fake(0, ["planner", "greedy"], [10, 4]),
        fake(1, ["greedy", "planner"], [7, 7]),  # shared victory: both win (R43)
        fake(2, ["planner", "greedy"], [3, 9]),
    ]
    s = summarize(results)
    rows = {r["player"]: r for r in s["players"]}
    assert rows["planner"]["wins"] == 2 and rows["greedy"]["wins"] == 2
    assert rows["planner"]["mean_score"] == pytest.approx((10 + 7 + 3) / 3)
    assert s["head_to_head"]["planner"]["greedy"] == pytest.approx((1 + 0.5 + 0) / 3)
    assert s["head_to_head"]["greedy"]["planner"] == pytest.approx((0 + 0.5 + 1) / 3)
    assert s["length"]["seconds_max"] == 3.0
    text = summary_text(s)
    assert "planner" in text and "50.0%" in text


def test_csv_has_a_row_per_game_and_seat():
    rows = list(csv.DictReader(csv_text([fake(0, ["a", "b"], [1, 2])]).splitlines()))
    assert [(r["seat"], r["player"], r["score"], r["winner"]) for r in rows] == [
        ("0", "a", "1", "0"), ("1", "b", "2", "1")]


def test_chart_is_an_svg_with_a_line_per_player():
    svg = scores_svg([[0, 0, 0], [2, 0, 1], [5, 3, 1]], ["Red", "Yellow", "Blue"], "t")
    root = ET.fromstring(svg)
    lines = root.findall("{http://www.w3.org/2000/svg}polyline")
    assert len(lines) == 3
    assert len(lines[0].get("points", "").split()) == 3  # one point per turn, start included
    with pytest.raises(ValueError):
        scores_svg([], ["Red"])


def test_cli_tournament_writes_csv_json_and_chart(tmp_path, capsys):
    out_csv, out_json, out_svg = tmp_path / "t.csv", tmp_path / "t.json", tmp_path / "t.svg"
    rc = main(["tournament", "--players", "random,random", "--games", "2", "--seed", "4",
               "--workers", "1", "--quiet", "--csv", str(out_csv), "--json", str(out_json),
               "--chart", str(out_svg), "--chart-game", "1"])
    assert rc == 0
    assert "2 games" in capsys.readouterr().out
    assert len(out_csv.read_text().splitlines()) == 1 + 2 * 2
    data = json.loads(out_json.read_text())
    assert data["summary"]["games"] == 2 and len(data["games"]) == 2
    assert data["games"][1]["seats"] == ["random", "random"]
    assert ET.fromstring(out_svg.read_text()).tag.endswith("svg")


@pytest.mark.parametrize("argv, message", [
    (["--players", "random,wizard", "--games", "1"], "unknown player 'wizard'"),
    (["--players", "random", "--games", "1"], "2 to 4 players (R1)"),
    (["--players", "random,random", "--games", "0"], "at least 1"),
])
def test_cli_tournament_refuses_bad_input(argv, message, capsys):
    assert main(["tournament", *argv, "--quiet"]) == 2
    assert message in capsys.readouterr().err


def test_r40_r41_stall_rule_ends_the_game_like_a_last_tile():
    """A stalled game is ended as if the turn just finished had used the last three-space tile:
    that player counts now, the others play one more turn each and count (R40, R41)."""
    from core.actions import End
    from core.endgame import adjudicate_stall
    from tests.helpers import build, tower

    s = build(players=3, to_move=1, tiles=["G6v", "G7v", *tower("G8", 2), "G9v"],
              developers={"G7": 0, "G8": 1}, palaces={"G6": 2}, scores=[5, 1, 0])
    adjudicate_stall(s, 0)  # Red's turn has just ended; Yellow (1) is to move
    assert s.players[0].score == 5 + 1 and s.players[0].final_counted
    assert s.last_round == [2] and not s.obligation_pending()  # no tile owed (R40)
    s.push(End())  # Yellow's last turn: his count (first, 2)
    assert s.players[1].score == 1 + 2 and s.to_move == 2
    s.push(End())
    assert s.is_terminal() and [p.score for p in s.players] == [6, 3, 0]
