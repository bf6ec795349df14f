"""Hand histories from card rooms, read and proven by replaying them.

:func:`read` takes a file, a directory (read recursively), an open file or the
text itself, finds each hand and its room, and yields a :class:`History` whose
``hand`` is a finished :class:`~studeval.StudHand` that played every line: each
amount the text records is checked against the engine, and a hand that
disagrees is a :class:`HistoryError` naming the room, the hand and the line.
:data:`ROOMS` lists the rooms read (a :class:`Room` each); each room's writer
writes a finished hand in its words (:class:`Table` names the seats).

>>> [h.hand_id for h in read(EXAMPLE)]
['20261202017']
>>> from studeval.play import random_hand
>>> hand = random_hand("razz", 3, seed=5)
>>> text = room("OnGame").write(hand, Table(names=["Ann", "Bob", "Cy"]))
>>> history = next(read(text))
>>> history.site, history.hand.stacks == hand.stacks
('OnGame', True)
"""

from studeval.histories._example import EXAMPLE
from studeval.histories._reader import SeenHands, find_site, read
from studeval.histories._record import (
    ConflictingHandError,
    DuplicateHandError,
    DuplicateHandsWarning,
    HeadlessHandError,
    History,
    HistoryError,
    NotAHistoryError,
    NotStudError,
    OutsideHandsError,
    Player,
    UnreadableFileError,
)
from studeval.histories._room import Room
from studeval.histories._writer import Table
from studeval.histories.rooms import ROOMS, SITES, room

__all__ = [
    "EXAMPLE", "ROOMS", "SITES", "ConflictingHandError", "DuplicateHandError",
    "DuplicateHandsWarning", "HeadlessHandError", "History",
    "HistoryError", "NotAHistoryError", "NotStudError", "OutsideHandsError", "Player", "Room",
    "SeenHands", "Table", "UnreadableFileError", "find_site", "read", "room",
]  # fmt: skip

# Tracebacks and reprs name the public module, where users import them from.
for _public in (ConflictingHandError, DuplicateHandError, DuplicateHandsWarning,
                HeadlessHandError, History,
                HistoryError, Player, NotAHistoryError, NotStudError, OutsideHandsError, Room,
                SeenHands, Table, UnreadableFileError):  # fmt: skip
    _public.__module__ = __name__
del _public
