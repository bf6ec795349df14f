"""A plain text of hands cut into hands as offsets: :func:`piece_spans` gives what
:func:`~studeval.histories._split.pieces` gives, each piece as where it lies in
the text, for the bulk reader, which reads the hands in the text's own bytes (a
hand cut out, then encoded and joined to the others, had cost more than finding
it). A text is plain when it is ASCII and holds no line end but ``"\\n"`` and no
NUL byte: its characters are its bytes, and ``pieces`` splits it as it is
written; any other text is cut by ``pieces``. The tests compare both on every
room's files."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, TypeVar

from studeval.histories._bulk import CompactHands, bulk_readable, read_spans
from studeval.histories._grammar import Grammar
from studeval.histories._split import (
    _head_lines,
    _numbered_starts,
    _without_preamble,
    hand_end_at,
    trimmed,
)

if TYPE_CHECKING:
    from studeval.histories._seen import Found

__all__ = ["Span", "grammar_runs", "piece_spans", "plain", "span_found"]

#: A piece of a text: the room's grammar (None for lines outside every hand), where
#: it starts and ends in the text, and the number of its first line.
Span = tuple[Grammar | None, int, int, int]

# The ASCII characters besides "\n" that split lines (``str.splitlines``), and NUL
# (a crash's run of them, which ``pieces`` reads apart).
_NOT_PLAIN = "\r\x0b\x0c\x1c\x1d\x1e\x00"


def plain(text: str) -> bool:
    """Whether ``text`` is ASCII with no line end but ``"\\n"`` and no NUL byte.

    >>> plain("PokerStars Hand #1\\nbet\\n"), plain("a\\r\\nb"), plain("Zoë")
    (True, False, False)
    """
    return text.isascii() and not any(char in text for char in _NOT_PLAIN)


def piece_spans(text: str, grammars: list[Grammar], vectorized: bool = True) -> list[Span] | None:
    """Each piece :func:`~studeval.histories._split.pieces` gives of ``text``, as a
    :data:`Span` (its text: ``text[start:end]``); None where ``text`` is not
    :func:`plain` (``pieces`` cuts it).

    >>> from studeval.histories.rooms.pokerstars import GRAMMAR
    >>> text = "Exported\\n\\nPokerStars Hand #1: x\\nbet\\n\\nother room\\n"
    >>> [(g and g.site, text[start:end], line) for g, start, end, line in
    ...  piece_spans(text, [GRAMMAR])][1:]
    [('PokerStars', 'PokerStars Hand #1: x\\nbet', 3), (None, 'other room', 6)]
    """
    if not grammars or not plain(text):
        return None
    found: list[Span] = []
    starts = list(_numbered_starts(text, 0, grammars, vectorized))
    # Text outside every hand waits for the next hand, as pieces() has it: where it
    # starts in the text, its lines, and the number of its first line.
    outside: tuple[int, str, int] | None = None
    counted, line = 0, 1
    last = len(text) - 1 if text.endswith("\n") else len(text)
    for place, (start, index, number) in enumerate(starts):
        if number is None:
            line += text.count("\n", counted, start)
            counted = start
        else:  # numbered as numpy found the line
            line = number
        stop = starts[place + 1][0] - 1 if place + 1 < len(starts) else last
        grammar = grammars[index]
        if outside is None and line > 1:  # the text before the first hand
            outside = (0, _head_lines(text, line - 1), 1)
        if outside is not None and outside[1]:
            at, head, first = outside
            if grammar.preamble is not None:
                head = _without_preamble(head, grammar.preamble)
            if head.strip():
                found.append(_trimmed(at, head, first))
        outside = (0, "", 0)  # none before a later hand but what its hand before leaves
        end = hand_end_at(grammar, text, start, stop) if grammar.last_section is not None else None
        if end is not None and text[end:stop].strip():
            found.append((grammar, start, end, line))
            outside = (end, text[end:stop], line + text.count("\n", start, end))
            continue
        found.append((grammar, start, stop, line))
    if outside is not None and outside[1].strip():
        found.append(_trimmed(*outside))
    return found


def _trimmed(at: int, piece: str, line: int) -> Span:
    """The span of :func:`~studeval.histories._split.trimmed`'s text of ``piece``
    (which starts at ``at`` in the text, on line ``line``)."""
    kept, first = trimmed(piece, line)
    start = at + len(piece) - len(piece.lstrip(" \t\r\n"))
    return None, start, start + len(kept), first


_Piece = TypeVar("_Piece", bound=tuple[Any, ...])


def grammar_runs(pieces: list[_Piece]) -> Iterator[list[_Piece]]:
    """``pieces`` (each a tuple whose first item is its grammar, or None) in runs of
    one grammar (the same object), in order.

    >>> [len(run) for run in grammar_runs([(None, 1), (None, 2), ("g", 3), (None, 4)])]
    [2, 1, 1]
    """
    for _, run in itertools.groupby(pieces, key=lambda piece: id(piece[0])):
        yield list(run)


def span_found(text: str, spans: list[Span], first: int, where: str | None, rows: bool,
               read_one: Callable[[Grammar | None, str, int, str | None], Found],
               ) -> Iterator[Found | CompactHands]:  # fmt: skip
    """The hands of a plain text's pieces (:func:`piece_spans`; ``text``'s first
    line is line ``first`` of the file ``where``), in order: each run of one room's
    hands read in bulk from the text's bytes, encoded once (``rows``: as
    :func:`~studeval.histories._bulk.read_spans`), and each other piece read alone
    by ``read_one`` (its grammar, its text, its first line and the file)."""
    import numpy as np  # (as read_bulk: the bulk reader's callers load it)

    data: bytes | None = None
    for run in grammar_runs(spans):
        grammar = run[0][0]
        if grammar is None or not bulk_readable(grammar):
            for _, at, stop, line in run:
                yield read_one(grammar, text[at:stop], line + first - 1, where)
            continue
        if data is None:
            data = text.encode("ascii")
        starts = np.array([at for _, at, _, _ in run], dtype=np.int64)
        ends = np.array([stop for _, _, stop, _ in run], dtype=np.int64)
        lines = [line + first - 1 for _, _, _, line in run]
        for item in read_spans(grammar, data, text, starts, ends, lines, where, rows):
            if isinstance(item, int):  # not read in bulk: read the usual way
                yield read_one(grammar, text[starts[item] : ends[item]], lines[item], where)
            else:
                yield item
