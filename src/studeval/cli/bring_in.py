"""``studeval bring-in``: the seat that brings in on third street.

>>> from studeval.cli import main
>>> main(["bring-in", "--game", "razz", "Ac", "Kh", "-", "Ks"])
Seat 3 brings in with Ks
0
"""

from __future__ import annotations

import argparse
from typing import Any

from studeval.cli._args import add_game_options, seat, subcommand
from studeval.cli._console import Output, fail
from studeval.errors import StudevalError

__all__ = ["add", "run"]

EPILOG = """\
examples:
  studeval bring-in --game stud 7h 2d 2c      # prints: Seat 2 brings in with 2c
  studeval bring-in --game razz Ac Kh - Ks    # "-" is an empty seat

One door card per seat, in seat order starting at the dealer's left.
"""


def add(commands: Any) -> None:
    """The ``bring-in`` command's parser."""
    bring_in = subcommand(
        commands, "bring-in", run,
        help="the seat that brings in on third street",
        description="Print the seat that must bring in, from the door cards.",
        epilog=EPILOG,
    )  # fmt: skip
    add_game_options(bring_in)
    bring_in.add_argument("cards", nargs="+", metavar="CARD", help="each seat's door card, or -")


def run(args: argparse.Namespace) -> int:
    """Print the seat that brings in; the exit status."""
    from studeval.cards import cards_str, parse_cards
    from studeval.rules import bring_in

    doors = [seat(text) for text in args.cards]
    players = sum(door is not None for door in doors)
    if not 2 <= players <= 8:
        return fail(f"a stud hand has 2 to 8 players: give 2 to 8 door cards; got {players}")
    try:
        brings_in = bring_in(doors, args.game, rules=args.rules)
        # The door card as the rules read it: any card text they accept ("2c,").
        card = cards_str(parse_cards(doors[brings_in]))  # type: ignore[arg-type]
    except (StudevalError, ValueError, TypeError) as err:
        return fail(str(err))
    Output().line(f"Seat {brings_in} brings in with {card}")
    return 0
