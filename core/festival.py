"""Festivals (R30–R35): a festival is a short sequence of decisions in the action stream.

The mover opens with ``festival HEX [CARDS]`` (R30); then whoever must decide plays ``bid CARDS``,
``pass`` or ``agree`` (R32) until the festival resolves: points (R34), cards to the discard pile
(R33), the palace flag (R35), and the end of the turn (R9, R30).

The festival in progress is an immutable ``FestivalState`` held in ``GameState.festival`` and
replaced on every decision, so ``push`` / ``pop`` snapshot it by reference.

State machine (R32):

- ``join``: clockwise from the opener, each other player with a developer in the city and a
  matching card is asked once: ``bid`` (new total worth ≥ the highest so far) or ``pass``
  (final). Players who cannot take part (no developer, or their matching cards cannot reach the
  highest bid) are skipped.
- ``raise``: after the full round, clockwise from the last decider, each player still in whose
  total is below the highest raises (``bid``, new total ≥ the highest) or drops out (``pass``).
  One who cannot reach the highest is dropped without asking.
- ``agree``: when every player still in has the same total, the player who made the tie (the
  last to reach that total) asks the others clockwise: ``agree`` or refuse by raising at once
  (``bid``, new total > the tie). One who cannot raise agrees automatically, so a tie where
  nobody can raise is an automatic agreement.
- The festival ends when all the others agree (each player still in scores the agreement
  points) or when one player remains (he scores the alone points; also when nobody joined).

JSON layout (position key ``festival``; hexes by name, players by index)::

    {"palace": "G6",                 # the palace hex of the city
     "opener": 0,                    # the mover who opened
     "phase": "join",                # "join" | "raise" | "agree"
     "to_decide": 1,                 # whose decision it is now
     "bids": [["D"], [], [], []],    # cards each player has played so far (in play, R33)
     "status": ["in", "pending", "pending", "out"],  # per player: in / out / pending (join round)
     "tie_maker": 0,                 # the last player to reach the highest total, or null
     "agreed": []}                   # players who agreed in the current agreement phase
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, replace
from itertools import product
from typing import TYPE_CHECKING, Any

from core.actions import CARD_KINDS, Action, Agree, Bid, Festival, Pass
from core.errors import IllegalAction, NotationError, PositionError
from core.hexmap import hex_name, parse_hex

if TYPE_CHECKING:
    from core.state import GameState

ALONE = {2: 1, 4: 2, 6: 3, 8: 4, 10: 5}  # R34
AGREEMENT = {2: 0, 4: 1, 6: 2, 8: 2, 10: 3}  # R34
PHASES = ("join", "raise", "agree")
STATUSES = ("in", "out", "pending")


def card_worth(card: str, face_up: str | None) -> int:
    """R31: the number of the card's symbols shown on the face-up card (0 = unplayable)."""
    if not face_up:
        return 0
    return sum(1 for sym in card if sym in face_up)


def cards_worth(cards: tuple[str, ...] | list[str], face_up: str | None) -> int:
    return sum(card_worth(c, face_up) for c in cards)


def matching(hand: list[str], face_up: str | None) -> list[str]:
    """The cards of a hand worth at least 1 (R31)."""
    return [c for c in hand if card_worth(c, face_up) > 0]


@dataclass(frozen=True, slots=True)
class FestivalState:
    """A festival being bid (R32); immutable, replaced on each decision."""

    palace: int
    opener: int
    phase: str
    to_decide: int
    bids: tuple[tuple[str, ...], ...]
    status: tuple[str, ...]
    tie_maker: int = -1
    agreed: tuple[int, ...] = ()

    def cards_in_play(self) -> list[str]:
        """Cards bid and not yet discarded (for the material check, R2)."""
        return [c for b in self.bids for c in b]

    def players_in(self) -> list[int]:
        return [p for p, st in enumerate(self.status) if st == "in"]

    def totals(self, face_up: str | None) -> list[int]:
        return [cards_worth(b, face_up) for b in self.bids]

    def to_json(self) -> dict[str, Any]:
        return {
            "palace": hex_name(self.palace),
            "opener": self.opener,
            "phase": self.phase,
            "to_decide": self.to_decide,
            "bids": [list(b) for b in self.bids],
            "status": list(self.status),
            "tie_maker": None if self.tie_maker < 0 else self.tie_maker,
            "agreed": list(self.agreed),
        }


# ----------------------------------------------------------------------------- helpers
def city_of(s: GameState, palace_hex: int) -> list[int]:
    """The hexes of the city whose palace stands on ``palace_hex`` (R20–R22)."""
    g = s.groups()
    return g.members[g.label[palace_hex]]


def city_players(s: GameState, palace_hex: int) -> set[int]:
    """Players with at least one developer in the city (R30, R32)."""
    return {s.dev[h] for h in city_of(s, palace_hex) if s.dev[h] >= 0}


