"""Free moves (R27) in branch and bound: search each one only where it can matter.

A 0-AP move changes nothing but where one developer stands, and a busy board has dozens of
them; searched as plain actions they multiply the states of every step (each arrangement of
the developers is a new state). But a free move ``m`` (x → y) can be *postponed* past any
action ``A`` it does not interact with: doing ``A`` first and ``m`` after it gives the same
state, the same points and the same AP, and both stay legal. So every line has a *canonical*
form with the same outcome, where each free move comes just before the first action it
interacts with (or after another free move that takes the hex it left), and free moves that
interact with nothing are dropped. Branch and bound searches canonical lines only: the free
moves made since the last other action are *pending*, and the next other action must interact
with every pending one. ``A`` interacts with ``m`` (conservatively: more interactions only
search more) when:

- ``A`` is an exit of the same developer, or a move or an entry onto ``x`` (R26). (A paid
  move of the same developer does not count: with the free move before it, it is one move
  from ``x`` costing no more, R27, which the search tries without the free move.)
- ``A`` is a tile that covers ``x`` (R11), or after which no 0-AP path leads from ``x`` to
  ``y`` without crossing its hexes (R27), or that encloses a pond with ``x`` or ``y`` on its
  ring (R38: the ring's rank keys);
- ``A`` is an irrigation that encloses a pond with ``x`` or ``y`` on its ring (R38);
- ``A`` is a palace in the group holding ``x`` or ``y`` (R25, R28: the group's rank keys);
- the tile obligation is pending (R8) and after ``A`` no tile could be placed with the
  developer back on ``x``: postponed, ``m`` must not make ``A`` break R8.

A festival (R30) only asks for a developer in the city, which a free move never changes (it
stays on one terrain, so in one village group); so a turn may not end with pending moves,
except while a tile is still owed (R8): the moves may have blocked the last placement.
"""

from __future__ import annotations

from core.actions import Action, Enter, Exit, Irrigate, Move, Palace, Tile
from core.groups import pond_at, pond_ring
from core.legality import CHECKS
from core.movegen import placeable_after
from core.paths import move_costs
from core.state import GameState

Pending = frozenset[tuple[int, int]]  # (x, y): a developer moved for free from x, now on y
NONE: Pending = frozenset()


def after_free_move(pending: Pending, src: int, dst: int) -> Pending:
    """The pending set after one more free move ``src`` → ``dst`` of a developer not waiting
    already (one that is makes its one move from where it started, searched from the node
    before): a move onto the hex another one left is what that one was waiting for."""
    return frozenset({(x, y) for x, y in pending if x != dst} | {(src, dst)})


def free_reach(s: GameState) -> dict[int, set[int]]:
    """Per developer of the mover: the hexes a 0-AP move takes it to (R27), itself included."""
    me = s.to_move
    args = (s.level, s.terrain, s.dev, s.palace, s.map.nbrs)
    return {h: set(move_costs(h, me, *args, 0)) for h in s.map.hexes if s.dev[h] == me}


def _path_avoiding(s: GameState, x: int, y: int, avoid: frozenset[int]) -> bool:
    """A 0-AP path from ``x`` to ``y`` (one terrain, land, no palace, no opponent: R27) that
    keeps off ``avoid``; the developer itself stands on ``y``."""
    me, t = s.to_move, s.terrain[y]
    level, terrain, dev, palace, irr, nbrs = s.level, s.terrain, s.dev, s.palace, s.irrigated, s.map.nbrs
    if x in avoid:
        return False
    seen = {x}
    stack = [x]
    while stack:
        h = stack.pop()
        if h == y:
            return True
        for n in nbrs[h]:
            if (n not in seen and n not in avoid and level[n] > 0 and terrain[n] == t
                    and not palace[n] and not irr[n] and (dev[n] < 0 or dev[n] == me)):
                seen.add(n)
                stack.append(n)
    return False


def _interacts_before(s: GameState, a: Action, x: int, y: int) -> bool:
    """What the state before ``a`` tells: the hex it left taken, an exit of it, a tile on that
    hex or across every free path, a palace in its group, a tile or an irrigation that
    encloses a pond with ``x`` or ``y`` on its ring (R38)."""
    if isinstance(a, Tile):
        cover = frozenset(a.hexes)
        return x in cover or not _path_avoiding(s, x, y, cover) or _tile_encloses(s, cover, x, y)
    if isinstance(a, Irrigate):
        return _irrigation_encloses(s, a.hex, x, y)
    if isinstance(a, Move):
        return a.dst == x
    if isinstance(a, Enter):
        return a.hex == x
    if isinstance(a, Exit):
        return a.hex == y
    if isinstance(a, Palace):
        label = s.groups().label
        return label[a.hex] in (label[x], label[y])
    return False


def unsettled(s: GameState, a: Action, pending: Pending, owed: bool) -> Pending | None:
    """Before pushing ``a`` (not a free move): the pending moves whose interaction with it only
    the state after it can tell (R8 when a tile is ``owed``), or None when one of them cannot
    interact with it at all (``a`` is then not searched here, and not pushed: on pond-32,
    12 644 of the 14 271 pushes of branch and bound were such actions, pushed to be told)."""
    later = owed and not isinstance(a, Tile)
    rest = []
    for x, y in pending:
        if _interacts_before(s, a, x, y):
            continue
        if not later:
            return None
        placeable = _placeable_after(s, a, x)
        if placeable:
            return None
        if placeable is None:
            rest.append((x, y))
        # False: no tile could be placed after ``a`` with the developer back on x (R8)
    return frozenset(rest)


