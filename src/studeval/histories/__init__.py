"""Hand histories from card rooms, read and proven by replaying them.

:func:`read` takes a file, a directory (read recursively), an open file or the
text itself, finds each hand and its room, and yields a :class:`History` whose
``hand`` is a finished :class:`~studeval.StudHand` that played every line: each
amount the text records is checked against the engine, and a hand that
disagrees is a :class:`HistoryError` naming the room, the hand and the line.

>>> from studeval.histories.pokerstars import POKERSTARS_EXAMPLE
>>> [h.hand_id for h in read(POKERSTARS_EXAMPLE)]
['20261202017']
"""

from studeval.histories._reader import SITES, SeenHands, find_site, read
from studeval.histories._record import (
    DuplicateHandError,
    DuplicateHandsWarning,
    History,
    HistoryError,
    NotAHistoryError,
    NotStudError,
    Player,
    UnreadableFileError,
)

__all__ = [
    "SITES", "DuplicateHandError", "DuplicateHandsWarning", "History", "HistoryError",
    "NotAHistoryError", "NotStudError", "Player", "SeenHands", "UnreadableFileError",
    "find_site", "read",
]  # fmt: skip

# Tracebacks and reprs name the public module, where users import them from.
for _public in (DuplicateHandError, DuplicateHandsWarning, History, HistoryError, Player,
                NotAHistoryError, NotStudError, SeenHands, UnreadableFileError):  # fmt: skip
    _public.__module__ = __name__
del _public
