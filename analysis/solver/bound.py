"""An admissible upper bound on the points the mover can still score this turn.

Used by branch and bound to prune and by the CP-SAT engine's proof, so every step below must
over-estimate what any legal line can do; ``tests/test_solver_bound.py`` and the agreement test
check it against the brute force. The bound relaxes the turn into *events* and a count of AP:

- **palace events** (R28, R29; ``bound_palaces.py``, on a ``bound_view.View``): one per village
  group, at most one palace change each. A value ``v`` needs the group to reach ``v`` hexes.
  Each land tile shows one village hex at most (R10), so ``k`` tiles add at most ``k`` hexes
  to a group, and each new hex joins at most two other groups (a hex touches at most three
  distinct groups); a group ``d`` hexes away needs ``d − 1`` of them. R15 keeps cities apart,
  but a part cut off another city's palace is a village again (R23) and may join: no larger
  than ``View.split`` allows, and never with a hex beside that palace, nor a developer of his
  more than its other hexes hold (``View.joinable_parts``: no cover parts a hex from the
  palace beside it, R11). A village that joins a city grows that city's palace, so it
  counts in the city's options (R29: one change a turn), not its own. The mover must hold the
  highest position (R25) against every opponent's key, merged over the groups that join
  (R24). His developers climb for free only inside the free part of their group (R27: one
  terrain, never over an opponent or a palace); each paid arrival or move adds one more level
  from the rest; a tile raises a hex one level, ``k`` tiles a hex ``d`` away from the groups
  ``k − d + 1`` levels at most above ``flat``. What one or two tiles may do is worked out hex
  by hex (``bound_growth.py``: a group joins only the groups its new hexes touch, less the
  group hexes the tile itself covers); more tiles pool the groups' free hexes. An opponent
  he cannot beat must be cut off (R23): his hexes and one covered hex leave the group. A
  0-AP move (R27) never leaves the terrain it starts on, so a developer reaches a village
  group from outside only by a paid move or an entry (≥ 1 AP; when no tile can change the
  paths, the cheapest one into the free part whose hexes he needs, ``View.part_arrivals``; it
  lands in one group only), or by a tile joining his group to this one (a growth tile). Parts
  cut off a group
  (R23) may get palaces of their own: ``j`` of them cost ``j`` actions and a developer of his
  each (his developers in other groups come in through a tile's village hex, one part per
  tile), each needs a free hex for the palace and one for him in its part (a part no tile
  joins finds both among the group's free hexes, less one the cut covers), and their values
  add up to no more than their hexes (villages they join included;
  of the city, no more than all the parts the covered hexes cut off, ``View.split_total``);
  one new palace must out-rank the opponents left in its part.
- **pond events** (R37, R38; ``bound_ponds.py``): enclosing a pond (grown by irrigating its
  bare neighbours, or a new pond made by irrigation) scores 3 per space. Its bare neighbours
  must be covered by land tiles: at least the sum over them of ``1/c(h)``, ``c(h)`` the most
  of them one flat tile of his supplies through ``h`` covers (R10, R12), one single tile of
  his own for each that no larger tile fits, plus 1 AP per rim hex they lie on (R14: every
  bare rim hex, or, where more, the cheapest flat shape's rim hexes through each of bare hexes
  no one tile covers two of). Placements near
  each other may serve several ponds: ponds whose bare rings lie within one hex of each other
  form a cluster that needs the cover of the union of the rings it closes as they are, and
  the tiles of each grown or new pond alone. The mover must hold the highest position on the
  ring (R24, R25): his key there, one developer per hex, each where his own path reaches
  (R27), must beat every opponent's. He gets there for free; or across the bare hexes next
  to the ring that the covering tiles make land (they lie on level 0, R12), one of them laid
  before the move; or with one tile more (a bridge anywhere, or one flat shape on land lifted
  a level); else with two tiles more or a paid move, on a ring hex at least as high as the
  best opponent's highest developer: the tiles that lift it there (on land, so not among the
  covering ones) add to the pond's tiles.
- The tiles that may grow a group (``bound_growth.py``) never lie exactly on one tile of
  their size (R13) unless another tile raises one of its hexes first.
- Tiles are pooled: a growth tile may also cover a pond's ring, bridge a path or be the tile
  owed under R8; no more tiles than the supplies hold (R10). While a tile is owed and one
  fits in his AP, the engine refuses any action after which none would fit, and the turn
  cannot end (R8): every line places one. So the AP of a line are at least
  ``palace actions + max(growth tiles, pond tiles, bridges, 1 if a tile is owed) +
  irrigations and overhangs + max(paid arrivals into groups, 1 if a ring needs one)``.
- **checked cities** (``bound_tiles.py``): once the engine has checked what one or two
  tiles can do to a city on this position, its options and those of the parts cut off it
  claim no more than that with as many tiles (``_checked``).
- **festival** (R30–R34): half the value of a city without a festival since it last changed,
  or of a palace the chosen events build or enlarge within the same AP (one palace: 5 at most,
  even where the option counts several palaces of a split group), with a developer of his
  there (else a paid arrival) and cards worth more than those of every opponent sure to stay
  in the city: all of them when he may place no land tile, those one tile cannot cut off when
  he may place one, else those tied to the palace through hexes no tile may cover (R11). Its
  paid arrival may be the one an event needs too (an entry in the city may also stand on a
  pond's ring), so the two count once. A new
  palace in a part cut off a city (R23) is not spoilt by the opponents tied to the old one.
  The solver counts a festival only when nobody can join (R32); each card drawn to get there
  costs 1 AP (R36). The deck's order is part of the position, so every way to draw gives a
  known hand and face-up card; only where a reshuffle comes first may a drawn card be any.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import product

from analysis.solver.bound_palaces import palace_entries, refine
from analysis.solver.bound_ponds import pond_options, raw_items
from analysis.solver.bound_tiles import capped_options, known
from analysis.solver.bound_view import View, component, free_hexes, pareto
from core.state import GameState

# ------------------------------------------------------------------------------------- the bound


def upper_bound(s: GameState, ap: int | None = None, festivals: bool = True,
                views: dict[int, View] | None = None, below: int | None = None) -> int:
    """Most points the mover could still score with ``ap`` AP (default: AP left, no token):
    a budget, so the bound caps every line that spends no more. ``views`` (count of AP ->
    ``View``) shares the work of other calls on this same position, unchanged since: a solve
    asks the bound of one position with several counts of AP (the root's with and without the
    token, fewer for the tie-breaks; branch and bound at each node with the AP a tie may still
    spend), and the options of a view depend only on the position and its AP.

    ``below``: the caller asks only whether the bound falls below this (branch and bound's
    cuts). The palace entries are then worked out quick (``bound_palaces.entry_options``) and
    made exact one by one, those claiming most first, until the bound falls below ``below``
    or none is left quick: the answer falls below ``below`` exactly when the exact bound does,
    and where it does not, it is the exact bound. (A busy node's children, 44@191: a third
    of the entries made exact, the bound 1.9 times faster.)"""
    if ap is None:
        ap = s.turn.ap
    if views is None:
        views = {}

    def view(a: int) -> View:
        got = views.get(a)
        if got is None:
            got = views[a] = View(s, a, like=next(iter(views.values()), None))
        return got

    v = view(ap)
    entries = v.palace_shared[0] if v.palace_shared else None
    if below is None:
        if entries is not None and entries.ap >= ap and entries.quick():
            while refine(view(entries.ap), entries):
                pass
            _forget(views)
        return _bound(s, ap, festivals, view)
    if entries is None or entries.ap < ap:
        v.palace_shared[:] = [entries := palace_entries(v, quick=True)]
        _forget(views)
    while True:
        got = _bound(s, ap, festivals, view)
        if got < below or not refine(view(entries.ap), entries):
            return got
        _forget(views)


def _forget(views: dict[int, View]) -> None:
    """The views' palace options, to be read again from their shared entries."""
    for w in views.values():
        w.palace_options = None


