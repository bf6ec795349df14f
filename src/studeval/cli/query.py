"""``studeval query``: a PQL question about stud answered on the C core.

>>> from studeval.cli import main
>>> main(["query", "select avg(riverEquity(h)) as equity from game='stud', h='As Ad Ah', "
...       "v='*'", "--samples", "40960", "--seed", "1"])
40,960 trials kept of 40,960 dealt (Monte Carlo, seed 1)
equity: 0.931311 (+/- 0.00124966)
0
"""

from __future__ import annotations

import argparse
import json
import warnings
from typing import Any

from studeval.cli._args import subcommand
from studeval.cli._console import Output, fail
from studeval.errors import StudevalError

__all__ = ["add", "run"]

EPILOG = """\
examples:
  studeval query "select avg(riverEquity(hero)) from game='stud', hero='As Ad Ah', v='*'"
  studeval query "select count(scoops(h)) from game='stud8', h='As 2d 3h', v='Kc Kd Qh'"
  studeval query "select histogram(winningHandType()) from game='stud', a='*', b='*', c='*'"

The syntax, the functions and their stud meanings: docs/query.md.
"""


def add(commands: Any) -> None:
    """The ``query`` command's parser."""
    query = subcommand(
        commands, "query", run,
        help="answer a PQL question (ProPokerTools' query language) about stud",
        description="Answer a PQL query for stud, stud8 or razz by Monte Carlo trials.",
        epilog=EPILOG,
    )  # fmt: skip
    query.add_argument("text", metavar="TEXT", help="the query: select ... from ... [where ...]")
    query.add_argument("--samples", type=int, default=None,
                       help="trials to keep (default: 600,000, as PQL)")  # fmt: skip
    query.add_argument("--seed", type=int, default=None, help="the random seed (default: random)")
    query.add_argument("--threads", type=int, default=None, help="threads (default: every CPU)")
    query.add_argument("--monte-carlo", action="store_true",
                       help="sample even where every deal could be counted exactly")  # fmt: skip
    query.add_argument("--json", action="store_true", help="print the result as JSON")


def run(args: argparse.Namespace) -> int:
    """Print the query's answers; the exit status."""
    from studeval.queries import query

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = query(args.text, samples=args.samples, seed=args.seed,
                           threads=args.threads,
                           exact=False if args.monte_carlo else None)  # fmt: skip
        except StudevalError as err:
            return fail(str(err))
    out = Output()
    for warning in caught:
        out.line(f"warning: {warning.message}")
    if args.json:
        out.line(json.dumps({
            "answers": {k: _json(v) for k, v in result.items()},
            "std_error": {k: _json(v) for k, v in result.std_error.items()},
            "trials": result.trials, "dealt": result.dealt, "seed": result.seed,
            "exact": result.exact,
        }))  # fmt: skip
    else:
        out.line(str(result))
    return 0


def _json(value: object) -> object:
    return {str(k): v for k, v in value.items()} if isinstance(value, dict) else value
