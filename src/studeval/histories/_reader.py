"""Finding the hands in files, directories, open files and strings, and their rooms.

>>> sorted(SITES)
['Full Tilt Poker', 'PokerStars']
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Literal, overload

from studeval.histories._grammar import Grammar, read_hand
from studeval.histories._record import History, HistoryError
from studeval.histories._replay import replay
from studeval.histories._text import decode
from studeval.histories.fulltilt import GRAMMAR as FULL_TILT
from studeval.histories.pokerstars import GRAMMAR as POKERSTARS

__all__ = ["SITES", "find_site", "read"]

#: Every room read, by the name ``read(site=...)`` takes.
SITES: dict[str, Grammar] = {g.site: g for g in (POKERSTARS, FULL_TILT)}


def find_site(text: str) -> str | None:
    """The room whose hand starts ``text``'s first hand, or ``None`` (PHH, say).

    >>> from studeval.histories.pokerstars import POKERSTARS_EXAMPLE
    >>> find_site(POKERSTARS_EXAMPLE), find_site('variant = "F7S"')
    ('PokerStars', None)
    """
    for line in text.lstrip("\ufeff").splitlines():
        for grammar in SITES.values():
            if grammar.start.match(line):
                return grammar.site
    return None


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


def _hands(
    text: str, where: str | None, grammars: Iterable[Grammar]
) -> Iterator[tuple[Grammar, list[str], int]]:
    lines = text.lstrip("\ufeff").splitlines()
    grammars = list(grammars)
    start: tuple[Grammar, int] | None = None
    for number, line in enumerate(lines):
        found = next((g for g in grammars if g.start.match(line.lstrip("\ufeff"))), None)
        if found is None:
            continue
        if start is not None:
            yield start[0], lines[start[1] : number], start[1] + 1
        lines[number] = line.lstrip("\ufeff")
        start = (found, number)
    if start is not None:
        yield start[0], lines[start[1] :], start[1] + 1


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
    grammars = [SITES[site]] if site else list(SITES.values())
    for text, where in _texts(source):
        for grammar, lines, first in _hands(text, where, grammars):
            try:
                yield replay(read_hand(grammar, lines, first, where))
            except HistoryError as err:
                if errors == "raise":
                    raise
                yield err
