"""studeval.stream: bulk parsing of hand lines, chunked reading, formatting, random hands."""

from __future__ import annotations

import csv
import io
import json

import numpy as np
import pytest
from helpers import HIGH_CATEGORIES
from hypothesis import given, settings
from hypothesis import strategies as st

import studeval
from studeval.parsing import parse_lines
from studeval.stream import (
    InvalidLineError,
    category_index,
    format_header,
    format_rows,
    iter_blocks,
    iter_chunks,
    parse_block,
    random_hands,
    rank_chunk,
)

SYMBOLS = "\u2663\u2666\u2665\u2660"


def card_text(code: int, style: str) -> str:
    rank, suit = divmod(code, 4)
    rank_text = "10" if style == "ten" and rank == 8 else "23456789TJQKA"[rank]
    suit_text = SYMBOLS[suit] if style == "symbol" else "cdhs"[suit]
    return (rank_text + suit_text).lower() if style == "lower" else rank_text + suit_text


def hand_text(codes: list[int], style: str) -> str:
    """A hand written in one of the layouts people use."""
    if style == "concat":
        return "".join(card_text(c, "plain") for c in codes)
    if style == "comma":
        return ",".join(card_text(c, "plain") for c in codes)
    if style == "spaces":  # irregular spacing: the per-line fallback
        return "  " + "   ".join(card_text(c, "plain") for c in codes) + " "
    return " ".join(card_text(c, style) for c in codes)


STYLES = ["plain", "concat", "comma", "spaces", "ten", "symbol", "lower"]

hands_strategy = st.lists(
    st.tuples(
        st.lists(st.integers(0, 51), min_size=5, max_size=7, unique=True),
        st.sampled_from(STYLES),
    ),
    min_size=1,
    max_size=40,
)


@settings(max_examples=150, deadline=None)
@given(hands=hands_strategy, crlf=st.booleans(), blank_every=st.integers(0, 5))
def test_parse_block_matches_parse_cards(hands, crlf, blank_every):
    lines = []
    expected_lines = []
    for i, (codes, style) in enumerate(hands):
        if blank_every and i % blank_every == 0:
            lines.append("")
        lines.append(hand_text(codes, style))
        expected_lines.append(len(lines))
        assert studeval.parse_cards(lines[-1]) == codes  # the test's own renderer is right
    text = ("\r\n" if crlf else "\n").join(lines) + "\n"
    chunk = parse_block(text.encode(), first_line=1)
    assert len(chunk) == len(hands)
    sizes = [len(codes) for codes, _ in hands]
    got_sizes = [chunk.cards.shape[1]] * len(chunk) if chunk.sizes is None else chunk.sizes
    assert list(got_sizes) == sizes
    for row, (codes, _) in enumerate(hands):
        assert chunk.cards[row, : len(codes)].tolist() == codes
    lines_of_hands = list(range(1, len(hands) + 1)) if chunk.lines is None else chunk.lines.tolist()
    assert lines_of_hands == expected_lines


@pytest.mark.parametrize("style", ["plain", "concat", "lower", "ten", "symbol", "comma"])
def test_uniform_block_of_each_layout(style):
    hands = random_hands(500, seed=3)
    text = "".join(hand_text(h, style) + "\n" for h in hands.tolist())
    chunk = parse_block(text.encode())
    assert chunk.sizes is None and chunk.lines is None
    np.testing.assert_array_equal(chunk.cards, hands)


def test_fourteen_byte_lines_of_both_layouts():
    # 14 bytes: five spaced cards or seven concatenated ones, in one block.
    five = random_hands(50, size=5, seed=1)
    seven = random_hands(50, size=7, seed=2)
    lines = []
    for a, b in zip(five.tolist(), seven.tolist(), strict=True):
        lines += [hand_text(a, "plain"), hand_text(b, "concat")]
    assert {len(line) for line in lines} == {14}
    chunk = parse_block(("\n".join(lines) + "\n").encode())
    assert chunk.sizes is not None
    assert chunk.sizes.tolist() == [5, 7] * 50
    np.testing.assert_array_equal(chunk.cards[0::2, :5], five)
    np.testing.assert_array_equal(chunk.cards[1::2], seven)
    assert (chunk.cards[0::2, 5:] == 255).all()


