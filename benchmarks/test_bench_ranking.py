"""Group ``ranking``: R24 rank keys, R25 highest position, R41 first / second positions.

Each case is a city of 1–12 developers of 1–4 players written into flat ``level`` / ``dev``
lists of the engine's size; one round evaluates 64 such cities (``calls``), so the table
reports the time per city.
"""

from __future__ import annotations

import pytest

from benchmarks.common import ranking_board, ranking_cases
from benchmarks.reference import first_second_ref, highest_at_ref, rank_keys_ref
from core.ranking import (
    first_second,
    first_second_at,
    highest,
    highest_at,
    rank_keys,
    rank_values_at,
)

CALLS = 64
SIZES = [(1, 1), (2, 2), (4, 4), (8, 4), (12, 4)]


def _cases(n_devs: int, n_players: int) -> list[tuple[list[int], list[int], list[int]]]:
    return ranking_board(ranking_cases(n_devs, n_players, CALLS), n_devs, n_players)


@pytest.mark.parametrize(("n_devs", "n_players"), SIZES)
@pytest.mark.benchmark(group="ranking")
def test_highest_fast(bench, n_devs: int, n_players: int) -> None:
    cases = _cases(n_devs, n_players)

    def run() -> list[int]:
        return [highest_at(h, lv, dv) for h, lv, dv in cases]

    assert bench(run, pair=f"highest {n_devs} devs", role="fast", calls=CALLS) == [
        highest_at_ref(h, lv, dv) for h, lv, dv in cases
    ]


@pytest.mark.parametrize(("n_devs", "n_players"), SIZES)
@pytest.mark.benchmark(group="ranking")
def test_highest_pairs(bench, n_devs: int, n_players: int) -> None:
    """``highest`` on (level, player) pairs built from the board, as callers without the flat
    lists use it."""
    cases = _cases(n_devs, n_players)

    def run() -> list[int]:
        return [highest([(lv[h], dv[h]) for h in hs if dv[h] >= 0]) for hs, lv, dv in cases]

    bench(run, pair=f"highest {n_devs} devs", role="pairs", calls=CALLS)


@pytest.mark.parametrize(("n_devs", "n_players"), SIZES)
@pytest.mark.benchmark(group="ranking")
def test_highest_reference(bench, n_devs: int, n_players: int) -> None:
    cases = _cases(n_devs, n_players)

    def run() -> list[int]:
        return [highest_at_ref(h, lv, dv) for h, lv, dv in cases]

    bench(run, pair=f"highest {n_devs} devs", role="reference", calls=CALLS)


@pytest.mark.parametrize("n_devs", [4, 12])
@pytest.mark.benchmark(group="ranking")
def test_rank_keys_fast(bench, n_devs: int) -> None:
    """Packed keys (``rank_values_at``): one int per player, ordered like the R24 keys."""
    cases = _cases(n_devs, 4)

    def run() -> list[list[int]]:
        return [rank_values_at(h, lv, dv, 4) for h, lv, dv in cases]

    got = bench(run, pair=f"rank keys {n_devs} devs", role="fast", calls=CALLS)
    for vals, (hs, lv, dv) in zip(got, cases):
        keys = rank_keys_ref([(lv[h], dv[h]) for h in hs if dv[h] >= 0], 4)
        assert sorted(range(4), key=lambda p: (vals[p], p)) == sorted(range(4), key=lambda p: (keys[p], p))


@pytest.mark.parametrize("n_devs", [4, 12])
@pytest.mark.benchmark(group="ranking")
def test_rank_keys_lists(bench, n_devs: int) -> None:
    """``rank_keys``: the keys as sorted lists (what reports and standings show)."""
    cases = _cases(n_devs, 4)

    def run() -> list[list[list[int]]]:
        return [rank_keys([(lv[h], dv[h]) for h in hs if dv[h] >= 0], 4) for hs, lv, dv in cases]

    got = bench(run, pair=f"rank keys {n_devs} devs", role="lists", calls=CALLS)
    assert [[tuple(k) for k in keys] for keys in got] == [
        rank_keys_ref([(lv[h], dv[h]) for h in hs if dv[h] >= 0], 4) for hs, lv, dv in cases
    ]


@pytest.mark.parametrize("n_devs", [4, 12])
@pytest.mark.benchmark(group="ranking")
def test_rank_keys_reference(bench, n_devs: int) -> None:
    cases = _cases(n_devs, 4)

    def run() -> list[list[tuple[int, ...]]]:
        return [rank_keys_ref([(lv[h], dv[h]) for h in hs if dv[h] >= 0], 4) for hs, lv, dv in cases]

    bench(run, pair=f"rank keys {n_devs} devs", role="reference", calls=CALLS)


@pytest.mark.parametrize("n_devs", [4, 8, 12])
@pytest.mark.benchmark(group="ranking")
def test_first_second_fast(bench, n_devs: int) -> None:
    cases = _cases(n_devs, 4)

    def run() -> list[tuple[list[int], list[int]]]:
        return [first_second_at(h, lv, dv, 4) for h, lv, dv in cases]

    got = bench(run, pair=f"first/second {n_devs} devs", role="fast", calls=CALLS)
    assert got == [
        first_second_ref(rank_keys_ref([(lv[h], dv[h]) for h in hs if dv[h] >= 0], 4))
        for hs, lv, dv in cases
    ]


@pytest.mark.parametrize("n_devs", [4, 8, 12])
@pytest.mark.benchmark(group="ranking")
def test_first_second_keys(bench, n_devs: int) -> None:
    """The final count's current path (core.scoring): rank_keys, then first_second."""
    cases = _cases(n_devs, 4)

    def run() -> list[tuple[list[int], list[int]]]:
        return [first_second(rank_keys([(lv[h], dv[h]) for h in hs if dv[h] >= 0], 4))
                for hs, lv, dv in cases]

    bench(run, pair=f"first/second {n_devs} devs", role="keys", calls=CALLS)


@pytest.mark.parametrize("n_devs", [4, 8, 12])
@pytest.mark.benchmark(group="ranking")
def test_first_second_reference(bench, n_devs: int) -> None:
    cases = _cases(n_devs, 4)

    def run() -> list[tuple[list[int], list[int]]]:
        return [first_second_ref(rank_keys_ref([(lv[h], dv[h]) for h in hs if dv[h] >= 0], 4))
                for hs, lv, dv in cases]

    bench(run, pair=f"first/second {n_devs} devs", role="reference", calls=CALLS)
