"""Profile seeded random self-play (or the solver on the puzzles) with cProfile and print
where the time goes.

    .venv/bin/python benchmarks/profile_selfplay.py                  # 3 games, both policies
    .venv/bin/python benchmarks/profile_selfplay.py --games 5 --top 25 --out selfplay.prof
    .venv/bin/python benchmarks/profile_selfplay.py --solve          # every puzzle, 3 engines

``--out`` keeps the raw profile for ``python -m pstats`` or snakeviz. The games are the
benchmarks' random games (``benchmarks.common.random_game``): uniform over the legal actions,
and by kind (more developers, palaces and festivals).
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from benchmarks.common import random_game


def play(games: int) -> list[int]:
    """Half the games uniform, half by kind; the number of actions of each."""
    return [len(random_game(seed, by_kind=bool(seed % 2)).history) for seed in range(games)]


def solve_puzzles(limit: float) -> list[int]:
    """Every puzzle solved by each engine (issue 5); the best value of each solve."""
    from analysis.solver import ENGINES, solve
    from puzzles import load_puzzles

    return [solve(pz.state, engine=engine, time_limit=limit).best
            for engine in ENGINES for pz in load_puzzles()]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="cProfile of seeded random 4-player self-play")
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--solve", action="store_true",
                    help="profile the solver on the puzzle collection instead (every engine)")
    ap.add_argument("--limit", type=float, default=20.0, help="seconds per solve (--solve)")
    ap.add_argument("--top", type=int, default=15, help="functions to list (by own time)")
    ap.add_argument("--out", help="also save the raw profile here")
    args = ap.parse_args(argv)

    def work() -> list[int]:
        return solve_puzzles(args.limit) if args.solve else play(args.games)

    t = time.perf_counter()
    counts = work()
    plain = time.perf_counter() - t
    prof = cProfile.Profile()
    prof.enable()
    work()
    prof.disable()
    if args.solve:
        print(f"{len(counts)} solves: {plain:.2f} s without the profiler")
    else:
        print(f"{args.games} games, {sum(counts)} actions: {plain:.2f} s without the profiler "
              f"({plain / args.games:.2f} s a game)")
    if args.out:
        prof.dump_stats(args.out)
    st = pstats.Stats(prof)
    st.strip_dirs().sort_stats("tottime").print_stats(args.top)
    return 0


if __name__ == "__main__":
    sys.exit(main())
