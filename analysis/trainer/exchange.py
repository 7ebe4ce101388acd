"""Checking a progress export before it is merged (``kraton puzzles import``): every row of
every table, with the first fault named in one line (file, table, row, field)."""

from __future__ import annotations

import math
from typing import Any

from core.errors import KratonError, shown_path

MAX_ROWS = 1_000_000
TEXT = {"uid", "puzzle", "mode", "themes"}
INTS = {"solved", "hints", "rated", "length", "mistakes"}
NULLABLE = {"score", "user_before", "user_after"}


class ExportError(KratonError):
    """An export file that cannot be imported; names the file and the first bad field."""


def _field(where: str, key: str, v: Any) -> None:
    if v is None and key in NULLABLE:
        return
    if key in TEXT:
        if not isinstance(v, str) or len(v) > 400 or not v.isprintable():
            raise ExportError(f"{where}.{key}: a printable text of at most 400 characters")
        return
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
        raise ExportError(f"{where}.{key}: a number")
    if key in INTS and (not isinstance(v, int) or not 0 <= v <= 10**9):
        raise ExportError(f"{where}.{key}: a whole number from 0")
    if key in ("rating", "user_before", "user_after") and not 0 <= v <= 4000:
        raise ExportError(f"{where}.{key}: a rating from 0 to 4000")
    if key in ("rd", "vol", "seconds", "at", "started", "ended", "updated", "score") and v < 0:
        raise ExportError(f"{where}.{key}: not negative")


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
