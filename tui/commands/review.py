"""``kraton review GAME``: best vs played for every turn of a game record (issue 22).

Without a batch option it opens the app in review mode. With ``--json``, ``-o``, ``--chart``,
``--puzzles`` or ``--summary`` it reviews in batch: every turn evaluated in parallel processes
(or on a Dask cluster with ``--scheduler``) with a progress bar on stderr, then the per-player
summary on stdout (or JSON), and the files asked for. The logic is ``analysis.review_report``.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from typing import Any

from core.errors import KratonError, one_line, shown_path
from tui.options import check_outputs, check_workers

REVIEW_LIMIT = 2.0  # seconds per turn (issue 22: 60 turns with 2 workers in under 2 minutes)
PUZZLE_FOLDER = "my-puzzles"  # under $KRATON_HOME: where the app's puzzle trainer looks


def register(sub: argparse._SubParsersAction) -> None:
    from analysis.solver import DEFAULT_ENGINE, ENGINES

    p = sub.add_parser("review", help="best vs played for every turn of a game; annotate, chart, puzzles",
                       description="Without --json, -o, --chart, --puzzles or --summary: the game in the "
                       "app's review mode. With one of them: every turn reviewed in batch (R44: a game in "
                       "progress is analysed as each player saw it).")
    p.add_argument("game", help="a game record (format java-game)")
    p.add_argument("--json", action="store_true", help="print one evaluation per reviewed turn and the summary as JSON")
    p.add_argument("-o", "--output", metavar="ANNOTATED", help="write the record with the evaluations (atomically)")
    p.add_argument("--chart", metavar="FILE.svg", help="write the score chart, mistakes marked")
    p.add_argument("--puzzles", nargs="?", const="", default=None, metavar="DIR",
                   help="write a puzzle for every turn that missed at least --min-missed points with a "
                        "proved best (default folder: $KRATON_HOME/my-puzzles, the puzzle trainer's)")
    p.add_argument("--min-missed", type=int, default=3, metavar="N", help="points missed for --puzzles (default 3)")
    p.add_argument("--summary", action="store_true", help="review in batch and print the summary only")
    p.add_argument("--turns", metavar="A-B", help="review only turns A to B (1-based; or one turn N)")
    p.add_argument("--player", metavar="NAME", help="review only this player's turns (name or seat 1-4)")
    p.add_argument("--as", dest="viewer", metavar="NAME",
                   help="a game in progress: judge every turn as this player sees it (R44; name or seat)")
    p.add_argument("--time-limit", type=float, default=REVIEW_LIMIT, metavar="S",
                   help=f"solver seconds per turn (default {REVIEW_LIMIT:g})")
    p.add_argument("--engine", default=DEFAULT_ENGINE, choices=ENGINES,
                   help=f"solver engine (default {DEFAULT_ENGINE})")
    p.add_argument("--workers", type=int, default=None, help="processes (default: CPU count)")
    p.add_argument("--scheduler", metavar="ADDRESS", help="run the evaluations on this Dask scheduler")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_review)


def check_options(args: argparse.Namespace) -> None:
    """Bad option values: one line naming the option, before any work."""
    if not (args.time_limit > 0 and math.isfinite(args.time_limit)):
        raise KratonError(f"--time-limit must be a positive number of seconds, not {args.time_limit}")
    check_workers(args.workers)
    if args.min_missed < 1:
        raise KratonError(f"--min-missed must be at least 1 point, not {args.min_missed}")
    check_outputs([("-o", args.output), ("--chart", args.chart)])
    if args.puzzles and os.path.exists(args.puzzles) and not os.path.isdir(args.puzzles):
        raise KratonError(f"--puzzles {shown_path(args.puzzles)}: not a folder")


def puzzle_folder(value: str) -> str:
    """``--puzzles DIR``, or with no folder the trainer's ``$KRATON_HOME/my-puzzles``."""
    if value:
        return value
    from tui.saves import home_dir

    return str(home_dir() / PUZZLE_FOLDER)


def cmd_review(args: argparse.Namespace) -> int:
    from core.record import replay_file

    check_options(args)
    game = replay_file(args.game)  # a bad record: one line naming the action and rule, exit 2
    batch = args.json or args.summary or args.output or args.chart or args.puzzles is not None
    if not batch:
        from tui.app import create_app, run_app

        return run_app(create_app("review", args.game))
    return review_batch(args, game)


