"""Glicko-2 (Glickman, "Example of the Glicko-2 system", 2013) for users and puzzles alike.

A solve is a game between the user and the puzzle: 1 for the user when solved, else 0; both
ratings move. Each attempt is its own rating period (as Lichess does for puzzles), so an
update takes a list of results but the trainer passes one at a time.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

SCALE = 173.7178  # Glicko-2's scale factor between the Glicko and the Glicko-2 scales
TAU = 0.5  # how fast the volatility may change (the paper's example uses 0.5)
EPSILON = 1e-6  # convergence of the volatility iteration (step 5 of the paper)
DEFAULT_RATING, DEFAULT_RD, DEFAULT_VOL = 1500.0, 350.0, 0.06
MIN_RD, MAX_RD = 45.0, 350.0  # keep ratings able to move (Lichess floors its RD too)


@dataclass(frozen=True)
class Rating:
    rating: float = DEFAULT_RATING
    rd: float = DEFAULT_RD
    vol: float = DEFAULT_VOL


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def expected(me: Rating, other: Rating) -> float:
    """The chance ``me`` wins against ``other`` (step 3's E)."""
    mu, mu_j, phi_j = (me.rating - 1500) / SCALE, (other.rating - 1500) / SCALE, other.rd / SCALE
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _volatility(phi: float, sigma: float, delta: float, v: float, tau: float) -> float:
    """Step 5: the new volatility by the Illinois algorithm, as the paper gives it."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return (ex * (delta * delta - phi * phi - v - ex) / (2 * (phi * phi + v + ex) ** 2)
                - (x - a) / (tau * tau))

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    fa, fb = f(big_a), f(big_b)
    for _ in range(100):
        if abs(big_b - big_a) <= EPSILON:
            break
        c = big_a + (big_a - big_b) * fa / (fb - fa)
        fc = f(c)
        if fc * fb <= 0:
            big_a, fa = big_b, fb
        else:
            fa /= 2
        big_b, fb = c, fc
    return math.exp(big_a / 2)


def update(me: Rating, games: Sequence[tuple[Rating, float]], tau: float = TAU,
           clamp: bool = False) -> Rating:
    """``me`` after one rating period of ``games`` (opponent, score 1/0.5/0). With no games
    only the deviation grows (step 6). ``clamp`` keeps the RD in [MIN_RD, MAX_RD]."""
    mu, phi, sigma = (me.rating - 1500) / SCALE, me.rd / SCALE, me.vol
    if not games:
        phi_new = math.sqrt(phi * phi + sigma * sigma)
        return _clamped(Rating(me.rating, phi_new * SCALE, sigma), clamp)
    inv_v, dsum = 0.0, 0.0
    for other, score in games:
        mu_j, phi_j = (other.rating - 1500) / SCALE, other.rd / SCALE
        g = _g(phi_j)
        e = 1.0 / (1.0 + math.exp(-g * (mu - mu_j)))
        inv_v += g * g * e * (1 - e)
        dsum += g * (score - e)
    v = 1.0 / inv_v
    sigma_new = _volatility(phi, sigma, v * dsum, v, tau)
    phi_star = math.sqrt(phi * phi + sigma_new * sigma_new)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * dsum
    return _clamped(Rating(mu_new * SCALE + 1500, phi_new * SCALE, sigma_new), clamp)


def _clamped(r: Rating, clamp: bool) -> Rating:
    if not clamp:
        return r
    return Rating(r.rating, min(MAX_RD, max(MIN_RD, r.rd)), r.vol)


def solve_result(user: Rating, puzzle: Rating, score: float) -> tuple[Rating, Rating]:
    """Both new ratings after one attempt: the user scored ``score`` (1 solved, 0.5 solved
    with the first hint, 0 not) against the puzzle, which scored the rest."""
    return (update(user, [(puzzle, score)], clamp=True),
            update(puzzle, [(user, 1.0 - score)], clamp=True))
