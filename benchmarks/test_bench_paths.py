"""Group ``paths``: the cheapest cost (R27) from one developer to every reachable hex.

Cases: every developer of the saved middle and late positions. The fast path is the engine's
0-1 BFS (``core.paths.move_costs``), the reference networkx Dijkstra on the graph of legal
steps built from the same board (building that graph is part of the reference's work: the
board changes between calls in play).
"""

from __future__ import annotations

import functools

import pytest

from benchmarks.common import position
from benchmarks.reference import move_costs_ref
from core.paths import move_costs
from core.state import GameState


@functools.cache
def _cases() -> list[tuple[int, GameState]]:
    out: list[tuple[int, GameState]] = []
    for stage in ("middle", "late"):
        s = position(stage)
        out.extend((h, s) for h in s.map.hexes if s.dev[h] >= 0)
    return out


Args = tuple[int, int, list[int], list[int], list[int], list[int], list[tuple[int, ...]]]


def _args(h: int, s: GameState) -> Args:
    return (h, s.dev[h], s.level, s.terrain, s.dev, s.palace, s.map.nbrs)


@pytest.mark.benchmark(group="paths")
def test_paths_fast(bench) -> None:
    cases = [_args(h, s) for h, s in _cases()]

    def run() -> list[dict[int, int]]:
        return [move_costs(*a) for a in cases]

    got = bench(run, pair="paths from a developer", role="fast", calls=len(cases))
    assert got == [move_costs_ref(*a) for a in cases]


@pytest.mark.benchmark(group="paths")
def test_paths_within_ap(bench) -> None:
    """What move generation asks: the costs within the 6 AP of a turn."""
    cases = [_args(h, s) for h, s in _cases()]

    def run() -> list[dict[int, int]]:
        return [move_costs(*a, 6) for a in cases]

    got = bench(run, pair="paths within 6 AP", role="fast", calls=len(cases))
    assert got == [move_costs_ref(*a, 6) for a in cases]


@pytest.mark.benchmark(group="paths")
def test_paths_reference(bench) -> None:
    cases = [_args(h, s) for h, s in _cases()]

    def run() -> list[dict[int, int]]:
        return [move_costs_ref(*a) for a in cases]

    bench(run, pair="paths from a developer", role="reference", calls=len(cases))


@pytest.mark.benchmark(group="paths")
def test_paths_within_ap_reference(bench) -> None:
    cases = [_args(h, s) for h, s in _cases()]

    def run() -> list[dict[int, int]]:
        return [move_costs_ref(*a, 6) for a in cases]

    bench(run, pair="paths within 6 AP", role="reference", calls=len(cases))
