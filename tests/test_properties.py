"""Property tests (hypothesis) over random legal action sequences from seeded games.

A walk starts from a new game (2–4 players, any seed), from the middle reference position of
tests/perft.json or from a city where every player has a developer, then pushes legal actions: at each step an action kind is drawn among the kinds
available, then an action of that kind (so developers, palaces, irrigation and festivals occur,
not only tiles). Checked along the way:

- material is conserved (R1, R2): tiles, irrigation, developers, palaces, the 30 cards;
- levels, top terrain and the tile on top agree with the tile list (R6);
- the village groups (cached, updated incrementally) equal a from-scratch computation and
  networkx's connected components (R20–R22);
- push/pop round-trips exactly, action by action and for the whole line;
- save/load round-trips exactly, and the loaded position has the same legal actions;
- every generated action pushes without error and round-trips through its text,
  legal_actions() has no duplicates, and sampled
  candidate actions that are not generated are refused by push (generator and push agree).

Example counts are modest so that the file runs in well under a minute; for a deeper search set
KRATON_PROPERTY_EXAMPLES (e.g. 300).
"""

from __future__ import annotations

import json
import os
import tempfile
from collections import Counter, defaultdict
from functools import cache
from pathlib import Path
from typing import Any

import networkx as nx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.actions import (
    CARD_KINDS,
    RICE,
    VILLAGE,
    Action,
    Draw,
    End,
    Enter,
    Exit,
    Irrigate,
    Move,
    Palace,
    Tile,
    Token,
    parse_action,
)
from core.errors import KratonError
from core.groups import village_groups
from core.hexmap import SIZE
from core.position import load_position, position_from_dict, position_to_dict, save_position
from core.state import (
    DEVELOPERS,
    DOUBLES,
    IRRIGATION_TILES,
    PALACE_SUPPLY,
    RICE_SINGLES,
    TRIPLES,
    VILLAGE_SINGLES,
    GameState,
)
from tests.helpers import act, build

