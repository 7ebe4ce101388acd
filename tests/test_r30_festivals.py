"""Festivals (R30–R35): opening, bidding, ties and agreements, lost cards, points, the flag."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.actions import CARD_KINDS, Agree, Bid, Festival, Pass, parse_action
from core.errors import IllegalAction
from core.festival import AGREEMENT, ALONE, FestivalState, card_worth
from core.position import load_position, position_from_dict, position_to_dict, save_position
from core.state import GameState
from tests.festival_positions import H, city_position, play

DEVS4 = {"F5": 0, "F6": 1, "F7": 2, "F8": 3}
EXAMPLE_HANDS = [["D", "DP", "D"], ["M", "M"], ["DM", "MP", "D"], ["DP", "MP"]]
EXAMPLE = "festival F4 D; bid M; bid DM; pass; bid DP; pass; bid MP; bid D; agree"


def example_position(hands: list[list[str]] | None = None) -> GameState:
    """The rule book's example: a palace of 8, face-up DM (so DM is worth 2, R31)."""
    return city_position(hands=hands or EXAMPLE_HANDS, developers=DEVS4, palace_value=8, face_up="DM")


def refused(s: GameState, text: str, rule: str) -> IllegalAction:
    with pytest.raises(IllegalAction) as e:
        s.push(parse_action(text))
    assert e.value.rule == rule, str(e.value)
    return e.value


# ------------------------------------------------------------------ the rule book's example
def test_r32_rule_book_example_agreement_scores_two_each() -> None:
    """R32/R34: A 1, B 1, C 2, D passes; A raises to 2, B drops; C raises to 3, A matches 3;
    A and C agree and score 2 each (palace of 8)."""
    s = example_position()
    deciders = []
    for a in EXAMPLE.split("; "):
        deciders.append(s.current_player())
        s.push(parse_action(a))
    assert deciders == [0, 1, 2, 3, 0, 1, 2, 0, 2]
    assert [p.score for p in s.players] == [2, 0, 2, 0]
    assert s.festival is None
    # R33: everybody who played cards lost them, B too (who dropped out).
    assert Counter(s.discard) == Counter(["D", "DP", "D", "M", "DM", "MP"])
    assert s.players[1].hand == ["M"] and s.players[2].hand == ["D"] and s.players[3].hand == ["DP", "MP"]
    assert s.fest[H("F4")]  # R35
    assert s.to_move == 1 and s.turn.ap == 6  # R30: the festival ended A's turn


def test_r32_rule_book_variant_a_cannot_match_c_scores_four_alone() -> None:
    """R32/R34: if A cannot match C's 3, A drops out (skipped: no card left) and C, the last one
    left, scores the alone points of a palace of 8: 4."""
    s = example_position([["D", "DP"], ["M", "M"], ["DM", "MP", "D"], ["DP", "MP"]])
    play(s, "festival F4 D; bid M; bid DM; pass; bid DP; pass; bid MP")
    assert s.festival is None
    assert [p.score for p in s.players] == [0, 0, 4, 0]
    assert Counter(s.discard) == Counter(["D", "DP", "M", "DM", "MP"])


def test_r32_variant_a_chooses_to_drop_out() -> None:
    """R32: a player below the highest may drop out (pass) although he could match."""
    s = example_position()
    play(s, "festival F4 D; bid M; bid DM; pass; bid DP; pass; bid MP; pass")
    assert [p.score for p in s.players] == [0, 0, 4, 0]
    assert s.players[0].hand == ["D"]  # the card he kept


# ------------------------------------------------------------------ ties and agreements
def test_r32_tie_where_nobody_can_raise_is_automatic_agreement() -> None:
    """R32: A opens DM (2), B joins DM (2); neither holds another matching card, so the tie is
    an automatic agreement: both score the agreement points (palace of 6: 2 each)."""
    s = city_position(players=2, hands=[["DM", "P"], ["DM"]], developers={"F5": 0, "F6": 1},
                      palace_value=6, face_up="DM")
    play(s, "festival F4 DM")
    assert s.current_player() == 1 and s.festival.phase == "join"
    play(s, "bid DM")
    assert s.festival is None
    assert [p.score for p in s.players] == [2, 2]


def test_r32_tie_maker_asks_the_others_and_agreement_ends_it() -> None:
    """R32: A 1, B 2, A raises to 2: A made the tie and asks B, who could raise but agrees;
    both score the agreement points of a palace of 10 (3 each)."""
    s = city_position(players=2, hands=[["D", "M"], ["DM", "P", "D"]], developers={"F5": 0, "F6": 1},
                      palace_value=10, face_up="DM")
    play(s, "festival F4 D; bid DM; bid M")
    assert s.festival.phase == "agree" and s.festival.tie_maker == 0 and s.current_player() == 1
    assert {str(a) for a in s.legal_actions()} == {"agree", "bid D"}
    play(s, "agree")
    assert s.festival is None and [p.score for p in s.players] == [3, 3]
    assert s.players[1].hand == ["P", "D"]


