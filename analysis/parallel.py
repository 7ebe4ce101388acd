"""Run one function over many items in parallel: a local process pool, or a Dask cluster.

Shared by ``kraton analyze`` batches and ``kraton tournament``. Results come back as they
finish, each tagged with its item's index; an item that raises does not stop the others: its
error travels back as one line of text (what went wrong), never as a traceback.

Dask is optional (the ``dask`` extra, ``dask[distributed]``): ``scheduler`` is an address such
as ``tcp://10.0.0.5:8786`` or an already connected ``distributed.Client``.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from typing import IO, Any, Generic, TypeVar

from core.errors import KratonError

CONNECT_TIMEOUT = 10.0  # seconds to reach a Dask scheduler
T = TypeVar("T")
R = TypeVar("R")


@dataclass
class Outcome(Generic[R]):
    """One item's result: ``value`` when ``ok``, else ``error`` (a one-line message)."""

    index: int
    ok: bool
    value: R | None = None
    error: str = ""


def call_safely(fn: Callable[[Any], R], item: Any) -> tuple[bool, Any]:
    """Runs in the worker: (True, value), or (False, message) for any exception."""
    try:
        return True, fn(item)
    except ValueError as e:  # KratonError and every engine refusal
        return False, str(e)
    except OSError as e:
        return False, f"{e.filename or ''}: {e.strerror}"
    except Exception as e:  # noqa: BLE001 - a batch reports, it does not crash
        return False, f"{type(e).__name__}: {e}"


def default_workers() -> int:
    return max(1, min(os.cpu_count() or 1, 8))


def run_parallel(
    fn: Callable[[T], R],
    items: Sequence[T],
    workers: int | None = None,
    scheduler: Any = None,
    progress: Callable[[int, int, Outcome[R]], None] | None = None,
) -> Iterator[Outcome[R]]:
    """Yield an Outcome per item as it completes. ``fn`` must be a module-level function.

    ``workers`` = 1 runs in this process (no pickling; handy for tests and debugging).
    """
    n = len(items)
    if scheduler is not None:
        source = _dask(fn, items, scheduler)
    elif (workers or default_workers()) <= 1 or n <= 1:
        source = ((i, *call_safely(fn, it)) for i, it in enumerate(items))
    else:
        source = _pool(fn, items, workers or default_workers())
    for done, (i, ok, value) in enumerate(source, 1):
        out: Outcome[R] = Outcome(i, True, value) if ok else Outcome(i, False, None, str(value))
        if progress is not None:
            progress(done, n, out)
        yield out


def _pool(fn: Callable[[T], R], items: Sequence[T], workers: int) -> Iterator[tuple[int, bool, Any]]:
    with ProcessPoolExecutor(max_workers=min(workers, len(items))) as ex:
        pending: dict[Future[tuple[bool, Any]], int] = {
            ex.submit(call_safely, fn, it): i for i, it in enumerate(items)
        }
        while pending:
            finished, _ = wait(pending, return_when=FIRST_COMPLETED)
            for f in finished:
                i = pending.pop(f)
                try:
                    ok, value = f.result()
                except Exception as e:  # noqa: BLE001 - a worker died (e.g. out of memory)
                    ok, value = False, f"worker failed: {type(e).__name__}: {e}"
                yield i, ok, value


def _dask(fn: Callable[[T], R], items: Sequence[T], scheduler: Any) -> Iterator[tuple[int, bool, Any]]:
    try:
        from distributed import Client, as_completed
    except ImportError:
        raise KratonError(
            "--scheduler needs Dask: pip install 'kraton[dask]' (dask[distributed])"
        ) from None
    own = not isinstance(scheduler, Client)
    try:
        client = Client(scheduler, timeout=CONNECT_TIMEOUT) if own else scheduler
    except (OSError, TimeoutError) as e:
        raise KratonError(f"cannot reach the Dask scheduler at {scheduler}: {e}") from None
    try:
        futures = client.map(call_safely, [fn] * len(items), list(items), pure=False)
        index = {f.key: i for i, f in enumerate(futures)}
        for f in as_completed(futures):
            try:
                ok, value = f.result()
            except Exception as e:  # noqa: BLE001 - a worker was lost
                ok, value = False, f"worker failed: {type(e).__name__}: {e}"
            yield index[f.key], ok, value
    finally:
        if own:
            client.close()


class ProgressBar:
    """A one-line progress bar on a stream (stderr by default), redrawn in place."""

    def __init__(self, label: str, stream: IO[str] | None = None, width: int = 30) -> None:
        self.label = label
        self.stream = stream if stream is not None else sys.stderr
        self.width = width
        self.start = time.perf_counter()
        self.failed = 0

    def __call__(self, done: int, total: int, out: Outcome[Any]) -> None:
        if not out.ok:
            self.failed += 1
        fill = self.width * done // max(total, 1)
        bar = "#" * fill + "." * (self.width - fill)
        secs = time.perf_counter() - self.start
        fail = f", {self.failed} failed" if self.failed else ""
        end = "\n" if done == total else ""
        self.stream.write(f"\r{self.label} [{bar}] {done}/{total} {secs:.1f}s{fail}{end}")
        self.stream.flush()
