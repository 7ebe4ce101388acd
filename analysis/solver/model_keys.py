"""Rank keys in the model (R24, R25): developers placed at a scoring moment, and who beats whom.

A key is compared through counts: ``cnt(l)`` = how many of a player's developers in the set stand
at level ``l`` or higher. Key A beats key B (R24, a longer key beats its prefix) exactly when at
some level ``l`` A counts more than B and at every higher level at least as many. The mover's
counts use the final level of each hex (a developer can only stand lower at the moment, and a
higher key never loses what a lower one wins) and any hexes the model places him on, so the
model's key is never below the true one; opponents' developers never move in the mover's turn
and the hexes under them cannot be covered (R11), so their counts are exact or smaller.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from analysis.solver.model_board import Board, LinearExpr
from analysis.solver.model_reach import OFF, Reach
from analysis.solver.ortools_cp import cp_model


@dataclass
class Devs:
    """The mover's developers as the model sees them: on-board ones by hex, then entered ones."""

    sources: list[int]  # hex of each developer on the board; OFF for each one that may enter
    cost: list[cp_model.IntVar] = field(default_factory=list)  # OFF's is ``entry_cost``
    entry_cost: cp_model.IntVar | int = 0


def build_devs(m: cp_model.CpModel, b: Board, r: Reach) -> Devs:
    """One walk cost per developer on the board; the developers that may enter (R26) are one
    source whose cost is paid per moment (``Snapshot.entry_cost``): at one moment the entered
    developers on different hexes are different developers, each paying its own label."""
    s = b.s
    srcs = list(s.developers(s.to_move)) + ([OFF] if r.entries else [])
    d = Devs(srcs)
    for i, src in enumerate(srcs):
        d.cost.append(m.new_int_var(0, b.budget, f"walk_ap_{i}"))
    if r.entries:
        d.entry_cost = d.cost[-1]
    return d


@dataclass
class Snapshot:
    """The mover's developers at one scoring moment: ``pos[i, h]`` and counts per level."""

    name: str
    pos: dict[tuple[int, int], cp_model.IntVar] = field(default_factory=dict)
    on: dict[int, LinearExpr] = field(default_factory=dict)
    levels: int = 0
    counts: list[LinearExpr] = field(default_factory=list)  # counts[l - 1] for l = 1..levels


def snapshot(m: cp_model.CpModel, b: Board, r: Reach, d: Devs, name: str,
             zone: dict[int, LinearExpr | int], levels: int, village: bool = False) -> Snapshot:
    """Developers of the mover on ``zone`` (hex -> 0/1 condition that the hex counts) at one
    moment; each at most once, each hex at most one (R26), paid by the developer's walk.
    ``village``: the zone is a village group, so a developer raised above a hex's level now
    stands on a village cell of this turn at that height."""
    s = b.s
    snap = Snapshot(name, levels=levels)
    by_dev: dict[int, list[cp_model.IntVar]] = {}
    entry: list[cp_model.IntVar] = []
    for h, ok in zone.items():
        if isinstance(ok, int) and not ok:
            continue
        if s.palace[h] or (s.dev[h] >= 0 and s.dev[h] != s.to_move):
            continue
        here = []
        for i, src in enumerate(d.sources):
            lab = r.systems.get(src)
            if lab is None or h not in lab.reach:
                continue
            p = m.new_bool_var(f"{name}_dev{i}_at_{h}")
            m.add(p <= lab.reach[h])
            # The walk's fewest AP, and with its tiles', also for the LP (no big M).
            least, laid = lab.least[h], lab.least_laid[h]
            if src == OFF:  # an entered developer of its own: its label is its walk
                c = m.new_int_var(0, b.budget, f"{name}_entry_ap_{h}")
                m.add(lab.label[h] <= r.B * c + r.B - 1).only_enforce_if(p)
                m.add(c == 0).only_enforce_if(p.Not())
                entry.append(c)
            else:
                m.add(lab.label[h] <= r.B * d.cost[i] + r.B - 1).only_enforce_if(p)
                by_dev.setdefault(i, []).append(p)
                c = d.cost[i]
            if least:
                m.add(c >= least * p)
            if laid > least:
                m.add(c + r.laid >= laid * p)
            snap.pos[i, h] = p
            here.append(p)
        if not here:
            continue
        on = sum(here)
        m.add(on <= 1)
        if not isinstance(ok, int):
            m.add(on <= ok)
        land = b.land(h)
        if not isinstance(land, int):
            m.add(on <= land)
        snap.on[h] = on
    for ps in by_dev.values():
        if len(ps) > 1:
            m.add_at_most_one(ps)
    if entry:
        m.add(d.entry_cost >= sum(entry))
        m.add(sum(p for (i, _), p in snap.pos.items() if d.sources[i] == OFF) <= r.entries)
    for lv in range(1, levels + 1):
        terms = []
        for h, on in snap.on.items():
            ge = b.at_least(h, lv)
            if isinstance(ge, int):
                if ge:
                    terms.append(on)
                continue
            a = m.new_bool_var(f"{name}_at_{h}_ge{lv}")
            m.add(a <= on)
            m.add(a <= ge)
            if village:
                m.add(a <= b.village_from(h, lv))
            terms.append(a)
        snap.counts.append(sum(terms) if terms else 0)
    return snap


