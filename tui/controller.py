"""The app's game controller, free of widgets: one ``Session`` played, previewed and looked back on.

Screens render it and call it; it tells them what changed through a listener list (``Event``).
Every action goes through ``core.game.Game.apply_action`` (the engine decides legality);
previews run on a scratch copy, never on the live state; looking back (``view_at``) shows a copy
made by ``Game.state_at``, so the game itself never changes while the user reads it. The
computer players' choice (``computer_choice``) is made on a copy too, so a screen can run it in
a worker thread and apply the result on the UI thread.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from core.actions import Action, Draw, End, Festival
from core.errors import KratonError
from core.game import Game, TurnSpan
from core.hexgeom import TileShape
from core.state import GameState
from tui.session import Session
from tui.turn import Chooser, Preview, make_computer, tile_preview, try_action
from tui.turnlog import touched


@dataclass(frozen=True)
class Event:
    """What changed: ``action`` (played), ``undo``, ``redo``, ``view`` (the cursor moved),
    ``annotation`` (a comment or an evaluation)."""

    kind: str
    action: Action | None = None
    player: int = -1


@dataclass(frozen=True)
class Applied:
    """An action the controller played: who, what it scored, a festival it resolved."""

    action: Action
    player: int
    gains: tuple[int, ...]  # every player's score change
    festival: int | None  # the palace hex of a festival this action resolved (R34)
    before: tuple[int, ...]  # scores before it
    counted: tuple[int, ...]  # a final count it made (R41), per player (0: none)


def turn_of(game: Game, n: int) -> TurnSpan | None:
    """The turn holding action ``n`` (1-based), or None at the start."""
    if n <= 0:
        return None
    spans = game.turn_spans()  # in order: span k has index k
    index = game.steps[n - 1].turn
    return spans[index] if index < len(spans) else None


def final_counts(game: Game) -> dict[int, int]:
    """Each final count (R41) made so far: the score change of the action that made it, found
    from the game's own steps (``state_at`` around the turns of the last round)."""
    if not any(p.final_counted for p in game.state.players):
        return {}
    out: dict[int, int] = {}
    for span in reversed(game.turn_spans()):
        if not span.complete:
            continue
        before, after = game.state_at(span.end - 1), game.state_at(span.end)
        p = span.player
        if after.players[p].final_counted and not before.players[p].final_counted:
            out[p] = after.players[p].score - before.players[p].score
        if before.last_round is None:
            break
    return out


