"""Self-play tournaments: complete games between computer players, seats rotated, in parallel.

``play_game`` plays one game to its end (R40–R43) and records scores after every turn;
``run_tournament`` plays many through ``analysis.parallel``; ``summarize`` gives wins (shared
victories count for each winner, R43), mean scores with 95% confidence intervals, head-to-head
records and game lengths; ``write_csv`` / ``summary_json`` export them.
"""

from __future__ import annotations

import csv
import io
import math
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from analysis.parallel import Outcome, run_parallel
from analysis.players import make_player
from core.errors import KratonError
from core.game import Game

MAX_ACTIONS = 20_000  # a guard against a player that never ends its turn


@dataclass(frozen=True)
class GameSpec:
    """One game: who sits where (in turn order from seat 0) and the deal's seed."""

    index: int
    seats: tuple[str, ...]
    seed: int


@dataclass
class GameResult:
    index: int
    seed: int
    seats: list[str]
    scores: list[int]
    winners: list[int]
    turns: int
    actions: int
    seconds: float
    think: list[float]  # seconds each seat spent choosing
    history: list[list[int]] = field(default_factory=list)  # scores after every turn
    movers: list[int] = field(default_factory=list)  # who played each of those turns
    adjudicated: bool = False  # ended by the stall rule, not by R40 (``core.game.Game.adjudicate``)


def seatings(players: Sequence[str], games: int, seed: int) -> list[GameSpec]:
    """Game g rotates the seats by g (so each player sits everywhere equally often)."""
    n = len(players)
    return [
        GameSpec(g, tuple(players[(i + g) % n] for i in range(n)), seed + g) for g in range(games)
    ]


def play_game(spec: GameSpec) -> GameResult:
    """Play one complete game through the game session (``core.game.Game``); R40's end and
    R41's final counts are the engine's. A stalled game — three-space tiles left, but no tile
    placed for ``STALL_ROUNDS`` rounds, because developers block every flat spot and nobody
    moves them — is ended by ``Game.adjudicate`` (a tournament rule, ``core.endgame``)."""
    g = Game.new(len(spec.seats), seed=spec.seed, seats=list(spec.seats))
    bots = [make_player(name, spec.seed * 10 + i) for i, name in enumerate(spec.seats)]
    think = [0.0] * len(bots)
    start = time.perf_counter()
    while not g.is_terminal():
        if len(g.actions) >= MAX_ACTIONS:
            raise KratonError(f"game {spec.index} did not end within {MAX_ACTIONS} actions (R40)")
        who = g.current_player()
        t0 = time.perf_counter()
        a = bots[who].choose(g.state)
        think[who] += time.perf_counter() - t0
        g.apply_watching_stall(a)
    spans = [t for t in g.turn_spans() if t.complete or g.is_terminal()]
    scores = [p.score for p in g.state.players]
    history = [list(g.scores_at(0))] + [list(t.after) for t in spans]
    return GameResult(spec.index, spec.seed, list(spec.seats), scores, g.winners(), len(spans),
                      len(g.actions), time.perf_counter() - start, think, history,
                      [t.player for t in spans], g.adjudication is not None)


def run_tournament(
    players: Sequence[str],
    games: int,
    seed: int = 0,
    workers: int | None = None,
    scheduler: Any = None,
    progress: Callable[[int, int, Outcome[GameResult]], None] | None = None,
) -> tuple[list[GameResult], list[str]]:
    """Play the games in parallel; returns results in game order and error lines."""
    for name in players:
        make_player(name)  # a bad name fails here, once, before any process starts
    specs = seatings(players, games, seed)
    results: list[GameResult] = []
    errors: list[str] = []
    for out in run_parallel(play_game, specs, workers=workers, scheduler=scheduler, progress=progress):
        if out.ok and out.value is not None:
            results.append(out.value)
        else:
            errors.append(f"game {out.index} (seed {specs[out.index].seed}): {out.error}")
    results.sort(key=lambda r: r.index)
    return results, errors


