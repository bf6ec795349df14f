"""``studeval showdown``: who wins what at showdown, and why.

>>> from studeval.cli import main
>>> main(["showdown", "--game", "stud8", "--pot", "100", "As 2d 3h 4s 5c Kd Kh",
...       "Ks Kc Qd Qh 9s 8s 7c"])
Pot of 100: Seat 0 scoops 100 with Straight, Five high and 5-4-3-2-A
0
"""

from __future__ import annotations

import argparse
from typing import Any

from studeval.cli._args import add_game_options, chip_list, chips, seat, subcommand
from studeval.cli._console import Output, fail
from studeval.errors import StudevalError

__all__ = ["add", "run"]

EPILOG = """\
examples:
  studeval showdown --game stud8 --pot 100 "As 2d 3h 4s 5c Kd Kh" "Ks Kc Qd Qh 9s 8s 7c"
  studeval showdown --game razz --contributions 50,50,20 \\
      "Ac 2d 3h 4s 6c Kd Kh" "As 2c 3d 5h 7c Qd Qh" "8c 8d 9h Ts Jc 4d 5d"

Each HAND is one seat's cards in seat order; "-" marks a folded seat.
--pot splits one pot among the live seats; --contributions builds the main and
side pots from what each seat put in (folded seats included).
"""


def add(commands: Any) -> None:
    """The ``showdown`` command's parser."""
    showdown = subcommand(
        commands, "showdown", run,
        help="who wins what at showdown, and why",
        description="Split a pot (or the main and side pots) among the hands shown.",
        epilog=EPILOG,
    )  # fmt: skip
    add_game_options(showdown)
    amounts = showdown.add_mutually_exclusive_group(required=True)
    amounts.add_argument("--pot", type=chips, metavar="P", help="one pot of P chips")
    amounts.add_argument(
        "--contributions", type=chip_list, metavar="C1,C2,...",
        help="chips each seat put in, one per HAND",
    )  # fmt: skip
    showdown.add_argument("--community", metavar="CARD", help="a shared card (deck ran out)")
    showdown.add_argument("hands", nargs="+", metavar="HAND", help="one seat's cards, or -")


def run(args: argparse.Namespace) -> int:
    """Print the pot's (or the pots') split; the exit status."""
    from studeval.showdown import award_pot, settle

    hands = [seat(text) for text in args.hands]
    if all(hand is None for hand in hands):
        return fail("every HAND is '-' (folded): give the cards of at least one seat")
    try:
        if args.pot is not None:
            result: object = award_pot(hands, args.pot, args.game, community=args.community,
                                       rules=args.rules)  # fmt: skip
        else:
            result = settle(hands, args.contributions, args.game, community=args.community,
                            rules=args.rules)  # fmt: skip
    except (StudevalError, ValueError, TypeError) as err:
        return fail(str(err))
    Output().line(str(result))
    return 0
