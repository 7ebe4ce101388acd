"""Where the mover's developers can be, and what getting there costs (R26, R27), in the model.

Each developer on the board, and the off-board supply (entries, R26), gets distance labels on
the hexes it may walk: a hex is reached through one chosen neighbour (``pred``), and its label
is at least that neighbour's plus the step's cost. A step costs 1 where the two hexes' terrains
differ, unless a tile of this turn may give one of them the other terrain (only the cells
this turn's tiles may put there count); a hex is walkable when it is land now or a tile covers it. Labels count hops
too (``B * AP + hops``), so no loop of free steps can reach a hex the developer cannot. A
developer may also leave the board at a border or rim hex and enter again elsewhere (R27).

A developer's walk over the turn costs at least the label of every hex it stands on at a scoring
moment, so ``cost[i] >= label`` there, and at least ``Labels.least[h]``, the fewest AP
``within_budget`` finds to get there, as a plain linear cut (``model_keys.snapshot``): the
label's constraint holds only where the developer is placed, which the LP relaxation weakens to
nothing; the cut keeps what the walk costs in the LP. Tiles laid after it passed, palaces built
this turn and irrigations are not obstacles here, and paths may pass the mover's own developers
(R27): all of which only lets more lines through (a relaxation).
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass, field

from analysis.solver.model_board import Board, LinearExpr
from analysis.solver.ortools_cp import cp_model
from core.actions import RICE, VILLAGE
from core.hexmap import PRINTED_IRRIGATION

OFF = -1  # the off-board node of a label system


@dataclass
class Labels:
    """One developer's (or the supply's) reach: ``reach[h]``, ``label[h]`` and its AP ``cost``."""

    source: int  # hex of the developer, or OFF for the supply
    least: dict[int, int]  # the fewest AP a walk to each hex can cost (``within_budget``)
    # ... and the fewest AP of that walk plus the tiles laid for it (``within_budget``)
    least_laid: dict[int, int] = field(default_factory=dict)
    reach: dict[int, cp_model.IntVar] = field(default_factory=dict)
    label: dict[int, cp_model.IntVar] = field(default_factory=dict)


@dataclass
class Reach:
    """Label systems per source; devs: on-board hexes of the mover; entered: how many may come."""

    B: int
    systems: dict[int, Labels] = field(default_factory=dict)
    entries: int = 0
    laid: cp_model.IntVar | int = 0  # how many tiles the turn lays (``Board.n_tiles``)


def walkable(b: Board) -> list[int]:
    s = b.s
    out = []
    for h in s.map.hexes:
        if s.irrigated[h] or s.map.kind[h] == PRINTED_IRRIGATION or s.palace[h]:
            continue
        if s.dev[h] >= 0 and s.dev[h] != s.to_move:
            continue
        if s.level[h] > 0 or b.at.get(h):
            out.append(h)
    return out


def _terrains(b: Board, h: int) -> tuple[LinearExpr | int, LinearExpr | int]:
    """(village, rice): how often ``h`` may show each terrain this turn, now or by a cell."""
    s = b.s
    vill = [v for _, v in b.vcell_at.get(h, [])]
    rice = list(b.rcell.get(h, []))
    v0 = int(s.level[h] > 0 and s.terrain[h] == VILLAGE)
    r0 = int(s.level[h] > 0 and s.terrain[h] == RICE)
    return v0 + sum(vill), r0 + sum(rice)


def _step_costs(m: cp_model.CpModel, b: Board, nodes: set[int]) -> dict[tuple[int, int], object]:
    """A step costs 1 (R27) where one hex can only ever be rice this turn and the other only
    village (a tile of this turn may change a hex's terrain: only the cells it may get count)."""
    s = b.s
    terr = {h: _terrains(b, h) for h in nodes}
    cost: dict[tuple[int, int], object] = {}
    for u in nodes:
        for v in s.map.nbrs[u]:
            if v not in nodes or (v, u) in cost:
                continue
            (vu, ru), (vv, rv) = terr[u], terr[v]
            lows = [1 - vu - rv, 1 - ru - vv]  # u rice only and v village only, or the reverse
            if all(isinstance(x, int) for x in lows):
                c: object = int(max(lows) > 0)
            else:
                c = m.new_bool_var(f"step_cost_{u}_{v}")
                for x in lows:
                    if not isinstance(x, int):
                        m.add(c >= x)
                    elif x > 0:
                        m.add(c == 1)
            cost[u, v] = cost[v, u] = c
    return cost


def _system(m: cp_model.CpModel, b: Board, src: int, walk: list[int],
            least: tuple[dict[int, int], dict[int, int]], cost: dict, B: int, top: int
            ) -> Labels:
    """``src``'s labels on the hexes of ``walk`` that ``least`` names (``within_budget``)."""
    s = b.s
    mm = s.map
    lab = Labels(src, *least)
    nodes = [h for h in walk if h in lab.least]
    for h in nodes:
        lab.reach[h] = m.new_bool_var(f"reach_{src}_{h}")
        lab.label[h] = m.new_int_var(0, top, f"label_{src}_{h}")
        land = b.land(h)
        if not isinstance(land, int):
            m.add(lab.reach[h] <= land)
    off_lab = m.new_int_var(0, top, f"label_{src}_off")
    off_reach = m.new_bool_var(f"reach_{src}_off")
    edge = [h for h in nodes if mm.edge_cost(h)]
    if src == OFF:
        m.add(off_reach == 1)
        m.add(off_lab == 0)
    else:
        m.add(lab.reach[src] == 1)
        m.add(lab.label[src] == 0)
        # Leaving the board (R27) from a border or rim hex: the supply node.
        preds = []
        for h in edge:
            p = m.new_bool_var(f"exit_{src}_{h}")
            m.add(p <= lab.reach[h])
            m.add(off_lab >= lab.label[h] + 1 + B * mm.edge_cost(h)).only_enforce_if(p)
            preds.append(p)
        m.add(sum(preds) >= off_reach) if preds else m.add(off_reach == 0)
    for v in nodes:
        if v == src:
            continue
        preds = []
        for u in mm.nbrs[v]:
            if u not in lab.reach:
                continue
            p = m.new_bool_var(f"pred_{src}_{u}_{v}")
            m.add(p <= lab.reach[u])
            c = cost[u, v]
            m.add(lab.label[v] >= lab.label[u] + 1 + B * c).only_enforce_if(p)
            preds.append(p)
        if mm.edge_cost(v):  # entering from the supply (R26)
            p = m.new_bool_var(f"enter_{src}_{v}")
            m.add(p <= off_reach)
            m.add(lab.label[v] >= off_lab + 1 + B * mm.edge_cost(v)).only_enforce_if(p)
            preds.append(p)
        m.add(sum(preds) >= lab.reach[v]) if preds else m.add(lab.reach[v] == 0)
    return lab


def within_budget(b: Board, src: int, nodes: set[int]
                  ) -> tuple[dict[int, int], dict[int, int]]:
    """The hexes a walk from ``src`` (OFF: an entry) can reach for at most the budget's AP,
    with the fewest AP the walk can cost to get there, and the fewest AP of the walk and the
    tiles it needs together.

    A search over (hex, hexes taken as covered this turn so far, whether this one is): a
    covered hex is land of either terrain, so stepping on or off it is free; a step between two
    hexes as they are now costs 1 where their terrains differ (R27). A tile covers three hexes
    at most and costs 1 AP at least, so a path over ``w`` covered hexes leaves the turn
    ``ceil(w / 3)`` AP fewer: on a busy board nearly every hex may be covered, and without
    that charge every walk was free. Every prefix of a real walk is such a path (its hexes
    covered at the time taken as covered) at no more cost and no more covered hexes than its
    tiles cover, so nothing the model needs is left out."""
    s, mm, k = b.s, b.s.map, b.budget
    best: dict[tuple[int, int, bool], int] = {}
    heap: list[tuple[int, int, int, bool]] = []

    def push(c: int, h: int, w: int, wild: bool) -> None:
        if c + -(-w // 3) <= k and best.get((h, w, wild), k + 1) > c:
            best[h, w, wild] = c
            heapq.heappush(heap, (c, h, w, wild))

    def arrive(c: int, step: int, n: int, w: int) -> None:
        if s.level[n] > 0:
            push(c + step, n, w, False)
        if b.at.get(n):
            push(c, n, w + 1, True)

    push(0, src, 0, False)
    while heap:
        c, h, w, wild = heapq.heappop(heap)
        if best.get((h, w, wild)) != c:
            continue
        if h == OFF:
            for e in nodes:
                if mm.edge_cost(e):
                    arrive(c + mm.edge_cost(e), 0, e, w)
            continue
        if mm.edge_cost(h):
            push(c + mm.edge_cost(h), OFF, w, False)
        for n in mm.nbrs[h]:
            if n in nodes:
                differ = s.level[h] > 0 and s.level[n] > 0 and s.terrain[h] != s.terrain[n]
                arrive(c, 0 if wild else int(differ), n, w)
    least: dict[int, int] = {}
    laid: dict[int, int] = {}
    for (h, w, _), c in best.items():
        if h != OFF:
            least[h] = min(c, least.get(h, k + 1))
            laid[h] = min(c - (-w // 3), laid.get(h, k + 1))
    return least, laid


def build_reach(m: cp_model.CpModel, b: Board) -> Reach:
    s = b.s
    nodes = walkable(b)
    B = len(nodes) + 2
    top = B * (b.budget + 1)
    node_set = set(nodes)
    cost = _step_costs(m, b, node_set)
    r = Reach(B)
    off = s.players[s.to_move].developers_off
    r.entries = min(off, b.budget)
    if not isinstance(b.n_tiles, int):
        r.laid = m.new_int_var(0, b.budget, "tiles_laid")
        m.add(r.laid == b.n_tiles)
    for src in [*s.developers(s.to_move), *([OFF] if r.entries else [])]:
        least = within_budget(b, src, node_set)
        r.systems[src] = _system(m, b, src, nodes, least, cost, B, top)
    return r


__all__ = ["OFF", "Labels", "Reach", "build_reach", "walkable"]
