"""The fixed-limit engine beside pokerkit, in one process: random legal play, hands/s.

    python benchmarks/engine_report.py            # the table and the target
    python benchmarks/engine_report.py --quick    # fewer hands (a smoke run)

Both engines play fixed-limit seven card stud at $5/$10 (ante 1, bring-in 2), 200
chips a seat, with every action drawn at random among the legal ones (each bet
size too); studeval deals from a seeded deck, pokerkit deals with its
automations, and both show down at the end. Times are CPU seconds
(``time.process_time``), the best of the repeats, the two engines in turn so that
both meet the same neighbours. The target (the project's own): >= 50x pokerkit's
hands/s.
"""

from __future__ import annotations

import argparse
import random
import time
import warnings
from collections.abc import Callable

import pokerkit

from studeval.play import random_hand

TARGET = 50.0
_A = pokerkit.Automation
_AUTOMATIONS = (
    _A.ANTE_POSTING, _A.BET_COLLECTION, _A.BLIND_OR_STRADDLE_POSTING, _A.CARD_BURNING,
    _A.HOLE_DEALING, _A.BOARD_DEALING, _A.HOLE_CARDS_SHOWING_OR_MUCKING, _A.HAND_KILLING,
    _A.CHIPS_PUSHING, _A.CHIPS_PULLING,
)  # fmt: skip


def pokerkit_hand(rng: random.Random, seats: int) -> None:
    """One pokerkit hand of random legal actions."""
    state = pokerkit.FixedLimitSevenCardStud.create_state(
        _AUTOMATIONS, True, 1, 2, 5, 10, [200] * seats, seats
    )
    while state.status:
        options = []
        if state.can_post_bring_in():
            options.append(state.post_bring_in)
        if state.can_complete_bet_or_raise_to():
            options.append(state.complete_bet_or_raise_to)
        if state.can_check_or_call():
            options.append(state.check_or_call)
        if state.can_fold():
            options.append(state.fold)
        if not options:
            break
        rng.choice(options)()


def rate(play: Callable[[random.Random, int], object], seats: int, hands: int) -> float:
    rng = random.Random(seats)
    start = time.process_time()
    for _ in range(hands):
        play(rng, seats)
    return hands / (time.process_time() - start)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer hands and repeats")
    args = parser.parse_args()
    ours_n, theirs_n, repeats = (200, 20, 1) if args.quick else (2000, 150, 3)
    print(f"studeval vs pokerkit {getattr(pokerkit, '__version__', '0.7.7')}, CPU time\n")
    print("| seats | studeval hands/s | pokerkit hands/s | ratio | target | met |")
    print("|---:|---:|---:|---:|---|---|")
    worst = float("inf")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pokerkit warns on folds it finds needless
        for seats in (2, 4, 6, 8):
            ours = theirs = 0.0
            for _ in range(repeats):
                ours = max(ours, rate(lambda r, n: random_hand("stud", n, rng=r), seats,
                                      ours_n))  # fmt: skip
                theirs = max(theirs, rate(pokerkit_hand, seats, theirs_n))
            ratio = ours / theirs
            worst = min(worst, ratio)
            met = "yes" if ratio >= TARGET else "NO"
            row = f"| {seats} | {ours:,.0f} | {theirs:,.0f} | {ratio:.1f}x"
            print(f"{row} | >= {TARGET:g}x | {met} |")
    print("\ntarget met" if worst >= TARGET else "\ntarget NOT met")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
