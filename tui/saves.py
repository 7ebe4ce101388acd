"""Saving and loading from the app: positions (notation.md) and game records, always atomic.

A game record is ``core.record``'s ``java-game`` file (the start position, ``actions`` in
notation, ``tags``), so ``kraton replay`` reads what the app saves; the tag ``players`` says who
is human and which computer player plays each seat (``human,random,random``). Loading a record
replays the actions from the start, so undo and the turn log work after a reload.
"""

from __future__ import annotations

import os
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core.actions import Action
from core.errors import IllegalAction, KratonError, PositionError
from core.position import position_from_dict, position_to_dict, read_json, write_json_atomic
from core.record import FORMAT as GAME_FORMAT
from core.record import GameRecord, record_from_dict
from core.state import GameState

HUMAN = "human"


def home_dir() -> Path:
    """Where the app keeps saves: $KRATON_HOME, else ~/.kraton (created on demand)."""
    return Path(os.environ.get("KRATON_HOME") or Path.home() / ".kraton")


def saves_dir() -> Path:
    d = home_dir() / "saves"
    d.mkdir(parents=True, exist_ok=True)
    return d


AUTOSAVE_PREFIX = "autosave-"


def autosave_path(game: Game) -> Path:
    """This game's own autosave (one file per game, so a second game never overwrites the
    first's): the file it was loaded from if that is an autosave, else a new name. The name
    holds the time only, never the seed: the seed reproduces every hand (R44)."""
    if game.autosave is None:
        if game.path and Path(game.path).name.startswith(AUTOSAVE_PREFIX):
            game.autosave = game.path
        else:
            stamp = time.strftime("%Y%m%d-%H%M%S")
            base = saves_dir() / f"{AUTOSAVE_PREFIX}{stamp}"
            path, k = base.with_suffix(".json"), 1
            while path.exists():
                k += 1
                path = Path(f"{base}-{k}.json")
            game.autosave = str(path)
    return Path(game.autosave)


@dataclass
class Game:
    """A game in the app: the state, where it started, who is a computer player."""

    state: GameState
    start: dict[str, Any]
    computer: list[str | None]  # per player: None for a human, else the computer player's name
    movers: list[int] = field(default_factory=list)  # who made each action of state.history
    puzzle: dict[str, Any] | None = None
    path: str | None = None
    autosave: str | None = None  # this game's autosave file, chosen on the first save
    deltas: list[tuple[int, ...]] = field(default_factory=list)  # score change per action

    def push(self, a: Action, who: int, before: list[int]) -> None:
        """Book an action already pushed on ``state``: who made it and what it scored."""
        self.movers.append(who)
        if len(self.deltas) == len(self.movers) - 1:
            self.deltas.append(tuple(p.score - b for p, b in zip(self.state.players, before)))

    def undo(self) -> Action:
        """Take back the last action, with its bookkeeping."""
        a = self.state.pop()
        self.movers.pop()
        if len(self.deltas) > len(self.movers):
            self.deltas.pop()
        return a

    @classmethod
    def new(cls, state: GameState, computer: list[str | None]) -> Game:
        return cls(state, position_to_dict(state), computer)

    def record(self) -> dict[str, Any]:
        rec = GameRecord(dict(self.start), list(self.state.history),
                         {"players": ",".join(c or HUMAN for c in self.computer)})
        return rec.to_dict()


def save_game(game: Game, path: str | os.PathLike[str]) -> None:
    write_json_atomic(str(path), game.record())


def save_position_only(game: Game, path: str | os.PathLike[str]) -> None:
    d = position_to_dict(game.state)
    if game.puzzle is not None:
        d["puzzle"] = game.puzzle
    write_json_atomic(str(path), d)


def _replay(start: dict[str, Any], actions: list[Action], base: str
            ) -> tuple[GameState, list[int], list[tuple[int, ...]]]:
    s = position_from_dict(start, base)
    movers, deltas = [], []
    for i, a in enumerate(actions, start=1):
        movers.append(s.current_player())
        before = [p.score for p in s.players]
        try:
            s.push(a)
        except IllegalAction as e:
            raise PositionError(f"actions: action {i} of {len(actions)}: {e}") from None
        deltas.append(tuple(p.score - b for p, b in zip(s.players, before)))
    return s, movers, deltas


def parse_seats(text: str) -> list[str]:
    """The ``players`` tag: ``human,planner,random`` or with counts, ``planner x4``."""
    seats: list[str] = []
    for item in text.split(","):
        m = re.fullmatch(r"\s*(\S*)\s*(?:[x×*]\s*(\d+))?\s*", item)
        if m is None:
            return []
        seats.extend([m.group(1)] * int(m.group(2) or 1))
    return seats


def replay_final_counts(game: Game) -> dict[int, int]:
    """Each final count (R41) made so far, found by replaying the game from its start (the
    position alone does not keep them); {} when the start cannot be replayed."""
    base = os.path.dirname(os.path.abspath(game.path)) if game.path else "."
    try:
        s = position_from_dict(game.start, base)
        out: dict[int, int] = {}
        for a in game.state.history:
            before = [(p.final_counted, p.score) for p in s.players]
            s.push(a)
            for i, p in enumerate(s.players):
                if p.final_counted and not before[i][0]:
                    out[i] = p.score - before[i][1]
    except KratonError:
        return {}
    return out


def load_game(path: str | os.PathLike[str]) -> Game:
    """A position, puzzle or game record; errors are one KratonError naming file and field."""
    p = str(path)
    base = os.path.dirname(os.path.abspath(p))
    d = read_json(p)
    try:
        s = position_from_dict(d, base)
        movers: list[int] = []
        deltas: list[tuple[int, ...]] = []
        start = position_to_dict(s)
        tags: dict[str, str] = {}
        if isinstance(d, dict) and d.get("format") == GAME_FORMAT:
            rec = record_from_dict(d)
            s, movers, deltas = _replay(rec.start, rec.actions, base)
            start, tags = rec.start, rec.tags
        computer: list[str | None] = [None] * s.n_players
        seats = parse_seats(tags.get("players", ""))
        if len(seats) == s.n_players:
            computer = [None if x in ("", HUMAN) else x for x in seats]
        puzzle = d.get("puzzle") if isinstance(d.get("puzzle"), dict) else None
    except KratonError as e:
        msg = str(e)
        raise PositionError(msg if msg.startswith(p) else f"{p}: {msg}") from None
    return Game(s, start, computer, movers, puzzle, p, deltas=deltas)


def kind_of(d: Any) -> str:
    """'puzzle', 'game' or 'position' for a parsed file (for the browser's list)."""
    if isinstance(d, dict):
        if isinstance(d.get("puzzle"), dict):
            return "puzzle"
        if d.get("format") == GAME_FORMAT:
            return "game"
    return "position"


def natural_key(p: Path) -> tuple[str, int, str]:
    """``one-ap-06`` after ``one-ap-05`` and before ``one-ap-10``: name stem, then its number."""
    m = re.fullmatch(r"(.*?)-?(\d+)", p.stem)
    return (m.group(1), int(m.group(2)), p.name) if m else (p.stem, -1, p.name)


def puzzle_files(folder: Path) -> list[Path]:
    """The puzzles of a folder (not its sub-folders) in the collection's order."""
    return sorted((p.resolve() for p in folder.glob("*.json")), key=natural_key)
