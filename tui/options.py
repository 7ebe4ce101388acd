"""Option values the commands share, checked before any work: one line naming the option
and what it takes, exit 2 (``tui.cli.main``). A bad value found only after the work (a batch
of solves, a tournament) would cost the user that work."""

from __future__ import annotations

import argparse
import os
import stat

from core.ascii_numbers import ascii_whole
from core.errors import KratonError, shown, shown_path


def time_limit(value: float | None) -> float | None:
    """``--time-limit``: seconds, 0 (or none given where the default is none) for no limit;
    a negative number is refused."""
    if value is None or value == 0:
        return None
    if not value > 0:  # also NaN
        raise KratonError("--time-limit must be 0 (no limit) or a positive number of seconds")
    return value


def check_workers(workers: int | None, option: str = "--workers") -> None:
    """``--workers N`` (None: the default): at least 1. Shared by the batch commands."""
    if workers is not None and workers < 1:
        raise KratonError(f"{option} must be at least 1, not {workers}")


def check_outputs(outputs: list[tuple[str, str | None]]) -> None:
    """Output files asked for (option, path; None: not asked), checked before any work: a
    file name whose folder exists, not a folder, FIFO or device (writing would fail or block
    only after the work), and no file named by two options (one would overwrite the other).
    Shared by ``review`` and ``tournament``."""
    seen: dict[str, str] = {}
    for opt, path in outputs:
        if path is None:
            continue
        if path == "" or os.path.isdir(path):
            raise KratonError(f"{opt} {shown_path(path)}: a file name is needed, not a folder")
        target = os.path.realpath(path)  # a symlink is written through (core.position)
        if os.path.exists(target) and not stat.S_ISREG(os.stat(target).st_mode):
            raise KratonError(f"{opt} {shown_path(path)}: not a regular file (a FIFO or device)")
        folder = os.path.dirname(target)
        if not os.path.isdir(folder):
            raise KratonError(f"{opt} {shown_path(path)}: no such folder {shown(folder, 80)}")
        same = next((o for t, o in seen.items() if t == target or _same_file(t, target)), None)
        if same is not None:
            raise KratonError(f"{opt} {shown_path(path)}: the same file as {same}; "
                              "give each output its own file")
        seen[target] = opt


def _same_file(a: str, b: str) -> bool:
    """Two names of one existing file (a hard link)."""
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


SEED_DIGITS = 19  # a seed fits 64 bits: what a position file keeps (integers of 20 digits at most)


def seed_arg(text: str) -> int:
    """``--seed``: an integer of ASCII digits, at most ``SEED_DIGITS`` of them (a longer one
    would be written to a file that ``validate`` then refuses)."""
    t = text.strip()
    n = ascii_whole(t.removeprefix("-"), SEED_DIGITS)
    if n is None:
        raise argparse.ArgumentTypeError(
            f"'{shown(text)}' is not an integer of 1 to {SEED_DIGITS} digits")
    return -n if t.startswith("-") else n


def count_arg(text: str) -> int:
    """A count such as ``--at N``: ASCII digits only (``int`` also reads ' 3' and '٣')."""
    n = ascii_whole(text, 9)
    if n is None:
        raise argparse.ArgumentTypeError(f"'{shown(text)}' is not a count (digits 0-9)")
    return n


def output_arg(text: str) -> str:
    """``-o``: a file name, not an empty one (which would print instead, or write nothing)."""
    if not text.strip():
        raise argparse.ArgumentTypeError("an empty file name")
    return text
