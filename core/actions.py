"""Actions as small immutable, hashable values with ``parse`` / ``str`` round-trips (notation.md).

Hexes are stored as ids (``core.hexmap``), so an action prints without a map. A tile's cells are
kept in one canonical order — village cells first, then rice, each in reading order — so two
texts naming the same placement give equal actions (``tile G5r G6v H5r`` == ``tile G6v G5r H5r``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from core.errors import NotationError, shown
from core.hexmap import hex_name, parse_hex

RICE, VILLAGE = 1, 2
TERRAIN_LETTER = {RICE: "r", VILLAGE: "v"}
TERRAIN_NAME = {RICE: "rice", VILLAGE: "village"}
CARD_KINDS = ("D", "M", "P", "DM", "DP", "MP")


def canonical_card(text: str) -> str:
    """'pd' -> 'DP'. Only the six kinds of R2: any other letter is refused before sorting."""
    u = text.strip().upper()
    t = "".join(sorted(u, key="DMP".index)) if u and set(u) <= set("DMP") else ""
    if t not in CARD_KINDS:
        raise NotationError(f"'{shown(text)}' is not a festival card (one of {', '.join(CARD_KINDS)}; R2)")
    return t


def parse_cards(text: str) -> tuple[str, ...]:
    parts = [p for p in text.split("+")]
    if not text.strip() or any(not p.strip() for p in parts):
        raise NotationError(f"'{shown(text)}' is not a list of cards (kinds joined with '+', e.g. D+MP)")
    return tuple(sorted((canonical_card(p) for p in parts), key=CARD_KINDS.index))


def cards_text(cards: tuple[str, ...]) -> str:
    return "+".join(cards)


@dataclass(frozen=True, slots=True)
class Tile:
    """Place a land tile: ``cells`` = ((hex, terrain), ...), 1 to 3 of them (R10–R15)."""

    cells: tuple[tuple[int, int], ...]
    # the hexes of ``cells`` in their order, kept (searches ask for them millions of times)
    hexes: tuple[int, ...] = field(init=False, repr=False, compare=False)
    kind: ClassVar[str] = "tile"

    def __post_init__(self) -> None:
        ordered = tuple(sorted(self.cells, key=lambda c: (-c[1], c[0])))
        object.__setattr__(self, "cells", ordered)
        object.__setattr__(self, "hexes", tuple(h for h, _ in ordered))

    @property
    def size(self) -> int:
        return len(self.cells)

    def __str__(self) -> str:
        return "tile " + " ".join(f"{hex_name(h)}{TERRAIN_LETTER[t]}" for h, t in self.cells)


@dataclass(frozen=True, slots=True)
class Enter:
    """Put an off-board developer on a border space or land rim hex (R26)."""

    hex: int
    kind: ClassVar[str] = "enter"

    def __str__(self) -> str:
        return f"enter {hex_name(self.hex)}"


@dataclass(frozen=True, slots=True)
class Move:
    """Move a developer along the cheapest legal path (R27)."""

    src: int
    dst: int
    kind: ClassVar[str] = "move"

    def __str__(self) -> str:
        return f"move {hex_name(self.src)} {hex_name(self.dst)}"


@dataclass(frozen=True, slots=True)
class Exit:
    """Take a developer off the board from a border space or rim hex (R27)."""

    hex: int
    kind: ClassVar[str] = "exit"

    def __str__(self) -> str:
        return f"exit {hex_name(self.hex)}"


@dataclass(frozen=True, slots=True)
class Palace:
    """Build or enlarge the palace on a hex to a value (R28, R29)."""

    hex: int
    value: int
    kind: ClassVar[str] = "palace"

    def __str__(self) -> str:
        return f"palace {hex_name(self.hex)} {self.value}"


@dataclass(frozen=True, slots=True)
class Irrigate:
    """Place an irrigation tile (R37, R38)."""

    hex: int
    kind: ClassVar[str] = "irrigate"

    def __str__(self) -> str:
        return f"irrigate {hex_name(self.hex)}"


@dataclass(frozen=True, slots=True)
class Draw:
    """Draw a festival card, the face-up one or the deck's top (R36)."""

    faceup: bool
    kind: ClassVar[str] = "draw"

    def __str__(self) -> str:
        return "draw faceup" if self.faceup else "draw deck"


@dataclass(frozen=True, slots=True)
class Token:
    """Spend an action token for a seventh AP (R7)."""

    kind: ClassVar[str] = "token"

    def __str__(self) -> str:
        return "token"


@dataclass(frozen=True, slots=True)
class Festival:
    """Hold a festival in the city of the palace on ``hex`` (R30); cards None = the default."""

    hex: int
    cards: tuple[str, ...] | None = None
    kind: ClassVar[str] = "festival"

    def __str__(self) -> str:
        base = f"festival {hex_name(self.hex)}"
        return f"{base} {cards_text(self.cards)}" if self.cards else base


