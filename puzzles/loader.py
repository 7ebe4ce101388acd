"""The puzzle collection (issue 5): position files with a ``puzzle`` key (notation.md).

Each file holds a full position and ``"puzzle": {"id", "goal": "max-points", "best", "line",
"difficulty", "theme", "title"}``: ``best`` is the most points the player to move can score
this turn, ``line`` one sequence reaching it, both verified by the solver. A map given as a
relative path (``maps/mini-b.txt``) is resolved from the puzzle file's folder.

Optional keys (issue 25; files without them still load, with the defaults in brackets):
``themes`` (a list of what the line does: palace, enlarge, pond, … [the ``theme``]),
``rating`` and ``rd`` (the puzzle's Glicko-2 rating and deviation [from the difficulty, RD
350]), ``uniqueness`` (the best score of a line whose first scoring action differs from the
solution's, null when not computed) and ``source`` (``{"record", "action"}``: the game record
and the number of its actions before the puzzle's position, when mined from a game).
``kraton puzzles rate`` computes them (``analysis/puzzle_meta.py``).
"""

from __future__ import annotations

import glob
import math
import os
from dataclasses import dataclass, field
from typing import Any

from core.errors import PositionError
from core.position import position_from_dict, read_json
from core.state import GameState

HERE = os.path.dirname(os.path.abspath(__file__))
# Game records of planner self-play: the busy turns (benchmarks/busy.py), the tests' positions
# from real games and the mined puzzles' sources.
GAMES = os.path.join(HERE, "games")
DIFFICULTIES = ("easy", "medium", "hard", "expert")
# A first rating for files that carry none: one step of 300 per difficulty, fully uncertain.
DIFFICULTY_RATING = {"easy": 1100.0, "medium": 1400.0, "hard": 1700.0, "expert": 2000.0}
DEFAULT_RD = 350.0


@dataclass
class Puzzle:
    id: str
    path: str
    state: GameState
    best: int
    line: str
    difficulty: str
    theme: str
    title: str
    map: str
    themes: list[str] = field(default_factory=list)
    rating: float = 1500.0
    rd: float = DEFAULT_RD
    uniqueness: int | None = None
    source: dict[str, Any] | None = None

    @property
    def ap(self) -> int:
        return self.state.turn.ap

    def summary(self) -> dict[str, Any]:
        return {"id": self.id, "file": os.path.relpath(self.path, HERE), "difficulty": self.difficulty,
                "theme": self.theme, "title": self.title, "ap": self.ap,
                "token": bool(self.state.token_bonus()), "best": self.best, "line": self.line,
                "map": self.map, "themes": self.themes, "rating": round(self.rating),
                "rd": round(self.rd), "uniqueness": self.uniqueness, "source": self.source}


def load_puzzle(path: str) -> Puzzle:
    """Read one puzzle file; a missing or malformed ``puzzle`` key is refused naming the field."""
    d = read_json(path)
    try:
        s = position_from_dict(d, os.path.dirname(os.path.abspath(path)))
        p = d.get("puzzle")
        if not isinstance(p, dict):
            raise PositionError("puzzle: missing required key (an object with id, best, line)")
        for k, typ in (("id", str), ("best", int), ("line", str)):
            if not isinstance(p.get(k), typ) or isinstance(p.get(k), bool):
                raise PositionError(f"puzzle.{k}: missing or not {'an integer' if typ is int else 'a string'}")
        diff = p.get("difficulty", "medium")
        if diff not in DIFFICULTIES:
            raise PositionError(f"puzzle.difficulty: one of {', '.join(DIFFICULTIES)}, got {diff!r}")
        extra = _optional(p, diff)
    except PositionError as e:
        raise PositionError(f"{path}: {e}") from None
    return Puzzle(p["id"], path, s, p["best"], p["line"], diff, str(p.get("theme", "")),
                  str(p.get("title", "")), str(d["map"]), **extra)


def _number(p: dict[str, Any], key: str, lo: float, hi: float, default: float) -> float:
    v = p.get(key, default)
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) or not lo <= v <= hi:
        raise PositionError(f"puzzle.{key}: a number from {lo:g} to {hi:g}")
    return float(v)


def _optional(p: dict[str, Any], diff: str) -> dict[str, Any]:
    """The optional keys of issue 25, checked; absent ones take their defaults."""
    themes = p.get("themes", [p["theme"]] if isinstance(p.get("theme"), str) and p["theme"] else [])
    if not isinstance(themes, list) or len(themes) > 20 or not all(
            isinstance(t, str) and 0 < len(t) <= 40 for t in themes):
        raise PositionError("puzzle.themes: a list of at most 20 theme names")
    uniq = p.get("uniqueness")
    if uniq is not None and (isinstance(uniq, bool) or not isinstance(uniq, int) or not 0 <= uniq <= 9999):
        raise PositionError("puzzle.uniqueness: null or a score from 0 to 9999")
    src = p.get("source")
    if src is not None and not (isinstance(src, dict) and isinstance(src.get("record", ""), str)
                                and isinstance(src.get("action", 0), int)):
        raise PositionError('puzzle.source: an object {"record": FILE, "action": N}')
    return {"themes": list(themes), "rating": _number(p, "rating", 0, 4000, DIFFICULTY_RATING[diff]),
            "rd": _number(p, "rd", 0, 500, DEFAULT_RD), "uniqueness": uniq, "source": src}


def puzzle_files(folder: str = HERE) -> list[str]:
    return sorted(glob.glob(os.path.join(folder, "*.json")))


def load_puzzles(folder: str = HERE) -> list[Puzzle]:
    """Every puzzle of the collection, easiest first."""
    rows = [load_puzzle(f) for f in puzzle_files(folder)]
    return sorted(rows, key=lambda p: (DIFFICULTIES.index(p.difficulty), p.id))


def load_puzzle_set(folder: str) -> tuple[list[Puzzle], list[str]]:
    """The puzzles of a folder the user filled (``My games``): the files that load, and one
    line per file that does not (a bad file is skipped, not fatal)."""
    rows, errors = [], []
    for f in puzzle_files(folder):
        try:
            rows.append(load_puzzle(f))
        except (PositionError, ValueError, OSError) as e:
            errors.append(str(e).splitlines()[0] if str(e) else f"{f}: unreadable")
    return rows, errors