BAD_LINES = [
    ("As Kd 7h 2c 3s 9d Xh", "invalid card"),
    ("As Kd 7h 2c 3s 9d As", "duplicate card As"),
    ("AsKd7h2c3s9dAs", "duplicate card As"),
    ("As Kd 7h 2c", "4 cards; a hand has 5 to 7"),
    ("As Kd 7h 2c 3s 9d Th 4c", "8 cards"),
    ("As Kd 7h 2c 3s 9d T", "invalid card"),
    ("As;Kd;7h;2c;3s;9d;Th", "invalid card"),
]


@pytest.mark.parametrize(("bad", "reason"), BAD_LINES)
@pytest.mark.parametrize("where", [0, 1, 149])
def test_bad_line_names_line_and_text(bad, reason, where):
    good = [hand_text(h, "plain") for h in random_hands(150, seed=5).tolist()]
    good[where] = bad
    text = "\n".join(good) + "\n"
    with pytest.raises(InvalidLineError) as info:
        parse_block(text.encode(), first_line=41)
    err = info.value
    assert err.line == 41 + where
    assert err.text == bad
    assert reason in str(err)
    assert f"line {41 + where}: {bad!r}" in str(err)
    assert isinstance(err, ValueError) and isinstance(err, studeval.StudevalError)


def test_skip_invalid_counts_and_keeps_line_numbers():
    hands = random_hands(20, seed=9).tolist()
    lines = [hand_text(h, "plain") for h in hands]
    lines[3] = "As As Kd Qh Jc"
    lines[10] = "garbage"
    chunk = parse_block(("\n".join(lines) + "\n").encode(), skip_invalid=True)
    assert chunk.invalid == 2
    assert chunk.first_invalid is not None and chunk.first_invalid.line == 4
    assert len(chunk) == 18
    assert chunk.lines is not None
    assert chunk.lines.tolist() == [n for n in range(1, 21) if n not in (4, 11)]
    np.testing.assert_array_equal(chunk.cards, np.delete(np.array(hands), [3, 10], axis=0))


def test_not_utf8_is_a_bad_line():
    with pytest.raises(InvalidLineError, match="not UTF-8"):
        parse_block(b"As Kd 7h 2c 3s 9d Th\n\xff\xfe\n")


def test_empty_and_blank_blocks():
    assert len(parse_block(b"")) == 0
    chunk = parse_block(b"\n\n  \n")
    assert len(chunk) == 0 and chunk.invalid == 0
    assert parse_lines("").shape == (0, 5)


def test_iter_blocks_keeps_lines_whole():
    data = b"".join(f"line{i}\n".encode() for i in range(100)) + b"tail-without-newline"
    blocks = list(iter_blocks(io.BytesIO(data), chunk_bytes=17))
    assert b"".join(block for block, _ in blocks) == data
    for block, first in blocks:
        assert block.endswith(b"\n") or block.endswith(b"newline")
        assert block.split(b"\n")[0] == (
            f"line{first - 1}".encode() if first <= 100 else b"tail-without-newline"
        )


def test_iter_blocks_line_longer_than_chunk():
    data = b"x" * 100 + b"\nshort\n"
    assert list(iter_blocks(io.BytesIO(data), chunk_bytes=8)) == [
        (b"x" * 100 + b"\n", 1),
        (b"short\n", 2),
    ]
    with pytest.raises(ValueError, match="positive"):
        list(iter_blocks(io.BytesIO(data), chunk_bytes=0))


def test_iter_chunks_line_numbers_across_chunks():
    lines = [hand_text(h, "plain") for h in random_hands(1000, seed=11).tolist()]
    lines[777] = "As Kd"
    data = ("\n".join(lines) + "\n").encode()
    with pytest.raises(InvalidLineError) as info:
        for _ in iter_chunks(io.BytesIO(data), chunk_bytes=300):
            pass
    assert info.value.line == 778
    chunks = list(iter_chunks(io.BytesIO(data), chunk_bytes=300, skip_invalid=True))
    assert sum(len(c) for c in chunks) == 999
    assert sum(c.invalid for c in chunks) == 1
    assert len(chunks) > 10


