"""kraton rules engine: the board, the state, actions, legality, ranking and scoring of Java.

Importable without any UI or solver code (see tests/test_layering.py).
"""

from core.actions import Action, parse_action, parse_actions
from core.errors import IllegalAction, KratonError, MapError, NotationError, PositionError
from core.hexmap import HexMap, load_map
from core.state import GameState

__all__ = [
    "Action",
    "GameState",
    "HexMap",
    "IllegalAction",
    "KratonError",
    "MapError",
    "NotationError",
    "PositionError",
    "load_map",
    "parse_action",
    "parse_actions",
]
