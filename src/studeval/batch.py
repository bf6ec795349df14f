"""Rank numpy batches of hands: every row of an (N, k) integer array, k in 5..7.

The C core ranks C-contiguous ``uint8`` rows fastest, with the GIL released and
rows split over threads. Other integer dtypes and layouts are converted first.

>>> import numpy as np
>>> hands = np.array([[51, 47, 43, 39, 35, 0, 5], [20, 13, 10, 7, 0, 30, 49]], dtype=np.uint8)
>>> high_ranks(hands).tolist()
[1, 1609]
>>> ranks = all_ranks(hands)
>>> ranks.low.tolist(), ranks.low8.tolist()
([379, 1], [65535, 1])
>>> high_ranks(np.array([[0, 0, 1, 2, 3]]))
Traceback (most recent call last):
...
studeval.errors.DuplicateCardError: duplicate card 2c in row 0
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple, cast

from studeval import _core
from studeval.errors import (
    BatchDtypeError,
    BatchOutputError,
    BatchShapeError,
    DuplicateCardError,
    InvalidCardError,
    OptionError,
)

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

# numpy is imported on first use, not at import time: it costs more than all of
# studeval's own import, and single-hand users never need it.

__all__ = [
    "NO_LOW",
    "Ranks",
    "all_ranks",
    "high_ranks",
    "low8_ranks",
    "low_ranks",
]

NO_LOW: int = _core.NO_LOW


class Ranks(NamedTuple):
    """The three rankings of a batch, each ``numpy.uint16`` of shape (N,)."""

    high: npt.NDArray[np.uint16]
    """High ranks, 1 (royal flush) .. 7462 (7-5-4-3-2 unsuited)."""
    low: npt.NDArray[np.uint16]
    """Ace-to-five low ranks, 1 (5-4-3-2-A) .. 6175 (K-K-K-K-Q)."""
    low8: npt.NDArray[np.uint16]
    """8-or-better low ranks 1..56, or :data:`NO_LOW` (65535) when no low qualifies."""


def _as_code_rows(cards: npt.ArrayLike) -> npt.NDArray[np.uint8]:
    """A uint8 (N, k) array whose rows the C core can read (a copy when it must be)."""
    import numpy as np

    try:
        array = np.asarray(cards)
    except ValueError:  # ragged nested sequences
        raise BatchShapeError(None) from None
    if array.size == 0 and array.dtype.kind == "f":
        # numpy gives an empty list the float dtype; the problem is the shape.
        raise BatchShapeError(array.shape)
    if array.dtype.kind not in "iu":
        raise BatchDtypeError(array.dtype)
    if array.ndim != 2 or not 5 <= array.shape[1] <= 7:
        raise BatchShapeError(array.shape)
    if array.dtype != np.uint8:
        # Out-of-range codes become the invalid byte 255, so the C check finds
        # the first bad row whatever its fault (range or duplicate) and, unchecked,
        # they give meaningless ranks but never out-of-bounds reads.
        out_of_range = (array < 0) | (array > 51)
        array = array.astype(np.uint8)  # wraps out-of-range values; they are reset next
        array[out_of_range] = 255
    # The core reads any positive strides (C or Fortran order, strided views) where the
    # cards lie; only negative or zero strides, or C-order rows that overlap, are copied.
    row, col = array.strides
    if row < 1 or col < 1 or (col == 1 and row < array.shape[1]):
        array = np.ascontiguousarray(array)
    return array


def _raise_row_error(cards: npt.NDArray[np.integer], row: int) -> None:
    """Name what is wrong with a row the C check rejected, with the caller's values."""
    values = cards[row].tolist()
    for value in values:
        if not 0 <= value <= 51:
            raise InvalidCardError(value, row=row, detail="codes are 0..51")
    seen: set[int] = set()
    for value in values:
        if value in seen:
            raise DuplicateCardError(value, row=row)
        seen.add(value)
    raise AssertionError(f"row {row} was reported invalid but looks valid: {values}")


def whole_arg(value: object, message: str) -> int:
    """``value`` as an int: a whole number (numpy's integers too), never a bool or a
    float cut to one; else an OptionError with ``message``.

    >>> whole_arg(3, "n"), whole_arg(True, "n must be a whole number")
    Traceback (most recent call last):
    ...
    studeval.errors.OptionError: n must be a whole number
    """
    if isinstance(value, bool) or not hasattr(type(value), "__index__"):
        raise OptionError(message)
    return int(value.__index__())  # type: ignore[attr-defined]


