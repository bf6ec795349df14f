"""Ranks back to text, chunk by chunk: the formatting half of the stream layer.

``studeval rank`` writes millions of lines, so a chunk's lines are built as one
matrix of 4-byte cells with numpy lookups instead of one f-string per hand.

>>> import numpy as np
>>> cards = np.array([[51, 47, 43, 39, 35]], dtype=np.uint8)
>>> format_header("csv") + format_rows(cards, np.array([1]), np.array([1279]), "csv")
b'cards,high,category,low,low8\\nAs Ks Qs Js Ts,1,Straight Flush,1279,\\n'
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from studeval import _core
from studeval._cardtext import TEXT_OF_CODE
from studeval.classes import HIGH_CATEGORIES

__all__ = ["FORMATS", "category_index", "format_header", "format_rows"]

#: Output formats of :func:`format_rows`.
FORMATS = ("table", "csv", "jsonl")

_MAX_CARDS = 7
_PAD = 255  # card slot of a hand shorter than the chunk's widest hand
_SPACE = 32


# ---------------------------------------------------------------------------
# Output. A chunk's lines are built as a matrix of 4-byte cells, one row per hand:
# each field (a card, a rank with the separator before it, ...) is a lookup in a
# table of ready-made cells, gathered as uint32 so numpy moves whole cells. Field
# texts are padded with zero bytes to whole cells, and the zeros are dropped at the
# end; in the table format every entry of a field has the same width, so columns
# stay aligned.

_category_of_rank: np.ndarray | None = None


def category_index(high: np.ndarray) -> np.ndarray:
    """Map high ranks to category indexes 0..8 (straight flush .. high card).

    >>> category_index(np.array([1, 7462], dtype=np.uint16)).tolist()
    [0, 8]
    """
    global _category_of_rank
    if _category_of_rank is None:
        table = np.zeros(7463, dtype=np.uint8)
        # Asking the core for every rank keeps it the one source of the category
        # boundaries.
        for rank in range(1, 7463):
            table[rank] = _core.high_class(rank)[0]
        _category_of_rank = table
    return _category_of_rank[high]


def _cells(texts: list[str]) -> np.ndarray:
    """Texts as a (len, cells) uint32 table, each padded with zero bytes."""
    raw = [text.encode() for text in texts]
    ncells = max(1, -(-max(map(len, raw)) // 4))
    table = np.zeros((len(raw), 4 * ncells), dtype=np.uint8)
    for i, data in enumerate(raw):
        table[i, : len(data)] = np.frombuffer(data, dtype=np.uint8)
    return table.view(np.uint32)


@dataclass(frozen=True)
class _Format:
    first_card: np.ndarray  # by code (255: none); the first card and any prefix
    next_card: np.ndarray  # by code (255: none); a space and the card
    high: np.ndarray  # by high rank: the rank and its category, each after its separator
    low: np.ndarray  # by low rank: the low, the 8-or-better low, the line end


_formats: dict[str, _Format] = {}
_NAMES = list(TEXT_OF_CODE)


def _format_tables(fmt: str) -> _Format:
    cached = _formats.get(fmt)
    if cached is not None:
        return cached
    none = [""] * (256 - 52)
    # The category follows from the high rank, and the 8-or-better low from the low
    # rank (the qualifying lows are exactly low ranks 1..56), so one lookup
    # writes each pair of fields.
    categories = [HIGH_CATEGORIES[i] for i in category_index(np.arange(7463)).tolist()]
    low8 = [""] + [str(i) if i <= 56 else "" for i in range(1, 6176)]
    if fmt == "csv":
        tables = _Format(
            _cells(_NAMES + none),
            _cells([" " + n for n in _NAMES] + none),
            _cells([f",{i},{c}" for i, c in enumerate(categories)]),
            _cells([f",{i},{low8[i]}\n" for i in range(6176)]),
        )
    elif fmt == "jsonl":
        tables = _Format(
            _cells(['{"cards": "' + n for n in _NAMES] + none),
            _cells([" " + n for n in _NAMES] + none),
            _cells([f'", "high": {i}, "category": "{c}"' for i, c in enumerate(categories)]),
            _cells([f', "low": {i}, "low8": {low8[i] or "null"}}}\n' for i in range(6176)]),
        )
    elif fmt == "table":
        # Fixed widths that fill whole cells: no padding to drop (see _format_table).
        tables = _Format(
            np.array([int.from_bytes(n.encode(), "little") for n in _NAMES]
                     + [int.from_bytes(b"  ", "little")] * (256 - 52), dtype="<u2"),
            np.empty(0, dtype=np.uint32),
            _cells([f"  {i:>4}  {c:<15} " for i, c in enumerate(categories)]),
            _cells([f" {i:>4}  {low8[i] or '-':>4}\n" for i in range(6176)]),
        )  # fmt: skip
        assert tables.high.shape[1] * 4 == 24 and tables.low.shape[1] * 4 == 12
    else:
        raise ValueError(f"unknown format {fmt!r}; expected one of {', '.join(FORMATS)}")
    _formats[fmt] = tables
    return tables


def format_header(fmt: str) -> bytes:
    """The header line of a format (empty for jsonl).

    >>> format_header("csv")
    b'cards,high,category,low,low8\\n'
    """
    if fmt == "csv":
        return b"cards,high,category,low,low8\n"
    if fmt == "jsonl":
        return b""
    if fmt == "table":
        return f"{'cards':<20}  high  {'category':<15}   low  low8\n".encode()
    raise ValueError(f"unknown format {fmt!r}; expected one of {', '.join(FORMATS)}")


def format_rows(cards: np.ndarray, high: np.ndarray, low: np.ndarray, fmt: str = "csv") -> bytes:
    """Format ranked hands as lines of text (no header), all at once.

    ``cards`` is uint8 (n, k); slots holding 255 (shorter hands) are left out.
    ``high`` and ``low`` are the ranks; the category and the 8-or-better low follow
    from them (a low rank of 1..56 is the qualifying low; above is none).

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
    tables = _format_tables(fmt)
    if not len(cards) == len(high) == len(low):
        raise ValueError(f"{len(cards)} hands but {len(high)} high and {len(low)} low ranks")
    if fmt == "table":
        return _format_table(tables, cards, high, low)
    n, ncards = cards.shape
    fields = [(tables.high, high), (tables.low, low)]
    first_width = tables.first_card.shape[1]
    width = first_width + ncards - 1 + sum(table.shape[1] for table, _ in fields)
    out = np.empty((n, width), dtype=np.uint32)
    out[:, :first_width] = np.take(tables.first_card, cards[:, 0], axis=0)
    pos = first_width
    out[:, pos : pos + ncards - 1] = tables.next_card[:, 0][cards[:, 1:]]
    pos += ncards - 1
    for table, index in fields:
        cells = table.shape[1]
        out[:, pos : pos + cells] = np.take(table, index, axis=0)
        pos += cells
    # bytes.translate is the fastest way found to drop the padding (numpy's boolean
    # compress is about twice as slow per byte).
    return out.tobytes().translate(None, b"\0")


def _format_table(tables: _Format, cards: np.ndarray, high: np.ndarray, low: np.ndarray) -> bytes:
    """The table format: 56-byte rows, every field at a fixed place, nothing to drop.

    Card j's two characters sit at byte 3j. Even j is 2-byte aligned and goes
    through a uint16 view of the rows; odd j through a uint16 view that starts one
    byte in. The ranks fill whole 4-byte cells from byte 20 on.
    """
    n, ncards = cards.shape
    out = np.empty((n, 56), dtype=np.uint8)
    aligned = out.view("<u2")  # little-endian like the text table, on any machine
    shifted = out[:, 1:55].view("<u2")
    for j in range(_MAX_CARDS):
        column = cards[:, j] if j < ncards else _PAD
        text = np.take(tables.first_card, column)
        if j % 2 == 0:
            aligned[:, 3 * j // 2] = text
        else:
            shifted[:, (3 * j - 1) // 2] = text
    out[:, 2:20:3] = _SPACE
    cells = out.view(np.uint32)
    cells[:, 5:11] = np.take(tables.high, high, axis=0)
    cells[:, 11:14] = np.take(tables.low, low, axis=0)
    return out.tobytes()
