"""Finding the hands in files, directories, open files and strings, and their rooms.

>>> from studeval.histories import EXAMPLE
>>> find_site(EXAMPLE), find_site("Notes on my session")
('PokerStars', None)
"""

from __future__ import annotations

import functools
import os
import re
import warnings
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Literal, overload

from studeval.histories._bulk import CompactHands, bulk_readable, read_bulk
from studeval.histories._fast import read_fast
from studeval.histories._files import FileText, file_text, files_in, whole_text
from studeval.histories._grammar import Grammar, read_hand
from studeval.histories._record import (
    ConflictingHandError,
    DuplicateHandError,
    DuplicateHandsWarning,
    HeadlessHandError,
    History,
    HistoryError,
    NotAHistoryError,
    OutsideHandsError,
    UnreadableFileError,
    kept,
)
from studeval.histories._replay import replay
from studeval.histories._room import XmlReader
from studeval.histories._seen import Found, SeenHands
from studeval.histories._spans import grammar_runs, piece_spans, span_found
from studeval.histories._split import hand_starts, pieces, starting_lines, trimmed
from studeval.histories._text import decode
from studeval.histories.rooms import ROOMS, SITES, room

__all__ = ["Compact", "SeenHands", "find_site", "read", "read_texts"]

#: The text formats read line by line, of every room (a room may have more than one).
GRAMMARS: tuple[Grammar, ...] = tuple(g for r in ROOMS for g in r.formats)


def find_site(text: str) -> str | None:
    """The room whose hand starts ``text``'s first hand, or ``None`` (PHH, say).

    >>> from studeval.histories import EXAMPLE
    >>> find_site(EXAMPLE), find_site('variant = "F7S"')
    ('PokerStars', None)
    """
    xml = _xml_room(text)
    if xml is not None:
        return xml[0]
    text = text.lstrip("\ufeff")
    # The first 64 KiB's whole lines first (a hand starts there but in odd files), then
    # the rest: cut at a "\n", the parts' lines are the text's, without splitting all
    # of a large file to read its first line.
    cut = text.rfind("\n", 0, 1 << 16)
    for part in (text[:cut], text[cut + 1 :]) if cut >= 0 else (text,):
        for line in part.splitlines():
            for grammar in GRAMMARS:
                if grammar.start.match(line):
                    return grammar.site
    return None


#: The rooms that write XML: each one's name, how its files start, and its reader.
_XML_ROOMS: tuple[tuple[str, re.Pattern[str], XmlReader], ...] = tuple(
    (r.site, r.xml.start, r.xml.read) for r in ROOMS if r.xml is not None
)


#: An XML declaration at a text's start, with what may come before it.
_DECLARATION = re.compile(r"\s*(?:\ufeff)?\s*<\?xml[^>]*\?>")


def _xml_room(text: str) -> tuple[str, XmlReader] | None:
    """The XML room whose file ``text`` is (its name and reader), or ``None``."""
    declared = _DECLARATION.match(text, 0, 500)
    head = text[declared.end() if declared else 0 : 500].lstrip("\ufeff")
    for name, start, reader in _XML_ROOMS:
        if start.match(head):
            return name, reader
    return None


#: The longest text taken for a path: a longer string is a history's text.
_LONGEST_PATH = 4096


def _looks_like_text(source: str) -> bool:
    """Whether the string ``source`` is a history's text rather than a path: it has
    a line end, is blank, starts with a tag, or starts a room's hand."""
    head = source[:_LONGEST_PATH].lstrip("\ufeff \t")
    return (
        len(source) > _LONGEST_PATH
        or any(end in source for end in "\n\r")
        or not head
        or head.startswith("<")
        or find_site(head) is not None
    )


