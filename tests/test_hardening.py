"""Issue 23: every class of hostile input found by fuzzing has a named regression test here.

Each runs the ``kraton`` command in-process and asserts the contract: exit status 2 and one
line on stderr naming what and where (and the rule where one applies), or the refusal itself.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from core.actions import parse_action
from core.errors import NotationError, PositionError
from core.hexmap import parse_hex
from core.position import load_position, position_to_dict
from tests.fuzzing import run_cli
from tui.cli import main

ROOT = Path(__file__).resolve().parent.parent
PUZZLE = ROOT / "puzzles" / "full-turn-03.json"  # last round: remaining [3, 0], player 2 to move
RECORD = min((ROOT / "puzzles" / "games").glob("*.json"))


def doc(path: Path = PUZZLE) -> Any:
    """A file's JSON; a map file it names is made absolute, so a copy elsewhere still finds it."""
    d = json.loads(path.read_text())
    if d["map"] != "java-centre":
        d["map"] = str(path.parent / d["map"])
    return d


def write(tmp_path: Path, d: Any, name: str = "p.json") -> str:
    p = tmp_path / name
    p.write_text(d if isinstance(d, str) else json.dumps(d))
    return str(p)


def refuse(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """Run ``kraton argv``: exit 2, one line on stderr; returns that line."""
    try:
        code = main(list(argv))
    except SystemExit as e:  # argparse refusing an option
        code = int(e.code or 0)
    assert code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.endswith("\n"), err
    return err


# ---------------------------------------------------------------- 1. nesting depth
def test_class1_json_nested_1000_deep_is_one_line(tmp_path: Path, capsys) -> None:
    p = write(tmp_path, '{"players": ' + "[" * 1000 + "]" * 1000 + "}")
    err = refuse(capsys, "validate", p)
    assert "nested deeper than" in err and "p.json" in err


# ---------------------------------------------------------------- 2. integer sizes
@pytest.mark.parametrize("cmd", ["validate", "show", "replay"])
def test_class2_a_4301_digit_integer_is_refused_before_int_parses_it(tmp_path: Path, capsys, cmd) -> None:
    d = doc(RECORD)
    text = json.dumps(d).replace('"score": 0', '"score": ' + "9" * 4301, 1)
    err = refuse(capsys, cmd, write(tmp_path, text))
    assert "an integer of 4301 digits" in err


def test_class2_a_score_no_game_reaches_is_refused_r41(tmp_path: Path, capsys) -> None:
    d = doc()
    d["players"][0]["score"] = 10**10
    err = refuse(capsys, "validate", write(tmp_path, d))
    assert "players[0].score" in err and "R41" in err


# ---------------------------------------------------------------- 3. hex names
@pytest.mark.parametrize("text", ["G²", "G٥", "Ｇ6", "G-1", "G 6", "G06000"])
def test_class3_hex_names_take_only_ascii_letters_and_digits(text: str) -> None:
    with pytest.raises(NotationError):
        parse_hex(text)


@pytest.mark.parametrize("action", ["enter G²", "enter G٥", "palace G6 ²", "palace G6 ٤"])
def test_class3_non_ascii_digits_in_actions_r26_r28(tmp_path: Path, capsys, action: str) -> None:
    with pytest.raises(NotationError):
        parse_action(action)
    err = refuse(capsys, "apply", str(PUZZLE), action)
    # A bad hex name cites the notation (issue 24), a bad palace value R28.
    assert ("notation.md" in err) if action.startswith("enter") else ("R28" in err)


def test_class3_non_ascii_hex_in_a_position_names_the_field(tmp_path: Path, capsys) -> None:
    d = doc()
    d["developers"]["G٥"] = d["developers"].pop(next(iter(d["developers"])))
    err = refuse(capsys, "validate", write(tmp_path, d))
    assert "developers" in err and "G٥" in err


# ---------------------------------------------------------------- 4. card letters
@pytest.mark.parametrize("action", ["bid X", "festival G6 Q", "bid D+Z", "bid DX"])
def test_class4_unknown_card_letters_r2(capsys, action: str) -> None:
    err = refuse(capsys, "apply", str(PUZZLE), action)
    assert "is not a festival card" in err and "R2" in err


def test_class4_unknown_card_in_a_record_names_the_action(tmp_path: Path, capsys) -> None:
    d = doc(RECORD)
    d["actions"][3] = "bid X"
    err = refuse(capsys, "replay", write(tmp_path, d))
    assert "action 4" in err and "R2" in err


# ---------------------------------------------------------------- 5. record result
@pytest.mark.parametrize("result", [5, "x", [1, 2], True])
def test_class5_a_result_that_is_not_an_object(tmp_path: Path, capsys, result: Any) -> None:
    d = doc(RECORD)
    d["result"] = result
    err = refuse(capsys, "replay", write(tmp_path, d))
    assert "result: expected an object" in err


# ---------------------------------------------------------------- 6. echoed newlines
@pytest.mark.parametrize("argv", [
    ["apply", str(PUZZLE), "enter G6\nX"],
    ["apply", str(PUZZLE), "jump\x1b[2J"],
    ["validate", "no\nsuch\nfile.json"],
    ["new", "--players", "5\n6"],
])
def test_class6_raw_input_with_newlines_stays_on_one_line(capsys, argv: list[str]) -> None:
    err = refuse(capsys, *argv)
    assert "\x1b" not in err


def test_class6_a_player_name_with_a_newline_is_refused(tmp_path: Path, capsys) -> None:
    d = doc()
    d["players"][1]["name"] = "Bob\nkraton: fake"
    err = refuse(capsys, "validate", write(tmp_path, d))
    assert "players[1].name" in err


# ---------------------------------------------------------------- 7. the map field
@pytest.mark.parametrize("spec", ["/dev/zero", "/dev/urandom", "/dev/stdin", "/"])
def test_class7_map_devices_fifos_folders_are_refused_unread(tmp_path: Path, capsys, spec: str) -> None:
    d = doc()
    d["map"] = spec
    err = refuse(capsys, "validate", write(tmp_path, d))
    assert "map" in err and ("not a regular file" in err or "directory" in err)


def test_class7_map_fifo_does_not_block(tmp_path: Path, capsys) -> None:
    fifo = tmp_path / "m.txt"
    os.mkfifo(fifo)
    d = doc()
    d["map"] = "m.txt"
    assert run_cli(["validate", write(tmp_path, d)], hang_seconds=5).kind == "error"


def test_class7_an_arbitrary_file_is_not_echoed(tmp_path: Path, capsys) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("Zsecret\n")
    d = doc()
    d["map"] = "secret.txt"
    err = refuse(capsys, "validate", write(tmp_path, d))
    assert "Z" not in err.split("secret.txt", 1)[1] and "line 1, column 1" in err


def test_class7_a_large_map_file_is_refused_by_size(tmp_path: Path, capsys) -> None:
    (tmp_path / "big.txt").write_text(". " * 40000)
    d = doc()
    d["map"] = "big.txt"
    assert "bytes, more than" in refuse(capsys, "validate", write(tmp_path, d))


def test_class7_stacked_tiles_are_refused_before_replay_r1(tmp_path: Path, capsys) -> None:
    d = doc()
    d["tiles"] = d["tiles"] * 30
    err = refuse(capsys, "validate", write(tmp_path, d))
    assert "tiles:" in err and "R1" in err


def test_a_device_as_position_file_is_refused(capsys) -> None:
    assert "not a regular file" in refuse(capsys, "validate", "/dev/zero")


# ---------------------------------------------------------------- unreachable positions
def _refused(tmp_path: Path, d: Any) -> str:
    with pytest.raises(PositionError) as e:
        load_position(write(tmp_path, d))
    return str(e.value)


def test_r40_no_three_space_tiles_left_but_no_last_round(tmp_path: Path) -> None:
    d = doc()
    d["last_round"] = None
    d["players"][1]["final_counted"] = False
    assert "R40" in _refused(tmp_path, d)


def test_r41_final_counted_before_the_last_round(tmp_path: Path) -> None:
    d = doc(ROOT / "puzzles" / "one-ap-01.json")
    d["players"][1]["final_counted"] = True
    msg = _refused(tmp_path, d)
    assert "players[1].final_counted" in msg and "R41" in msg


def test_r1_own_supply_over_the_material(tmp_path: Path) -> None:
    d = doc(ROOT / "puzzles" / "one-ap-01.json")
    d["players"][0]["doubles"] = 6
    d["players"][1]["doubles"] = 4
    msg = _refused(tmp_path, d)
    assert "players[0].doubles" in msg and "R1" in msg


def test_r7_seven_ap_without_the_token(tmp_path: Path) -> None:
    d = doc()
    d["turn"]["ap"] = 7
    msg = _refused(tmp_path, d)
    assert "turn.ap" in msg and "R7" in msg


def test_r7_token_used_with_all_three_tokens_left(tmp_path: Path) -> None:
    d = doc(ROOT / "puzzles" / "one-ap-01.json")
    d["turn"]["token_used"] = True
    d["players"][d["to_move"]]["tokens"] = 3
    assert "R7" in _refused(tmp_path, d)


@pytest.mark.parametrize("remaining, what", [([2, 0], "player to move"), ([3, 3], "duplicate"),
                                             ([0, 3], "out of turn")])
def test_r40_last_round_remaining_mover_duplicate_order(tmp_path: Path, remaining, what) -> None:
    d = doc()
    d["last_round"]["remaining"] = remaining
    msg = _refused(tmp_path, d)
    assert "last_round.remaining" in msg and what in msg and "R40" in msg


def test_r29_duplicate_palaces_changed(tmp_path: Path) -> None:
    d = doc(ROOT / "puzzles" / "one-ap-01.json")
    hexes = list(d["palaces"])
    assert hexes, "the puzzle needs a palace"
    d["turn"]["palaces_changed"] = [hexes[0], hexes[0]]
    d["turn"]["ap"] = 1
    d["palaces"][hexes[0]]["festival_held"] = False
    assert "R29" in _refused(tmp_path, d)


def test_r30_festival_opener_without_a_developer_in_the_city(tmp_path: Path) -> None:
    from core.position import position_to_dict
    from tests.festival_positions import city_position, play

    s = city_position(developers={"F5": 0, "F6": 1}, hands=[["D"], ["DM"], [], []])
    play(s, "festival F4 D")
    assert s.festival is not None  # player 1 is still to decide
    d = position_to_dict(s)
    load_position(write(tmp_path, d))  # as played: reachable
    del d["developers"]["F5"]
    d["players"][0]["developers_off"] += 1
    msg = _refused(tmp_path, d)
    assert "festival.opener" in msg and "R30" in msg


def test_the_project_puzzles_and_positions_are_all_reachable() -> None:
    for f in [*(ROOT / "puzzles").glob("*.json"), *(ROOT / "tests" / "positions").glob("*.json")]:
        load_position(str(f))


# ---------------------------------------------------------------- saving
def test_save_removes_stale_temporaries_of_killed_saves(tmp_path: Path) -> None:
    from core.position import write_text_atomic

    (tmp_path / ".kraton-999999-abc.tmp").write_text("x" * 1000)  # no such process
    old = tmp_path / ".kraton-oldstyle.tmp"  # named before the PID was in the name: an hour old
    old.write_text("x")
    os.utime(old, (time.time() - 7200, time.time() - 7200))
    (tmp_path / ".kraton-1234abcd.tmp").write_text("x")  # that form, but recent: may be live
    (tmp_path / ".kraton-notes.tmp").write_text("mine")  # not a name kraton gives: kept
    (tmp_path / ".kraton-1-notes.txt").write_text("mine")
    write_text_atomic(str(tmp_path / "a.json"), "{}")
    assert sorted(os.listdir(tmp_path)) == [".kraton-1-notes.txt", ".kraton-1234abcd.tmp",
                                            ".kraton-notes.tmp", "a.json"]


def test_save_to_dev_stdout_is_refused_and_leaves_the_redirected_file(tmp_path: Path) -> None:
    """``kraton apply X ACTIONS -o /dev/stdout >> log.txt``: the name resolves to log.txt, and
    an atomic save's rename would replace it (its earlier lines gone)."""
    log = tmp_path / "log.txt"
    log.write_text("line 1, kept\n")
    link = tmp_path / "out.json"
    link.symlink_to("/dev/stdout")
    for name in ("/dev/stdout", "/proc/self/fd/1", str(link)):
        with log.open("a") as out:
            r = subprocess.run([sys.executable, "-m", "tui.cli", "apply", "puzzles/one-ap-01.json",
                                "tile D2r", "-o", name], check=False, cwd=ROOT, stdout=out,
                               stderr=subprocess.PIPE, text=True)
        assert r.returncode == 2 and "refusing to write it" in r.stderr, name
        assert len(r.stderr.splitlines()) == 1
    assert log.read_text() == "line 1, kept\n"


def test_save_errors_name_the_target_not_the_temporary(tmp_path: Path) -> None:
    from core.position import write_text_atomic

    target = tmp_path / "missing-folder" / "x.json"
    with pytest.raises(OSError) as e:
        write_text_atomic(str(target), "{}")
    assert e.value.filename == str(target) and ".kraton-" not in str(e.value)


def test_save_through_a_symlink_writes_the_file_it_points_to(tmp_path: Path) -> None:
    from core.position import write_text_atomic

    real = tmp_path / "real.json"
    real.write_text("old")
    link = tmp_path / "link.json"
    link.symlink_to(real)
    write_text_atomic(str(link), "new")
    assert link.is_symlink() and real.read_text() == "new"


def test_save_to_a_fifo_is_refused(tmp_path: Path, capsys) -> None:
    fifo = tmp_path / "f.json"
    os.mkfifo(fifo)
    err = refuse(capsys, "new", "-o", str(fifo))
    assert "not a regular file" in err and "f.json" in err
    assert fifo.exists() and not fifo.is_file()


# ---------------------------------------------------------------- game records (issue 24.4)
def test_show_validate_analyze_read_a_record_at_its_current_position(tmp_path: Path, capsys) -> None:
    n = len(doc(RECORD)["actions"])
    assert main(["validate", str(RECORD)]) == 0
    out, err = capsys.readouterr()
    assert f"after {n} of {n} actions" in err and err.count("\n") == 1
    assert main(["analyze", "--no-solve", "--json", str(RECORD)]) == 0
    out, err = capsys.readouterr()
    json.loads(out)  # stdout stays clean JSON
    assert "game record" in err


def test_at_n_gives_the_position_after_n_actions(tmp_path: Path, capsys) -> None:
    from core.record import load_any, replay_file

    s, note = load_any(str(RECORD), 10)
    assert note and "after 10 of" in note
    assert len(s.tiles) == len(replay_file(str(RECORD), 10).state.tiles)
    start, _ = load_any(str(RECORD), 0)
    full, _ = load_any(str(RECORD))
    assert len(start.tiles) == 0 < len(full.tiles)
    err = refuse(capsys, "show", "--at", "100000", str(RECORD))
    assert "--at 100000" in err
    assert "applies to a game record" in refuse(capsys, "validate", "--at", "3", str(PUZZLE))


def test_apply_on_a_record_starts_from_its_current_position(tmp_path: Path, capsys) -> None:
    from core.record import load_any

    s, _ = load_any(str(RECORD), 5)
    action = str(next(iter(s.legal_actions())))
    assert main(["apply", "--at", "5", str(RECORD), action]) == 0
    out, err = capsys.readouterr()
    assert len(json.loads(out)["tiles"]) >= len(s.tiles) and "after 5 of" in err


def test_an_error_after_reading_a_record_is_still_one_line(capsys) -> None:
    """The note on which position of a record is used comes only with success (fuzz finding)."""
    err = refuse(capsys, "apply", str(RECORD), "enter A1")
    assert "R40" in err and "record's position after" in err
    refuse(capsys, "apply", str(RECORD), "jump")


def test_new_refuses_names_validate_would_refuse(tmp_path: Path, capsys) -> None:
    err = refuse(capsys, "new", "--players", "2", "--names", "a\tb,c", "-o", str(tmp_path / "n.json"))
    assert "--names" in err and not (tmp_path / "n.json").exists()


def test_r4_an_edited_map_file_is_read_anew(tmp_path: Path) -> None:
    """Map files were cached by path alone: an edit went unseen in a running process."""
    from core.hexmap import load_map

    m = tmp_path / "m.txt"
    base = (ROOT / "tests" / "maps" / "mini-a.txt").read_text()
    m.write_text(base)
    before = load_map(str(m))
    m.write_text(base.replace(" L . . . . . L", " L . . ~ . . L", 1))
    after = load_map(str(m))
    assert len(after.printed_irrigation) == len(before.printed_irrigation) + 1


# ---------------------------------------------------------------- what -o and the options take
def _record(tmp_path: Path, n: int = 30) -> Path:
    """A game record of ``n`` actions (of planner-100's)."""
    d = json.loads((ROOT / "puzzles" / "games" / "planner-100.json").read_text())
    d["actions"] = d["actions"][:n]
    d.pop("result", None)
    path = tmp_path / "rec.json"
    path.write_text(json.dumps(d))
    return path


def test_a_game_record_is_never_replaced_by_a_position(tmp_path: Path) -> None:
    rec = _record(tmp_path)
    before = rec.read_bytes()
    from core.record import load_any

    s, _ = load_any(str(rec))
    legal = str(next(a for a in s.legal_actions() if a.kind == "tile"))
    for argv in (["apply", str(rec), legal, "-o", str(rec)],
                 ["replay", str(rec), "--at", "10", "-o", str(rec)],
                 ["new", "--players", "2", "-o", str(rec)]):
        assert run_cli(argv).kind == "error", argv  # one line, exit 2
        assert rec.read_bytes() == before, argv
    out = tmp_path / "pos.json"  # another file: the position, as ever
    assert run_cli(["apply", str(rec), legal, "-o", str(out)]).kind == "ok"
    assert json.loads(out.read_text())["format"] == "java-position"


def test_seeds_are_what_a_file_keeps_and_counts_ascii_digits(tmp_path: Path) -> None:
    big = tmp_path / "big.json"
    assert run_cli(["new", "--seed", "1" + "0" * 30, "-o", str(big)]).kind == "error"
    assert not big.exists()
    assert run_cli(["new", "--seed", "9" * 19, "-o", str(big)]).kind == "ok"
    assert run_cli(["validate", str(big)]).kind == "ok"  # what it writes, it reads back
    assert run_cli(["selfplay", "-q", "--seed", "9" * 25]).kind == "error"
    rec = _record(tmp_path)
    for at in (" 3", "٣", "3.0"):
        assert run_cli(["validate", str(rec), "--at", at]).kind == "error", at
        assert run_cli(["replay", str(rec), "--at", at]).kind == "error", at
    assert run_cli(["validate", str(rec), "--at", "3"]).kind == "ok"


def test_no_actions_an_empty_output_name_or_a_folder_are_refused(tmp_path: Path) -> None:
    start = tmp_path / "start.json"
    assert run_cli(["new", "--players", "2", "--seed", "1", "-o", str(start)]).kind == "ok"
    for actions in ("", ";", " ; "):
        assert run_cli(["apply", str(start), actions]).kind == "error", actions
    assert run_cli(["apply", str(start), "draw deck", "-o", ""]).kind == "error"
    assert run_cli(["selfplay", "-q", "-o", ""]).kind == "error"
    folder = tmp_path / "out"
    folder.mkdir()
    assert run_cli(["selfplay", "-q", "--games", "2", "-o", str(folder)]).kind == "error"
    assert run_cli(["selfplay", "-q", "--games", "2", "-o", str(folder) + "/"]).kind == "error"
    assert list(folder.iterdir()) == []


def _festival_position() -> dict[str, Any]:
    """planner-100 after 102 actions: a festival in its joining round (player 1 to decide)."""
    from core.record import replay_file

    return position_to_dict(replay_file(str(ROOT / "puzzles" / "games" / "planner-100.json"), 102).state)


def test_r32_a_festival_state_the_bidding_never_reaches_is_refused(tmp_path: Path) -> None:
    d = _festival_position()
    assert d["festival"]["phase"] == "join" and d["festival"]["to_decide"] == 1
    load_position(write(tmp_path, d))  # as played
    for change in ({"to_decide": 0},  # the mover, in already, deciding to join
                   {"phase": "agree", "to_decide": 1},  # nobody tied, two still pending
                   {"phase": "raise", "to_decide": 1},  # pending players after the round
                   {"status": ["out", "pending", "out", "pending"]}):  # the mover never opened
        bad = json.loads(json.dumps(d))
        bad["festival"].update(change)
        msg = _refused(tmp_path, bad)
        assert "R32" in msg and "festival" in msg, change
    # what the QA pass met: validate accepted it, then `apply pass` said "max() arg is an
    # empty sequence"; now validate refuses it and apply never gets there
    bad = json.loads(json.dumps(d))
    bad["festival"]["to_decide"] = 0
    path = write(tmp_path, bad)
    assert run_cli(["validate", path]).kind == "error"
    assert run_cli(["apply", path, "pass"]).kind == "error"


def test_r32_every_festival_state_of_random_play_is_accepted_back(tmp_path: Path) -> None:
    from core.game import play_random_game
    from core.record import load_record

    met = 0

    def check(_i: int, _a: object, g: Any) -> None:
        nonlocal met
        if g.state.festival is not None:
            met += 1
            load_position(write(tmp_path, position_to_dict(g.state)))

    for seed in range(12):
        play_random_game(3, seed, "festive").record().replay(on_action=check)
    for n in range(100, 112):  # the planners' games: their festivals are many and contested
        load_record(str(ROOT / "puzzles" / "games" / f"planner-{n}.json"))[0].replay(on_action=check)
    assert met > 20


def test_r13_a_tile_exactly_on_a_tile_of_its_size_is_refused_on_loading(tmp_path: Path) -> None:
    from core.state import GameState

    d = position_to_dict(GameState.new(3, seed=7))
    three = {"hexes": {"G5": "rice", "G6": "village", "H5": "rice"}}
    d["tiles"], d["supply"]["triples"] = [three, three], d["supply"]["triples"] - 2
    msg = _refused(tmp_path, d)
    assert "tiles[1]" in msg and "R13" in msg
    shifted = {"hexes": {"G6": "village", "H5": "rice", "H6": "rice"}}  # parts of two: allowed
    d["tiles"] = [three, {"hexes": {"H6": "rice"}}, shifted]
    d["players"][0]["rice"] -= 1
    load_position(write(tmp_path, d))


def test_a_key_twice_names_unnamed_or_twice_and_loose_numbers_are_refused(tmp_path: Path) -> None:
    """What a save would silently change: a key twice (the last won, and the other was lost on
    writing), an empty or a repeated player name, a seed or reshuffle count of another type
    (read as 0)."""
    text = (ROOT / "puzzles" / "one-ap-01.json").read_text()
    assert '"score": 0,' in text
    path = write(tmp_path, text.replace('"score": 0,', '"score": 50, "score": 0,', 1))
    with pytest.raises(PositionError, match="'score' twice"):
        load_position(path)
    d = doc(ROOT / "puzzles" / "one-ap-01.json")
    for change, what in ((lambda x: x["players"][0].update(name=""), "name"),
                         (lambda x: x["players"][0].update(name="  "), "name"),
                         (lambda x: x["players"][1].update(name=x["players"][0]["name"]), "another player"),
                         (lambda x: x.update(seed="abc"), "seed"),
                         (lambda x: x.update(seed=1.5), "seed"),
                         (lambda x: x.update(reshuffles=-1), "reshuffles"),
                         (lambda x: x.update(reshuffles=[]), "reshuffles")):
        bad = json.loads(json.dumps(d))
        change(bad)
        assert what in _refused(tmp_path, bad)
    d["seed"], d["reshuffles"] = -5, 2  # any whole seed; reshuffles from 0 up
    load_position(write(tmp_path, d))


def test_a_closed_standard_output_is_said_not_ignored() -> None:
    """``kraton show FILE >&-``: Python drops every print without a word; the command said
    nothing and exited 0."""
    r = subprocess.run(["sh", "-c", f'exec "{sys.executable}" -m tui.cli show puzzles/one-ap-01.json >&-'],
                       check=False, cwd=ROOT, stderr=subprocess.PIPE, text=True)
    assert r.returncode == 2 and r.stderr.strip() == "kraton: standard output is closed: nowhere to print"


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full here")
@pytest.mark.parametrize("args", [["show", "puzzles/one-ap-01.json"],
                                  ["validate", "puzzles/one-ap-01.json"],
                                  ["--help"], ["solve", "--help"]])  # argparse's own writes too
def test_a_failed_write_to_standard_output_says_it_was_standard_output(args: list[str]) -> None:
    """``kraton show FILE > /dev/full`` said only "No space left on device", as if a file of
    its own had failed: the line names standard output."""
    with open("/dev/full", "w") as full:
        r = subprocess.run([sys.executable, "-m", "tui.cli", *args], check=False, cwd=ROOT,
                           stdout=full, stderr=subprocess.PIPE, text=True)
    assert r.returncode == 2
    assert r.stderr.strip() == "kraton: standard output: No space left on device"


def test_standard_output_is_itself_again_after_a_command(capsys: pytest.CaptureFixture[str]) -> None:
    """In-process callers (the tests, the app's commands) get their ``sys.stdout`` back."""
    before = sys.stdout
    assert main(["show", "puzzles/one-ap-01.json"]) == 0
    assert sys.stdout is before and "A" in capsys.readouterr().out