def _hand_has(hand: list[str], cards: tuple[str, ...]) -> bool:
    have = Counter(hand)
    return all(have[k] >= n for k, n in Counter(cards).items())


def _take(s: GameState, player: int, cards: tuple[str, ...]) -> None:
    hand = s.players[player].hand
    for c in cards:
        hand.remove(c)


def _sub_bids(hand: list[str], face_up: str | None, min_worth: int) -> Iterator[tuple[str, ...]]:
    """Every non-empty multiset of matching cards of ``hand`` worth ≥ min_worth, canonical order."""
    counts = Counter(matching(hand, face_up))
    kinds = [k for k in CARD_KINDS if counts[k]]
    for choice in product(*(range(counts[k] + 1) for k in kinds)):
        cards = tuple(k for k, n in zip(kinds, choice) for _ in range(n))
        if cards and cards_worth(cards, face_up) >= max(min_worth, 1):
            yield cards


def _check_cards(s: GameState, a: Action, player: int, cards: tuple[str, ...], rule: str) -> int:
    """Cards must be in the player's hand and each match the face-up card; returns their worth."""
    hand = s.players[player].hand
    if not _hand_has(hand, cards):
        raise IllegalAction(a, rule, f"{s.players[player].name} does not hold {'+'.join(cards)}")
    for c in cards:
        if card_worth(c, s.face_up) == 0:
            raise IllegalAction(a, "R31", f"{c} does not match the face-up card {s.face_up} (worth 0)")
    return cards_worth(cards, s.face_up)


def default_opening(s: GameState) -> tuple[str, ...] | None:
    """``festival HEX`` without cards: the single matching card of least worth (notation.md)."""
    cards = matching(s.players[s.to_move].hand, s.face_up)
    if not cards:
        return None
    best = min(cards, key=lambda c: (card_worth(c, s.face_up), CARD_KINDS.index(c)))
    return (best,)


# ----------------------------------------------------------------------------- opening
def _opening_error(s: GameState, a: Festival, check_r8: bool = True) -> str | None:
    """Why the mover may not hold a festival at ``a.hex`` now ("rule|why"), or None."""
    h = a.hex
    if not s.map.on_map(h) or not s.palace[h]:
        return "R30|there is no palace on " + hex_name(h)
    if s.fest[h]:
        return "R35|this palace already held its festival since it last changed value"
    if s.to_move not in city_players(s, h):
        return "R30|you have no developer in this city"
    if not matching(s.players[s.to_move].hand, s.face_up):
        return f"R30|you hold no card matching the face-up card {s.face_up}"
    if check_r8 and s.obligation_pending():
        w = s.find_placement(s.turn.ap + s.token_bonus())
        if w is not None:
            return f"R8|you must place a land tile before the festival ends your turn (e.g. {w})"
    return None


def openings(s: GameState) -> Iterator[Action]:
    """Every festival the mover may open now (R30), each with every legal opening bid."""
    if s.festival is not None or s.is_terminal():
        return
    hand = s.players[s.to_move].hand
    if not matching(hand, s.face_up):
        return
    if s.obligation_pending() and s.find_placement(s.turn.ap + s.token_bonus()) is not None:
        return  # R8: a tile is still owed and the festival would end the turn
    bids: list[tuple[str, ...]] | None = None
    for h in s.map.hexes:
        if s.palace[h] and not s.fest[h] and _opening_error(s, Festival(h), False) is None:
            if bids is None:
                bids = list(_sub_bids(hand, s.face_up, 1))
            for cards in bids:
                yield Festival(h, cards)


def _open(s: GameState, a: Festival) -> None:
    why = _opening_error(s, a)
    if why:
        rule, text = why.split("|", 1)
        raise IllegalAction(a, rule, text)
    cards = a.cards if a.cards is not None else default_opening(s)
    assert cards is not None
    _check_cards(s, a, s.to_move, cards, "R32")
    _take(s, s.to_move, cards)
    n = s.n_players
    me = s.to_move
    joiners = city_players(s, a.hex)
    bids = tuple(cards if p == me else () for p in range(n))
    status = tuple("in" if p == me else ("pending" if p in joiners else "out") for p in range(n))
    f = FestivalState(a.hex, me, "join", me, bids, status, tie_maker=me)
    _advance(s, f, me)


# ----------------------------------------------------------------------------- decisions
def _after(start: int, n: int) -> list[int]:
    """Players clockwise after ``start`` (R3: play goes clockwise), ``start`` last."""
    return [(start + i) % n for i in range(1, n + 1)]


def _can_reach(s: GameState, f: FestivalState, p: int, target: int) -> bool:
    have = cards_worth(f.bids[p], s.face_up) + cards_worth(matching(s.players[p].hand, s.face_up), s.face_up)
    return have >= target and bool(matching(s.players[p].hand, s.face_up))


