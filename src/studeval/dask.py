"""Rank hands held in Dask arrays and dataframes, lazily, one block at a time.

Install with ``pip install "studeval[dask]"``. Each block (array chunk or dataframe
partition) goes through studeval's numpy batch call on whichever worker holds it,
so data larger than one machine's memory is ranked where it lives, and nothing runs
until you call ``.compute()`` (or write the result out).

>>> import dask.array as da, numpy as np
>>> from studeval.stream import random_hands
>>> cards = da.from_array(random_hands(1000, seed=1), chunks=(250, 7))
>>> high = high_ranks(cards)
>>> high.chunks[0], high.dtype.name
((250, 250, 250, 250), 'uint16')
>>> import studeval
>>> bool((high.compute() == studeval.high_ranks(cards.compute())).all())
True

Each block uses ``threads`` threads (default 1): Dask already runs one block per
worker thread, so more would oversubscribe the cores.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from studeval import batch
from studeval.batch import NO_LOW, Ranks

if TYPE_CHECKING:
    import dask.array
    import dask.dataframe

__all__ = [
    "NO_LOW",
    "all_ranks",
    "high_ranks",
    "low8_ranks",
    "low_ranks",
    "rank_dataframe",
]

_RANKINGS = ("high", "low", "low8")


def _check_cards(cards: Any) -> dask.array.Array:
    import dask.array as da

    from studeval.errors import BatchDtypeError, BatchShapeError

    if not isinstance(cards, da.Array):
        cards = da.asarray(cards)
    if cards.dtype.kind not in "iu":
        raise BatchDtypeError(cards.dtype)
    if cards.ndim != 2 or not 5 <= cards.shape[1] <= 7:
        raise BatchShapeError(tuple(cards.shape))
    if len(cards.chunks[1]) != 1:
        # A block must hold whole hands: keep every card of a row in one chunk.
        cards = cards.rechunk({1: -1})
    return cards


def _rank_block(block: np.ndarray, threads: int, check: bool) -> np.ndarray:
    """One block's (n, 3) ranks: high, low, low8 in columns."""
    ranks = batch.all_ranks(block, threads=threads, check=check)
    return np.stack(ranks, axis=1)


def _one_block(block: np.ndarray, which: str, threads: int, check: bool) -> np.ndarray:
    fn = {"high": batch.high_ranks, "low": batch.low_ranks, "low8": batch.low8_ranks}
    return fn[which](block, threads=threads, check=check)


def _ranks_of(cards: Any, which: str, threads: int, check: bool) -> dask.array.Array:
    cards = _check_cards(cards)
    return cards.map_blocks(
        _one_block, which, threads, check, drop_axis=1, dtype=np.uint16, meta=np.empty(0, np.uint16)
    )


def high_ranks(cards: Any, *, threads: int = 1, check: bool = True) -> dask.array.Array:
    """Lazy high ranks (1..7462, 1 = best) of every row of a Dask (N, k) integer array.

    Chunks along the rows are kept; a row split across chunks is rechunked whole.
    ``check`` as in :func:`studeval.high_ranks`: a bad row raises when computed.

    >>> import dask.array as da
    >>> high_ranks(da.from_array([[51, 47, 43, 39, 35]])).compute().tolist()
    [1]
    """
    return _ranks_of(cards, "high", threads, check)


def low_ranks(cards: Any, *, threads: int = 1, check: bool = True) -> dask.array.Array:
    """Lazy ace-to-five low ranks (1..6175) of every row; see :func:`high_ranks`.

    >>> import dask.array as da
    >>> low_ranks(da.from_array([[48, 1, 6, 11, 12]])).compute().tolist()
    [1]
    """
    return _ranks_of(cards, "low", threads, check)


def low8_ranks(cards: Any, *, threads: int = 1, check: bool = True) -> dask.array.Array:
    """Lazy 8-or-better low ranks (1..56, ``NO_LOW`` = 65535 for none) of every row.

    >>> import dask.array as da
    >>> low8_ranks(da.from_array([[48, 1, 6, 11, 12], [28, 1, 6, 11, 12]])).compute().tolist()
    [1, 65535]
    """
    return _ranks_of(cards, "low8", threads, check)


def all_ranks(cards: Any, *, threads: int = 1, check: bool = True) -> Ranks:
    """Lazy high, low and low8 ranks from one pass over each block.

    Returns a :class:`studeval.Ranks` of three Dask arrays that share the ranking
    tasks: ``dask.compute(*ranks)`` ranks each block once.

    >>> import dask, dask.array as da
    >>> ranks = all_ranks(da.from_array([[48, 1, 6, 11, 12, 51, 47]]))
    >>> [r.tolist() for r in dask.compute(*ranks)]
    [[1609], [1], [1]]
    """
    cards = _check_cards(cards)
    both = cards.map_blocks(
        _rank_block,
        threads,
        check,
        chunks=(cards.chunks[0], (3,)),
        dtype=np.uint16,
        meta=np.empty((0, 3), np.uint16),
    )
    return Ranks(both[:, 0], both[:, 1], both[:, 2])


