"""Bad input to the batch commands (QA pass): never a traceback, one line on stderr naming what
and where (the file, the option), exit status 2, and bad option values refused before any
work — puzzles import/mine, review, analyze, tournament and the puzzle list."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from analysis.review_report import parse_player, parse_turns
from core.errors import KratonError
from core.game import Game
from core.record import parse_seats, save_record
from core.state import GameState
from tests.test_cli import assert_one_line_error, run
from tui.cli import main

pytestmark = pytest.mark.usefixtures("kraton_home")

ROOT = Path(__file__).resolve().parent.parent
POSITION = str(ROOT / "tests" / "positions" / "java-centre-turn-21.json")
GAME = str(ROOT / "puzzles" / "games" / "planner-38.json")
HUGE = "9" * 5000  # beyond Python's 4300 digits for int()
FAST_REVIEW = ["--summary", "--time-limit", "0.05", "--workers", "1", "--quiet"]

needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")


def _boom(*_: Any, **__: Any) -> Any:
    raise AssertionError("the work started before the options were checked")


# ------------------------------------------------------------------ 1. puzzles import

ATTEMPT = {"uid": "u1", "at": 1000.0, "puzzle": "festival-01", "mode": "rated", "solved": 1,
           "seconds": 3.5, "score": 1, "hints": 0, "themes": "", "rated": 1,
           "user_before": 1500, "user_after": 1510}


def _export(tmp_path: Path, table: str, row: dict[str, Any]) -> Path:
    data = {"format": "kraton-progress", "version": 2, "attempts": [], "user_rating": [],
            "puzzle_ratings": [], "streaks": [], table: [row]}
    f = tmp_path / "exp.json"
    f.write_text(json.dumps(data))
    return f


def test_a_20_digit_time_in_an_export_is_one_line_naming_file_and_field(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The QA repro: SQLite's INTEGER is 64-bit, 99999999999999999999 was an OverflowError."""
    f = tmp_path / "exp.json"
    f.write_text('{"format":"kraton-progress","version":2,"attempts":[{"uid":"u1",'
                 '"at":99999999999999999999,"puzzle":"festival-01","mode":"rated","solved":1,'
                 '"seconds":3.5,"score":2,"hints":0,"themes":"","rated":1,"user_before":1500,'
                 '"user_after":1510}],"user_rating":[],"puzzle_ratings":[],"streaks":[]}')
    assert_one_line_error(*run(capsys, "puzzles", "import", str(f)), "exp.json", "attempts[0].at")
    assert main(["puzzles", "stats", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["attempts"] == 0  # nothing half-imported


@pytest.mark.parametrize("table, row, field", [
    ("attempts", {**ATTEMPT, "seconds": 1e300}, "attempts[0].seconds"),
    ("attempts", {**ATTEMPT, "score": 2}, "attempts[0].score"),
    ("attempts", {**ATTEMPT, "solved": 2}, "attempts[0].solved"),
    ("attempts", {**ATTEMPT, "at": 10**19}, "attempts[0].at"),
    ("user_rating", {"uid": "a", "at": 1, "rating": 1500, "rd": 2**63, "vol": 0.06}, "user_rating[0].rd"),
    ("user_rating", {"uid": "a", "at": 1, "rating": 1500, "rd": 100, "vol": 0}, "user_rating[0].vol"),
    ("puzzle_ratings", {"puzzle": "p", "rating": 1500, "rd": 100, "vol": 0.06, "updated": 10**19},
     "puzzle_ratings[0].updated"),
    ("streaks", {"uid": "a", "started": 1, "ended": 2**64, "length": 3, "mistakes": 0}, "streaks[0].ended"),
])
def test_every_number_of_an_export_has_a_range(table: str, row: dict[str, Any], field: str,
                                                tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert_one_line_error(*run(capsys, "puzzles", "import", str(_export(tmp_path, table, row))),
                          "exp.json", field)


def test_an_export_within_the_ranges_still_imports(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rc, _, err = run(capsys, "puzzles", "import", str(_export(tmp_path, "attempts", ATTEMPT)))
    assert rc == 0, err


def test_an_overflow_error_from_anywhere_is_one_line_and_exit_2(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from analysis.trainer.progress import Progress

    def overflow(self: Progress) -> None:
        raise OverflowError("Python int too large to convert to SQLite INTEGER")

    monkeypatch.setattr(Progress, "stats", overflow)
    assert_one_line_error(*run(capsys, "puzzles", "stats"), "too large")


# ------------------------------------------------------------------ 2. puzzles mine

@pytest.mark.parametrize("option, fragments", [
    (["--maps", "nosuch"], ["--maps", "nosuch", "mini-b, mini-a, java-centre"]),
    (["--maps", ""], ["--maps", "java-centre"]),
    (["--maps", "mini-b,,java-centre"], ["--maps"]),
    (["--ap", "abc"], ["--ap", "1 to 7"]),
    (["--ap", "0,9"], ["--ap", "1 to 7"]),
    (["--turns", "5"], ["--turns", "A,B"]),
    (["--turns", "5,3"], ["--turns", "A <= B"]),
    (["--turns", "٣,5"], ["--turns"]),
    pytest.param(["--turns", f"1,{HUGE}"], ["--turns"], id="turns-5000-digits"),
    pytest.param(["--at", HUGE], ["--at"], id="at-5000-digits"),
])
def test_bad_miner_options_are_refused_by_argparse(option: list[str], fragments: list[str],
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    assert_one_line_error(*run(capsys, "puzzles", "mine", "--count", "1", *option), *fragments)


# ------------------------------------------------------------------ 3. digits

def test_a_players_tag_with_thousands_of_digits_is_an_unusable_tag(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The tag is optional and an unusable one is ignored (the seats are human), as
    ``planner x5`` always was; thousands of digits are no longer Python's int() error."""
    assert parse_seats("planner x" + HUGE) == []
    assert parse_seats("planner x٤") == []  # ASCII digits only
    assert parse_seats("planner x4") == ["planner"] * 4
    g = Game(GameState.new(2, seed=7))
    path = tmp_path / "tagged.json"
    save_record(g.record({"players": "planner x" + HUGE}), str(path), g)
    rc, out, err = run(capsys, "replay", str(path))
    assert (rc, err) == (0, "") and "valid record" in out


@pytest.mark.parametrize("option, fragment", [
    pytest.param(f"--turns={HUGE}", "--turns", id="turns-5000-digits"),
    pytest.param(f"--turns=1-{HUGE}", "--turns", id="turns-1-to-5000-digits"),
    pytest.param(f"--player={HUGE}", "--player", id="player-5000-digits"),
    pytest.param(f"--as={HUGE}", "--as", id="as-5000-digits"),
    pytest.param("--turns=٢", "--turns", id="turns-arabic-indic-2"),
    pytest.param("--turns=1-٢", "--turns", id="turns-1-to-arabic-indic-2"),
    pytest.param("--player=١", "--player", id="player-arabic-indic-1"),
    pytest.param("--as=١", "--as", id="as-arabic-indic-1"),
])
def test_review_turn_and_seat_numbers_are_ascii_digits_of_sane_length(
        option: str, fragment: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert_one_line_error(*run(capsys, "review", GAME, option, *FAST_REVIEW), fragment)


def test_parse_turns_and_parse_player_name_the_option() -> None:
    with pytest.raises(KratonError, match="--turns"):
        parse_turns(HUGE, 10)
    with pytest.raises(KratonError, match="--turns"):
        parse_turns("٢", 10)
    with pytest.raises(KratonError, match="--as"):
        parse_player("١", ["Red", "Blue"], "--as")
    assert parse_turns(" 2-3 ", 10) == (2, 3) and parse_player("2", ["Red", "Blue"]) == 1


# ------------------------------------------------------------------ 4. option values

@pytest.mark.parametrize("option, fragment", [
    (["--time-limit", "-1"], "--time-limit"),
    (["--time-limit", "nan"], "--time-limit"),
    (["--workers", "0"], "--workers"),
    (["--workers", "-3"], "--workers"),
])
@pytest.mark.parametrize("files", [1, 2])
def test_analyze_refuses_bad_time_limits_and_workers(option: list[str], fragment: str, files: int,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    assert_one_line_error(*run(capsys, "analyze", *[POSITION] * files, "--no-solve", "--quiet", *option),
                          fragment)


@pytest.mark.parametrize("workers", ["0", "-3"])
def test_tournament_refuses_workers_below_1(workers: str, monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("analysis.tournament.run_tournament", _boom)
    assert_one_line_error(*run(capsys, "tournament", "--players", "random,random", "--games", "1",
                               "--quiet", "--workers", workers), "--workers")


@pytest.mark.parametrize("argv, fragment", [
    (["--check", "--workers", "0"], "--workers"),
    (["--check", "--workers", "-3"], "--workers"),
    (["--check", "--time-limit", "-1"], "--time-limit"),
    (["--only", ",,"], "--only"),
    (["--only", ""], "--only"),
    (["--only", " , "], "--only"),
])
def test_puzzle_list_refuses_bad_workers_and_empty_selections(argv: list[str], fragment: str,
                                                              monkeypatch: pytest.MonkeyPatch,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("tui.commands.puzzles.check", _boom)
    assert_one_line_error(*run(capsys, "puzzles", *argv), fragment)


# ------------------------------------------------------------------ 5. outputs checked up front

def _outputs(tmp_path: Path, kind: str) -> str:
    """An output path of each bad kind (in ``tmp_path``)."""
    if kind == "folder":
        (tmp_path / "dir").mkdir()
        return str(tmp_path / "dir")
    if kind == "fifo":
        os.mkfifo(tmp_path / "fifo")
        return str(tmp_path / "fifo")
    if kind == "device":
        return os.devnull
    return str(tmp_path / "missing" / "out.txt")


KINDS = [pytest.param("folder"), pytest.param("fifo", marks=needs_fifo), pytest.param("device"),
         pytest.param("missing folder")]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("option", ["--csv", "--json", "--chart"])
def test_tournament_outputs_are_checked_before_any_game(option: str, kind: str, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("analysis.tournament.run_tournament", _boom)
    path = _outputs(tmp_path, kind)
    assert_one_line_error(*run(capsys, "tournament", "--players", "random,random", "--games", "3",
                               "--workers", "1", "--quiet", option, path), option)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("option", ["-o", "--chart"])
def test_review_outputs_are_checked_before_any_turn(option: str, kind: str, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("core.record.replay_file", _boom)
    path = _outputs(tmp_path, kind)
    assert_one_line_error(*run(capsys, "review", GAME, option, path, *FAST_REVIEW), option)


def test_one_file_for_two_outputs_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("analysis.tournament.run_tournament", _boom)
    monkeypatch.setattr("core.record.replay_file", _boom)
    same = str(tmp_path / "out.txt")
    (tmp_path / "link.txt").symlink_to(tmp_path / "out.txt")  # another name, the same file
    tournament = ["tournament", "--players", "random,random", "--games", "1", "--quiet"]
    assert_one_line_error(*run(capsys, *tournament, "--csv", same, "--json", same),
                          "--json", "the same file as --csv")
    assert_one_line_error(*run(capsys, *tournament, "--chart", same, "--json", str(tmp_path / "link.txt")),
                          "--chart", "the same file as --json")
    assert_one_line_error(*run(capsys, "review", GAME, "-o", same, "--chart", same, *FAST_REVIEW),
                          "--chart", "the same file as -o")
    assert not (tmp_path / "out.txt").exists()
