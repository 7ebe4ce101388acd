"""The recipe engine's choice of recipes (cpsat.py), searched exactly in Python; CP-SAT past a cap.

The choice is a small packing problem: recipes within the AP budget (R7: the token adds one),
at most one per opportunity (R29: a palace changes once a turn; a pond is scored once), no more
palace pieces of a value than the supply holds (R28), footprints that do not overlap, a tile
when one is owed (R8: a tile recipe or one filler tile), and none of the cuts (sets of recipes
whose replay failed) whole. The objective is lexicographic: points, then fewer handed to
opponents, then fewer AP, then no token.

On the puzzles there are six recipes at the median (up to ~8 000), and CP-SAT's answer costs
more to import (OR-Tools with numpy: ~0.37 s of a ~0.7-s ``kraton solve``) than to compute. A
depth-first search by points per AP with a fractional-knapsack bound answers here instead, and
OR-Tools is not imported at all; measured on the 268 choices of the puzzle collection, it takes
0.64 s in all (max 0.08 s) against CP-SAT's 2.3 s on the same choices, with the same optimum on
every one (benchmarks/README.md, "The recipe choice"). Past ``SMALL`` recipes and fillers, or
``NODE_CAP`` nodes (2 of the 40 busy turns' choices), ``TooMany`` sends the choice to CP-SAT.
``tests/test_solver_choice.py`` holds the two to the same optimum.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from analysis.solver.recipes import Recipe
    from core.actions import Action

SMALL = 20_000  # recipes + fillers searched here; more go to CP-SAT
NODE_CAP = 10_000  # a choice that needs more nodes than this goes to CP-SAT

Filler = tuple["Action", int, frozenset[int]]  # a tile, its AP, its footprint


@dataclass(frozen=True)
class Choice:
    """The chosen recipes (indexes, in order), filler (index or None) and token."""

    recipes: tuple[int, ...]
    filler: int | None
    token: bool
    value: int  # the objective: points * 100000 - handed * 1000 - AP * 10 - token


def value(recipes: list[Recipe], fillers: list[Filler], chosen: tuple[int, ...],
          filler: int | None, token: bool) -> int:
    """The objective of a choice, as CP-SAT's model states it (``cpsat._model``)."""
    pts = sum(recipes[i].points for i in chosen)
    handed = sum(recipes[i].handed for i in chosen)
    cost = sum(recipes[i].cost for i in chosen) + (fillers[filler][1] if filler is not None else 0)
    return objective(pts, handed, cost, token)


def objective(pts: int, handed: int, cost: int, token: bool) -> int:
    """Points, then fewer handed, then fewer AP, then no token, as one integer."""
    return pts * 100000 - handed * 1000 - cost * 10 - int(token)


class TooMany(Exception):
    """More recipes than this search takes on: CP-SAT chooses."""


@dataclass
class _Search:
    recipes: list[Recipe]
    fillers: list[Filler]
    budget: int  # AP with the token, if it may be spent
    ap: int
    owed: bool
    supply: list[int]
    cuts: list[frozenset[int]]
    nodes: int = 0
    best: Choice | None = None
    order: list[int] = field(default_factory=list)

    def run(self, order: list[int]) -> Choice | None:
        """Search ``order`` (by points per AP, best first, so that the bound is one scan)."""
        self.order = order
        self._dfs(0, [], set(), set(), {}, 0, 0, 0)
        return self.best

    def _dfs(self, k: int, chosen: list[int], opps: set[str], hexes: set[int],
             pieces: dict[int, int], cost: int, pts: int, handed: int) -> None:
        self.nodes += 1
        if self.nodes > NODE_CAP:
            raise TooMany
        self._close(chosen, hexes, cost, pts, handed)
        if self.best is not None and self._optimistic(k, cost, pts, handed) < self.best.value:
            return
        for j in range(k, len(self.order)):
            i = self.order[j]
            r = self.recipes[i]
            if (cost + r.cost > self.budget or r.opportunity in opps or r.footprint & hexes
                    or (r.piece and pieces.get(r.piece, 0) >= self.supply[r.piece])):
                continue
            chosen.append(i)
            if not any(c <= set(chosen) for c in self.cuts):
                if r.piece:
                    pieces[r.piece] = pieces.get(r.piece, 0) + 1
                self._dfs(j + 1, chosen, opps | {r.opportunity}, hexes | r.footprint,
                          pieces, cost + r.cost, pts + r.points, handed + r.handed)
                if r.piece:
                    pieces[r.piece] -= 1
            chosen.pop()

    def _optimistic(self, k: int, cost: int, pts: int, handed: int) -> int:
        """No choice extending this one is worth more: the recipes after ``k`` as a fractional
        knapsack on the AP left (they come by points per AP, so the first that does not fit
        whole ends it), whole points only (they are integers); more recipes only add AP and
        points handed, which lower the objective (``choose`` takes no recipe that hands back)."""
        left = self.budget - cost
        extra = 0.0
        for j in range(k, len(self.order)):
            r = self.recipes[self.order[j]]
            if r.points <= 0:
                break  # the rest score nothing either (points per AP, best first)
            if r.cost <= left:
                extra += r.points
                left -= r.cost
            else:
                extra += r.points * left / r.cost
                break
        return objective(pts + int(extra + 1e-9), handed, cost, False)

    def _close(self, chosen: list[int], hexes: set[int], cost: int, pts: int, handed: int) -> None:
        """The best way to finish ``chosen``: the cheapest filler that fits when a tile is owed
        and none is chosen (R8), the token only when the AP need it (R7)."""
        filler: int | None = None
        if self.owed and not any(self.recipes[i].has_tile for i in chosen):
            fits = [j for j, (_, c, fp) in enumerate(self.fillers)
                    if cost + c <= self.budget and not fp & hexes]
            if not fits:
                return
            filler = min(fits, key=lambda j: (self.fillers[j][1], j))
            cost += self.fillers[filler][1]
        token = cost > self.ap
        worth = objective(pts, handed, cost, token)
        if self.best is None or worth > self.best.value:
            self.best = Choice(tuple(chosen), filler, token, worth)


def choose(recipes: list[Recipe], ap: int, token: bool, fillers: list[Filler], owed: bool,
           supply: list[int], cuts: list[list[int]]) -> Choice | None:
    """The best choice (see the module docstring), or None where there is none (a tile owed and
    none fits, R8), as CP-SAT's model would find it infeasible. Raises ``TooMany`` past
    ``SMALL`` recipes and fillers or ``NODE_CAP`` nodes, and for a recipe that would hand
    points back (scores never fall, so none does), which the bound does not allow for."""
    if len(recipes) + len(fillers) > SMALL or any(r.handed < 0 for r in recipes):
        raise TooMany
    s = _Search(recipes, fillers, ap + int(token), ap, owed, supply, [frozenset(c) for c in cuts])
    order = sorted(range(len(recipes)), key=lambda i: (-_ratio(recipes[i]), -recipes[i].points, i))
    return s.run(order)


def _ratio(r: Recipe) -> float:
    if r.points <= 0:
        return float(r.points)  # last, below every recipe that scores
    return float("inf") if r.cost == 0 else r.points / r.cost
