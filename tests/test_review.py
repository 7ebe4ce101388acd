"""``kraton review`` in batch (issue 22): evaluations, summary, annotated records, the chart,
"learn from your mistakes" puzzles (R44 for a game in progress) and one-line errors."""

from __future__ import annotations

import json
import os
import random
import xml.etree.ElementTree as ET
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from analysis.review import mark_for, played_points, review_tasks, task_state
from analysis.review_report import PlayerSummary, mistake_puzzle, summarize
from analysis.solver.common import replay
from core.actions import parse_actions
from core.game import Game
from core.position import load_position, position_to_dict
from core.record import load_record, replay_file, save_record
from puzzles.loader import load_puzzle
from tests.fuzzing import run_cli
from tui.cli import main

ROOT = Path(__file__).resolve().parent.parent
PLANNER_38 = str(ROOT / "puzzles" / "games" / "planner-38.json")
FAST = ["--time-limit", "0.2", "--workers", "1", "--quiet"]


def review_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    assert main(["review", *argv, "--json", *FAST]) == 0
    return json.loads(capsys.readouterr().out)


def mistake_game(tmp_path: Path, shuffle_hidden: int | None = None, name: str = "mistake.json",
                 keep: int | None = None) -> str:
    """A game in progress (not over: R44 applies) whose one turn misses 12 points: on puzzle
    one-ap-01 the player lays a rice tile that scores nothing instead of ``tile D2r``.
    ``shuffle_hidden`` deals the cards he (or player ``keep``) cannot see (the others' hands,
    the deck) differently."""
    d = position_to_dict(load_position(str(ROOT / "puzzles" / "one-ap-01.json")))
    if shuffle_hidden is not None:
        me = d["to_move"] if keep is None else keep
        others = [p for i, p in enumerate(d["players"]) if i != me]
        pool = [c for p in others for c in p["hand"]] + d["cards"]["deck"]
        random.Random(shuffle_hidden).shuffle(pool)
        for p in others:
            p["hand"], pool = pool[:len(p["hand"])], pool[len(p["hand"]):]
        d["cards"]["deck"] = pool
        d["seed"] = shuffle_hidden
    from core.position import position_from_dict

    g = Game(position_from_dict(d))
    g.apply_action("tile C3r")
    g.apply_action("end")
    g.comments[1] = "a rice tile, why?"
    path = str(tmp_path / name)
    save_record(g.record({"event": "test"}), path, g)
    return path


# ---------------------------------------------------------------------------- evaluations
def test_planner_38_turn_at_action_137_is_evaluated_and_marked_when_best_exceeds_played(capsys) -> None:
    """Acceptance: the turn that starts at action 137 is evaluated; its mark follows from best −
    played (?! from 3 points missed: a smaller gap is shown as missed but not marked)."""
    out = review_json(capsys, PLANNER_38, "--turns", "21-23")
    evals = {e["first"]: e for e in out["evaluations"]}
    assert [e["turn"] for e in out["evaluations"]] == [21, 22, 23]  # one per reviewed turn
    e = evals[137]
    assert e["turn"] == 22 and e["seen"] == "all" and e["best"] >= e["played"] == 10
    assert e["mark"] == mark_for(e["best"] - e["played"])
    assert bool(e["mark"]) == (e["best"] - e["played"] >= 3)


def test_player_keeps_to_one_players_turns(tmp_path: Path, capsys) -> None:
    out = review_json(capsys, PLANNER_38, "--turns", "21-24", "--player", "blue")
    assert [(e["turn"], e["player"]) for e in out["evaluations"]] == [(22, 2)]
    assert [r["name"] for r in out["summary"]] == ["Blue"]
    g = replay_file(PLANNER_38)
    g.evaluations = {21: {"best": 97}, 22: {"best": 98}}
    old = str(tmp_path / "old.json")
    save_record(g.record(), old, g)
    assert main(["review", old, "--player", "3", "--turns", "21-23", "-o", old, *FAST]) == 0
    ev = json.loads(Path(old).read_text())["annotations"]["evaluations"]
    assert ev["21"] == {"best": 97} and ev["22"]["best"] != 98 and list(ev) == ["21", "22"]


