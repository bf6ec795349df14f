"""Terminal plumbing for the ``studeval`` command: output, messages, progress bar.

Kept apart from the commands so that every command ends the same way when its
output goes away: a closed pipe (``| head``), a full disk (``> /dev/full``) or a
closed stdout (``>&-``) is one line on stderr and a non-zero exit, never a
traceback. The progress bar is tqdm's, which is a dependency of the default
install (a bar drawn by hand would need its own terminal-width, rate and ETA
code; tqdm is small, pure Python and has no dependencies of its own).
"""

from __future__ import annotations

import contextlib
import os
import stat
import sys
from typing import Any, BinaryIO

__all__ = [
    "InputError",
    "Output",
    "OutputError",
    "Progress",
    "detach_stdout",
    "fail",
    "open_input",
    "say",
]


class OutputError(Exception):
    """The command's output cannot be written (stdout closed, disk full, I/O error)."""


class InputError(Exception):
    """The command's input cannot be read (stdin closed, file unreadable)."""


def say(message: str) -> None:
    """Write one line to stderr, if there is a stderr to write to.

    (``print(..., file=sys.stderr)`` would write to stdout when stderr is closed,
    since ``print`` treats ``file=None`` as "stdout".)

    >>> import contextlib, io
    >>> with contextlib.redirect_stderr(io.StringIO()) as err:
    ...     say("studeval: error: bad line")
    >>> err.getvalue().splitlines()
    ['studeval: error: bad line']
    """
    stream = sys.stderr
    if stream is None:
        return
    with contextlib.suppress(OSError, ValueError):
        stream.write(message + "\n")
        stream.flush()


def fail(message: str) -> int:
    """Report a command's error on stderr; return the exit status of bad input, 2.

    >>> import contextlib, io
    >>> with contextlib.redirect_stderr(io.StringIO()) as err:
    ...     status = fail("no such file")
    >>> status, err.getvalue()
    (2, 'studeval: error: no such file\\n')
    """
    say(f"studeval: error: {message}")
    return 2


def open_input(name: str) -> tuple[BinaryIO, int | None]:
    """The binary stream to read (``-``: standard input), and its size when it is a
    plain file; :class:`InputError` when it cannot be opened."""
    if name == "-":
        stream = sys.stdin
        if stream is None:
            raise InputError("standard input is closed; give FILE or --random N")
        binary = getattr(stream, "buffer", None)
        if binary is None:
            raise InputError("standard input cannot be read as bytes")
        return binary, None
    try:
        source: BinaryIO = open(name, "rb")  # noqa: SIM115 (closed by the caller)
        info = os.fstat(source.fileno())
    except OSError as err:
        raise InputError(f"cannot read {name!r}: {err.strerror or err}") from None
    return source, info.st_size if stat.S_ISREG(info.st_mode) else None


def detach_stdout() -> None:
    """Point file descriptor 1 at the null device.

    After the output failed, whatever is still buffered in ``sys.stdout`` would
    fail again when the interpreter flushes it at exit and print "Exception
    ignored" with a traceback; sent to the null device, it goes nowhere quietly.
    """
    stream = sys.stdout
    if stream is None:
        return
    with contextlib.suppress(OSError, ValueError, AttributeError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, stream.fileno())
        os.close(devnull)


class Output:
    """Bytes and lines to stdout, whatever ``sys.stdout`` is at call time (tests swap it).

    A write or flush that fails raises :class:`OutputError` naming why, except a
    closed pipe, which stays a :class:`BrokenPipeError` for the caller to end on
    quietly.
    """

    def __init__(self) -> None:
        text = sys.stdout
        if text is None:
            raise OutputError("standard output is closed")
        self.text = text
        self.binary: Any = getattr(text, "buffer", None)
        self._guard(text.flush)

    def _guard(self, action: Any, *args: Any) -> None:
        try:
            action(*args)
        except BrokenPipeError:
            raise
        except (OSError, ValueError) as err:
            reason = getattr(err, "strerror", None) or str(err)
            raise OutputError(f"cannot write the output: {reason}") from err

    def write(self, data: bytes) -> None:
        if self.binary is not None:
            self._guard(self.binary.write, data)
        else:
            self._guard(self.text.write, data.decode())

    def line(self, text: str = "") -> None:
        self.write(text.encode() + b"\n")

    def flush(self) -> None:
        if self.binary is not None:
            self._guard(self.binary.flush)
        self._guard(self.text.flush)


#: Columns the progress bar leaves free at the end of its line (see Progress).
_SPARE_COLUMNS = 4


class Progress:
    """A progress bar on stderr while stderr is a terminal; nothing otherwise.

    ``unit`` "B" counts bytes (shown in kB/MB, powers of 1000, so the labels are
    true). The bar clears itself when closed, also after Ctrl-C. ``smoothing`` 0
    times the rest by the average rate since the start, for work whose phases run
    at different speeds (tqdm's default follows the recent rate).
    """

    def __init__(self, total: int | None, unit: str, *, smoothing: float = 0.3) -> None:
        self.bar: Any = None
        stream = sys.stderr
        if stream is None or not _is_terminal(stream):
            return
        import shutil

        from tqdm import tqdm  # imported here: `import studeval` must not pull it in

        # A few columns short of the terminal's width: a bar that fills the line
        # leaves the cursor past its end, so the "^C" the terminal echoes wraps to a
        # new line, and the bar, wiped on that new line, would stay on the screen.
        try:
            width = os.get_terminal_size(stream.fileno()).columns
        except (OSError, ValueError, AttributeError):
            width = shutil.get_terminal_size((80, 24)).columns
        self.bar = tqdm(
            total=total,
            unit=unit,
            unit_scale=True,
            unit_divisor=1000,
            file=stream,
            leave=False,
            ncols=max(width - _SPARE_COLUMNS, 20),
            mininterval=0.2,
            smoothing=smoothing,
        )

    def update(self, amount: int) -> None:
        if self.bar is not None:
            self.bar.update(amount)

    def close(self) -> None:
        if self.bar is not None:
            with contextlib.suppress(OSError, ValueError):
                self.bar.close()
            self.bar = None


def _is_terminal(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (OSError, ValueError, AttributeError):
        return False
