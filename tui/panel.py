"""Texts of the game screen's side panel (Textual markup), from the state alone.

Kept out of the screen so the screen stays about input; every function reads, none changes.
"""

from __future__ import annotations

from rich.cells import cell_len, set_cell_size
from rich.markup import escape

from core.drawing import PLAYER_LETTERS
from core.hexmap import hex_name
from core.state import GameState

Seats = list[str | None]  # per player: None for a human, else the computer player's name


def plural(n: int, word: str) -> str:
    """'1 tile', '2 tiles', '1 point', '0 points'."""
    return f"{n} {word}{'' if n == 1 else 's'}"


def player_label(s: GameState, p: int) -> str:
    return f"{PLAYER_LETTERS[p]} {escape(s.players[p].name)}"


def status_text(s: GameState, computer: Seats, mode: str) -> str:
    if s.is_terminal():
        return "[b]Game over[/b] (R40)"
    me = s.current_player()
    t = s.turn
    who = "you" if computer[me] is None else f"computer: {computer[me]}"
    if s.festival is not None:
        # A bid is no action of the turn: the opener's AP would only mislead (R32).
        return (f"[b]{player_label(s, me)}[/b] decides in the festival ({who})\n"
                + festival_text(s) + f"\nmode: {mode}")
    owed = "[b]owed[/b] (R8)" if s.last_round is None else "not owed (last round, R40)"
    text = (f"[b]{player_label(s, me)}[/b] to act ({who})\n"
            f"AP left [b]{t.ap}[/b]   token {'used' if t.token_used else 'unused'}"
            f"   tile {'placed' if t.tile_placed else owed}")
    if s.last_round is not None:
        text += "\n[b]last round[/b] (R40)"
    return text + f"\nmode: {mode}"


# The score table's number columns (heading, width), one space apart; before them the mover's
# mark, the player's letter and his name: ">A Ann    12  10  5  3  2   3".
SCORE_COLUMNS = (("pts", 3), ("dev", 3), ("2t", 2), ("1r", 2), ("1v", 2), ("tok", 3))
SCORE_FIXED = 3 + 1 + sum(w + 1 for _, w in SCORE_COLUMNS) - 1  # all but the name: 24 columns
SCORE_WIDTH = 34  # the side panel's text at its narrowest (37 columns less border and padding)
SCORE_NAME = SCORE_WIDTH - SCORE_FIXED  # so a name of up to 10 of its 16 characters fits there


def short_name(name: str, width: int = SCORE_NAME) -> str:
    """``name`` in at most ``width`` columns: whole where it fits, else cut with an ellipsis, so
    a cut name never passes for a whole one (two players "Alexandra B." and "Alexandra C.").
    Measured in terminal cells: a name in wide characters takes two a character."""
    return name if cell_len(name) <= width else set_cell_size(name, width - 1).rstrip() + "…"


def score_table_width(s: GameState) -> int:
    """The columns the score table needs to show every name whole."""
    return SCORE_FIXED + max(cell_len(p.name) for p in s.players)


def scores_text(s: GameState, width: int = SCORE_WIDTH) -> str:
    """The score table in ``width`` columns: the name column as wide as the longest name where
    that fits, else as wide as fits, the names longer than it cut with an ellipsis."""
    me = s.current_player()
    room = max(3, min(width, score_table_width(s)) - SCORE_FIXED)  # 3: "Scores" over the names
    heads = " ".join(f"{h:>{w}}" for h, w in SCORE_COLUMNS)
    rows = [f"[b]Scores[/b]{' ' * (3 + room + 1 - len('Scores'))}{heads}"]
    for i, p in enumerate(s.players):
        mark = ">" if i == me else " "
        name = set_cell_size(short_name(p.name, room), room)
        values = (p.score, p.developers_off, p.doubles, p.rice, p.villages, p.tokens)
        numbers = " ".join(f"{v:>{w}}" for v, (_, w) in zip(values, SCORE_COLUMNS))
        rows.append(f"{mark}{PLAYER_LETTERS[i]} {escape(name)} {numbers}")
    return "\n".join(rows)


