"""A text of hands cut into hands: where each of a text room's hands starts (a line
its room's first-line pattern, ``Grammar.start``, matches)."""

from __future__ import annotations

import bisect
import functools
import importlib
import itertools
import re
import sys
from collections.abc import Iterable, Iterator
from typing import Any

from studeval import _core
from studeval.histories._grammar import Grammar
from studeval.histories._wording import unnamed

__all__ = [
    "hand_end_at",
    "hand_starts",
    "hands",
    "line_heads",
    "pieces",
    "starting_lines",
    "trimmed",
]

#: The regular expression parser (``re._parser``; ``sre_parse`` before Python 3.11).
_sre: Any = importlib.import_module("re._parser" if sys.version_info >= (3, 11) else "sre_parse")


def hand_starts(text: str, at: int, grammars: list[Grammar]) -> list[int]:
    """Where the lines that start a text room's hand begin, from ``at`` on.

    >>> from studeval.histories.rooms.pokerstars import GRAMMAR
    >>> hand_starts("PokerStars Hand #1: Razz\\nx\\nPokerStars Hand #2: Razz\\n", 0, [GRAMMAR])
    [0, 27]
    """
    return [start for start, _ in starting_lines(text, at, grammars)]


def starting_lines(text: str, at: int, grammars: list[Grammar],
                   vectorized: bool = False) -> Iterator[tuple[int, int]]:  # fmt: skip
    """Each line from ``at`` on that starts a hand: its offset, and the index in
    ``grammars`` of the room whose first line it is. ``vectorized``: the lines that
    may start one are found with numpy (:func:`_numpy_candidates`)."""
    for start, index, _ in _numbered_starts(text, at, grammars, vectorized):
        yield start, index


def _numbered_starts(text: str, at: int, grammars: list[Grammar],
                     vectorized: bool) -> Iterator[tuple[int, int, int | None]]:  # fmt: skip
    """:func:`starting_lines`, each with its line's number where numpy found the lines
    (None where not)."""
    if not grammars:
        return
    patterns = tuple(g.start.pattern for g in grammars)
    starts = _starts(patterns)
    numbers: list[int] = []
    listed = _numpy_candidates(text, at, patterns, numbers) if vectorized else None
    candidates: Iterable[tuple[int, int | None]] = zip(listed, numbers, strict=True) if (
        listed is not None) else ((start, None) for start in itertools.chain(
            (at,) if at == 0 or text[at - 1] == "\n" else (),  # a line's start already
            (m.end() for m in _line_starts(patterns).finditer(text, at))))  # fmt: skip
    one = len(grammars) == 1
    for start, number in candidates:
        end = text.find("\n", start)
        found = starts.match(text[start : end if end >= 0 else len(text)])
        if found is not None:  # the lookahead may read past the line: the line must match
            # The group of the alternative that matched closes last.
            yield start, 0 if one else int(str(found.lastgroup)[1:]), number


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


#: A blank line (spaces and tabs allowed) with text after it.
_BLANK_LINE = re.compile(r"\n[ \t]*\n(?=\s*\S)")


#: A run of NUL bytes: what a crash leaves where a file's end was not written; and
#: a byte-order mark after it, which is no text (a file glued after the run).
_NULS = re.compile("(\x00+)\ufeff?")


def _unglued(text: str, grammars: list[Grammar]) -> tuple[str, list[tuple[int, int]]]:
    """``text`` with a line break in place of each run of NUL bytes that a hand's first
    line follows on its line (a client appends its next hand after a crash's NUL
    bytes, with no line end between), and each such run's line and length."""
    patterns = tuple(g.start.pattern for g in grammars)
    starts = _starts(patterns)
    heads = line_heads(patterns)
    # A run is first tried by the heads a start line begins with (a binary file's
    # thousands of runs each cost a comparison), its line then matched whole.
    first = None if "" in heads else tuple(heads)
    runs: list[tuple[int, int]] = []
    out: list[str] = []
    kept, line, counted, end = 0, 1, 0, -1
    for run in _NULS.finditer(text):
        if first is not None and not text.startswith(first, run.end()):
            continue
        if end < run.end():  # the line's end, found once a line
            end = text.find("\n", run.end())
            end = len(text) if end < 0 else end
        if starts.match(text[run.end() : end]) is None:
            continue
        line += text.count("\n", counted, run.start())
        counted = run.start()
        runs.append((line, run.end(1) - run.start(1)))
        out += [text[kept : run.start()], "\n"]
        kept = run.end()
    return "".join([*out, text[kept:]]), runs


