"""The `kraton` command (notation.md's contract): new, validate, show, apply, analyze.

Every error is one line on stderr with exit status 2 and no traceback; apply never modifies
its input file.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from core.position import load_position, save_position
from tests.helpers import build
from tui.cli import main

BIN = Path(sys.executable).parent / "kraton"


def kraton(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """The installed console command in a real process (python -m tui.cli as a fallback)."""
    cmd = [str(BIN)] if BIN.exists() else [sys.executable, "-m", "tui.cli"]
    return subprocess.run(cmd + list(args), capture_output=True, text=True, cwd=cwd, timeout=60,
                          check=False)


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    try:
        rc = main(list(args))
    except SystemExit as e:  # argparse's own errors (exit status 2, one line)
        rc = e.code  # type: ignore[assignment]
    out, err = capsys.readouterr()
    return rc, out, err


def assert_one_line_error(rc: int, out: str, err: str, *fragments: str) -> None:
    assert rc == 2
    assert out == ""
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert err.startswith("kraton: ")
    assert "Traceback" not in err
    for f in fragments:
        assert f in err, err


@pytest.fixture
def city_file(tmp_path: Path) -> Path:
    """A position with a city (palace G6 of 4 in G6 G7 F7 H6: A on level 2 first, B on level 1
    second) and a village (I9)."""
    s = build(tiles=["G6v G5r H5r", "G7v H7r", "F7v F8r E8r", "G7v", "H6v", "I9v J9r"],
              developers={"G7": 0, "F7": 1, "I9": 1}, palaces={"G6": 4})
    p = tmp_path / "city.json"
    save_position(s, str(p))
    return p


# ------------------------------------------------------------------ the acceptance commands

def test_cli_acceptance_session_in_a_real_process(tmp_path: Path) -> None:
    r = kraton("new", "-o", "p.json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "p.json" in r.stdout
    r = kraton("show", "p.json", cwd=tmp_path)
    assert r.returncode == 0 and "G" in r.stdout and "A = Red" in r.stdout
    r = kraton("apply", "p.json", "tile G6v G5r H5r; end", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    assert d["tiles"] == [{"hexes": {"G6": "village", "G5": "rice", "H5": "rice"}}]
    r = kraton("analyze", "p.json", "--json", cwd=tmp_path)
    assert r.returncode == 0
    a = json.loads(r.stdout)
    assert a["cities"] == [] and a["final_count"] == [0, 0, 0, 0]
    r = kraton("validate", "p.json", cwd=tmp_path)
    assert r.returncode == 0 and r.stdout.count("\n") == 1 and "valid" in r.stdout


def test_cli_errors_in_a_real_process_have_no_traceback(tmp_path: Path) -> None:
    (tmp_path / "bad.json").write_text("{", encoding="utf-8")
    for args in (("validate", "bad.json"), ("show", "missing.json"),
                 ("apply", "bad.json", "end"), ("analyze", "bad.json", "--json"),
                 ("new", "--players", "5"), ("frobnicate",)):
        r = kraton(*args, cwd=tmp_path)
        assert r.returncode == 2, (args, r.stderr)
        assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr, (args, r.stderr)


# ------------------------------------------------------------------ new

def test_new_writes_a_valid_start_position(tmp_path: Path, capsys) -> None:
    p = tmp_path / "p.json"
    rc, out, err = run(capsys, "new", "--players", "3", "--seed", "7", "-o", str(p))
    assert rc == 0 and err == ""
    assert "seed 7" in out
    s = load_position(str(p))
    assert s.n_players == 3 and s.triples == 56 and len(s.deck) == 30 - 1 - 9
    assert all(len(pl.hand) == 3 for pl in s.players)


def test_new_is_reproducible_by_seed_and_prints_json_without_o(capsys) -> None:
    rc1, out1, _ = run(capsys, "new", "--seed", "3")
    rc2, out2, _ = run(capsys, "new", "--seed", "3")
    assert rc1 == rc2 == 0 and out1 == out2
    d = json.loads(out1)
    assert d["format"] == "java-position" and len(d["players"]) == 4


def test_new_refuses_a_bad_player_count(capsys) -> None:
    assert_one_line_error(*run(capsys, "new", "--players", "5"))
    assert_one_line_error(*run(capsys, "new", "--players", "2", "--names", "a,b,c"), "names")


# ------------------------------------------------------------------ validate, show

def test_validate_prints_a_one_line_summary(city_file: Path, capsys) -> None:
    rc, out, err = run(capsys, "validate", str(city_file))
    assert rc == 0 and err == ""
    assert out.count("\n") == 1 and "valid" in out and "Red" in out


def test_show_prints_the_board_with_a_legend(city_file: Path, capsys) -> None:
    rc, out, err = run(capsys, "show", str(city_file))
    assert rc == 0 and err == ""
    assert "v2" in out  # G7: village on level 2
    assert "P4" in out  # the palace of value 4
    assert "~~" in out  # irrigation
    assert "A = Red" in out and "B = Yellow" in out
    lines = out.splitlines()
    assert any(line.startswith("G ") for line in lines)


# ------------------------------------------------------------------ apply

def test_apply_prints_the_result_and_never_modifies_its_input(city_file: Path, capsys) -> None:
    before = city_file.read_bytes()
    mtime = os.stat(city_file).st_mtime_ns
    rc, _, _ = run(capsys, "apply", str(city_file), "tile K8v K9r J8r; enter B6")
    assert rc == 2  # B6 is bare: R26
    rc, out, err = run(capsys, "apply", str(city_file), "tile K8v K9r J8r; irrigate E10; end")
    assert rc == 0 and err == ""
    d = json.loads(out)
    assert d["to_move"] == 1 and d["irrigation"] == ["E10"] and len(d["tiles"]) == 7
    assert city_file.read_bytes() == before and os.stat(city_file).st_mtime_ns == mtime


def test_apply_writes_to_o(city_file: Path, tmp_path: Path, capsys) -> None:
    before = city_file.read_bytes()
    out_file = tmp_path / "out.json"
    rc, out, err = run(capsys, "apply", str(city_file), "token; irrigate E10", "-o", str(out_file))
    assert rc == 0 and out == ""
    assert "1 action" not in err and "2 action(s) applied" in err  # the summary goes to stderr
    s = load_position(str(out_file))
    assert s.turn.ap == 6 and s.turn.token_used
    assert city_file.read_bytes() == before


def test_apply_may_write_back_to_the_same_file(tmp_path: Path, capsys) -> None:
    p = tmp_path / "game.json"
    assert run(capsys, "new", "--seed", "7", "-o", str(p))[0] == 0
    rc, _, _ = run(capsys, "apply", str(p), "tile G6v G5r H5r; end", "-o", str(p))
    assert rc == 0
    assert len(load_position(str(p)).tiles) == 1
    assert [f.name for f in tmp_path.iterdir()] == ["game.json"]


@pytest.mark.parametrize(
    "actions,fragments",
    [
        ("tile G6v G5r H5r; end; end", ("action 3 of 3", "'end'", "R8")),
        ("tile G6v G5r H5r; tile G6v G5r H5r", ("action 2 of 2", "R13")),
        ("enter E8", ("action 1 of 1", "R26")),
        ("irrigate B7", ("R37",)),
        ("tile A1r", ("R4",)),
        ("fly G6", ("unknown action",)),
        ("tile G6x", ("G6x",)),
        ("move G6", ("'move' takes 2",)),
        ("palace G6 four", ("not a number",)),
    ],
)
def test_apply_errors_name_the_action_and_the_rule(tmp_path: Path, capsys, actions: str,
                                                   fragments: tuple[str, ...]) -> None:
    p = tmp_path / "p.json"
    run(capsys, "new", "--seed", "1", "-o", str(p))
    before = p.read_bytes()
    out_file = tmp_path / "out.json"
    assert_one_line_error(*run(capsys, "apply", str(p), actions, "-o", str(out_file)), *fragments)
    assert p.read_bytes() == before
    assert not out_file.exists()


# ------------------------------------------------------------------ analyze

def test_analyze_json_contract(city_file: Path, capsys) -> None:
    rc, out, err = run(capsys, "analyze", str(city_file), "--json")
    assert rc == 0 and err == ""
    r = json.loads(out)
    [c] = r["cities"]
    assert {"palace", "value", "size", "keys", "first", "second"} <= set(c)
    assert c["palace"] == "G6" and c["value"] == 4 and c["size"] == 4
    assert c["keys"] == {"0": [2], "1": [1]}
    assert c["first"] == [0] and c["second"] == [1]
    assert r["final_count"] == [4, 2]


def test_analyze_text_and_several_files(city_file: Path, tmp_path: Path, capsys) -> None:
    rc, out, _ = run(capsys, "analyze", str(city_file))
    assert rc == 0 and "G6" in out and "R41" in out
    rc, out, _ = run(capsys, "analyze", str(city_file), str(city_file), "--json")
    both = json.loads(out)
    assert isinstance(both, list) and len(both) == 2
    assert both[0]["file"] == str(city_file) and both[0]["final_count"] == [4, 2]


# ------------------------------------------------------------------ errors

@pytest.mark.parametrize("cmd", ["validate", "show", "analyze"])
def test_file_errors_are_one_line(tmp_path: Path, capsys, cmd: str) -> None:
    assert_one_line_error(*run(capsys, cmd, str(tmp_path / "nope.json")), "no such file")
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "java-position"', encoding="utf-8")
    assert_one_line_error(*run(capsys, cmd, str(bad)), "invalid JSON at line 1")
    wrong = tmp_path / "wrong.json"
    wrong.write_text(json.dumps({"format": "java-position", "map": "java-centre"}), encoding="utf-8")
    assert_one_line_error(*run(capsys, cmd, str(wrong)), "players: missing required key")


def test_a_position_refusal_names_the_file_and_field(city_file: Path, tmp_path: Path, capsys) -> None:
    d = json.loads(city_file.read_text())
    d["developers"]["G6"] = 0  # onto the palace
    p = tmp_path / "two.json"
    p.write_text(json.dumps(d), encoding="utf-8")
    assert_one_line_error(*run(capsys, "validate", str(p)), str(p), "palaces.G6", "two pieces")


def test_a_long_path_in_an_error_keeps_its_file_name(tmp_path: Path, capsys) -> None:
    deep = tmp_path / ("a-folder-with-a-long-name-" * 7)
    deep.mkdir()
    bad = deep / "my-position.json"
    bad.write_text('{"format": "java-position"', encoding="utf-8")
    rc, out, err = run(capsys, "validate", str(bad))
    assert_one_line_error(rc, out, err, "invalid JSON at line 1")
    assert "…" in err and "a-folder-with-a-long-name-/my-position.json: invalid JSON" in err
    assert len(err.split(": invalid JSON")[0]) <= len("kraton: ") + 161


# ------------------------------------------------------------------ start-up


def test_the_command_table_names_the_module_of_every_command() -> None:
    """``COMMANDS`` says which module registers each command, so that one command imports one
    module: every command of the full parser is there, and each module registers its own."""
    import argparse

    from tui.cli import COMMANDS, build_parser

    def commands(p: argparse.ArgumentParser) -> set[str]:
        sub = next(a for a in p._actions if isinstance(a, argparse._SubParsersAction))
        return set(sub.choices)

    assert commands(build_parser()) == set(COMMANDS)
    for name in COMMANDS:
        assert commands(build_parser(name)) == {c for c, m in COMMANDS.items() if m == COMMANDS[name]}


def test_kraton_solve_imports_neither_the_miner_nor_the_other_commands() -> None:
    """``kraton solve`` on a puzzle is a whole process (issue 21: ≤ 1 s, start-up imports
    trimmed): the puzzle miner's and the tournament's modules are not imported for it."""
    code = ("import sys; from tui.cli import main; rc = main(['solve', 'puzzles/one-ap-01.json']); "
            "print(rc, sorted(m for m in ('analysis.mine', 'analysis.puzzle_make', "
            "'tui.commands.tournament', 'tui.commands.puzzles') if m in sys.modules))")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False,
                       cwd=Path(__file__).resolve().parent.parent, timeout=60)
    assert r.stdout.splitlines()[-1] == "0 []", r.stdout + r.stderr
