r"""``studeval replay``: a PHH hand history replayed through the engine.

>>> import tempfile, pathlib
>>> from studeval.cli import main
>>> phh = pathlib.Path(tempfile.mkdtemp()) / "hand.phh"
>>> _ = phh.write_text('variant = "F7S"\nantes = [1, 1]\nbring_in = 2\nsmall_bet = 5\n'
...                    'big_bet = 10\nstarting_stacks = [200, 200]\nactions = ['
...                    '"d dh p1 Kc9h3s", "d dh p2 2h6sQd", "p1 pb", "p2 f"]\n')
>>> main(["replay", str(phh)])
Seven Card Stud, 2 seats, stakes 1/2/5/10 (ante, bring-in, small bet, big bet)
...
0
"""

from __future__ import annotations

import argparse
from typing import Any

from studeval.cli._args import subcommand
from studeval.cli._console import InputError, Output, fail, open_input
from studeval.errors import StudevalError

__all__ = ["add", "run"]

EPILOG = """\
examples:
  studeval replay hand.phh
  studeval play --seed 7 > hand.txt; studeval play --seed 7 --format phh | studeval replay -

Reads a hand history in the PHH format (variants F7S, F7S/8, FR; unknown cards
"??"), or a .phhs file of many, replays every action through the engine and prints
each hand street by street with the settlement. An action the rules do not allow,
or finishing stacks the play does not reach, is an error naming it.
"""


def add(commands: Any) -> None:
    """The ``replay`` command's parser."""
    replay = subcommand(
        commands, "replay", run,
        help="replay a PHH hand history through the rules engine",
        description="Replay one PHH hand history and print it street by street.",
        epilog=EPILOG,
    )  # fmt: skip
    replay.add_argument("input", metavar="FILE|-", help="the .phh file ('-' reads stdin)")


def run(args: argparse.Namespace) -> int:
    """Print the replayed hand; the exit status."""
    from studeval.phh import read
    from studeval.play import describe

    try:
        stream, _size = open_input(args.input)
        with stream:
            raw = stream.read()
        hands = read(raw.decode("utf-8-sig"))
    except InputError as err:
        return fail(str(err))
    except UnicodeDecodeError:
        return fail(f"{args.input!r} is not UTF-8 text")
    except (StudevalError, ValueError, TypeError) as err:
        return fail(str(err))
    Output().line("\n\n".join(describe(hand) for hand in hands))
    return 0
