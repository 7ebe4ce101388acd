"""Shared pieces of the three solver engines: the result, the objective, state keys, replay.

The objective (issue 5): most points for the mover this turn — palaces (R29), ponds that fall to
him (R38), festivals no opponent can take part in (R30–R34); ties broken by fewer points handed
to opponents, then fewer AP spent, then not spending the action token (R7). An ``Outcome`` is
that ordering as one tuple that Python compares lexicographically, bigger is better.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import NamedTuple

from core.actions import Action, Festival, Move, Pass, Token, actions_text
from core.errors import IllegalAction
from core.state import GameState


class Outcome(NamedTuple):
    """What a line earns, ordered so that ``max`` picks the best (issue 5 tie-breaks)."""

    points: int = 0
    neg_handed: int = 0
    neg_ap: int = 0
    neg_token: int = 0

    def __add__(self, o: object) -> Outcome:  # type: ignore[override]
        assert isinstance(o, Outcome)
        return Outcome(self.points + o.points, self.neg_handed + o.neg_handed,
                       self.neg_ap + o.neg_ap, self.neg_token + o.neg_token)


ZERO = Outcome()

# The mini maps (tests/maps, puzzles/maps) have no more hexes than this, Java-Centre many
# more: where the solver's engines part ways by the board's size (``model.model_fits``,
# ``bnb.LAZY_HEXES``).
MINI_MAP_HEXES = 60


@dataclass
class SolveResult:
    """The best turn found. ``optimal`` is True only when the engine proved it (issue 5)."""

    best: int
    line: list[Action]
    step_points: list[int]
    optimal: bool
    engine: str
    seconds: float
    handed: int = 0
    ap_spent: int = 0
    token_used: bool = False
    nodes: int = 0
    notes: list[str] = field(default_factory=list)
    bound: int | None = None  # no line scores more (the admissible bound; ``best`` when proved)
    # How ``optimal`` was shown: "bound" (the root bound meets the line), "search" (an exact
    # search finished), "model" (a complete model of the turn solved to optimality); None
    # when not proved.
    proved_by: str | None = None

    @property
    def line_text(self) -> str:
        return actions_text(self.line)

    def to_json(self) -> dict[str, object]:
        return {"best": self.best, "line": self.line_text, "optimal": self.optimal,
                "engine": self.engine, "seconds": round(self.seconds, 4),
                "step_points": self.step_points, "handed": self.handed,
                "ap_spent": self.ap_spent, "token_used": self.token_used, "nodes": self.nodes,
                "bound": self.bound, "proved_by": self.proved_by,
                "gap": None if self.bound is None else self.bound - self.best}


@dataclass(frozen=True)
class Progress:
    """What an engine has so far (issue 21's anytime solve): the best line found, the bound no
    line can exceed (None while not yet known), seconds since the solve began."""

    best: int
    bound: int | None
    line: list[Action]
    seconds: float
    engine: str


ProgressFn = Callable[[Progress], None]


class Reporter:
    """Calls ``progress`` when the best points rise or the bound falls, nothing otherwise, so
    engines may call it at every incumbent they meet: the test is two comparisons. An engine
    running inside another (bnb finishing cpsat's proof) shares its reporter, and the bound
    known so far stays on every report."""

    def __init__(self, progress: ProgressFn | None, engine: str, start: float | None = None) -> None:
        self.progress = progress
        self.engine = engine
        self.start = time.perf_counter() if start is None else start
        self.best: int | None = None
        self.bound: int | None = None
        self.line: list[Action] = []

    def __call__(self, best: int | None = None, line: list[Action] | None = None,
                 bound: int | None = None) -> None:
        better = best is not None and (self.best is None or best > self.best)
        tighter = bound is not None and (self.bound is None or bound < self.bound)
        if not (better or tighter):
            return
        if better:
            self.best, self.line = best, list(line or [])
        if tighter:
            self.bound = bound
        if self.progress is not None and self.best is not None:
            bnd = None if self.bound is None else max(self.bound, self.best)
            self.progress(Progress(self.best, bnd, self.line,
                                   time.perf_counter() - self.start, self.engine))


class Deadline:
    """A wall-clock limit shared by the searches; ``None`` means no limit."""

    def __init__(self, limit: float | None) -> None:
        self.start = time.perf_counter()
        self.end = None if limit is None else self.start + limit
        self.hit = False
        self._tick = 0

    def expired(self) -> bool:
        if self.end is None:
            return self.hit  # only ``stop`` sets it
        self._tick += 1
        if self._tick & 63:
            return self.hit
        if time.perf_counter() > self.end:
            self.hit = True
        return self.hit

    def over(self) -> bool:
        """``expired`` without the sampling, for loops whose steps are slow."""
        if self.end is not None and time.perf_counter() > self.end:
            self.hit = True
        return self.hit

    def stop(self) -> None:
        """End the search now (a line at the bound found, a budget of nodes spent): ``over``
        and ``expired`` say so from here on, with a limit or without."""
        self.hit = True

    def extend(self, seconds: float) -> None:
        """Move the end ``seconds`` later (no limit stays none): for work the caller does not
        count against the time it gave."""
        if self.end is not None:
            self.end += seconds

    def left(self) -> float | None:
        """Seconds left (0 once past), None without a limit."""
        return None if self.end is None else max(0.0, self.end - time.perf_counter())

    def limit(self, part: float = 1.0) -> float | None:
        """A time limit for a search: ``part`` of the seconds left, 0.05 s at least (a search
        asked for none would not start), None without a limit."""
        left = self.left()
        return None if left is None else max(0.05, part * left)

    def share(self, part: float) -> Deadline:
        """A deadline for ``part`` of the time left (no limit when this has none)."""
        if self.end is None:
            return Deadline(None)
        return Deadline(max(0.0, part * (self.end - time.perf_counter())))

    def elapsed(self) -> float:
        return time.perf_counter() - self.start


def others_score(s: GameState, me: int | None = None) -> int:
    """The opponents' total score; ``me`` is the mover (default: the player to move now — pass
    it once the turn may have passed on, e.g. after a festival, R30)."""
    if me is None:
        me = s.to_move
    return sum(p.score for i, p in enumerate(s.players) if i != me)


def step_outcome(s: GameState, a: Action) -> Outcome:
    """Push ``a`` (raises IllegalAction) and return what it earned; the caller pops."""
    me = s.to_move
    mine, theirs, ap = s.players[me].score, others_score(s, me), s.turn.ap
    s.push(a)
    return Outcome(s.players[me].score - mine, -(others_score(s, me) - theirs),
                   -max(0, ap - s.turn.ap) if not isinstance(a, Token) else 0,
                   -1 if isinstance(a, Token) else 0)


def may_end(s: GameState) -> bool:
    """Whether the turn may end here: no land tile still owed and placeable (R8)."""
    if s.festival is not None:
        return False
    return not (s.obligation_pending() and s.find_placement(s.turn.ap + s.token_bonus()) is not None)


class KeyMaker:
    """State keys relative to a root position: only the hexes written since the root (read from
    the undo journal) and the small non-board fields, so a key costs O(changes), not O(map)."""

    def __init__(self, root: GameState) -> None:
        self.root = root.copy()

    def __call__(self, s: GameState) -> tuple[object, ...]:
        """Everything that decides what the rest of the turn can earn (scores excluded: the
        value of a state is what it can still earn). Visible tiles stand in for ``top`` (R13)."""
        r = self.root
        touched = sorted({i for _, i, _ in s._journal})
        board = []
        for h in touched:
            cell = (s.level[h], s.terrain[h], s.dev[h], s.palace[h], s.fest[h], s.irrigated[h],
                    s.tiles[s.top[h]] if s.top[h] >= 0 else None)
            if cell != (r.level[h], r.terrain[h], r.dev[h], r.palace[h], r.fest[h],
                        r.irrigated[h], r.tiles[r.top[h]] if r.top[h] >= 0 else None):
                board.append((h, cell))
        t = s.turn
        return (
            tuple(board),
            (t.ap, t.token_used, t.tile_placed, t.cards_drawn, tuple(sorted(t.palaces_changed))),
            tuple(p.snapshot()[1:] for p in s.players), s.to_move,
            None if s.last_round is None else tuple(s.last_round),
            s.triples, s.irrigation_supply, tuple(s.palace_supply),
            s.face_up, tuple(s.deck), tuple(s.discard), s.festival,
        )


def festival_live() -> bool:
    """Whether core.festival implements festivals yet (part 2 replaces a placeholder)."""
    from core import festival

    return hasattr(festival, "from_json")


def festival_outcome(s: GameState, opening: Festival) -> Outcome | None:
    """Hold the festival ``opening`` and resolve it; None when an opponent could take part
    (then its points are not the mover's to take, R32) or it is illegal. Restores ``s``.
    Where the end of the turn makes the mover's final count (the last round, R40, R41, or a
    board no tile can ever be placed on again, ``core.endgame``), that count is no festival's
    points: a turn ended without one makes it too."""
    me = s.to_move
    mine, theirs = s.players[me].score, others_score(s, me)
    counted_before = s.players[me].final_counted
    depth = 0
    try:
        s.push(opening)
        depth = 1
        while s.festival is not None:
            options = list(s.legal_actions())
            if s.current_player() == me or any(not isinstance(o, Pass) for o in options):
                return None
            s.push(Pass())
            depth += 1
        gain = s.players[me].score - mine
        handed = others_score(s, me) - theirs
        counted_now = s.players[me].final_counted and not counted_before
    except IllegalAction:
        return None
    finally:
        for _ in range(depth):
            s.pop()
    if counted_now:
        from core.scoring import final_count

        gain -= final_count(s)[me]  # what the end of the turn added, worked out before it
    return Outcome(gain, -handed, 0, 0)


def festival_openings(s: GameState) -> list[Festival]:
    if s.festival is not None or not festival_live():
        return []
    from core import festival

    found = [a for a in festival.openings(s) if isinstance(a, Festival)]
    return sorted(found, key=lambda a: (len(a.cards or ()), str(a)))  # fewest cards first


def replay(state: GameState, line: list[Action]) -> tuple[Outcome, list[int]]:
    """Replay ``line`` on a copy through the engine (which has the last word); raises
    IllegalAction when the engine refuses a step, an action follows the festival (R9, R30) or
    the line leaves a tile owed (R8)."""
    s = state.copy()
    total = ZERO
    steps = []
    for i, a in enumerate(line):
        if isinstance(a, Festival):
            if i < len(line) - 1:  # what follows would be the next player's turn
                raise IllegalAction(line[i + 1], "R9", "the festival ended the turn (R30)")
            o = festival_outcome(s, a)
            if o is None:
                raise IllegalAction(a, "R32", "an opponent could take part in this festival")
            total = total + o
            steps.append(o.points)
            return total, steps
        o = step_outcome(s, a)
        total = total + o
        steps.append(o.points)
    if not may_end(s):
        raise IllegalAction(line[-1] if line else Pass(), "R8", "the line leaves a land tile owed")
    return total, steps


def _joined_moves(line: list[Action]) -> list[Action]:
    """Consecutive moves of one developer as one move (R27 charges the cheapest path anyway);
    a walk back to where it started disappears."""
    out: list[Action] = []
    for a in line:
        prev = out[-1] if out else None
        if isinstance(a, Move) and isinstance(prev, Move) and prev.dst == a.src:
            out.pop()
            if prev.src != a.dst:
                out.append(Move(prev.src, a.dst))
        else:
            out.append(a)
    return out


def simplify(state: GameState, line: list[Action]) -> list[Action]:
    """Drop actions whose removal leaves the line legal with the same outcome (e.g. developer
    moves there and back for 0 AP), so the answer shows only what matters."""
    target, _ = replay(state, line)
    joined = _joined_moves(line)
    if joined != line:
        try:
            if replay(state, joined)[0] >= target:
                line = joined
        except IllegalAction:
            pass
    i = len(line) - 1
    while i >= 0:
        if not isinstance(line[i], Festival):
            trial = line[:i] + line[i + 1:]
            try:
                if replay(state, trial)[0] >= target:
                    line = trial
            except IllegalAction:
                pass
        i -= 1
    return line


def shortened(state: GameState, best: tuple[Outcome, list[Action]]) -> tuple[Outcome, list[Action]]:
    """``best`` without its detours (``simplify``) and its replayed outcome: the AP it spends
    may then meet a bound's fewest."""
    if not best[1]:
        return best
    line = simplify(state, best[1])
    return replay(state, line)[0], line


def fallback_line(s: GameState) -> list[Action]:
    """The line to report when the time ran out before any line was complete: nothing, or the
    owed tile alone (R8; with the token where the AP left do not pay for it)."""
    if may_end(s):
        return []
    tile = s.find_placement(s.turn.ap + s.token_bonus())
    if tile is None:
        return []
    return [tile] if s.is_legal(tile) else [Token(), tile]


def make_result(state: GameState, line: list[Action], optimal: bool, engine: str, seconds: float,
                nodes: int = 0, notes: list[str] | None = None) -> SolveResult:
    line = simplify(state, list(line))
    out, steps = replay(state, line)
    return SolveResult(best=out.points, line=list(line), step_points=steps, optimal=optimal,
                       engine=engine, seconds=seconds, handed=-out.neg_handed,
                       ap_spent=-out.neg_ap, token_used=out.neg_token < 0, nodes=nodes,
                       notes=list(notes or []))
