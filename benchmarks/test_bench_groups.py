"""Group ``groups``: the village groups and cities (R20–R23) after a land tile is placed.

Cases: 32 placements spread over a seeded random game. The fast path updates the groups of the
board before the placement (``core.groups.update_groups``, what ``GameState.push`` does); the
from-scratch walk (``village_groups``) and networkx connected components are measured on the
same boards. One round handles all 32 placements; the table reports per placement.
"""

from __future__ import annotations

import functools

import pytest

from benchmarks.common import tile_cases
from benchmarks.reference import village_partition_ref
from core.groups import Groups, update_groups, village_groups
from core.hexmap import SIZE, HexMap

CALLS = 32


@functools.cache
def _cases() -> list[tuple[Groups, tuple[int, ...], list[int], list[int], HexMap]]:
    out = []
    for s, tile in tile_cases(7, CALLS):
        before = s.groups()
        s.push(tile)
        out.append((before, tile.hexes, list(s.terrain), list(s.palace), s.map))
    return out


def _partition(g: Groups) -> set[frozenset[int]]:
    return {frozenset(m) for m in g.members}


@pytest.mark.benchmark(group="groups")
def test_groups_incremental(bench) -> None:
    cases = _cases()

    def run() -> list[Groups]:
        return [update_groups(g, hexes, terrain, m.nbrs, palace)
                for g, hexes, terrain, palace, m in cases]

    got = bench(run, pair="groups after a tile", role="fast", calls=len(cases))
    for g, (_, _, terrain, _, m) in zip(got, cases):
        assert _partition(g) == village_partition_ref(m.hexes, terrain, m.nbrs)


@pytest.mark.benchmark(group="groups")
def test_groups_from_scratch(bench) -> None:
    cases = _cases()

    def run() -> list[Groups]:
        return [village_groups(m.hexes, terrain, m.nbrs, palace, SIZE)
                for _, _, terrain, palace, m in cases]

    bench(run, pair="groups after a tile", role="scratch", calls=len(cases))


@pytest.mark.benchmark(group="groups")
def test_groups_reference(bench) -> None:
    cases = _cases()

    def run() -> list[set[frozenset[int]]]:
        return [village_partition_ref(m.hexes, terrain, m.nbrs) for _, _, terrain, _, m in cases]

    bench(run, pair="groups after a tile", role="reference", calls=len(cases))