def pieces(text: str, grammars: Iterable[Grammar],
           vectorized: bool = False) -> Iterator[tuple[Grammar | None, str, int]]:  # fmt: skip
    """:func:`hands`, and in their places the lines outside every hand (grammar
    ``None``): before the first hand, and after the end of a hand of a room that
    says where its hands end (``Grammar.last_section``). White space alone is no
    such line. A hand's first line glued to a run of NUL bytes (a crash's) is read,
    and the run is given as text outside every hand, at its line, just before the
    hand (in a text split at other line ends as well, "\\r" alone or a form feed,
    the run stays part of the line it is on).

    >>> from studeval.histories.rooms.pokerstars import GRAMMAR
    >>> text = "Exported\\n\\nPokerStars Hand #1: x\\nbet\\n\\nother room\\n"
    >>> [(g and g.site, line) for g, t, line in pieces(text, [GRAMMAR])]
    [(None, 1), ('PokerStars', 3), (None, 6)]
    >>> glued = "PokerStars Hand #1: x\\nbet\\n\\x00\\x00PokerStars Hand #2: y\\n"
    >>> [(g and g.site, t, line) for g, t, line in pieces(glued, [GRAMMAR])][1:]
    [(None, '\\x00\\x00', 3), ('PokerStars', 'PokerStars Hand #2: y', 3)]
    """
    grammars = list(grammars)
    # (No grammar: no hand to find. Other line ends: hands() numbers lines as
    # splitlines() does, which the runs' lines, counted by "\\n", would not match.
    # A byte-order mark splits no line: one after a run is a file glued there.)
    if not grammars or "\x00" not in text or _odd_breaks(
            text.replace("\r\n", "\n").replace("\ufeff", "")):  # fmt: skip
        yield from _pieces(text, grammars, vectorized)
        return
    text, runs = _unglued(text, grammars)
    # Each run's line break moved the lines after it one down: the run's line in the
    # text read is its line + i, and the hand glued to it starts on the next.
    breaks = [line + i for i, (line, _) in enumerate(runs)]
    at = 0
    for grammar, piece, line in _pieces(text, grammars, vectorized):
        while at < len(runs) and (breaks[at] + 1 < line or (
                breaks[at] + 1 == line and grammar is not None)):  # fmt: skip
            yield None, "\x00" * runs[at][1], runs[at][0]
            at += 1
        yield grammar, piece, line - bisect.bisect_left(breaks, line)
    for line, length in runs[at:]:
        yield None, "\x00" * length, line


def _pieces(text: str, grammars: list[Grammar],
            vectorized: bool) -> Iterator[tuple[Grammar | None, str, int]]:  # fmt: skip
    # Text outside every hand waits for the next hand: the lines at its end that its
    # room writes before a hand (a preamble) are that hand's, not reported.
    outside: tuple[str, int] | None = None
    for grammar, hand, line in hands(text, grammars, vectorized):
        if outside is None and line > 1:  # the text before the first hand
            outside = (_head_lines(text.lstrip("\ufeff"), line - 1), 1)
        if outside is not None:
            head, at = outside
            if grammar.preamble is not None:
                head = _without_preamble(head, grammar.preamble)
            if head.strip():
                yield None, *trimmed(head, at)
        outside = ("", 0)  # none before a later hand but what its hand before leaves
        end = _hand_end(grammar, hand) if grammar.last_section is not None else None
        if end is not None and hand[end:].strip():
            yield grammar, hand[:end], line
            outside = (hand[end:], line + hand.count("\n", 0, end))
            continue
        yield grammar, hand, line
    if outside is not None and outside[0].strip():
        yield None, *trimmed(*outside)


def _without_preamble(head: str, preamble: str) -> str:
    """``head`` without the lines at its end that match ``preamble`` (a room's lines
    before a hand's first line) and blank lines: they are the hand's."""
    lines = head.split("\n")
    keep = len(lines)
    while keep and (
        not lines[keep - 1].strip() or re.fullmatch(preamble, lines[keep - 1].rstrip())
    ):
        keep -= 1
    return "\n".join(lines[:keep])


def _hand_end(grammar: Grammar, hand: str) -> int | None:
    """Where the hand's own text ends in ``hand`` (its text up to the next hand's
    start), or None: at the first line after its last section that is none of the
    section's and none the room's reader reads there (a player leaving the table);
    in a hand without the section, at its first blank line where the room writes
    none inside a hand."""
    return hand_end_at(grammar, hand, 0, len(hand))


def hand_end_at(grammar: Grammar, text: str, start: int, stop: int) -> int | None:
    """:func:`_hand_end` of the hand ``text[start:stop]``, as an offset in ``text``
    (the hand is searched where it lies, not cut out: the patterns read no further
    than ``stop``, as the end of a string cut there)."""
    # The section's own line (a player may be named "*** SUMMARY ***").
    section = grammar.last_section_start.search(text, start, stop)
    if section is None:
        blank = _BLANK_LINE.search(text, start, stop) if grammar.blank_line_ends else None
        return None if blank is None else blank.start()
    end = grammar.last_section_end.search(text, section.start() + 1, stop)
    while end is not None:
        line_end = text.find("\n", end.start() + 1, stop)
        line = text[end.start() + 1 : stop if line_end < 0 else line_end]
        if not line.strip() or not grammar.ends_with(line):
            return end.start()
        if line_end < 0:
            return None
        end = grammar.last_section_end.search(text, line_end, stop)
    return None


