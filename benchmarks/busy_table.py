"""The table and summary of ``benchmarks/busy.py`` (issue 21's 40 busy mid-game turns), and the
marked section of ``benchmarks/README.md`` they go to."""

from __future__ import annotations

import os
import re
import statistics
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
README = os.path.join(HERE, "README.md")
START, END = "<!-- busy-table:start -->", "<!-- busy-table:end -->"
HEADING = "## Busy mid-game turns"
OTHERS = ("played", "planner", "greedy")  # the lines an answer must not fall below


def _points(row: dict[str, Any], who: str) -> int | None:
    got = row.get(who) or {}
    return got.get("points") if "error" not in got else None


def _answers(rows: list[dict[str, Any]], engine: str) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    return [(row, row["engines"][engine]) for row in rows
            if engine in row["engines"] and "error" not in row["engines"][engine]]


def summary(rows: list[dict[str, Any]], engine: str) -> dict[str, Any]:
    """Per engine: how many answered and were proved, median seconds, the gaps (bound − best),
    the positions where the answer is below what was played or what a player would play, the
    peak RSS of its processes."""
    got = _answers(rows, engine)
    gaps = [r["bound"] - r["best"] for _, r in got]
    unproved = [r["bound"] - r["best"] for _, r in got if not r["optimal"]]
    below = {who: sorted(row["id"] for row, r in got
                         if (p := _points(row, who)) is not None and r["best"] < p)
             for who in OTHERS}
    rss = [r["rss_mb"] for _, r in got if "rss_mb" in r]
    return {
        "positions": len(rows), "answered": len(got),
        "proved": sum(1 for _, r in got if r["optimal"]),
        "proved_by": {k: sum(1 for _, r in got if r.get("proved_by") == k) for k in ("bound", "search", "model")},
        "median_s": round(statistics.median([r["seconds"] for _, r in got]), 3) if got else None,
        "max_s": max((r["seconds"] for _, r in got), default=None),
        "gap_le_2": sum(1 for g in gaps if g <= 2),
        "unproved_gap_le_2": sum(1 for g in unproved if g <= 2), "unproved": len(unproved),
        "gaps": {label: sum(1 for g in gaps if lo <= g <= hi)
                 for label, lo, hi in (("0", 0, 0), ("1-2", 1, 2), ("3-5", 3, 5), ("6-10", 6, 10),
                                       ("11-20", 11, 20), (">20", 21, 10**9))},
        "below": below,
        "peak_rss_mb": max(rss, default=None),
        "median_rss_mb": statistics.median(rss) if rss else None,
    }


def _cell(r: dict[str, Any] | None, floor: int | None) -> str:
    if r is None:
        return "| | | |"
    if "error" in r:
        return f"| error | | {r['error'][:30]} |"
    mark = " ↓" if floor is not None and r["best"] < floor else ""
    proof = r.get("proved_by") or ("yes" if r["optimal"] else "no")
    return f"| {r['best']}{mark} | {r['bound']} | {proof} | {r['seconds']:.2f} |"


def _table(data: dict[str, Any]) -> list[str]:
    engines = data["engines"]
    head = "| position | AP | played | planner | greedy |" + "".join(
        f" {e} best | bound | proved | s |" for e in engines)
    out = [head, "|---|---|---:|---:|---:|" + "---:|---:|---|---:|" * len(engines)]
    for row in data["positions"]:
        pts = [_points(row, who) for who in OTHERS]
        floor = max((p for p in pts if p is not None), default=None)
        ap = f"{row['ap']}+1" if row.get("token") else str(row["ap"])
        shown = ["–" if p is None else str(p) for p in pts]
        if (row.get("played") or {}).get("festival_shared"):
            shown[0] += "ᶠ"
        cells = "".join(_cell(row["engines"].get(e), floor) for e in engines)
        out.append(f"| {row['id']} | {ap} | {' | '.join(shown)} {cells}")
    return out


def _summary_lines(data: dict[str, Any]) -> list[str]:
    out = [("| engine | proved | median s | max s | bound − best ≤ 2 | unproved with gap ≤ 2 "
            "| gaps 0 / 1–2 / 3–5 / 6–10 / 11–20 / >20 | below played / planner / greedy | peak RSS |"),
           "|---|---:|---:|---:|---:|---:|---|---|---:|"]
    for e in data["engines"]:
        s = data["summary"][e]
        n = s["answered"]
        share = f"{s['proved']}/{n} ({100 * s['proved'] / n:.0f} %)" if n else "–"
        gaps = " / ".join(str(v) for v in s["gaps"].values())
        below = " / ".join(str(len(s["below"][w])) for w in OTHERS)
        rss = "–" if s["peak_rss_mb"] is None else f"{s['peak_rss_mb']:.0f} MB"
        out.append(f"| {e} | {share} | {s['median_s']} | {s['max_s']} | {s['gap_le_2']}/{n} "
                   f"| {s['unproved_gap_le_2']}/{s['unproved']} | {gaps} | {below} | {rss} |")
    for e in data["engines"]:
        for who, ids in data["summary"][e]["below"].items():
            if ids:
                out.append(f"\n{e} below {who}: {', '.join(ids)}")
    return out


def render(data: dict[str, Any]) -> str:
    """The README section's body: machine and settings, the summary, the table."""
    lim = data["time_limit"]
    head = [f"Run: {data['machine']}; {lim:g} s per solve" if lim else f"Run: {data['machine']}; no limit",
            f"{data['jobs']} subprocess(es) at a time"
            + (f", each solve with {data['processes']} processes (the checks' helper)."
               if data.get("processes", 1) > 1 else "."), "",
            ("Points under the solver's objective. *played*: the turn the record played from "
             "there (ᶠ: it closed with a festival an opponent could join, which counts nothing "
             "here); *planner*, *greedy*: the turn those players (seed 0) play there; ↓: the "
             "engine's answer is below one of those three. *proved*: how (bound / search / "
             "model), or no."), ""]
    return "\n".join([*head, *_summary_lines(data), "", *_table(data)])


MARKS = (START, END, HEADING)
SAMPLE_MARKS = ("<!-- busy-sample:start -->", "<!-- busy-sample:end -->",
                "## A held-out sample of busy turns")


def write_section(text: str, marks: tuple[str, str, str] = MARKS) -> None:
    """Replace the marked block of ``benchmarks/README.md`` (added before "## Results" when
    missing); written to a temporary file and renamed. ``marks``: start, end and heading of
    the block (the 40 positions by default; ``SAMPLE_MARKS`` for the held-out sample)."""
    start, end, heading = marks
    with open(README, encoding="utf-8") as f:
        doc = f.read()
    block = f"{start}\n{text}\n{end}"
    if start in doc and end in doc:
        doc = re.sub(re.escape(start) + r".*?" + re.escape(end), lambda _: block, doc, flags=re.DOTALL)
    else:
        section = f"{heading}\n\n{block}\n\n"
        doc = doc.replace("## Results\n", section + "## Results\n", 1) if "## Results\n" in doc \
            else doc.rstrip("\n") + "\n\n" + section
    tmp = README + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(doc)
    os.replace(tmp, README)
