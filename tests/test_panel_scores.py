"""The side panel's score table: a name longer than its column is cut visibly, never silently
(player names may be 16 characters, the column holds 8)."""

from __future__ import annotations

from core.state import GameState
from tui.panel import SCORE_NAME, scores_text, short_name


def test_a_name_that_fits_is_shown_whole() -> None:
    assert short_name("Ann") == "Ann"
    assert short_name("Bartholo") == "Bartholo"  # exactly the column


def test_a_longer_name_is_cut_with_an_ellipsis_to_the_column() -> None:
    cut = short_name("Alexandra the Great")
    assert cut == "Alexand…" and len(cut) == SCORE_NAME


def test_names_cut_in_the_table_show_they_are_cut_and_the_columns_stay_aligned() -> None:
    s = GameState.new(2, seed=1, names=["Alexandra", "Alexander"])
    rows = scores_text(s).splitlines()[1:]
    assert rows[0].split()[1] == "Alexand…" and rows[1].split()[1] == "Alexand…"
    assert all("Alexandr " not in r for r in rows)  # not cut silently to look whole
    s2 = GameState.new(2, seed=1, names=["Ann", "Bea"])
    widths = {len(r) for r in scores_text(s2).splitlines()[1:] + rows}
    assert len(widths) == 1  # the columns stay aligned
