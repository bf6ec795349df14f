"""Tables (many hands stepped in C) beside StudHand driven from Python: actions/s.

    python benchmarks/tables_report.py           # 16,384 tables x 200 steps
    python benchmarks/tables_report.py --quick

Random play: each step draws one allowed action a table in numpy (the legal mask
times uniform noise, the largest taken) and plays it; the Tables time includes
drawing the actions. StudHand plays random hands one action a Python call
(``studeval.play.random_hand``'s loop, dealing included). Times are CPU seconds
(``time.process_time``) for one thread, wall seconds for two (a step's tables are
split between the threads), best of three. Targets (SPEC 11): Tables >= 5 M
actions/s a thread and >= 10x StudHand; two threads >= 1.6x one.
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

from studeval import Stakes
from studeval.play import random_hand
from studeval.tables import Tables

STAKES = Stakes(ante=1, bring_in=2, small_bet=5, big_bet=10)
_ACTIONS = {"fold", "check", "call", "bring_in", "complete", "bet", "raise"}


def tables_rate(n: int, steps: int, threads: int, clock: object) -> float:
    tables = Tables(n, "stud", STAKES, [200] * 6, seed=1, threads=threads)
    rng = np.random.default_rng(1)
    noise = rng.random((64, *tables.legal.shape))
    best = float("inf")
    for _ in range(3):
        start = clock()  # type: ignore[operator]
        for step in range(steps):
            tables.step((tables.legal * noise[step % 64]).argmax(axis=1))
        best = min(best, clock() - start)  # type: ignore[operator]
    assert tables.threads_used == threads
    return n * steps / best


def studhand_rate(hands: int) -> float:
    rng = random.Random(1)
    best = float("inf")
    for _ in range(3):
        actions = 0
        start = time.process_time()
        for _ in range(hands):
            hand = random_hand("stud", 6, rng=rng, stakes=STAKES, stack=200)
            actions += sum(1 for e in hand.events if e.kind in _ACTIONS)
        best = min(best, (time.process_time() - start) / actions)
    return 1 / best


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="8,192 tables x 20 steps")
    args = parser.parse_args()
    # Two threads need 2 x 4,096 tables (the least a thread takes).
    n, steps, hands = (8192, 20, 300) if args.quick else (16384, 200, 2000)
    one = tables_rate(n, steps, 1, time.process_time)
    one_wall = tables_rate(n, steps, 1, time.perf_counter)
    two_wall = tables_rate(n, steps, 2, time.perf_counter)
    hand = studhand_rate(hands)
    print(f"Tables, 1 thread    {one / 1e6:8.2f} M actions/s (CPU; {n:,} tables, 6 seats)")
    print(f"Tables, 2 threads   {two_wall / 1e6:8.2f} M actions/s (wall), "
          f"{two_wall / one_wall:.2f}x one thread's wall rate (target >= 1.6x)")  # fmt: skip
    print(f"StudHand            {hand / 1e6:8.3f} M actions/s (one action a Python call)")
    print(
        f"ratio               {one / hand:8.1f}x StudHand (target >= 10x); "
        f"target >= 5 M actions/s a thread: {'met' if one >= 5e6 else 'NOT met'}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
