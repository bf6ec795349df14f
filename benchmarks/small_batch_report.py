"""Small batches: what a call to ``high_ranks`` costs next to single-hand calls.

    python benchmarks/small_batch_report.py

Rows of random 7-card hands as a C-contiguous uint8 array, ranked by
``high_ranks`` (default threads) on the quick path, and by the checked path that
every call took before it (the same call with ``out=`` given, which still
converts, checks outputs for overlap and validates); beside them a Python loop of
``high_rank`` over the same hands as tuples. Then one thread against two on
mid-size batches, to place the least rows per thread. Times are CPU seconds
(``time.process_time``), best of nine, all in one run. The project's targets: one row
costs at most 15 single calls, and a batch beats the loop from 32 rows.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

import studeval
from studeval import _core


def best(call: Callable[[], object], repeat: int) -> float:
    """Seconds per call: the best of nine timings of ``repeat`` calls (a busy
    neighbour can slow a few rounds in a row on a shared machine)."""
    times = []
    for _ in range(9):
        start = time.process_time()
        for _ in range(repeat):
            call()
        times.append((time.process_time() - start) / repeat)
    return min(times)


def hands(n: int, seed: int = 1) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.argsort(rng.random((n, 52)), axis=1)[:, :7].astype(np.uint8)


def main() -> int:
    one = tuple(int(c) for c in hands(1)[0])
    studeval.high_ranks(hands(64))  # the first call sets up the kernel and the tables
    single = best(lambda: studeval.high_rank(one), 20000)
    print(f"single high_rank(tuple): {single * 1e9:.0f} ns\n")
    print("| rows | high_ranks (quick path) | checked path | loop of high_rank "
          "| quick / single calls | quick vs loop |")  # fmt: skip
    print("|---:|---:|---:|---:|---:|---:|")
    for n in (1, 2, 4, 8, 16, 32, 64, 256):
        cards = hands(n)
        rows = [tuple(map(int, r)) for r in cards]
        out = np.empty(n, dtype=np.uint16)
        quick = best(lambda c=cards: studeval.high_ranks(c), 5000)
        checked = best(lambda c=cards, o=out: studeval.high_ranks(c, out=o), 5000)
        loop = best(lambda r=rows: [studeval.high_rank(h) for h in r], max(10, 5000 // n))
        print(f"| {n} | {quick * 1e6:.2f} us | {checked * 1e6:.2f} us | {loop * 1e6:.2f} us "
              f"| {quick / single:.1f} | {loop / quick:.2f}x |")  # fmt: skip
    print("\nOne thread against two (wall time; the least rows per thread set to 2,048, so "
          "both threads run, in chunks of 1,024 rows):")  # fmt: skip
    print("| rows | 1 thread | 2 threads | 2 / 1 |")
    print("|---:|---:|---:|---:|")
    default = _core._batch_min_rows_per_thread()
    _core._set_batch_min_rows_per_thread(2048)
    try:
        for n in (4096, 16384, 32768, 65536, 131072, 524288):
            cards = hands(n)
            times = []
            for threads in (1, 2):
                runs = []
                for _ in range(7):
                    start = time.perf_counter()
                    studeval.high_ranks(cards, threads=threads)
                    runs.append(time.perf_counter() - start)
                times.append(min(runs))
            print(f"| {n:,} | {times[0] * 1e6:,.0f} us | {times[1] * 1e6:,.0f} us "
                  f"| {times[1] / times[0]:.2f} |")  # fmt: skip
    finally:
        _core._set_batch_min_rows_per_thread(default)
    print(f"\n(the default least rows per thread is {default:,})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
