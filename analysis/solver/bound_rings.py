"""Who may hold the highest position on a pond's ring this turn, for the pond side of the
admissible bound (``bound_ponds.py``; R24–R27, R38): the mover's developers, each where his
own free path reaches (R27), now, across the bare hexes that the tiles covering the ring make
land, or with one tile more; and what that costs in tiles or a paid move. Every count is a
lower bound on what a real line spends."""

from __future__ import annotations

from collections.abc import Iterable

from analysis.solver.bound_view import best_key, component
from core.state import GameState


def bridged_reach(s: GameState) -> list[set[int]]:
    """Per developer of the mover, the hexes he can stand on after 0-AP moves (R27) with one
    tile more: across one stretch of up to three hexes that a single tile could make
    passable and give any terrain (a bridge; each developer may have his own; one of his own
    developers may step off it first), and over every bare hex, which covering tiles may make
    land of his terrain. Without tiles, ``Parts`` says where he walks.

    His walk without the bridge stays in one part of the hexes he may step on (his terrain
    or bare); the bridge's up to three hexes lead from that part to others. The parts are
    worked out once per terrain and shared by his developers (each used to flood the board
    alone: a tenth of the bound's time on the puzzles; ``tests/test_solver_bound.py`` keeps
    the flood as the reference)."""
    me = s.to_move
    level, terrain, dev, palace, irr, nbrs, kind = (s.level, s.terrain, s.dev, s.palace,
                                                    s.irrigated, s.map.nbrs, s.map.kind)
    passable = [not (palace[h] or irr[h] or (dev[h] >= 0 and dev[h] != me)) and kind[h] != 0
                for h in range(len(level))]
    parts: dict[int, tuple[list[int], list[set[int]]]] = {}
    each: list[set[int]] = []
    for start in s.map.hexes:
        if dev[start] != me:
            continue
        t = terrain[start]
        if t not in parts:
            parts[t] = _walk_parts(s, passable, t)
        label, members = parts[t]
        out: set[int] = set(members[label[start]]) if label[start] >= 0 else {start}
        if label[start] < 0:  # not a hex he may step onto: his walk starts next to it
            for n in nbrs[start]:
                if label[n] >= 0:
                    out |= members[label[n]]
        bridge: set[int] = set(out)  # where the bridge may begin, or has reached: its depth
        frontier = list(out)         # is what matters, so the parts beyond do not stop it
        for _ in range(3):  # the bridge: up to three hexes of any land
            frontier = list({n for h in frontier for n in nbrs[h] if passable[n] and n not in bridge})
            bridge.update(frontier)
            for h in frontier:  # off the bridge, on into any part next to it
                for n in nbrs[h]:
                    if label[n] >= 0 and n not in out:
                        out |= members[label[n]]
        out |= bridge
        each.append(out)
    return each


def _walk_parts(s: GameState, passable: list[bool], t: int) -> tuple[list[int], list[set[int]]]:
    """The parts a developer on terrain ``t`` walks in for free, bare hexes counted as his
    terrain: a label per hex (−1: not one he may step onto) and each part's hexes."""
    ok = {h for h in s.map.hexes if passable[h] and (s.level[h] == 0 or s.terrain[h] == t)}
    label = [-1] * len(s.level)
    members: list[set[int]] = []
    for h in s.map.hexes:
        if h in ok and label[h] < 0:
            part = component(h, ok, s.map.nbrs)
            for x in part:
                label[x] = len(members)
            members.append(part)
    return label, members


