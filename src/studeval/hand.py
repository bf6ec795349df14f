"""``Hand``: a small immutable set of distinct cards with its ranks.

>>> hand = Hand("Kc Kd 5h 5s 9c 2d 3h")
>>> hand.high_rank, hand.high_description
(2681, 'Two Pair, Kings and Fives')
>>> hand.low8_rank is None
True
>>> Hand("As Kd") == Hand("Kd As")
True
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from studeval import _core
from studeval.cards import cards_str, to_codes
from studeval.classes import Ranking, best_five, describe_high, describe_low
from studeval.errors import DuplicateCardError, HandSizeError

__all__ = ["Hand"]


class Hand:
    """An immutable hand of 1 to 7 distinct cards.

    Built from anything a hand-taking function accepts (codes, card strings or
    one string) or from another :class:`Hand`. The cards keep the order given;
    equality and hashing depend on the set of cards only, so the order in which
    they were dealt does not matter. Ranks need 5 to 7 cards (the core raises
    :class:`~studeval.errors.HandSizeError` otherwise); the up-card ranks need
    1 to 4.

    >>> h = Hand.parse("As 2c 3d 4h 5s 9c Kd")
    >>> str(h), len(h), "As" in h
    ('As 2c 3d 4h 5s 9c Kd', 7, True)
    >>> h.low_description, h.low8_description
    ('5-4-3-2-A', '5-4-3-2-A')
    >>> Hand("As As")
    Traceback (most recent call last):
    ...
    studeval.errors.DuplicateCardError: duplicate card As
    """

    __slots__ = ("_cards", "_set")

    _cards: tuple[int, ...]
    _set: frozenset[int]

    def __init__(self, cards: str | Iterable[int | str]) -> None:
        codes = tuple(cards._cards) if isinstance(cards, Hand) else tuple(to_codes(cards))
        if not 1 <= len(codes) <= 7:
            raise HandSizeError(len(codes), "1 to 7 cards")
        seen: set[int] = set()
        for code in codes:
            if code in seen:
                raise DuplicateCardError(code)
            seen.add(code)
        object.__setattr__(self, "_cards", codes)
        object.__setattr__(self, "_set", frozenset(codes))

    @classmethod
    def parse(cls, text: str) -> Hand:
        """Return the hand written in ``text`` (any card text studeval reads).

        >>> Hand.parse("AsKd7h").cards
        (51, 45, 22)
        """
        return cls(text)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"Hand is immutable; cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"Hand is immutable; cannot delete {name!r}")

    @property
    def cards(self) -> tuple[int, ...]:
        """The card codes, in the order given.

        >>> Hand("2c As").cards
        (0, 51)
        """
        return self._cards

    def __iter__(self) -> Iterator[int]:
        return iter(self._cards)

    def __len__(self) -> int:
        return len(self._cards)

    def __contains__(self, card: object) -> bool:
        try:
            codes = to_codes([card])
        except ValueError:
            return False
        return codes[0] in self._set

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Hand):
            return NotImplemented
        return self._set == other._set

    def __hash__(self) -> int:
        return hash(self._set)

    def __str__(self) -> str:
        return cards_str(self._cards)

    def __repr__(self) -> str:
        return f"Hand({str(self)!r})"

    def __reduce__(self) -> tuple[type[Hand], tuple[tuple[int, ...]]]:
        # __setattr__ is blocked, so pickle and copy rebuild through __init__.
        return (Hand, (self._cards,))

    @property
    def high_rank(self) -> int:
        """High rank of the best five, 1 (royal flush) to 7462.

        >>> Hand("As Ks Qs Js Ts").high_rank
        1
        """
        return _core.high_rank(self._cards)

    @property
    def low_rank(self) -> int:
        """A-5 low rank of the best five, 1 (5-4-3-2-A) to 6175.

        >>> Hand("5c 4d 3h 2s Ac Kd Kh").low_rank
        1
        """
        return _core.low_rank(self._cards)

    @property
    def low8_rank(self) -> int | None:
        """8-or-better low rank (1 to 56), or ``None`` when no low qualifies.

        >>> Hand("9c Td Jh Qs Kc 2d 2h").low8_rank is None
        True
        """
        return _core.low8_rank(self._cards)

    @property
    def up_high_rank(self) -> int:
        """Rank of 1 to 4 up cards for the action in high games (1 = best).

        >>> Hand("Ac Ad").up_high_rank < Hand("Kc Kd").up_high_rank
        True
        """
        return _core.up_high_rank(self._cards)

    @property
    def up_low_rank(self) -> int:
        """Rank of 1 to 4 up cards for the action in low games (1 = best).

        >>> Hand("Ac 2d").up_low_rank < Hand("3c 2h").up_low_rank
        True
        """
        return _core.up_low_rank(self._cards)

    @property
    def high_description(self) -> str:
        """The high hand in words.

        >>> Hand("Ac Ad Ah Kc Kd 2s 3s").high_description
        'Full House, Aces over Kings'
        """
        return describe_high(self.high_rank)

    @property
    def low_description(self) -> str:
        """The A-5 low in words.

        >>> Hand("7c 5d 4h 2s Ac Kd Kh").low_description
        '7-5-4-2-A'
        """
        return describe_low(self.low_rank)

    @property
    def low8_description(self) -> str | None:
        """The 8-or-better low in words, or ``None`` when no low qualifies.

        >>> print(Hand("9c Td Jh Qs Kc 2d 2h").low8_description)
        None
        """
        rank = self.low8_rank
        return None if rank is None else describe_low(rank)

    def best_five(self, ranking: Ranking = "high") -> Hand:
        """The five cards that play for ``ranking`` (``"high"``, ``"low"``, ``"low8"``).

        >>> str(Hand("Kc Kd 5h 5s 9c 2d 3h").best_five())
        'Kd Kc 9c 5s 5h'
        """
        return Hand(best_five(self._cards, ranking))