@dataclass(frozen=True, slots=True)
class Bid:
    """Join or raise in a festival with these cards (R32)."""

    cards: tuple[str, ...]
    kind: ClassVar[str] = "bid"

    def __str__(self) -> str:
        return f"bid {cards_text(self.cards)}"


@dataclass(frozen=True, slots=True)
class Pass:
    """Decline to join, or drop out of, a festival (R32)."""

    kind: ClassVar[str] = "pass"

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class Agree:
    """Agree to share a tied festival (R32)."""

    kind: ClassVar[str] = "agree"

    def __str__(self) -> str:
        return "agree"


@dataclass(frozen=True, slots=True)
class End:
    """End the turn (R8, R9)."""

    kind: ClassVar[str] = "end"

    def __str__(self) -> str:
        return "end"


Action = Tile | Enter | Move | Exit | Palace | Irrigate | Draw | Token | Festival | Bid | Pass | Agree | End

_ARITY = {
    "enter": 1,
    "exit": 1,
    "irrigate": 1,
    "move": 2,
    "palace": 2,
    "draw": 1,
    "token": 0,
    "pass": 0,
    "agree": 0,
    "end": 0,
    "bid": 1,
}


# The rule each action's text belongs to, named when the text cannot be read (notation.md).
_RULE = {
    "tile": "R10",
    "enter": "R26",
    "move": "R27",
    "exit": "R27",
    "palace": "R28",
    "irrigate": "R37",
    "draw": "R36",
    "token": "R7",
    "festival": "R30",
    "bid": "R32",
    "pass": "R32",
    "agree": "R32",
    "end": "R9",
}


class _HexNameError(NotationError):
    """A bad hex name inside an action: a notation error, not one of the action's rule."""


def _hex(text: str) -> int:
    try:
        return parse_hex(text)
    except NotationError as e:
        raise _HexNameError(str(e)) from None


def parse_action(text: str) -> Action:
    """Parse one action (case-insensitive). Raises NotationError with the offending text."""
    words = text.split()
    if not words:
        raise NotationError("empty action (R9: a turn is a list of actions)")
    verb = words[0].lower()
    args = words[1:]
    try:
        if verb == "tile":
            if not 1 <= len(args) <= 3:
                raise NotationError("a tile names 1 to 3 hexes, each with v or r (e.g. tile G6v G5r H5r)")
            cells = []
            for a in args:
                t = a[-1].lower()
                if t not in "vr" or len(a) < 3:
                    raise NotationError(f"'{shown(a)}' must be a hex followed by v (village) or r (rice)")
                cells.append((_hex(a[:-1]), VILLAGE if t == "v" else RICE))
            if len({h for h, _ in cells}) != len(cells):
                raise NotationError("a tile names the same hex twice")
            return Tile(tuple(cells))
        if verb == "festival":
            if len(args) not in (1, 2):
                raise NotationError("usage: festival HEX [CARDS]")
            return Festival(_hex(args[0]), parse_cards(args[1]) if len(args) == 2 else None)
        if verb not in _ARITY:
            raise NotationError(
                f"unknown action '{shown(words[0])}' (tile, enter, move, exit, palace, irrigate, draw,"
                " token, festival, bid, pass, agree, end)"
            )
        if len(args) != _ARITY[verb]:
            raise NotationError(f"'{verb}' takes {_ARITY[verb]} argument(s), got {len(args)}")
        if verb == "enter":
            return Enter(_hex(args[0]))
        if verb == "exit":
            return Exit(_hex(args[0]))
        if verb == "irrigate":
            return Irrigate(_hex(args[0]))
        if verb == "move":
            return Move(_hex(args[0]), _hex(args[1]))
        if verb == "palace":
            if not (len(args[1]) <= 2 and all(c in "0123456789" for c in args[1])):
                raise NotationError(f"palace value '{shown(args[1])}' is not a number (2, 4, 6, 8 or 10)")
            return Palace(_hex(args[0]), int(args[1]))
        if verb == "draw":
            src = args[0].lower()
            if src not in ("faceup", "deck"):
                raise NotationError("draw takes 'faceup' or 'deck'")
            return Draw(src == "faceup")
        if verb == "bid":
            return Bid(parse_cards(args[0]))
        bare: dict[str, Action] = {"token": Token(), "pass": Pass(), "agree": Agree(), "end": End()}
        return bare[verb]
    except NotationError as e:
        rule = "notation.md" if isinstance(e, _HexNameError) else _RULE.get(verb, "R9")
        raise NotationError(f"cannot read action '{shown(text.strip())}': {rule} {e}") from None


def parse_actions(text: str) -> list[Action]:
    """Parse actions joined with ';' (a turn). Empty pieces are skipped."""
    return [parse_action(p) for p in text.split(";") if p.strip()]


def actions_text(actions: list[Action]) -> str:
    return "; ".join(str(a) for a in actions)
