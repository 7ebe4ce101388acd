"""Mine puzzles from seeded self-play: ``python -m puzzles.mine [--count N] [--start SEED]``.

Each candidate position is solved with the CP-SAT engine under a time limit; only proved
answers with points are kept, classified by what the best line does (the issue's themes), and
written as puzzle files (notation.md) with ``best`` and ``line`` from the solver.
"""

from __future__ import annotations

import argparse
import os
import random
from collections.abc import Iterator

from analysis.solver import solve
from analysis.solver.common import SolveResult, replay
from analysis.solver.selfplay import random_position
from core.actions import Draw, Enter, Festival, Irrigate, Move, Palace, Tile, Token
from core.groups import all_ponds, pond_ring
from core.legality import ring_holder
from core.position import position_to_dict, write_json_atomic
from core.state import GameState
from puzzles.loader import HERE

MAPS = {"mini-b": os.path.join(HERE, "maps", "mini-b.txt"),
        "mini-a": os.path.join(HERE, "maps", "mini-a.txt"), "java-centre": "java-centre"}


def tied_ring(s: GameState) -> bool:
    """A pond one tile from enclosure whose ring is tied: closing it scores nobody (R25, R38)."""
    for pond in all_ponds(s.map.hexes, s.irrigated, s.map.nbrs):
        ring = pond_ring(pond, s.map.nbrs)
        bare = [h for h in ring if s.level[h] == 0]
        if 0 < len(bare) <= 2 and any(s.dev[h] >= 0 for h in ring) and ring_holder(s, ring) < 0:
            return True
    return False


def theme_of(s: GameState, r: SolveResult) -> str:
    line = r.line
    kinds = [type(a) for a in line]
    if s.turn.ap + s.token_bonus() == 1 and Festival not in kinds:
        return "one-ap"
    if Festival in kinds:
        return "festival"
    if r.handed > 0:
        return "pond-for-opponent"
    if s.turn.ap >= 6:
        return "full-turn"
    if Token in kinds:
        return "token"
    if any(isinstance(a, Tile) and any(not s.map.is_central(h) for h in a.hexes) and p for a, p in
           zip(line, r.step_points)) or any(isinstance(a, Tile) and any(not s.map.is_central(h) for h in a.hexes)
                                             for a in line) and r.best > 0:
        return "overhang"
    c = s.copy()
    climbed = False
    for a in line:
        if isinstance(a, (Move, Enter)):
            dst = a.dst if isinstance(a, Move) else a.hex
            src_level = c.level[a.src] if isinstance(a, Move) else 0
            if c.level[dst] >= 2 and c.level[dst] > src_level:
                climbed = True
        if isinstance(a, Palace) and c.palace[a.hex] and any(isinstance(b, Tile) for b in line[:line.index(a)]):
            return "enlarge-after-growth"
        if isinstance(a, Palace) and climbed:
            return "terraces"
        c.push(a)
    if any(isinstance(a, (Tile, Irrigate)) and p for a, p in zip(line, r.step_points)):
        return "pond"
    if tied_ring(s):
        return "tied-ring"
    if s.turn.ap == 1 and not s.token_bonus():
        return "one-ap"
    return "palace"


def difficulty_of(s: GameState, r: SolveResult) -> str:
    n = len([a for a in r.line if not isinstance(a, (Draw, Token))])
    budget = s.turn.ap + s.token_bonus()
    if budget >= 6 or n >= 6:
        return "expert"
    if n >= 4 or budget >= 4:
        return "hard"
    if n >= 2:
        return "medium"
    return "easy"


def last_round_candidates(seed: int) -> Iterator[GameState]:
    """Busy end-game positions on Java-Centre: four ``planner`` players play a seeded game;
    each turn of the last round (R40) whose mover holds no land tile any more (R10) is a
    candidate, with the full 6 AP (7 with the token). The players plan within a time budget, so
    the games depend on the machine's speed as well as the seed; the puzzle file keeps the
    position itself."""
    from analysis.players import make_player

    s = GameState.new(4, seed=seed)
    players = [make_player("planner", seed * 10 + i) for i in range(4)]
    done: set[int] = set()
    steps = 0
    while not s.is_terminal() and steps < 6000:
        me = s.to_move
        p = s.players[me]
        if (s.festival is None and s.last_round is not None and s.turn.ap == 6 and me not in done
                and s.triples == 0 and p.doubles + p.villages + p.rice == 0):
            done.add(me)
            c = s.copy()
            c.history = []
            yield c
        s.push(players[me].choose(s))
        steps += 1


