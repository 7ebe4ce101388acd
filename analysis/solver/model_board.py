"""The board part of the turn model (issue 21): tiles with their stacking, irrigations, levels.

Every tile placement the board allows is a set of booleans ``y[p, j]``: placement ``p`` lies at
height ``j`` (the level of its hexes when it is laid). Stacking is exact without a step index:
on each hex at most one new tile per height, and a tile at height ``j`` needs one at ``j - 1``
on each of its hexes that started lower (``at[h][l] <= at[h][l - 1]``). Laying the tiles by
increasing height is then always an order in which each lies flat (R12); R13 is checked against
the tile below (an initial tile, or one of this turn); R14's overhang is paid by tiles at
height 0 on rim hexes. Irrigations (R37) take bare hexes that no tile covers.

What the model leaves out here only ever allows more (a relaxation): the mover's own developers
and palaces built this turn do not block tiles (R11), and R15 (two cities joined) is not asked.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from analysis.solver.ortools_cp import cp_model
from core.actions import RICE, VILLAGE, Tile
from core.hexmap import PRINTED_IRRIGATION
from core.state import GameState

# OR-Tools types its operator overloads loosely; expressions are typed as Any here.
LinearExpr = Any


@dataclass
class Placement:
    """One way to lay a tile: its cells, the heights it may lie at and its kind of supply."""

    tile: Tile
    heights: list[int]
    kind: str  # "3", "2", "1r", "1v": the supply it takes (R10)
    rim0: int  # hexes on the rim at level 0: each costs 1 AP more at height 0 (R14)

    @property
    def village(self) -> int:
        return next((h for h, t in self.tile.cells if t == VILLAGE), -1)


@dataclass
class Board:
    """The variables of the board part and the expressions the scoring part reads."""

    s: GameState
    budget: int
    placements: list[Placement] = field(default_factory=list)
    y: dict[tuple[int, int], cp_model.IntVar] = field(default_factory=dict)
    at: dict[int, list[LinearExpr]] = field(default_factory=dict)  # h -> [tiles at L0, L0+1, ..]
    irr: dict[int, cp_model.IntVar] = field(default_factory=dict)
    vcell: dict[int, list[cp_model.IntVar]] = field(default_factory=dict)  # village cells on h
    vcell_at: dict[int, list[tuple[int, cp_model.IntVar]]] = field(default_factory=dict)
    rcell: dict[int, list[cp_model.IntVar]] = field(default_factory=dict)  # rice cells on h
    tiles_ap: LinearExpr = 0
    n_tiles: LinearExpr = 0

    def l0(self, h: int) -> int:
        return self.s.level[h]

    def cov(self, h: int) -> LinearExpr:
        """1 when a tile is laid on ``h`` this turn (the lowest new one lies at L0)."""
        col = self.at.get(h)
        return col[0] if col else 0

    def land(self, h: int) -> LinearExpr | int:
        """1 when ``h`` is land at the end of the turn (tiles are never removed)."""
        return 1 if self.s.level[h] > 0 else self.cov(h)

    def at_least(self, h: int, lv: int) -> LinearExpr | int:
        """1 when the final level of ``h`` is ``lv`` or more (levels only grow in a turn)."""
        l0 = self.s.level[h]
        if lv <= l0:
            return 1
        col = self.at.get(h, [])
        k = lv - l0 - 1
        return col[k] if k < len(col) else 0

    def village_from(self, h: int, lv: int) -> LinearExpr | int:
        """How many of this turn's village cells on ``h`` lie at level ``lv`` or higher: a
        developer standing in a village group above ``h``'s level now stands on one (R20)."""
        terms = [v for j, v in self.vcell_at.get(h, []) if j + 1 >= lv]
        return sum(terms) if terms else 0

    def max_level(self, h: int) -> int:
        return self.s.level[h] + len(self.at.get(h, []))

    def irrigated(self, h: int) -> LinearExpr | int:
        if self.s.irrigated[h]:
            return 1
        v = self.irr.get(h)
        return 0 if v is None else v


def _blocked(s: GameState, h: int) -> bool:
    """R11 for what cannot change this turn: irrigation, an opponent's developer, a palace."""
    if s.irrigated[h] or s.map.kind[h] == PRINTED_IRRIGATION:
        return True
    if s.palace[h]:
        return True
    return s.dev[h] >= 0 and s.dev[h] != s.to_move


def _heights(s: GameState, hexes: tuple[int, ...], budget: int) -> list[int]:
    """Heights a tile on ``hexes`` may lie at: each hex needs ``j - L0`` tiles below it, each a
    tile of its own (one AP at least), so ``j < min L0 + budget``."""
    lv = [s.level[h] for h in hexes]
    lo, hi = max(lv), min(lv) + budget - 1
    return list(range(lo, hi + 1))