PROPS = settings(
    max_examples=int(os.environ.get("KRATON_PROPERTY_EXAMPLES", "8")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@cache
def middle() -> GameState:
    data = json.loads(Path(__file__).with_name("perft.json").read_text(encoding="utf-8"))
    [e] = [e for e in data["positions"] if e["name"] == "middle"]
    s = GameState.new(e["players"], seed=e["seed"])
    for text in e["line"].split(";"):
        s.push(act(text))
    return s


def start(data: st.DataObject) -> GameState:
    """A new game, the middle reference position, or a city where every player has a developer
    (so that festivals, R30–R35, are held and bid in the walks too)."""
    where = data.draw(st.sampled_from(("new", "middle", "city")), label="start")
    if where == "middle":
        return middle().copy()
    n = data.draw(st.integers(2, 4), label="players")
    seed = data.draw(st.integers(0, 10_000), label="seed")
    if where == "new":
        return GameState.new(n, seed=seed)
    devs = {f"I{5 + i}": i for i in range(n)}
    return build(players=n, seed=seed, to_move=data.draw(st.integers(0, n - 1), label="to move"),
                 tiles=[f"I{c}v H{c}r" for c in range(4, 10)], developers=devs,
                 palaces={"I4": 4}, tile_placed=data.draw(st.booleans(), label="tile placed"))


def choose(data: st.DataObject, actions: list[Action]) -> Action:
    by_kind: dict[str, list[Action]] = defaultdict(list)
    for a in actions:
        by_kind[a.kind].append(a)
    kind = data.draw(st.sampled_from(sorted(by_kind)), label="kind")
    return data.draw(st.sampled_from(by_kind[kind]), label="action")


def walk(data: st.DataObject, s: GameState, max_steps: int, each: Any = None) -> list[Action]:
    """Push up to ``max_steps`` drawn legal actions; ``each(s, actions)`` runs before each push."""
    steps = data.draw(st.integers(1, max_steps), label="steps")
    line: list[Action] = []
    for _ in range(steps):
        actions = list(s.legal_actions())
        if not actions:
            break
        if each is not None:
            each(s, actions)
        a = choose(data, actions)
        s.push(a)
        line.append(a)
    return line


# ------------------------------------------------------------------ independent checks

def check_material(s: GameState) -> None:
    n = s.n_players
    sizes = Counter(len(t) if len(t) > 1 else ("v" if t[0][1] == VILLAGE else "r") for t in s.tiles)
    assert sizes[3] + s.triples == TRIPLES
    assert sizes[2] + sum(p.doubles for p in s.players) == DOUBLES * n
    assert sizes["r"] + sum(p.rice for p in s.players) == RICE_SINGLES * n
    assert sizes["v"] + sum(p.villages for p in s.players) == VILLAGE_SINGLES * n
    assert min([s.triples, s.irrigation_supply] + [p.doubles for p in s.players]
               + [p.rice for p in s.players] + [p.villages for p in s.players]) >= 0
    assert len(s.placed_irrigation) + s.irrigation_supply == IRRIGATION_TILES
    for i, p in enumerate(s.players):
        on = sum(1 for h in range(SIZE) if s.dev[h] == i)
        assert on + p.developers_off == DEVELOPERS and p.developers_off >= 0
        assert 0 <= p.tokens <= 3
    for v, total in PALACE_SUPPLY.items():
        on = sum(1 for h in range(SIZE) if s.palace[h] == v)
        assert 0 <= s.palace_supply[v] and on <= total - s.palace_supply[v]
    cards = Counter(s.deck) + Counter(s.discard) + Counter(c for p in s.players for c in p.hand)
    if s.face_up:
        cards[s.face_up] += 1
    if s.festival is not None:
        cards += Counter(s.festival.cards_in_play())
    assert cards == Counter({k: 5 for k in CARD_KINDS})
    assert 0 <= s.turn.ap <= 7


def check_board(s: GameState) -> None:
    level, terrain, top = [0] * SIZE, [0] * SIZE, [-1] * SIZE
    for i, cells in enumerate(s.tiles):
        hs = [h for h, _ in cells]
        assert len({level[h] for h in hs}) == 1, "a floating tile (R12)"
        for h, t in cells:
            level[h] += 1
            terrain[h] = t
            top[h] = i
    assert s.level == level and s.terrain == terrain and s.top == top
    for h in range(SIZE):
        if s.dev[h] >= 0:
            assert level[h] > 0 and not s.palace[h]
        if s.palace[h]:
            assert terrain[h] == VILLAGE
        if s.irrigated[h]:
            assert level[h] == 0


def partition(labels: list[int], hexes: Any) -> set[frozenset[int]]:
    groups: dict[int, set[int]] = defaultdict(set)
    for h in hexes:
        if labels[h] >= 0:
            groups[labels[h]].add(h)
    return {frozenset(g) for g in groups.values()}


def check_groups(s: GameState) -> None:
    g = s.groups()
    fresh = village_groups(s.map.hexes, s.terrain, s.map.nbrs, s.palace, SIZE)
    got = partition(g.label, s.map.hexes)
    assert got == partition(fresh.label, s.map.hexes)
    assert {frozenset(m) for m in g.members} == got
    for gi, members in enumerate(g.members):
        palaces = [h for h in members if s.palace[h]]
        assert g.palace[gi] == (palaces[0] if palaces else -1)
        assert all(g.label[h] == gi for h in members)


def check_groups_networkx(s: GameState) -> None:
    villages = [h for h in s.map.hexes if s.terrain[h] == VILLAGE]
    graph = nx.Graph()
    graph.add_nodes_from(villages)
    graph.add_edges_from((h, n) for h in villages for n in s.map.nbrs[h] if s.terrain[n] == VILLAGE)
    want = {frozenset(c) for c in nx.connected_components(graph)}
    assert partition(s.groups().label, s.map.hexes) == want


def fingerprint(s: GameState) -> tuple[Any, ...]:
    t = s.turn
    return (
        tuple(s.level), tuple(s.terrain), tuple(s.top), tuple(s.dev), tuple(s.palace),
        tuple(s.fest), tuple(s.irrigated), tuple(s.tiles), tuple(s.placed_irrigation),
        tuple(p.snapshot() for p in s.players), s.to_move,
        (t.ap, t.token_used, t.tile_placed, t.cards_drawn, tuple(t.palaces_changed)),
        None if s.last_round is None else tuple(s.last_round),
        s.triples, s.irrigation_supply, tuple(s.palace_supply),
        s.face_up, tuple(s.deck), tuple(s.discard), s.reshuffles, s.festival, len(s.history),
    )


# ------------------------------------------------------------------ the properties

@PROPS
@given(st.data())
def test_material_board_and_groups_stay_consistent(data: st.DataObject) -> None:
    """R1, R2, R6, R20–R22 after every action of a random legal line."""
    s = start(data)

    def each(s: GameState, actions: list[Action]) -> None:
        check_material(s)
        check_board(s)
        check_groups(s)

    walk(data, s, 40, each)
    each(s, [])
    check_groups_networkx(s)


@PROPS
@given(st.data())
def test_push_pop_round_trips_exactly(data: st.DataObject) -> None:
    s = start(data)
    before = [(position_to_dict(s), fingerprint(s))]

    def each(s: GameState, actions: list[Action]) -> None:
        # a sample of actions pushed and popped at once
        for a in data.draw(st.lists(st.sampled_from(actions), max_size=6), label="tried"):
            f = fingerprint(s)
            s.push(a)
            s.pop()
            assert fingerprint(s) == f, f"push/pop of {a}"

    line = walk(data, s, 30, each)
    # replay the stack backwards: each pop gives back the position before that action
    states = [(position_to_dict(s), fingerprint(s))]
    for a in reversed(line):
        assert s.pop() == a
        states.append((position_to_dict(s), fingerprint(s)))
        check_groups(s)
    assert states[-1] == before[0]
    # and forwards again: the same positions
    for a in line:
        s.push(a)
    assert (position_to_dict(s), fingerprint(s)) == states[0]


@PROPS
@given(st.data())
def test_save_load_round_trips_exactly(data: st.DataObject) -> None:
    s = start(data)
    walk(data, s, 30)
    d = position_to_dict(s)
    t = position_from_dict(json.loads(json.dumps(d)))
    assert position_to_dict(t) == d
    assert fingerprint(t)[:-1] == fingerprint(s)[:-1]  # all but the history length
    assert set(t.legal_actions()) == set(s.legal_actions())
    with tempfile.TemporaryDirectory() as tmp:
        p = os.path.join(tmp, "p.json")
        save_position(s, p)
        u = load_position(p)
        assert position_to_dict(u) == d
        save_position(u, p + "2")
        with open(p, "rb") as f1, open(p + "2", "rb") as f2:
            assert f1.read() == f2.read()


@PROPS
@given(st.data())
def test_every_generated_action_pushes_and_there_are_no_duplicates(data: st.DataObject) -> None:
    s = start(data)

    def each(s: GameState, actions: list[Action]) -> None:
        assert len(actions) == len(set(actions)), "duplicates in legal_actions()"
        for a in actions:  # notation.md: every action round-trips through its text
            assert parse_action(str(a)) == a, str(a)
        tiles = [a for a in actions if a.kind == "tile"]
        others = [a for a in actions if a.kind != "tile"]
        sample = others + data.draw(st.lists(st.sampled_from(tiles), max_size=8), label="tiles") \
            if tiles else others
        for a in sample:
            ap = s.turn.ap
            s.push(a)  # must not raise
            if a.kind in ("tile", "enter", "move", "exit", "palace", "irrigate", "draw"):
                assert s.turn.ap < ap or (a.kind == "move" and s.turn.ap == ap)
            s.pop()

    walk(data, s, 25, each)


def candidate(data: st.DataObject, s: GameState) -> Action:
    """An action of part 1 built from the map, legal or not."""
    m = s.map
    hexes = st.sampled_from(m.hexes)
    terrain = st.sampled_from((RICE, VILLAGE))
    kind = data.draw(st.sampled_from(("tile1", "tile2", "tile3", "enter", "move", "exit", "palace",
                                      "irrigate", "draw", "token", "end")), label="candidate")
    h = data.draw(hexes, label="hex")
    if kind == "tile1":
        return Tile(((h, data.draw(terrain)),))
    if kind == "tile2":
        o = data.draw(st.sampled_from(m.nbrs[h]) | hexes.filter(lambda x: x != h))
        return Tile(((h, data.draw(terrain)), (o, data.draw(terrain))))
    if kind == "tile3":
        a, b, c = data.draw(st.sampled_from(m.triangles))
        return Tile(((a, data.draw(terrain)), (b, data.draw(terrain)), (c, data.draw(terrain))))
    if kind == "enter":
        return Enter(h)
    if kind == "exit":
        return Exit(h)
    if kind == "move":
        mine = [x for x in m.hexes if s.dev[x] == s.to_move]
        src = data.draw(st.sampled_from(mine) if mine else hexes)
        return Move(src, h)
    if kind == "palace":
        return Palace(h, data.draw(st.integers(1, 12)))
    if kind == "irrigate":
        return Irrigate(h)
    if kind == "draw":
        return Draw(data.draw(st.booleans()))
    return Token() if kind == "token" else End()


@PROPS
@given(st.data())
def test_generator_and_push_agree_on_candidate_actions(data: st.DataObject) -> None:
    s = start(data)

    def each(s: GameState, actions: list[Action]) -> None:
        legal = set(actions)
        for _ in range(25):
            a = candidate(data, s)
            f = fingerprint(s)
            try:
                s.push(a)
            except KratonError:
                assert a not in legal, f"{a} is generated but push refuses it"
                assert fingerprint(s) == f, f"a refused {a} changed the state"
                continue
            s.pop()
            assert a in legal, f"push accepts {a} but the generator does not list it"

    walk(data, s, 25, each)
