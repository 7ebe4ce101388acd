"""Position reports: cities and their rankings, ponds, villages, the projected final count.

``position_report`` returns plain data; its keys include notation.md's ``analyze --json``
contract (``cities`` with palace, value, size, keys, first, second; ``final_count``).
"""

from __future__ import annotations

from typing import Any

from core.groups import all_ponds, pond_ring
from core.hexmap import hex_name
from core.legality import ring_holder
from core.scoring import city_standings, final_count
from core.state import GameState


def position_report(s: GameState) -> dict[str, Any]:
    g = s.groups()
    cities = [
        {
            "palace": hex_name(c.palace),
            "value": c.value,
            "size": c.size,
            "festival_held": s.fest[c.palace],
            "hexes": [hex_name(h) for h in c.hexes],
            "keys": {str(p): list(k) for p, k in enumerate(c.keys) if k},
            "first": list(c.first),
            "second": list(c.second),
        }
        for c in city_standings(s)
    ]
    villages = []
    for gi, members in enumerate(g.members):
        if g.palace[gi] >= 0:
            continue
        villages.append({
            "hexes": [hex_name(h) for h in sorted(members)],
            "size": len(members),
            "highest": ring_holder(s, members),
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
    return {
        "to_move": s.to_move,
        "scores": [p.score for p in s.players],
        "cities": cities,
        "villages": villages,
        "ponds": ponds,
        "final_count": final_count(s),
    }


def report_text(s: GameState, r: dict[str, Any]) -> str:
    names = [p.name for p in s.players]

    def who(ps: list[int]) -> str:
        return ", ".join(names[p] for p in ps) if ps else "-"

    lines = [f"Scores: {', '.join(f'{n} {v}' for n, v in zip(names, r['scores']))}"]
    lines.append(f"Cities ({len(r['cities'])}):")
    if r["cities"]:
        lines.append(f"  {'palace':<7}{'value':>5}{'size':>5}  {'keys (levels, highest first)':<40}first / second")
    for c in r["cities"]:
        keys = "; ".join(f"{names[int(p)]} {k}" for p, k in c["keys"].items()) or "no developers"
        lines.append(f"  {c['palace']:<7}{c['value']:>5}{c['size']:>5}  {keys:<40}{who(c['first'])} / {who(c['second'])}")
    lines.append(f"Villages ({len(r['villages'])}):")
    for v in r["villages"]:
        h = v["highest"]
        lines.append(f"  {v['size']:>2} hexes from {v['hexes'][0]}: highest position "
                     f"{names[h] if h >= 0 else 'nobody'}")
    lines.append(f"Ponds ({len(r['ponds'])}):")
    for p in r["ponds"]:
        h = p["highest"]
        state = "enclosed" if p["enclosed"] else f"open at {', '.join(p['open'])}"
        lines.append(f"  {'+'.join(p['hexes'])}: {state}; {p['points']} points would go to "
                     f"{names[h] if h >= 0 else 'nobody'}")
    lines.append("Projected final count (R41): " + ", ".join(f"{n} {v}" for n, v in zip(names, r["final_count"])))
    return "\n".join(lines)
