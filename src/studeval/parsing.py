"""Card text to card arrays, chunk by chunk: the parsing half of the stream layer.

The command line ranks files of hands much faster than Python can split lines, so
this module hands whole chunks of bytes to the core's reader (``se_parse_lines``,
one pass, repeats caught as the cards are read): the layouts people write ("As Kd
7h 2c 3s 9d Th", "AsKd7h2c3s9dTh", commas, "10" for ten, suit symbols, any case,
CRLF line ends, 5 to 7 cards). Only the lines it leaves alone (other whitespace,
bad cards, wrong counts) go through :func:`studeval.parse_cards` one at a time,
which words the error. Bad lines are reported with their line number and text, bad items of a
list with their row. Random hands for tests and benchmarks come from here too.

>>> parse_lines("As Kd 7h 2c 3s 9d Th\\nAsKd7h2c3s9dTh\\n").tolist()
[[51, 45, 22, 0, 7, 29, 34], [51, 45, 22, 0, 7, 29, 34]]
>>> parse_lines("As Kd 7h 2c 3s 9d As")
Traceback (most recent call last):
...
studeval.errors.InvalidLineError: line 1: 'As Kd 7h 2c 3s 9d As': duplicate card As
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from dataclasses import dataclass
from typing import BinaryIO

import numpy as np

from studeval import _core
from studeval._cardtext import TEXT_OF_CODE
from studeval.cards import parse_cards
from studeval.errors import (
    BatchShapeError,
    DuplicateCardError,
    HandSizeError,
    InvalidCardError,
    InvalidLineError,
    OptionError,
    _clip,
)

__all__ = [
    "CHUNK_BYTES",
    "HandChunk",
    "iter_blocks",
    "iter_chunks",
    "parse_block",
    "parse_hands",
    "parse_lines",
    "parse_texts",
    "random_hands",
    "raw_blocks",
    "row_codes",
]

#: Bytes read per chunk: about 50,000 seven-card lines, enough that numpy's per-call
#: overhead vanishes, and few enough that each chunk's temporaries (a few MiB) stay
#: in cache and can be reused by the allocator for the next chunk.
CHUNK_BYTES = 1 << 20


_MIN_CARDS, _MAX_CARDS = 5, 7
_PAD = 255  # card slot of a hand shorter than the chunk's widest hand
_BOM = "\ufeff".encode()


@dataclass
class HandChunk:
    """The hands parsed from one chunk of lines.

    ``cards`` is uint8 (n, k) with k the most cards of any hand in the chunk;
    ``sizes`` is None when every hand has k cards, else each hand's size (its
    unused slots hold 255). ``lines`` gives each hand's 1-based line number, or is
    None when the hands are the consecutive lines from ``first_line``. Blank lines
    are not hands. ``invalid`` counts skipped bad lines and ``first_invalid`` is the
    first of them; ``nbytes`` is how much input the chunk consumed and ``nlines``
    how many lines it covered, blank and bad ones included.
    """

    cards: np.ndarray
    sizes: np.ndarray | None = None
    first_line: int = 1
    lines: np.ndarray | None = None
    invalid: int = 0
    first_invalid: InvalidLineError | None = None
    nbytes: int = 0
    nlines: int = 0

    def __len__(self) -> int:
        return len(self.cards)


def _line_text(raw: bytes) -> str:
    return raw.decode("utf-8", errors="replace").rstrip("\r")


def _parse_line(raw: bytes, line: int) -> list[int] | InvalidLineError | None:
    """Parse one odd line the slow way; None for a blank line."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return InvalidLineError(line, _line_text(raw), "not UTF-8 text")
    if not text.strip():
        return None
    try:
        codes = parse_cards(text)
    except InvalidCardError as err:
        # The card alone: the line is already in the message.
        card = _clip(err.card) if isinstance(err.card, str) else repr(err.card)
        return InvalidLineError(line, text.rstrip("\r"), f"invalid card {card}")
    if not _MIN_CARDS <= len(codes) <= _MAX_CARDS:
        why = f"{len(codes)} cards; a hand has {_MIN_CARDS} to {_MAX_CARDS}"
        return InvalidLineError(line, text.rstrip("\r"), why)
    if len(set(codes)) != len(codes):
        seen: set[int] = set()
        repeated = next(c for c in codes if c in seen or seen.add(c))  # type: ignore[func-returns-value]
        why = f"duplicate card {TEXT_OF_CODE[repeated]}"
        return InvalidLineError(line, text.rstrip("\r"), why)
    return codes


