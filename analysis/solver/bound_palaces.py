"""The palace side of the admissible bound (``bound.py``): per village group, what building or
enlarging its palace this turn may score for how many palace actions, growth tiles and paid
arrivals (R15, R20–R29). Every count is a lower bound on what a real line spends, every point
total an upper bound on what it earns; ``bound.py``'s docstring gives the reasoning."""

from __future__ import annotations

from analysis.solver.bound_growth import one_tile_growths, two_tile_growths
from analysis.solver.bound_view import (
    Comps,
    Entry,
    PalaceEntries,
    View,
    free_hexes,
    meet,
    pareto,
    rank,
)
from core.legality import PALACE_VALUES


def _reach(v: View, gi: int, k: int, near: dict[int, int], t: int) -> int:
    """Highest level a developer of his may stand on in group ``gi`` after ``k`` tiles, ``t`` of
    them stacked on his hex (R12, R24), where it may join the groups ``near`` ({group: new
    hexes to join it}): a free hex of these groups, a hex of a group joined with ``n`` tiles
    raised by the ``t``, or a hex ``d`` away from it, which the group reaches only through
    ``d − 1`` more new village hexes (one per tile, R10): ``n + d − 1 + t ≤ k``."""
    top = max(v.free_top[o] for o in [gi, *near])
    for o, n in [(gi, 0), *near.items()]:
        if n + t <= k:
            top = max(top, v.around(o)[k - t - n + 1] + t)
    return top




def _key(comps: Comps, paid: int) -> tuple[int, ...]:
    """Highest rank key he may have (R24) over free parts ``comps``: his developers climb for
    free inside their own part (R27: one terrain, never over an opponent or a palace); each
    paid action (an arrival, or a paid move across) adds one more level from the rest. A sorted
    superset is a greater key, so a paid move counts like an arrival."""
    base: list[int] = []
    rest: list[int] = []
    for levels, mine in comps:
        base += levels[:mine]
        rest += levels[mine:]
    rest.sort(reverse=True)
    return tuple(sorted(base + rest[:paid], reverse=True))


def _cheapest_arrivals(v: View, gi: int, budget: int) -> int | None:
    """The fewest AP of paid arrivals (``View.part_arrivals``, each into one free part of group
    ``gi``, where he climbs for free to its next highest hex) after which his rank key there
    (R24) beats every opponent's (R25), within ``budget``; None: no way. Where every part
    costs the same, the highest levels first are cheapest (``_key``)."""
    parts = [(lv, c) for lv, c, _ in v.parts(gi)]
    costs = v.part_arrivals(gi)
    opp = v.opp_key[gi]
    best: int | None = None

    def visit(i: int, counts: list[int], spent: int) -> None:
        nonlocal best
        if best is not None and spent >= best:
            return
        if i == len(parts):
            key = tuple(sorted((x for (lv, mine), n in zip(parts, counts) for x in lv[:mine + n]),
                               reverse=True))
            if key and key > opp:
                best = spent
            return
        lv, mine = parts[i]
        for n in range(len(lv) - mine + 1):
            if spent + n * costs[i] > budget:
                break
            visit(i + 1, [*counts, n], spent + n * costs[i])

    visit(0, [], 0)
    return best


def _joined_size(v: View, o: int, cut: bool, top: int, cuts: int) -> int:
    """``_joined_size_now``, remembered for the position (``View.joined_sizes``)."""
    key = (o, cut, top, cuts)
    got = v.joined_sizes.get(key)
    if got is None:
        got = v.joined_sizes[key] = _joined_size_now(v, o, cut, top, cuts)
    return got


def _joined_size_now(v: View, o: int, cut: bool, top: int, cuts: int) -> int:
    """Hexes group ``o`` brings when tiles join it: all of a village, or when its opponents are
    cut off (``cut``, R23), less their hexes and one covered hex to part them. Of a city only a
    part cut off its palace may join (R15), a village again: at most ``View.split`` of it with
    ``cuts`` hexes covered (R10: a tile shows two rice hexes at most), and less each
    opponent's developer higher than ``top`` (his highest level there), who would out-rank him
    in it (R24, R25); the other opponents are left out (an over-estimate: they may be in it)."""
    g, s = v.g, v.s
    if g.palace[o] < 0:
        return max(0, len(g.members[o]) - (1 + sum(map(len, v.opp_levels[o].values())) if cut else 0))
    above = sum(1 for h in g.members[o] if s.dev[h] >= 0 and s.dev[h] != v.me and s.level[h] > top)
    return max(0, min(len(g.members[o]) - 2 - above, v.split(o, cuts)))


