"""The brute-force reference: every legal action sequence of the turn, memoised on the full
state key. Exact and simple on purpose — the other engines are tested against it.

The value of a state is the best ``Outcome`` the rest of the turn can add. Every action but one
kind changes something that never comes back within a turn (AP, the token, cards drawn, the
board): moves that cost 0 AP (one terrain all the way, R27) only shift developers, and such a
move can always be walked back the same way for 0 AP. So the states joined by 0-AP moves form
classes in which every state has the same value: the search collects a whole class, takes the
best action out of any of its states, and memoises the value for all of them — no cycles.
"""

from __future__ import annotations

from analysis.solver.common import (
    ZERO,
    Deadline,
    KeyMaker,
    Outcome,
    SolveResult,
    fallback_line,
    festival_outcome,
    make_result,
    may_end,
    step_outcome,
)
from core.actions import Action, End, Festival, Move
from core.errors import IllegalAction
from core.state import GameState

_NEG = Outcome(-(10**9), 0, 0, 0)
# Memoised states kept at most (issue 21: memory bounded at any time limit). The values are
# exact, so clearing the memo when it is full only costs their computing again.
MEMO_CAP = 100_000
Entry = tuple[Outcome, tuple[Action, ...]]


def _back(path: list[Move]) -> list[Move]:
    return [Move(m.dst, m.src) for m in reversed(path)]


class _Brute:
    def __init__(self, deadline: Deadline, key: KeyMaker, max_nodes: int | None = None) -> None:
        self.key = key
        self.memo: dict[tuple[object, ...], Entry] = {}
        self.deadline = deadline
        self.nodes = 0
        self.max_nodes = max_nodes

    def _class(self, s: GameState) -> list[tuple[tuple[object, ...], list[Move]]]:
        """The states reachable from ``s`` by 0-AP moves, each with a path of moves to it."""
        members: list[tuple[tuple[object, ...], list[Move]]] = [(self.key(s), [])]
        seen = {members[0][0]}
        i = 0
        # A class can be huge (a dozen developers on wide terrains): the time limit holds here
        # too, and a class cut short is never memoised (``value`` checks ``deadline.hit``).
        while i < len(members) and not self.deadline.over():
            _, path = members[i]
            i += 1
            for mv in path:
                s.push(mv)
            try:
                for a in list(s.legal_actions()):
                    if not isinstance(a, Move):
                        continue
                    o = step_outcome(s, a)
                    try:
                        if o.neg_ap == 0:
                            k = self.key(s)
                            if k not in seen:
                                seen.add(k)
                                members.append((k, [*path, a]))
                    finally:
                        s.pop()
            finally:
                for _ in path:
                    s.pop()
        return members

    def value(self, s: GameState) -> Entry:
        key = self.key(s)
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        members = self._class(s)
        best: Outcome = _NEG
        best_i = 0  # the member holding the best continuation
        tail: tuple[Action, ...] = ()
        for i, (_, path) in enumerate(members):
            if self.deadline.hit:
                break
            for mv in path:
                s.push(mv)
            try:
                self.nodes += 1
                if self.max_nodes is not None and self.nodes > self.max_nodes:
                    self.deadline.stop()  # the budget, like the time, ends the search
                    break
                if may_end(s) and ZERO > best:
                    best, best_i, tail = ZERO, i, ()
                for a in list(s.legal_actions()):
                    if self.deadline.expired():
                        break
                    if isinstance(a, End):
                        continue
                    if isinstance(a, Festival):
                        fo = festival_outcome(s, a)
                        if fo is not None and fo > best:
                            best, best_i, tail = fo, i, (a,)
                        continue
                    try:
                        gain = step_outcome(s, a)
                    except IllegalAction:
                        continue
                    try:
                        if isinstance(a, Move) and gain.neg_ap == 0:
                            continue  # inside the class
                        sub, subline = self.value(s)
                    finally:
                        s.pop()
                    if sub.points <= _NEG.points // 2:
                        continue
                    if gain + sub > best:
                        best, best_i, tail = gain + sub, i, (a, *subline)
            finally:
                for _ in path:
                    s.pop()
        to_best = members[best_i][1]
        for k, path in members:
            line = (*_back(path), *to_best, *tail) if best.points > _NEG.points // 2 else ()
            if not self.deadline.hit:
                if len(self.memo) >= MEMO_CAP:
                    self.memo.clear()
                self.memo[k] = (best, line)
        return best, (*to_best, *tail) if best.points > _NEG.points // 2 else ()


def solve_brute(state: GameState, time_limit: float | None = None,
                max_nodes: int | None = None) -> SolveResult:
    """Exact best turn by exhaustive search (use on mini maps or with few AP left).
    ``max_nodes``: a budget of positions searched, which stops it like the time limit (not
    proved) but the same on any machine and under any load (the agreement tests)."""
    dl = Deadline(time_limit)
    s = state.copy()
    b = _Brute(dl, KeyMaker(s), max_nodes)
    _, line = b.value(s)
    return make_result(state, list(line) or fallback_line(s), optimal=not dl.hit, engine="brute",
                       seconds=dl.elapsed(), nodes=b.nodes)
