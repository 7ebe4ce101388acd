"""Developer paths (R27): the cheapest cost from a developer to every reachable hex.

A 0-1 shortest-path search over land hexes: a step costs 1 when the terrain changes (rice ↔ village), 0
otherwise; level changes are free. The path may pass the mover's own developers but never an
opponent's developer, a palace, or a non-land hex.
"""

from __future__ import annotations

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
    target: int = -1,
) -> dict[int, int]:
    """{hex: cheapest cost} for every hex the developer on ``src`` can reach within ``limit``.

    Includes passable hexes carrying the mover's own developers (callers filter destinations).
    With a ``target`` the search stops as soon as that hex's cost is known (the dict is then
    partial; a cost is final the moment it is written).
    Layer by layer: all hexes of cost d are flooded through same-terrain steps before any of
    cost d + 1 is touched, so each hex is expanded once (a plain 0-1 BFS re-queues hexes).
    """
    dist = {src: 0}
    frontier = [src]
    d = 0
    while True:
        nxt: list[int] = []
        stack = frontier
        while stack:
            h = stack.pop()
            th = terrain[h]
            for n in nbrs[h]:
                if n in dist or not level[n] or palace[n]:
                    continue
                o = dev[n]
                if o >= 0 and o != player:
                    continue
                if terrain[n] == th:
                    dist[n] = d
                    if n == target:
                        return dist
                    stack.append(n)
                else:
                    nxt.append(n)
        d += 1
        if not nxt or d > limit:
            return dist
        frontier = []
        for n in nxt:
            if n not in dist:
                dist[n] = d
                if n == target:
                    return dist
                frontier.append(n)
