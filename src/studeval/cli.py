"""The ``studeval`` command: rank hands from files or at random, settle showdowns.

``main`` takes the arguments and returns the exit status, so tests and other
programs call it in-process; ``studeval`` and ``python -m studeval`` call it too.
Exit status: 0 on success, 2 for bad input (a bad hand line, a bad card, an unknown
game, a usage error), 1 when the output pipe closes early.

>>> main(["bring-in", "--game", "stud", "7h", "2d", "2c"])
Seat 2 brings in with 2c
0
>>> main(["bring-in", "--game", "stud", "7h", "7h"])
2
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from math import comb
from typing import Any, BinaryIO

import numpy as np

import studeval
from studeval import stream as hand_stream
from studeval.classes import HIGH_CATEGORIES
from studeval.errors import StudevalError

__all__ = ["main"]

GAMES = ("stud", "stud8", "razz", "stud_hilo")
DEFAULT_RANDOM = 1_000_000

# The textbook counts of the nine high categories over all C(52, 7) = 133,784,560
# seven-card hands, best first (they are reference data, checked exhaustively by the
# core's tests, not results of this command).
SEVEN_CARD_COUNTS = (41_584, 224_848, 3_473_184, 4_047_644, 6_180_020, 6_461_620,
                     31_433_400, 58_627_800, 23_294_460)  # fmt: skip
SEVEN_CARD_HANDS = comb(52, 7)


def low8_hand_count(ncards: int = 7) -> int:
    """How many ``ncards``-card hands hold a qualifying 8-or-better low.

    A hand qualifies when it holds at least five different ranks among A, 2..8; the
    count runs over how many cards each rank contributes.

    >>> low8_hand_count(5) == 8 * 7 * 6 * 5 * 4 // 120 * 4**5
    True
    """
    # ways[(cards, distinct low ranks)] over the ranks seen so far
    ways: dict[tuple[int, int], int] = {(0, 0): 1}
    for is_low in [True] * 8 + [False] * 5:
        grown: dict[tuple[int, int], int] = {}
        for (cards, lows), count in ways.items():
            for taken in range(min(4, ncards - cards) + 1):
                key = (cards + taken, lows + (is_low and taken > 0))
                grown[key] = grown.get(key, 0) + count * comb(4, taken)
        ways = grown
    return sum(count for (cards, lows), count in ways.items() if cards == ncards and lows >= 5)


# ---------------------------------------------------------------------------
# Argument parsing


class _Formatter(argparse.RawDescriptionHelpFormatter):
    """Keeps the example epilogs as written."""


def _count(text: str) -> int:
    """A positive count: digits with optional _ and a k/M/G suffix ("10M")."""
    scale = {"k": 10**3, "m": 10**6, "g": 10**9}.get(text[-1:].lower(), 1)
    digits = text[:-1] if scale > 1 else text
    try:
        value = int(digits.replace("_", "")) * scale
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected a count such as 1000000 or 10M; got {text!r}"
        ) from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a count of at least 1; got {text!r}")
    return value


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number; got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected at least 1; got {text!r}")
    return value


def _chips(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected a whole number of chips; got {text!r}"
        ) from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"chips cannot be negative; got {text!r}")
    return value


def _chip_list(text: str) -> list[int]:
    return [_chips(part.strip()) for part in text.split(",")]


RANK_EPILOG = """\
examples:
  studeval rank                          # 1,000,000 random hands: speed and histogram
  studeval rank --random 10M --seed 7    # 10 million, reproducible
  studeval rank hands.txt --format csv > ranked.csv
  printf 'As Kd 7h 2c 3s 9d Th\\n' | studeval rank - --format jsonl

