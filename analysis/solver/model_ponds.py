"""Ponds in the turn model (R37, R38): which are enclosed at the end, and who holds their ring.

A pond enclosed during the turn stays the pond it was at that moment (it has no bare neighbour
left to grow into), so the ponds the turn encloses are exactly the final ponds that are enclosed
at the end and were not at the start. ``enc[g]`` says an irrigated hex ``g`` lies in such a pond:
no bare neighbour, and every irrigated neighbour enclosed too, which makes ``enc`` exact given
the final board. A pond space scores 3 to the mover (``hold[g]``) only where his key beats every
opponent's on the ring: opponents on the ring of the pond as it is now (they cannot leave it,
nor can irrigation take their hexes), or next to a space irrigated this turn; the mover may
stand on any hex that is on the ring or next to a space irrigated this turn.
"""

from __future__ import annotations

from analysis.solver.model_board import Board, LinearExpr
from analysis.solver.model_keys import Devs, beats, counts_of, snapshot
from analysis.solver.model_reach import Reach
from analysis.solver.ortools_cp import cp_model
from core.groups import all_ponds, pond_ring


def _clusters(b: Board, ponds: list[list[int]]) -> list[set[int]]:
    """Water that may become one pond: open ponds and the spaces irrigable beside them."""
    s = b.s
    water = {h for p in ponds for h in p} | set(b.irr)
    seen: set[int] = set()
    out = []
    for h in water:
        if h in seen:
            continue
        comp = {h}
        stack = [h]
        while stack:
            x = stack.pop()
            for n in s.map.nbrs[x]:
                if n in water and n not in comp:
                    comp.add(n)
                    stack.append(n)
        seen |= comp
        out.append(comp)
    return out


def _opponent_key(b: Board, hexes: set[int], levels: int) -> list[list[LinearExpr | int]]:
    s = b.s
    by: dict[int, list[tuple[int, LinearExpr | int]]] = {}
    for h in hexes:
        o = s.dev[h]
        if o >= 0 and o != s.to_move:
            by.setdefault(o, []).append((s.level[h], 1))
    return [counts_of(v, levels)[0] for v in by.values()]  # constants: no caps needed


def _win(m: cp_model.CpModel, mine: list[LinearExpr], against: set[int], b: Board, levels: int,
         name: str) -> cp_model.IntVar:
    """1 only when the mover's counts beat every opponent standing on ``against``."""
    keys = _opponent_key(b, against, levels)
    wins = [beats(m, mine, k, f"{name}_vs{i}") for i, k in enumerate(keys)]
    if not keys:
        wins = [beats(m, mine, [0] * levels, f"{name}_alone")]
    if len(wins) == 1:
        return wins[0]
    w = m.new_bool_var(name)
    for x in wins:
        m.add(w <= x)
    return w


def _zone(b: Board, cl: set[int], ring_all: set[int], ring: set[int],
          new_irr: list[cp_model.IntVar]) -> dict[int, LinearExpr | int]:
    """Hexes on which a developer may count for a pond of cluster ``cl``: its ring now
    (``ring``), else a hex next to a space irrigated this turn, else next to another pond of
    the cluster, which only an irrigation can join to it."""
    nbrs = b.s.map.nbrs
    zone: dict[int, LinearExpr | int] = {}
    for z in ring_all:
        if z in ring:
            zone[z] = 1
            continue
        wet_nb = [g for g in nbrs[z] if g in cl]
        if any(b.s.irrigated[g] for g in wet_nb):
            zone[z] = sum(new_irr) if new_irr else 0
        else:
            zone[z] = sum(b.irr[g] for g in wet_nb if g in b.irr)
    return zone


def _closer(m: cp_model.CpModel, b: Board, on: dict[int, LinearExpr], near: set[int],
            new_irr: list[cp_model.IntVar], win: cp_model.IntVar, name: str) -> None:
    """The action that encloses a pond open now (its ring has a bare hex): a tile laid on a bare
    hex of the ring or of the water beside it (``near``, at height 0), or an irrigation. No
    developer stands on the closing tile's
    hexes at that moment (they were covered by it, R11), so none counts there."""
    s = b.s
    bare = {z for z in near if s.level[z] == 0 and not s.irrigated[z]}
    lits: list[cp_model.IntVar] = []
    for (pi, j), y in b.y.items():
        if j != 0:
            continue
        hexes = b.placements[pi].tile.hexes
        if not bare.intersection(hexes):
            continue
        c = m.new_bool_var(f"{name}_closed_by_{pi}")
        m.add(c <= y)
        for z in hexes:
            if z in on:
                m.add(on[z] + c <= 1)
        lits.append(c)
    lits.extend(new_irr)
    m.add(sum(lits) >= win) if lits else m.add(win == 0)


