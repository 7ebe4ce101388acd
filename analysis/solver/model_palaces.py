"""Palaces and festivals in the turn model (R20–R23, R28–R35).

Each village group of the board now (a village or a city) anchors the palace events that may
happen in the group it becomes: a palace built in a village, a city's palace enlarged (once,
R29), a new palace in a part cut off a city (R23). The group at that moment is no larger than the
anchor's hexes plus what this turn's village cells join to it (``_Joins``: cells and other
villages connected to the anchor through chosen cells, with distance labels so that nothing
unconnected counts). It holds at least the opponents' developers that stay connected to the
palace's hex through village hexes that no tile covers this turn (``closure``). The mover's key
(``model_keys``) must beat theirs (R25).

A festival (R30–R34) counts, as in the solver's objective, only when no opponent can take part:
each opponent who surely stays in the city and holds cards worth as much as all of the mover's
matching cards (after the card draws the model chose, R36) would be able to join.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from analysis.solver.model_board import Board, LinearExpr
from analysis.solver.model_keys import Devs, Snapshot, beats, counts_of, snapshot
from analysis.solver.model_reach import Reach
from analysis.solver.ortools_cp import cp_model
from core.actions import VILLAGE, Draw
from core.errors import IllegalAction
from core.festival import cards_worth, matching

VALUES = (2, 4, 6, 8, 10)


@dataclass
class _Joins:
    """This turn's village cells and other villages joined to one anchor group."""

    size: LinearExpr | int = 0
    zone: dict[int, LinearExpr | int] = field(default_factory=dict)
    whole: list[tuple[LinearExpr, list[int]]] = field(default_factory=list)  # villages


def _join_depths(b: Board, hexes: set[int], villages: list[list[int]], cells: set[int],
                 village_of: dict[int, int]) -> dict[tuple[str, int], int]:
    """Breadth first from the anchor's ``hexes``: each cell ("c", hex) and village ("g", its
    index) within ``budget - 1`` tiles, with the tiles to reach it (a cell costs one, a
    village nothing)."""
    nbrs = b.s.map.nbrs
    depth: dict[tuple[str, int], int] = {}
    frontier = [(h, 1) for h in cells if any(n in hexes for n in nbrs[h])]
    for h, dd in frontier:
        depth[("c", h)] = dd
    queue = list(frontier)
    while queue:
        h, dd = queue.pop(0)
        for n in nbrs[h]:
            if n in cells and ("c", n) not in depth and dd + 1 <= b.budget - 1:
                depth[("c", n)] = dd + 1
                queue.append((n, dd + 1))
            gi = village_of.get(n)
            if gi is not None and ("g", gi) not in depth:
                depth[("g", gi)] = dd
                for x in villages[gi]:
                    for c in nbrs[x]:
                        if c in cells and ("c", c) not in depth and dd + 1 <= b.budget - 1:
                            depth[("c", c)] = dd + 1
                            queue.append((c, dd + 1))
    return depth


