"""Hand-built positions for the festival, card and end-of-game tests (issue 3).

``city_position`` makes a validated position (``position_from_dict``) with one city: ten
two-space tiles ``F4v E4r`` … ``F13v E13r`` give the village row F4–F13 (size 10) with the
palace on F4, developers where asked, chosen hands and face-up card; every other card lies in
the deck in a fixed order, so the material of R1/R2 adds up.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from core.actions import CARD_KINDS, parse_actions
from core.hexmap import parse_hex
from core.position import position_from_dict, position_to_dict
from core.state import GameState

CITY = [f"F{k}" for k in range(4, 14)]
PALACE = "F4"


def city_dict(
    *,
    players: int = 4,
    to_move: int = 0,
    face_up: str = "DM",
    hands: list[list[str]] | None = None,
    developers: dict[str, int] | None = None,
    palace_value: int = 8,
    festival_held: bool = False,
    tile_placed: bool = True,
    discard: list[str] | None = None,
) -> dict[str, Any]:
    d = position_to_dict(GameState.new(players, seed=1))
    d["to_move"] = to_move
    d["turn"] = {"ap": 6, "token_used": False, "tile_placed": tile_placed, "cards_drawn": 0,
                 "palaces_changed": []}
    tiles, left = [], 10
    for p in d["players"]:
        take = min(p["doubles"], left)
        p["doubles"] -= take
        left -= take
    assert left == 0
    for k in range(4, 14):
        tiles.append({"hexes": {f"F{k}": "village", f"E{k}": "rice"}})
    d["tiles"] = tiles
    devs = dict(developers or {})
    d["developers"] = devs
    for i, p in enumerate(d["players"]):
        p["developers_off"] = 12 - sum(1 for o in devs.values() if o == i)
    d["palaces"] = {PALACE: {"value": palace_value, "festival_held": festival_held}}
    d["supply"]["palaces"][str(palace_value)] -= 1
    hands = hands if hands is not None else [[] for _ in range(players)]
    for p, h in zip(d["players"], hands):
        p["hand"] = list(h)
    used = Counter(c for h in hands for c in h) + Counter([face_up]) + Counter(discard or [])
    rest = [k for k in CARD_KINDS for _ in range(5 - used[k])]
    d["cards"] = {"face_up": face_up, "deck": rest, "discard": list(discard or [])}
    return d


def city_position(**kw: Any) -> GameState:
    return position_from_dict(city_dict(**kw))


def play(s: GameState, text: str) -> GameState:
    """Push each action of ``a; b; c`` in turn (raises on the first illegal one)."""
    for a in parse_actions(text):
        s.push(a)
    return s


def H(name: str) -> int:
    return parse_hex(name)
