"""Solving the end of a heads-up hand with every combination both seats can hold:
seventh street (13,244 hands a seat) to an exploitability of 0.1% of the pot, and
sixth through seventh street (946 pairs of down cards a seat, each with 42 seventh
cards) to 0.5%, on one thread (CPU time) and on every thread (wall time, and the
speed-up over one), with the process's peak memory; then a fifth-street spot with
narrow ranges and 8 sampled deals of the up cards a street, to 0.5% (no target).

    python benchmarks/solve_report.py [--seventh-only]

No open tool solves a stud street, so there is no peer to run beside it (OpenSpiel
plays stud through pokerkit, with no solver for it). The project's targets: <= 5 s on
one thread for each seventh street, <= 2 minutes for sixth through seventh.
"""

from __future__ import annotations

import argparse
import resource
import time

from kernel_report import cpu_name

import studeval
from studeval import HouseRules, Stakes

#: Seconds on one thread: seventh street to 0.1% of the pot, sixth to 0.5%.
TARGETS = {7: (5.0, 0.1), 6: (120.0, 0.5)}
STAKES = Stakes(ante=1, bring_in=2, small_bet=5, big_bet=10)
SPOTS = [
    ("razz, 7-4-3-K against 8-6-5-2", "razz", ["7c 4d 3h Kd", "8c 6d 5h 2s"]),
    ("stud, K-K-7-2 against Q-J-T-4", "stud", ["Kc Kd 7h 2s", "Qs Jd Th 4c"]),
    ("stud8, A-3-6-K against 9-9-4-2", "stud8", ["Ad 3c 6h Ks", "9c 9d 4s 2h"]),
]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seventh-only", action="store_true", help="skip sixth street")
    args = parser.parse_args()
    print(f"CPU: {cpu_name()}, {studeval.cpu_count()} threads; pot 60, big bet 10, one bet "
          "and three raises a street")  # fmt: skip
    print(f"{'spot':40} {'iterations':>10} {'1 thread':>10} {'all':>8} {'x':>5} "
          f"{'exploit.':>9} {'peak RSS':>9}")  # fmt: skip
    for street in (7,) if args.seventh_only else (7, 6):
        seconds, pct = TARGETS[street]
        for label, game, up in SPOTS:
            spot = studeval.Spot(game, STAKES, pot=60, up=up, ranges=["*", "*"], street=street,
                                 rules=HouseRules(heads_up_cap="kept"))  # fmt: skip
            name = f"{label}, {'7th' if street == 7 else '6th-7th'}"
            one = _row(name, spot, pct)
            verdict = "met" if one <= seconds else "NOT met"
            print(f"  {verdict} (<= {seconds:.0f} s to {pct}%)")
    if not args.seventh_only:
        spot = studeval.Spot("razz", STAKES, pot=40, up=["7c 4d Kd", "8c 6d 2s"],
                             ranges=["A2, A3, 23, 35, QJ, T9", "A5, 34, KK, QJ"], street=5,
                             rules=HouseRules(heads_up_cap="kept"), deals=8)  # fmt: skip
        _row("razz, 7-4-K against 8-6-2, 5th, 8 deals", spot, 0.5)
        print("  (no target: the sampled game of docs/solve.md, 88 and 47 pairs of down cards)")
    return 0


def _row(name: str, spot: studeval.Spot, pct: float) -> float:
    """Solve ``spot`` to ``pct`` on one thread and on all, print a row; one thread's
    CPU seconds."""
    start = time.thread_time()
    sol = studeval.solve(spot, threads=1, target_exploitability=pct)
    one = time.thread_time() - start
    start = time.perf_counter()
    studeval.solve(spot, target_exploitability=pct)
    every = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"{name:40} {sol.iterations:>10} {one:>8.2f} s {every:>6.2f} s {one / every:>4.2f}x "
          f"{sol.exploitability_pct:>8.3f}% {peak:>5.0f} MiB", end="")  # fmt: skip
    return one


if __name__ == "__main__":
    raise SystemExit(main())
