"""Issue 23's fuzz test: hostile inputs through the ``kraton`` entry point, in-process.

CI runs 5,000 mutated inputs (``tests/fuzzing.py``) plus hypothesis strategies (action text,
hex names, card text, JSON values put into a position); ``-m slow`` runs 100,000 inputs and an
invariant check over 300 random complete games. The contract, for every command: exit 0 or
2, an error is one line on stderr, and no input takes longer than the hang limit.
"""

from __future__ import annotations

import json
import random
import shutil
import string
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.game import as_seen_by, play_random_game
from core.position import position_from_dict, position_to_dict
from core.state import GameState
from tests.fuzzing import CARDS, HEX_NAMES, VERBS, Tally, fuzz, fuzz_maps, run_cli, scratch_folder

ROOT = Path(__file__).resolve().parent.parent
VALID = ROOT / "puzzles" / "festival-01.json"
CI_INPUTS = 5_000
SLOW_INPUTS = 100_000


def _report(t: Tally) -> str:
    lines = [t.line()]
    for kind, ex in t.examples.items():
        lines += [f"  {kind}: {e}" for e in ex]
    return "\n".join(lines)


def _fuzz(n: int, seed: int, tmp_path: Path) -> Tally:
    folder = scratch_folder(tmp_path)
    try:
        t0 = time.perf_counter()
        t = fuzz(n, seed, folder)
        print(f"\nfuzz: {t.line()} in {time.perf_counter() - t0:.1f} s")
    finally:
        if folder != tmp_path:
            shutil.rmtree(folder, ignore_errors=True)
    return t


def test_fuzz_the_cli_with_5000_mutated_inputs(tmp_path: Path) -> None:
    t = _fuzz(CI_INPUTS, 23, tmp_path)
    assert t.inputs == CI_INPUTS
    assert t.bad() == 0, _report(t)
    assert t.counts["ok"] > 0 and t.counts["error"] > 0  # both paths were exercised


@pytest.mark.slow
def test_fuzz_the_cli_with_100000_mutated_inputs(tmp_path: Path) -> None:
    t = _fuzz(SLOW_INPUTS, 2300, tmp_path)
    assert t.inputs == SLOW_INPUTS
    assert t.bad() == 0, _report(t)


@pytest.mark.parametrize("n", [pytest.param(1_000, id="ci"), pytest.param(20_000, id="slow", marks=pytest.mark.slow)])
def test_fuzz_map_files(tmp_path: Path, n: int) -> None:
    """Mutated map files (issue 23: 6,000 map mutations gave 116 tracebacks)."""
    folder = scratch_folder(tmp_path)
    try:
        t = fuzz_maps(n, 7, folder)
    finally:
        if folder != tmp_path:
            shutil.rmtree(folder, ignore_errors=True)
    print(f"\nmap fuzz: {t.line()}")
    assert t.bad() == 0, _report(t)
    assert t.counts["ok"] > 0 and t.counts["error"] > 0


# ---------------------------------------------------------------- hypothesis strategies
hexes = st.one_of(st.sampled_from(HEX_NAMES),
                  st.builds(lambda r, c: f"{r}{c}", st.characters(), st.text(max_size=3)))
cards = st.one_of(st.sampled_from(CARDS), st.text(alphabet="DMPXdmp+ ", max_size=6))
words = st.one_of(hexes, cards, st.sampled_from(["faceup", "deck", "2", "4", "²", "v", "r"]),
                  st.builds(lambda h, t: h + t, hexes, st.sampled_from("vrx")), st.text(max_size=8))
actions = st.builds(lambda v, a: " ".join([v, *a]), st.sampled_from(VERBS), st.lists(words, max_size=4))
action_texts = st.one_of(st.lists(actions, min_size=1, max_size=4).map("; ".join),
                         st.text(alphabet=string.printable + "²٥Ｇ\x00\x1b", max_size=40))
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(10**25), max_value=10**25) | st.floats()
    | st.text(max_size=6) | hexes,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4) | hexes, inner, max_size=4),
    max_leaves=12,
)
FIELDS = [("map",), ("to_move",), ("players",), ("players", 0), ("players", 0, "hand"),
          ("players", 1, "score"), ("turn",), ("turn", "ap"), ("turn", "palaces_changed"),
          ("last_round",), ("supply", "palaces"), ("cards", "deck"), ("cards", "face_up"),
          ("tiles",), ("tiles", 0), ("tiles", 0, "hexes"), ("developers",), ("palaces",),
          ("irrigation",), ("festival",), ("seed",), ("format",)]

