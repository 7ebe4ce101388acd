"""An admissible upper bound on the points the mover can still score this turn.

Used by branch and bound to prune and by the CP-SAT engine's proof. Every term over-estimates:

- palaces (R28, R29): each palace action costs 1 AP and earns half its value. In a group where
  the mover holds the highest position now it is one action; anywhere else the mover must first
  change the ranking or the group (a developer in, a tile), so at least 2 AP. A value is never
  above the supply's largest piece, nor above every village hex on the board plus one per tile.
- ponds (R38): a pond can be enclosed only if its bare neighbours can be covered, at most 3 per
  AP; it then pays 3 per space at most once. Each irrigation (1 AP) adds at most one space.
- festival (R30–R34): at most half the largest palace value, for 0 AP.
A small multiple-choice knapsack over these options with the AP left gives the bound.
"""

from __future__ import annotations

from core.actions import VILLAGE
from core.groups import all_ponds, pond_ring
from core.legality import PALACE_VALUES
from core.state import GameState


def _value_cap(s: GameState, ap: int) -> int:
    villages = sum(1 for h in s.map.hexes if s.terrain[h] == VILLAGE and s.level[h] > 0)
    top = max((v for v in PALACE_VALUES if s.palace_supply[v] > 0), default=0)
    return min(top, villages + ap)


def _max_cover(s: GameState, bare: set[int]) -> int:
    """Most of these bare hexes one tile can cover: shapes of level-0 free hexes only (R12);
    bare hexes never carry developers or palaces, and stay coverable by a single at best."""
    if len(bare) <= 1:
        return 1
    me = s.players[s.to_move]
    best = 1
    ok = [h for h in s.map.hexes if s.level[h] == 0 and not s.irrigated[h]]
    flat = set(ok)
    if me.doubles > 0:
        for a, b in s.map.pairs:
            if a in flat and b in flat and a in bare and b in bare:
                best = 2
                break
    if s.triples > 0:
        for tri in s.map.triangles:
            k = sum(1 for h in tri if h in bare)
            if k > best and all(h in flat for h in tri):
                best = k
                if best == 3:
                    break
            elif k == 2 and best < 2 and all(h in flat for h in tri):
                best = 2
    return best


def _palace_options(s: GameState, ap: int, cap: int) -> list[list[tuple[int, int]]]:
    """For each village group, the (AP cost, value) options of one palace action there (R28,
    R29); the knapsack takes at most one option per group.

    With ``k`` tiles the group grows by at most ``k`` village hexes plus every group within
    ``k + 1`` steps (joined by those hexes; R15 forbids joining two cities). The palace costs
    1 AP; a group without a developer of the mover also needs him in: 1 more AP, unless one of
    the ``k`` tiles brings him (a tile joining his developer's group). A developer already in
    the group may climb inside it for 0 AP (R27). A group of 4+ hexes may be split (R23) for a
    second palace; a group made from nothing needs 2 tiles, a developer and the palace.
    """
    from core.hexmap import axial_distance

    me = s.to_move
    g = s.groups()
    changed = set(s.turn.palaces_changed)
    out: list[list[tuple[int, int]]] = []
    n = len(g.members)
    for gi, members in enumerate(g.members):
        ph = g.palace[gi]
        old = s.palace[ph] if ph >= 0 else 0
        if ph >= 0 and ph in changed:
            old = 99  # this palace changed this turn already (R29)
        has_dev = any(s.dev[h] == me for h in members)
        near: list[tuple[int, int]] = []  # (tiles needed to join, size)
        if ap >= 2:
            for gj in range(n):
                if gj == gi or (ph >= 0 and g.palace[gj] >= 0):
                    continue
                other = g.members[gj]
                d = min(axial_distance(a, b) for a in members for b in other)
                if d - 1 <= ap:
                    near.append((d - 1, len(other)))
        opts = []
        for k in range(ap):
            cost = 1 + (k if has_dev else max(1, k))
            if cost > ap:
                break
            size = len(members) + k + sum(sz for need, sz in near if need <= k)
            v = min(cap, size)
            v -= v % 2
            if v > old and v >= 2:
                opts.append((cost, v))
        if opts:
            out.append(opts)
        if len(members) >= 4:
            second = []
            for k in range(1, ap):
                cost = 1 + k + (0 if has_dev else 1)
                v = min(cap, len(members) - 2 + k)
                v -= v % 2
                if cost <= ap and v >= 2:
                    second.append((cost, v))
            if second:
                out.append(second)
    for _ in range(4, ap + 1, 4):
        opts = []
        for cost in range(4, ap + 1):
            v = min(cap, 2 + cost - 4)
            v -= v % 2
            if v >= 2:
                opts.append((cost, v))
        out.append(opts)
    return out


def _free_reach(s: GameState) -> set[int]:
    """Hexes where one of the mover's developers stands or can stand for 0 AP (R27)."""
    from core.paths import move_costs

    me = s.to_move
    out: set[int] = set()
    for h in s.map.hexes:
        if s.dev[h] == me and h not in out:
            out.update(move_costs(h, me, s.level, s.terrain, s.dev, s.palace, s.map.nbrs, 0))
    return out


def upper_bound(s: GameState, ap: int | None = None, festivals: bool = True) -> int:
    """Most points the mover could still score with ``ap`` AP (default: AP left, no token)."""
    if ap is None:
        ap = s.turn.ap
    me = s.to_move
    cap = _value_cap(s, ap)
    choices: list[list[tuple[int, int]]] = []  # per opportunity: (cost, points) options
    top_value = 0  # the largest palace value the options could reach (for the festival term)
    if ap >= 1 and cap >= 2:
        for opts in _palace_options(s, ap, cap):
            choices.append([(c, v // 2) for c, v in opts])
            top_value = max([top_value, *(v for _, v in opts)])
    pond_points, pond_cost = 0, 99
    if ap >= 1:
        free = _free_reach(s)
        for pond in all_ponds(s.map.hexes, s.irrigated, s.map.nbrs):
            ring = pond_ring(pond, s.map.nbrs)
            bare = sum(1 for h in ring if s.level[h] == 0)
            if bare == 0:
                continue  # enclosed already: scored once, ever (R38)
            need = -(-bare // _max_cover(s, {h for h in ring if s.level[h] == 0}))
            if not free & set(ring):
                need += 1  # no developer of his can stand there for free: ≥ 1 AP to get one in
            if need <= ap:
                pond_points += 3 * len(pond)
                pond_cost = min(pond_cost, need)
        if pond_points:
            choices.append([(pond_cost, pond_points)])
        for _ in range(min(ap, s.irrigation_supply)):
            choices.append([(1, 3)])
    best = [0] * (ap + 1)
    for opts in choices:
        nxt = list(best)
        for cost, pts in opts:
            for b in range(cost, ap + 1):
                nxt[b] = max(nxt[b], best[b - cost] + pts)
        best = nxt
    fest = 0
    if festivals:
        from analysis.solver.common import festival_live
        from core.festival import matching

        hand_ok = bool(matching(s.players[me].hand, s.face_up))
        if festival_live() and (hand_ok or (ap >= 1 and s.turn.cards_drawn < 2)):
            cities = [s.palace[h] for h in s.map.hexes if s.palace[h] and not s.fest[h]]
            fest = max([*cities, top_value], default=0) // 2
    return best[ap] + fest