def threads_arg(threads: object) -> int:
    """``threads`` as the C core takes it: 0 for every core, else 1..256."""
    if threads is None:
        return 0
    count = whole_arg(threads, f"threads must be a whole number of threads or None; got "
                               f"{threads!r}")  # fmt: skip
    if count < 1:
        raise OptionError(f"threads must be at least 1 (or None for every core); got {count}")
    return min(count, _core.MAX_THREADS)  # the core's cap; also keeps the value a C int


def _check_arg(check: object) -> bool:
    """``check`` as a bool: True/False (numpy's too) or 0/1, nothing else."""
    import numpy as np

    if isinstance(check, (bool, np.bool_)):
        return bool(check)
    is_int = not isinstance(check, np.ndarray) and hasattr(type(check), "__index__")
    if is_int and int(check.__index__()) in (0, 1):  # type: ignore[attr-defined]
        return bool(check)
    raise OptionError(f"check must be True or False; got {check!r}")


def _refuse_overlap(
    inputs: tuple[object, ...], outputs: tuple[object, ...], names: tuple[str, ...]
) -> None:
    """The caller's outputs may share memory neither with the cards nor with each other.

    ``inputs`` are the cards as given and as converted for the core (often the
    same array). The core reads the cards while threads write the ranks, so an
    overlap gives wrong ranks (or errors about cards that were never there),
    silently.
    """
    import numpy as np

    given = [(out, name) for out, name in zip(outputs, names, strict=True) if out is not None]
    arrays = [a for a in inputs if isinstance(a, np.ndarray)]
    for i, (out, name) in enumerate(given):
        if any(np.may_share_memory(out, a) for a in arrays):
            raise BatchOutputError(f"{name} shares memory with the cards; give a separate array")
        for other, other_name in given[:i]:
            if np.may_share_memory(out, other):
                raise BatchOutputError(
                    f"{name} shares memory with {other_name}; give each ranking its own array"
                )


def _output(out: object, n: int, name: str) -> npt.NDArray[np.uint16]:
    """A caller's output array, checked: writable uint16, shape (n,), no gaps."""
    import numpy as np

    if not isinstance(out, np.ndarray) or out.dtype != np.uint16:
        got = getattr(out, "dtype", type(out).__name__)
        raise BatchOutputError(f"{name} must be a numpy uint16 array; got {got}")
    if out.shape != (n,):
        raise BatchOutputError(f"{name} must have shape ({n},); got {out.shape}")
    if not out.flags.c_contiguous:
        raise BatchOutputError(
            f"{name} must be C-contiguous, as np.empty({n}, np.uint16) is; got a strided "
            f"view (strides {out.strides})"
        )
    if not out.flags.writeable:
        raise BatchOutputError(f"{name} is read-only")
    return out


#: (numpy.ndarray, numpy.empty, uint16): what the quick path needs of numpy, kept
#: once numpy is imported (a batch imports it; ``import studeval`` does not).
_NUMPY: tuple[type, Any, Any] | None = None


def _numpy() -> tuple[type, Any, Any]:
    global _NUMPY
    if _NUMPY is None:
        import numpy as np

        _NUMPY = (np.ndarray, np.empty, np.dtype(np.uint16))
    return _NUMPY


def _rank(
    cards: npt.ArrayLike,
    threads: int | None,
    check: bool,
    wanted: tuple[bool, bool, bool],
    out: tuple[object, object, object],
) -> tuple[npt.NDArray[np.uint16] | None, ...]:
    """Rank the rows for the wanted (high, low, low8) outputs, into ``out`` where given."""
    ndarray, empty, uint16 = _NUMPY or _numpy()
    n_threads = 0 if threads is None else threads_arg(threads)
    checked = check if check is True or check is False else _check_arg(check)
    if out[0] is None and out[1] is None and out[2] is None and type(cards) is ndarray:
        # The common case, kept quick for small batches: an array the core reads as
        # it is, into new outputs (which overlap nothing, so there is nothing to check).
        try:
            done = _core.rank_fresh(cards, empty, uint16, *wanted, n_threads, checked)
        except ValueError:  # numpy lends no buffer of datetimes: named below
            done = None
        if done is not None:
            if done.first_bad >= 0:
                _raise_row_error(cast("npt.NDArray[np.integer[Any]]", cards), done.first_bad)
            return done.high, done.low, done.low8
    import numpy as np

    rows = _as_code_rows(cards)
    n = rows.shape[0]
    names = ("out.high", "out.low", "out.low8") if sum(wanted) > 1 else ("out",) * 3
    outputs = tuple(
        None
        if not want
        else np.empty(n, dtype=np.uint16)
        if given is None
        else _output(given, n, name)
        for want, given, name in zip(wanted, out, names, strict=True)
    )
    # Arrays made here overlap nothing: only the caller's outputs need the check.
    given = tuple(o if g is not None else None for o, g in zip(outputs, out, strict=True))
    _refuse_overlap((cards,) if rows is cards else (cards, rows), given, names)
    high, low, low8 = outputs
    bad_row = _core.rank_batch(rows, high, low, low8, n_threads, checked)
    if bad_row >= 0:
        _raise_row_error(np.asarray(cards), bad_row)
    return outputs


