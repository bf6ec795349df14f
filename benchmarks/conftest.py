"""Shared fixtures of the benchmark suite: one fixed-seed hand set per session.

The hands are built once and every benchmark, studeval's and the peers', ranks the same
ones, so numbers from one run compare directly. ``STUDEVAL_BENCH_HANDS`` sets how many
(default 1,000,000).
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pytest

import studeval
from studeval import bench

N_HANDS = int(os.environ.get("STUDEVAL_BENCH_HANDS", "1000000"))
# Per-hand Python loops run on the first hands only: the call cost does not depend
# on how many hands there are, and 200,000 keeps one round under a second.
N_SINGLE = min(N_HANDS, 200_000)


@pytest.fixture(scope="session")
def hands() -> np.ndarray:
    """N_HANDS random 7-card hands, (N, 7) C-contiguous uint8, fixed seed."""
    return bench.random_hands(N_HANDS)


@pytest.fixture(scope="session")
def hand_sets(hands: np.ndarray) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """The hands in random and in enumeration order, each with its permutation."""
    ordered, perm = bench.sorted_hands(hands)
    return {"random": (hands, np.arange(len(hands))), "sorted": (ordered, perm)}


@pytest.fixture(scope="session")
def reference(hands: np.ndarray) -> studeval.Ranks:
    """studeval's 1-thread ranks of the random-order hands: what every call must match."""
    return studeval.all_ranks(hands, threads=1)


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    """Print ns/hand for every benchmark that recorded its hands per call."""
    # pytest-benchmark keeps its results on this attribute; without the plugin (or with
    # --benchmark-disable) there is nothing to convert.
    session = getattr(config, "_benchmarksession", None)
    results = getattr(session, "benchmarks", None) or []
    lines = []
    for result in results:
        hands_per_call = result.extra_info.get("hands_per_call")
        stats = getattr(result, "stats", None)
        if not hands_per_call or stats is None or not getattr(stats, "rounds", 0):
            continue
        lines.append(
            f"{result.name:<70} {stats.min * 1e9 / hands_per_call:>12,.2f} "
            f"{stats.median * 1e9 / hands_per_call:>12,.2f}"
        )
    if lines:
        terminalreporter.write_sep("-", "ns per hand (min, median)")
        for line in lines:
            terminalreporter.write_line(line)
