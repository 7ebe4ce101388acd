"""Game subcommands: ``replay`` (check and show a game record) and ``selfplay`` (random games)."""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time

from core.drawing import board_text
from core.errors import KratonError, shown_path
from core.game import POLICIES, Game, play_random_game
from core.position import position_to_dict
from core.record import load_record, replay_file, save_record
from tui.commands.position import save_position_output
from tui.options import check_outputs, count_arg, output_arg, seed_arg


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("replay", help="check a game record and print its result or a position")
    p.add_argument("file", help="a game record (format java-game)")
    p.add_argument("--at", type=count_arg, metavar="N",
                   help="stop after N actions and print that position")
    p.add_argument("--boards", action="store_true", help="print the board after every turn")
    p.add_argument("--json", action="store_true", help="print the position (or result) as JSON")
    p.add_argument("-o", "--output", type=output_arg,
                   help="write the position reached to this file (atomically)")
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("selfplay", help="play complete games between random legal players")
    p.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
    p.add_argument("--seed", type=seed_arg, default=None,
                   help="seed of the first game (game i uses seed+i)")
    p.add_argument("--games", type=int, default=1, help="how many games (default 1)")
    p.add_argument("--policy", choices=POLICIES, default="uniform",
                   help="uniform over legal actions (default), or a kind of action first")
    p.add_argument("-o", "--output", metavar="GAME", type=output_arg,
                   help="write the game record here (with several games: GAME-1.json, GAME-2.json, ...)")
    p.add_argument("-q", "--quiet", action="store_true", help="only the summary line")
    p.set_defaults(func=cmd_selfplay)


def result_line(g: Game) -> str:
    s = g.state
    scores = ", ".join(f"{p.name} {p.score}" for p in s.players)
    if g.is_terminal():
        w = " and ".join(s.players[i].name for i in g.winners())
        verdict = f"winner{'s' if len(g.winners()) > 1 else ''}: {w} (R43)"
    else:
        verdict = f"not over: {s.players[s.current_player()].name} to act"
    fests = f"{g.festivals} festival{'' if g.festivals == 1 else 's'}"
    return (f"{g.turns} turns, {len(g.actions)} actions, {fests}; "
            f"{'final ' if g.is_terminal() else ''}scores: {scores}; {verdict}")


def cmd_replay(args: argparse.Namespace) -> int:
    if args.boards:
        rec, _ = load_record(args.file)
        base = os.path.dirname(os.path.abspath(args.file))

        def show(i: int, a: object, g: Game) -> None:
            if g.turns != show.turns:  # type: ignore[attr-defined]
                show.turns = g.turns  # type: ignore[attr-defined]
                print(f"after action {i} ({a}), turn {g.turns}:")
                print(board_text(g.state))

        show.turns = 0  # type: ignore[attr-defined]
        try:
            rec.replay(args.at, base, show)
        except KratonError as e:
            raise KratonError(f"{args.file}: {e}") from None
    g = replay_file(args.file, args.at)
    if args.output:
        save_position_output(g.state, args.output)
    if args.at is not None:
        if args.json:
            print(json.dumps(position_to_dict(g.state), indent=2))
        else:
            print(board_text(g.state))
            print(f"{args.file}: after {args.at} actions: {result_line(g)}")
        return 0
    if args.json:
        from core.record import result_of

        print(json.dumps(result_of(g), indent=2))
    else:
        print(f"{args.file}: valid record. {result_line(g)}")
    return 0


def _output_path(base: str, i: int, k: int) -> str:
    if k == 1:
        return base
    root, ext = os.path.splitext(base)
    return f"{root}-{i}{ext or '.json'}"


def cmd_selfplay(args: argparse.Namespace) -> int:
    if args.games < 1:
        raise KratonError(f"--games must be at least 1, not {args.games}")
    if args.output and args.output.endswith(os.sep):  # not a folder yet: one that is meant
        raise KratonError(f"-o {shown_path(args.output)}: a file name is needed, not a folder")
    check_outputs([("-o", args.output)])  # before the games are played
    seed = args.seed if args.seed is not None else random.randrange(1 << 31)
    t0 = time.perf_counter()
    turns = actions = festivals = 0
    for i in range(args.games):
        g = play_random_game(args.players, seed + i, args.policy)
        turns += g.turns
        actions += len(g.actions)
        festivals += g.festivals
        if not args.quiet:
            print(f"game {i + 1} (seed {seed + i}): {result_line(g)}")
        if args.output:
            path = _output_path(args.output, i + 1, args.games)
            tags = {"event": "kraton selfplay", "seed": str(seed + i), "policy": args.policy,
                    "players": ",".join(["random"] * args.players)}
            save_record(g.record(tags), path, g)
            if not args.quiet:
                print(f"  record written to {path}")
    dt = time.perf_counter() - t0
    k = args.games
    print(f"{k} game{'s' if k > 1 else ''} in {dt:.1f} s ({k / dt:.2f} games/s); mean {turns / k:.1f} turns,"
          f" {actions / k:.1f} actions, {festivals / k:.2f} festivals per game", file=sys.stderr if k == 1 else sys.stdout)
    return 0