@pytest.mark.slow
def test_planner_38_whole_game_has_one_evaluation_per_turn(capsys) -> None:
    out = review_json(capsys, PLANNER_38, "--workers", "2")
    g = replay_file(PLANNER_38)
    spans = [t for t in g.turn_spans() if t.complete]
    assert [e["turn"] for e in out["evaluations"]] == [t.index + 1 for t in spans] and len(spans) == 62
    assert [(e["first"], e["end"]) for e in out["evaluations"]] == [(t.first, t.end) for t in spans]
    assert 137 in {e["first"] for e in out["evaluations"]}


def test_a_mistake_is_marked_and_summarised(tmp_path: Path, capsys) -> None:
    path = mistake_game(tmp_path)
    out = review_json(capsys, path)
    (e,) = out["evaluations"]
    assert (e["played"], e["best"], e["proved"], e["mark"], e["seen"]) == (0, 12, True, "??", "player")
    blue = out["summary"][e["player"]]
    assert (blue["turns"], blue["missed"], blue["marks"]["??"], blue["accuracy"]) == (1, 12, 1, 0.0)
    assert main(["review", path, "--summary", *FAST]) == 0
    text = capsys.readouterr().out
    assert "accuracy" in text.splitlines()[0] and "0.0%" in text


def test_a_bound_equal_to_the_best_proves_it(monkeypatch) -> None:
    """The solver stopped by its time limit with its bound down to its best: proved (a puzzle
    may be made of it); a bound above the best is not a proof."""
    import analysis.solver
    from analysis.review import evaluate

    task = review_tasks(replay_file(PLANNER_38), 0.2)[21]
    for bound, proved in ((10, True), (11, False)):
        fake = SimpleNamespace(best=10, bound=bound, optimal=False, line_text="x", engine="cpsat", seconds=0.2)
        monkeypatch.setattr(analysis.solver, "solve", lambda *a, fake=fake, **k: fake)
        e = evaluate(task)
        assert (e["played"], e["best"], e["bound"], e["proved"]) == (10, 10, bound, proved)


def test_evaluating_a_task_never_reads_or_replays_the_game(tmp_path: Path, monkeypatch) -> None:
    """Workers get the turn's start position in the task: no record parsing, no replay."""
    import core.game
    import core.record
    from analysis.review_report import run_review, turn_tasks

    tasks = turn_tasks(replay_file(mistake_game(tmp_path)), 0.2)

    def forbidden(*a: Any, **k: Any) -> None:
        raise AssertionError("a worker replayed the game")

    for mod, name in ((core.record, "record_from_dict"), (core.record.GameRecord, "replay"),
                      (core.game.Game, "state_at"), (core.game.Game, "apply_action")):
        monkeypatch.setattr(mod, name, forbidden)
    review = run_review(tasks, workers=1)
    assert not review.failed and review.evaluations[1]["best"] == 12


def test_accuracy_is_played_over_best() -> None:
    assert PlayerSummary(0, "Red", 3, 15, 20, {}).accuracy == 75.0
    assert PlayerSummary(0, "Red", 2, 0, 0, {}).accuracy == 100.0  # nothing to score: no loss
    g = replay_file(PLANNER_38)
    rows = summarize(g, {1: {"player": 1, "played": 2, "best": 8, "mark": "?"}})
    assert (rows[1].turns, rows[1].missed, rows[1].marks["?"], rows[0].turns) == (1, 6, 1, 0)


# ---------------------------------------------------------------------------- annotated records
def test_annotated_record_keeps_comments_and_round_trips_byte_for_byte(tmp_path: Path, capsys) -> None:
    path = mistake_game(tmp_path)
    annotated = str(tmp_path / "annotated.json")
    assert main(["review", path, "-o", annotated, *FAST]) == 0
    raw = Path(annotated).read_bytes()
    d = json.loads(raw)
    assert d["annotations"]["comments"] == {"1": "a rice tile, why?"}
    assert d["annotations"]["evaluations"]["1"]["mark"] == "??"
    # load / save cycles where nothing changed: the same bytes
    rec, _ = load_record(annotated)
    save_record(rec, str(tmp_path / "b.json"))
    g = replay_file(annotated)
    save_record(g.record(), str(tmp_path / "c.json"), g)
    assert Path(tmp_path / "b.json").read_bytes() == raw == Path(tmp_path / "c.json").read_bytes()