def _bound(s: GameState, ap: int, festivals: bool, view: Callable[[int], View]) -> int:
    """``upper_bound``'s work, on the views ``view`` gives."""
    # R8: while a tile is owed and one fits in his AP (the token's too), no action may make
    # every placement impossible, and the turn cannot end: every line places a tile.
    owed = s.obligation_pending() and s.find_placement(s.turn.ap + s.token_bonus()) is not None
    by_ap: dict[tuple[int, int], int] = {}

    def events(a: int, arrive: int = 0) -> int:
        if (a, arrive) not in by_ap:
            by_ap[a, arrive] = _event_bound(s, a, view, owed=owed, arrive=arrive)
        return by_ap[a, arrive]

    best = events(ap)
    if festivals:
        cities, built = _festival_options(s, ap, view)
        for arrive, draws, pts in cities:
            best = max(best, events(ap - draws, arrive) + pts)
        for cards, eligible in built.items():
            best = max(best, _event_bound(s, ap - cards, view, eligible, owed))
    return max(best, 0)


NO_LINE = -(10**6)


def _events(v: View) -> list[tuple[int, list[tuple[int, ...]]]]:
    """``bound_palaces.palace_entries`` with the view's AP or more, worked out once for the
    views of a position (exact, unless ``upper_bound``'s ``below`` made them quick): an option
    is a count of palace actions, tiles and arrivals, the same with more AP (more AP only add
    options), and ``_event_bound`` keeps those that fit. Checked cities cap them (``_checked``)."""
    if v.palace_options is None:
        shared = v.palace_shared
        if not shared or shared[0].ap < v.ap:
            shared[:] = [palace_entries(v)]
        entries = shared[0]
        if entries.checked is None:
            entries.checked = _checked(v, entries.options())
        v.palace_options = entries.checked
    return v.palace_options


