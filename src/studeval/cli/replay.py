r"""``studeval replay``: a PHH hand history replayed through the engine.

>>> import tempfile, pathlib
>>> from studeval.cli import main
>>> phh = pathlib.Path(tempfile.mkdtemp()) / "hand.phh"
>>> _ = phh.write_text('variant = "F7S"\nantes = [1, 1]\nbring_in = 2\nsmall_bet = 5\n'
...                    'big_bet = 10\nstarting_stacks = [200, 200]\nactions = ['
...                    '"d dh p1 Kc9h3s", "d dh p2 2h6sQd", "p1 pb", "p2 f"]\n')
>>> main(["replay", str(phh)])  # doctest: +ELLIPSIS
== ...hand.phh hand 1
Seven Card Stud, 2 seats, stakes 1/2/5/10 (ante, bring-in, small bet, big bet)
...
0
"""

from __future__ import annotations

import argparse
from typing import Any

from studeval.cli._args import history_inputs, subcommand
from studeval.cli._console import InputError, Output, fail, say

__all__ = ["add", "run"]

EPILOG = """\
examples:
  studeval replay hand.phh
  studeval replay HH20250101.txt histories/
  studeval play --seed 7 --format phh | studeval replay -

Reads hand histories: PHH records (variants F7S, F7S/8, FR; .phhs files of many)
and what card rooms write, found per file; a directory is read whole. Every action
is replayed through the engine and every amount a room records is checked; each
hand is printed street by street with its settlement. A hand that cannot be
replayed is reported with its file, line and reason, and the others go on; the exit
status is then 2.

rooms read:
  {rooms}
"""


def add(commands: Any) -> None:
    """The ``replay`` command's parser."""
    replay = subcommand(
        commands, "replay", run,
        help="replay hand histories (PHH and card rooms') through the rules engine",
        description="Replay hand histories and print each hand street by street.",
        epilog=EPILOG,
    )  # fmt: skip
    history_inputs(replay)
    replay.add_argument("--equity", action="store_true",
                        help="each street's pot and every live player's share of it, from "
                             "every card the hand shows")  # fmt: skip


def _equities(hand: Any) -> dict[int, str]:
    """Each street's equity line: the pot and every live player's share."""
    from studeval.analysis import analyze

    found = analyze(hand)
    lines = {}
    for street in found.streets:
        shares = ", ".join(
            f"{found.players[seat]} {share:.1%}"
            + (f" ±{street.std_errors[seat]:.2%}" if not street.exact else "")
            for seat, share in enumerate(street.shares) if share is not None
        )  # fmt: skip
        # The deal lines show what the table saw; the shares count the down cards
        # the hand shows later too, and say so.
        lines[street.street] = f"equity (pot {street.pot}; every card shown): {shares}"
    return lines


def run(args: argparse.Namespace) -> int:
    """Print the replayed hands and a count of those refused; the exit status."""
    from studeval.cli._hands import Tally, replayed
    from studeval.play import describe

    out = Output()
    tally = Tally()
    try:
        for loaded in replayed(args.inputs, tally):
            assert loaded.hand is not None
            notes = _equities(loaded.history or loaded.hand) if args.equity else None
            out.line(("\n" if tally.read > 1 else "") + f"== {loaded.where}\n"
                     + describe(loaded.hand, notes))  # fmt: skip
    except InputError as err:
        return fail(str(err))
    out.flush()  # the hands first, then the count after them
    say(tally.summary("replayed"))
    return 2 if tally.failed() else 0
