"""``kraton analyze FILE… [--json]``: cities, rankings, ponds, projected final count."""

from __future__ import annotations

import argparse
import json

from analysis.report import position_report, report_text
from core.position import load_position


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("analyze", help="cities, keys, first/second, ponds, projected final count")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("--json", action="store_true", help="print JSON (notation.md contract keys)")
    p.set_defaults(func=cmd_analyze)


def cmd_analyze(args: argparse.Namespace) -> int:
    reports = []
    for f in args.files:
        s = load_position(f)
        r = position_report(s)
        if args.json:
            reports.append(r if len(args.files) == 1 else {"file": f, **r})
        else:
            if len(args.files) > 1:
                print(f"== {f}")
            print(report_text(s, r))
    if args.json:
        print(json.dumps(reports[0] if len(args.files) == 1 else reports, indent=2))
    return 0
