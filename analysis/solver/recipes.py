"""Scoring opportunities and the action recipes that realise them (the CP-SAT engine's input).

An opportunity is a village group or city where a palace can be built or enlarged (R28, R29) or
a pond that can be enclosed (R38); festivals (R30–R34) are finished by the replay's leaf step.
A recipe is a short action sequence that scores one opportunity: the scoring action alone, or
one enabling action first (a developer entering or moving in to win the highest position —
climbing terraces —, a tile that grows a group or covers a pond's last bare neighbours), or a
whole line that encloses a pond (``pond_lines.py``). Each
recipe carries its AP cost, its points, the points it hands to opponents, the palace piece it
takes and a footprint (hexes it writes or reads) so that CP-SAT can combine independent ones.
The derivation is not claimed complete: the engine proves optimality separately (cpsat.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from analysis.evaluation import ponds
from analysis.solver.common import Deadline, step_outcome
from analysis.solver.pond_lines import pond_lines
from core.actions import Action, Enter, Irrigate, Move, Palace, Tile, Token
from core.errors import IllegalAction
from core.movegen import group_palaces, tile_placements
from core.state import GameState


@dataclass(frozen=True)
class Recipe:
    actions: tuple[Action, ...]
    cost: int
    points: int
    handed: int
    opportunity: str
    piece: int  # palace value taken from the supply, 0 for none
    footprint: frozenset[int]
    has_tile: bool


def _written(a: Action) -> set[int]:
    if isinstance(a, Tile):
        return set(a.hexes)
    if isinstance(a, Move):
        return {a.src, a.dst}
    if isinstance(a, (Enter, Irrigate, Palace)):
        return {a.hex}
    return set()


def _around(s: GameState, hexes: set[int]) -> set[int]:
    out = set(hexes)
    for h in hexes:
        out.update(s.map.nbrs[h])
    return out


def _palace_singles(s: GameState, near: set[int] | None = None) -> list[Palace]:
    """Every legal palace action now (R28, R29), one site per group and value: the first of
    the rules' own list (``movegen.group_palaces``, which asks no AP and no R8) that is legal.
    No push for it (a search asks this after every first action) but where a tile is still
    owed: there the push's R8 test may refuse a site that would leave no tile room. With
    ``near``, only in the groups with a hex there."""
    if s.turn.ap < 1 or s.is_terminal() or s.festival is not None:
        return []  # R7: a palace action costs 1 AP
    g = s.groups()
    pushed = s.obligation_pending()
    out: list[Palace] = []
    for gi, members in enumerate(g.members):
        if near is not None and near.isdisjoint(members):
            continue
        first: dict[int, Palace] = {}
        for a in group_palaces(s, members, g.palace[gi]):
            if a.value not in first and (not pushed or s.is_legal(a)):
                first[a.value] = a
        out.extend(first[v] for v in sorted(first))
    return out


def _pond_closers(s: GameState, budget: int, near: set[int] | None = None) -> list[Action]:
    """Tiles and irrigations that may enclose a pond now (R38): they cover its bare neighbours.
    With ``near``, only those of the ponds with a ring hex there."""
    out: list[Action] = []

    bare_sets = []
    for _, ring in ponds(s):  # cached: a search asks after every first action
        if near is not None and near.isdisjoint(ring):
            continue
        bare = {h for h in ring if s.level[h] == 0}
        if 0 < len(bare) <= 3:
            bare_sets.append(bare)
        if len(bare) == 1 and s.irrigation_supply > 0:
            out.append(Irrigate(next(iter(bare))))
    if bare_sets:  # a tile that covers a whole set covers one of its hexes
        for tile, cost in tile_placements(s, budget, near=set().union(*bare_sets)):
            hexes = set(tile.hexes)
            if any(b <= hexes for b in bare_sets):
                out.append(tile)
    return out


def _opportunity(s: GameState, a: Action) -> str:
    if isinstance(a, Palace):
        g = s.groups()
        gi = g.label[a.hex]
        return f"group:{min(g.members[gi])}"
    hexes = sorted(_written(a))
    return "pond:" + ",".join(str(h) for h in hexes)


def _recipe(s: GameState, actions: list[Action], region: set[int], token: bool = False) -> Recipe | None:
    """Push ``actions`` in order on ``s`` (restored after; with ``token``, after the action
    token, R7, which the model adds to the line) and describe what they earn."""
    pts = handed = pushed = 0
    ap = s.turn.ap
    try:
        if token:
            s.push(Token())
            pushed += 1
            ap += 1
        for a in actions[:-1]:
            o = step_outcome(s, a)
            pushed += 1
            pts += o.points
            handed -= o.neg_handed
        return _recipe_after(s, actions, region, pts, handed, ap)
    except IllegalAction:
        return None
    finally:
        for _ in range(pushed):
            s.pop()


def _recipe_after(s: GameState, actions: list[Action], region: set[int], pts: int, handed: int,
                  ap: int) -> Recipe | None:
    """``_recipe`` with every action but the last on ``s`` already, having earned ``pts`` and
    handed ``handed`` from ``ap`` AP: the last one pushed (and popped) here."""
    last = actions[-1]
    opp = _opportunity(s, last)
    region = region | _region(s, last)
    try:
        o = step_outcome(s, last)
    except IllegalAction:
        return None
    try:
        pts += o.points
        handed -= o.neg_handed
        cost = ap - s.turn.ap
    finally:
        s.pop()
    if pts <= 0 and handed <= 0:
        return None
    written: set[int] = set()
    for a in actions:
        written |= _written(a)
    return Recipe(tuple(actions), cost, pts, handed, opp,
                  last.value if isinstance(last, Palace) else 0,
                  frozenset(_around(s, written | region)),
                  any(isinstance(a, Tile) for a in actions))


def _region(s: GameState, a: Action) -> set[int]:
    if isinstance(a, Palace):
        g = s.groups()
        return set(g.members[g.label[a.hex]])
    return set()


def pond_recipes(s: GameState, budget: int, deadline: Deadline | None = None,
                 held: bool = True, grown: bool = True,
                 enough: Callable[[Recipe], bool] | None = None) -> list[Recipe]:
    """The recipes of ``pond_lines`` (``held``, ``grown``: which of them): whole lines that
    enclose a pond, of cost ≤ ``budget`` (``s`` not changed). On a busy board they are the
    biggest scores, and often the best line itself, so the caller may hold the quick ones
    against the bound before deriving the rest. ``enough(recipe)``, asked of each new one,
    ends the search where it says so (a line that meets the bound: the rest cannot beat it)."""
    found: dict[tuple[Action, ...], Recipe] = {}
    for line, token in pond_lines(s, budget, deadline, held, grown):
        r = _recipe(s, line, set(), token)
        if r is not None and r.cost <= budget and r.actions not in found:
            found[r.actions] = r
            if enough is not None and enough(r):
                break
    return list(found.values())


def derive(s: GameState, budget: int, deadline: Deadline | None = None, two_step: bool = True,
           closing: list[Recipe] | None = None) -> list[Recipe]:
    """Recipes of cost ≤ ``budget`` from state ``s`` (not changed); stops early at ``deadline``
    (the recipes are only the incumbent's source: the proof never relies on them).
    ``closing``: ``pond_recipes`` of the same state and budget, if the caller has them."""
    if closing is None:
        closing = pond_recipes(s, budget, deadline)
    found: dict[tuple[Action, ...], Recipe] = {r.actions: r for r in closing}

    def add(actions: list[Action], region: set[int], token: bool = False) -> None:
        r = _recipe(s, actions, region, token)
        if r is not None and r.cost <= budget:
            found.setdefault(r.actions, r)

    singles: list[Action] = [*_palace_singles(s), *_pond_closers(s, budget)]
    for a in singles:
        add([a], set())
    if two_step and budget >= 2:
        hot = set()
        g = s.groups()
        for members in g.members:
            if len(members) >= 2:
                hot.update(members)
        for _, ring in ponds(s):
            hot.update(ring)
        hot_near = _around(s, hot)
        for e in list(s.legal_actions()):
            if deadline is not None and deadline.over():
                break
            if not isinstance(e, (Move, Enter, Tile)):
                continue
            written = _written(e)
            if not (written & (hot if not isinstance(e, Tile) else hot_near)):
                continue
            ap = s.turn.ap
            try:
                first = step_outcome(s, e)
            except IllegalAction:
                continue
            try:  # each follow-up costed with ``e`` still on the board (not pushed again)
                if s.turn.ap < 1:
                    continue
                # Only where ``e`` changed something: its hexes and their neighbours hold
                # every group it grew, cut (R23) or moved a developer in or out of, and every
                # ring it covered or stepped on. Elsewhere ``[e, a]`` scores what ``a``
                # alone does, for more AP.
                near = _around(s, written)
                for a in [*_palace_singles(s, near), *_pond_closers(s, s.turn.ap, near)]:
                    r = _recipe_after(s, [e, a], set(), first.points, -first.neg_handed, ap)
                    if r is not None and r.cost <= budget:
                        found.setdefault(r.actions, r)
            finally:
                s.pop()
    return list(found.values())
