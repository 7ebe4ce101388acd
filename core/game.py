"""A game API in the style of OpenSpiel over ``GameState``, for the app, computer players and
scripts alike: ``current_player``, ``legal_actions``, ``apply_action``, ``is_terminal``,
``returns``, and ``observation`` — the state restricted to what one player may see (R44).

``Game`` also remembers its start position and counts turns, so it can write a game record
(``core.record``). ``play_random_game`` plays a complete game with random legal players.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import TYPE_CHECKING, Any

from core.actions import Action, End, Festival, parse_action
from core.errors import KratonError
from core.position import position_from_dict, position_to_dict
from core.state import GameState

if TYPE_CHECKING:
    from core.record import GameRecord

TERMINAL = -4  # OpenSpiel's kTerminalPlayerId
MAX_ACTIONS = 20000  # a safety stop for automatic play; real games take about 1,000 actions
POLICIES = ("uniform", "kinds", "festive")


class Game:
    """One game from a start position; every action goes through ``apply_action``."""

    def __init__(self, state: GameState) -> None:
        self.start = position_to_dict(state)
        self.state = state
        self.actions: list[Action] = []
        self.turns = 0  # completed turns (each ends with ``end`` or a resolved festival, R9)
        self.festivals = 0  # festivals resolved

    @classmethod
    def new(cls, n_players: int = 4, seed: int = 0, names: list[str] | None = None,
            map_spec: str = "java-centre") -> Game:
        return cls(GameState.new(n_players, seed=seed, names=names, map_spec=map_spec))

    # ------------------------------------------------------------------ OpenSpiel-style
    def current_player(self) -> int:
        """Whose decision it is (the bidder during a festival, R32), or TERMINAL."""
        return TERMINAL if self.state.is_terminal() else self.state.current_player()

    def legal_actions(self) -> list[Action]:
        """Every legal action of the current player, in the engine's (deterministic) order."""
        return list(self.state.legal_actions())

    def apply_action(self, action: Action | str) -> None:
        """Apply an action (or its text); raises IllegalAction / NotationError (ValueErrors)."""
        a = parse_action(action) if isinstance(action, str) else action
        in_festival = self.state.festival is not None or isinstance(a, Festival)
        self.state.push(a)
        self.actions.append(a)
        if isinstance(a, End):
            self.turns += 1
        elif in_festival and self.state.festival is None:
            self.turns += 1  # the festival ended the turn (R30)
            self.festivals += 1

    def is_terminal(self) -> bool:
        return self.state.is_terminal()

    def returns(self) -> list[float]:
        """Each player's total reward so far: his score (final at the end, R41)."""
        return [float(p.score) for p in self.state.players]

    def winners(self) -> list[int]:
        """R43: the players with the highest score (all of them on equal scores)."""
        scores = [p.score for p in self.state.players]
        best = max(scores)
        return [i for i, sc in enumerate(scores) if sc == best]

    def clone(self) -> Game:
        g = Game.__new__(Game)
        g.start, g.state = self.start, self.state.copy()
        g.actions, g.turns, g.festivals = list(self.actions), self.turns, self.festivals
        return g

    def observation(self, player: int) -> dict[str, Any]:
        """The position as ``player`` may see it (R44); see ``observation``."""
        return observation(self.state, player)

    def record(self, tags: dict[str, str] | None = None) -> GameRecord:
        from core.record import GameRecord

        return GameRecord(self.start, list(self.actions), dict(tags or {}))


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
    return position_from_dict(d)


def as_seen_by(s: GameState, player: int, rng: random.Random) -> GameState:
    """What ``player`` may analyse (R44): a full state with the opponents' hands and the deck
    dealt at random from the cards he cannot see (his own hand, the face-up card, the discard
    pile and cards played in a festival stay). Analysis on ``s`` itself would answer with
    knowledge of hidden cards. A festival in progress is kept as it is."""
    return determinize(observation(s, player), rng)


def random_action(s: GameState, rng: random.Random, policy: str = "uniform") -> Action:
    """A random legal action. ``uniform``: over all legal actions. ``kinds``: a kind of action
    (tile, move, palace, festival, bid, …) uniformly, then an action of that kind uniformly,
    which builds far more palaces. ``festive``: like ``kinds``, but it opens a festival whenever
    it may and draws only with fewer than 5 cards in hand (otherwise every card ends up in
    hands, the face-up slot empties and festivals stop, R30/R36) — to exercise festivals."""
    actions = list(s.legal_actions())
    if not actions:
        raise KratonError("no legal action: the game is over (R40)")
    if policy == "uniform":
        return rng.choice(actions)
    if policy not in POLICIES:
        raise KratonError(f"unknown policy '{policy}' (one of {', '.join(POLICIES)})")
    by_kind: dict[str, list[Action]] = {}
    for a in actions:
        by_kind.setdefault(a.kind, []).append(a)
    if policy == "festive":
        if "festival" in by_kind:
            return rng.choice(by_kind["festival"])
        if len(by_kind) > 1 and len(s.players[s.to_move].hand) >= 5:
            by_kind.pop("draw", None)
    return rng.choice(by_kind[rng.choice(sorted(by_kind))])


def play_random_game(n_players: int = 4, seed: int = 0, policy: str = "uniform",
                     max_actions: int = MAX_ACTIONS) -> Game:
    """A complete game between random legal players (deck and players seeded by ``seed``)."""
    g = Game.new(n_players, seed=seed)
    rng = random.Random(f"players/{seed}")
    while not g.is_terminal():
        if len(g.actions) >= max_actions:
            raise KratonError(f"seed {seed}: the game did not end after {max_actions} actions (R40)")
        g.apply_action(random_action(g.state, rng, policy))
    return g


__all__ = ["TERMINAL", "Game", "as_seen_by", "determinize", "observation", "play_random_game", "random_action"]