def row_codes(hand: object, row: int) -> list[int]:
    """One hand's codes, parsed alone; errors name the row (its index in a list).

    >>> row_codes("As Kd 7h 2c 3s", 4)
    [51, 45, 22, 0, 7]
    >>> row_codes("As Kd 7h 2c As", 4)
    Traceback (most recent call last):
    ...
    studeval.errors.DuplicateCardError: duplicate card As in row 4
    """
    if isinstance(hand, str) and not hand.strip():
        raise HandSizeError(0, "5 to 7 cards (a blank hand text)", row=row)
    if isinstance(hand, str) and ("\n" in hand or "\r" in hand):
        raise InvalidCardError(hand, row=row, detail="one hand per item; it holds a line break")
    try:
        codes = parse_cards(hand)  # type: ignore[arg-type]
    except InvalidCardError as err:
        raise InvalidCardError(err.card, row=row, detail=f"in {_clip(str(hand))}") from None
    if not _MIN_CARDS <= len(codes) <= _MAX_CARDS:
        raise HandSizeError(len(codes), f"5 to 7 cards: {hand!r}", row=row)
    seen: set[int] = set()
    for code in codes:
        if code in seen:
            raise DuplicateCardError(code, row=row)
        seen.add(code)
    return codes


def parse_texts(texts: list[str]) -> HandChunk:
    """Parse one hand text per item into a :class:`HandChunk` whose row i is item i.

    Hands may differ in size (``sizes`` says so). The texts go through the block
    parser at its speed; a text it rejects is parsed alone so that the error names
    its row. A blank text or one holding a line break is an error: either would
    shift every later row.

    >>> chunk = parse_texts(["As Kd 7h 2c 3s", "2c 3d 4h 5s 6c 7d"])
    >>> chunk.cards.tolist(), chunk.sizes.tolist()
    ([[51, 45, 22, 0, 7, 255], [0, 5, 10, 15, 16, 21]], [5, 6])
    >>> parse_texts(["As Kd 7h 2c 3s", ""])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    studeval.errors.HandSizeError: a hand of 0 cards in row 1; expected 5 to 7 cards (a blank...
    """

    joined = "\n".join(texts)
    if joined.count("\n") != len(texts) - 1 or "\r" in joined:
        # A line break inside an item would shift every later row: name it.
        for row, text in enumerate(texts):  # the first bad row, blank or broken
            if "\n" in text or "\r" in text or not text.strip():
                row_codes(text, row)
    try:
        chunk = parse_block(joined.encode())
    except InvalidLineError as err:
        row_codes(texts[err.line - 1], err.line - 1)
        raise  # the block parser and the row parser disagree: still an error
    if len(chunk) != len(texts):  # a blank item was skipped as a blank line
        for row, text in enumerate(texts):
            if not text.strip():
                row_codes(text, row)
        raise AssertionError(f"{len(texts)} texts gave {len(chunk)} hands and none is blank")
    return chunk


