"""studeval's single-hand call, ``high_rank``, once per hand in a Python loop.

Timed on tuples of 7 ints and on strings like "As Kd 7h 7c 2s 9d Tc", over the same
first hands the peers' per-hand calls rank (group "high per hand").
"""

from __future__ import annotations

import numpy as np
import pytest

import studeval
from studeval import bench

N_SINGLE = 200_000


@pytest.fixture(scope="module")
def sample(hands):
    return hands[:N_SINGLE]


@pytest.mark.parametrize("form", ["tuple", "str"])
def test_high_rank_loop(benchmark, form, sample, reference) -> None:
    if form == "tuple":
        items = [tuple(h) for h in sample.tolist()]
    else:
        items = [studeval.cards_str(h) for h in sample.tolist()]
    high_rank = studeval.high_rank

    def loop() -> list[int]:
        return [high_rank(h) for h in items]

    bench.check_same_order(
        f"high_rank({form})", reference.high[: len(items)], np.asarray(loop()), sample, exact=True
    )
    benchmark.group = "high per hand"
    benchmark.extra_info.update(hands_per_call=len(items), form=form)
    assert len(benchmark(loop)) == len(items)
