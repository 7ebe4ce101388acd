"""The terminal going away under the app: it exits (status 129) instead of spinning on a dead
tty, and nothing that no file holds yet is lost — a game in play is autosaved after every
action; a review's unsaved evaluations go to a new file in the saves folder."""

from __future__ import annotations

import fcntl
import os
import signal
import struct
import subprocess
import sys
import termios
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from core.record import load_record
from tests.helpers import aio, open_app
from tests.test_app_review import RECORD, fake_evaluate, three_turns
from tui.app import create_app
from tui.saves import load_game
from tui.screens.game import GameScreen
from tui.screens.review import ReviewScreen
from tui.session import Session

ROOT = Path(__file__).resolve().parent.parent


pytestmark = pytest.mark.usefixtures("kraton_home")


@aio
async def test_a_review_not_saved_is_rescued_to_a_new_file_when_the_terminal_hangs_up(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, kraton_home: Path) -> None:
    import tui.screens.review as review_mod

    monkeypatch.setattr(review_mod, "evaluate", fake_evaluate)
    path = tmp_path / "planner-38.json"
    path.write_text(Path(RECORD).read_text())
    before = path.read_bytes()
    app = create_app("review", str(path))
    master, slave = os.openpty()
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            await app.workers.wait_for_complete()
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, ReviewScreen) and screen.unsaved
            app.watch_terminal(slave)
            await pilot.pause(0.7)
            assert app.is_running  # a live terminal: nothing happens
            os.close(master)  # the terminal hangs up
            master = -1
            for _ in range(30):
                if not app.is_running:
                    break
                await pilot.pause(0.1)
    finally:
        os.close(slave)
        if master >= 0:
            os.close(master)
    assert not app.is_running and app.return_code == 129
    assert path.read_bytes() == before  # the record is left as it was: no one said yes
    rescued = list((kraton_home / "saves").glob("rescued-review-*.json"))
    assert len(rescued) == 1
    _, raw = load_record(str(rescued[0]))
    assert set(raw["annotations"]["evaluations"]) == {str(t.turn) for t in screen.tasks}


@aio
async def test_a_game_in_play_exits_on_sighup_with_every_action_in_its_autosave(
        kraton_home: Path) -> None:
    g = three_turns()
    async with open_app(GameScreen, game=Session(g)) as (app, pilot, screen):
        screen.human_act(next(a for a in g.legal_actions() if a.kind == "enter"))
        await pilot.pause()
        app.hang_up()  # what SIGHUP calls
        await pilot.pause()
    assert app.return_code == 129
    autosaves = list((kraton_home / "saves").glob("autosave-*.json"))
    assert len(autosaves) == 1
    assert len(load_game(autosaves[0]).game.actions) == len(g.actions)
    assert not list((kraton_home / "saves").glob("rescued-*"))  # nothing else to rescue


# ---------------------------------------------------------------------- the real app on a pty
@contextmanager
def _kraton_on_a_pty(kraton_home: Path) -> Iterator[tuple[subprocess.Popen[bytes], int, list[bytes]]]:
    """``kraton play`` on a pseudo-terminal of 80x24 that is not its controlling terminal, as
    under ``make play`` in a terminal that closes: the kernel sends it no SIGHUP."""
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    env = dict(os.environ, KRATON_HOME=str(kraton_home), TERM="xterm-256color", NO_COLOR="1")
    proc = subprocess.Popen([sys.executable, "-m", "tui.cli", "play", "--players", "2"],
                            stdin=slave, stdout=slave, stderr=slave, cwd=ROOT, env=env,
                            start_new_session=True)
    os.close(slave)
    seen: list[bytes] = []

    def drain() -> None:  # the app blocks once the pty's buffer is full
        while True:
            try:
                data = os.read(master, 65536)
            except OSError:
                return
            if not data:
                return
            seen.append(data)

    threading.Thread(target=drain, daemon=True).start()
    try:
        yield proc, master, seen
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        try:
            os.close(master)
        except OSError:
            pass


def _wait_for(seen: list[bytes], text: bytes, seconds: float = 20.0) -> None:
    end = time.monotonic() + seconds
    while text not in b"".join(seen):
        assert time.monotonic() < end, f"{text!r} not shown"
        time.sleep(0.1)


def test_kraton_play_exits_when_its_terminal_closes_without_a_sighup(kraton_home: Path) -> None:
    with _kraton_on_a_pty(kraton_home) as (proc, master, seen):
        _wait_for(seen, b"Press Enter to start")
        os.write(master, b"\r")  # start the game
        _wait_for(seen, b"to act")
        os.close(master)
        # Normally gone within a second. It hung for good under load until the screen's
        # writes to the gone terminal stopped killing Textual's writer thread (tui/terminal.py).
        try:
            code = proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            pytest.fail("kraton play kept running 30 s on a closed terminal; it showed last: "
                        f"{b''.join(seen)[-300:]!r}")
    assert code == 129


def test_kraton_play_exits_with_129_on_sighup(kraton_home: Path) -> None:
    with _kraton_on_a_pty(kraton_home) as (proc, _master, seen):
        _wait_for(seen, b"Press Enter to start")
        proc.send_signal(signal.SIGHUP)
        code = proc.wait(timeout=10)
    assert code == 129  # the app's own exit, not the signal's default (-1)


# ------------------------------------------------------- the screen's writes to a gone terminal
class _GoneTerminal:
    """A stream like stderr on a terminal that has gone: every write raises EIO."""

    def __init__(self) -> None:
        self.writes = 0

    def write(self, text: str) -> int:
        self.writes += 1
        raise OSError(5, "Input/output error")

    def flush(self) -> None:
        raise OSError(5, "Input/output error")

    def fileno(self) -> int:
        return 2


@pytest.mark.filterwarnings("ignore::pytest.PytestUnhandledThreadExceptionWarning")  # the bare one
def test_the_screens_writes_to_a_gone_terminal_never_block_the_app() -> None:
    """Textual's writer thread dies on the first failed write, and its queue of 30 then blocks
    the app's own thread for good, before it can notice the hang-up (``kraton play`` hung on a
    closed terminal, under load). Through ``TerminalStream`` the thread lives on."""
    from textual.drivers._writer_thread import MAX_QUEUED_WRITES, WriterThread

    from tui.terminal import TerminalStream

    def frames(writer: WriterThread) -> threading.Event:
        """What the app's thread does: write the screen, again and again; set when done."""
        done = threading.Event()

        def app_thread() -> None:
            for _ in range(MAX_QUEUED_WRITES * 5):
                writer.write("\x1b[2;5H frame")
            done.set()

        threading.Thread(target=app_thread, daemon=True).start()
        return done

    bare = WriterThread(_GoneTerminal())  # type: ignore[arg-type]
    bare.start()
    assert not frames(bare).wait(2)  # Textual's own: the writer died, the app's thread waits
    gone = _GoneTerminal()
    stream = TerminalStream(gone)  # type: ignore[arg-type]
    writer = WriterThread(stream)  # type: ignore[arg-type]
    writer.start()
    assert frames(writer).wait(10), "the app's thread blocked on the writer's queue"
    writer.stop()
    assert stream.gone and gone.writes == 1  # the first write failed; the rest were dropped


def test_the_app_writes_through_the_stream_that_survives_a_gone_terminal() -> None:
    from textual.drivers.linux_driver import LinuxDriver

    from tui.terminal import KeepOnDriver

    app = create_app()
    assert issubclass(app.get_driver_class(), KeepOnDriver) and issubclass(KeepOnDriver, LinuxDriver)
