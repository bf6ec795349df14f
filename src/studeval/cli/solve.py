"""``studeval solve``: the end of a heads-up hand solved, its strategy printed by hand.

>>> from studeval.cli import main
>>> main(["solve", "razz", "--up", "7c 4d 3h Kd", "--up", "8c 6d 5h 2s", "--pot", "60",
...       "--stakes", "1/2/5/10", "--stacks", "40/40", "--node", "bet", "--target", "0.5"])
... # doctest: +ELLIPSIS +NORMALIZE_WHITESPACE
razz, seventh street: pot 60, bets of 10; seat 1 (8c 6d 5h 2s) acts first
solved in 50 iterations (... s): exploitability 0.179% of the pot
values: seat 0 15.93, seat 1 44.07
<BLANKLINE>
after bet: seat 0 (13,244 combinations reach it)
  hand                share    fold    call   raise
  5-low                0.3%    0.0%    0.3%   99.6%
...
  K-low               19.9%   93.9%    0.3%    5.8%
  one pair low         1.7%   86.8%    0.2%   12.9%
0
"""

from __future__ import annotations

import argparse
from typing import Any

from studeval.cli._args import subcommand
from studeval.cli._console import Output, fail
from studeval.errors import StudevalError

__all__ = ["add", "run"]

EPILOG = """\
examples:
  studeval solve razz --up "7c 4d 3h Kd" --up "8c 6d 5h 2s" --pot 60 --stakes 1/2/5/10 \\
      --stacks 40/40
  studeval solve stud8 --up "Ad 3c 6h Ks" --up "9c 9d 4s 2h" \\
      --range "*" --range "trips, 44*, 22*" --pot 60 --stakes 1/2/5/10 --cap --node check
  studeval solve stud8 --street 6 --up "Ad 3c 6h Ks" --up "9c 9d 4s 2h" --pot 40 \\
      --stakes 1/2/5/10 --cap

Each seat's range is range text (docs/ranges.md) of its hidden cards on the street
(three on seventh, two before); "*" is every combination. From fifth or fourth street
the up cards to come are sampled deals (a deal is named by its two cards, seat 0's
then seat 1's: --node "check check Qh7c bet"); keep the ranges narrow there. The
strategies, the tree and the method: docs/solve.md.
"""


def _pair(text: str) -> tuple[int, int]:
    parts = text.replace(",", "/").split("/")
    if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
        raise argparse.ArgumentTypeError(f"expected two whole numbers as A/B; got {text!r}")
    return int(parts[0]), int(parts[1])


def _stakes(text: str) -> tuple[int, ...]:
    parts = text.replace(",", "/").split("/")
    if len(parts) != 4 or not all(p.strip().isdigit() for p in parts):
        raise argparse.ArgumentTypeError(f"expected ante/bring-in/small bet/big bet; got {text!r}")
    return tuple(int(p) for p in parts)


def _deals(text: str) -> int | None:
    if text == "all":
        return None
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number >= 1 or 'all'; got {text!r}")
    return int(text)


def _streets(street: int, deals: int | None) -> str:
    """The streets solved, in words."""
    if street == 7:
        return "seventh street"
    if street == 6:
        return "sixth and seventh street"
    sampled = "every deal" if deals is None else f"{deals} sampled deals"
    return f"{('fourth', 'fifth')[street - 4]} street to seventh ({sampled} of up cards a street)"


def _bets(street: int, stakes: Any) -> str:
    return f"{stakes.small_bet}, then {stakes.big_bet}" if street == 4 else f"{stakes.big_bet}"


