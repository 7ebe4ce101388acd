"""The OpenSpiel-style game API (core/game.py) and the player's restricted view (R44)."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from core.actions import CARD_KINDS, End, Festival, parse_action
from core.errors import IllegalAction, KratonError
from core.game import TERMINAL, Game, determinize, observation, play_random_game, random_action
from core.position import position_to_dict
from tests.festival_positions import city_position

DEVS = {"F5": 0, "F6": 1, "F7": 2, "F8": 3}
HANDS = [["D", "DP", "D"], ["M", "M"], ["DM", "MP", "D"], ["DP", "MP"]]


def test_current_player_is_the_mover_then_the_bidder_then_terminal() -> None:
    g = Game(city_position(hands=HANDS, developers=DEVS))
    assert g.current_player() == 0
    g.apply_action("festival F4 D")
    assert g.current_player() == 1  # R32: the bidder to decide
    assert all(a.kind in ("bid", "pass") for a in g.legal_actions())
    for a in ("bid M", "bid DM", "pass", "bid DP", "pass", "bid MP", "bid D", "agree"):
        g.apply_action(a)
    assert g.current_player() == 1 and g.turns == 1 and g.festivals == 1
    assert g.returns() == [2.0, 0.0, 2.0, 0.0]


def test_apply_action_refuses_illegal_actions_without_changing_anything() -> None:
    g = Game.new(3, seed=4)
    before = position_to_dict(g.state)
    with pytest.raises(IllegalAction) as e:
        g.apply_action("end")  # R8: a tile is owed
    assert e.value.rule == "R8" and isinstance(e.value, ValueError)
    with pytest.raises(ValueError):
        g.apply_action("fly G6")
    assert position_to_dict(g.state) == before and g.actions == [] and g.turns == 0


def test_legal_actions_are_exactly_the_accepted_ones() -> None:
    g = Game(city_position(players=2, hands=[["D", "DM"], ["D"]], developers={"F5": 0, "F6": 1},
                           face_up="DM"))
    acts = g.legal_actions()
    assert acts == list(g.state.legal_actions()) and len(set(acts)) == len(acts)
    fests = [a for a in acts if isinstance(a, Festival)]
    assert {str(a) for a in fests} == {"festival F4 D", "festival F4 DM", "festival F4 D+DM"}
    for a in acts[:: max(1, len(acts) // 25)]:
        assert g.state.is_legal(a)


def test_a_random_game_runs_to_terminal_with_consistent_returns() -> None:
    g = play_random_game(2, seed=21, policy="festive")
    assert g.is_terminal() and g.current_player() == TERMINAL and g.legal_actions() == []
    assert g.returns() == [float(p.score) for p in g.state.players]
    best = max(g.returns())
    assert g.winners() == [i for i, r in enumerate(g.returns()) if r == best]  # R43
    assert g.turns == sum(1 for a in g.actions if isinstance(a, End)) + g.festivals
    again = play_random_game(2, seed=21, policy="festive")
    assert [str(a) for a in again.actions] == [str(a) for a in g.actions]  # seeded


def test_clone_is_independent() -> None:
    g = Game.new(2, seed=2)
    c = g.clone()
    c.apply_action(c.legal_actions()[0])
    assert g.actions == [] and len(c.actions) == 1
    assert position_to_dict(g.state) != position_to_dict(c.state)


def test_random_action_policies() -> None:
    s = Game.new(2, seed=2).state
    rng = random.Random(1)
    for policy in ("uniform", "kinds", "festive"):
        assert s.is_legal(random_action(s, rng, policy))
    with pytest.raises(KratonError, match="unknown policy"):
        random_action(s, rng, "clever")


# ------------------------------------------------------------------ R44 the player's view
def test_r44_observation_hides_opponents_hands_and_the_deck() -> None:
    s = city_position(hands=HANDS, developers=DEVS)
    s.push(parse_action("festival F4 D"))
    s.push(parse_action("bid M"))
    v = observation(s, 2)
    assert v["viewer"] == 2 and v["players"][2]["hand"] == ["DM", "MP", "D"]
    for i in (0, 1, 3):
        assert v["players"][i]["hand"] is None
        assert v["players"][i]["hand_size"] == len(s.players[i].hand)
    assert v["cards"]["deck"] is None and v["cards"]["deck_size"] == len(s.deck)
    assert "seed" not in v and "reshuffles" not in v  # the seed would reveal future shuffles
    assert v["festival"]["bids"][1] == ["M"]  # cards played are open on the table
    assert v["cards"]["face_up"] == s.face_up
    text = json.dumps(v)
    assert json.dumps(s.deck) not in text
    with pytest.raises(KratonError):
        observation(s, 4)


def test_r44_determinize_is_consistent_with_the_view() -> None:
    s = Game.new(4, seed=8).state
    v = observation(s, 1)
    d = determinize(v, random.Random(3))
    assert d.players[1].hand == s.players[1].hand and d.face_up == s.face_up
    assert [len(p.hand) for p in d.players] == [len(p.hand) for p in s.players]
    assert len(d.deck) == len(s.deck) and d.to_move == s.to_move
    unseen = Counter(s.deck) + Counter(c for i, p in enumerate(s.players) if i != 1 for c in p.hand)
    got = Counter(d.deck) + Counter(c for i, p in enumerate(d.players) if i != 1 for c in p.hand)
    assert got == unseen
    total = Counter(d.deck) + Counter(c for p in d.players for c in p.hand) + Counter([d.face_up])
    assert total == Counter({k: 5 for k in CARD_KINDS})
    assert observation(d, 1) == v  # the same public information
