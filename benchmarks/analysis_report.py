"""analyze_many over generated hands: hands/s in this process and on a 2-worker
LocalCluster; with --streets, analyze's every street's equity too.

    python benchmarks/analysis_report.py            # 100,000 hands in 16 files
    python benchmarks/analysis_report.py --quick    # 4,000 (a smoke run)
    python benchmarks/analysis_report.py --hands 8000 --streets --no-dask

The hands are random legal play (``studeval.play.random_hand``, every game, 2-8
seats, stacks of 40 to 1,000 chips against a big bet of 10, so that some hands end
all in), written as PokerStars text in 16 files. ``analyze_many`` reads each file,
replays every hand and finds each player's net, all-in expected chips and luck: in
this process (one core, CPU time), then on a ``LocalCluster`` of 2 single-threaded
workers, one task a file (wall time, the cluster's start left out). Each is the best of the repeats.
``--streets`` also reads every file and runs ``analyze`` on each hand (every street's
equity, the documented precision), in this process (CPU time); ``--no-dask`` leaves
the cluster out. The targets (one core): 20,000 hands/s for the rows, 2,000 with
every street's equity.
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from pathlib import Path

from studeval.analysis import analyze
from studeval.histories import read
from studeval.histories._writer import Table
from studeval.histories.rooms import pokerstars
from studeval.play import random_hand
from studeval.tracker import analyze_many

FILES = 16


def write_files(folder: Path, hands: int) -> int:
    """``hands`` random hands as PokerStars text in FILES files; how many went all in."""
    rng = random.Random(2026)
    per_file = hands // FILES
    for number in range(FILES):
        texts = []
        for index in range(per_file):
            seats = rng.randint(2, 8)
            hand = random_hand(rng.choice(["stud", "stud8", "razz"]), seats, rng=rng,
                               stack=rng.choice([40, 200, 1000]))  # fmt: skip
            names = [f"Player{s}" for s in range(seats)]
            hand_id = number * per_file + index + 1
            texts.append(pokerstars.write(hand, Table(names=names, hand_id=hand_id)))
        (folder / f"hands{number:02}.txt").write_text("\n\n\n".join(texts))
    return per_file * FILES


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="4,000 hands, one repeat")
    parser.add_argument("--hands", type=int, help="this many hands (default 100,000)")
    parser.add_argument("--repeats", type=int, help="the best of this many runs (default 2)")
    parser.add_argument("--streets", action="store_true",
                        help="also analyze() every hand: every street's equity")  # fmt: skip
    parser.add_argument("--no-dask", action="store_true", help="no LocalCluster run")
    args = parser.parse_args()
    hands, repeats = (4_000, 1) if args.quick else (100_000, 2)
    hands, repeats = args.hands or hands, args.repeats or repeats

    with tempfile.TemporaryDirectory() as folder:
        count = write_files(Path(folder), hands)
        analyze_many(Path(folder) / "hands00.txt", client=False, seed=1)  # the imports, once
        best_here = float("inf")
        frame = None
        for _ in range(repeats):
            start = time.process_time()
            frame = analyze_many(folder, client=False, seed=1)  # here, however large
            best_here = min(best_here, time.process_time() - start)
        assert frame is not None
        all_in = frame.drop_duplicates(["source", "hand_id"])["all_in"].notna().sum()
        best_streets = _streets(Path(folder), repeats) if args.streets else None
        best_there = _on_dask(folder, repeats, frame) if not args.no_dask else None
    print(f"hands           {count:>10,} ({all_in:,} ending all in), {len(frame):,} rows")
    print(f"in process      {count / best_here:>10,.0f} hands/s (one core, CPU time)")
    if best_streets is not None:
        rate = count / best_streets
        print(f"every street    {rate:>10,.0f} hands/s (analyze, one core, CPU time)")
    if best_there is not None:
        print(f"2-worker Dask   {count / best_there:>10,.0f} hands/s (wall time)")
        print(f"ratio           {best_here / best_there:>10.2f}x")
    return 0


def _streets(folder: Path, repeats: int) -> float:
    """The best CPU time to read every file and analyze() each hand, streets and all."""
    best = float("inf")
    for _ in range(repeats):
        start = time.process_time()
        for path in sorted(folder.glob("*.txt")):
            for history in read(path):
                analyze(history, seed=1)
        best = min(best, time.process_time() - start)
    return best


def _on_dask(folder: str, repeats: int, frame: object) -> float:
    """The best wall time of analyze_many on a LocalCluster of 2 single-threaded workers."""
    from distributed import Client, LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None) as cluster, \
            Client(cluster) as client:  # fmt: skip
        analyze_many(folder, client=client, seed=1)  # the workers' imports, once
        best_there = float("inf")
        for _ in range(repeats):
            start = time.perf_counter()
            there = analyze_many(folder, client=client, seed=1)
            best_there = min(best_there, time.perf_counter() - start)
    assert there.equals(frame), "the cluster's rows differ from this process's"
    return best_there


if __name__ == "__main__":
    raise SystemExit(main())
