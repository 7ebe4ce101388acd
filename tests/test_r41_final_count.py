"""R41 (and R40): the final count — first and second positions in every city."""

from __future__ import annotations

import pytest

from core.errors import IllegalAction
from core.scoring import city_standings, final_count
from tests.helpers import H, act, build, lay, play, put_dev, put_palace

A, B, C, D = 0, 1, 2, 3


def city(players: int, palace_value: int, devs: dict[str, tuple[int, int]], row: str = "I",
         cols: range = range(4, 14), palace_col: int | None = None):
    """A city of village hexes ``row``+cols (level 1 unless a developer stands higher) with its
    palace on the first hex. ``devs``: hex -> (player, level)."""
    s = build(players=players)
    add_city(s, palace_value, devs, row, cols, palace_col)
    return s


def add_city(s, palace_value, devs, row="I", cols=range(4, 14), palace_col=None) -> None:
    for c in cols:
        n = f"{row}{c}"
        level = devs.get(n, (0, 1))[1]
        for _ in range(level - 1):
            lay(s, f"{n}r")
        lay(s, f"{n}v")
    put_palace(s, f"{row}{palace_col or cols[0]}", palace_value)
    for n, (p, _) in devs.items():
        put_dev(s, n, p)


def test_r41_rule_book_example_shared_second_place() -> None:
    # Palace of 10: A, B, C each have levels 3 and 2, B also a level 1.
    s = city(3, 10, {"I5": (A, 3), "I6": (A, 2), "I7": (B, 3), "I8": (B, 2), "I9": (B, 1),
                     "I10": (C, 3), "I11": (C, 2)})
    [st] = city_standings(s)
    assert st.palace == H("I4") and st.value == 10 and st.size == 10
    assert st.keys == ((3, 2), (3, 2, 1), (3, 2))
    assert st.first == (B,) and st.second == (A, C)
    assert final_count(s) == [5, 10, 5]


def test_r41_players_tied_on_the_best_key_share_first() -> None:
    s = city(3, 8, {"I5": (A, 2), "I6": (B, 2)})
    assert final_count(s) == [8, 8, 0]


def test_r41_decision_second_is_the_next_distinct_key_after_a_shared_first() -> None:
    s = city(4, 6, {"I5": (A, 3), "I6": (A, 2), "I7": (B, 3), "I8": (B, 2), "I9": (C, 3),
                    "I10": (D, 1)})
    [st] = city_standings(s)
    assert st.first == (A, B) and st.second == (C,)
    assert final_count(s) == [6, 6, 3, 0]


def test_r41_a_single_player_in_a_city_takes_first_and_nobody_second() -> None:
    s = city(2, 4, {"I5": (B, 1), "I6": (B, 1)})
    assert final_count(s) == [0, 4]


def test_r41_a_city_without_developers_scores_nobody() -> None:
    s = city(2, 4, {})
    assert final_count(s) == [0, 0]


def test_r41_villages_score_nothing() -> None:
    s = city(2, 4, {"I5": (A, 2)})
    for c in range(4, 8):
        lay(s, f"K{c}v")
    put_dev(s, "K5", B)
    assert len(s.groups().members) == 2
    assert final_count(s) == [4, 0]


def test_r41_odd_halves_round_down_never_happen_but_cities_add_up() -> None:
    s = city(3, 10, {"I5": (A, 2), "I6": (B, 1)})
    add_city(s, 6, {"K5": (B, 2), "K6": (C, 1)}, row="K", cols=range(4, 10))
    add_city(s, 2, {"M5": (C, 1), "M6": (A, 1)}, row="M", cols=range(5, 7))
    assert len(city_standings(s)) == 3
    assert final_count(s) == [10 + 0 + 2, 5 + 6 + 0, 0 + 3 + 2]


def test_r41_developers_outside_the_city_do_not_count() -> None:
    s = city(2, 4, {"I5": (A, 1)})
    lay(s, "K5r")
    put_dev(s, "K5", B)
    assert final_count(s) == [4, 0]


# ------------------------------------------------------------------ R40 the count in play

def test_r40_r41_the_final_count_is_made_at_the_end_of_each_last_turn() -> None:
    s = city(2, 6, {"I5": (A, 2), "I6": (B, 1)})
    s.triples = 1
    play(s, "tile E8v E9r D8r")
    assert s.triples == 0 and s.last_round == [B]
    play(s, "end")  # A counts: first in the city
    assert s.players[A].score == 6 and s.players[A].final_counted
    assert s.to_move == B and s.last_round == [] and s.turn.ap == 6
    assert not s.obligation_pending()
    assert "end" in {str(a) for a in s.legal_actions()}
    play(s, "end")  # B need not place a tile; B counts: second
    assert s.players[B].score == 3 and s.players[B].final_counted
    assert s.is_terminal()
    assert list(s.legal_actions()) == []
    with pytest.raises(IllegalAction, match="R40"):
        s.push(act("end"))
    for _ in range(3):
        s.pop()
    assert s.triples == 1 and s.last_round is None
    assert [p.score for p in s.players] == [0, 0]
    assert not any(p.final_counted for p in s.players)
