"""Tables (many hands stepped in C) beside StudHand driven from Python, and the
PettingZoo environment beside PettingZoo's texas_holdem_v4: actions/s.

    python benchmarks/tables_report.py           # 4,096 tables x 400 steps
    python benchmarks/tables_report.py --quick

Random play: each step draws one allowed action a table in numpy (the legal mask
times uniform noise, the largest taken) and plays it; the Tables time includes
drawing the actions. StudHand plays random hands one action a Python call
(``studeval.play.random_hand``'s loop, dealing included). Times are the calling
thread's CPU seconds (``time.thread_time``) for one thread: the process's would
count numpy's idle OpenBLAS thread, which spins for a while after it starts. Two
threads are timed in wall seconds against one thread's wall seconds (a step's
tables are split between the threads), in turn, best of five; the rest best of
three. The two AEC environments play random
allowed actions (from the action mask) for whole episodes, CPU seconds. Targets
(the project's own): Tables >= 5 M actions/s a thread and >= 10x StudHand; two threads >=
1.6x one; the stud environment >= 3x texas_holdem_v4's steps/s.
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


def tables_rates(n: int, steps: int, repeats: int = 5) -> dict[str, float]:
    """Actions/s of random play on n tables: one thread by its CPU time ("cpu") and
    by wall time ("1"), two threads by wall time ("2"). The two are timed in turn,
    repeat after repeat, so that a busy neighbour slows both alike; best of each."""
    made = {k: Tables(n, "stud", STAKES, [200] * 6, seed=1, threads=k) for k in (1, 2)}
    noise = np.random.default_rng(1).random((64, *made[1].legal.shape))
    best = {"cpu": float("inf"), "1": float("inf"), "2": float("inf")}
    for _ in range(repeats):
        for threads, tables in made.items():
            cpu, wall = time.thread_time(), time.perf_counter()
            for step in range(steps):
                tables.step((tables.legal * noise[step % 64]).argmax(axis=1))
            best[str(threads)] = min(best[str(threads)], time.perf_counter() - wall)
            if threads == 1:
                best["cpu"] = min(best["cpu"], time.thread_time() - cpu)
            assert tables.threads_used == threads
    return {key: n * steps / seconds for key, seconds in best.items()}


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


def aec_rate(make: object, steps: int) -> float:
    """Steps/s of a PettingZoo AEC environment under random allowed actions."""
    rng = np.random.default_rng(2)
    game = make()  # type: ignore[operator]
    best = float("inf")
    for _ in range(3):
        done, episode = 0, 0
        start = time.process_time()
        while done < steps:
            game.reset(seed=episode)
            episode += 1
            for _agent in game.agent_iter():
                observation, _, over, cut, _ = game.last()
                if over or cut:
                    game.step(None)
                    continue
                game.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
                done += 1
        best = min(best, (time.process_time() - start) / done)
    return 1 / best


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="4,096 tables x 20 steps")
    args = parser.parse_args()
    n, steps, hands = (4096, 20, 300) if args.quick else (4096, 400, 2000)
    env_steps = 2000 if args.quick else 20000
    rates = tables_rates(n, steps)
    one, one_wall, two_wall = rates["cpu"], rates["1"], rates["2"]
    hand = studhand_rate(hands)
    from pettingzoo.classic import texas_holdem_v4  # the peers: imported here

    from studeval.envs.pettingzoo import env

    ours = aec_rate(lambda: env(game="stud", seats=2), env_steps)
    theirs = aec_rate(texas_holdem_v4.env, env_steps)
    print(f"Tables, 1 thread    {one / 1e6:8.2f} M actions/s (CPU; {n:,} tables, 6 seats)")
    print(f"Tables, 2 threads   {two_wall / 1e6:8.2f} M actions/s (wall), "
          f"{two_wall / one_wall:.2f}x one thread's wall rate (target >= 1.6x)")  # fmt: skip
    print(f"StudHand            {hand / 1e6:8.3f} M actions/s (one action a Python call)")
    print(f"AEC env, stud       {ours:10,.0f} steps/s; texas_holdem_v4 {theirs:,.0f} steps/s: "
          f"{ours / theirs:.2f}x (target >= 3x)")  # fmt: skip
    print(
        f"ratio               {one / hand:8.1f}x StudHand (target >= 10x); "
        f"target >= 5 M actions/s a thread: {'met' if one >= 5e6 else 'NOT met'}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
