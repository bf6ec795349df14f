"""The streaming pipeline behind ``studeval rank``: chunks in, ranks and text out.

A file (or stdin) is read in blocks of whole lines; worker threads parse, rank
and format the blocks in parallel (numpy and the C core release the GIL) and the
results are written in input order, so memory stays flat on input of any size.
Random hands are generated chunk by chunk from one seed. The summary sets the
category histogram beside the exact seven-card odds.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from math import comb
from typing import Any, BinaryIO

import numpy as np

from studeval import stream as hand_stream
from studeval.batch import NO_LOW, all_ranks
from studeval.classes import HIGH_CATEGORIES
from studeval.cli._console import Output, Progress
from studeval.errors import _SHOWN, InvalidLineError

__all__ = [
    "SEVEN_CARD_COUNTS",
    "SEVEN_CARD_HANDS",
    "RankJob",
    "hands",
    "low8_hand_count",
    "rank_random",
    "rank_stream",
]

# The textbook counts of the nine high categories over all C(52, 7) = 133,784,560
# seven-card hands, best first (they are reference data, checked exhaustively by the
# core's tests, not results of this command).
SEVEN_CARD_COUNTS = (41_584, 224_848, 3_473_184, 4_047_644, 6_180_020, 6_461_620,
                     31_433_400, 58_627_800, 23_294_460)  # fmt: skip
SEVEN_CARD_HANDS = comb(52, 7)

#: Bytes of input per hand when sizing a block from a chunk size in hands: a
#: seven-card line written with spaces is 21 bytes.
BYTES_PER_LINE = 21


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


@dataclass(frozen=True)
class RankJob:
    """What ``studeval rank`` was asked to do.

    ``fmt`` is the row format, or None for the summary only; ``chunk`` is hands
    per chunk; ``count`` and ``seed`` are for random hands.
    """

    fmt: str | None
    threads: int
    chunk: int
    skip_invalid: bool = False
    count: int = 0
    seed: int | None = None


@dataclass
class _Tally:
    """What the summary reports, added up over chunks."""

    hands: int = 0
    categories: np.ndarray = field(default_factory=lambda: np.zeros(9, dtype=np.int64))
    low8: int = 0
    rank_seconds: float = 0.0
    invalid: int = 0
    first_invalid: InvalidLineError | None = None

    def add(self, high: np.ndarray, low8: np.ndarray) -> None:
        self.hands += len(high)
        self.categories += np.bincount(hand_stream.category_index(high), minlength=9)
        self.low8 += int(np.count_nonzero(low8 != NO_LOW))


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
    first_invalid: InvalidLineError | None
    error: InvalidLineError | None
    nbytes: int


def _rank_block(block: bytes, skip: bool, fmt: str | None) -> _Piece:
    try:
        chunk = hand_stream.parse_block(block, skip_invalid=skip)
    except InvalidLineError as err:
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


#: The longest line read in full: a hand of 7 cards is about 20 bytes, 40 with suit
#: symbols. A longer line is refused once this much of it is read (the rest is never
#: held), so one runaway line of megabytes costs no memory.
MAX_LINE_BYTES = 1000


def _renumber(err: InvalidLineError | None, before: int) -> InvalidLineError | None:
    if err is None:
        return None
    return InvalidLineError(err.line + before, err.text, err.reason)  # its token cut already


class _LineGuard:
    """A binary stream that hands on whole lines only, and refuses a line longer
    than :data:`MAX_LINE_BYTES` without reading the rest of it into memory.

    Refused, the line is left out: with ``skip`` it is counted (``invalid``,
    ``first_invalid``) and its place kept by an empty line, so that later lines keep
    their numbers; without, reading ends there and ``error`` holds it, to be raised
    once every line before it has been written.
    """

    def __init__(self, raw: BinaryIO, skip: bool) -> None:
        self.raw = raw
        self.skip = skip
        self.held = b""  # the start of a line not yet ended
        self.lines = 0  # newlines handed on so far, counted when skipping (else unused)
        self.dropping = False  # inside a refused line, dropping its bytes
        self.ended = False
        self.invalid = 0
        self.first_invalid: InvalidLineError | None = None
        self.error: InvalidLineError | None = None

    def read(self, size: int) -> bytes:
        while not self.ended:
            data = self.raw.read(size)
            if not data:
                self.ended = True
                out, self.held = self.held, b""
                return out
            cut = data.rfind(b"\n") + 1
            if self.dropping:
                if not cut:
                    continue
                self.dropping = False
                start = data.index(b"\n")  # the refused line's end: kept, empty
                out, self.held = data[start:cut], data[cut:]
            elif cut:
                # One copy: the start of the line held, and the whole lines after it.
                out = b"".join((self.held, memoryview(data)[:cut])) if self.held else data[:cut]
                self.held = data[cut:]
            else:
                self.held += data
                if len(self.held) > MAX_LINE_BYTES:
                    self._refuse()
                    if self.error is not None:
                        return b""
                continue
            if self.skip:
                self.lines += out.count(b"\n")
            return out
        return b""

    def _refuse(self) -> None:
        text = self.held[:_SHOWN].decode("utf-8", errors="replace")  # as a bad line is shown
        why = f"more than {MAX_LINE_BYTES:,} bytes, read no further; a hand has 5 to 7 cards"
        # Not skipping, the reader numbers the line: one after all it ranked.
        err = InvalidLineError(self.lines + 1 if self.skip else 0, text, why)
        self.held = b""
        if not self.skip:
            self.error, self.ended = err, True
            return
        self.invalid += 1
        self.first_invalid = self.first_invalid or err
        self.dropping = True


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


def _random_chunks(count: int, seed: int | None, chunk: int) -> Iterator[tuple[int, Any]]:
    # One child seed per chunk: the hands depend on the seed and the chunk size,
    # not on how many threads run.
    seeds = np.random.SeedSequence(seed)
    done = 0
    while done < count:
        size = min(chunk, count - done)
        (child,) = seeds.spawn(1)
        yield size, child
        done += size


def hands(count: int, noun: str = "hand") -> str:
    """A count of hands in words, singular for one.

    >>> hands(1), hands(2_000, "random 7-card hand")
    ('1 hand', '2,000 random 7-card hands')
    """
    return f"{count:,} {noun}{'' if count == 1 else 's'}"


def _rate(per_second: float) -> str:
    """A rate in words that stays readable from a handful of hands to billions.

    >>> _rate(45.2e6), _rate(12_345.0), _rate(87.0), _rate(float("inf"))
    ('45.2 million hands/s', '12.3 thousand hands/s', '87 hands/s', 'too fast to time')
    """
    if per_second == float("inf"):
        return "too fast to time"
    if per_second >= 1e6:
        return f"{per_second / 1e6:,.1f} million hands/s"
    if per_second >= 1e3:
        return f"{per_second / 1e3:,.1f} thousand hands/s"
    return f"{per_second:,.0f} hands/s"


def _summary(out: Output, tally: _Tally, wall: float, threads: int, random: bool) -> None:
    rate = tally.hands / tally.rank_seconds if tally.rank_seconds > 0 else float("inf")
    end_to_end = tally.hands / wall if wall > 0 else float("inf")
    plural = "s" if threads > 1 else ""
    if random:
        out.line(f"ranked {hands(tally.hands, 'random 7-card hand')} in {wall:.3f} s")
        out.line(
            f"ranking: {_rate(rate)} ({threads} thread{plural}; "
            "high, A-5 low and 8-or-better in one pass)"
        )
        out.line(f"end to end with generation: {_rate(end_to_end)}")
    else:
        out.line(f"ranked {hands(tally.hands)} in {wall:.3f} s")
        out.line(
            f"end to end: {_rate(end_to_end)} (read, parse and rank; {threads} thread{plural})"
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
    low_line = f"8-or-better low: {hands(tally.low8)} ({100 * tally.low8 / total:.3f}%"
    if random:
        low_line += f"; exact {100 * low8_hand_count(7) / SEVEN_CARD_HANDS:.3f}%"
    out.line(low_line + ")")


def rank_random(job: RankJob, out: Output) -> None:
    """Rank ``job.count`` random 7-card hands: rows in ``job.fmt``, or the summary."""
    tally = _Tally()
    progress = Progress(job.count, "hands")
    start = time.perf_counter()
    try:
        if job.fmt is not None:
            out.write(hand_stream.format_header(job.fmt))
        for size, child in _random_chunks(job.count, job.seed, min(job.chunk, job.count)):
            cards = hand_stream.random_hands(size, seed=np.random.default_rng(child))
            began = time.perf_counter()
            ranks = all_ranks(cards, threads=job.threads, check=False)
            tally.rank_seconds += time.perf_counter() - began
            tally.add(ranks.high, ranks.low8)
            if job.fmt is not None:
                out.write(hand_stream.format_rows(cards, ranks.high, ranks.low, job.fmt))
            progress.update(size)
    finally:
        progress.close()
    if job.fmt is None:
        _summary(out, tally, time.perf_counter() - start, job.threads, random=True)
    out.flush()


def rank_stream(job: RankJob, source: BinaryIO, size: int | None, out: Output) -> _Tally:
    """Rank the hands read from ``source`` (``size`` bytes, if known).

    Returns the tally, whose ``invalid`` and ``first_invalid`` report skipped
    lines. A bad line without ``skip_invalid`` raises :class:`InvalidLineError`
    after every line before it was written.
    """
    tally = _Tally()
    progress = Progress(size, "B")
    start = time.perf_counter()
    # The header goes out with the first ranked hand: input with no hand, or a bad
    # first line, writes nothing to the output.
    header_due = job.fmt is not None
    try:
        guard = _LineGuard(source, job.skip_invalid)
        blocks = hand_stream.raw_blocks(guard, chunk_bytes=job.chunk * BYTES_PER_LINE)  # type: ignore[arg-type]
        jobs = ((block, job.skip_invalid, job.fmt) for block in blocks)
        lines_before = 0
        for piece in _ordered(_rank_block, jobs, job.threads):
            if header_due and piece.hands:
                out.write(hand_stream.format_header(job.fmt))  # type: ignore[arg-type]
                header_due = False
            if job.fmt is not None:
                out.write(piece.text)
                tally.hands += piece.hands
            else:
                assert piece.high is not None and piece.low8 is not None
                tally.add(piece.high, piece.low8)
            if piece.error is not None:
                out.flush()
                raise _renumber(piece.error, lines_before)  # type: ignore[misc]
            tally.invalid += piece.invalid
            if tally.first_invalid is None:
                tally.first_invalid = _renumber(piece.first_invalid, lines_before)
            lines_before += piece.lines
            progress.update(piece.nbytes)
        if guard.error is not None:
            out.flush()
            raise _renumber(guard.error, lines_before + 1)  # type: ignore[misc]
        tally.invalid += guard.invalid
        if guard.first_invalid is not None and (
            tally.first_invalid is None or guard.first_invalid.line < tally.first_invalid.line
        ):
            tally.first_invalid = guard.first_invalid
    finally:
        progress.close()
    if job.fmt is None and tally.hands:
        _summary(out, tally, time.perf_counter() - start, job.threads, random=False)
    out.flush()
    return tally
