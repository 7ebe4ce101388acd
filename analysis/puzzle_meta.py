"""A puzzle's metadata (issue 25): themes from what its solution line does, ``uniqueness``,
``source`` and a first Glicko-2 rating from measurable difficulty; ``kraton puzzles rate``.

Uniqueness is the best score of a line whose *first scoring action* differs from the
solution's. The solver has no way to forbid one action, so this searches the non-scoring
prefix of the turn itself (every legal action that scores nothing, memoised on the state, as
the brute force does) and at every scoring action other than the solution's asks the solver
for the best rest of the turn (proved, or the whole answer is left out: ``None``). The prefix
search is exact but exponential in the AP: it is cut at ``NODES`` states, and a cut search
gives ``None`` too, never a guess. Beyond ``MAX_AP`` AP it is not tried at all: measured on
the collection, a 3-AP turn already passes 40 000 prefix states in 15 s.
"""

from __future__ import annotations

import os
import time
from typing import Any

from analysis.solver import solve
from analysis.solver.common import KeyMaker, festival_outcome, replay, step_outcome
from core.actions import (
    Action,
    Draw,
    End,
    Enter,
    Festival,
    Irrigate,
    Move,
    Palace,
    Tile,
    Token,
    parse_actions,
)
from core.errors import IllegalAction
from core.state import GameState

NODES = 20000  # prefix states searched for the uniqueness at most
MAX_AP = 3  # AP (token included) beyond which the prefix search is not tried
REST_LIMIT = 5.0  # seconds for each rest-of-turn solve behind a scoring alternative


class _Cut(Exception):
    """The uniqueness search went past its budget or met an unproved rest of turn."""


def themes_of(s: GameState, line: list[Action]) -> list[str]:
    """What the line does, in the issue's vocabulary (several may hold). Two come from the
    board the line must deal with: ``pond-for-opponent`` (the line hands points, or a pond an
    opponent's ring would score lies one or two tiles from closure) and ``tied-ring``."""
    from analysis.mine import tied_ring

    out: list[str] = []
    total, steps = replay(s, line)
    budget = s.turn.ap + s.token_bonus()
    c = s.copy()
    climbed = False
    for a, pts in zip(line, steps):
        if isinstance(a, (Move, Enter)):
            dst = a.dst if isinstance(a, Move) else a.hex
            if c.level[dst] >= 2 and c.level[dst] > (c.level[a.src] if isinstance(a, Move) else 0):
                climbed = True
        if isinstance(a, Palace):
            out.append("enlarge" if c.palace[a.hex] else "palace")
            if climbed:
                out.append("terraces")
        if isinstance(a, (Tile, Irrigate)) and pts:
            out.append("pond")
        if isinstance(a, Tile) and any(not c.map.is_central(h) for h in a.hexes):
            out.append("overhang")
        if isinstance(a, Token):
            out.append("token")
        if isinstance(a, Draw):
            out.append("cards")
        if isinstance(a, Festival):
            out.append("festival")
            break
        c.push(a)
    if total.neg_handed or opponent_ring(s):
        out.append("pond-for-opponent")
    if tied_ring(s):
        out.append("tied-ring")
    if budget >= 6:
        out.append("full-turn")
    elif budget == 1:
        out.append("one-ap")
    if sum(1 for p in steps if p) >= 2:
        out.append("combination")
    return sorted(dict.fromkeys(out))


def opponent_ring(s: GameState) -> bool:
    """A pond one or two tiles from enclosure whose ring an opponent holds: closing it would
    pay him (R38), the trap the line must leave alone or turn."""
    from core.groups import all_ponds, pond_ring
    from core.legality import ring_holder

    for pond in all_ponds(s.map.hexes, s.irrigated, s.map.nbrs):
        ring = pond_ring(pond, s.map.nbrs)
        bare = [h for h in ring if s.level[h] == 0]
        holder = ring_holder(s, ring)
        if 0 < len(bare) <= 2 and holder >= 0 and holder != s.to_move:
            return True
    return False


