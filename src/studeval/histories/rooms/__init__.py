"""Every card room studeval reads, in one list: :data:`ROOMS`.

The reader finds a hand's room among these, ``read(site=...)`` takes their names,
and the command line's help, the tests and the docs list them from here. A room is
its module (its words and its quirks, as a :class:`~studeval.histories.Room`) and
one line below.

>>> [(r.site, r.refused is None) for r in ROOMS if r.xml is not None or r.refused]
[('PartyPoker', False), ('iPoker', True), ('Merge', True)]
>>> room("Merge").about
'its XML games'
"""

from __future__ import annotations

from studeval.histories._record import HistoryError
from studeval.histories._room import Room
from studeval.histories.rooms import (
    absolute,
    bovada,
    everleaf,
    fulltilt,
    ipoker,
    kingsclub,
    merge,
    ongame,
    partypoker,
    pokerstars,
    winamax,
    winning,
)  # fmt: skip

__all__ = ["ROOMS", "SITES", "room"]

#: Every room read, in the order the docs list them (a hand's room is found from
#: its first line, so the order decides nothing).
ROOMS: tuple[Room, ...] = (
    pokerstars.ROOM, fulltilt.ROOM, winning.ROOM, winamax.ROOM, bovada.ROOM, ongame.ROOM,
    everleaf.ROOM, partypoker.ROOM, ipoker.ROOM, merge.ROOM, absolute.ROOM,
    kingsclub.ROOM,
)  # fmt: skip

#: Every room's name, as ``read(site=...)`` takes it.
SITES: tuple[str, ...] = tuple(r.site for r in ROOMS)


def room(site: str) -> Room:
    """The room named ``site`` (a :class:`HistoryError` naming the known ones else).

    >>> room("PokerStars").about.split(",")[0]
    'cash games'
    """
    found = next((r for r in ROOMS if r.site == site), None)
    if found is None:
        raise HistoryError(f"unknown site {site!r}; known: {', '.join(SITES)}")
    return found
