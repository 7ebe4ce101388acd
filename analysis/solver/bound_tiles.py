"""Exact checks of what one or two land tiles can do to a city, for the admissible bound
(``bound.py``): the engine places every such pair of tiles and counts the groups.

The palace options of ``bound_palaces`` reason hex by hex about what ``k`` tiles may add to a
city: where every tile's hexes are not known, they let the other tile lie anywhere (and cut a
city off its palace, R15, R23), so they may grant a city more hexes than any two tiles can
give it. On a busy board a check settles it: every placement of one tile, and after each every
placement of a second near the groups that count, pushed through the engine (R10–R15), the
mover's developers lifted off first (R11: they may step aside; an entry or an irrigation only
takes hexes away). It gives, for ``k`` = 0, 1, 2 tiles:

- ``size[k]``: the most hexes the group of the city's palace has after them (R20, R21): an
  enlargement needs as many (R28);
- ``parts[k][j]``: the most points ``j`` new palaces in village groups on the city's hexes
  (parts cut off it, R23, with what joins them) may score, each at most half the largest
  value those groups reach after some of the tiles (R28, R29).

``capped_options`` replaces an option of ``k`` ≤ 2 tiles that claims more than its check
allows by what the check allows, plus the same claim with ``k + 1`` tiles: the claim still
holds for every line with more tiles, so the bound stays admissible (every line is still
covered by an option with no more tiles than it places).

The checks cost the engine a few thousand pushes a city (0.1–5 s a busy turn), so the solver
runs them (``check_cities``) only where its line falls short of the bound, and keeps them for
that position (``known``): every bound worked out on it afterwards uses them.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

from analysis.solver.bound_view import pareto
from analysis.solver.common import Deadline
from core.errors import IllegalAction
from core.groups import Groups
from core.legality import PALACE_VALUES
from core.movegen import tile_placements
from core.state import GameState

MAX_TILES = 2  # the tiles a check places, at most
ANY_AP = 99  # each tile within any AP: the check asks what the board allows, not the AP


KEPT = 4  # positions whose checks are kept (``known``)


@dataclass
class CityCheck:
    """What one or two tiles can do to the city whose palace stands on ``palace``."""

    palace: int
    size: list[int]
    parts: list[list[int]] = field(default_factory=lambda: [[0] * 4 for _ in range(MAX_TILES + 1)])


def _lifted(s: GameState) -> GameState:
    """A copy with the mover's developers off the board (R11: a tile may not cover them, but
    they may step aside first) and AP for any tile (R14)."""
    c = s.copy()
    for h in c.map.hexes:
        if c.dev[h] == c.to_move:
            c.dev[h] = -1
    c.turn.ap = ANY_AP
    c._r8_hint = None
    return c


def _ball(s: GameState, hexes: set[int], d: int) -> set[int]:
    seen = set(hexes)
    layer = set(hexes)
    for _ in range(d):
        layer = {n for h in layer for n in s.map.nbrs[h]} - seen
        seen |= layer
    return seen


def _first_region(s: GameState, g: Groups, members: set[int]) -> set[int]:
    """Where the first of two tiles must lie to change what the second can do for the city:
    within three hexes of it (it shares a hex with the second, which lies within two: R12,
    R13), or on or next to a group within two hexes of it (it grows that group, which the
    second joins to the city; or it cuts a city off its palace, so that the second may join
    the part, R15, R23)."""
    near = _ball(s, members, 2)
    region = _ball(s, members, 3)
    for gi in {g.label[h] for h in near if g.label[h] >= 0}:
        region |= _ball(s, set(g.members[gi]), 1)
    return region


def _values(s: GameState, g: Groups, palace: int, home: set[int]) -> tuple[int, list[int]]:
    """The size of the palace's group, and the largest palace value each village group on the
    city's hexes could take (R28: no more than its size, a piece of that value left)."""
    size = len(g.members[g.group_of(palace)])
    values = []
    for gi, m in enumerate(g.members):
        if g.palace[gi] < 0 and not home.isdisjoint(m):
            v = max((x for x in PALACE_VALUES if x <= len(m) and s.palace_supply[x] > 0), default=0)
            if v:
                values.append(v)
    return size, values


