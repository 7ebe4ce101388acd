"""``kraton analyze``: every part of the report on hand-built positions (R24–R29, R38, R41)."""

from __future__ import annotations

import json

import pytest

from analysis.report import build_options, position_report, report_text, take_lead_costs
from core.actions import parse_actions
from core.position import save_position
from tests.helpers import H, build, contested_festival
from tui.cli import main


def city_position():
    """Row G: G6 G7 G8 G9 villages, palace 2 on G6; Yellow (1) stands 2 high on G8, Red (0) 1
    high on G7; G9 is free."""
    return build(players=3, tiles=["G6v", "G7v", "G8r G9v", "G8v"],
                 developers={"G7": 0, "G8": 1}, palaces={"G6": 2})


def test_r24_r41_city_value_size_keys_first_second():
    r = position_report(city_position())
    (c,) = r["cities"]
    assert (c["palace"], c["value"], c["size"]) == ("G6", 2, 4)
    assert c["keys"] == {"0": [1], "1": [2]}
    assert c["first"] == [1] and c["second"] == [0]
    assert r["final_count"] == [1, 2, 0]  # R41: first the value, second half of it


def test_r28_enlarge_next_holder_pays_one_ap():
    """Yellow holds the highest position (R25) and the city of 4 may take a 4: 1 AP. Red cannot
    beat a level-2 key with one move onto level-1 G9, so Red is not listed."""
    r = position_report(city_position())
    assert r["cities"][0]["enlarge"] == [{"player": 1, "ap": 1, "value": 4}]


def test_r28_no_enlarge_when_the_city_is_too_small():
    s = build(players=2, tiles=["G6v", "G7v"], developers={"G7": 0}, palaces={"G6": 2})
    assert position_report(s)["cities"][0]["enlarge"] == []


def test_r27_r28_build_cost_counts_the_move_onto_the_village():
    """Red's developer on rice G5 moves to village G6 for 1 AP (one terrain change, R27), then
    holds the highest position; the palace costs 1 more: 2 AP. Blue has nothing near."""
    s = build(players=2, tiles=["G5r", "G6v", "G7v"], developers={"G5": 0})
    members = [H("G6"), H("G7")]
    assert take_lead_costs(s, members) == {0: 1}
    assert build_options(s, members, 0) == [{"player": 0, "ap": 2, "value": 2}]


def test_r26_build_cost_by_entering_on_a_border_space():
    """B6 is a border space next to lowland (entry 1 AP, R5/R26): either player can enter it and
    build on B7 for 2 AP."""
    s = build(players=2, tiles=["B6v", "B7v"])
    opts = position_report(s)["villages"][0]["build"]
    assert opts == [{"player": 0, "ap": 2, "value": 2}, {"player": 1, "ap": 2, "value": 2}]


def test_r25_tied_keys_give_no_holder_and_one_move_cannot_break_the_tie():
    """Red on G5 and Blue on G7, both level 1: nobody holds the highest position (R25); moving
    one's only developer onto G6 keeps the key [1], so neither is listed."""
    s = build(players=2, tiles=["G5v", "G6v", "G7v"], developers={"G5": 0, "G7": 1})
    (v,) = position_report(s)["villages"]
    assert v["highest"] == -1
    assert v["palace_values"] == [2] and v["sites"] == ["G6"]
    assert take_lead_costs(s, [H("G5"), H("G6"), H("G7")]) == {}


def test_r24_r27_a_second_developer_breaks_the_tie():
    """Red's second developer on rice G4 walks over his own G5 onto G6 (1 terrain change, R27):
    key [1, 1] beats [1] (R24)."""
    s = build(players=2, tiles=["G4r", "G5v", "G6v", "G7v"], developers={"G4": 0, "G5": 0, "G7": 1})
    assert take_lead_costs(s, [H("G5"), H("G6"), H("G7")]) == {0: 1}


def test_r28_villages_list_palace_values_and_sites():
    s = build(players=2, tiles=["G6v", "G7v", "G8v", "G9v"], developers={"G7": 1})
    (v,) = position_report(s)["villages"]
    assert v["size"] == 4 and v["highest"] == 1
    assert v["palace_values"] == [2, 4]
    assert v["sites"] == ["G6", "G8", "G9"]  # not under the developer (R28)
    assert v["build"][0] == {"player": 1, "ap": 1, "value": 4}


def test_r38_pond_open_hexes_and_who_scores_on_closing():
    """The printed pond G10: five ring hexes built, H10 left bare; Yellow stands highest on
    the ring (level 2 against level 1)."""
    s = build(players=2, tiles=["G9r", "G11r", "F10v F9r", "F10v", "H9r"],
              developers={"G9": 0, "F10": 1})
    r = position_report(s)
    (p,) = [p for p in r["ponds"] if p["hexes"] == ["G10"]]
    assert p["open"] == ["H10"] and not p["enclosed"]
    assert p["highest"] == 1 and p["points"] == 3