def _joins(m: cp_model.CpModel, b: Board, hexes: set[int], villages: list[list[int]],
           name: str, cut_from: int | None = None) -> _Joins:
    """Cells (hexes that may get a village cell, not village now) and villages reachable from
    the anchor through at most ``budget - 1`` cells, chosen as a tree rooted at the anchor.
    ``villages[cut_from:]`` are other cities but their palace hexes: a part cut off one this
    turn is a village again (R23) and may join (planner-31 after 201 actions: a rice cell cuts
    G4 and H3 off the city at E6 while a village cell joins them to I6's); it joins only where
    a tile covers one of its hexes, and counts whole (more than any part: a relaxation)."""
    s = b.s
    nbrs = s.map.nbrs
    cells = {h for h in b.vcell if s.terrain[h] != VILLAGE or s.level[h] == 0}
    cells -= hexes
    village_of = {h: gi for gi, g in enumerate(villages) for h in g}
    depth = _join_depths(b, hexes, villages, cells, village_of)
    out = _Joins()
    if not depth:
        return out
    n_nodes = len(depth)
    sel: dict[tuple[str, int], cp_model.IntVar] = {}
    lab: dict[tuple[str, int], cp_model.IntVar] = {}
    for key in depth:
        sel[key] = m.new_bool_var(f"{name}_join_{key[0]}{key[1]}")
        lab[key] = m.new_int_var(1, n_nodes, f"{name}_joinlabel_{key[0]}{key[1]}")
    size_terms: list[LinearExpr] = []
    for key, v in sel.items():
        kind, x = key
        preds: list[tuple[str, int]] = []
        root = False
        if kind == "c":
            m.add(v <= sum(b.vcell[x]))
            root = any(n in hexes for n in nbrs[x])
            for n in nbrs[x]:
                if ("c", n) in sel:
                    preds.append(("c", n))
                gi = village_of.get(n)
                if gi is not None and ("g", gi) in sel:
                    preds.append(("g", gi))
            size_terms.append(v)
            out.zone[x] = v
        else:
            if cut_from is not None and x >= cut_from:
                covers = [b.cov(h) for h in villages[x] if not isinstance(b.cov(h), int)]
                m.add(v <= sum(covers)) if covers else m.add(v == 0)
            for h in {c for y in villages[x] for c in nbrs[y]}:
                if ("c", h) in sel:
                    preds.append(("c", h))
            size_terms.append(len(villages[x]) * v)
            if cut_from is None or x < cut_from:
                out.whole.append((v, villages[x]))
            for y in villages[x]:
                out.zone[y] = v
        if root:
            continue
        pr = []
        for u in dict.fromkeys(preds):
            p = m.new_bool_var(f"{name}_joinedge_{u}_{key}")
            m.add(p <= sel[u])
            m.add(lab[key] >= lab[u] + 1).only_enforce_if(p)
            pr.append(p)
        m.add(sum(pr) >= v) if pr else m.add(v == 0)
    out.size = sum(size_terms)
    return out


def closure(m: cp_model.CpModel, b: Board, hexes: list[int], name: str) -> dict[int, cp_model.IntVar]:
    """``in[h]``: hexes of the anchor surely in the group (seeded by the caller): a hex next to
    one that is, village now and covered by no tile this turn, is too."""
    s = b.s
    inn = {h: m.new_bool_var(f"{name}_in_{h}") for h in hexes}
    for h in hexes:
        for n in s.map.nbrs[h]:
            if n in inn:
                m.add(inn[n] >= inn[h] - b.cov(n))
    return inn


def _whole_rivals(m: cp_model.CpModel, b: Board, wholes: list[tuple[LinearExpr, list[int]]],
                  inn: dict[int, cp_model.IntVar], name: str) -> dict[int, cp_model.IntVar]:
    """Opponents' developers of a village now that is in the group whole: ``wholes`` pairs a
    0/1 condition that it is in (it joins, or it is the anchor and the event happens) with its
    hexes. A village no tile covers this turn stays whole and connected (R11 keeps its
    developers' hexes uncovered), so its rivals are surely in the group, whichever hex the
    palace goes on. Anchor hexes raise ``inn``; the joined ones' rivals are returned. Without
    this a join brought its size but none of its rivals, and a palace on a joined hex left the
    anchor's own rivals out."""
    s = b.s
    out: dict[int, cp_model.IntVar] = {}
    for cond, hexes in wholes:
        rivals = [h for h in hexes if s.dev[h] >= 0 and s.dev[h] != s.to_move]
        if not rivals:
            continue
        covers = [c for c in (b.cov(h) for h in hexes) if not isinstance(c, int)]
        for h in rivals:
            q = inn.get(h)
            if q is None:
                q = out[h] = m.new_bool_var(f"{name}_joined_rival_{h}")
            m.add(q >= cond - sum(covers)) if covers else m.add(q >= cond)
    return out


