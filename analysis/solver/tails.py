"""Exact ends of a line (issue 21): keep its first actions, search the rest exactly.

``polish`` changes a line one action at a time, and the quick lines often miss by two or three
actions at their end: a tile that grows a group, then the palace; the token, two draws and a
festival (R7, R36); a tile placed elsewhere so that an irrigation encloses one more pond
space. Branch and bound, which finishes nothing from the start of a busy full turn, settles
the last 2 or 3 AP of one in about a second: the position after the line's first actions is
searched exactly (the best line's own end is its incumbent), and the engine replays the
whole line again (it has the last word). On the busy 40 (5 s a search, benchmarks/README.md)
the 10-s answers' ends gave 31 points more on 12 of the 40 (planner-41@328 10 → 15,
-57@183 12 → 16, -59@100 12 → 15, …).

A large-neighbourhood step: it finds lines, it proves nothing (the root's bound does).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from analysis.solver.common import Deadline, Outcome, Reporter, replay
from core.actions import Action, Festival, actions_text
from core.errors import IllegalAction
from core.state import GameState

TAIL_AP = (2, 3)  # the AP (the token's included) left to the exact search, in turn
SHARE = 0.5  # of the time left, at most, for one search
# No search starts with less time left: its root bound (a tenth of a second to a second on a
# busy board) is not cut short, so one started just before the limit overran it (review's 2 s).
MIN_LEFT = 0.25


def _late(dl: Deadline) -> bool:
    """Whether ``dl`` has run out, or has too little left to start a search (``MIN_LEFT``)."""
    left = dl.left()
    return dl.over() or (left is not None and left < MIN_LEFT)


def split(s: GameState, line: list[Action], ap: int) -> int:
    """How many first actions of ``line`` to keep so that ``ap`` AP at least are left after
    them (the token's included, R7): the longest such prefix, never past a festival (it ends
    the turn, R30) nor a step the engine refuses."""
    c = s.copy()
    keep = 0
    for a in line:
        if isinstance(a, Festival):
            break
        try:
            c.push(a)
        except (IllegalAction, ValueError):
            break
        if c.turn.ap + c.token_bonus() < ap:
            break
        keep += 1
    return keep


def better_end(s: GameState, line: list[Action], keep: int, dl: Deadline,
               whole: Outcome | None = None) -> tuple[Outcome, list[Action]] | None:
    """The best line that starts with ``line[:keep]``, searched exactly from there within
    ``dl`` (the rest of ``line`` is the search's incumbent): the whole line and its outcome
    from ``s`` where it beats ``line`` (``whole``, its outcome, where the caller has it),
    else None."""
    from analysis.solver.bnb import solve_bnb

    c = s.copy()
    me = c.to_move
    for a in line[:keep]:
        c.push(a)
    if c.to_move != me or c.festival is not None or dl.over():
        return None
    try:
        if whole is None:
            whole = replay(s, line)[0]
        incumbent = (replay(c, line[keep:])[0], line[keep:])
    except IllegalAction:
        return None
    r = solve_bnb(c, dl.limit(), incumbent=incumbent, engine="tail", report=Reporter(None, "tail"))
    found = line[:keep] + r.line
    try:
        o = replay(s, found)[0]
    except IllegalAction:
        return None
    return (o, found) if o > whole else None


def tail_lines(s: GameState, best: tuple[Outcome, list[Action]], dl: Deadline,
               better: Callable[[Outcome, list[Action]], None] | None = None,
               others: Sequence[tuple[Outcome, list[Action]]] = ()
               ) -> tuple[Outcome, list[Action]]:
    """``best`` with its end searched exactly, 2 then 3 AP of it, again from each better
    line, while ``dl`` lasts; then the ends of ``others`` (the next-best lines, best first),
    where a line whose start is worse may end better. ``better`` hears of each better line as
    it is found."""
    tried: set[tuple[str, int]] = set()
    best = _ends(s, best, dl, tried, better)
    for other in others:
        if _late(dl):
            break
        got = _ends(s, other, dl, tried)  # on from each of its better lines, too
        if got[0] > best[0]:
            best = got
            if better is not None:
                better(*best)
    return best


def _ends(s: GameState, line: tuple[Outcome, list[Action]], dl: Deadline,
          tried: set[tuple[str, int]],
          better: Callable[[Outcome, list[Action]], None] | None = None
          ) -> tuple[Outcome, list[Action]]:
    """``line`` with its end searched exactly, 2 then 3 AP of it, again from each better line
    (``better`` hears of each), while ``dl`` lasts; ``tried``: the (start, AP) searched."""
    improved = True
    while improved and not _late(dl):
        improved = False
        for ap in TAIL_AP:
            keep = split(s, line[1], ap)
            key = (actions_text(line[1][:keep]), ap)
            if key in tried or _late(dl):
                continue
            tried.add(key)
            got = better_end(s, line[1], keep, dl.share(SHARE), line[0])
            if got is not None:
                line, improved = got, True
                if better is not None:
                    better(*line)
                break
    return line


__all__ = ["better_end", "split", "tail_lines"]
