"""Position files (notation.md): load, validate, save atomically.

Validation refuses with one message naming the field: invalid JSON, missing or mistyped keys,
unknown hexes, player indexes out of range, floating tiles, two pieces on one hex, material that
does not add up. The board is rebuilt by replaying ``tiles`` in order, so levels, terrain and the
tile on top of each hex always agree with the list.
"""

from __future__ import annotations

import json
import os
import re
import stat
import tempfile
import time
from collections import Counter
from typing import Any

from core.actions import CARD_KINDS, RICE, TERRAIN_NAME, VILLAGE
from core.errors import KratonError, NotationError, PositionError, shown, shown_path
from core.hexmap import PRINTED_IRRIGATION, hex_name, load_map, parse_hex
from core.legality import PALACE_VALUES, tile_shape_error
from core.reachable import check_reachable
from core.safefile import read_json_file
from core.state import (
    DEVELOPERS,
    DOUBLES,
    IRRIGATION_TILES,
    PALACE_SUPPLY,
    RICE_SINGLES,
    TOKENS,
    TRIPLES,
    VILLAGE_SINGLES,
    GameState,
    Player,
    Turn,
)

FORMAT = "java-position"
MAX_NAME = 40
# Far above any reachable score: 40 palace pieces give at most 130 points (R29), 153 spaces
# of ponds 459 (R38), festivals 5 per palace change (R34), one final count 400 (R41).
MAX_SCORE = 9999


class SaveRefused(KratonError):
    """A save target that must not be replaced (a FIFO, a device, a folder)."""
_TERRAIN = {"rice": RICE, "village": VILLAGE}


def _get(d: dict[str, Any], key: str, typ: type | tuple[type, ...], where: str) -> Any:
    if key not in d:
        raise PositionError(f"{where}{key}: missing required key")
    v = d[key]
    ok = isinstance(v, typ) and not (isinstance(v, bool) and typ in (int, (int,)))
    if not ok:
        want = {int: "an integer", str: "a string", bool: "true or false", list: "a list",
                dict: "an object"}.get(typ if isinstance(typ, type) else typ[0], str(typ))
        raise PositionError(f"{where}{key}: expected {want}, got {json.dumps(v)[:40]}")
    return v


def _nonneg(v: int, field: str) -> int:
    if v < 0:
        raise PositionError(f"{field}: must not be negative (got {shown(v)})")
    return v


def _hex(s: GameState, text: Any, field: str) -> int:
    if not isinstance(text, str):
        raise PositionError(f"{field}: expected a hex name, got {json.dumps(text)[:40]}")
    try:
        h = parse_hex(text)
    except NotationError as e:
        raise PositionError(f"{field}: {e}") from None
    if not s.map.on_map(h):
        raise PositionError(f"{field}: hex {text} is not on the map '{s.map.name}' (R4)")
    return h


def _card(text: Any, field: str) -> str:
    if not isinstance(text, str) or text not in CARD_KINDS:
        raise PositionError(f"{field}: {json.dumps(text)[:20]} is not a card kind ({', '.join(CARD_KINDS)})")
    return text


def _own(pd: dict[str, Any], key: str, most: int, w: str, rule: str = "R1") -> int:
    """A count of the player's own material: 0..``most`` (the box holds no more)."""
    v = _nonneg(_get(pd, key, int, w), w + key)
    if v > most:
        raise PositionError(f"{w}{key}: must be 0..{most} ({rule}), got {shown(v)}")
    return int(v)


def _whole(d: dict[str, Any], key: str, lo: int | None) -> int:
    """An optional whole number (0 where absent): refused, not read as 0, where it is of
    another type (a save would then write the 0 back)."""
    v = d.get(key, 0)
    if not isinstance(v, int) or isinstance(v, bool) or (lo is not None and v < lo):
        what = "a whole number" if lo is None else f"a whole number, at least {lo}"
        raise PositionError(f"{key}: {what}, got {shown(json.dumps(v))}")
    return v


