"""A text of hands cut into hands: where each of a text room's hands starts (a line
its room's first-line pattern, ``Grammar.start``, matches)."""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Iterable, Iterator

from studeval.histories._grammar import Grammar
from studeval.histories._wording import unnamed

__all__ = ["hand_starts", "hands", "starting_lines"]


def hand_starts(text: str, at: int, grammars: list[Grammar]) -> list[int]:
    """Where the lines that start a text room's hand begin, from ``at`` on.

    >>> from studeval.histories.rooms.pokerstars import GRAMMAR
    >>> hand_starts("PokerStars Hand #1: Razz\\nx\\nPokerStars Hand #2: Razz\\n", 0, [GRAMMAR])
    [0, 27]
    """
    return [start for start, _ in starting_lines(text, at, grammars)]


def starting_lines(text: str, at: int, grammars: list[Grammar]) -> Iterator[tuple[int, int]]:
    """Each line from ``at`` on that starts a hand: its offset, and the index in
    ``grammars`` of the room whose first line it is."""
    if not grammars:
        return
    patterns = tuple(g.start.pattern for g in grammars)
    starts = _starts(patterns)
    first = (at,) if at == 0 or text[at - 1] == "\n" else ()  # a line's start already
    for start in itertools.chain(
        first, (m.end() for m in _line_starts(patterns).finditer(text, at))
    ):
        end = text.find("\n", start)
        found = starts.match(text[start : end if end >= 0 else len(text)])
        if found is not None:  # the lookahead may read past the line: the line must match
            # The group of the alternative that matched closes last.
            yield start, int(str(found.lastgroup)[1:])


#: What splits lines besides "\n" (``str.splitlines``), and a byte-order mark where a
#: file was glued after another: text holding one is split line by line.
_BREAKS = "\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029\ufeff"
_ODD_BREAKS = re.compile(f"[{_BREAKS}]")
_ASCII_BREAKS = "".join(char for char in _BREAKS if char.isascii())


def _odd_breaks(text: str) -> bool:
    """Whether ``text`` holds one of ``_ODD_BREAKS`` (ASCII text, the most, is searched
    for the few ASCII ones, each at memchr's speed: five times the class's scan)."""
    if text.isascii():
        return any(char in text for char in _ASCII_BREAKS)
    return _ODD_BREAKS.search(text) is not None


def hands(text: str, grammars: Iterable[Grammar]) -> Iterator[tuple[Grammar, str, int]]:
    """Each hand of ``text``: its room's grammar, its lines joined by ``"\n"``, and
    the number of its first line."""
    text = text.lstrip("\ufeff")
    # Windows' line ends: the same lines ("\r" is searched for at memchr's speed).
    if "\r" in text and "\r\n" in text:
        text = text.replace("\r\n", "\n")
    grammars = list(grammars)
    if _odd_breaks(text):
        for grammar, lines, first in _hands_by_line(text, grammars):
            yield grammar, "\n".join(lines), first
        return
    start: tuple[Grammar, int, int] | None = None  # grammar, offset, line number
    counted, line_no = 0, 1
    for at, index in starting_lines(text, 0, grammars):
        line_no += text.count("\n", counted, at)
        counted = at
        if start is not None:
            yield start[0], text[start[1] : at - 1], start[2]
        start = (grammars[index], at, line_no)
    if start is not None:
        last = text[start[1] :]
        yield start[0], last[:-1] if last.endswith("\n") else last, start[2]


def _hands_by_line(text: str, grammars: list[Grammar]) -> Iterator[tuple[Grammar, list[str], int]]:
    lines = text.splitlines()
    starts = _starts(tuple(g.start.pattern for g in grammars))
    start: tuple[Grammar, int] | None = None
    for number, line in enumerate(lines):
        found = starts.match(line)
        if found is None:
            if not line.startswith("\ufeff"):
                continue
            line = lines[number] = line.lstrip("\ufeff")  # a file glued after another
            found = starts.match(line)
            if found is None:
                continue
        if start is not None:
            yield start[0], lines[start[1] : number], start[1] + 1
        # The group of the alternative that matched closes last.
        start = (grammars[int(str(found.lastgroup)[1:])], number)
    if start is not None:
        yield start[0], lines[start[1] :], start[1] + 1


@functools.lru_cache(maxsize=16)
def _line_starts(patterns: tuple[str, ...]) -> re.Pattern[str]:
    """Finds the line ends after which any of ``patterns`` may match (each line is
    checked after; the text's first line is a candidate too). A pattern that starts
    with "\n" is searched for by the regular expression engine's fast scan for its
    first character: twice as fast as trying every line's start."""
    return re.compile("\n(?=" + "|".join(f"(?:{unnamed(p)})" for p in patterns) + ")",
                      re.MULTILINE)  # fmt: skip


@functools.lru_cache(maxsize=16)
def _starts(patterns: tuple[str, ...]) -> re.Pattern[str]:
    """One pattern for the first lines of many rooms: a group ``g<i>`` each (their
    own named groups unnamed, as two rooms may use the same names)."""
    return re.compile("|".join(f"(?P<g{i}>{unnamed(p)})" for i, p in enumerate(patterns)))
