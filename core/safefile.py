"""Reading untrusted files within limits, checked before the work they protect.

A position, record or map file is user input: it may be a device (``/dev/zero`` never ends),
a FIFO (``/dev/stdin`` blocks), megabytes of nesting (``json`` recurses), or integers of
thousands of digits (Python refuses to print them past 4300). Every refusal is a KratonError
naming the file, so the command line and the app show one line and go on.
"""

from __future__ import annotations

import json
import os
import re
import stat
from typing import Any

from core.errors import KratonError, shown, shown_path

# A record of a long game is ~10 KB; a position ~5 KB. Far above both, far below harm.
MAX_JSON_BYTES = 4 * 1024 * 1024
# The deepest key of the formats is festival.bids[i][j] (depth 4).
MAX_JSON_DEPTH = 20
# Seeds are 64-bit at most; every other integer of the formats is far smaller.
MAX_INT_DIGITS = 20
# A map is at most 26 rows of 64 characters; comments are welcome, megabytes are not.
MAX_MAP_BYTES = 64 * 1024

# A string runs to its closing quote or to the end of the text (so an unclosed one is one
# match, not a rescan from every later quote); brackets outside strings are the nesting.
_TOKENS = re.compile(r'"(?:[^"\\]++|\\.)*+(?:"|\Z)|[\[\]{}]', re.DOTALL)


class FileRefused(KratonError):
    """A file that is not read at all (not a regular file, too large) or not parsed."""


def read_bounded(path: str, limit: int, what: str) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes; anything else is refused
    before reading (a device or FIFO is never opened for reading)."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise FileRefused(f"{shown_path(path)}: no such file") from None
    except OSError as e:
        raise FileRefused(f"{shown_path(path)}: cannot read it ({e.strerror})") from None
    if stat.S_ISDIR(st.st_mode):
        raise FileRefused(f"{shown_path(path)}: is a directory, not a file")
    if not stat.S_ISREG(st.st_mode):
        raise FileRefused(f"{shown_path(path)}: not a regular file (a device, FIFO or socket); "
                          f"{what} must be a file")
    if st.st_size > limit:
        raise FileRefused(f"{shown_path(path)}: {st.st_size} bytes, more than the {limit} a {what} may have")
    try:
        with open(path, "rb") as f:
            data = f.read(limit + 1)
    except OSError as e:
        raise FileRefused(f"{shown_path(path)}: cannot read it ({e.strerror})") from None
    if len(data) > limit:  # it grew since the stat
        raise FileRefused(f"{shown_path(path)}: more than the {limit} bytes a {what} may have")
    return data


def _check_depth(text: str) -> None:
    """Refuse nesting deeper than MAX_JSON_DEPTH before ``json`` recurses into it."""
    depth = 0
    for m in _TOKENS.finditer(text):
        c = m.group()
        if c in "[{":
            depth += 1
            if depth > MAX_JSON_DEPTH:
                line = text.count("\n", 0, m.start()) + 1
                raise FileRefused(f"JSON nested deeper than {MAX_JSON_DEPTH} levels at line {line}")
        elif c in "]}":
            depth -= 1


def _int(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_INT_DIGITS:
        raise FileRefused(f"an integer of {digits} digits (at most {MAX_INT_DIGITS}: no field needs more)")
    return int(text)


def _constant(name: str) -> Any:
    raise FileRefused(f"'{name}' is not JSON (no field takes it)")


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object whose keys are all different: with a key twice, the last would win
    silently (``"score": 50, "score": 0``), and a save would drop the other."""
    d = dict(pairs)
    if len(d) != len(pairs):
        seen: set[str] = set()
        for k, _ in pairs:
            if k in seen:
                raise FileRefused(f"the key '{shown(k)}' twice in one object (which one is meant?)")
            seen.add(k)
    return d


def parse_json_text(text: str) -> Any:
    """``json.loads`` with the limits above; FileRefused (no file name) when one is broken."""
    _check_depth(text)
    try:
        return json.loads(text, parse_int=_int, parse_constant=_constant,
                          object_pairs_hook=_unique_keys)
    except json.JSONDecodeError as e:
        raise FileRefused(f"invalid JSON at line {e.lineno}, column {e.colno}: {e.msg}") from None
    except RecursionError:  # _check_depth makes this unreachable; kept as a last guard
        raise FileRefused(f"JSON nested deeper than {MAX_JSON_DEPTH} levels") from None


def read_json_file(path: str) -> Any:
    """Parse a JSON file within the limits; every error names the file."""
    data = read_bounded(path, MAX_JSON_BYTES, "position or game file")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise FileRefused(f"{shown_path(path)}: not a text file (not UTF-8)") from None
    try:
        return parse_json_text(text)
    except FileRefused as e:
        raise FileRefused(f"{shown_path(path)}: {e}") from None
