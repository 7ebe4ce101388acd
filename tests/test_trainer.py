"""The puzzle trainer's logic (issue 25): Glicko-2 against Glickman's worked example, the
selection near the rating, sessions (streak with one allowed mistake, retry of failed
puzzles, the mix toward weak themes) and the two-stage hint's first stage."""

from __future__ import annotations

import math
import random
import statistics
from dataclasses import dataclass
from pathlib import Path

import pytest

from analysis.trainer.catalog import Entry, load_set
from analysis.trainer.glicko import Rating, expected, solve_result, update
from analysis.trainer.hints import where_hint
from analysis.trainer.progress import Progress
from analysis.trainer.select import choose, weights_by_theme
from analysis.trainer.session import RETRY_AFTER, Session, attempt_score
from core.actions import parse_action
from puzzles.loader import HERE


def test_glicko2_matches_glickmans_worked_example() -> None:
    """Glickman, "Example of the Glicko-2 system": 1500/200/0.06, tau 0.5, against 1400/30
    (won), 1550/100 (lost), 1700/300 (lost) -> 1464.06, RD 151.52, volatility 0.05999."""
    r = update(Rating(1500, 200, 0.06), [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0),
                                         (Rating(1700, 300), 0.0)], tau=0.5)
    assert r.rating == pytest.approx(1464.06, abs=0.01)
    assert r.rd == pytest.approx(151.52, abs=0.01)
    assert r.vol == pytest.approx(0.05999, abs=0.00001)


def test_glicko2_without_games_only_widens_the_deviation() -> None:
    r = update(Rating(1500, 200, 0.06), [])  # step 6: phi* = sqrt(phi^2 + sigma^2)
    assert r.rating == 1500 and r.rd == pytest.approx(math.hypot(200, 0.06 * 173.7178), abs=0.001)


def test_a_solve_moves_user_and_puzzle_in_opposite_directions() -> None:
    user, puzzle = Rating(1500, 100), Rating(1500, 100)
    u1, p1 = solve_result(user, puzzle, 1.0)
    assert u1.rating > 1500 > p1.rating
    u0, p0 = solve_result(user, puzzle, 0.0)
    assert u0.rating < 1500 < p0.rating
    uh, _ = solve_result(user, puzzle, 0.5)  # a hinted solve is a draw: almost nothing moves
    assert abs(uh.rating - 1500) < abs(u1.rating - 1500) / 10
    assert expected(Rating(1700), Rating(1500)) > 0.5


@dataclass(frozen=True)
class P:
    key: str
    rating: float
    themes: tuple[str, ...] = ("pond",)


def test_the_selection_centres_on_the_target_rating() -> None:
    """Over a collection spread from 600 to 2600, the picks for a 1500 player sit near 1500:
    their mean within 40 points, nine in ten within 250, while a uniform pick would not."""
    pool = [P(f"p{i}", 600 + i * 2) for i in range(1001)]
    rng = random.Random(1)
    picks = [choose(pool, 1500, rng) for _ in range(2000)]
    ratings = [p.rating for p in picks if p is not None]
    assert abs(statistics.mean(ratings) - 1500) < 40
    assert sum(abs(r - 1500) <= 250 for r in ratings) / len(ratings) > 0.9
    uniform = [rng.choice(pool).rating for _ in range(2000)]
    assert sum(abs(r - 1500) <= 250 for r in uniform) / len(uniform) < 0.5
    low = [choose(pool, 900, rng) for _ in range(500)]
    assert abs(statistics.mean(p.rating for p in low if p) - 900) < 40


def test_the_selection_avoids_recent_and_solved_puzzles_and_respects_the_theme() -> None:
    pool = [P("a", 1500), P("b", 1500, ("palace",)), P("c", 1900)]
    rng = random.Random(2)
    seen = {"a": (1000.0, 1, 1)}
    for _ in range(50):
        pick = choose(pool, 1500, rng, seen=seen, now=1000.0 + 60)
        assert pick is not None and pick.key != "a"
    assert all(choose(pool, 1500, rng, theme="palace").key == "b" for _ in range(20))  # type: ignore[union-attr]
    assert choose(pool, 1500, rng, theme="festival") is None
    assert choose(pool, 1500, rng, exclude=["a", "b", "c"]) is None
    # the database's rating overrides the file's
    assert all(choose(pool, 1900, rng, ratings={"a": 1900, "c": 600}, exclude=["b"]).key == "a"  # type: ignore[union-attr]
               for _ in range(20))