def _player(pd: dict[str, Any], w: str) -> Player:
    name = _get(pd, "name", str, w)
    if not name.strip() or len(name) > MAX_NAME or not name.isprintable():
        raise PositionError(f"{w}name: 1 to {MAX_NAME} printable characters, got '{shown(name)}'")
    p = Player(name)
    p.score = _own(pd, "score", MAX_SCORE, w, "R29, R34, R38, R41: no game scores more")
    p.tokens = _own(pd, "tokens", TOKENS, w, "R7")
    p.doubles = _own(pd, "doubles", DOUBLES, w)
    p.rice = _own(pd, "rice", RICE_SINGLES, w)
    p.villages = _own(pd, "villages", VILLAGE_SINGLES, w)
    p.developers_off = _own(pd, "developers_off", DEVELOPERS, w)
    hand = _get(pd, "hand", list, w)
    _at_most(hand, 30, f"{w}hand", "R2: 30 cards")
    p.hand = [_card(c, f"{w}hand[{j}]") for j, c in enumerate(hand)]
    p.final_counted = _get(pd, "final_counted", bool, w)
    return p


def _at_most(items: list[Any] | dict[str, Any], most: int, field: str, why: str) -> None:
    """A list longer than the material allows is refused before any of it is read."""
    if len(items) > most:
        raise PositionError(f"{field}: {len(items)} entries, more than the game has ({why})")


def position_from_dict(d: Any, base_dir: str | None = None, *, r13: bool = True) -> GameState:
    """Build and validate a state from parsed JSON. ``r13=False`` lets tiles lie exactly on
    tiles of their size (R13): only for the rule tests' builder, which stacks one-space tiles
    into towers to set heights cheaply; every file read is checked."""
    if not isinstance(d, dict):
        raise PositionError("the file must hold a JSON object")
    fmt = d.get("format", FORMAT)
    if fmt not in (FORMAT, "java-game"):
        raise PositionError(f"format: expected '{FORMAT}', got {json.dumps(fmt)[:40]}")
    map_spec = _get(d, "map", str, "")
    try:
        hexmap = load_map(map_spec, base_dir)
    except KratonError as e:
        raise PositionError(f"map: {e}") from None
    plist = _get(d, "players", list, "")
    if not 2 <= len(plist) <= 4:
        raise PositionError(f"players: Java is for 2 to 4 players (R1), got {len(plist)}")
    players: list[Player] = []
    for i, pd in enumerate(plist):
        w = f"players[{i}]."
        if not isinstance(pd, dict):
            raise PositionError(f"players[{i}]: expected an object")
        p = _player(pd, w)
        if any(q.name == p.name for q in players):  # messages name players: they must differ
            raise PositionError(f"{w}name: '{shown(p.name)}' is another player's name too")
        players.append(p)
    s = GameState(hexmap, players)
    n = len(players)
    s.to_move = _get(d, "to_move", int, "")
    if not 0 <= s.to_move < n:
        raise PositionError(f"to_move: player index {s.to_move} out of range 0..{n - 1}")
    s.turn = _turn(s, _get(d, "turn", dict, ""))
    s.last_round = _last_round(d.get("last_round"), n)
    sd = _get(d, "supply", dict, "")
    s.triples = _nonneg(_get(sd, "triples", int, "supply."), "supply.triples")
    s.irrigation_supply = _nonneg(_get(sd, "irrigation", int, "supply."), "supply.irrigation")
    pal = _get(sd, "palaces", dict, "supply.")
    for v in PALACE_VALUES:
        c = _get(pal, str(v), int, "supply.palaces.")
        if not 0 <= c <= PALACE_SUPPLY[v]:
            raise PositionError(f"supply.palaces.{v}: must be 0..{PALACE_SUPPLY[v]} (R1), got {c}")
        s.palace_supply[v] = c
    cd = _get(d, "cards", dict, "")
    fu = cd.get("face_up")
    s.face_up = None if fu is None else _card(fu, "cards.face_up")
    for key in ("deck", "discard"):
        cards = _get(cd, key, list, "cards.")
        _at_most(cards, 30, f"cards.{key}", "R2: 30 cards")
        setattr(s, key, [_card(c, f"cards.{key}[{j}]") for j, c in enumerate(cards)])
    _load_board(s, d, r13)
    s.seed = _whole(d, "seed", lo=None)
    s.reshuffles = _whole(d, "reshuffles", lo=0)
    if d.get("festival") is not None:
        from core import festival

        s.festival = festival.from_json(s, d["festival"])
    _check_material(s)
    check_reachable(s)
    return s


