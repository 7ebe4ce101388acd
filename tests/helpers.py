"""A small builder for hand-built positions used by the rule tests.

Two ways to build a position:

- ``build(...)`` writes a notation.md position dict and loads it with ``position_from_dict``, so
  the position is validated and its material adds up (tiles come out of the supplies, developers
  off the board, palaces out of the supply). Tiles are given in action text without the verb:
  ``"G6v G5r H5r"``, listed bottom first (the order placed).
- ``lay(s, "G6v G5r")`` puts a tile on a state directly, with no legality check and no material
  bookkeeping, for positions the rules could not reach cheaply (tiny maps, emptied supplies).

``play(s, "tile G6v G5r H5r; end")`` pushes actions through the engine.
"""

from __future__ import annotations

import asyncio
import functools
import os
import random
from collections import defaultdict
from collections.abc import AsyncIterator, Callable, Coroutine, Iterable, Iterator, Mapping
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from core.actions import RICE, VILLAGE, Action, parse_action, parse_actions
from core.hexmap import hex_name, parse_hex
from core.position import position_from_dict, position_to_dict
from core.state import GameState

if TYPE_CHECKING:  # the rule tests import this module without loading Textual
    from textual.pilot import Pilot
    from textual.screen import Screen

    from core.game import Game
    from tui.app import KratonApp
    from tui.session import Session

TERRAIN = {"v": "village", "r": "rice"}


def H(name: str) -> int:
    """The hex id of a name ('G6')."""
    return parse_hex(name)


def names(hexes: Iterable[int]) -> list[str]:
    return sorted(hex_name(h) for h in hexes)


def tile_cells(text: str) -> dict[str, str]:
    """'G6v G5r H5r' -> {'G6': 'village', 'G5': 'rice', 'H5': 'rice'} (position-file form)."""
    out = {}
    for word in text.split():
        out[word[:-1].upper()] = TERRAIN[word[-1].lower()]
    return out


def tower(hex_name_: str, level: int, top: str = "v") -> list[str]:
    """One-space tiles stacking ``hex_name_`` up to ``level``; the top one has terrain ``top``.

    Lower tiles alternate terrain so that no material kind runs out early. Single tiles stack
    on single tiles here, which R13 forbids: ``build`` lets them (``position_from_dict(...,
    r13=False)``); a position file with such a stack is refused."""
    out = []
    for i in range(level):
        t = top if i == level - 1 else ("r" if i % 2 == 0 else "v")
        out.append(f"{hex_name_}{t}")
    return out


def base_dict(players: int = 2, seed: int = 0) -> dict[str, Any]:
    return position_to_dict(GameState.new(players, seed=seed))


def build(
    *,
    players: int = 2,
    to_move: int = 0,
    tiles: Iterable[str] = (),
    developers: Mapping[str, int] | None = None,
    palaces: Mapping[str, int | tuple[int, bool]] | None = None,
    irrigation: Iterable[str] = (),
    ap: int = 6,
    token_used: bool = False,
    tile_placed: bool = True,
    palaces_changed: Iterable[str] = (),
    scores: list[int] | None = None,
    seed: int = 0,
) -> GameState:
    """A validated position. ``tile_placed`` defaults to True so that the tile obligation (R8)
    stays out of the way of tests about other rules; R8 tests pass ``tile_placed=False``.

    Two- and one-space tiles are taken from the first player whose supply still has one."""
    d = base_dict(players, seed)
    d["to_move"] = to_move
    if token_used:  # the token spent came from his 3 (R7)
        d["players"][to_move]["tokens"] = min(d["players"][to_move]["tokens"], 2)
    d["turn"] = {"ap": ap, "token_used": token_used, "tile_placed": tile_placed, "cards_drawn": 0,
                 "palaces_changed": list(palaces_changed)}
    tl = []
    for text in tiles:
        cells = tile_cells(text)
        tl.append({"hexes": cells})
        n = len(cells)
        if n == 3:
            d["supply"]["triples"] -= 1
            continue
        key = "doubles" if n == 2 else ("villages" if "village" in cells.values() else "rice")
        for p in d["players"]:
            if p[key] > 0:
                p[key] -= 1
                break
        else:
            raise AssertionError(f"builder: no {key} left for tile {text}")
    d["tiles"] = tl
    developers = dict(developers or {})
    d["developers"] = developers
    for i, p in enumerate(d["players"]):
        p["developers_off"] = 12 - sum(1 for o in developers.values() if o == i)
    pd = {}
    for name, v in (palaces or {}).items():
        value, held = (v, False) if isinstance(v, int) else v
        pd[name] = {"value": value, "festival_held": held}
        d["supply"]["palaces"][str(value)] -= 1
    d["palaces"] = pd
    d["irrigation"] = list(irrigation)
    d["supply"]["irrigation"] -= len(d["irrigation"])
    if scores is not None:
        for p, sc in zip(d["players"], scores):
            p["score"] = sc
    return position_from_dict(d, r13=False)  # ``tower``'s stacks (R13 is checked in files)


def lay(s: GameState, text: str) -> None:
    """Put a tile on the board directly: no legality, no material (see module doc)."""
    cells = tuple(sorted(((H(w[:-1]), VILLAGE if w[-1].lower() == "v" else RICE)
                          for w in text.split()), key=lambda c: (-c[1], c[0])))
    s.lay_tile(cells)