def opponent_counts(b: Board, inn: dict[int, cp_model.IntVar], levels: int
                    ) -> dict[int, tuple[list[LinearExpr | int], list[int]]]:
    s = b.s
    by: dict[int, list[tuple[int, LinearExpr | int]]] = {}
    for h, v in inn.items():
        o = s.dev[h]
        if o >= 0 and o != s.to_move:
            by.setdefault(o, []).append((s.level[h], v))
    return {o: counts_of(x, levels) for o, x in by.items()}


def _wins(m: cp_model.CpModel, snap: Snapshot,
          opp: dict[int, tuple[list[LinearExpr | int], list[int]]], name: str
          ) -> list[cp_model.IntVar]:
    if not opp:
        return [beats(m, snap.counts, [0] * snap.levels, f"{name}_alone")]
    return [beats(m, snap.counts, k, f"{name}_vs{o}", caps) for o, (k, caps) in opp.items()]


@dataclass
class Anchor:
    """One village group of the board now and the events anchored at it."""

    hexes: list[int]
    palace: int  # palace hex, -1 for a village
    value: int
    joins: _Joins = field(default_factory=_Joins)
    points: LinearExpr | int = 0  # palace points of its events
    change: LinearExpr | int = 0  # 1 when its palace changes (or is built) this turn
    new_value: LinearExpr | int = 0  # the value after the turn's change (0 when none)
    actions: LinearExpr | int = 0  # palace actions of its events (1 AP each, R28)
    site: dict[int, cp_model.IntVar] = field(default_factory=dict)


def _levels(b: Board, zone: dict[int, LinearExpr | int], hexes: list[int]) -> int:
    return max([b.max_level(h) for h in zone] + [b.s.level[h] for h in hexes] + [1])


def _event(m: cp_model.CpModel, b: Board, r: Reach, d: Devs, a: Anchor, name: str,
           values: list[int], base: int | list[LinearExpr], seed: dict[int, LinearExpr | int],
           forbid_in: int = -1, ev: cp_model.IntVar | None = None
           ) -> tuple[cp_model.IntVar, dict[int, cp_model.IntVar]]:
    """One palace change in the group: a value (R28), the size it needs, the mover's win.

    The group is ``base`` (its hexes now: a count, or one 0/1 expression per hex) and the
    joins. The size rule is written so that the LP keeps it at a fractional event: a value
    beyond ``base`` hexes needs that many joined cells, and a hex of a variable base counts
    only as much as the event happens. Without that, a tenth of a value-10 palace in a
    one-hex village scored half a point for a tenth of an AP."""
    if ev is None:
        ev = m.new_bool_var(name)
    vv = {v: m.new_bool_var(f"{name}_value{v}") for v in values}
    m.add(sum(vv.values()) == ev)
    if isinstance(base, int):
        need = [(v - base) * x for v, x in vv.items() if v > base]
        if need:
            m.add(sum(need) <= a.joins.size)
    else:
        counted = []
        for i, e in enumerate(base):
            q = m.new_bool_var(f"{name}_hex{i}_counts")
            m.add(q <= e)
            m.add(q <= ev)
            counted.append(q)
        m.add(sum(v * x for v, x in vv.items()) <= sum(counted) + a.joins.size)
    zone: dict[int, LinearExpr | int] = {h: 1 for h in a.hexes if h != a.palace}
    zone.update(a.joins.zone)
    levels = _levels(b, zone, a.hexes)
    inn = closure(m, b, a.hexes, name)
    for h, sd in seed.items():
        if h in inn:
            m.add(inn[h] >= sd)
    if forbid_in >= 0:
        m.add(inn[forbid_in] == 0)
    snap = snapshot(m, b, r, d, name, zone, levels, village=True)
    inn |= _whole_rivals(m, b, [(ev, a.hexes), *a.joins.whole], inn, name)
    for w in _wins(m, snap, opponent_counts(b, inn, levels), name):
        m.add(ev <= w)
    return ev, vv