def _set(f: FestivalState, p: int, status: str) -> FestivalState:
    st = list(f.status)
    st[p] = status
    return replace(f, status=tuple(st))


def _advance(s: GameState, f: FestivalState, last: int) -> None:
    """Move the festival to the next decision, skipping players who cannot take part; resolve
    it when the bidding ends (R32)."""
    n = s.n_players
    fu = s.face_up
    while True:
        totals = f.totals(fu)
        ins = f.players_in()
        high = max(totals[p] for p in ins)
        if f.phase == "join":
            nxt = next((p for p in _after(last, n) if f.status[p] == "pending"), None)
            if nxt is not None:
                if _can_reach(s, f, nxt, high):
                    s.festival = replace(f, to_decide=nxt)
                    return
                f, last = _set(f, nxt, "out"), nxt  # cannot take part: skipped
                continue
            f = replace(f, phase="raise")
        if len(ins) == 1:
            _resolve(s, f, ins, alone=True)
            return
        if all(totals[p] == high for p in ins):
            if f.phase != "agree":
                f = replace(f, phase="agree", agreed=())
            tm = f.tie_maker if f.tie_maker in ins else last
            for p in _after(tm, n):
                if p == tm or p not in ins or p in f.agreed:
                    continue
                if matching(s.players[p].hand, fu):
                    s.festival = replace(f, to_decide=p, tie_maker=tm)
                    return
                f = replace(f, agreed=f.agreed + (p,))  # cannot raise: agrees (R32)
            _resolve(s, f, ins, alone=False)
            return
        f = replace(f, phase="raise", agreed=())
        nxt = next(p for p in _after(last, n) if f.status[p] == "in" and totals[p] < high)
        if _can_reach(s, f, nxt, high):
            s.festival = replace(f, to_decide=nxt)
            return
        f, last = _set(f, nxt, "out"), nxt  # cannot match the highest: drops out


def legal_decisions(s: GameState) -> Iterator[Action]:
    """The decisions open to ``festival.to_decide`` (R32)."""
    f: FestivalState | None = s.festival
    if f is None:
        return
    p = f.to_decide
    totals = f.totals(s.face_up)
    high = max(totals[q] for q in f.players_in())
    hand = s.players[p].hand
    if f.phase == "agree":
        yield Agree()
        need = 1
    else:
        yield Pass()
        need = high - totals[p]
    for cards in _sub_bids(hand, s.face_up, need):
        yield Bid(cards)


def _decide(s: GameState, a: Action) -> None:
    f: FestivalState = s.festival
    p = f.to_decide
    name = s.players[p].name
    totals = f.totals(s.face_up)
    high = max(totals[q] for q in f.players_in())
    if isinstance(a, Festival):
        raise IllegalAction(a, "R30", "a festival is already being held (one per turn, and it ends the turn)")
    if isinstance(a, Pass):
        if f.phase == "agree":
            raise IllegalAction(a, "R32", f"{name} must agree or refuse by raising at once (no passing on a tie)")
        _advance(s, _set(f, p, "out"), p)
        return
    if isinstance(a, Agree):
        if f.phase != "agree":
            raise IllegalAction(a, "R32", f"the players still in are not tied; {name} must bid or pass")
        _advance(s, replace(f, agreed=f.agreed + (p,)), p)
        return
    if not isinstance(a, Bid):
        raise IllegalAction(a, "R32", f"a festival is being held: {name} must decide (bid, pass or agree)")
    worth = _check_cards(s, a, p, a.cards, "R32")
    new = totals[p] + worth
    if f.phase == "agree" and new <= high:
        raise IllegalAction(a, "R32", f"refusing to agree means raising above {high}; {'+'.join(a.cards)} makes {new}")
    if f.phase != "agree" and new < high:
        raise IllegalAction(a, "R32", f"the bid must reach at least the highest, {high}; {'+'.join(a.cards)} makes {new}")
    _take(s, p, a.cards)
    bids = list(f.bids)
    bids[p] = bids[p] + a.cards
    f = replace(f, bids=tuple(bids), status=_set(f, p, "in").status, tie_maker=p)
    if f.phase == "agree":
        f = replace(f, phase="raise", agreed=())
    _advance(s, f, p)


def _resolve(s: GameState, f: FestivalState, winners: list[int], alone: bool) -> None:
    """Points (R34), lost cards (R33), the palace flag (R35), and the end of the turn (R30)."""
    value = s.palace[f.palace]
    pts = ALONE[value] if alone else AGREEMENT[value]
    for p in winners:
        s.players[p].score += pts
    for p in range(s.n_players):
        s.discard.extend(f.bids[p])
    s._w(s.fest, f.palace, True)
    s.festival = None
    s.finish_turn()