class Controller:
    """One game in the app: apply, preview, undo/redo, computer players, looking back."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.cursor: int | None = None  # actions shown while looking back; None: the present
        self.listeners: list[Callable[[Event], None]] = []
        self.players: dict[int, Chooser] = {}  # computer players, made on first use
        self.version = 0  # counts the changes of the game (apply, undo, redo)
        self._scratch: tuple[tuple[int, int], GameState] | None = None  # copy for previews
        self._view: tuple[int, GameState] | None = None

    # ------------------------------------------------------------------ reading
    @property
    def game(self) -> Game:
        return self.session.game

    @property
    def state(self) -> GameState:
        """The live position (the present)."""
        return self.session.game.state

    @property
    def looking_back(self) -> bool:
        return self.cursor is not None

    @property
    def shown(self) -> int:
        """How many actions the board shows (all of them at the present)."""
        return len(self.game.actions) if self.cursor is None else self.cursor

    def view(self) -> GameState:
        """What the board shows: the live state, or a copy at the cursor (never the live one)."""
        if self.cursor is None:
            return self.state
        if self._view is None or self._view[0] != self.cursor:
            self._view = (self.cursor, self.game.state_at(self.cursor))
        return self._view[1]

    def is_human(self, p: int) -> bool:
        return self.game.seats[p] is None

    def emit(self, event: Event) -> None:
        if event.kind in ("action", "undo", "redo"):
            self.version += 1
        for fn in list(self.listeners):
            fn(event)

    # ------------------------------------------------------------------ looking back
    def view_at(self, n: int) -> GameState:
        """Show the position after ``n`` actions (clamped); the last one is the present."""
        n = max(0, min(len(self.game.actions), n))
        self.cursor = None if n == len(self.game.actions) else n
        self.emit(Event("view"))
        return self.view()

    def step(self, d: int) -> GameState:
        """``d`` actions forward (or back)."""
        return self.view_at(self.shown + d)

    def step_turn(self, d: int) -> GameState:
        """To the end of the next turn (``d`` > 0) or of the previous one (``d`` < 0)."""
        ends = [0] + [t.end for t in self.game.turn_spans()]
        n = self.shown
        if d > 0:
            later = [e for e in ends if e > n]
            return self.view_at(later[0] if later else len(self.game.actions))
        earlier = [e for e in ends if e < n]
        return self.view_at(earlier[-1] if earlier else 0)

    def present(self) -> GameState:
        return self.view_at(len(self.game.actions))

    def last_turn_hexes(self) -> set[int]:
        """The hexes changed by the turn of the last action shown; at the present of a turn in
        progress, by the turn before it (what the other player just did)."""
        n = self.shown
        span = turn_of(self.game, n)
        if span is not None and self.cursor is None and not span.complete and not self.state.is_terminal():
            span = turn_of(self.game, span.first)
        if span is None:
            return set()
        return {h for a in self.game.actions[span.first:min(span.end, n)] for h in touched(a)}

    # ------------------------------------------------------------------ playing
    def refusal(self) -> str | None:
        """Why no action may be played now (one line), or None."""
        if self.cursor is not None:
            return "looking back: End (or Esc) returns to the present before playing"
        if self.state.is_terminal():
            return "the game is over (R40)"
        return None

    def apply(self, a: Action, by_user: bool = True) -> Applied:
        """Play ``a`` for whoever is to act; raises IllegalAction / KratonError (one line).
        The user cannot play while looking back; a computer player's move goes on (by_user
        False) and the user's view stays where it is."""
        why = self.refusal() if by_user else None
        if why is not None:
            raise KratonError(why)
        s = self.state
        counted_before = [p.final_counted for p in s.players]
        who = s.current_player()
        festival = s.festival.palace if s.festival is not None else (
            a.hex if isinstance(a, Festival) else None)
        before = tuple(p.score for p in s.players)
        self.game.apply_action(a)
        after = tuple(p.score for p in s.players)
        resolved = festival if festival is not None and s.festival is None else None
        gains = tuple(x - y for x, y in zip(after, before))
        counted = tuple(g if p.final_counted and not was else 0
                        for g, p, was in zip(gains, s.players, counted_before))
        self.emit(Event("action", a, who))
        return Applied(a, who, gains, resolved, before, counted)

    def turn_start(self) -> int:
        """The first action of the turn in progress (undo stays inside it)."""
        steps, n = self.game.steps, len(self.game.steps)
        while n > 0 and steps[n - 1].turn == self.game.turns:
            n -= 1
        return n

    def undo(self) -> Action:
        """Take back the last action of this turn; never a card draw (R36, R44)."""
        if self.cursor is not None:
            raise KratonError("looking back: End (or Esc) returns to the present first")
        if len(self.game.actions) <= self.turn_start():
            raise KratonError("nothing to undo in this turn")
        if isinstance(self.game.actions[-1], Draw):
            # The draw showed a card of the deck (its top, or the one turned up to replace the
            # face-up card); undone, the deck's top would be known to all.
            raise KratonError("a card draw cannot be undone: it showed a card of the deck (R36, R44)")
        a = self.game.undo()
        self.emit(Event("undo", a))
        return a

    def redo(self) -> Action:
        """Play again the action undo took back (it must still be the same player's turn)."""
        if self.cursor is not None:
            raise KratonError("looking back: End (or Esc) returns to the present first")
        if not self.game.can_redo:
            raise KratonError("nothing to redo")
        a = self.game.redo()
        self.emit(Event("redo", a))
        return a

    # ------------------------------------------------------------------ previews
    def scratch(self) -> GameState:
        """A copy of the live state for previews, made again only after the game changed."""
        key = (self.version, len(self.game.actions))
        if self._scratch is None or self._scratch[0] != key:
            self._scratch = (key, self.state.copy())
        return self._scratch[1]

    def preview(self, a: Action) -> Preview:
        """Would ``a`` be legal now (AP cost, or the R-number)? The live state is untouched."""
        return try_action(self.scratch(), a)

    def preview_tile(self, shape: TileShape, anchor: int) -> Preview:
        return tile_preview(self.scratch(), shape, anchor)

    # ------------------------------------------------------------------ computer players
    def computer_choice(self, steps_in_turn: int = 0) -> Action | None:
        """The computer player's next action, chosen on a copy (safe in a worker thread);
        None when a human is to act or the game is over."""
        s = self.state
        if s.is_terminal():
            return None
        me = s.current_player()
        name = self.game.seats[me]
        if name is None:
            return None
        player = self.players.get(me)
        if player is None:
            player = self.players[me] = make_computer(name, s.seed * 7 + me)
        copy = s.copy()
        action = player.choose(copy)
        if steps_in_turn > 60 and copy.is_legal(End()):
            action = End()  # a safety net: a turn of a random player may wander
        return action

    # ------------------------------------------------------------------ annotations
    def comment(self, n: int) -> str:
        return self.game.comments.get(n, "")

    def set_comment(self, n: int, text: str) -> None:
        """The comment on action ``n`` (1-based); an empty text removes it."""
        if not 1 <= n <= len(self.game.actions):
            raise KratonError("no action to comment on: step to an action first")
        text = text.strip()
        if text:
            self.game.comments[n] = text
        else:
            self.game.comments.pop(n, None)
        self.emit(Event("annotation"))

    def visible_evaluations(self, viewer: int) -> dict[int, dict[str, Any]]:
        """The evaluations a user may see (R44): all of them once the game is over; during
        play only those of ``viewer``'s own turns made as he could see them (``seen``
        "player"), since a full-information line may show cards hidden from him."""
        if self.state.is_terminal():
            return self.game.evaluations
        return {k: v for k, v in self.game.evaluations.items()
                if v.get("player") == viewer and v.get("seen") == "player"}

    def add_evaluation(self, turn: int, evaluation: dict[str, Any]) -> None:
        self.game.evaluations[turn] = evaluation
        self.emit(Event("annotation"))


__all__ = ["Applied", "Controller", "Event", "final_counts", "turn_of"]
