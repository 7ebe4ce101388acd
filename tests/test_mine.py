"""The puzzle miner's sources (``analysis/mine.py``, ``kraton puzzles mine``): saved game records replay to the exact
position of each full-turn puzzle mined from them, and the mid-game pick keeps busy boards
only (R8, R10, R40)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TypedDict

import pytest

from analysis.mine import BUSY, mid_game, record_turns, spent
from analysis.solver.common import SolveResult
from core.actions import parse_actions
from core.position import position_to_dict, read_json
from core.state import GameState
from puzzles.loader import GAMES, HERE, load_puzzle, puzzle_files

FROM_RECORDS = [f for f in puzzle_files() if "record" in read_json(f)["puzzle"].get("solver", {})]
MID_GAME = [f for f in FROM_RECORDS
            if str(read_json(f)["puzzle"]["solver"].get("source", "")).startswith("mid-game")]


def test_some_full_turns_come_from_saved_busy_mid_game_records() -> None:
    """Issue 5: full 6- and 7-AP turns of busy mid-game positions, with the game they come
    from kept beside them so that anyone can mine them again."""
    assert len(MID_GAME) >= 2
    for path in MID_GAME:
        pz = load_puzzle(path)
        assert pz.theme == "full-turn" and pz.state.turn.ap == 6 and pz.best >= 3
        assert len(pz.state.tiles) >= BUSY and pz.state.last_round is None and pz.state.triples > 0


@pytest.mark.parametrize("path", FROM_RECORDS, ids=os.path.basename)
def test_the_record_replays_to_the_puzzles_position(path: str) -> None:
    meta = read_json(path)["puzzle"]["solver"]
    want = position_to_dict(load_puzzle(path).state)
    for turn, s in record_turns(os.path.join(HERE, meta["record"])):
        if turn == meta["turn"]:
            if path in MID_GAME:
                assert mid_game(turn, s) is not None
            else:  # mined from the last round (R40)
                assert s.last_round is not None
            if meta.get("tokens_spent"):  # the board of that turn, his tokens spent: 6 AP (R7)
                assert s.token_bonus() and not spent(s).token_bonus()
                s = spent(s)
            assert position_to_dict(s) == want
            return
    pytest.fail(f"the record has no turn {meta['turn']}")


def test_a_record_that_stops_mid_game_ends_the_turns_cleanly(tmp_path: Path) -> None:
    src = os.path.join(GAMES, "planner-30.json")
    d = json.loads(Path(src).read_text())
    d["actions"] = d["actions"][:40]
    d.pop("result", None)
    cut = tmp_path / "cut.json"
    cut.write_text(json.dumps(d))
    turns = [t for t, _ in record_turns(str(cut))]
    assert turns and turns == list(range(1, len(turns) + 1))
    full = [t for t, _ in zip(range(len(turns) + 3), record_turns(src))]
    assert len(full) > len(turns)  # the whole game goes on past the cut


def test_mid_game_keeps_busy_boards_before_the_last_round() -> None:
    s = GameState.new(4, seed=3)
    assert mid_game(20, s) is None  # an empty board is not busy
    for _, busy in record_turns(os.path.join(GAMES, "planner-30.json")):
        if len(busy.tiles) >= BUSY:
            break
    assert mid_game(20, busy) is not None
    assert mid_game(7, busy) is None  # the opening
    assert mid_game(20, busy, every=3) is None and mid_game(21, busy, every=3) is not None
    assert mid_game(21, busy, only=frozenset({22})) is None
    busy.last_round = [1, 2]  # R40: the last round is not the mid-game
    assert mid_game(20, busy) is None


def test_every_saved_game_replays_to_its_result() -> None:
    """The survey's game records (``puzzles/games/``) are whole games: each replays, every
    action legal, to the final scores and winners it records (R40–R43)."""
    from core.record import replay_file

    paths = sorted(Path(GAMES).glob("*.json"))
    assert len(paths) >= 3
    for path in paths:
        assert "result" in read_json(str(path))
        assert replay_file(str(path)).is_terminal()


def test_a_bad_record_is_one_line_and_status_2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    from analysis import mine
    from tui.cli import main

    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "java-game", "actions": ["tile Z99v"]}')
    with pytest.raises(SystemExit) as e:
        mine.main(["--mid-game", "--records", str(bad)])
    assert e.value.code == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("analysis.mine: ") and str(bad) in err and "\n" not in err
    assert main(["puzzles", "mine", "--mid-game", "--records", str(bad)]) == 2  # the same, via kraton
    err = capsys.readouterr().err.strip()
    assert err.startswith("kraton: ") and str(bad) in err and "\n" not in err
    good = os.path.join(GAMES, "planner-30.json")  # --at 1: no busy turn to solve
    assert main(["puzzles", "mine", "--mid-game", "--records", str(bad), good, "--at", "1", "--workers", "2"]) == 2
    lines = capsys.readouterr().err.strip().split("\n")
    assert len(lines) == 2 and str(bad) in lines[0] and lines[1] == "kraton: 1 of 2 games could not be mined (above)"


def test_a_new_puzzle_never_takes_the_id_of_one_that_exists(tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """Ids can have gaps; the next puzzle takes the first free one, not the count plus one."""
    from analysis import mine

    for n in (1, 2, 4):
        (tmp_path / f"full-turn-{n:02d}.json").write_text("{}")
    monkeypatch.setattr(mine, "HERE", str(tmp_path))
    assert mine.free_id("full-turn") == "full-turn-03"
    (tmp_path / "full-turn-03.json").write_text("{}")
    assert mine.free_id("full-turn") == "full-turn-05"
    assert mine.free_id("pond") == "pond-01"


def test_a_busy_mid_game_turn_is_mined_with_the_engine_asked_for(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 21: ``--engine`` picks the solver that must prove each puzzle (the model engine by
    default). Turn 31 of planner-30 (Green, 7 AP with the token, R7) is proved at 39 points,
    written with the record and turn it comes from, and its line replays to them."""
    from analysis import mine
    from analysis.solver.common import replay

    record = os.path.join(GAMES, "planner-30.json")
    monkeypatch.setattr(mine, "HERE", str(tmp_path))
    mine.main(["--mid-game", "--records", record, "--at", "31", "--limit", "10", "--engine", "model"])
    pz = load_puzzle(str(tmp_path / "full-turn-01.json"))
    meta = read_json(pz.path)["puzzle"]["solver"]
    assert meta["engine"] == "model" and meta["turn"] == 31 and meta["source"] == "mid-game of a planner game"
    assert pz.best == 39 and pz.state.token_bonus() and len(pz.state.tiles) >= BUSY
    out, _ = replay(pz.state, parse_actions(pz.line))
    assert out.points == 39


