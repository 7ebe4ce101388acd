"""Saving and loading from the app: positions (notation.md) and game records, always atomic.

A game record is a position file with ``format`` ``java-game`` (so ``kraton validate`` reads
it as the current position) plus ``start`` (the position the game began from), ``moves`` (every
action since, in notation) and ``app`` (which players the computer plays). Loading a record
replays ``moves`` from ``start``, so undo and the turn log work after a reload.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core.actions import parse_actions
from core.errors import IllegalAction, KratonError, PositionError
from core.position import position_from_dict, position_to_dict, read_json, write_json_atomic
from core.state import GameState

GAME_FORMAT = "java-game"


def home_dir() -> Path:
    """Where the app keeps saves: $KRATON_HOME, else ~/.kraton (created on demand)."""
    return Path(os.environ.get("KRATON_HOME") or Path.home() / ".kraton")


def saves_dir() -> Path:
    d = home_dir() / "saves"
    d.mkdir(parents=True, exist_ok=True)
    return d


def autosave_path() -> Path:
    return saves_dir() / "autosave.json"


@dataclass
class Game:
    """A game in the app: the state, where it started, who is a computer player."""

    state: GameState
    start: dict[str, Any]
    computer: list[str | None]  # per player: None for a human, else the computer player's name
    movers: list[int] = field(default_factory=list)  # who made each action of state.history
    puzzle: dict[str, Any] | None = None
    path: str | None = None

    @classmethod
    def new(cls, state: GameState, computer: list[str | None]) -> Game:
        return cls(state, position_to_dict(state), computer)

    def record(self) -> dict[str, Any]:
        d = position_to_dict(self.state)
        d["format"] = GAME_FORMAT
        d["start"] = self.start
        d["moves"] = "; ".join(str(a) for a in self.state.history)
        d["app"] = {"computer": self.computer}
        return d


def save_game(game: Game, path: str | os.PathLike[str]) -> None:
    write_json_atomic(str(path), game.record())


def save_position_only(game: Game, path: str | os.PathLike[str]) -> None:
    d = position_to_dict(game.state)
    if game.puzzle is not None:
        d["puzzle"] = game.puzzle
    write_json_atomic(str(path), d)


def _replay(start: dict[str, Any], moves: str, base: str) -> tuple[GameState, list[int]]:
    s = position_from_dict(start, base)
    movers = []
    actions = parse_actions(moves)
    for i, a in enumerate(actions, start=1):
        movers.append(s.current_player())
        try:
            s.push(a)
        except IllegalAction as e:
            raise PositionError(f"moves: action {i} of {len(actions)}: {e}") from None
    return s, movers


def load_game(path: str | os.PathLike[str]) -> Game:
    """A position, puzzle or game record; errors are one KratonError naming file and field."""
    p = str(path)
    base = os.path.dirname(os.path.abspath(p))
    d = read_json(p)
    try:
        s = position_from_dict(d, base)
        computer: list[str | None] = [None] * s.n_players
        movers: list[int] = []
        start = position_to_dict(s)
        if d.get("format") == GAME_FORMAT and isinstance(d.get("start"), dict):
            s, movers = _replay(d["start"], str(d.get("moves", "")), base)
            start = d["start"]
        app = d.get("app")
        if isinstance(app, dict) and isinstance(app.get("computer"), list):
            names = app["computer"]
            if len(names) == s.n_players and all(n is None or isinstance(n, str) for n in names):
                computer = list(names)
        puzzle = d.get("puzzle") if isinstance(d.get("puzzle"), dict) else None
    except KratonError as e:
        msg = str(e)
        raise PositionError(msg if msg.startswith(p) else f"{p}: {msg}") from None
    return Game(s, start, computer, movers, puzzle, p)


def kind_of(d: Any) -> str:
    """'puzzle', 'game' or 'position' for a parsed file (for the browser's list)."""
    if isinstance(d, dict):
        if isinstance(d.get("puzzle"), dict):
            return "puzzle"
        if d.get("format") == GAME_FORMAT:
            return "game"
    return "position"