def supply_text(s: GameState) -> str:
    pal = " ".join(f"{v}:{s.palace_supply[v]}" for v in (2, 4, 6, 8, 10))
    return (f"[b]Supply[/b] 3-tiles {s.triples}  irrigation {s.irrigation_supply}\n"
            f"palaces {pal}\nface-up card {s.face_up or '-'}  deck {len(s.deck)}"
            f"  discard {len(s.discard)}")


def festival_text(s: GameState) -> str:
    """The bids so far (R32): cards are open on the table once bid."""
    f = s.festival
    parts = []
    for p, (bid, st) in enumerate(zip(getattr(f, "bids", ()), getattr(f, "status", ()))):
        parts.append(f"{PLAYER_LETTERS[p]} {'+'.join(bid) or '-'} ({st})")
    where = hex_name(f.palace) if hasattr(f, "palace") else "?"
    return f"[b]festival at {where}[/b] (R32): " + ", ".join(parts)


def hand_text(s: GameState, computer: Seats) -> str:
    """Only the hand of the human whose decision it is, or of the only human (R44)."""
    me = s.current_player()
    humans = [i for i in range(s.n_players) if computer[i] is None]
    who = me if computer[me] is None else (humans[0] if len(humans) == 1 else -1)
    if who < 0:
        return "[b]Hand[/b] hidden (R44)"
    hand = ", ".join(s.players[who].hand) or "no cards"
    return f"[b]Hand of {escape(s.players[who].name)}[/b]: {hand}"


def seen_note(who: str | None) -> str:
    """What a study on a dealt state says of it (R44): as player ``who`` sees it, or with
    None, as an onlooker, who sees no hand."""
    if who is None:
        return ("As an onlooker sees it (R44): every hand and the deck are dealt at random from"
                " the cards no one has shown; open the game to study it as the player at the"
                " keyboard.")
    return (f"As {who} sees it (R44): the other hands and the deck are dealt at random from the"
            " cards he cannot see; the answer is one such deal.")


def describe(s: GameState, h: int) -> str:
    """What stands on hex ``h``, for the message line."""
    parts = [hex_name(h)]
    if s.level[h]:
        parts.append(f"{'village' if s.terrain[h] == 2 else 'rice'} on level {s.level[h]}")
    if s.dev[h] >= 0:
        parts.append(f"developer of {escape(s.players[s.dev[h]].name)}")
    if s.palace[h]:
        parts.append(f"palace {s.palace[h]}{' (festival held)' if s.fest[h] else ''}")
    if s.map.edge_cost(h):
        parts.append(f"entry/exit {s.map.edge_cost(h)} AP")
    return ", ".join(parts)


def padded_names(s: GameState, least: int = 10) -> list[str]:
    """The players' names, escaped, each padded to the longest (``least`` columns at least,
    measured in terminal cells) so that what follows them lines up in a dialog, which has room
    for whole names (16 characters at most)."""
    width = max(least, *(cell_len(p.name) for p in s.players))
    return [escape(set_cell_size(p.name, width)) for p in s.players]


def game_over_text(s: GameState, final_counts: dict[int, int]) -> str:
    """Each final count (R41) as seen during play, the totals and the winner (R42)."""
    best = max(p.score for p in s.players)
    winners = [escape(p.name) for p in s.players if p.score == best]
    lines = []
    names = padded_names(s)
    for i, p in enumerate(s.players):
        fc = final_counts.get(i)
        shown = str(fc) if fc is not None else ("done" if p.final_counted else "none")
        lines.append(f"{PLAYER_LETTERS[i]} {names[i]} final count "
                     f"{shown:>4}   total {p.score:>3}")
    lines.append("")
    lines.append(("Winner: " if len(winners) == 1 else "Shared win: ") + ", ".join(winners)
                 + " (R43)")
    return "\n".join(lines)
