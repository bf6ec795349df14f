"""Reading an equity spot: each player's known cards, the dead cards, one street.

:func:`studeval.equity` takes cards as people write them: any card text or codes, ``??``
(or ``None``) for an unknown card, which may also be left out. This module turns that
into the codes the core counts with, and refuses what cannot be a stud deal: fewer
than 2 or more than 8 players, players who cannot be on one street (only down cards
may be unknown, and left out only all together), a card twice.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from studeval.cards import to_codes
from studeval.errors import DuplicateCardError, HandSizeError, InvalidCardError, SeatError

__all__ = ["read_spot"]

#: The ways of writing an unknown card.
_UNKNOWN = ("??", "?", "xx", "XX")


def _player_cards(hand: object, seat: int) -> list[int]:
    """A player's known cards; ``??`` (or None) marks an unknown one, left out."""
    if isinstance(hand, str):
        tokens = hand.replace(",", " ").split()
        parts: object = " ".join(t for t in tokens if not _unknown_count(t))
    elif isinstance(hand, Iterable):
        parts = [c for c in hand if not _unknown_count(c)]
    else:
        raise InvalidCardError(hand, detail=f"player {seat}: give card text or a list of cards")
    try:
        codes = to_codes(parts)  # type: ignore[arg-type]
    except InvalidCardError as err:
        raise InvalidCardError(err.card, detail=f"player {seat}") from None
    if len(codes) > 7:
        raise HandSizeError(len(codes), "at most 7 known cards", seat=seat)
    return codes


def _unknown_count(item: object) -> int:
    """How many unknown cards an item marks: ``None``, ``?``, ``xx``, or ``??`` (one
    each, written apart or together: ``????``); 0 for a card."""
    if item is None:
        return 1
    if not isinstance(item, str):
        return 0
    if item in _UNKNOWN:
        return 1
    return len(item) // 2 if len(item) % 2 == 0 and set(item) == {"?"} else 0


def _given(hand: object, known: int) -> int:
    """How many cards a player's entry gives: its ``known`` cards and its markers."""
    if isinstance(hand, str):
        items: Iterable[object] = hand.replace(",", " ").split()
    else:
        items = hand if isinstance(hand, Iterable) else ()
    return known + sum(_unknown_count(item) for item in items)


def _check_streets(hands: Sequence[object], players: list[list[int]]) -> None:
    """Refuse players who cannot be on one street. A stud street gives every player
    the same number of cards; only down cards (the first two, the seventh) may be
    unknown, and a player's unknown down cards are either all left out (the up cards
    alone: ``"Kd"`` for ``"?? ?? Kd"``) or each written ``??``. So a player holds the
    street's count of cards or its up cards alone: three cards against four is a
    mistake, not a player whose fourth card is unknown (that is ``"?? As Ad 7c"``).
    Before third street every card is a down card, and any may be left out."""
    given = [_given(hand, len(codes)) for hand, codes in zip(hands, players, strict=True)]
    street = max(given)
    down = min(street, 2) + (street == 7)
    up = street - down
    for seat, count in enumerate(given):
        if count in (street, up) or street < 3:
            continue
        raise HandSizeError(
            count, f"{street} cards or its {up} up card{'s' * (up > 1)} alone, as player "
            f"{given.index(street)} is on street {street} "
            f"(write a down card not known as ??, or leave them all out)", seat=seat,
        )  # fmt: skip


def _dead_cards(dead: object) -> list[int | None]:
    """Dead cards as codes, None for each unknown one (``??``): card text, one card
    (an int, a numpy int, a card string), or a sequence or array of cards."""
    if dead is None:
        return []
    if isinstance(dead, bool):
        raise InvalidCardError(dead, detail="dead: give card text or a list of cards")
    items: list[object]
    if isinstance(dead, str):
        items = list(dead.replace(",", " ").split())
    elif hasattr(dead, "tolist"):  # a numpy array or scalar
        listed = dead.tolist()
        items = listed if isinstance(listed, list) else [listed]
    elif hasattr(type(dead), "__index__"):
        items = [dead]  # one card code
    elif isinstance(dead, Iterable):
        items = list(dead)
    else:
        raise InvalidCardError(dead, detail="dead: give card text or a list of cards")
    out: list[int | None] = []
    for item in items:
        unknown = _unknown_count(item)
        if unknown:
            out.extend([None] * unknown)
            continue
        try:
            out.extend(to_codes(item if isinstance(item, str) else [item]))
        except InvalidCardError as err:
            raise InvalidCardError(err.card, detail="in dead") from None
    if len(out) > 52:
        raise HandSizeError(len(out), "at most 52 dead cards")
    return out


def read_spot(hands: Sequence[object], dead: object) -> tuple[list[list[int]], list[int | None]]:
    """Each player's known cards as codes, and the dead cards (None for one not known),
    checked: 2 to 8 players of one street, no card twice.

    >>> read_spot(["As Ad 7c", "?? ?? Kh"], "2c ??")
    ([[51, 49, 20], [46]], [0, None])
    >>> read_spot(["As Ad 7c 8d 9s", "Ks"], None)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    studeval.errors.HandSizeError: a hand of 1 cards at seat 1; expected 5 cards or its 3 up ...
    """
    if isinstance(hands, (str, bytes)) or not isinstance(hands, Sequence):
        raise SeatError(f"hands must be a list with one entry per player; got {hands!r}")
    if not 2 <= len(hands) <= 8:
        raise SeatError(f"equity needs 2 to 8 players; got {len(hands)}")
    players = [_player_cards(hand, seat) for seat, hand in enumerate(hands)]
    _check_streets(hands, players)
    dead_codes = _dead_cards(dead)
    owner: dict[int, str] = {}
    places: list[tuple[str, list[int | None]]] = [
        *((f"player {i}", list[int | None](c)) for i, c in enumerate(players)),
        ("dead", dead_codes),
    ]
    for where, codes in places:
        for code in codes:
            if code is None:
                continue
            if code in owner:
                raise DuplicateCardError(code, detail=f"in {where}, also in {owner[code]}")
            owner[code] = where
    return players, dead_codes
