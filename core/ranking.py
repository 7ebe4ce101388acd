"""The height ranking (R24, R25) and the first/second positions of the final count (R41).

One small function family used by palaces, ponds and the final count alike. A rank key is the
list of a player's developer levels in a set of hexes, highest first; Python compares lists
lexicographically with a prefix losing to its extension, which is exactly R24.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence


def rank_keys(devs: Iterable[tuple[int, int]], n_players: int) -> list[list[int]]:
    """Per-player rank keys (R24) from (level, player) pairs; [] for a player with none there."""
    keys: list[list[int]] = [[] for _ in range(n_players)]
    for level, player in devs:
        keys[player].append(level)
    for k in keys:
        k.sort(reverse=True)
    return keys


def highest(devs: Sequence[tuple[int, int]]) -> int:
    """The player holding the highest position (R25) among (level, player) pairs, or -1.

    Fast path: sort the pairs once by level, highest first, then compare keys built on the fly.
    """
    if not devs:
        return -1
    keys: dict[int, list[int]] = {}
    for level, player in devs:
        k = keys.get(player)
        if k is None:
            keys[player] = [level]
        else:
            k.append(level)
    if len(keys) == 1:
        for p in keys:
            return p
    best: list[int] | None = None
    holder = -1
    tied = False
    for p, k in keys.items():
        if len(k) > 1:
            k.sort(reverse=True)
        if best is None or k > best:
            best, holder, tied = k, p, False
        elif k == best:
            tied = True
    return -1 if tied else holder


def first_second(keys: Sequence[Sequence[int]]) -> tuple[list[int], list[int]]:
    """First and second positions for the final count (R41).

    All players tied on the best key share first; all tied on the next distinct key share
    second (even when several tie for first: the R41 decision). Players without a key take no
    part.
    """
    present = sorted({tuple(k) for k in keys if k}, reverse=True)
    if not present:
        return [], []
    first = [p for p, k in enumerate(keys) if k and tuple(k) == present[0]]
    second = [p for p, k in enumerate(keys) if len(present) > 1 and k and tuple(k) == present[1]]
    return first, second
