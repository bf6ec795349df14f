"""The batch rankers name what is wrong with dates for cards and a strided ``out=``."""

from __future__ import annotations

import re

import numpy as np
import pytest

import studeval
from studeval import BatchDtypeError, BatchOutputError

ROWS = np.argsort(np.random.default_rng(1).random((20, 52)), axis=1)[:, :7].astype(np.uint8)
RANKERS = [studeval.high_ranks, studeval.low_ranks, studeval.low8_ranks, studeval.all_ranks]


@pytest.mark.parametrize("dtype", ["datetime64[s]", "timedelta64[s]", "datetime64[ns]"])
@pytest.mark.parametrize("rank", RANKERS)
def test_dates_and_durations_are_a_dtype_error_naming_the_dtype(rank, dtype) -> None:
    cards = np.zeros((2, 5), dtype)
    with pytest.raises(BatchDtypeError, match=re.escape(f"got dtype {dtype}")) as caught:
        rank(cards)
    assert isinstance(caught.value, TypeError)  # a studeval error that is also a TypeError
    with pytest.raises(BatchDtypeError):
        rank(cards, threads=1, check=False)


def test_a_strided_out_is_told_to_be_c_contiguous() -> None:
    strided = np.empty(40, np.uint16)[::2]
    with pytest.raises(BatchOutputError, match=r"out must be C-contiguous") as caught:
        studeval.high_ranks(ROWS, out=strided)
    assert "got (20,)" not in str(caught.value)  # the shape was right: not the complaint
    assert "strides (4,)" in str(caught.value)
    with pytest.raises(BatchOutputError, match=r"out\.low must be C-contiguous"):
        studeval.all_ranks(ROWS, out=studeval.Ranks(np.empty(20, np.uint16), strided,
                                                     np.empty(20, np.uint16)))  # fmt: skip
    with pytest.raises(BatchOutputError, match=r"out must have shape \(20,\); got \(21,\)"):
        studeval.high_ranks(ROWS, out=np.empty(21, np.uint16))
    good = np.empty(20, np.uint16)
    assert studeval.high_ranks(ROWS, out=good) is good
