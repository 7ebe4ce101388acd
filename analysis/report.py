"""Position reports: cities and their rankings, who could build or enlarge next and at what AP
cost, villages ready for a palace, ponds, the projected final count and the best turn.

``position_report`` returns plain data; its keys include notation.md's ``analyze --json``
contract (``cities`` with palace, value, size, keys, first, second; ``final_count``).
"""

from __future__ import annotations

from typing import Any

from core.groups import all_ponds, pond_ring
from core.hexmap import hex_name
from core.legality import PALACE_VALUES, ring_holder
from core.paths import move_costs
from core.ranking import highest
from core.scoring import city_standings, final_count
from core.state import AP_PER_TURN, GameState


def next_values(s: GameState, size: int, old: int) -> list[int]:
    """Palace values a group of ``size`` could take above ``old`` with the supply left (R28)."""
    return [v for v in PALACE_VALUES if old < v <= size and s.palace_supply[v] > 0]


def take_lead_costs(s: GameState, members: list[int]) -> dict[int, int]:
    """{player: AP} to hold the highest position (R25) in a group with at most one developer
    move (R27) or entry (R26); 0 for the current holder. Players who would need more are left
    out. Costs are on the board as it is (another player's turn may change them)."""
    dev, level = s.dev, s.level
    devs = [(level[h], dev[h], h) for h in members if dev[h] >= 0]
    holder = highest([(lv, p) for lv, p, _ in devs])
    out: dict[int, int] = {holder: 0} if holder >= 0 else {}
    free = [h for h in members if dev[h] < 0 and not s.palace[h] and level[h] > 0]
    for p in range(s.n_players):
        if p == holder:
            continue
        best: int | None = None
        sources = [h for h in s.map.hexes if dev[h] == p]
        reach = {src: move_costs(src, p, level, s.terrain, dev, s.palace, s.map.nbrs, AP_PER_TURN)
                 for src in sources}
        for d in free:
            options = [(c[d], src) for src, c in reach.items() if d in c]
            edge = s.map.edge_cost(d)
            if edge and s.players[p].developers_off > 0:
                options.append((edge, -1))
            for cost, src in options:
                if best is not None and cost >= best:
                    continue
                after = [(lv, q) for lv, q, h in devs if h != src] + [(level[d], p)]
                if highest(after) == p:
                    best = cost
        if best is not None:
            out[p] = best
    return out


def build_options(s: GameState, members: list[int], old: int) -> list[dict[str, Any]]:
    """Who could build (old = 0) or enlarge the palace next, to which value, at what AP cost:
    the cost of taking the highest position plus 1 AP for the palace (R28)."""
    values = next_values(s, len(members), old)
    if not values:
        return []
    opts = [{"player": p, "ap": c + 1, "value": values[-1]}
            for p, c in take_lead_costs(s, members).items()]
    opts.sort(key=lambda o: (o["ap"], o["player"]))
    return opts


def best_turn(s: GameState, time_limit: float | None, processes: int = 1) -> dict[str, Any] | None:
    """The solver's best turn for the player to move (issue 5), or None when unavailable;
    ``processes`` as ``analysis.solver.solve`` takes it (1 in a batch's workers)."""
    try:
        from analysis.solver import DEFAULT_ENGINE, solve
    except Exception:  # noqa: BLE001 - the solver is optional for a report
        return None
    if s.is_terminal():
        return {"best": 0, "line": "", "optimal": True, "note": "the game is over (R40)"}
    if s.festival is not None:
        return {"best": 0, "line": "", "optimal": False, "note": "a festival is being bid (R32)"}
    try:
        r = solve(s, engine=DEFAULT_ENGINE, time_limit=time_limit, processes=processes)
    except ValueError as e:
        return {"best": 0, "line": "", "optimal": False, "note": str(e)}
    except Exception as e:  # noqa: BLE001 - a solver failure must not sink the report
        return {"best": 0, "line": "", "optimal": False, "note": f"solver failed: {type(e).__name__}: {e}"}
    out: dict[str, Any] = r.to_json()
    return out


