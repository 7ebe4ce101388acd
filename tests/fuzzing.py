"""Fuzzing the ``kraton`` command line in-process (issue 23).

``Mutator`` turns the project's own files (positions, puzzles, a game record, a map) into
hostile inputs: JSON structure (keys dropped, subtrees swapped, deep nesting), types, values
(huge and negative integers, long lists), hex names (non-ASCII digits, off-map, lower case),
card text (unknown letters), action text, map text and map paths (devices, folders), and raw
text damage (truncation, control characters). ``run_cli`` runs one command through
``tui.cli.main`` and classifies the outcome; the contract is exit 0 or 2, an error in one
line, and no hang.
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import os
import random
import signal
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tui.cli import main

ROOT = Path(__file__).resolve().parent.parent
HANG_SECONDS = 10.0

HEX_NAMES = ["G6", "g6", "G²", "G٥", "Ｇ6", "G", "6G", "Z99", "A0", "G-1", "G6 ", " G6", "",
             "G1000000", "B6", "J5", "G10", "A1", "\x00", "G\n6", "𝟘1", "G06", "Q32"]
CARDS = ["D", "M", "P", "DM", "DP", "MP", "X", "dm", "PD", "DD", "DMP", "", "Q", "ß", "D+M",
         "D\n", "MM"]
VERBS = ["tile", "enter", "move", "exit", "palace", "irrigate", "draw", "token", "festival",
         "bid", "pass", "agree", "end", "TILE", "jump", ""]
MAP_SPECS = ["java-centre", "/dev/zero", "/dev/urandom", "/dev/stdin", "/dev/null", "/etc/passwd",
             "/", ".", "", "nope.txt", "maps/../../../etc/passwd", "a\nb", "java-centre\x00",
             "x" * 5000, "mini.txt", "big.txt"]
WEIRD: list[object] = [
    None, True, False, 0, -1, 1, 7, 2**31, 2**63, -(2**63), 10**19, 10**30, 0.5, 1e308,
    "", "x", "\n", "\x1b[31m", "é", [], {}, [[]], {"a": 1}, [0] * 50, "G6"]


@dataclass
class Outcome:
    kind: str  # "ok", "error", "traceback", "multiline", "hang", "bad-exit"
    detail: str = ""


@dataclass
class Tally:
    counts: Counter[str] = field(default_factory=Counter)
    examples: dict[str, list[str]] = field(default_factory=dict)
    inputs: int = 0
    runs: int = 0

    def add(self, argv: list[str], o: Outcome) -> None:
        self.runs += 1
        self.counts[o.kind] += 1
        if o.kind not in ("ok", "error"):
            self.examples.setdefault(o.kind, [])
            if len(self.examples[o.kind]) < 5:
                self.examples[o.kind].append(f"{argv!r:.300}: {o.detail:.500}")

    def bad(self) -> int:
        return sum(v for k, v in self.counts.items() if k not in ("ok", "error"))

    def line(self) -> str:
        c = self.counts
        return (f"{self.inputs} inputs, {self.runs} command runs: {c['ok']} ok, {c['error']} one-line"
                f" errors (exit 2); {c['traceback']} tracebacks, {c['multiline']} multi-line errors,"
                f" {c['hang']} hangs, {c['bad-exit']} other exit statuses")


class _Hang(BaseException):
    pass


def _alarm(signum: int, frame: Any) -> None:
    raise _Hang()


def run_cli(argv: list[str], hang_seconds: float = HANG_SECONDS) -> Outcome:
    """One ``kraton`` command in-process, with stdout and stderr captured."""
    out, err = io.StringIO(), io.StringIO()
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, hang_seconds)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code: Any = main(argv)
            except SystemExit as e:  # argparse
                code = e.code
    except _Hang:
        return Outcome("hang", f"more than {hang_seconds} s")
    except Exception as e:  # noqa: BLE001 - a traceback is what the fuzz looks for
        return Outcome("traceback", f"{type(e).__name__}: {e!s:.300}")
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    text = err.getvalue()
    if code in (0, None):
        return Outcome("ok")
    if code != 2:
        return Outcome("bad-exit", f"exit {code}: {text[:300]!r}")
    if text.count("\n") != 1 or not text.endswith("\n"):
        return Outcome("multiline", repr(text[:500]))
    return Outcome("error")


def corpus() -> dict[str, Any]:
    """Parsed seeds: positions and puzzles of several kinds, a game record."""
    files = sorted((ROOT / "puzzles").glob("*.json"))[::6] + sorted((ROOT / "tests" / "positions").glob("*.json"))
    seeds = {f.name: json.loads(f.read_text()) for f in files}
    rec = min((ROOT / "puzzles" / "games").glob("*.json"))
    seeds[rec.name] = json.loads(rec.read_text())
    return seeds


def _paths(d: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every path to a value in parsed JSON (bounded: the first 40 items of a list, 8 deep)."""
    yield prefix
    if len(prefix) >= 8:
        return
    if isinstance(d, dict):
        for k, v in list(d.items()):
            yield from _paths(v, (*prefix, k))
    elif isinstance(d, list):
        for i, v in enumerate(d[:40]):
            yield from _paths(v, (*prefix, i))


