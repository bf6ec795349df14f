"""Showdown: who gets which chips, with side pots, split halves and odd chips.

:func:`settle` builds the main pot and the side pots from what each seat put
in, returns chips nobody matched, and splits each pot on its own among the
live seats eligible for it. :func:`award_pot` splits one pot. Both rank hands
with the core's rankings only (:func:`studeval.high_rank`,
:func:`studeval.low_rank`, :func:`studeval.low8_rank`).

Seats are listed clockwise from the dealer's left; ``None`` marks a folded or
empty seat.

>>> result = settle(
...     ["Kc Kd 5h 5s 9c 2d 3h", "7c 5d 4h 2s Ac Qd Jh", None],
...     [40, 40, 23],
...     "stud8",
... )
>>> result.payouts
[52, 51, 0]
>>> print(result)
Main pot of 103: Seat 0 wins 52 with Two Pair, Kings and Fives; Seat 1 wins 51 with 7-5-4-2-A
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from studeval import _core
from studeval._seats import (
    CardLike,
    HandLike,
    check_whole_chips,
    chip_count,
    live_seats,
    parse_seats,
    seat_index,
)
from studeval.cards import to_codes
from studeval.classes import Ranking, best_five, describe_high, describe_low
from studeval.errors import ChipError, HandSizeError, InvalidCardError, SeatError
from studeval.games import CardOrder, Game, card_key, get_game
from studeval.houserules import HouseRules, house_rules

__all__ = ["Pot", "Settlement", "award_pot", "settle", "settle_uncontested"]


@dataclass(frozen=True)
class Pot:
    """One pot and how it was split.

    Per-seat tuples (``shares``, ``high_shares``, ``low_shares``) have one
    entry per seat of the table, so ``shares[s]`` is what seat ``s`` took from
    this pot.

    Attributes:
        name: ``"Main pot"``, ``"Side pot 1"`` ... (``"Pot"`` from
            :func:`award_pot`).
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
    """The result of :func:`settle`.

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


@dataclass(frozen=True)
class _Seat:
    """One live seat's cards and ranks (``None`` where the game has no such half)."""

    cards: list[int]
    high: int | None
    low: int | None


def _community(community: CardLike | None) -> int | None:
    if community is None:
        return None
    # One card: text, a code, or another library's card object; never a list.
    if isinstance(community, bool) or (
        not isinstance(community, str) and isinstance(community, Iterable)
    ):
        raise InvalidCardError(community, detail="the community card is one card")
    codes = to_codes(community if isinstance(community, str) else [community])
    if len(codes) != 1:
        raise HandSizeError(len(codes), "1 community card")
    return codes[0]


def _table(
    hands: Sequence[HandLike | None], community: CardLike | None, spec: Game
) -> list[_Seat | None]:
    shared = _community(community)
    if shared is None:
        size, expected = 7, "7 cards"
    else:
        # The deck ran out: one card in the middle plays in every hand (WSOP
        # live-action rule 228), so each seat holds only six of its own.
        size, expected = 6, "6 cards when a community card is shared"
    parsed = parse_seats(hands, sizes=(size,), expected=expected, what="hands", shared=shared)
    table: list[_Seat | None] = []
    for codes in parsed:
        if codes is None:
            table.append(None)
            continue
        cards = codes if shared is None else [*codes, shared]
        high = _core.high_rank(cards) if spec.high else None
        if spec.low == "low":
            low: int | None = _core.low_rank(cards)
        elif spec.low == "low8":
            low = _core.low8_rank(cards)
        else:
            low = None
        table.append(_Seat(cards, high, low))
    return table


def _chip_list(contributions: object) -> list[object]:
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


def _odd_chip_order(
    seats: Sequence[int],
    half: Literal["high", "low"],
    spec: Game,
    house: HouseRules,
    table: Sequence[_Seat | None],
) -> list[int]:
    """Order tied winners for the odd chips: the first gets the first chip."""
    want_high = half == "high" or house.odd_chip_low == "high_card"
    # The low half ranks cards ace-low, as the low hand plays them.
    order: CardOrder = "ace_high" if half == "high" else "ace_low"
    ranking: Ranking = "high" if half == "high" or spec.low is None else spec.low

    def key(seat: int) -> tuple[int, ...]:
        entry = table[seat]
        assert entry is not None
        cards = entry.cards
        if house.odd_chip_cards == "played":
            cards = best_five(cards, ranking)
        keys = sorted((card_key(code, order) for code in cards), reverse=want_high)
        # Compare card by card from the deciding end; later cards only matter
        # when a shared community card is the deciding card of both seats.
        return tuple(-k for k in keys) if want_high else tuple(keys)

    return sorted(seats, key=key)


