"""Puzzle metadata (issue 25): themes follow what the line does, uniqueness agrees with a plain
enumeration of every short line, the first rating grows with the measured difficulty, the
loader reads the optional keys (and refuses bad ones in one line) and old files still load."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from analysis.puzzle_meta import first_rating, rate_file, themes_of, uniqueness
from analysis.solver.common import festival_outcome, replay, step_outcome
from core.actions import End, Festival, Palace, Token, parse_actions
from core.errors import IllegalAction, PositionError
from core.state import GameState
from puzzles.loader import DIFFICULTY_RATING, load_puzzle, load_puzzles

PUZZLES = load_puzzles()
ONE_AP = [p for p in PUZZLES if p.ap + p.state.token_bonus() == 1 and p.best > 0][:10]


def every_line_without(s: GameState, first: str, depth: int) -> int:
    """The oracle: every line of at most ``depth`` actions (no memo, no solver), the best whose
    first scoring action is not ``first``."""
    best = 0

    def go(st: GameState, d: int, scored: int) -> None:
        nonlocal best
        for a in list(st.legal_actions()):
            if isinstance(a, End):
                continue
            if isinstance(a, Festival):
                fo = festival_outcome(st, a)
                if fo is not None and fo.points > 0 and (scored or str(a) != first):
                    best = max(best, scored + fo.points)
                continue
            try:
                g = step_outcome(st, a)
            except IllegalAction:
                continue
            try:
                if g.points > 0 and not scored and str(a) == first:
                    continue
                best = max(best, scored + g.points)
                if d > 1:
                    go(st, d - 1, scored + g.points)
            finally:
                st.pop()

    go(s.copy(), depth, 0)
    return best


@pytest.mark.parametrize("pz", ONE_AP, ids=lambda p: p.id)
def test_uniqueness_agrees_with_every_short_line(pz) -> None:  # type: ignore[no-untyped-def]
    line = parse_actions(pz.line)
    _, steps = replay(pz.state, line)
    first = next(str(a) for a, p in zip(line, steps) if p > 0)
    u = uniqueness(pz.state, line, 60)
    assert u is not None and 0 <= u <= pz.best
    assert u == every_line_without(pz.state, first, 3)


def test_uniqueness_is_none_when_the_search_is_cut() -> None:
    import analysis.puzzle_meta as meta

    pz = next(p for p in PUZZLES if p.ap + p.state.token_bonus() >= 2 and p.best > 0)
    old = meta.NODES
    meta.NODES = 1
    try:
        assert uniqueness(pz.state, parse_actions(pz.line), 60) is None
    finally:
        meta.NODES = old


@pytest.mark.parametrize("pz", PUZZLES[::3], ids=lambda p: p.id)
def test_themes_follow_the_line(pz) -> None:  # type: ignore[no-untyped-def]
    line = parse_actions(pz.line)
    themes = themes_of(pz.state, line)
    budget = pz.ap + pz.state.token_bonus()
    assert ("festival" in themes) == any(isinstance(a, Festival) for a in line)
    assert ("token" in themes) == any(isinstance(a, Token) for a in line)
    palaces = any(isinstance(a, Palace) for a in line[: next((i for i, a in enumerate(line)
                                                              if isinstance(a, Festival)), len(line))])
    assert palaces == bool({"palace", "enlarge"} & set(themes))
    assert ("full-turn" in themes) == (budget >= 6) and ("one-ap" in themes) == (budget == 1)


def test_the_first_rating_grows_with_ap_and_line_length() -> None:
    easy = next(p for p in PUZZLES if p.ap + p.state.token_bonus() == 1 and len(parse_actions(p.line)) == 1)
    hard = max(PUZZLES, key=lambda p: (p.ap + p.state.token_bonus(), len(p.line)))
    r_easy = first_rating(easy.state, parse_actions(easy.line), easy.best, None)
    r_hard = first_rating(hard.state, parse_actions(hard.line), hard.best, None)
    assert r_hard > r_easy + 300
    # a close alternative (a trap) makes it harder, never easier
    assert first_rating(easy.state, parse_actions(easy.line), easy.best, easy.best) > r_easy


def test_rate_writes_the_keys_and_the_loader_reads_them(tmp_path: Path) -> None:
    src = next(p for p in ONE_AP if p.map == "java-centre")
    f = tmp_path / "x.json"
    f.write_text(Path(src.path).read_text())
    p = rate_file(str(f), deadline=60)
    assert set(p) >= {"themes", "rating", "rd", "uniqueness"}
    pz = load_puzzle(str(f))
    assert pz.themes == p["themes"] and pz.rating == p["rating"] and pz.uniqueness == p["uniqueness"]
    before = f.read_bytes()
    rate_file(str(f), deadline=60)  # nothing new: the file is left alone
    assert f.read_bytes() == before


def test_old_files_load_with_defaults(tmp_path: Path) -> None:
    d = json.loads(Path(PUZZLES[0].path).read_text())
    for k in ("themes", "rating", "rd", "uniqueness", "source"):
        d["puzzle"].pop(k, None)
    d["map"] = PUZZLES[0].state.map.name if PUZZLES[0].map == "java-centre" else str(
        Path(PUZZLES[0].path).parent / PUZZLES[0].map)
    f = tmp_path / "old.json"
    f.write_text(json.dumps(d))
    pz = load_puzzle(str(f))
    assert pz.themes == [d["puzzle"]["theme"]] and pz.rating == DIFFICULTY_RATING[pz.difficulty]
    assert pz.uniqueness is None and pz.source is None


@pytest.mark.parametrize(("key", "value"), [("themes", "pond"), ("themes", [1]), ("rating", "high"),
                                            ("rating", 1e9), ("rd", -1), ("uniqueness", 1.5),
                                            ("uniqueness", True), ("source", {"record": 3})])
def test_bad_optional_keys_are_one_line(key: str, value: object, tmp_path: Path) -> None:
    d = json.loads(Path(PUZZLES[0].path).read_text())
    d["puzzle"][key] = value
    if PUZZLES[0].map != "java-centre":
        d["map"] = str(Path(PUZZLES[0].path).parent / PUZZLES[0].map)
    f = tmp_path / "bad.json"
    f.write_text(json.dumps(d))
    with pytest.raises(PositionError, match=f"puzzle.{key}") as e:
        load_puzzle(str(f))
    assert "\n" not in str(e.value)
