"""Reading card-room hand histories beside pokerkit, in one process: hands/s.

    python benchmarks/histories_report.py            # 100,000 hands each
    python benchmarks/histories_report.py --quick    # 5,000 (a smoke run)

studeval reads a PokerStars file of random seven-card stud hands (written by
``studeval.histories.rooms.pokerstars.write``), replaying every hand through the engine
and checking every amount. pokerkit 0.7 reads PokerStars for no-limit hold'em only
(``HandHistory.from_pokerstars``), so it gets a file of as many hold'em hands, for
scale: the two are not the same work. Times are CPU seconds (``time.process_time``),
the best of the repeats (pokerkit, some forty times slower, runs once on the full
file), the readers in turn. studeval is measured twice: as ``read`` works (the C
reader first, ``se_history.c``, the general reader for any hand it gives up on) and
with the general reader alone. The target (the project's own): >= 20,000 stud
hands/s on one thread.

Then one row a room (each writer of ``studeval.histories.ROOMS``: 2 to 7 seats, so
that no hand needs a community card, which Merge's writer cannot write): its own
file of random hands written by its writer, read as ``read`` reads it (every hand
must read; a row that takes seconds, the best of three), and the share of its hands
the C reader read.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from unittest import mock

from studeval.histories import History, _reader, read
from studeval.histories._fast import read_fast
from studeval.histories._writer import Table
from studeval.histories.rooms import ROOMS, bovada, pokerstars, winning
from studeval.play import random_hand

TARGET = 20_000.0

#: A no-limit hold'em hand in PokerStars' words (written here), for pokerkit.
_HOLDEM = """\
PokerStars Hand #{hand}:  Hold'em No Limit ($0.05/$0.10 USD) - 2026/12/02 12:00:00 ET
Table 'Example' 6-max Seat #1 is the button
Seat 1: Ann ($10.00 in chips)
Seat 2: Bob ($10.00 in chips)
Seat 3: Cy ($10.00 in chips)
Bob: posts small blind $0.05
Cy: posts big blind $0.10
*** HOLE CARDS ***
Ann: raises $0.20 to $0.30
Bob: folds
Cy: calls $0.20
*** FLOP *** [7h 2c Kd]
Cy: checks
Ann: bets $0.40
Cy: calls $0.40
*** TURN *** [7h 2c Kd] [4s]
Cy: checks
Ann: checks
*** RIVER *** [7h 2c Kd 4s] [9c]
Cy: bets $1.00
Ann: calls $1.00
*** SHOW DOWN ***
Cy: shows [Kh Qs] (a pair of Kings)
Ann: shows [Ac Ad] (a pair of Aces)
Ann collected $3.40 from pot
*** SUMMARY ***
Total pot $3.45 | Rake $0.05
Board [7h 2c Kd 4s 9c]
Seat 1: Ann (button) showed [Ac Ad] and won ($3.40) with a pair of Aces
Seat 2: Bob (small blind) folded before Flop
Seat 3: Cy (big blind) showed [Kh Qs] and lost with a pair of Kings
"""


def stud_file(hands: int) -> str:
    rng = random.Random(2026)
    texts = []
    for number in range(hands):
        hand = random_hand(rng.choice(["stud", "stud8", "razz"]), rng.randint(2, 8), rng=rng)
        names = [f"Player{s}" for s in range(hand.seats)]
        texts.append(pokerstars.write(hand, Table(names=names, hand_id=number + 1)))
    return "\n\n\n".join(texts)


def room_file(name: str, hands: int) -> str:
    """``hands`` random hands of 2 to 7 seats in the words of the writer ``name``."""
    writer = next(r.writers[name] for r in ROOMS if name in r.writers)
    # The Winning Poker Network's old software gives the odd chip to the low half.
    rules = winning.GRAMMAR_2016.rules if name == "Winning 2016" else None
    rng = random.Random(7)
    texts = []
    for number in range(hands):
        hand = random_hand(rng.choice(["stud", "stud8", "razz"]), rng.randint(2, 7), rng=rng,
                           rules=rules)  # fmt: skip
        names = (bovada.names(hand.seats, 0) if name == "Bovada"
                 else [f"Player{s}" for s in range(hand.seats)])  # fmt: skip
        texts.append(writer(hand, Table(names=names, hand_id=number + 1)))
    return "\n\n\n".join(texts)


class _Counted:
    """``read_fast``, counting the hands it read."""

    def __init__(self) -> None:
        self.read = 0

    def __call__(self, *args: object) -> object:
        history = read_fast(*args)  # type: ignore[arg-type]
        self.read += history is not None
        return history


class _CountedXml:
    """An XML room's ``_read_in_c``, counting the hands it read."""

    def __init__(self, read_in_c: Callable[..., list[object] | None]) -> None:
        self.read_in_c = read_in_c
        self.read = 0

    def __call__(self, *args: object) -> object:
        found = self.read_in_c(*args)
        self.read += 0 if found is None else sum(isinstance(h, History) for h in found)
        return found