def add(commands: Any) -> None:
    """The ``solve`` command's parser."""
    solve = subcommand(
        commands, "solve", run,
        help="solve the end of a heads-up hand from 4th to 7th street: each hand's strategy",
        description="Solve the end of a heads-up fixed-limit hand by CFR+ over both ranges, "
                    "and print the strategy by class of hand.",
        epilog=EPILOG,
    )  # fmt: skip
    solve.add_argument("game", choices=("stud", "stud8", "razz"), help="the game")
    solve.add_argument("--up", action="append", required=True, metavar="CARDS",
                       help="a seat's up cards (twice: seat 0, then seat 1): four on 6th and "
                            "7th street, three on 5th, two on 4th")  # fmt: skip
    solve.add_argument("--range", action="append", metavar="TEXT",
                       help="a seat's range of hidden cards (twice; default '*' each)")  # fmt: skip
    solve.add_argument("--street", type=int, choices=(4, 5, 6, 7), default=7,
                       help="7: seventh street (three hidden cards a seat); 6: sixth and "
                            "seventh (two down cards, the seventh dealt); 5 or 4: from that "
                            "street, the up cards to come sampled (--deals)")  # fmt: skip
    solve.add_argument("--deals", type=_deals, default=8, metavar="N|all",
                       help="from 4th or 5th street: the sampled deals of up cards before "
                            "each street (default 8; 'all' for every deal)")  # fmt: skip
    solve.add_argument("--seed", type=int, default=0,
                       help="the seed of the sampled deals (default 0)")  # fmt: skip
    solve.add_argument("--pot", type=int, required=True,
                       help="chips in the pot before the street's betting")  # fmt: skip
    solve.add_argument("--stakes", type=_stakes, required=True, metavar="A/B/S/L",
                       help="ante, bring-in, small bet and big bet")  # fmt: skip
    solve.add_argument("--stacks", type=_pair, metavar="S0/S1",
                       help="the chips each seat has behind (needed without --cap)")  # fmt: skip
    solve.add_argument("--cap", action="store_true",
                       help="one bet and three raises heads-up (Robert's lifts it)")  # fmt: skip
    solve.add_argument("--target", type=float, default=0.1,
                       help="exploitability to reach, in %% of the pot (default 0.1)")  # fmt: skip
    solve.add_argument("--threads", type=int, default=None, help="threads (default: every CPU)")
    solve.add_argument("--node", action="append", metavar="ACTIONS",
                       help="a node to print, by its actions from the root ('check bet'); "
                            "default: the first two decisions")  # fmt: skip


def run(args: argparse.Namespace) -> int:
    """Print the solution; the exit status."""
    from studeval.betting import Stakes
    from studeval.houserules import HouseRules
    from studeval.solving import Spot, find_node, solve

    if len(args.up) != 2:
        return fail(f"give --up twice, one a seat; got {len(args.up)}")
    ranges = args.range or ["*", "*"]
    if len(ranges) != 2:
        return fail(f"give --range twice, one a seat (or not at all); got {len(ranges)}")
    try:
        stakes = Stakes(*args.stakes)
        rules = HouseRules(heads_up_cap="kept") if args.cap else HouseRules()
        spot = Spot(args.game, stakes, pot=args.pot, up=args.up, ranges=ranges,
                    street=args.street, stacks=args.stacks, rules=rules, deals=args.deals,
                    seed=args.seed)  # fmt: skip
        paths = [tuple(p.split()) for p in args.node] if args.node else None
        by_path = {n.path: n for n in spot.tree()}
        for path in paths or ():  # before the solve: a wrong node costs no wait
            if (found := find_node(by_path, path)).kind != "act":
                return fail(f"the node after {' '.join(path)} is a {found.kind}: no one acts")
        sol = solve(spot, target_exploitability=args.target, threads=args.threads)
        nodes = [sol.node(*p) for p in paths] if paths else [
            n for n in sol.nodes if n.kind == "act" and len(n.path) <= 1]  # fmt: skip
    except StudevalError as err:
        return fail(str(err))
    out = Output()
    first = sol.node().actor
    bets = _bets(spot.street, stakes)
    out.line(f"{spot.game}, {_streets(spot.street, args.deals)}: pot {spot.pot}, bets of {bets}; "
             f"seat {first} ({args.up[first]}) acts first")  # fmt: skip
    out.line(f"solved in {sol.iterations} iterations ({sol.seconds:.2f} s): exploitability "
             f"{sol.exploitability_pct:.3f}% of the pot")  # fmt: skip
    out.line(f"values: seat 0 {sol.value[0]:.2f}, seat 1 {sol.value[1]:.2f}")
    for node in nodes:
        where = "the root" if not node.path else " ".join(node.path)
        reach = sol.reach(node)
        out.line("")
        out.line(f"after {where}: seat {node.actor} ({int((reach > 0).sum()):,} combinations "
                 "reach it)" if node.path else f"{where}: seat {node.actor} to act")  # fmt: skip
        rows = sol.by_hand(node)
        width = max(len(label) for label in ["hand", *(row[0] for row in rows)])
        out.line(f"  {'hand':{width}} {'share':>6}" + "".join(f" {a:>7}" for a in node.actions))
        for label, share, mix in rows:
            cells = "".join(f" {mix[a]:>7.1%}" for a in node.actions)
            out.line(f"  {label:{width}} {share:>6.1%}{cells}")
    return 0
