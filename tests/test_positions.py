"""Position files (notation.md): load, validate, save; every refusal names its field."""

from __future__ import annotations

import copy
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from core import position
from core.errors import PositionError
from core.position import (
    load_position,
    position_from_dict,
    position_to_dict,
    save_position,
    write_json_atomic,
)
from core.state import GameState
from tests.helpers import H, build, play


def rich() -> GameState:
    """Tiles of every size, developers of both players, a palace, placed irrigation."""
    return build(tiles=["G6v G5r H5r", "G7v H7r", "I8v", "B6v A6r B5r"],
                 developers={"G5": 0, "H7": 1, "A6": 1}, palaces={"G6": 2}, irrigation=["E8"],
                 scores=[3, 1])


def rich_dict() -> dict[str, Any]:
    return position_to_dict(rich())


# ------------------------------------------------------------------ round trips

def test_new_game_round_trips_through_the_dict() -> None:
    for n in (2, 3, 4):
        s = GameState.new(n, seed=11)
        d = position_to_dict(s)
        assert position_to_dict(position_from_dict(copy.deepcopy(d))) == d


def test_rich_position_save_load_round_trip(tmp_path: Path) -> None:
    s = rich()
    play(s, "tile F7v F6r E7r; enter B6; irrigate K8; token; draw deck")
    p = tmp_path / "p.json"
    save_position(s, str(p))
    t = load_position(str(p))
    assert position_to_dict(t) == position_to_dict(s)
    assert t.level == s.level and t.terrain == s.terrain and t.top == s.top
    assert t.tiles == s.tiles and t.dev == s.dev and t.palace == s.palace
    assert t.irrigated == s.irrigated
    q = tmp_path / "q.json"
    save_position(t, str(q))
    assert p.read_bytes() == q.read_bytes()


def test_turn_in_progress_round_trips() -> None:
    s = build(tiles=["G6v G7r", "F6v F5r"], developers={"G6": 0}, palaces={"F6": 4},
              palaces_changed=["F6"], ap=3, token_used=True, tile_placed=False)
    d = position_to_dict(s)
    assert d["turn"] == {"ap": 3, "token_used": True, "tile_placed": False, "cards_drawn": 0,
                         "palaces_changed": ["F6"]}
    assert position_to_dict(position_from_dict(copy.deepcopy(d))) == d


def test_position_file_has_the_documented_keys() -> None:
    d = rich_dict()
    for key in ("format", "version", "map", "to_move", "players", "turn", "last_round", "supply",
                "cards", "tiles", "developers", "palaces", "irrigation"):
        assert key in d
    assert d["format"] == "java-position" and d["map"] == "java-centre"
    assert d["tiles"][0] == {"hexes": {"G6": "village", "G5": "rice", "H5": "rice"}}
    assert d["developers"] == {"A6": 1, "G5": 0, "H7": 1}
    assert d["palaces"] == {"G6": {"value": 2, "festival_held": False}}
    assert d["irrigation"] == ["E8"]
    assert set(d["players"][0]) >= {"name", "score", "tokens", "doubles", "rice", "villages",
                                    "developers_off", "hand", "final_counted"}


def test_unknown_keys_are_ignored() -> None:
    d = rich_dict()
    d["comment"] = "hello"
    d["players"][0]["colour"] = "red"
    position_from_dict(d)


def test_a_map_file_next_to_the_position(tmp_path: Path) -> None:
    (tmp_path / "tiny.txt").write_text("  L L\n L . L\n  L L\n", encoding="utf-8")
    d = position_to_dict(GameState.new(2, seed=1))
    d["map"] = "tiny.txt"
    d["tiles"] = [{"hexes": {"B2": "village", "A2": "rice"}}]
    d["players"][0]["doubles"] = 4
    p = tmp_path / "p.json"
    p.write_text(json.dumps(d), encoding="utf-8")
    s = load_position(str(p))
    assert s.level[H("B2")] == 1 and len(s.map.central) == 1


# ------------------------------------------------------------------ saving is atomic

def test_save_writes_a_temporary_file_and_renames_it(tmp_path: Path, monkeypatch) -> None:
    calls = []
    real = os.replace

    def spy(src: str, dst: str) -> None:
        calls.append((os.path.dirname(src), os.path.basename(dst)))
        assert json.loads(Path(src).read_text())["format"] == "java-position"
        real(src, dst)

    monkeypatch.setattr(position.os, "replace", spy)
    save_position(rich(), str(tmp_path / "p.json"))
    assert calls == [(str(tmp_path), "p.json")]
    assert os.listdir(tmp_path) == ["p.json"]


