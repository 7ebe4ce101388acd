"""The puzzle collection (issue 5): position files with a ``puzzle`` key (notation.md).

Each file holds a full position and ``"puzzle": {"id", "goal": "max-points", "best", "line",
"difficulty", "theme", "title"}``: ``best`` is the most points the player to move can score
this turn, ``line`` one sequence reaching it, both verified by the solver. A map given as a
relative path (``maps/mini-b.txt``) is resolved from the puzzle file's folder.
"""

from __future__ import annotations

import glob
import os
from dataclasses import dataclass
from typing import Any

from core.errors import PositionError
from core.position import position_from_dict, read_json
from core.state import GameState

HERE = os.path.dirname(os.path.abspath(__file__))
DIFFICULTIES = ("easy", "medium", "hard", "expert")


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

    @property
    def ap(self) -> int:
        return self.state.turn.ap

    def summary(self) -> dict[str, Any]:
        return {"id": self.id, "file": os.path.relpath(self.path, HERE), "difficulty": self.difficulty,
                "theme": self.theme, "title": self.title, "ap": self.ap,
                "token": bool(self.state.token_bonus()), "best": self.best, "line": self.line,
                "map": self.map}


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
    except PositionError as e:
        raise PositionError(f"{path}: {e}") from None
    return Puzzle(p["id"], path, s, p["best"], p["line"], diff, str(p.get("theme", "")),
                  str(p.get("title", "")), str(d["map"]))


def puzzle_files(folder: str = HERE) -> list[str]:
    return sorted(glob.glob(os.path.join(folder, "*.json")))


def load_puzzles(folder: str = HERE) -> list[Puzzle]:
    """Every puzzle of the collection, easiest first."""
    rows = [load_puzzle(f) for f in puzzle_files(folder)]
    return sorted(rows, key=lambda p: (DIFFICULTIES.index(p.difficulty), p.id))
