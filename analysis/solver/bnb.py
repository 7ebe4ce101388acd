"""Branch and bound: a depth-first search over the turn with an admissible bound.

Exact like the brute force, with three reductions that lose no line's outcome:

- the action token (R7) is spent first or never: it only adds 1 AP, and the R8 test already
  counts an unspent token, so moving it to the front keeps every line legal;
- card draws (R36) go last, just before a festival: cards matter to nothing but festivals, and
  drawing later only leaves more AP for the earlier actions;
- a state reached again with no better score so far is not searched again (a transposition
  table keyed on the full state; this also closes the cycles of 0-AP moves, R27).

Free moves (R27) chain: each new place of each developer is a new state, so a busy board can
nest the search thousands of levels deep. Python frames calling Python frames use no C stack
(3.11+), so the search raises the recursion limit rather than cut those chains: restricting
them (one free move per developer between paid actions) made the transposition table merge
fewer states and doubled the nodes of the slowest puzzles.

A branch is cut when its score so far plus ``bound.upper_bound`` cannot beat the best line.
"""

from __future__ import annotations

import sys

from analysis.solver.bound import upper_bound
from analysis.solver.common import (
    ZERO,
    Deadline,
    KeyMaker,
    Outcome,
    SolveResult,
    festival_live,
    festival_openings,
    festival_outcome,
    make_result,
    may_end,
    step_outcome,
)
from core.actions import (
    Action,
    Draw,
    End,
    Enter,
    Exit,
    Festival,
    Irrigate,
    Move,
    Palace,
    Tile,
    Token,
)
from core.errors import IllegalAction
from core.state import GameState

DEPTH = 100_000
_ORDER = {Palace: 0, Tile: 1, Irrigate: 2, Move: 3, Enter: 4, Exit: 5}


def _draw_options(s: GameState) -> list[tuple[Draw, ...]]:
    left = min(2 - s.turn.cards_drawn, s.turn.ap)
    opts: list[tuple[Draw, ...]] = [()]
    if left >= 1:
        opts += [(Draw(True),), (Draw(False),)]
    if left >= 2:
        opts += [(Draw(a), Draw(b)) for a in (True, False) for b in (True, False)]
    return opts


def _festival_cap(s: GameState) -> int:
    """Most a festival could still give the mover: half the best festival-free palace (R34)."""
    if not festival_live():
        return 0
    return max((s.palace[h] for h in s.map.hexes if s.palace[h] and not s.fest[h]), default=0) // 2


def leaf_options(s: GameState) -> list[tuple[Outcome, tuple[Action, ...]]]:
    """Ways to finish the turn here (R8 satisfied): stop, or draw 0–2 cards and hold a festival
    no opponent can take part in (R30–R36)."""
    found: list[tuple[Outcome, tuple[Action, ...]]] = [(ZERO, ())]
    if not festival_live():
        return found
    if not any(s.palace[h] and not s.fest[h] for h in s.map.hexes):
        return found
    for draws in _draw_options(s):
        pushed = 0
        acc = ZERO
        try:
            for d in draws:
                acc = acc + step_outcome(s, d)
                pushed += 1
            for op in festival_openings(s):
                o = festival_outcome(s, op)
                if o is not None:
                    found.append((acc + o, (*draws, op)))
        except IllegalAction:
            pass
        finally:
            for _ in range(pushed):
                s.pop()
    return found


class _BnB:
    def __init__(self, root: GameState, deadline: Deadline, incumbent: tuple[Outcome, list[Action]] | None) -> None:
        self.key = KeyMaker(root)
        self.deadline = deadline
        self.seen: dict[tuple[object, ...], Outcome] = {}
        self.best: Outcome = Outcome(-1, 0, 0, 0)
        self.line: list[Action] = []
        if incumbent is not None:
            self.best, self.line = incumbent
        self.nodes = 0

    def search(self, s: GameState, acc: Outcome, path: list[Action]) -> None:
        if self.deadline.over():  # a node costs a bound (milliseconds): check the clock each time
            return
        key = self.key(s)
        prev = self.seen.get(key)
        if prev is not None and prev >= acc:
            return
        self.seen[key] = acc
        self.nodes += 1
        if may_end(s):
            if acc > self.best:
                self.best, self.line = acc, list(path)
            if acc.points + _festival_cap(s) > self.best.points or (
                    acc.points + _festival_cap(s) == self.best.points and acc[1:] > self.best[1:]):
                for o, tail in leaf_options(s):
                    if acc + o > self.best:
                        self.best, self.line = acc + o, [*path, *tail]
        ub = upper_bound(s)
        if acc.points + ub < self.best.points:
            return
        if acc.points + ub == self.best.points and acc[1:] <= self.best[1:]:
            return  # the rest can only spend AP or hand points: no better tie-break
        acts = [a for a in s.legal_actions() if not isinstance(a, (Token, Draw, End, Festival))]
        acts.sort(key=lambda a: _ORDER.get(type(a), 9))
        for a in acts:
            try:
                gain = step_outcome(s, a)
            except IllegalAction:
                continue
            path.append(a)
            try:
                self.search(s, acc + gain, path)
            finally:
                path.pop()
                s.pop()


def solve_bnb(state: GameState, time_limit: float | None = None,
              incumbent: tuple[Outcome, list[Action]] | None = None, engine: str = "bnb") -> SolveResult:
    """Exact best turn by branch and bound; ``incumbent`` (a replayed line) seeds the bound."""
    dl = Deadline(time_limit)
    s = state.copy()
    b = _BnB(s, dl, incumbent)
    if sys.getrecursionlimit() < DEPTH:
        sys.setrecursionlimit(DEPTH)  # chains of free moves (see the module docstring)
    roots: list[tuple[Outcome, list[Action]]] = [(ZERO, [])]
    if s.festival is None and s.is_legal(Token()):
        roots.insert(0, (Outcome(0, 0, 0, -1), [Token()]))
    for acc, prefix in reversed(roots):  # without the token first: it wins ties
        for a in prefix:
            s.push(a)
        b.search(s, acc, list(prefix))
        for _ in prefix:
            s.pop()
    line = b.line
    if not line and not may_end(s):  # cut off before any line: the owed tile alone (R8)
        tile = s.find_placement(s.turn.ap + s.token_bonus())
        if tile is not None and not s.is_legal(tile):
            line = [Token(), tile]
        elif tile is not None:
            line = [tile]
    return make_result(state, line, optimal=not dl.hit, engine=engine,
                       seconds=dl.elapsed(), nodes=b.nodes)
