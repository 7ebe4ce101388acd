"""The trainer's progress in SQLite (``$KRATON_HOME/progress.sqlite``): attempts, the user's
rating history, puzzle ratings and streaks.

Why SQLite: two app instances may train at once, and a kill mid-write must cost at most the
attempt in flight. Every write is one ``BEGIN IMMEDIATE`` transaction (the user's rating is
read and written inside it, so two writers never both start from the same rating); the
journal is WAL with a busy timeout, so readers never block a writer and a second writer waits
instead of failing. The schema has a version table; ``MIGRATIONS[i]`` takes version ``i`` to
``i + 1`` and runs in the same transaction as the version bump.
"""

from __future__ import annotations

import sqlite3
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from analysis.trainer.exchange import ExportError, check_export
from analysis.trainer.glicko import Rating, solve_result
from core.errors import KratonError

BUSY_MS = 10_000  # a second writer waits this long for the first (two app instances)

MIGRATIONS: list[str] = [
    # v0 -> v1: attempts and the user's rating history.
    """
    CREATE TABLE attempts (
        uid TEXT PRIMARY KEY, at REAL NOT NULL, puzzle TEXT NOT NULL, mode TEXT NOT NULL,
        solved INTEGER NOT NULL, seconds REAL NOT NULL DEFAULT 0);
    CREATE INDEX attempts_at ON attempts(at);
    CREATE TABLE user_rating (
        uid TEXT PRIMARY KEY, at REAL NOT NULL, rating REAL NOT NULL, rd REAL NOT NULL,
        vol REAL NOT NULL);
    CREATE INDEX user_rating_at ON user_rating(at);
    """,
    # v1 -> v2: what the attempt scored (hints), its themes, both ratings moved; puzzle
    # ratings updated by solves; streaks.
    """
    ALTER TABLE attempts ADD COLUMN score REAL;
    UPDATE attempts SET score = solved;
    ALTER TABLE attempts ADD COLUMN hints INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE attempts ADD COLUMN themes TEXT NOT NULL DEFAULT '';
    ALTER TABLE attempts ADD COLUMN rated INTEGER NOT NULL DEFAULT 1;
    ALTER TABLE attempts ADD COLUMN user_before REAL;
    ALTER TABLE attempts ADD COLUMN user_after REAL;
    CREATE INDEX attempts_puzzle ON attempts(puzzle);
    CREATE TABLE puzzle_ratings (
        puzzle TEXT PRIMARY KEY, rating REAL NOT NULL, rd REAL NOT NULL, vol REAL NOT NULL,
        updated REAL NOT NULL);
    CREATE TABLE streaks (
        uid TEXT PRIMARY KEY, started REAL NOT NULL, ended REAL NOT NULL,
        length INTEGER NOT NULL, mistakes INTEGER NOT NULL);
    """,
]
VERSION = len(MIGRATIONS)


class ProgressError(KratonError):
    """The progress database or an export file cannot be used; one line naming the file."""


@dataclass(frozen=True)
class Attempt:
    """One try at a puzzle: ``score`` 1 solved, 0.5 solved after the first hint, 0 otherwise."""

    puzzle: str
    mode: str
    score: float
    themes: tuple[str, ...] = ()
    seconds: float = 0.0
    hints: int = 0
    rated: bool = True

    @property
    def solved(self) -> bool:
        return self.score > 0


@dataclass(frozen=True)
class Stats:
    """The figures ``kraton puzzles stats`` prints and the statistics screen shows."""

    rating: Rating
    history: list[float]
    attempts: int
    solved: int
    themes: dict[str, tuple[int, int]]  # theme -> (attempts, solved)
    best_streak: int
    streaks: int