def _turn(s: GameState, td: dict[str, Any]) -> Turn:
    changed = _get(td, "palaces_changed", list, "turn.")
    _at_most(changed, 7, "turn.palaces_changed", "R29: one change per palace, 1 AP each")
    t = Turn(
        ap=_nonneg(_get(td, "ap", int, "turn."), "turn.ap"),
        token_used=_get(td, "token_used", bool, "turn."),
        tile_placed=_get(td, "tile_placed", bool, "turn."),
        cards_drawn=_get(td, "cards_drawn", int, "turn."),
        palaces_changed=[_hex(s, h, f"turn.palaces_changed[{j}]") for j, h in enumerate(changed)],
    )
    if t.ap > 7:
        raise PositionError(f"turn.ap: at most 7 AP in a turn (R7), got {shown(t.ap)}")
    if not 0 <= t.cards_drawn <= 2:
        raise PositionError(f"turn.cards_drawn: must be 0..2 (R36), got {shown(t.cards_drawn)}")
    return t


def _last_round(lr: Any, n: int) -> list[int] | None:
    if lr is None:
        return None
    if not isinstance(lr, dict):
        raise PositionError("last_round: expected null or an object")
    rem = _get(lr, "remaining", list, "last_round.")
    _at_most(rem, n - 1, "last_round.remaining", "R40: the players after the one who ended it")
    for j, r in enumerate(rem):
        if not isinstance(r, int) or isinstance(r, bool) or not 0 <= r < n:
            raise PositionError(f"last_round.remaining[{j}]: player index {shown(r)} out of range 0..{n - 1}")
    return list(rem)


