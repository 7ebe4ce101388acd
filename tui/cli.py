"""The ``kraton`` command. Subcommands live in ``tui/commands/*.py``, each with ``register``.

Every error is one line on stderr and exit status 2, never a traceback (notation.md).
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import importlib
import os
import pkgutil
import sys
from collections.abc import Iterator, Sequence
from typing import Any, NoReturn, TextIO

from core.errors import KratonError, one_line

EXIT_ERROR = 2


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line, exit 2
        self.exit(EXIT_ERROR, f"kraton: {one_line(message)} (see 'kraton --help')\n")

    def _print_message(self, message: str, file: Any = None) -> None:  # typeshed: SupportsWrite
        """argparse ignores a failed write: ``kraton --help > /dev/full`` printed nothing and
        exited 0. The help is flushed here, and a failure is one line and status 2."""
        if file is None or file is sys.stderr or not message:
            return super()._print_message(message, file)
        try:
            file.write(message)
            file.flush()
        except BrokenPipeError:  # `kraton --help | head`: stop quietly, like other tools
            os.dup2(os.open(os.devnull, os.O_WRONLY), file.fileno())
        except OSError as e:
            print(f"kraton: standard output: {e.strerror or e}", file=sys.stderr)
            sys.exit(EXIT_ERROR)


# Which module of ``tui/commands`` registers each command: ``kraton solve FILE`` imports only
# ``solve``'s (the miner's, the trainer's and the others' imports took ~55 ms of a process,
# issue 21: "trim start-up imports"). ``--help``, no command or an unknown one imports them
# all; a test checks this table against what the modules register.
COMMANDS = {"analyze": "analyze", "replay": "game", "selfplay": "game", "play": "play",
            "browse": "play", "puzzle": "play", "new": "position", "validate": "position",
            "show": "position", "apply": "position", "puzzles": "puzzles", "train": "puzzles",
            "review": "review", "solve": "solve", "tournament": "tournament"}


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser of every command, or of ``command``'s module only (a key of ``COMMANDS``)."""
    parser = _Parser(
        prog="kraton",
        description="Java (Kramer & Kiesling) in the terminal: play, study, solve. "
        "Without a command, opens the app on a new game.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    if command is not None:
        names = [COMMANDS[command]]
    else:
        import tui.commands as pkg

        names = sorted(i.name for i in pkgutil.iter_modules(pkg.__path__))
    for name in names:
        importlib.import_module(f"tui.commands.{name}").register(sub)
    return parser


@functools.cache
def _parser(command: str | None) -> argparse.ArgumentParser:
    """Built once per process and command: in-process callers (the fuzz test, the app) run many."""
    return build_parser(command)


APP_COMMANDS = frozenset({"play", "browse", "puzzle", "train", "review"})  # draw on the terminal


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    if not args_list:
        args_list = ["play"]
    parser = _parser(args_list[0] if args_list[0] in COMMANDS else None)
    args = parser.parse_args(args_list)
    if not getattr(args, "func", None):
        _parser(None).print_help()
        return EXIT_ERROR
    if sys.stdout is None and args.command not in APP_COMMANDS:
        # `kraton show FILE >&-`: Python drops every print without a word, and the command
        # would succeed having shown nothing
        print("kraton: standard output is closed: nowhere to print", file=sys.stderr)
        return EXIT_ERROR
    named = args.command not in APP_COMMANDS and sys.stdout is not None
    if named:
        sys.stdout = NamedStdout(sys.stdout)
    try:
        status = int(args.func(args) or 0)
        if named:
            sys.stdout.flush()  # a full disk shows here, while the error can still be said
        return status
    except (KratonError, ValueError, RecursionError, OverflowError) as e:
        # Every refusal is a KratonError naming what, where and the rule; a bare ValueError,
        # RecursionError or OverflowError (a number too big for SQLite or a float) from reading
        # input is a bug to fix at its root, but the user still gets one line and status 2,
        # never a traceback (notation.md).
        print(f"kraton: {one_line(str(e) or type(e).__name__)}", file=sys.stderr)
        return EXIT_ERROR
    except BrokenPipeError:
        # The reader went away (`kraton apply ... | head`): stop quietly, like other tools.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except OSError as e:
        where = f"{e.filename}: " if e.filename else ""
        print(f"kraton: {one_line(f'{where}{e.strerror or e}')}", file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt:
        return 130
    finally:
        if isinstance(sys.stdout, NamedStdout):
            sys.stdout = sys.stdout.inner


@contextlib.contextmanager
def _named_stdout() -> Iterator[None]:
    """An OSError inside names standard output as its file (a closed pipe stays itself)."""
    try:
        yield
    except BrokenPipeError:
        raise
    except OSError as e:
        raise OSError(e.errno, e.strerror, "standard output") from e


class NamedStdout:
    """A command's standard output whose failed writes say where they failed (`kraton show
    FILE > /dev/full` said only "No space left on device", as if a file of its own had failed)."""

    def __init__(self, inner: TextIO) -> None:
        self.inner = inner

    def write(self, text: str) -> int:
        with _named_stdout():
            return self.inner.write(text)

    def flush(self) -> None:
        with _named_stdout():
            self.inner.flush()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


if __name__ == "__main__":
    sys.exit(main())
