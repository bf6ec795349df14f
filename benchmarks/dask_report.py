"""Dask partitions ranked where they lie: a LocalCluster, before and after, in one run.

    python benchmarks/dask_report.py            # 4,000,000 hands in 16 partitions
    python benchmarks/dask_report.py --quick

``rank_dataframe`` on a dataframe of 7 uint8 card columns: pandas hands each
partition over as a column-major view (a row's cards a column apart), which the
core now reads in place. "Before" is the same call with the old conversion forced (a
C-contiguous copy of every partition first), patched in for this run; the
cluster runs in this process (threads) so that the patch reaches it. Each time
is the best of five, wall clock, computing the sum of the new columns;
beside them, the bare ranking of one partition's array both ways.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from unittest import mock

import dask.dataframe as dd
import numpy as np
import pandas as pd
from dask.distributed import Client, LocalCluster, wait

import studeval
import studeval._core
import studeval.dask

_rank_fresh = studeval._core.rank_fresh


def _old_rank_fresh(cards: object, *rest: object) -> object:
    """As before: rows had to be C-contiguous, so column-major input was copied first."""
    return _rank_fresh(np.ascontiguousarray(cards), *rest)  # type: ignore[arg-type]


def best(run: Callable[[], object], repeats: int = 5) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="400,000 hands")
    args = parser.parse_args()
    n, parts = (400_000, 4) if args.quick else (4_000_000, 16)
    rng = np.random.default_rng(3)
    hands = np.argsort(rng.random((n, 52)), axis=1)[:, :7].astype(np.uint8)
    columns = [f"card{i}" for i in range(7)]
    frame = pd.DataFrame(hands, columns=columns)
    block = frame.iloc[: n // parts][columns].to_numpy()
    layout = "C-contiguous" if block.flags.c_contiguous else f"strides {block.strides}"
    print(f"{n:,} hands in {parts} partitions; a partition's array: {layout}\n")
    in_place = best(lambda: studeval.all_ranks(block, threads=1))
    copied = best(lambda: studeval.all_ranks(np.ascontiguousarray(block), threads=1))
    print(f"one partition, ranked in place: {in_place * 1e3:.1f} ms; copied first (before): "
          f"{copied * 1e3:.1f} ms ({copied / in_place:.2f}x)\n")  # fmt: skip
    with (
        LocalCluster(processes=False, n_workers=1, threads_per_worker=2) as cluster,
        Client(cluster) as client,
    ):
        data = client.persist(dd.from_pandas(frame, npartitions=parts))
        wait(data)

        def ranked() -> None:
            # A small result (the sum of the ranks), so that nothing stays on the cluster
            # between runs and little travels back.
            out = studeval.dask.rank_dataframe(data, columns, threads=1)
            out[["high", "low", "low8"]].astype("int64").sum().compute()

        after = best(ranked)
        with mock.patch.object(studeval._core, "rank_fresh", _old_rank_fresh):
            before = best(ranked)
    rate = n / after / 1e6
    print("| rank_dataframe on a LocalCluster | before (copy) | after (in place) | speed-up |")
    print("|---|---:|---:|---:|")
    print(f"| {n:,} hands, {parts} partitions | {before:.3f} s | {after:.3f} s "
          f"({rate:.1f} M hands/s) | {before / after:.2f}x |")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
