"""A text cut into hands with numpy (``histories._split``, ``vectorized=True``, the
bulk reader's way): the lines that may start a hand, found from the rooms' first-line
patterns' heads, must be exactly those a plain line-by-line match finds."""

from __future__ import annotations

import random
import re
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from studeval import _core
from studeval.errors import CoreCallError
from studeval.histories import _reader as reader_module
from studeval.histories import _split
from studeval.histories._writer import Table
from studeval.histories.rooms import ROOMS
from studeval.play import random_hand

GRAMMARS = list(reader_module.GRAMMARS)
PATTERNS = tuple(g.start.pattern for g in GRAMMARS)
DATA = Path(__file__).parent / "data" / "histories"


def _reference(text: str, at: int) -> list[tuple[int, int]]:
    """Each line from ``at`` on that a room's first-line pattern matches, line by line
    (the expectation: no heads, no numpy, no lookahead)."""
    found = []
    offset = 0
    for line in text.split("\n"):
        if offset >= at and (offset > at or at == 0 or text[at - 1] == "\n"):
            for index, grammar in enumerate(GRAMMARS):
                if re.match(grammar.start.pattern, line):
                    found.append((offset, index))
                    break
        offset += len(line) + 1
    return [(o, i) for o, i in found if o < len(text)]


def _every_room_text(rng: random.Random) -> str:
    """Hands of every room that writes text, glued in a random order, with lines
    that look like a hand's first line but are not among them."""
    texts = []
    for room in ROOMS:
        for writer in room.writers.values():
            hand = random_hand(rng.choice(["stud", "stud8", "razz"]), rng.randint(2, 4), rng=rng)
            names = rng.sample(["Ann", "Bob", "Płotr", "Zoë", "#1 fan", "*** x", "Stage"], 4)
            text = writer(hand, Table(names=names[: hand.seats], hand_id=rng.randrange(10**6)))
            if not text.lstrip().startswith("<"):  # XML is not cut into lines
                texts.append(text)
    rng.shuffle(texts)
    lines = "\n\n".join(texts).split("\n")
    near_misses = ["*** 3rd STREET ***", "PokerStar Hand #1:", "Pokerstars Hand #2: Razz",
                   "#x: Limit Razz", "Game #", "Hand #12 -", "Stage #", "Bovada", "P", "",
                   "\ufeffBovada Hand #3: Razz", "Everleaf Gaming Game #4 x"]  # fmt: skip
    for _ in range(40):
        lines.insert(rng.randrange(len(lines) + 1), rng.choice(near_misses))
    return "\n".join(lines)


def test_every_room_has_heads_so_the_numpy_search_is_used() -> None:
    heads = _split.line_heads(PATTERNS)
    assert heads and "" not in heads
    assert all(1 <= len(head) <= 8 for head in heads)


@pytest.mark.parametrize("seed", range(12))
def test_the_lines_found_with_numpy_are_those_matched_line_by_line(seed: int) -> None:
    rng = random.Random(seed)
    text = _every_room_text(rng)
    if seed % 3 == 1:
        text = text.encode("ascii", "replace").decode()  # ASCII: a byte a character
    assert len(_reference(text, 0)) >= 10  # the rooms' hands were found
    for at in [0, 1, rng.randrange(len(text)), len(text) - 1, len(text)]:
        expected = _reference(text, at)
        assert list(_split.starting_lines(text, at, GRAMMARS, vectorized=True)) == expected
        assert list(_split.starting_lines(text, at, GRAMMARS)) == expected
        numbered = list(_split._numbered_starts(text, at, GRAMMARS, vectorized=True))
        assert [n for _, _, n in numbered] == [1 + text.count("\n", 0, s) for s, _ in expected]


@pytest.mark.parametrize("block", [4, 8, 28, 1 << 16])
def test_hands_across_the_blocks_of_the_search(block: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_split, "BLOCK_BYTES", block)
    rng = random.Random(block)
    text = "\n".join(_every_room_text(rng) for _ in range(3))
    for sample in (text, text.encode("ascii", "replace").decode()):
        expected = _reference(sample, 0)
        assert len(expected) >= 30
        assert list(_split.starting_lines(sample, 0, GRAMMARS, vectorized=True)) == expected
        # Each hand's first line numbered as counted line by line, across the blocks.
        assert list(_split.hands(sample, GRAMMARS, vectorized=True)) == list(
            _split.hands(sample, GRAMMARS))  # fmt: skip


def test_the_hands_cut_with_numpy_are_those_cut_by_the_regular_expression() -> None:
    rng = random.Random(7)
    texts = [_every_room_text(rng) for _ in range(3)]
    texts += [p.read_text(encoding="utf-8") for p in sorted(DATA.glob("*.txt"))]
    texts.append(texts[0].replace("\n", "\r\n"))  # Windows' line ends
    texts.append(texts[1].replace("\n", "\n\ufeff", 1))  # a break that splits line by line
    for text in texts:
        found = list(_split.hands(text, GRAMMARS, vectorized=True))
        assert found and found == list(_split.hands(text, GRAMMARS))