def _sites(m: cp_model.CpModel, b: Board, a: Anchor, name: str, ev: cp_model.IntVar,
           exclude: int = -1) -> dict[int, cp_model.IntVar]:
    """Where the palace goes (R28: a village hex free of opponents): one of the anchor's hexes,
    which seeds its closure, or a hex that joins the group this turn (a village cell of this
    turn, planner-33 after 63 actions: E10; or a hex of a village or a part that joins), which
    seeds nothing (only allows more)."""
    s = b.s
    site = {}
    for h in a.hexes:
        if h != exclude and not s.palace[h] and not (s.dev[h] >= 0 and s.dev[h] != s.to_move):
            site[h] = m.new_bool_var(f"{name}_site_{h}")
    joined = [v for h, v in a.joins.zone.items() if h not in a.hexes]
    if joined:
        elsewhere = m.new_bool_var(f"{name}_site_on_a_joined_hex")
        m.add(elsewhere <= sum(joined))
        m.add(sum(site.values()) + elsewhere == ev)
    else:
        m.add(sum(site.values()) == ev)
    return site


def palace_anchors(m: cp_model.CpModel, b: Board, r: Reach, d: Devs) -> list[Anchor]:
    """Every palace event of the turn, by anchor group; ``points`` is what they score."""
    s = b.s
    g = s.groups()
    villages = [mem for gi, mem in enumerate(g.members) if g.palace[gi] < 0]
    cities = [[h for h in mem if h != g.palace[gi]] for gi, mem in enumerate(g.members)
              if g.palace[gi] >= 0]
    supply = s.palace_supply
    out: list[Anchor] = []
    used: dict[int, list[cp_model.IntVar]] = {v: [] for v in VALUES}
    festive: list[Anchor] = []  # palaces in parts cut off cities, for festivals only
    for gi, mem in enumerate(g.members):
        ph = g.palace[gi]
        a = Anchor(list(mem), ph, s.palace[ph] if ph >= 0 else 0)
        out.append(a)
        others = [v for v in villages if v is not mem]
        parts = [c for c in cities if not set(c) <= set(mem)]
        a.joins = _joins(m, b, set(mem), others + parts, f"g{gi}", cut_from=len(others))
        events: list[tuple[cp_model.IntVar, dict[int, cp_model.IntVar]]] = []
        if ph < 0:
            vals = [v for v in VALUES if supply[v] > 0]
            if vals:
                ev = m.new_bool_var(f"build{gi}")
                site = _sites(m, b, a, f"build{gi}", ev)
                _, vv = _event(m, b, r, d, a, f"build{gi}", vals, len(mem), dict(site),
                               ev=ev)
                a.site = site
                events.append((ev, vv))
                a.change, a.new_value = ev, sum(v * x for v, x in vv.items())
        else:
            vals = [v for v in VALUES if v > a.value and supply[v] > 0]
            if vals and ph not in s.turn.palaces_changed:
                ev, vv = _event(m, b, r, d, a, f"enlarge{gi}", vals, len(mem), {ph: 1})
                events.append((ev, vv))
                a.change, a.new_value = ev, sum(v * x for v, x in vv.items())
            vals = [v for v in VALUES if supply[v] > 0]
            if vals and len(mem) >= 3:  # a part cut off the city (R23): site, a hex covered
                ev = m.new_bool_var(f"part{gi}")
                site = _sites(m, b, a, f"part{gi}", ev, exclude=ph)
                pal = closure(m, b, a.hexes, f"part{gi}_palace_side")
                m.add(pal[ph] == 1)  # what stays with the palace is not in the part
                part = [1 - x for x in pal.values()]
                _, vv = _event(m, b, r, d, a, f"part{gi}", vals, part, dict(site),
                               forbid_in=ph, ev=ev)
                events.append((ev, vv))
                # Its own city, where a festival may follow (R30): its points and actions
                # stay with the anchor's.
                festive.append(Anchor(list(mem), -1, 0, a.joins, change=ev,
                                      new_value=sum(v * x for v, x in vv.items()), site=site))
        pts = []
        for ev, vv in events:
            for v, x in vv.items():
                used[v].append(x)
                pts.append(v // 2 * x)
        a.points = sum(pts) if pts else 0
        a.actions = sum(ev for ev, _ in events) if events else 0
    fresh = _new_village(m, b, r, d, used)
    if fresh is not None:
        out.append(fresh)
    out += festive
    for v, xs in used.items():
        if len(xs) > supply[v]:
            m.add(sum(xs) <= supply[v])
    return out


def _new_village(m: cp_model.CpModel, b: Board, r: Reach, d: Devs,
                 used: dict[int, list[cp_model.IntVar]]) -> Anchor | None:
    """A palace in a village made of this turn's village cells only (R20, R28): two cells at
    least (a tile each), a developer walking in and the palace, so 4 AP at least and one such
    village a turn. No opponent can stand on a cell laid this turn (R11), so one developer of
    the mover holds it. Cells next to a village now would join it: counting them here too only
    allows more."""
    s = b.s
    cells = [h for h in b.vcell if s.terrain[h] != VILLAGE or s.level[h] == 0]
    vals = [v for v in VALUES if s.palace_supply[v] > 0 and v <= b.budget - 2]
    if b.budget < 4 or len(cells) < 2 or not vals:
        return None
    ev = m.new_bool_var("new_village")
    sel = {h: m.new_bool_var(f"new_village_cell_{h}") for h in cells}
    root = {h: m.new_bool_var(f"new_village_site_{h}") for h in cells}
    lab = {h: m.new_int_var(0, len(cells), f"new_village_label_{h}") for h in cells}
    m.add(sum(root.values()) == ev)
    for h in cells:
        m.add(sel[h] <= sum(b.vcell[h]))
        m.add(sel[h] >= root[h])
        m.add(sel[h] <= ev)
        pr = []
        for u in s.map.nbrs[h]:
            if u in sel:
                p = m.new_bool_var(f"new_village_edge_{u}_{h}")
                m.add(p <= sel[u])
                m.add(lab[h] >= lab[u] + 1).only_enforce_if(p)
                pr.append(p)
        m.add(sum(pr) + root[h] >= sel[h])
    vv = {v: m.new_bool_var(f"new_village_value{v}") for v in vals}
    m.add(sum(vv.values()) == ev)
    m.add(sum(v * x for v, x in vv.items()) <= sum(sel.values()))
    zone: dict[int, LinearExpr | int] = dict(sel)
    snap = snapshot(m, b, r, d, "new_village", zone, max(b.max_level(h) for h in cells),
                    village=True)
    m.add(sum(snap.on.values()) >= ev) if snap.on else m.add(ev == 0)
    a = Anchor([], -1, 0)
    a.joins = _Joins(0, zone)
    a.change, a.new_value, a.site, a.actions = ev, sum(v * x for v, x in vv.items()), root, ev
    a.points = sum(v // 2 * x for v, x in vv.items())
    for v, x in vv.items():
        used[v].append(x)
    return a


def _draw_options(b: Board) -> list[tuple[int, list[str], str | None]]:
    """(AP, the mover's hand, the face-up card) after each way to draw 0–2 cards (R36)."""
    s = b.s
    me = s.to_move
    out = [(0, list(s.players[me].hand), s.face_up)]
    seqs: list[tuple[bool, ...]] = [(True,), (False,), (True, True), (True, False), (False, True),
                                    (False, False)]
    for seq in seqs:
        if len(seq) > b.budget:
            continue
        c = b.s.copy()
        try:
            for faceup in seq:
                c.push(Draw(faceup))
        except IllegalAction:
            continue
        out.append((len(seq), list(c.players[me].hand), c.face_up))
    return out


def festival_points(m: cp_model.CpModel, b: Board, r: Reach, d: Devs, anchors: list[Anchor]
                    ) -> tuple[LinearExpr | int, LinearExpr | int]:
    """The festival's points when no opponent can take part (R30–R34), and its draws' AP."""
    s = b.s
    options = [o for o in _draw_options(b) if matching(o[1], o[2])]
    if not options:
        return 0, 0
    opt = [m.new_bool_var(f"draw_option_{i}") for i in range(len(options))]
    m.add(sum(opt) <= 1)
    draws_ap = sum(o[0] * x for o, x in zip(options, opt))
    fests = []
    pts = []
    zones: list[tuple[Anchor, dict[int, LinearExpr | int]]] = []
    for a in anchors:
        if a.palace < 0 and isinstance(a.change, int):
            continue
        zone: dict[int, LinearExpr | int] = {h: 1 for h in a.hexes if h != a.palace}
        zone.update(a.joins.zone)
        zones.append((a, zone))
    # A hex counts when it is in any of the zones (a village cell may join several groups).
    conds: dict[int, list[LinearExpr]] = {}
    always: set[int] = set()
    for _, zone in zones:
        for h, ok in zone.items():
            if isinstance(ok, int):
                always.add(h)
            else:
                conds.setdefault(h, []).append(ok)
    union: dict[int, LinearExpr | int] = {h: 1 for h in always}
    for h, oks in conds.items():
        if h not in always:
            union[h] = oks[0] if len(oks) == 1 else _any(m, oks, f"festival_zone_{h}")
    # The festival ends the turn: one moment, where the mover's developers are at the end.
    levels = max([b.max_level(h) for h in union] + [1])
    snap = snapshot(m, b, r, d, "festival", union, levels, village=True)
    for ai, (a, zone) in enumerate(zones):
        f = m.new_bool_var(f"festival_{ai}")
        fests.append(f)
        m.add(f <= sum(opt))
        fp = m.new_int_var(0, 5, f"festival_{ai}_points")
        m.add(fp <= 5 * f)
        if a.palace < 0 or s.fest[a.palace]:
            m.add(f <= a.change)  # R30, R35: a new value first
        # R34 alone: half the value after the turn's change.
        m.add(2 * fp <= a.value - a.value * a.change + a.new_value)
        pts.append(fp)
        here = [snap.on[h] for h in zone if h in snap.on]
        m.add(sum(here) >= f) if here else m.add(f == 0)
        rivals = _rival_hexes(b, options, a.hexes)
        if rivals:
            inn = closure(m, b, a.hexes, f"festival{ai}")
            if a.palace >= 0:
                m.add(inn[a.palace] == 1)
            else:
                for h, sv in a.site.items():
                    m.add(inn[h] >= sv)
            _no_rival(m, b, options, opt, inn, f)
    if fests:
        m.add(sum(fests) <= 1)
    return (sum(pts) if pts else 0), draws_ap


def _any(m: cp_model.CpModel, oks: list[LinearExpr], name: str) -> cp_model.IntVar:
    """A variable that may be 1 only where one of ``oks`` is."""
    u = m.new_bool_var(name)
    m.add(u <= sum(oks))
    return u


def _rival_hexes(b: Board, options: list[tuple[int, list[str], str | None]],
                 hexes: list[int]) -> bool:
    """Whether an opponent stands in the group with cards that could match after some draw."""
    s = b.s
    return any(s.dev[h] >= 0 and s.dev[h] != s.to_move
               and any(matching(s.players[s.dev[h]].hand, face) for _, _, face in options)
               for h in hexes)


def _no_rival(m: cp_model.CpModel, b: Board, options: list[tuple[int, list[str], str | None]],
              opt: list[cp_model.IntVar], inn: dict[int, cp_model.IntVar], f: cp_model.IntVar
              ) -> None:
    """An opponent surely in the city whose cards are worth all of the mover's could join."""
    s = b.s
    for (ap, hand, face), x in zip(options, opt):
        mine = cards_worth(matching(hand, face), face)
        for o, p in enumerate(s.players):
            if o == s.to_move:
                continue
            if cards_worth(matching(p.hand, face), face) < mine:
                continue
            for h, v in inn.items():
                if s.dev[h] == o:
                    m.add(f + x + v <= 2)


__all__ = ["Anchor", "closure", "festival_points", "palace_anchors"]
