"""``core.ascii_numbers``: what counts as a whole number in a typed option or a file key, and
the rules each of its callers keeps around it (they had four near-copies of the reader)."""

from __future__ import annotations

import argparse

import pytest
from hypothesis import given
from hypothesis import strategies as st

from analysis.mine import _aps, _turns
from analysis.review_report import parse_turns
from core.ascii_numbers import ascii_digits, ascii_whole
from core.errors import KratonError
from core.record import RecordError, annotations_from, parse_seats
from tui.options import count_arg, seed_arg


@pytest.mark.parametrize("text", ["", " 3", "3 ", "+3", "-3", "3.0", "1_000", "٣", "²", "３", "0x1f"])
def test_anything_but_ascii_digits_is_no_number(text: str) -> None:
    assert not ascii_digits(text) and ascii_whole(text, 9) is None


def test_the_length_is_checked_before_int_sees_it() -> None:
    assert ascii_whole("123456789", 9) == 123456789
    assert ascii_whole("1234567890", 9) is None
    assert ascii_whole("9" * 5000, 9) is None  # int() would raise Python's own 4300-digit error
    assert ascii_whole("007", 3) == 7 and ascii_whole("0", 1) == 0


@given(st.integers(0, 10**12))
def test_every_whole_number_reads_back(n: int) -> None:
    text = str(n)
    assert ascii_whole(text, len(text)) == n and ascii_whole(text, len(text) - 1) is None


@given(st.text(max_size=12))
def test_a_text_reads_as_int_would_only_where_it_is_ascii_digits(text: str) -> None:
    got = ascii_whole(text, 12)
    if got is not None:
        assert text.isascii() and int(text) == got


# ------------------------------------------------------- the callers keep their own rules around it

HUGE = "9" * 5000  # beyond Python's 4300 digits for int()


def test_seed_takes_a_sign_and_surrounding_spaces_a_count_takes_neither() -> None:
    """--seed strips and takes a minus sign; --at N takes ASCII digits alone (tui/options.py)."""
    assert seed_arg(" -12 ") == -12 and seed_arg("9" * 19) == int("9" * 19)
    for bad in ("- 12", "--12", "+12", "٣", "9" * 20, HUGE, ""):
        with pytest.raises(argparse.ArgumentTypeError, match="is not an integer of 1 to 19 digits"):
            seed_arg(bad)
    assert count_arg("0") == 0 and count_arg("9" * 9) == 999999999
    for bad in (" 3", "3 ", "-3", "²", "1" * 10, HUGE, ""):
        with pytest.raises(argparse.ArgumentTypeError, match=r"is not a count \(digits 0-9\)"):
            count_arg(bad)


def test_a_turn_number_too_long_to_read_is_beyond_the_game_not_malformed() -> None:
    """The review's numbers: more digits than any game means a turn beyond it (its own message),
    while '²' is no number at all."""
    with pytest.raises(KratonError, match="the game has 10 complete turns"):
        parse_turns("1" * 12, 10)
    with pytest.raises(KratonError, match="expected N or A-B"):
        parse_turns("²", 10)


def test_the_miners_lists_hold_numbers_of_at_most_the_digits_of_their_top() -> None:
    assert _aps(" 1, 7") == [1, 7]
    for bad in ("8", "0", "07", "1,", "1,²"):
        with pytest.raises(argparse.ArgumentTypeError, match="expected AP values"):
            _aps(bad)
    with pytest.raises(argparse.ArgumentTypeError, match="expected turn numbers"):
        _turns(HUGE)


def test_a_seat_count_is_1_to_4_in_at_most_two_digits() -> None:
    assert parse_seats("planner x04, human") == ["planner"] * 4 + [None]
    assert parse_seats("planner x5") == parse_seats("planner x004") == parse_seats("planner x²") == []
    # a count of 0 seats nobody: the tag says nothing usable, the record replays all human
    assert parse_seats("human, planner x0") == parse_seats("planner x00") == []


@pytest.mark.parametrize("key", ["٣", "²", " 3", "+3", "1234567", HUGE])
def test_annotation_keys_are_ascii_numbers_of_at_most_6_digits(key: str) -> None:
    with pytest.raises(RecordError, match="keys are action or turn numbers"):
        annotations_from({"comments": {key: "a note"}}, 10)