def position_report(s: GameState, solve: bool = False, time_limit: float | None = 5.0,
                    processes: int = 1) -> dict[str, Any]:
    """Everything ``kraton analyze`` shows, as plain data (hexes by name, players by index);
    ``processes`` for the best turn's solve (``best_turn``)."""
    g = s.groups()
    cities = []
    for c in city_standings(s):
        members = g.members[g.label[c.palace]]
        cities.append({
            "palace": hex_name(c.palace),
            "value": c.value,
            "size": c.size,
            "festival_held": s.fest[c.palace],
            "hexes": [hex_name(h) for h in c.hexes],
            "keys": {str(p): list(k) for p, k in enumerate(c.keys) if k},
            "first": list(c.first),
            "second": list(c.second),
            "highest": ring_holder(s, members),
            "enlarge": build_options(s, members, c.value),
        })
    villages = []
    for gi, members in enumerate(g.members):
        if g.palace[gi] >= 0:
            continue
        values = next_values(s, len(members), 0)
        villages.append({
            "hexes": [hex_name(h) for h in sorted(members)],
            "size": len(members),
            "highest": ring_holder(s, members),
            "palace_values": values,
            "sites": [hex_name(h) for h in sorted(members) if s.dev[h] < 0] if values else [],
            "build": build_options(s, members, 0),
        })
    ponds = []
    for pond in all_ponds(s.map.hexes, s.irrigated, s.map.nbrs):
        ring = pond_ring(pond, s.map.nbrs)
        open_hexes = [hex_name(h) for h in ring if s.level[h] == 0]
        ponds.append({
            "hexes": [hex_name(h) for h in pond],
            "open": open_hexes,
            "enclosed": not open_hexes,
            "highest": ring_holder(s, ring),
            "points": 3 * len(pond),
        })
    report: dict[str, Any] = {
        "to_move": s.to_move,
        "players": [p.name for p in s.players],
        "scores": [p.score for p in s.players],
        "ap": s.turn.ap,
        "triples": s.triples,
        "cities": cities,
        "villages": villages,
        "ponds": ponds,
        "final_count": final_count(s),
    }
    # A player who has made his final count (R40) has it in his score already.
    report["projected"] = [p.score + (0 if p.final_counted else fc)
                           for p, fc in zip(s.players, report["final_count"])]
    if s.festival is not None:
        report["festival"] = s.festival.to_json()
    if solve:
        report["best_turn"] = best_turn(s, time_limit, processes)
    return report


def _options_text(names: list[str], opts: list[dict[str, Any]]) -> str:
    return ", ".join(f"{names[o['player']]} {o['ap']} AP (to {o['value']})" for o in opts) or "-"


def report_text(s: GameState, r: dict[str, Any]) -> str:
    """The report as readable tables for a terminal."""
    names = [p.name for p in s.players]

    def who(ps: list[int]) -> str:
        return ", ".join(names[p] for p in ps) if ps else "-"

    def one(p: int) -> str:
        return names[p] if p >= 0 else "nobody"

    lines = [f"To move: {names[r['to_move']]} ({r['ap']} AP), three-space tiles left: {r['triples']}",
             f"Scores: {', '.join(f'{n} {v}' for n, v in zip(names, r['scores']))}"]
    if r.get("festival"):
        f = r["festival"]
        lines.append(f"Festival being bid in the city of {f['palace']} (R32): "
                     f"{names[f['to_decide']]} to decide")
    lines.append(f"Cities ({len(r['cities'])}):" if r["cities"] else "Cities: none")
    if r["cities"]:
        lines.append(f"  {'palace':<7}{'value':>5}{'size':>5}  {'keys (levels, highest first)':<34} "
                     f"{'first / second':<24}build or enlarge next (R28)")
    for c in r["cities"]:
        keys = "; ".join(f"{names[int(p)]} {k}" for p, k in c["keys"].items()) or "no developers"
        fs = f"{who(c['first'])} / {who(c['second'])}"
        lines.append(f"  {c['palace']:<7}{c['value']:>5}{c['size']:>5}  {keys:<34} {fs:<24}"
                     f"{_options_text(names, c['enlarge'])}")
    singles = sum(1 for v in r["villages"] if v["size"] < 2)
    listed = len(r["villages"]) - singles
    small = (f"{singles} of one hex, too small for a palace (R28), not listed" if singles else "")
    if listed:
        lines.append(f"Villages ({len(r['villages'])}" + (f"; {small}" if small else "") + "):")
    else:
        lines.append("Villages: " + (f"{small}" if small else "none"))
    for v in r["villages"]:
        if v["size"] < 2:
            continue
        if not v["palace_values"]:
            where = "no palace piece of a value up to its size is left (R28)"
        elif not v["sites"]:
            where = "no palace now: developers stand on every village hex (R28)"
        else:
            where = (f"palace {'/'.join(map(str, v['palace_values']))} possible on {', '.join(v['sites'])}; "
                     f"build next: {_options_text(names, v['build'])}")
        lines.append(f"  {v['size']:>2} hexes from {v['hexes'][0]}: highest {one(v['highest'])}; {where}")
    lines.append(f"Ponds ({len(r['ponds'])}):" if r["ponds"] else "Ponds: none")
    for p in r["ponds"]:
        if p["enclosed"]:
            lines.append(f"  {'+'.join(p['hexes'])}: enclosed, scored once already (R38)")
        else:
            lines.append(f"  {'+'.join(p['hexes'])}: open at {', '.join(p['open'])}; closing it gives "
                         f"{p['points']} points to {one(p['highest'])}")
    lines.append("Projected final count (R41): "
                 + ", ".join(f"{n} {v}" for n, v in zip(names, r["final_count"]))
                 + "  (score + count: " + ", ".join(f"{n} {v}" for n, v in zip(names, r["projected"])) + ")")
    bt = r.get("best_turn", "absent")
    if bt is None:
        lines.append("Best turn: the solver is not available")
    elif bt != "absent":
        proof = "optimal" if bt.get("optimal") else "not proved optimal"
        line = bt.get("line") or "(nothing scores)"
        note = f" [{bt['note']}]" if bt.get("note") else ""
        lines.append(f"Best turn for {names[r['to_move']]}: {bt['best']} points, {proof}: {line}{note}")
    return "\n".join(lines)