def _load_board(s: GameState, d: dict[str, Any], r13: bool = True) -> None:
    m = s.map
    tiles = _get(d, "tiles", list, "")
    _at_most(tiles, TRIPLES + 10 * s.n_players, "tiles", "R1: 56 three-space tiles and 10 of each player's own")
    for key, most, reason in (("irrigation", IRRIGATION_TILES, "R1: 16 irrigation tiles"),
                           ("developers", DEVELOPERS * s.n_players, "R1: 12 developers each"),
                           ("palaces", sum(PALACE_SUPPLY.values()), "R1: 40 palace pieces")):
        _at_most(_get(d, key, dict if key != "irrigation" else list, ""), most, key, reason)
    for i, td in enumerate(tiles):
        w = f"tiles[{i}]"
        if not isinstance(td, dict) or not isinstance(td.get("hexes"), dict):
            raise PositionError(f"{w}.hexes: missing required key (an object hex -> terrain)")
        _at_most(td["hexes"], 3, f"{w}.hexes", "R10: a tile has 1 to 3 hexes")
        cells = []
        for name, ter in td["hexes"].items():
            h = _hex(s, name, f"{w}.hexes")
            if not isinstance(ter, str) or ter not in _TERRAIN:
                raise PositionError(f"{w}.hexes.{shown(name)}: terrain must be 'rice' or 'village', got {json.dumps(ter)[:20]}")
            cells.append((h, _TERRAIN[ter]))
        cells_t = tuple(sorted(cells, key=lambda c: (-c[1], c[0])))
        why = tile_shape_error(s, cells_t)
        if why:
            raise PositionError(f"{w}: {why} (R10)")
        if not any(m.is_central(h) for h, _ in cells_t) or (len(cells_t) == 1 and not m.is_central(cells_t[0][0])):
            raise PositionError(f"{w}: a tile needs a hex in Java-Centre; one-space tiles never overhang (R14)")
        levels = {s.level[h] for h, _ in cells_t}
        if len(levels) > 1:
            raise PositionError(f"{w}: floating tile, its hexes lie at levels {sorted(levels)} (R12)")
        for h, _ in cells_t:
            if m.kind[h] == PRINTED_IRRIGATION:
                raise PositionError(f"{w}: covers the printed irrigation space {hex_name(h)} (R11)")
        tops = {s.top[h] for h, _ in cells_t}
        if r13 and len(tops) == 1 and (t := tops.pop()) >= 0 and len(s.tiles[t]) == len(cells_t):
            raise PositionError(f"{w}: lies exactly on tiles[{t}], a tile of its own size (R13)")
        s.lay_tile(cells_t)
    for j, name in enumerate(_get(d, "irrigation", list, "")):
        h = _hex(s, name, f"irrigation[{j}]")
        if not m.is_central(h) or m.kind[h] == PRINTED_IRRIGATION or m.border_cost[h]:
            raise PositionError(f"irrigation[{j}]: {shown(name)} is not a central, non-border, unprinted space (R37)")
        if s.level[h] or s.irrigated[h]:
            raise PositionError(f"irrigation[{j}]: two pieces on {shown(name)} (a tile or irrigation is already there)")
        s.irrigated[h] = True
        s.placed_irrigation.append(h)
    n = s.n_players
    for name, owner in _get(d, "developers", dict, "").items():
        h = _hex(s, name, "developers")
        if not isinstance(owner, int) or isinstance(owner, bool) or not 0 <= owner < n:
            raise PositionError(f"developers.{shown(name)}: player index {json.dumps(owner)[:20]} out of range 0..{n - 1}")
        if s.level[h] == 0:
            raise PositionError(f"developers.{shown(name)}: a developer stands only on land (R26)")
        if s.dev[h] >= 0:  # the same hex spelled twice ('G5', 'g5')
            raise PositionError(f"developers.{shown(name)}: two pieces on {hex_name(h)} (another developer is there)")
        s.dev[h] = owner
    for name, pd in _get(d, "palaces", dict, "").items():
        h = _hex(s, name, "palaces")
        w = f"palaces.{shown(name)}."
        if not isinstance(pd, dict):
            raise PositionError(f"palaces.{shown(name)}: expected an object with value and festival_held")
        v = _get(pd, "value", int, w)
        if v not in PALACE_VALUES:
            raise PositionError(f"{w}value: must be 2, 4, 6, 8 or 10 (R28), got {v}")
        if s.terrain[h] != VILLAGE:
            raise PositionError(f"palaces.{shown(name)}: a palace stands on a village hex (R28)")
        if s.dev[h] >= 0:
            raise PositionError(f"palaces.{shown(name)}: two pieces on one hex (a developer is there too)")
        if s.palace[h]:  # the same hex spelled twice ('G6', 'g6')
            raise PositionError(f"palaces.{shown(name)}: two pieces on {hex_name(h)} (another palace is there)")
        s.palace[h] = v
        s.fest[h] = _get(pd, "festival_held", bool, w)
    for h in s.turn.palaces_changed:
        if not s.palace[h]:
            raise PositionError(f"turn.palaces_changed: no palace on {hex_name(h)}")
    g = s.groups()
    for gi, members in enumerate(g.members):
        ps = [h for h in members if s.palace[h]]
        if len(ps) > 1:
            raise PositionError(
                f"palaces: {', '.join(hex_name(h) for h in ps)} lie in one village group (R15)"
            )