def test_a_failed_save_leaves_the_old_file_whole(tmp_path: Path, monkeypatch) -> None:
    p = tmp_path / "p.json"
    save_position(rich(), str(p))
    before = p.read_bytes()

    def broken(fd: int) -> None:  # the disk fills up while the new file is written
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(position.os, "fsync", broken)
    with pytest.raises(OSError):
        save_position(GameState.new(4, seed=3), str(p))
    assert p.read_bytes() == before
    assert os.listdir(tmp_path) == ["p.json"]


def test_write_json_atomic_replaces_the_file(tmp_path: Path) -> None:
    p = tmp_path / "x.json"
    write_json_atomic(str(p), {"a": 1})
    write_json_atomic(str(p), {"a": 2})
    assert json.loads(p.read_text()) == {"a": 2}


def test_a_saved_file_gets_the_usual_permissions_not_the_temporary_files(tmp_path: Path,
                                                                         monkeypatch) -> None:
    """A new file is 0666 less the umask, as any program's would be (the temporary file it is
    renamed from is private, 0600); a file saved again keeps the permissions it had. The umask
    is fixed at 022 here so that 0600 can never pass for the right answer."""
    monkeypatch.setattr(position, "_UMASK", 0o022)
    p = tmp_path / "x.json"
    write_json_atomic(str(p), {"a": 1})
    assert p.stat().st_mode & 0o777 == 0o644
    os.chmod(p, 0o640)
    save_position(rich(), str(p))
    assert p.stat().st_mode & 0o777 == 0o640


# ------------------------------------------------------------------ refusals

def at(d: Any, path: tuple[Any, ...]) -> tuple[Any, Any]:
    for k in path[:-1]:
        d = d[k]
    return d, path[-1]


def delete(*path: Any) -> Callable[[dict], None]:
    def f(d: dict) -> None:
        c, k = at(d, path)
        del c[k]
    return f


def put(*path_and_value: Any) -> Callable[[dict], None]:
    *path, value = path_and_value

    def f(d: dict) -> None:
        c, k = at(d, tuple(path))
        c[k] = value
    return f


def both(*fs: Callable[[dict], None]) -> Callable[[dict], None]:
    def f(d: dict) -> None:
        for g in fs:
            g(d)
    return f


MISSING = [
    ("map",), ("players",), ("to_move",), ("turn",), ("turn", "ap"), ("turn", "token_used"),
    ("turn", "palaces_changed"), ("supply",), ("supply", "triples"), ("supply", "irrigation"),
    ("supply", "palaces"), ("supply", "palaces", "10"), ("cards",), ("cards", "deck"),
    ("cards", "discard"), ("tiles",), ("developers",), ("palaces",), ("irrigation",),
    ("players", 0, "name"), ("players", 0, "hand"), ("players", 1, "final_counted"),
    ("players", 1, "developers_off"), ("palaces", "G6", "value"),
    ("palaces", "G6", "festival_held"),
]


def field_name(path: tuple[Any, ...]) -> str:
    out = ""
    for k in path:
        out += f"[{k}]" if isinstance(k, int) else (f".{k}" if out else k)
    return out


@pytest.mark.parametrize("path", MISSING, ids=field_name)
def test_a_missing_key_is_refused_naming_it(path: tuple[Any, ...]) -> None:
    d = rich_dict()
    delete(*path)(d)
    with pytest.raises(PositionError) as e:
        position_from_dict(d)
    assert f"{field_name(path)}: missing required key" in str(e.value)


