"""Perft-like counts: the number of legal actions of each kind in fixed reference positions
(tests/perft.json), the hand derivation of the empty-board count recomputed independently, and a
brute-force check that the generator lists exactly the candidate actions ``push`` accepts.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import networkx as nx
import pytest

from core.actions import RICE, VILLAGE, Draw, End, Enter, Exit, Irrigate, Move, Palace, Tile, Token
from core.errors import KratonError
from core.hexmap import load_map
from core.state import GameState
from tests.helpers import act, kind_counts

PERFT = Path(__file__).with_name("perft.json")


@cache
def perft() -> dict[str, Any]:
    return json.loads(PERFT.read_text(encoding="utf-8"))


def position(entry: dict[str, Any]) -> GameState:
    s = GameState.new(entry["players"], seed=entry["seed"])
    for text in entry["line"].split(";"):
        if text.strip():
            s.push(act(text))
    return s


def entries() -> list[dict[str, Any]]:
    return perft()["positions"]


@pytest.mark.parametrize("entry", entries(), ids=lambda e: e["name"])
def test_perft_counts_per_kind(entry: dict[str, Any]) -> None:
    """R10–R38: the generator's counts in each reference position."""
    s = position(entry)
    actions = list(s.legal_actions())
    assert len(actions) == len(set(actions)), "duplicates in legal_actions()"
    assert kind_counts(actions) == entry["counts"]
    assert len(actions) == entry["total"]


def test_perft_reference_positions_are_what_they_claim() -> None:
    early, middle = (position(e) for e in entries()[1:])
    assert 5 <= len(early.tiles) < len(middle.tiles)
    assert len(middle.groups().cities()) >= 3
    assert any(middle.dev[h] >= 0 for h in middle.map.hexes)


# ------------------------------------------------------------------ the hand derivation

def independent_map() -> tuple[nx.Graph, set[tuple[int, int]], set[tuple[int, int]], set[tuple[int, int]]]:
    """The java-centre file read from scratch: the adjacency graph of its hexes in axial
    coordinates, and the sets of central land, printed irrigation and rim hexes."""
    text = resources.files("core").joinpath("maps", "java-centre.txt").read_text(encoding="utf-8")
    central: set[tuple[int, int]] = set()
    printed: set[tuple[int, int]] = set()
    rim: set[tuple[int, int]] = set()
    rows = [line for line in text.splitlines() if not line.startswith("#")]
    for r, line in enumerate(rows):
        for i, ch in enumerate(line):
            if ch == " ":
                continue
            q = i // 2 - (r - (r & 1)) // 2  # odd-r offset -> axial
            {".": central, "~": printed, "L": rim, "M": rim}[ch].add((q, r))
    g = nx.Graph()
    every = central | printed | rim
    g.add_nodes_from(every)
    for q, r in every:
        for dq, dr in ((1, 0), (0, 1), (-1, 1)):
            if (q + dq, r + dr) in every:
                g.add_edge((q, r), (q + dq, r + dr))
    return g, central, printed, rim


def test_perft_empty_board_derivation_recomputed_with_networkx() -> None:
    g, central, _printed, rim = independent_map()
    placeable = g.subgraph(central | rim)  # no tile on printed irrigation (R11)
    rim_only = g.subgraph(rim)
    pairs = placeable.number_of_edges() - rim_only.number_of_edges()  # ≥ 1 central hex (R14)

    def triangles(h: nx.Graph) -> int:
        return sum(nx.triangles(h).values()) // 3

    tris = triangles(placeable) - triangles(rim_only)
    border = {h for h in central if any(n in rim for n in g[h])}
    inner = len(central) - len(border)

    d = perft()["derivation"]
    assert (d["central"], d["border"], d["pairs"], d["triangles"]) == (
        len(central), len(border), pairs, tris)
    want = {"tile1": 2 * len(central), "tile2": 2 * pairs, "tile3": 3 * tris,
            "irrigate": inner, "draw": 2, "token": 1}
    [empty] = [e for e in entries() if e["name"] == "empty"]
    assert empty["line"] == ""
    assert empty["counts"] == want
    assert empty["total"] == sum(want.values()) == 2445
    # and the engine's own map agrees with the independent reading
    m = load_map()
    assert (len(m.pairs), len(m.triangles)) == (pairs, tris)


# ------------------------------------------------------------------ generator == push

def candidates(s: GameState) -> set[Any]:
    """Every action of part 1 that could conceivably be legal: each shape of tile on each place
    of the map with each terrain assignment, entries, moves, exits, palaces, irrigation..."""
    m = s.map
    out: set[Any] = {Draw(True), Draw(False), Token(), End()}
    for h in m.hexes:
        out |= {Tile(((h, RICE),)), Tile(((h, VILLAGE),)), Enter(h), Exit(h), Irrigate(h)}
        out |= {Palace(h, v) for v in (2, 4, 6, 8, 10)}
    every_pair = {(a, b) for a in m.hexes for b in m.nbrs[a] if a < b}
    for a, b in every_pair:
        out |= {Tile(((a, VILLAGE), (b, RICE))), Tile(((b, VILLAGE), (a, RICE)))}
        for c in m.nbrs[a]:
            if c > b and c in m.nbrs[b]:
                for v, r1, r2 in ((a, b, c), (b, a, c), (c, a, b)):
                    out.add(Tile(((v, VILLAGE), (r1, RICE), (r2, RICE))))
    mine = [h for h in m.hexes if s.dev[h] == s.to_move]
    out |= {Move(a, b) for a in mine for b in m.hexes}
    return out


def accepted(s: GameState, actions: set[Any]) -> set[Any]:
    ok = set()
    for a in actions:
        try:
            s.push(a)
        except KratonError:
            continue
        s.pop()
        ok.add(a)
    return ok


@pytest.mark.parametrize("entry", entries(), ids=lambda e: e["name"])
def test_perft_generator_lists_exactly_what_push_accepts(entry: dict[str, Any]) -> None:
    s = position(entry)
    generated = {a for a in s.legal_actions() if a.kind not in ("festival", "bid", "pass", "agree")}
    cands = candidates(s)
    assert generated <= cands
    assert accepted(s, cands) == generated


def test_perft_middle_move_costs_agree_with_dijkstra() -> None:
    """R27 in the middle position: every generated move costs what networkx's shortest path over
    land hexes (own developers passable, opponents and palaces not) says."""
    [entry] = [e for e in entries() if e["name"] == "middle"]
    s = position(entry)
    me = s.to_move
    g = nx.Graph()
    ok = [h for h in s.map.hexes if s.level[h] and not s.palace[h] and s.dev[h] in (-1, me)]
    for h in ok:
        for n in s.map.nbrs[h]:
            if n in ok or n == h:
                g.add_edge(h, n, weight=int(s.terrain[h] != s.terrain[n]))
    n_moves = 0
    for a in s.legal_actions():
        if not isinstance(a, Move):
            continue
        n_moves += 1
        want = nx.shortest_path_length(g, a.src, a.dst, weight="weight")
        before = s.turn.ap
        s.push(a)
        assert before - s.turn.ap == want, str(a)
        s.pop()
    assert n_moves == entry["counts"]["move"]


if __name__ == "__main__":  # print fresh counts after a deliberate engine change
    for e in entries():
        k = kind_counts(position(e).legal_actions())
        print(e["name"], json.dumps(k), sum(k.values()))
