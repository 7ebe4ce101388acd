"""The two-stage hint: first the kind of action and where (``where_hint``), then the action
itself. The first stage leaves the choice that makes the puzzle (which tile shape, village
hex and rotation; what palace value; where a developer goes; which cards) to the user."""

from __future__ import annotations

from core.actions import Action, Draw, Enter, Exit, Festival, Irrigate, Move, Palace, Tile, Token
from core.hexmap import hex_name


def where_hint(a: Action) -> str:
    """Stage 1: e.g. "a 2-space tile, one of its hexes on G5" (R9–R14 decide the rest)."""
    if isinstance(a, Tile):
        first = min(hex_name(h) for h in a.hexes)
        return f"place a {len(a.hexes)}-space tile, one of its hexes on {first}"
    if isinstance(a, Move):
        return f"move the developer on {hex_name(a.src)}"
    if isinstance(a, Enter):
        return f"enter a developer, in row {hex_name(a.hex)[0]}"
    if isinstance(a, Exit):
        return f"take a developer off the board (R27), on {hex_name(a.hex)}"
    if isinstance(a, Palace):
        return f"build or enlarge a palace on {hex_name(a.hex)} (which value?)"
    if isinstance(a, Irrigate):
        return f"place an irrigation tile in row {hex_name(a.hex)[0]} (R37)"
    if isinstance(a, Festival):
        return f"hold a festival at the palace {hex_name(a.hex)} (which cards?)"
    if isinstance(a, Token):
        return "spend an action token (R7) first"
    if isinstance(a, Draw):
        return "draw a festival card"
    return f"{a.kind}"
