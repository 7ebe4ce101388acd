"""Goal-directed lines (issue 21): a palace in one village group, worked toward.

The quick searches judge a line as it grows, by its points (the recipe engine, ``polish``) or
by a player's evaluation (the beam search), so a palace that needs tiles first is seldom
reached: a rice tile to level a hole, then a tile on it whose village cell joins the group
(planner-69@254: "tile G5r; tile G5v G6r H5r; palace I5 10", 5 points where every other
search found none; no step before the palace scores). Here each village group of the board (village or
city) is a goal in turn: a depth-first search over the actions that can change that group
only — tiles covering it or a hex next to it (``movegen.tile_placements(near=)``), the mover's
developers walking or entering onto it, or climbing inside it — until a palace there is legal
(R28, R29); a position met twice is searched once. The best goal lines are then chained (the
next goal from where one ends, with the AP left) and handed to ``polish``, which adds the
festival endings and changes one action at a time.

The engine plays every step (``GameState.push``), so each line is legal; it finds lines and
proves nothing (the bound does).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from analysis.beam import board_key
from analysis.solver.common import Deadline, Outcome, replay
from core.actions import VILLAGE, Action, Enter, Move, Tile, Token
from core.errors import IllegalAction
from core.movegen import group_palaces, tile_placements
from core.paths import move_costs
from core.state import GameState

NODES = 4000  # positions searched per goal (a busy group: ~0.5 s)
CHAINS = 4  # goal lines the next goal starts from


@dataclass
class _Goal:
    """One group's search: its hexes as they were (the group is the one still holding one of
    them), the mover, the positions seen and the palace lines found."""

    anchor: list[int]
    me: int
    dl: Deadline
    growth_first: bool = False  # the second pass's order (``_steps``)
    budget: int = NODES
    nodes: int = 0
    seen: set[int] = field(default_factory=set)
    found: dict[int, tuple[int, list[Action]]] = field(default_factory=dict)  # value -> (AP
    # left after it, the line): the cheapest line to each value, so chaining has AP to go on


def _group(s: GameState, anchor: list[int]) -> tuple[list[int], int] | None:
    """The members and palace hex of the group holding the anchor's palace or hexes now."""
    g = s.groups()
    for h in anchor:
        gi = g.label[h]
        if gi >= 0:
            return list(g.members[gi]), g.palace[gi]
    return None


def _steps(s: GameState, members: list[int], me: int, growth_first: bool = False) -> list[Action]:
    """What may change the group: tiles on it or next to it, the mover's developers onto it
    (a walk from outside, an entry, a climb to a higher hex of it). One AP is kept for the
    palace. The depth-first search tries them in this order and runs out of nodes deep in
    the first few branches, so the order decides what it finds: tiles first; with
    ``growth_first``, the tiles whose village cell adds a hex to the group first, and where
    the mover has no developer in the group, his arrivals before any tile (R25: no palace
    without him; planner-112@176: "enter L7; tile K9v K10r L9r; tile M8v M9r N8r; palace L5
    8", which tiles first never reached)."""
    budget = s.turn.ap - 1
    if budget < 1:
        return []
    nbrs = s.map.nbrs
    zone = set(members)
    for h in members:
        zone.update(nbrs[h])
    inside = set(members)
    tiles = [t for t, _ in tile_placements(s, budget, near=zone)]
    if growth_first:
        tiles.sort(key=lambda t: not _grows(t, inside, nbrs))
    arrivals: list[Action] = []
    free = [h for h in members if s.dev[h] < 0 and not s.palace[h] and s.level[h] > 0]
    if not free:
        return list(tiles)
    top_mine = max((s.level[h] for h in members if s.dev[h] == me), default=0)
    for src in s.developers(me):
        costs = move_costs(src, me, s.level, s.terrain, s.dev, s.palace, nbrs, budget)
        for dst in free:
            c = costs.get(dst)
            if c is None or dst == src:
                continue
            if src not in inside or s.level[dst] > s.level[src] and s.level[dst] > top_mine - 1:
                arrivals.append(Move(src, dst))
    if s.players[me].developers_off > 0:
        m = s.map
        arrivals += [Enter(h) for h in free if 0 < (m.border_cost[h] or m.rim_cost[h]) <= budget]
    if growth_first and not _his_there(s, members, me):
        return [*arrivals, *tiles]
    return [*tiles, *arrivals]