def _city(v: View, gi: int) -> int:
    """The palace hex of the city an entry of ``palace_entries`` belongs to (its own options,
    ``gi``, or its parts', −2 − ``gi``), −1 for a village or a group made from nothing."""
    return -1 if gi == -1 else v.g.palace[gi if gi >= 0 else -2 - gi]


def checks_worth(s: GameState, ap: int, views: dict[int, View]) -> list[int]:
    """The palaces of the cities whose options (their own or their parts') claim points with
    one or two tiles, those claiming most first: the order ``bound_tiles`` checks them in.
    Only the palace options are worked out (on the view kept in ``views``), not the bound."""
    if ap not in views:
        views[ap] = View(s, ap)
    v = views[ap]
    claims: dict[int, int] = {}
    for gi, opts in _events(v):
        ph = _city(v, gi)
        most = max((o[-1] for o in opts if o[1] <= 2), default=0)
        if ph >= 0 and most > 0:
            claims[ph] = max(claims.get(ph, 0), most)
    return sorted(claims, key=lambda ph: -claims[ph])


def checks_cut(s: GameState, ap: int, views: dict[int, View]) -> bool:
    """Whether the checks now known for this position cut any option the bound of ``views``
    (worked out before them, with ``ap`` AP) counted: else that bound stands as it is."""
    v = views.get(ap)
    if v is None or v.palace_options is None:
        return True
    return _checked(v, v.palace_options) != v.palace_options


def _checked(v: View, events: list[tuple[int, list[tuple[int, ...]]]]
             ) -> list[tuple[int, list[tuple[int, ...]]]]:
    """The options of the cities checked on this position (``bound_tiles``), and of the
    parts cut off them, cut down to what one or two tiles can do there."""
    checks = known(v.s)
    if not checks:
        return events
    out = []
    for gi, opts in events:
        check = checks.get(_city(v, gi))
        if check is not None:
            opts = capped_options(v.s, gi, opts, check)
        if opts:
            out.append((gi, opts))
    return out


def _ponds(v: View) -> list[tuple[int, ...]]:
    """``bound_ponds.pond_options`` with the view's AP, worked out once per view, from the
    ponds' options the views of the position share (``raw_items``, with the most AP asked)."""
    if v.pond_options is None:
        if not v.pond_raw or v.pond_raw[0][0] < v.ap:
            v.pond_raw[:] = [raw_items(v.s, v.ap)]
        v.pond_options = pond_options(v.s, v.ap, v.pond_raw[0])
    return v.pond_options


