"""A whole game's review in batch (issue 22): every turn evaluated in parallel, the per-player
summary, and "learn from your mistakes" puzzles. No UI here; ``kraton review`` prints it.

Accuracy is ``100 × Σ played / Σ best`` over the player's reviewed turns (100 when no turn
could score anything): the share of the points the solver found that the player took. The
solver's ``best`` is itself a lower bound on the true best when it is not proved, so accuracy
is generous on turns cut short by the time limit.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from analysis.parallel import Outcome, run_parallel
from analysis.review import MARKS, TurnTask, evaluate, review_tasks, task_state
from analysis.solver import DEFAULT_ENGINE
from core.ascii_numbers import ascii_digits, ascii_whole
from core.errors import KratonError, shown
from core.game import Game
from core.position import position_to_dict

DEFAULT_MIN_MISSED = 3  # --puzzles: a turn is a puzzle when at least this many points were missed
MARK_ORDER = tuple(m for _, m in reversed(MARKS))  # ?!, ?, ??


@dataclass
class Review:
    """The evaluations of one review run, by turn number (1-based), and the turns that failed."""

    tasks: list[TurnTask]
    evaluations: dict[int, dict[str, Any]] = field(default_factory=dict)
    failed: dict[int, str] = field(default_factory=dict)  # turn number -> one-line reason


MAX_NUMBER_DIGITS = 9  # a turn or seat number with more digits lies beyond any game


def _number(text: str) -> int | None:
    """A whole number in ASCII digits (``٢`` is not one), or None. More digits than any game
    needs stand for a number beyond it, without ``int`` seeing thousands of them."""
    t = text.strip()
    n = ascii_whole(t, MAX_NUMBER_DIGITS)
    if n is None and ascii_digits(t):
        return 10**MAX_NUMBER_DIGITS
    return n


def parse_turns(text: str, n_turns: int) -> tuple[int, int]:
    """``--turns A-B`` (or ``N``): turn numbers, 1-based and inclusive, within the game."""
    a, sep, b = text.partition("-")
    lo, hi = _number(a), _number(b) if sep else _number(a)
    if lo is None or hi is None:
        raise KratonError(f"--turns: expected N or A-B (turn numbers), got '{shown(text)}'")
    if not 1 <= lo <= hi <= max(n_turns, 1):
        raise KratonError(f"--turns {shown(text)}: the game has {n_turns} complete turns (1-{n_turns})")
    return lo, hi


def parse_player(text: str, names: list[str], option: str = "--player") -> int:
    """``--player`` / ``--as``: a player's name (any case) or seat number 1..n; the 0-based index."""
    low = [n.lower() for n in names]
    if text.strip().lower() in low:
        return low.index(text.strip().lower())
    seat = _number(text)
    if seat is not None and 1 <= seat <= len(names):
        return seat - 1
    raise KratonError(f"{option} {shown(text)}: not a player of this game ({', '.join(names)}, or 1-{len(names)})")


def covered_turns(game: Game, turns: tuple[int, int] | None = None, player: int | None = None) -> set[int] | None:
    """The turn numbers a review with these filters covers (None: every turn)."""
    if turns is None and player is None:
        return None
    lo, hi = turns if turns is not None else (1, len(game.turn_spans()))
    return {t.index + 1 for t in game.turn_spans()
            if lo <= t.index + 1 <= hi and (player is None or t.player == player)}


def turn_tasks(game: Game, time_limit: float, engine: str = DEFAULT_ENGINE,
               turns: tuple[int, int] | None = None, player: int | None = None,
               viewer: int | None = None) -> list[TurnTask]:
    """The review's tasks: every complete turn of ``game``, or those ``covered_turns`` keeps;
    ``viewer``: a game in progress judged as that player sees it (R44, ``review_tasks``)."""
    covered = covered_turns(game, turns, player)
    spans = [t for t in game.turn_spans() if covered is None or t.index + 1 in covered]
    return review_tasks(game, time_limit, engine, spans, viewer=viewer)


def run_review(tasks: list[TurnTask], workers: int | None = None, scheduler: Any = None,
               progress: Callable[[int, int, Outcome[dict[str, Any]]], None] | None = None) -> Review:
    """Evaluate the tasks on the parallel runner (processes, or Dask with ``scheduler``).
    Tasks carry their start position, so workers never parse or replay the game."""
    review = Review(tasks)
    for out in run_parallel(evaluate, tasks, workers=workers, scheduler=scheduler, progress=progress):
        turn = tasks[out.index].turn
        if out.ok and out.value is not None:
            review.evaluations[turn] = out.value
        else:
            review.failed[turn] = out.error
    review.evaluations = dict(sorted(review.evaluations.items()))
    return review


def annotate(game: Game, review: Review, covered: set[int] | None = None) -> None:
    """Put the review into ``game.evaluations``: it replaces the evaluations of the turns it
    covered (all of them, or ``covered``, see ``covered_turns``); the others and the comments stay."""
    kept = {} if covered is None else {k: v for k, v in game.evaluations.items() if k not in covered}
    game.evaluations = dict(sorted({**kept, **review.evaluations}.items()))


@dataclass(frozen=True)
class PlayerSummary:
    player: int
    name: str
    turns: int  # turns reviewed
    played: int  # points scored in them
    best: int  # the solver's best over them
    marks: dict[str, int]  # "?!", "?", "??" -> turns so marked

    @property
    def missed(self) -> int:
        return self.best - self.played

    @property
    def accuracy(self) -> float:
        """Module docstring: Σ played / Σ best, in percent."""
        return 100.0 if self.best <= 0 else round(100.0 * self.played / self.best, 1)

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "name": self.name, "turns": self.turns, "played": self.played,
                "best": self.best, "missed": self.missed, "marks": dict(self.marks),
                "accuracy": self.accuracy}