def _check_material(s: GameState) -> None:
    n = s.n_players
    sizes = Counter(len(t) if len(t) > 1 else ("v" if t[0][1] == VILLAGE else "r") for t in s.tiles)
    checks = [
        ("supply.triples", sizes[3] + s.triples, TRIPLES),
        ("players[*].doubles", sizes[2] + sum(p.doubles for p in s.players), DOUBLES * n),
        ("players[*].rice", sizes["r"] + sum(p.rice for p in s.players), RICE_SINGLES * n),
        ("players[*].villages", sizes["v"] + sum(p.villages for p in s.players), VILLAGE_SINGLES * n),
        ("supply.irrigation", len(s.placed_irrigation) + s.irrigation_supply, IRRIGATION_TILES),
    ]
    for field, have, want in checks:
        if have != want:
            raise PositionError(f"{field}: material does not add up: board and supply hold {have}, the game has {want} (R1)")
    for i in range(n):
        on = sum(1 for h in s.map.hexes if s.dev[h] == i)
        if on + s.players[i].developers_off != DEVELOPERS:
            raise PositionError(
                f"players[{i}].developers_off: {on} on the board + {s.players[i].developers_off} off"
                f" is not {DEVELOPERS} (R1)"
            )
    for v in PALACE_VALUES:
        on = sum(1 for h in s.map.hexes if s.palace[h] == v)
        if PALACE_SUPPLY[v] - s.palace_supply[v] < on:
            raise PositionError(f"supply.palaces.{v}: {on} palaces of value {v} on the board but only"
                                f" {PALACE_SUPPLY[v] - s.palace_supply[v]} pieces out of the supply (R1)")
    cards: Counter[str] = Counter(s.deck) + Counter(s.discard)
    cards += Counter(c for p in s.players for c in p.hand)
    if s.face_up:
        cards[s.face_up] += 1
    if s.festival is not None:
        cards += Counter(s.festival.cards_in_play())
    full_deck = Counter({k: 5 for k in CARD_KINDS})
    if cards != full_deck:
        diff = ", ".join(f"{k}: {cards[k]}" for k in CARD_KINDS if cards[k] != 5)
        raise PositionError(f"cards: hands, face_up, deck and discard must hold 5 of each kind (R2); {diff}")


def position_to_dict(s: GameState) -> dict[str, Any]:
    """The position as notation.md's JSON (full information), keys in the documented order."""
    d: dict[str, Any] = {
        "format": FORMAT,
        "version": 1,
        "map": s.map.name,
        "to_move": s.to_move,
        "players": [
            {"name": p.name, "score": p.score, "tokens": p.tokens, "doubles": p.doubles,
             "rice": p.rice, "villages": p.villages, "developers_off": p.developers_off,
             "hand": list(p.hand), "final_counted": p.final_counted}
            for p in s.players
        ],
        "turn": {"ap": s.turn.ap, "token_used": s.turn.token_used, "tile_placed": s.turn.tile_placed,
                 "cards_drawn": s.turn.cards_drawn,
                 "palaces_changed": [hex_name(h) for h in s.turn.palaces_changed]},
        "last_round": None if s.last_round is None else {"remaining": list(s.last_round)},
        "supply": {"triples": s.triples, "irrigation": s.irrigation_supply,
                   "palaces": {str(v): s.palace_supply[v] for v in PALACE_VALUES}},
        "cards": {"face_up": s.face_up, "deck": list(s.deck), "discard": list(s.discard)},
        "tiles": [{"hexes": {hex_name(h): TERRAIN_NAME[t] for h, t in cells}} for cells in s.tiles],
        "developers": {hex_name(h): s.dev[h] for h in s.map.hexes if s.dev[h] >= 0},
        "palaces": {hex_name(h): {"value": s.palace[h], "festival_held": s.fest[h]}
                    for h in s.map.hexes if s.palace[h]},
        "irrigation": [hex_name(h) for h in s.placed_irrigation],
        "seed": s.seed,
        "reshuffles": s.reshuffles,
    }
    if s.festival is not None:
        d["festival"] = s.festival.to_json()
    return d


def read_json(path: str) -> Any:
    """Parse a JSON file within ``core.safefile``'s limits (a regular file of bounded size,
    bounded nesting and integers); errors name the file and, for bad JSON, line and column."""
    try:
        return read_json_file(path)
    except KratonError as e:
        raise PositionError(str(e)) from None


def load_position(path: str) -> GameState:
    """A position file (a game record's start position: see ``core.record.load_any``)."""
    where = shown_path(path)
    try:
        return position_from_dict(read_json(path), os.path.dirname(os.path.abspath(path)))
    except PositionError as e:
        msg = str(e)
        raise PositionError(msg if msg.startswith(where) else f"{where}: {msg}") from None


