"""What a map implies lives on the map (the shapes through each hex, ``HexMap.shapes_at``), and
caches of what a map and a position imply (the pond bound's covers, the evaluation's ponds) are
keyed on the map object, never on ``id(map)`` (core/hexmap.py, ``MAPS_KEPT``): CPython hands a freed object's address to the next object made, so a map dropped and another
made in its place would get the first one's entries, and the bound (R10, R12, R37) would be
worked out on hexes the board does not have."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Callable

import pytest

from analysis.evaluation import ponds
from analysis.solver.bound_ponds import _cover, _flat_shapes
from core.actions import Tile
from core.hexmap import parse_map
from core.state import GameState, Player


def _covers(s: GameState) -> object:
    """The pond bound's covers (remembered per map) of each hex alone."""
    return [_cover(s, {h}) for h in s.map.hexes]


CACHED: list[Callable[[GameState], object]] = [_covers, ponds]


def _state(width: int, name: str) -> GameState:
    """Two players on a small map ``width`` central spaces wide (lowland north, mountains
    south, R4)."""
    text = "\n".join(["L " * (width + 2), " L" + " ." * width + " L",
                      "L" + " ." * (width + 1) + " L", " L" + " ." * width + " L",
                      "M " * (width + 2)])
    return GameState(parse_map(text, name), [Player("A"), Player("B")])


@pytest.mark.parametrize("cached", CACHED, ids=lambda f: f.__name__)
def test_r04_a_map_with_cached_entries_is_not_freed_so_no_other_map_takes_its_address(
        cached: Callable[[GameState], object]) -> None:
    s = _state(4, f"held-by-{cached.__name__}")
    cached(s)
    held = weakref.ref(s.map)
    del s
    gc.collect()
    assert held() is not None  # an entry keyed on id(map) would let it go


def test_r04_maps_made_one_after_another_each_get_their_own_shapes() -> None:
    # Two widths in turn, each dropped before the next is made: each has hexes the other
    # lacks, so an entry handed to the wrong map shows.
    for i in range(80):
        s = _state(4 + i % 2, f"in-turn-{i}")
        m, on_map = s.map, set(s.map.hexes)
        tris, pairs = m.tris_at, m.partners
        assert {tuple(sorted((a, b))) for a in m.hexes for b in pairs[a]} == set(m.pairs), i
        assert {t for h in m.hexes for t in tris[h]} == set(m.triangles), i
        assert {x for h in m.hexes for shape in m.shapes_at[h] for x in shape} <= on_map, i
        assert {x for h in m.hexes for shape, _, _ in _flat_shapes(s, m.hexes)[h] for x in shape} <= on_map, i
        assert {x for pond, ring in ponds(s) for x in (*pond, *ring)} <= on_map, i
        del m, s
        gc.collect()


def test_r04_the_caches_hold_a_few_maps_not_every_map_ever_met() -> None:
    # Move generation (R10: the shapes of every tile) and the bound, over 40 maps in turn.
    first = _state(4, "first-of-many")
    assert any(isinstance(a, Tile) for a in first.legal_actions())
    held = weakref.ref(first.map)
    del first
    for i in range(40):
        s = _state(4 + i % 2, f"one-of-many-{i}")
        list(s.legal_actions())
        _covers(s)
    del s
    gc.collect()
    assert held() is None