def test_r32_tie_after_the_first_round_asks_the_opener() -> None:
    """R32: A 1, B 1: B made the tie, so A is asked (agree, or raise above 1)."""
    s = city_position(players=2, hands=[["D", "M"], ["D"]], developers={"F5": 0, "F6": 1},
                      palace_value=8, face_up="DM")
    play(s, "festival F4 D; bid D")
    assert s.festival.phase == "agree" and s.festival.tie_maker == 1 and s.current_player() == 0
    assert {str(a) for a in s.legal_actions()} == {"agree", "bid M"}


def test_r32_tie_left_by_a_drop_out_is_asked_by_the_last_to_reach_it() -> None:
    """R32: A 1, B 1, C 2, D 2; A raises to 2, B drops out. The tie A = C = D was made by A (the
    last to reach 2), so A asks C, then D; when both agree, the three share (2 each at 8)."""
    s = city_position(hands=[["D", "DM", "DP"], ["DP", "D"], ["DM", "DP", "D"], ["DP", "D", "DM"]],
                      developers=DEVS4, palace_value=8, face_up="D")
    deciders = []
    for a in ["festival F4 D", "bid DP", "bid DM+DP", "bid D+DP", "bid DM", "pass", "agree", "agree"]:
        deciders.append(s.current_player())
        s.push(parse_action(a))
    assert deciders == [0, 1, 2, 3, 0, 1, 2, 3]
    assert s.festival is None and [p.score for p in s.players] == [2, 0, 2, 2]


def test_r32_refusal_to_agree_forces_a_raise() -> None:
    """R32: on a tie, the asked player agrees or raises at once; he may not pass, and a bid that
    does not go above the tie is no refusal."""
    s = city_position(players=2, hands=[["D", "D", "M"], ["D"]], developers={"F5": 0, "F6": 1},
                      palace_value=8, face_up="D")
    play(s, "festival F4 D; bid D")  # tie at 1 made by B: A is asked
    assert s.current_player() == 0 and s.festival.phase == "agree"
    refused(s, "pass", "R32")
    refused(s, "bid M", "R31")  # M is worth 0 against D
    play(s, "bid D")  # refuses: 2 > 1
    assert s.festival is None  # B cannot match 2: A is alone
    assert [p.score for p in s.players] == [4, 0]


def test_r32_agree_outside_a_tie_and_bids_below_the_highest_are_refused() -> None:
    s = example_position()
    play(s, "festival F4 D; bid M; bid DM; pass")
    assert s.current_player() == 0 and s.festival.phase == "raise"
    refused(s, "agree", "R32")
    refused(s, "bid M", "R32")  # A does not hold M
    s2 = example_position([["D", "DP", "D", "P"], ["M", "M"], ["DM", "MP", "D"], ["DP", "MP"]])
    play(s2, "festival F4 D; bid M; bid DM; pass")
    refused(s2, "bid P", "R31")


def test_r32_join_needs_at_least_the_highest_bid() -> None:
    s = example_position()
    play(s, "festival F4 D+DP")  # A opens with 2
    assert s.current_player() == 1
    # B (M, M) can reach 2 only with both cards.
    assert {str(a) for a in s.legal_actions()} == {"pass", "bid M+M"}
    refused(s, "bid M", "R32")


def test_r32_players_who_cannot_take_part_are_skipped() -> None:
    """R30/R32: no developer in the city, or no matching card: never asked."""
    s = city_position(hands=[["D"], ["D"], ["P"], ["D"]], developers={"F5": 0, "F6": 1, "F7": 2},
                      face_up="D", palace_value=4)
    play(s, "festival F4 D")
    assert s.current_player() == 1  # C holds no matching card, D has no developer there
    play(s, "pass")
    assert s.festival is None and [p.score for p in s.players] == [2, 0, 0, 0]


def test_r32_nobody_joins_the_opener_scores_alone() -> None:
    s = city_position(hands=[["MP"], [], [], []], developers={"F5": 0, "F6": 1}, face_up="P",
                      palace_value=10)
    play(s, "festival F4")
    assert [p.score for p in s.players] == [5, 0, 0, 0]
    assert s.discard == ["MP"]


# ------------------------------------------------------------------ opening (R30, notation)
def test_r30_default_opening_is_the_single_matching_card_of_least_worth() -> None:
    """notation.md: ``festival HEX`` opens with the single matching card of least worth."""
    s = city_position(players=2, hands=[["DM", "D", "P"], ["DM"]], developers={"F5": 0, "F6": 1},
                      face_up="DM")
    play(s, "festival F4")
    assert s.festival.bids[0] == ("D",)
    assert sorted(s.players[0].hand) == ["DM", "P"]


