"""PQL queries for stud: trials/s of four queries of increasing weight, one thread
and every thread, in one process (CPU time of the calling thread for one thread).
The fourth draws 1,024 runouts in each trial for an equity on fifth street; it runs
a hundredth of the trials.

    python benchmarks/query_report.py [--trials N]

No open tool answers PQL for stud (ProPokerTools' Odds Oracle is closed; Open PQL,
the open Rust rewrite, plays hold'em and Omaha only), so there is no peer to run
beside it. The project's target, >= 5 M trials/s on one thread for three players
with one equity and one handType selector, is the second row's.
"""

from __future__ import annotations

import argparse
import time

from kernel_report import cpu_name

import studeval

#: Trials/s on one thread for three players, one equity and one handType selector.
TARGET = 5e6

QUERIES = [  # (label, text, share of the trials)
    ("one equity, heads-up",
     "select avg(riverEquity(h)) from game='stud', h='As Ad Ah', v='*'", 1),
    ("equity + handType, 3 players",
     "select avg(riverEquity(h)), histogram(handType(h, seventh)) "
     "from game='stud', h='As Ad Ah', v1='*', v2='*'", 1),
    ("stud8, ranges, where, 4 players",
     "select avg(riverEquity(h)), count(scoops(h)), count(bestLoRating(h, fifth)) "
     "from game='stud8', h='As 2d 3h', v1='KK*, QQ*@Kc', v2='low3-8@5c', v3='*' "
     "where not minHandType(v1, fifth, twopair)", 1),
    ("equity(h, fifth), nutHi, heads-up",
     "select avg(equity(h, fifth)), count(nutHi(h, sixth)) "
     "from game='stud', h='Qs Qd 9h 5c', v='KK*, AA*@Kc 7h'", 100),
]  # fmt: skip


def _rate(per_second: float) -> str:
    return f"{per_second / 1e6:.2f} M/s" if per_second >= 1e5 else f"{per_second / 1e3:.1f} k/s"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trials", type=int, default=2_000_000)
    args = parser.parse_args()
    print(f"CPU: {cpu_name()}, {studeval.cpu_count()} threads; {args.trials:,} trials a query")
    print(f"{'query':34} {'1 thread':>14} {'all threads':>14}")
    for label, text, share in QUERIES:
        studeval.query(text, samples=4096, seed=1)  # warm: tables, imports
        best_one = best_all = float("inf")
        trials = max(4096, args.trials // share)
        for _ in range(3):
            start = time.thread_time()
            result = studeval.query(text, samples=trials, seed=2, threads=1)
            best_one = min(best_one, time.thread_time() - start)
            start = time.perf_counter()
            studeval.query(text, samples=trials, seed=2)
            best_all = min(best_all, time.perf_counter() - start)
        assert not result.exact, label  # sampled: the rate is of trials dealt
        dealt = result.dealt
        print(f"{label:34} {_rate(dealt / best_one):>14} {_rate(dealt / best_all):>14}")
        if label.startswith("equity + handType"):
            rate = dealt / best_one
            print(
                f"{'':34} target >= {TARGET / 1e6:.0f} M/s on one thread: "
                f"{'met' if rate >= TARGET else 'NOT met'}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