def _event_bound(s: GameState, ap: int, view: Callable[[int], View] | None = None,
                 festival: dict[int, int] | None = None, owed: bool = False, arrive: int = 0) -> int:
    """Most points from palace and pond events with ``ap`` AP, or ``NO_LINE`` where no line
    fits: with ``owed`` (R8), one land tile at least among them; with ``arrive``, a paid
    arrival of his (a festival's, into its city), which may also be the arrival an event
    needs (one entry may stand in the city and on a pond's ring). With
    ``festival`` (group -> most a festival there may give), also one festival on a palace the
    chosen events build or enlarge: half its value (R34), no more than that palace scored
    when it changed (R29), so no more than its option's points."""
    if ap <= 0:
        return NO_LINE if owed or arrive or ap < 0 else 0
    v = View(s, ap) if view is None else view(ap)
    events, ponds = _events(v), _ponds(v)
    # Palace side: (palace actions, growth tiles, paid arrivals, festival, arrivals of the
    # group event just chosen) -> points. The palaces of parts cut off a group (−2 − gi, right
    # after gi) may be built by the developer who built or enlarged the group's palace and
    # was then cut off with them (R23): their arrivals and the group's count once, the most
    # of the two.
    pal: dict[tuple[int, int, int, int, int], int] = {(0, 0, 0, 0, 0): 0}
    keep = False  # the entry before is a group whose parts come next: this one
    for idx, (gi, opts) in enumerate(events):
        cap = 0 if festival is None else festival.get(gi, 0)
        shared, keep = keep, idx + 1 < len(events) and events[idx + 1][0] == -2 - gi
        nxt: dict[tuple[int, int, int, int, int], int] = {}
        for (p, k, e, f, last), pts in pal.items():
            key = (p, k, e, f, 0)
            nxt[key] = max(nxt.get(key, -1), pts)
            for op, ok, oe, opts_pts in opts:
                more = max(0, oe - last) if shared else oe
                key = (p + op, k + ok, e + more, max(f, min(cap, opts_pts)), oe if keep else 0)
                if sum(key[:3]) <= ap and nxt.get(key, -1) < pts + opts_pts:
                    nxt[key] = pts + opts_pts
        pal = nxt
    pal = {k: pts + k[3] for k, pts in pal.items()}
    best = NO_LINE  # the empty choice fits unless a tile or an arrival is owed
    palace_options = pareto([(*k[:3], p) for k, p in pal.items()])
    for (p, k, e, pp), (t, i, b, a, qp) in product(palace_options, ponds):
        if max(k, t, b) > v.land_tiles:
            continue  # R10: no more tiles than his supply and the shared one hold
        if p + max(k, t, b, owed) + i + max(e, a, arrive) <= ap:
            best = max(best, pp + qp)
    return best


