"""Finding the hands in files, directories, open files and strings, and their rooms.

>>> ", ".join(SITES)
'PokerStars, Full Tilt Poker, Winning, Winamax, Bovada, OnGame, Everleaf, PartyPoker, iPoker, Merge'
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Literal, overload

from studeval.histories._fast import read_fast
from studeval.histories._grammar import Grammar, read_hand
from studeval.histories._record import History, HistoryError, Transcript
from studeval.histories._replay import replay
from studeval.histories._text import decode
from studeval.histories.bovada import GRAMMAR as BOVADA
from studeval.histories.everleaf import GRAMMAR as EVERLEAF
from studeval.histories.fulltilt import GRAMMAR as FULL_TILT
from studeval.histories.ipoker import SITE as IPOKER
from studeval.histories.ipoker import START as IPOKER_START
from studeval.histories.ipoker import transcripts as ipoker_transcripts
from studeval.histories.merge import SITE as MERGE
from studeval.histories.merge import START as MERGE_START
from studeval.histories.merge import transcripts as merge_transcripts
from studeval.histories.ongame import GRAMMAR as ONGAME
from studeval.histories.partypoker import GRAMMAR as PARTYPOKER
from studeval.histories.pokerstars import GRAMMAR as POKERSTARS
from studeval.histories.winamax import GRAMMAR as WINAMAX
from studeval.histories.winning import GRAMMAR as WINNING
from studeval.histories.winning import GRAMMAR_2016 as WINNING_2016

__all__ = ["SITES", "find_site", "read"]

#: An XML room's reader: the file's text, its first line, its name -> its hands.
XmlReader = Callable[[str, int, "str | None"], Iterator["Transcript | HistoryError"]]

#: The rooms whose text is read line by line, by name.
#: The text formats read line by line (a room may have more than one).
GRAMMARS: tuple[Grammar, ...] = (
    POKERSTARS, FULL_TILT, WINNING, WINNING_2016, WINAMAX, BOVADA, ONGAME, EVERLEAF,
    PARTYPOKER,
)  # fmt: skip
#: Every room read, by the name ``read(site=...)`` takes.
SITES: tuple[str, ...] = (*dict.fromkeys(g.site for g in GRAMMARS), IPOKER, MERGE)


def find_site(text: str) -> str | None:
    """The room whose hand starts ``text``'s first hand, or ``None`` (PHH, say).

    >>> from studeval.histories.pokerstars import POKERSTARS_EXAMPLE
    >>> find_site(POKERSTARS_EXAMPLE), find_site('variant = "F7S"')
    ('PokerStars', None)
    """
    xml = _xml_room(text)
    if xml is not None:
        return xml[0]
    for line in text.lstrip("\ufeff").splitlines():
        for grammar in GRAMMARS:
            if grammar.start.match(line):
                return grammar.site
    return None


#: The rooms that write XML: each one's name, how its files start, and its reader.
_XML_ROOMS: tuple[tuple[str, re.Pattern[str], XmlReader], ...] = (
    (IPOKER, IPOKER_START, ipoker_transcripts),
    (MERGE, MERGE_START, merge_transcripts),
)


def _xml_room(text: str) -> tuple[str, XmlReader] | None:
    """The XML room whose file ``text`` is (its name and reader), or ``None``."""
    head = re.sub(r"^\s*(?:\ufeff)?\s*<\?xml[^>]*\?>", "", text[:500]).lstrip("\ufeff")
    return next(((name, reader) for name, start, reader in _XML_ROOMS if start.match(head)), None)


def _texts(source: object) -> Iterator[tuple[str, str | None]]:
    """(text, where) for each file or text ``source`` names."""
    if isinstance(source, str) and ("\n" in source or not source.strip()):
        yield source, None
    elif isinstance(source, (str, os.PathLike)):
        path = Path(source)
        if path.is_dir():
            for child in sorted(p for p in path.rglob("*") if p.is_file()):
                yield decode(child.read_bytes()), str(child)
        elif path.is_file():
            yield decode(path.read_bytes()), str(path)
        else:
            raise HistoryError(f"no such file or directory: {source}")
    elif isinstance(source, (bytes, bytearray)):
        yield decode(bytes(source)), None
    elif hasattr(source, "read"):
        data = source.read()
        where = getattr(source, "name", None)
        yield (decode(data) if isinstance(data, bytes) else data), (str(where) if where else None)
    else:
        raise HistoryError(
            f"read() takes a path, an open file or text; got {type(source).__name__}"
        )


#: What splits lines besides "\n" (``str.splitlines``), and a byte-order mark where a
#: file was glued after another: text holding one is split line by line.
_ODD_BREAKS = re.compile("[\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029\ufeff]")


def _hands(text: str, grammars: Iterable[Grammar]) -> Iterator[tuple[Grammar, str, int]]:
    """Each hand of ``text``: its room's grammar, its lines joined by ``"\n"``, and
    the number of its first line."""
    text = text.lstrip("\ufeff")
    if "\r\n" in text:  # Windows' line ends: the same lines
        text = text.replace("\r\n", "\n")
    grammars = list(grammars)
    if _ODD_BREAKS.search(text):
        for grammar, lines, first in _hands_by_line(text, grammars):
            yield grammar, "\n".join(lines), first
        return
    patterns = tuple(g.start.pattern for g in grammars)
    starts, line_starts = _starts(patterns), _line_starts(patterns)
    start: tuple[Grammar, int, int] | None = None  # grammar, offset, line number
    counted, line_no = 0, 1
    for candidate in line_starts.finditer(text):
        at = candidate.start()
        end = text.find("\n", at)
        found = starts.match(text[at : end if end >= 0 else len(text)])
        if found is None:  # the lookahead may read past the line: the line must match
            continue
        line_no += text.count("\n", counted, at)
        counted = at
        if start is not None:
            yield start[0], text[start[1] : at - 1], start[2]
        start = (grammars[int(str(found.lastgroup)[1:])], at, line_no)
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
    """Finds the lines where any of ``patterns`` may match (each is checked after)."""
    unnamed = (re.sub(r"\(\?P<\w+>", "(?:", pattern) for pattern in patterns)
    return re.compile("^(?=" + "|".join(f"(?:{p})" for p in unnamed) + ")", re.MULTILINE)


@functools.lru_cache(maxsize=16)
def _starts(patterns: tuple[str, ...]) -> re.Pattern[str]:
    """One pattern for the first lines of many rooms: a group ``g<i>`` each (their
    own named groups unnamed, as two rooms may use the same names)."""
    unnamed = (re.sub(r"\(\?P<\w+>", "(?:", pattern) for pattern in patterns)
    return re.compile("|".join(f"(?P<g{i}>{pattern})" for i, pattern in enumerate(unnamed)))


@overload
def read(source: object, *, site: str | None = None,
         errors: Literal["raise"] = "raise") -> Iterator[History]: ...  # fmt: skip
@overload
def read(source: object, *, site: str | None = None,
         errors: Literal["collect"]) -> Iterator[History | HistoryError]: ...  # fmt: skip
def read(source: object, *, site: str | None = None,
         errors: str = "raise") -> Iterator[History | HistoryError]:  # fmt: skip
    """Every hand in ``source`` (a path to a file or a directory, an open file, bytes,
    or the text itself), replayed. ``site`` limits the rooms looked for (the room of
    each hand is found from its first line otherwise). With ``errors="collect"`` a
    hand that cannot be read is yielded as its :class:`HistoryError` and reading
    goes on; with ``"raise"`` (the default) the error is raised.

    >>> from studeval.histories.pokerstars import POKERSTARS_EXAMPLE
    >>> bad = POKERSTARS_EXAMPLE.replace("calls $0.02", "calls $0.03", 1)
    >>> [type(h).__name__ for h in read(bad + POKERSTARS_EXAMPLE, errors="collect")]
    ['HistoryError', 'History']
    """
    if errors not in ("raise", "collect"):
        raise HistoryError(f"errors must be 'raise' or 'collect'; got {errors!r}")
    if site is not None and site not in SITES:
        raise HistoryError(f"unknown site {site!r}; known: {', '.join(SITES)}")
    grammars = [g for g in GRAMMARS if site in (None, g.site)]
    for text, where in _texts(source):
        xml = _xml_room(text)
        found: Iterable[History | Transcript | HistoryError]
        if xml is not None:
            found = xml[1](text.lstrip("\ufeff"), 1, where) if site in (None, xml[0]) else ()
        else:
            found = (_read_text(g, hand, first, where) for g, hand, first in _hands(text, grammars))
        for transcript in found:
            yield _replayed(transcript, errors)


def _read_text(grammar: Grammar, text: str, first: int,
               where: str | None) -> History | Transcript | HistoryError:  # fmt: skip
    """The hand read in C when its room has templates and the C reader is sure of it;
    else its transcript, for the general replay."""
    if grammar.templates:
        history = read_fast(grammar, text, first, where)
        if history is not None:
            return history
    try:
        return read_hand(grammar, text.split("\n"), first, where)
    except HistoryError as err:
        return err


def _replayed(found: History | Transcript | HistoryError, errors: str) -> History | HistoryError:
    try:
        if isinstance(found, HistoryError):
            raise found
        if isinstance(found, History):
            return found
        return replay(found)
    except HistoryError as err:
        if errors == "raise":
            raise
        return err