def summarize(game: Game, evaluations: dict[int, dict[str, Any]]) -> list[PlayerSummary]:
    """One summary per player over the evaluated turns."""
    rows = []
    for p, pl in enumerate(game.state.players):
        mine = [e for e in evaluations.values() if e.get("player") == p]
        marks = {m: sum(1 for e in mine if e.get("mark") == m) for m in MARK_ORDER}
        rows.append(PlayerSummary(p, pl.name, len(mine), sum(int(e["played"]) for e in mine),
                                  sum(int(e["best"]) for e in mine), marks))
    return rows


def summary_text(rows: Iterable[PlayerSummary]) -> str:
    """The per-player table ``kraton review`` prints."""
    head = f"{'player':<10}{'turns':>6}{'scored':>8}{'best':>6}{'missed':>8}{'?!':>4}{'?':>4}{'??':>4}{'accuracy':>10}"
    lines = [head]
    for r in rows:
        lines.append(f"{r.name:<10}{r.turns:>6}{r.played:>8}{r.best:>6}{r.missed:>8}"
                     + "".join(f"{r.marks[m]:>{w}}" for m, w in zip(MARK_ORDER, (4, 4, 4)))
                     + f"{r.accuracy:>9.1f}%")
    return "\n".join(lines)


def marked_lines(game: Game, evaluations: dict[int, dict[str, Any]]) -> list[str]:
    """One line per marked turn: what was played against the solver's best."""
    names = [p.name for p in game.state.players]
    out = []
    for turn, e in evaluations.items():
        if e.get("mark"):
            proof = "proved" if e.get("proved") else f"not proved, bound {e.get('bound')}"
            out.append(f"turn {turn:>3} ({names[e['player']]}, action {e['first']}): {e['mark']:<2} "
                       f"played {e['played']}, best {e['best']} ({proof}): {e['line']}")
    return out


def chart_marks(game: Game, evaluations: dict[int, dict[str, Any]]) -> list[tuple[int, int, str]]:
    """(row of ``Game.score_history()``, player, mark) for each marked turn: the point after it."""
    rows = {t.index + 1: k + 1 for k, t in enumerate(t for t in game.turn_spans() if t.complete)}
    return [(rows[turn], int(e["player"]), str(e["mark"])) for turn, e in evaluations.items()
            if e.get("mark") and turn in rows]


# ---------------------------------------------------------------------- learn from your mistakes
def is_puzzle(e: dict[str, Any], min_missed: int) -> bool:
    """A turn worth replaying as a puzzle: at least ``min_missed`` points missed, best proved."""
    return bool(e.get("proved")) and int(e["best"]) - int(e["played"]) >= min_missed


def mistake_puzzle(task: TurnTask, e: dict[str, Any], record_name: str, player_name: str) -> dict[str, Any]:
    """The puzzle (notation.md "Puzzle file") of one reviewed turn: the position the solver
    analysed — for a game in progress the turn as its player saw it (R44), never the real
    hidden cards — with the solver's proved best and line. Map paths are made absolute; the
    writer makes them relative to where the file lands."""
    from analysis.mine import difficulty_of, theme_of
    from analysis.solver.common import make_result, replay
    from core.actions import parse_actions

    s = task_state(task)
    line = parse_actions(e["line"]) if e["line"] else []
    outcome, _ = replay(s, line)  # the engine has the last word
    if outcome.points != e["best"]:
        raise KratonError(f"turn {task.turn}: the line scores {outcome.points}, not the best {e['best']}")
    r = make_result(s, line, True, str(e["engine"]), float(e["seconds"]))
    stem = os.path.splitext(record_name)[0]
    d = position_to_dict(s)
    d["puzzle"] = {"id": f"{stem}-turn-{task.turn}", "goal": "max-points", "best": e["best"],
                   "line": e["line"], "difficulty": difficulty_of(s, r), "theme": theme_of(s, r),
                   "title": f"{player_name} to move, turn {task.turn} of {stem}: "
                            f"score {e['best']} (played {e['played']})",
                   "source": {"record": record_name, "action": task.first, "turn": task.turn},
                   "seen": task.seen}
    return d


def write_puzzles(folder: str, puzzles: list[dict[str, Any]]) -> list[str]:
    """Write each puzzle as ``folder/<id>.json`` (atomically; the folder is made if missing, a
    file of the same name is replaced: reviewing a game again rewrites its puzzles)."""
    from core.position import write_json_atomic

    if os.path.exists(folder) and not os.path.isdir(folder):
        raise KratonError(f"--puzzles {folder[:80]}: not a folder")
    os.makedirs(folder, exist_ok=True)
    paths = []
    for d in puzzles:
        path = os.path.join(folder, f"{d['puzzle']['id']}.json")
        if os.path.isabs(d["map"]):  # a map file: relative to where the puzzle lands
            d = {**d, "map": os.path.relpath(d["map"], os.path.dirname(os.path.realpath(path)))}
        write_json_atomic(path, d)
        paths.append(path)
    return paths


__all__ = [
    "DEFAULT_MIN_MISSED",
    "PlayerSummary",
    "Review",
    "annotate",
    "chart_marks",
    "is_puzzle",
    "marked_lines",
    "mistake_puzzle",
    "parse_player", "parse_turns",
    "run_review",
    "summarize",
    "summary_text",
    "turn_tasks",
    "write_puzzles",
]