def parse_block(block: bytes, *, first_line: int = 1, skip_invalid: bool = False) -> HandChunk:
    """Parse whole lines of hand text (one hand per line) into a :class:`HandChunk`.

    ``block`` holds complete lines (a missing final newline is fine). A bad line
    raises :class:`InvalidLineError`, or with ``skip_invalid`` is counted and left
    out. Blank lines are skipped silently.

    >>> chunk = parse_block(b"AsKdQhJcTs\\n\\n2c 3c 4c 5c 6c 7c\\n", first_line=10)
    >>> chunk.cards.tolist(), chunk.sizes.tolist(), chunk.lines.tolist()
    ([[51, 45, 42, 36, 35, 255], [0, 4, 8, 12, 16, 20]], [5, 6], [10, 12])
    >>> parse_block(b"As Kd Qh\\n", first_line=7)
    Traceback (most recent call last):
    ...
    studeval.errors.InvalidLineError: line 7: 'As Kd Qh': 3 cards; a hand has 5 to 7
    """
    # One row per line at most (a blank line is one byte); the pages of rows never
    # written are never touched, so the room costs address space, not memory.
    room = len(block) + 1
    cards = np.empty((room, _core.PARSE_ROW), dtype=np.uint8)
    status = np.empty(room, dtype=np.uint8)
    nlines, counts = _core.parse_lines_into(block, cards, status)
    for size in range(_MIN_CARDS, _MAX_CARDS + 1):
        if counts[size] == nlines:  # the common case: every line a hand of one size
            # A copy, so that the chunk does not keep the whole room alive.
            return HandChunk(
                cards[:nlines, :size].copy(),
                first_line=first_line,
                nbytes=len(block),
                nlines=nlines,
            )
    cards, status = cards[:nlines], status[:nlines]
    invalid = 0
    first_invalid: InvalidLineError | None = None
    if counts[_core.LINE_OTHER]:
        # Lines the core's reader leaves alone (other spacing, bad or repeated cards,
        # wrong counts): read one at a time, with the whole grammar and its errors.
        original_lines = block.split(b"\n")
        for index in np.flatnonzero(status == _core.LINE_OTHER).tolist():
            parsed = _parse_line(original_lines[index], first_line + index)
            if isinstance(parsed, InvalidLineError):
                if not skip_invalid:
                    raise parsed
                invalid += 1
                first_invalid = first_invalid or parsed
            if parsed is None or isinstance(parsed, InvalidLineError):
                status[index] = _core.LINE_BLANK  # not a hand: left out below
                continue
            cards[index, : len(parsed)] = parsed
            cards[index, len(parsed) :] = _PAD
            status[index] = len(parsed)
    keep = np.flatnonzero(status)
    kept_sizes = status[keep]
    widest = int(kept_sizes.max()) if len(keep) else _MIN_CARDS
    all_same = bool((kept_sizes == widest).all())
    return HandChunk(
        np.ascontiguousarray(cards[keep, :widest]),
        sizes=None if all_same else kept_sizes,
        first_line=first_line,
        lines=None if len(keep) == nlines else keep + first_line,
        invalid=invalid,
        first_invalid=first_invalid,
        nbytes=len(block),
        nlines=nlines,
    )


def iter_blocks(stream: BinaryIO, *, chunk_bytes: int = CHUNK_BYTES) -> Iterator[tuple[bytes, int]]:
    """Read a binary stream in blocks of whole lines: yield (block, first line number).

    Each block holds about ``chunk_bytes`` (more when one line is longer); the last
    may lack its final newline. Line numbers are 1-based and run on across blocks.

    >>> import io
    >>> list(iter_blocks(io.BytesIO(b"a\\nb\\nc"), chunk_bytes=3))
    [(b'a\\n', 1), (b'b\\n', 2), (b'c', 3)]
    """
    first_line = 1
    for block in raw_blocks(stream, chunk_bytes=chunk_bytes):
        yield block, first_line
        first_line += block.count(b"\n")


