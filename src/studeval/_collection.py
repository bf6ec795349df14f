"""Python's cyclic garbage collector paused while a bulk read builds its rows.

Reading a folder of histories builds hundreds of thousands of lists, tuples and
dicts that all live until the frame or the database batch is made. Each of them
counts towards the collector's next run, and its full runs walk every object the
process holds: on 32,000 PokerStars hands they took about a fifteenth of
``analyze_many``'s time and freed nothing (every object built is kept, and the
reading makes no reference cycles: a refusal is kept without its traceback,
:func:`studeval.histories._record.kept`, whose frames would hold the file's text).
Reference counting still frees every temporary at once; only the search for cycles
waits until the outermost bulk read returns.

The pause nests and is shared by threads (Dask's threaded workers read files side by
side): the collector runs again when the last reader leaves, and only if it ran when
the first came in, so a program that turned it off keeps it off.

>>> import gc
>>> with collection_paused():
...     with collection_paused():
...         inside = gc.isenabled()
>>> inside, gc.isenabled()
(False, True)
"""

from __future__ import annotations

import contextlib
import gc
import threading
from collections.abc import Iterator

__all__ = ["collection_paused"]

_lock = threading.Lock()
_readers = 0
_was_enabled = False


@contextlib.contextmanager
def collection_paused() -> Iterator[None]:
    """The collector paused for the block (see the module's docstring)."""
    global _readers, _was_enabled
    entered = False
    try:
        # Inside the try: a Ctrl-C between counting this reader in and the block
        # still counts it out.
        with _lock:
            if _readers == 0:
                _was_enabled = gc.isenabled()
                gc.disable()
            _readers += 1
            entered = True
        yield
    finally:
        if entered:
            with _lock:
                _readers -= 1
                if _readers == 0 and _was_enabled:
                    gc.enable()
