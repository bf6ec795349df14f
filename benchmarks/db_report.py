"""The hand database: import speed from PokerStars text, ``stats()`` over a million
hands, and files imported on Dask.

    python benchmarks/db_report.py            # 100,000 hands to import, 1,000,000 for stats
    python benchmarks/db_report.py --quick    # 10,000 and 100,000 (a smoke run)

Import: random hands of every game (2-8 seats, stacks of 40 to 1,000 chips against a
big bet of 10, so that some end all in, as in ``analysis_report.py``) written as
PokerStars text in 8 files (a table a file, a hand every 75 seconds), each imported
into a new database file, best of the repeats. It is measured on one core (DuckDB on
one thread, CPU time of the process), beside reading the same files without storing them
(``studeval.histories.read``): the difference is what storing costs. Then the same
import on a ``LocalCluster`` of 2 single-threaded workers (each file read on a
worker into Parquet partitions, which the database reads; DuckDB on all cores; wall
time), beside the import in one process with DuckDB on all cores.

Stats: a database of generated hands (random legal play, 2-8 seats drawn from 20,000
player names, every game; kept in the system's temporary folder for the next run),
and ``Database.stats()`` over all of it, then for one player, wall time on all cores,
best of 5. The targets (the project's own): import >= 20,000 hands/s on one core,
stats over 1,000,000 hands <= 1 s.
"""

from __future__ import annotations

import argparse
import datetime
import os
import random
import shutil
import tempfile
import time
from pathlib import Path

from kernel_report import cpu_name

from studeval import db
from studeval.handinfo import HandInfo
from studeval.histories import read
from studeval.histories._writer import Table
from studeval.histories.rooms import pokerstars
from studeval.play import random_hand

FILES = 8
GAMES = ("stud", "stud8", "razz")
#: The time of each file's first hand (ET, no change of the clocks for weeks after).
FIRST_HAND = datetime.datetime(2026, 11, 10, 18, 0, 0)


