"""Saving and loading from the app: positions (notation.md) and game records, always atomic.

A game record is ``core.record``'s ``java-game`` file (the start position, ``actions`` in
notation, ``tags``), so ``kraton replay`` reads what the app saves; the tag ``players`` says who
is human and which computer player plays each seat (``human,random,random``), and the optional
``annotations`` keep comments and evaluations. Loading a record replays it into a
``core.game.Game`` (``GameRecord.replay``), so undo, the move list and the review work after a
reload.
"""

from __future__ import annotations

import os
import re
import time
from pathlib import Path
from typing import Any

from core.errors import KratonError, PositionError
from core.game import Game
from core.position import position_from_dict, position_to_dict, read_json, write_json_atomic
from core.record import FORMAT as GAME_FORMAT
from core.record import record_from_dict, seats_tag
from tui.session import Session


def home_dir() -> Path:
    """Where the app keeps saves: $KRATON_HOME, else ~/.kraton (created on demand)."""
    return Path(os.environ.get("KRATON_HOME") or Path.home() / ".kraton")


def saves_dir() -> Path:
    d = home_dir() / "saves"
    d.mkdir(parents=True, exist_ok=True)
    return d


AUTOSAVE_PREFIX = "autosave-"


def bundled(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` is a file of the puzzle collection shipped with kraton (its puzzles and
    games): saving goes to a copy in the saves folder, the shipped file stays as it is."""
    from puzzles.loader import HERE

    return Path(path).resolve().is_relative_to(Path(HERE).resolve())


def save_target(text: str) -> Path:
    """Where a name typed in the save dialog writes: ``~`` expanded, a relative name in the
    saves folder (not wherever the app was started), ``.json`` added to a name without a
    suffix. KratonError (one line) for a blank name, a folder, or a folder that is not there."""
    name = text.strip()
    if not name:
        raise KratonError("no file name: type one (a name alone saves in the saves folder)")
    path = Path(name).expanduser()
    if not path.is_absolute():
        path = saves_dir() / path
    if name.endswith(os.sep) or path.is_dir():
        raise KratonError(f"{path} is a folder: add a file name")
    if not path.suffix:
        path = path.with_suffix(".json")
    if not path.parent.is_dir():
        raise KratonError(f"no folder {path.parent}: not saved")
    return path


def save_error(e: OSError | KratonError) -> str:
    """One line for a save that failed: what, and where (not Python's ``[Errno 2] ...``)."""
    if isinstance(e, OSError) and e.strerror:
        return f"{e.filename}: {e.strerror.lower()}" if e.filename else e.strerror
    return str(e)


def autosave_path(game: Session) -> Path:
    """This game's own autosave (one file per game, so a second game never overwrites the
    first's): the file it was loaded from if that is an autosave, else a new name. The name
    holds the time only, never the seed: the seed reproduces every hand (R44)."""
    if game.autosave is None:
        if game.path and Path(game.path).name.startswith(AUTOSAVE_PREFIX):
            game.autosave = game.path
        else:
            game.autosave = str(new_save_path(AUTOSAVE_PREFIX))
    return Path(game.autosave)


def new_save_path(prefix: str) -> Path:
    """A file name in the saves folder that no file has yet: the prefix and the time, then
    -2, -3… within the same second."""
    base = saves_dir() / f"{prefix}{time.strftime('%Y%m%d-%H%M%S')}"
    path, k = base.with_suffix(".json"), 1
    while path.exists():
        k += 1
        path = Path(f"{base}-{k}.json")
    return path


def save_game(session: Session, path: str | os.PathLike[str]) -> None:
    """The game as a ``java-game`` record, with its result, seats and annotations."""
    game = session.game
    rec = game.record({"players": seats_tag(game.seats)})  # "human,human" too
    write_json_atomic(str(path), rec.to_dict(result=game))


def save_position_only(session: Session, path: str | os.PathLike[str]) -> None:
    d = position_to_dict(session.state)
    if session.puzzle is not None:
        d["puzzle"] = session.puzzle
    write_json_atomic(str(path), d)


def load_game(path: str | os.PathLike[str]) -> Session:
    """A position, puzzle or game record; errors are one KratonError naming file and field."""
    p = str(path)
    base = os.path.dirname(os.path.abspath(p))
    d = read_json(p)
    try:
        if isinstance(d, dict) and d.get("format") == GAME_FORMAT:
            game = record_from_dict(d).replay(base_dir=base)
        else:
            game = Game(position_from_dict(d, base))
            game.base_dir = base
        puzzle = d.get("puzzle") if isinstance(d, dict) and isinstance(d.get("puzzle"), dict) else None
    except KratonError as e:
        msg = str(e)
        raise PositionError(msg if msg.startswith(p) else f"{p}: {msg}") from None
    return Session(game, p, puzzle=puzzle)


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
