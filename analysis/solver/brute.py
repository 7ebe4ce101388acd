"""The brute-force reference: every legal action sequence of the turn, memoised on the full
state key. Exact and simple on purpose — the other engines are tested against it.

The value of a state is the best ``Outcome`` the rest of the turn can add. Actions costing 0 AP
(moves along one terrain, R27) can lead back to a state still being searched; such a successor is
skipped (a line through a cycle earns exactly what the line without it earns), and a value that
depended on such a skip is not memoised, so memo entries are always exact.
"""

from __future__ import annotations

from analysis.solver.common import (
    ZERO,
    Deadline,
    KeyMaker,
    Outcome,
    SolveResult,
    festival_outcome,
    make_result,
    may_end,
    step_outcome,
)
from core.actions import Action, End, Festival
from core.errors import IllegalAction
from core.state import GameState

_NEG = Outcome(-(10**9), 0, 0, 0)


class _Brute:
    def __init__(self, deadline: Deadline, key: KeyMaker) -> None:
        self.key = key
        self.memo: dict[tuple[object, ...], tuple[Outcome, tuple[Action, ...]]] = {}
        self.stack: dict[tuple[object, ...], int] = {}
        self.deadline = deadline
        self.nodes = 0

    def value(self, s: GameState) -> tuple[Outcome, tuple[Action, ...], int]:
        """(best future outcome, its line, lowest stack depth of a skipped cycle or a big number)."""
        key = self.key(s)
        hit = self.memo.get(key)
        if hit is not None:
            return hit[0], hit[1], 1 << 30
        depth = len(self.stack)
        self.stack[key] = depth
        self.nodes += 1
        best: Outcome = ZERO if may_end(s) else _NEG
        line: tuple[Action, ...] = ()
        low = 1 << 30
        for a in list(s.legal_actions()):
            if self.deadline.expired():
                break
            if isinstance(a, End):
                continue
            if isinstance(a, Festival):
                fo = festival_outcome(s, a)
                if fo is not None and fo > best:
                    best, line = fo, (a,)
                continue
            try:
                gain = step_outcome(s, a)
            except IllegalAction:
                continue
            try:
                k2 = self.key(s)
                d2 = self.stack.get(k2)
                if d2 is not None:
                    low = min(low, d2)
                    continue
                sub, subline, sublow = self.value(s)
            finally:
                s.pop()
            low = min(low, sublow)
            if sub.points <= _NEG.points // 2:
                continue
            total = gain + sub
            if total > best:
                best, line = total, (a, *subline)
        del self.stack[key]
        if low >= depth and not self.deadline.hit:
            self.memo[key] = (best, line)
        return best, line, low


def solve_brute(state: GameState, time_limit: float | None = None) -> SolveResult:
    """Exact best turn by exhaustive search (use on mini maps or with few AP left)."""
    dl = Deadline(time_limit)
    s = state.copy()
    b = _Brute(dl, KeyMaker(s))
    best, line, _ = b.value(s)
    if best.points <= _NEG.points // 2:
        line = ()
    return make_result(state, list(line), optimal=not dl.hit, engine="brute",
                       seconds=dl.elapsed(), nodes=b.nodes)
