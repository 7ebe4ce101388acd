"""What the festival dialog shows (R30–R35), from the state alone: the face-up card, each
card's worth, the bids so far, the highest bid, the points at stake and what each choice does.

A newcomer must be able to bid from the dialog alone, so every line says its rule.
"""

from __future__ import annotations

from rich.markup import escape

from core.actions import Action, Agree, Bid, Festival, Pass
from core.drawing import PLAYER_LETTERS
from core.festival import AGREEMENT, ALONE, card_worth, cards_worth
from core.hexmap import hex_name
from core.state import GameState
from tui.panel import padded_names, plural


def stakes(s: GameState, palace_hex: int) -> str:
    """The points at stake in the city of ``palace_hex`` (R34)."""
    v = s.palace[palace_hex] or 0
    return (f"Palace {v} on {hex_name(palace_hex)}: alone {plural(ALONE.get(v, 0), 'point')},"
            f" each of an agreement {plural(AGREEMENT.get(v, 0), 'point')} (R34)")


def hand_worths(s: GameState, p: int) -> str:
    """A hand with each card's worth against the face-up card (R31)."""
    hand = s.players[p].hand
    if not hand:
        return "no cards"
    return ", ".join(f"{c} (worth {card_worth(c, s.face_up)})" for c in hand)


def highest(s: GameState) -> tuple[int, list[int]]:
    """The highest total bid so far and who holds it."""
    f = s.festival
    if f is None:
        return 0, []
    totals = f.totals(s.face_up)
    top = max(totals, default=0)
    return top, [p for p, t in enumerate(totals) if t == top and top > 0]


def bids_table(s: GameState) -> str:
    """One line per player: the cards played so far, their total worth, in / out / to be asked."""
    f = s.festival
    if f is None:
        return ""
    rows = []
    names = padded_names(s)
    for p, (bid, st) in enumerate(zip(f.bids, f.status)):
        cards = "+".join(bid) or "-"
        state = {"in": "in", "out": "out", "pending": "not asked yet"}.get(st, st)
        mark = ">" if p == f.to_decide else " "
        rows.append(f"{mark}{PLAYER_LETTERS[p]} {names[p]} {cards:<8}"
                    f" worth {cards_worth(bid, s.face_up)}  {state}")
    return "\n".join(rows)


def festival_note(s: GameState, me: int) -> str:
    """The body of the bidding dialog for player ``me``."""
    f = s.festival
    if f is None:
        return ""
    top, who = highest(s)
    holders = ", ".join(escape(s.players[p].name) for p in who) or "nobody"
    mine = cards_worth(f.bids[me], s.face_up)
    return (f"Face-up card [b]{s.face_up}[/b]: a card is worth the number of its symbols shown"
            f" on it (R31).\n{stakes(s, f.palace)}\n"
            f"Highest bid so far: [b]{top}[/b] ({holders}); yours: {mine}.\n"
            "A bid adds its cards to those you have already played (R32); every card played"
            " goes to the discard pile at the end, also if you drop out (R33).\n\n"
            f"{bids_table(s)}\n\nYour hand: {hand_worths(s, me)}")


def option_label(s: GameState, a: Action, me: int) -> str:
    """What choosing ``a`` means, in numbers."""
    if isinstance(a, Festival):
        worth = cards_worth(a.cards or (), s.face_up)
        v = s.palace[a.hex] or 0
        return (f"{a}: open with worth {worth}; alone {plural(ALONE.get(v, 0), 'point')} if"
                " nobody beats or ties it (R32, R34)")
    f = s.festival
    if f is None:
        return str(a)
    top, _ = highest(s)
    mine = cards_worth(f.bids[me], s.face_up)
    v = s.palace[f.palace] or 0
    if isinstance(a, Bid):
        new = mine + cards_worth(a.cards, s.face_up)
        if new == top:
            how = f"ties the highest: shared, {plural(AGREEMENT.get(v, 0), 'point')} each if agreed"
        else:
            how = f"leads; highest {top}" if new > top else f"below the highest {top}"
        return f"{a}: +{cards_worth(a.cards, s.face_up)} makes your total {new} ({how})"
    if isinstance(a, Pass):
        lost = f"; your {'+'.join(f.bids[me])} is discarded (R33)" if f.bids[me] else ""
        return f"pass: out of this festival for good (R32){lost}"
    if isinstance(a, Agree):
        return (f"agree: share the festival, each of you scores"
                f" {plural(AGREEMENT.get(v, 0), 'point')} (R34)")
    return str(a)


def decision_order(s: GameState, a: Action) -> tuple[int, int, str]:
    """Bids from the cheapest up, then agree, then pass: the dialog reads like a price list."""
    if isinstance(a, Bid):
        return 0, cards_worth(a.cards, s.face_up), str(a)
    return (1 if isinstance(a, Agree) else 2), 0, str(a)


def festival_result(s: GameState, palace_hex: int, before: list[int]) -> str:
    """The announcement after a festival ended: who scored what (R34)."""
    gains = [(p, s.players[p].score - before[p]) for p in range(s.n_players)]
    won = [f"{escape(s.players[p].name)} +{g}" for p, g in gains if g > 0]
    text = ", ".join(won) if won else "nobody scored"
    return f"[b]festival at {hex_name(palace_hex)} over[/b]: {text} (R34); the cards played are discarded (R33)"
