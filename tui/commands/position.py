"""Position subcommands: new, validate, show, apply (notation.md's contract)."""

from __future__ import annotations

import argparse
import json
import os
import sys

from core.actions import parse_action
from core.drawing import board_text
from core.errors import IllegalAction, KratonError, NotationError, shown, shown_path
from core.position import MAX_NAME, SaveRefused, position_to_dict, read_json, save_position
from core.record import FORMAT as RECORD_FORMAT
from core.record import load_any
from core.state import GameState
from tui.options import count_arg, output_arg, seed_arg


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("new", help="write a fresh start position (R3)")
    p.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
    p.add_argument("--seed", type=seed_arg, default=None,
                   help="seed for the deck and the first player")
    p.add_argument("--names", help="comma-separated player names")
    p.add_argument("--map", default="java-centre", help="built-in map name or map file")
    p.add_argument("-o", "--output", type=output_arg,
                   help="write here (atomically) instead of printing")
    p.set_defaults(func=cmd_new)

    p = sub.add_parser("validate", help="check a position file; print a one-line summary")
    p.add_argument("file")
    add_at(p)
    p.set_defaults(func=cmd_validate)

    p = sub.add_parser("show", help="print the board as text with a legend")
    p.add_argument("file")
    add_at(p)
    p.set_defaults(func=cmd_show)

    p = sub.add_parser("apply", help="apply actions ('a; b; c') and print or write the result")
    p.add_argument("file")
    p.add_argument("actions")
    p.add_argument("-o", "--output", type=output_arg,
                   help="write the resulting position here (atomically)")
    add_at(p)
    p.set_defaults(func=cmd_apply)


def save_position_output(s: GameState, path: str) -> None:
    """``-o`` of a command that writes a position: atomically (``save_position``), but never
    over a game record, whose actions, tags and annotations the position would lose."""
    if os.path.isfile(path):
        try:
            d = read_json(path)
        except KratonError:
            d = None  # not a file of ours: replaced, as any other file the user names
        if isinstance(d, dict) and d.get("format") == RECORD_FORMAT:
            n = len(d["actions"]) if isinstance(d.get("actions"), list) else 0
            raise SaveRefused(f"{shown_path(path)}: a game record ({n} actions): a position"
                              " written over it would lose them; name another file")
    save_position(s, path)


def cmd_new(args: argparse.Namespace) -> int:
    import secrets

    # R44: without --seed, the operating system's randomness (a small seed range would let
    # anyone who sees his opening hand narrow down every other hand and the deck).
    seed = args.seed if args.seed is not None else secrets.randbits(63)
    names = [n.strip() for n in args.names.split(",")] if args.names else None
    if names is not None and len(names) != args.players:
        raise KratonError(f"--names gives {len(names)} names for {args.players} players")
    for name in names or []:  # what validate accepts back (core.position._player)
        if not name or len(name) > MAX_NAME or not name.isprintable():
            raise KratonError(f"--names: '{shown(name)}' is not 1 to {MAX_NAME} printable characters")
    s = GameState.new(args.players, seed=seed, names=names, map_spec=args.map)
    if args.output:
        save_position_output(s, args.output)
        print(f"{args.output}: new {args.players}-player game, seed {seed}, {s.players[s.to_move].name} to move")
    else:
        print(json.dumps(position_to_dict(s), indent=2))
    return 0


def summary(s: GameState) -> str:
    scores = ", ".join(f"{p.name} {p.score}" for p in s.players)
    who = s.players[s.current_player()].name
    state = "game over" if s.is_terminal() else f"{who} to act, {s.turn.ap} AP"
    n = len(s.tiles)
    return (f"{s.n_players} players on {s.map.name}; {n} tile{'s' * (n != 1)} placed, {s.triples}"
            f" three-space tiles left; {state}; scores: {scores}")


def add_at(p: argparse.ArgumentParser) -> None:
    """``--at N`` for the commands that read a position or a game record."""
    p.add_argument("--at", type=count_arg, metavar="N", default=None,
                   help="a game record: the position after N actions (default: after all of them)")


def load_for_command(path: str, at: int | None) -> tuple[GameState, str | None]:
    """A position file, or a game record's current position (or after ``--at N``) and the
    note saying which (None for a position file); see ``say``."""
    return load_any(path, at)


def say(note: str | None) -> None:
    """The note of ``load_for_command`` as one line on stderr (stdout stays the command's own
    output, e.g. JSON), once the command has succeeded: an error is one line alone."""
    if note:
        print(f"kraton: {note}", file=sys.stderr)


def cmd_validate(args: argparse.Namespace) -> int:
    s, note = load_for_command(args.file, args.at)
    print(f"{shown_path(args.file)}: valid. {summary(s)}")
    say(note)
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    s, note = load_for_command(args.file, args.at)
    print(board_text(s))
    print(summary(s))
    say(note)
    return 0


def cmd_apply(args: argparse.Namespace) -> int:
    s, note = load_for_command(args.file, args.at)
    pieces = [p for p in args.actions.split(";") if p.strip()]
    actions = []
    for i, piece in enumerate(pieces, start=1):
        try:
            actions.append(parse_action(piece))
        except NotationError as e:
            which = f"action {i} of {len(pieces)}: " if len(pieces) > 1 else ""
            hint = ""
            if "hex name" in str(e):  # where the hexes are, for one that is not
                hint = (f"; the map '{shown(s.map.name)}' has rows A..{chr(64 + s.map.rows)},"
                        f" columns 1..{s.map.cols}")
            raise NotationError(f"{which}{e}{hint}") from None
    if not actions:
        raise NotationError(f"no actions in '{shown(args.actions)}': give one or more, e.g."
                            " 'tile G6v G5r H5r; end'")
    where = "" if note is None else f" (on the record's position after {len(s.history)} actions)"
    for i, a in enumerate(actions, start=1):
        try:
            s.push(a)
        except IllegalAction as e:
            raise KratonError(f"action {i} of {len(actions)}{where}: {e}") from None
    if args.output:
        save_position_output(s, args.output)
        say(note)
        print(f"{args.output}: {len(actions)} action(s) applied. {summary(s)}", file=sys.stderr)
    else:
        print(json.dumps(position_to_dict(s), indent=2))
        say(note)
    return 0
