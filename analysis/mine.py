"""Mine puzzles from seeded self-play: ``kraton puzzles mine [--count N] [--start SEED]``
(also ``python -m analysis.mine``).

Each candidate position is solved with the CP-SAT engine under a time limit; only proved
answers with points are kept, classified by what the best line does (the issue's themes), and
written as puzzle files (notation.md) with ``best`` and ``line`` from the solver.

Full turns come from games of four ``planner`` players on Java-Centre (``--mid-game``,
``--last-round``). Those players plan within a time budget, so a seed alone does not give the
same game on another machine: ``--save-games DIR`` keeps each game's record, and ``--records``
mines saved records, which replay to the same positions anywhere (``puzzles/games/``).
``--workers N`` (or ``--scheduler``) mines a game per process (``analysis.parallel``); the
command alone hands out ids and writes the files (``PuzzleWriter``).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from typing import Any

from analysis.solver import DEFAULT_ENGINE, ENGINES, solve
from analysis.solver.common import SolveResult, replay
from analysis.solver.selfplay import random_position
from core.actions import Action, Draw, Enter, Festival, Irrigate, Move, Palace, Tile, Token
from core.ascii_numbers import ascii_whole
from core.errors import KratonError, shown
from core.game import Game
from core.groups import all_ponds, pond_ring
from core.legality import ring_holder
from core.position import position_to_dict, read_json, write_json_atomic
from core.record import load_record, save_record
from core.state import GameState
from puzzles.loader import HERE

MAX_GAME_ACTIONS = 6000  # a guard: a game of planners takes about 400 actions
MAX_RANDOM_TURNS = 1000  # --turns: a random game ends long before (R40)
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


def turn_starts(g: Game, choose: Callable[[GameState], Action | None],
                apply: Callable[[Game, Action], None] = Game.apply_action
                ) -> Iterator[tuple[int, GameState]]:
    """Play on the game session ``g`` with ``choose`` (None: no more actions) and yield the
    start of every turn (numbered from 1) as a copy with the full AP (6, 7 with the token, R7);
    festival bids (R32) are not turns."""
    for turn, _, c in indexed_turn_starts(g, choose, apply):
        yield turn, c


def indexed_turn_starts(g: Game, choose: Callable[[GameState], Action | None],
                        apply: Callable[[Game, Action], None] = Game.apply_action
                        ) -> Iterator[tuple[int, int, GameState]]:
    """``turn_starts`` with the number of actions played before each turn: a puzzle's
    ``source.action`` (the record's position after that many actions, ``kraton show --at``).
    A turn starts where the session's turn count moves on (R9, R30). ``apply`` plays each
    action on ``g`` (a stalled game's adjudication goes with it)."""
    last = -1
    while not g.is_terminal() and len(g.actions) < MAX_GAME_ACTIONS:
        if g.turns != last and g.state.festival is None:
            last = g.turns
            c = g.state.copy()
            c.history = []
            yield g.turns + 1, len(g.actions), c
        a = choose(g.state)
        if a is None:
            return
        apply(g, a)


def planner_turns(seed: int, save: str | None = None) -> Iterator[tuple[int, GameState]]:
    """The turn starts of a seeded game of four ``planner`` players on Java-Centre. The players
    plan within a time budget, so the game depends on the machine's speed as well as the seed;
    ``save`` writes its record (``core/record.py``) when it ends, for ``record_turns``. A game
    stalled for rounds is adjudicated as in tournaments (``Game.apply_watching_stall``)."""
    from analysis.players import make_player

    g = Game.new(4, seed=seed, seats=["planner"] * 4)
    g.tags = {"seed": str(seed), "players": "planner x4"}
    players = [make_player("planner", seed * 10 + i) for i in range(4)]
    # The mover's player object also answers festival bids (it decides for whoever must act).
    yield from turn_starts(g, lambda x: players[x.to_move].choose(x), Game.apply_watching_stall)
    if save is not None:  # with its result when over (R40-R43), which a replay checks
        save_record(g.record(), save, g if g.is_terminal() else None)


def record_turns(path: str) -> Iterator[tuple[int, GameState]]:
    """The turn starts of a saved game record: the same positions on any machine."""
    for turn, _, s in indexed_record_turns(path):
        yield turn, s


def indexed_record_turns(path: str) -> Iterator[tuple[int, int, GameState]]:
    """(turn, actions played before it, position) for each turn start of a saved record, its
    adjudication (a stalled game, ``Game.adjudicate``) replayed where the record has it."""
    rec, _ = load_record(path)
    moves = iter(rec.actions)
    g = Game(rec.start_state(os.path.dirname(os.path.abspath(path))))

    def apply(g: Game, a: Action) -> None:
        g.apply_action(a)
        if rec.adjudication is not None and rec.adjudication[0] == len(g.actions):
            g.adjudicate()

    yield from indexed_turn_starts(g, lambda _: next(moves, None), apply)


def last_round(turn: int, s: GameState) -> str | None:
    """Busy end-game turns: the last round (R40), the mover with no land tile left (R10)."""
    p = s.players[s.to_move]
    if s.last_round is not None and s.triples == 0 and p.doubles + p.villages + p.rice == 0:
        return "Last round on Java-Centre"
    return None


BUSY = 25  # land tiles on the board from which a mid-game board counts as busy


def mid_game(turn: int, s: GameState, every: int = 1, only: frozenset[int] = frozenset()) -> str | None:
    """Busy mid-game turns: from the eighth on (every ``every``-th, or those in ``only``),
    before the last round, with ``BUSY`` land tiles on the board or more and tiles in every
    supply (R10), so the obligation to place one holds (R8)."""
    if only and turn not in only:
        return None
    if (turn >= 8 and turn % every == 0 and s.last_round is None and s.triples > 0
            and len(s.tiles) >= BUSY):
        return f"Mid-game on Java-Centre, turn {turn}"
    return None


def game_jobs(seeds: range, records: list[str], save: str | None,
              **options: Any) -> list[FullTurnJob]:
    """A job per game: the saved ``records`` (replayed: the same positions on any machine),
    else seeded planner games, written to the folder ``save``."""
    jobs: list[FullTurnJob] = []
    for path in records:
        full = os.path.abspath(path)
        name = os.path.relpath(full, HERE) if os.path.commonpath([full, HERE]) == HERE else path
        jobs.append(FullTurnJob(name, {"record": name}, path, None, None, **options))
    if records:
        return jobs
    for seed in seeds:
        out = os.path.join(save, f"planner-{seed}.json") if save else None
        jobs.append(FullTurnJob(f"seed {seed}", {"seed": seed}, None, seed, out, **options))
    return jobs


def write_puzzle(s: GameState, r: SolveResult, pid: str, difficulty: str, theme: str, title: str,
                 solver: dict[str, object], map_file: str | None = None) -> None:
    """Write ``s`` as puzzle ``pid`` (notation.md) with the solver's best and line, after
    replaying the line through the engine to exactly that score."""
    out, _ = replay(s, r.line)
    assert out.points == r.best
    d = position_to_dict(s)
    if map_file is not None:
        d["map"] = map_file
    d["puzzle"] = {"id": pid, "goal": "max-points", "best": r.best, "line": r.line_text,
                   "difficulty": difficulty, "theme": theme, "title": title,
                   "solver": {"engine": r.engine, "seconds": round(r.seconds, 3), **solver}}
    write_json_atomic(os.path.join(HERE, f"{pid}.json"), d)


def free_id(theme: str) -> str:
    """The first ``theme-NN`` no puzzle file uses yet: numbers can have gaps (puzzles dropped
    or renamed), and counting the files would then name one that exists and overwrite it."""
    n = 1
    while os.path.exists(os.path.join(HERE, f"{theme}-{n:02d}.json")):
        n += 1
    return f"{theme}-{n:02d}"


def spent(s: GameState) -> GameState:
    """The same board with the mover's action tokens spent: a full turn of 6 AP (R7)."""
    c = s.copy()
    c.players[c.to_move].tokens = 0
    return c


def quick_gap(s: GameState) -> int:
    """How far the solver's bound (``bound.upper_bound``) lies above the best of the quick
    lines: those that enclose a pond (``pond_lines``) and the turns the planner and greedy
    players would play (seed 0), each replayed: about 0.6 s a busy turn against the solve's 10.
    Of the 3 735 busy mid-game turns of the 77 records then in ``puzzles/games/``, the solver
    (10 s) proved nine, every one where this gap is 0, and none of the 133 others where it is 1
    to 4; in 118 new games it proved all 22 turns at gap 0 (``full-turn-67`` to ``-83``)."""
    from analysis.solver.bound import upper_bound
    from analysis.solver.common import Deadline
    from analysis.solver.model import player_lines
    from analysis.solver.pond_lines import as_played, pond_lines
    from core.errors import IllegalAction

    budget = s.turn.ap + s.token_bonus()
    lines = [as_played(line, token) for line, token in pond_lines(s, budget)]
    best = 0
    for line in lines + player_lines(s, Deadline(None), seeds=1):
        try:
            best = max(best, replay(s, line)[0].points)
        except IllegalAction:
            continue
    return upper_bound(s, budget) - best


@dataclass(frozen=True)
class FullTurnJob:
    """One game to mine for full turns: a saved ``record``, else the planner game of ``seed``
    (its record written to ``save``), and the options of ``mine_game``. ``meta`` goes into each
    puzzle's solver metadata (the record as named from the puzzles folder, or the seed)."""

    label: str
    meta: dict[str, object]
    record: str | None
    seed: int | None
    save: str | None
    limit: float
    pick: Callable[[int, GameState], str | None]
    least: int = 3
    seven: bool = False
    tokens_spent: bool = False
    engine: str = DEFAULT_ENGINE
    within: int | None = None


@dataclass
class Found:
    """A turn the solver proved worth a puzzle, before it gets an id (``PuzzleWriter``)."""

    state: GameState
    result: SolveResult
    where: str
    turn: int
    adapted: bool


Event = str | Found  # what mining a game reports, in order: a line to print, or a puzzle found


def mine_game(job: FullTurnJob, emit: Callable[[Event], None]) -> None:
    """Solve each picked turn of one game: its line to ``emit``, and a ``Found`` for each turn
    proved worth ``least`` points or more (with ``seven``, only turns where the mover still has
    his token: 7 AP). With ``tokens_spent``, a turn where he has one is also tried on the same
    board with his tokens spent (6 AP, ``spent``). With ``within``, only turns whose
    ``quick_gap`` is at most that are solved (the others are listed as skipped)."""
    turns = (record_turns(job.record) if job.record is not None
             else planner_turns(int(job.seed or 0), job.save))
    for turn, start in turns:
        where = job.pick(turn, start)
        if where is None or (job.seven and not start.token_bonus()):
            continue
        tries = [(start, False)]
        if job.tokens_spent and start.token_bonus():
            tries.append((spent(start), True))
        for s, adapted in tries:
            name = s.players[s.to_move].name
            budget = s.turn.ap + s.token_bonus()
            if job.within is not None:
                gap = quick_gap(s)
                if gap > job.within:
                    emit(f"{job.label} turn {turn} {name} {budget} AP: skip (bound {gap} above "
                         "the quick lines)")
                    continue
            r = solve(s, job.engine, time_limit=job.limit)
            emit(f"{job.label} turn {turn} {name} {budget} AP: best {r.best} optimal {r.optimal} "
                 f"bound {r.bound} {r.seconds:.1f} s")
            if r.optimal and r.best >= job.least:
                emit(Found(s, r, where, turn, adapted))


def mined_game(job: FullTurnJob) -> list[Event]:
    """``mine_game`` in a worker process: its events, returned when the game is done."""
    out: list[Event] = []
    mine_game(job, out.append)
    return out


class PuzzleWriter:
    """Writes each ``Found`` as the next free ``full-turn`` puzzle, in this process only (ids
    are handed out here, so parallel workers never pick the same one), unless that game's turn
    already has a puzzle (same game, same turn, same tokens)."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        solvers = [read_json(os.path.join(HERE, f))["puzzle"].get("solver", {})
                   for f in os.listdir(HERE) if f.startswith("full-turn-")]
        self.have = {(str(p.get("record", p.get("seed"))), p.get("turn"), bool(p.get("tokens_spent")))
                     for p in solvers}

    def __call__(self, job: FullTurnJob, event: Event) -> None:
        if isinstance(event, str):
            print(event, flush=True)
            return
        f = event
        key = (str(job.meta.get("record", job.meta.get("seed"))), f.turn, f.adapted)
        if key in self.have:
            return
        self.have.add(key)
        pid = free_id("full-turn")
        name = f.state.players[f.state.to_move].name
        budget = f.state.turn.ap + f.state.token_bonus()
        note = " (his tokens spent)" if f.adapted else ""
        write_puzzle(f.state, f.result, pid, "expert", "full-turn",
                     f"{f.where}, {name} with {budget} AP{note}: score {f.result.best}",
                     {**job.meta, "turn": f.turn, **({"tokens_spent": True} if f.adapted else {}),
                      "source": f"{self.kind} of a planner game"})
        print(f"  -> {pid}: {f.result.line_text}", flush=True)


def mine_full_turns(jobs: list[FullTurnJob], kind: str, workers: int = 1,
                    scheduler: object = None) -> None:
    """Write a ``full-turn`` puzzle for each turn of ``jobs``' games that ``mine_game`` finds.
    One worker mines the games in turn and prints as it goes; more (or a Dask ``scheduler``)
    mine a game each at a time and print each game's lines when it is done; a game that fails
    there (an unreadable record) is one line on stderr, the others go on, and the command then
    ends with status 2."""
    write = PuzzleWriter(kind)
    if workers <= 1 and scheduler is None:
        for job in jobs:
            mine_game(job, partial(write, job))
        return
    from analysis.parallel import run_parallel  # process pools: only when mining in parallel

    failed = 0
    for o in run_parallel(mined_game, jobs, workers=workers, scheduler=scheduler):
        if not o.ok:
            failed += 1
            print(f"{jobs[o.index].label}: {o.error}", file=sys.stderr, flush=True)
            continue
        for event in o.value or []:
            write(jobs[o.index], event)
    if failed:
        raise KratonError(f"{failed} of {len(jobs)} games could not be mined (above)")


def _turns(text: str) -> frozenset[int]:
    return frozenset(_ascii_numbers(text, "turn numbers like 27,31", 1, MAX_GAME_ACTIONS))


def _ascii_numbers(text: str, what: str, lo: int, hi: int) -> list[int]:
    """Comma-separated whole numbers from ``lo`` to ``hi`` in ASCII digits (checked before
    ``int`` sees them: thousands of digits would be Python's own error), else an argparse
    error saying what is expected."""
    numbers = [ascii_whole(x.strip(), len(str(hi))) for x in text.split(",")]
    if not all(n is not None and lo <= n <= hi for n in numbers):
        raise argparse.ArgumentTypeError(f"expected {what}, got '{shown(text)}'")
    return [n for n in numbers if n is not None]


def _maps(text: str) -> list[str]:
    """``--maps``: comma-separated names of ``MAPS``."""
    names = [x.strip() for x in text.split(",")]
    unknown = [n for n in names if n not in MAPS]
    if unknown:
        raise argparse.ArgumentTypeError(f"unknown map '{shown(unknown[0])}' (known: {', '.join(MAPS)})")
    return names


def _aps(text: str) -> list[int]:
    """``--ap``: the AP of the candidates, 1 to 7 (7: 6 and the token, R7)."""
    return _ascii_numbers(text, "AP values from 1 to 7 like 1,2,6,7 (7: 6 AP and the token, R7)", 1, 7)


def _turn_range(text: str) -> tuple[int, int]:
    """``--turns A,B``: how many random turns are played before a candidate, A to B."""
    what = f"A,B: random turns from A to B, 0 <= A <= B <= {MAX_RANDOM_TURNS}, like 3,14"
    numbers = _ascii_numbers(text, what, 0, MAX_RANDOM_TURNS)
    if len(numbers) != 2 or numbers[0] > numbers[1]:
        raise argparse.ArgumentTypeError(f"expected {what}, got '{shown(text)}'")
    return numbers[0], numbers[1]


def main(argv: list[str] | None = None) -> None:
    """``python -m analysis.mine``: ``kraton puzzles mine`` without the ``kraton`` command."""
    ap_ = argparse.ArgumentParser(prog="python -m analysis.mine")
    add_arguments(ap_)
    try:
        run(ap_.parse_args(argv))
    except KratonError as e:  # an unreadable record or puzzle file: one line, no traceback
        print(f"analysis.mine: {e}", file=sys.stderr)
        raise SystemExit(2) from None


def add_arguments(ap_: argparse.ArgumentParser) -> None:
    """The miner's options, shared by ``kraton puzzles mine`` and ``python -m analysis.mine``."""
    ap_.add_argument("--count", type=int, default=200)
    ap_.add_argument("--start", type=int, default=0)
    ap_.add_argument("--limit", type=float, default=6.0)
    ap_.add_argument("--engine", choices=ENGINES, default=DEFAULT_ENGINE,
                     help=f"the solver that must prove each puzzle (default {DEFAULT_ENGINE}; the "
                          "collection before issue 21 was mined with cpsat)")
    ap_.add_argument("--quota", type=int, default=6)
    ap_.add_argument("--maps", type=_maps, default="mini-b,mini-a,java-centre", metavar="MAP,MAP",
                     help=f"maps of the candidates ({', '.join(MAPS)})")
    ap_.add_argument("--turns", type=_turn_range, default="3,14", metavar="A,B",
                     help="range of random turns before the puzzle")
    ap_.add_argument("--no-token", action="store_true", help="the token is spent in every candidate")
    ap_.add_argument("--ap", type=_aps, default="1,1,2,2,3,3,4,5,6,6,7", metavar="N,N",
                     help="AP of the candidates, 1 to 7 (7: 6 and the token)")
    ap_.add_argument("--last-round", action="store_true",
                     help="full turns of the last round of seeded planner games on Java-Centre")
    ap_.add_argument("--mid-game", action="store_true",
                     help="full turns from the middle of seeded planner games on Java-Centre")
    ap_.add_argument("--records", nargs="+", default=[], metavar="GAME",
                     help="with --last-round or --mid-game: saved game records to mine instead "
                          "of new planner games (puzzles/games/ holds the ones mined so far)")
    ap_.add_argument("--save-games", metavar="DIR",
                     help="write the record of each planner game played to DIR (planner-SEED.json)")
    ap_.add_argument("--every", type=int, default=1, help="with --mid-game: every K-th turn only")
    ap_.add_argument("--at", metavar="TURN,TURN", type=_turns, default=frozenset(),
                     help="with --mid-game: only these turns")
    ap_.add_argument("--tokens-spent", action="store_true",
                     help="with --mid-game or --last-round: also try each 7-AP turn on the same "
                          "board with the mover's tokens spent (a full 6-AP turn)")
    ap_.add_argument("--least", type=int, default=3, metavar="N",
                     help="with --mid-game or --last-round: keep turns worth N points or more")
    ap_.add_argument("--seven", action="store_true",
                     help="with --last-round or --mid-game: only turns with the token left (7 AP)")
    ap_.add_argument("--workers", type=int, default=1, metavar="N",
                     help="with --last-round or --mid-game: mine N games at a time in as many "
                          "processes (each game's lines are printed when it is done)")
    ap_.add_argument("--scheduler", metavar="ADDRESS",
                     help="with --last-round or --mid-game: mine the games on this Dask scheduler")
    ap_.add_argument("--within", type=int, metavar="N",
                     help="with --last-round or --mid-game: solve only turns whose bound lies at "
                          "most N points above the quick lines (pond lines, the players' turns: "
                          "~0.6 s a turn); on busy turns the solver proves only those at 0")


def run(args: argparse.Namespace) -> None:
    """Mine with the parsed options (see ``add_arguments``)."""
    if args.last_round or args.mid_game:
        pick = last_round if args.last_round else partial(mid_game, every=args.every, only=args.at)
        jobs = game_jobs(range(args.start, args.start + args.count), args.records, args.save_games,
                         limit=args.limit, pick=pick, least=args.least, seven=args.seven,
                         tokens_spent=args.tokens_spent, engine=args.engine, within=args.within)
        mine_full_turns(jobs, "last-round" if args.last_round else "mid-game",
                        workers=args.workers, scheduler=args.scheduler)
        return
    counts: dict[str, int] = {}
    for f in os.listdir(HERE):
        if f.endswith(".json"):
            t = f.rsplit("-", 1)[0]
            counts[t] = counts.get(t, 0) + 1
    maps: list[str] = args.maps
    aps: list[int] = args.ap
    for seed in range(args.start, args.start + args.count):
        rng = random.Random(seed * 7919)
        name = maps[seed % len(maps)]
        ap = rng.choice(aps)
        lo, hi = args.turns
        s = random_position(seed, MAPS[name], players=rng.choice((2, 3)), turns=rng.randint(lo, hi))
        if s.is_terminal() or s.festival is not None:
            continue
        s.turn.ap = min(ap, 6) if ap < 7 else 6
        if ap == 7 and s.players[s.to_move].tokens == 0:
            s.players[s.to_move].tokens = 1
        if ap < 7 and (args.no_token or rng.random() < 0.5):
            s.turn.token_used = True  # spent, so at most 2 of his 3 are left (R7)
            s.players[s.to_move].tokens = min(s.players[s.to_move].tokens, 2)
        r = solve(s, args.engine, time_limit=args.limit)
        if not r.optimal or r.best <= 0:
            print(f"seed {seed}: skip ({'unproved' if not r.optimal else 'scores 0'}, {r.seconds:.1f} s)", flush=True)
            continue
        theme = theme_of(s, r)
        if counts.get(theme, 0) >= args.quota:
            continue
        counts[theme] = counts.get(theme, 0) + 1
        pid = free_id(theme)
        write_puzzle(s, r, pid, difficulty_of(s, r), theme,
                     f"{s.players[s.to_move].name} to move, {s.turn.ap} AP"
                     f"{' + token' if s.token_bonus() else ''}: score {r.best}",
                     {"seed": seed}, None if name == "java-centre" else f"maps/{name}.txt")
        print(f"seed {seed}: {pid} best {r.best} in {r.seconds:.2f} s: {r.line_text}", flush=True)


if __name__ == "__main__":
    main()