def beats(m: cp_model.CpModel, mine: list[LinearExpr], theirs: list[LinearExpr | int],
          name: str, caps: list[int] | None = None) -> cp_model.IntVar:
    """A variable that may be 1 only when key ``mine`` beats key ``theirs`` (R24, R25).

    One literal ``decide[l]`` per level says the keys part at ``l``: there the mover counts
    more, at every higher level at least as many. With ``upto[L]`` the sum of ``decide`` at
    ``L`` and below, both are one linear row per level, ``mine[L] >= theirs[L] * upto[L] +
    decide[L]``: exact when ``theirs[L]`` is a constant and, when it is a sum of at most
    ``caps[L]`` literals, written ``mine[L] >= theirs[L] - caps[L] * (1 - upto[L]) +
    decide[L]``. Rows rather than constraints under enforcement literals, which the LP
    relaxation weakens to nothing at a fractional literal: these it keeps."""
    n = len(mine)
    win = m.new_bool_var(name)
    decide = [m.new_bool_var(f"{name}_at{lv}") for lv in range(1, n + 1)]
    m.add(sum(decide) == win) if decide else m.add(win == 0)
    for lv in range(1, n + 1):
        upto = sum(decide[:lv])
        t, d = theirs[lv - 1], decide[lv - 1]
        if isinstance(t, int):
            m.add(mine[lv - 1] >= t * upto + d)
        else:
            cap = caps[lv - 1] if caps is not None else None
            if cap is None:
                raise ValueError(f"{name}: level {lv} of the key is not a constant and has no cap")
            m.add(mine[lv - 1] >= t - cap + cap * upto + d)
            m.add(mine[lv - 1] >= d)
    if n:
        m.add(mine[0] >= win)  # the key is longest at level 1: one developer at least
    return win


def counts_of(levels_of: list[tuple[int, LinearExpr | int]], levels: int
              ) -> tuple[list[LinearExpr | int], list[int]]:
    """Counts per level of (level, present) developers, an opponent's key, and how many each
    count may reach (its developers at that level or higher)."""
    out: list[LinearExpr | int] = []
    caps: list[int] = []
    for lv in range(1, levels + 1):
        terms = [p for l0, p in levels_of if l0 >= lv]
        out.append(sum(terms) if terms else 0)
        caps.append(len(terms))
    return out, caps


__all__ = ["Devs", "Snapshot", "beats", "build_devs", "counts_of", "snapshot"]
