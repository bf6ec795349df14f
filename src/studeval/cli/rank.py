"""``studeval rank``: rank hands from a file, from standard input, or at random.

The pipeline (chunks in, ranks and text out, in input order with flat memory)
is :mod:`studeval.cli._rank_job`; this module reads the options and picks the
input.

>>> from studeval.cli import main
>>> main(["rank", "--random", "2", "--seed", "1", "--format", "csv"])
cards,high,category,low,low8
2s Kh 8h Ac 6c Ts Js,6231,High Card,172,
8s Jh Td Ac Qc 6c 3h,6351,High Card,173,
0
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from studeval._core import cpu_count
from studeval.cli._args import count, positive, subcommand
from studeval.cli._console import InputError, Output, fail, open_input, say
from studeval.errors import InvalidLineError, StudevalError
from studeval.formatting import FORMATS, format_header

__all__ = ["DEFAULT_CHUNK", "DEFAULT_RANDOM", "MAX_CHUNK", "add", "count", "run"]

DEFAULT_RANDOM = 1_000_000
DEFAULT_CHUNK = 1 << 16
#: The most hands one chunk may hold: a chunk's buffers take about 100 bytes a
#: hand, so this keeps one chunk near 400 MB at most, whatever is asked.
MAX_CHUNK = 1 << 22

EPILOG = """\
examples:
  studeval rank                          # 1,000,000 random hands: speed and histogram
  studeval rank --random 10M --seed 7    # 10 million, reproducible
  studeval rank hands.txt --format csv > ranked.csv
  printf 'As Kd 7h 2c 3s 9d Th\\n' | studeval rank --format jsonl

Input: one hand of 5 to 7 cards per line, in any card text studeval reads
("As Kd 7h 2c 3s 9d Th", "AsKd7h2c3s9dTh", "10h ...", "A♠ ..."); blank lines
are ignored. With no FILE, hands piped in on stdin are ranked; from a terminal,
random hands are. Ranks: 1 is the best hand. high 1..7462; low is ace-to-five
(Razz) 1..6175; low8 is the 8-or-better low 1..56, or empty/null/- when the hand
has none.
"""


def _chunk_size(text: str) -> int:
    value = count(text)
    if value > MAX_CHUNK:
        raise argparse.ArgumentTypeError(
            f"at most {MAX_CHUNK:,} hands per chunk (about 400 MB of buffers); got {text!r}"
        )
    return value


def add(commands: Any) -> None:
    """The ``rank`` command's parser."""
    rank = subcommand(
        commands, "rank", run,
        help="rank hands from a file, stdin or at random",
        description="Rank hands given one per line, or random 7-card hands.",
        epilog=EPILOG,
    )  # fmt: skip
    rank.add_argument(
        "input", nargs="?", metavar="FILE|-",
        help="hands, one per line ('-' reads stdin); without it, stdin when it is "
        "piped, else random hands",
    )  # fmt: skip
    rank.add_argument(
        "--random", type=count, metavar="N",
        help=f"rank N random 7-card hands (default {DEFAULT_RANDOM:,} when there is no input)",
    )  # fmt: skip
    rank.add_argument("--seed", type=int, help="seed for --random (default: fresh)")
    rank.add_argument(
        "--format", choices=FORMATS,
        help="write one line per hand (default for FILE: table); with --random, "
        "writes the hands instead of the summary",
    )  # fmt: skip
    rank.add_argument(
        "--summary", action="store_true",
        help="print the summary (speed, category histogram) instead of one line per hand",
    )  # fmt: skip
    rank.add_argument(
        "--threads", type=positive, metavar="T",
        help=f"threads to use (default: every core, {cpu_count()} here)",
    )  # fmt: skip
    rank.add_argument(
        "--skip-invalid", action="store_true",
        help="skip bad lines and count them instead of stopping at the first",
    )  # fmt: skip
    rank.add_argument(
        "--chunk-size", type=_chunk_size, metavar="HANDS", default=DEFAULT_CHUNK,
        help=f"hands read and ranked per chunk (default {DEFAULT_CHUNK}, at most "
        f"{MAX_CHUNK:,}); memory grows with it",
    )  # fmt: skip


def _stdin_is_piped() -> bool:
    stream = sys.stdin
    if stream is None:
        return False
    try:
        return not stream.isatty()
    except (OSError, ValueError, AttributeError):
        return False


def _own_output_hint(err: StudevalError, name: str) -> str:
    """A hint when the first line is the header or a row of this command's own output.

    >>> from studeval.errors import InvalidLineError
    >>> bad = InvalidLineError(1, "cards,high,category,low,low8", "invalid card 'cards'")
    >>> print(_own_output_hint(bad, "ranked.csv").strip())  # doctest: +ELLIPSIS
    (ranked.csv looks like the output of studeval rank --format csv; ...)
    """
    if not isinstance(err, InvalidLineError) or err.line != 1:
        return ""
    text = err.text.strip()
    fmt = next((f for f in FORMATS if text and text == format_header(f).decode().strip()), None)
    if fmt is None and text.startswith('{"cards":'):
        fmt = "jsonl"
    if fmt is None:
        return ""
    import shlex

    where, file = ("standard input", "") if name == "-" else (name, " " + shlex.quote(name))
    hands = {
        "csv": f"tail -n +2{file} | cut -d, -f1",
        "jsonl": f"jq -r .cards{file}",
        "table": f"tail -n +2{file} | cut -c1-20",
    }[fmt]
    return (
        f"\n({where} looks like the output of studeval rank --format {fmt}; rank the "
        f"hands it holds, one per line: {hands} | studeval rank -)"
    )


def run(args: argparse.Namespace) -> int:
    """Rank what the options name; the exit status."""
    from studeval.cli import _rank_job

    if args.input is not None and args.random is not None:
        return fail("give FILE or --random N, not both")
    name = args.input
    if name is None and args.random is None and _stdin_is_piped():
        name = "-"
    if name is None and args.random is None and sys.stdin is None:
        return fail("standard input is closed; give FILE, or --random N for random hands")
    threads = args.threads or cpu_count()
    out = Output()
    if name is None:
        fmt = args.format if not args.summary else None
        hands = args.random or DEFAULT_RANDOM
        job = _rank_job.RankJob(fmt, threads, args.chunk_size, count=hands, seed=args.seed)
        _rank_job.rank_random(job, out)
        return 0
    try:
        source, size = open_input(name)
    except InputError as err:
        return fail(str(err))
    fmt = None if args.summary else (args.format or "table")
    job = _rank_job.RankJob(fmt, threads, args.chunk_size, skip_invalid=args.skip_invalid)
    try:
        tally = _rank_job.rank_stream(job, source, size, out)
    except StudevalError as err:
        return fail(str(err) + _own_output_hint(err, name))
    except BrokenPipeError:
        raise  # the output's reader went away: main() ends quietly
    except OSError as err:
        where = "standard input" if name == "-" else repr(name)
        return fail(f"cannot read {where}: {err.strerror or err}")
    finally:
        if name != "-":
            source.close()
    if tally.invalid:
        lines = f"{tally.invalid:,} invalid line{'s' if tally.invalid > 1 else ''}"
        say(f"studeval: skipped {lines} (first: {tally.first_invalid})")
    if not tally.hands:
        where = "standard input" if name == "-" else repr(name)
        say(f"studeval: {where} holds no hand to rank (one hand of 5 to 7 cards a line)")
    return 0
