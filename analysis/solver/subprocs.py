"""The solver's helper processes (``helper.py``'s checks of a busy turn's cities, ``split.py``'s
second half of branch and bound): started alike, and none outlives its solve.

Each is a plain ``python -m analysis.solver.<module>`` with this checkout first on its path:
unlike ``multiprocessing`` it neither forks the app's threads nor runs the caller's main
module again. Its stderr is dropped (a helper that fails only leaves the solve without it).
"""

from __future__ import annotations

import atexit
import os
import subprocess
import sys
import threading
import weakref
from typing import Any, Protocol

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class Helper(Protocol):
    over: bool

    def stop(self) -> None: ...


_LIVE: weakref.WeakSet[Helper] = weakref.WeakSet()


def start(helper: Helper, args: list[str], *, text: bool = False,
          pass_fds: tuple[int, ...] = ()) -> subprocess.Popen[Any]:
    """Start ``python *args`` (``-m analysis.solver.<module> …``) for ``helper``, pipes on
    stdin and stdout, and end it at exit if the solve has not (``stop_all``)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (ROOT, env.get("PYTHONPATH")) if p)
    process = subprocess.Popen([sys.executable, *args], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env,
                               text=text, pass_fds=pass_fds)
    _LIVE.add(helper)
    return process


def end(process: subprocess.Popen[Any], reader: threading.Thread | None) -> None:
    """End ``process`` (it may be mid-work: its answer is no longer wanted), let its reader
    thread finish and close its pipes."""
    if process.poll() is None:
        process.kill()
    process.wait()
    if reader is not None and reader.is_alive():
        reader.join(1.0)
    for pipe in (process.stdin, process.stdout):
        if pipe is not None:
            try:
                pipe.close()
            except OSError:
                pass


@atexit.register
def stop_all() -> None:
    """At exit, end the helpers of solves still running (the app quit in the middle of one:
    its worker thread never returns to stop its helper)."""
    for helper in list(_LIVE):
        if not helper.over:
            helper.stop()


__all__ = ["ROOT", "end", "start", "stop_all"]