def _head_lines(text: str, count: int) -> str:
    """The first ``count`` lines of ``text`` (line ends as :func:`hands` reads them)."""
    if _odd_breaks(text):
        return "\n".join(text.splitlines()[:count])
    at = -1
    for _ in range(count):
        at = text.find("\n", at + 1)
        if at < 0:
            return text
    return text[:at]


def trimmed(text: str, line: int) -> tuple[str, int]:
    """``text`` (starting on line ``line``) without its leading and trailing blank lines,
    and the number of its first line left."""
    text = text.replace("\r\n", "\n")
    stripped = text.lstrip(" \t\r\n")
    line += text.count("\n", 0, len(text) - len(stripped))
    return stripped.rstrip(), line


def hands(text: str, grammars: Iterable[Grammar],
          vectorized: bool = False) -> Iterator[tuple[Grammar, str, int]]:  # fmt: skip
    """Each hand of ``text``: its room's grammar, its lines joined by ``"\n"``, and
    the number of its first line. ``vectorized``: as :func:`starting_lines`."""
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
    for at, index, number in _numbered_starts(text, 0, grammars, vectorized):
        if number is None:
            line_no += text.count("\n", counted, at)
            counted = at
        else:  # numbered as numpy found the line
            line_no = number
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


@functools.lru_cache(maxsize=16)
def line_heads(patterns: tuple[str, ...], size: int = 8) -> frozenset[str]:
    """What a line any of ``patterns`` matches (from its start) starts with: its
    first ``size`` characters, or fewer where any may follow, or ``""`` where the
    first may be anything. Found from the patterns' parse, a superset: what the
    parse says too little of (a class of digits, a group referred back to) counts
    as any character. (A line it allows is then matched alone, as the regular
    expression's search checks each line it finds: a room's pattern reads no
    further than its line.)

    >>> sorted(line_heads((r"^PokerStars Hand #", r"^\\ufeff?(?:Bovada|Ignition)", r"^#\\d+"), 4))
    ['#', 'Bova', 'Igni', 'Poke', '\ufeffBov', '\ufeffIgn']
    """
    heads: set[str] = set()
    for pattern in patterns:
        parsed = _sre.parse(pattern)
        if parsed.state.flags & re.IGNORECASE:
            return frozenset({""})
        heads |= _prefixes(list(parsed.data), size, 0, [_MOST_CALLS])
    return frozenset(heads)


def _prefixes(items: list[Any], size: int, depth: int, budget: list[int]) -> set[str]:
    """Strings of at most ``size`` characters that every string the parsed
    ``items`` match starts with one of (a shorter one: any characters may follow).
    Bounded: at most _MOST_HEADS strings (longer ones cut shorter), and ``""`` (any
    line) once ``budget`` (calls left, shared) runs out or a repeat of what may be
    empty goes on."""
    budget[0] -= 1
    if size == 0 or not items or depth > 32 or budget[0] < 0:
        return {""}
    op, arg = items[0]
    rest = items[1:]
    if op is _sre.AT:  # ^, $, \b: no character
        return _prefixes(rest, size, depth + 1, budget)
    chars: set[str] | None = None
    if op is _sre.LITERAL:
        chars = {chr(arg)}
    elif op is _sre.IN:
        chars = _class_chars(arg)
    if chars is not None:
        after = _prefixes(rest, size - 1, depth + 1, budget)
        return _fewest({char + tail for char in chars for tail in after})
    if op is _sre.SUBPATTERN:  # (group, flags added, flags removed, pattern)
        if arg[1] & re.IGNORECASE:
            return {""}
        return _prefixes([*arg[-1], *rest], size, depth + 1, budget)
    if op is _sre.BRANCH:
        return _fewest(set().union(*(_prefixes([*branch, *rest], size, depth + 1, budget)
                                     for branch in arg[1])))  # fmt: skip
    if op in (_sre.MAX_REPEAT, _sre.MIN_REPEAT):
        least, most, item = arg
        found = _prefixes(rest, size, depth + 1, budget) if least == 0 else set()
        if most != 0:
            again = [] if most == 1 else [(op, (max(least - 1, 0), most if most is _sre.MAXREPEAT
                                                else most - 1, item))]  # fmt: skip
            found |= _prefixes([*item, *again, *rest], size, depth + 1, budget)
        return _fewest(found)
    return {""}


