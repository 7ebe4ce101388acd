"""App subcommands: ``play [FILE]``, ``browse [DIR]``, ``puzzle [FILE]`` (the Textual app)."""

from __future__ import annotations

import argparse
import os


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("play", help="the app: a new game, or continue a saved game / position")
    p.add_argument("file", nargs="?", help="a saved game or position to continue")
    p.add_argument("--players", type=int, default=3, choices=(2, 3, 4),
                   help="default number of players on the new-game screen")
    p.add_argument("--seed", type=int, default=None, help="default seed on the new-game screen")
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("browse", help="the app on a list of saved games, positions and puzzles")
    p.add_argument("dir", nargs="?", help="folder to list (default: ~/.kraton/saves)")
    p.set_defaults(func=cmd_browse)

    p = sub.add_parser("puzzle", help="the app on a puzzle (default: the puzzle collection)")
    p.add_argument("file", nargs="?")
    p.set_defaults(func=cmd_puzzle)


def _check_file(path: str | None) -> None:
    from core.errors import KratonError, shown_path

    if path is not None and not os.path.isfile(path):
        what = "no such file" if not os.path.lexists(path) else "not a regular file"
        raise KratonError(f"{shown_path(path)}: {what}")


def cmd_play(args: argparse.Namespace) -> int:
    from tui.app import create_app, run_app

    _check_file(args.file)
    if args.file:
        from tui.saves import load_game

        load_game(args.file)  # a bad file: one line, exit 2, before the screen opens
    return run_app(create_app("play", args.file, players=args.players, seed=args.seed))


def cmd_browse(args: argparse.Namespace) -> int:
    from core.errors import KratonError
    from tui.app import create_app, run_app

    if args.dir is not None and not os.path.isdir(args.dir):
        raise KratonError(f"{args.dir}: not a folder")
    return run_app(create_app("browse", args.dir))


def cmd_puzzle(args: argparse.Namespace) -> int:
    from tui.app import create_app, run_app

    _check_file(args.file)
    if args.file:
        from tui.saves import load_game

        load_game(args.file)
    return run_app(create_app("puzzle", args.file))