def _texts(source: object, grammars: list[Grammar]) -> Iterator[FileText | HistoryError]:
    """The text of each file or text ``source`` names; a file that cannot be read is
    its :class:`UnreadableFileError` (and the files after it are still read)."""
    if isinstance(source, str) and _looks_like_text(source):
        yield whole_text(source, None)
    elif isinstance(source, (str, os.PathLike)):
        path = Path(source)
        try:
            is_dir, exists = path.is_dir(), path.exists() or path.is_symlink()
        except (OSError, ValueError) as err:  # a name too long, a NUL in it
            raise HistoryError(f"cannot read {str(source)[:200]!r}: {err}") from None
        starts = functools.partial(hand_starts, grammars=grammars)
        if is_dir:
            for child in files_in([path]):
                yield file_text(Path(child), starts)
        elif exists:
            yield file_text(path, starts)
        else:
            raise HistoryError(f"no such file or directory: {source}")
    elif isinstance(source, (bytes, bytearray)):
        yield whole_text(decode(bytes(source)), None)
    elif hasattr(source, "read"):
        data = source.read()
        where = getattr(source, "name", None)
        text = decode(data) if isinstance(data, bytes) else data
        yield whole_text(text, str(where) if where else None)
    else:
        raise HistoryError(
            f"read() takes a path, an open file or text; got {type(source).__name__}"
        )


#: Where an XML document may start in a text: a declaration, or a room's root element
#: (each at a line's start, spaces, tabs and byte-order marks aside).
_XML_START = re.compile(r"<(?:\?xml|session|description)\b")


def _xml_starts(text: str) -> Iterator[tuple[int, int, bool]]:
    """Each XML declaration or root element at a line's start: the line's offset, the
    offset past the tag's name, and whether it is a declaration."""
    for found in _XML_START.finditer(text):  # ("<" is searched for fast; "^" is not)
        line = text.rfind("\n", 0, found.start()) + 1
        if not text[line : found.start()].strip("\ufeff \t"):
            yield line, found.end(), text[found.start() + 1] == "?"


def _segments(text: str, grammars: list[Grammar]) -> list[tuple[str, int]]:
    """``text`` cut where one room's hands give way to another's: at each XML
    document (two sessions appended, or XML after text), and at the first text hand
    after an XML document. Each part with the number of its first line."""
    if "<" not in text:
        return [(text, 1)]
    cuts = {0}
    declared = -1  # where the last declaration ended: its root is no new document
    # The first text hand at or after a place, as last found: (the place, the hand or
    # None). No hand lies between the two, so a later place up to it has the same
    # answer, and past a search that found none there is none: each part of the
    # text is searched once, however many documents it holds.
    known: tuple[int, int | None] | None = None
    for start, at, declaration in _xml_starts(text):
        between = text[declared:start] if declared >= 0 else "-"
        if not declaration and not between.strip(" \t\r\n>"):
            continue  # the root of the document just declared
        if declaration:
            declared = text.find(">", at)
        cuts.add(start)
        # A room's text after the XML: its first hand is enough, the rest is read later.
        if known is None or at < known[0] or (known[1] is not None and at > known[1]):
            known = (at, next((s for s, _ in starting_lines(text, at, grammars)), None))
        if known[1] is not None:
            cuts.add(known[1])
    ordered = sorted(cuts)
    ends = [*ordered[1:], len(text)]
    parts, line, counted = [], 1, 0
    for a, b in zip(ordered, ends, strict=True):
        line += text.count("\n", counted, a)  # the lines before each part, counted once
        counted = a
        parts.append((text[a:b], line))
    return parts


@overload
def read(source: object, *, site: str | None = None, errors: Literal["raise"] = "raise",
         duplicates: Literal["drop", "keep"] | SeenHands = "drop"
         ) -> Iterator[History]: ...  # fmt: skip
@overload
def read(source: object, *, site: str | None = None, errors: Literal["collect"],
         duplicates: Literal["drop", "keep"] | SeenHands = "drop"
         ) -> Iterator[History | HistoryError]: ...  # fmt: skip
