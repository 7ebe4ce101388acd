"""Run the benchmark suites, save the pytest-benchmark JSON, regenerate benchmarks/README.md's
table: ``make bench`` (or ``.venv/bin/python benchmarks/run.py``).

    python benchmarks/run.py                 # every suite but the slow ones: a few minutes
    python benchmarks/run.py --slow          # also the slow solver group (brute force on every
                                             # puzzle, up to 20 s each: hours)
    python benchmarks/run.py -k ranking      # only some (pytest -k expression)
    python benchmarks/run.py --table-only    # rebuild the table from the saved JSON

The table lists, per measured pair, the median time per call of the fast path and of its
reference from the same run, and their ratio, then the issue's targets and whether they hold.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import re
import subprocess
import sys
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
# pytest-benchmark's full JSON (every round's timing) goes to .benchmarks/ (not versioned); the
# same JSON without the per-round data is kept next to the table as results/latest.json.
FULL_PATH = os.path.join(ROOT, ".benchmarks", "latest-full.json")
JSON_PATH = os.path.join(HERE, "results", "latest.json")
PARTIAL_PATH = os.path.join(ROOT, ".benchmarks", "partial.json")  # -k runs: the table is kept
README = os.path.join(HERE, "README.md")
START, END = "<!-- bench-table:start -->", "<!-- bench-table:end -->"

# (pair, role, limit in seconds per call, label): the targets on medians.
TARGETS = [
    ("highest 8 devs", "fast", 2e-6, "highest position, city of 8 developers ≤ 2 µs"),
    ("groups after a tile", "fast", 30e-6, "village groups updated after a placement ≤ 30 µs"),
    ("legal actions middle", "fast", 20e-3, "all legal actions, saved mid-game position ≤ 20 ms"),
    ("legal actions, 16 mid-game states", "fast", 20e-3,
     "all legal actions, 16 mid-game positions (per position) ≤ 20 ms"),
    ("random 4-player game", "fast", 3.0, "one complete random 4-player game ≤ 3 s"),
    ("next puzzle, 10 000 attempts", "fast", 50e-3, "trainer: the next puzzle with 10 000 attempts ≤ 50 ms"),
    ("trainer opens", "fast", 1.0, "trainer: the app opens on the trainer ≤ 1 s"),
]
ORDER = ["ranking", "groups", "paths", "movegen", "pushpop", "positions", "game", "choice", "bound", "goals",
         "solver", "busy", "review", "trainer"]


def run_suites(extra: list[str], json_path: str, slow: bool = False) -> int:
    os.makedirs(os.path.dirname(json_path), exist_ok=True)
    cmd = [sys.executable, "-m", "pytest", "benchmarks", "-q", "-p", "no:cacheprovider",
           "-m", "" if slow else "not slow", "--benchmark-enable", "--benchmark-only", f"--benchmark-json={json_path}",
           "--benchmark-max-time=0.5", "--benchmark-min-rounds=3", "--benchmark-sort=name",
           "--benchmark-columns=median,iqr,rounds", *extra]
    print("$", " ".join(cmd), flush=True)
    return subprocess.call(cmd, cwd=ROOT)


def compact(src: str, dst: str) -> None:
    """The pytest-benchmark JSON without each benchmark's per-round timings."""
    with open(src, encoding="utf-8") as f:
        data = json.load(f)
    for b in data["benchmarks"]:
        b["stats"].pop("data", None)
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    tmp = dst + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=1)
        f.write("\n")
    os.replace(tmp, dst)


def fmt(seconds: float) -> str:
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6), ("ns", 1e-9)):
        if seconds >= scale:
            v = seconds / scale
            return f"{v:.3g} {unit}" if v < 100 else f"{v:.0f} {unit}"
    return f"{seconds:.3g} s"


def per_call(b: dict[str, Any]) -> float:
    return float(b["stats"]["median"]) / int(b["extra_info"].get("calls", 1))


def machine(data: dict[str, Any]) -> str:
    mi = data.get("machine_info", {})
    cpu = mi.get("cpu", {}).get("brand_raw") or platform.processor() or mi.get("machine", "?")
    cores = os.cpu_count()
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:
        pass
    py = mi.get("python_implementation", "CPython") + " " + mi.get("python_version", platform.python_version())
    commit = data.get("commit_info", {}).get("id", "")[:10]
    dirty = " (uncommitted changes)" if data.get("commit_info", {}).get("dirty") else ""
    when = data.get("datetime", "")[:16].replace("T", " ")
    return (f"Machine: {cpu}, {cores} cores available, {mi.get('system', platform.system())}; "
            f"{py}; run {when} UTC at commit {commit}{dirty}.")


