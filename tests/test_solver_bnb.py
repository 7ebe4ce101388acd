"""Branch and bound's cuts (``analysis/solver/bnb.py``) on a busy Java-Centre board."""

from __future__ import annotations

import os

import pytest

from analysis.solver import solve
from analysis.solver.bnb import _alone_openings, solve_bnb
from analysis.solver.bound import upper_bound
from analysis.solver.common import Outcome, festival_openings, festival_outcome
from core.actions import Festival
from core.position import load_position
from core.state import GameState
from tests.festival_positions import city_position

BOARD = os.path.join(os.path.dirname(__file__), "positions", "java-centre-turn-21.json")


def test_r30_r34_a_tie_on_points_needs_fewer_ap_to_win() -> None:
    """R8/R30–R36 and issue 5's tie-breaks: turn 21 of a four-player planner game, the mover
    with 2 AP. The owed tile, a card drawn and a festival alone at K11 score 5, which is also
    the bound, so only a line with as many points and fewer AP could do better. The search cuts
    every branch whose bound with that many AP falls short; without that cut it ran past 30 s
    (here the time limit of 20 s would leave it unproved)."""
    s = load_position(BOARD)
    s.turn.ap = 2
    s.players[s.to_move].tokens = 0
    assert upper_bound(s) == 5
    r = solve(s, "bnb", time_limit=20)
    assert r.optimal and r.best == 5 and r.ap_spent == 2
    assert "festival K11" in r.line_text
    assert r.nodes < 2000


def test_transposition_table_is_capped() -> None:
    """Issue 21: the table keeps at most its cap (two generations; the older half goes when
    the newer fills), the newest entries stay, and a dropped state is only a miss."""
    from analysis.solver.bnb import Seen
    from analysis.solver.common import Outcome

    t = Seen(cap=10)
    for i in range(1000):
        t[(i,)] = Outcome(i, 0, 0, 0)
        assert len(t) <= 10
    assert t.get((999,)) == Outcome(999, 0, 0, 0) and t.get((995,)) is not None
    assert t.get((0,)) is None and t.dropped >= 980


def test_capped_bnb_still_exact(monkeypatch: pytest.MonkeyPatch) -> None:
    """A tiny cap (the table dropped all the time) changes no answer: the table only prunes."""
    from analysis.solver import bnb, solve
    from analysis.solver.selfplay import random_position

    mini_b = os.path.join(os.path.dirname(__file__), "maps", "mini-b.txt")
    for seed in (2, 5):
        s = random_position(seed, mini_b, players=2, turns=4, ap=2)
        full = solve(s, "bnb", time_limit=30)
        monkeypatch.setattr(bnb.Seen.__init__, "__defaults__", (4,))
        capped = solve(s, "bnb", time_limit=30)
        monkeypatch.undo()
        assert full.optimal and capped.optimal
        assert (capped.best, capped.handed, capped.ap_spent) == (full.best, full.handed, full.ap_spent)
        assert any("capped" in n for n in capped.notes), capped.notes


