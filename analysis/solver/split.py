"""Branch and bound on two cores (issue 21: every core at work).

Branch and bound is Python, one core; on the mini-map puzzles it is most of a solve (pond-17,
full-turn-02: 1–2 s). Here a second process searches beside it. Both walk the same tree in the
same order (the same position, the actions sorted by their text) and *claim* each action of a
shared node from a counter before searching it, so each is searched by exactly one of them.
The roots are shared; every action a process claims there, and below it down to
``SHARE_DEPTH`` actions, is published as a node of its own, whose actions are claimed in turn:
a process that has run out of work *steals* the other's published node nearest a root with
actions left, goes down to it and claims from there (work stealing, as in parallel game-tree
search). The counters live in a small unnamed file mapped into both (``Claims``, locked for
each step). Each process has its own transposition table. A better line found by either is
sent to the other at once (one line of text on a pipe) and replayed there.

The helper is a plain ``python -m analysis.solver.split_worker`` (``subprocs.py``, as the
checks' helper), started ahead by the model engine (``warm``) or once a search has run for
``bnb.START_AFTER`` seconds (most searches end sooner), with the state (pickled: the very
state, which a position file might not carry, e.g. a test's token spent by hand, and no checks
to pass again), the best line and the root's bound on its stdin and the claims' file
inherited. The answer is proved only when both searches finished (or a line meets the root's
bound, or the first process claimed everything itself); a helper that fails, dies or is late
leaves the best line standing, unproved.
"""

from __future__ import annotations

import fcntl
import json
import mmap
import os
import struct
import tempfile
import threading
from typing import IO, Any, ClassVar

from core.actions import Action, actions_text, parse_actions
from core.state import GameState

# hashlib, pickle, base64 and subprocess are imported where used: most solves import this module
# (``Claims``) and never start a helper (~8 ms of ``kraton solve`` on a puzzle).

ROOTS = 2  # the search's roots (without and with the token, R7): slot r counts root r's actions
SHARE_DEPTH = 4  # nodes up to this many actions below a root are shared (entries)
ENTRIES = 4096  # entries at most (then the nodes below are searched alone)
_Q = struct.Struct("<q")
_IDLE = ROOTS  # two slots: each process's flag, set while it has nothing to search
_COUNT = ROOTS + 2  # how many entries
_FIRST = ROOTS + 3  # then the entries: state, counter, count, publisher, root, depth, path
_SIZE = 6 + SHARE_DEPTH
_TABLE = _FIRST + _SIZE * ENTRIES  # then the shared table: (state hash, outcome) pairs
TABLE_SLOTS = 1 << 16  # states the two share at most (1 MB); a full probe overwrites
PROBES = 8
_OUT = struct.Struct("<hhhh")  # an outcome packed into one slot: points, handed, AP, token
OPEN, CLOSED = 1, 2