def _ranked_options(v: View, gi: int, k: int, grow: int, joined: list[int], old: int,
                    comps: Comps | None = None, reach: int = 0, lift: list[int] | None = None,
                    part: tuple[int, dict[int, list[int]]] | None = None, made: bool = False
                    ) -> list[tuple[int, int, int, int]]:
    """Options ``(1, k, paid arrivals, points)`` for a palace in group ``gi`` after ``k`` growth
    tiles that add ``grow`` hexes and may join the villages ``joined``, no developer of his
    standing higher than ``reach``.

    R24, R25: his rank key must beat every opponent's key there. An opponent he cannot beat
    must be cut off (R23): his developers' hexes leave the group, and a covered hex at least
    to part them from the rest (none more for a ``part``, whose size counts one already). A
    joined village brings its developers into the rank, or is joined only in part, cut off all
    of them. With ``comps`` (one or two tiles: the free parts they leave, ``bound_growth``) his key
    is ``_key`` of them and the opponents' keys are merged over the groups that join (each cut
    or not). Else his key is at most the levels of the highest free hexes there and of the hexes
    the tiles make or raise (``lift``: each to ``reach`` at most), one per developer of his in
    these groups and per paid arrival (1 AP at least), each group's keys are beaten on their
    own (merged keys only grow), and the ``2 · grow`` largest groups join. ``part``: (most
    hexes, opponents' levels) of the part of the group that gets the palace, where not all of
    it does (R23): no more than ``View.split`` either; ``made``: that part is one the covers
    make (``View.cut_parts``), every opponent in it stays."""
    g, ap = v.g, v.ap
    exact = comps is not None
    size0, self_levels = part if part is not None else (len(g.members[gi]), v.opp_levels[gi])
    sep = 0 if part is not None else 1
    have = v.count[gi] + sum(v.count[o] for o in joined)
    pool = [] if exact else sorted([*v.free_levels[gi], *(x for o in joined for x in v.free_levels[o]),
                                    *([reach] * k if lift is None else lift)], reverse=True)
    rivals = [o for o in joined if v.opp_key[o] and g.palace[o] < 0]
    whole = sorted((_joined_size(v, o, False, 99, 2 * k) for o in joined), reverse=True)
    ceiling = best_value(v, size0 + grow + sum(whole if exact else whole[:2 * grow]), old)
    merged = {p: list(lv) for p, lv in self_levels.items()}  # with every rival village joined
    for o in rivals:
        for p, lv in v.opp_levels[o].items():
            merged.setdefault(p, []).extend(lv)
    strength = {p: rank(merged[p] if exact else lv) for p, lv in self_levels.items()}
    out: list[tuple[int, int, int, int]] = []
    top = 0
    for arrive in range(ap - k):  # 1 palace action + k tiles + arrivals fit in the AP
        if top >= ceiling:
            break
        key = _key(comps, arrive) if comps is not None else tuple(pool[:have + arrive])
        if not key:
            continue  # no developer of his in the group (R28); in a joined city only those
            # off its palace's neighbours count (``View.joinable_parts``)
        # Only an opponent he may not beat is worth cutting off (his key only shrinks when
        # villages stay out); the others stay.
        # (none where ``made``: the part is one the covers make, with every opponent in it)
        strong = [] if made else [p for p in self_levels if strength[p] >= key]
        best = 0
        for drop in range(1 << len(strong)):  # the opponents cut off this group
            gone_p = {p for i, p in enumerate(strong) if drop >> i & 1}
            stay = {p: lv for p, lv in self_levels.items() if p not in gone_p}
            gone = sum(len(self_levels[p]) for p in gone_p)
            own = max(0, size0 - gone - (sep if gone else 0))
            if part is not None:
                own = min(own, v.split(gi, 2 * k))
            if exact:
                best = max(best, _cut_rivals(v, gi, k, key, stay, own, part is not None or gone > 0,
                                             part is not None, grow, joined, rivals, old))
            else:
                if any(rank(lv) >= key for lv in stay.values()):
                    continue
                sizes = sorted((_joined_size(v, o, not key > v.opp_key[o], key[0], 2 * k) for o in joined),
                               reverse=True)
                best = max(best, best_value(v, own + grow + sum(sizes[:2 * grow]), old))
        if best > top:
            top = best
            out.append((1, k, arrive, best // 2))
    return out


def _cut_rivals(v: View, gi: int, k: int, key: tuple[int, ...], stay: dict[int, list[int]],
                own: int, cut_self: bool, in_part: bool, grow: int, joined: list[int],
                rivals: list[int], old: int) -> int:
    """``_ranked_options``' exact case: the most points over which rival villages among
    ``joined`` are cut off (R23) so that no opponent left (``stay``, and those of the
    villages that join whole) reaches his ``key`` (R24, R25); ``cut_self``: the group itself
    is cut already (an opponent cut off, or a part of it)."""
    g = v.g
    best = 0
    for mask in range(1 << len(rivals)):
        cut = {o for i, o in enumerate(rivals) if mask >> i & 1}
        # A tile covers two hexes at most besides its village hex (R10), one in each group it
        # cuts (R23) at least; what is left may cut more.
        cuts = cut_self + len(cut) + sum(g.palace[o] >= 0 for o in joined)
        if cuts > 2 * k:
            continue
        spare = min(2 * k, 2 * k + 1 - cuts)
        levels = {p: list(lv) for p, lv in stay.items()}
        for o in rivals:
            if o not in cut:
                for p, lv in v.opp_levels[o].items():
                    levels.setdefault(p, []).extend(lv)
        if any(rank(lv) >= key for lv in levels.values()):
            continue
        size = (min(own, v.split(gi, spare)) if in_part else own) + grow + sum(
            _joined_size(v, o, o in cut, key[0], spare) for o in joined)
        best = max(best, best_value(v, size, old))
    return best


def palace_entries(v: View, quick: bool = False) -> PalaceEntries:
    """Per group (its index; −1 for a group made from nothing; −2 − its index for new palaces
    in parts cut off it), options ``(palace actions, growth tiles, paid arrivals, points)``;
    ``quick``: each group's and its parts' worked out quick (``entry_options``), to be made
    exact one by one (``refine``)."""
    keys: list[int] = []
    for gi, members in enumerate(v.g.members):
        keys.append(gi)
        if len(members) >= 3 and v.land_tiles:
            # Keyed apart (−2 − gi): a festival on a palace in a part is not spoilt by the
            # opponents tied to the city's old palace (``_festival_options``).
            keys.append(-2 - gi)
    opts = {key: entry_options(v, key, quick) for key in keys}
    # A group made from nothing: two new village hexes, an entry and the palace (value 2);
    # four hexes for value 4.
    new: list[Entry] = []
    for _ in range(4, v.ap + 1 if v.village_tiles >= 2 else 0, 4):
        made: list[tuple[int, ...]] = [(1, 2, 1, 1)]
        if v.ap >= 6 and best_value(v, 4, 0) >= 4:
            made.append((1, 4, 1, 2))
        new.append((-1, made))
    return PalaceEntries(v.ap, keys, opts, new, set() if quick else set(keys))


def entry_options(v: View, key: int, quick: bool = False) -> list[tuple[int, ...]]:
    """The options of one entry: group ``key``'s own palace, or (−2 − gi) new palaces in
    parts cut off group gi. ``quick``: one and two growth tiles reasoned about as more are
    (pooled, not hex by hex: a seventh of the work on a busy board), each such option with
    one paid arrival fewer. Those options cover the exact ones (each exact option is met by a
    quick one that costs no more in any count and scores no less: checked on 5 444 entries of
    every puzzle, 20 busy turns and two children of each, at 1–3 AP and the full AP; without
    the arrival fewer, 2 were not), so a bound from them is never below the exact one
    (``bound.upper_bound``'s ``below``); and they are an admissible relaxation in their own
    right, the pooling's reasoning holding for any count of tiles."""
    if key >= 0:
        opts = _group_options(v, key, set(v.s.turn.palaces_changed), quick)
    else:
        opts = _cut_options(v, -2 - key, quick)
    return pareto(opts) if opts else []


def refine(v: View, entries: PalaceEntries) -> bool:
    """Make the quick entry that claims the most points exact (``v``: a view with the
    entries' AP); False when none is left quick."""
    left = entries.quick()
    if not left:
        return False
    key = max(left, key=lambda k: max(o[-1] for o in entries.opts[k]))
    entries.opts[key] = entry_options(v, key)
    entries.exact.add(key)
    entries.checked = None
    return True


def _quick(opts: list[tuple[int, ...]]) -> list[tuple[int, ...]]:
    """Pooled options of one or two tiles with one paid arrival fewer (``entry_options``)."""
    return [(p, k, max(0, e - 1) if 1 <= k <= 2 else e, pts) for p, k, e, pts in opts]


def _group_options(v: View, gi: int, changed: set[int], quick: bool = False) -> list[tuple[int, ...]]:
    """The options of group ``gi``'s own palace: built, or enlarged (``changed``: the palaces
    changed this turn already, R29), with ``k`` growth tiles (``quick``: ``entry_options``)."""
    s, g, ap = v.s, v.g, v.ap
    members = g.members[gi]
    ph = g.palace[gi]
    old = s.palace[ph] if ph >= 0 else 0
    if ph >= 0 and ph in changed:
        old = 99  # R29: this palace changed this turn already
    links = v.link[gi]
    opts: list[tuple[int, ...]] = []
    for k in range(min(ap, v.village_tiles + 1)):  # each growth tile shows a village (R10)
        if k == 0:
            # No tile: the group stays as it is. His developers there may climb inside it
            # for free (R27, one terrain); each paid arrival brings one more (R26).
            val = best_value(v, len(members), old)
            paid = _cheapest_arrivals(v, gi, ap - 1) if val else None
            if paid is not None:
                opts.append((1, 0, paid, val // 2))
            continue
        # A village that joins a city counts in the city's options, where this group is one
        # of the villages; or a part of the city cut off its palace joins this village, in
        # the city's options for its parts (``_cut_options``). A city joins villages, and
        # parts of other cities cut off their palaces (R15, R23).
        near = {o: need for o, need in links.items() if need <= k and (ph >= 0 or g.palace[o] < 0)}
        if k <= 2 and not quick:
            least = min((x for x in PALACE_VALUES if x > old and v.s.palace_supply[x] > 0), default=99)
            growths = (one_tile_growths if k == 1 else two_tile_growths)(v, gi, ph >= 0, least)
            for grow, comps, joined in growths:
                opts.extend(_ranked_options(v, gi, k, grow, joined, old, comps=comps))
        else:
            # ``t`` tiles stacked on his highest hex leave ``k − t + 1`` new hexes at most,
            # each of the others one level above ``flat``.
            one = _reach(v, gi, k, near, 1)
            for t in range(1, k + 1):
                near_t = {o: n for o, n in near.items() if n <= k - t + 1}
                high = _reach(v, gi, k, near_t, t)
                opts.extend(_ranked_options(v, gi, k, k - t + 1, list(near_t), old, reach=high,
                                            lift=[high] + [one] * (k - t)))
    return _quick(opts) if quick else opts


def _cut_options(v: View, gi: int, quick: bool = False) -> list[tuple[int, ...]]:
    """R23: tiles cut group ``gi``; the parts without its palace are villages that may get
    palaces of their own (even when this palace changed this turn, R29), and may grow and join
    other groups. ``j`` such palaces cost ``j`` actions and their values add up to no more than
    their hexes. Each needs a developer of his in its part (R28): those of this group and the
    groups it may join, else a paid arrival (≥ 1 AP). ``quick``: ``entry_options``."""
    s, ap = v.s, v.ap
    members = v.g.members[gi]
    links = v.link[gi]
    second: list[tuple[int, ...]] = []
    for k in range(1, min(ap, v.land_tiles + 1)):
        # villages, and parts of other cities cut off their palaces (R23), may join
        within = {o: need for o, need in links.items() if need <= k}
        # R24, R25: an opponent's developer higher than any of his may stand there
        # out-ranks him, so it stays out of every part that gets a palace, and so does
        # at least one hex cut off with it; a village with one joins in part.
        reach = max(_reach(v, gi, k, within, t) for t in range(1, k + 1))
        above = sum(1 for h in members if s.dev[h] >= 0 and s.dev[h] != v.me and s.level[h] > reach)
        joinable = sorted((_joined_size(v, o, v.opp_top[o] > reach, reach, 2 * k) for o in within),
                          reverse=True)
        # all the parts together: no more than the covered hexes cut off the palace
        size = min(len(members) - 2 - above, v.split_total(gi, 2 * k)) + k + sum(joinable[:2 * k])
        # His developers in other groups come in only through a tile's village hex
        # (R10: one per tile), which joins them to one part: k parts at most.
        have = v.count[gi] + min(k, sum(v.count[o] for o in within))
        # One new palace: in the part he must out-rank the opponents left there too.
        levels: dict[int, list[int]] = {}
        for h in members:
            if s.dev[h] >= 0 and s.dev[h] != v.me and s.level[h] <= reach:
                levels.setdefault(s.dev[h], []).append(s.level[h])
        single = _part_options(v, gi, k, within, reach, [(max(0, len(members) - 2 - above), levels)],
                               quick=quick)
        # Where every set of covers can be tried, the parts themselves, each with every
        # opponent standing in it (``View.cut_parts``), and room for the palace and for
        # him (R28: two hexes without an opponent, the ``k`` tiles' new hexes
        # included): a line both ways allow.
        made = v.cut_parts(gi, 2 * k) if single else None
        if made is not None:
            single = meet(single, _part_options(v, gi, k, within, reach, [
                (n, lv) for n, lv in made if n - sum(map(len, lv.values())) + k >= 2], made=True,
                quick=quick))
        second += single
        # R28: each new palace stands on a village hex without a developer, in a part
        # where a developer of his stands too: two hexes of the part. A part no tile's
        # village hex (R10: one per tile) joins to new hexes or other groups has them
        # only among the group's hexes without a palace or an opponent, and a cut
        # covers one of those with rice (R11, R23).
        free = len(free_hexes(s, members, v.me))
        for j in range(2, min(4, k + (free - 1) // 2 + 1)):
            paid = max(0, j - have)
            if size >= 2 * j and j + k + paid <= ap:
                second.append((j, k, paid, min(size, v.cap * j) // 2))
    return second


def _part_options(v: View, gi: int, k: int, within: dict[int, int], reach: int,
                  parts: list[tuple[int, dict[int, list[int]]]], made: bool = False,
                  quick: bool = False) -> list[tuple[int, ...]]:
    """``_ranked_options`` for one new palace in a part cut off city ``gi`` with ``k`` tiles,
    over the ``parts`` it may be (most hexes, opponents' levels there); ``made``: the parts the
    covers make, each with every opponent in it. ``quick``: ``entry_options``."""
    out: list[tuple[int, ...]] = []
    for part in parts:
        if k <= 2 and not quick:
            for grow, comps, joined in (one_tile_growths if k == 1 else two_tile_growths)(v, gi, True):
                out += _ranked_options(v, gi, k, grow, joined, 0, comps=comps, part=part, made=made)
        else:
            out += _ranked_options(v, gi, k, k, list(within), 0, reach=reach, part=part, made=made)
    return _quick(out) if quick else out


def best_value(v: View, size: int, old: int) -> int:
    """The most valuable palace above ``old`` that a group of ``size`` hexes allows and the
    supply still holds (R28)."""
    best = 0
    top, supply = min(size, v.cap), v.s.palace_supply
    for val in PALACE_VALUES:  # ascending
        if val > top:
            break
        if val > old and supply[val] > 0:
            best = val
    return best
