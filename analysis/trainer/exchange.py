"""Checking a progress export before it is merged (``kraton puzzles import``): every row of
every table, with the first fault named in one line (file, table, row, field)."""

from __future__ import annotations

import math
from typing import Any

from analysis.trainer.glicko import MAX_RD
from core.errors import KratonError, shown, shown_path

MAX_ROWS = 1_000_000
TEXT = {"uid", "puzzle", "mode", "themes"}
NULLABLE = {"score", "user_before", "user_after"}
MAX_TIME = 253_402_300_799  # 9999-12-31 23:59:59 UTC, in seconds since 1970
MAX_COUNT = 10**9
# Every number's range, checked before SQLite sees it (its INTEGER is signed 64-bit: a bigger
# whole number would be an OverflowError): (whole numbers only, lowest, highest, what it is).
# Ratings and deviations are Glicko-2's (analysis/trainer/glicko.py: the RD never exceeds 350).
NUMBERS: dict[str, tuple[bool, float, float, str]] = {
    "at": (False, 0, MAX_TIME, "a time in seconds since 1970"),
    "started": (False, 0, MAX_TIME, "a time in seconds since 1970"),
    "ended": (False, 0, MAX_TIME, "a time in seconds since 1970"),
    "updated": (False, 0, MAX_TIME, "a time in seconds since 1970"),
    "seconds": (False, 0, MAX_COUNT, "a duration in seconds"),
    "score": (False, 0, 1, "a score (1 solved, 0.5 with a hint, 0 not)"),
    "rating": (False, 0, 4000, "a rating"),
    "user_before": (False, 0, 4000, "a rating"),
    "user_after": (False, 0, 4000, "a rating"),
    "rd": (False, 0, MAX_RD, "a rating deviation"),
    "vol": (False, 0, 1, "a rating volatility"),
    "solved": (True, 0, 1, "0 or 1"),
    "rated": (True, 0, 1, "0 or 1"),
    "hints": (True, 0, MAX_COUNT, "a count"),
    "length": (True, 0, MAX_COUNT, "a count"),
    "mistakes": (True, 0, MAX_COUNT, "a count"),
}
ABOVE_ZERO = {"vol"}  # the volatility's logarithm is taken (glicko._volatility)


class ExportError(KratonError):
    """An export file that cannot be imported; names the file and the first bad field."""


def _field(where: str, key: str, v: Any) -> None:
    if v is None and key in NULLABLE:
        return
    if key in TEXT:
        if not isinstance(v, str) or len(v) > 400 or not v.isprintable():
            raise ExportError(f"{where}.{key}: a printable text of at most 400 characters")
        return
    whole, lo, hi, what = NUMBERS.get(key, (False, 0, MAX_COUNT, "a number"))
    if whole:
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise ExportError(f"{where}.{key}: {what}, a whole number from {_num(lo)} to {_num(hi)}, "
                              f"got {shown(v)}")
        return
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
        raise ExportError(f"{where}.{key}: {what}, a number, got {shown(v)}")
    if not lo <= v <= hi or (key in ABOVE_ZERO and v == 0):
        low = "above" if key in ABOVE_ZERO else "from"
        raise ExportError(f"{where}.{key}: {what}, {low} {_num(lo)} to {_num(hi)}, got {shown(v)}")


def _num(x: float) -> str:
    return str(int(x)) if x == int(x) else f"{x:g}"


def check_export(data: Any, path: str, tables: dict[str, tuple[str, ...]]) -> dict[str, list[dict[str, Any]]]:
    """The rows of each table, or ExportError naming the first thing wrong."""
    where = shown_path(path)
    if not isinstance(data, dict) or data.get("format") != "kraton-progress":
        raise ExportError(f'{where}: not a kraton progress export (no "format": "kraton-progress")')
    if isinstance(data.get("version"), bool) or not isinstance(data.get("version"), int):
        raise ExportError(f"{where}: version: a whole number")
    out: dict[str, list[dict[str, Any]]] = {}
    for table, cols in tables.items():
        rows = data.get(table, [])
        if not isinstance(rows, list) or len(rows) > MAX_ROWS:
            raise ExportError(f"{where}: {table}: a list of at most {MAX_ROWS} rows")
        for i, row in enumerate(rows):
            at = f"{where}: {table}[{i}]"
            if not isinstance(row, dict):
                raise ExportError(f"{at}: an object")
            for key in cols:
                if key not in row and key not in NULLABLE and key not in ("hints", "themes", "rated"):
                    raise ExportError(f"{at}: missing {key}")
                if key in row:
                    _field(at, key, row[key])
        out[table] = [{"hints": 0, "themes": "", "rated": 1, **r} for r in rows] \
            if table == "attempts" else list(rows)
    return out