def uniqueness(s: GameState, line: list[Action], deadline: float = 120.0) -> int | None:
    """The best score without the solution's first scoring action (see the module doc)."""
    _, steps = replay(s, line)
    first = next((a for a, p in zip(line, steps) if p > 0), None)
    if first is None or s.turn.ap + s.token_bonus() > MAX_AP:
        return None
    key, memo = KeyMaker(s), {}  # type: ignore[var-annotated]
    stop = time.monotonic() + deadline
    root = s.copy()

    def value(st: GameState) -> int:
        k = key(st)
        if k in memo:
            return int(memo[k])
        if len(memo) >= NODES or time.monotonic() > stop:
            raise _Cut
        memo[k] = 0  # a 0-AP cycle back here adds nothing
        best = 0
        for a in list(st.legal_actions()):
            if isinstance(a, End) or str(a) == str(first):
                continue
            if isinstance(a, Festival):
                fo = festival_outcome(st, a)
                best = max(best, fo.points if fo is not None and fo.points > 0 else 0)
                continue
            try:
                gain = step_outcome(st, a)
            except IllegalAction:
                continue
            try:
                if gain.points > 0:
                    r = solve(st, "cpsat", time_limit=REST_LIMIT) if not st.is_terminal() else None
                    if r is not None and not r.optimal:
                        raise _Cut
                    best = max(best, gain.points + (r.best if r is not None else 0))
                else:
                    best = max(best, value(st))
            finally:
                st.pop()
        memo[k] = best
        return best

    try:
        return value(root)
    except _Cut:
        return None


def first_rating(s: GameState, line: list[Action], best: int, uniq: int | None) -> float:
    """A first rating from what can be measured: the AP to plan, the line's length, how many
    scoring events it chains, and how close the best alternative comes (a near miss is a trap:
    the verdict wants the best exactly)."""
    _, steps = replay(s, line)
    budget = s.turn.ap + s.token_bonus()
    events = sum(1 for p in steps if p)
    r: float = 900 + 110 * min(budget, 7) + 45 * max(0, len(line) - 1) + 90 * max(0, events - 1)
    if uniq is not None and best > 0:
        r += 250 * min(1.0, uniq / best)
    return float(max(600, min(2800, round(r))))


def source_of(path: str, p: dict[str, Any], s: GameState) -> dict[str, Any] | None:
    """``{"record", "action", "turn"}`` for a puzzle mined from a game: ``solver.record`` (or a
    seeded planner game whose record was saved as ``games/planner-SEED.json``) and
    ``solver.turn``. ``action`` counts the record's actions before the puzzle's position; it is
    given only when the record replays to exactly that position (``tokens_spent`` puzzles: the
    same board with the mover's tokens spent)."""
    from analysis.mine import indexed_record_turns, spent
    from core.position import position_to_dict

    if isinstance(p.get("source"), dict):
        return dict(p["source"])
    meta = p.get("solver", {})
    if not isinstance(meta, dict) or "turn" not in meta:
        return None
    name = meta.get("record") or (f"games/planner-{meta['seed']}.json" if "seed" in meta else None)
    rec = os.path.join(os.path.dirname(os.path.abspath(path)), str(name))
    if name is None or not os.path.isfile(rec):
        return None
    want = position_to_dict(s)
    for turn, index, at in indexed_record_turns(rec):
        if turn == meta["turn"]:
            if meta.get("tokens_spent"):
                at = spent(at)
            same = position_to_dict(at) == want
            return {"record": str(name), "action": index, "turn": turn} if same else None
    return None


def rate_file(path: str, reset: bool = False, unique: bool = True, deadline: float = 120.0) -> dict[str, Any]:
    """Compute the metadata of one puzzle file and write it back atomically if it changed;
    returns the new ``puzzle`` object. ``reset`` also replaces a rating already there."""
    from core.position import position_from_dict, read_json, write_json_atomic

    d = read_json(path)
    p = dict(d["puzzle"])
    s = position_from_dict(d, os.path.dirname(os.path.abspath(path)))
    line = parse_actions(p["line"])
    new = dict(p)
    new["themes"] = themes_of(s, line)
    if unique and (reset or "uniqueness" not in p):
        new["uniqueness"] = uniqueness(s, line, deadline)
    if reset or "rating" not in p:
        new["rating"] = first_rating(s, line, p["best"], new.get("uniqueness"))
        new["rd"] = 250.0
    src = source_of(path, p, s)
    if src is not None:
        new["source"] = src
    if new != p:
        d["puzzle"] = new
        write_json_atomic(path, d)
    return new