def raw_blocks(stream: BinaryIO, *, chunk_bytes: int = CHUNK_BYTES) -> Iterator[bytes]:
    """Like :func:`iter_blocks` without the line numbers, which cost a pass over
    the bytes; a caller that learns each block's line count later (from
    :attr:`HandChunk.nlines`) numbers the lines itself.

    >>> import io
    >>> list(raw_blocks(io.BytesIO(b"a\\nb\\nc"), chunk_bytes=3))
    [b'a\\n', b'b\\n', b'c']
    """
    if chunk_bytes < 1:
        raise OptionError(f"chunk_bytes must be positive; got {chunk_bytes}")
    tail = b""
    first = True
    while True:
        data = stream.read(chunk_bytes)
        if not data:
            break
        if first:
            # A byte-order mark (editors on Windows write one) is not part of a hand.
            first = False
            if data.startswith(_BOM):
                data = data[len(_BOM) :]
            elif _BOM.startswith(data):  # a read too short to tell: read on
                data += stream.read(len(_BOM))
                data = data.removeprefix(_BOM)
                if not data:
                    continue
        block = tail + data if tail else data
        cut = block.rfind(b"\n") + 1
        if cut == 0:  # one line longer than a chunk: keep reading until it ends
            tail = block
            continue
        block, tail = block[:cut], block[cut:]
        yield block
    if tail:
        yield tail


def iter_chunks(
    stream: BinaryIO,
    *,
    chunk_bytes: int = CHUNK_BYTES,
    skip_invalid: bool = False,
) -> Iterator[HandChunk]:
    """Read a binary stream of hand lines and yield one :class:`HandChunk` per block.

    Each chunk holds about ``chunk_bytes`` of whole lines, so memory stays flat
    however long the stream is. Line numbers run on across chunks.

    >>> import io
    >>> chunks = iter_chunks(io.BytesIO(b"AsKdQhJcTs\\n" * 5), chunk_bytes=24)
    >>> [(len(c), c.first_line) for c in chunks]
    [(2, 1), (2, 3), (1, 5)]
    """
    for block, first_line in iter_blocks(stream, chunk_bytes=chunk_bytes):
        yield parse_block(block, first_line=first_line, skip_invalid=skip_invalid)


def parse_lines(text: str | bytes, *, skip_invalid: bool = False) -> np.ndarray:
    """Parse hands given one per line into a uint8 (N, k) array for the batch API.

    Every hand must have the same number of cards.

    >>> parse_lines(b"2c 3d 4h 5s 7c\\n10s Jh Qd Kc As").tolist()
    [[0, 5, 10, 15, 20], [35, 38, 41, 44, 51]]
    >>> parse_lines("2c 3d 4h 5s 7c\\n2c 3d 4h 5s 7c 8c")
    Traceback (most recent call last):
    ...
    studeval.errors.InvalidLineError: line 2: '2c 3d 4h 5s 7c 8c': 6 cards; line 1 has 5
    """
    data = text.encode() if isinstance(text, str) else bytes(text)
    parts = list(iter_chunks(io.BytesIO(data), skip_invalid=skip_invalid))
    parts = [chunk for chunk in parts if len(chunk)]
    if not parts:
        return np.empty((0, _MIN_CARDS), dtype=np.uint8)
    size = int(parts[0].cards.shape[1] if parts[0].sizes is None else parts[0].sizes[0])
    for chunk in parts:
        row_sizes = chunk.sizes
        if row_sizes is None:
            if chunk.cards.shape[1] == size:
                continue
            row_sizes = np.full(len(chunk), chunk.cards.shape[1])
        mismatched = np.flatnonzero(row_sizes != size)
        if not len(mismatched):
            continue
        row = int(mismatched[0])
        line = chunk.first_line + row if chunk.lines is None else int(chunk.lines[row])
        first = parts[0].first_line if parts[0].lines is None else int(parts[0].lines[0])
        why = f"{int(row_sizes[row])} cards; line {first} has {size}"
        raise InvalidLineError(line, _line_text(data.split(b"\n")[line - 1]), why)
    return np.concatenate([chunk.cards for chunk in parts])