def mine_last_round(seeds: range, limit: float, least: int = 3) -> None:
    """Write a ``full-turn`` puzzle for each proved candidate worth ``least`` points or more."""
    counts = sum(1 for f in os.listdir(HERE) if f.startswith("full-turn-"))
    for seed in seeds:
        for s in last_round_candidates(seed):
            r = solve(s, "cpsat", time_limit=limit)
            print(f"seed {seed} {s.players[s.to_move].name}: best {r.best} optimal {r.optimal} "
                  f"{r.seconds:.1f} s", flush=True)
            if not r.optimal or r.best < least:
                continue
            counts += 1
            pid = f"full-turn-{counts:02d}"
            out, _ = replay(s, r.line)
            assert out.points == r.best
            d = position_to_dict(s)
            budget = s.turn.ap + s.token_bonus()
            d["puzzle"] = {"id": pid, "goal": "max-points", "best": r.best, "line": r.line_text,
                           "difficulty": "expert", "theme": "full-turn",
                           "title": f"Last round on Java-Centre, {s.players[s.to_move].name} with "
                                    f"{budget} AP and no tiles left: score {r.best}",
                           "solver": {"engine": r.engine, "seconds": round(r.seconds, 3),
                                      "seed": seed, "source": "last-round"}}
            write_json_atomic(os.path.join(HERE, f"{pid}.json"), d)
            print(f"  -> {pid}: {r.line_text}", flush=True)


def main() -> None:
    ap_ = argparse.ArgumentParser()
    ap_.add_argument("--count", type=int, default=200)
    ap_.add_argument("--start", type=int, default=0)
    ap_.add_argument("--limit", type=float, default=6.0)
    ap_.add_argument("--quota", type=int, default=6)
    ap_.add_argument("--maps", default="mini-b,mini-a,java-centre")
    ap_.add_argument("--turns", default="3,14", help="range of random turns before the puzzle")
    ap_.add_argument("--no-token", action="store_true", help="the token is spent in every candidate")
    ap_.add_argument("--ap", default="1,1,2,2,3,3,4,5,6,6,7")
    ap_.add_argument("--last-round", action="store_true",
                     help="full turns of the last round of seeded planner games on Java-Centre")
    args = ap_.parse_args()
    if args.last_round:
        mine_last_round(range(args.start, args.start + args.count), args.limit)
        return
    counts: dict[str, int] = {}
    for f in os.listdir(HERE):
        if f.endswith(".json"):
            t = f.rsplit("-", 1)[0]
            counts[t] = counts.get(t, 0) + 1
    maps = args.maps.split(",")
    aps = [int(x) for x in args.ap.split(",")]
    for seed in range(args.start, args.start + args.count):
        rng = random.Random(seed * 7919)
        name = maps[seed % len(maps)]
        ap = rng.choice(aps)
        lo, hi = (int(x) for x in args.turns.split(","))
        s = random_position(seed, MAPS[name], players=rng.choice((2, 3)), turns=rng.randint(lo, hi))
        if s.is_terminal() or s.festival is not None:
            continue
        s.turn.ap = min(ap, 6) if ap < 7 else 6
        if ap == 7 and s.players[s.to_move].tokens == 0:
            s.players[s.to_move].tokens = 1
        if ap < 7 and (args.no_token or rng.random() < 0.5):
            s.turn.token_used = True
        r = solve(s, "cpsat", time_limit=args.limit)
        if not r.optimal or r.best <= 0:
            print(f"seed {seed}: skip ({'unproved' if not r.optimal else 'scores 0'}, {r.seconds:.1f} s)", flush=True)
            continue
        theme = theme_of(s, r)
        if counts.get(theme, 0) >= args.quota:
            continue
        counts[theme] = counts.get(theme, 0) + 1
        pid = f"{theme}-{counts[theme]:02d}"
        out, _ = replay(s, r.line)
        assert out.points == r.best
        d = position_to_dict(s)
        if name != "java-centre":
            d["map"] = f"maps/{name}.txt"
        d["puzzle"] = {"id": pid, "goal": "max-points", "best": r.best, "line": r.line_text,
                       "difficulty": difficulty_of(s, r), "theme": theme,
                       "title": f"{s.players[s.to_move].name} to move, {s.turn.ap} AP"
                                f"{' + token' if s.token_bonus() else ''}: score {r.best}",
                       "solver": {"engine": r.engine, "seconds": round(r.seconds, 3), "seed": seed}}
        write_json_atomic(os.path.join(HERE, f"{pid}.json"), d)
        print(f"seed {seed}: {pid} best {r.best} in {r.seconds:.2f} s: {r.line_text}", flush=True)


if __name__ == "__main__":
    main()