def read(source: object, *, site: str | None = None, errors: str = "raise",
         duplicates: str | SeenHands = "drop") -> Iterator[History | HistoryError]:  # fmt: skip
    """Every hand in ``source`` (a path to a file or a directory, an open file, bytes,
    or the text itself), replayed. ``site`` limits the rooms looked for (the room of
    each hand is found from its first line otherwise).

    Nothing is passed over in silence: every file and every hand is either read or
    reported as a :class:`HistoryError`. With ``errors="collect"`` each one is
    yielded in its place and reading goes on; with ``"raise"`` (the default) the
    first is raised. Its ``status`` says what it is: ``"refused"`` (the hand cannot
    be read, or its replay disagrees with the text); ``"not stud"``
    (:class:`NotStudError`: a hold'em, omaha, draw or five-card stud hand of a
    mixed-game file); ``"duplicate"`` (:class:`DuplicateHandError`: a hand already
    read, by room and hand id, as overlapping exports hold); ``"not a history"``
    (:class:`NotAHistoryError`: a file or text where no room's hand starts, that
    holds no hand history) and ``"unreadable"`` (:class:`UnreadableFileError`: a
    file that cannot be read at all).

    A hand is read once, by its room and hand id (``duplicates="keep"`` reads every
    copy; a :class:`SeenHands` counts hands once across calls). A later copy is
    yielded as its :class:`DuplicateHandError` with ``errors="collect"``; with
    ``"raise"`` it is dropped, and when reading ends one
    :class:`DuplicateHandsWarning` says how many copies were dropped and where the
    first one was.

    >>> from studeval.histories import EXAMPLE
    >>> bad = EXAMPLE.replace("calls $0.02", "calls $0.03", 1)
    >>> bad = bad.replace("#20261202017", "#20261202018")
    >>> [type(h).__name__ for h in read(bad + EXAMPLE, errors="collect")]
    ['HistoryError', 'History']
    >>> [h.status for h in read(EXAMPLE * 2, errors="collect")
    ...  if isinstance(h, HistoryError)]
    ['duplicate']
    >>> [h.status for h in read("Notes on my session.\\n", errors="collect")]
    ['not a history']
    """
    if errors not in ("raise", "collect"):
        raise HistoryError(f"errors must be 'raise' or 'collect'; got {errors!r}")
    if site is not None:
        room(site)  # a HistoryError naming the rooms when none is called so
    if duplicates not in ("drop", "keep") and not isinstance(duplicates, SeenHands):
        raise HistoryError(f"duplicates must be 'drop' or 'keep'; got {duplicates!r}")
    seen = SeenHands() if duplicates == "drop" else duplicates
    grammars = [g for g in GRAMMARS if site in (None, g.site)]
    yield from read_texts(_texts(source, grammars), site=site, errors=errors,
                          seen=seen if isinstance(seen, SeenHands) else None)  # fmt: skip


#: How the hands a room's C reader reads in bulk are given: one at a time (False),
#: in batches (True), in batches with the database's rows ("rows").
Compact = bool | Literal["rows"]


