"""Where the mover's developers can be, and what getting there costs (R26, R27), in the model.

Each developer on the board, and the off-board supply (entries, R26), gets distance labels on
the hexes it may walk: a hex is reached through one chosen neighbour (``pred``), and its label
is at least that neighbour's plus the step's cost. A step costs 1 where the two hexes' terrains
differ, unless a tile of this turn covers one of them (its terrain may then be either: the model
lets it be free); a hex is walkable when it is land now or a tile covers it. Labels count hops
too (``B * AP + hops``), so no loop of free steps can reach a hex the developer cannot. A
developer may also leave the board at a border or rim hex and enter again elsewhere (R27).

A developer's walk over the turn costs at least the label of every hex it stands on at a scoring
moment, so ``cost[i] >= label`` there; tiles laid after it passed, palaces built this turn and
irrigations are not obstacles here, and paths may pass the mover's own developers (R27): all of
which only lets more lines through (a relaxation).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ortools.sat.python import cp_model

from analysis.solver.model_board import Board
from core.hexmap import PRINTED_IRRIGATION

OFF = -1  # the off-board node of a label system


@dataclass
class Labels:
    """One developer's (or the supply's) reach: ``reach[h]``, ``label[h]`` and its AP ``cost``."""

    source: int  # hex of the developer, or OFF for the supply
    reach: dict[int, cp_model.IntVar] = field(default_factory=dict)
    label: dict[int, cp_model.IntVar] = field(default_factory=dict)


@dataclass
class Reach:
    """Label systems per source; devs: on-board hexes of the mover; entered: how many may come."""

    B: int
    systems: dict[int, Labels] = field(default_factory=dict)
    entries: int = 0


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


def _step_costs(m: cp_model.CpModel, b: Board, nodes: set[int]) -> dict[tuple[int, int], object]:
    """1 (as a variable) where the terrains differ and no tile of this turn covers either hex."""
    s = b.s
    cost: dict[tuple[int, int], object] = {}
    for u in nodes:
        for v in s.map.nbrs[u]:
            if v not in nodes or (v, u) in cost:
                continue
            if s.level[u] == 0 or s.level[v] == 0 or s.terrain[u] == s.terrain[v]:
                c: object = 0
            else:
                cu, cv = b.cov(u), b.cov(v)
                if isinstance(cu, int) and isinstance(cv, int):
                    c = 1
                else:
                    c = m.new_bool_var(f"step_cost_{u}_{v}")
                    m.add(c >= 1 - cu - cv)  # type: ignore[operator]
            cost[u, v] = cost[v, u] = c
    return cost


def _system(m: cp_model.CpModel, b: Board, src: int, nodes: list[int], cost: dict, B: int,
            top: int) -> Labels:
    s = b.s
    mm = s.map
    lab = Labels(src)
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
            m.add(lab.label[v] >= lab.label[u] + 1 + B * c).only_enforce_if(p)  # type: ignore[operator]
            preds.append(p)
        if mm.edge_cost(v):  # entering from the supply (R26)
            p = m.new_bool_var(f"enter_{src}_{v}")
            m.add(p <= off_reach)
            m.add(lab.label[v] >= off_lab + 1 + B * mm.edge_cost(v)).only_enforce_if(p)
            preds.append(p)
        m.add(sum(preds) >= lab.reach[v]) if preds else m.add(lab.reach[v] == 0)
    return lab


def build_reach(m: cp_model.CpModel, b: Board) -> Reach:
    s = b.s
    nodes = walkable(b)
    node_set = set(nodes)
    B = len(nodes) + 2
    top = B * (b.budget + 1)
    cost = _step_costs(m, b, node_set)
    r = Reach(B)
    for h in s.developers(s.to_move):
        r.systems[h] = _system(m, b, h, nodes, cost, B, top)
    off = s.players[s.to_move].developers_off
    r.entries = min(off, b.budget)
    if r.entries:
        r.systems[OFF] = _system(m, b, OFF, nodes, cost, B, top)
    return r


__all__ = ["OFF", "Labels", "Reach", "build_reach", "walkable"]