def _umask() -> int:
    """The process's file-creation mask, read once at import (``os.umask`` can only be read by
    setting it, which is not safe once the app's worker threads run)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


_UMASK = _umask()


TMP_PREFIX = ".kraton-"
STALE_SECONDS = 3600  # a temporary file without a live owner this old is a killed save's


def write_text_atomic(path: str, text: str) -> None:
    """Write to a temporary file in the same folder, then rename: never a half-written file.
    The file keeps the permissions it had, or gets those of any new file (0666 less the
    umask), not the private 0600 of a temporary file.

    A symlink is written through (the file it points to is replaced, the link stays); a FIFO,
    device or directory is refused, never replaced by a regular file. Temporary files of
    earlier saves that were killed are removed. Errors name ``path``, not the temporary file."""
    if _through_a_stream(path):
        raise SaveRefused(f"{shown_path(path)}: not a regular file (a stream such as /dev/stdout:"
                          " its file would be replaced, not written to); refusing to write it")
    target = os.path.realpath(path)
    try:
        st = os.stat(target)
        mode = st.st_mode & 0o7777
        if not stat.S_ISREG(st.st_mode):
            raise SaveRefused(f"{shown_path(path)}: not a regular file (a FIFO, device or folder);"
                              " refusing to replace it")
    except FileNotFoundError:
        mode = 0o666 & ~_UMASK
    folder = os.path.dirname(target)
    remove_stale_temporaries(folder)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f"{TMP_PREFIX}{os.getpid()}-", suffix=".tmp", dir=folder)
    except OSError as e:
        raise OSError(e.errno, e.strerror, path) from None
    try:
        os.fchmod(fd, mode)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, target)
    except BaseException as e:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(e, OSError):
            raise OSError(e.errno, e.strerror, path) from None
        raise


def _through_a_stream(path: str) -> bool:
    """Whether ``path`` leads through /dev or /proc: ``/dev/stdout``, ``/proc/self/fd/1`` or a
    link to one. Such a name resolves to the file a stream writes to (``>> log.txt``), and the
    rename of an atomic save would replace that file, not append to it."""
    p = os.path.abspath(path)
    if os.path.realpath(os.path.dirname(p)).startswith(_STREAM_DIRS):
        return True
    for _ in range(40):  # the links' own chain (realpath would go through the magic ones)
        if p.startswith(_STREAM_DIRS):
            return True
        if not os.path.islink(p):
            return False
        p = os.path.abspath(os.path.join(os.path.dirname(p), os.readlink(p)))
    return False


_STREAM_DIRS = ("/dev/", "/proc/")
# What ``write_text_atomic`` names its temporary files: ``.kraton-PID-`` and mkstemp's random
# part; before the PID was in the name, ``.kraton-`` and mkstemp's eight characters.
_TEMPORARY = re.compile(re.escape(TMP_PREFIX) + r"(?:(\d+)-[A-Za-z0-9_]+|[A-Za-z0-9_]{8})\.tmp")


def remove_stale_temporaries(folder: str) -> None:
    """Remove ``.kraton-PID-XXXXXXXX.tmp`` files whose saving process is gone (and any older
    than an hour, as are the older ``.kraton-XXXXXXXX.tmp`` without a PID): a save killed
    between writing and renaming leaves one behind. Only names of those forms: a file of
    someone else's that merely starts ``.kraton-`` stays."""
    try:
        found = [(n, m.group(1)) for n in os.listdir(folder) if (m := _TEMPORARY.fullmatch(n))]
    except OSError:
        return
    now = time.time()
    for n, pid in found:
        p = os.path.join(folder, n)
        try:
            alive = pid is None or _alive(int(pid))
            if not alive or now - os.lstat(p).st_mtime > STALE_SECONDS:
                os.unlink(p)
        except OSError:
            pass


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True  # this process's own save in another thread
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # exists, owned by someone else
    return True


def write_json_atomic(path: str, data: Any) -> None:
    """``data`` as indented JSON, written atomically (``write_text_atomic``)."""
    write_text_atomic(path, json.dumps(data, indent=2) + "\n")


def save_position(s: GameState, path: str, extra: dict[str, Any] | None = None) -> None:
    d = position_to_dict(s)
    if os.path.isabs(s.map.name):
        # relative to where the file really lands (a symlink is written through)
        d["map"] = os.path.relpath(s.map.name, os.path.dirname(os.path.realpath(path)))
    if extra:
        d.update(extra)
    write_json_atomic(path, d)
