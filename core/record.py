"""Game records, like a PGN: the start position and the list of actions, in one JSON file.

Layout (``"format": "java-game"``): every key of a position file (notation.md) describing the
START position — full information, so the deck order and ``seed`` make every draw and reshuffle
(R36) replay identically — plus::

    "actions": ["tile G6v G5r H5r", "enter B6", "end", "festival G6 D", "pass", ...],
    "result":  {"scores": [..], "winners": [..], "turns": N, "actions": N},   # optional
    "tags":    {"event": "...", "players": "random,random"}                  # optional

Actions are in the order played, each by whoever was to act (festival decisions included).
``result``, when present, is checked against the replay. ``load_position`` reading a game file
gets its start position; ``load_any`` (the commands' reader) its current position.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from core.actions import Action, parse_action
from core.ascii_numbers import ascii_whole
from core.errors import IllegalAction, KratonError, NotationError, PositionError, shown, shown_path
from core.position import load_position, position_from_dict, read_json, write_json_atomic

if TYPE_CHECKING:
    from core.game import Game
    from core.state import GameState

FORMAT = "java-game"
# A game is a few hundred actions (~10 KB); the file limit of core.safefile bounds it anyway.
MAX_ACTIONS = 100_000
MAX_COMMENT = 2000  # characters of one comment
HUMAN = "human"
RECORD_KEYS = ("actions", "result", "tags", "annotations", "adjudication")
EVALUATION_KEYS: dict[str, type | tuple[type, ...]] = {"best": int, "bound": int, "proved": bool, "line": str, "engine": str,
                   "seconds": (int, float), "played": int, "mark": str, "player": int,
                   "first": int, "end": int, "seen": str}


class RecordError(KratonError):
    """A game record that cannot be read or does not replay; names the action or field."""


@dataclass
class GameRecord:
    start: dict[str, Any]  # the start position as notation.md JSON
    actions: list[Action]
    tags: dict[str, str] = field(default_factory=dict)
    annotations: dict[str, Any] = field(default_factory=dict)  # comments, evaluations (optional)
    result: dict[str, Any] | None = None  # the stored ``result`` key, kept as read
    adjudication: tuple[int, int] | None = None  # stall adjudication: (after N actions, mover)

    def start_state(self, base_dir: str | None = None) -> GameState:
        try:
            return position_from_dict(self.start, base_dir)
        except PositionError as e:
            raise RecordError(f"start position: {e}") from None

    def replay(self, upto: int | None = None, base_dir: str | None = None,
               on_action: Callable[[int, Action, Game], None] | None = None) -> Game:
        """Replay from the start (the first ``upto`` actions) and return a ``core.game.Game``
        carrying the record's seats, tags and annotations; ``on_action(i, action, game)`` runs
        after each. An illegal action is a RecordError naming its number and rule."""
        from core.game import Game

        g = Game(self.start_state(base_dir), parse_seats(self.tags.get("players", "")) or None,
                 self.tags)
        g.start, g.base_dir = self.start, base_dir
        if len(g.seats) != g.state.n_players:
            g.seats = [None] * g.state.n_players
        g.comments = {int(k): v for k, v in self.annotations.get("comments", {}).items()}
        g.evaluations = {int(k): v for k, v in self.annotations.get("evaluations", {}).items()}
        n = len(self.actions) if upto is None else upto
        if not 0 <= n <= len(self.actions):
            raise RecordError(f"the record has {len(self.actions)} actions, not {n}")
        for i, a in enumerate(self.actions[:n], start=1):
            try:
                g.apply_action(a)
            except IllegalAction as e:
                raise RecordError(f"action {i} of {len(self.actions)}: {e}") from None
            if self.adjudication is not None and self.adjudication[0] == i:
                g.adjudicate()
            if on_action is not None:
                on_action(i, a, g)
        return g

    def to_dict(self, result: Game | None = None) -> dict[str, Any]:
        """The record as JSON; ``result`` (the replayed ``Game``) writes a fresh result key,
        else the one read is kept. Keys keep their order, so a record loads and saves again
        byte for byte."""
        d = dict(self.start)
        d["format"] = FORMAT
        d["actions"] = [str(a) for a in self.actions]
        if result is not None:
            d["result"] = result_of(result)
        elif self.result is not None:
            d["result"] = self.result
        if self.tags:
            d["tags"] = dict(self.tags)
        if self.adjudication is not None:
            d["adjudication"] = {"after": self.adjudication[0], "player": self.adjudication[1]}
        if self.annotations:
            d["annotations"] = self.annotations
        return d


def seats_tag(seats: Sequence[str | None]) -> str:
    """The ``players`` tag: who plays each seat, ``human`` or a computer player's name."""
    return ",".join(c or HUMAN for c in seats)


