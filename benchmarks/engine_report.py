"""The fixed-limit engine beside pokerkit, in one process: random legal play, hands/s.

    python benchmarks/engine_report.py            # the table and the target
    python benchmarks/engine_report.py --quick    # fewer hands (a smoke run)

Both engines play fixed-limit seven card stud at $5/$10 (ante 1, bring-in 2), 200
chips a seat, with every action drawn at random among the legal ones (each bet
size too); studeval deals from a seeded deck, pokerkit deals with its
automations, and both show down at the end. Times are CPU seconds
(``time.process_time``), the best of the repeats, the two engines in turn so that
both meet the same neighbours. The target (the project's own): >= 50x pokerkit's
hands/s. The two random policies need not give hands of the same length, so the
table also gives the actions a hand took on average and the ratio of actions/s.
"""

from __future__ import annotations

import argparse
import random
import time
import warnings
from collections.abc import Callable

import pokerkit

from studeval.engine import StudHand
from studeval.play import random_hand

TARGET = 50.0
_ACTIONS = {"fold", "check", "call", "bring_in", "complete", "bet", "raise"}
_A = pokerkit.Automation
_AUTOMATIONS = (
    _A.ANTE_POSTING, _A.BET_COLLECTION, _A.BLIND_OR_STRADDLE_POSTING, _A.CARD_BURNING,
    _A.HOLE_DEALING, _A.BOARD_DEALING, _A.HOLE_CARDS_SHOWING_OR_MUCKING, _A.HAND_KILLING,
    _A.CHIPS_PUSHING, _A.CHIPS_PULLING,
)  # fmt: skip


def pokerkit_hand(rng: random.Random, seats: int) -> int:
    """One pokerkit hand of random legal actions; returns how many it took."""
    state = pokerkit.FixedLimitSevenCardStud.create_state(
        _AUTOMATIONS, True, 1, 2, 5, 10, [200] * seats, seats
    )
    actions = 0
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
        actions += 1
    return actions


def studeval_hand(rng: random.Random, seats: int) -> StudHand:
    return random_hand("stud", seats, rng=rng)


def studeval_actions(seats: int, hands: int) -> float:
    """The actions a hand took on average, replayed after the timing from the same seed."""
    rng = random.Random(seats)
    played = (studeval_hand(rng, seats) for _ in range(hands))
    return sum(sum(e.kind in _ACTIONS for e in hand.events) for hand in played) / hands


def rate(play: Callable[[random.Random, int], object], seats: int, hands: int) -> float:
    rng = random.Random(seats)
    start = time.process_time()
    for _ in range(hands):
        play(rng, seats)
    return hands / (time.process_time() - start)


def pokerkit_rate(seats: int, hands: int) -> tuple[float, float]:
    """pokerkit's hands/s and its actions a hand."""
    rng = random.Random(seats)
    start = time.process_time()
    actions = sum(pokerkit_hand(rng, seats) for _ in range(hands))
    return hands / (time.process_time() - start), actions / hands


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer hands and repeats")
    args = parser.parse_args()
    ours_n, theirs_n, repeats = (200, 20, 1) if args.quick else (2000, 150, 3)
    print(f"studeval vs pokerkit {getattr(pokerkit, '__version__', '0.7.7')}, CPU time\n")
    print("| seats | studeval hands/s | pokerkit hands/s | ratio | target | met "
          "| actions a hand (studeval / pokerkit) | actions/s ratio |")  # fmt: skip
    print("|---:|---:|---:|---:|---|---|---:|---:|")
    worst = float("inf")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pokerkit warns on folds it finds needless
        for seats in (2, 4, 6, 8):
            ours = theirs = 0.0
            for _ in range(repeats):
                ours = max(ours, rate(studeval_hand, seats, ours_n))
                theirs_now, their_actions = pokerkit_rate(seats, theirs_n)
                theirs = max(theirs, theirs_now)
            our_actions = studeval_actions(seats, ours_n)
            ratio = ours / theirs
            per_action = ratio * our_actions / their_actions
            worst = min(worst, ratio)
            met = "yes" if ratio >= TARGET else "NO"
            row = f"| {seats} | {ours:,.0f} | {theirs:,.0f} | {ratio:.1f}x"
            print(f"{row} | >= {TARGET:g}x | {met} | {our_actions:.1f} / {their_actions:.1f} "
                  f"| {per_action:.1f}x |")  # fmt: skip
    print("\ntarget met" if worst >= TARGET else "\ntarget NOT met")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