REFUSALS: list[tuple[str, Callable[[dict], None], str]] = [
    # wrong types
    ("to_move as text", put("to_move", "0"), "to_move: expected an integer"),
    ("score as float", put("players", 0, "score", 1.5), "players[0].score: expected an integer"),
    ("tokens as bool", put("players", 0, "tokens", True), "players[0].tokens: expected an integer"),
    ("token_used as int", put("turn", "token_used", 1), "turn.token_used: expected true or false"),
    ("tiles as object", put("tiles", {}), "tiles: expected a list"),
    ("developers as list", put("developers", []), "developers: expected an object"),
    ("hand as text", put("players", 0, "hand", "D"), "players[0].hand: expected a list"),
    ("map as number", put("map", 3), "map: expected a string"),
    ("players as text", put("players", "x"), "players: expected a list"),
    ("player as list", put("players", 1, []), "players[1]: expected an object"),
    ("tile as text", put("tiles", 0, "G6"), "tiles[0].hexes"),
    ("terrain unknown", put("tiles", 0, "hexes", "G6", "forest"), "tiles[0].hexes.G6: terrain"),
    ("terrain as list", put("tiles", 0, "hexes", "G6", ["rice"]), "tiles[0].hexes.G6: terrain"),
    ("terrain as object", put("tiles", 0, "hexes", "G6", {}), "tiles[0].hexes.G6: terrain"),
    ("palace as number", put("palaces", "G6", 2), "palaces.G6: expected an object"),
    ("card unknown", put("players", 0, "hand", 0, "X"), "players[0].hand[0]"),
    ("card as list", put("cards", "deck", 0, ["D"]), "cards.deck[0]"),
    ("face-up unknown", put("cards", "face_up", "DMP"), "cards.face_up"),
    ("last_round as list", put("last_round", [1]), "last_round: expected null or an object"),
    ("format", put("format", "chess"), "format:"),
    ("seven players", put("players", [{}] * 7), "players: Java is for 2 to 4 players"),
    # unknown hexes
    ("developer off the map", put("developers", "Z9", 0), "developers: hex Z9 is not on the map"),
    ("developer not a hex", put("developers", "XX", 0), "developers: 'XX' is not a hex name"),
    ("tile off the map", put("tiles", 2, "hexes", {"A1": "village"}), "tiles[2].hexes: hex A1"),
    ("irrigation off the map", put("irrigation", ["E8", "E99"]), "irrigation[1]"),
    ("palace off the map", put("palaces", "Q1", {"value": 2, "festival_held": False}),
     "palaces: hex Q1"),
    ("palaces_changed off the map", put("turn", "palaces_changed", ["A1"]),
     "turn.palaces_changed[0]: hex A1"),
    # player indexes
    ("to_move out of range", put("to_move", 2), "to_move: player index 2 out of range 0..1"),
    ("to_move negative", put("to_move", -1), "to_move: player index -1"),
    ("developer owner out of range", put("developers", "G5", 2), "developers.G5: player index 2"),
    ("developer owner as bool", put("developers", "G5", True), "developers.G5: player index"),
    ("last_round index", put("last_round", {"remaining": [2]}), "last_round.remaining[0]"),
    # physically impossible boards
    ("floating tile", lambda d: d["tiles"].append({"hexes": {"G6": "village", "F6": "rice"}}),
     "tiles[4]: floating tile"),
    ("three hexes not a triangle", put("tiles", 0, "hexes", {"G6": "village", "G5": "rice",
                                                             "G7": "rice"}), "tiles[0]:"),
    ("empty tile", put("tiles", 2, "hexes", {}), "tiles[2]:"),
    ("one-space tile on the rim", lambda d: d["tiles"].append({"hexes": {"A6": "rice"}}), "tiles[4]:"),
    ("tile on printed irrigation", put("tiles", 2, "hexes", {"G10": "village"}),
     "tiles[2]: covers the printed irrigation space G10"),
    ("developer on a palace", put("developers", "G6", 0), "palaces.G6: two pieces"),
    ("irrigation on a tile", put("irrigation", ["E8", "G7"]), "irrigation[1]: two pieces on G7"),
    ("irrigation twice", put("irrigation", ["E8", "E8"]), "irrigation[1]: two pieces on E8"),
    ("irrigation on a border space", put("irrigation", ["B7"]), "irrigation[0]"),
    ("developer on bare board", put("developers", "F9", 0), "developers.F9: a developer stands only"),
    ("developer on irrigation", put("developers", "E8", 0), "developers.E8"),
    # the same hex spelled twice, with counts that would otherwise add up
    ("two developers on one hex", both(put("developers", "g5", 1),
                                       put("players", 0, "developers_off", 12),
                                       put("players", 1, "developers_off", 9)),
     "developers.g5: two pieces on G5"),
    ("two palaces on one hex", both(put("palaces", "g6", {"value": 4, "festival_held": False}),
                                    put("supply", "palaces", "4", 6)),
     "palaces.g6: two pieces on G6"),
    ("palace on rice", put("palaces", "H5", {"value": 2, "festival_held": False}),
     "palaces.H5: a palace stands on a village hex"),
    ("palace value", put("palaces", "G6", "value", 3), "palaces.G6.value: must be 2, 4, 6, 8 or 10"),
    ("two palaces in one group", put("palaces", "G7", {"value": 2, "festival_held": False}),
     "palaces: G6, G7 lie in one village group"),
    ("palaces_changed without palace", put("turn", "palaces_changed", ["G7"]),
     "turn.palaces_changed: no palace on G7"),
    # counts
    ("tokens above 3", put("players", 0, "tokens", 4), "players[0].tokens: must be 0..3"),
    ("negative rice", put("players", 0, "rice", -1), "players[0].rice: must not be negative"),
    ("ap above 7", put("turn", "ap", 8), "turn.ap: at most 7"),
    ("three cards drawn", put("turn", "cards_drawn", 3), "turn.cards_drawn: must be 0..2"),
    ("palace supply above the box", put("supply", "palaces", "2", 7), "supply.palaces.2: must be 0..6"),
    # material that does not add up
    ("three-space tiles", put("supply", "triples", 56), "supply.triples: material does not add up"),
    ("two-space tiles", put("players", 0, "doubles", 5), "players[*].doubles: material"),
    ("one-space villages", put("players", 1, "villages", 3), "players[1].villages: must be 0..2 (R1)"),
    ("one-space rice", put("players", 1, "rice", 2), "players[*].rice: material"),
    ("irrigation tiles", put("supply", "irrigation", 16), "supply.irrigation: material"),
    ("developers", put("players", 1, "developers_off", 11), "players[1].developers_off: 2 on the board"),
    ("palace pieces", put("supply", "palaces", "2", 6), "supply.palaces.2: 1 palaces of value 2"),
    ("a card missing", lambda d: d["cards"]["deck"].pop(), "cards: hands, face_up, deck and discard"),
    ("a card too many", lambda d: d["cards"]["discard"].append("D"), "cards: hands"),
    ("face-up missing", delete("cards", "face_up"), "cards: hands"),
]


