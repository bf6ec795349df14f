"""``studeval equity``: each player's share of the pot, win, tie and scoop.

>>> from studeval.cli import main
>>> main(["equity", "As Ad 7c", "Ks Kd Qh"])
Seven Card Stud: exact, 18,265,297,050 deals
player  cards        share  high win  high tie     scoop
0       As Ad 7c    65.46%    65.46%     0.00%    65.46%
1       Ks Kd Qh    34.54%    34.54%     0.00%    34.54%
0
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Sized
from typing import Any

from studeval.cards import parse_cards
from studeval.cli._args import add_game_options, count, positive, subcommand
from studeval.cli._console import Output, Progress, fail
from studeval.errors import RangeError, StudevalError

__all__ = ["QUIET_S", "Advance", "add", "run"]

EPILOG = """\
examples:
  studeval equity --game stud8 "As 2d 3h" "Kc Kd Qs" --dead "5c 9h"
  studeval equity --game razz "?? ?? 3h 5d" "?? ?? Kd 9c" --exact
  studeval equity "As Ad 7c" "Ks Kd Qh" "9h 9s 2c" --samples 2M --seed 7
  studeval equity "9c 9d 9h" "split, buried@Kc" --explain
  studeval equity --game stud8 "As 2d 3h 4c" "low3-8, three-flush@7h 6h"

Each HAND is one player's known cards (down cards first); "??" marks an unknown
card and may be left out. Heads-up answers are counted exactly at any street,
except hi/lo spots whose scoops would take minutes to count (both players' down
cards unknown), which are sampled; multiway spots are walked exactly while that
is quick. Sampling (Monte Carlo) runs to a standard error of 0.05% unless
--samples says otherwise; --exact always counts, or says why it cannot.

A HAND written RANGE@UP is a range: what the seat may hold (RANGE, the range text
of docs/ranges.md) given its up cards UP ("RANGE@" for none). With four up cards it
is a 7th-street range when another player holds seven cards. --explain lists each
range's combinations counted, with their weights.
"""


def add(commands: Any) -> None:
    """The ``equity`` command's parser."""
    equity = subcommand(
        commands, "equity", run,
        help="each player's share of the pot: exact heads-up, or Monte Carlo",
        description="Who is ahead: each player's share of the pot, win, tie and scoop.",
        epilog=EPILOG,
    )  # fmt: skip
    add_game_options(equity, rules=False)
    equity.add_argument("--dead", metavar="CARDS", default="", help="cards known to be out of play")
    how = equity.add_mutually_exclusive_group()
    how.add_argument("--exact", action="store_true", help="count every deal (may be slow multiway)")
    how.add_argument(
        "--samples", type=count, metavar="N", help="Monte Carlo over N deals (10M, 1.5M, 1e6 work)"
    )
    equity.add_argument("--seed", type=int, help="seed for Monte Carlo (default: fresh)")
    equity.add_argument("--threads", type=positive, metavar="T", help="default: every core")
    equity.add_argument("--format", choices=("table", "json"), default="table")
    equity.add_argument(
        "--explain", action="store_true", help="list the combinations of each range counted"
    )
    equity.add_argument("hands", nargs="+", metavar="HAND", help="one player's known cards")


#: Seconds before the bar shows anything, unless a quick first phase is seen to end.
QUIET_S = 2.0
#: A first phase that did this share of the work or more is left out of the rate.
BIG_PHASE = 1 / 3


class Advance:
    """The ``progress`` callback behind the bar, which times the rest by the average
    rate since it started. A heads-up count first ranks each side's hands: a tenth
    of a second for a sixth to a half of its units, the rest of them ten times
    slower. Shown at once, that phase made the bar promise 3 s for a 30 s count. So
    the bar shows nothing for :data:`QUIET_S` seconds, and when the quick phase ends
    sooner (a report that advances less than half as much as the reports before it
    did) having done :data:`BIG_PHASE` of the work or more, the bar starts from there.

    >>> class Bar:
    ...     def update(self, n): print("update", n)
    ...     def restart(self, n): print("restart at", n)
    >>> now = [0.0]
    >>> advance = Advance(Bar(), clock=lambda: now[0])
    >>> now[0] = 0.1; advance(0.3)  # quick: not shown
    >>> now[0] = 0.2; advance(0.5)
    >>> now[0] = 0.3; advance(0.51)  # the quick phase is over: timed from here
    restart at 51
    >>> now[0] = 1.3; advance(0.6)
    update 9
    """

    def __init__(self, bar: Any, clock: Callable[[], float] = time.monotonic) -> None:
        self.bar, self.clock = bar, clock
        self.started = clock()
        self.reports = 0
        self.last = 0.0
        self.shown: int | None = None  # the percentage shown, None before the first

    def __call__(self, fraction: float) -> None:
        percent = int(fraction * 100)
        if self.shown is None:
            step, mean = fraction - self.last, self.last / max(self.reports, 1)
            phase_over = self.reports > 0 and step < mean / 2 and self.last >= BIG_PHASE
            self.reports, self.last = self.reports + 1, fraction
            if phase_over:
                self.bar.restart(percent)  # the time left is timed from here
                self.shown = percent
                return
            if fraction < 1.0 and self.clock() - self.started < QUIET_S:
                return
            self.shown = 0
        if percent > self.shown:
            self.bar.update(percent - self.shown)
            self.shown = percent


