"""R44 in the review of a game in progress (issue 22): a turn is judged as a player saw it."""

from __future__ import annotations

import random
from collections import Counter

from analysis.review import review_tasks, task_state
from core.game import Game, random_action


def _game_in_progress() -> Game:
    g = Game.new(3, seed=12)
    rng = random.Random(3)
    while g.turns < 5:
        g.apply_action(random_action(g.state, rng, "kinds"))
    return g


def _cards(s) -> Counter[str]:  # type: ignore[no-untyped-def]
    return Counter(c for p in s.players for c in p.hand) + Counter(s.deck)


def test_r44_a_turn_of_a_game_in_progress_is_judged_on_what_its_player_saw() -> None:
    g = _game_in_progress()
    tasks = review_tasks(g, time_limit=0.1)
    assert tasks and all(t.seen == "player" for t in tasks)
    hidden_differs = False
    for t in tasks:
        real, seen = g.state_at(t.first), task_state(t)
        me = t.player
        assert seen.players[me].hand == real.players[me].hand  # his own hand stays
        assert seen.face_up == real.face_up and seen.discard == real.discard
        assert _cards(seen) == _cards(real)  # the same cards, dealt again
        others = [i for i in range(real.n_players) if i != me]
        hidden_differs |= any(seen.players[i].hand != real.players[i].hand for i in others) \
            or seen.deck != real.deck
    assert hidden_differs  # the hidden cards are dealt at random, not the real ones


def test_r44_in_hot_seat_another_players_turn_is_judged_as_the_viewer_sees_it() -> None:
    g = _game_in_progress()
    viewer = g.current_player()
    for t in review_tasks(g, time_limit=0.1, viewer=viewer):
        seen = task_state(t)
        assert seen.players[viewer].hand == g.state_at(t.first).players[viewer].hand
        if t.player != viewer:
            assert t.seen_by == viewer


def test_r44_a_finished_game_is_judged_with_full_information() -> None:
    from core.game import play_random_game

    g = play_random_game(2, seed=4, policy="kinds")
    tasks = review_tasks(g, time_limit=0.1)
    assert tasks and all(t.seen == "all" for t in tasks)
    t = tasks[3]
    assert task_state(t).players[1 - t.player].hand == g.state_at(t.first).players[1 - t.player].hand
