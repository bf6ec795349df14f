"""Showdown: who wins each pot, with split halves and odd chips.

:func:`settle` ranks the live hands, cuts what each seat put in into the main pot
and the side pots (:mod:`studeval.pots`), returns chips nobody matched, and
splits each pot on its own among the live seats eligible for it. :func:`award_pot`
splits one pot. Both rank hands with the core's rankings only
(:func:`studeval.high_rank`, :func:`studeval.low_rank`, :func:`studeval.low8_rank`).

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
from studeval._seats import CardLike, HandLike, chip_count, live_seats, parse_seats
from studeval.cards import to_codes
from studeval.classes import Ranking, best_five, describe_high, describe_low
from studeval.errors import HandSizeError, InvalidCardError, SeatError
from studeval.games import CardOrder, Game, card_key, get_game
from studeval.houserules import HouseRules, house_rules
from studeval.pots import Pot, Settlement, checked_money, divide, pot_layers, take_rake

__all__ = ["award_pot", "settle"]


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


def _odd_chip_order(
    seats: Sequence[int],
    half: Literal["high", "low"],
    spec: Game,
    house: HouseRules,
    table: Sequence[_Seat | None],
) -> list[int]:
    """Order tied winners for the odd chips: the first gets the first chip."""
    if house.odd_chips == "first_seat":
        return sorted(seats)
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
        # One half takes the odd chip of a hi/lo split: the high, but for a house
        # that gives it to the low.
        low_amount = amount // chip // 2 * chip
        high_amount = amount - low_amount
        if house.odd_chip_half == "low":
            high_amount, low_amount = low_amount, high_amount
        split_odd = amount // chip % 2
    elif high_winners:
        high_amount, low_amount, split_odd = amount, 0, 0
    else:
        high_amount, low_amount, split_odd = 0, amount, 0
    high_order = _odd_chip_order(high_winners, "high", spec, house, table)
    low_order = _odd_chip_order(low_winners, "low", spec, house, table)
    one_each = house.odd_chips == "by_cards"
    high_shares, high_odd = divide(high_amount, high_order, n, chip, one_each=one_each)
    low_shares, low_odd = divide(low_amount, low_order, n, chip, one_each=one_each)
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
    gets the odd chip of a split (the low half under ``odd_chip_half="low"``); tied
    winners share, odd chips going one each in the order the house rules set
    (:class:`~studeval.HouseRules`). Suits
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
    chips, rake, chip = checked_money(contributions, n, "hands", rake, chip)
    table = _table(hands, community, spec)
    live = live_seats(table, "settle")
    layers, returned = pot_layers(chips, live)
    rake = take_rake(layers, rake, rake_at_most)
    pots = _contests(layers, spec, house, table, chip)
    if house.split_pots == "merged":
        pots = _contests(_merged(layers, pots), spec, house, table, chip)
    payouts = [returned[seat] + sum(pot.shares[seat] for pot in pots) for seat in range(n)]
    if sum(payouts) + rake != sum(chips):  # pragma: no cover - an internal invariant
        raise AssertionError(f"payouts {payouts} and rake {rake} do not sum to {chips}")
    return Settlement(
        game=spec.name, payouts=payouts, pots=pots, returned=returned, rake=rake, chip=chip
    )


def _contests(
    layers: Sequence[tuple[int, tuple[int, ...]]],
    spec: Game,
    house: HouseRules,
    table: Sequence[_Seat | None],
    chip: int,
) -> list[Pot]:
    return [
        _contest(
            "Main pot" if i == 0 else f"Side pot {i}", amount, eligible, spec, house, table, chip
        )
        for i, (amount, eligible) in enumerate(layers)
    ]


def _merged(
    layers: Sequence[tuple[int, tuple[int, ...]]], pots: Sequence[Pot]
) -> list[tuple[int, tuple[int, ...]]]:
    """Pots in a row that the same seats contend for (once the hands that win
    nothing are mucked) as one pot, with the first one's eligible seats: pokerkit's
    reading, where their odd chips fall as for one pot. The winners stay the same."""
    winners = {s for pot in pots for s in pot.high_winners + pot.low_winners}
    merged: list[tuple[int, tuple[int, ...]]] = []
    last: tuple[int, ...] | None = None
    for amount, eligible in layers:
        contenders = tuple(s for s in eligible if s in winners)
        if merged and contenders == last:
            merged[-1] = (merged[-1][0] + amount, merged[-1][1])
        else:
            merged.append((amount, eligible))
        last = contenders
    return merged


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
