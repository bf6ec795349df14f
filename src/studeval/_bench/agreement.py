"""Before anything is timed, every call must agree with studeval's ranks.

A fast wrong answer must not make it into a benchmark table, so each call's
results are compared with studeval's 1-thread batch: exactly, or (for peers with
their own numbering) in the order they put the hands in.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from studeval._cardtext import TEXT_OF_CODE

__all__ = [
    "BenchMismatchError",
    "check_equal",
    "check_same_order",
    "keys_comparable",
    "keys_higher_better",
    "keys_lower_better",
    "same_order",
]


class BenchMismatchError(RuntimeError):
    """Two evaluators disagreed on the benchmark hands, so nothing was timed.

    Raised before timing when a call's results do not match studeval's batch ranks
    (or, for the peers, do not order the hands the same way). It names the call and
    the first hand where they part.
    """


def same_order(a: Sequence[Any] | np.ndarray, b: Sequence[Any] | np.ndarray) -> bool:
    """Whether two score lists (lower = better in both) order the hands the same way.

    True when for every pair of hands, ``a`` and ``b`` agree on which wins or that
    they tie. Scores may be on different scales: only the order matters.

    >>> same_order([1, 5, 5, 9], [10, 20, 20, 30])
    True
    >>> same_order([1, 5, 5, 9], [10, 20, 21, 30])
    False
    >>> same_order([1, 2], [2, 1])
    False
    """
    a_arr = np.asarray(a)
    b_arr = np.asarray(b)
    if a_arr.shape != b_arr.shape:
        return False
    idx = np.argsort(a_arr, kind="stable")
    a_s = a_arr[idx]
    b_s = b_arr[idx]
    tie = a_s[1:] == a_s[:-1]
    # Sorted by a: a tie in a must be a tie in b, and a step up in a a step up in b;
    # checking neighbours suffices because both orders are transitive.
    return bool(np.all(np.where(tie, b_s[1:] == b_s[:-1], b_s[1:] > b_s[:-1])))


def check_same_order(
    name: str, reference: np.ndarray, keys: np.ndarray, hands: np.ndarray, *, exact: bool = False
) -> None:
    """Raise BenchMismatchError unless ``keys`` ranks ``hands`` as ``reference`` does.

    ``reference`` holds studeval's ranks and ``keys`` the other call's scores mapped
    to lower = better. With ``exact``, the values themselves must be equal (for peers
    that use the same 1..7462 numbering).

    >>> hands = np.array([[0, 1, 2, 3, 4], [5, 6, 7, 8, 9], [10, 11, 12, 13, 14]])
    >>> check_same_order("demo", np.array([3, 1, 2]), np.array([30, 10, 20]), hands)
    >>> check_same_order("demo", np.array([3, 1, 2]), np.array([3, 1, 2]), hands, exact=True)
    >>> check_same_order("demo", np.array([3, 1, 2]), np.array([10, 30, 20]), hands)
    Traceback (most recent call last):
    ...
    studeval._bench.agreement.BenchMismatchError: demo orders the benchmark hands differently ...
    """
    reference = np.asarray(reference)
    keys = np.asarray(keys)
    if exact:
        diff = np.flatnonzero(reference != keys)
        if diff.size:
            i = int(diff[0])
            raise BenchMismatchError(
                f"{name} gives {keys[i]} but studeval gives {reference[i]} "
                f"for {' '.join(TEXT_OF_CODE[c] for c in hands[i])} (hand {i})"
            )
        return
    if same_order(reference, keys):
        return
    # Name one hand pair that the two order differently, to make the report useful.
    idx = np.argsort(reference, kind="stable")
    for j in range(idx.size - 1):
        p, q = int(idx[j]), int(idx[j + 1])
        tie = reference[p] == reference[q]
        if (tie and keys[p] != keys[q]) or (not tie and not keys[p] < keys[q]):
            pair = " vs ".join(" ".join(TEXT_OF_CODE[c] for c in hands[h]) for h in (p, q))
            raise BenchMismatchError(
                f"{name} orders the benchmark hands differently from studeval (hands {p}, "
                f"{q}: {pair}; studeval {reference[p]}, {reference[q]}; "
                f"{name} keys {keys[p]}, {keys[q]})"
            )
    raise BenchMismatchError(f"{name} orders the benchmark hands differently from studeval")


def keys_higher_better(results: list[Any]) -> np.ndarray:
    """Scores where a higher value wins, negated so lower wins."""
    return -np.asarray(results, dtype=np.int64)


def keys_lower_better(results: list[Any]) -> np.ndarray:
    return np.asarray(results, dtype=np.int64)


def keys_comparable(results: list[Any]) -> np.ndarray:
    """Dense ranks (1 = best) of comparable objects where greater wins; None loses."""
    present = [i for i, r in enumerate(results) if r is not None]
    order = sorted(present, key=results.__getitem__, reverse=True)
    keys = np.full(len(results), len(results) + 1, dtype=np.int64)
    rank = 0
    prev: Any = None
    for i in order:
        # Ranks step only when strictly worse, so hands of equal value tie.
        if prev is None or results[i] < prev:
            rank += 1
            prev = results[i]
        keys[i] = rank
    return keys


def check_equal(name: str, expected: np.ndarray, got: np.ndarray, hands: np.ndarray) -> None:
    if expected.shape != got.shape:
        raise BenchMismatchError(f"{name} returned shape {got.shape}, expected {expected.shape}")
    bad = np.flatnonzero((expected != got).reshape(-1, expected.shape[-1]).any(axis=0))
    if bad.size:
        i = int(bad[0])
        raise BenchMismatchError(
            f"{name} disagrees with studeval's 1-thread batch on "
            f"{' '.join(TEXT_OF_CODE[c] for c in hands[i])} (hand {i})"
        )
