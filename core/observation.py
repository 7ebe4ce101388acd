"""What one player may see (R44): the observation of a position, and full states dealt from it.

Computer players, the app's study view and analysis of a game in progress all go through these,
so that no hidden card (opponents' hands, the deck, the seed that fixes reshuffles) reaches a
player who may not see it.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from core.errors import KratonError
from core.position import position_from_dict, position_to_dict
from core.state import GameState


def observation(s: GameState, player: int) -> dict[str, Any]:
    """The position JSON with what ``player`` may not see removed (R44): opponents' hands become
    ``"hand": null`` with ``"hand_size"``, the deck becomes ``"deck": null`` with ``"deck_size"``,
    and the seed (which fixes every future reshuffle) is dropped. ``"viewer"`` names the player.
    Cards played in a festival are open on the table and stay visible."""
    if not 0 <= player < s.n_players:
        raise KratonError(f"no player {player} in a {s.n_players}-player game")
    d = position_to_dict(s)
    for i, pd in enumerate(d["players"]):
        if i != player:
            pd["hand_size"] = len(pd["hand"])
            pd["hand"] = None
    d["cards"]["deck_size"] = len(d["cards"]["deck"])
    d["cards"]["deck"] = None
    d.pop("seed", None)
    d.pop("reshuffles", None)
    d["viewer"] = player
    return d


def public_view(s: GameState, rng: random.Random) -> GameState:
    """What an onlooker may analyse (R44): a full state with every hand and the deck dealt at
    random from the cards no one has shown (the face-up card, the discard pile and cards
    played in a festival stay). For a hot-seat game looked at from outside it, where no one
    knows whose eyes are on the screen."""
    d = observation(s, 0)
    me = d["players"][0]
    me["hand_size"], me["hand"] = len(me["hand"]), None
    return determinize(d, rng)


def determinize(view: dict[str, Any], rng: random.Random) -> GameState:
    """A full-information state consistent with an observation: the unseen cards (opponents'
    hands and the deck) dealt at random. For computer players that sample hidden information."""
    from core.actions import CARD_KINDS

    d = {k: v for k, v in view.items() if k != "viewer"}
    d["players"] = [dict(p) for p in view["players"]]
    d["cards"] = dict(view["cards"])
    seen: Counter[str] = Counter(c for p in d["players"] if p["hand"] is not None for c in p["hand"])
    seen += Counter(d["cards"]["discard"])
    if d["cards"]["face_up"]:
        seen[d["cards"]["face_up"]] += 1
    if d.get("festival"):
        seen += Counter(c for b in d["festival"]["bids"] for c in b)
    unseen = [k for k in CARD_KINDS for _ in range(5 - seen[k])]
    rng.shuffle(unseen)
    for p in d["players"]:
        if p["hand"] is None:
            k = p.pop("hand_size")
            p["hand"], unseen = unseen[:k], unseen[k:]
    d["cards"].pop("deck_size", None)
    d["cards"]["deck"] = unseen
    d["seed"] = rng.randrange(1 << 31)
    # The board is the one of a state that exists (only hidden cards change): a rule test's
    # tower of one-space tiles (``position_from_dict``'s ``r13``) stays as it is.
    return position_from_dict(d, r13=False)


def as_seen_by(s: GameState, player: int, rng: random.Random) -> GameState:
    """What ``player`` may analyse (R44): a full state with the opponents' hands and the deck
    dealt at random from the cards he cannot see (his own hand, the face-up card, the discard
    pile and cards played in a festival stay). Analysis on ``s`` itself would answer with
    knowledge of hidden cards. A festival in progress is kept as it is."""
    return determinize(observation(s, player), rng)


__all__ = ["as_seen_by", "determinize", "observation", "public_view"]
