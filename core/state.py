"""The game state: a mutable board with ``push(action)`` / ``pop()`` and ``copy()``.

Board data lives in flat lists indexed by hex id (``core.hexmap``). ``push`` checks the action
(``core.legality``), applies it and records an undo entry: board writes go to a journal,
everything else is snapshot. ``pop`` undoes the last action exactly.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from core import legality
from core.actions import (
    VILLAGE,
    Action,
    Agree,
    Bid,
    Draw,
    End,
    Enter,
    Exit,
    Festival,
    Irrigate,
    Move,
    Palace,
    Pass,
    Tile,
    Token,
)
from core.errors import IllegalAction
from core.groups import Groups, pond_at, pond_ring, update_groups, village_groups, with_palace
from core.hexmap import SIZE, HexMap, load_map
from core.paths import move_costs

AP_PER_TURN = 6
TRIPLES = 56
IRRIGATION_TILES = 16
PALACE_SUPPLY = {2: 6, 4: 7, 6: 8, 8: 9, 10: 10}
DEVELOPERS = 12
TOKENS = 3
DOUBLES, RICE_SINGLES, VILLAGE_SINGLES = 5, 3, 2
PLAYER_NAMES = ("Red", "Yellow", "Blue", "Green")


@dataclass
class Player:
    name: str
    score: int = 0
    tokens: int = TOKENS
    doubles: int = DOUBLES
    rice: int = RICE_SINGLES
    villages: int = VILLAGE_SINGLES
    developers_off: int = DEVELOPERS
    hand: list[str] = field(default_factory=list)
    final_counted: bool = False

    def snapshot(self) -> tuple[Any, ...]:
        return (self.score, self.tokens, self.doubles, self.rice, self.villages,
                self.developers_off, tuple(self.hand), self.final_counted)

    def restore(self, snap: tuple[Any, ...]) -> None:
        (self.score, self.tokens, self.doubles, self.rice, self.villages,
         self.developers_off, hand, self.final_counted) = snap
        self.hand = list(hand)


@dataclass
class Turn:
    """The turn in progress (notation.md key ``turn``)."""

    ap: int = AP_PER_TURN
    token_used: bool = False
    tile_placed: bool = False
    cards_drawn: int = 0
    palaces_changed: list[int] = field(default_factory=list)


class GameState:
    """A Java position. Build one with ``GameState.new`` or ``core.position.load_position``."""

    def __init__(self, hexmap: HexMap, players: list[Player]) -> None:
        self.map = hexmap
        self.players = players
        self.to_move = 0
        self.turn = Turn()
        self.last_round: list[int] | None = None
        self.triples = TRIPLES
        self.irrigation_supply = IRRIGATION_TILES
        self.palace_supply = [0] * 11
        for v, c in PALACE_SUPPLY.items():
            self.palace_supply[v] = c
        self.face_up: str | None = None
        self.deck: list[str] = []
        self.discard: list[str] = []
        self.seed = 0
        self.reshuffles = 0
        self.festival: Any = None  # an immutable festival-in-progress value (core.festival)
        # Board, flat per hex id.
        self.level = [0] * SIZE
        self.terrain = [0] * SIZE
        self.top = [-1] * SIZE  # index into self.tiles of the tile showing on top
        self.dev = [-1] * SIZE
        self.palace = [0] * SIZE
        self.fest = [False] * SIZE  # palace held its festival since it last changed value (R35)
        self.irrigated = [False] * SIZE
        for h in hexmap.printed_irrigation:
            self.irrigated[h] = True
        self.tiles: list[tuple[tuple[int, int], ...]] = []
        self.placed_irrigation: list[int] = []
        self.history: list[Action] = []
        self._journal: list[tuple[list[Any], int, Any]] = []
        self._undo: list[tuple[Any, ...]] = []
        # Groups depend on terrain and palaces only: ``_tv`` names that part of the board.
        # Versions come from a counter that never repeats and are restored by ``pop``, so a
        # cached value keyed by version is valid whenever the version matches.
        self._counter = 0
        self._tv = 0
        self._groups: Groups | None = None
        self._groups_version = -1
        # Incremental groups: after a tile or palace, (new version, old version, old groups,
        # what changed) to update the old groups from when next asked; the groups replaced last
        # (version, groups), which the ``pop`` coming back to them finds again.
        self._groups_pending: tuple[int, int, Groups, int | tuple[int, ...]] | None = None
        self._groups_prev: tuple[int, Groups] | None = None
        # Path costs (R27) worked out by ``legal_actions``, for the push of a move to find
        # again: (board version, mover, developers) -> {source: costs}. ``path_costs``.
        self._paths: tuple[tuple[Any, ...], dict[int, tuple[int, dict[int, int]]]] | None = None
        # The tile placement the last R8 check found (``movegen.some_placement``): only where
        # to look first, so it needs no undo and a copy may share it.
        self._r8_hint: Tile | None = None

    # ----------------------------------------------------------------- construction
    @classmethod
    def new(cls, n_players: int = 4, seed: int = 0, names: list[str] | None = None,
            map_spec: str = "java-centre") -> GameState:
        """A fresh start position (R1, R3): shuffled deck, one card face up, three cards each,
        a random starting player."""
        if not 2 <= n_players <= 4:
            raise ValueError(f"Java is for 2 to 4 players (R1), not {n_players}")
        names = list(names or PLAYER_NAMES[:n_players])
        if len(names) != n_players:
            raise ValueError(f"{len(names)} names given for {n_players} players")
        s = cls(load_map(map_spec), [Player(name) for name in names])
        rng = random.Random(seed)
        deck = [k for k in ("D", "M", "P", "DM", "DP", "MP") for _ in range(5)]
        rng.shuffle(deck)
        s.face_up = deck.pop(0)
        for p in s.players:
            p.hand = [deck.pop(0) for _ in range(3)]
        s.deck = deck
        s.to_move = rng.randrange(n_players)
        s.seed = seed
        return s

    def copy(self) -> GameState:
        """An independent copy without the undo stack (like python-chess ``copy(stack=False)``)."""
        c = GameState.__new__(GameState)
        c.__dict__.update(self.__dict__)
        c.players = [Player(p.name, p.score, p.tokens, p.doubles, p.rice, p.villages,
                            p.developers_off, list(p.hand), p.final_counted) for p in self.players]
        c.turn = Turn(self.turn.ap, self.turn.token_used, self.turn.tile_placed,
                      self.turn.cards_drawn, list(self.turn.palaces_changed))
        c.last_round = None if self.last_round is None else list(self.last_round)
        c.palace_supply = list(self.palace_supply)
        c.deck, c.discard = list(self.deck), list(self.discard)
        for name in ("level", "terrain", "top", "dev", "palace", "fest", "irrigated"):
            setattr(c, name, list(getattr(self, name)))
        c.tiles = list(self.tiles)
        c.placed_irrigation = list(self.placed_irrigation)
        c.history = list(self.history)
        c._journal, c._undo = [], []
        c._groups, c._groups_version = self._groups, self._groups_version
        c._paths = None  # versions of the copy and the original may meet on other boards
        return c

    # ----------------------------------------------------------------- derived data
    @property
    def n_players(self) -> int:
        return len(self.players)

    def groups(self) -> Groups:
        """Village groups (R20–R22), cached per board version."""
        if self._groups_version == self._tv and self._groups is not None:
            return self._groups
        pend, prev = self._groups_pending, self._groups_prev
        if pend is not None and pend[0] == self._tv:
            _, old_v, old_g, change = pend
            if isinstance(change, int):
                g = with_palace(old_g, change)
            else:
                g = update_groups(old_g, change, self.terrain, self.map.nbrs, self.palace)
            self._groups_prev = (old_v, old_g)
        elif prev is not None and prev[0] == self._tv:
            g = prev[1]
            if self._groups is not None:
                self._groups_prev = (self._groups_version, self._groups)
        else:
            g = village_groups(self.map.hexes, self.terrain, self.map.nbrs, self.palace, SIZE)
        self._groups, self._groups_version = g, self._tv
        return g

    def path_costs(self, src: int, limit: int) -> dict[int, int]:
        """``paths.move_costs`` for the mover's developer on ``src``, remembered until the board
        or a developer changes: a search generates every move of a position (``legal_actions``)
        and then pushes each one, whose check (``check_move``) finds its cost here instead of
        walking the board again. Every hex within ``limit`` AP is there, and maybe dearer ones
        (worked out with more AP: the key names no AP). The key is the terrain and palace
        version (``_tv``: every tile and palace), the mover and where every developer stands
        (``dev``, which no version names)."""
        key = self._paths_key()
        got = self._paths
        if got is None or got[0] != key:
            got = self._paths = (key, {})
        known = got[1].get(src)
        if known is not None and known[0] >= limit:
            return known[1]
        costs = move_costs(src, self.to_move, self.level, self.terrain, self.dev, self.palace,
                           self.map.nbrs, limit)
        got[1][src] = (limit, costs)
        return costs

    def cached_path_cost(self, src: int, dst: int) -> int | None:
        """The cost of the cheapest path from ``src`` to ``dst`` if ``path_costs`` worked it
        out on this board (None: not known here, which says nothing about the path)."""
        got = self._paths
        if got is None:
            return None
        known = got[1].get(src)
        if known is None or got[0] != self._paths_key():
            return None
        return known[1].get(dst)

    def _paths_key(self) -> tuple[Any, ...]:
        """What path costs depend on (``path_costs``): levels, terrain and palaces (``_tv``),
        the mover (whose developers he may pass) and every developer's hex."""
        return self._tv, self.to_move, tuple(self.dev)

    def _touch_groups(self, change: int | tuple[int, ...]) -> None:
        """New board version after a tile (``change`` = its hexes) or a palace built on hex
        ``change``: when the groups of the board before are cached, the next ``groups()``
        updates them incrementally instead of walking the board."""
        old_v = self._tv
        self._touch_terrain()
        if self._groups is not None and self._groups_version == old_v:
            self._groups_pending = (self._tv, old_v, self._groups, change)

    def developers(self, player: int | None = None) -> list[int]:
        return [h for h in self.map.hexes if self.dev[h] >= 0 and (player is None or self.dev[h] == player)]

    def current_player(self) -> int:
        """Whose decision it is: the mover, or during a festival the bidder to decide (R32)."""
        if self.festival is not None:
            return int(self.festival.to_decide)
        return self.to_move

    def is_terminal(self) -> bool:
        """R40: the last round is over and every player has made his final count."""
        return (self.last_round is not None and not self.last_round
                and all(p.final_counted for p in self.players) and self.festival is None)

    def token_bonus(self) -> int:
        return int(not self.turn.token_used and self.players[self.to_move].tokens > 0)

    def obligation_pending(self) -> bool:
        """R8 / R40: a tile must still be placed this turn."""
        return self.last_round is None and not self.turn.tile_placed

    # ----------------------------------------------------------------- push / pop
    def lay_tile(self, cells: tuple[tuple[int, int], ...]) -> None:
        """Put a tile on the board with no legality check and no material accounting: for
        position loading and hand-built positions. Play goes through ``push``."""
        index = len(self.tiles)
        self.tiles.append(cells)
        for h, t in cells:
            self.level[h] += 1
            self.terrain[h] = t
            self.top[h] = index
        self._touch_terrain()

    def _touch_terrain(self) -> None:
        self._counter += 1
        self._tv = self._counter

    def _w(self, arr: list[Any], i: int, v: Any) -> None:
        self._journal.append((arr, i, arr[i]))
        arr[i] = v

    def _snapshot(self) -> tuple[Any, ...]:
        t = self.turn
        return (
            self.to_move,
            tuple(p.snapshot() for p in self.players),
            (t.ap, t.token_used, t.tile_placed, t.cards_drawn, tuple(t.palaces_changed)),
            None if self.last_round is None else tuple(self.last_round),
            (self.triples, self.irrigation_supply, tuple(self.palace_supply)),
            (self.face_up, tuple(self.deck), tuple(self.discard), self.reshuffles),
            len(self.tiles),
            len(self.placed_irrigation),
            self.festival,
            self._tv,
        )

    def _restore(self, snap: tuple[Any, ...]) -> None:
        (self.to_move, players, turn, last_round, supply, cards, ntiles, nirr, self.festival,
         self._tv) = snap
        for p, ps in zip(self.players, players):
            p.restore(ps)
        ap, tu, tp, cd, pc = turn
        self.turn = Turn(ap, tu, tp, cd, list(pc))
        self.last_round = None if last_round is None else list(last_round)
        self.triples, self.irrigation_supply, ps_ = supply
        self.palace_supply = list(ps_)
        self.face_up, deck, discard, self.reshuffles = cards
        self.deck, self.discard = list(deck), list(discard)
        del self.tiles[ntiles:]
        del self.placed_irrigation[nirr:]

    def push(self, action: Action) -> None:
        """Check and apply ``action`` for whoever is to act; raises IllegalAction (a ValueError)."""
        snap = self._snapshot()
        mark = len(self._journal)
        self._undo.append((snap, mark))
        try:
            self._apply(action)
        except BaseException:
            self._rollback(snap, mark)
            self._undo.pop()
            raise
        self.history.append(action)

    def pop(self) -> Action:
        """Undo the last pushed action and return it."""
        if not self._undo:
            raise IndexError("pop from an empty move stack")
        snap, mark = self._undo.pop()
        self._rollback(snap, mark)
        return self.history.pop()

    def _rollback(self, snap: tuple[Any, ...], mark: int) -> None:
        j = self._journal
        while len(j) > mark:
            arr, i, old = j.pop()
            arr[i] = old
        self._restore(snap)

    def is_legal(self, action: Action) -> bool:
        try:
            self.push(action)
        except IllegalAction:
            return False
        self.pop()
        return True

    # ----------------------------------------------------------------- application
    def _apply(self, a: Action) -> None:
        if self.is_terminal():
            raise IllegalAction(a, "R40", "the game is over")
        if self.festival is not None or isinstance(a, (Festival, Bid, Pass, Agree)):
            from core import festival  # part 2: festivals (R30–R35)

            festival.apply(self, a)
            return
        if isinstance(a, End):
            self._end_turn(a)
            return
        check = legality.CHECKS.get(type(a))
        if check is None:
            raise IllegalAction(a, "R9", "not an action of a turn")
        before = None  # R8: a placement that fits now, while a tile is owed
        if self.obligation_pending() and not isinstance(a, (Tile, Token)):
            from core.movegen import some_placement

            before = some_placement(self, self.turn.ap + self.token_bonus())
        cost = check(self, a)  # type: ignore[operator]
        self.turn.ap -= cost
        getattr(self, "_do_" + a.kind)(a)
        if before is not None:
            from core.movegen import still_placeable

            if not still_placeable(self, a, before):
                raise IllegalAction(
                    a, "R8", "after it no land tile could be placed this turn; place a tile first"
                )

    def _do_tile(self, a: Tile) -> None:
        p = self.players[self.to_move]
        n = a.size
        if n == 3:
            self.triples -= 1
        elif n == 2:
            p.doubles -= 1
        elif a.cells[0][1] == VILLAGE:
            p.villages -= 1
        else:
            p.rice -= 1
        index = len(self.tiles)
        self.tiles.append(a.cells)
        was_bare = []
        for h, t in a.cells:
            if self.level[h] == 0:
                was_bare.append(h)
            self._w(self.level, h, self.level[h] + 1)
            self._w(self.terrain, h, t)
            self._w(self.top, h, index)
        self.turn.tile_placed = True
        self._touch_groups(a.hexes)
        # R38: ponds next to a hex that was bare may now be enclosed.
        seen: set[int] = set()
        for h in was_bare:
            for nb in self.map.nbrs[h]:
                if self.irrigated[nb] and nb not in seen:
                    pond = pond_at(nb, self.irrigated, self.map.nbrs)
                    seen.update(pond)
                    self._score_pond_if_enclosed(pond)
        if n == 3 and self.triples == 0 and self.last_round is None:
            # R40: the last three-space tile; the others each play one more turn.
            k = self.n_players
            self.last_round = [(self.to_move + i) % k for i in range(1, k)]

    def _score_pond_if_enclosed(self, pond: list[int]) -> None:
        """R38: an enclosed pond scores 3 per space to the holder of the highest position."""
        ring = pond_ring(pond, self.map.nbrs)
        if any(self.level[h] == 0 for h in ring):
            return
        holder = legality.ring_holder(self, ring)
        if holder >= 0:
            self.players[holder].score += 3 * len(pond)

    def _do_enter(self, a: Enter) -> None:
        self.players[self.to_move].developers_off -= 1
        self._w(self.dev, a.hex, self.to_move)

    def _do_exit(self, a: Exit) -> None:
        self.players[self.to_move].developers_off += 1
        self._w(self.dev, a.hex, -1)

    def _do_move(self, a: Move) -> None:
        self._w(self.dev, a.src, -1)
        self._w(self.dev, a.dst, self.to_move)

    def _do_palace(self, a: Palace) -> None:
        self.palace_supply[a.value] -= 1
        self._w(self.palace, a.hex, a.value)
        self._w(self.fest, a.hex, False)
        self.turn.palaces_changed.append(a.hex)
        self.players[self.to_move].score += a.value // 2  # R29
        self._touch_groups(a.hex)  # built: one more city (R22); enlarged: the same groups

    def _do_irrigate(self, a: Irrigate) -> None:
        self.irrigation_supply -= 1
        self.placed_irrigation.append(a.hex)
        self._w(self.irrigated, a.hex, True)
        self._score_pond_if_enclosed(pond_at(a.hex, self.irrigated, self.map.nbrs))

    def _do_draw(self, a: Draw) -> None:
        p = self.players[self.to_move]
        if a.faceup:
            assert self.face_up is not None
            p.hand.append(self.face_up)
            self.face_up = self._deal()
        else:
            card = self._deal()
            assert card is not None
            p.hand.append(card)
        self.turn.cards_drawn += 1

    def _deal(self) -> str | None:
        """The deck's top card; an empty deck takes the shuffled discard pile first (R36)."""
        if not self.deck and self.discard:
            self.reshuffles += 1
            rng = random.Random(f"{self.seed}/{self.reshuffles}")
            self.deck = sorted(self.discard)
            rng.shuffle(self.deck)
            self.discard = []
        return self.deck.pop(0) if self.deck else None

    def _do_token(self, a: Token) -> None:
        self.players[self.to_move].tokens -= 1
        self.turn.token_used = True
        self.turn.ap += 1

    def _end_turn(self, a: Action) -> None:
        if self.obligation_pending():
            w = self.find_placement(self.turn.ap + self.token_bonus())
            if w is not None:
                raise IllegalAction(a, "R8", f"you must place at least one land tile this turn (e.g. {w})")
        self.finish_turn()

    def finish_turn(self) -> None:
        """End the mover's turn: final count in the last round (R40, R41), next player."""
        from core.scoring import final_count

        if self.last_round is None and not self.turn.tile_placed:
            from core.endgame import no_tile_can_ever_be_placed

            if no_tile_can_ever_be_placed(self):  # a dead board ends the game (core/endgame.py)
                k = self.n_players
                self.last_round = [(self.to_move + i) % k for i in range(1, k)]
        if self.last_round is not None:
            me = self.players[self.to_move]
            if not me.final_counted:
                me.score += final_count(self)[self.to_move]
                me.final_counted = True
            if not self.last_round:
                return  # game over (R40)
            self.to_move = self.last_round.pop(0)
        else:
            self.to_move = (self.to_move + 1) % self.n_players
        self.turn = Turn()

    # ----------------------------------------------------------------- generation
    def find_placement(self, budget: int, avoid: frozenset[int] = frozenset()) -> Tile | None:
        """A legal tile placement of cost ≤ budget (cheapest kinds first), or None (R8)."""
        from core.movegen import find_placement

        return find_placement(self, budget, avoid)

    def legal_actions(self) -> Iterator[Action]:
        """Every legal action of whoever is to act, lazily, without duplicates."""
        from core.movegen import legal_actions

        return legal_actions(self)

    def __repr__(self) -> str:
        return f"<GameState {self.map.name} players={self.n_players} to_move={self.to_move} ap={self.turn.ap}>"


__all__ = ["GameState", "Player", "Turn"]