def _connect(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(str(path), timeout=BUSY_MS / 1000, isolation_level=None)
    conn.execute(f"PRAGMA busy_timeout = {BUSY_MS}")
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = NORMAL")  # WAL: a killed process loses no commit
    return conn


class Progress:
    """One open progress database; ``ProgressError`` (one line) if it cannot be used."""

    def __init__(self, path: Path | str, upto: int = VERSION) -> None:
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.conn = _connect(self.path)
            self._migrate(upto)
        except sqlite3.Error as e:
            raise ProgressError(f"{self.path}: not a usable progress database ({e})") from None
        except OSError as e:
            raise ProgressError(f"{self.path}: {e.strerror or e}") from None

    def close(self) -> None:
        self.conn.close()

    @contextmanager
    def write(self) -> Iterator[sqlite3.Connection]:
        """One transaction, taken before reading (``BEGIN IMMEDIATE``): all or nothing."""
        try:
            self.conn.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as e:
            raise ProgressError(f"{self.path}: cannot write ({e})") from None
        try:
            yield self.conn
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise
        try:
            self.conn.execute("COMMIT")
        except sqlite3.Error as e:
            raise ProgressError(f"{self.path}: cannot write ({e})") from None

    def _migrate(self, upto: int) -> None:
        with self.write() as c:
            c.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            row = c.execute("SELECT version FROM schema_version").fetchone()
            have = 0 if row is None else int(row[0])
            if row is None:
                c.execute("INSERT INTO schema_version VALUES (0)")
            if have > VERSION:
                raise ProgressError(f"{self.path}: schema version {have} is newer than this "
                                    f"kraton's ({VERSION}); update kraton")
            for v in range(have, upto):
                for stmt in MIGRATIONS[v].split(";"):
                    if stmt.strip():
                        c.execute(stmt)
                c.execute("UPDATE schema_version SET version = ?", (v + 1,))

    def version(self) -> int:
        return int(self.conn.execute("SELECT version FROM schema_version").fetchone()[0])

    def _query(self, sql: str, args: tuple[Any, ...] = ()) -> list[Any]:
        try:
            return self.conn.execute(sql, args).fetchall()
        except sqlite3.Error as e:
            raise ProgressError(f"{self.path}: not a usable progress database ({e})") from None

    # ------------------------------------------------------------------ reading
    def user(self) -> Rating:
        rows = self._query("SELECT rating, rd, vol FROM user_rating ORDER BY at DESC, rowid DESC LIMIT 1")
        return Rating(*rows[0]) if rows else Rating()

    def puzzle_ratings(self) -> dict[str, Rating]:
        return {p: Rating(r, d, v) for p, r, d, v in
                self._query("SELECT puzzle, rating, rd, vol FROM puzzle_ratings")}

    def seen(self) -> dict[str, tuple[float, int, int]]:
        """Per puzzle: (last attempt time, attempts, solved) — what the selection avoids."""
        return {p: (at, n, ok) for p, at, n, ok in self._query(
            "SELECT puzzle, MAX(at), COUNT(*), SUM(score >= 1) FROM attempts GROUP BY puzzle")}

    def theme_results(self) -> dict[str, tuple[int, int]]:
        """Per theme: (attempts, solved), from every attempt's themes."""
        out: dict[str, list[int]] = {}
        for themes, n, ok in self._query(
                "SELECT themes, COUNT(*), SUM(score >= 1) FROM attempts GROUP BY themes"):
            for t in filter(None, str(themes).split(",")):
                acc = out.setdefault(t, [0, 0])
                acc[0] += n
                acc[1] += ok or 0
        return {t: (n, ok) for t, (n, ok) in sorted(out.items())}

    def history(self, limit: int = 200) -> list[float]:
        rows = self._query("SELECT rating FROM (SELECT rating, at, rowid FROM user_rating "
                           "ORDER BY at DESC, rowid DESC LIMIT ?) ORDER BY at, rowid", (limit,))
        return [float(r[0]) for r in rows]

    def stats(self) -> Stats:
        n, ok = self._query("SELECT COUNT(*), COALESCE(SUM(score >= 1), 0) FROM attempts")[0]
        best, count = self._query("SELECT COALESCE(MAX(length), 0), COUNT(*) FROM streaks")[0]
        return Stats(self.user(), [Rating().rating, *self.history()], int(n), int(ok), self.theme_results(), int(best), int(count))

    # ------------------------------------------------------------------ writing
    def record(self, a: Attempt, puzzle: Rating | None = None,
               now: float | None = None) -> tuple[Rating, Rating | None]:
        """Store one attempt in one transaction; when rated, both ratings move (Glicko-2) from
        the values stored at that moment (another instance may have moved the user's)."""
        with self.write() as c:
            at = now
            if at is None:  # taken inside the lock: a writer that waited stays the latest
                last = c.execute("SELECT MAX(at) FROM user_rating").fetchone()[0]
                at = max(time.time(), (last or 0.0) + 1e-6)
            user = self.user()
            new_user, new_puzzle = user, puzzle
            if a.rated and puzzle is not None:
                row = c.execute("SELECT rating, rd, vol FROM puzzle_ratings WHERE puzzle = ?",
                                (a.puzzle,)).fetchone()
                base = Rating(*row) if row else puzzle
                new_user, new_puzzle = solve_result(user, base, a.score)
                c.execute("INSERT INTO user_rating VALUES (?, ?, ?, ?, ?)",
                          (uuid.uuid4().hex, at, new_user.rating, new_user.rd, new_user.vol))
                c.execute("INSERT OR REPLACE INTO puzzle_ratings VALUES (?, ?, ?, ?, ?)",
                          (a.puzzle, new_puzzle.rating, new_puzzle.rd, new_puzzle.vol, at))
            c.execute("INSERT INTO attempts (uid, at, puzzle, mode, solved, seconds, score, hints, "
                      "themes, rated, user_before, user_after) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                      (uuid.uuid4().hex, at, a.puzzle, a.mode, int(a.score >= 1), a.seconds,
                       a.score, a.hints, ",".join(a.themes), int(a.rated), user.rating,
                       new_user.rating))
        return new_user, new_puzzle

    def record_streak(self, length: int, mistakes: int, started: float) -> None:
        with self.write() as c:
            c.execute("INSERT INTO streaks VALUES (?, ?, ?, ?, ?)",
                      (uuid.uuid4().hex, started, time.time(), length, mistakes))

    # ------------------------------------------------------------------ export / import
    TABLES: ClassVar[dict[str, tuple[str, ...]]] = {"attempts": ("uid", "at", "puzzle", "mode", "solved", "seconds", "score", "hints",
                           "themes", "rated", "user_before", "user_after"),
              "user_rating": ("uid", "at", "rating", "rd", "vol"),
              "puzzle_ratings": ("puzzle", "rating", "rd", "vol", "updated"),
              "streaks": ("uid", "started", "ended", "length", "mistakes")}

    def export(self) -> dict[str, Any]:
        out: dict[str, Any] = {"format": "kraton-progress", "version": VERSION}
        for table, cols in self.TABLES.items():
            out[table] = [dict(zip(cols, r)) for r in
                          self._query(f"SELECT {', '.join(cols)} FROM {table}")]
        return out

    def import_(self, data: Any, where: str) -> dict[str, int]:
        """Merge an export: rows are keyed (uid, puzzle), so importing twice adds nothing; a
        puzzle rating is replaced only by a later one. Everything is checked first, then
        written in one transaction."""
        try:
            rows = check_export(data, where, self.TABLES)
        except ExportError as e:  # one line naming the file and field, as every ProgressError
            raise ProgressError(str(e)) from None
        added: dict[str, int] = {}
        with self.write() as c:
            for table, cols in self.TABLES.items():
                before = c.total_changes
                marks = ", ".join("?" for _ in cols)
                for r in rows[table]:
                    vals = tuple(r.get(k) for k in cols)
                    if table == "puzzle_ratings":
                        c.execute(f"INSERT INTO puzzle_ratings VALUES ({marks}) ON CONFLICT(puzzle) "
                                  "DO UPDATE SET rating=excluded.rating, rd=excluded.rd, "
                                  "vol=excluded.vol, updated=excluded.updated "
                                  "WHERE excluded.updated > puzzle_ratings.updated", vals)
                    else:
                        c.execute(f"INSERT OR IGNORE INTO {table} ({', '.join(cols)}) VALUES ({marks})", vals)
                added[table] = c.total_changes - before
        return added


def write_export(progress: Progress, path: str) -> None:
    from core.position import write_json_atomic

    write_json_atomic(path, progress.export())


EXPORT_BYTES = 64 << 20  # some 300 000 attempts


def read_export(path: str) -> Any:
    """An export file's JSON within ``core.safefile``'s limits; errors name the file."""
    from core.errors import shown_path
    from core.safefile import parse_json_text, read_bounded

    data = read_bounded(path, EXPORT_BYTES, "progress export")
    try:
        return parse_json_text(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise ProgressError(f"{shown_path(path)}: not a text file (not UTF-8)") from None
    except KratonError as e:
        raise ProgressError(f"{shown_path(path)}: {e}") from None
