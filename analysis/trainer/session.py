"""One training session: which puzzle comes next and what a result does, for each mode.

- ``rated``: puzzles near the user's rating; each attempt moves both ratings (Glicko-2).
- ``theme``: the same, of one theme only.
- ``mix``: rated, each puzzle's theme drawn with weight toward the user's weakest themes.
- ``streak``: unrated, rising from ``STREAK_START`` by ``STREAK_STEP`` per puzzle; one
  mistake is allowed, the second ends the streak.

In every mode a failed puzzle comes back once, ``RETRY_AFTER`` puzzles later (unrated).
Scoring an attempt: 1 reached the best without help, 0.5 with the first hint stage only
(the kind of action and where), 0 otherwise (the action shown, the solution, or short of
the best).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from analysis.trainer.catalog import Entry
from analysis.trainer.glicko import Rating
from analysis.trainer.progress import Attempt, Progress
from analysis.trainer.select import choose, pick_theme, weights_by_theme

RETRY_AFTER = 3
STREAK_START, STREAK_STEP = 900.0, 60.0
MISTAKES_ALLOWED = 1


def attempt_score(reached_best: bool, hint_stage: int, used_solution: bool) -> float:
    if not reached_best or used_solution or hint_stage >= 2:
        return 0.0
    return 0.5 if hint_stage == 1 else 1.0


@dataclass
class Result:
    """What one attempt did, for the verdict and the status line."""

    score: float
    rated: bool
    retry: bool
    user_before: float
    user_after: float
    streak: int
    mistakes: int
    streak_over: bool

    def text(self) -> str:
        parts = []
        if self.rated:
            d = self.user_after - self.user_before
            parts.append(f"rating {self.user_before:.0f} -> {self.user_after:.0f} ({d:+.0f})")
        elif self.retry:
            parts.append("retry (unrated)")
        if self.streak_over:
            parts.append(f"streak over: {self.streak} solved (second mistake)")
        elif self.streak or self.mistakes:
            parts.append(f"streak {self.streak}, mistakes {self.mistakes} of {MISTAKES_ALLOWED} allowed")
        return "; ".join(parts)


@dataclass
class Session:
    entries: Sequence[Entry]
    progress: Progress
    mode: str = "rated"
    theme: str | None = None
    rng: random.Random = field(default_factory=random.Random)
    clock: Callable[[], float] = time.time
    served: list[str] = field(default_factory=list)
    retries: list[tuple[int, str]] = field(default_factory=list)  # (due at served count, key)
    retried: set[str] = field(default_factory=set)
    streak: int = 0
    mistakes: int = 0
    over: bool = False
    started: float = 0.0
    current_retry: bool = False

    def __post_init__(self) -> None:
        self.by_key = {e.key: e for e in self.entries}
        self.started = self.clock()

    def target(self) -> float:
        if self.mode == "streak":
            return STREAK_START + STREAK_STEP * self.streak
        return self.progress.user().rating

    def next(self) -> Entry | None:
        """The next puzzle: a failed one whose turn has come, else a new choice."""
        if self.over:
            return None
        n = len(self.served)
        for i, (due, key) in enumerate(self.retries):
            if due <= n and key in self.by_key:
                del self.retries[i]
                self.retried.add(key)
                self.current_retry = True
                self.served.append(key)
                return self.by_key[key]
        self.current_retry = False
        user = self.progress.user()
        theme = self.theme if self.mode == "theme" else None
        if self.mode == "mix":
            present = {t for e in self.entries for t in e.themes}
            if present:
                theme = pick_theme(weights_by_theme(self.progress.theme_results(), present), self.rng)
        ratings = {k: r.rating for k, r in self.progress.puzzle_ratings().items()}
        pick = choose(self.entries, self.target(), self.rng, ratings=ratings,
                      seen=self.progress.seen(), now=self.clock(), theme=theme,
                      exclude=self.served, user_rd=user.rd)
        if pick is None and self.served:  # every puzzle served once: start again
            pick = choose(self.entries, self.target(), self.rng, ratings=ratings, theme=theme,
                          exclude=self.served[-1:], user_rd=user.rd)
        if pick is not None:
            self.served.append(pick.key)
        return pick

    def finish(self, entry: Entry, score: float, seconds: float = 0.0, hints: int = 0) -> Result:
        """Record the attempt (one transaction) and move the session on."""
        rated = self.mode != "streak" and not self.current_retry
        mode = "retry" if self.current_retry else self.mode
        before = self.progress.user()
        after, _ = self.progress.record(
            Attempt(entry.key, mode, score, entry.themes, seconds, hints, rated),
            Rating(entry.rating, entry.rd) if rated else None)
        if score == 0 and self.mode != "streak" and not self.current_retry and entry.key not in self.retried:
            self.retries.append((len(self.served) + RETRY_AFTER, entry.key))
        if self.mode == "streak":
            if score > 0:
                self.streak += 1
            else:
                self.mistakes += 1
                if self.mistakes > MISTAKES_ALLOWED:
                    self.over = True
                    self.progress.record_streak(self.streak, self.mistakes, self.started)
        return Result(score, rated, self.current_retry, before.rating, after.rating,
                      self.streak, self.mistakes, self.over)
