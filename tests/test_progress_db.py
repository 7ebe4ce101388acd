"""The trainer's progress database (issue 25): migrations from an older schema, two writers
at once (threads and processes), a write killed mid-transaction, export/import, and bad
databases or export files (one line, exit 2 in the CLI)."""

from __future__ import annotations

import itertools
import json
import os
import signal
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analysis.trainer.glicko import Rating
from analysis.trainer.progress import VERSION, Attempt, Progress, ProgressError
from tui.cli import main

pytestmark = pytest.mark.usefixtures("kraton_home")


def test_a_version_1_database_is_migrated_and_keeps_its_rows(tmp_path: Path) -> None:
    path = tmp_path / "p.sqlite"
    old = Progress(path, upto=1)
    assert old.version() == 1
    old.conn.execute("INSERT INTO attempts (uid, at, puzzle, mode, solved, seconds) "
                     "VALUES ('u1', 10.0, 'pond-01', 'rated', 1, 12.5)")
    old.conn.execute("INSERT INTO user_rating VALUES ('r1', 10.0, 1620.0, 210.0, 0.06)")
    old.close()
    new = Progress(path)
    assert new.version() == VERSION > 1
    assert new.user() == Rating(1620.0, 210.0, 0.06)
    st = new.stats()
    assert st.attempts == 1 and st.solved == 1  # score filled from solved by the migration
    new.record(Attempt("pond-02", "rated", 0.0, ("pond",)), Rating(1500, 100))
    assert new.stats().attempts == 2 and new.stats().themes == {"pond": (1, 0)}


def test_a_newer_schema_is_refused_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "p.sqlite"
    Progress(path).close()
    c = sqlite3.connect(path)
    c.execute("UPDATE schema_version SET version = 99")
    c.commit()
    c.close()
    with pytest.raises(ProgressError, match="newer"):
        Progress(path)


def _check_chain(prog: Progress) -> None:
    """No lost update: each rated attempt started from the rating the one before left."""
    rows = prog.conn.execute("SELECT user_before, user_after FROM attempts WHERE rated = 1 "
                             "ORDER BY rowid").fetchall()
    for (_, after), (before, _) in itertools.pairwise(rows):
        assert before == pytest.approx(after)


