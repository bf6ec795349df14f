"""The classes a solved node's hands are grouped by in a table of strategies
(:meth:`studeval.Solution.by_hand`), best first: the high's category in stud, the low by
its top card in razz (a paired low by its category), both in stud8. Fourth street's
four cards make no five-card hand, so there a hand is classed by what it holds: its
pairs (stud), and its four distinct low ranks by the top one, "four to a 7" (razz; in
stud8 only when all four are eight or lower).

>>> from studeval.cards import parse_cards
>>> hand_class("razz", parse_cards("7c 4d 2h Ah 3s"))
(6, '7-low')
>>> hand_class("razz", parse_cards("7c 4d 2h Ah")), hand_class("stud", parse_cards("7c 7d 2h Ah"))
((6, 'four to a 7'), (3, 'One Pair'))
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from studeval._core import high_rank, low8_rank, low_rank
from studeval.classes import describe_low, high_category, low_category

__all__ = ["hand_class"]

#: Ranks from the lowest for a low, ace first.
LOW_ORDER = "A23456789TJQK"
#: Fourth street's classes by what the four cards hold, best first.
FOUR_CARD_CLASSES = ("Four of a Kind", "Three of a Kind", "Two Pair", "One Pair", "High Card")


def hand_class(game: str, cards: Sequence[int]) -> tuple[int, str]:
    """A hand's class (four to seven cards) and its order among classes, best first."""
    if len(cards) == 4:
        return _four_cards(game, cards)
    high = high_rank(list(cards))
    if game == "stud":
        return high, high_category(high)
    low = low_rank(list(cards)) if game == "razz" else low8_rank(list(cards))
    if low is None:
        low_text, low_order = "no low", 99
    elif low_category(low) != "No Pair":
        low_text, low_order = low_category(low).lower() + " low", 20 + low // 1000
    else:
        top = describe_low(low).split("-")[0]
        low_text, low_order = f"{top}-low", LOW_ORDER.index(top)
    if game == "razz":
        return low_order, low_text
    return low_order * 10_000 + high, f"{low_text}, {high_category(high)}"


def _four_cards(game: str, cards: Sequence[int]) -> tuple[int, str]:
    """Fourth street: the pairs held, and the four low ranks' top."""
    counts = sorted(Counter(c // 4 for c in cards).values(), reverse=True)
    pattern = {(4,): 0, (3, 1): 1, (2, 2): 2, (2, 1, 1): 3}.get(tuple(counts), 4)
    high_text = FOUR_CARD_CLASSES[pattern]
    lows = sorted({(c // 4 + 1) % 13 for c in cards})  # places in LOW_ORDER (code // 4: 2 is 0)
    drawing = len(lows) == 4 and (game != "stud8" or lows[-1] <= LOW_ORDER.index("8"))
    low_text = f"four to a {LOW_ORDER[lows[-1]]}" if drawing else (
        "paired" if game == "razz" else "no low draw")  # fmt: skip
    low_order = lows[-1] if drawing else 20
    if game == "stud":
        return pattern, high_text
    if game == "razz":
        return low_order, low_text
    return low_order * 10 + pattern, f"{low_text}, {high_text}"