class Parts:
    """The mover's developers and the parts of the board they walk in for free (R27: land of
    one terrain, never over a palace, irrigation or an opponent's developer), for
    ``_covered_reach``."""

    def __init__(self, s: GameState) -> None:
        me = s.to_move
        level, terrain, dev, nbrs = s.level, s.terrain, s.dev, s.map.nbrs
        self.part = [-1] * len(level)
        self.terrain: list[int] = []
        self.starts: list[int] = []
        for h in s.map.hexes:
            if self.part[h] >= 0 or level[h] == 0 or s.palace[h] or s.irrigated[h] or dev[h] not in (-1, me):
                continue
            i = len(self.terrain)
            self.terrain.append(terrain[h])
            self.part[h] = i
            stack = [h]
            while stack:
                x = stack.pop()
                for n in nbrs[x]:
                    if (self.part[n] < 0 and level[n] > 0 and terrain[n] == terrain[h] and not s.palace[n]
                            and not s.irrigated[n] and dev[n] in (-1, me)):
                        self.part[n] = i
                        stack.append(n)
        self.starts = [self.part[h] for h in s.map.hexes if dev[h] == me]


def _covered_reach(s: GameState, parts: Parts, ring: list[int], bare: set[int]) -> list[set[int]]:
    """Per developer of the mover, the ring hexes he may stand on after free moves across
    hexes that the tiles covering ``bare`` may make land of his terrain: those tiles lie on
    level 0 (R12), on a bare hex and its level-0 neighbours only."""
    level, irr, nbrs, kind = s.level, s.irrigated, s.map.nbrs, s.map.kind
    foot = set(bare) | {n for h in bare for n in nbrs[h] if level[n] == 0 and not irr[n] and kind[n] != 0}
    part = parts.part
    touch: dict[int, set[int]] = {}  # part -> the footprint hexes next to it
    for f in foot:
        for n in nbrs[f]:
            if part[n] >= 0:
                touch.setdefault(part[n], set()).add(f)
    out: list[set[int]] = []
    for start in parts.starts:
        t = parts.terrain[start]
        seen_parts = {start}
        seen_foot = set(touch.get(start, ()))
        stack = list(seen_foot)
        while stack:
            for n in nbrs[stack.pop()]:
                if n in foot:
                    new = {n} - seen_foot
                elif part[n] >= 0 and parts.terrain[part[n]] == t and part[n] not in seen_parts:
                    seen_parts.add(part[n])
                    new = touch[part[n]] - seen_foot
                else:
                    continue
                seen_foot |= new
                stack.extend(new)
        out.append({h for h in ring if h in seen_foot or part[h] in seen_parts})
    return out


def _key(levels: dict[int, int], each: list[set[int]]) -> tuple[int, ...]:
    """His greatest rank key (R24) on hexes ``levels`` (hex -> level), one developer per hex,
    each standing only where his reach (``each``) allows: hexes taken highest first, each
    kept when the developers can be matched again (a matroid, so greedy is best)."""
    owner: dict[int, int] = {}  # developer -> hex

    def place(h: int, seen: set[int]) -> bool:
        for d, hexes in enumerate(each):
            if h in hexes and d not in seen:
                seen.add(d)
                if d not in owner or place(owner[d], seen):
                    owner[d] = h
                    return True
        return False

    return tuple(lv for h, lv in sorted(levels.items(), key=lambda x: -x[1]) if place(h, set()))


Reach = tuple[Parts, list[set[int]]]  # his free parts; his reach with a bridge and over bare hexes


