"""What the commands share on their command lines: argument types, the game and
house-rules options, and the making of a subcommand's parser.

Each type turns one argument's text into its value or raises
``argparse.ArgumentTypeError`` with the words argparse prints after the usage.

>>> count("10M"), count("1_000"), chip_list("50,50,20")
(10000000, 1000, [50, 50, 20])
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable
from typing import Any

from studeval.errors import StudevalError

__all__ = [
    "Formatter",
    "add_game_options",
    "chip_list",
    "chips",
    "count",
    "game",
    "history_inputs",
    "positive",
    "seat",
    "subcommand",
]

GAME_HELP = (
    "stud (high, the default), stud8 (hi/lo 8-or-better), razz (A-5 low) or "
    "stud_hilo_noq (hi/lo, no qualifier); the hand-history codes F7S, F7S/8, FR work too"
)
RULES_HELP = "house rules: robert (Robert's Rules of Poker, the default) or wsop"


#: Where an epilog lists the card rooms read: filled in from the list of rooms when
#: the help is printed (imported then, not at the start of every command).
ROOMS_MARK = "{rooms}"


class Formatter(argparse.RawDescriptionHelpFormatter):
    """Keeps the example epilogs as written, the rooms read filled in."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        if ROOMS_MARK in text:
            import textwrap

            from studeval.histories.rooms import SITES

            rooms = textwrap.fill(", ".join(SITES), width=78, initial_indent="  ",
                                  subsequent_indent="  ")  # fmt: skip
            text = text.replace(ROOMS_MARK, rooms.strip())
        return super()._fill_text(text, width, indent)


_COUNT = re.compile(r"(\d+(?:\.\d*)?|\.\d+)(?:e(\+?\d{1,2}))?([kmg]?)", re.IGNORECASE)


def count(text: str) -> int:
    """A whole count of at least 1, as people write one: ``1000000``, ``1_000_000``,
    ``10M``, ``1.5M``, ``1e6``, ``2.5e3k`` (k, M, G: thousands, millions, billions).

    >>> count("1e6"), count("1.5M"), count("10k"), count("2_000")
    (1000000, 1500000, 10000, 2000)
    >>> count("1.5")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: expected a whole count; got '1.5', not a whole number
    """
    from fractions import Fraction

    match = _COUNT.fullmatch(text.strip().replace("_", ""))
    if match is None:
        raise argparse.ArgumentTypeError(
            f"expected a count such as 1000000, 1e6, 10M or 1.5M; got {text!r}"
        )
    digits, exponent, suffix = match.groups()
    scale = {"": 1, "k": 10**3, "m": 10**6, "g": 10**9}[suffix.lower()]
    value = Fraction(digits) * 10 ** int(exponent or 0) * scale
    if value.denominator != 1:
        shown = "" if text.strip() == f"{float(value):g}" else f" ({float(value):g})"
        raise argparse.ArgumentTypeError(
            f"expected a whole count; got {text!r}{shown}, not a whole number"
        )
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a count of at least 1; got {text!r}")
    return int(value)


def positive(text: str) -> int:
    """A whole number of at least 1 (threads, seats, repeats)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number; got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected at least 1; got {text!r}")
    return value


def chips(text: str) -> int:
    """A whole, non-negative number of chips."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected a whole number of chips; got {text!r}"
        ) from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"chips cannot be negative; got {text!r}")
    return value


def chip_list(text: str) -> list[int]:
    """Chips for each seat, comma-separated."""
    return [chips(part.strip()) for part in text.split(",")]


def game(text: str) -> str:
    """A game's name, as :func:`studeval.check_game` reads it, in any case ("Razz",
    "f7s/8"): a person types names, and no two games differ only by case.

    >>> game("Razz"), game("f7s/8"), game("STUD_HILO_NOQ")
    ('razz', 'stud8', 'stud_hilo_noq')
    """
    from studeval.games import ALIASES, check_game

    spelled = {text.lower(): text.lower()} | {name.lower(): name for name in ALIASES}
    try:
        return check_game(spelled[text.lower()])
    except StudevalError as err:
        raise argparse.ArgumentTypeError(str(err).replace(repr(text.lower()), repr(text))) from None


def seat(text: str) -> str | None:
    """One seat's cards; ``-`` (or nothing) is a folded or empty seat."""
    return None if text.strip() in ("-", "") else text


def add_game_options(parser: argparse.ArgumentParser, *, rules: bool = True) -> None:
    """``--game`` and (unless ``rules`` is false) ``--rules``."""
    parser.add_argument("--game", type=game, default="stud", metavar="GAME", help=GAME_HELP)
    if rules:
        parser.add_argument(
            "--rules", choices=("robert", "wsop"), default="robert", help=RULES_HELP
        )


def subcommand(
    commands: Any,
    name: str,
    run: Callable[[argparse.Namespace], int],
    *,
    help: str,
    description: str,
    epilog: str,
) -> argparse.ArgumentParser:
    """Add the parser of command ``name``, which ``run`` carries out."""
    parser: argparse.ArgumentParser = commands.add_parser(
        name, help=help, description=description, epilog=epilog, formatter_class=Formatter
    )
    # The parser travels with the arguments, so that a stray option is reported
    # with this command's usage instead of the top-level one.
    parser.set_defaults(run=run, command_parser=parser)
    return parser


def history_inputs(parser: argparse.ArgumentParser) -> None:
    """The files, directories or ``-`` of hand histories that ``replay`` and
    ``convert`` read."""
    parser.add_argument("inputs", nargs="+", metavar="FILE|DIR|-",
                        help="history files or directories ('-' reads stdin)")  # fmt: skip