def test_parse_lines():
    hands = random_hands(30, size=6, seed=2)
    text = "\n".join(hand_text(h, "concat") for h in hands.tolist())
    np.testing.assert_array_equal(parse_lines(text), hands)
    np.testing.assert_array_equal(parse_lines(text.encode()), hands)
    with pytest.raises(InvalidLineError, match=r"line 3: .*5 cards; line 1 has 6"):
        parse_lines(text.split("\n")[0] + "\n" + text.split("\n")[1] + "\n2c 3c 4c 5c 6c\n")


def test_random_hands_distinct_uniform_and_seeded():
    hands = random_hands(100_000, seed=42)
    assert hands.shape == (100_000, 7) and hands.dtype == np.uint8
    assert hands.max() <= 51
    sorted_rows = np.sort(hands, axis=1)
    assert (np.diff(sorted_rows.astype(int), axis=1) > 0).all()
    # Each card appears in 7/52 of hands; 5 standard deviations of slack.
    counts = np.bincount(hands.ravel(), minlength=52)
    expected = 100_000 * 7 / 52
    assert np.abs(counts - expected).max() < 5 * np.sqrt(expected)
    # Every column is used by every card too (Floyd's method must not bias slots
    # in a way that matters for ranking: checked above); same seed, same hands.
    np.testing.assert_array_equal(random_hands(1000, seed=1), random_hands(1000, seed=1))
    assert not np.array_equal(random_hands(1000, seed=1), random_hands(1000, seed=2))
    assert random_hands(0).shape == (0, 7)
    assert random_hands(10, size=52, seed=0).shape == (10, 52)
    with pytest.raises(ValueError, match="size"):
        random_hands(3, size=53)
    with pytest.raises(ValueError, match="count"):
        random_hands(-1)


def test_random_hands_pair_frequencies_are_uniform():
    # Uniform subsets: every pair of cards is held together equally often.
    hands = random_hands(60_000, size=5, seed=7)
    together = np.zeros((52, 52), dtype=np.int64)
    for i in range(5):
        for j in range(i + 1, 5):
            np.add.at(together, (hands[:, i], hands[:, j]), 1)
    together = together + together.T
    pairs = together[np.triu_indices(52, 1)]
    expected = 60_000 * 10 / (52 * 51 / 2)
    assert pairs.sum() == 60_000 * 10  # bookkeeping: 10 pairs a hand
    # Chi-square against equal frequencies, for the pairs and for each card alone:
    # a sampler that favours some cards or some pairs fails (6 sigma of the
    # statistic, whose mean is its degrees of freedom and variance twice that).
    chi_pairs = float(((pairs - expected) ** 2 / expected).sum())
    assert chi_pairs < 1325 + 6 * np.sqrt(2 * 1325), chi_pairs
    cards = np.bincount(hands.ravel(), minlength=52)
    card_expected = 60_000 * 5 / 52
    chi_cards = float(((cards - card_expected) ** 2 / card_expected).sum())
    assert chi_cards < 51 + 6 * np.sqrt(2 * 51), chi_cards
    # And every column holds distinct cards of the whole deck.
    assert len(np.unique(hands)) == 52
    assert all(len(set(row)) == 5 for row in hands[:1000].tolist())


def test_rank_chunk_mixed_sizes_matches_single_calls():
    lines = []
    for size in (5, 6, 7):
        lines += [hand_text(h, "plain") for h in random_hands(40, size=size, seed=size).tolist()]
    rng = np.random.default_rng(0)
    rng.shuffle(lines)
    chunk = parse_block(("\n".join(lines) + "\n").encode())
    high, low, low8 = rank_chunk(chunk, threads=1)
    for i, line in enumerate(lines):
        assert high[i] == studeval.high_rank(line)
        assert low[i] == studeval.low_rank(line)
        expected = studeval.low8_rank(line)
        assert low8[i] == (studeval.NO_LOW if expected is None else expected)


def test_category_index_matches_high_category():
    ranks = np.arange(1, 7463, dtype=np.uint16)
    names = [category.name for category in HIGH_CATEGORIES]
    got = category_index(ranks)
    assert [names[i] for i in got.tolist()] == [studeval.high_category(r) for r in range(1, 7463)]


def reference_rows(lines):
    rows = []
    for line in lines:
        codes = studeval.parse_cards(line)
        high = studeval.high_rank(codes)
        low8 = studeval.low8_rank(codes)
        rows.append(
            {
                "cards": studeval.cards_str(codes),
                "high": high,
                "category": studeval.high_category(high),
                "low": studeval.low_rank(codes),
                "low8": low8,
            }
        )
    return rows


