"""Branch and bound: a depth-first search over the turn with an admissible bound.

Exact like the brute force, with reductions that lose no line's outcome:

- the action token (R7) is spent first or never: it only adds 1 AP, and the R8 test already
  counts an unspent token, so moving it to the front keeps every line legal;
- card draws (R36) go last, just before a festival: cards matter to nothing but festivals, and
  drawing later only leaves more AP for the earlier actions;
- free moves (R27) come only just before an action they change (``freemoves.py``); with no AP
  left nothing is searched after them;
- a state reached again with no better score so far is not searched again (a transposition
  table keyed on the full state and the free moves waiting for their action; this also closes
  the cycles of 0-AP moves). The table is capped (``SEEN_CAP`` entries, two generations: the
  older half is dropped when the newer fills), so memory stays bounded at any time limit
  (issue 21: it grew ~2.8 KB a node); a state dropped is only searched again. A 0-AP cycle
  whose first state was dropped is walked again only until it meets a state of it still in
  the table, and it can lose those only after a whole generation of new states, so the
  cycles stay closed in practice (and the deadline holds in any case).

The search may still nest deeper than Python's default limit (a frame per action), so it raises
the limit; Python frames calling Python frames use no C stack (3.11+).

A branch is cut when its score so far plus ``bound.upper_bound`` cannot beat the best line (the
parent's bound less the step's points is tried first: it costs nothing). Where they only tie on
points, a line from the branch must spend fewer AP to win (issue 5's tie-breaks), so the bound
with that many AP decides.

With ``processes`` ≥ 2 a search that runs a moment gets a second process beside it
(``split.py``): the actions of the nodes near the roots are claimed one by one from shared
counters, so the two search disjoint parts of one tree.
"""

from __future__ import annotations

import sys
import time
from typing import TYPE_CHECKING