def test_the_mix_weighs_weak_themes_more() -> None:
    w = weights_by_theme({"pond": (10, 9), "palace": (10, 3)}, ["pond", "palace", "token"])
    assert w["palace"] > w["token"] > w["pond"]


def test_attempt_scores() -> None:
    assert attempt_score(True, 0, False) == 1.0
    assert attempt_score(True, 1, False) == 0.5
    assert attempt_score(True, 2, False) == 0.0
    assert attempt_score(True, 0, True) == 0.0
    assert attempt_score(False, 0, False) == 0.0


def entries(n: int = 12) -> list[Entry]:
    return [Entry(f"t{i}", f"t{i}", f"/nowhere/t{i}.json", 1000 + 50 * i, 100,
                  ("pond",) if i % 2 else ("palace",), 2, 3, "") for i in range(n)]


def test_streak_ends_on_the_second_mistake(tmp_path: Path) -> None:
    prog = Progress(tmp_path / "p.sqlite")
    s = Session(entries(), prog, "streak", rng=random.Random(3))
    for score in (1.0, 1.0, 0.0, 1.0):
        e = s.next()
        assert e is not None
        r = s.finish(e, score)
        assert not r.streak_over and not r.rated
    assert (s.streak, s.mistakes) == (3, 1)
    e = s.next()
    assert e is not None
    r = s.finish(e, 0.0)
    assert r.streak_over and s.over and s.next() is None
    st = prog.stats()
    assert st.best_streak == 3 and st.streaks == 1
    assert prog.user().rating == 1500  # a streak is unrated


def test_rated_session_moves_the_rating_and_retries_a_failed_puzzle(tmp_path: Path) -> None:
    prog = Progress(tmp_path / "p.sqlite")
    s = Session(entries(), prog, "rated", rng=random.Random(4))
    first = s.next()
    assert first is not None
    r = s.finish(first, 0.0)
    assert r.rated and r.user_after < r.user_before
    later = []
    for _ in range(RETRY_AFTER + 1):
        e = s.next()
        assert e is not None
        later.append(e.key)
        s.finish(e, 1.0)
    assert later[:RETRY_AFTER].count(first.key) == 0 and later[RETRY_AFTER] == first.key
    assert prog.stats().attempts == RETRY_AFTER + 2
    assert len(prog.history()) == RETRY_AFTER + 1  # the retry is unrated


def test_theme_session_serves_only_that_theme(tmp_path: Path) -> None:
    s = Session(entries(), Progress(tmp_path / "p.sqlite"), "theme", "palace", random.Random(5))
    for _ in range(6):
        e = s.next()
        assert e is not None and "palace" in e.themes
        s.finish(e, 1.0)


def test_the_first_hint_names_the_kind_and_place_not_the_action() -> None:
    text = where_hint(parse_action("tile G6v G5r H5r"))
    assert "3-space tile" in text and "G5" in text and "G6v" not in text
    assert "F4" in where_hint(parse_action("palace F4 3")) and " 3" not in where_hint(parse_action("palace F4 3"))
    assert "E7" in where_hint(parse_action("move E7 J6")) and "J6" not in where_hint(parse_action("move E7 J6"))


def test_the_collection_index_reads_every_puzzle() -> None:
    rows, errors = load_set(HERE)
    assert not errors and len(rows) >= 40
    assert all(e.themes and 0 < e.rating < 4000 for e in rows)


def test_the_stats_rating_path_is_empty_before_the_first_rated_attempt() -> None:
    from analysis.trainer.report import sparkline

    assert sparkline([1500.0]) == "" and sparkline([]) == ""
    path = sparkline([1500.0, 1600.0, 1550.0])
    assert len(path) == 3 and path[0] == "▁" and path[1] == "█"
