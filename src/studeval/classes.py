"""What a rank means: categories, words, and the five cards that play.

Each rank is a class of equivalent hands; the C core knows each class's five
ranks, and this module puts them into words.

>>> describe_high(1), describe_high(7462)
('Royal Flush', 'High Card, Seven')
>>> describe_low(1), high_category(166)
('5-4-3-2-A', 'Four of a Kind')
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import Enum
from itertools import combinations
from typing import TYPE_CHECKING, Literal

from studeval import _core
from studeval.cards import RANKS, to_codes
from studeval.errors import HandSizeError, InvalidRankError, OptionError, UnknownRankingError

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "CATEGORIES",
    "CLASS_ALIASES",
    "CLASS_CARDS",
    "CLASS_NAMES",
    "CLASS_NEEDS_UP",
    "HIGH_CATEGORIES",
    "LOW_CATEGORIES",
    "HighCategory",
    "LowCategory",
    "best_five",
    "cards_needed",
    "category_table",
    "describe_high",
    "describe_low",
    "high_categories",
    "high_category",
    "low_category",
    "made_categories",
    "rank_bits",
]

Ranking = Literal["high", "low", "low8"]

#: The made-hand categories as range text names them, worst first (the index is
#: :func:`made_categories`' number).
CATEGORIES = (
    "high-card", "one-pair", "two-pair", "three-of-a-kind", "straight", "flush",
    "full-house", "four-of-a-kind", "straight-flush",
)  # fmt: skip
#: The stud classes that range text names (:class:`studeval.Range`) and what each
#: holds (``lowN-R`` is a family).
CLASS_NAMES: dict[str, str] = {
    "pair": "two cards of one rank anywhere in the seat's cards",
    "buried": "a pair in the down cards (buried pair)",
    "split": "a down card paired with an up card (split pair)",
    "rolled": "the first three cards of one rank (rolled up)",
    "trips": "three cards of one rank anywhere",
    "three-flush": "three cards of one suit",
    "three-straight": "three distinct ranks within five in a row (ace high or low)",
    "lowN-R": "N distinct ranks R or lower, the ace low (low3-8: three to an eight)",
    **{name: f"made {name.replace('-', ' ')} (add + for it or better)" for name in CATEGORIES},
}
#: The fewest cards a seat must hold for each class to be possible at all (``lowN-R``,
#: a family, needs N).
CLASS_CARDS: dict[str, int] = {
    "pair": 2, "buried": 2, "split": 2, "rolled": 3, "trips": 3, "three-flush": 3,
    "three-straight": 3, "high-card": 1, "one-pair": 2, "two-pair": 4, "three-of-a-kind": 3,
    "straight": 5, "flush": 5, "full-house": 5, "four-of-a-kind": 4, "straight-flush": 5,
}  # fmt: skip
#: The classes that need the seat's up cards, and why.
CLASS_NEEDS_UP = {"split": "pairs a down card with an up card",
                  "rolled": "is three of the door card's rank"}  # fmt: skip
#: Other names a player may use for a class.
CLASS_ALIASES = {"buried-pair": "buried", "split-pair": "split", "rolled-up": "rolled",
            "flush3": "three-flush", "straight3": "three-straight", "quads": "four-of-a-kind",
            "boat": "full-house"}  # fmt: skip


def cards_needed(name: str, plus: bool = False) -> int:
    """The fewest cards a seat must hold for the class ``name`` of :data:`CLASS_CARDS`
    (``plus``: it or a better made hand, as ``two-pair+``) to be possible at all.

    >>> cards_needed("two-pair"), cards_needed("two-pair", plus=True), cards_needed("rolled")
    (4, 3, 3)
    """
    if plus:
        return min(CLASS_CARDS[c] for c in CATEGORIES[CATEGORIES.index(name) :])
    return CLASS_CARDS[name]


class HighCategory(Enum):
    """The categories of a high hand, best first, in the core's order (``se_category``
    in ``studeval.h``: a member's place is the category number ``_core.high_class``
    gives); each member's value is its name in words.

    >>> HighCategory.FULL_HOUSE.value, list(HighCategory).index(HighCategory.FLUSH)
    ('Full House', 3)
    """

    STRAIGHT_FLUSH = "Straight Flush"
    FOUR_OF_A_KIND = "Four of a Kind"
    FULL_HOUSE = "Full House"
    FLUSH = "Flush"
    STRAIGHT = "Straight"
    THREE_OF_A_KIND = "Three of a Kind"
    TWO_PAIR = "Two Pair"
    ONE_PAIR = "One Pair"
    HIGH_CARD = "High Card"


class LowCategory(Enum):
    """The shapes of an ace-to-five low, best first, in the core's order (the shape
    number ``_core.low_class`` gives); each member's value is its name in words.

    >>> LowCategory.NO_PAIR.value
    'No Pair'
    """

    NO_PAIR = "No Pair"
    ONE_PAIR = "One Pair"
    TWO_PAIR = "Two Pair"
    THREE_OF_A_KIND = "Three of a Kind"
    FULL_HOUSE = "Full House"
    FOUR_OF_A_KIND = "Four of a Kind"


#: The names of :class:`HighCategory` and :class:`LowCategory`, indexed by the core's
#: category numbers.
HIGH_CATEGORIES: tuple[str, ...] = tuple(category.value for category in HighCategory)
LOW_CATEGORIES: tuple[str, ...] = tuple(category.value for category in LowCategory)
_NAMES = ("Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Jack",
          "Queen", "King", "Ace")  # fmt: skip
_PLURALS = ("Twos", "Threes", "Fours", "Fives", "Sixes", "Sevens", "Eights", "Nines", "Tens",
            "Jacks", "Queens", "Kings", "Aces")  # fmt: skip


def high_category(rank: int) -> str:
    """The category of a high rank.

    >>> high_category(1), high_category(7462)
    ('Straight Flush', 'High Card')
    """
    return HIGH_CATEGORIES[_core.high_class(rank).category]


_category_of_rank: np.ndarray | None = None


def category_table() -> npt.NDArray[np.uint8]:
    """The category number of every high rank, indexed by the rank (entry 0 unused),
    made once from the core's classes so that the core stays the one source of the
    category boundaries.

    >>> table = category_table()
    >>> int(table[1]), int(table[7462]), len(table)
    (0, 8, 7463)
    """
    global _category_of_rank
    if _category_of_rank is None:
        import numpy as np

        table = np.zeros(_core.HIGH_CLASSES + 1, dtype=np.uint8)
        for rank in range(1, _core.HIGH_CLASSES + 1):
            table[rank] = _core.high_class(rank).category
        table.flags.writeable = False
        _category_of_rank = table
    return _category_of_rank


def high_categories(ranks: npt.ArrayLike) -> npt.NDArray[np.uint8]:
    """The category of every high rank of an array (a batch's ranks), as numbers in
    :class:`HighCategory`'s order: 0 = straight flush .. 8 = high card.

    >>> import numpy as np
    >>> high_categories(np.array([1, 1609, 7462])).tolist()
    [0, 4, 8]
    >>> np.array(HIGH_CATEGORIES)[high_categories([166, 167])].tolist()
    ['Four of a Kind', 'Full House']
    >>> high_categories([0, 5])
    Traceback (most recent call last):
    ...
    studeval.errors.InvalidRankError: high rank 0 is outside 1..7462
    """
    import numpy as np

    values = np.asarray(ranks)
    if values.dtype.kind not in "iu" and not (values.size == 0 and values.dtype.kind == "f"):
        raise OptionError(f"ranks must be an integer array; got dtype {values.dtype}")
    if values.size and (values.min() < 1 or values.max() > _core.HIGH_CLASSES):
        bad = values[(values < 1) | (values > _core.HIGH_CLASSES)].flat[0]
        raise InvalidRankError(bad.item(), "high", _core.HIGH_CLASSES)
    # take() rather than indexing: a third faster on millions of ranks (numpy 2.x).
    return category_table().take(values.astype(np.intp, copy=False))


def low_category(rank: int) -> str:
    """The shape of an A-5 low rank: "No Pair", "One Pair", ... "Four of a Kind".

    >>> low_category(1), low_category(6175)
    ('No Pair', 'Four of a Kind')
    """
    return LOW_CATEGORIES[_core.low_class(rank).category]


def describe_high(rank: int) -> str:
    """A high rank in words.

    >>> describe_high(2), describe_high(167), describe_high(3326)
    ('Straight Flush, King high', 'Full House, Aces over Kings', 'One Pair, Aces')
    """
    found = _core.high_class(rank)
    category, ranks = found.category, found.ranks
    name = HIGH_CATEGORIES[category]
    top = ranks[0]
    if category == 0 and top == 12:
        return "Royal Flush"
    if category in (0, 3, 4):  # straight flush, flush, straight
        return f"{name}, {_NAMES[top]} high"
    if category in (1, 5, 7):  # quads, trips, one pair
        return f"{name}, {_PLURALS[top]}"
    if category == 2:
        return f"{name}, {_PLURALS[top]} over {_PLURALS[ranks[3]]}"
    if category == 6:
        return f"{name}, {_PLURALS[top]} and {_PLURALS[ranks[2]]}"
    return f"{name}, {_NAMES[top]}"


def describe_low(rank: int) -> str:
    """An A-5 low rank in words: the cards from the top, pairs named first.

    >>> describe_low(1), describe_low(56)
    ('5-4-3-2-A', '8-7-6-5-4')
    >>> describe_low(1288)
    'Pair of Aces, 4-3-2'
    """
    found = _core.low_class(rank)
    shape, ranks = found.category, found.ranks

    def run(values: Iterable[int]) -> str:
        return "-".join(RANKS[r] for r in values)

    if shape == 0:
        return run(ranks)
    if shape == 1:
        return f"Pair of {_PLURALS[ranks[0]]}, {run(ranks[2:])}"
    if shape == 2:
        return f"Two Pair, {_PLURALS[ranks[0]]} and {_PLURALS[ranks[2]]}, {run(ranks[4:])}"
    if shape == 3:
        return f"Three {_PLURALS[ranks[0]]}, {run(ranks[3:])}"
    if shape == 4:
        return f"Full House, {_PLURALS[ranks[0]]} over {_PLURALS[ranks[3]]}"
    return f"Four {_PLURALS[ranks[0]]}, {run(ranks[4:])}"


def _low_order(code: int) -> tuple[int, int]:
    rank, suit = divmod(code, 4)
    return (-1 if rank == 12 else rank, suit)


def best_five(hand: str | Iterable[str | int], ranking: Ranking) -> list[int]:
    """The five cards that play for a ranking ("high", "low" or "low8"), highest first.

    Cards are listed from the highest down (for lows the ace counts low, so it comes
    last). When several fives give the same rank, the one with the highest cards (by
    code: rank, then suit) is chosen. For "low8" this is the best A-5 low five whether or
    not it qualifies (check :func:`studeval.low8_rank`).

    >>> from studeval import cards_str
    >>> cards_str(best_five("As Ks Qs Js Ts 2c 3d", "high"))
    'As Ks Qs Js Ts'
    >>> cards_str(best_five("Ac 2d 3h 4s 5c Kd Kh", "low"))
    '5c 4s 3h 2d Ac'
    """
    if ranking == "high":
        rank_of = _core.high_rank
    elif ranking in ("low", "low8"):
        rank_of = _core.low_rank
    else:
        raise UnknownRankingError(ranking)
    codes = to_codes(hand)
    if not 5 <= len(codes) <= 7:
        raise HandSizeError(len(codes), "5..7 cards")
    target = rank_of(codes)  # validates duplicates too
    # Combinations of the descending list come out highest cards first.
    for five in combinations(sorted(codes, reverse=True), 5):
        if rank_of(five) == target:
            if ranking == "high":
                return list(five)
            return sorted(five, key=_low_order, reverse=True)
    raise AssertionError("no five-card subset has the hand's rank")  # unreachable


def rank_bits(ranks_held: npt.NDArray[np.bool_]) -> npt.NDArray[np.int64]:
    """14-bit masks of ranks held (an (m, 13) boolean array), bit 0 the low ace, bits
    1..13 the ranks 2..A."""
    import numpy as np

    bits = (ranks_held.astype(np.int64) << np.arange(1, 14)).sum(axis=1)
    return bits | (bits >> 13 & 1)


def _runs(bits: npt.NDArray[np.int64], length: int) -> npt.NDArray[np.bool_]:
    """Whether each mask holds ``length`` ranks in a row."""
    run = bits.copy()
    for shift in range(1, length):
        run &= bits >> shift
    return run != 0


def made_categories(hands: npt.ArrayLike) -> npt.NDArray[np.int64]:
    """The made high category of each row of cards (any 1 to 7 of them), worst first:
    0 high card, 1 one pair, ... 8 straight flush (the reverse of :class:`HighCategory`).
    Fewer than five cards make no straight or flush.

    >>> made_categories([[51, 50, 49, 0, 5], [0, 4, 8, 12, 16]]).tolist()
    [3, 8]
    """
    import numpy as np

    cards = np.asarray(hands, dtype=np.int64)
    counts = (cards[:, :, None] // 4 == np.arange(13)).sum(axis=1)
    suits = (cards[:, :, None] % 4 == np.arange(4)).sum(axis=1)
    straight = _runs(rank_bits(counts > 0), 5)
    flush = suits.max(axis=1) >= 5
    straight_flush = np.zeros(len(cards), dtype=bool)
    for suit in range(4):
        in_suit = ((cards[:, :, None] == np.arange(13) * 4 + suit).sum(axis=1)) > 0
        straight_flush |= _runs(rank_bits(in_suit), 5)
    most = counts.max(axis=1)
    pairs = (counts >= 2).sum(axis=1)
    trips = (counts >= 3).sum(axis=1)
    out = np.zeros(len(cards), dtype=np.int64)
    out[pairs >= 1] = 1
    out[pairs >= 2] = 2
    out[most >= 3] = 3
    out[straight] = 4
    out[flush] = 5
    out[(trips >= 1) & (pairs >= 2)] = 6
    out[most >= 4] = 7
    out[straight_flush] = 8
    return out
