"""City standings and the final count (R41)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from core.ranking import first_second, rank_keys

if TYPE_CHECKING:
    from core.state import GameState


@dataclass(frozen=True)
class CityStanding:
    palace: int
    value: int
    size: int
    hexes: tuple[int, ...]
    keys: tuple[tuple[int, ...], ...]  # per player (R24)
    first: tuple[int, ...]
    second: tuple[int, ...]


def city_standings(s: GameState) -> list[CityStanding]:
    """Every city with its rank keys and first / second positions (R24, R41)."""
    g = s.groups()
    out = []
    for gi in g.cities():
        members = g.members[gi]
        ph = g.palace[gi]
        keys = rank_keys(((s.level[h], s.dev[h]) for h in members if s.dev[h] >= 0), s.n_players)
        first, second = first_second(keys)
        out.append(CityStanding(ph, s.palace[ph], len(members), tuple(sorted(members)),
                                tuple(tuple(k) for k in keys), tuple(first), tuple(second)))
    out.sort(key=lambda c: c.palace)
    return out


def final_count(s: GameState) -> list[int]:
    """What each player would score by a final count now (R41): the palace value for a first
    position, half of it for a second; villages score nothing."""
    pts = [0] * s.n_players
    for c in city_standings(s):
        for p in c.first:
            pts[p] += c.value
        for p in c.second:
            pts[p] += c.value // 2
    return pts
