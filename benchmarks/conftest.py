"""Helpers for the suites: every benchmark names its pair and role in ``extra_info`` so that
``benchmarks/run.py`` can put a fast path and its reference side by side (same run)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest


class Bench:
    """``bench(fn, pair=..., role=..., calls=N)``: measure ``fn``; N calls per round."""

    def __init__(self, benchmark: Any) -> None:
        self.benchmark = benchmark

    def __call__(self, fn: Callable[[], Any], *, pair: str, role: str, calls: int = 1,
                 rounds: int | None = None) -> Any:
        info = self.benchmark.extra_info
        info["pair"], info["role"], info["calls"] = pair, role, calls
        if rounds is not None:
            return self.benchmark.pedantic(fn, rounds=rounds, iterations=1, warmup_rounds=0)
        return self.benchmark(fn)


@pytest.fixture
def bench(benchmark: Any) -> Bench:
    return Bench(benchmark)
