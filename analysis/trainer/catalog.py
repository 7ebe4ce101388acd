"""The puzzles a trainer may serve, as a light index: reading only each file's ``puzzle`` key
keeps the trainer's opening under a second; the position is built when a puzzle is served.

Sets: ``collection`` (``puzzles/``) and ``my-games`` (``$KRATON_HOME/my-puzzles/``, where
``kraton review GAME --puzzles DIR`` should write, or any folder given with ``--puzzles``).
Keys are the puzzle id in the collection, ``my/ID`` in a set of the user's own.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from core.errors import KratonError
from core.position import read_json
from puzzles.loader import DEFAULT_RD, DIFFICULTIES, DIFFICULTY_RATING, HERE, puzzle_files


@dataclass(frozen=True)
class Entry:
    key: str
    id: str
    path: str
    rating: float
    rd: float
    themes: tuple[str, ...]
    ap: int
    best: int
    title: str


def _entry(path: str, prefix: str) -> Entry:
    d = read_json(path)
    p = d.get("puzzle") if isinstance(d, dict) else None
    if not isinstance(p, dict) or not isinstance(p.get("id"), str) or not isinstance(p.get("best"), int):
        raise KratonError(f"{path}: not a puzzle file (puzzle.id and puzzle.best needed)")
    diff = p.get("difficulty", "medium")
    default = DIFFICULTY_RATING.get(diff if diff in DIFFICULTIES else "medium", 1400.0)
    themes = p.get("themes") or ([p["theme"]] if isinstance(p.get("theme"), str) and p["theme"] else [])
    rating, rd = p.get("rating", default), p.get("rd", DEFAULT_RD)
    turn = d.get("turn") if isinstance(d.get("turn"), dict) else {}
    ok = all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in (rating, rd))
    return Entry(prefix + p["id"], p["id"], path, float(rating) if ok else default,
                 float(rd) if ok else DEFAULT_RD,
                 tuple(str(t) for t in themes) if isinstance(themes, list) else (),
                 int(turn.get("ap", 0)) if isinstance(turn.get("ap", 0), int) else 0,
                 p["best"], str(p.get("title", "")))


def load_set(folder: str, prefix: str = "") -> tuple[list[Entry], list[str]]:
    """The entries of a folder and one line per file that is not a usable puzzle."""
    rows, errors = [], []
    for f in puzzle_files(folder):
        try:
            rows.append(_entry(f, prefix))
        except (KratonError, OSError) as e:
            errors.append(str(e).splitlines()[0] if str(e) else f"{f}: unreadable")
    return rows, errors


def my_puzzles_dir(home: Path) -> Path:
    return home / "my-puzzles"


def sets(home: Path, extra: str | None = None) -> dict[str, tuple[list[Entry], list[str]]]:
    """``collection`` and, when they hold puzzles, ``my-games`` (``my-puzzles`` under the home,
    and the folder ``extra`` given with ``--puzzles``)."""
    out = {"collection": load_set(HERE)}
    mine: list[Entry] = []
    errors: list[str] = []
    for folder in [str(my_puzzles_dir(home)), *([extra] if extra else [])]:
        if os.path.isdir(folder):
            rows, errs = load_set(folder, "my/")
            mine += rows
            errors += errs
    if mine or errors:
        out["my-games"] = (mine, errors)
    return out