@pytest.fixture(scope="module")
def mixed_lines():
    lines = []
    for size in (7, 5, 6):
        lines += [hand_text(h, "plain") for h in random_hands(60, size=size, seed=size).tolist()]
    lines += ["Ac 2d 3h 4s 5c Kd Kh", "As Ks Qs Js Ts 9s 8s", "7c 5d 4h 3s 2c"]
    return lines


def formatted(lines, fmt):
    chunk = parse_block(("\n".join(lines) + "\n").encode())
    high, low, _ = rank_chunk(chunk)
    return (format_header(fmt) + format_rows(chunk.cards, high, low, fmt)).decode()


def test_format_csv(mixed_lines):
    rows = list(csv.DictReader(io.StringIO(formatted(mixed_lines, "csv"))))
    assert len(rows) == len(mixed_lines)
    for got, want in zip(rows, reference_rows(mixed_lines), strict=True):
        assert got["cards"] == want["cards"]
        assert int(got["high"]) == want["high"]
        assert got["category"] == want["category"]
        assert int(got["low"]) == want["low"]
        assert got["low8"] == ("" if want["low8"] is None else str(want["low8"]))


def test_format_jsonl(mixed_lines):
    text = formatted(mixed_lines, "jsonl")
    rows = [json.loads(line) for line in text.splitlines()]
    assert rows == reference_rows(mixed_lines)
    assert list(rows[0]) == ["cards", "high", "category", "low", "low8"]


def test_format_table_is_aligned(mixed_lines):
    lines = formatted(mixed_lines, "table").splitlines()
    assert lines[0].split() == ["cards", "high", "category", "low", "low8"]
    assert len({len(line) for line in lines}) == 1
    for line, want in zip(lines[1:], reference_rows(mixed_lines), strict=True):
        assert line[:20].rstrip() == want["cards"]
        fields = line[20:].split("  ")
        values = [f.strip() for f in fields if f.strip()]
        low8 = "-" if want["low8"] is None else str(want["low8"])
        assert values == [str(want["high"]), want["category"], str(want["low"]), low8]


def test_format_errors():
    cards = np.zeros((1, 5), dtype=np.uint8)
    with pytest.raises(ValueError, match="unknown format 'xml'"):
        format_rows(cards, np.ones(1), np.ones(1), "xml")
    with pytest.raises(ValueError, match="unknown format"):
        format_header("xml")


def test_format_refuses_ranks_outside_the_tables():
    """A rank a cast would wrap into another rank is refused, and the core checks every
    index against its table, naming the row."""
    cards = np.array([[51, 47, 43, 39, 35]] * 2, dtype=np.uint8)
    with pytest.raises(studeval.InvalidRankError, match=r"high rank 70000 is outside 1\.\.7462"):
        format_rows(cards, np.array([1, 70_000]), np.array([1, 1]), "csv")
    with pytest.raises(studeval.InvalidRankError, match=r"low rank -1 is outside 1\.\.6175"):
        format_rows(cards, np.array([1, 1]), np.array([-1, 1]), "csv")
    with pytest.raises(studeval.StudevalError, match="row 1: an index is outside"):
        format_rows(cards, np.array([1, 7463], dtype=np.uint16), np.ones(2, np.uint16), "csv")


def test_the_core_formatter_checks_its_tables():
    from studeval import _core

    text, offsets = b"abc", np.array([0, 1, 3], dtype=np.uint32)
    index = np.array([1, 0, 1], dtype=np.uint16)
    assert _core.format_rows([(text, offsets, index)], 3) == b"bcabc"
    assert _core.format_rows([(text, offsets, index[::-1].copy()[::2])], 2) == b"bcbc"
    with pytest.raises(studeval.StudevalError, match="offsets fall or pass the text's end"):
        _core.format_rows([(b"ab", offsets, index)], 3)
    with pytest.raises(studeval.StudevalError, match="must be 3 uint8 or uint16"):
        _core.format_rows([(text, offsets, index.astype(np.int64))], 3)
    with pytest.raises(studeval.StudevalError, match="offsets must be a uint32 array"):
        _core.format_rows([(text, offsets.astype(np.int64), index)], 3)
