"""Browse saved positions, games and puzzles: a list, a live board preview and a summary.

A file that cannot be read shows its one-line error in place of the preview; nothing a file
holds can crash the app.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any, ClassVar

from rich.markup import escape
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer, Label, OptionList, Static
from textual.widgets.option_list import Option

from core.errors import KratonError
from core.observation import as_seen_by, public_view
from core.position import read_json
from core.state import GameState
from tui.board import BoardView
from tui.panel import plural, seen_note
from tui.saves import kind_of, load_game, natural_key
from tui.session import Session


def list_files(folder: Path) -> list[Path]:
    """JSON files in ``folder`` and its sub-folders (two levels), newest first."""
    if not folder.is_dir():
        return []
    files = [p for p in folder.glob("*.json")] + [p for p in folder.glob("*/*.json")]
    return sorted(files, key=lambda p: (-p.stat().st_mtime, str(p)))


GROUPS = (("puzzle", "Puzzles"), ("game", "Games"), ("position", "Positions"),
          ("broken", "Unreadable files"))


def read_entry(p: Path) -> tuple[str, dict[str, Any]]:
    """(kind, puzzle data) of a file, without building its state."""
    try:
        d = read_json(str(p))
    except KratonError:
        return "broken", {}
    kind = kind_of(d)
    return kind, (d["puzzle"] if kind == "puzzle" else {})


def grouped(folder: Path) -> list[tuple[str, list[tuple[Path, dict[str, Any]]]]]:
    """The files by kind: puzzles in the collection's order (theme, then number), games and
    positions newest first."""
    out: dict[str, list[tuple[Path, dict[str, Any]]]] = {k: [] for k, _ in GROUPS}
    for p in list_files(folder):
        kind, puzzle = read_entry(p)
        out[kind].append((p, puzzle))
    out["puzzle"].sort(key=lambda e: natural_key(e[0]))
    return [(title, out[k]) for k, title in GROUPS if out[k]]


def summary(game: Session) -> str:
    s = game.state
    scores = ", ".join(f"{p.name} {p.score}" for p in s.players)
    who = s.players[s.current_player()].name
    state = "game over" if s.is_terminal() else f"{who} to act, {s.turn.ap} AP"
    kinds = ", ".join(f"{p.name}: {c or 'human'}" for p, c in zip(s.players, game.seats))
    text = (f"{s.n_players} players on {s.map.name}; {plural(len(s.tiles), 'tile')} placed,"
            f" {plural(s.triples, 'three-space tile')} left\n{state}\nscores: {scores}\n{kinds}")
    if game.puzzle:
        pz = game.puzzle
        text = (f"puzzle {pz.get('id', '?')}: {pz.get('title', '')}\n"
                f"difficulty {pz.get('difficulty', '?')}, theme {pz.get('theme', '?')},"
                f" best {pz.get('best', '?')} points\n" + text)
    if game.game.actions:
        text += f"\n{plural(len(game.game.actions), 'action')} recorded"
        if s.is_terminal():
            text += " (Enter opens the review)"
    return text


def study_view(game: Session, rng: random.Random) -> tuple[GameState, str]:
    """What the browser's study may show of a file (R44), and the note that says so. A puzzle,
    a finished game and a game of computers only: as it is. A game in play with one human: as
    he sees it (the others' hands and the deck dealt at random). With two humans or more, no
    one knows who is looking: every hand and the deck dealt at random (opening the game hands
    the keyboard over first, and its study then takes that player's view)."""
    s = game.state
    humans = [p for p, c in enumerate(game.seats) if c is None]
    if game.puzzle is not None or s.is_terminal() or not humans:
        return s.copy(), ""
    if len(humans) == 1:
        return as_seen_by(s, humans[0], rng), seen_note(s.players[humans[0]].name)
    return public_view(s, rng), seen_note(None)


class BrowseScreen(Screen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "open", "Open", show=True),
        Binding("a", "study", "Study"),
        Binding("n", "new_game", "New game"),
        Binding("T", "app.trainer", "Puzzle trainer"),
        Binding("escape,q", "close", "Back / quit"),
    ]

    def __init__(self, folder: Path) -> None:
        super().__init__()
        self.folder = folder
        self.groups = grouped(folder)
        self.files = [p for _, entries in self.groups for p, _ in entries]
        self.loaded: dict[Path, Session | str] = {}

    def compose(self) -> ComposeResult:
        with Horizontal(id="browse"):
            with Vertical(id="browse-list"):
                yield Label(f"{escape(str(self.folder))}\nEnter opens, a studies", id="browse-folder")
                yield OptionList(*self.options(), id="files")
            with Vertical(id="browse-preview"):
                yield BoardView(GameState.new(2, seed=0), id="preview-board")
                yield Static("", id="preview-text")
        yield Footer()

    def options(self) -> list[Option]:
        """A heading per kind, then one line per file (puzzles: id, difficulty, theme)."""
        out: list[Option] = []
        i = 0
        for title, entries in self.groups:
            out.append(Option(f"{title} ({len(entries)})", disabled=True))
            for p, puzzle in entries:
                out.append(Option(self.label(p, puzzle), id=str(i)))
                i += 1
        return out

    def label(self, p: Path, puzzle: dict[str, Any]) -> str:
        rel = p.relative_to(self.folder) if p.is_relative_to(self.folder) else p
        name = escape(str(rel.with_suffix("")))
        if puzzle:
            return f" {name:<24}{escape(str(puzzle.get('difficulty', ''))):<7}" \
                   f"{escape(str(puzzle.get('theme', '')))}"
        return f" {name}"

    def on_mount(self) -> None:
        board = self.query_one(BoardView)
        board.show_cursor = False
        opts = self.query_one(OptionList)
        opts.focus()
        if self.files:
            opts.highlighted = 1  # the first file, under its heading
        else:
            board.display = False
            self.query_one("#preview-text", Static).update(
                f"no position files (*.json) in {escape(str(self.folder))}\n"
                "n starts a new game; s in a game saves one here")

    def load(self, p: Path) -> Session | str:
        if p not in self.loaded:
            try:
                self.loaded[p] = load_game(p)
            except (KratonError, OSError) as e:
                self.loaded[p] = str(e)
        return self.loaded[p]

    def current(self) -> Path | None:
        opts = self.query_one(OptionList)
        i = opts.highlighted
        if i is None:
            return None
        oid = opts.get_option_at_index(i).id
        return self.files[int(oid)] if oid is not None else None

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self.preview()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.action_open()

    def preview(self) -> None:
        p = self.current()
        if p is None:
            return
        g = self.load(p)
        board = self.query_one(BoardView)
        text = self.query_one("#preview-text", Static)
        if isinstance(g, str):
            board.display = False
            text.update(f"[b]cannot open this file[/b]\n{escape(g)}")
            return
        board.display = True
        board.set_state(g.state)
        text.update(escape(summary(g)))

    def action_open(self) -> None:
        p = self.current()
        if p is None:
            return
        g = self.load(p)
        if isinstance(g, str):
            self.notify(g, severity="error")
            return
        self.loaded.pop(p, None)  # a game changes once played: reload next time
        self.app.open_game(g)  # type: ignore[attr-defined]

    def action_study(self) -> None:
        """The study of the file (R44: see ``study_view``)."""
        p = self.current()
        g = self.load(p) if p is not None else None
        if isinstance(g, str):  # unreadable: say why, as Enter does
            self.notify(g, severity="error")
        if isinstance(g, Session):
            from tui.screens.study import StudyScreen

            state, note = study_view(g, random.Random())
            self.app.push_screen(StudyScreen(state, note=note))

    def action_new_game(self) -> None:
        self.app.action_new_game()  # type: ignore[attr-defined]

    def action_close(self) -> None:
        if len(self.app.screen_stack) > 2:
            self.app.pop_screen()
        else:
            self.app.exit()
