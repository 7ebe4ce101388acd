"""The height ranking (R24, R25) and the first/second positions of the final count (R41).

One small function family used by palaces, ponds and the final count alike. A rank key is the
list of a player's developer levels in a set of hexes, highest first (R24).

Fast path: a key compares exactly like the vector of its per-level counts read from the top
level down (the first level where two keys' counts differ decides; a prefix has the smaller
count there). Packing those counts as digits of one integer, ``sum(1 << level * bits)`` with
``2 ** bits`` above any possible count, turns every key comparison into one integer
comparison. ``benchmarks/reference.py`` keeps the plain sorted-list version as the oracle.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence


def rank_keys(devs: Iterable[tuple[int, int]], n_players: int) -> list[list[int]]:
    """Per-player rank keys (R24) from (level, player) pairs; [] for a player with none there."""
    keys: list[list[int]] = [[] for _ in range(n_players)]
    for level, player in devs:
        keys[player].append(level)
    for k in keys:
        k.sort(reverse=True)
    return keys


def key_value(levels: Iterable[int], bits: int = 8) -> int:
    """An R24 rank key as an int (levels ≥ 0, fewer than ``2 ** bits`` at any one level):
    ``key_value(a) < key_value(b)`` exactly when key a ranks below key b."""
    v = 0
    for level in levels:
        v += 1 << (level * bits)
    return v


@functools.cache
def _weights(bits: int) -> tuple[int, ...]:
    """``1 << (bits * level)`` for every level a hex can reach (96 land tiles exist, R1)."""
    return tuple(1 << (bits * level) for level in range(128))


_W4 = _weights(4)  # enough while fewer than 16 hexes are ranked (no count reaches 16)


def highest_at(hexes: Sequence[int], level: Sequence[int], dev: Sequence[int]) -> int:
    """The player holding the highest position (R25) among the developers on ``hexes``, or -1.

    Reads the engine's flat ``level`` / ``dev`` lists directly; players are 0..3 (R1).
    """
    # rank_values_at inlined: this is the hottest call of palaces and ponds (R28, R38).
    vals = [0, 0, 0, 0]
    # A count at one level never reaches 2 ** bits, so the packed digits never carry.
    w = _W4 if len(hexes) < 16 else _weights(len(hexes).bit_length())
    for h in hexes:
        p = dev[h]
        if p >= 0:
            vals[p] += w[level[h]]
    best = max(vals)
    if not best or vals.count(best) > 1:
        return -1
    return vals.index(best)


def highest(devs: Sequence[tuple[int, int]]) -> int:
    """The player holding the highest position (R25) among (level, player) pairs, or -1."""
    bits = len(devs).bit_length()
    vals: dict[int, int] = {}
    for level, player in devs:
        vals[player] = vals.get(player, 0) + (1 << (level * bits))
    if not vals:
        return -1
    best = max(vals.values())
    holder = -1
    for p, v in vals.items():
        if v == best:
            if holder >= 0:
                return -1
            holder = p
    return holder


def rank_values_at(
    hexes: Sequence[int], level: Sequence[int], dev: Sequence[int], n_players: int
) -> list[int]:
    """Each player's R24 rank key among the developers on ``hexes`` as one int (0 = no
    developer there): comparing two values compares the two keys."""
    vals = [0] * n_players
    w = _W4 if len(hexes) < 16 else _weights(len(hexes).bit_length())
    for h in hexes:
        p = dev[h]
        if p >= 0:
            vals[p] += w[level[h]]
    return vals


def first_second_at(
    hexes: Sequence[int], level: Sequence[int], dev: Sequence[int], n_players: int
) -> tuple[list[int], list[int]]:
    """First and second positions (R41) among the developers on ``hexes``; see first_second."""
    vals = rank_values_at(hexes, level, dev, n_players)
    top = max(vals)
    if not top:
        return [], []
    first: list[int] = []
    second: list[int] = []
    nxt = 0
    for p in range(n_players):
        v = vals[p]
        if v == top:
            first.append(p)
        elif v > nxt:
            nxt = v
            second = [p]
        elif v == nxt and v:
            second.append(p)
    return first, second


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