def room_rows(hands: int, only: set[str] | None = None) -> None:
    """One row a room's writer: hands/s read, replayed and checked, and the share
    the C reader read."""
    print(f"\n{'room (writer)':24} {'hands/s':>10} {'in C':>8}  target >= {TARGET:,.0f}")
    for room in ROOMS:
        for name in room.writers:
            if only is not None and name not in only:
                continue
            text = room_file(name, hands)
            # A call a hand (a text room's) or a file (an XML room's): no cost to see.
            if room.xml is not None:
                module = sys.modules[room.xml.read.__module__]
                spy: _Counted | _CountedXml = _CountedXml(module._read_in_c)
                counting = mock.patch.object(module, "_read_in_c", spy)
            else:
                spy = _Counted()
                counting = mock.patch.object(_reader, "read_fast", spy)
            with counting:
                rate = best_rate(lambda: sum(1 for _ in read(text, site=room.site)), 1)  # noqa: B023
            assert spy.read in (0, hands), (name, spy.read)  # every hand, or none, in C
            if hands / rate < 15:  # a row of seconds: the best of three (neighbours are noisy)
                rate = max(rate, best_rate(lambda: sum(1 for _ in read(text, site=room.site)),  # noqa: B023
                                           2))  # fmt: skip
            print(f"{name:24} {rate:>10,.0f} {spy.read / hands:>8.0%}  "
                  f"{'met' if rate >= TARGET else 'NOT met'}")  # fmt: skip


def holdem_file(hands: int) -> str:
    return "\n\n\n".join(_HOLDEM.format(hand=number + 1) for number in range(hands))


def best_rate(work: Callable[[], int], repeats: int) -> float:
    best = float("inf")
    count = 0
    for _ in range(repeats):
        start = time.process_time()
        count = work()
        best = min(best, time.process_time() - start)
    return count / best


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="5,000 hands, one repeat")
    parser.add_argument("--rooms-only", action="store_true", help="only the rows a room")
    parser.add_argument("--writers", help="with --rooms-only: these writers' rows (by commas)")
    args = parser.parse_args()
    hands, repeats = (5_000, 1) if args.quick else (100_000, 3)
    if args.rooms_only:
        room_rows(hands, set(args.writers.split(",")) if args.writers else None)
        return 0
    import pokerkit  # the peer: imported here, so --help works without it

    stud, holdem = stud_file(hands), holdem_file(hands)
    in_c = _Counted()
    with mock.patch.object(_reader, "read_fast", in_c):
        sum(1 for _ in read(stud, site="PokerStars"))
    ours = best_rate(lambda: sum(1 for _ in read(stud, site="PokerStars")), repeats)
    with mock.patch.object(_reader, "read_fast", lambda *args: None):
        general = best_rate(lambda: sum(1 for _ in read(stud, site="PokerStars")),
                            max(1, repeats - 2))  # fmt: skip
    theirs = best_rate(lambda: sum(1 for _ in pokerkit.HandHistory.from_pokerstars(holdem)), 1)
    print(
        f"studeval  {ours:>10,.0f} stud hands/s (read, replayed, every amount checked; "
        f"{in_c.read:,} of {hands:,} hands read in C)"
    )
    print(f"general   {general:>10,.0f} stud hands/s (the general reader alone)")
    print(f"pokerkit  {theirs:>10,.0f} hold'em hands/s (HandHistory.from_pokerstars)")
    print(
        f"ratio     {ours / theirs:>10.2f}x pokerkit, {ours / general:.2f}x the general reader; "
        f"target >= {TARGET:,.0f} stud hands/s: {'met' if ours >= TARGET else 'NOT met'}"
    )
    room_rows(hands)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