def test_r7_r38_the_search_stops_at_a_line_that_meets_the_root_bound(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """pond-32: its 15 points meet the root's bound (a pond enclosed, R37, R38),
    with the fewest AP the bound allows and no token (R7). Branch and bound stops when it finds
    that line instead of searching on, and answers the same; a line below the bound does not
    stop it (the stop is ``meets_bound``, as the recipe engine's proof)."""
    from analysis.solver import bnb
    from puzzles.loader import load_puzzles

    pz = next(p for p in load_puzzles() if p.id == "pond-32")
    s = pz.state
    assert upper_bound(s, s.turn.ap + s.token_bonus()) == pz.best
    stopped = solve_bnb(s, time_limit=60)
    monkeypatch.setattr(bnb._BnB, "settle", lambda self: None)
    full = solve_bnb(s, time_limit=60)
    assert stopped.optimal and full.optimal
    assert stopped.best == full.best == pz.best and stopped.ap_spent == full.ap_spent
    assert stopped.nodes < full.nodes
    # told a bound one above, the search never meets it and finishes as without the stop
    monkeypatch.undo()
    above = solve_bnb(s, time_limit=60, bound=pz.best + 1)
    assert above.optimal and above.best == pz.best and above.nodes == full.nodes


def test_brute_memo_cap_changes_no_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 21: the brute force's memo is cleared when full; its values are exact, so a
    memo of 20 entries answers the same as a full one (only slower)."""
    from analysis.solver import brute, solve
    from analysis.solver.selfplay import random_position

    s = random_position(2, os.path.join(os.path.dirname(__file__), "maps", "mini-b.txt"),
                        players=2, turns=4, ap=1)
    full = solve(s, "brute", time_limit=60)
    monkeypatch.setattr(brute, "MEMO_CAP", 20)
    capped = solve(s, "brute", time_limit=60)
    assert full.optimal and capped.optimal and full.nodes > 20
    assert (capped.best, capped.handed, capped.ap_spent) == (full.best, full.handed, full.ap_spent)


def _first_alone_by_exhaustion(s: GameState) -> list[tuple[Festival, Outcome]]:
    """Every opening resolved by the engine; per palace the first (fewest cards) no opponent
    can join."""
    out: dict[int, tuple[Festival, Outcome]] = {}
    for op in festival_openings(s):
        o = festival_outcome(s, op)
        if o is not None and op.hex not in out:
            out[op.hex] = (op, o)
    return sorted(out.values(), key=lambda x: (len(x[0].cards or ()), str(x[0])))


def test_r31_r32_the_fewest_cards_that_no_opponent_can_match_open_the_festival() -> None:
    """Face-up DM: his D, DM, DM are worth 1, 2, 2; Yellow, in the city, holds DM and D (worth
    3), so he may join any opening worth 3 or less. DM+DM (4) is the fewest cards he cannot
    match; with DM, DM and D (worth 5) Yellow may join every opening and none is offered."""
    s = city_position(hands=[["D", "DM", "DM"], ["DM", "D"], [], []],
                      developers={"F6": 0, "F9": 1})
    got = _alone_openings(s)
    assert [(str(op), o.points) for op, o in got] == [("festival F4 DM+DM", 4)]
    assert got == _first_alone_by_exhaustion(s)
    s = city_position(hands=[["D", "DM", "DM"], ["DM", "DM", "D"], [], []],
                      developers={"F6": 0, "F9": 1})
    assert _alone_openings(s) == [] == _first_alone_by_exhaustion(s)


@pytest.mark.parametrize("seed", range(30))
def test_r32_r34_one_opening_per_palace_is_the_first_the_engine_finds_alone(seed: int) -> None:
    """Random hands and developers in the city: skipping a palace whose richest opening can be
    joined, and stopping at its first opening that cannot, finds what resolving every opening
    finds (R32: a bid an opponent can join, he can join when it is lower too)."""
    import random

    from core.actions import CARD_KINDS

    rng = random.Random(seed)
    players = 2 + seed % 3
    face_up = rng.choice(CARD_KINDS)
    pool = [k for k in CARD_KINDS for _ in range(5 - (k == face_up))]
    rng.shuffle(pool)
    hands = [[pool.pop() for _ in range(rng.randint(0, 5))] for _ in range(players)]
    hexes = rng.sample([f"F{k}" for k in range(5, 14)], players + 1)
    devs = {h: i for i, h in enumerate(hexes[:players])}
    devs[hexes[players]] = rng.randrange(players)
    s = city_position(players=players, face_up=face_up, hands=hands,
                      developers=devs, palace_value=rng.choice([2, 4, 6, 8, 10]))
    assert _alone_openings(s) == _first_alone_by_exhaustion(s)


def test_r34_r40_a_festival_on_a_dead_board_scores_its_festival_not_the_final_count() -> None:
    """A mini-map board from random self-play (seed 16, 75 turns) where no tile can ever be
    placed again (``core.endgame``): the end of Yellow's turn ends the game and makes his final
    count (5 points here), festival or not. The festival at E3 (palace 6, nobody can join)
    scored 8 — its 3 (R34) and the count — so the solver took the count for the festival's
    doing; a turn ended without one does not count it. Now the festival is worth its 3."""
    from analysis.solver.brute import solve_brute
    from core.actions import parse_action
    from core.endgame import no_tile_can_ever_be_placed
    from core.scoring import final_count

    s = load_position(os.path.join(os.path.dirname(__file__), "positions", "mini-a-dead-board.json"))
    assert s.last_round is None and not s.turn.tile_placed and no_tile_can_ever_be_placed(s)
    assert final_count(s)[s.to_move] == 5
    o = festival_outcome(s, parse_action("festival E3 P"))  # type: ignore[arg-type]
    assert o is not None and o.points == 3
    s.turn.ap, s.turn.token_used = 2, True  # cut to 2 AP, where brute force is quick
    assert solve_bnb(s, 60).best == solve_brute(s, 60).best == solve(s, time_limit=60).best == 3
