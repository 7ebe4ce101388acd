"""Festival cards (R2, R3, R36): the deck, the deal, drawing, the reshuffle, seeded randomness."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.actions import CARD_KINDS, Draw, parse_action
from core.errors import IllegalAction
from core.position import position_to_dict
from core.state import GameState


def all_cards(s: GameState) -> Counter[str]:
    c = Counter(s.deck) + Counter(s.discard) + Counter(x for p in s.players for x in p.hand)
    if s.face_up:
        c[s.face_up] += 1
    if s.festival is not None:
        c += Counter(s.festival.cards_in_play())
    return c


@pytest.mark.parametrize("n", [2, 3, 4])
def test_r2_r3_new_game_deals_three_hidden_cards_each_and_one_face_up(n: int) -> None:
    s = GameState.new(n, seed=11)
    assert all_cards(s) == Counter({k: 5 for k in CARD_KINDS})  # R2: five of each kind
    assert all(len(p.hand) == 3 for p in s.players)
    assert s.face_up in CARD_KINDS
    assert len(s.deck) == 30 - 1 - 3 * n
    assert all(p.score == 0 for p in s.players)


def test_r3_the_deal_and_first_player_come_from_the_seed() -> None:
    a, b = GameState.new(4, seed=5), GameState.new(4, seed=5)
    assert position_to_dict(a) == position_to_dict(b)
    deals = {(tuple(GameState.new(4, seed=k).deck), GameState.new(4, seed=k).face_up) for k in range(12)}
    assert len(deals) > 1
    starters = {GameState.new(4, seed=k).to_move for k in range(40)}
    assert starters == {0, 1, 2, 3}  # a random player starts


def mover_state(seed: int = 3) -> GameState:
    s = GameState.new(3, seed=seed)
    s.turn.tile_placed = True  # keep the tile obligation (R8) out of these tests
    return s


def test_r36_draw_faceup_takes_it_and_the_deck_top_replaces_it() -> None:
    s = mover_state()
    me = s.players[s.to_move]
    up, top = s.face_up, s.deck[0]
    s.push(Draw(True))
    assert me.hand[-1] == up and s.face_up == top and len(s.deck) == 30 - 1 - 9 - 1
    assert s.turn.ap == 5 and s.turn.cards_drawn == 1


def test_r36_draw_deck_leaves_the_face_up_card() -> None:
    s = mover_state()
    up, top = s.face_up, s.deck[0]
    s.push(Draw(False))
    assert s.players[s.to_move].hand[-1] == top and s.face_up == up


def test_r36_at_most_two_draws_per_turn() -> None:
    s = mover_state()
    s.push(Draw(False))
    s.push(Draw(True))
    assert not any(isinstance(a, Draw) for a in s.legal_actions())
    with pytest.raises(IllegalAction) as e:
        s.push(Draw(False))
    assert e.value.rule == "R36"
    s.push(parse_action("end"))
    assert s.turn.cards_drawn == 0 and any(isinstance(a, Draw) for a in s.legal_actions())


def test_r36_empty_deck_reshuffles_the_discard_pile_by_the_seed() -> None:
    s = mover_state(seed=9)
    me = s.players[s.to_move]
    s.discard = list(s.deck)
    s.deck = []
    before = position_to_dict(s)
    s.push(Draw(False))
    assert s.reshuffles == 1 and s.discard == [] and len(s.deck) == len(before["cards"]["discard"]) - 1
    drawn = me.hand[-1]
    assert Counter(s.deck) + Counter([drawn]) == Counter(before["cards"]["discard"])
    order = [drawn, *s.deck]
    # The same position and seed give the same new deck; pop restores the old one exactly.
    s.pop()
    assert position_to_dict(s) == before
    s.push(Draw(False))
    assert [me.hand[-1], *s.deck] == order
    other = mover_state(seed=10)
    other.discard, other.deck = list(before["cards"]["discard"]), []
    other.push(Draw(False))
    assert [other.players[other.to_move].hand[-1], *other.deck] != order  # another seed


def test_r36_taking_the_face_up_card_of_an_empty_deck_reshuffles() -> None:
    s = mover_state()
    s.discard, s.deck = list(s.deck), []
    up = s.face_up
    s.push(Draw(True))
    assert s.players[s.to_move].hand[-1] == up and s.face_up is not None and s.reshuffles == 1


def test_r36_no_cards_left_to_draw() -> None:
    s = mover_state()
    s.players[s.to_move].hand += s.deck
    s.deck = []
    s.push(Draw(True))  # the last face-up card: nothing replaces it
    assert s.face_up is None
    assert not any(isinstance(a, Draw) for a in s.legal_actions())
    for faceup in (True, False):
        with pytest.raises(IllegalAction) as e:
            s.push(Draw(faceup))
        assert e.value.rule == "R36"
    assert all_cards(s) == Counter({k: 5 for k in CARD_KINDS})


def test_r36_a_draw_costs_one_ap() -> None:
    s = mover_state()
    s.turn.ap = 0
    s.players[s.to_move].tokens = 0
    with pytest.raises(IllegalAction) as e:
        s.push(Draw(False))
    assert e.value.rule == "R7"


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), draws=st.lists(st.booleans(), min_size=1, max_size=40))
def test_r2_r36_drawing_conserves_the_thirty_cards(seed: int, draws: list[bool]) -> None:
    """Whatever is drawn, over turns and reshuffles, the 30 cards stay 5 of each kind (R2)."""
    s = mover_state(seed)
    for i, faceup in enumerate(draws):
        if i % 3 == 2:  # move some cards to the discard pile, as festivals do (R33)
            hand = s.players[s.to_move].hand
            s.discard += hand[:2]
            del hand[:2]
        a = Draw(faceup)
        if s.is_legal(a):
            s.push(a)
        else:
            s.push(parse_action("end"))
            s.turn.tile_placed = True
        assert all_cards(s) == Counter({k: 5 for k in CARD_KINDS})