def parse_seats(text: str) -> list[str | None]:
    """The ``players`` tag read back: ``human,planner,random`` or with counts, ``planner x4``;
    None for a human seat, [] when the tag says nothing usable (the tag is optional: such a
    record replays with its seats all human). A count is 1 to 4 in ASCII digits, its length
    checked before ``int`` sees it (thousands of digits would be Python's own error)."""
    seats: list[str | None] = []
    for item in text.split(","):
        m = re.fullmatch(r"\s*(\S*)\s*(?:[x×*]\s*([0-9]+))?\s*", item)
        count = None if m is None else ascii_whole(m.group(2) or "1", 2)
        if m is None or count is None or not 1 <= count <= 4:
            return []
        name = m.group(1)
        seats.extend([None if name in ("", HUMAN) else name] * count)
    return seats


def result_of(g: Game) -> dict[str, Any]:
    """The ``result`` key of a game (a ``core.game.Game``)."""
    return {"scores": [p.score for p in g.state.players], "winners": g.winners() if g.is_terminal() else [],
            "turns": g.turns, "actions": len(g.actions), "over": g.is_terminal()}


def record_from_dict(d: Any) -> GameRecord:
    """Read a record's JSON: the start position is validated, every action parsed."""
    if not isinstance(d, dict):
        raise RecordError("a game record must hold a JSON object")
    if d.get("format") != FORMAT:
        raise RecordError(f"format: expected '{FORMAT}', got {shown(d.get('format'))}")
    acts = d.get("actions")
    if not isinstance(acts, list):
        raise RecordError("actions: missing required key (a list of action texts)")
    if len(acts) > MAX_ACTIONS:
        raise RecordError(f"actions: {len(acts)} actions, more than the {MAX_ACTIONS} a record may hold")
    res = d.get("result")
    if res is not None and not isinstance(res, dict):
        raise RecordError(f"result: expected an object (scores, winners, turns, actions), got {shown(res)}")
    actions = []
    for i, t in enumerate(acts, start=1):
        if not isinstance(t, str):
            raise RecordError(f"actions[{i - 1}]: expected an action text, got {shown(t)}")
        try:
            actions.append(parse_action(t))
        except NotationError as e:
            raise RecordError(f"action {i}: {e}") from None
    tags = d.get("tags") or {}
    if not isinstance(tags, dict):
        raise RecordError("tags: expected an object")
    start = {k: v for k, v in d.items() if k not in RECORD_KEYS}
    return GameRecord(start, actions, {str(k): str(v) for k, v in tags.items()},
                      annotations_from(d.get("annotations"), len(actions)), res,
                      adjudication_from(d.get("adjudication"), len(actions)))


def _number_key(k: str, where: str, top: int | None) -> int:
    n = ascii_whole(k, 6) if isinstance(k, str) else None
    if n is None:
        raise RecordError(f"{where}: keys are action or turn numbers, got {shown(k)}")
    if n < 1 or (top is not None and n > top):
        raise RecordError(f"{where}: {n} is not a number between 1 and {top}")
    return n


def annotations_from(a: Any, n_actions: int) -> dict[str, Any]:
    """Check the optional ``annotations`` key (README, ``docs/java-game.schema.json``):
    ``comments`` by action number, ``evaluations`` by turn number. Kept as read."""
    if a is None:
        return {}
    if not isinstance(a, dict) or not set(a) <= {"comments", "evaluations"}:
        raise RecordError("annotations: expected an object with 'comments' and/or 'evaluations'")
    comments = a.get("comments", {})
    if not isinstance(comments, dict):
        raise RecordError("annotations.comments: expected an object (action number -> text)")
    for k, v in comments.items():
        _number_key(k, "annotations.comments", n_actions)
        if not isinstance(v, str) or len(v) > MAX_COMMENT:
            raise RecordError(f"annotations.comments.{k}: expected a text of at most {MAX_COMMENT} characters")
    evals = a.get("evaluations", {})
    if not isinstance(evals, dict):
        raise RecordError("annotations.evaluations: expected an object (turn number -> evaluation)")
    for k, v in evals.items():
        _number_key(k, "annotations.evaluations", n_actions + 1)
        if not isinstance(v, dict):
            raise RecordError(f"annotations.evaluations.{k}: expected an object")
        for field_, value in v.items():
            want = EVALUATION_KEYS.get(field_)
            if want is None:
                raise RecordError(f"annotations.evaluations.{k}: unknown key {shown(field_)}"
                                  f" (one of {', '.join(EVALUATION_KEYS)})")
            bad_bool = isinstance(value, bool) and want is not bool
            if bad_bool or not isinstance(value, want) or (isinstance(value, str) and len(value) > MAX_COMMENT):
                raise RecordError(f"annotations.evaluations.{k}.{field_}: got {shown(value)}")
    return a