@overload
def read_texts(
    texts: Iterable[FileText | HistoryError], *, site: str | None, errors: str,
    seen: SeenHands | None, compact: Literal[False] = False,
) -> Iterator[History | HistoryError]: ...  # fmt: skip
@overload
def read_texts(
    texts: Iterable[FileText | HistoryError], *, site: str | None, errors: str,
    seen: SeenHands | None, compact: Compact,
) -> Iterator[History | CompactHands | HistoryError]: ...  # fmt: skip
def read_texts(
    texts: Iterable[FileText | HistoryError],
    *,
    site: str | None,
    errors: str,
    seen: SeenHands | None,
    compact: Compact = False,
) -> Iterator[History | CompactHands | HistoryError]:
    """:func:`read` over files' texts, or the errors that stood for files that could
    not be read; ``compact``: the hands a room's C reader reads where no seat went
    all in come in batches, :class:`~studeval.histories._bulk.CompactHands` (their
    nets are their results: what a tracker's rows need; ``"rows"``: with the
    database's rows too), each hand counted in ``seen`` as the others are."""
    grammars = [g for g in GRAMMARS if site in (None, g.site)]
    dropped: list[DuplicateHandError] = []
    for text in texts:
        if isinstance(text, HistoryError):
            yield _reported(text, errors)
            continue
        anything = False
        # Parts of a large file that held no hand:
        silent: list[OutsideHandsError | HeadlessHandError] = []
        try:
            for part, first in text.parts:
                held = False
                for found in _found(part, first, text.where, site, grammars, compact):
                    anything = held = True
                    while silent:  # text of no hand before, in a file that has hands
                        yield _reported(silent.pop(0), errors)
                    if isinstance(found, CompactHands):
                        yield from _unseen(found, seen, errors, dropped)
                        continue
                    if seen is not None:
                        copy = found
                        found = seen.check(found)
                        if isinstance(found, DuplicateHandError) and errors == "raise":
                            dropped.append(found)
                            continue
                        if found is copy and not isinstance(copy, NotAHistoryError):
                            # A copy refused is not the hand: a later copy is read.
                            forget = functools.partial(seen.forget, copy)
                            replayed = _replayed(found, errors, unseen=forget)
                            if isinstance(replayed, History):  # who was dealt in
                                seen.learn(replayed)
                            yield replayed
                            continue
                    yield _replayed(found, errors)
                if not held and part.strip() and _xml_room(part) is None:
                    silent.append(_outside(*trimmed(part, first), text.where))
        except UnreadableFileError as err:  # a disk error halfway through a large file
            anything = True
            yield _reported(kept(err), errors)
        # Text of no hand in a file that has hands, or a hand's body in a file where
        # none starts (its one hand's first line lost): said, never passed over.
        if anything or (site is None and any(isinstance(outside, HeadlessHandError)
                                             for outside in silent)):  # fmt: skip
            for outside in silent:
                yield _reported(outside, errors)
        else:
            yield _reported(_not_a_history(text.head, text.where, site), errors)
    if dropped:
        warnings.warn(DuplicateHandsWarning(dropped), stacklevel=3)


def _found(
    text: str, first_line: int, where: str | None, site: str | None, grammars: list[Grammar],
    compact: Compact,
) -> Iterator[Found | CompactHands]:  # fmt: skip
    """Each hand of a file's text (from its line ``first_line``), its room's
    reader's way (read in C, transcribed, or refused; ``compact``: batches of hands
    read in bulk, :func:`_bulk_found`)."""
    for part, first in _segments(text, grammars):
        first += first_line - 1
        xml = _xml_room(part)
        if xml is not None:
            if site in (None, xml[0]):
                yield from xml[1](part.lstrip("\ufeff"), first, where)
            continue
        if compact:
            yield from _bulk_found(part, first, where, grammars, compact == "rows")
            continue
        for grammar, hand, line in pieces(part, grammars):
            yield _read_text(grammar, hand, line + first - 1, where)


def _bulk_found(text: str, first: int, where: str | None, grammars: list[Grammar],
                rows: bool) -> Iterator[Found | CompactHands]:  # fmt: skip
    """:func:`_found`'s hands of one part, each run of one room's hands read in bulk
    where it can be (:func:`read_bulk`), the other hands one at a time, in order."""
    spans = piece_spans(text, grammars)
    if spans is not None:  # a plain text: its hands read where they lie
        yield from span_found(text, spans, first, where, rows, _read_text)
        return
    for run in grammar_runs(list(pieces(text, grammars, vectorized=True))):
        grammar = run[0][0]
        if grammar is None or not bulk_readable(grammar):
            for _, hand, line in run:
                yield _read_text(grammar, hand, line + first - 1, where)
            continue
        texts = [hand for _, hand, _ in run]
        lines = [line + first - 1 for _, _, line in run]
        for item in read_bulk(grammar, texts, lines, where, rows):
            if isinstance(item, int):  # not read in bulk: read the usual way
                yield _read_text(grammar, texts[item], lines[item], where)
            else:
                yield item


