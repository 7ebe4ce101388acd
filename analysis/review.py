"""Best vs played, per turn (issue 22): the solver's best for a turn beside what was played.

A turn is judged from the position where it started. ``played`` is what the player scored in
it, counted the way the solver counts a line (``analysis.solver.common.replay``: the mover's
points of the turn, without the final count R41 that an ``end`` of the last round adds); a
festival that opponents joined (R32) counts what the player actually got. ``missed`` is the
solver's best minus that, and marks it like chess annotations (``MARKS``).

Hidden information (R44): while a game is in progress a turn is analysed as its player could
see it — his hand as it was, the opponents' hands and the deck dealt at random from the cards
he could not see (``core.observation.as_seen_by``) — and the evaluation says ``"seen":
"player"``; or as another player (``viewer``) sees it, ``"seen": "player N"``; once the game
is over, with full information (``"seen": "all"``).

Tasks are plain data (``TurnTask``), so ``evaluate`` runs in worker processes or on Dask
(``analysis.parallel``); the app runs it in a thread.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from analysis.solver import DEFAULT_ENGINE
from core.actions import Action, End, Festival, parse_action
from core.errors import IllegalAction
from core.game import Game, TurnSpan
from core.observation import as_seen_by
from core.position import position_from_dict, position_to_dict
from core.state import GameState

# (points missed at least, mark), worst first: like chess's ?! (inaccuracy), ? (mistake), ?? (blunder)
MARKS = ((10, "??"), (6, "?"), (3, "?!"))
MARK_NAMES = {"??": "blunder", "?": "mistake", "?!": "inaccuracy"}


def mark_for(missed: int) -> str:
    """The annotation for a turn that scored ``missed`` points less than the best ('' if none)."""
    return next((m for at_least, m in MARKS if missed >= at_least), "")


@dataclass(frozen=True)
class TurnTask:
    """One turn to evaluate, as plain data (picklable for worker processes and Dask)."""

    turn: int  # 1-based turn number
    player: int
    first: int  # actions[first:end] of the game are the turn's
    end: int
    position: dict[str, Any]  # the position where the turn started (notation.md JSON)
    base_dir: str | None
    actions: tuple[str, ...]  # what was played in the turn
    real_points: int  # the player's score change over the turn, without a final count
    time_limit: float
    engine: str = DEFAULT_ENGINE
    seen: str = "all"  # "all" (the game is over) or "player" (R44, a game in progress)
    seed: int = 0  # deals the unseen cards when seen == "player"
    viewer: int = -1  # whose view (R44) when seen == "player": -1 for the turn's player

    @property
    def seen_by(self) -> int:
        return self.player if self.viewer < 0 else self.viewer


def review_tasks(game: Game, time_limit: float = 2.0, engine: str = DEFAULT_ENGINE,
                 turns: list[TurnSpan] | None = None, viewer: int | None = None) -> list[TurnTask]:
    """A task for each complete turn of ``game`` (or the ``turns`` given); turns in which the
    player could do nothing (no action but ``end``) are left out. While the game is in
    progress each turn is analysed as its own player saw it, or, with ``viewer``, as that
    player sees it (R44: in hot-seat play the one at the screen may not learn another
    player's hand from the best line of that player's turn)."""
    seen = "all" if game.is_terminal() else "player"
    spans = [t for t in (turns if turns is not None else game.turn_spans()) if t.complete]
    tasks = []
    for t in spans:
        acts = game.actions[t.first:t.end]
        if all(isinstance(a, End) for a in acts):
            continue
        state = game.state_at(t.first)
        if state.festival is not None or state.is_terminal():
            continue
        tasks.append(TurnTask(t.index + 1, t.player, t.first, t.end, position_to_dict(state),
                              game.base_dir, tuple(str(a) for a in acts), _real_points(game, t),
                              time_limit, engine, seen, seed=t.first,
                              viewer=-1 if viewer is None else viewer))
    return tasks


def _real_points(game: Game, t: TurnSpan) -> int:
    """The player's score change over the turn, less a final count (R41) made at its end."""
    after = game.scores_at(t.end)[t.player]
    if t.end > t.first and isinstance(game.actions[t.end - 1], End):
        after = game.scores_at(t.end - 1)[t.player]  # the final count comes with ``end``
    return after - t.before[t.player]


def played_points(task: TurnTask, state: GameState | None = None) -> int:
    """What the turn scored, counted like a solver line (module docstring); ``state``: the
    task's position already read."""
    from analysis.solver.common import replay

    if state is None:
        state = position_from_dict(task.position, task.base_dir)
    line: list[Action] = []
    for text in task.actions:
        a = parse_action(text)
        if isinstance(a, End):
            break
        line.append(a)
        if isinstance(a, Festival):
            break
    try:
        outcome, _ = replay(state, line)
    except IllegalAction:  # opponents bid in the festival (R32): what he really got
        return task.real_points
    return int(outcome.points)


def task_state(task: TurnTask) -> GameState:
    """The position the turn is judged from: with full information once the game is over,
    else as the viewer saw it (R44: the cards he could not see dealt at random)."""
    state = position_from_dict(task.position, task.base_dir)
    if task.seen == "player":
        state = as_seen_by(state, task.seen_by, random.Random(task.seed))
    return state


def evaluate(task: TurnTask) -> dict[str, Any]:
    """The evaluation of one turn, as stored in an annotated record (``annotations.evaluations``):
    player, first, end, played, best, bound, proved, line, engine, seconds, mark, seen."""
    from analysis.solver import solve

    state = task_state(task)
    r = solve(state, engine=task.engine, time_limit=task.time_limit)
    # what was played, on the real position (a dealt one may hold other cards for its draws)
    played = played_points(task, state if task.seen == "all" else None)
    best = max(r.best, played)  # the played turn is a line too: the best is at least that
    bound = max(best, r.bound if r.bound is not None else best)
    # proved: the engine says so, or its bound (no line scores more) came down to its best
    proved = r.best >= played and (r.optimal or (r.bound is not None and r.bound <= r.best))
    return {"player": task.player, "first": task.first, "end": task.end, "played": played,
            "best": best, "bound": bound, "proved": bool(proved),
            "line": r.line_text if r.best >= played else "; ".join(task.actions),
            "engine": r.engine, "seconds": round(r.seconds, 3),
            "mark": mark_for(best - played),
            "seen": task.seen if task.seen == "all" or task.seen_by == task.player
            else f"player {task.seen_by}"}


__all__ = ["MARKS", "MARK_NAMES", "TurnTask", "evaluate", "mark_for", "played_points", "review_tasks", "task_state"]