def _get(d: Any, path: tuple[Any, ...]) -> Any:
    for k in path:
        d = d[k]
    return d


def _set(d: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    _get(d, path[:-1])[path[-1]] = value
    return d


class Mutator:
    """Hostile variants of the corpus, reproducible from a seed."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.seeds = corpus()
        self.names = sorted(self.seeds)
        self.structural: list[Callable[[Any], Any]] = [
            self.weird_value, self.drop_key, self.swap_subtree, self.deep_nest, self.hex_names,
            self.cards, self.actions, self.map_spec, self.numbers, self.long_list,
            self.duplicate_entry, self.field_value,
        ]

    def document(self) -> Any:
        """A parsed seed with 1 to 3 mutations."""
        d = copy.deepcopy(self.seeds[self.rng.choice(self.names)])
        for _ in range(self.rng.choice((0, 1, 1, 1, 2, 3))):  # 0: a valid file, the action text varies
            mutation = self.rng.choice(self.structural)
            with contextlib.suppress(KeyError, IndexError, TypeError, AttributeError):
                d = mutation(d)  # an earlier mutation may have left no place for this one
        return d

    def text(self) -> str:
        """The file text: JSON of a mutated document, sometimes damaged as text."""
        try:
            d = self.document()
        except RecursionError:  # a deep nest copied by a later mutation: the harness's own limit
            return "[" * 3000 + "]" * 3000
        try:
            indent = 2 if self.rng.random() < 0.1 else None  # None: the fast C encoder
            t = json.dumps(d, indent=indent, ensure_ascii=self.rng.random() < 0.5)
        except (ValueError, RecursionError):
            t = "[" * 5000
        r = self.rng.random()
        if r < 0.06:
            t = t[: self.rng.randrange(len(t) + 1)]
        elif r < 0.12:
            i = self.rng.randrange(len(t) + 1)
            t = t[:i] + self.rng.choice(["\x00", "\n", "\x1b", "]", "}", "\"", "\\", "9" * 4400]) + t[i:]
        elif r < 0.14:
            t = self.rng.choice(["", "null", "5", "[]", "\"x\"", "[" * 3000 + "]" * 3000,
                                 "{\"a\":" * 2000 + "1" + "}" * 2000, "1" * 5000, "NaN", "\ufeff{}"])
        return t

    # -- structure and types
    def _pick(self, d: Any, leaf_only: bool = False) -> tuple[Any, ...]:
        paths = list(_paths(d))
        if leaf_only:
            paths = [p for p in paths if not isinstance(_get(d, p), (dict, list))] or paths
        return self.rng.choice(paths)

    def weird_value(self, d: Any) -> Any:
        return _set(d, self._pick(d), copy.deepcopy(self.rng.choice(WEIRD)))

    def drop_key(self, d: Any) -> Any:
        p = self._pick(d)
        if p and isinstance(_get(d, p[:-1]), dict):
            del _get(d, p[:-1])[p[-1]]
        return d

    def swap_subtree(self, d: Any) -> Any:
        a, b = self._pick(d), self._pick(d)
        if a[: len(b)] == b or b[: len(a)] == a:
            return d
        return _set(d, a, copy.deepcopy(_get(d, b)))

    def deep_nest(self, d: Any) -> Any:
        v: Any = 1
        for _ in range(self.rng.choice((25, 200, 1200))):
            v = [v] if self.rng.random() < 0.5 else {"k": v}
        return _set(d, self._pick(d), v)

    def numbers(self, d: Any) -> Any:
        n = self.rng.choice([10**4300 - 1, 10**4301, -(10**50), 2**64, -1, -7, 10**6, 9999, 10000, 3, 6, 7, 8])
        return _set(d, self._pick(d, leaf_only=True), n)

    def long_list(self, d: Any) -> Any:
        p = self._pick(d)
        v = _get(d, p)
        if isinstance(v, list) and v:  # past the material, yet small enough to write quickly
            _set(d, p, (v * self.rng.choice((2, 10, 300)))[:400])
        return d

    def duplicate_entry(self, d: Any) -> Any:
        p = self._pick(d)
        v = _get(d, p)
        if isinstance(v, list) and v:
            v.append(copy.deepcopy(self.rng.choice(v)))
        return d

    # -- the formats' own texts
    def hex_names(self, d: Any) -> Any:
        text = [p for p in _paths(d) if isinstance(_get(d, p), str) and len(_get(d, p)) <= 3]
        keys = [p for p in _paths(d) if p and isinstance(_get(d, p[:-1]), dict) and isinstance(p[-1], str)
                and 2 <= len(p[-1]) <= 3 and p[-1][0].isupper()]
        if keys and self.rng.random() < 0.5:
            p = self.rng.choice(keys)
            parent = _get(d, p[:-1])
            parent[self.rng.choice(HEX_NAMES)] = parent.pop(p[-1])
        elif text:
            _set(d, self.rng.choice(text), self.rng.choice(HEX_NAMES))
        return d

    def cards(self, d: Any) -> Any:
        if not isinstance(d, dict):
            return d
        where: list[tuple[str | int, ...]] = [
            ("cards", "deck"), ("cards", "discard"), ("cards", "face_up")]
        where += [("players", i, "hand") for i in range(len(d.get("players") or []))]
        for p in self.rng.sample(where, k=min(2, len(where))):
            with contextlib.suppress(KeyError, IndexError, TypeError):
                v = _get(d, p)
                new = self.rng.choice(CARDS)
                if isinstance(v, list) and v:
                    v[self.rng.randrange(len(v))] = new
                else:
                    _set(d, p, new)
        return d

    def action(self) -> str:
        verb = self.rng.choice(VERBS)
        args = [self.rng.choice(HEX_NAMES + CARDS + [h + t for h in ("G6", "G5", "H5", "G²") for t in "vrx"]
                                + ["2", "4", "²", "10", "faceup", "deck", "99999999999999999999999"])
                for _ in range(self.rng.choice((0, 1, 1, 2, 2, 3, 4)))]
        return " ".join([verb, *args])

    def action_text(self) -> str:
        return "; ".join(self.action() for _ in range(self.rng.choice((1, 1, 2, 4))))

    def actions(self, d: Any) -> Any:
        if isinstance(d, dict) and isinstance(d.get("actions"), list) and d["actions"]:
            acts = d["actions"]
            i = self.rng.randrange(len(acts))
            acts[i] = self.action() if self.rng.random() < 0.7 else self.rng.choice(WEIRD)
        elif isinstance(d, dict):
            d["format"] = "java-game"
            d["actions"] = [self.action() for _ in range(self.rng.choice((0, 1, 3)))]
            if self.rng.random() < 0.3:
                d["result"] = self.rng.choice(WEIRD)
        return d

    def map_spec(self, d: Any) -> Any:
        if isinstance(d, dict):
            d["map"] = self.rng.choice(MAP_SPECS)
        return d

    def field_value(self, d: Any) -> Any:
        """Values the rules forbid in fields that exist: unreachable positions."""
        if not isinstance(d, dict):
            return d
        choices: list[tuple[tuple[Any, ...], Any]] = [
            (("turn", "ap"), 7), (("turn", "token_used"), True), (("turn", "cards_drawn"), 3),
            (("last_round",), None), (("last_round",), {"remaining": [0, 0]}),
            (("supply", "triples"), 0), (("players", 0, "final_counted"), True),
            (("players", 0, "doubles"), 6), (("players", 1, "tokens"), 4),
            (("turn", "palaces_changed"), ["G6", "G6"]), (("to_move",), 3), (("seed",), 10**19),
        ]
        p, v = self.rng.choice(choices)
        with contextlib.suppress(KeyError, IndexError, TypeError):
            _set(d, p, copy.deepcopy(v))
        return d

    def map_text(self) -> str:
        base = (ROOT / "tests" / "maps" / "mini-a.txt").read_text()
        lines = base.splitlines()
        r = self.rng.random()
        if r < 0.3 and lines:
            i = self.rng.randrange(len(lines))
            j = self.rng.randrange(len(lines[i]) + 1)
            lines[i] = lines[i][:j] + self.rng.choice([".", "~", "L", "M", "X", "\t", " ", "é", "\x00"]) + lines[i][j + 1:]
        elif r < 0.5:
            lines = lines * self.rng.choice((2, 30))
        elif r < 0.6:
            lines = [". " * self.rng.choice((5, 40))] * 3
        elif r < 0.7:
            lines = lines[: self.rng.randrange(len(lines) + 1)]
        return "\n".join(lines) + "\n"


MAP_ALPHABET = ". ~LMX\t#é\x00\r\n"


def map_mutation(rng: random.Random, text: str) -> str:
    """A map file with 1 to 4 character edits (insert, delete, replace, duplicate a line)."""
    for _ in range(rng.randint(1, 4)):
        i = rng.randrange(len(text) + 1)
        op = rng.randrange(4)
        if op == 0:
            text = text[:i] + rng.choice(MAP_ALPHABET) + text[i:]
        elif op == 1:
            text = text[:i] + text[i + 1:]
        elif op == 2:
            text = text[:i] + rng.choice(MAP_ALPHABET) + text[i + 1:]
        else:
            lines = text.split("\n")
            j = rng.randrange(len(lines))
            lines.insert(j, lines[j])
            text = "\n".join(lines)
    return text


def fuzz_maps(n: int, seed: int, folder: Path) -> Tally:
    """``n`` mutated map files under a position that names them, through validate and show."""
    rng = random.Random(seed)
    base = (ROOT / "tests" / "maps" / "mini-a.txt").read_text()
    d = json.loads((ROOT / "puzzles" / "festival-03.json").read_text())
    d["map"] = "m.txt"
    (folder / "p.json").write_text(json.dumps(d))
    t = Tally()
    for _ in range(n):
        (folder / "m.txt").write_text(map_mutation(rng, base), encoding="utf-8")
        argv = [rng.choice(["validate", "show"]), str(folder / "p.json")]
        t.add(argv, run_cli(argv))
        t.inputs += 1
    return t


def commands(m: Mutator, folder: Path) -> list[list[str]]:
    """One input (a file, perhaps a map beside it, an action text) and the commands run on it."""
    pos = folder / "in.json"
    text = m.text()
    with open(pos, "w", encoding="utf-8", errors="surrogatepass") as f:
        f.write(text)
    if "mini.txt" in text:
        (folder / "mini.txt").write_text(m.map_text())
    p = str(pos)
    r = m.rng.random()
    if r < 0.45:
        return [["validate", p], ["apply", p, m.action_text()]]
    if r < 0.7:
        return [["show", p]]
    if r < 0.85:
        return [["replay", p]]
    return [["analyze", "--no-solve", p]]


def scratch_folder(fallback: Path) -> Path:
    """A folder for the inputs: in memory (/dev/shm) where there is one, since rewriting a file
    in /tmp costs milliseconds on some file systems; else ``fallback``."""
    shm = Path("/dev/shm")
    if shm.is_dir() and os.access(shm, os.W_OK):
        return Path(tempfile.mkdtemp(prefix="kraton-fuzz-", dir=shm))
    return fallback


def fuzz(n_inputs: int, seed: int, folder: Path, budget_seconds: float | None = None) -> Tally:
    """Run ``n_inputs`` mutated inputs through the CLI; returns the tally."""
    m = Mutator(seed)
    (folder / "big.txt").write_text(". " * 40000)
    t = Tally()
    t0 = time.perf_counter()
    for _ in range(n_inputs):
        for argv in commands(m, folder):
            t.add(argv, run_cli(argv))
        t.inputs += 1
        if budget_seconds is not None and time.perf_counter() - t0 > budget_seconds:
            break
    return t


__all__ = ["Mutator", "Outcome", "Tally", "commands", "corpus", "fuzz", "fuzz_maps", "map_mutation",
           "run_cli", "scratch_folder"]