FAST = settings(max_examples=300, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


def _one_line_or_ok(argv: list[str]) -> None:
    o = run_cli(argv)
    assert o.kind in ("ok", "error"), (argv, o)


@FAST
@given(text=action_texts)
def test_hypothesis_action_text_through_apply(text: str) -> None:
    _one_line_or_ok(["apply", str(VALID), text])


def _put(d: Any, path: tuple[Any, ...], value: Any) -> None:
    for k in path[:-1]:
        d = d[k]
    d[path[-1]] = value


@FAST
@given(field=st.sampled_from(FIELDS), value=json_values, cmd=st.sampled_from(["validate", "show", "replay"]))
def test_hypothesis_json_values_in_every_field(tmp_path: Path, field: tuple[Any, ...], value: Any,
                                               cmd: str) -> None:
    d = json.loads(VALID.read_text())
    d["map"] = "java-centre"
    _put(d, field, value)
    p = tmp_path / "h.json"
    p.write_text(json.dumps(d))
    _one_line_or_ok([cmd, str(p)])


# ---------------------------------------------------------------- kraton review (issue 22)
REVIEW = ["--summary", "--turns", "1", "--time-limit", "0.05", "--workers", "1", "--quiet"]


@pytest.mark.parametrize("n", [pytest.param(20, id="ci"), pytest.param(1_000, id="slow", marks=pytest.mark.slow)])
def test_fuzz_review_with_mutated_records(tmp_path: Path, n: int) -> None:
    """Mutated game records (and annotations) through ``kraton review`` in batch."""
    from tests.fuzzing import Mutator

    m = Mutator(22)
    m.names = [k for k in m.names if m.seeds[k].get("format") == "java-game"]
    for k in m.names:  # the annotations key is mutated like the rest
        m.seeds[k]["annotations"] = {"comments": {"3": "a"}, "evaluations": {"1": {"best": 3, "mark": "?!"}}}
    pos = tmp_path / "in.json"
    t = Tally()
    for _ in range(n):
        pos.write_text(m.text(), errors="surrogatepass")
        argv = ["review", str(pos), *REVIEW]
        t.add(argv, run_cli(argv))
        t.inputs += 1
    print(f"\nreview fuzz: {t.line()}")
    assert t.bad() == 0, _report(t)
    assert t.counts["ok"] > 0 and t.counts["error"] > 0


review_options = st.lists(st.sampled_from(["--turns", "--player", "--time-limit", "--workers", "--min-missed", "--engine",
                                           "-o", "--chart", "--puzzles", "--json", "--summary"]), max_size=3)


@settings(max_examples=60, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(options=review_options, values=st.lists(st.text(max_size=12) | st.integers().map(str)
                                              | st.floats(allow_nan=True).map(str), min_size=3, max_size=3))
def test_hypothesis_review_option_values(tmp_path: Path, options: list[str], values: list[str]) -> None:
    """Any option value: exit 0 or one line and 2 (never a traceback); files only in tmp_path."""
    from tests.test_review import mistake_game

    game = mistake_game(tmp_path)
    argv = ["review", game, "--quiet", "--summary", "--time-limit", "0.2", "--workers", "1"]
    for opt, value in zip(options, values):
        if opt in ("-o", "--chart", "--puzzles"):
            value = str(tmp_path / "out" / (value.replace("/", "_").replace("\x00", "") or "x"))
        argv += [opt] if opt in ("--json", "--summary") else [opt, value]
    o = run_cli(argv, hang_seconds=60)
    assert o.kind in ("ok", "error"), (argv, o)


# ---------------------------------------------------------------- invariants over random games
def _check(s: GameState, rng: random.Random) -> None:
    """A position reached by legal play is one the loader accepts (no false refusal of the
    reachability checks), serialises identically, and a player's view keeps what he sees."""
    d = position_to_dict(s)
    again = position_from_dict(d)
    assert position_to_dict(again) == d
    p = rng.randrange(s.n_players)
    seen = as_seen_by(s, p, rng)
    assert seen.players[p].hand == s.players[p].hand
    assert [len(q.hand) for q in seen.players] == [len(q.hand) for q in s.players]
    assert len(seen.deck) == len(s.deck) and seen.face_up == s.face_up and seen.discard == s.discard
    assert seen.tiles == s.tiles and seen.dev == s.dev and seen.palace == s.palace


def _invariant_games(n: int, seed: int) -> int:
    checked = 0
    for k in range(n):
        rng = random.Random(seed + k)
        policy = ("uniform", "kinds", "festive")[k % 3]
        g = play_random_game(2 + k % 3, seed + k, policy)
        replay = GameState.new(2 + k % 3, seed=seed + k)
        scores = [0] * replay.n_players
        for i, a in enumerate(g.actions):
            replay.push(a)
            assert all(q.score >= old for q, old in zip(replay.players, scores)), "a score fell"
            scores = [q.score for q in replay.players]
            if i % 7 == 0 or replay.last_round is not None or replay.festival is not None:
                _check(replay, rng)
                checked += 1
        assert replay.is_terminal() and replay.last_round == []
        assert all(q.final_counted for q in replay.players)  # R40, R41
    return checked


def test_invariants_over_random_games_smoke() -> None:
    assert _invariant_games(2, 500) > 50


@pytest.mark.slow
def test_invariants_over_300_random_complete_games() -> None:
    checked = _invariant_games(300, 10_000)
    print(f"\ninvariants: 300 games, {checked} positions checked")