def table(data: dict[str, Any]) -> str:
    pairs: dict[str, dict[str, Any]] = {}
    for b in data["benchmarks"]:
        info = b.get("extra_info", {})
        pair = info.get("pair", b["name"])
        entry = pairs.setdefault(pair, {"group": b.get("group") or "", "roles": {}})
        entry["roles"][info.get("role", "fast")] = b
    rows = sorted(pairs.items(), key=lambda kv: (
        ORDER.index(kv[1]["group"]) if kv[1]["group"] in ORDER else 99, kv[0]))
    slow = any(b.get("group") == "solver" for b in data["benchmarks"])
    out = [machine(data) + ("" if slow else " The slow solver group (every engine on every puzzle, "
                            "brute force included) was not run: `run.py --slow` adds it."), "",
           ("Medians per call (a round of N calls is divided by N). *ratio* = reference ÷ fast, "
            "measured in the same run; *other* lists further implementations of the same pair."),
           "",
           "| group | case | fast path | reference | ratio | other |",
           "|---|---|---:|---:|---:|---|"]
    for pair, entry in rows:
        roles = entry["roles"]
        fast, ref = roles.get("fast"), roles.get("reference")
        f = fmt(per_call(fast)) if fast else ""
        r = fmt(per_call(ref)) if ref else ""
        ratio = f"{per_call(ref) / per_call(fast):.1f}×" if fast and ref else ""
        other = ", ".join(f"{role} {fmt(per_call(b))}" + (
            f" ({per_call(b) / per_call(fast):.1f}× fast)" if fast else "")
            for role, b in sorted(roles.items()) if role not in ("fast", "reference"))
        notes = [b["extra_info"]["note"] for _, b in sorted(roles.items()) if "note" in b["extra_info"]]
        other = "; ".join(x for x in [other, *notes] if x)
        out.append(f"| {entry['group']} | {pair} | {f} | {r} | {ratio} | {other} |")
    out += ["", "| target (median) | measured | met |", "|---|---:|---|"]
    for pair, role, limit, label in TARGETS:
        b = pairs.get(pair, {}).get("roles", {}).get(role)
        if b is None:
            out.append(f"| {label} | not run | – |")
        else:
            v = per_call(b)
            out.append(f"| {label} | {fmt(v)} | {'yes' if v <= limit else 'no'} |")
    ratios = [(p, per_call(e["roles"]["reference"]) / per_call(e["roles"]["fast"]))
              for p, e in pairs.items() if "fast" in e["roles"] and "reference" in e["roles"]]
    met = [p for p, x in ratios if x >= 10]
    out.append(f"| each fast path ≥ 10× its reference | {len(met)} of {len(ratios)} pairs | "
               f"{'yes' if ratios and len(met) == len(ratios) else 'no'} |")
    return "\n".join(out)


def write_table(text: str) -> None:
    try:
        with open(README, encoding="utf-8") as f:
            doc = f.read()
    except FileNotFoundError:
        doc = "# Benchmarks\n\n## Results\n"
    block = f"{START}\n{text}\n{END}"
    if START in doc and END in doc:
        doc = re.sub(re.escape(START) + r".*?" + re.escape(END), lambda _: block, doc, flags=re.DOTALL)
    else:
        doc = doc.rstrip("\n") + "\n\n" + block + "\n"
    tmp = README + ".tmp"  # write then rename: never a half-written README
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(doc)
    os.replace(tmp, README)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-k", help="only the benchmarks matching this pytest -k expression")
    ap.add_argument("--table-only", action="store_true", help="rebuild the table from the saved JSON")
    ap.add_argument("--slow", action="store_true",
                    help="also the suites marked slow (the solver group's brute force: hours)")
    args = ap.parse_args(argv)
    path = PARTIAL_PATH if args.k else JSON_PATH
    if not args.table_only:
        rc = run_suites(["-k", args.k] if args.k else [], path if args.k else FULL_PATH, args.slow)
        if rc != 0:
            print(f"run.py: the benchmarks failed (pytest exit {rc}); the table was not rewritten",
                  file=sys.stderr)
            return 1
        if not args.k:
            compact(FULL_PATH, JSON_PATH)
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, json.JSONDecodeError) as e:
        print(f"run.py: cannot read {path}: {e}", file=sys.stderr)
        return 2
    text = table(data)
    print(text)
    if args.k:
        print(f"\nsaved {os.path.relpath(path, ROOT)}; a -k run leaves the README table alone")
        return 0
    write_table(text)
    print(f"\nwrote {os.path.relpath(README, ROOT)} and {os.path.relpath(path, ROOT)}"
          f" ({datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