def test_an_old_record_annotated_gains_only_the_annotations(tmp_path: Path) -> None:
    """planner-38 (written before annotations existed) reviewed with -o: the same bytes plus
    the annotations key; its tags keep their spelling ("planner x4")."""
    out = tmp_path / "planner-38.json"
    assert main(["review", PLANNER_38, "--turns", "22", "-o", str(out), *FAST]) == 0
    d = json.loads(out.read_text())
    assert list(d["annotations"]["evaluations"]) == ["22"] and d["tags"]["players"] == "planner x4"
    first = d.pop("annotations")
    assert json.dumps(d, indent=2) + "\n" == Path(PLANNER_38).read_text()
    # a review-save cycle of the annotated record: only the evaluation it redid may differ
    again = tmp_path / "again.json"
    assert main(["review", str(out), "--turns", "22", "-o", str(again), *FAST]) == 0
    d2 = json.loads(again.read_text())
    d2["annotations"]["evaluations"]["22"] = first["evaluations"]["22"]
    assert json.dumps(d2, indent=2) + "\n" == out.read_text()


def test_reviewing_again_replaces_the_evaluations(tmp_path: Path) -> None:
    """Over the turns reviewed (all, or --turns) the new evaluations replace the old; the
    comments and, with --turns, the evaluations of other turns stay."""
    g = replay_file(mistake_game(tmp_path))
    g.evaluations = {1: {"best": 99, "mark": "??"}, 2: {"best": 98, "mark": "??"}}
    old = str(tmp_path / "old.json")
    save_record(g.record(), old, g)
    part, full = str(tmp_path / "part.json"), str(tmp_path / "full.json")
    assert main(["review", old, "--turns", "1", "-o", part, *FAST]) == 0
    ann = json.loads(Path(part).read_text())["annotations"]
    assert ann["evaluations"]["1"]["best"] == 12 and ann["evaluations"]["2"]["best"] == 98
    assert ann["comments"] == {"1": "a rice tile, why?"}
    assert main(["review", old, "-o", full, *FAST]) == 0
    ann = json.loads(Path(full).read_text())["annotations"]
    assert list(ann["evaluations"]) == ["1"] and ann["evaluations"]["1"]["best"] == 12


def test_replay_checks_an_annotated_record_and_ignores_its_annotations(tmp_path: Path, capsys) -> None:
    path = mistake_game(tmp_path)
    assert main(["replay", path]) == 0
    plain = capsys.readouterr().out.split(": valid record.")[1]
    annotated = str(tmp_path / "annotated.json")
    assert main(["review", path, "-o", annotated, *FAST]) == 0
    capsys.readouterr()
    assert main(["replay", annotated]) == 0
    assert capsys.readouterr().out.split(": valid record.")[1] == plain
    d = json.loads(Path(annotated).read_text())
    d["actions"][0] = "enter Z99"  # the game itself is still checked
    Path(annotated).write_text(json.dumps(d))
    out = run_cli(["replay", annotated])
    assert out.kind == "error"


def test_records_written_before_the_review_still_replay_and_review(capsys) -> None:
    assert "annotations" not in json.loads(Path(PLANNER_38).read_text())
    assert main(["replay", PLANNER_38]) == 0
    assert "valid record" in capsys.readouterr().out
    out = review_json(capsys, PLANNER_38, "--turns", "1")
    assert len(out["evaluations"]) == 1


