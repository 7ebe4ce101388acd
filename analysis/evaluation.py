"""Position evaluation for the computer players: what a position is worth to each player.

``standing(s)`` estimates, per player, the points he holds now plus those the position promises:
the projected final count of every city (R41), the palaces he could build or enlarge where he
holds the highest position (R28, R29), the ponds he would score on closing (R38), and small
values for developers on the board, action tokens (R7) and festival cards (R30). The weights
are hand-set; the projection counts more as the three-space tiles run out (R40).
"""

from __future__ import annotations

from core.actions import VILLAGE
from core.groups import all_ponds, pond_ring
from core.legality import PALACE_VALUES
from core.ranking import first_second, highest, rank_keys
from core.state import TRIPLES, GameState

TOKEN_VALUE = 0.6
CARD_VALUE = 0.25
DEV_IN_GROUP = 0.3
DEV_ON_BOARD = 0.1
LEVEL_VALUE = 0.05


def progress(s: GameState) -> float:
    """0 at the start, 1 once the last three-space tile is gone (R40)."""
    if s.last_round is not None:
        return 1.0
    return 1.0 - s.triples / TRIPLES


def best_palace_value(s: GameState, size: int, above: int = 0) -> int:
    """The largest palace value a group of ``size`` may take above ``above`` (R28), or 0."""
    best = 0
    for v in PALACE_VALUES:
        if above < v <= size and s.palace_supply[v] > 0:
            best = v
    return best


_PONDS: dict[tuple[object, ...], list[tuple[list[int], list[int]]]] = {}


def ponds(s: GameState) -> list[tuple[list[int], list[int]]]:
    """(pond, ring) pairs (R37, R38), cached by the placed irrigation (they change only there)."""
    key = (s.map, *sorted(s.placed_irrigation))  # the map itself: bound_view._SHAPES
    got = _PONDS.get(key)
    if got is None:
        if len(_PONDS) > 4096:
            _PONDS.clear()
        got = [(p, pond_ring(p, s.map.nbrs)) for p in all_ponds(s.map.hexes, s.irrigated, s.map.nbrs)]
        _PONDS[key] = got
    return got


def standing(s: GameState) -> list[float]:
    """Per-player estimated worth of the position (actual score included)."""
    n = s.n_players
    prog = progress(s)
    end = s.last_round is not None
    w_city = 0.55 + 0.45 * prog  # final-count weight (R41)
    w_build = 0.0 if end else 0.55  # a palace a player could build or enlarge next turn
    w_future = 0.0 if end else 0.35 * (1.0 - prog)  # the final count a new palace would bring
    out = [float(p.score) for p in s.players]
    for i, p in enumerate(s.players):
        if end and p.final_counted:
            continue  # this player's final count is made: only festivals can still score (R42)
        out[i] += TOKEN_VALUE * p.tokens * (1.0 - 0.7 * prog) + CARD_VALUE * len(p.hand)
    g = s.groups()
    dev, level, label = s.dev, s.level, g.label
    per_group: dict[int, list[tuple[int, int]]] = {}
    for h in s.map.hexes:
        o = dev[h]
        if o < 0:
            continue
        gi = label[h]
        out[o] += DEV_ON_BOARD + LEVEL_VALUE * level[h]
        if gi >= 0:
            out[o] += DEV_IN_GROUP
            per_group.setdefault(gi, []).append((level[h], o))
    counted = tuple(s.players[i].final_counted for i in range(n))
    context = (n, end, prog, counted, tuple(s.palace_supply))
    for gi, devs in per_group.items():
        ph = g.palace[gi]
        value = s.palace[ph] if ph >= 0 else -1
        key = (context, len(g.members[gi]), value, tuple(sorted(devs)))
        got = _GROUPS.get(key)
        if got is None:
            if len(_GROUPS) > 200_000:
                _GROUPS.clear()
            got = _group_worth(s, devs, len(g.members[gi]), value, counted, w_city, w_build, w_future)
            _GROUPS[key] = got
        for q, worth in got:
            out[q] += worth
    for pond, ring in ponds(s):
        open_n = sum(1 for h in ring if level[h] == 0)
        if open_n == 0:
            continue  # enclosed: scored once already (R38)
        holder = highest([(level[h], dev[h]) for h in ring if dev[h] >= 0])
        if holder >= 0:
            chance = 0.6 if open_n == 1 else 0.3 if open_n == 2 else 0.1
            out[holder] += chance * 3 * len(pond)
    return out


_GROUPS: dict[tuple[object, ...], tuple[tuple[int, float], ...]] = {}


def _group_worth(s: GameState, devs: list[tuple[int, int]], size: int, value: int,
                 counted: tuple[bool, ...], w_city: float, w_build: float,
                 w_future: float) -> tuple[tuple[int, float], ...]:
    """(player, worth) for one village group: a city's first and second positions (R41) and
    the palace its holder could build or enlarge (R28); ``value`` -1 for a village."""
    out: list[tuple[int, float]] = []
    end = w_build == 0.0
    holder = highest(devs)
    if value >= 0:
        first, second = first_second(rank_keys(devs, len(counted)))
        out += [(p, w_city * value) for p in first if not counted[p]]
        out += [(p, w_city * (value // 2)) for p in second if not counted[p]]
        if holder >= 0 and not end:
            nv = best_palace_value(s, size, value)
            if nv:
                out.append((holder, w_build * (nv - value) / 2 + w_future * (nv - value)))
    elif size >= 2 and not end and holder >= 0:
        nv = best_palace_value(s, size)
        if nv:
            out.append((holder, w_build * nv / 2 + w_future * nv))
    return tuple(out)


def relative(values: list[float], me: int, weight: float = 0.6) -> float:
    """My worth less ``weight`` times the best opponent's: the planner plays to win (R43)."""
    others = [v for i, v in enumerate(values) if i != me]
    return values[me] - weight * max(others, default=0.0)


def positional(s: GameState, me: int) -> float:
    """Greedy's tie-break: projected final count (R41) plus the levels of my developers."""
    g = s.groups()
    pts = 0.0
    for h in s.map.hexes:
        if s.dev[h] == me:
            pts += 0.1 * s.level[h] + (0.2 if g.label[h] >= 0 and s.terrain[h] == VILLAGE else 0.0)
    per_group: dict[int, list[tuple[int, int]]] = {}
    for h in s.map.hexes:
        if s.dev[h] >= 0 and g.label[h] >= 0:
            per_group.setdefault(g.label[h], []).append((s.level[h], s.dev[h]))
    for gi, devs in per_group.items():
        ph = g.palace[gi]
        if ph >= 0:
            first, second = first_second(rank_keys(devs, s.n_players))
            value = s.palace[ph]
            pts += value if me in first else value // 2 if me in second else 0
        elif highest(devs) == me and len(g.members[gi]) >= 2:
            pts += 1.0
    return pts
