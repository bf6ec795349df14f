r"""``studeval import``: hand histories into a hand database.

>>> import tempfile, pathlib, contextlib, io
>>> from studeval.cli import main
>>> from studeval.histories import EXAMPLE
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> _ = (folder / "stars.txt").write_text(EXAMPLE)
>>> err = io.StringIO()
>>> with contextlib.redirect_stderr(err):
...     main(["import", str(folder / "hands.duckdb"), str(folder / "stars.txt")])
0
>>> print(err.getvalue().strip())
studeval: 1 hand stored from 1 file, 0 already stored, 0 refused
studeval: PokerStars: 1 hand
"""

from __future__ import annotations

import argparse
from typing import Any

from studeval.cli._args import positive, subcommand
from studeval.cli._console import Progress, fail, say
from studeval.errors import install_hint

__all__ = ["NAME", "add", "run"]

#: The command's name (``import`` is Python's word: the module cannot have it).
NAME = "import"

EPILOG = """\
examples:
  studeval import hands.duckdb HH20250101.txt
  studeval import hands.duckdb histories/ --workers 4

Reads what `studeval replay` reads (card rooms' histories, PHH files, directories
read whole) and stores every hand in the database file DB, made when there is none
(DuckDB: query it with SQL, or see `studeval stats`). A hand is stored once by its
room and hand id: importing a folder again adds only its new hands. Hands and files
not stored are kept in the database's refused table with the reason, and counted
here by room and reason. Hands are written 50,000 to a transaction: an import
killed halfway leaves every hand whole or absent, and the same command finishes
it. --workers reads the files on a Dask cluster of that many processes (pip
install 'studeval[dask]'). The exit status is 2 when a hand was refused or a file
could not be read. Needs pip install 'studeval[db]'.
"""


def add(commands: Any) -> None:
    """The ``import`` command's parser."""
    parser = subcommand(
        commands, NAME, run,
        help="store hand histories in a hand database (DuckDB)",
        description="Store hand histories in a hand database, each hand once.",
        epilog=EPILOG,
    )  # fmt: skip
    parser.add_argument("database", metavar="DB", help="the database file (made if none)")
    parser.add_argument("inputs", nargs="+", metavar="FILE|DIR",
                        help="history files or directories (- reads standard input)")  # fmt: skip
    parser.add_argument("--workers", type=positive, default=0, metavar="N",
                        help="read the files on a Dask cluster of N processes")  # fmt: skip


def _plural(n: int, word: str) -> str:
    return f"{n:,} {word}{'s' * (n != 1)}"


def run(args: argparse.Namespace) -> int:
    """Import; the exit status."""
    from studeval.db import connect
    from studeval.errors import StudevalError
    from studeval.histories._files import files_in, first_missing

    if (missing := first_missing(name for name in args.inputs if name != "-")) is not None:
        return fail(f"no such file or directory: {missing}")
    files = files_in(args.inputs)
    if not files:  # (no database made, or opened, for nothing)
        return fail("no file to read: the folders given are empty")
    progress = Progress(len(files), "file")
    cluster = client = None
    try:
        if args.workers:
            try:
                from distributed import Client, LocalCluster
            except ImportError:
                return fail(f"--workers needs Dask: {install_hint('dask')}")
            cluster = LocalCluster(n_workers=args.workers, threads_per_worker=1,
                                   processes=True, dashboard_address=None)  # fmt: skip
            client = Client(cluster)
        with connect(args.database) as db:
            report = db.import_histories(args.inputs, client=client,
                                         on_file=lambda _: progress.update(1))  # fmt: skip
    except StudevalError as err:
        return fail(str(err))
    finally:
        progress.close()
        if client is not None:
            client.close()
        if cluster is not None:
            cluster.close()
    say(f"studeval: {_plural(report.hands, 'hand')} stored from {_plural(report.files, 'file')}, "
        f"{report.duplicates:,} already stored, {report.refused:,} refused")  # fmt: skip
    for room, n in report.rooms.most_common():
        say(f"studeval: {room or 'no room'}: {_plural(n, 'hand')}")
    for reason, n in report.reasons.most_common():
        say(f"studeval: {n:>7,}  {reason}")
    for example in report.examples:
        say(f"studeval: not stored: {example}")
    if report.refused > len(report.examples):
        say(f"studeval: the {report.refused:,} refusals, each with its file and line, are in "
            f"the database's refused table")  # fmt: skip
    return 2 if report.failed() else 0