def test_two_threads_write_at_once(tmp_path: Path) -> None:
    path = tmp_path / "p.sqlite"
    Progress(path).close()

    def writer(tag: str) -> None:
        p = Progress(path)
        for i in range(40):
            p.record(Attempt(f"{tag}-{i}", "rated", float(i % 2), ("pond",)), Rating(1500, 80))
        p.close()

    threads = [threading.Thread(target=writer, args=(t,)) for t in ("a", "b")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    prog = Progress(path)
    assert prog.stats().attempts == 80 and len(prog.history(1000)) == 80
    _check_chain(prog)


WRITER = """
import sys
from analysis.trainer.glicko import Rating
from analysis.trainer.progress import Attempt, Progress
p = Progress(sys.argv[1])
for i in range(int(sys.argv[3])):
    p.record(Attempt(f"{sys.argv[2]}-{i}", "rated", float(i % 2), ("palace",)), Rating(1500, 80))
"""


def test_two_processes_write_at_once(tmp_path: Path) -> None:
    """Two app instances: both finish, every attempt is there, no rating update is lost."""
    path = tmp_path / "p.sqlite"
    Progress(path).close()
    procs = [subprocess.Popen([sys.executable, "-c", WRITER, str(path), tag, "40"]) for tag in ("x", "y", "z")]
    assert [p.wait(timeout=120) for p in procs] == [0, 0, 0]
    prog = Progress(path)
    assert prog.stats().attempts == 120
    _check_chain(prog)


KILLED = """
import sys, time
from analysis.trainer.glicko import Rating
from analysis.trainer.progress import Attempt, Progress
p = Progress(sys.argv[1])
for i in range(5):
    p.record(Attempt(f"done-{i}", "rated", 1.0), Rating(1500, 80))
with p.write() as c:
    c.execute("INSERT INTO attempts (uid, at, puzzle, mode, solved, seconds, score) "
              "VALUES ('inflight', 1, 'x', 'rated', 1, 0, 1)")
    c.execute("INSERT INTO user_rating VALUES ('inflight', 1, 3000, 50, 0.06)")
    print("in the middle", flush=True)
    time.sleep(60)
"""


def test_a_write_killed_mid_transaction_loses_only_that_attempt(tmp_path: Path) -> None:
    path = tmp_path / "p.sqlite"
    proc = subprocess.Popen([sys.executable, "-c", KILLED, str(path)], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stdout.readline().strip() == "in the middle"
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    prog = Progress(path)  # the other instance's lock is gone with it
    assert prog.conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    puzzles = [r[0] for r in prog.conn.execute("SELECT puzzle FROM attempts ORDER BY rowid")]
    assert puzzles == [f"done-{i}" for i in range(5)]
    assert prog.user().rating < 3000
    prog.record(Attempt("after", "rated", 1.0), Rating(1500, 80))  # and it goes on
    assert prog.stats().attempts == 6


def test_export_then_import_merges_without_duplicates(tmp_path: Path, kraton_home: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    other = Progress(tmp_path / "other.sqlite")
    for i in range(3):
        other.record(Attempt(f"p{i}", "rated", 1.0, ("pond",)), Rating(1400, 100), now=100.0 + i)
    other.record_streak(4, 2, 50.0)
    exported = tmp_path / "export.json"
    exported.write_text(json.dumps(other.export()))
    mine = Progress(kraton_home / "progress.sqlite")
    mine.record(Attempt("q", "rated", 0.0, ("palace",)), Rating(1400, 100), now=200.0)
    mine.close()
    assert main(["puzzles", "import", str(exported)]) == 0
    assert main(["puzzles", "import", str(exported)]) == 0  # twice: nothing more
    capsys.readouterr()
    assert main(["puzzles", "stats", "--json"]) == 0
    st = json.loads(capsys.readouterr().out)
    assert st["attempts"] == 4 and st["best_streak"] == 4
    assert st["themes"] == {"palace": {"attempts": 1, "solved": 0}, "pond": {"attempts": 3, "solved": 3}}
    assert st["rating"] == pytest.approx(Progress(kraton_home / "progress.sqlite").user().rating, abs=0.1)
    out = tmp_path / "back.json"
    assert main(["puzzles", "export", str(out)]) == 0
    assert len(json.loads(out.read_text())["attempts"]) == 4


def test_stats_prints_the_screens_figures(capsys: pytest.CaptureFixture[str], kraton_home: Path) -> None:
    from analysis.trainer.report import stats_lines

    p = Progress(kraton_home / "progress.sqlite")
    p.record(Attempt("a", "rated", 1.0, ("pond", "token")), Rating(1500, 80))
    p.record(Attempt("b", "rated", 0.0, ("pond",)), Rating(1500, 80))
    assert main(["puzzles", "stats"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1:] == stats_lines(p.stats())
    assert any("pond" in line and "1/2" in line for line in out)


def one_line_exit_2(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("kraton: ")
    return err


def test_a_malformed_database_is_one_line_and_exit_2(kraton_home: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    kraton_home.mkdir(parents=True)
    (kraton_home / "progress.sqlite").write_bytes(b"this is not a database at all\n" * 100)
    for argv in (["puzzles", "stats"], ["puzzles", "export", str(kraton_home / "x.json")], ["train"]):
        assert "progress.sqlite" in one_line_exit_2(capsys, argv)


def test_a_database_with_a_broken_table_is_one_line(kraton_home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = kraton_home / "progress.sqlite"
    Progress(path).close()
    c = sqlite3.connect(path)
    c.execute("DROP TABLE attempts")
    c.commit()
    c.close()
    assert "progress.sqlite" in one_line_exit_2(capsys, ["puzzles", "stats"])


BAD_EXPORTS = [
    "", "{", "[]", '{"format": "other"}', '{"format": "kraton-progress"}',
    '{"format": "kraton-progress", "version": 2, "attempts": {}}',
    '{"format": "kraton-progress", "version": 2, "attempts": [1]}',
    '{"format": "kraton-progress", "version": 2, "attempts": [{"uid": "a"}]}',
    '{"format": "kraton-progress", "version": 2, "user_rating": [{"uid": "a", "at": 1, "rating": 1e9, "rd": 1, "vol": 1}]}',
    '{"format": "kraton-progress", "version": 2, "streaks": [{"uid": "a", "started": 1, "ended": 2, "length": -1, "mistakes": 0}]}',
    '{"format": "kraton-progress", "version": 2, "puzzle_ratings": [{"puzzle": "a\\nb", "rating": 1, "rd": 1, "vol": 1, "updated": 1}]}',
    "[" * 5000,
]


@pytest.mark.parametrize("text", BAD_EXPORTS)
def test_a_bad_export_file_is_one_line_and_exit_2(text: str, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "bad.json"
    f.write_text(text)
    assert "bad.json" in one_line_exit_2(capsys, ["puzzles", "import", str(f)])
    assert main(["puzzles", "stats", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["attempts"] == 0  # nothing half-imported


def test_import_of_a_missing_file_or_a_folder_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    one_line_exit_2(capsys, ["puzzles", "import", str(tmp_path / "missing.json")])
    one_line_exit_2(capsys, ["puzzles", "import", str(tmp_path)])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(row=st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
                    lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=8), c, max_size=4),
                    max_leaves=20),
       table=st.sampled_from(["attempts", "user_rating", "puzzle_ratings", "streaks"]))
def test_fuzzed_export_rows_never_crash_the_import(row: object, table: str, tmp_path: Path) -> None:
    prog = Progress(tmp_path / f"fuzz-{os.getpid()}.sqlite")
    data = {"format": "kraton-progress", "version": 2, table: [row]}
    try:
        prog.import_(data, "fuzz.json")
    except ProgressError as e:  # the only way it may fail: one line naming the file
        assert "\n" not in str(e) and str(e).startswith("fuzz.json")
    finally:
        prog.close()


def test_a_writer_whose_clock_is_behind_still_builds_on_the_latest_rating(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The race two app instances can run into, made certain: a write stamped earlier than
    the one before it (a clock behind, or a time taken before waiting for the lock) must
    still be the latest rating the next attempt starts from."""
    from analysis.trainer import progress

    prog = Progress(tmp_path / "p.sqlite")
    prog.record(Attempt("a", "rated", 1.0), Rating(1500, 80))
    monkeypatch.setattr(progress.time, "time", lambda: 1000.0)
    prog.record(Attempt("b", "rated", 0.0), Rating(1500, 80))
    monkeypatch.undo()
    prog.record(Attempt("c", "rated", 1.0), Rating(1500, 80))
    _check_chain(prog)
    assert prog.user().rating == prog.conn.execute(
        "SELECT user_after FROM attempts ORDER BY rowid DESC LIMIT 1").fetchone()[0]
