"""The code stays ruff- and mypy-clean (the brief's quality bar), checked in every CI run."""

import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.dirname(sys.executable)


def _run(tool: str, *args: str) -> subprocess.CompletedProcess[str]:
    exe = os.path.join(BIN, tool)
    if not os.path.exists(exe):
        pytest.fail(f"{tool} is not installed beside {sys.executable}; install the dev extra")
    return subprocess.run([exe, *args], check=False, cwd=ROOT, capture_output=True, text=True)


def test_ruff_finds_nothing() -> None:
    out = _run("ruff", "check", "--no-cache", "core", "analysis", "puzzles", "tui", "tests", "benchmarks")
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-1000:]


def test_mypy_finds_nothing() -> None:
    out = _run("mypy", "core", "analysis", "tui")
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-1000:]
