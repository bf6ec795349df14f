"""Dask as a user's billion-hand job runs it: Parquet in, counts or Parquet out.

    python benchmarks/dask_report.py            # 8,000,000 hands in 16 files
    python benchmarks/dask_report.py --quick    # 2,000,000 hands in 4 files

A Parquet dataset of random 7-card hands (7 uint8 card columns, pyarrow's defaults:
snappy, dictionary pages) is read with ``dask.dataframe.read_parquet`` (with
``filesystem="arrow"``, as docs/dask.md advises; the count is also timed with the
default, fsspec's file objects) and ranked by
``studeval.dask.rank_dataframe`` on a ``LocalCluster`` of 2 worker processes, one
thread each. Two jobs: the count of hands in each high category (``value_counts``
of the ``category`` column), and the ranks and categories written as Parquet. Each is
timed in wall seconds from the graph's making to the last result, best of five;
beside them, ``all_ranks`` on the same hands in this process on one thread, and a
partition's pieces (reading its file, ranking it into new columns). The project's
target: the counting job at >= 30 M hands/s on 2 workers.
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import dask.dataframe as dd
import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
from dask.distributed import Client, LocalCluster

import studeval
import studeval.dask
from studeval.dask import _rank_partition

COLUMNS = [f"card{i}" for i in range(7)]


def best(run: Callable[[], object], repeats: int = 5) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def write_dataset(folder: Path, n: int, files: int) -> np.ndarray:
    """n random hands in `files` Parquet files of 7 uint8 columns; returns the hands."""
    rng = np.random.default_rng(3)
    hands = np.argsort(rng.random((n, 52)), axis=1)[:, :7].astype(np.uint8)
    per = n // files
    for f in range(files):
        part = hands[f * per : (f + 1) * per]
        table = pa.table({c: np.ascontiguousarray(part[:, i]) for i, c in enumerate(COLUMNS)})
        pq.write_table(table, folder / f"part{f:03d}.parquet")
    return hands


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="2,000,000 hands in 4 files")
    args = parser.parse_args()
    n, files = (2_000_000, 4) if args.quick else (8_000_000, 16)
    work = Path(tempfile.mkdtemp(prefix="studeval-dask-"))
    try:
        source, written = work / "hands", work / "ranked"
        source.mkdir()
        hands = write_dataset(source, n, files)
        in_process = best(lambda: studeval.all_ranks(hands, threads=1))
        first = pd.read_parquet(source / "part000.parquet")
        read = best(lambda: pd.read_parquet(source / "part000.parquet"))
        ranked = best(lambda: _rank_partition(first, COLUMNS, ("high", "low", "low8"), 1, True,
                                              "category"))  # fmt: skip
        with (
            LocalCluster(n_workers=2, threads_per_worker=1, processes=True) as cluster,
            Client(cluster),
        ):

            def counts(filesystem: str = "arrow") -> pd.Series:
                frame = dd.read_parquet(source, filesystem=filesystem)
                out = studeval.dask.rank_dataframe(frame, COLUMNS, category="category")
                result: pd.Series = out["category"].value_counts().compute()
                return result

            def to_parquet() -> None:
                shutil.rmtree(written, ignore_errors=True)
                frame = dd.read_parquet(source, filesystem="arrow")
                out = studeval.dask.rank_dataframe(frame, COLUMNS, category="category")
                out[["high", "low", "low8", "category"]].to_parquet(written)

            got = counts()
            expected = np.bincount(
                studeval.high_categories(studeval.high_ranks(hands)), minlength=9
            )
            assert got.sort_index().to_numpy().tolist() == expected.tolist()
            counted = best(counts)
            counted_fsspec = best(lambda: counts("fsspec"))  # read_parquet's default
            stored = best(to_parquet)
        assert len(pd.read_parquet(written)) == n
        per = n // files
        print(f"{n:,} hands in {files} Parquet files; a LocalCluster of 2 worker processes, "
              f"1 thread each\n")  # fmt: skip
        print("| job | wall | hands/s |")
        print("|---|---:|---:|")
        print(f"| high categories counted (value_counts) | {counted:.3f} s "
              f"| {n / counted / 1e6:.1f} M |")  # fmt: skip
        print(f"| the same, files read through fsspec (read_parquet's default) "
              f"| {counted_fsspec:.3f} s | {n / counted_fsspec / 1e6:.1f} M |")  # fmt: skip
        print(f"| ranks and categories written as Parquet | {stored:.3f} s "
              f"| {n / stored / 1e6:.1f} M |")  # fmt: skip
        print(f"| `all_ranks` in this process, 1 thread, no I/O | {in_process:.3f} s "
              f"| {n / in_process / 1e6:.1f} M |")  # fmt: skip
        print(f"\nA partition of {per:,} hands: its file read in {read * 1e3:.1f} ms, ranked "
              f"into new columns (the category too) in {ranked * 1e3:.1f} ms.")  # fmt: skip
        rate = n / counted / 1e6
        print(f"target: counting at >= 30 M hands/s: {rate:.1f} M, "
              f"{'met' if rate >= 30 else 'NOT met'}")  # fmt: skip
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