def _unseen(
    batch: CompactHands, seen: SeenHands | None, errors: str, dropped: list[DuplicateHandError]
) -> Iterator[CompactHands | HistoryError]:
    """A batch's hands not seen before, in batches, and in their places the copies
    of hands seen before (collected in ``dropped`` where errors are raised)."""
    if seen is None:
        yield batch
        return
    ids, lines, dealt = batch.key_columns()
    facts = batch.facts()
    if seen.all_first(batch.site, ids, batch.source, lines, dealt, facts):
        yield batch  # (the common case: one check for the batch, not one a hand)
        return
    kept: list[int] = []
    for position, (hand_id, line, players, known) in enumerate(
            zip(ids, lines, dealt, facts, strict=True)):  # fmt: skip
        copy = seen.once(batch.site, hand_id, batch.source, line, players, known)
        if copy is None:
            kept.append(position)
            continue
        if kept:
            yield batch.subset(kept)
            kept = []
        if errors != "raise":
            yield copy
        elif isinstance(copy, ConflictingHandError):
            raise copy
        else:
            dropped.append(copy)
    if len(kept) == len(batch):  # no copy: the batch itself, its names decoded once
        yield batch
    elif kept:
        yield batch.subset(kept)


def _not_a_history(text: str, where: str | None, site: str | None) -> NotAHistoryError:
    """Why no hand was found in ``text``."""
    if not text.strip():
        return NotAHistoryError("an empty file: no hand in it", source=where)
    if site is not None:
        return NotAHistoryError(f"no {site} hand in it", source=where)
    if re.search(r"^\s*variant\s*=", text, re.MULTILINE):
        return NotAHistoryError("a PHH record, not a room's history: studeval.phh reads it",
                                source=where)  # fmt: skip
    return NotAHistoryError(
        "not a hand history studeval reads (rooms: " + ", ".join(SITES) + "; or PHH)",
        source=where,
    )


def _reported(error: HistoryError, errors: str) -> HistoryError:
    if errors == "raise":
        raise error
    return error


def _outside(text: str, first: int, where: str | None) -> OutsideHandsError | HeadlessHandError:
    """Lines outside every hand, from line ``first``, reported; refused as a hand
    that lost its first line where they hold what a hand's body holds: seat lines
    and a deal (a deal line, or a street that deals cards as some room marks it). A
    summary's seat lines cut from their hand by a blank line deal nothing."""
    lines = text.split("\n")
    seats = sum(1 for line in lines if _SEAT_LINE.match(line))
    dealt = seats >= 2 and any(
        _DEALT.search(line) or 3 <= (grammar.street(line) or (0,))[0] <= 7
        for line in lines if len(line) <= _DEAL_LINE_MOST for grammar in GRAMMARS)  # fmt: skip
    error = HeadlessHandError if dealt else OutsideHandsError
    return error(lines[0], len(lines), line=first, source=where)


# A seat line of every text room ("Seat 3: Ann ($4 in chips)", "Seat 3 - Ann",
# Bovada's "Seat+3: 1,500 in chips").
_SEAT_LINE = re.compile(r"\s*Seat[ +]\d+\s*[:-]")
# A deal line of every text room ("Dealt to Ann [...]", Bovada's "Card dealt to a spot").
_DEALT = re.compile(r"\bdealt to\b", re.IGNORECASE)
# Longer lines outside every hand are not tried as deal lines: the rooms' deal and
# street lines are under 150 characters (a name of 50 and seven cards), and some
# street patterns take time in the square of a line's length.
_DEAL_LINE_MOST = 300


def _read_text(grammar: Grammar | None, text: str, first: int, where: str | None) -> Found:
    """The hand read in C when its room has templates and the C reader is sure of it;
    else its transcript, for the general replay; lines outside every hand (no
    ``grammar``), reported."""
    if grammar is None:
        return _outside(text, first, where)
    if grammar.templates:
        history = read_fast(grammar, text, first, where)
        if history is not None:
            return history
    try:
        return read_hand(grammar, text.split("\n"), first, where)
    except HistoryError as err:
        return kept(err)


def _replayed(found: Found, errors: str,
              unseen: Callable[[], None] | None = None) -> History | HistoryError:  # fmt: skip
    """The hand replayed, or why not; ``unseen`` is called when it is refused."""
    try:
        if isinstance(found, HistoryError):
            raise found
        if isinstance(found, History):
            return found
        return replay(found)
    except HistoryError as err:
        if unseen is not None and err.status == "refused":
            unseen()
        if errors == "raise":
            raise
        return kept(err)