def _text_cards(texts: list[str], index: Any) -> tuple[np.ndarray, np.ndarray | None]:
    """One text column's hands, row i from cell i; errors name the cell's index label."""
    from studeval.errors import StudevalError
    from studeval.stream import parse_texts

    try:
        chunk = parse_texts(texts)
    except StudevalError as err:
        row = getattr(err, "row", None)
        if row is not None:
            # Same error, same attributes; the message says where in the frame.
            label = index[row]
            label = label.item() if hasattr(label, "item") else label  # numpy scalars
            err.args = (f"{err} (the frame's row with index {label!r})",)
        raise
    return chunk.cards, chunk.sizes


def _category_dtype() -> Any:
    """The high category as a pandas categorical dtype, made once."""
    global _CATEGORY_DTYPE
    if _CATEGORY_DTYPE is None:
        import pandas as pd

        from studeval.classes import HIGH_CATEGORIES

        _CATEGORY_DTYPE = pd.CategoricalDtype(list(HIGH_CATEGORIES))
    return _CATEGORY_DTYPE


_CATEGORY_DTYPE: Any = None


def _rank_partition(
    frame: Any,
    columns: list[str],
    names: tuple[str, str, str],
    threads: int,
    check: bool,
    category: str | None,
) -> Any:
    import pandas as pd

    from studeval.stream import HandChunk, category_index, rank_chunk

    if len(columns) == 1:
        cards, sizes = _text_cards(frame[columns[0]].astype(str).tolist(), frame.index)
        high, low, low8 = rank_chunk(HandChunk(cards, sizes), threads=threads)
    else:
        # Card columns as Parquet gives them (uint8, one block) come over as a
        # column-major view, which the core ranks where it lies: no copy. (A frame of
        # the card columns alone is that view already, without a selection.)
        whole = len(frame.columns) == len(columns) and list(frame.columns) == columns
        cards = frame.to_numpy() if whole else frame[columns].to_numpy()
        ranks = batch.all_ranks(cards, threads=threads, check=check)
        high, low, low8 = ranks.high, ranks.low, ranks.low8
    added: dict[str, Any] = dict(zip(names, (high, low, low8), strict=True))
    if category is not None:
        codes = category_index(high).view(np.int8)  # 0..8: the same bytes
        added[category] = pd.Categorical.from_codes(codes, dtype=_category_dtype(), validate=False)
    if any(name in frame.columns for name in added):
        return frame.assign(**added)  # replaces the frame's columns of those names
    # The partition's own columns are shared, not copied (pandas copies on write);
    # a concatenation is a tenth of assign's time here.
    new = pd.DataFrame(added, index=frame.index, copy=False)
    if int(pd.__version__.split(".")[0]) < 3:  # before copy-on-write, say so
        return pd.concat([frame, new], axis=1, copy=False)
    return pd.concat([frame, new], axis=1)


def rank_dataframe(
    frame: dask.dataframe.DataFrame,
    columns: Sequence[str] | str,
    *,
    names: Sequence[str] = _RANKINGS,
    category: str | None = None,
    threads: int = 1,
    check: bool = True,
) -> dask.dataframe.DataFrame:
    """Add rank columns to a Dask dataframe of hands, lazily, partition by partition.

    ``columns`` names either 5 to 7 integer columns holding card codes (one card
    per column), or one text column holding each hand as card text ("As Kd 7h ...").
    Adds uint16 columns named by ``names`` (high, low, low8; low8 is ``NO_LOW`` when
    a hand has no qualifying low) and, when ``category`` names one, the high
    category as a pandas categorical.

    >>> import dask.dataframe as dd, pandas as pd
    >>> df = dd.from_pandas(pd.DataFrame({"hand": ["As Ks Qs Js Ts", "Ac 2d 3h 4s 5c Kd Kh"]}),
    ...                     npartitions=2)
    >>> ranked = rank_dataframe(df, "hand", category="category").compute()
    >>> ranked[["high", "low8", "category"]].values.tolist()
    [[1, 65535, 'Straight Flush'], [1609, 1, 'Straight']]
    """
    import pandas as pd

    from studeval.errors import OptionError

    column_list = [columns] if isinstance(columns, str) else list(columns)
    missing = [c for c in column_list if c not in frame.columns]
    if missing:
        raise OptionError(f"no such column(s) {missing}; the frame has {list(frame.columns)}")
    if len(column_list) != 1 and not 5 <= len(column_list) <= 7:
        raise OptionError(
            f"give one text column or 5 to 7 card-code columns; got {len(column_list)} columns"
        )
    name_tuple = tuple(names)
    if len(name_tuple) != 3:
        raise OptionError(f"names must be three column names (high, low, low8); got {names!r}")
    meta = frame._meta.copy()
    for name in name_tuple:
        meta[name] = pd.Series([], dtype=np.uint16)
    if category is not None:
        meta[category] = pd.Series([], dtype=_category_dtype())
    return frame.map_partitions(
        _rank_partition,
        column_list,
        name_tuple,
        threads,
        check,
        category,
        meta=meta,
    )
