"""Bad input raises the right studeval error, naming the input (and the batch row).

Also: ``check=False`` on arbitrary bytes never crashes and still returns
``uint16`` arrays of the right shape.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import studeval
from studeval import (
    BatchDtypeError,
    BatchShapeError,
    DuplicateCardError,
    HandSizeError,
    InvalidCardError,
    OptionError,
    StudevalError,
    UnknownRankingError,
)

SINGLE = [studeval.high_rank, studeval.low_rank, studeval.low8_rank]
UP = [studeval.up_high_rank, studeval.up_low_rank]
BATCH = [studeval.high_ranks, studeval.low_ranks, studeval.low8_ranks, studeval.all_ranks]
DTYPES = [np.uint8, np.int8, np.int16, np.int32, np.int64, np.uint64]
GOOD7 = [51, 47, 43, 39, 35, 3, 7]  # As Ks Qs Js Ts 2s 3s


def names(fns: list[Callable[..., Any]]) -> list[str]:
    return [fn.__name__ for fn in fns]


# ---- single hands -------------------------------------------------------------


@pytest.mark.parametrize("fn", SINGLE, ids=names(SINGLE))
@pytest.mark.parametrize(
    ("hand", "bad"),
    [
        ("As Ks Qs Js Xx", "Xx"),
        ("As Ks Qs Js 1s", "1s"),
        ("As Ks Qs Js Ts Zz9", "Zz9"),
        (["As", "Ks", "Qs", "Js", "Tx"], "Tx"),
    ],
)
def test_bad_card_text(fn: Callable[..., Any], hand: Any, bad: str) -> None:
    with pytest.raises(InvalidCardError) as info:
        fn(hand)
    assert info.value.card == bad
    assert bad in str(info.value)
    assert isinstance(info.value, ValueError) and isinstance(info.value, StudevalError)


@pytest.mark.parametrize("fn", SINGLE + UP, ids=names(SINGLE + UP))
@pytest.mark.parametrize("bad", [52, -1, 255, 2**70, 1.5, True, None, "52"])
def test_bad_card_code(fn: Callable[..., Any], bad: Any) -> None:
    others = GOOD7[:3] if fn in UP else GOOD7[:4]
    for container in (list, tuple):
        hand = container([bad, *others])
        with pytest.raises(InvalidCardError) as info:
            fn(hand)
        assert info.value.card == bad
        assert repr(bad) in str(info.value)


@pytest.mark.parametrize("fn", SINGLE, ids=names(SINGLE))
@pytest.mark.parametrize("hand", [None, 42, b"AsKsQsJsTs", object()])
def test_not_a_hand(fn: Callable[..., Any], hand: Any) -> None:
    with pytest.raises(InvalidCardError):
        fn(hand)


DUPLICATES_FULL = [
    ([51, 47, 43, 39, 51], 51),
    ("As Ks Qs Js As", 51),
    (("Ac", "Kd", "Qh", "Js", "2c", "Ac"), 48),
    ([0, 1, 2, 3, 4, 5, 0], 0),
]
DUPLICATES_UP = [([51, 51], 51), ("As Ks As", 51), (("Ac", "Ac"), 48), ([0, 1, 2, 0], 0)]


@pytest.mark.parametrize("fn", SINGLE + UP, ids=names(SINGLE + UP))
def test_duplicate_card(fn: Callable[..., Any]) -> None:
    for hand, card in DUPLICATES_UP if fn in UP else DUPLICATES_FULL:
        with pytest.raises(DuplicateCardError) as info:
            fn(hand)
        assert info.value.card == card
        assert f"duplicate card {studeval.card_str(card)}" in str(info.value)


@pytest.mark.parametrize("fn", SINGLE, ids=names(SINGLE))
@pytest.mark.parametrize("size", [0, 1, 4, 8, 9, 52])
def test_wrong_hand_size(fn: Callable[..., Any], size: int) -> None:
    hand = list(range(size))
    for form in (hand, tuple(hand), studeval.cards_str(hand)):
        with pytest.raises(HandSizeError) as info:
            fn(form)
        assert info.value.size == size
        assert f"{size} cards" in str(info.value)


@pytest.mark.parametrize("fn", UP, ids=names(UP))
@pytest.mark.parametrize("size", [0, 5, 7])
def test_wrong_up_card_count(fn: Callable[..., Any], size: int) -> None:
    with pytest.raises(HandSizeError) as info:
        fn(list(range(size)))
    assert info.value.size == size


def test_best_five_errors() -> None:
    with pytest.raises(UnknownRankingError) as info:
        studeval.best_five(GOOD7, "hi")  # type: ignore[arg-type]
    assert info.value.ranking == "hi" and "'hi'" in str(info.value)
    with pytest.raises(HandSizeError):
        studeval.best_five(GOOD7[:4], "high")
    with pytest.raises(HandSizeError):
        studeval.best_five([*GOOD7, 0], "low")
    with pytest.raises(DuplicateCardError):
        studeval.best_five([*GOOD7[:6], 51], "low8")
    with pytest.raises(InvalidCardError):
        studeval.best_five("As Ks Qs Js Xx", "high")


@pytest.mark.parametrize(
    ("fn", "bad"),
    [
        (studeval.high_category, 0),
        (studeval.high_category, 7463),
        (studeval.describe_high, -1),
        (studeval.describe_high, 7463),
        (studeval.low_category, 0),
        (studeval.low_category, 6176),
        (studeval.describe_low, 0),
        (studeval.describe_low, 6176),
    ],
)
def test_rank_out_of_range(fn: Callable[[int], str], bad: int) -> None:
    with pytest.raises(ValueError, match=str(bad)):
        fn(bad)


def test_card_text_functions() -> None:
    for bad in ("", "A", "Asx", "1c", "Ax", "AsKs"):
        with pytest.raises(InvalidCardError):
            studeval.parse_card(bad)
    for bad_code in (52, -1, 1.0, True):
        with pytest.raises(InvalidCardError):
            studeval.card_str(bad_code)  # type: ignore[arg-type]


# ---- batches ------------------------------------------------------------------


def good_rows(n: int, k: int, dtype: Any = np.uint8) -> np.ndarray:
    rng = np.random.default_rng(n * 10 + k)
    return np.argsort(rng.random((n, 52)), axis=1)[:, :k].astype(dtype)


@pytest.mark.parametrize("fn", BATCH, ids=names(BATCH))
@pytest.mark.parametrize(
    "dtype", [np.float32, np.float64, np.bool_, object, np.complex128, "U2", "S2"]
)
def test_batch_wrong_dtype(fn: Callable[..., Any], dtype: Any) -> None:
    cards = good_rows(3, 7).astype(dtype)
    with pytest.raises(BatchDtypeError) as info:
        fn(cards)
    assert isinstance(info.value, TypeError)
    assert str(np.dtype(dtype)) in str(info.value)


@pytest.mark.parametrize("fn", BATCH, ids=names(BATCH))
@pytest.mark.parametrize("shape", [(), (7,), (3, 4), (3, 8), (3, 0), (2, 3, 7), (1, 1, 1, 5)])
def test_batch_wrong_shape(fn: Callable[..., Any], shape: tuple[int, ...]) -> None:
    cards = np.zeros(shape, dtype=np.uint8)
    with pytest.raises(BatchShapeError) as info:
        fn(cards)
    assert info.value.shape == shape
    assert str(shape) in str(info.value)


def test_batch_ragged_rows() -> None:
    with pytest.raises(ValueError):
        studeval.high_ranks([[0, 1, 2, 3, 4], [5, 6, 7]])


@pytest.mark.parametrize("fn", BATCH, ids=names(BATCH))
@pytest.mark.parametrize("dtype", DTYPES)
def test_batch_bad_code_names_row(fn: Callable[..., Any], dtype: Any) -> None:
    bad_values = [52, 99] + ([127] if np.dtype(dtype).itemsize == 1 else [1000])
    if np.dtype(dtype).kind == "i":
        bad_values.append(-1)
    for bad in bad_values:
        cards = good_rows(50, 6, dtype)
        cards[37, 4] = bad
        with pytest.raises(InvalidCardError) as info:
            fn(cards)
        assert info.value.row == 37
        assert info.value.card == bad
        assert "row 37" in str(info.value)


@pytest.mark.parametrize("fn", BATCH, ids=names(BATCH))
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("threads", [1, 2])
def test_batch_duplicate_names_row(
    fn: Callable[..., Any], dtype: Any, threads: int, threads_started: Callable[[], int]
) -> None:
    cards = good_rows(5000, 7, dtype)
    cards[4321, 6] = cards[4321, 2]
    with pytest.raises(DuplicateCardError) as info:
        fn(cards, threads=threads)
    assert threads_started() == threads - 1  # the 2-thread call really used 2
    assert info.value.row == 4321
    assert info.value.card == int(cards[4321, 2])
    assert "row 4321" in str(info.value)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("threads", [1, 2])
def test_batch_names_first_bad_row(
    dtype: Any, threads: int, threads_started: Callable[[], int]
) -> None:
    """With several bad rows the error names the first, whatever kind each is.

    The rows are cut into chunks of 4 for 2 threads (tests/conftest.py), so the
    bad rows fall in chunks that different threads take."""
    cards = good_rows(5000, 7, dtype)
    cards[4000, 0] = 60  # out of range, late
    cards[1200, 3] = cards[1200, 1]  # duplicate, earlier
    with pytest.raises(DuplicateCardError) as dup:
        studeval.high_ranks(cards, threads=threads)
    assert dup.value.row == 1200
    cards[300, 5] = 77  # out of range, earliest
    with pytest.raises(InvalidCardError) as bad:
        studeval.all_ranks(cards, threads=threads)
    assert bad.value.row == 300 and bad.value.card == 77
    assert threads_started() == 2 * (threads - 1)


@pytest.mark.parametrize("fn", BATCH, ids=names(BATCH))
def test_batch_bad_threads(fn: Callable[..., Any]) -> None:
    cards = good_rows(4, 7)
    for threads in (0, -1):
        with pytest.raises(OptionError, match=f"at least 1 .*got {threads}$") as caught:
            fn(cards, threads=threads)
        assert isinstance(caught.value, ValueError)
    for threads in ("2", 1.5, True, [2]):
        with pytest.raises(OptionError, match=re.escape(repr(threads))) as caught:
            fn(cards, threads=threads)
        assert isinstance(caught.value, TypeError)
    assert np.array_equal(np.asarray(fn(cards, threads=np.int64(2))), np.asarray(fn(cards)))


# ---- check=False never crashes ---------------------------------------------------


@pytest.mark.parametrize("k", [5, 6, 7])
@pytest.mark.parametrize("threads", [1, 2])
def test_unchecked_random_bytes(k: int, threads: int, threads_started: Callable[[], int]) -> None:
    rng = np.random.default_rng(k * 7 + threads)
    junk = rng.integers(0, 256, size=(20_000, k), dtype=np.uint8)
    for fn in BATCH[:3]:
        out = fn(junk, threads=threads, check=False)
        assert out.dtype == np.uint16 and out.shape == (20_000,)
    ranks = studeval.all_ranks(junk, threads=threads, check=False)
    for out in ranks:
        assert out.dtype == np.uint16 and out.shape == (20_000,)
    # Strided garbage (a view with a wide row stride) is safe too.
    wide = rng.integers(0, 256, size=(5_000, 13), dtype=np.uint8)
    out = studeval.high_ranks(wide[:, 3 : 3 + k], threads=threads, check=False)
    assert out.dtype == np.uint16 and out.shape == (5_000,)
    assert threads_started() == 5 * (threads - 1)  # every call above, on 2 threads


@settings(max_examples=60, deadline=None)
@given(
    st.integers(5, 7),
    st.sampled_from(DTYPES),
    st.integers(0, 40),
    st.randoms(use_true_random=False),
)
def test_unchecked_any_values_any_dtype(k: int, dtype: Any, n: int, rnd: Any) -> None:
    info = np.iinfo(dtype)
    values = [[rnd.randint(int(info.min), int(info.max)) for _ in range(k)] for _ in range(n)]
    cards = np.array(values, dtype=dtype).reshape(n, k)
    ranks = studeval.all_ranks(cards, threads=rnd.choice([1, 2]), check=False)
    for out in ranks:
        assert out.dtype == np.uint16 and out.shape == (n,)
    # A valid row among garbage still gets its true ranks.
    if n:
        cards[n // 2] = np.array(GOOD7[:k], dtype=dtype)
        high = studeval.high_ranks(cards, check=False)
        assert int(high[n // 2]) == studeval.high_rank(GOOD7[:k])


@pytest.mark.parametrize(
    ("function", "rank"),
    [
        (studeval.describe_high, 0),
        (studeval.describe_high, 7463),
        (studeval.high_category, -1),
        (studeval.describe_low, 6176),
        (studeval.low_category, 0),
        (studeval.describe_high, True),
        (studeval.describe_low, "1"),
        (studeval.high_category, 2**70),
    ],
)
def test_rank_out_of_range_names_the_rank(function, rank) -> None:
    with pytest.raises(studeval.InvalidRankError) as info:
        function(rank)
    assert isinstance(info.value, ValueError)
    assert repr(rank) in str(info.value)


def test_ragged_rows_are_a_shape_error() -> None:
    with pytest.raises(studeval.BatchShapeError, match="rows of different lengths"):
        studeval.high_ranks([[0, 1, 2, 3, 4], [5, 6, 7, 8, 9, 10]])


@pytest.mark.parametrize("threads", [1, 2, 3])
@pytest.mark.parametrize("bad_rows", [(0,), (70_000, 9), (99_999, 50_000), (8192, 8191, 90_000)])
def test_threaded_batches_name_the_first_bad_row(threads: int, bad_rows: tuple[int, ...]) -> None:
    rng = np.random.default_rng(7)
    cards = np.argsort(rng.random((100_000, 52)), axis=1)[:, :7].astype(np.uint8)
    for row in bad_rows:
        cards[row, 3] = cards[row, 5]  # a duplicate
    with pytest.raises(studeval.DuplicateCardError) as info:
        studeval.all_ranks(cards, threads=threads)
    assert info.value.row == min(bad_rows)


def test_out_arrays_are_filled_and_returned() -> None:
    cards = np.array([[51, 47, 43, 39, 35, 0, 5], [48, 1, 6, 11, 12, 51, 47]], dtype=np.uint8)
    high = np.zeros(2, dtype=np.uint16)
    assert studeval.high_ranks(cards, out=high) is high
    assert high.tolist() == [1, 1609]
    ranks = studeval.Ranks(*(np.zeros(2, dtype=np.uint16) for _ in range(3)))
    result = studeval.all_ranks(cards, out=ranks, threads=2)
    assert all(a is b for a, b in zip(result, ranks, strict=True))
    assert ranks.high.tolist() == [1, 1609] and ranks.low.tolist() == [379, 1]
    assert ranks.low8.tolist() == [65535, 1]
    low8 = np.zeros(2, dtype=np.uint16)
    assert studeval.low8_ranks(cards, out=low8).tolist() == [65535, 1]


@pytest.mark.parametrize(
    ("out", "match"),
    [
        ([0, 0], "numpy uint16 array; got list"),
        (np.zeros(2, dtype=np.int32), "uint16 array; got int32"),
        (np.zeros(3, dtype=np.uint16), r"shape \(2,\); got \(3,\)"),
        (np.zeros((2, 1), dtype=np.uint16), r"shape \(2,\)"),
        (np.zeros(4, dtype=np.uint16)[::2], "contiguous"),
    ],
)
def test_bad_out_arrays_are_rejected(out: Any, match: str) -> None:
    cards = np.array([[51, 47, 43, 39, 35, 0, 5], [48, 1, 6, 11, 12, 51, 47]], dtype=np.uint8)
    with pytest.raises(studeval.BatchOutputError, match=match):
        studeval.high_ranks(cards, out=out)


def test_read_only_and_malformed_out_for_all_ranks() -> None:
    cards = np.array([[51, 47, 43, 39, 35, 0, 5]], dtype=np.uint8)
    frozen = np.zeros(1, dtype=np.uint16)
    frozen.flags.writeable = False
    with pytest.raises(studeval.BatchOutputError, match="read-only"):
        studeval.low_ranks(cards, out=frozen)
    with pytest.raises(studeval.BatchOutputError, match=r"out\.low must be"):
        studeval.all_ranks(cards, out=studeval.Ranks(frozen.copy(), [0], frozen.copy()))
    with pytest.raises(studeval.BatchOutputError, match="Ranks of three"):
        studeval.all_ranks(cards, out=np.zeros(1, dtype=np.uint16))  # type: ignore[arg-type]


def _core_statuses() -> dict[str, int]:
    """Every status the C header declares, read from the header itself."""
    from helpers import CSRC

    header = (CSRC / "include" / "studeval.h").read_text(encoding="utf-8")
    block = header[header.index("typedef enum se_status") : header.index("} se_status;")]
    return {name: -int(number) for name, number in re.findall(r"(SE_\w+) = -(\d+)", block)}


def test_every_core_status_maps_to_one_error() -> None:
    """One mapper (_status.pxi) turns each status the header declares into an error that
    names the call: a StudevalError that is a ValueError, or MemoryError."""
    from studeval import _core

    statuses = _core_statuses()
    assert {"SE_NO_DEAL", "SE_ILLEGAL", "SE_NO_ROOM", "SE_STOPPED"} <= set(statuses)
    assert len(statuses) >= 11
    _core.raise_for_status(0, "probe")  # SE_OK: nothing
    kinds = {}
    for name, status in statuses.items():
        with pytest.raises((studeval.StudevalError, MemoryError)) as caught:
            _core.raise_for_status(status, "probe")
        error = caught.value
        assert "probe" in str(error), (name, error)
        assert isinstance(error, (MemoryError, ValueError)), (name, error)
        kinds[name] = type(error).__name__
    assert kinds["SE_NO_DEAL"] == "NoDealError"
    assert kinds["SE_ILLEGAL"] == "IllegalActionError"
    assert kinds["SE_NO_ROOM"] == "BatchOutputError"
    assert kinds["SE_NO_MEMORY"] == "MemoryError"
    assert kinds["SE_STOPPED"] == "StoppedError" and kinds["SE_TOO_BIG"] == "TooBigError"
    # A status the layer does not know is still an error, never silence.
    with pytest.raises(studeval.errors.CoreCallError, match="probe: unknown status"):
        _core.raise_for_status(-99, "probe")


def test_card_statuses_name_the_card() -> None:
    """With the hand at hand, a card status names the card; the single-hand calls pass it."""
    with pytest.raises(studeval.DuplicateCardError, match="duplicate card As"):
        studeval.high_rank([51, 51, 1, 2, 3])
    with pytest.raises(studeval.InvalidCardError, match="invalid card 52"):
        studeval.high_rank([52, 50, 1, 2, 3])
    with pytest.raises(studeval.HandSizeError, match="a hand of 4 cards"):
        studeval.high_rank([50, 1, 2, 3])