def _his_there(s: GameState, members: list[int], me: int) -> bool:
    """Whether a developer of his stands in the group (R25: a palace needs him there)."""
    return any(s.dev[h] == me for h in members)


def _grows(t: Tile, inside: set[int], nbrs: Sequence[Sequence[int]]) -> bool:
    """Whether the tile's village cell adds a hex next to the group (R10: one at most)."""
    return any(terrain == VILLAGE and h not in inside and any(n in inside for n in nbrs[h])
               for h, terrain in t.cells)


def _spent(goal: _Goal) -> bool:
    """The goal's nodes are used up, or its deadline passed (``Deadline.hit`` stays set once
    the clock was seen past it): every open branch stops, not only the one that looked."""
    return goal.nodes > goal.budget or goal.dl.hit


def _search(s: GameState, goal: _Goal, line: list[Action]) -> None:
    """Depth first from ``s`` (pushed and popped in place) while the goal's nodes last."""
    goal.nodes += 1
    if _spent(goal) or (goal.nodes % 8 == 0 and goal.dl.over()):
        return
    key = board_key(s)
    if key in goal.seen:
        return
    goal.seen.add(key)
    grp = _group(s, goal.anchor)
    if grp is None:
        return
    members, ph = grp
    for p in group_palaces(s, members, ph) if s.turn.ap >= 1 else []:
        left = s.turn.ap - 1
        if p.value not in goal.found or goal.found[p.value][0] < left:
            goal.found[p.value] = (left, line + [p])
    for a in _steps(s, members, goal.me, goal.growth_first):
        try:
            s.push(a)
        except (IllegalAction, ValueError):
            continue
        if s.to_move == goal.me and s.festival is None:
            _search(s, goal, line + [a])
        s.pop()
        if _spent(goal):
            return


def goal_lines(state: GameState, dl: Deadline, after: list[list[Action]] | None = None,
               starts: int = CHAINS) -> list[tuple[Outcome, list[Action]]]:
    """Palace lines toward every village group, then the next goal from where the best
    ``starts`` of them (and the lines ``after``, e.g. a pond closed) end, with the AP left;
    each replayed by the engine, best first. With the action token (R7) the first search
    starts after spending it: a seventh AP (``polish`` drops it where it is not needed)."""
    s = state.copy()
    prefix: list[Action] = []
    if s.token_bonus():
        s.push(Token())
        prefix = [Token()]
    out = _goals(s, prefix, dl, state)
    for line in [x[1] for x in out[:starts]] + list(after or []):
        if dl.over():
            break
        c = state.copy()
        try:
            for a in line:
                c.push(a)
        except (IllegalAction, ValueError):
            continue
        if c.to_move == state.to_move and c.festival is None and c.turn.ap >= 2:
            out += _goals(c, line, dl, state)
    out.sort(key=lambda x: x[0], reverse=True)
    return out


def _goals(s: GameState, prefix: list[Action], dl: Deadline,
           base: GameState) -> list[tuple[Outcome, list[Action]]]:
    """The best lines to a palace in each group of ``s`` (reached by ``prefix`` from ``base``)."""
    me = s.to_move
    g = s.groups()
    found: list[tuple[Outcome, list[Action]]] = []
    for gi, mem in enumerate(g.members):
        if dl.over():
            break
        ph = g.palace[gi]
        anchor = [ph] if ph >= 0 else sorted(mem, key=lambda h: (s.dev[h] != me, h))
        # Tiles first; where he has no developer in the group, a second pass with half the
        # nodes tries his arrivals and the growing tiles first (``_steps``).
        passes = [_Goal(anchor, me, dl)]
        if not _his_there(s, mem, me):
            passes.append(_Goal(anchor, me, dl, growth_first=True, budget=NODES // 2))
        lines: dict[int, tuple[int, list[Action]]] = {}
        for goal in passes:
            _search(s, goal, [])
            for v, got in goal.found.items():
                if v not in lines or lines[v][0] < got[0]:
                    lines[v] = got
        for v in sorted(lines, reverse=True)[:2]:
            line = prefix + lines[v][1]
            try:
                found.append((replay(base, line)[0], line))
            except IllegalAction:
                continue
    found.sort(key=lambda x: x[0], reverse=True)
    return found


__all__ = ["goal_lines"]