def _festival_options(s: GameState, ap: int, view: Callable[[int], View] | None = None
                      ) -> tuple[list[tuple[int, int, int]], dict[int, dict[int, int]]]:
    """Festivals the mover might hold alone at the end of the turn (R30–R34): (paid arrival,
    AP for draws, points) in a city without a festival since it last changed; and for a
    palace this turn builds or enlarges, per AP for cards, the most a festival may give in each group
    (``_event_bound``). He needs a developer there (one already there or joined by a tile,
    else a paid arrival, 1 AP at least) and cards: the solver counts a festival only when no
    opponent there can join (R32: cards worth at least the opening bid), so he needs more worth
    than each opponent who is sure to be there, with draws (1 AP each, R36) where his hand
    falls short (``_draw_outcomes``)."""
    from analysis.solver.common import festival_live
    from core.festival import card_worth

    if not festival_live() or s.face_up is None:
        return [], {}  # no face-up card: nothing matches (R31), and it is never replaced (R36)
    me = s.to_move
    hand = s.players[me].hand
    draws = min(2 - s.turn.cards_drawn, ap)
    land = s.players[me].doubles + s.players[me].rice + s.players[me].villages + s.triples
    fixed = land == 0
    g = s.groups()
    out: list[tuple[int, int, int]] = []

    def worth(cards: list[str], f: str | None) -> int:
        return sum(card_worth(c, f) for c in cards)

    outcomes = _draw_outcomes(hand, s.face_up, s.deck, draws)

    def cards_ap(opps: set[int]) -> int | None:
        """Fewest draws after which his best opening could beat every one of ``opps``: the
        deck's order is part of the position, so each way to draw (face-up or deck, R36) gives
        a known hand and face-up card; where a reshuffle would come first, any card."""
        for d, ways in enumerate(outcomes):
            if ways is None:
                return d  # a reshuffle: the cards are unknown
            for cards, f in ways:
                top = worth(cards, f)
                if top >= 1 and all(worth(s.players[o].hand, f) < top for o in opps):
                    return d
        return None

    if view is None:
        def view(a: int) -> View:
            return View(s, a)
    v = view(ap + 1)  # links over ap tiles: the festival itself costs no AP
    for gi, members in enumerate(g.members):
        ph = g.palace[gi]
        if ph < 0 or s.fest[ph]:
            continue
        need = cards_ap(_sure(s, g.members[gi], g.palace[gi], 0 if fixed else min(ap, land)))
        if need is None:
            continue
        # His developer is there, or a tile (which may serve another event too) joins a group
        # of his to the city (R15 allows a city to take in villages), or a paid arrival.
        joined = v.land_tiles > 0 and any(v.mine[o] for o in v.link[gi])
        arrive = 0 if v.mine[gi] or joined else 1
        if arrive + need <= ap:
            out.append((arrive, need, s.palace[ph] // 2))
    # One festival, in one city: at most half the highest value (R34), even where the option
    # counts several palaces of a split group (R23).
    # Per number of draws, the groups whose festival needs no more (fewer AP for more groups;
    # a number no group needs exactly adds none).
    # The palace action leaves ap − 1 AP for tiles.
    tiles = 0 if fixed else min(ap - 1, land)
    needs = {gi: cards_ap(_sure(s, g.members[gi], g.palace[gi], tiles) if gi >= 0 else set())
             for gi, _ in _events(view(ap))}
    built: dict[int, dict[int, int]] = {}
    for d in sorted({n for n in needs.values() if n is not None and n < ap}):
        built[d] = {gi: v.cap // 2 for gi, n in needs.items() if n is not None and n <= d}
    return out, built


def _sure(s: GameState, members: list[int], ph: int, tiles: int) -> set[int]:
    """Opponents whose developers stay in the group ``members`` (palace on ``ph``, or −1)
    whatever the mover does with ``tiles`` land tiles at most: all of them without a tile;
    else those tied to the palace through hexes no tile may cover (palaces and opponents'
    developers, R11), and with one tile those it cannot cut off (``_uncut``)."""
    me = s.to_move
    if tiles <= 0:
        return {s.dev[h] for h in members if s.dev[h] >= 0} - {me}
    if ph < 0:
        return set()
    if tiles == 1:
        return _uncut(s, members, ph)
    fixed_hexes = {h for h in members if s.palace[h] or (s.dev[h] >= 0 and s.dev[h] != me)}
    return {s.dev[h] for h in component(ph, fixed_hexes, s.map.nbrs) if not s.palace[h]}


def _draw_outcomes(hand: list[str], face: str | None, deck: list[str], most: int
                   ) -> list[list[tuple[list[str], str | None]] | None]:
    """Per number of draws ``d`` up to ``most``: every (hand, face-up card) the mover may have
    after ``d`` draws (R36: the face-up card, replaced at once by the deck's top card, or the
    deck's top card), or None where the deck runs out first (a reshuffle, which the bound
    does not predict)."""
    out: list[list[tuple[list[str], str | None]] | None] = []
    layer: list[tuple[list[str], str | None, int]] = [(list(hand), face, 0)]
    for d in range(most + 1):
        if d > 0:
            nxt = []
            for cards, f, top in layer:
                if top < len(deck):
                    nxt.append(([*cards, deck[top]], f, top + 1))
                    if f is not None:
                        nxt.append(([*cards, f], deck[top], top + 1))
            layer = nxt
        if len(deck) < d:
            out.append(None)
        else:
            out.append([(cards, f) for cards, f, _ in layer])
    return out


_UNCUT: dict[tuple[object, ...], frozenset[int]] = {}


def _uncut(s: GameState, members: list[int], ph: int) -> set[int]:
    """Opponents of the mover in the city ``members`` (palace on ``ph``) whom one land tile
    cannot cut off the palace (R23): it covers one hex, or two next to each other (a
    three-space tile's rice hexes, R10), never a palace nor a developer (R11; the mover's own
    may step aside). Cached on the city's layout."""
    me = s.to_move
    key = (me, ph, tuple(sorted((h, s.dev[h], s.palace[h] > 0) for h in members)))
    got = _UNCUT.get(key)
    if got is None:
        inside = set(members)
        coverable = free_hexes(s, members, me)
        opps = {h for h in members if s.dev[h] >= 0 and s.dev[h] != me}
        cut: set[int] = set()
        cuts = [{h} for h in coverable] + [{a, b} for a in coverable for b in s.map.nbrs[a]
                                           if b in inside and b > a and b in coverable]
        for c in cuts:
            cut |= opps - component(ph, inside - c, s.map.nbrs)
        got = frozenset(s.dev[h] for h in opps if h not in cut)
        if len(_UNCUT) > 4096:
            _UNCUT.clear()
        _UNCUT[key] = got
    return set(got)