def write_files(folder: Path, hands: int) -> None:
    rng = random.Random(2026)
    for number in range(FILES):
        texts = []
        for index in range(hands // FILES):
            seats = rng.randint(2, 8)
            hand = random_hand(rng.choice(GAMES), seats, rng=rng,
                               stack=rng.choice([40, 200, 1000]))  # fmt: skip
            names = [f"Player{rng.randrange(500)}" for _ in range(seats)]
            if len(set(names)) < seats:
                names = [f"{n}_{s}" for s, n in enumerate(names)]
            # A file a table, its hands 75 seconds apart, as a room's export is
            # (a header and a time of its own each, not one text again and again).
            table = Table(
                names=names,
                hand_id=number * hands + index + 1,
                table=f"Table {number + 1}",
                played_at=FIRST_HAND + datetime.timedelta(seconds=75 * index),
            )
            texts.append(pokerstars.write(hand, table))
        (folder / f"hands{number}.txt").write_text("\n\n\n".join(texts))


def _fresh(path: Path) -> None:
    for name in (path, Path(f"{path}.wal")):
        if name.exists():
            name.unlink()


def import_rate(folder: Path, hands: int, repeats: int, threads: int | None) -> float:
    """The best hands/s of an import into a new file (CPU time with one DuckDB
    thread; wall time otherwise)."""
    best = float("inf")
    path = folder / "bench.duckdb"
    for _ in range(repeats):
        _fresh(path)
        database = db.connect(path)
        if threads is not None:
            database.connection.execute(f"SET threads = {threads}")
        clock = time.process_time if threads == 1 else time.perf_counter
        start = clock()
        report = database.import_histories(sorted(folder.glob("hands*.txt")))
        best = min(best, clock() - start)
        database.close()
        assert report.hands == hands and report.refused == 0, report
    return hands / best


def reimport_rate(folder: Path, hands: int, repeats: int) -> float:
    """The best hands/s of importing again, into the database import_rate left, the
    files it holds (every hand compared with its stored copy, one DuckDB thread, CPU
    time): about an import's cost, not the square of a batch's."""
    best = float("inf")
    for _ in range(repeats):
        database = db.connect(folder / "bench.duckdb")
        database.connection.execute("SET threads = 1")
        start = time.process_time()
        report = database.import_histories(sorted(folder.glob("hands*.txt")))
        best = min(best, time.process_time() - start)
        database.close()
        assert report.hands == 0 and report.duplicates == hands, report
    return hands / best


def all_in_share(folder: Path) -> float:
    database = db.connect(folder / "bench.duckdb", read_only=True)
    share = database.sql("SELECT avg((all_in_street IS NOT NULL)::INT) AS s FROM hands").s[0]
    database.close()
    return float(share)


def read_rate(folder: Path, hands: int, repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        start = time.process_time()
        count = sum(1 for path in sorted(folder.glob("hands*.txt")) for _ in read(path))
        best = min(best, time.process_time() - start)
        assert count == hands
    return hands / best


def dask_rate(folder: Path, hands: int, repeats: int) -> float:
    from distributed import Client, LocalCluster

    path = folder / "bench.duckdb"
    best = float("inf")
    with LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None) as cluster, \
            Client(cluster) as client:  # fmt: skip
        for _ in range(repeats):
            _fresh(path)
            database = db.connect(path)
            start = time.perf_counter()
            report = database.import_histories(sorted(folder.glob("hands*.txt")), client=client)
            best = min(best, time.perf_counter() - start)
            database.close()
            assert report.hands == hands, report
    return hands / best


def stats_database(hands: int) -> Path:
    """A database of ``hands`` generated hands, made once and kept."""
    version = db._schema.SCHEMA_VERSION  # a database of another schema is not read
    path = Path(tempfile.gettempdir()) / f"studeval-bench-stats-{hands}-v{version}.duckdb"
    if path.exists():
        return path
    building = Path(f"{path}.building")
    _fresh(building)
    database = db.connect(building)
    rng = random.Random(7)
    start = time.perf_counter()
    done = 0
    while done < hands:
        batch = []
        for _ in range(min(50_000, hands - done)):
            seats = rng.randint(2, 8)
            hand = random_hand(rng.choice(GAMES), seats, rng=rng,
                               stack=rng.choice([40, 200, 1000]))  # fmt: skip
            names = rng.sample(range(20_000), seats)
            hand.info = HandInfo(venue="Generated", hand_id=str(done + len(batch) + 1),
                                 players=tuple(f"Player{n}" for n in names),
                                 currency=rng.choice(["USD", "EUR"]))  # fmt: skip
            batch.append(hand)
        done += database.import_hands(batch).hands
        print(f"  built {done:,} of {hands:,} hands ({time.perf_counter() - start:.0f} s)")
    database.close()
    shutil.move(building, path)
    if Path(f"{building}.wal").exists():
        shutil.move(f"{building}.wal", f"{path}.wal")
    return path


def stats_time(path: Path, player: str | None) -> float:
    database = db.connect(path, read_only=True)
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        frame = database.stats(player)
        best = min(best, time.perf_counter() - start)
        assert len(frame)
    database.close()
    return best


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="10,000 and 100,000 hands, once")
    parser.add_argument("--no-dask", action="store_true", help="no LocalCluster run")
    args = parser.parse_args()
    hands, stats_hands, repeats = (10_000, 100_000, 1) if args.quick else (100_000, 1_000_000, 3)
    print(f"CPU: {cpu_name()}, {os.cpu_count()} cores")
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        write_files(folder, hands)
        reading = read_rate(folder, hands, repeats)
        one_core = import_rate(folder, hands, repeats, threads=1)
        again = reimport_rate(folder, hands, repeats)
        all_in = all_in_share(folder)
        all_cores = import_rate(folder, hands, repeats, threads=None)
        on_dask = dask_rate(folder, hands, repeats) if not args.no_dask else None
    print(f"read, not stored   {reading:>10,.0f} hands/s (one core, CPU time)")
    print(f"import             {one_core:>10,.0f} hands/s (one core, CPU time; "
          f"{one_core / reading:.2f}x reading; target >= 20,000: "
          f"{'met' if one_core >= 20_000 else 'missed'})")  # fmt: skip
    print(f"                   {all_in:.1%} of the hands end all in (their equities computed)")
    print(f"import again       {again:>10,.0f} hands/s (one core, CPU time; every hand "
          f"already stored: {again / one_core:.2f}x a new import)")  # fmt: skip
    print(f"import, all cores  {all_cores:>10,.0f} hands/s (wall time)")
    if on_dask is not None:
        print(f"import on Dask     {on_dask:>10,.0f} hands/s (2 workers, wall time; "
              f"{on_dask / all_cores:.2f}x one process)")  # fmt: skip
    path = stats_database(stats_hands)
    every = stats_time(path, None)
    one = stats_time(path, "Player7")
    print(f"stats, {stats_hands:,} hands: every player {every:.3f} s, one player {one:.3f} s "
          f"(wall time; target <= 1 s: {'met' if every <= 1 else 'missed'})")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