def test_within_solves_only_turns_whose_bound_the_quick_lines_meet(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """``--within N``: a busy turn is solved only where the bound lies at most N points above
    the quick lines (``quick_gap``). planner-30's turn 31 (a pond line at its bound, 39) is
    solved and written; turn 30 (bound 10, which no quick line reaches) is listed as skipped
    and never solved."""
    from analysis import mine

    record = os.path.join(GAMES, "planner-30.json")
    monkeypatch.setattr(mine, "HERE", str(tmp_path))
    solved: list[int] = []
    real = mine.solve

    def counting(s: GameState, *args: object, **kw: object) -> SolveResult:
        solved.append(len(s.tiles))
        return real(s, *args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(mine, "solve", counting)
    mine.main(["--mid-game", "--records", record, "--at", "30,31", "--limit", "10", "--within", "0"])
    out = capsys.readouterr().out
    assert "turn 30" in out and "skip (bound" in out
    assert len(solved) == 1
    meta = read_json(str(tmp_path / "full-turn-01.json"))["puzzle"]["solver"]
    assert meta["turn"] == 31
    starts = dict(record_turns(record))
    assert mine.quick_gap(starts[31]) == 0 < mine.quick_gap(starts[30])


def _stalled_board() -> GameState:
    """Mini-a covered by both players' own tiles (ten two-space tiles, then the ten one-space
    tiles, R10), developers on one colour class of the hex lattice, so that every triangle holds
    one (R11): three-space tiles are left but none fits while the developers stay, and none
    moves here. The position loads (its material adds up, R1)."""
    import networkx as nx

    from core.actions import RICE, VILLAGE
    from core.hexmap import hex_col, hex_row
    from core.position import position_from_dict

    path = os.path.join(os.path.dirname(__file__), "maps", "mini-a.txt")
    s = GameState.new(2, seed=1, map_spec=path)
    m = s.map
    central = set(m.central)
    pairs = sorted(tuple(sorted(e)) for e in nx.max_weight_matching(
        nx.Graph([(a, b) for a, b in m.pairs if {a, b} <= central]), maxcardinality=True))[:10]
    for a, b in pairs:
        s.lay_tile(((a, VILLAGE), (b, RICE)))
    singles = [RICE] * 6 + [VILLAGE] * 4
    bare = [h for h in m.central if s.level[h] == 0]
    for h, terrain in zip(bare + [a for a, _ in pairs], singles):
        s.lay_tile(((h, terrain),))
    for p in s.players:
        p.doubles = p.rice = p.villages = 0

    def colour(h: int) -> int:  # axial coordinates of an odd-row-right offset grid
        r, c = hex_row(h), hex_col(h)
        return (c - (r - (r & 1)) // 2 - r) % 3

    block = next(k for k in range(3) if all(any(colour(h) == k for h in t) for t in m.triangles))
    for i, h in enumerate(h for h in m.central if colour(h) == block):
        s.dev[h] = i % 2
        s.players[i % 2].developers_off -= 1
    s = position_from_dict(position_to_dict(s))
    assert s.find_placement(99) is None and s.triples > 0 and not any(s.level[h] == 0 for h in central)
    return s


def test_r40_a_watched_stalled_game_is_adjudicated_ends_and_its_record_replays(tmp_path: Path) -> None:
    """A game whose players can place no tile and never move (R8 lapses every turn) would never
    reach R40's end; the miner's games, like tournaments, are adjudicated after three idle
    rounds (``Game.apply_watching_stall``): the last round follows and the game ends. Its saved
    record gives the same turn starts, the adjudication replayed."""
    from itertools import islice

    from analysis.mine import indexed_record_turns, turn_starts
    from core.actions import End
    from core.game import STALL_ROUNDS, Game
    from core.record import save_record

    g = Game(_stalled_board())
    turns = [(t, position_to_dict(s)) for t, s in turn_starts(g, lambda s: End(), Game.apply_watching_stall)]
    assert g.is_terminal() and g.adjudication is not None
    assert len(turns) == STALL_ROUNDS * 2 + 1  # three idle rounds, then the other's last turn
    path = str(tmp_path / "stalled.json")
    save_record(g.record(), path, g)
    assert [(t, position_to_dict(s)) for t, _, s in indexed_record_turns(path)] == turns
    stuck = Game(_stalled_board())
    assert len(list(islice(turn_starts(stuck, lambda s: End()), 30))) == 30 and not stuck.is_terminal()


class _Mined(TypedDict):
    id: str
    best: int
    position: dict[str, object]


def _mined(tmp: Path, monkeypatch: pytest.MonkeyPatch,
           workers: int) -> dict[tuple[str, int], _Mined]:
    from analysis import mine

    tmp.mkdir()
    monkeypatch.setattr(mine, "HERE", str(tmp))
    records = [os.path.join(GAMES, g) for g in ("planner-705.json", "planner-707.json")]
    mine.main(["--mid-game", "--records", *records, "--at", "26", "--limit", "10", "--workers", str(workers)])
    out: dict[tuple[str, int], _Mined] = {}
    for f in sorted(tmp.glob("full-turn-*.json")):
        d = read_json(str(f))
        src = d["puzzle"]["solver"]
        key = (os.path.basename(str(src["record"])), int(src["turn"]))
        out[key] = {"id": d["puzzle"]["id"], "best": d["puzzle"]["best"],
                    "position": {k: v for k, v in d.items() if k != "puzzle"}}
    return out


def test_the_miner_on_two_workers_writes_what_one_writes_under_distinct_ids(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``--workers 2`` mines a game per process; the puzzles are written by the parent alone,
    so each turn found gets its own free id, and the same turns are found with the same best as
    in one process (turn 26 of planner-705, 36 points, and of planner-707, 27: full-turn-91
    and -92, each proved in about half a second)."""
    one = _mined(tmp_path / "one", monkeypatch, 1)
    two = _mined(tmp_path / "two", monkeypatch, 2)
    assert {k: v["best"] for k, v in one.items()} == {("planner-705.json", 26): 36, ("planner-707.json", 26): 27}
    assert {k: (v["best"], v["position"]) for k, v in two.items()} == {
        k: (v["best"], v["position"]) for k, v in one.items()}
    assert sorted(v["id"] for v in two.values()) == ["full-turn-01", "full-turn-02"]


def test_r40_the_miners_planner_games_are_played_through_the_stall_watch(monkeypatch: pytest.MonkeyPatch) -> None:
    """``planner_turns`` plays every action through ``Game.apply_watching_stall`` (a stalled
    game is adjudicated, as above); the players are swapped for random ones to keep it quick."""
    from itertools import islice

    from analysis import mine, players
    from core.game import Game

    watched: list[int] = []
    real = Game.apply_watching_stall

    def watching(g: Game, a: object) -> None:
        watched.append(len(g.actions))
        real(g, a)  # type: ignore[arg-type]

    monkeypatch.setattr(Game, "apply_watching_stall", watching)
    make = players.make_player
    monkeypatch.setattr(players, "make_player", lambda name, seed=0: make("random", seed))
    starts = list(islice(mine.planner_turns(3), 4))
    assert [t for t, _ in starts] == [1, 2, 3, 4]
    assert watched and watched == list(range(len(watched)))  # every action so far, in order