def adjudication_from(a: Any, n_actions: int) -> tuple[int, int] | None:
    """The optional ``adjudication`` key a tournament writes for a stalled game."""
    if a is None:
        return None
    ok = (isinstance(a, dict) and set(a) == {"after", "player"}
          and all(isinstance(a[k], int) and not isinstance(a[k], bool) for k in a)
          and 1 <= a["after"] <= n_actions and 0 <= a["player"] < 4)
    if not ok:
        raise RecordError(f"adjudication: expected {{\"after\": 1..{n_actions}, \"player\": 0..3}},"
                          f" got {shown(a)}")
    return a["after"], a["player"]


def check_result(d: dict[str, Any], g: Game) -> None:
    """A stored ``result`` must be what the replay gives (after all the actions)."""
    want = d.get("result")
    if want is None:
        return
    got = result_of(g)
    for key in ("scores", "winners", "turns", "actions"):
        if key in want and want[key] != got[key]:
            raise RecordError(f"result.{key}: the record says {shown(want[key])}, the replay gives {got[key]}")


def load_record(path: str) -> tuple[GameRecord, dict[str, Any]]:
    """Read a game file; returns the record and its raw JSON. Errors name the file."""
    where = shown_path(path)
    try:
        d = read_json(path)
        rec = record_from_dict(d)
        rec.start_state(os.path.dirname(os.path.abspath(path)))
    except KratonError as e:
        msg = str(e)
        raise RecordError(msg if msg.startswith(where) else f"{where}: {msg}") from None
    return rec, d


def replay_file(path: str, upto: int | None = None) -> Game:
    """Load, replay and check a game file; returns the ``core.game.Game`` after the replay."""
    rec, d = load_record(path)
    try:
        g = rec.replay(upto, os.path.dirname(os.path.abspath(path)))
        if upto is None:
            check_result(d, g)
    except KratonError as e:
        raise RecordError(f"{shown_path(path)}: {e}") from None
    return g


def load_any(path: str, at: int | None = None) -> tuple[GameState, str | None]:
    """The position a file stands for: a position file as it is; a game record (what the app's
    "Save game" writes) at its CURRENT position, after all its actions, or after ``at`` of
    them. The note says which, for a line on stderr (None for a position file)."""
    d = read_json(path)
    if not (isinstance(d, dict) and d.get("format") == FORMAT):
        if at is not None:
            raise PositionError(f"{shown_path(path)}: --at applies to a game record (format {FORMAT}),"
                                " not to a position file")
        return load_position(path), None
    rec, _ = load_record(path)
    if at is not None and not 0 <= at <= len(rec.actions):
        raise RecordError(f"{shown_path(path)}: --at {at}: the record has {len(rec.actions)} actions")
    g = replay_file(path, at)
    n = len(rec.actions) if at is None else at
    which = "its current position" if n == len(rec.actions) else "the position"
    return g.state, (f"{shown_path(path)}: game record; using {which} after {n} of"
                     f" {len(rec.actions)} actions (--at N for another)")


def save_record(rec: GameRecord, path: str, result: Game | None = None) -> None:
    """Write a record atomically (``result``: the finished ``Game``, optional)."""
    write_json_atomic(path, rec.to_dict(result))


__all__ = [
    "HUMAN",
    "GameRecord",
    "RecordError",
    "check_result",
    "load_any",
    "load_record",
    "parse_seats",
    "record_from_dict",
    "replay_file",
    "result_of",
    "save_record",
    "seats_tag",
]
