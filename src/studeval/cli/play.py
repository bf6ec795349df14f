"""``studeval play``: random legal hands through the engine, one shown or many timed.

>>> from studeval.cli import main
>>> main(["play", "--seed", "7", "--seats", "2", "--format", "phh"])
variant = "F7S"
...
actions = ["d dh p1 9d8h2s", "d dh p2 4d5sKs", "p1 pb", "p2 f"]
finishing_stacks = [201, 199]
_house_rules = "robert"
0
"""

from __future__ import annotations

import argparse
from typing import Any

from studeval.cli._args import add_game_options, count, positive, subcommand
from studeval.cli._console import Output, Progress, fail
from studeval.errors import StudevalError

__all__ = ["add", "run"]

EPILOG = """\
examples:
  studeval play                      # one random 6-handed stud hand, street by street
  studeval play --game razz --seats 8 --seed 3
  studeval play --hands 5000         # a speed line: random hands played per second

Each action is chosen at random among the legal ones; every seat shows at the end.
"""


def add(commands: Any) -> None:
    """The ``play`` command's parser."""
    play = subcommand(
        commands, "play", run,
        help="play random legal hands through the engine",
        description="Play a seeded random hand of fixed-limit stud, or many for a speed line.",
        epilog=EPILOG,
    )  # fmt: skip
    add_game_options(play)
    play.add_argument("--seats", type=positive, default=6, metavar="N", help="2 to 8 (default 6)")
    play.add_argument("--seed", type=int, help="seed for the cards and actions (default: fresh)")
    play.add_argument(
        "--hands", type=count, metavar="N",
        help="play N hands and print only the speed (with --format phh: the hands, as .phhs)",
    )  # fmt: skip
    play.add_argument("--format", choices=("text", "phh"), default="text")


def run(args: argparse.Namespace) -> int:
    """Play and print; the exit status."""
    import random
    import time

    from studeval.histories.phh import dumps
    from studeval.play import describe, random_hand

    if not 2 <= args.seats <= 8:
        return fail(f"--seats must be 2 to 8; got {args.seats}")
    if args.hands is None:
        try:
            hand = random_hand(args.game, args.seats, args.seed, rules=args.rules)
            Output().line(dumps(hand).rstrip("\n") if args.format == "phh" else describe(hand))
        except (StudevalError, ValueError) as err:
            return fail(str(err))
        return 0
    rng = random.Random(args.seed)  # one generator for every hand's deck and choices
    if args.format == "phh":
        from studeval.histories.phh import dumps_all

        hands = (random_hand(args.game, args.seats, rules=args.rules, rng=rng)
                 for _ in range(args.hands))  # fmt: skip
        Output().line(dumps_all(hands).rstrip("\n"))
        return 0
    bar = Progress(args.hands, " hands")
    started = time.process_time()
    try:
        for done in range(args.hands):
            random_hand(args.game, args.seats, rules=args.rules, rng=rng)
            if done % 256 == 255:
                bar.update(256)
    finally:
        bar.close()
    spent = max(time.process_time() - started, 1e-9)
    Output().line(
        f"played {args.hands:,} random {args.seats}-seat {args.game} hands in {spent:.2f} s "
        f"CPU: {args.hands / spent:,.0f} hands/s"
    )
    return 0