def parse_hands(hands: object) -> np.ndarray:
    """Parse hands into a uint8 (N, k) array for the batch calls.

    ``hands`` is an iterable with one hand per item: a hand text (``"As Kd 7h 2c
    3s 9d Th"``, any card text :func:`studeval.parse_cards` reads) or a sequence
    of cards (codes, card strings, or card objects of other libraries whose
    ``str()`` or ``repr()`` is card text). One ``str`` or ``bytes`` is read as
    lines, one hand per line, blank lines skipped. Every hand must have the same
    number of cards, 5 to 7. Errors name the row (the item's index) or the line.

    Text items are joined and go through the core's reader of ``studeval rank``
    (about 0.1 us a hand, most of it joining the strings; many times a loop of
    :func:`studeval.parse_cards`), so a million strings parse in about a tenth of
    a second.

    >>> parse_hands(["As Kd 7h 2c 3s 9d Th", "AsKd7h2c3s9dTh"]).tolist()
    [[51, 45, 22, 0, 7, 29, 34], [51, 45, 22, 0, 7, 29, 34]]
    >>> parse_hands([[51, 47, 43, 39, 35], ("2c", "3d", "4h", "5s", "7c")]).shape
    (2, 5)
    >>> parse_hands(["As Kd 7h 2c 3s 9d Th", "As Kd 7h 2c 3s 9d As"])
    Traceback (most recent call last):
    ...
    studeval.errors.DuplicateCardError: duplicate card As in row 1
    """
    if isinstance(hands, (str, bytes, bytearray)):
        return parse_lines(hands if isinstance(hands, str) else bytes(hands))
    try:
        items = list(hands)  # type: ignore[call-overload]
    except TypeError:
        raise BatchShapeError(None) from None
    if not items:
        return np.empty((0, 5), dtype=np.uint8)
    if all(type(item) is str for item in items):
        chunk = parse_texts(items)
        if chunk.sizes is not None:
            size = int(chunk.sizes[0])
            row = int(np.flatnonzero(chunk.sizes != size)[0])
            raise HandSizeError(int(chunk.sizes[row]), f"{size} cards like row 0", row=row)
        cards = chunk.cards
    else:
        rows = [row_codes(item, row) for row, item in enumerate(items)]
        size = len(rows[0])
        for row, codes in enumerate(rows):
            if len(codes) != size:
                raise HandSizeError(len(codes), f"{size} cards like row 0", row=row)
        cards = np.array(rows, dtype=np.uint8)
    return cards


def random_hands(
    count: int, size: int = 7, *, seed: int | np.random.Generator | None = None
) -> np.ndarray:
    """Return ``count`` uniformly random hands of ``size`` distinct cards, uint8 (count, size).

    Floyd's subset sampling in the C core: for j = 52 - size .. 51 draw t in 0..j and
    take t, or j when t is already in the hand. Every set of cards is equally likely;
    the same seed (an int, or a numpy Generator to draw one from) gives the same hands
    on every machine.

    >>> hands = random_hands(3, seed=1)
    >>> hands.shape, hands.dtype.name, all(len(set(h)) == 7 for h in hands.tolist())
    ((3, 7), 'uint8', True)
    """
    if not 1 <= size <= 52:
        raise OptionError(f"size must be 1..52; got {size}")
    if count < 0:
        raise OptionError(f"count must be >= 0; got {count}")
    if isinstance(seed, np.random.Generator):
        seed64 = int(seed.integers(0, 2**63, dtype=np.int64))
    else:
        # Any int (or None: fresh entropy) through numpy's seed mixing, to 64 bits.
        seed64 = int(np.random.SeedSequence(seed).generate_state(1, dtype=np.uint64)[0])
    hands = np.empty((count, size), dtype=np.uint8)
    _core.random_hands_into(hands, seed64)
    return hands
