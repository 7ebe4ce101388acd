"""Game records (start position + actions, like a PGN), replay, and the replay/selfplay commands."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from core.actions import parse_action
from core.game import Game, play_random_game, random_action
from core.position import load_position, position_to_dict, save_position
from core.record import GameRecord, RecordError, load_record, replay_file, save_record
from tests.festival_positions import city_position
from tui.cli import main


@pytest.fixture(scope="module")
def played() -> tuple[Game, list[dict]]:
    """A complete 2-player game with festivals, and the position after every action."""
    g = Game.new(2, seed=33)
    rng = random.Random(33)
    snaps = [position_to_dict(g.state)]
    while not g.is_terminal():
        g.apply_action(random_action(g.state, rng, "festive"))
        snaps.append(position_to_dict(g.state))
    return g, snaps


def test_record_round_trips_through_a_file_and_replays_exactly(played, tmp_path: Path) -> None:
    g, snaps = played
    path = tmp_path / "game.json"
    save_record(g.record({"event": "test"}), str(path), g)
    raw = json.loads(path.read_text())
    assert raw["format"] == "java-game" and raw["actions"] == [str(a) for a in g.actions]
    assert raw["result"]["scores"] == [p.score for p in g.state.players] and raw["tags"] == {"event": "test"}
    rec, _ = load_record(str(path))
    assert rec.actions == g.actions
    again = replay_file(str(path))
    assert position_to_dict(again.state) == snaps[-1]  # exactly the same final position
    assert again.turns == g.turns and again.is_terminal()
    # The start position is a position file too (R44: full information, so draws replay).
    assert position_to_dict(load_position(str(path))) == snaps[0]


@pytest.mark.parametrize("frac", [0.0, 0.3, 0.77])
def test_replay_up_to_n_actions_gives_that_position(played, frac: float) -> None:
    g, snaps = played
    n = int(len(g.actions) * frac)
    part = g.record().replay(n)
    assert position_to_dict(part.state) == snaps[n]


def test_an_illegal_action_in_a_record_is_named(played, tmp_path: Path) -> None:
    g, _ = played
    d = g.record().to_dict()
    d["actions"] = d["actions"][:1] + ["palace B6 10"] + d["actions"][1:]  # B6 is bare (R28)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(d))
    with pytest.raises(RecordError, match=r"action 2 of .*R28"):
        replay_file(str(path))


@pytest.mark.parametrize(
    ("patch", "match"),
    [
        ({"actions": ["tile G6x"]}, "action 1: cannot read"),
        ({"actions": "tile G6v"}, "actions: missing"),
        ({"format": "java-position"}, "format"),
        ({"result": {"scores": [1, 2]}}, "result.scores"),
        ({"players": []}, "start position: players"),
    ],
)
def test_bad_records_are_refused_with_one_clear_message(played, tmp_path: Path, patch: dict, match: str) -> None:
    g, _ = played
    d = g.record().to_dict(g)
    d.update(patch)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(d))
    with pytest.raises(RecordError, match=match):
        replay_file(str(path))


def test_a_record_can_end_in_the_middle_of_a_festival(tmp_path: Path) -> None:
    s = city_position(hands=[["D", "DP", "D"], ["M", "M"], ["DM", "MP", "D"], ["DP", "MP"]],
                      developers={"F5": 0, "F6": 1, "F7": 2, "F8": 3})
    g = Game(s)
    for a in ("festival F4 D", "bid M", "bid DM"):
        g.apply_action(a)
    path = tmp_path / "mid.json"
    save_record(g.record(), str(path), g)
    back = replay_file(str(path))
    assert back.state.festival == g.state.festival and back.current_player() == 3
    rec = GameRecord(json.loads(path.read_text()), [])
    assert rec.start_state().festival is None  # the record's start is before the festival


# ------------------------------------------------------------------ the commands
def test_cli_selfplay_and_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "sp.json"
    assert main(["selfplay", "--players", "2", "--seed", "5", "-o", str(out)]) == 0
    text = capsys.readouterr().out
    assert "final scores:" in text and "winner" in text and "turns" in text
    g = play_random_game(2, 5)
    assert f"{g.turns} turns, {len(g.actions)} actions" in text
    assert main(["replay", str(out)]) == 0
    assert "valid record" in capsys.readouterr().out
    assert main(["replay", str(out), "--at", "3", "--json"]) == 0
    pos = json.loads(capsys.readouterr().out)
    assert pos["format"] == "java-position"
    assert main(["replay", str(out), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["scores"] == [p.score for p in g.state.players]


def test_cli_selfplay_several_games_writes_numbered_records(tmp_path: Path, capsys) -> None:
    out = tmp_path / "g.json"
    assert main(["selfplay", "--players", "2", "--seed", "1", "--games", "2", "-q", "-o", str(out)]) == 0
    assert "2 games in" in capsys.readouterr().out
    assert (tmp_path / "g-1.json").exists() and (tmp_path / "g-2.json").exists()


@pytest.mark.parametrize(
    ("content", "match"),
    [(None, "no such file"), ("{", "invalid JSON"), ('{"format": "java-game"}', "actions")],
)
def test_cli_replay_errors_are_one_line_exit_2(tmp_path: Path, capsys, content: str | None, match: str) -> None:
    path = tmp_path / "x.json"
    if content is not None:
        path.write_text(content)
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("kraton: ") and err.count("\n") == 1 and match in err


def test_festival_decisions_round_trip_through_files_with_apply(tmp_path: Path, capsys) -> None:
    """``kraton apply`` drives a festival step by step through saved positions (R32); a bare
    ``festival F4`` opens with the least-worth matching card, D (notation.md)."""
    hands = [["D", "DP", "D"], ["M", "M"], ["DM", "MP", "D"], ["DP", "MP"]]
    devs = {"F5": 0, "F6": 1, "F7": 2, "F8": 3}
    start = tmp_path / "start.json"
    save_position(city_position(hands=hands, developers=devs), str(start))
    steps = ["festival F4; bid M", "bid DM", "pass; bid DP", "pass; bid MP; bid D", "agree"]
    prev = start
    for i, step in enumerate(steps):
        nxt = tmp_path / f"step{i}.json"
        assert main(["apply", str(prev), step, "-o", str(nxt)]) == 0, capsys.readouterr().err
        prev = nxt
    direct = city_position(hands=hands, developers=devs)
    for step in steps:
        for a in step.split("; "):
            direct.push(parse_action(a))
    final = load_position(str(prev))
    assert position_to_dict(final) == position_to_dict(direct)
    assert [p.score for p in final.players] == [2, 0, 2, 0]
    assert main(["apply", str(start), "festival F4 D; agree"]) == 2
    assert "R32" in capsys.readouterr().err
