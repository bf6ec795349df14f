"""studeval's numpy batch calls: high, low, 8-or-better and all three in one pass.

Each is timed at 1 and 2 threads on random-order and on enumeration-order hands (the
same hands, sorted), after its output is checked against the 1-thread reference.
"""

from __future__ import annotations

import numpy as np
import pytest

import studeval

FUNCS = ("high_ranks", "low_ranks", "low8_ranks", "all_ranks")


def _as_array(name: str, result: object) -> np.ndarray:
    """A batch result as one array; all_ranks' three outputs stacked as (3, N)."""
    if name == "all_ranks":
        return np.stack([result.high, result.low, result.low8])  # type: ignore[attr-defined]
    return np.asarray(result)


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("order", ["random", "sorted"])
@pytest.mark.parametrize("name", FUNCS)
def test_batch(benchmark, name, order, threads, hand_sets, reference) -> None:
    cards, perm = hand_sets[order]
    func = getattr(studeval, name)
    ref = np.stack([reference.high, reference.low, reference.low8])[:, perm]
    # FUNCS lists the single rankings in the order all_ranks returns them.
    expected = ref if name == "all_ranks" else ref[FUNCS.index(name)]
    got = _as_array(name, func(cards, threads=threads))
    assert np.array_equal(got, expected), f"{name} threads={threads} {order} order differs"

    benchmark.group = f"batch {name}"
    benchmark.extra_info.update(hands_per_call=len(cards), order=order, threads=threads)
    result = benchmark(func, cards, threads=threads)
    assert _as_array(name, result).shape[-1] == len(cards)
