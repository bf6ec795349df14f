"""Seat lists, shared by the action rules and the showdown (internal).

Seats are listed clockwise from the dealer's left; ``None`` is an empty or folded
seat. Each seat's cards are parsed once here, with errors that name the seat.

>>> parse_seats(["As Kd", None], sizes=(2,), expected="2 cards", what="hands")
[[51, 45], None]
>>> live_seats([[51, 45], None], "settle")
[0]
>>> seat_index(__import__("numpy").int64(1), 3, "all_in")
1
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Sequence

from studeval.cards import to_codes
from studeval.errors import (
    ChipError,
    DuplicateCardError,
    HandSizeError,
    InvalidCardError,
    SeatError,
)

__all__ = [
    "CardLike",
    "HandLike",
    "check_distinct",
    "chip_count",
    "codes_at",
    "live_seats",
    "parse_seats",
    "seat_index",
    "seat_list",
]

# What callers may pass for one card or one seat's cards: text, codes (any int
# type), or other libraries' card objects whose text is the card's.
CardLike = int | str | object
HandLike = str | Iterable[object]


def seat_list(seats: object, what: str) -> list[object]:
    # A string is iterable but is never a list of seats; catching it here gives a
    # clear message instead of one seat per character.
    if isinstance(seats, (str, bytes)) or not isinstance(seats, Sequence):
        raise SeatError(f"{what} must be a list with one entry per seat; got {seats!r}")
    if not seats:
        raise SeatError(f"{what} must list at least one seat")
    return list(seats)


def codes_at(cards: object, seat: int) -> list[int]:
    try:
        return to_codes(cards)  # type: ignore[arg-type]
    except InvalidCardError as err:
        raise InvalidCardError(err.card, detail=f"at seat {seat}") from err


def check_distinct(seats: Sequence[Sequence[int] | None], shared: int | None = None) -> None:
    """Raise DuplicateCardError naming the seat where a card shows up again."""
    owner: dict[int, int] = {}
    for seat, cards in enumerate(seats):
        if cards is None:
            continue
        for code in cards:
            if code == shared:
                raise DuplicateCardError(code, seat=seat, detail="it is the community card")
            if code in owner:
                other = owner[code]
                detail = "twice in this hand" if other == seat else f"also at seat {other}"
                raise DuplicateCardError(code, seat=seat, detail=detail)
            owner[code] = seat


def parse_seats(
    seats: object,
    *,
    sizes: Sequence[int],
    expected: str,
    what: str,
    shared: int | None = None,
) -> list[list[int] | None]:
    """Parse one hand per seat, ``None`` kept, checking sizes and duplicates.

    ``shared`` is a community card that no seat may hold.
    """
    parsed: list[list[int] | None] = []
    for seat, cards in enumerate(seat_list(seats, what)):
        if cards is None:
            parsed.append(None)
            continue
        codes = codes_at(cards, seat)
        if len(codes) not in sizes:
            raise HandSizeError(len(codes), expected, seat=seat)
        parsed.append(codes)
    check_distinct(parsed, shared)
    return parsed


def live_seats(parsed: Sequence[object | None], what: str) -> list[int]:
    """Return the indices of the seats that are not ``None``, raising if none."""
    live = [seat for seat, cards in enumerate(parsed) if cards is not None]
    if not live:
        raise SeatError(f"{what}: no live seat (every seat is None)")
    return live


def chip_count(value: object, what: str) -> int:
    """A number of chips given as any int type (numpy's too), refusing negatives.

    >>> chip_count(__import__("numpy").int32(25), "pot")
    25
    >>> chip_count(True, "pot")
    Traceback (most recent call last):
    ...
    studeval.errors.ChipError: pot is True; chips are whole numbers
    """
    if type(value) is int and value >= 0:  # the common case, first
        return value
    # bool is an int subclass but "True chips" is a bug in the caller.
    if isinstance(value, bool) or not hasattr(type(value), "__index__"):
        raise ChipError(f"{what} is {value!r}; chips are whole numbers")
    chips = operator.index(value)  # type: ignore[arg-type]
    if chips < 0:
        raise ChipError(f"{what} is {chips}; chips cannot be negative")
    return chips


def check_whole_chips(value: int, chip: int, what: str) -> None:
    """Refuse a chip count that is not a whole number of ``chip``-chips.

    >>> check_whole_chips(30, 25, "stacks[1]")
    Traceback (most recent call last):
    ...
    studeval.errors.ChipError: stacks[1] is 30, not a whole number of 25-chips
    """
    if value % chip:
        raise ChipError(f"{what} is {value}, not a whole number of {chip}-chips")


def seat_index(value: object, seats: int, what: str) -> int:
    """A seat index given as any int type (numpy's too), checked against ``seats``."""
    if isinstance(value, bool) or not hasattr(type(value), "__index__"):
        raise SeatError(f"{what} holds {value!r}; seat indices are ints")
    index = int(value.__index__())  # type: ignore[attr-defined]
    if not 0 <= index < seats:
        raise SeatError(f"{what} seat {index} is not a seat (0..{seats - 1})")
    return index
