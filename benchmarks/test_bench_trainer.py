"""Group ``trainer`` (issue 25): choosing the next puzzle with 10 000 attempts in the progress
database, and opening the trainer.

- *next puzzle*: ``Session.next()`` (SQL aggregates: the user's rating, the puzzle ratings,
  each puzzle's last attempt) against a simple reference that reads every attempt row into
  Python and scans them, on the same database of 10 000 attempts over the collection.
- *trainer data*: what the trainer's home reads (the light index of every set, the database
  and the user's rating) against loading every puzzle in full (``load_puzzles``).
- *trainer screen*: the app started on ``kraton train`` until the home screen is mounted
  (Textual's Pilot, headless; the app's own start-up included).
"""

from __future__ import annotations

import asyncio
import functools
import os
import random
import tempfile
import time
import uuid
from pathlib import Path

import pytest

from analysis.trainer.catalog import Entry, load_set, sets
from analysis.trainer.glicko import Rating
from analysis.trainer.progress import Progress
from analysis.trainer.select import choose
from analysis.trainer.session import Session
from puzzles.loader import HERE, load_puzzles

ATTEMPTS = 10_000


@functools.cache
def _database() -> tuple[str, list[Entry]]:
    """A progress database holding ATTEMPTS attempts spread over the collection."""
    rows, _ = load_set(HERE)
    folder = tempfile.mkdtemp(prefix="kraton-bench-")
    prog = Progress(Path(folder) / "progress.sqlite")
    rng = random.Random(7)
    now = time.time() - 30 * 86400
    with prog.write() as c:
        for i in range(ATTEMPTS):
            e = rng.choice(rows)
            at = now + i * 60
            score = float(rng.random() < 0.6)
            c.execute("INSERT INTO attempts (uid, at, puzzle, mode, solved, seconds, score, hints, "
                      "themes, rated, user_before, user_after) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                      (uuid.uuid4().hex, at, e.key, "rated", int(score), 30.0, score, 0,
                       ",".join(e.themes), 1, 1500.0, 1500.0))
            c.execute("INSERT INTO user_rating VALUES (?, ?, ?, ?, ?)",
                      (uuid.uuid4().hex, at, 1400 + rng.random() * 200, 60.0, 0.06))
        for e in rows:
            c.execute("INSERT OR REPLACE INTO puzzle_ratings VALUES (?, ?, ?, ?, ?)",
                      (e.key, e.rating + rng.uniform(-50, 50), 80.0, 0.06, now))
    prog.close()
    return str(Path(folder) / "progress.sqlite"), rows


def reference_next(path: str, rows: list[Entry], rng: random.Random) -> Entry | None:
    """The simple way: read every row, aggregate in Python, then the same weighted pick."""
    prog = Progress(path)
    try:
        history = prog.conn.execute("SELECT at, rating, rd, vol FROM user_rating").fetchall()
        user = Rating(*max(history)[1:]) if history else Rating()
        ratings = {p: r for p, r, *_ in prog.conn.execute("SELECT puzzle, rating FROM puzzle_ratings")}
        seen: dict[str, tuple[float, int, int]] = {}
        for puzzle, at, score in prog.conn.execute("SELECT puzzle, at, score FROM attempts"):
            last, n, ok = seen.get(puzzle, (0.0, 0, 0))
            seen[puzzle] = (max(last, at), n + 1, ok + int(score >= 1))
    finally:
        prog.close()
    return choose(rows, user.rating, rng, ratings=ratings, seen=seen, now=time.time(), user_rd=user.rd)


@pytest.mark.benchmark(group="trainer")
def test_next_puzzle_fast(bench) -> None:
    path, rows = _database()
    prog = Progress(path)
    session = Session(rows, prog, "rated", rng=random.Random(1))

    def run() -> Entry | None:
        session.served.clear()
        return session.next()

    got = bench(run, pair="next puzzle, 10 000 attempts", role="fast")
    assert got is not None and got.key in {e.key for e in rows}
    prog.close()


@pytest.mark.benchmark(group="trainer")
def test_next_puzzle_reference(bench) -> None:
    path, rows = _database()
    rng = random.Random(1)
    got = bench(lambda: reference_next(path, rows, rng), pair="next puzzle, 10 000 attempts",
                role="reference")
    assert got is not None


@pytest.mark.benchmark(group="trainer")
def test_trainer_data_fast(bench, tmp_path: Path) -> None:
    def run() -> float:
        found = sets(tmp_path)
        prog = Progress(tmp_path / "progress.sqlite")
        try:
            return prog.user().rating + len(found["collection"][0])
        finally:
            prog.close()

    assert bench(run, pair="trainer data", role="fast") > 1500


@pytest.mark.benchmark(group="trainer")
def test_trainer_data_reference(bench) -> None:
    assert bench(load_puzzles, pair="trainer data", role="reference")


@pytest.mark.benchmark(group="trainer")
def test_trainer_opens(bench, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from tui.app import create_app
    from tui.screens.trainer import TrainerScreen

    monkeypatch.setenv("KRATON_HOME", str(tmp_path))

    async def open_it() -> bool:
        app = create_app("train")
        async with app.run_test(size=(120, 40)) as pilot:
            while not isinstance(app.screen, TrainerScreen):
                await pilot.pause()
            return True

    assert bench(lambda: asyncio.run(open_it()), pair="trainer opens", role="fast", rounds=3)
    assert os.path.exists(tmp_path / "progress.sqlite")