class Claims:
    """What the two processes share, in a small file mapped into both (8-byte slots; each step
    under the file's lock): a counter per root and per *entry* — a node one process searches
    whose actions the other may claim too (it *steals* the node). ``take(slot)`` returns the
    next index of that counter not taken yet, by either: each index exactly once."""

    def __init__(self, fd: int | None = None) -> None:
        size = _Q.size * (_TABLE + 2 * TABLE_SLOTS)
        if fd is None:  # a file with no name: nothing is left behind, however a process ends
            fd, path = tempfile.mkstemp(prefix="kraton-claims-")
            os.unlink(path)
            os.ftruncate(fd, size)
        self.fd = fd  # the helper inherits it (``SearchHelper``)
        self._map = mmap.mmap(fd, size)

    def _get(self, slot: int) -> int:
        return int(_Q.unpack_from(self._map, slot * _Q.size)[0])

    def _put(self, slot: int, value: int) -> None:
        _Q.pack_into(self._map, slot * _Q.size, value)

    def take(self, slot: int) -> int:
        with _Lock(self.fd):
            n = self._get(slot)
            self._put(slot, n + 1)
        return n

    def publish(self, me: int, root: int, path: tuple[int, ...]) -> int | None:
        """Offer the node reached by action indices ``path`` from root ``root`` (``me`` searches
        it): the counter slot its actions are claimed from (None: no room, or too deep)."""
        if len(path) > SHARE_DEPTH:
            return None
        with _Lock(self.fd):
            n = self._get(_COUNT)
            if n >= ENTRIES:
                return None
            at = _FIRST + _SIZE * n
            for k, v in enumerate((OPEN, 0, -1, me, root, len(path), *path)):
                self._put(at + k, v)
            self._put(_COUNT, n + 1)
        return at + 1

    def count(self, counter: int, n: int) -> None:
        """The node counted in ``counter`` has ``n`` actions (once its searcher knows): a steal
        looks no further in an entry once they are all taken (a root's is not stolen)."""
        if counter < ROOTS:
            return
        with _Lock(self.fd):
            self._put(counter + 1, n)

    def close_entry(self, counter: int) -> None:
        """Its publisher has left the node: nothing more to steal there."""
        with _Lock(self.fd):
            self._put(counter - 1, CLOSED)

    def steal(self, me: int, tried: set[int]) -> tuple[int, int, tuple[int, ...]] | None:
        """The other process's open entry nearest a root with actions not yet taken, as
        (counter slot, root, path), but those ``tried`` already; None (and ``me`` marked idle)
        where there is none."""
        with _Lock(self.fd):
            found: tuple[int, int, tuple[int, ...]] | None = None
            for n in range(self._get(_COUNT)):
                at = _FIRST + _SIZE * n
                if self._get(at) != OPEN or self._get(at + 3) == me or at + 1 in tried:
                    continue
                taken, total = self._get(at + 1), self._get(at + 2)
                depth = self._get(at + 5)
                if (total < 0 or taken < total) and (found is None or depth < len(found[2])):
                    path = tuple(self._get(at + 6 + k) for k in range(depth))
                    found = (at + 1, self._get(at + 4), path)
            self._put(_IDLE + me, int(found is None))
        return found

    def idle(self, who: int) -> bool:
        return bool(self._get(_IDLE + who))

    def seen(self, h: int) -> tuple[int, ...] | None:
        """The outcome so far with which either process last reached the state hashed ``h``
        (``state_hash``), None if neither did (or it was overwritten)."""
        with _Lock(self.fd):
            for k in range(PROBES):
                at = _TABLE + 2 * ((h + k) % TABLE_SLOTS)
                got = self._get(at)
                if got == h:
                    return _OUT.unpack(_Q.pack(self._get(at + 1)))
                if got == 0:
                    return None
        return None

    def saw(self, h: int, acc: tuple[int, ...]) -> None:
        """This process reaches the state hashed ``h`` with ``acc`` and searches on from it."""
        value = _Q.unpack(_OUT.pack(*acc))[0]
        with _Lock(self.fd):
            for k in range(PROBES):
                at = _TABLE + 2 * ((h + k) % TABLE_SLOTS)
                if self._get(at) in (h, 0):
                    break
            else:
                at = _TABLE + 2 * (h % TABLE_SLOTS)
            self._put(at, h)
            self._put(at + 1, value)

    def close(self) -> None:
        if self.fd >= 0:
            self._map.close()
            os.close(self.fd)
            self.fd = -1


def state_hash(key: tuple[object, ...]) -> int:
    """A state's key as 63 bits that both processes compute alike (Python's own ``hash`` of a
    string differs from process to process), never 0 (an empty slot). Two states share a hash
    with odds of about 1 in 2**63 a pair."""
    import hashlib

    board, pending = key
    text = repr((board, sorted(pending)))  # type: ignore[call-overload]
    h = int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "little") >> 1
    return h or 1


class _Lock:
    """The file's POSIX record lock: held per process (the helper shares the parent's open
    file, so ``flock``, held per open file, would not keep them apart)."""

    def __init__(self, fd: int) -> None:
        self.fd = fd

    def __enter__(self) -> None:
        fcntl.lockf(self.fd, fcntl.LOCK_EX)

    def __exit__(self, *exc: object) -> None:
        fcntl.lockf(self.fd, fcntl.LOCK_UN)


