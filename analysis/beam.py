"""A beam search over the actions of one turn, scored by a position evaluation.

The computer players plan a whole turn at once: from the position, every legal action is tried
(push / evaluate / pop), the ``width`` best distinct positions are kept, and so on until the AP
are spent (R7) or nothing improves. Tile placements are the bulk of the moves (R10–R15), so
only those touching something that matters (developers, villages, ponds) are all tried, plus a
seeded sample of the rest. A line is only returned where the turn may end (R8); a festival
(R30) ends it by itself.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from core.actions import (
    RICE,
    VILLAGE,
    Action,
    Agree,
    Bid,
    Draw,
    Enter,
    Exit,
    Festival,
    Irrigate,
    Move,
    Palace,
    Pass,
    Tile,
    Token,
)
from core.errors import IllegalAction
from core.groups import all_ponds, pond_ring
from core.hexmap import PRINTED_IRRIGATION
from core.legality import PALACE_VALUES, ring_holder
from core.paths import move_costs
from core.state import GameState

Score = Callable[[GameState], float]


@dataclass
class Plan:
    line: list[Action]  # excluding the closing ``end``; may end with a festival
    value: float
    nodes: int


def board_key(s: GameState) -> int:
    """A hash of everything a turn can change, to merge transpositions and key plan caches."""
    t = s.turn
    return hash((
        s.to_move, tuple(s.dev), tuple(s.level), tuple(s.terrain), tuple(s.palace),
        tuple(s.irrigated), t.ap, t.token_used, t.tile_placed, t.cards_drawn,
        tuple(p.score for p in s.players), tuple(len(p.hand) for p in s.players),
        s.face_up, len(s.deck), s.festival,
    ))


def interesting_hexes(s: GameState) -> set[int]:
    """Hexes where a tile changes something: next to developers, villages and ponds."""
    nbrs = s.map.nbrs
    out: set[int] = set()
    g = s.groups()
    for h in s.map.hexes:
        if s.dev[h] >= 0 or g.label[h] >= 0:
            out.add(h)
            out.update(nbrs[h])
    for pond in all_ponds(s.map.hexes, s.irrigated, nbrs):
        out.update(pond_ring(pond, nbrs))
    return out


def _orientations(shape: tuple[int, ...]) -> list[Tile]:
    """The tiles a shape can carry: its village on each hex, rice on the rest (R10)."""
    out = []
    for v in shape:
        out.append(Tile(tuple((h, VILLAGE if h == v else RICE) for h in shape)))
    return out


def tile_candidates(s: GameState, rng: random.Random, tile_cap: int) -> list[Tile]:
    """Tiles touching interesting hexes (all of them, capped) plus a sample of the rest.

    Only cheap filters run here (R11, R12, supplies); ``push`` has the last word on legality.
    """
    p = s.players[s.to_move]
    m = s.map
    level, dev, pal, irr = s.level, s.dev, s.palace, s.irrigated
    hot = interesting_hexes(s)
    per_hex = m.shapes_at

    def free(h: int) -> bool:
        return not irr[h] and dev[h] < 0 and not pal[h] and m.kind[h] != PRINTED_IRRIGATION

    def usable(shape: tuple[int, ...]) -> bool:
        if len(shape) == 3 and s.triples <= 0 or len(shape) == 2 and p.doubles <= 0:
            return False
        return all(free(h) for h in shape) and len({level[h] for h in shape}) == 1

    near: set[tuple[int, ...]] = set()
    for h in hot:
        if free(h):
            if m.is_central(h) and (p.rice > 0 or p.villages > 0):
                near.add((h,))
            near.update(sh for sh in per_hex[h] if usable(sh))
    chosen = sorted(near)
    if len(chosen) > tile_cap:
        chosen = rng.sample(chosen, tile_cap)
    pool = m.triangles if s.triples > 0 else m.pairs
    far = [sh for sh in rng.sample(pool, min(len(pool), 3 * tile_cap // 4)) if sh not in near]
    chosen += [sh for sh in far if usable(sh)][: max(6, tile_cap // 4)]
    tiles: list[Tile] = []
    for sh in chosen:
        if len(sh) == 1:
            if p.rice > 0:
                tiles.append(Tile(((sh[0], RICE),)))
            if p.villages > 0:
                tiles.append(Tile(((sh[0], VILLAGE),)))
        else:
            tiles.extend(_orientations(sh))
    return tiles


def other_actions(s: GameState) -> Iterator[Action]:
    """Every action but tiles and ``end`` that the rules may allow now (R7, R26–R30, R36, R37),
    without the R8 filter: ``push`` refuses the ones that break it."""
    me = s.to_move
    p = s.players[me]
    m = s.map
    ap = s.turn.ap
    level, dev, pal = s.level, s.dev, s.palace
    if not s.turn.token_used and p.tokens > 0:
        yield Token()
    if s.turn.cards_drawn < 2 and ap >= 1:
        if s.face_up is not None:
            yield Draw(True)
        if s.deck or s.discard:
            yield Draw(False)
    mine = [h for h in m.hexes if dev[h] == me]
    if p.developers_off > 0:
        for h in m.hexes:
            c = m.edge_cost(h)
            if c and c <= ap and level[h] and dev[h] < 0 and not pal[h]:
                yield Enter(h)
    for src in mine:
        for dst, c in move_costs(src, me, level, s.terrain, dev, pal, m.nbrs, ap).items():
            if dst != src and dev[dst] < 0:
                yield Move(src, dst)
        c = m.edge_cost(src)
        if c and c <= ap:
            yield Exit(src)
    if ap >= 1:
        g = s.groups()
        for gi, members in enumerate(g.members):
            if len(members) < 2 or ring_holder(s, members) != me:
                continue
            ph = g.palace[gi]
            old = pal[ph] if ph >= 0 else 0
            if ph >= 0 and ph in s.turn.palaces_changed:
                continue  # R29
            values = [v for v in PALACE_VALUES if old < v <= len(members) and s.palace_supply[v] > 0]
            sites = [ph] if ph >= 0 else [h for h in members if dev[h] < 0]
            for h in sites:
                for v in values:
                    yield Palace(h, v)
        if s.irrigation_supply > 0:
            for h in m.central:
                if not s.irrigated[h] and level[h] == 0 and not m.border_cost[h]:
                    yield Irrigate(h)
    from core import festival

    yield from festival.openings(s)


def candidate_actions(s: GameState, rng: random.Random, tile_cap: int) -> list[Action]:
    """What the search tries from ``s``: non-tile actions, then the chosen tiles."""
    acts: list[Action] = list(other_actions(s))
    if s.turn.ap >= 1:
        acts.extend(tile_candidates(s, rng, tile_cap))
    return acts


def can_end(s: GameState) -> bool:
    """R8: ``end`` is legal unless a tile is owed and one could still be placed."""
    return not s.obligation_pending() or s.find_placement(s.turn.ap + s.token_bonus()) is None


def play_out_festival(s: GameState, decide: Callable[[GameState], Action], limit: int = 64) -> int:
    """Push festival decisions (R32) until it is over; returns how many were pushed."""
    n = 0
    while s.festival is not None and n < limit:
        s.push(decide(s))
        n += 1
    return n


class _Beam:
    """One beam search over the mover's turn (``search_turn``): the best line so far, the
    boards met (transpositions merged), the nodes pushed and the clock."""

    def __init__(self, s: GameState, score: Score, decide: Callable[[GameState], Action],
                 seed: int, budget_s: float) -> None:
        self.work = s.copy()
        self.score, self.decide = score, decide
        self.rng = random.Random(seed)
        self.start, self.budget_s = time.perf_counter(), budget_s
        self.nodes = 0
        self.root_v = score(self.work)
        self.best: Plan | None = Plan([], self.root_v, 0) if can_end(self.work) else None
        self.seen: set[int] = {board_key(self.work)}

    def consider(self, line: list[Action], v: float) -> None:
        if self.best is None or v > self.best.value + 1e-9:
            self.best = Plan(list(line), v, self.nodes)

    def out_of_time(self) -> bool:
        return time.perf_counter() - self.start > self.budget_s and self.best is not None

    def replay_extra(self, extra: list[list[Action]]) -> None:
        """Lines from elsewhere (e.g. the solver's), replayed to compete on the same score."""
        work = self.work
        for line in extra:
            pushed = 0
            try:
                for a in line:
                    work.push(a)
                    pushed += 1
                if work.festival is not None:
                    pushed += play_out_festival(work, self.decide)
                if work.festival is None and (pushed > len(line) or can_end(work)):
                    self.consider(list(line), self.score(work))
            except ValueError:
                pass
            for _ in range(pushed):
                work.pop()

    def expand(self, beam: list[tuple[float, list[Action]]], tile_cap: int
               ) -> list[tuple[float, list[Action]]]:
        """Every line of the beam one action longer, scored; a festival closes its line."""
        work = self.work
        children: list[tuple[float, list[Action]]] = []
        for _, line in beam:
            for a in line:
                work.push(a)
            for a in candidate_actions(work, self.rng, tile_cap):
                try:
                    work.push(a)
                except IllegalAction:
                    continue  # R8, R13, R15, AP: the engine has the last word
                self.nodes += 1
                if isinstance(a, Festival):
                    k = play_out_festival(work, self.decide)
                    self.consider(line + [a], self.score(work))
                    for _ in range(k):
                        work.pop()
                else:
                    children.append((self.score(work), line + [a]))
                work.pop()
            for _ in line:
                work.pop()
            if self.out_of_time():
                break
        return children

    def select(self, children: list[tuple[float, list[Action]]], width: int
               ) -> list[tuple[float, list[Action]]]:
        """The next beam: the best ``width`` children on boards not met before, and beyond the
        width the best one that ends with a tile (diversity); each that may end is a line."""
        work = self.work
        children.sort(key=lambda c: -c[0])
        beam: list[tuple[float, list[Action]]] = []
        tile_kept = False
        for v, line in children:
            full = len(beam) >= width
            if full and (tile_kept or not isinstance(line[-1], Tile)):
                continue
            for a in line:
                work.push(a)
            key = board_key(work)
            if key not in self.seen:
                self.seen.add(key)
                if can_end(work):
                    self.consider(line, v)
                beam.append((v, line))
                tile_kept = tile_kept or isinstance(line[-1], Tile)
            for _ in line:
                work.pop()
            if len(beam) >= width and tile_kept:
                break
        return beam

    def owed_tile(self, beam: list[tuple[float, list[Action]]]) -> Plan:
        """Where only lines still owing a tile were seen (R8): the first that can place one,
        with it."""
        work = self.work
        for _, line in beam:
            for a in line:
                work.push(a)
            tile = work.find_placement(work.turn.ap + work.token_bonus())
            for _ in line:
                work.pop()
            if tile is not None and work.turn.ap >= 1:
                return Plan(line + [tile], self.score(work), self.nodes)
        return Plan([], self.root_v, self.nodes)


def search_turn(
    s: GameState,
    score: Score,
    decide: Callable[[GameState], Action],
    width: int = 3,
    max_depth: int = 9,
    tile_cap: int = 60,
    seed: int = 0,
    budget_s: float = 5.0,
    extra: list[list[Action]] | None = None,
) -> Plan:
    """The best line for the player to move found by the beam search; ``s`` is left unchanged.

    ``extra`` lines (e.g. the solver's) are replayed and compete on the same score.
    """
    b = _Beam(s, score, decide, seed, budget_s)
    b.replay_extra(extra or [])
    beam: list[tuple[float, list[Action]]] = [(b.root_v, [])]
    # Every action but the token and some moves costs AP (R7, R27): the AP bound the depth.
    max_depth = min(max_depth, b.work.turn.ap + b.work.token_bonus() + 2)
    for _depth in range(max_depth):
        children = b.expand(beam, tile_cap)
        if not children:
            break
        beam = b.select(children, width)
        if b.out_of_time():
            break
    return b.owed_tile(beam) if b.best is None else b.best


def festival_decision(s: GameState) -> Action:
    """A simple bidding policy (R32): agree to share when asked, else the cheapest bid that
    stays in, else pass."""
    acts = list(s.legal_actions())
    for a in acts:
        if isinstance(a, Agree):
            return a
    bids = [a for a in acts if isinstance(a, Bid)]
    if bids:
        return min(bids, key=lambda b: (len(b.cards), sum(len(c) for c in b.cards), str(b)))
    for a in acts:
        if isinstance(a, Pass):
            return a
    return acts[0]