def high_ranks(
    cards: npt.ArrayLike,
    *,
    threads: int | None = None,
    check: bool = True,
    out: npt.NDArray[np.uint16] | None = None,
) -> npt.NDArray[np.uint16]:
    """High rank (1..7462, 1 = best) of every row of an (N, k) integer array.

    ``threads=None`` uses every core. ``check=True`` rejects codes outside 0..51 and
    repeated cards, naming the first bad row; ``check=False`` skips that for speed
    (invalid rows then get meaningless ranks, but memory is never misread).
    ``out``, a contiguous uint16 array of shape (N,), receives the ranks instead of
    a new array: reusing it across calls saves the page faults of fresh memory.

    >>> import numpy as np
    >>> high_ranks(np.array([[48, 45, 42, 39, 32]])).tolist()
    [1600]
    >>> buffer = np.empty(1, dtype=np.uint16)
    >>> high_ranks(np.array([[48, 45, 42, 39, 32]]), out=buffer) is buffer
    True
    """
    (high, _, _) = _rank(cards, threads, check, (True, False, False), (out, None, None))
    assert high is not None
    return high


def low_ranks(
    cards: npt.ArrayLike,
    *,
    threads: int | None = None,
    check: bool = True,
    out: npt.NDArray[np.uint16] | None = None,
) -> npt.NDArray[np.uint16]:
    """Ace-to-five low rank (1..6175, 1 = 5-4-3-2-A) of every row; see :func:`high_ranks`.

    >>> import numpy as np
    >>> low_ranks(np.array([[48, 1, 6, 11, 12]])).tolist()
    [1]
    """
    (_, low, _) = _rank(cards, threads, check, (False, True, False), (None, out, None))
    assert low is not None
    return low


def low8_ranks(
    cards: npt.ArrayLike,
    *,
    threads: int | None = None,
    check: bool = True,
    out: npt.NDArray[np.uint16] | None = None,
) -> npt.NDArray[np.uint16]:
    """8-or-better low rank (1..56) of every row, ``NO_LOW`` (65535) when none qualifies.

    >>> import numpy as np
    >>> low8_ranks(np.array([[48, 1, 6, 11, 12], [28, 1, 6, 11, 12]])).tolist()
    [1, 65535]
    """
    (_, _, low8) = _rank(cards, threads, check, (False, False, True), (None, None, out))
    assert low8 is not None
    return low8


def all_ranks(
    cards: npt.ArrayLike,
    *,
    threads: int | None = None,
    check: bool = True,
    out: Ranks | None = None,
) -> Ranks:
    """High, A-5 low and 8-or-better ranks of every row, from one pass over the cards.

    ``out`` may be a :class:`Ranks` of three uint16 arrays of shape (N,) to fill.

    >>> import numpy as np
    >>> ranks = all_ranks(np.array([[48, 1, 6, 11, 12, 51, 47]]))
    >>> ranks.high.tolist(), ranks.low.tolist(), ranks.low8.tolist(), ranks.high.dtype
    ([1609], [1], [1], dtype('uint16'))
    """
    given: tuple[object, object, object] = (None, None, None)
    if out is not None:
        if not isinstance(out, tuple) or len(out) != 3:
            raise BatchOutputError("out must be a Ranks of three uint16 arrays (high, low, low8)")
        given = (out[0], out[1], out[2])
    high, low, low8 = _rank(cards, threads, check, (True, True, True), given)
    assert high is not None and low is not None and low8 is not None
    return Ranks(high, low, low8)
