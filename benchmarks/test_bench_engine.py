"""Groups ``movegen``, ``pushpop``, ``positions`` and ``game``: the engine as its users see it.

- every legal action of the saved early / middle / late positions (``legal_actions``), against
  the brute-force reference (every conceivable turn action tried with push / pop);
- push + pop of a tile, a move and an end of turn; every move generated then pushed, with the
  path costs generation worked out kept for the push or worked out again; ``copy``;
- loading and saving a position file (atomic write);
- a complete random 4-player game (uniform over the legal actions, seeded), and one whose random
  player picks the kind of action first (more developers, palaces and festivals).
"""

from __future__ import annotations

import os

import pytest

from benchmarks.common import POSITIONS, midgame_sample, position, random_game
from benchmarks.reference import FESTIVAL_KINDS, legal_actions_ref
from core.actions import Action, End, Move, Tile
from core.position import load_position, save_position
from core.state import GameState

STAGES = ["early", "middle", "late"]


@pytest.mark.parametrize("stage", STAGES)
@pytest.mark.benchmark(group="movegen")
def test_legal_actions(bench, stage: str) -> None:
    s = position(stage)
    got = bench(lambda: list(s.legal_actions()), pair=f"legal actions {stage}", role="fast")
    turn_actions = {a for a in got if a.kind not in FESTIVAL_KINDS}
    assert len(set(got)) == len(got)
    if stage == "middle":  # the full comparison: tests/test_fastpaths.py does all three
        assert turn_actions == legal_actions_ref(s)


@pytest.mark.parametrize("stage", STAGES)
@pytest.mark.benchmark(group="movegen")
def test_legal_actions_reference(bench, stage: str) -> None:
    s = position(stage)
    bench(lambda: legal_actions_ref(s), pair=f"legal actions {stage}", role="reference", rounds=3)


@pytest.mark.benchmark(group="movegen")
def test_legal_actions_midgame_sample(bench) -> None:
    """The mid-game target applies to every mid-game position: 16 of them, one round."""
    states = midgame_sample()
    got = bench(lambda: [list(s.legal_actions()) for s in states],
                pair="legal actions, 16 mid-game states", role="fast", calls=len(states))
    assert all(acts for acts in got)


def _first(s: GameState, kind: type) -> Action:
    return next(a for a in s.legal_actions() if isinstance(a, kind))


@pytest.mark.parametrize(("stage", "kind"), [("middle", Tile), ("middle", Move), ("late", End)])
@pytest.mark.benchmark(group="pushpop")
def test_push_pop(bench, stage: str, kind: type) -> None:
    s = position(stage)
    if kind is End:  # the end of a turn needs the obligatory tile first (R8)
        s.push(_first(s, Tile))
    a = _first(s, kind)
    before = (list(s.level), list(s.dev), s.to_move, s.turn.ap)

    def run() -> None:
        s.push(a)
        s.pop()

    bench(run, pair=f"push+pop {kind.__name__.lower()}", role="fast")
    assert (list(s.level), list(s.dev), s.to_move, s.turn.ap) == before


def _push_every_move(s: GameState, keep: bool) -> int:
    """Generate the moves, then push and pop each (what a search does at a node); without
    ``keep``, the path costs generation left are dropped first, so that ``push`` walks the
    board for each move as it did before ``GameState.path_costs``."""
    moves = [a for a in s.legal_actions() if isinstance(a, Move)]
    spent = 0
    for a in moves:
        if not keep:
            s._paths = None
        ap = s.turn.ap
        s.push(a)
        spent += ap - s.turn.ap
        s.pop()
    return spent


@pytest.mark.parametrize("keep", [True, False], ids=["kept", "walked"])
@pytest.mark.benchmark(group="pushpop")
def test_push_every_move(bench, keep: bool) -> None:
    """The path costs that move generation works out, kept for each move's push (fast), or
    worked out again by the push (reference)."""
    s = position("middle")
    got = bench(lambda: _push_every_move(s, keep), pair="generate + push every move",
                role="fast" if keep else "reference")
    assert got == _push_every_move(s, not keep) > 0


def _after_each_other_action(stage: str) -> list[GameState]:
    """The board after each legal action but tiles, while a tile is owed (R8), each carrying
    the placement push's R8 test found before the action as its hint."""
    from core.movegen import first_placement

    s = position(stage)
    assert s.obligation_pending()
    found = first_placement(s, s.turn.ap + s.token_bonus())
    assert found is not None
    out = []
    for a in s.legal_actions():
        if not isinstance(a, Tile) and a.kind != "token":
            s.push(a)
            c = s.copy()
            c._r8_hint = found[0]
            out.append(c)
            s.pop()
    return out


@pytest.mark.parametrize("hint", [True, False], ids=["hinted", "scanned"])
@pytest.mark.benchmark(group="pushpop")
def test_r8_witness_after_each_action(bench, hint: bool) -> None:
    """push's R8 test after an action: a placement that still fits, looked for near the one
    found before the action (``some_placement``, fast) or over the whole board (reference)."""
    from core.movegen import first_placement, some_placement

    states = _after_each_other_action("late")
    find = some_placement if hint else first_placement
    got = bench(lambda: [find(c, c.turn.ap + c.token_bonus()) is None for c in states],
                pair="R8 witness after each non-tile action", role="fast" if hint else "reference",
                calls=len(states))
    assert got == [first_placement(c, c.turn.ap + c.token_bonus()) is None for c in states]


@pytest.mark.benchmark(group="pushpop")
def test_copy(bench) -> None:
    s = position("late")
    c = bench(s.copy, pair="copy", role="fast")
    assert c.level == s.level and c is not s


@pytest.mark.benchmark(group="positions")
def test_load(bench) -> None:
    path = os.path.join(POSITIONS, "late.json")
    s = bench(lambda: load_position(path), pair="load late.json", role="fast")
    assert len(s.tiles) >= 80


@pytest.mark.benchmark(group="positions")
def test_save(bench, tmp_path) -> None:
    s = position("late")
    path = str(tmp_path / "late.json")
    bench(lambda: save_position(s, path), pair="save late.json", role="fast")
    assert load_position(path).level == s.level


@pytest.mark.benchmark(group="game")
def test_random_game(bench) -> None:
    s = bench(lambda: random_game(1), pair="random 4-player game", role="fast", rounds=5)
    assert s.is_terminal() and s.triples == 0


@pytest.mark.benchmark(group="game")
def test_random_game_by_kind(bench) -> None:
    s = bench(lambda: random_game(1, by_kind=True), pair="random 4-player game, by kind",
              role="fast", rounds=3)
    assert s.is_terminal() and s.triples == 0
