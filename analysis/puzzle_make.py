"""Hand-designed puzzles on the mini map ``mini-b``: ``kraton puzzles make [--only ID,ID]``
(also ``python -m analysis.puzzle_make``).

Themes the random miner rarely meets: tied rings that score for nobody (R25, R38), climbing
terraces to win the highest position (R24, R27), ponds that would score for an opponent. The
position is designed here; ``best`` and ``line`` come from the solver (and the brute force),
never from this file.
"""

from __future__ import annotations

import argparse
import os

from analysis.solver import solve
from core.actions import RICE, VILLAGE
from core.hexmap import parse_hex
from core.position import position_to_dict, write_json_atomic
from core.state import GameState
from puzzles.loader import HERE

MAP = os.path.join(HERE, "maps", "mini-b.txt")


def position(tiles: list[str], devs: dict[str, int], palaces: dict[str, int] | None = None,
             ap: int = 1, token: bool = False, face_up: str = "D",
             hands: tuple[list[str], list[str]] = (["M", "P", "MP"], ["M", "P", "MP"])) -> GameState:
    """A 2-player mini-b position, Red to move; tiles bottom first, material accounted (R1)."""
    s = GameState.new(2, seed=11, map_spec=MAP)
    s.to_move = 0
    pool = [*s.deck, s.face_up, *(c for p in s.players for c in p.hand)]
    for c in [face_up, *hands[0], *hands[1]]:
        pool.remove(c)
    s.face_up, s.deck = face_up, sorted(c for c in pool if c is not None)
    s.players[0].hand, s.players[1].hand = list(hands[0]), list(hands[1])
    giver = 1
    for text in tiles:
        cells = tuple(sorted(((parse_hex(w[:-1]), VILLAGE if w[-1] == "v" else RICE)
                              for w in text.split()), key=lambda c: (-c[1], c[0])))
        n = len(cells)
        if n == 3:
            s.triples -= 1
        else:
            key = "doubles" if n == 2 else ("villages" if cells[0][1] == VILLAGE else "rice")
            for p in (s.players[giver], s.players[1 - giver]):
                if getattr(p, key) > 0:
                    setattr(p, key, getattr(p, key) - 1)
                    break
            else:
                raise ValueError(f"no {key} left for {text}")
            giver = 1 - giver
        s.lay_tile(cells)
    for name, owner in devs.items():
        s.dev[parse_hex(name)] = owner
        s.players[owner].developers_off -= 1
    for name, v in (palaces or {}).items():
        s.palace[parse_hex(name)] = v
        s.palace_supply[v] -= 1
    s._touch_terrain()
    s.turn.ap = ap
    s.turn.token_used = not token  # no token this turn: the one spent came from his 3 (R7)
    if not token:
        s.players[s.to_move].tokens = min(s.players[s.to_move].tokens, 2)
    s.turn.tile_placed = True
    return s


RING = ["D2v E2r", "C3r", "C4r", "D4v D5r", "E3r"]  # the pond D3's ring, all but E4

DESIGNS = {
    "tied-ring-08": ("easy", "tied-ring", "The pond is tied: enclosing scores nobody",
                     {"tiles": [*RING, "B4v", "B5v"], "devs": {"C3": 0, "C4": 1, "B4": 0}}),
    "tied-ring-09": ("medium", "tied-ring", "Break the tie first, then close the pond",
                     {"tiles": [*RING, "E5v E6r"], "devs": {"C3": 0, "C4": 1, "E5": 0}, "ap": 2}),
    "terraces-09": ("easy", "terraces", "Climb inside the village for free",
                    {"tiles": ["C3v B3r C4r", "C5v B4r B5r", "C4v"],
                         "devs": {"C3": 0, "C5": 1}}),
    # (A second "C4v" on the first, for a v3, would lie exactly on a tile of its size: R13.)
    "pond-09": ("hard", "pond", "Which developer should stand on the ring?",
                    {"tiles": ["C3v B3r C4r", "C5v B4r B5r", "C4v", "E3v E4r"],
                         "devs": {"C3": 1, "C5": 1, "E3": 0}, "ap": 3}),
    "pond-for-opponent-09": ("medium", "pond-for-opponent", "Closing the pond pays the opponent",
                             # C3 lifted twice: a two-space tile (over B3) under the single,
                             # which may not lie on a single (R13)
                             {"tiles": ["D2v E2r", "C3v B3r", *RING[2:], "C3r", "B4v", "B5v"],
                              "devs": {"C3": 1, "C4": 0, "B4": 0},
                                  "ap": 2}),
}


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--only", default="", metavar="ID[,ID]", help=f"just these designs ({', '.join(DESIGNS)})")
    p.add_argument("--out", default=HERE, metavar="DIR", help="folder to write to (default: the collection)")


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m analysis.puzzle_make")
    add_arguments(p)
    run(p.parse_args(argv))


def run(args: argparse.Namespace) -> None:
    """Solve each design (CP-SAT and brute force must agree) and write it as a puzzle file."""
    from core.errors import KratonError

    wanted = {w.strip() for w in args.only.split(",") if w.strip()}
    if wanted - set(DESIGNS):
        raise KratonError(f"no design named {', '.join(sorted(wanted - set(DESIGNS)))} "
                          f"(one of {', '.join(DESIGNS)})")
    for pid, (diff, theme, title, spec) in DESIGNS.items():
        if wanted and pid not in wanted:
            continue
        s = position(**spec)  # type: ignore[arg-type]
        r = solve(s, "cpsat", time_limit=30)
        b = solve(s, "brute", time_limit=60)
        if not (r.optimal and b.optimal and r.best == b.best):
            print(f"{pid}: not proved ({r.best}/{r.optimal} vs brute {b.best}/{b.optimal})")
            continue
        d = position_to_dict(s)
        d["map"] = "maps/mini-b.txt"
        d["puzzle"] = {"id": pid, "goal": "max-points", "best": r.best, "line": r.line_text,
                       "difficulty": diff, "theme": theme, "title": title,
                       "solver": {"engine": r.engine, "seconds": round(r.seconds, 3),
                                  "brute_seconds": round(b.seconds, 3), "handed": r.handed}}
        write_json_atomic(os.path.join(args.out, f"{pid}.json"), d)
        print(f"{pid}: best {r.best} ({r.seconds:.2f} s, brute {b.seconds:.2f} s): {r.line_text}")


if __name__ == "__main__":
    main()
