"""Fixtures the app's test modules share (each opts in with ``pytestmark``)."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def kraton_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``$KRATON_HOME`` in the test's own folder: saves, autosaves, the trainer's progress and
    puzzles never touch the user's ``~/.kraton``, nor one test another's."""
    monkeypatch.setenv("KRATON_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


@pytest.fixture
def colour(monkeypatch: pytest.MonkeyPatch) -> None:
    """Colours on, whatever the shell running the tests says (``NO_COLOR``): for the tests
    that look at what the colours show."""
    monkeypatch.delenv("NO_COLOR", raising=False)
