"""A plain text cut into hands as offsets (``histories._spans``, the bulk reader's
way): each piece must be, text and line, what ``pieces`` cuts (the expectation:
the code every other text goes through), on every room's hands with text before,
between and after them, and on texts made of random lines."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_histories_split import _every_room_text

from studeval.histories import _reader as reader_module
from studeval.histories import _spans, _split

GRAMMARS = list(reader_module.GRAMMARS)
DATA = Path(__file__).parent / "data" / "histories"


def _as_pieces(text: str, vectorized: bool) -> list[tuple[object, str, int]] | None:
    spans = _spans.piece_spans(text, GRAMMARS, vectorized)
    if spans is None:
        return None
    return [(grammar, text[start:end], line) for grammar, start, end, line in spans]


def _same(text: str) -> list[tuple[object, str, int]]:
    """The pieces both ways (checked alike), ``pieces``' own."""
    expected = list(_split.pieces(text, GRAMMARS, vectorized=True))
    assert _as_pieces(text, True) == expected
    assert _as_pieces(text, False) == expected
    return expected


def _plain_texts(rng: random.Random) -> list[str]:
    """Every room's hands glued in a random order, made ASCII, with text before,
    between and after them (what a room's hand ends on, a player leaving, other
    rooms' preambles, blank lines of spaces)."""
    text = _every_room_text(rng).encode("ascii", "replace").decode().replace("\r", "")
    lines = text.split("\n")
    extra = ["", "  ", "\t", "Exported by a tracker", "Ann leaves the table",
             "Game #12 starts.", "#Game No : 7", "Seat 1: Ann ($4 in chips)", "*** SUMMARY ***",
             "Total pot $1"]  # fmt: skip
    for _ in range(30):
        lines.insert(rng.randrange(len(lines) + 1), rng.choice(extra))
    glued = "\n".join(lines)
    return [glued, glued + "\n", "Exported\n\n" + glued + "\n\n\nthe end\n", glued.strip()]


@pytest.mark.parametrize("seed", range(8))
def test_the_pieces_of_a_plain_text_are_where_pieces_cuts_them(seed: int) -> None:
    rng = random.Random(seed)
    for text in _plain_texts(rng):
        assert _spans.plain(text)
        found = _same(text)
        hands = [grammar for grammar, _, _ in found if grammar is not None]
        outside = [piece for grammar, piece, _ in found if grammar is None]
        # Every room's hands were cut, and text outside them reported.
        assert len({grammar.site for grammar in hands}) >= 6 and outside  # type: ignore[attr-defined]


def test_the_rooms_files_in_the_tests_data() -> None:
    plain = 0
    for path in sorted(DATA.glob("*.txt")):
        text = path.read_text(encoding="utf-8")
        if _spans.plain(text):
            plain += 1
            assert any(grammar is not None for grammar, _, _ in _same(text))
        else:
            assert _spans.piece_spans(text, GRAMMARS) is None
    assert plain >= 3


def test_a_rooms_preamble_before_its_hand_is_the_hands() -> None:
    party = "Game #5 starts.\n\n#Game No : 5\n***** Hand History for Game 5 *****\nx"
    for text in (party, "PokerStars Hand #1: x\n*** SUMMARY ***\nSeat 1: A\n\n" + party,
                 "Exported\nGame #4 starts.\n\n" + party):  # fmt: skip
        found = _same(text)
        assert [piece for grammar, piece, _ in found if grammar is None] == (
            ["Exported"] if text.startswith("Exported") else [])  # fmt: skip


@pytest.mark.parametrize("text", ["a\r\nb", "Zoë", "x\x00PokerStars Hand #1: y", "\x0c", "\x1e"])
def test_a_text_that_is_not_plain_is_left_to_pieces(text: str) -> None:
    assert not _spans.plain(text) and _spans.piece_spans(text, GRAMMARS) is None


_LINES = [
    "PokerStars Hand #1: Razz Limit ($1/$2 USD) - 2026/12/02 9:05:00 ET",
    "Table 'Ida' 8-max",
    "Seat 1: Ann ($40 in chips)",
    "*** SUMMARY ***",
    "Seat 1: Ann folded on the 3rd Street",
    "Ann leaves the table",
    "Game #5 starts.",
    "#Game No : 5",
    "Everleaf Gaming Game #4",
    "***** Hand History for Game 5 *****",  # a PartyPoker hand, after its preamble's lines
    "",
    " ",
    "x",
]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(_LINES), max_size=30), st.booleans())
def test_any_text_of_these_lines(lines: list[str], newline_at_end: bool) -> None:
    text = "\n".join(lines) + ("\n" if newline_at_end else "")
    _same(text)
