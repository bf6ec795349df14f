"""The ``studeval`` command: rank hands, settle showdowns, equity, play and replay.

``main`` takes the arguments and returns the exit status, so tests and other
programs call it in-process; ``studeval`` and ``python -m studeval`` call it too.
Exit status: 0 on success, 2 for bad input (a bad hand line, a bad card, an unknown
game, a usage error, unreadable input), 1 when the output cannot be written (a
closed pipe, a full disk), 130 after Ctrl-C.

Each command is a module here with its parser (``add``) and its work (``run``);
what they share is in ``_args`` (argument types) and ``_console`` (output that
fails cleanly, messages, the progress bar). numpy is imported only by the
commands that need it, so ``studeval --version`` and ``--help`` start fast.

>>> main(["bring-in", "--game", "stud", "7h", "2d", "2c"])
Seat 2 brings in with 2c
0
>>> main(["bring-in", "--game", "stud", "7h", "7h"])
2
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from studeval._version import __version__
from studeval.cli import (
    _tuning,
    analyze,
    bench,
    bring_in,
    convert,
    db_import,
    db_stats,
    equity,
    play,
    query,
    rank,
    replay,
    showdown,
    solve,
)
from studeval.cli._args import Formatter
from studeval.cli._console import OutputError, detach_stdout, say

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

__all__ = ["COMMAND_NAMES", "console_main", "main"]

#: The commands in the order ``studeval --help`` lists them; each module's ``NAME``
#: where the command's name is not the module's (``import``: a Python word).
COMMANDS = (
    rank, showdown, bring_in, equity, query, solve, replay, convert, analyze, db_import, db_stats,
    play, bench,
)  # fmt: skip
#: The commands' names, in that order.
COMMAND_NAMES = tuple(
    getattr(module, "NAME", module.__name__.rsplit(".", 1)[1].replace("_", "-"))
    for module in COMMANDS
)


class _Parser(argparse.ArgumentParser):
    """argparse's parser, except that help or a version it cannot write (a full
    disk) is an error, not a message lost without a word."""

    def _print_message(self, message: str, file: SupportsWrite[str] | None = None) -> None:
        if message:  # argparse's own swallows OSError
            (file or sys.stderr).write(message)


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="studeval",
        description="Seven Card Stud hand ranking (high, A-5 low, 8-or-better) and rules.",
        epilog="examples:\n  studeval rank\n  studeval rank hands.txt --format csv\n"
        "  studeval COMMAND --help",
        formatter_class=Formatter,
    )
    parser.add_argument("--version", action="version", version=f"studeval {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for command in COMMANDS:
        command.add(commands)
    return parser


def _parse(argv: Sequence[str] | None) -> argparse.Namespace | int:
    parser = _parser()
    try:
        args, extra = parser.parse_known_args(argv)
        if extra:
            command_parser = getattr(args, "command_parser", parser)
            command_parser.error(f"unrecognized arguments: {' '.join(extra)}")
    except SystemExit as exit_:
        # argparse exits for --help, --version (0) and usage errors (2).
        return exit_.code if isinstance(exit_.code, int) else 2
    return args


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``studeval`` command with ``argv`` (default: ``sys.argv[1:]``).

    Returns the exit status instead of exiting, so it can be called in-process.

    >>> main(["showdown", "--game", "stud", "--pot", "10", "As Ah Kd Kc 7s 3d 2c", "-"])
    Pot of 10: Seat 0 wins 10 uncontested
    0
    """
    try:
        args = _parse(argv)
        if isinstance(args, int):  # --help, --version or a usage error
            if sys.stdout is not None:
                sys.stdout.flush()  # help sent to a full disk is an error too
            return args
        status: int = args.run(args)
        if sys.stdout is not None:
            sys.stdout.flush()  # a full disk shows here, not at interpreter exit
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (`studeval rank big.txt | head`): stop, quietly.
        detach_stdout()
        say("studeval: stopped: the output pipe was closed")
        return 1
    except OutputError as err:
        detach_stdout()
        say(f"studeval: error: {err}")
        return 1
    except OSError as err:
        detach_stdout()
        say(f"studeval: error: cannot write the output: {err.strerror or err}")
        return 1
    return status


def console_main() -> None:
    """The ``studeval`` console script and ``python -m studeval``: ``main()``, then exit.

    Only here, in a process that is the command, is the allocator tuned for
    ``rank``'s chunk buffers and numpy's BLAS kept to one thread.
    """
    argv = sys.argv[1:]
    _tuning.one_blas_thread()
    if argv[:1] == ["rank"]:
        _tuning.keep_freed_memory()
    try:
        status = main(argv)
    except KeyboardInterrupt:
        status = 130
    except Exception as error:  # DuckDB ends a statement Ctrl-C stops with its own error
        from studeval.db._store import is_interrupt  # (no DuckDB loaded for the check)

        if not is_interrupt(error):
            raise
        status = 130
    sys.exit(status)