def put_dev(s: GameState, name: str, player: int) -> None:
    """Stand a developer of ``player`` on a hex directly (no legality)."""
    h = H(name)
    assert s.dev[h] < 0 and s.level[h] > 0, name
    s.dev[h] = player
    s.players[player].developers_off -= 1


def put_palace(s: GameState, name: str, value: int) -> None:
    """Put a palace on a hex directly (no legality), taking the piece from the supply."""
    h = H(name)
    s.palace[h] = value
    s.palace_supply[value] -= 1
    s._touch_terrain()


def play(s: GameState, text: str) -> None:
    """Push the actions of ``text`` (joined with ';')."""
    for a in parse_actions(text):
        s.push(a)


def act(text: str) -> Action:
    return parse_action(text)


def contested_festival() -> GameState:
    """Two players in the city of G6 (palace 2), both holding a card that matches the face-up
    one, and player 0's festival there opened: player 1 decides next (R32). Skips the test
    when no seed of 200 deals such hands."""
    import pytest

    from core.actions import Festival
    from core.festival import matching

    for seed in range(200):
        s = build(players=2, tiles=["G6v", "G7v", "G8v"], developers={"G7": 0, "G8": 1},
                  palaces={"G6": 2}, seed=seed)
        if matching(s.players[0].hand, s.face_up) and matching(s.players[1].hand, s.face_up):
            s.push(Festival(H("G6")))
            return s
    pytest.skip("no deal with matching cards for both players")


def level_map(s: GameState) -> dict[str, int]:
    return {hex_name(h): s.level[h] for h in s.map.hexes if s.level[h]}


def kind_counts(actions: Iterable[Action]) -> dict[str, int]:
    """Legal actions per kind; tiles split by size (``tile1``, ``tile2``, ``tile3``)."""
    out: dict[str, int] = defaultdict(int)
    for a in actions:
        k = a.kind
        if k == "tile":
            k = f"tile{a.size}"  # type: ignore[union-attr]
        out[k] += 1
    return dict(sorted(out.items()))


PART1_KINDS = ("tile1", "tile2", "tile3", "enter", "move", "exit", "palace", "irrigate", "draw",
               "token", "end")


def random_states(players: int, seed: int, steps: int) -> Iterator[tuple[GameState, random.Random]]:
    """The states of a seeded random game by kind (``benchmarks.common.choose``: a kind of
    action first, so developers, palaces and festivals come up), one per action, with the
    game's random generator; the caller leaves each state as it found it (push, then pop)."""
    from benchmarks.common import choose

    rng = random.Random(seed)
    s = GameState.new(players, seed=seed)
    for _ in range(steps):
        if s.is_terminal():
            return
        yield s, rng
        s.push(choose(list(s.legal_actions()), rng, True))


def aio(fn: Callable[..., Coroutine[Any, Any, None]]) -> Callable[..., None]:
    """Run an async Pilot test in its own event loop (no pytest-asyncio needed)."""

    @functools.wraps(fn)
    def wrapper(*args: object, **kwargs: object) -> None:
        asyncio.run(fn(*args, **kwargs))

    return wrapper


async def take_keyboard(pilot: Any) -> None:
    """A hot-seat game opens on the hand-over (R44): the first human to decide confirms he is
    at the keyboard (Enter)."""
    from tui.screens.handover import HandOverScreen

    await pilot.pause()
    if isinstance(pilot.app.screen, HandOverScreen):
        await pilot.press("enter")
        await pilot.pause()


S = TypeVar("S", bound="Screen[Any]")


@asynccontextmanager
async def open_app(expect: type[S], mode: str = "play", path: str | Path | None = None, *,
                   game: Game | Session | None = None, size: tuple[int, int] = (120, 40),
                   keyboard: bool = True) -> AsyncIterator[tuple[KratonApp, Pilot[None], S]]:
    """A Pilot test's usual opening: the app (``tui.app.create_app``, with no pause between a
    computer player's actions) on ``game``, or on ``path`` in ``mode``, run at ``size``. Once
    it has settled (``take_keyboard``; with ``keyboard=False`` one pause, a hand-over left up)
    the screen on top must be an ``expect`` (``Screen`` when any will do). Yields the app, the
    pilot and that screen; the app stops when the block ends."""
    from tui.app import create_app

    app = create_app(mode, None if path is None else str(path), step_delay=0, game=game)
    async with app.run_test(size=size) as pilot:
        if keyboard:
            await take_keyboard(pilot)
        else:
            await pilot.pause()
        screen = app.screen
        assert isinstance(screen, expect), screen
        yield app, pilot, screen


def children_running(module: str) -> int:
    """Child processes of this one still running ``python -m module`` (Linux's /proc; 0 where
    there is none): the solver's helpers must not outlive their solve."""
    n = 0
    for pid in os.listdir("/proc") if os.path.isdir("/proc") else ():
        try:
            with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                cmd = f.read().split(b"\0")
        except (OSError, ValueError, IndexError):
            continue
        n += ppid == os.getpid() and module.encode() in cmd
    return n