#: The most heads a pattern's parse gives (a class repeated, "[a-o]{6}", would give
#: millions); and the calls that may find them.
_MOST_HEADS = 256
_MOST_CALLS = 100_000


def _fewest(heads: set[str]) -> set[str]:
    """``heads``, the longest cut a character shorter until at most _MOST_HEADS are
    left (a shorter head still starts every line a longer one does)."""
    while len(heads) > _MOST_HEADS:
        longest = max(map(len, heads))
        heads = {head[: longest - 1] for head in heads}
    return heads


def _class_chars(items: list[Any]) -> set[str] | None:
    """The characters a small character class (``[...]``) holds; None for a large,
    negated or named one (``\\d``)."""
    chars: set[str] = set()
    for op, arg in items:
        if op is _sre.LITERAL:
            chars.add(chr(arg))
        elif op is _sre.RANGE and arg[1] - arg[0] < 16:
            chars.update(map(chr, range(arg[0], arg[1] + 1)))
        else:
            return None
    return chars


#: The bytes of text :func:`_numpy_candidates` looks at a time: blocks that fit the
#: allocator's heap (a larger one is fresh pages from the system, whose first touch
#: cost more than the search).
BLOCK_BYTES = 1 << 16


def _numpy_candidates(text: str, at: int, patterns: tuple[str, ...],
                      numbers: list[int] | None = None) -> list[int] | None:  # fmt: skip
    """The lines from ``at`` on that may start a hand (they start with one of
    :func:`line_heads`), found at numpy's speed (their first two characters) and
    by ``str.startswith``: a superset of those the room patterns match, each
    checked after. ``None`` where any line may. ``numbers``: each line's number
    (from 1, the text's first line) is added to it, in the same order."""
    heads = line_heads(patterns)
    if "" in heads or not 0 <= at <= len(text):
        return None
    # (A head beyond ASCII starts no line of an ASCII text.)
    ascii_heads = tuple(head.encode() for head in heads if head.isascii())
    if text.isascii() and len(ascii_heads) <= _core.HISTORY_MAX_HEADS:
        # A byte a character: the lines looked at in C, by whole heads.
        found, lines = _core.line_starts(text.encode("ascii"), at, ascii_heads,
                                         1 + text.count("\n", 0, at))  # fmt: skip
        if numbers is not None:
            numbers += lines
        return found
    import numpy as np  # (only the bulk reader asks: the rooms' readers load no numpy)

    # Two characters as a pair of table indices: a character beyond Latin-1 is 256,
    # which a head holding one marks (its exact character is checked after).
    first = np.zeros(257, bool)
    pairs = np.zeros((257, 257), bool)
    for head in heads:
        one = min(ord(head[0]), 256)
        first[one] = True
        if len(head) == 1:  # any second character
            pairs[one, :] = True
        else:
            pairs[one, min(ord(head[1]), 256)] = True
    found = [at] if at < len(text) and (at == 0 or text[at - 1] == "\n") else []
    before = 1 + text.count("\n", 0, at)  # the number of the line at `at`
    lines = [before] if found else []
    # The text's characters as numbers, each at its index (ASCII: a byte each), a
    # block at a time (BLOCK_BYTES).
    ascii_text = text.isascii()
    block = BLOCK_BYTES if ascii_text else max(BLOCK_BYTES // 4, 1)
    for low in range(at, len(text), block):
        high = min(low + block, len(text))
        piece = text[low : high + 2] + "\n\n"  # each line's first two characters
        codes = np.frombuffer(piece.encode("ascii"), np.uint8) if ascii_text else (
            np.frombuffer(piece.encode("utf-32-le", "surrogatepass"), np.uint32))  # fmt: skip
        starts = np.flatnonzero(codes[: high - low] == 10) + 1  # after each "\n"
        newlines = len(starts)
        leads = np.minimum(codes[starts], 256, dtype=np.uint32)
        maybe = np.flatnonzero(first[leads])  # (the k-th "\n" of the block starts line
        starts, leads = starts[maybe], leads[maybe]  # `before` + k + 1)
        seconds = np.minimum(codes[starts + 1], 256, dtype=np.uint32)
        kept = pairs[leads, seconds]
        found += (starts[kept] + low).tolist()
        lines += (maybe[kept] + before + 1).tolist()
        before += newlines
    if found and found[-1] >= len(text):  # a "\n" ending the text starts no line
        found.pop()
        lines.pop()
    whole = tuple(heads)
    heads_found = [text.startswith(whole, start) for start in found]
    if numbers is not None:
        numbers += [n for n, ok in zip(lines, heads_found, strict=True) if ok]
    return [start for start, ok in zip(found, heads_found, strict=True) if ok]
