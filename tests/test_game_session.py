"""The one game session (``core.game.Game``): history, turns, undo/redo, positions in the past,
records with annotations (issue 22)."""

from __future__ import annotations

import itertools
import json
import os
import random
from pathlib import Path

import pytest

from core.actions import End, Festival
from core.errors import KratonError
from core.game import Game, play_random_game, random_action
from core.position import position_to_dict
from core.record import RecordError, load_record, record_from_dict, replay_file, save_record
from puzzles.loader import GAMES

HERE = os.path.dirname(os.path.abspath(__file__))


@pytest.mark.parametrize("seed", [3, 11])
def test_turn_spans_cover_every_action_and_add_up_to_the_scores(seed: int) -> None:
    g = play_random_game(3, seed=seed, policy="kinds")
    spans = g.turn_spans()
    assert [t.index for t in spans] == list(range(len(spans)))
    assert spans[0].first == 0 and spans[-1].end == len(g.actions)
    assert all(a.end == b.first for a, b in itertools.pairwise(spans))
    assert sum(t.complete for t in spans) == g.turns
    # R9/R30: a turn ends with ``end`` or a resolved festival, never elsewhere
    for t in spans[:-1]:
        last = g.actions[t.end - 1]
        assert isinstance(last, End) or any(isinstance(a, Festival) for a in g.actions[t.first:t.end])
    assert any(isinstance(a, Festival) for a in g.actions)  # the seeds do hold festivals
    history = g.score_history()
    assert history[0] == g.scores_at(0)
    assert g.scores_at(len(g.actions)) == tuple(p.score for p in g.state.players)
    for t in spans:
        assert all(g.steps[i].mover == t.player for i in range(t.first, t.end))


def test_state_at_replays_the_past_without_touching_the_live_state() -> None:
    g = play_random_game(2, seed=5, policy="kinds")
    live = position_to_dict(g.state)
    rec = g.record()
    for n in (0, 1, 63, 64, 65, 200, len(g.actions) - 1, len(g.actions)):
        if n > len(g.actions):
            continue
        want = position_to_dict(rec.replay(n).state)
        assert position_to_dict(g.state_at(n)) == want
    assert position_to_dict(g.state) == live
    with pytest.raises(KratonError):
        g.state_at(len(g.actions) + 1)


def test_undo_and_redo_walk_the_history_and_keep_the_books() -> None:
    g = Game.new(3, seed=7)
    rng = random.Random(1)
    for _ in range(40):
        g.apply_action(random_action(g.state, rng, "kinds"))
    after = (position_to_dict(g.state), g.turns, g.festivals, list(g.steps))
    taken = [g.undo() for _ in range(25)]
    assert len(g.actions) == 15 and g.can_redo
    assert position_to_dict(g.state) == position_to_dict(g.state_at(15))
    assert g.turns == sum(1 for t in g.turn_spans() if t.complete)
    for a in reversed(taken):
        assert g.redo() == a
    assert (position_to_dict(g.state), g.turns, g.festivals, list(g.steps)) == after
    assert not g.can_redo


def test_a_new_action_drops_the_redo_line_unless_it_is_the_same_action() -> None:
    g = Game.new(2, seed=2)
    rng = random.Random(4)
    for _ in range(6):
        g.apply_action(random_action(g.state, rng, "kinds"))
    a = g.undo()
    b = g.undo()
    g.apply_action(b)  # the same action: the line is kept
    assert g.can_redo and g.redo() == a
    g.undo()
    other = next(x for x in g.legal_actions() if x != a)
    g.apply_action(other)
    assert not g.can_redo


def test_undo_at_the_start_is_refused_in_one_line() -> None:
    with pytest.raises(KratonError, match="nothing to undo"):
        Game.new(2).undo()
    with pytest.raises(KratonError, match="nothing to redo"):
        Game.new(2).redo()


def test_records_written_before_the_session_still_replay() -> None:
    g = replay_file(os.path.join(GAMES, "planner-38.json"))
    assert g.is_terminal() and g.seats == ["planner"] * 4
    spans = g.turn_spans()
    assert any(t.first == 137 for t in spans)  # the turn starts at action 137