def test_a_pattern_with_no_head_leaves_the_search_to_the_regular_expression() -> None:
    assert _split.line_heads((r"(?i)^pokerstars hand",)) == {""}
    assert _split.line_heads((r"^(?i:x)y",)) == {""}
    assert _split.line_heads((r"^[^#]x",)) == {""}
    assert _split._numpy_candidates("x\nPokerStars Hand", 0, (r"(?i)^pokerstars",)) is None
    # What the parse says too little of ends the head: any character may follow.
    assert _split.line_heads((r"^#\d+: ", r"^x{2,}y"), 2) == {"#", "xx"}
    assert _split.line_heads((r"^x{2,}y",), 4) == {"xxy", "xxxy", "xxxx"}
    assert "" in _split.line_heads((r"^(?:a?)*b",))  # a repeat of what may be empty: any
    assert _split.line_heads((r"^(?:Game |Hand )?#", r"^[ab]c"), 3) == {
        "Gam", "Han", "#", "ac", "bc"}  # fmt: skip


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_every_line_a_room_pattern_matches_starts_with_a_head(data: st.DataObject) -> None:
    pattern = data.draw(st.sampled_from(PATTERNS))
    line = data.draw(st.from_regex(pattern, fullmatch=False).filter(lambda s: "\n" not in s))
    if re.match(pattern, line):  # (from_regex may place a match after a line break)
        assert line.startswith(tuple(_split.line_heads((pattern,))))
        assert line.startswith(tuple(_split.line_heads(PATTERNS)))


def _outcome(text: str, at: int, vectorized: bool) -> object:
    try:
        return list(_split.starting_lines(text, at, GRAMMARS, vectorized))
    except Exception as error:  # the same error either way
        return type(error)


ODD_TEXTS = ["\udc80", "\udc80\n#1: Limit Razz - 1/2\nx", "ab\nPokerStars Hand #1: Razz",
             "😀\nStage #1: x\n\udfff\nStage #2: y"]  # fmt: skip


@pytest.mark.parametrize("text", ODD_TEXTS)
def test_any_text_and_offset_as_the_regular_expression_reads_them(text: str) -> None:
    for at in range(-2, len(text) + 3):
        assert _outcome(text, at, True) == _outcome(text, at, False), at
    assert list(_split.hands(text, GRAMMARS, vectorized=True)) == list(_split.hands(text, GRAMMARS))


def test_a_pattern_that_allows_millions_of_heads_gives_a_few_shorter_ones() -> None:
    heads = _split.line_heads((r"^[a-o]{6}x", r"^(?:a|b|c|d|e|f|g|h)(?:a|b|c|d|e|f|g|h){7}"))
    assert 0 < len(heads) <= 256 and "" not in heads
    assert {len(head) for head in heads} <= {1, 2}
    for line in ("abcdeox", "hhhhhhhh", "acegbdfh"):
        assert line.startswith(tuple(heads))


def _heads_reference(text: bytes, at: int, heads: tuple[bytes, ...]) -> tuple[list[int], list[int]]:
    """The lines from ``at`` on that start with a head (none holding a line end),
    and their numbers, line by line in Python (the expectation of
    ``_core.line_starts``)."""
    starts, numbers, offset = [], [], 0
    for number, line in enumerate(text.split(b"\n"), start=1):
        starts_here = offset > at or (offset == at and (at == 0 or text[at - 1 : at] == b"\n"))
        if starts_here and offset < len(text) and line.startswith(heads):
            starts.append(offset)
            numbers.append(number)
        offset += len(line) + 1
    return starts, numbers


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from([b"", b"P", b"Po", b"Poker", b"*** x", b"***** Ha", b"#1", b"xP"]),
                max_size=40),
       st.data())  # fmt: skip
def test_the_lines_a_head_starts_found_in_c(lines: list[bytes], data: st.DataObject) -> None:
    text = b"\n".join(lines) + data.draw(st.sampled_from([b"", b"\n"]))
    at = data.draw(st.integers(0, len(text)))
    heads = tuple(data.draw(st.lists(st.sampled_from([b"P", b"Poker", b"***** H", b"#", b"x"]),
                                     min_size=1, max_size=4, unique=True)))  # fmt: skip
    first = 1 + text.count(b"\n", 0, at)
    assert _core.line_starts(text, at, heads, first) == _heads_reference(text, at, heads)


def test_more_lines_than_the_first_guess_and_bad_arguments() -> None:
    text = b"Po\n" * 5_000 + b"x"  # a line in 3 bytes: more than room for one in 256
    starts, numbers = _core.line_starts(text, 0, (b"Po",), 1)
    assert (starts, numbers) == _heads_reference(text, 0, (b"Po",)) and len(starts) == 5_000
    for at, heads in ((len(text) + 1, (b"Po",)), (-1, (b"Po",)), (0, (b"",)), (0, ("Po",))):
        with pytest.raises(CoreCallError):
            _core.line_starts(text, at, heads, 1)  # type: ignore[arg-type]
    with pytest.raises(CoreCallError):
        _core.line_starts(text, 0, (b"P",) * 2_000, 1)
    for first in (-1, 2**63 - 1):  # a line's number past what an int64 holds
        with pytest.raises(CoreCallError):
            _core.line_starts(text, 0, (b"Po",), first)


def test_more_heads_than_c_takes_are_looked_for_with_numpy() -> None:
    heads = tuple(f"H{n:04d}" for n in range(_core.HISTORY_MAX_HEADS + 1))
    text = "x\nH0007 y\nz\nH1024\n"
    with mock.patch.object(_split, "line_heads", lambda patterns: frozenset(heads)):
        numbers: list[int] = []
        assert _split._numpy_candidates(text, 0, ("^H",), numbers) == [2, 12]
        assert numbers == [2, 4]