# ---------------------------------------------------------------------------- chart
def test_chart_has_a_line_per_player_and_marks_the_mistakes(tmp_path: Path) -> None:
    path = mistake_game(tmp_path)
    chart = str(tmp_path / "scores.svg")
    assert main(["review", path, "--chart", chart, *FAST]) == 0
    root = ET.parse(chart).getroot()
    ns = "{http://www.w3.org/2000/svg}"
    assert len(root.findall(f"{ns}polyline")) == 3
    (mark,) = root.findall(f"{ns}circle")
    assert "??" in (mark.findtext(f"{ns}title") or "")


# ---------------------------------------------------------------------------- learn from your mistakes
def test_mistake_puzzles_load_and_their_line_reaches_their_best(tmp_path: Path, capsys) -> None:
    path = mistake_game(tmp_path)
    folder = tmp_path / "my-puzzles"
    assert main(["review", path, "--puzzles", str(folder), *FAST]) == 0
    assert "1 puzzle written" in capsys.readouterr().out
    (f,) = sorted(folder.glob("*.json"))
    pz = load_puzzle(str(f))
    assert (pz.id, pz.best) == ("mistake-turn-1", 12)
    out, _ = replay(pz.state, parse_actions(pz.line))
    assert out.points == pz.best
    d = json.loads(f.read_text())
    assert d["puzzle"]["source"] == {"record": "mistake.json", "action": 0, "turn": 1}
    assert d["puzzle"]["goal"] == "max-points" and d["puzzle"]["seen"] == "player"
    assert not os.path.isabs(d["map"])  # a map file named relative to the puzzle's folder
    assert main(["review", path, "--puzzles", str(folder), "--min-missed", "13", *FAST]) == 0
    assert "0 puzzles written" in capsys.readouterr().out


def test_puzzles_without_a_folder_go_to_the_trainers_folder(tmp_path: Path, kraton_home: Path,
                                                            capsys) -> None:
    path = mistake_game(tmp_path)
    assert main(["review", path, *FAST, "--puzzles"]) == 0
    assert (kraton_home / "my-puzzles" / "mistake-turn-1.json").is_file()


def test_a_puzzle_from_a_game_in_progress_holds_no_hidden_card_r44(tmp_path: Path) -> None:
    """The puzzle is the turn as its player saw it: the same whatever the hidden cards were
    (opponents' hands, deck order, seed), with his own hand and the open cards as they were."""
    files = []
    for i, shuffle in enumerate((None, 1, 2)):
        path = mistake_game(tmp_path, shuffle, name=f"g{i}.json")
        folder = tmp_path / f"p{i}"
        assert main(["review", path, "--puzzles", str(folder), *FAST]) == 0
        (f,) = folder.glob("*.json")
        d = json.loads(f.read_text())
        d["puzzle"]["source"]["record"] = d["puzzle"]["id"] = d["puzzle"]["title"] = ""
        files.append(d)
    assert files[0] == files[1] == files[2]
    real = position_to_dict(load_position(str(ROOT / "puzzles" / "one-ap-01.json")))
    me = real["to_move"]
    assert files[0]["players"][me]["hand"] == real["players"][me]["hand"]
    assert files[0]["cards"]["face_up"] == real["cards"]["face_up"]
    assert files[0]["cards"]["discard"] == real["cards"]["discard"]


def test_as_a_viewer_every_turn_is_judged_from_his_view_r44(tmp_path: Path, capsys) -> None:
    """--as Red: Blue's turn judged as Red sees it; Blue's hand, Yellow's and the deck do not
    change the review's output (JSON and puzzle) — Red could not see them."""
    outs, puzzles = [], []
    for i, shuffle in enumerate((None, 3, 4)):
        path = mistake_game(tmp_path, shuffle, name=f"v{i}.json", keep=0)
        folder = tmp_path / f"v{i}"
        out = review_json(capsys, path, "--as", "red", "--puzzles", str(folder))
        (e,) = out["evaluations"]
        assert e["seen"] == "player 0" and e["player"] == 2
        outs.append({k: v for k, v in e.items() if k != "seconds"})
        (f,) = folder.glob("*.json")
        d = json.loads(f.read_text())
        d["puzzle"]["source"]["record"] = d["puzzle"]["id"] = d["puzzle"]["title"] = ""
        puzzles.append(d)
    assert outs[0] == outs[1] == outs[2] and puzzles[0] == puzzles[1] == puzzles[2]