def pond_points(m: cp_model.CpModel, b: Board, r: Reach, d: Devs) -> LinearExpr:
    """3 per pond space the turn encloses and the mover holds (R38)."""
    s = b.s
    nbrs = s.map.nbrs
    ponds = [p for p in all_ponds(s.map.hexes, s.irrigated, nbrs)
             if any(s.level[h] == 0 for h in pond_ring(p, nbrs))]
    terms: list[LinearExpr] = []
    for ci, cl in enumerate(_clusters(b, ponds)):
        enc: dict[int, cp_model.IntVar] = {g: m.new_bool_var(f"enclosed_{g}") for g in cl}
        for g, e in enc.items():
            wet = b.irrigated(g)
            if not isinstance(wet, int):
                m.add(e <= wet)
            for n in nbrs[g]:
                if n in cl:
                    dry = b.land(n) + b.irrigated(n)
                    m.add(e <= dry)
                    wn = b.irrigated(n)
                    m.add(enc[n] >= e + wn - 1)
                else:
                    land = b.land(n)
                    if isinstance(land, int):
                        if not land:
                            m.add(e == 0)
                    else:
                        m.add(e <= land)
        # Hexes a pond of the cluster may have on its ring at its enclosure: the land around
        # the cluster and the irrigable hexes in it, which a tile may make land (R38).
        ring_all = {n for g in cl for n in nbrs[g] if n not in cl}
        ring_all |= {g for g in cl if not s.irrigated[g]}
        levels = max((b.max_level(h) for h in ring_all), default=0)
        if levels == 0:
            continue
        own = [p for p in ponds if p[0] in cl]
        new_irr = [b.irr[g] for g in cl if g in b.irr]
        for pi, p in enumerate(own):
            ring = set(pond_ring(p, nbrs))
            zone = _zone(b, cl, ring_all, ring, new_irr)
            snap = snapshot(m, b, r, d, f"pond{ci}_{pi}", zone, levels)
            win = _win(m, snap.counts, ring, b, levels, f"pond{ci}_{pi}_held")
            _closer(m, b, snap.on, set(zone) | cl, new_irr, win, f"pond{ci}_{pi}")
            for g in p:
                hold = m.new_bool_var(f"pond_space_{g}_scored")
                m.add(hold <= enc[g])
                m.add(hold <= win)
                terms.append(3 * hold)
        # Ponds made of this turn's irrigation only: each is enclosed at a moment of its own
        # and takes one irrigation at least, so as many slots as irrigations can be laid.
        wet = [g for g in cl if g in b.irr]
        slots = min(len(wet), b.budget, s.irrigation_supply)
        zone = _zone(b, cl, ring_all, set(), new_irr)
        snaps = [snapshot(m, b, r, d, f"new_pond{ci}_{k}", zone, levels).counts
                 for k in range(slots)]
        # E-hexes whose neighbours hold the same opponents share one comparison per slot.
        wins: dict[tuple[tuple[int, int], ...], list[cp_model.IntVar]] = {}
        for g in wet:
            sig = tuple(sorted((s.dev[n], s.level[n]) for n in nbrs[g]
                               if s.dev[n] >= 0 and s.dev[n] != s.to_move))
            if sig not in wins:
                wins[sig] = [_win(m, mine, set(nbrs[g]), b, levels, f"new_pond_{g}_slot{k}_held")
                             for k, mine in enumerate(snaps)]
            hold = m.new_bool_var(f"pond_space_{g}_scored")
            m.add(hold <= enc[g])
            m.add(hold <= sum(wins[sig]))
            terms.append(3 * hold)
    return sum(terms) if terms else 0


__all__ = ["pond_points"]