def _divide(amount: int, winners: Sequence[int], n: int, chip: int = 1) -> tuple[list[int], int]:
    """Split ``amount`` (whole chips of ``chip``) among winners in odd-chip order;
    return the shares and how many odd chips there were."""
    shares = [0] * n
    if not winners:
        return shares, 0
    base, odd = divmod(amount // chip, len(winners))
    for place, seat in enumerate(winners):
        # One odd chip at most per seat: odd < len(winners).
        shares[seat] = (base + (1 if place < odd else 0)) * chip
    return shares, odd


def _contest(
    name: str,
    amount: int,
    eligible: tuple[int, ...],
    spec: Game,
    house: HouseRules,
    table: Sequence[_Seat | None],
    chip: int = 1,
) -> Pot:
    n = len(table)
    # Ranks of the eligible seats for each half; a seat with no qualifying low
    # (None) cannot win the low half.
    highs = {
        s: seat.high for s in eligible if (seat := table[s]) is not None and seat.high is not None
    }
    lows = {
        s: seat.low for s in eligible if (seat := table[s]) is not None and seat.low is not None
    }
    high_winners: tuple[int, ...] = ()
    low_winners: tuple[int, ...] = ()
    high_hand = low_hand = None
    if highs:
        best = min(highs.values())
        high_winners = tuple(s for s in eligible if highs.get(s) == best)
        high_hand = describe_high(best)
    if lows:
        best_low = min(lows.values())
        low_winners = tuple(s for s in eligible if lows.get(s) == best_low)
        low_hand = describe_low(best_low)
    if high_winners and low_winners:
        # The high half takes the odd chip of a hi/lo split.
        low_amount = amount // chip // 2 * chip
        high_amount = amount - low_amount
        split_odd = amount // chip % 2
    elif high_winners:
        high_amount, low_amount, split_odd = amount, 0, 0
    else:
        high_amount, low_amount, split_odd = 0, amount, 0
    high_order = _odd_chip_order(high_winners, "high", spec, house, table)
    low_order = _odd_chip_order(low_winners, "low", spec, house, table)
    high_shares, high_odd = _divide(high_amount, high_order, n, chip)
    low_shares, low_odd = _divide(low_amount, low_order, n, chip)
    return Pot(
        name=name,
        game=spec.name,
        amount=amount,
        eligible=eligible,
        high_winners=high_winners,
        low_winners=low_winners,
        shares=tuple(h + lo for h, lo in zip(high_shares, low_shares, strict=True)),
        high_shares=tuple(high_shares),
        low_shares=tuple(low_shares),
        high_hand=high_hand,
        low_hand=low_hand,
        odd_chips=split_odd + high_odd + low_odd,
    )


def _layers(
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


def settle(
    hands: Sequence[HandLike | None],
    contributions: Sequence[int],
    game: str,
    *,
    community: CardLike | None = None,
    rules: HouseRules | str | None = None,
    rake: int = 0,
    chip: int = 1,
    rake_at_most: bool = False,
) -> Settlement:
    """Settle a showdown: build the pots and split each among its winners.

    ``hands`` holds each seat's seven cards (six when a ``community`` card is
    shared because the deck ran out) or ``None`` for a folded or empty seat.
    ``contributions`` holds the chips each seat put in, folded seats included
    (their chips stay in the pots). Chips that nobody matched go back to their
    owner; the rest form the main pot and side pots, each split on its own:
    ``stud`` best high; ``razz`` best A-5 low; ``stud8`` half to the best high
    and half to the best 8-or-better low, all to the high when no low
    qualifies; ``stud_hilo_noq`` half high and half A-5 low, always. The high half
    gets the odd chip of a split; tied winners share, odd chips going one each
    in the order the house rules set (:class:`~studeval.HouseRules`). Suits
    never break a tie for a pot.

    ``rake`` chips are taken from the main pot before it is split (as online
    card rooms do). ``chip`` is the smallest chip in play: contributions and the
    rake are whole numbers of it, every share is too, and an odd chip is one such
    chip. A rake larger than the main pot is an error, unless ``rake_at_most``
    makes it a most (the pot pays what it holds; ``.rake`` says what was taken). The
    payouts always sum to the contributions less the rake.

    >>> s = settle(["As Ah Kd Kc 7s 3d 2c", "7c 5d 4h 2s Ac Qd Jh", None],
    ...            [2_400_000, 2_400_000, 25_000], "stud8", chip=25_000)
    >>> s.pots[0].amount, s.payouts  # 193 chips of 25,000: the high half gets 97
    (4825000, [2425000, 2400000, 0])
    >>> settle(["As Ah Kd Kc 7s 3d 2c", "7c 5d 4h 2s Ac Qd Jh"], [50, 50], "stud",
    ...        rake=5).payouts
    [95, 0]

    >>> s = settle(["As Ah Kd Kc 7s 3d 2c", "Ad Ac Ks Kh 7d 3c 2h", "Qs Qh 5c 4d 9h 8c 6d"],
    ...            [100, 100, 30], "stud")
    >>> s.payouts  # the side pot of 140 and the main pot of 90 split evenly
    [115, 115, 0]
    >>> settle(["As Ah Kd Kc 7s 3d 2c", None], [10, -5], "stud")
    Traceback (most recent call last):
    ...
    studeval.errors.ChipError: contributions[1] is -5; chips cannot be negative
    """
    spec = get_game(game)
    house = house_rules(rules)
    n = len(_seat_count(hands))
    chips, rake, chip = _money(contributions, n, "hands", rake, chip)
    table = _table(hands, community, spec)
    live = live_seats(table, "settle")
    layers, returned = _layers(chips, live)
    rake = _take_rake(layers, rake, rake_at_most)
    pots = [
        _contest(
            "Main pot" if i == 0 else f"Side pot {i}", amount, eligible, spec, house, table, chip
        )
        for i, (amount, eligible) in enumerate(layers)
    ]
    payouts = [returned[seat] + sum(pot.shares[seat] for pot in pots) for seat in range(n)]
    if sum(payouts) + rake != sum(chips):  # pragma: no cover - an internal invariant
        raise AssertionError(f"payouts {payouts} and rake {rake} do not sum to {chips}")
    return Settlement(
        game=spec.name, payouts=payouts, pots=pots, returned=returned, rake=rake, chip=chip
    )


def _money(
    contributions: object, n: int, what: str, rake: object, chip: object
) -> tuple[list[int], int, int]:
    """Checked contributions (one per seat of ``what``), rake and chip size."""
    chips = [chip_count(c, f"contributions[{s}]") for s, c in enumerate(_chip_list(contributions))]
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


def _take_rake(layers: list[tuple[int, tuple[int, ...]]], rake: int, at_most: bool) -> int:
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
    n = len(_chip_list(contributions))
    chips, rake, chip = _money(contributions, n, "contributions", rake, chip)
    winner = seat_index(winner, n, "winner")
    layers, returned = _layers(chips, [winner])
    rake = _take_rake(layers, rake, rake_at_most)
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


def _seat_count(hands: object) -> Sequence[object]:
    if isinstance(hands, (str, bytes)) or not isinstance(hands, Sequence):
        raise SeatError(f"hands must be a list with one entry per seat; got {hands!r}")
    return hands


def award_pot(
    hands: Sequence[HandLike | None],
    amount: int,
    game: str,
    *,
    community: CardLike | None = None,
    rules: HouseRules | str | None = None,
) -> Pot:
    """Split one pot of ``amount`` chips among the live hands.

    The same rules as :func:`settle`, for a single pot every live seat is
    eligible for.

    >>> pot = award_pot(["Ks Kh 9c 8d 5s 4c 2h", "Kd Kc 9h 8s 5c 4d 3h", None], 25, "stud")
    >>> pot.high_winners, pot.shares  # a tie: the king of spades takes the odd chip
    ((0, 1), (13, 12, 0))
    >>> print(pot)
    Pot of 25: Seat 0 wins 13 with One Pair, Kings; Seat 1 wins 12 with One Pair, Kings
    >>> award_pot([None, None], 10, "stud")
    Traceback (most recent call last):
    ...
    studeval.errors.SeatError: award_pot: no live seat (every seat is None)
    """
    spec = get_game(game)
    house = house_rules(rules)
    chips = chip_count(amount, "amount")
    table = _table(hands, community, spec)
    live = live_seats(table, "award_pot")
    return _contest("Pot", chips, tuple(live), spec, house, table)