@pytest.mark.parametrize(
    ("kw", "text", "rule"),
    [
        ({}, "festival F5", "R30"),  # no palace on F5
        ({"developers": {"F6": 1}}, "festival F4", "R30"),  # no developer of the mover there
        ({"hands": [["P"], []]}, "festival F4", "R30"),  # no matching card
        ({"festival_held": True}, "festival F4", "R35"),  # already held since it changed
        ({"tile_placed": False}, "festival F4", "R8"),  # a tile is still owed
        ({}, "festival F4 DM", "R32"),  # a card the mover does not hold
        ({"hands": [["D", "P"], []]}, "festival F4 D+P", "R31"),  # P is worth 0
        ({}, "bid D", "R32"),  # no festival is being held
        ({}, "agree", "R32"),
    ],
)
def test_r30_refusals_name_the_rule(kw: dict, text: str, rule: str) -> None:
    args = {"players": 2, "hands": [["D"], []], "developers": {"F5": 0}, "face_up": "D"}
    args.update(kw)
    s = city_position(**args)
    before = position_to_dict(s)
    refused(s, text, rule)
    assert position_to_dict(s) == before  # a refusal changes nothing


def test_r30_only_one_festival_and_nothing_else_while_bidding() -> None:
    s = example_position()
    play(s, "festival F4 D")
    refused(s, "festival F4 D", "R30")
    refused(s, "end", "R32")
    refused(s, "draw deck", "R32")


def test_r30_openings_are_generated_only_when_allowed() -> None:
    s = city_position(players=2, hands=[["D", "DM"], []], developers={"F5": 0}, face_up="DM")
    got = {str(a) for a in s.legal_actions() if isinstance(a, Festival)}
    assert got == {"festival F4 D", "festival F4 DM", "festival F4 D+DM"}
    s_owed = city_position(players=2, hands=[["D"], []], developers={"F5": 0}, tile_placed=False)
    assert not any(isinstance(a, Festival) for a in s_owed.legal_actions())  # R8


# ------------------------------------------------------------------ R33–R35, card worth
@pytest.mark.parametrize("value", [2, 4, 6, 8, 10])
def test_r34_points_table(value: int) -> None:
    alone = city_position(players=2, hands=[["D"], []], developers={"F5": 0, "F6": 1},
                          palace_value=value, face_up="D")
    play(alone, "festival F4 D")
    assert alone.players[0].score == ALONE[value] == value // 2
    agreed = city_position(players=2, hands=[["D"], ["D"]], developers={"F5": 0, "F6": 1},
                           palace_value=value, face_up="D")
    play(agreed, "festival F4 D; bid D")  # automatic agreement
    assert [p.score for p in agreed.players] == [AGREEMENT[value]] * 2
    assert AGREEMENT == {2: 0, 4: 1, 6: 2, 8: 2, 10: 3}


def test_r35_flag_blocks_a_second_festival_until_the_palace_changes() -> None:
    s = city_position(players=2, hands=[["D"], ["D"]], developers={"F5": 0, "F6": 1, "F7": 1},
                      palace_value=4, face_up="D")
    play(s, "festival F4 D; pass")  # B holds D and is asked; he passes: A alone
    assert s.fest[H("F4")] and s.to_move == 1
    refused(s, "festival F4 D", "R35")
    play(s, "tile B6r; palace F4 6")  # B holds the highest position (R25): enlarging clears it
    assert not s.fest[H("F4")]
    play(s, "festival F4 D")
    assert s.players[1].score == 3 + 3  # half of 6 (R29) and alone at 6 (R34)


@pytest.mark.parametrize(
    ("face_up", "worths"),
    [
        ("D", {"D": 1, "M": 0, "P": 0, "DM": 1, "DP": 1, "MP": 0}),
        ("MP", {"D": 0, "M": 1, "P": 1, "DM": 1, "DP": 1, "MP": 2}),
        ("DM", {"D": 1, "M": 1, "P": 0, "DM": 2, "DP": 1, "MP": 1}),
    ],
)
def test_r31_card_worth(face_up: str, worths: dict[str, int]) -> None:
    assert {k: card_worth(k, face_up) for k in CARD_KINDS} == worths


def test_r33_cards_go_to_discard_and_pop_restores_everything() -> None:
    s = example_position()
    before = position_to_dict(s)
    for a in EXAMPLE.split("; "):
        s.push(parse_action(a))
    for _ in EXAMPLE.split("; "):
        s.pop()
    assert position_to_dict(s) == before