def _shapes(s: GameState) -> list[tuple[Tile, str]]:
    m = s.map
    me = s.players[s.to_move]
    out: list[tuple[Tile, str]] = []
    if s.triples > 0:
        for a, b, c in m.triangles:
            for v in (a, b, c):
                out.append((Tile(tuple((h, VILLAGE if h == v else RICE) for h in (a, b, c))), "3"))
    if me.doubles > 0:
        for a, b in m.pairs:
            out.append((Tile(((a, VILLAGE), (b, RICE))), "2"))
            out.append((Tile(((b, VILLAGE), (a, RICE))), "2"))
    for h in m.central:
        if me.rice > 0:
            out.append((Tile(((h, RICE),)), "1r"))
        if me.villages > 0:
            out.append((Tile(((h, VILLAGE),)), "1v"))
    return out


def _exactly_on(s: GameState, tile: Tile) -> bool:
    """R13 against the tiles showing now: the placement lies exactly on one tile of its size."""
    tops = {s.top[h] for h in tile.hexes}
    if len(tops) != 1:
        return False
    t = next(iter(tops))
    return t >= 0 and len(s.tiles[t]) == tile.size and {h for h, _ in s.tiles[t]} == set(tile.hexes)


def build_board(m: cp_model.CpModel, s: GameState, budget: int) -> Board:
    """Tile and irrigation variables with the stacking, supply and AP expressions."""
    b = Board(s, budget)
    mm = s.map
    cols: dict[int, dict[int, list[cp_model.IntVar]]] = {}
    ap_terms: list[LinearExpr] = []
    by_kind: dict[str, list[cp_model.IntVar]] = {"3": [], "2": [], "1r": [], "1v": []}
    same: dict[tuple[frozenset[int], int, int], list[cp_model.IntVar]] = {}
    for tile, kind in _shapes(s):
        hexes = tile.hexes
        if any(_blocked(s, h) for h in hexes):
            continue
        if not any(mm.is_central(h) for h in hexes):
            continue  # R14
        rim0 = sum(1 for h in hexes if not mm.is_central(h) and s.level[h] == 0)
        hs = [j for j in _heights(s, hexes, budget) if not (j == 0 and 1 + rim0 > budget)]
        if not hs:
            continue
        p = Placement(tile, hs, kind, rim0)
        pi = len(b.placements)
        b.placements.append(p)
        for j in hs:
            flat_now = all(s.level[h] == j for h in hexes)
            if flat_now and _exactly_on(s, tile):
                continue  # R13 on the initial board
            v = m.new_bool_var(f"tile_{tile}_h{j}".replace(" ", "_"))
            b.y[pi, j] = v
            by_kind[kind].append(v)
            ap_terms.append((1 + (rim0 if j == 0 else 0)) * v)
            for h in hexes:
                cols.setdefault(h, {}).setdefault(j, []).append(v)
            for h, terr in tile.cells:
                if terr == RICE:
                    b.rcell.setdefault(h, []).append(v)
            if p.village >= 0:
                b.vcell.setdefault(p.village, []).append(v)
                b.vcell_at.setdefault(p.village, []).append((j, v))
            same.setdefault((frozenset(hexes), tile.size, j), []).append(v)
    # Stacking (R12): at most one new tile per hex and height, none above a gap.
    for h, by_h in cols.items():
        l0 = s.level[h]
        top = max(by_h)
        col: list[LinearExpr] = []
        for lv in range(l0, top + 1):
            terms = by_h.get(lv, [])
            e = sum(terms) if terms else 0
            if len(terms) > 1:
                m.add(e <= 1)
            if col and terms:
                m.add(e <= col[-1])
            col.append(e)
        while col and isinstance(col[-1], int):
            col.pop()
        b.at[h] = col
    # R13 on a tile laid this turn: not exactly on one of its size.
    for (key, size, j), vs in same.items():
        below = same.get((key, size, j - 1))
        if below:
            m.add(sum(vs) + sum(below) <= 1)
    # Supplies (R10).
    me = s.players[s.to_move]
    for kind, cap in (("3", s.triples), ("2", me.doubles), ("1r", me.rice), ("1v", me.villages)):
        if len(by_kind[kind]) > cap:
            m.add(sum(by_kind[kind]) <= cap)
    # Irrigation (R37): a bare central space that is no border space and that no tile covers.
    if s.irrigation_supply > 0:
        for h in mm.central:
            if s.level[h] == 0 and not s.irrigated[h] and not mm.border_cost[h] \
                    and mm.kind[h] != PRINTED_IRRIGATION:
                v = m.new_bool_var(f"irrigate_{h}")
                b.irr[h] = v
                m.add(v + b.cov(h) <= 1)
        if len(b.irr) > s.irrigation_supply:
            m.add(sum(b.irr.values()) <= s.irrigation_supply)
    b.tiles_ap = sum(ap_terms) if ap_terms else 0
    b.n_tiles = sum(b.y.values()) if b.y else 0
    return b


__all__ = ["Board", "Placement", "build_board"]
