"""``core.ascii_numbers``: what counts as a whole number in a typed option or a file key."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.ascii_numbers import ascii_digits, ascii_whole


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
