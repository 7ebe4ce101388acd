"""Local search on whole lines: one action replaced, inserted or dropped, or the line closed
with a festival or with the action token and what it buys (issue 21).

The quick lines (the players' turns, the recipe engine's) often miss by one action: a palace
and a festival the planner found, but the festival an opponent could join (R32), where laying
the last tile elsewhere cuts his developer out of the city (R23) and the festival scores alone
(planner-38@137: 5 points become 10). A line scored by points alone never looks for that move.
Here every line is a point of a neighbourhood: each action replaced by another legal action at
that moment, one legal action inserted, or one dropped; the engine replays each neighbour
(``common.replay``: a busy full turn has ~6 000 neighbours, 1–4 s) and has the last word.
A line that spent its AP and kept the token (R7) is also closed with the token and one action,
or the token, draws and a festival: several actions at once that no single step reaches, as
neither the token nor a draw scores alone (on the busy 40: planner-57@183 12 → 16 points,
-59@100 12 → 15, -55@130 and -66@268 one more).
First improvement, until no neighbour is better or the deadline passes. A line that does not
replay as it is (such a festival) is a starting point too: the best of its neighbours that
replay.

This finds lines; it proves nothing (the bound does).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

from analysis.solver.common import Deadline, Outcome, festival_openings, replay
from core.actions import Action, Draw, End, Festival, Token, actions_text
from core.errors import IllegalAction
from core.state import GameState

MAX_ROUNDS = 20  # improvements per starting line; each is at least one point or tie-break


def _score(s: GameState, line: list[Action]) -> Outcome | None:
    try:
        return replay(s, line)[0]
    except (IllegalAction, ValueError, IndexError):
        return None


def _prefix_states(s: GameState, line: list[Action]) -> Iterator[tuple[int, GameState]]:
    """The position before each action of ``line`` (while the line stays legal)."""
    c = s.copy()
    for i, a in enumerate(line):
        yield i, c.copy()
        try:
            c.push(a)
        except (IllegalAction, ValueError):
            return
        if c.festival is not None or c.to_move != s.to_move:
            return
    yield len(line), c


def _festival_endings(end: GameState) -> Iterator[list[Action]]:
    """A festival to close the line, after drawing one or two cards for it (R30, R36), with
    the action token first where the draws need its AP (R7): two actions or more at once,
    which one-action steps never find (a draw alone only costs an AP)."""
    draws: list[list[Action]] = [[]]
    if end.turn.cards_drawn < 2:
        draws += [[Draw(f)] for f in (True, False)]
        if end.turn.cards_drawn == 0:
            draws += [[Draw(f), Draw(g)] for f in (True, False) for g in (True, False)]
    if end.token_bonus() and end.festival is None:
        draws += [[Token(), *d] for d in draws if d]
    for d in draws:
        c = end.copy()
        try:
            for a in d:
                c.push(a)
        except (IllegalAction, ValueError):
            continue
        for f in festival_openings(c):
            yield d + [f]


def _token_endings(end: GameState) -> Iterator[list[Action]]:
    """The action token and one more action to close the line (R7): a line that has spent
    its AP and kept the token may still build a palace with it (planner-66@268: a pond of 18
    with 6 AP, then the token and a palace of 2), two actions at once again."""
    if end.festival is not None or not end.token_bonus():
        return
    c = end.copy()
    try:
        c.push(Token())
    except (IllegalAction, ValueError):
        return
    for a in c.legal_actions():
        if not isinstance(a, (End, Token)):
            yield [Token(), a]


def _neighbours(s: GameState, line: list[Action]) -> Iterator[list[Action]]:
    """Drop one action; replace one by another legal action then; insert one; close with a
    festival, or with the token and one more action. Last actions first: what a line lacks
    is most often at its end (the tile that cuts off an opponent)."""
    for i in reversed(range(len(line))):
        yield line[:i] + line[i + 1:]
    states = list(_prefix_states(s, line))
    last, end = states[-1]
    if last == len(line):
        yield from (line + f for f in _festival_endings(end))
        yield from (line + t for t in _token_endings(end))
    for i, c in reversed(states):
        if c.festival is not None:
            continue
        for a in c.legal_actions():
            if isinstance(a, End):
                continue
            if i < len(line) and a != line[i]:
                yield line[:i] + [a] + line[i + 1:]
            if not isinstance(a, Festival) or i == len(line):
                yield line[:i] + [a] + line[i:]


def polish(s: GameState, lines: Iterable[list[Action]], dl: Deadline,
           best: tuple[Outcome, list[Action]] | None = None,
           better: Callable[[Outcome, list[Action]], None] | None = None
           ) -> tuple[Outcome, list[Action]] | None:
    """The best line found from ``lines`` (and ``best``) by first-improvement local search;
    ``better`` hears of each line better than all before it as soon as it is found (the
    solver's progress: a search of several seconds must not keep its finds to the end)."""
    seen: set[str] = set()

    def consider(o: Outcome | None, line: list[Action]) -> None:
        nonlocal best
        if o is not None and (best is None or o > best[0]):
            best = (o, list(line))
            if better is not None:
                better(*best)

    for start in lines:
        key = actions_text(start)
        if key in seen:
            continue
        seen.add(key)
        cur, cur_o = list(start), _score(s, start)
        consider(cur_o, cur)
        for _ in range(MAX_ROUNDS):
            # From a line that does not replay, the best neighbour: the first one that replays
            # is most often the line with its failing festival dropped, a dead end.
            step = _improve(s, cur, cur_o, dl, first=cur_o is not None)
            if step is None:
                break
            cur_o, cur = step
            consider(cur_o, cur)
        if dl.over():
            break
    return best


def _improve(s: GameState, line: list[Action], o: Outcome | None, dl: Deadline,
             first: bool = True) -> tuple[Outcome, list[Action]] | None:
    """A better neighbour: the first found, or (``first`` off) the best of them all."""
    found: tuple[Outcome, list[Action]] | None = None
    for n in _neighbours(s, line):
        if dl.over():  # each neighbour is a replay (~1 ms): read the clock every time
            break
        no = _score(s, n)
        if no is not None and (o is None or no > o) and (found is None or no > found[0]):
            found = (no, n)
            if first:
                break
    return found


__all__ = ["polish"]