def review_batch(args: argparse.Namespace, game: Any) -> int:
    from analysis.parallel import ProgressBar
    from analysis.review_report import (
        annotate,
        covered_turns,
        parse_player,
        parse_turns,
        run_review,
        turn_tasks,
    )

    turns = None if args.turns is None else parse_turns(args.turns, game.turns)
    names = [p.name for p in game.state.players]
    player = args.player_index = None if args.player is None else parse_player(args.player, names)
    viewer = None if args.viewer is None else parse_player(args.viewer, names, "--as")
    tasks = turn_tasks(game, args.time_limit, args.engine, turns, player, viewer)
    bar = None if args.quiet else ProgressBar(f"review {len(tasks)} turn{'' if len(tasks) == 1 else 's'}")
    review = run_review(tasks, workers=args.workers, scheduler=args.scheduler, progress=bar)
    annotate(game, review, covered_turns(game, turns, player))
    written = write_outputs(args, game, review)
    print_review(args, game, review, written)
    if tasks and tasks[0].seen == "player":  # after the work: an error stays one line
        print(f"kraton: {shown_path(args.game)}: game in progress: {seen_note(names, player, viewer)}",
              file=sys.stderr)
    for turn, error in review.failed.items():
        print(f"kraton: turn {turn}: {one_line(error)}", file=sys.stderr)
    return 2 if review.failed else 0


def seen_note(names: list[str], player: int | None, viewer: int | None) -> str:
    """What a review of a game in progress could see (R44), for the line on stderr."""
    if viewer is not None:
        return f"every turn analysed as {names[viewer]} sees it (R44: the cards he cannot see dealt at random)"
    note = "each turn analysed as its player saw it (R44: unseen cards dealt at random)"
    if player is None:
        note += "; its lines show that player's cards: --player NAME or --as NAME keeps to one player's view"
    return note


def annotated_record(path: str, game: Any) -> Any:
    """``game.record()`` with the record's own tags as written: ``Game.record`` spells the
    ``players`` tag out seat by seat ("planner x4" would become "planner,planner,..."), which
    is the same seats but not the user's file."""
    from core.record import load_record, parse_seats

    rec = game.record()
    tags = load_record(path)[0].tags
    if parse_seats(tags.get("players", "")) == game.seats or (not any(game.seats) and "players" not in tags):
        rec.tags = dict(tags)
    return rec


def write_outputs(args: argparse.Namespace, game: Any, review: Any) -> dict[str, Any]:
    """The annotated record, the chart and the puzzles asked for; returns what was written."""
    from analysis.review_report import is_puzzle, mistake_puzzle, write_puzzles
    from core.record import save_record

    written: dict[str, Any] = {}
    if args.output:
        save_record(annotated_record(args.game, game), args.output, game)
        written["record"] = args.output
    if args.chart:
        from analysis.chart import scores_svg
        from analysis.review_report import chart_marks
        from core.position import write_text_atomic

        names = [p.name for p in game.state.players]
        title = f"{os.path.basename(args.game)}: scores after each turn"
        svg = scores_svg(game.score_history(), names, title, marks=chart_marks(game, review.evaluations))
        write_text_atomic(args.chart, svg)
        written["chart"] = args.chart
    if args.puzzles is not None:
        name = os.path.basename(args.game)
        names = [p.name for p in game.state.players]
        found = [mistake_puzzle(t, review.evaluations[t.turn], name, names[t.player]) for t in review.tasks
                 if t.turn in review.evaluations and is_puzzle(review.evaluations[t.turn], args.min_missed)]
        written["puzzles"] = write_puzzles(puzzle_folder(args.puzzles), found)
    return written


def print_review(args: argparse.Namespace, game: Any, review: Any, written: dict[str, Any]) -> None:
    from analysis.review_report import marked_lines, summarize, summary_text

    rows = summarize(game, review.evaluations)
    if args.player is not None:  # --player: his row only
        rows = [r for r in rows if r.player == args.player_index]
    if args.json:
        out = {"file": args.game, "time_limit": args.time_limit, "engine": args.engine,
               "evaluations": [{"turn": k, **v} for k, v in review.evaluations.items()],
               "summary": [r.to_json() for r in rows],
               "failed": [{"turn": k, "error": v} for k, v in review.failed.items()],
               "written": written}
        print(json.dumps(out, indent=2))
        return
    print(summary_text(rows))
    if not args.summary:
        for line in marked_lines(game, review.evaluations):
            print(line)
    for what, where in written.items():
        if what == "puzzles":
            folder = puzzle_folder(args.puzzles)
            print(f"{len(where)} puzzle{'' if len(where) == 1 else 's'} written to {folder}"
                  f" (at least {args.min_missed} points missed, best proved)")
        else:
            print(f"{what} written to {where}")