def _placeable_after(s: GameState, a: Action, x: int) -> bool | None:
    """Whether a tile owed (R8) could still be placed after ``a``, keeping off ``x`` (where the
    developer would stand, his free move put off past ``a``), told before ``a`` is pushed: a
    move, an entry, an exit or an irrigation exactly (``movegen.placeable_after``: written
    into the board and undone, with the AP its rule check says it costs), a palace where it
    is sure (``_placeable_after_palace``). None where unsure: ``_r8_needs`` then asks the
    state after it."""
    if isinstance(a, Palace):
        return _placeable_after_palace(s, a.hex, x) or None
    if not isinstance(a, (Move, Enter, Exit, Irrigate)):
        return None
    after = s.turn.ap + s.token_bonus() - CHECKS[type(a)](s, a)  # type: ignore[operator]
    return after >= 1 and bool(placeable_after(s, a, after, frozenset((x,))))


def _placeable_after_palace(s: GameState, at: int, x: int) -> bool:
    """``_placeable_after`` for a palace on ``at`` (1 AP, R28): it may make its group a city,
    which a village cell next to it may no longer join to another (R15), so the placement
    now must keep off the group and the hexes next to it, where nothing changes."""
    g = s.groups()
    near = set(g.members[g.label[at]]) if g.label[at] >= 0 else {at}
    near |= {n for h in near for n in s.map.nbrs[h]}
    budget = s.turn.ap - 1 + s.token_bonus()
    return budget >= 1 and s.find_placement(budget, frozenset(near | {x})) is not None


def interacts_after(s: GameState, a: Action, rest: Pending, owed: bool) -> bool:
    """After pushing ``a``: whether it interacts with each move ``unsettled`` left."""
    return all(_r8_needs(s, a, x, owed) for x, _ in rest)


def _tile_encloses(s: GameState, cover: frozenset[int], x: int, y: int) -> bool:
    """Whether a tile on ``cover`` (one level, R12) encloses a pond next to ``x`` or ``y``
    with one of them on its ring (R38): it lays land on a bare hex of the ring (level 0 now,
    level 1 after it), and no bare hex of that ring is left uncovered."""
    nbrs, irr, level = s.map.nbrs, s.irrigated, s.level
    fresh = {h for h in cover if level[h] == 0}
    if not fresh or not any(irr[n] for h in fresh for n in nbrs[h]):
        return False
    for h in (x, y):
        for n in nbrs[h]:
            if irr[n]:
                ring = pond_ring(pond_at(n, irr, nbrs), nbrs)
                if fresh.intersection(ring) and all(level[r] > 0 or r in cover for r in ring):
                    return True
    return False


def _irrigation_encloses(s: GameState, at: int, x: int, y: int) -> bool:
    """Whether irrigating ``at`` encloses the pond it joins with ``x`` or ``y`` on its ring
    (R38): the pond of ``at`` once irrigated, every hex of its ring land."""
    nbrs, irr, level = s.map.nbrs, s.irrigated, s.level
    pond = {at}
    for n in nbrs[at]:
        if irr[n] and n not in pond:
            pond.update(pond_at(n, irr, nbrs))
    ring = pond_ring(sorted(pond), nbrs)
    return (x in ring or y in ring) and all(level[h] > 0 for h in ring)


def _r8_needs(s: GameState, a: Action, x: int, owed: bool) -> bool:
    if not owed or isinstance(a, Tile):
        return False
    return s.find_placement(s.turn.ap + s.token_bonus(), frozenset((x,))) is None


def viable(s: GameState, pending: Pending) -> bool:
    """Whether one action could still interact with every pending move (checked when a block
    of free moves grows to two or more): a paid move, an entry or an exit interacts with one
    at most, so it takes a palace in the group of them all, a tile near all of them (on a hex
    or a free path of each, or closing a pond next to each), an irrigation next to all, or
    the tile obligation with placements so scarce that one action could use them up (R8)."""
    if len(pending) < 2:
        return True
    level, irr, nbrs = s.level, s.irrigated, s.map.nbrs
    xs = frozenset(x for x, _ in pending)
    if s.obligation_pending():
        budget = s.turn.ap + s.token_bonus() - 1
        first = s.find_placement(budget, xs)
        if first is None or s.find_placement(budget, xs | frozenset(first.hexes)) is None:
            return True
    label = s.groups().label
    if len({label[x] for x in xs}) == 1 and label[next(iter(xs))] >= 0:
        return True
    if s.irrigation_supply > 0 and all(
            any(level[n] == 0 or irr[n] for h in (x, y) for n in nbrs[h]) for x, y in pending):
        return True
    me = s.to_move
    args = (s.level, s.terrain, s.dev, s.palace, nbrs)
    anchors = []
    for x, y in pending:
        near = set(move_costs(y, me, *args, 0))
        for h in (x, y):
            for n in nbrs[h]:
                if irr[n]:
                    near.update(r for r in pond_ring(pond_at(n, irr, nbrs), nbrs) if level[r] == 0)
        anchors.append(near)
    for i, a in enumerate(anchors):
        for b in anchors[i + 1:]:
            if not any(h in b or any(n in b for n in nbrs[h]) for h in a):
                return False
    return True