def ring_class(s: GameState, ring: Iterable[int], reach: Reach) -> tuple[int, int]:
    """What the mover needs to hold the highest position on a ring (R24, R25: his key, one
    developer per hex, each where his own path reaches, must beat every opponent's key
    there), as ``(class, lifts)``:

    - 0: a free move now (R27);
    - 1: free moves across hexes that the tiles covering the bare ring make land (they lie
      on level 0, R12), so only those tiles, laid before the move;
    - 2: with one tile more, not covering the ring: a bridge anywhere, or one flat shape
      lifted a level, on land or on hexes the covering tiles made land (``_one_tile_wins``);
    - 3: two tiles more or a paid move.

    ``lifts``: tiles laid on land that a ring hex needs to reach the best opponent's first
    level, which his key must reach too (R24); a tile raises a hex one level, and one laid on
    level 0 may be one covering the ring, the others are more tiles."""
    me = s.to_move
    ring = list(ring)
    keys: dict[int, list[int]] = {}
    for h in ring:
        if s.dev[h] >= 0 and s.dev[h] != me:
            keys.setdefault(s.dev[h], []).append(s.level[h])
    best = best_key(keys)
    free = [h for h in ring if s.dev[h] < 0 or s.dev[h] == me]
    parts, one = reach
    now = [{h for h in free if parts.part[h] == start} for start in parts.starts]  # R27: his free part
    if _key({h: s.level[h] for h in free if s.level[h] > 0}, now) > best:
        return 0, 0
    covered = _covered_reach(s, parts, free, {h for h in ring if s.level[h] == 0})
    if _key({h: max(s.level[h], 1) for h in free if any(h in r for r in covered)}, covered) > best:
        return 1, 0
    top = best[0] if best else 1
    lifts = min((max(0, top - max(s.level[h], 1)) for h in free if not s.palace[h] and not s.irrigated[h]),
                default=0)
    if _one_tile_wins(s, [h for h in free if any(h in r for r in one)], best, one):
        return 2, lifts
    return 3, lifts


def _one_tile_wins(s: GameState, hexes: list[int], best: tuple[int, ...], each: list[set[int]]) -> bool:
    """Whether one tile may give his key on ``hexes`` (ring hexes he may reach with it, each
    developer as far as ``each`` says) more than ``best`` (R24, R25). Tiles covering the bare
    ring lie on level 0 (R12), so they lift bare hexes to 1 and nothing else: every bare hex
    counts as 1. Hexes rise higher only under a tile laid on land (a bare hex covered first
    counts as land on level 1): one tile, flat, lifts the ring hexes of one single, pair or
    triangle of his supplies one level (R10, R12), none under a palace, irrigation or an
    opponent (R11)."""
    level = s.level
    base = {h: max(level[h], 1) for h in hexes}
    devs = len(each)

    def wins(up: Iterable[int]) -> bool:
        lv = dict(base)
        for h in up:
            if h in lv:
                lv[h] += 1
        if tuple(sorted(lv.values(), reverse=True)[:devs]) <= best:
            return False  # not even with every developer anywhere
        return _key(lv, each) > best

    if not base:
        return False
    if wins(()):
        return True
    me = s.players[s.to_move]
    tris, pairs = s.map.tris_at, s.map.partners
    shapes: list[tuple[int, ...]] = []
    for h in hexes:
        if me.villages + me.rice and s.map.is_central(h):
            shapes.append((h,))
        if me.doubles:
            shapes += [(h, x) for x in pairs[h]]
        if s.triples:
            shapes += tris[h]
    for shape in shapes:
        # A bare hex may lie on level 1 by then, under a covering tile.
        lv = max(1, max(level[x] for x in shape))
        if all((level[x] == lv or level[x] == 0 and lv == 1) and not s.palace[x] and not s.irrigated[x]
               and s.dev[x] in (-1, s.to_move) for x in shape) and wins(shape):
            return True
    return False


def holder_routes(tiles: int, cls: int, lifts: int, irrigations: int) -> list[tuple[int, int]]:
    """(land tiles in all, paid arrival) for each way to win a ring of class ``cls`` with
    ``lifts`` (``ring_class``) that ``tiles`` close: class 1 needs a covering tile before
    the move and the move before the enclosing placement, which may be an irrigation (with
    none, that covering tile is not the last, so a ring of one tile needs one more); class 2
    one tile more; class 3 two more, or a paid move (R26, R27). Lifts add to the tiles."""
    if cls == 0:
        return [(0, 0)]
    if cls == 1:
        return [(max(tiles, 1 if irrigations or tiles == 0 else 2), 0), (0, 1)]
    more = 1 if cls == 2 else max(2, lifts)
    return [(tiles + more, 0), (tiles + lifts, 1)]
