"""Ranks back to text, chunk by chunk: the formatting half of the stream layer.

``studeval rank`` writes millions of lines, so a chunk's lines are written by the
core from tables of ready-made field texts instead of one f-string per hand.

>>> import numpy as np
>>> cards = np.array([[51, 47, 43, 39, 35]], dtype=np.uint8)
>>> format_header("csv") + format_rows(cards, np.array([1]), np.array([1279]), "csv")
b'cards,high,category,low,low8\\nAs Ks Qs Js Ts,1,Straight Flush,1279,\\n'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from studeval import _core
from studeval._cardtext import TEXT_OF_CODE
from studeval.classes import HIGH_CATEGORIES, category_table
from studeval.errors import InvalidRankError, OptionError

if TYPE_CHECKING:
    import numpy as np

__all__ = ["FORMATS", "category_index", "check_format", "format_header", "format_rows"]

#: Output formats of :func:`format_rows`, the one list (``studeval rank --format``
#: offers these). numpy is imported by the functions that need it, so that the
#: command line can name the formats without loading it.
FORMATS = ("table", "csv", "jsonl")


def check_format(fmt: object) -> str:
    """Return ``fmt`` when it names an output format, else raise.

    >>> check_format("csv")
    'csv'
    >>> check_format("xml")
    Traceback (most recent call last):
    ...
    studeval.errors.OptionError: unknown format 'xml'; expected one of table, csv, jsonl
    """
    if fmt not in FORMATS:
        raise OptionError(f"unknown format {fmt!r}; expected one of {', '.join(FORMATS)}")
    return fmt


_MAX_CARDS = 7
_PAD = 255  # card slot of a hand shorter than the chunk's widest hand


# ---------------------------------------------------------------------------
# Output. Each field of a line (the first card, each later card, the high rank with
# its category, the low ranks with the line end) is an entry of a text table, and the
# core's se_format_rows concatenates a chunk's entries row by row: every text is
# made once here, and the core only copies bytes.


def category_index(high: np.ndarray) -> np.ndarray:
    """Map valid high ranks to category indexes 0..8 (straight flush .. high card),
    unchecked: the writer's ranks come from the core (:func:`studeval.classes.high_categories`
    checks them).

    >>> import numpy as np
    >>> category_index(np.array([1, 7462], dtype=np.uint16)).tolist()
    [0, 8]
    """
    # take() rather than indexing: a third faster on millions of ranks (numpy 2.x).
    return category_table().take(high)


_Table = tuple[bytes, "np.ndarray"]


def _table(texts: list[str]) -> _Table:
    """Texts as one byte string and the uint32 offsets of each entry. 64 spare bytes
    at the end let the core copy the last entries in fixed-size blocks too."""
    import numpy as np

    raw = [text.encode() for text in texts]
    offsets = np.zeros(len(raw) + 1, dtype=np.uint32)
    np.cumsum([len(data) for data in raw], out=offsets[1:])
    return b"".join(raw) + bytes(64), offsets


@dataclass(frozen=True)
class _Format:
    first_card: _Table  # by code (255: none); the first card and any prefix
    next_card: _Table  # by code (255: none); a space and the card
    high: _Table  # by high rank: the rank and its category, each after its separator
    low: _Table  # by low rank: the low, the 8-or-better low, the line end


_formats: dict[str, _Format] = {}
_NAMES = list(TEXT_OF_CODE)


def _format_tables(fmt: str) -> _Format:
    import numpy as np

    cached = _formats.get(fmt)
    if cached is not None:
        return cached
    check_format(fmt)
    none = [""] * (256 - 52)
    # The category follows from the high rank, and the 8-or-better low from the low
    # rank (the qualifying lows are exactly low ranks 1..56), so one lookup
    # writes each pair of fields.
    categories = [HIGH_CATEGORIES[i] for i in category_index(np.arange(7463)).tolist()]
    low8 = [""] + [str(i) if i <= 56 else "" for i in range(1, 6176)]
    if fmt == "csv":
        tables = _Format(
            _table(_NAMES + none),
            _table([" " + n for n in _NAMES] + none),
            _table([f",{i},{c}" for i, c in enumerate(categories)]),
            _table([f",{i},{low8[i]}\n" for i in range(6176)]),
        )
    elif fmt == "table":
        # Fixed widths (a missing card is blanks), so that the columns line up.
        tables = _Format(
            _table(_NAMES + ["  "] * (256 - 52)),
            _table([" " + n for n in _NAMES] + ["   "] * (256 - 52)),
            _table([f"  {i:>4}  {c:<15} " for i, c in enumerate(categories)]),
            _table([f" {i:>4}  {low8[i] or '-':>4}\n" for i in range(6176)]),
        )
    else:  # jsonl
        tables = _Format(
            _table(['{"cards": "' + n for n in _NAMES] + none),
            _table([" " + n for n in _NAMES] + none),
            _table([f'", "high": {i}, "category": "{c}"' for i, c in enumerate(categories)]),
            _table([f', "low": {i}, "low8": {low8[i] or "null"}}}\n' for i in range(6176)]),
        )
    _formats[fmt] = tables
    return tables


def _ranks16(ranks: np.ndarray, last: int, what: str) -> np.ndarray:
    """Ranks as uint16 for the core, refusing values outside 1..last first (a cast
    would wrap them into other, wrong ranks; the core refuses 0 and above last)."""
    import numpy as np

    ranks = np.asarray(ranks)
    if ranks.dtype == np.uint16:
        return ranks
    if ranks.size and (ranks.min() < 1 or ranks.max() > last):
        bad = ranks[(ranks < 1) | (ranks > last)][0]
        raise InvalidRankError(bad.item(), what, last)
    return ranks.astype(np.uint16)


def format_header(fmt: str) -> bytes:
    """The header line of a format (empty for jsonl).

    >>> format_header("csv")
    b'cards,high,category,low,low8\\n'
    """
    if fmt == "csv":
        return b"cards,high,category,low,low8\n"
    if check_format(fmt) == "table":
        return f"{'cards':<20}  high  {'category':<15}   low  low8\n".encode()
    return b""  # jsonl


def format_rows(cards: np.ndarray, high: np.ndarray, low: np.ndarray, fmt: str = "csv") -> bytes:
    """Format ranked hands as lines of text (no header), all at once.

    ``cards`` is uint8 (n, k); slots holding 255 (shorter hands) are left out.
    ``high`` and ``low`` are the ranks; the category and the 8-or-better low follow
    from them (a low rank of 1..56 is the qualifying low; above is none).

    >>> import numpy as np
    >>> cards = np.array([[51, 47, 43, 39, 35], [48, 1, 6, 11, 12]], dtype=np.uint8)
    >>> high, low = np.array([1, 1609]), np.array([1279, 1])
    >>> print(format_rows(cards, high, low, "csv").decode(), end="")
    As Ks Qs Js Ts,1,Straight Flush,1279,
    Ac 2d 3h 4s 5c,1609,Straight,1,1
    >>> print(format_rows(cards[:1], high[:1], low[:1], "jsonl").decode(), end="")
    {"cards": "As Ks Qs Js Ts", "high": 1, "category": "Straight Flush", "low": 1279, "low8": null}
    >>> print((format_header("table") + format_rows(cards, high, low, "table")).decode(), end="")
    cards                 high  category          low  low8
    As Ks Qs Js Ts           1  Straight Flush   1279     -
    Ac 2d 3h 4s 5c        1609  Straight            1     1
    """
    import numpy as np

    tables = _format_tables(fmt)
    if not len(cards) == len(high) == len(low):
        raise OptionError(f"{len(cards)} hands but {len(high)} high and {len(low)} low ranks")
    n, ncards = cards.shape
    blank = np.full(n, _PAD, dtype=np.uint8)
    # The table format always writes seven card places; the others only the chunk's.
    columns = [cards[:, j] if j < ncards else blank
               for j in range(_MAX_CARDS if fmt == "table" else ncards)]  # fmt: skip
    fields = [(*tables.first_card, columns[0])]
    fields += [(*tables.next_card, column) for column in columns[1:]]
    fields += [(*tables.high, _ranks16(high, 7462, "high")),
               (*tables.low, _ranks16(low, 6175, "low"))]  # fmt: skip
    return _core.format_rows(fields, n)
