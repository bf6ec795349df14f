"""The core's reader of hand text (se_parse_lines) against parse_cards, line by line.

The reference is the pure-Python grammar of :func:`studeval.parse_cards` (a
regular expression over whitespace- and comma-split tokens) with the stream's
rules on top: 5 to 7 distinct cards, a line of nothing but whitespace is blank.
The core may leave a line to the caller (SE_LINE_OTHER), but only one that the
reference rejects or one holding a byte outside the core's own alphabet; a line
it reads must read exactly as the reference reads it.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from studeval import _core
from studeval._cardtext import TEXT_OF_CODE
from studeval.cards import parse_cards
from studeval.errors import BatchOutputError, BatchShapeError, InvalidCardError

OTHER = _core.LINE_OTHER
BLANK = 0

# Every byte the core reads itself: card letters and digits, the suit letters,
# ASCII whitespace and the comma. Suit symbols are three bytes (E2 99 A0..A7).
_CORE_BYTES = set(b"23456789TtJjQqKkAa10cCdDhHsS,\t\v\f\r \x1c\x1d\x1e\x1f")
_SYMBOL = re.compile(rb"\xe2\x99[\xa0-\xa7]")


def reference(line: bytes) -> tuple[int, list[int]]:
    """(status, codes) of one line (no newline) by the pure-Python grammar."""
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError:
        return OTHER, []
    if not text.strip():
        return BLANK, []
    try:
        codes = parse_cards(text)
    except InvalidCardError:
        return OTHER, []
    if not 5 <= len(codes) <= 7 or len(set(codes)) != len(codes):
        return OTHER, []
    return len(codes), codes


def in_core_alphabet(line: bytes) -> bool:
    return set(_SYMBOL.sub(b"", line)) <= _CORE_BYTES


def parse(text: bytes) -> tuple[int, tuple[int, ...], np.ndarray, np.ndarray]:
    room = len(text) + 1
    cards = np.empty((room, _core.PARSE_ROW), dtype=np.uint8)
    status = np.empty(room, dtype=np.uint8)
    lines, counts = _core.parse_lines_into(text, cards, status)
    return lines, counts, cards[:lines], status[:lines]


def check_block(text: bytes) -> dict[int, int]:
    """Parse a block and compare every line with the reference; return the statuses seen."""
    lines, counts, cards, status = parse(text)
    parts = text.split(b"\n")
    if parts and parts[-1] == b"":
        parts.pop()  # nothing after the last newline is a line
    assert lines == len(parts)
    assert sum(counts) == lines
    assert counts == tuple(np.bincount(status, minlength=OTHER + 1).tolist())
    seen: dict[int, int] = {}
    for index, line in enumerate(parts):
        got = int(status[index])
        want, codes = reference(line)
        seen[got] = seen.get(got, 0) + 1
        if got == OTHER:
            # Left to the caller: the reference rejects it, or the core cannot read it.
            assert want == OTHER or not in_core_alphabet(line), (line, want, codes)
            continue
        assert got == want, (line, got, want)
        if got:
            assert cards[index, :got].tolist() == codes, line
            assert (cards[index, got:] == 255).all(), line
    return seen


# Pieces lines are made of: cards in every spelling, separators of each kind,
# bytes the core does not read (other whitespace, other letters, bad UTF-8), and
# fragments of cards ("1", a rank alone, half a symbol).
_CARD_TEXTS = [
    *TEXT_OF_CODE,
    *(t.lower() for t in TEXT_OF_CODE[:12]),
    "10s", "10H", "Td", "tC",
    "A\u2660", "k\u2665", "2\u2666", "Q\u2663", "J\u2664", "9\u2661", "5\u2662", "3\u2667",
]  # fmt: skip
_JUNK = [" ", "  ", "\t", ",", ", ", "\r", "\x1c", "\u00a0", "\u2003", "\x00", "x", "1", "0",
         "A", "s", "\u2660", "\xe9", ";", "[", "\u2668"]  # fmt: skip

pieces = st.one_of(
    st.sampled_from(_CARD_TEXTS).map(str.encode),
    st.sampled_from(_JUNK).map(str.encode),
    st.binary(min_size=1, max_size=2),
)
line_strategy = st.one_of(
    # A hand as people write it: cards with one separator, or none.
    st.tuples(
        st.lists(st.sampled_from(_CARD_TEXTS), min_size=4, max_size=8),
        st.sampled_from(["", " ", ",", "\t", ", "]),
        st.sampled_from(["", "\r", " ", ","]),
    ).map(lambda t: (t[1].join(t[0]) + t[2]).encode()),
    # Anything from the pieces.
    st.lists(pieces, max_size=12).map(b"".join).map(lambda b: b.replace(b"\n", b"")),
)


@settings(max_examples=400, deadline=None)
@given(lines=st.lists(line_strategy, min_size=1, max_size=30), final_newline=st.booleans())
def test_core_reader_agrees_with_parse_cards(lines: list[bytes], final_newline: bool) -> None:
    text = b"\n".join(lines) + (b"\n" if final_newline else b"")
    check_block(text)


def test_a_seeded_corpus_reaches_every_status() -> None:
    """The same comparison on 20,000 generated lines, counting what was reached, so
    that the test cannot pass by never seeing a hand (or never a refusal)."""
    rng = np.random.default_rng(7)
    lines = []
    for _ in range(20_000):
        kind = rng.integers(0, 10)
        size = int(rng.integers(4, 9))
        codes = rng.choice(52, size=size, replace=bool(rng.integers(0, 8) == 0))
        texts = [_CARD_TEXTS[c] if rng.integers(0, 4) else TEXT_OF_CODE[c] for c in codes]
        if kind == 0:
            lines.append(b" \t" if rng.integers(0, 2) else b"")
        elif kind == 1:
            text = " ".join(texts)
            at = int(rng.integers(0, len(text)))
            lines.append((text[:at] + _JUNK[int(rng.integers(0, len(_JUNK)))] + text[at:]).encode())
        else:
            sep = [" ", "", ",", "\t"][int(rng.integers(0, 4))]
            lines.append(sep.join(texts).encode())
    seen = check_block(b"\n".join(lines) + b"\n")
    assert {BLANK, 5, 6, 7, OTHER} <= set(seen), seen
    assert seen[7] > 1000 and seen[OTHER] > 1000, seen


def test_quick_and_full_reader_on_the_last_lines() -> None:
    # The quick reader needs 32 bytes ahead; the last lines of a block, and a last
    # line without its newline, go through the full reader and read the same.
    line = b"As Kd 7h 2c 3s 9d Th"
    for tail in (b"", b"\n"):
        lines, counts, cards, _ = parse(b"\n".join([line] * 5) + tail)
        assert lines == 5 and counts[7] == 5
        assert (cards == cards[0]).all() and cards[0].tolist() == [51, 45, 22, 0, 7, 29, 34]


def test_a_repeat_in_the_quick_layouts_is_left_to_the_caller() -> None:
    for text in (b"As Kd 7h 2c 3s 9d As\n", b"AsKd7h2c3s9dAs\n", b"As Kd 7h 2c As\n"):
        _, _, _, status = parse(text * 3)
        assert status.tolist() == [OTHER] * 3


def test_room_shape_and_overlap_are_checked() -> None:
    text = b"As Kd 7h 2c 3s\n" * 4
    cards = np.empty((3, 7), dtype=np.uint8)
    with pytest.raises(BatchOutputError, match="room for 3 lines"):
        _core.parse_lines_into(text, cards, np.empty(3, dtype=np.uint8))
    with pytest.raises(BatchShapeError):
        _core.parse_lines_into(text, np.empty((9, 6), dtype=np.uint8), np.empty(9, np.uint8))
    with pytest.raises(BatchShapeError):
        _core.parse_lines_into(text, np.empty((9, 7), dtype=np.uint8), np.empty(9, np.uint16))
    shared = np.empty(9 * 7 + 9, dtype=np.uint8)
    with pytest.raises(BatchOutputError, match="share memory"):
        _core.parse_lines_into(text, shared[: 9 * 7].reshape(9, 7), shared[9 * 7 - 1 : -1])
    writable = bytearray(text) + bytes(200)
    view = np.frombuffer(writable, dtype=np.uint8)
    with pytest.raises(BatchOutputError, match="share memory"):
        _core.parse_lines_into(
            memoryview(writable)[:60], view[:63].reshape(9, 7), np.empty(9, np.uint8)
        )
    assert _core.parse_lines_into(b"", cards, np.empty(3, dtype=np.uint8)) == (0, (0,) * 9)