from analysis.solver.bound import upper_bound
from analysis.solver.bound_view import View
from analysis.solver.common import (
    MINI_MAP_HEXES,
    ZERO,
    Deadline,
    KeyMaker,
    Outcome,
    Reporter,
    SolveResult,
    fallback_line,
    festival_live,
    festival_openings,
    festival_outcome,
    make_result,
    may_end,
    replay,
    step_outcome,
)
from analysis.solver.freemoves import (
    NONE,
    Pending,
    after_free_move,
    free_reach,
    interacts_after,
    unsettled,
    viable,
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

if TYPE_CHECKING:
    from analysis.solver.split import Partner, SearchHelper

DEPTH = 100_000
SEEN_CAP = 100_000  # transposition entries kept at most (~2.7 KB each on a busy board: ~270 MB)
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
            for op, o in _alone_openings(s):
                found.append((acc + o, (*draws, op)))
        except IllegalAction:
            pass
        finally:
            for _ in range(pushed):
                s.pop()
    return found


def _alone_openings(s: GameState) -> list[tuple[Festival, Outcome]]:
    """Per palace, the opening with the fewest cards that no opponent can join, and what it
    scores (``common.festival_openings``' order: fewest cards first). An opponent who may join
    an opening may join any one worth less (R32: he bids at least the highest bid), so where
    the palace's richest opening (every matching card) can be joined, none is tried; alone,
    every opening scores the same (R34), so the first found is enough. (Each opening used to
    be resolved by the engine: ~700 a leaf on the last-round puzzles.)"""
    by_palace: dict[int, list[Festival]] = {}
    for op in festival_openings(s):
        by_palace.setdefault(op.hex, []).append(op)
    out: list[tuple[Festival, Outcome]] = []
    for ops in by_palace.values():
        richest = max(ops, key=lambda a: len(a.cards or ()))
        top = festival_outcome(s, richest)
        if top is None:
            continue
        for op in ops:
            o = top if op is richest else festival_outcome(s, op)
            if o is not None:
                out.append((op, o))
                break
    out.sort(key=lambda x: (len(x[0].cards or ()), str(x[0])))
    return out


def _fewest_ap(s: GameState, points: int, spent: int, views: dict[int, View] | None = None
               ) -> bool:
    """No line spending fewer AP than ``spent`` scores ``points``: the bound with ``spent`` − 1
    AP, which caps every line within that budget (it is a budget, not an exact count), is
    below them; a line that owes a tile spends 1 AP at least (R8, R14). One bound, not one
    per AP: full-turn-08 asked for six (0.3 of its 0.7 s)."""
    return spent - 1 < (0 if may_end(s) else 1) or upper_bound(s, spent - 1, views=views) < points


def meets_bound(s: GameState, o: Outcome, ub: int, views: dict[int, View] | None = None
                ) -> bool:
    """A line with outcome ``o`` is proved best by the root bound ``ub``: the same points,
    nothing handed, no token it need not spend, and no line with fewer AP that the bound
    allows those points (the objective's tie-breaks; the line without its detours,
    ``common.simplify``)."""
    return (o.points == ub and o.neg_handed == 0
            and (o.neg_token == 0 or -o.neg_ap > s.turn.ap)
            and _fewest_ap(s, o.points, -o.neg_ap, views))


class Seen:
    """The transposition table with a cap: two generations of at most ``cap // 2`` entries;
    when the newer fills it becomes the older and the older is dropped (recently met states,
    the ones a search meets again soonest, stay)."""

    def __init__(self, cap: int = SEEN_CAP) -> None:
        self.half = max(1, cap // 2)
        self.new: dict[tuple[object, ...], Outcome] = {}
        self.old: dict[tuple[object, ...], Outcome] = {}
        self.dropped = 0

    def get(self, key: tuple[object, ...]) -> Outcome | None:
        got = self.new.get(key)
        return self.old.get(key) if got is None else got

    def __setitem__(self, key: tuple[object, ...], value: Outcome) -> None:
        self.new[key] = value
        if len(self.new) >= self.half:
            self.dropped += len(self.old)
            self.old, self.new = self.new, {}

    def __len__(self) -> int:
        return len(self.new) + len(self.old)


class _BnB:
    def __init__(self, root: GameState, deadline: Deadline, incumbent: tuple[Outcome, list[Action]] | None,
                 report: Reporter | None = None, bound: int | None = None,
                 partner: Partner | None = None) -> None:
        self.key = KeyMaker(root)
        # The root as it was (the search changes ``root`` in place) and its bound: a line that
        # meets it (``meets_bound``) cannot be beaten, and the search stops there.
        self.root, self.root_views = root.copy(), dict[int, View]()
        self.bound = bound
        self.settled = False
        self.deadline = deadline
        self.seen = Seen()
        self.best: Outcome = Outcome(-1, 0, 0, 0)
        self.line: list[Action] = []
        if incumbent is not None:
            self.best, self.line = incumbent
        self.report = report or Reporter(None, "bnb")
        self.nodes = 0
        # A second process (``split.py``): the root's actions are claimed one by one, better
        # lines sent both ways. ``start_at``: when this process starts one (None: it does not).
        self.partner = partner
        self.start_at: float | None = None
        self.helper: SearchHelper | None = None
        self.spare: SearchHelper | None = None  # started ahead, given the search at the start
        # The states reached are shared once there is a second process (~50 µs a node before).
        self.sharing = partner is not None and partner.me == 1
        self.roots: list[tuple[Outcome, list[Action]]] = []  # set by ``solve_bnb``
        self.tried: set[int] = set()  # the other's nodes this one has stolen
        self.asked = self.cut = 0  # bounds asked whether they cut, and those that did
        self.lazy = len(root.map.hexes) > LAZY_HEXES

    def _bound_below(self, s: GameState, ap: int | None, views: dict[int, View], need: int) -> int:
        """The bound of ``s`` with ``ap`` AP where the node is cut when it falls below
        ``need``: asked only that (``upper_bound``'s ``below``) while that has paid in this
        search (see ``LAZY_SHARE``), else worked out in full."""
        lazy = self.lazy and (self.asked < LAZY_TRIAL or self.cut >= LAZY_SHARE * self.asked)
        got = upper_bound(s, ap, views=views, below=need if lazy else None)
        self.asked += 1
        self.cut += got < need
        return got

    def root_bound(self) -> int:
        """The root's bound (the points of any line at most), worked out once."""
        if self.bound is None:
            r = self.root
            self.bound = upper_bound(r, r.turn.ap + r.token_bonus(), views=self.root_views)
        return self.bound

    def settle(self) -> None:
        """Stop the search if the best line meets the root's bound (``meets_bound``): the
        most points, nothing handed, the fewest AP and no needless token."""
        o = self.best
        self.settled = (o.points >= 0 and o.points == self.root_bound() and o.neg_handed == 0
                        and meets_bound(self.root, o, self.root_bound(), self.root_views))

    def search(self, s: GameState, acc: Outcome, path: list[Action], pending: Pending = NONE,
               parent_ub: int | None = None, fresh: bool = True, claims: int | None = None,
               where: tuple[int, tuple[int, ...]] | None = None) -> None:
        """Search on from ``s`` (``acc`` scored so far along ``path``). With a second process
        (``split.py``), ``claims`` is the counter this node's actions are claimed from, and
        ``where`` the node as (root, the indices of its actions from there): each action
        claimed is offered to the other process in turn (published), down to ``SHARE_DEPTH``."""
        if self.partner is not None:
            self._partner_news()
        if self.settled or self.deadline.over():  # a node costs a bound (milliseconds): check
            return
        key = (self.key(s), pending)
        prev = self.seen.get(key)
        if prev is not None and prev >= acc:
            return
        self.seen[key] = acc
        if self.sharing and claims is None and not self._shared(key, acc):
            return  # the other process searches on from this state (``split.py``)
        self.nodes += 1
        owed = s.obligation_pending()
        if not pending or owed:  # pending moves matter to nothing at the end (freemoves.py)
            self._leaf(s, acc, path)
        if s.turn.ap == 0:
            return  # only free moves are left (entries and exits cost AP, R5, R26): no points
        # The parent's bound less the points of the step still holds here (this node's lines
        # are some of the parent's) and costs nothing: the node's own bound is worked out only
        # where that one cuts nothing, and not after a free move, which changes too little to
        # make it much tighter.
        ub = parent_ub
        views: dict[int, View] = {}  # this node's bounds share their work
        if ub is None or (fresh and not self._cut(s, acc, ub, views)):
            # Asked only whether it cuts (``below``), the bound is worked out no further than
            # that takes; where it does not cut, it is the exact bound, for the children.
            here = self._bound_below(s, None, views, self.best.points - acc.points)
            ub = here if ub is None else min(ub, here)
        if self._cut(s, acc, ub, views):
            return
        partner = self.partner if claims is not None else None
        acts = self._actions(s, partner is not None)
        if partner is not None and claims is not None:
            partner.claims.count(claims, len(acts))
        free = free_reach(s) if pending else {}
        waiting = {y for _, y in pending}
        for i, a in enumerate(acts):
            if partner is not None and claims is not None and not partner.mine(claims, i):
                continue  # the other process searches it (``split.py``)
            stepped = self._step_in(s, a, pending, free, waiting, owed)
            if stepped is None:
                continue
            gain, nxt = stepped
            entry = inner = None
            if partner is not None and where is not None:  # a shared node's action: offered
                inner = (where[0], (*where[1], i))
                entry = partner.claims.publish(partner.me, *inner)
            path.append(a)
            try:
                self.search(s, acc + gain, path, nxt, ub - gain.points, fresh=not nxt,
                            claims=entry, where=inner)
            finally:
                path.pop()
                s.pop()
                if partner is not None and entry is not None:
                    partner.claims.close_entry(entry)

    def _shared(self, key: tuple[object, ...], acc: Outcome) -> bool:
        """Whether to search on from the state ``key``: not where the other process has
        reached it with as much or more (it searches on from there, and the answer is proved
        only when it has finished). The nodes whose actions are shared (``claims``) are not
        asked: both processes search them, each its own actions."""
        from analysis.solver.split import state_hash

        assert self.partner is not None
        h = state_hash(key)
        other = self.partner.claims.seen(h)
        if other is not None and Outcome(*other) >= acc:
            return False
        self.partner.claims.saw(h, acc)
        return True

    def _actions(self, s: GameState, canonical: bool) -> list[Action]:
        """The actions searched from ``s``: the token, draws and festivals are the roots' and the
        leaves' (see the module docstring). ``canonical``: in the same order in both processes,
        whatever history built their states (their actions are claimed by index)."""
        acts: list[Action] = [a for a in s.legal_actions()
                              if not isinstance(a, (Token, Draw, End, Festival))]
        if canonical:
            acts.sort(key=lambda a: (_ORDER.get(type(a), 9), str(a)))
        else:
            acts.sort(key=lambda a: _ORDER.get(type(a), 9))
        return acts

    @staticmethod
    def _step_in(s: GameState, a: Action, pending: Pending, free: dict[int, set[int]],
                 waiting: set[int], owed: bool) -> tuple[Outcome, Pending] | None:
        """Push ``a`` where the search takes it from ``s`` (``pending``: the free moves waiting
        for an action they change, ``free`` and ``waiting`` worked out from them): what it
        scores and the free moves waiting after it; None, with nothing pushed, where the search
        does not take it."""
        rest_p: Pending | None = NONE
        if pending and isinstance(a, Move) and a.dst in free.get(a.src, ()):  # a free move
            if a.src in waiting:
                return None  # its one free move from where it started is searched already
        elif pending:  # any other action must change every waiting move
            rest_p = unsettled(s, a, pending, owed)
            if rest_p is None:
                return None
        ap = s.turn.ap
        try:
            gain = step_outcome(s, a)
        except IllegalAction:
            return None
        if isinstance(a, Move) and s.turn.ap == ap:
            nxt = after_free_move(pending, a.src, a.dst)
            if viable(s, nxt):
                return gain, nxt
        elif not rest_p or interacts_after(s, a, rest_p, owed):
            return gain, NONE
        s.pop()
        return None

    def steal(self) -> None:
        """This process has searched all it claimed: search on in the nodes the other process
        is still searching (``split.Claims.steal``), claiming the actions left there."""
        assert self.partner is not None
        s = self.root.copy()
        while not self.settled and not self.deadline.over():
            got = self.partner.claims.steal(self.partner.me, self.tried)
            if got is None:
                return
            slot, root, indices = got
            self.tried.add(slot)  # searched here once: a node cut here is cut for good
            self._stolen(s, self.roots[root], root, indices, slot)

    def _stolen(self, s: GameState, start: tuple[Outcome, list[Action]], root: int,
                indices: tuple[int, ...], slot: int) -> None:
        """Go down to the node the other process published (the same actions, in the same
        order: ``_actions``' canonical one) and search it, claiming from ``slot``."""
        acc, path = start[0], list(start[1])
        for a in path:
            s.push(a)
        pushed, pending = len(path), NONE
        try:
            for i in indices:
                acts = self._actions(s, True)
                owed = s.obligation_pending()
                free = free_reach(s) if pending else {}
                stepped = None if i >= len(acts) else self._step_in(
                    s, acts[i], pending, free, {y for _, y in pending}, owed)
                if stepped is None:
                    return  # not the node published (cannot be): nothing claimed, nothing lost
                pushed += 1
                acc, pending = acc + stepped[0], stepped[1]
                path.append(acts[i])
            self.search(s, acc, path, pending, None, claims=slot, where=(root, indices))
        finally:
            for _ in range(pushed):
                s.pop()

    def _cut(self, s: GameState, acc: Outcome, ub: int, views: dict[int, View]) -> bool:
        """Whether no line on from here, scoring ``ub`` more at most, can beat the best line."""
        if acc.points + ub < self.best.points:
            return True
        if acc.points + ub == self.best.points:
            # The rest can only spend AP or hand points; a tile still owed costs 1 AP (R8).
            rest = Outcome(acc.points, acc.neg_handed, acc.neg_ap - (not may_end(s)), acc.neg_token)
            if rest[1:] <= self.best[1:]:
                return True
            if acc.neg_handed == self.best.neg_handed:
                # Handed points only grow: a line from here that ties on points wins only by
                # spending fewer AP (as many, where it may still win on the token), so it
                # scores within that many AP.
                left = acc.neg_ap - self.best.neg_ap - (0 if acc.neg_token > self.best.neg_token else 1)
                need = self.best.points - acc.points
                return left < 0 or (left < s.turn.ap and self._bound_below(s, left, views, need) < need)
        return False

    def _leaf(self, s: GameState, acc: Outcome, path: list[Action]) -> None:
        if not may_end(s):
            return
        before = self.best
        if acc > self.best:
            self.best, self.line = acc, list(path)
        cap = acc.points + _festival_cap(s)
        if cap > self.best.points or (cap == self.best.points and acc[1:] > self.best[1:]):
            for o, tail in leaf_options(s):
                if acc + o > self.best:
                    self.best, self.line = acc + o, [*path, *tail]
        self.report(self.best.points, self.line)  # says something only when the points rose
        if self.best is not before:
            if self.partner is not None:
                self.partner.tell(self.line)
            self.settle()

    def _partner_news(self) -> None:
        """Start the second process once the search has run ``START_AFTER`` seconds; take up
        the better line it sent, if any (replayed: the engine has the last word)."""
        assert self.partner is not None
        if self.start_at is not None and time.perf_counter() >= self.start_at:
            self._start_helper()
        line = self.partner.take_heard()
        if line is None:
            return
        try:
            o = replay(self.root, line)[0]
        except IllegalAction:
            return
        if o > self.best:
            self.best, self.line = o, line
            self.report(o.points, line)
            self.settle()

    def _start_helper(self) -> None:
        """Give the second process its search: the one started ahead (``split.warm``), else
        one started now."""
        from analysis.solver.split import SearchHelper

        assert self.partner is not None
        self.start_at = None
        left = self.deadline.left()
        if self.spare is None and left is not None and left < 2 * START_AFTER:
            return  # too late for a start of its own (~0.1 s)
        helper, self.spare = self.spare, None
        try:
            helper = helper or SearchHelper(self.partner.claims)
        except OSError:  # no process to be had: this one searches on alone
            return
        helper.begin(self.partner, self.root, self.line or fallback_line(self.root),
                     self.root_bound(), left)
        self.helper = helper
        self.sharing = True


def solve_bnb(state: GameState, time_limit: float | None = None,
              incumbent: tuple[Outcome, list[Action]] | None = None, engine: str = "bnb",
              report: Reporter | None = None, bound: int | None = None,
              processes: int = 1, partner: Partner | None = None) -> SolveResult:
    """Exact best turn by branch and bound; ``incumbent`` (a replayed line) seeds the bound;
    ``report`` hears of each better line (issue 21); ``bound``: the root's bound over every
    line from ``state`` (the token's AP included where it may be spent), if the caller has it;
    else it is worked out here. The search stops at a line that meets it (``meets_bound``).
    ``processes`` ≥ 2: a second process searches beside this one once the search has run a
    moment (``split.py``); ``partner``: this is that second process."""
    dl = Deadline(time_limit)
    s = state.copy()
    if sys.getrecursionlimit() < DEPTH:
        sys.setrecursionlimit(DEPTH)  # chains of free moves (see the module docstring)
    own = partner is None and processes >= 2 and split_available()
    if own:
        from analysis.solver.split import Claims, Partner, take_spare

        spare = take_spare()
        partner = Partner(Claims() if spare is None else spare.claims, None)
    b = _BnB(s, dl, incumbent, report, bound, partner)
    if own:
        b.spare = spare  # ready: it takes its part from the first node
        b.start_at = dl.start + (START_AFTER if spare is None else 0.0)
    root_ub = b.root_bound()
    if b.report.bound is None:  # shown from the start to whoever is watching
        b.report(bound=root_ub)
    if incumbent is not None:
        b.settle()
    roots: list[tuple[Outcome, list[Action]]] = [(ZERO, [])]
    if s.festival is None and s.is_legal(Token()):
        roots.insert(0, (Outcome(0, 0, 0, -1), [Token()]))
    roots.reverse()  # without the token first: it wins ties
    b.roots = roots
    for no, (acc, prefix) in enumerate(roots):
        for a in prefix:
            s.push(a)
        b.search(s, acc, list(prefix), claims=no if partner is not None else None, where=(no, ()))
        for _ in prefix:
            s.pop()
    if partner is not None:
        b.steal()
        if not own:  # the helper: on while the other process still has nodes to share
            _help_until_idle(b)
    finished = not dl.hit
    if own:
        assert partner is not None
        finished = _joined(b, dl, finished)
        if b.spare is not None:
            b.spare.stop()  # never given its search
        partner.claims.close()
    line = b.line or fallback_line(s)
    r = make_result(state, line, optimal=finished, engine=engine,
                    seconds=dl.elapsed(), nodes=b.nodes)
    r.proved_by = "search" if r.optimal else None
    r.bound = root_ub
    if b.seen.dropped:
        r.notes.append(f"transposition table capped: {b.seen.dropped} entries dropped")
    if b.helper is not None and partner is not None:
        r.notes.append(f"branch and bound in two processes: {partner.skipped} actions searched "
                       "by the second")
    return r


# ``upper_bound``'s ``below`` saves most of the palace side of a bound that cuts, and adds the
# quick entries (a seventh of the exact ones on a busy board) and a recount per entry made
# exact to one that does not: a search on a map larger than the mini maps asks it while at
# least this share of its bounds has cut, judged after the first ``LAZY_TRIAL`` (44@191's
# tie-breaks: 904 of 907 cut, the search 2.1 times faster). On the mini maps the hex-by-hex
# options cost little more than the quick ones and it does not pay (the bounds' CPU time:
# pond-17, 392 of 920 cut, 0.8 times; token-11, 927 of 1 054, 0.9 times; token-05, 1.7 times).
LAZY_HEXES = MINI_MAP_HEXES
LAZY_SHARE = 0.3
LAZY_TRIAL = 30
START_AFTER = 0.08  # seconds of search before a second process is worth its start (~0.15 s)


def split_available() -> bool:
    """Whether branch and bound may run in two processes here (the claims lock a file: POSIX)."""
    try:
        import fcntl  # noqa: F401 - the claims' lock (POSIX)
    except ImportError:
        return False
    return True


def _help_until_idle(b: _BnB) -> None:
    """In the helper, its own claims done: steal from the other process until it has nothing
    left to search either (``split.Claims.idle``)."""
    assert b.partner is not None
    claims = b.partner.claims
    while not b.settled and not b.deadline.over() and not claims.idle(0):
        time.sleep(IDLE_POLL)
        b.steal()


IDLE_POLL = 0.005  # seconds between looks for nodes to share, with nothing to search


def _joined(b: _BnB, dl: Deadline, finished: bool) -> bool:
    """This process's search is over (``finished``: it searched all it claimed): steal from
    the second process, if one started, until it is done, and take its best line. Proved when
    both finished, or when a line meets the root's bound."""
    helper = b.helper
    if helper is None:
        return finished
    assert b.partner is not None
    if b.partner.skipped == 0:  # this process searched everything itself: no need to wait
        helper.stop()
        return finished
    done = None
    try:
        while finished and not b.settled and not dl.over():
            done = helper.wait(IDLE_POLL)
            if done is not None or helper.ended():
                break
            b.steal()
            finished = not dl.hit
    finally:
        helper.stop()
    if done is not None:
        b.partner.heard = done.get("line")
        b._partner_news()
    if b.settled:
        return True
    # What this process skipped the other claimed: it must have finished, unless there was none.
    return finished and (b.partner.skipped == 0 or done is not None and bool(done.get("finished")))
