"""Developer paths (R27): the cheapest cost from a developer to every reachable hex.

A 0-1 BFS over land hexes: a step costs 1 when the terrain changes (rice ↔ village), 0
otherwise; level changes are free. The path may pass the mover's own developers but never an
opponent's developer, a palace, or a non-land hex.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence


def move_costs(
    src: int,
    player: int,
    level: Sequence[int],
    terrain: Sequence[int],
    dev: Sequence[int],
    palace: Sequence[int],
    nbrs: Sequence[Sequence[int]],
    limit: int = 99,
) -> dict[int, int]:
    """{hex: cheapest cost} for every hex the developer on ``src`` can reach within ``limit``.

    Includes passable hexes carrying the mover's own developers (callers filter destinations).
    """
    dist = {src: 0}
    dq = deque([src])
    while dq:
        h = dq.popleft()
        d = dist[h]
        th = terrain[h]
        for n in nbrs[h]:
            if level[n] == 0 or palace[n]:
                continue
            o = dev[n]
            if o >= 0 and o != player:
                continue
            nd = d + (terrain[n] != th)
            if nd > limit:
                continue
            old = dist.get(n)
            if old is None or nd < old:
                dist[n] = nd
                if nd == d:
                    dq.appendleft(n)
                else:
                    dq.append(n)
    return dist
