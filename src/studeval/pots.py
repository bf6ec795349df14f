"""The chips of a hand: pots from what each seat put in, chips nobody matched, the
rake, and the split of a pot into whole chips.

This module knows no cards: :mod:`studeval.showdown` ranks the hands and decides
who wins each pot; here the chips are cut into the main pot and side pots, the
rake comes off the main pot, and a pot divides among its winners in whole chips
with the odd ones in a given order. A hand won by folds needs nothing else
(:func:`settle_uncontested`).

>>> pot_layers([10, 30, 50], [0, 1, 2])  # a main pot, a side pot, 20 chips unmatched
([(30, (0, 1, 2)), (40, (1, 2))], [0, 0, 20])
>>> divide(25, [2, 0], 3)
([12, 0, 13], 1)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from studeval._seats import check_whole_chips, chip_count, seat_index
from studeval.errors import ChipError, SeatError
from studeval.games import get_game

__all__ = [
    "Pot",
    "Settlement",
    "checked_money",
    "divide",
    "pot_layers",
    "settle_uncontested",
    "take_rake",
]


@dataclass(frozen=True)
class Pot:
    """One pot and how it was split.

    Per-seat tuples (``shares``, ``high_shares``, ``low_shares``) have one
    entry per seat of the table, so ``shares[s]`` is what seat ``s`` took from
    this pot.

    Attributes:
        name: ``"Main pot"``, ``"Side pot 1"`` ... (``"Pot"`` from
            :func:`studeval.award_pot`).
        game: the game's name.
        amount: the chips in the pot.
        eligible: the live seats that could win it, in seat order.
        high_winners: the seats sharing the high (or the whole pot in
            ``stud``), in seat order; empty in ``razz``.
        low_winners: the seats sharing the low; empty in ``stud`` and when no
            low qualifies in ``stud8``.
        shares: chips each seat takes from this pot (both halves).
        high_shares: chips each seat takes for high.
        low_shares: chips each seat takes for low.
        high_hand: the winning high hand in words, or ``None``.
        low_hand: the winning low hand in words, or ``None``.
        odd_chips: chips given out one by one because a split could not be even
            (the high half's extra chip of a hi/lo split included).
    """

    name: str
    game: str
    amount: int
    eligible: tuple[int, ...]
    high_winners: tuple[int, ...]
    low_winners: tuple[int, ...]
    shares: tuple[int, ...]
    high_shares: tuple[int, ...]
    low_shares: tuple[int, ...]
    high_hand: str | None
    low_hand: str | None
    odd_chips: int

    def __str__(self) -> str:
        return f"{self.name} of {self.amount}: {'; '.join(self._parts())}"

    def _parts(self) -> list[str]:
        if len(self.eligible) == 1:
            return [f"Seat {self.eligible[0]} wins {self.amount} uncontested"]
        high, low = self.high_winners, self.low_winners
        if high and len(high) == 1 and high == low:
            seat = high[0]
            return [f"Seat {seat} scoops {self.amount} with {self.high_hand} and {self.low_hand}"]
        parts = [f"Seat {s} wins {self.high_shares[s]} with {self.high_hand}" for s in high]
        parts += [f"Seat {s} wins {self.low_shares[s]} with {self.low_hand}" for s in low]
        if high and not low and get_game(self.game).low is not None:
            parts.append("no low qualifies")
        return parts


@dataclass(frozen=True)
class Settlement:
    """The result of :func:`studeval.settle` (and of :func:`settle_uncontested`).

    Attributes:
        game: the game's name.
        payouts: chips each seat receives in all (pots won plus chips returned);
            they sum to the contributions.
        pots: the main pot, then the side pots in the order they formed.
        returned: chips each seat gets back because nobody matched them.
        rake: chips the house took from the main pot before it was split.
        chip: the smallest chip in play; every share is a whole number of them.
    """

    game: str
    payouts: list[int]
    pots: list[Pot]
    returned: list[int]
    rake: int = 0
    chip: int = 1

    def __str__(self) -> str:
        lines = [f"Rake {self.rake} from the main pot"] if self.rake else []
        lines += [str(pot) for pot in self.pots]
        lines += [
            f"Seat {seat} takes back {chips} unmatched"
            for seat, chips in enumerate(self.returned)
            if chips
        ]
        return "\n".join(lines) if lines else "No chips to settle"


def chip_list(contributions: object) -> list[object]:
    # A sequence of integers, one per seat (a list, a tuple, a 1-D numpy array).
    # A mapping would be read as its keys and a set in no particular order, and a
    # string is iterable too: each would pay the wrong seats, so all are refused.
    ndim = getattr(contributions, "ndim", None)
    if ndim == 1 and hasattr(contributions, "tolist"):
        return list(contributions.tolist())
    if isinstance(contributions, Sequence) and not isinstance(contributions, (str, bytes)):
        return list(contributions)
    kind = type(contributions).__name__
    raise ChipError(
        f"contributions must be a sequence of chip counts, one per seat (a list, a tuple "
        f"or a 1-D array); got a {kind}: {contributions!r}"
    )


def checked_money(
    contributions: object, n: int, what: str, rake: object, chip: object
) -> tuple[list[int], int, int]:
    """Checked contributions (one per seat of ``what``), rake and chip size."""
    chips = [chip_count(c, f"contributions[{s}]") for s, c in enumerate(chip_list(contributions))]
    if len(chips) != n:
        raise SeatError(f"contributions has {len(chips)} entries but {what} has {n} seats")
    chip = chip_count(chip, "chip")
    rake = chip_count(rake, "rake")
    if chip < 1:
        raise ChipError("chip is 0; the smallest chip in play is at least 1")
    for name, value in [*((f"contributions[{s}]", c) for s, c in enumerate(chips)),
                        ("rake", rake)]:  # fmt: skip
        check_whole_chips(value, chip, name)
    return chips, rake, chip


def pot_layers(
    chips: list[int], live: list[int]
) -> tuple[list[tuple[int, tuple[int, ...]]], list[int]]:
    """Cut contributions into pots: ``[(amount, eligible)]`` and chips returned.

    The chips of the one seat that put in most, above what anyone else put in,
    are returned to it. Each contribution level then makes a layer that the live
    seats who reached it may win; neighbouring layers with the same eligible
    seats are one pot. A layer no live seat reached (chips of folded seats above
    every live seat's total) is dead money and joins the pot below it.
    """
    returned = [0] * len(chips)
    top = max(chips)
    if chips.count(top) == 1:
        seat = chips.index(top)
        second = max((c for s, c in enumerate(chips) if s != seat), default=0)
        returned[seat] = top - second
        chips = [*chips]
        chips[seat] = second
    pots: list[tuple[int, tuple[int, ...]]] = []
    below = 0
    for level in sorted({c for c in chips if c > 0}):
        amount = sum(min(c, level) - min(c, below) for c in chips)
        eligible = tuple(s for s in live if chips[s] >= level)
        below = level
        if not eligible:
            # Dead money: nobody live reached this level, so it goes to the last
            # pot (or, when the live seats put in nothing, a pot of all of them).
            if pots:
                pots[-1] = (pots[-1][0] + amount, pots[-1][1])
            else:
                pots.append((amount, tuple(live)))
        elif pots and pots[-1][1] == eligible:
            pots[-1] = (pots[-1][0] + amount, eligible)
        else:
            pots.append((amount, eligible))
    return pots, returned


def take_rake(layers: list[tuple[int, tuple[int, ...]]], rake: int, at_most: bool) -> int:
    """Take the rake from the main pot, before it is split; return what was taken.
    ``at_most``: ``rake`` is a most, and a smaller main pot pays only what it holds."""
    main = layers[0][0] if layers else 0
    if rake > main:
        if not at_most:
            raise ChipError(f"rake is {rake} but the main pot is only {main}")
        rake = main
    if rake:
        layers[0] = (main - rake, layers[0][1])
    return rake


def divide(
    amount: int, winners: Sequence[int], n: int, chip: int = 1, *, one_each: bool = True
) -> tuple[list[int], int]:
    """Split ``amount`` (whole chips of ``chip``) among winners in odd-chip order;
    return the shares and how many odd chips there were. The odd chips go one each
    (``one_each``), or all of them to the first winner."""
    shares = [0] * n
    if not winners:
        return shares, 0
    base, odd = divmod(amount // chip, len(winners))
    for place, seat in enumerate(winners):
        # One odd chip at most per seat: odd < len(winners).
        extra = (1 if place < odd else 0) if one_each else (odd if place == 0 else 0)
        shares[seat] = (base + extra) * chip
    return shares, odd


def settle_uncontested(
    contributions: Sequence[int],
    winner: int,
    game: str,
    *,
    rake: int = 0,
    chip: int = 1,
    rake_at_most: bool = False,
) -> Settlement:
    """Settle a hand won by folds: ``winner`` takes every pot without showing.

    Like :func:`settle` for the chips (those nobody matched go back to their
    owner, the rake comes from the main pot), with no cards to rank.

    >>> s = settle_uncontested([3, 13, 3], 1, "stud")
    >>> s.payouts, s.returned  # the 10 chips nobody called go back first
    ([0, 19, 0], [0, 10, 0])
    >>> print(s)
    Main pot of 9: Seat 1 wins 9 uncontested
    Seat 1 takes back 10 unmatched
    """
    spec = get_game(game)
    n = len(chip_list(contributions))
    chips, rake, chip = checked_money(contributions, n, "contributions", rake, chip)
    winner = seat_index(winner, n, "winner")
    layers, returned = pot_layers(chips, [winner])
    rake = take_rake(layers, rake, rake_at_most)
    amount = sum(amount for amount, _ in layers)
    shares = tuple(amount if seat == winner else 0 for seat in range(n))
    pot = Pot(
        name="Main pot", game=spec.name, amount=amount, eligible=(winner,),
        high_winners=(winner,), low_winners=(), shares=shares, high_shares=shares,
        low_shares=(0,) * n, high_hand=None, low_hand=None, odd_chips=0,
    )  # fmt: skip
    payouts = [returned[seat] + shares[seat] for seat in range(n)]
    return Settlement(
        game=spec.name, payouts=payouts, pots=[pot], returned=returned, rake=rake, chip=chip
    )