Input: one hand of 5 to 7 cards per line, in any card text studeval reads
("As Kd 7h 2c 3s 9d Th", "AsKd7h2c3s9dTh", "10h ...", "A♠ ..."); blank lines
are ignored. Ranks: 1 is the best hand. high 1..7462; low is ace-to-five
(Razz) 1..6175; low8 is the 8-or-better low 1..56, or empty/null/- when the hand
has none.
"""

SHOWDOWN_EPILOG = """\
examples:
  studeval showdown --game stud8 --pot 100 "As 2d 3h 4s 5c Kd Kh" "Ks Kc Qd Qh 9s 8s 7c"
  studeval showdown --game razz --contributions 50,50,20 \\
      "Ac 2d 3h 4s 6c Kd Kh" "As 2c 3d 5h 7c Qd Qh" "8c 8d 9h Ts Jc 4d 5d"

Each HAND is one seat's cards in seat order; "-" marks a folded seat.
--pot splits one pot among the live seats; --contributions builds the main and
side pots from what each seat put in (folded seats included).
"""

BRING_IN_EPILOG = """\
examples:
  studeval bring-in --game stud 7h 2d 2c      # prints: Seat 2 brings in with 2c
  studeval bring-in --game razz Ac Kh - Ks    # "-" is an empty seat

One door card per seat, in seat order starting at the dealer's left.
"""

BENCH_EPILOG = """\
examples:
  studeval bench                        # every installed peer, 1,000,000 hands
  studeval bench --hands 200k --repeats 3 --peers pkrbot,eval7 --no-import

