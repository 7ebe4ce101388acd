"""Whole numbers typed or read from files: ASCII digits only, their length checked first.

``int`` alone is too lenient and too slow for untrusted text: it reads ' 3', '+3' and Unicode
digits such as '٣' as numbers, and a string of thousands of digits raises Python's own
"Exceeds the limit (4300 digits)" error, which names neither the file nor the option. The
readers of counts, seeds, turn, seat and action numbers all go through here.
"""

from __future__ import annotations


def ascii_digits(text: str) -> bool:
    """Whether ``text`` is one or more of the digits 0-9 and nothing else (no sign, no space)."""
    return text.isascii() and text.isdigit()


def ascii_whole(text: str, digits: int) -> int | None:
    """``text`` as a whole number where it is 1 to ``digits`` ASCII digits, else None (``int``
    never sees a longer one)."""
    return int(text) if ascii_digits(text) and len(text) <= digits else None
