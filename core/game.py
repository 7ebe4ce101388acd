"""The one game session: a game in the style of OpenSpiel over ``GameState``, with its history.

``Game`` is what the app, the tournament, the puzzle miner, ``kraton replay`` and the review
drive: ``current_player``, ``legal_actions``, ``apply_action``, ``is_terminal``, ``returns``
(OpenSpiel), plus what a game needs beyond a position — the start position, who took each
action, turn boundaries, every player's score after each action and turn, undo and redo, the
position after any number of actions (``state_at``, without touching the live state), the seats
(human or which computer player), comments and per-turn evaluations, and the stall
adjudication of a tournament. ``record()`` / ``Game.from_record`` write and read it as a
``java-game`` record (``core.record``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from core.actions import Action, End, Festival, parse_action
from core.errors import KratonError
from core.observation import as_seen_by, determinize, observation
from core.position import position_from_dict, position_to_dict
from core.state import GameState

if TYPE_CHECKING:
    from core.record import GameRecord

TERMINAL = -4  # OpenSpiel's kTerminalPlayerId
MAX_ACTIONS = 20000  # a safety stop for automatic play; real games take about 1,000 actions
POLICIES = ("uniform", "kinds", "festive")
CHECKPOINT = 64  # ``state_at`` keeps a copy of the position every this many actions
STALL_ROUNDS = 3  # rounds without any tile placed before a game is adjudicated (``apply_watching_stall``)


@dataclass(frozen=True)
class Step:
    """One action of the game and what it did."""

    action: Action
    player: int  # who took it: the mover, or a bidder during a festival (R32)
    mover: int  # whose turn it belongs to
    turn: int  # 0-based index of that turn
    scores: tuple[int, ...]  # every player's score after it


@dataclass(frozen=True)
class TurnSpan:
    """One turn: the actions ``first .. end-1`` (0-based, ``game.actions[first:end]``)."""

    index: int  # 0-based; "turn index + 1" in what users read
    player: int  # whose turn
    first: int
    end: int
    before: tuple[int, ...]  # scores when it started
    after: tuple[int, ...]  # scores after its last action
    complete: bool  # ended with ``end`` or a resolved festival (R9, R30)

    @property
    def points(self) -> int:
        """What the player whose turn it was scored in it."""
        return self.after[self.player] - self.before[self.player]

    @property
    def deltas(self) -> tuple[int, ...]:
        return tuple(a - b for a, b in zip(self.after, self.before))


class Game:
    """One game from a start position; every action goes through ``apply_action``."""

    def __init__(self, state: GameState, seats: list[str | None] | None = None,
                 tags: dict[str, str] | None = None) -> None:
        self.start = position_to_dict(state)
        self.base_dir: str | None = None  # where a map given as a relative path is found
        self.state = state
        self.steps: list[Step] = []
        self.actions: list[Action] = []
        self.turns = 0  # completed turns (each ends with ``end`` or a resolved festival, R9)
        self.festivals = 0  # festivals resolved
        self.seats: list[str | None] = list(seats) if seats else [None] * state.n_players
        self.tags: dict[str, str] = dict(tags or {})
        self.comments: dict[int, str] = {}  # action number (1-based) -> comment
        self.evaluations: dict[int, dict[str, Any]] = {}  # turn number (1-based) -> evaluation
        self.adjudication: tuple[int, int] | None = None  # (after N actions, mover), see adjudicate
        self._redo: list[Action] = []
        self._checkpoints: dict[int, GameState] = {}
        self._version = 0  # moves on with every push and undo: ``turn_spans`` is cached on it
        self._spans: tuple[int, list[TurnSpan]] | None = None
        self._idle = 0  # turns in a row without a tile (``apply_watching_stall``)

    @classmethod
    def new(cls, n_players: int = 4, seed: int = 0, names: list[str] | None = None,
            map_spec: str = "java-centre", seats: list[str | None] | None = None) -> Game:
        return cls(GameState.new(n_players, seed=seed, names=names, map_spec=map_spec), seats)

    # ------------------------------------------------------------------ OpenSpiel-style
    def current_player(self) -> int:
        """Whose decision it is (the bidder during a festival, R32), or TERMINAL."""
        return TERMINAL if self.state.is_terminal() else self.state.current_player()

    def legal_actions(self) -> list[Action]:
        """Every legal action of the current player, in the engine's (deterministic) order."""
        return list(self.state.legal_actions())

    def apply_action(self, action: Action | str) -> None:
        """Apply an action (or its text); raises IllegalAction / NotationError (ValueErrors).
        A new action drops what ``undo`` took back, unless it is the action ``redo`` would play."""
        a = parse_action(action) if isinstance(action, str) else action
        self._push(a)
        if self._redo and self._redo[-1] == a:
            self._redo.pop()
        else:
            self._redo.clear()

    def _push(self, a: Action) -> None:
        s = self.state
        player, mover = s.current_player(), s.to_move
        in_festival = s.festival is not None or isinstance(a, Festival)
        s.push(a)
        self.steps.append(Step(a, player, mover, self.turns, tuple(p.score for p in s.players)))
        self.actions.append(a)
        self._version += 1
        if isinstance(a, End):
            self.turns += 1
        elif in_festival and s.festival is None:
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

    def observation(self, player: int) -> dict[str, Any]:
        """The position as ``player`` may see it (R44); see ``core.observation``."""
        return observation(self.state, player)

    # ------------------------------------------------------------------ history
    def undo(self) -> Action:
        """Take back the last action (``redo`` plays it again). Refused before the first action
        and across a stall adjudication, which is not an action."""
        if not self.steps:
            raise KratonError("nothing to undo: the game is at its start position")
        if self.adjudication is not None and self.adjudication[0] >= len(self.steps):
            raise KratonError("the stall adjudication cannot be undone (tournament rule)")
        step = self.steps.pop()
        self.actions.pop()
        self.state.pop()
        self._version += 1
        if self.turns > step.turn:
            self.turns = step.turn
            if not isinstance(step.action, End):
                self.festivals -= 1
        self._redo.append(step.action)
        n = len(self.steps)
        self._checkpoints = {k: v for k, v in self._checkpoints.items() if k <= n}
        return step.action

    def redo(self) -> Action:
        """Play again the last action taken back."""
        if not self._redo:
            raise KratonError("nothing to redo")
        a = self._redo[-1]
        self._push(a)
        self._redo.pop()
        return a

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    def scores_at(self, n: int) -> tuple[int, ...]:
        """Every player's score after the first ``n`` actions."""
        if n == 0:
            return tuple(int(p["score"]) for p in self.start["players"])
        return self.steps[n - 1].scores

    def turn_spans(self) -> list[TurnSpan]:
        """The turns played so far, the last one possibly still in progress (computed once per
        change of the history: the app's move list and cursor ask for them on every key)."""
        if self._spans is not None and self._spans[0] == self._version:
            return list(self._spans[1])
        spans: list[TurnSpan] = []
        first = 0
        for i, st in enumerate(self.steps):
            last = i + 1 == len(self.steps)
            if last or self.steps[i + 1].turn != st.turn:
                spans.append(TurnSpan(st.turn, st.mover, first, i + 1, self.scores_at(first),
                                      st.scores, st.turn < self.turns))
                first = i + 1
        self._spans = (self._version, spans)
        return list(spans)

    def score_history(self) -> list[tuple[int, ...]]:
        """Scores at the start and after each completed turn (the score chart's points)."""
        return [self.scores_at(0)] + [t.after for t in self.turn_spans() if t.complete]

    def state_at(self, n: int) -> GameState:
        """A copy of the position after the first ``n`` actions; the live state is untouched."""
        if not 0 <= n <= len(self.steps):
            raise KratonError(f"the game has {len(self.steps)} actions, not {n}")
        if n == len(self.steps):
            return self.state.copy()
        from core.endgame import adjudicate_stall

        k = max((c for c in self._checkpoints if c <= n), default=0)
        s = (self._checkpoints[k] if k else self._start_state()).copy()
        for i in range(k, n):
            s.push(self.actions[i])
            if self.adjudication is not None and self.adjudication[0] == i + 1:
                adjudicate_stall(s, self.adjudication[1])
            if (i + 1) % CHECKPOINT == 0 and i + 1 not in self._checkpoints:
                self._checkpoints[i + 1] = s.copy()
        return s

    def _start_state(self) -> GameState:
        return position_from_dict(self.start, self.base_dir)

    # ------------------------------------------------------------------ tournaments
    def adjudicate(self) -> None:
        """End a stalled game (tournament rule, ``core.endgame.adjudicate_stall``) after the
        turn just finished; the record keeps it so the game replays to the same result."""
        from core.endgame import adjudicate_stall

        mover = self.steps[-1].mover if self.steps else (self.state.to_move - 1) % self.state.n_players
        adjudicate_stall(self.state, mover)
        self.adjudication = (len(self.steps), mover)
        self._redo.clear()

    def apply_watching_stall(self, action: Action) -> None:
        """``apply_action``, then the tournament rule for a stalled game: once ``STALL_ROUNDS``
        rounds went by without a tile (three-space tiles left, every flat spot blocked by
        developers nobody moves, R8's lapse), ``adjudicate``. For games computer players play
        to the end (tournaments, the puzzle miner), which R40 alone would never end."""
        turns, tiles = self.turns, len(self.state.tiles)
        self.apply_action(action)
        if len(self.state.tiles) > tiles:
            self._idle = 0
        if self.turns > turns:
            self._idle += 1
            s = self.state
            if (self._idle >= STALL_ROUNDS * s.n_players and s.last_round is None
                    and not s.is_terminal() and s.festival is None):
                self.adjudicate()

    # ------------------------------------------------------------------ records
    def copy(self) -> Game:
        g = Game.__new__(Game)
        g.__dict__.update(self.__dict__)
        g.state = self.state.copy()
        g.steps, g.actions, g._redo = list(self.steps), list(self.actions), list(self._redo)
        g.seats, g.tags = list(self.seats), dict(self.tags)
        g.comments, g.evaluations = dict(self.comments), {k: dict(v) for k, v in self.evaluations.items()}
        g._checkpoints = dict(self._checkpoints)
        return g

    clone = copy

    def record(self, tags: dict[str, str] | None = None) -> GameRecord:
        """The game as a ``java-game`` record, with its seats, comments and evaluations."""
        from core.record import GameRecord, parse_seats, seats_tag

        t = dict(self.tags)
        if any(self.seats) and parse_seats(t.get("players", "")) != self.seats:
            t["players"] = seats_tag(self.seats)  # "planner x4" stays as written
        t.update(tags or {})
        ann: dict[str, Any] = {}
        if self.comments:
            ann["comments"] = {str(k): v for k, v in sorted(self.comments.items())}
        if self.evaluations:
            ann["evaluations"] = {str(k): v for k, v in sorted(self.evaluations.items())}
        return GameRecord(self.start, list(self.actions), t, ann, adjudication=self.adjudication)

    @classmethod
    def from_record(cls, rec: GameRecord, base_dir: str | None = None) -> Game:
        """Replay a record (``GameRecord.replay``)."""
        return rec.replay(base_dir=base_dir)


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


__all__ = ["TERMINAL", "Game", "Step", "TurnSpan", "as_seen_by", "determinize", "observation",
           "play_random_game", "random_action"]
