"""Hands in bulk: text lines to card arrays and ranks back to text, chunk by chunk.

The streaming layer of the command line, in two halves: :mod:`studeval.parsing`
(card text to arrays) and :mod:`studeval.formatting` (ranks back to text). This
module ranks a parsed chunk and keeps the names of both halves importable from
one place, so that a pipeline needs one import.

>>> from studeval.stream import parse_block, rank_chunk
>>> high, low, low8 = rank_chunk(parse_block(b"As Ks Qs Js Ts\\n"))
>>> int(high[0]), int(low[0]), int(low8[0])
(1, 1279, 65535)
"""

from __future__ import annotations

import numpy as np

from studeval.batch import all_ranks
from studeval.errors import InvalidLineError
from studeval.formatting import FORMATS, category_index, format_header, format_rows
from studeval.parsing import (
    CHUNK_BYTES,
    HandChunk,
    iter_blocks,
    iter_chunks,
    parse_block,
    parse_texts,
    random_hands,
    raw_blocks,
    row_codes,
)

__all__ = [
    "CHUNK_BYTES",
    "FORMATS",
    "HandChunk",
    "InvalidLineError",
    "category_index",
    "format_header",
    "format_rows",
    "iter_blocks",
    "iter_chunks",
    "parse_block",
    "parse_texts",
    "random_hands",
    "rank_chunk",
    "raw_blocks",
    "row_codes",
]


def rank_chunk(
    chunk: HandChunk, *, threads: int | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Rank a chunk's hands: (high, low, low8), each uint16 (n,).

    Hands of different sizes are ranked in one batch per size. low8 is
    :data:`studeval.NO_LOW` for a hand with no qualifying low.

    >>> high, low, low8 = rank_chunk(parse_block(b"As Ks Qs Js Ts\\n"))
    >>> int(high[0]), int(low[0]), int(low8[0])
    (1, 1279, 65535)
    """
    # parse_block rejects bad cards and duplicates, so the batch need not check.
    if chunk.sizes is None:
        ranks = all_ranks(chunk.cards, threads=threads, check=False)
        return ranks.high, ranks.low, ranks.low8
    n = len(chunk)
    high = np.empty(n, dtype=np.uint16)
    low = np.empty(n, dtype=np.uint16)
    low8 = np.empty(n, dtype=np.uint16)
    for size in np.unique(chunk.sizes).tolist():
        rows = np.flatnonzero(chunk.sizes == size)
        ranks = all_ranks(
            np.ascontiguousarray(chunk.cards[rows, :size]), threads=threads, check=False
        )
        high[rows], low[rows], low8[rows] = ranks.high, ranks.low, ranks.low8
    return high, low, low8