Times studeval's batch and single-hand calls and the per-hand calls of the peers
that are installed (pkrbot, eval7, phevaluator, treys, pokerkit), on the same
random 7-card hands after checking that every call agrees, and prints the
SPEC section 5 table with ratios and targets.
"""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="studeval",
        description="Seven Card Stud hand ranking (high, A-5 low, 8-or-better) and rules.",
        epilog="examples:\n  studeval rank\n  studeval rank hands.txt --format csv\n"
        "  studeval COMMAND --help",
        formatter_class=_Formatter,
    )
    parser.add_argument("--version", action="version", version=f"studeval {studeval.__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    rank = commands.add_parser(
        "rank",
        help="rank hands from a file, stdin or at random",
        description="Rank hands given one per line, or random 7-card hands.",
        epilog=RANK_EPILOG,
        formatter_class=_Formatter,
    )
    rank.add_argument(
        "input", nargs="?", metavar="FILE|-",
        help="hands, one per line ('-' reads stdin); without it, rank random hands",
    )  # fmt: skip
    rank.add_argument(
        "--random", type=_count, metavar="N",
        help=f"rank N random 7-card hands (default {DEFAULT_RANDOM:,} when no FILE)",
    )  # fmt: skip
    rank.add_argument("--seed", type=int, help="seed for --random (default: fresh)")
    rank.add_argument(
        "--format", choices=hand_stream.FORMATS,
        help="write one line per hand (default for FILE: table); with --random, "
        "writes the hands instead of the summary",
    )  # fmt: skip
    rank.add_argument(
        "--summary", action="store_true",
        help="print the summary (speed, category histogram) instead of one line per hand",
    )  # fmt: skip
    rank.add_argument(
        "--threads", type=_positive, metavar="T",
        help=f"threads to use (default: every core, {studeval.cpu_count()} here)",
    )  # fmt: skip
    rank.add_argument(
        "--skip-invalid", action="store_true",
        help="skip bad lines and count them instead of stopping at the first",
    )  # fmt: skip
    rank.add_argument(
        "--chunk-size", type=_count, metavar="HANDS", default=1 << 16,
        help="hands read and ranked per chunk (default 65536); memory grows with it",
    )  # fmt: skip
    rank.set_defaults(run=_rank)

    showdown = commands.add_parser(
        "showdown",
        help="who wins what at showdown, and why",
        description="Split a pot (or the main and side pots) among the hands shown.",
        epilog=SHOWDOWN_EPILOG,
        formatter_class=_Formatter,
    )
    showdown.add_argument("--game", required=True, choices=GAMES)
    chips = showdown.add_mutually_exclusive_group(required=True)
    chips.add_argument("--pot", type=_chips, metavar="P", help="one pot of P chips")
    chips.add_argument(
        "--contributions", type=_chip_list, metavar="C1,C2,...",
        help="chips each seat put in, one per HAND",
    )  # fmt: skip
    showdown.add_argument("--community", metavar="CARD", help="a shared card (deck ran out)")
    showdown.add_argument("--rules", choices=("robert", "wsop"), default="robert")
    showdown.add_argument("hands", nargs="+", metavar="HAND", help="one seat's cards, or -")
    showdown.set_defaults(run=_showdown)

    bring_in = commands.add_parser(
        "bring-in",
        help="the seat that brings in on third street",
        description="Print the seat that must bring in, from the door cards.",
        epilog=BRING_IN_EPILOG,
        formatter_class=_Formatter,
    )
    bring_in.add_argument("--game", required=True, choices=GAMES)
    bring_in.add_argument("--rules", choices=("robert", "wsop"), default="robert")
    bring_in.add_argument("cards", nargs="+", metavar="CARD", help="each seat's door card, or -")
    bring_in.set_defaults(run=_bring_in)

    bench = commands.add_parser(
        "bench",
        help="time studeval against the installed peers (SPEC 5 table)",
        description="Benchmark studeval and the installed peer evaluators, live.",
        epilog=BENCH_EPILOG,
        formatter_class=_Formatter,
    )
    bench.add_argument("--hands", type=_count, default=1_000_000, metavar="N")
    bench.add_argument("--repeats", type=_positive, default=5, metavar="R")
    bench.add_argument("--threads", type=_positive, metavar="T", help="default: every core")
    bench.add_argument(
        "--peers", metavar="A,B", help="comma-separated peers to time (default: all installed)"
    )
    bench.add_argument("--no-import", action="store_true", help="skip timing 'import studeval'")
    bench.add_argument(
        "--min-time",
        type=float,
        default=0.1,
        metavar="S",
        help="time each call for at least S seconds per repeat (default 0.1)",
    )
    bench.set_defaults(run=_bench)
    return parser


# ---------------------------------------------------------------------------
# Output helpers


class _Output:
    """Bytes to stdout, whatever sys.stdout is at call time (tests swap it)."""

    def __init__(self) -> None:
        self.text = sys.stdout
        self.text.flush()
        self.binary: BinaryIO | None = getattr(self.text, "buffer", None)

    def write(self, data: bytes) -> None:
        if self.binary is not None:
            self.binary.write(data)
        else:
            self.text.write(data.decode())

    def line(self, text: str = "") -> None:
        self.write(text.encode() + b"\n")

    def flush(self) -> None:
        if self.binary is not None:
            self.binary.flush()
        self.text.flush()


def _error(message: str) -> int:
    print(f"studeval: error: {message}", file=sys.stderr)
    return 2


class _Progress:
    """A tqdm bar on stderr when stderr is a terminal; nothing otherwise."""

    def __init__(self, total: int | None, unit: str) -> None:
        self.bar: Any = None
        if sys.stderr.isatty():
            from tqdm import tqdm  # imported here: `import studeval` must not pull it in

            scale = unit == "B"
            self.bar = tqdm(total=total, unit=unit, unit_scale=True, file=sys.stderr,
                            leave=False, dynamic_ncols=True, disable=None)  # fmt: skip
            self.bar.unit_divisor = 1024 if scale else 1000

    def update(self, amount: int) -> None:
        if self.bar is not None:
            self.bar.update(amount)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


# ---------------------------------------------------------------------------
# rank


@dataclass
class _Tally:
    """What the summary reports, added up over chunks."""

    hands: int = 0
    categories: np.ndarray = field(default_factory=lambda: np.zeros(9, dtype=np.int64))
    low8: int = 0
    rank_seconds: float = 0.0
    invalid: int = 0
    first_invalid: hand_stream.InvalidLineError | None = None

    def add(self, high: np.ndarray, low8: np.ndarray) -> None:
        self.hands += len(high)
        self.categories += np.bincount(hand_stream.category_index(high), minlength=9)
        self.low8 += int(np.count_nonzero(low8 != studeval.NO_LOW))


@dataclass
class _Piece:
    """One block's result: its output text, tallies, and any bad line.

    Line numbers inside a piece count from the block's first line; the caller,
    which sees the blocks in order, adds the lines before it.
    """

    text: bytes
    hands: int
    lines: int
    high: np.ndarray | None
    low8: np.ndarray | None
    invalid: int
    first_invalid: hand_stream.InvalidLineError | None
    error: hand_stream.InvalidLineError | None
    nbytes: int


def _rank_block(block: bytes, skip: bool, fmt: str | None) -> _Piece:
    try:
        chunk = hand_stream.parse_block(block, skip_invalid=skip)
    except hand_stream.InvalidLineError as err:
        # Rank the lines before the bad one, so the output stops right at it.
        newlines = np.flatnonzero(np.frombuffer(block, dtype=np.uint8) == ord("\n"))
        cut = int(newlines[err.line - 2]) + 1 if err.line > 1 else 0
        before = _rank_block(block[:cut], skip, fmt)
        before.error = err
        return before
    # Blocks run one per worker thread already, so each batch uses one thread.
    high, low, low8 = hand_stream.rank_chunk(chunk, threads=1)
    text = b"" if fmt is None else hand_stream.format_rows(chunk.cards, high, low, fmt)
    keep = fmt is None  # the summary needs the ranks; row output does not
    return _Piece(text, len(chunk), chunk.nlines, high if keep else None,
                  low8 if keep else None, chunk.invalid, chunk.first_invalid, None,
                  len(block))  # fmt: skip


def _renumber(
    err: hand_stream.InvalidLineError | None, before: int
) -> hand_stream.InvalidLineError | None:
    if err is None:
        return None
    return hand_stream.InvalidLineError(err.line + before, err.text, err.reason)


def _ordered(
    work: Callable[..., _Piece], jobs: Iterable[tuple[Any, ...]], workers: int
) -> Iterator[_Piece]:
    """Run jobs on worker threads, yielding results in job order.

    numpy and the C core release the GIL, so chunks parse, rank and format in
    parallel; at most two chunks per worker are in flight, keeping memory flat.
    """
    if workers == 1:
        for job in jobs:
            yield work(*job)
        return
    from concurrent.futures import ThreadPoolExecutor

    pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="studeval")
    pending: deque[Any] = deque()
    try:
        for job in jobs:
            pending.append(pool.submit(work, *job))
            if len(pending) >= 2 * workers:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _random_jobs(count: int, seed: int | None, chunk: int) -> Iterator[tuple[int, Any]]:
    # One child seed per chunk: the hands depend on the seed and the chunk size,
    # not on how many threads run.
    seeds = np.random.SeedSequence(seed)
    done = 0
    while done < count:
        size = min(chunk, count - done)
        (child,) = seeds.spawn(1)
        yield size, child
        done += size


def _summary(out: _Output, tally: _Tally, wall: float, threads: int, random: bool) -> None:
    rate = tally.hands / tally.rank_seconds if tally.rank_seconds > 0 else float("inf")
    plural = "s" if threads > 1 else ""
    if random:
        out.line(f"ranked {tally.hands:,} random 7-card hands in {wall:.3f} s")
        out.line(
            f"ranking: {rate / 1e6:,.1f} million hands/s ({threads} thread{plural}; "
            "high, A-5 low and 8-or-better in one pass)"
        )
        out.line(f"end to end with generation: {tally.hands / wall / 1e6:,.1f} million hands/s")
    else:
        out.line(f"ranked {tally.hands:,} hands in {wall:.3f} s")
        out.line(
            f"end to end: {tally.hands / wall / 1e6:,.1f} million hands/s "
            f"(read, parse and rank; {threads} thread{plural})"
        )
    out.line("")
    header = f"{'category':<16}{'hands':>14}{'share':>10}"
    out.line(header + (f"{'exact':>10}" if random else ""))
    total = max(tally.hands, 1)
    rows = zip(HIGH_CATEGORIES, tally.categories.tolist(), SEVEN_CARD_COUNTS, strict=True)
    for name, count, exact in rows:
        line = f"{name:<16}{count:>14,}{100 * count / total:>9.3f}%"
        if random:
            line += f"{100 * exact / SEVEN_CARD_HANDS:>9.3f}%"
        out.line(line)
    out.line("")
    low_line = f"8-or-better low: {tally.low8:,} hands ({100 * tally.low8 / total:.3f}%"
    if random:
        low_line += f"; exact {100 * low8_hand_count(7) / SEVEN_CARD_HANDS:.3f}%"
    out.line(low_line + ")")


def _keep_freed_memory() -> None:
    """Ask glibc to keep freed chunk buffers for reuse instead of unmapping them.

    Each chunk allocates a few MiB of temporaries. By default glibc returns such
    blocks to the kernel when they are freed, and the next chunk's pages fault in
    afresh: measured here, that was a fifth of the run time of `studeval rank` on a
    large file (system time 0.4 s of 2.1 s for 10 million hands). Memory stays flat
    either way, since every chunk needs the same amount. Elsewhere (musl, macOS,
    Windows) there is nothing to tune and this does nothing.
    """
    if not sys.platform.startswith("linux"):
        return
    import ctypes

    if not sys.platform.startswith("linux"):
        return
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError, TypeError):
        return
    m_trim_threshold, m_mmap_threshold = -1, -3  # from glibc's malloc.h
    mallopt(m_mmap_threshold, 32 << 20)  # glibc's largest allowed value on 64-bit
    mallopt(m_trim_threshold, 128 << 20)


def _rank(args: argparse.Namespace) -> int:
    if args.input is not None and args.random is not None:
        return _error("give FILE or --random N, not both")
    _keep_freed_memory()
    threads = args.threads or studeval.cpu_count()
    out = _Output()
    try:
        if args.input is None:
            return _rank_random(args, out, threads)
        return _rank_file(args, out, threads)
    except BrokenPipeError:
        # The reader went away (`studeval rank big.txt | head`): stop quietly, and
        # point stdout at devnull so the interpreter's final flush cannot fail.
        devnull = os.open(os.devnull, os.O_WRONLY)
        with contextlib.suppress(OSError, ValueError, AttributeError):
            os.dup2(devnull, sys.stdout.fileno())
        return 1


def _rank_random(args: argparse.Namespace, out: _Output, threads: int) -> int:
    count = args.random or DEFAULT_RANDOM
    show_rows = args.format is not None and not args.summary
    tally = _Tally()
    progress = _Progress(count, "hands")
    start = time.perf_counter()
    if show_rows:
        out.write(hand_stream.format_header(args.format))
    for size, child in _random_jobs(count, args.seed, min(args.chunk_size, count)):
        cards = hand_stream.random_hands(size, seed=np.random.default_rng(child))
        began = time.perf_counter()
        ranks = studeval.all_ranks(cards, threads=threads, check=False)
        tally.rank_seconds += time.perf_counter() - began
        tally.add(ranks.high, ranks.low8)
        if show_rows:
            out.write(hand_stream.format_rows(cards, ranks.high, ranks.low, args.format))
        progress.update(size)
    wall = time.perf_counter() - start
    progress.close()
    if not show_rows:
        _summary(out, tally, wall, threads, random=True)
    out.flush()
    return 0


def _rank_file(args: argparse.Namespace, out: _Output, threads: int) -> int:
    fmt = None if args.summary else (args.format or "table")
    try:
        source: BinaryIO = (
            sys.stdin.buffer if args.input == "-" else open(args.input, "rb")  # noqa: SIM115
        )
    except OSError as err:
        return _error(f"cannot read {args.input!r}: {err.strerror or err}")
    total = None
    if args.input != "-":
        try:
            total = os.fstat(source.fileno()).st_size
        except OSError:
            total = None
    chunk_bytes = args.chunk_size * 21  # a 7-card spaced line is 21 bytes
    tally = _Tally()
    progress = _Progress(total, "B")
    start = time.perf_counter()
    try:
        if fmt is not None:
            out.write(hand_stream.format_header(fmt))
        jobs = (
            (block, args.skip_invalid, fmt)
            for block in hand_stream.raw_blocks(source, chunk_bytes=chunk_bytes)
        )
        lines_before = 0
        for piece in _ordered(_rank_block, jobs, threads):
            if fmt is not None:
                out.write(piece.text)
                tally.hands += piece.hands
            else:
                assert piece.high is not None and piece.low8 is not None
                tally.add(piece.high, piece.low8)
            if piece.error is not None:
                raise _renumber(piece.error, lines_before)  # type: ignore[misc]
            tally.invalid += piece.invalid
            if tally.first_invalid is None:
                tally.first_invalid = _renumber(piece.first_invalid, lines_before)
            lines_before += piece.lines
            progress.update(piece.nbytes)
    except hand_stream.InvalidLineError as err:
        out.flush()
        return _error(str(err))
    finally:
        progress.close()
        if source is not sys.stdin.buffer:
            source.close()
    wall = time.perf_counter() - start
    if fmt is None:
        _summary(out, tally, wall, threads, random=False)
    out.flush()
    if tally.invalid:
        first = tally.first_invalid
        print(
            f"studeval: skipped {tally.invalid:,} invalid line"
            f"{'s' if tally.invalid > 1 else ''} (first: {first})",
            file=sys.stderr,
        )
    return 0


# ---------------------------------------------------------------------------
# showdown, bring-in, bench


def _house_rules(name: str) -> Any:
    from studeval.rules import HouseRules

    return HouseRules.wsop() if name == "wsop" else HouseRules.robert()


def _seat(text: str) -> str | None:
    return None if text.strip() in ("-", "") else text


def _showdown(args: argparse.Namespace) -> int:
    from studeval.showdown import award_pot, settle

    hands = [_seat(text) for text in args.hands]
    rules = _house_rules(args.rules)
    try:
        if args.pot is not None:
            result: object = award_pot(hands, args.pot, args.game, community=args.community,
                                       rules=rules)  # fmt: skip
        else:
            result = settle(hands, args.contributions, args.game, community=args.community,
                            rules=rules)  # fmt: skip
    except (StudevalError, ValueError, TypeError) as err:
        return _error(str(err))
    print(result)
    return 0


def _bring_in(args: argparse.Namespace) -> int:
    from studeval.rules import bring_in

    doors = [_seat(text) for text in args.cards]
    try:
        seat = bring_in(doors, args.game, rules=_house_rules(args.rules))
    except (StudevalError, ValueError, TypeError) as err:
        return _error(str(err))
    card = studeval.card_str(studeval.parse_card(str(doors[seat])))
    print(f"Seat {seat} brings in with {card}")
    return 0


def _bench(args: argparse.Namespace) -> int:
    from studeval import bench

    peers = None if args.peers is None else [p.strip() for p in args.peers.split(",") if p.strip()]

    def progress(text: str) -> None:
        print(f"  {text}", file=sys.stderr, flush=True)

    try:
        rows = bench.run_bench(
            args.hands,
            args.repeats,
            args.threads,
            peers=peers,
            include_import=not args.no_import,
            min_time=args.min_time,
            progress=progress,
        )
    except ValueError as err:
        return _error(str(err))
    print(bench.format_table(rows))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``studeval`` command with ``argv`` (default: ``sys.argv[1:]``).

    Returns the exit status instead of exiting, so it can be called in-process.

    >>> main(["showdown", "--game", "stud", "--pot", "10", "As Ah Kd Kc 7s 3d 2c", "-"])
    Pot of 10: Seat 0 wins 10 uncontested
    0
    """
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:
        # argparse exits for --help, --version (0) and usage errors (2).
        return exit_.code if isinstance(exit_.code, int) else 2
    status: int = args.run(args)
    return status
