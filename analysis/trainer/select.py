"""Choosing the next puzzle: near a target rating, not seen lately, optionally of one theme
or of a theme drawn with weight toward the user's weakest.

The pick is random among candidates weighted by a Gaussian of the rating difference (width
``SPREAD``, wider while the user's own RD is large), so the served ratings centre on the
target without serving the same puzzle again and again. Puzzles attempted in the last
``RECENT`` seconds, or already solved, are kept out while others remain.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Protocol, TypeVar

SPREAD = 120.0  # rating points: the width of the weighting around the target
RECENT = 6 * 3600.0  # seconds: an attempt this recent keeps the puzzle out while others remain
PRIOR = 2  # a theme's success rate starts as PRIOR solved of 2 * PRIOR tries (no data: 50 %)


class Candidate(Protocol):
    @property
    def key(self) -> str: ...
    @property
    def rating(self) -> float: ...
    @property
    def themes(self) -> tuple[str, ...]: ...


C = TypeVar("C", bound=Candidate)


def weights_by_theme(results: Mapping[str, tuple[int, int]], themes: Iterable[str]) -> dict[str, float]:
    """Weight of each theme for the mix: its failure rate (smoothed by PRIOR), so a theme solved
    half the time comes up twice as often as one solved nine times in ten."""
    out = {}
    for t in themes:
        n, ok = results.get(t, (0, 0))
        out[t] = 0.05 + (n - ok + PRIOR) / (n + 2 * PRIOR)
    return out


def pick_theme(weights: Mapping[str, float], rng: random.Random) -> str:
    names = sorted(weights)
    return rng.choices(names, [weights[t] for t in names])[0]


def choose(puzzles: Sequence[C], target: float, rng: random.Random, *,
           ratings: Mapping[str, float] | None = None,
           seen: Mapping[str, tuple[float, int, int]] | None = None,
           now: float = 0.0, theme: str | None = None, exclude: Iterable[str] = (),
           user_rd: float = 0.0) -> C | None:
    """A puzzle near ``target`` (``ratings`` overrides a file's rating, e.g. the database's);
    None only when no puzzle (of ``theme``) is left outside ``exclude``."""
    ratings = ratings or {}
    seen = seen or {}
    skip = set(exclude)
    pool = [p for p in puzzles if p.key not in skip and (theme is None or theme in p.themes)]
    if not pool:
        return None
    fresh = [p for p in pool if p.key not in seen or (now - seen[p.key][0] > RECENT and seen[p.key][2] == 0)]
    pool = fresh or pool
    width = math.hypot(SPREAD, user_rd / 2)
    w = [math.exp(-0.5 * ((ratings.get(p.key, p.rating) - target) / width) ** 2) + 1e-9 for p in pool]
    return rng.choices(pool, w)[0]
