"""The new-game screen: 2–4 players, each human or a computer player, names, seed.

The defaults (you against two `planner` computer players, a random seed) make Enter start at once.
R44: the seed reproduces every hand and the deck order, so the screen never shows one it chose
itself: the seed field stays empty and the shuffle comes from the operating system's randomness
(``secrets``), unless the user types a seed or gives ``kraton play --seed``.
"""

from __future__ import annotations

import secrets
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, Footer, Input, Label, Select, Static

from core.game import Game
from core.state import PLAYER_NAMES, GameState
from tui.turn import player_names

HUMAN = "human"
NAME_CHARS = 16  # a player name typed here: what the side panels and the chart have room for


def seed_from(text: str, default: int | None) -> int:
    """The typed seed (ASCII digits only: ``int`` also reads '²'), else the given default,
    else 63 bits of the operating system's randomness, which nobody can narrow down (R44)."""
    t = text.strip()
    digits = t.removeprefix("-")
    if digits and len(digits) <= 18 and all(c in "0123456789" for c in digits):
        return int(t)
    return default if default is not None else secrets.randbits(63)


class NewGameScreen(Screen[Game]):
    """Dismisses with the new Game."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "start", "Start", priority=False),
        Binding("b", "browse", "Browse saves"),
        Binding("T", "trainer", "Puzzle trainer"),
        Binding("question_mark", "help", "Help"),
        Binding("q", "app.quit", "Quit"),
    ]

    def __init__(self, players: int = 3, seed: int | None = None) -> None:
        super().__init__()
        self.n_default = players
        self.seed_default = seed  # None: drawn from the OS at the start, never shown (R44)

    def compose(self) -> ComposeResult:
        names = player_names()
        kinds = [("Human", HUMAN)] + [(f"Computer: {n}", n) for n in names]
        rival = "planner" if "planner" in names else names[0]  # the strongest quick opponent
        with Vertical(id="newgame", classes="dialog"):
            yield Label("kraton - a new game of Java", classes="dialog-title")
            yield Static("Press Enter to start with these settings; Tab moves between fields.",
                         classes="dialog-note")
            with Horizontal(classes="row"):
                yield Label("Players", classes="field-label")
                yield Select([(str(n), n) for n in (2, 3, 4)], value=self.n_default,
                             allow_blank=False, id="n-players")
                yield Label("Seed", classes="field-label")
                yield Input("" if self.seed_default is None else str(self.seed_default), id="seed",
                            type="integer", placeholder="random")
            for i in range(4):
                with Horizontal(classes="row player-row", id=f"row-{i}"):
                    yield Label(f"Player {'ABCD'[i]}", classes="field-label")
                    # at most 16 characters, typed, not cut silently at the start (the panels)
                    yield Input(PLAYER_NAMES[i], id=f"name-{i}", max_length=NAME_CHARS)
                    yield Select(kinds, value=HUMAN if i == 0 else rival,
                                 allow_blank=False, id=f"kind-{i}")
            with Horizontal(classes="buttons"):
                yield Button("Start (Enter)", id="start", variant="primary")
                yield Button("Browse saves (b)", id="go-browse")
                yield Button("Puzzle trainer (T)", id="go-trainer")
        yield Footer()

    def on_mount(self) -> None:
        self.show_rows(self.n_default)
        self.query_one("#start", Button).focus()

    def on_resize(self) -> None:
        """Below 30 lines the fields lose their borders (compact), so the whole form fits."""
        compact = self.size.height < 30
        self.set_class(compact, "-compact")
        for w in [*self.query(Input), *self.query(Select)]:
            w.compact = compact

    def show_rows(self, n: int) -> None:
        for i in range(4):
            self.query_one(f"#row-{i}").display = i < n

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "n-players" and isinstance(event.value, int):
            self.show_rows(event.value)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "go-browse":
            self.action_browse()
        elif event.button.id == "go-trainer":
            self.action_trainer()
        else:
            self.action_start()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.action_start()

    def build(self) -> Game:
        n = int(self.query_one("#n-players", Select).value)  # type: ignore[arg-type]
        text = self.query_one("#seed", Input).value.strip()
        seed = seed_from(text, self.seed_default)
        names, computer = [], []
        for i in range(n):
            name = self.query_one(f"#name-{i}", Input).value.strip() or PLAYER_NAMES[i]
            names.append(name[:NAME_CHARS])
            kind = self.query_one(f"#kind-{i}", Select).value
            computer.append(None if kind == HUMAN else str(kind))
        return Game(GameState.new(n, seed=seed, names=names), computer)

    def action_start(self) -> None:
        self.dismiss(self.build())

    def action_browse(self) -> None:
        self.app.action_browse()  # type: ignore[attr-defined]

    def action_trainer(self) -> None:
        self.app.action_trainer()  # type: ignore[attr-defined]

    def action_help(self) -> None:
        from tui.screens.dialogs import HelpScreen

        self.app.push_screen(HelpScreen())
