"""A card room as data: the :class:`Room` record that each room's module fills in
and the one list of rooms (``studeval.histories.rooms.ROOMS``) holds.

The reader, ``read(site=...)``, the command line's help, the tests and the docs all
take the rooms from that list, so that a room is added in one place: its module
(its words and its quirks) and one line of the list.

>>> from studeval.histories.rooms import room
>>> winning = room("Winning")
>>> [g.site for g in winning.formats], list(winning.writers)
(['Winning', 'Winning'], ['Winning', 'Winning 2016'])
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from studeval.histories._grammar import Grammar

if TYPE_CHECKING:
    from studeval.engine import StudHand
    from studeval.histories._record import History, HistoryError, Transcript
    from studeval.histories._writer import Table

__all__ = ["Room", "Writer", "XmlFiles", "XmlReader"]

#: A writer: a finished hand in a room's words (``Table`` names the seats and the chip).
Writer = Callable[["StudHand", "Table"], str]
#: An XML room's reader: the file's text, its first line, its name -> its hands (read
#: in C, or transcribed for the general replay, or refused).
XmlReader = Callable[[str, int, "str | None"], Iterator["History | Transcript | HistoryError"]]


@dataclass(frozen=True)
class XmlFiles:
    """An XML room's files: how one starts (its root element) and the reader that
    turns one into transcripts."""

    start: re.Pattern[str]
    read: XmlReader


@dataclass(frozen=True)
class Room:
    """One card room studeval reads.

    ``site`` is the name :func:`~studeval.histories.read` takes (``site=...``) and
    each :class:`~studeval.histories.History` holds; ``about`` says what of the
    room is read, in the words of the docs and the command line's help. A text
    room reads its hands by its ``formats`` (one :class:`Grammar` a format, the
    newest first; a hand's first line says which); an XML room by ``xml``.
    ``writers`` writes a finished hand in each format's words, by a name for the
    format (the room's own name for its newest); a room whose hands are all
    refused has none.

    >>> from studeval.histories.rooms import room
    >>> stars = room("PokerStars")
    >>> stars.site, len(stars.formats), sorted(stars.writers)
    ('PokerStars', 1, ['PokerStars', 'PokerStars Home Games'])
    """

    site: str
    about: str
    formats: tuple[Grammar, ...] = ()
    xml: XmlFiles | None = None
    writers: Mapping[str, Writer] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if bool(self.formats) == (self.xml is not None):
            raise ValueError(f"{self.site}: a room is read by text formats or by XML, one")
        if any(g.site != self.site for g in self.formats):
            raise ValueError(f"{self.site}: a format of another room")

    @property
    def refused(self) -> str | None:
        """Why every stud hand of the room is refused, or ``None`` (it is read)."""
        return next((g.refused for g in self.formats if g.refused is not None), None)

    def write(self, hand: StudHand, table: Table) -> str:
        """``hand`` in the room's newest format (a ``ValueError`` for a room whose
        hands are refused: it has no writer).

        >>> from studeval.histories.rooms import room
        >>> room("PartyPoker").write(None, None)  # type: ignore[arg-type]
        Traceback (most recent call last):
        ...
        ValueError: PartyPoker has no writer: its stud hands are refused (...)
        """
        if not self.writers:
            raise ValueError(f"{self.site} has no writer: its stud hands are refused "
                             f"({self.refused})")  # fmt: skip
        return next(iter(self.writers.values()))(hand, table)