def test_r41_projected_final_count_adds_scores():
    s = build(players=3, tiles=["G6v", "G7v", "G8r G9v", "G8v"],
              developers={"G7": 0, "G8": 1}, palaces={"G6": 2}, scores=[5, 1, 0])
    r = position_report(s)
    assert r["projected"] == [6, 3, 0]


def test_report_text_has_the_tables():
    s = city_position()
    text = report_text(s, position_report(s))
    assert "G6" in text and "Yellow / Red" in text
    assert "Yellow 1 AP (to 4)" in text
    assert "Projected final count (R41): Red 1, Yellow 2, Blue 0" in text


def test_best_turn_from_the_solver_replays_to_its_points():
    """1 AP left and Red holds the highest position in a village of 2: at least the palace of 2
    scores (R29). Whatever line the solver reports must score exactly its ``best`` when
    replayed through the engine."""
    pytest.importorskip("analysis.solver")
    s = build(players=2, tiles=["G6v", "G7v"], developers={"G6": 0}, ap=1)
    bt = position_report(s, solve=True, time_limit=1)["best_turn"]
    assert bt is not None and bt["best"] >= 1
    before = s.players[0].score
    for a in parse_actions(bt["line"]):
        s.push(a)
    assert s.players[0].score - before == bt["best"]


def test_cli_json_keeps_the_contract_keys(tmp_path, capsys):
    f = tmp_path / "city.json"
    save_position(city_position(), str(f))
    assert main(["analyze", str(f), "--json", "--no-solve"]) == 0
    out = json.loads(capsys.readouterr().out)
    c = out["cities"][0]
    assert {"palace", "value", "size", "keys", "first", "second"} <= set(c)
    assert out["final_count"] == [1, 2, 0]


def test_cli_batch_reports_failures_and_goes_on(tmp_path, capsys):
    good = tmp_path / "good.json"
    save_position(city_position(), str(good))
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    rc = main(["analyze", str(good), str(bad), str(good), "--no-solve", "--workers", "1"])
    cap = capsys.readouterr()
    assert rc == 2
    assert cap.out.count("== ") == 2  # both good files reported in full
    assert "FAILED" in cap.out and "bad.json" in cap.err and "1 of 3 files failed" in cap.err
    assert "[" in cap.err and "3/3" in cap.err  # the progress bar on stderr


def test_cli_batch_json_lists_errors(tmp_path, capsys):
    good = tmp_path / "good.json"
    save_position(city_position(), str(good))
    rc = main(["analyze", str(good), str(tmp_path / "missing.json"), "--json", "--no-solve",
               "--workers", "1", "--quiet"])
    items = json.loads(capsys.readouterr().out)
    assert rc == 2
    assert items[0]["final_count"] == [1, 2, 0] and "error" in items[1]


def test_r32_a_festival_being_bid_is_reported():
    s = contested_festival()
    r = position_report(s, solve=True)
    assert r["festival"]["palace"] == "G6" and r["festival"]["to_decide"] == 1
    assert r["best_turn"] is None or "festival" in r["best_turn"]["note"]
    assert "G6 (R32): Yellow to decide" in report_text(s, r)


def test_r40_projection_does_not_count_a_final_count_twice():
    s = build(players=3, tiles=["G6v", "G7v", "G8r G9v", "G8v"],
              developers={"G7": 0, "G8": 1}, palaces={"G6": 2}, scores=[5, 1, 0])
    s.players[1].final_counted = True  # Yellow's 2 for the city are in his score already
    assert position_report(s)["projected"] == [6, 1, 0]


def test_r28_a_village_whose_palace_pieces_ran_out():
    s = build(players=2, tiles=["G6v", "G7v"], developers={"G6": 0})
    s.palace_supply[2] = 0
    r = position_report(s)
    (v,) = r["villages"]
    assert v["palace_values"] == [] and v["build"] == [] and v["sites"] == []
    assert "no palace piece of a value up to its size is left (R28)" in report_text(s, r)


def test_r28_a_village_full_of_developers_says_why_no_palace_fits():
    s = build(players=2, tiles=["G6v", "G7v"], developers={"G6": 0, "G7": 1})
    r = position_report(s)
    (v,) = r["villages"]
    assert v["palace_values"] == [2] and v["sites"] == []
    text = report_text(s, r)
    assert "developers stand on every village hex (R28)" in text and "possible on ;" not in text
