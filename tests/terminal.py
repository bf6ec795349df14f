"""Run a command in a pseudo-terminal, as if a person typed it.

A command whose stdout and stderr are a terminal behaves differently (progress
bars, colours, isatty checks), so a crash there goes unseen by every test that
runs with its output redirected. :func:`run_in_terminal` gives the command a
new pty as stdin, stdout and stderr and a session of its own, so that Ctrl-C
typed into the pty (``interrupt_after``) reaches it as SIGINT through the
terminal driver, the way a keyboard does.

Also a script, for CI: ``python tests/terminal.py studeval rank --random 10M``
runs the command in a pty, copies what it drew to stdout and exits with its
status, or with 1 when it printed a traceback.
"""

from __future__ import annotations

import os
import pty
import select
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass


@dataclass
class Screen:
    """What a command wrote to its terminal, and how it ended."""

    output: bytes
    status: int  # the exit status; 128 + N after signal N, as a shell reports it
    interrupted: bool  # whether Ctrl-C was typed

    @property
    def text(self) -> str:
        return self.output.decode("utf-8", errors="replace")


def _take_terminal() -> None:
    """In the child: make the pty the controlling terminal, and Ctrl-C deliverable.

    The new session takes the pty (its stdin) as its controlling terminal, so the
    terminal driver turns a typed Ctrl-C into SIGINT for the command. A process
    started in the background by a non-interactive shell (as CI may run us)
    inherits SIGINT ignored, and Python then installs no KeyboardInterrupt
    handler; a person's shell gives its foreground job the default disposition,
    so the child gets that here too.
    """
    import fcntl
    import termios

    signal.signal(signal.SIGINT, signal.SIG_DFL)
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


def run_in_terminal(
    argv: Sequence[str],
    *,
    env: dict[str, str] | None = None,
    interrupt_after: Callable[[bytes], bool] | None = None,
    timeout: float = 120.0,
    columns: int = 100,
) -> Screen:
    """Run ``argv`` with a new pty as its controlling terminal; return what it drew.

    ``interrupt_after(output_so_far)`` is asked after every read; once it returns
    True, Ctrl-C (byte 0x03) is typed into the terminal, once.
    """
    import fcntl
    import struct
    import termios

    master, slave = pty.openpty()
    # A real terminal has a size; tqdm reads it for the bar's width.
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 30, columns, 0, 0))
    process = subprocess.Popen(
        list(argv),
        stdin=slave,
        stdout=slave,
        stderr=slave,
        env=env,
        start_new_session=True,
        preexec_fn=_take_terminal,
    )
    os.close(slave)
    output = bytearray()
    interrupted = False
    deadline = time.monotonic() + timeout
    try:
        while True:
            if time.monotonic() > deadline:
                process.kill()
                raise TimeoutError(f"{argv} still running after {timeout} s: {bytes(output)!r}")
            ready, _, _ = select.select([master], [], [], 0.05)
            if ready:
                try:
                    data = os.read(master, 65536)
                except OSError:  # EIO: every writer of the pty has closed it
                    data = b""
                if not data:
                    break
                output += data
            if interrupt_after is not None and not interrupted and interrupt_after(bytes(output)):
                os.write(master, b"\x03")
                interrupted = True
        status = process.wait(timeout=max(1.0, deadline - time.monotonic()))
    finally:
        os.close(master)
        if process.poll() is None:
            process.kill()
            process.wait()
    if status < 0:  # killed by a signal: report it as a shell would
        status = 128 - status
    return Screen(bytes(output), status, interrupted)


def main(argv: Sequence[str]) -> int:
    if not argv:
        print("usage: python tests/terminal.py COMMAND [ARG...]", file=sys.stderr)
        return 2
    screen = run_in_terminal(argv, timeout=600.0)
    sys.stdout.write(screen.text.replace("\r\n", "\n"))
    sys.stdout.flush()
    if "Traceback" in screen.text:
        print(f"terminal.py: {argv[0]} printed a traceback", file=sys.stderr)
        return 1
    return screen.status


if __name__ == "__main__":
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    sys.exit(main(sys.argv[1:]))