def test_a_puzzle_from_a_finished_game_holds_the_real_position() -> None:
    g = replay_file(PLANNER_38)
    task = review_tasks(g, 0.2)[0]
    assert task.seen == "all" and position_to_dict(task_state(task)) == task.position
    line = "; ".join(a for a in task.actions if a != "end")  # the turn as played, scored as played
    e = {"best": played_points(task), "played": 0, "line": line, "engine": "cpsat", "seconds": 0.1}
    d = mistake_puzzle(task, e, "planner-38.json", "Yellow")
    assert {k: v for k, v in d.items() if k != "puzzle"} == task.position
    assert d["puzzle"]["seen"] == "all"


# ---------------------------------------------------------------------------- errors and the app
@pytest.mark.parametrize("argv, what", [
    (["review", "no-such-file.json", "--json"], "no-such-file.json"),
    (["review", str(ROOT / "puzzles" / "one-ap-01.json"), "--json"], "format"),
    (["review", PLANNER_38, "--json", "--time-limit", "0"], "--time-limit"),
    (["review", PLANNER_38, "--json", "--time-limit", "nan"], "--time-limit"),
    (["review", PLANNER_38, "--json", "--workers", "0"], "--workers"),
    (["review", PLANNER_38, "--json", "--min-missed", "0"], "--min-missed"),
    (["review", PLANNER_38, "--json", "--turns", "3-x"], "--turns"),
    (["review", PLANNER_38, "--json", "--turns", "60-99"], "62 complete turns"),
    (["review", PLANNER_38, "--json", "--engine", "magic"], "engine"),
    (["review", PLANNER_38, "--json", "--player", "Purple"], "not a player of this game"),
    (["review", PLANNER_38, "--json", "--as", "0"], "--as 0: not a player"),
    (["review", PLANNER_38, "-o", str(ROOT)], "-o"),
    (["review", PLANNER_38, "--chart", str(ROOT)], "--chart"),
    (["review", PLANNER_38, "--puzzles", PLANNER_38, "--turns", "1", "--time-limit", "0.05"], "not a folder"),
])
def test_bad_input_is_one_line_and_exit_2(argv: list[str], what: str) -> None:
    out = run_cli(argv, hang_seconds=60)
    assert out.kind == "error", out
    import contextlib
    import io

    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.suppress(SystemExit):
        main(argv)
    assert what in err.getvalue()


def test_an_illegal_action_in_the_record_names_its_number_and_rule(tmp_path: Path) -> None:
    d = json.loads(Path(PLANNER_38).read_text())
    d["actions"][5] = "palace A1 10"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(d))
    import contextlib
    import io

    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        assert main(["review", str(bad), "--json"]) == 2
    line = err.getvalue()
    assert line.count("\n") == 1 and "action 6 of 392" in line and "R" in line


def test_without_a_batch_option_the_app_opens_in_review_mode(monkeypatch) -> None:
    import tui.app

    opened: list[tuple[str, str | None]] = []

    class FakeApp:
        return_code: int | None = None

        def run(self) -> None:
            pass

    def fake_create_app(mode: str, path: str | None = None, **kw: Any) -> FakeApp:
        opened.append((mode, path))
        return FakeApp()

    monkeypatch.setattr(tui.app, "create_app", fake_create_app)
    assert main(["review", PLANNER_38]) == 0
    assert opened == [("review", PLANNER_38)]
    assert run_cli(["review", "missing.json"]).kind == "error"  # checked before the app opens
    assert opened == [("review", PLANNER_38)]


def test_review_on_a_dask_cluster(tmp_path: Path, capsys) -> None:
    distributed = pytest.importorskip("distributed")
    path = mistake_game(tmp_path)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        rc = main(["review", path, "--json", "--quiet", "--time-limit", "0.2",
                   "--scheduler", cluster.scheduler_address])
    assert rc == 0
    (e,) = json.loads(capsys.readouterr().out)["evaluations"]
    assert e["best"] == 12
