"""The bound asked only whether it falls below a value (``upper_bound(..., below=)``, issue 21):
branch and bound's cuts on a busy board work out the palace entries quick first
(``bound_palaces.entry_options``) and make them exact one by one. That is sound only if the
quick options cover the exact ones (R28: the palace options of every group), so that the answer
falls below the value exactly when the exact bound does; and where it does not, the answer is
the exact bound, which the children of the node inherit. These tests hold it to that on the
puzzles, busy turns and random mini-map positions, and check that branch and bound searches the
same tree either way, and agrees with the brute force."""

from __future__ import annotations

import os
import random

import pytest

from analysis.solver import bnb
from analysis.solver.bound import upper_bound
from analysis.solver.bound_palaces import palace_entries
from analysis.solver.bound_view import View
from core.errors import IllegalAction
from core.state import GameState
from tests.test_solver_agreement import settled
from tests.test_solver_bound import position

PUZZLES = ["full-turn-78", "full-turn-63", "pond-31", "token-11", "festival-17",
           "enlarge-after-growth-14", "pond-17", "full-turn-01"]


def _puzzle(name: str) -> GameState:
    from puzzles.loader import load_puzzle

    return load_puzzle(os.path.join(os.path.dirname(__file__), "..", "puzzles", f"{name}.json")).state


def _with_children(states: list[GameState], per: int, seed: int) -> list[GameState]:
    """``states`` and ``per`` random children of each (one legal action pushed)."""
    rng = random.Random(seed)
    out = list(states)
    for s in states:
        acts = list(s.legal_actions())
        for a in rng.sample(acts, min(per, len(acts))):
            try:
                s.push(a)
            except IllegalAction:
                continue
            out.append(s.copy())
            s.pop()
    return out


def _states() -> list[GameState]:
    return _with_children([_puzzle(n) for n in PUZZLES] + [position(seed, 3) for seed in range(8)],
                          2, 5)


def _covered(exact: list[tuple[int, ...]], quick: list[tuple[int, ...]]) -> bool:
    """Every exact option is met by a quick one costing no more in any count and scoring no
    less (``_event_bound`` only ever asks an option to fit and adds its points)."""
    return all(any(all(q <= e for q, e in zip(oq[:-1], oe[:-1])) and oq[-1] >= oe[-1] for oq in quick)
               for oe in exact)


def test_r28_quick_palace_options_cover_the_exact_ones() -> None:
    """Entry by entry, on puzzles (Java-Centre ones among them), random mini-map positions
    and children of both, at 1, 2 and the full AP."""
    seen = 0
    for s in _states():
        for ap in sorted({1, 2, s.turn.ap + s.token_bonus()}):
            exact = palace_entries(View(s, ap))
            quick = palace_entries(View(s, ap), quick=True)
            assert exact.keys == quick.keys and exact.new == quick.new
            for key in exact.keys:
                assert _covered(exact.opts[key], quick.opts[key]), (key, exact.opts[key], quick.opts[key])
                seen += bool(exact.opts[key])
    assert seen > 200  # the test looked at something


def test_a_bound_asked_below_a_value_answers_as_the_exact_one() -> None:
    """Below the value exactly when the exact bound is; the exact bound where it is not; and a
    later call on the same views without ``below`` gives the exact bound again."""
    for s in _states():
        top = s.turn.ap + s.token_bonus()
        for ap in sorted({1, top}):
            exact = upper_bound(s, ap)
            for below in (exact - 1, exact, exact + 1):
                views: dict[int, View] = {}
                got = upper_bound(s, ap, views=views, below=below)
                assert (got < below) == (exact < below), (ap, below, got, exact)
                if got >= below:
                    assert got == exact
                assert upper_bound(s, ap, views=views) == exact


def _bnb(s: GameState, lazy: bool, monkeypatch: pytest.MonkeyPatch) -> tuple[int, int, int, str]:
    """Branch and bound with ``below`` on every bound (also on the mini maps) or never."""
    monkeypatch.setattr(bnb, "LAZY_HEXES", 0 if lazy else 10**6)
    monkeypatch.setattr(bnb, "LAZY_SHARE", 0.0)
    r = bnb.solve_bnb(s)
    assert r.optimal
    return r.best, r.ap_spent, r.nodes, r.line_text


@pytest.mark.parametrize("seed", [100, 101, 104, 105])
def test_branch_and_bound_searches_the_same_tree_with_quick_entries(
        seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same best line, AP and count of nodes: not one cut more or fewer."""
    s = position(seed, 3)
    got = _bnb(s, True, monkeypatch)
    assert got == _bnb(s, False, monkeypatch)
    assert got[2] > 20  # a search, not a proof at the root


@pytest.mark.slow
@pytest.mark.parametrize("block", range(4))
def test_branch_and_bound_with_quick_entries_agrees_with_brute_force(
        block: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """R7–R38 as the engine applies them: 30 positions a block with 1–3 AP, those the brute
    force settles within its budget; at least 15 of them count."""
    counted = 0
    for seed, s, ref in settled(range(200 + 30 * block, 230 + 30 * block),
                                lambda seed: position(seed, 1 + seed % 3)):
        best, ap, _, line = _bnb(s, True, monkeypatch)
        assert (best, ap) == (ref.best, ref.ap_spent), (seed, line, ref.line_text)
        counted += 1
    assert counted >= 15
