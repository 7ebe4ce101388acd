"""The parallel runner shared by analyze batches and tournaments: local pool and Dask."""

from __future__ import annotations

import io
import json

import pytest

from analysis import parallel
from analysis.parallel import Outcome, ProgressBar, call_safely, run_parallel
from core.errors import KratonError


def square_or_fail(x: int) -> int:
    """Module level, so worker processes can import it."""
    if x < 0:
        raise KratonError(f"negative input {x}")
    if x == 13:
        raise ZeroDivisionError("unlucky")
    return x * x


def collect(outs: list[Outcome[int]]) -> dict[int, tuple[bool, int | None, str]]:
    return {o.index: (o.ok, o.value, o.error) for o in outs}


def test_call_safely_turns_exceptions_into_one_line():
    assert call_safely(square_or_fail, 3) == (True, 9)
    assert call_safely(square_or_fail, -1) == (False, "negative input -1")
    assert call_safely(square_or_fail, 13) == (False, "ZeroDivisionError: unlucky")


@pytest.mark.parametrize("workers", [1, 2])
def test_local_runs_every_item_and_errors_do_not_stop_the_batch(workers):
    items = [1, -2, 3, 13, 5]
    got = collect(list(run_parallel(square_or_fail, items, workers=workers)))
    assert got == {
        0: (True, 1, ""),
        1: (False, None, "negative input -2"),
        2: (True, 9, ""),
        3: (False, None, "ZeroDivisionError: unlucky"),
        4: (True, 25, ""),
    }


def test_progress_is_called_once_per_item_and_the_bar_counts_failures():
    stream = io.StringIO()
    bar = ProgressBar("items", stream=stream, width=10)
    seen = []

    def progress(done: int, total: int, out: Outcome[int]) -> None:
        seen.append((done, total))
        bar(done, total, out)

    list(run_parallel(square_or_fail, [1, -1, 2], workers=1, progress=progress))
    assert seen == [(1, 3), (2, 3), (3, 3)]
    text = stream.getvalue()
    assert "items [##########] 3/3" in text and "1 failed" in text and text.endswith("\n")


def test_dask_local_cluster_gives_the_same_outcomes():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        got = collect(list(run_parallel(square_or_fail, [2, -3, 4], scheduler=client)))
        assert got == {0: (True, 4, ""), 1: (False, None, "negative input -3"), 2: (True, 16, "")}
        # An address works too: the runner connects and closes its own client.
        got = collect(list(run_parallel(square_or_fail, [6], scheduler=cluster.scheduler_address)))
        assert got == {0: (True, 36, "")}


def test_unreachable_scheduler_is_one_clear_error(monkeypatch):
    pytest.importorskip("distributed")
    monkeypatch.setattr(parallel, "CONNECT_TIMEOUT", 1.0)
    with pytest.raises(KratonError, match="cannot reach the Dask scheduler"):
        list(run_parallel(square_or_fail, [1], scheduler="tcp://127.0.0.1:9"))


def test_analyze_batch_on_a_dask_cluster(tmp_path, capsys):
    """``kraton analyze --scheduler ADDRESS``: the same reports, computed on the cluster."""
    distributed = pytest.importorskip("distributed")
    from core.position import save_position
    from tests.helpers import build
    from tui.cli import main

    paths = []
    for i, dev in enumerate(["G6", "G7"]):
        f = tmp_path / f"p{i}.json"
        save_position(build(players=2, tiles=["G6v", "G7v"], developers={dev: i}), str(f))
        paths.append(str(f))
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        rc = main(["analyze", *paths, "--json", "--no-solve", "--quiet",
                   "--scheduler", cluster.scheduler_address])
    items = json.loads(capsys.readouterr().out)
    assert rc == 0
    assert [it["file"] for it in items] == paths
    assert [it["villages"][0]["highest"] for it in items] == [0, 1]