def _annotated(tmp_path: str) -> str:
    g = play_random_game(2, seed=9, policy="kinds")
    g.comments[3] = "why not the lowland? (R12) — ünïcödé"
    g.evaluations[2] = {"player": 1, "first": 4, "end": 9, "played": 0, "best": 3, "bound": 3,
                        "proved": True, "line": "tile G6v G5r H5r", "engine": "cpsat",
                        "seconds": 0.25, "mark": "?!"}
    path = os.path.join(tmp_path, "annotated.json")
    save_record(g.record(), path, g)
    return path


def test_an_annotated_record_round_trips_byte_for_byte(tmp_path: str) -> None:
    path = _annotated(str(tmp_path))
    raw = Path(path).read_bytes()
    rec, _ = load_record(path)
    again = os.path.join(str(tmp_path), "again.json")
    save_record(rec, again)
    assert Path(again).read_bytes() == raw
    g = replay_file(path)  # the annotations do not disturb the replay or its result check
    assert g.comments[3].startswith("why not") and g.evaluations[2]["mark"] == "?!"
    third = os.path.join(str(tmp_path), "third.json")
    save_record(g.record(), third, g)
    assert Path(third).read_bytes() == raw


@pytest.mark.parametrize("bad, what", [
    ({"comments": {"0": "x"}}, "annotations.comments"),
    ({"comments": {"1": 5}}, "annotations.comments.1"),
    ({"comments": {"x1": "x"}}, "annotations.comments"),
    ({"evaluations": {"1": {"best": "ten"}}}, "annotations.evaluations.1.best"),
    ({"evaluations": {"1": {"proved": 1}}}, "annotations.evaluations.1.proved"),
    ({"evaluations": {"1": {"secret": 1}}}, "unknown key"),
    ({"other": {}}, "annotations"),
    ([], "annotations"),
])
def test_malformed_annotations_are_refused_naming_the_field(tmp_path: str, bad: object, what: str) -> None:
    d = json.loads(Path(_annotated(str(tmp_path))).read_text())
    d["annotations"] = bad
    with pytest.raises(RecordError, match=what.replace(".", r"\.")):
        record_from_dict(d)


def test_a_stall_adjudication_is_kept_by_the_record_and_replays(tmp_path: str) -> None:
    g = Game.new(3, seed=4)
    rng = random.Random(2)
    while g.turns < 6:
        g.apply_action(random_action(g.state, rng, "kinds"))
    g.adjudicate()
    mover = g.adjudication[1] if g.adjudication else -1
    assert g.state.players[mover].final_counted
    while not g.is_terminal():
        g.apply_action(random_action(g.state, rng, "kinds"))
    path = os.path.join(str(tmp_path), "stalled.json")
    save_record(g.record(), path, g)
    again = replay_file(path)
    assert [p.score for p in again.state.players] == [p.score for p in g.state.players]
    assert again.adjudication == g.adjudication
    with pytest.raises(KratonError, match="adjudication"):
        while True:
            g.undo()


def test_the_players_tag_is_written_back_as_it_was_read() -> None:
    g = replay_file(os.path.join(GAMES, "planner-38.json"))
    assert g.record().tags["players"] == "planner x4"
    g.seats[0] = None  # a seat changes hands: the tag follows
    assert g.record().tags["players"] == "human,planner,planner,planner"


def test_r9_turn_spans_follow_undo_and_a_different_action_of_the_same_length() -> None:
    """The spans are cached per change of the history: an undo then another action (the same
    number of actions) must not bring back the old turns (R9: ``end`` closes a turn)."""
    g = Game.new(2, seed=2)
    rng = random.Random(4)
    while g.turns < 1:
        g.apply_action(random_action(g.state, rng, "kinds"))
    assert g.turn_spans()[0].complete  # the last action was ``end``
    n = len(g.actions)
    g.undo()
    assert not g.turn_spans()[0].complete
    while not [a for a in g.legal_actions() if not isinstance(a, End)]:
        g.undo()  # back to a moment with something else to do than ``end``
    g.apply_action(next(a for a in g.legal_actions() if not isinstance(a, End)))
    while len(g.actions) < n:  # as many actions as before the undo, none of them ``end``
        g.apply_action(next(a for a in g.legal_actions() if not isinstance(a, End)))
    spans = g.turn_spans()
    assert len(spans) == 1 and not spans[0].complete and spans[0].end == len(g.actions) == n