# ------------------------------------------------------------------ R42, files
def test_r42_a_player_after_his_final_count_still_joins_and_scores() -> None:
    d = city_position(players=2, to_move=1, hands=[["D"], ["D"]], developers={"F5": 0, "F6": 1},
                      palace_value=8, face_up="D")
    d.players[0].final_counted = True
    d.players[0].score = 10
    d.last_round = []
    play(d, "festival F4 D; bid D")  # automatic agreement
    assert d.players[0].score == 10 + 2
    assert d.players[1].final_counted and d.is_terminal()


def test_mid_festival_save_and_load_round_trip(tmp_path) -> None:
    """A festival in progress saves under the key ``festival`` and continues after loading."""
    s = example_position()
    play(s, "festival F4 D; bid M; bid DM")
    path = tmp_path / "mid.json"
    save_position(s, str(path))
    raw = json.loads(path.read_text())
    assert raw["festival"] == {
        "palace": "F4", "opener": 0, "phase": "join", "to_decide": 3,
        "bids": [["D"], ["M"], ["DM"], []], "status": ["in", "in", "in", "pending"],
        "tie_maker": 2, "agreed": [],
    }
    t = load_position(str(path))
    assert isinstance(t.festival, FestivalState) and t.festival == s.festival
    assert t.current_player() == 3
    play(t, "pass; bid DP; pass; bid MP; bid D; agree")
    play(s, "pass; bid DP; pass; bid MP; bid D; agree")
    assert position_to_dict(t) == position_to_dict(s)


@pytest.mark.parametrize(
    ("patch", "field"),
    [
        ({"palace": "F5"}, "festival.palace"),
        ({"phase": "bidding"}, "festival.phase"),
        ({"to_decide": 7}, "festival.to_decide"),
        ({"bids": [["D"], ["M"]]}, "festival.bids"),
        ({"bids": [["D"], ["M"], ["DM"], ["P"]]}, "festival.bids[3]"),
    ],
)
def test_bad_festival_key_is_refused_naming_the_field(patch: dict, field: str) -> None:
    s = example_position()
    play(s, "festival F4 D; bid M; bid DM")
    d = position_to_dict(s)
    d["festival"].update(patch)
    with pytest.raises(ValueError, match=field.replace("[", r"\[").replace("]", r"\]")):
        position_from_dict(d)


def test_festival_cards_in_play_count_in_the_material_check() -> None:
    s = example_position()
    play(s, "festival F4 D; bid M")
    d = position_to_dict(s)
    d["festival"]["bids"][1] = []  # a card vanished
    with pytest.raises(ValueError, match="R2"):
        position_from_dict(d)


# ------------------------------------------------------------------ property
@settings(max_examples=40, deadline=None)
@given(
    hands=st.lists(st.lists(st.sampled_from(CARD_KINDS), max_size=4), min_size=4, max_size=4),
    face_up=st.sampled_from(CARD_KINDS),
    value=st.sampled_from([2, 4, 6, 8, 10]),
    choices=st.lists(st.integers(0, 1000), min_size=60, max_size=60),
)
def test_r32_any_sequence_of_legal_decisions_ends_and_scores_by_the_table(
    hands: list[list[str]], face_up: str, value: int, choices: list[int]
) -> None:
    """R32–R35: whatever legal decisions are taken, the festival ends, its cards are all
    discarded, the palace is flagged, and the scores rise by the table's alone or agreement
    points only; every action pops back exactly."""
    kinds = Counter(c for h in hands for c in h) + Counter([face_up])
    if any(n > 5 for n in kinds.values()):
        return
    matching = [c for c in hands[0] if card_worth(c, face_up)]
    if not matching:
        return
    s = city_position(hands=hands, developers=DEVS4, palace_value=value, face_up=face_up)
    start = position_to_dict(s)
    cards_before = Counter(c for p in s.players for c in p.hand)
    s.push(Festival(H("F4"), (matching[0],)))
    steps = 1
    for c in choices:
        if s.festival is None:
            break
        acts = list(s.legal_actions())
        assert acts and all(isinstance(a, (Bid, Pass, Agree)) for a in acts)
        s.push(acts[c % len(acts)])
        steps += 1
    assert s.festival is None, "the festival did not end"
    gained = sorted(p.score for p in s.players)
    alone = gained == [0, 0, 0, ALONE[value]]
    agreement = all(g in (0, AGREEMENT[value]) for g in gained)
    assert alone or agreement, gained
    assert Counter(s.discard) + Counter(c for p in s.players for c in p.hand) == cards_before
    assert s.fest[H("F4")] and s.to_move == 1
    for _ in range(steps):
        s.pop()
    assert position_to_dict(s) == start