def apply(s: GameState, a: Action) -> None:
    """Apply a festival opening or decision (called by ``GameState._apply``)."""
    if s.festival is None:
        if not isinstance(a, Festival):
            raise IllegalAction(a, "R32", "no festival is being held")
        _open(s, a)
    else:
        _decide(s, a)


# ----------------------------------------------------------------------------- loading
def from_json(s: GameState, obj: Any) -> FestivalState:
    """Rebuild a festival in progress from the position key ``festival``; PositionError if bad."""
    w = "festival."
    if not isinstance(obj, dict):
        raise PositionError("festival: expected an object (see core/festival.py)")
    n = s.n_players

    def player(key: str, allow_none: bool = False) -> int:
        v = obj.get(key)
        if v is None and allow_none:
            return -1
        if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v < n:
            raise PositionError(f"{w}{key}: player index {v!r} out of range 0..{n - 1}")
        return v

    try:
        h = parse_hex(str(obj.get("palace")))
    except NotationError:
        raise PositionError(f"{w}palace: {obj.get('palace')!r} is not a hex name") from None
    if not s.map.on_map(h) or not s.palace[h]:
        raise PositionError(f"{w}palace: no palace on {obj.get('palace')} (R30)")
    if s.fest[h]:
        raise PositionError(f"{w}palace: this palace already held its festival (R35)")
    phase = obj.get("phase")
    if phase not in PHASES:
        raise PositionError(f"{w}phase: must be one of {', '.join(PHASES)}, got {phase!r}")
    bids_in, status_in = obj.get("bids"), obj.get("status")
    if not isinstance(bids_in, list) or len(bids_in) != n:
        raise PositionError(f"{w}bids: expected a list of {n} card lists")
    if not isinstance(status_in, list) or len(status_in) != n or any(x not in STATUSES for x in status_in):
        raise PositionError(f"{w}status: expected {n} of {', '.join(STATUSES)}")
    bids = []
    for i, b in enumerate(bids_in):
        if not isinstance(b, list) or any(c not in CARD_KINDS for c in b):
            raise PositionError(f"{w}bids[{i}]: expected a list of card kinds ({', '.join(CARD_KINDS)})")
        if any(card_worth(c, s.face_up) == 0 for c in b):
            raise PositionError(f"{w}bids[{i}]: a card that does not match the face-up card (R31)")
        bids.append(tuple(b))
    agreed = obj.get("agreed", [])
    if not isinstance(agreed, list) or any(not isinstance(x, int) or not 0 <= x < n for x in agreed):
        raise PositionError(f"{w}agreed: expected a list of player indexes")
    f = FestivalState(h, player("opener"), phase, player("to_decide"), tuple(bids), tuple(status_in),
                      player("tie_maker", allow_none=True), tuple(agreed))
    if f.opener != s.to_move:
        raise PositionError(f"{w}opener: the festival is held by the player to move ({s.to_move}) (R30)")
    if f.status[f.to_decide] == "out" or not f.players_in():
        raise PositionError(f"{w}to_decide: player {f.to_decide} is out of the festival (R32)")
    _check_phase(f, s, w)
    return f


def _check_phase(f: FestivalState, s: GameState, w: str) -> None:
    """What the bidding's phase implies (R32), so that no decision from here meets a state
    the rules never reach: joining, the mover has opened and the one to decide has not joined
    yet; raising, nobody is left to join and the one to decide is in, below the highest;
    agreeing, nobody is left to join and everybody still in is tied."""
    totals = f.totals(s.face_up)
    ins = f.players_in()
    high = max(totals[p] for p in ins)
    p = f.to_decide
    if f.phase == "join":
        if f.status[f.opener] != "in" or not f.bids[f.opener]:
            raise PositionError(f"{w}status: the mover opens the bidding with cards (R32)")
        if f.status[p] != "pending":
            raise PositionError(f"{w}to_decide: player {p} decides on joining only while"
                                " pending (R32)")
        return
    if "pending" in f.status:
        raise PositionError(f"{w}status: a player still pending after the joining round (R32)")
    if f.phase == "raise" and not (f.status[p] == "in" and totals[p] < high):
        raise PositionError(f"{w}to_decide: player {p} raises only while in and below the"
                            f" highest bid ({high}) (R32)")
    if f.phase == "agree" and (any(totals[q] != high for q in ins) or f.status[p] != "in"
                               or p in f.agreed):
        raise PositionError(f"{w}phase: agreeing needs everybody still in tied, the one to"
                            " decide among them and not agreed yet (R32)")


__all__ = [
    "AGREEMENT",
    "ALONE",
    "FestivalState",
    "apply",
    "card_worth",
    "cards_worth",
    "default_opening",
    "from_json",
    "legal_decisions",
    "openings",
]