class _Bar(Progress):
    """The percentage bar, which can restart its clock part way."""

    def restart(self, percent: int) -> None:
        if self.bar is not None:
            self.bar.reset(total=100)  # its clock starts now...
            self.bar.initial = self.bar.n = percent  # ...from the work done so far
            self.bar.refresh()


def run(args: argparse.Namespace) -> int:
    """Print the equities, with a progress bar on a terminal; the exit status."""
    from studeval.equity_calculator import equity

    method = "exact" if args.exact else "mc" if args.samples else "auto"
    try:
        hands = _seats(args.hands, args.game)
    except (StudevalError, ValueError, TypeError) as err:
        return fail(str(err))
    # Drawn only on a terminal; long exact counts take seconds. Their phases (each
    # side's hands, the sweeps, stud8's scoops by class) run at rates 4x apart, so
    # the time left is the average rate's, not the last phase's.
    bar = _Bar(100, "%", smoothing=0)
    advance = Advance(bar)
    try:
        result = equity(hands, args.game, dead=args.dead, method=method,
                        samples=args.samples, seed=args.seed, threads=args.threads,
                        progress=advance)  # fmt: skip
    except (StudevalError, ValueError, TypeError) as err:
        # The library names its own option; here the option is the command's.
        return fail(str(err).replace("use method='mc'", "leave out --exact, or give --samples N"))
    finally:
        bar.close()
    if args.format == "json":
        import json
        from dataclasses import asdict

        data = {
            "game": result.game, "exact": result.exact, "deals": result.deals,
            "community": result.community, "method": result.method,
            "elapsed": round(result.elapsed, 6),
            "players": [asdict(player) for player in result.players],
        }  # fmt: skip
        Output().line(json.dumps(data))
    else:
        Output().line(str(result))
    if args.explain:
        _explain(hands, args.dead)
    return 0


def _seats(texts: list[str], game: str) -> list[object]:
    """Each HAND as equity takes it: card text, or a Range for RANGE@UP."""
    from studeval.ranges import Range, split_range_text

    ranged = [split_range_text(text) for text in texts]
    if not any(ranged):
        return list(texts)

    seventh = any(_card_count(t) == 7 for t, r in zip(texts, ranged, strict=True) if r is None)
    seats: list[object] = []
    for seat, (text, parts) in enumerate(zip(texts, ranged, strict=True)):
        if parts is None:
            seats.append(text)
            continue
        spec, up = parts
        shown = _card_count(up)
        try:
            seats.append(Range(spec, up=up, street=7 if seventh and shown == 4 else None,
                               game=game))  # fmt: skip
        except StudevalError as err:
            raise RangeError(f"player {seat}'s range {text!r}: {err}") from None
    return seats


def _card_count(text: str) -> int:
    """How many cards a HAND gives, "??" markers included, however it is written
    ("As Ad" or "AsAd"); 0 when it is no card text (equity then says why)."""
    markers = text.count("?") // 2
    try:
        return len(parse_cards(text.replace("?", " ").replace(",", " "))) + markers
    except StudevalError:
        return 0


def _explain(hands: list[object], dead: str) -> None:
    """Each range's combinations counted (after card removal), one line each."""
    from studeval.equity_ranges import ranged_spot

    spot = ranged_spot(hands, dead)
    out = Output()
    for seat, r in spot.ranges:
        given = hands[seat]
        dropped = len(given) - len(r) if isinstance(given, Sized) else 0
        out.line(f"player {seat} ({spot.labels[seat]}): {len(r):,} combinations counted, "
                 f"total weight {r.weights.sum():g}; {dropped:,} hold a card known "
                 f"elsewhere")  # fmt: skip
        for combo, weight in zip(r.combos(), r.weights.tolist(), strict=True):
            out.line(f"  {combo}" + ("" if weight == 1.0 else f"  @{weight:g}"))