@pytest.mark.parametrize("mutate,field", [(m, f) for _, m, f in REFUSALS],
                         ids=[name for name, _, _ in REFUSALS])
def test_refusals_name_the_field(mutate: Callable[[dict], None], field: str) -> None:
    d = rich_dict()
    mutate(d)
    with pytest.raises(PositionError) as e:
        position_from_dict(d)
    msg = str(e.value)
    assert field in msg
    assert "\n" not in msg


def test_the_file_must_hold_an_object() -> None:
    with pytest.raises(PositionError, match="must hold a JSON object"):
        position_from_dict([1, 2])


def test_an_unknown_map_is_refused() -> None:
    d = rich_dict()
    d["map"] = "no-such-map"
    with pytest.raises(PositionError, match="^map: map 'no-such-map': cannot read it"):
        position_from_dict(d)


def test_a_festival_that_cannot_be_read_is_refused() -> None:
    d = rich_dict()
    d["festival"] = "garbage"
    with pytest.raises(PositionError, match="festival"):
        position_from_dict(d)


# ------------------------------------------------------------------ files

def test_invalid_json_names_file_line_and_column(tmp_path: Path) -> None:
    p = tmp_path / "bad.json"
    p.write_text('{\n  "format": "java-position",\n  "map": oops\n}\n', encoding="utf-8")
    with pytest.raises(PositionError) as e:
        load_position(str(p))
    assert str(e.value).startswith(f"{p}: invalid JSON at line 3, column 10")


def test_file_errors(tmp_path: Path) -> None:
    with pytest.raises(PositionError, match="no such file"):
        load_position(str(tmp_path / "nope.json"))
    with pytest.raises(PositionError, match="is a directory"):
        load_position(str(tmp_path))
    b = tmp_path / "bin.json"
    b.write_bytes(b"\xff\xfe\xfa")
    with pytest.raises(PositionError, match="not a text file"):
        load_position(str(b))


def test_load_errors_name_the_file_and_the_field(tmp_path: Path) -> None:
    d = rich_dict()
    d["to_move"] = 9
    p = tmp_path / "p.json"
    p.write_text(json.dumps(d), encoding="utf-8")
    with pytest.raises(PositionError) as e:
        load_position(str(p))
    assert str(e.value) == f"{p}: to_move: player index 9 out of range 0..1"
