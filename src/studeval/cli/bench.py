"""``studeval bench``: studeval against the installed peer evaluators, timed live.

>>> from studeval.cli import _parse
>>> args = _parse(["bench", "--hands", "200k", "--peers", "pkrbot,eval7"])
>>> args.hands, args.peers, args.repeats
(200000, 'pkrbot,eval7', 5)
"""

from __future__ import annotations

import argparse
from typing import Any

from studeval.cli._args import count, positive, subcommand
from studeval.cli._console import Output, fail, say

__all__ = ["add", "run"]

EPILOG = """\
examples:
  studeval bench                        # every installed peer, 1,000,000 hands
  studeval bench --hands 200k --repeats 3 --peers pkrbot,eval7 --no-import

Times studeval's batch and single-hand calls and the per-hand calls of the peers
that are installed (pkrbot, eval7, phevaluator, treys, pokerkit), on the same
random 7-card hands after checking that every call agrees, and prints ns per
hand for each call and the ratios between them, all measured in this one run.
"""


def add(commands: Any) -> None:
    """The ``bench`` command's parser."""
    bench = subcommand(
        commands, "bench", run,
        help="time studeval against the installed peer evaluators",
        description="Benchmark studeval and the installed peer evaluators, live.",
        epilog=EPILOG,
    )  # fmt: skip
    bench.add_argument(
        "--hands", type=count, default=1_000_000, metavar="N",
        help="random 7-card hands each call ranks (default 1,000,000; 200k, 1M work)",
    )  # fmt: skip
    bench.add_argument(
        "--repeats", type=positive, default=5, metavar="R",
        help="timings of each call; the best and the median are shown (default 5)",
    )  # fmt: skip
    bench.add_argument("--threads", type=positive, metavar="T", help="default: every core")
    bench.add_argument(
        "--peers", metavar="A,B", help="comma-separated peers to time (default: all installed)"
    )
    bench.add_argument("--no-import", action="store_true", help="skip timing 'import studeval'")
    bench.add_argument(
        "--min-time", type=float, default=0.1, metavar="S",
        help="time each call for at least S seconds per repeat (default 0.1)",
    )  # fmt: skip


def run(args: argparse.Namespace) -> int:
    """Time the calls and print the table; the exit status."""
    from studeval import bench
    from studeval._bench.peers import peer_calls
    from studeval.errors import install_hint

    peers = None if args.peers is None else [p.strip() for p in args.peers.split(",") if p.strip()]

    def progress(text: str) -> None:
        say(f"  {text}")

    try:
        rows = bench.run_bench(
            args.hands, args.repeats, args.threads, peers=peers,
            include_import=not args.no_import, min_time=args.min_time, progress=progress,
        )  # fmt: skip
    except ValueError as err:
        return fail(str(err))
    Output().line(bench.format_table(rows))
    # A peer asked for (or any, by default) that is not installed is said, not dropped.
    calls = peer_calls()
    wanted = set(peers) if peers is not None else {call.module for call in calls}
    missing = sorted({call.module for call in calls
                      if call.module in wanted and not call.available()})  # fmt: skip
    if missing:
        say(f"not installed, so not timed: {', '.join(missing)} ({install_hint('bench')})")
    return 0