class Partner:
    """What a search tells the other process and hears from it: the claims, each better line
    (as text) both ways. ``out`` None: nobody to talk to yet (the helper not started). A line
    heard may be overwritten by a better one before it is taken up: only the best counts."""

    def __init__(self, claims: Claims, out: IO[str] | None, me: int = 0) -> None:
        self.claims = claims
        self.me = me  # 0: the process that started the search, 1: its helper
        self.out = out
        self.heard: str | None = None  # the other's last better line, set by a reader thread
        self._held: dict[int, int] = {}
        self.skipped = 0  # actions of shared nodes left to the other process

    def mine(self, slot: int, i: int) -> bool:
        """Whether this process searches action ``i`` of the node counted in ``slot``: called
        for every ``i`` in order (those it skips included), it claims the next free index once
        past its own."""
        held = self._held.get(slot, -1)
        while held < i:
            held = self.claims.take(slot)
        self._held[slot] = held
        if held == i:
            return True
        self.skipped += 1
        return False

    def tell(self, line: list[Action]) -> None:
        if self.out is None:
            return
        try:
            self.out.write(f"best {actions_text(line)}\n")
            self.out.flush()
        except (OSError, ValueError):
            self.out = None  # the other has ended: nobody to tell

    def take_heard(self) -> list[Action] | None:
        text, self.heard = self.heard, None
        if text is None:
            return None
        try:
            return parse_actions(text)
        except ValueError:
            return None


class SearchHelper:
    """The second process of a branch and bound: searches the actions it claims. Started
    (``__init__``: Python and the solver's imports, ~0.1 s) before it is given its search
    (``begin``), so that it may be started ahead (``warm``)."""

    command: ClassVar[list[str]] = ["-m", "analysis.solver.split_worker"]  # then the claims' fd

    def __init__(self, claims: Claims | None = None) -> None:
        from analysis.solver.subprocs import start

        self.claims = claims or Claims()
        self.partner: Partner | None = None
        self.done: dict[str, Any] | None = None  # its last word: {"line", "finished"}
        self.over = False
        self._first = ""
        self._reader = threading.Thread(target=self._talk, name="kraton-split", daemon=True)
        self._process = start(self, [*self.command, str(self.claims.fd)], text=True,
                              pass_fds=(self.claims.fd,))

    def begin(self, partner: Partner, s: GameState, line: list[Action], bound: int,
              seconds: float | None) -> None:
        """Search the actions it claims of ``s`` (``partner``: the search it helps, with this
        helper's claims), from ``line`` and the root's ``bound``, for ``seconds`` at most."""
        import base64
        import pickle

        self.partner = partner
        state = base64.b64encode(pickle.dumps(s)).decode("ascii")
        self._first = json.dumps({"state": state, "line": actions_text(line), "bound": bound,
                                  "seconds": seconds})
        self._reader.start()

    def _talk(self) -> None:
        """Send the position, then read what the helper says (in a thread: a pipe the helper
        has not started reading, while Python starts, must not hold up the search). Better
        lines are sent to it (``Partner.tell``) once the position is."""
        p, partner = self._process, self.partner
        assert p.stdin is not None and p.stdout is not None and partner is not None
        try:
            p.stdin.write(self._first + "\n")
            p.stdin.flush()
            if not self.over:
                partner.out = p.stdin
            for row in p.stdout:
                kind, _, rest = row.rstrip("\n").partition(" ")
                if kind == "best":
                    partner.heard = rest
                elif kind == "done":
                    self.done = json.loads(rest)
        except (OSError, ValueError):
            pass

    def wait(self, seconds: float | None) -> dict[str, Any] | None:
        """The helper's last word, waiting up to ``seconds`` (None: until it ends)."""
        self._reader.join(seconds)
        return self.done if not self._reader.is_alive() else None

    def ended(self) -> bool:
        """Its output is closed: it has said all it will (``done``, or nothing where it failed)."""
        return not self._reader.is_alive()

    def stop(self) -> None:
        """End it (its answer, if any, is read already) and close its claims."""
        from analysis.solver.subprocs import end

        self.over = True
        if self.partner is not None:
            self.partner.out = None
        end(self._process, self._reader)
        self.claims.close()


_SPARE: list[SearchHelper] = []  # a helper started ahead (``warm``), not given a search yet
_SPARE_LOCK = threading.Lock()


def warm() -> None:
    """Start a helper ahead of the branch and bound that may need it (the model engine does,
    at the start of a solve that may use two processes): ready when the search begins, where
    one started then needs ~0.1 s more. ``cool`` ends it if no search took it."""
    with _SPARE_LOCK:
        if _SPARE:
            return
        try:
            _SPARE.append(SearchHelper())
        except OSError:
            pass  # no process to be had: the search starts its own, or none


def take_spare() -> SearchHelper | None:
    with _SPARE_LOCK:
        return _SPARE.pop() if _SPARE else None


def cool() -> None:
    spare = take_spare()
    if spare is not None:
        spare.stop()


__all__ = ["Claims", "Partner", "SearchHelper", "cool", "take_spare", "warm"]