def mean_ci(values: Sequence[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95% confidence interval (normal approximation)."""
    if not values:
        return 0.0, 0.0
    m = statistics.fmean(values)
    if len(values) < 2:
        return m, 0.0
    return m, 1.96 * statistics.stdev(values) / math.sqrt(len(values))


def summarize(results: Sequence[GameResult]) -> dict[str, Any]:
    """Per player kind: seats, wins, win rate, mean score ± 95% CI; head-to-head; lengths."""
    kinds: list[str] = []
    for r in results:
        for k in r.seats:
            if k not in kinds:
                kinds.append(k)
    rows = []
    for k in kinds:
        scores = [r.scores[i] for r in results for i, s in enumerate(r.seats) if s == k]
        games = [r for r in results if k in r.seats]
        wins = sum(1 for r in games if any(r.seats[w] == k for w in r.winners))
        think = [r.think[i] / max(1, r.movers.count(i)) for r in results
                 for i, s in enumerate(r.seats) if s == k]
        m, ci = mean_ci(scores)
        rows.append({"player": k, "games": len(games), "seats": len(scores), "wins": wins,
                     "win_rate": wins / len(games) if games else 0.0, "mean_score": m,
                     "ci95": ci, "seconds_per_turn": statistics.fmean(think) if think else 0.0})
    h2h: dict[str, dict[str, float]] = {}
    for a in kinds:
        for b in kinds:
            if a == b:
                continue
            n = won = 0.0
            for r in results:
                for i, si in enumerate(r.seats):
                    for j, sj in enumerate(r.seats):
                        if si == a and sj == b:
                            n += 1
                            won += 1.0 if r.scores[i] > r.scores[j] else 0.5 if r.scores[i] == r.scores[j] else 0.0
            if n:
                h2h.setdefault(a, {})[b] = won / n
    turns = [r.turns for r in results]
    acts = [r.actions for r in results]
    secs = [r.seconds for r in results]
    return {
        "games": len(results),
        "adjudicated": sum(1 for r in results if r.adjudicated),
        "players": rows,
        "head_to_head": h2h,
        "length": {
            "turns": mean_ci(turns)[0] if turns else 0.0,
            "actions": mean_ci(acts)[0] if acts else 0.0,
            "seconds": mean_ci(secs)[0] if secs else 0.0,
            "seconds_max": max(secs, default=0.0),
        },
    }


def summary_text(summary: dict[str, Any]) -> str:
    """Readable tables: standings, head-to-head (share of seat pairs won, ties half), length."""
    adj = summary.get("adjudicated", 0)
    lines = [f"{summary['games']} games" + (f" ({adj} ended by the stall rule)" if adj else ""),
             f"{'player':<10}{'seats':>6}{'wins':>6}{'win %':>8}{'mean score':>12}{'95% CI':>10}{'s/turn':>8}"]
    for row in summary["players"]:
        lines.append(f"{row['player']:<10}{row['seats']:>6}{row['wins']:>6}{100 * row['win_rate']:>7.1f}%"
                     f"{row['mean_score']:>12.1f}{'±' + format(row['ci95'], '.1f'):>10}"
                     f"{row['seconds_per_turn']:>8.2f}")
    if summary["head_to_head"]:
        lines.append("head to head (row beats column, share of seat pairs; ties count half):")
        kinds = [r["player"] for r in summary["players"]]
        lines.append(f"{'':<10}" + "".join(f"{k:>10}" for k in kinds))
        for a in kinds:
            cells = "".join(
                f"{'-':>10}" if a == b else f"{100 * summary['head_to_head'].get(a, {}).get(b, 0):>9.1f}%"
                for b in kinds
            )
            lines.append(f"{a:<10}{cells}")
    ln = summary["length"]
    lines.append(f"length: {ln['turns']:.1f} turns, {ln['actions']:.0f} actions, "
                 f"{ln['seconds']:.1f} s per game (longest {ln['seconds_max']:.1f} s)")
    return "\n".join(lines)


CSV_FIELDS = ("game", "seed", "seat", "player", "score", "winner", "turns", "actions",
              "seconds", "think_seconds", "adjudicated")


def csv_text(results: Sequence[GameResult]) -> str:
    """One row per game and seat."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(CSV_FIELDS)
    for r in results:
        for i, k in enumerate(r.seats):
            w.writerow([r.index, r.seed, i, k, r.scores[i], int(i in r.winners), r.turns,
                        r.actions, f"{r.seconds:.3f}", f"{r.think[i]:.3f}", int(r.adjudicated)])
    return buf.getvalue()


def results_json(results: Sequence[GameResult], summary: dict[str, Any]) -> dict[str, Any]:
    return {"format": "kraton-tournament", "version": 1, "summary": summary,
            "games": [asdict(r) for r in results]}
