"""``kraton tournament --players planner,greedy,random,random --games N [--seed S]``.

Complete self-play games in parallel processes (or on a Dask cluster), seats rotated; prints
standings with 95% confidence intervals, head-to-head records and game lengths; writes CSV,
JSON and an SVG chart of the scores per turn of one game.
"""

from __future__ import annotations

import argparse
import sys

from analysis.players import PLAYER_NAMES
from core.errors import KratonError
from core.position import write_json_atomic, write_text_atomic
from tui.options import check_outputs, check_workers


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("tournament", help="self-play games between computer players, seats rotated")
    p.add_argument("--players", required=True,
                   help=f"2 to 4 comma-separated player names ({', '.join(PLAYER_NAMES)})")
    p.add_argument("--games", type=int, default=10, help="number of games (default 10)")
    p.add_argument("--seed", type=int, default=0, help="seed of the first game's deal")
    p.add_argument("--workers", type=int, default=None, help="processes (default: CPU count)")
    p.add_argument("--scheduler", metavar="ADDRESS", help="run on this Dask scheduler instead")
    p.add_argument("--csv", metavar="FILE", help="write one row per game and seat")
    p.add_argument("--json", metavar="FILE", help="write the summary and every game")
    p.add_argument("--chart", metavar="FILE", help="write an SVG chart of scores per turn")
    p.add_argument("--chart-game", type=int, default=0, metavar="K", help="game for --chart (default 0)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_tournament)


def cmd_tournament(args: argparse.Namespace) -> int:
    players = [p.strip() for p in args.players.split(",") if p.strip()]
    if not 2 <= len(players) <= 4:
        raise KratonError(f"--players names 2 to 4 players (R1), not {len(players)}")
    if args.games < 1:
        raise KratonError("--games must be at least 1")
    if args.chart and not 0 <= args.chart_game < args.games:
        raise KratonError(f"--chart-game must be a game number from 0 to {args.games - 1}")
    check_workers(args.workers)
    check_outputs([("--csv", args.csv), ("--json", args.json), ("--chart", args.chart)])
    from analysis.chart import scores_svg
    from analysis.parallel import ProgressBar
    from analysis.tournament import csv_text, results_json, run_tournament, summarize, summary_text

    bar = None if args.quiet else ProgressBar(f"{args.games} games")
    results, errors = run_tournament(players, args.games, args.seed, args.workers,
                                     args.scheduler, bar)
    for e in errors:
        print(f"kraton: {e}", file=sys.stderr)
    summary = summarize(results)
    print(summary_text(summary))
    if args.csv:
        write_text_atomic(args.csv, csv_text(results))
    if args.json:
        write_json_atomic(args.json, results_json(results, summary))
    if args.chart:
        game = next((r for r in results if r.index == args.chart_game), None)
        if game is None:
            raise KratonError(f"game {args.chart_game} failed; no chart")
        labels = [f"{i}: {k}" for i, k in enumerate(game.seats)]
        title = f"game {game.index} (seed {game.seed}): scores per turn"
        write_text_atomic(args.chart, scores_svg(game.history, labels, title))
    return 2 if errors else 0