def check_city(s: GameState, palace: int, dl: Deadline) -> CityCheck | None:
    """The check of the city on ``palace``; None where ``dl`` ran out first (the options then
    stand as they are)."""
    c = _lifted(s)
    g = c.groups()
    home = set(g.members[g.group_of(palace)])
    size0, values0 = _values(c, g, palace, home)
    out = CityCheck(palace, [size0] * (MAX_TILES + 1))

    def note(k: int, seen: list[list[int]], size: int) -> None:
        ranked = sorted((v for vs in seen for v in vs), reverse=True)
        for kk in range(k, MAX_TILES + 1):
            out.size[kk] = max(out.size[kk], size)
            for j in range(1, 4):
                out.parts[kk][j] = max(out.parts[kk][j], sum(ranked[:j]) // 2)

    note(0, [values0], size0)
    for t1, _ in list(tile_placements(c, ANY_AP, near=_first_region(c, g, home))):
        if dl.over():
            return None
        try:
            c.push(t1)
        except IllegalAction:
            continue
        g1 = c.groups()
        size1, values1 = _values(c, g1, palace, home)
        note(1, [values0, values1], size1)
        second: set[int] = set(g1.members[g1.group_of(palace)])
        for gi, m in enumerate(g1.members):
            if g1.palace[gi] < 0 and not home.isdisjoint(m):
                second.update(m)
        for t2, _ in list(tile_placements(c, ANY_AP, near=_ball(c, second, 1))):
            try:
                c.push(t2)
            except IllegalAction:
                continue
            size2, values2 = _values(c, c.groups(), palace, home)
            note(2, [values0, values1, values2], size2)
            c.pop()
        c.pop()
    return out


def capped_options(s: GameState, gi: int, opts: list[tuple[int, ...]], check: CityCheck
                   ) -> list[tuple[int, ...]]:
    """The palace options ``(palace actions, tiles, paid arrivals, points)`` of city ``gi``
    (``gi`` ≥ 0: its own palace enlarged; −2 − its index: new palaces in parts cut off it)
    within what ``check`` allows with as many tiles, and each claim cut down also with one
    tile more (see the module's docstring)."""
    old = s.palace[check.palace]

    def allowed(k: int, p: int) -> int:
        if gi < 0:
            return check.parts[k][p]
        ok = [v for v in PALACE_VALUES if old < v <= check.size[k] and s.palace_supply[v] > 0]
        return max(ok) // 2 if ok else -1

    out: list[tuple[int, ...]] = []
    for p, k, e, pts in opts:
        if k > MAX_TILES or (gi < 0 and p > 3):
            out.append((p, k, e, pts))
            continue
        for kk in range(k, MAX_TILES + 1):
            a = allowed(kk, p)
            if a > 0:
                out.append((p, kk, e, min(pts, a)))
            if a >= pts:
                break
        else:
            out.append((p, MAX_TILES + 1, e, pts))
    return pareto(out)


_KNOWN: dict[tuple[object, ...], dict[int, CityCheck]] = {}
_LOCK = threading.Lock()  # the app solves in worker threads


def position_key(s: GameState) -> tuple[object, ...]:
    """All a check depends on: the board (levels, terrain, the tiles on top and their sizes
    for R13, developers, palaces, irrigation), the mover and the tile and palace supplies."""
    p = s.players[s.to_move]
    return (*_light(s), tuple(s.terrain), tuple(s.top),
            tuple(len(s.tiles[t]) if t >= 0 else 0 for t in s.top),
            tuple(s.palace), tuple(s.irrigated), s.triples, p.doubles, p.villages, p.rice,
            tuple(s.palace_supply))


LIGHT = 4  # the first items of ``position_key``: ``_light``


def _light(s: GameState) -> tuple[object, ...]:
    """The start of ``position_key`` (map, mover, levels, developers), a sixth of its cost."""
    return s.map.name, s.to_move, tuple(s.level), tuple(s.dev)


_LIGHT: frozenset[tuple[object, ...]] = frozenset()  # ``_light`` of the positions in ``_KNOWN``


def known(s: GameState) -> dict[int, CityCheck]:
    """The checks done on this position (palace hex -> check), if any. Every node of a
    search asks (``bound._checked``), and only its root may have them: a position whose
    ``_light`` part matches none is turned away without building the whole key."""
    if not _KNOWN or _light(s) not in _LIGHT:
        return {}
    return _KNOWN.get(position_key(s), {})


def check_cities(s: GameState, palaces: list[int], dl: Deadline) -> int:
    """Check the cities on ``palaces`` in turn while ``dl`` lasts, and keep the checks for the
    position; how many were done."""
    done = dict(known(s))
    for ph in palaces:
        if ph not in done:
            got = check_city(s, ph, dl)
            if got is None:
                break
            done[ph] = got
    remember(s, done)
    return len(done)


def remember(s: GameState, checks: dict[int, CityCheck]) -> None:
    """Keep ``checks`` (palace hex -> check, done on this position here or by
    ``helper.ChecksHelper``) with those known for it: the ``KEPT`` latest positions'."""
    if not checks:
        return
    global _LIGHT
    key = position_key(s)
    with _LOCK:
        _KNOWN[key] = {**_KNOWN.get(key, {}), **checks}
        while len(_KNOWN) > KEPT:
            _KNOWN.pop(next(iter(_KNOWN)))
        _LIGHT = frozenset(k[:LIGHT] for k in _KNOWN)
