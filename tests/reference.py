"""A slow, obviously-correct pure-Python twin of studeval's rankings.

Written from the hand rankings of poker (high: the nine categories, the ace high or
low in a straight; ace-to-five low: straights and flushes do not count, pairs count
against; 8-or-better: five distinct ranks of 8 or lower), not from the C core: a
hand's class is a Python tuple that compares the way the hands compare, the rank
numbers come from listing every class and sorting, and a 6- or 7-card hand takes
the best of its 5-card subsets. The tests compare this module with the C paths.

Cards are codes ``rank * 4 + suit`` (rank 0 = deuce .. 12 = ace).

>>> high_rank([51, 47, 43, 39, 35])  # As Ks Qs Js Ts
1
>>> low_rank([48, 1, 6, 11, 12]), low8_rank([48, 1, 6, 11, 12])  # A 2 3 4 5
(1, 1)
>>> low8_rank([28, 1, 6, 11, 12]) is None  # 9 5 4 3 2: no eight-or-better low
True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from functools import cache
from itertools import combinations, combinations_with_replacement

__all__ = [
    "HIGH_CATEGORIES",
    "LOW_CATEGORIES",
    "best_five",
    "describe_high",
    "describe_low",
    "high_category",
    "high_class_ranks",
    "high_rank",
    "low8_rank",
    "low_category",
    "low_class_ranks",
    "low_rank",
    "up_high_rank",
    "up_low_rank",
]

RANK_CHARS = "23456789TJQKA"
ACE = 12

# High categories, best first (the index is se_category).
HIGH_CATEGORIES = (
    "Straight Flush",
    "Four of a Kind",
    "Full House",
    "Flush",
    "Straight",
    "Three of a Kind",
    "Two Pair",
    "One Pair",
    "High Card",
)
# Low shapes, best first, by their group sizes.
LOW_SHAPES: tuple[tuple[int, ...], ...] = (
    (1, 1, 1, 1, 1),
    (2, 1, 1, 1),
    (2, 2, 1),
    (3, 1, 1),
    (3, 2),
    (4, 1),
)
LOW_CATEGORIES = (
    "No Pair",
    "One Pair",
    "Two Pair",
    "Three of a Kind",
    "Full House",
    "Four of a Kind",
)

# (class key, ranks in reading order) -- see _high_class / _low_class.
HighClass = tuple[int, tuple[int, ...]]
LowClass = tuple[int, tuple[int, ...]]


def _grouped(values: Iterable[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Group sizes (largest first) and the values in reading order.

    Reading order: larger groups first, higher values first among equal groups,
    each value written as often as it occurs.

    >>> _grouped([5, 12, 5, 3, 12])
    ((2, 2, 1), (12, 12, 5, 5, 3))
    """
    groups = sorted(Counter(values).items(), key=lambda vc: (vc[1], vc[0]), reverse=True)
    sizes = tuple(count for _, count in groups)
    reading = tuple(value for value, count in groups for _ in range(count))
    return sizes, reading


def _high_class(ranks: Sequence[int], flush: bool) -> HighClass:
    """(category index, ranks in reading order) of five cards; see HIGH_CATEGORIES."""
    sizes, reading = _grouped(ranks)
    straight = False
    if sizes == (1, 1, 1, 1, 1):
        if reading[0] - reading[4] == 4:
            straight = True
        elif reading == (ACE, 3, 2, 1, 0):
            straight = True
            reading = (3, 2, 1, 0, ACE)  # the wheel reads 5-4-3-2-A
    if straight and flush:
        category = 0
    elif sizes == (4, 1):
        category = 1
    elif sizes == (3, 2):
        category = 2
    elif flush:
        category = 3
    elif straight:
        category = 4
    elif sizes == (3, 1, 1):
        category = 5
    elif sizes == (2, 2, 1):
        category = 6
    elif sizes == (2, 1, 1, 1):
        category = 7
    else:
        category = 8
    return category, reading


def _high_order_key(cls: HighClass) -> tuple[int, tuple[int, ...]]:
    """Sort key, smaller = better: category, then ranks from the top (higher wins).

    Only a straight's top card matters, so the wheel's trailing ace is dropped.
    """
    category, reading = cls
    if category in (0, 4):
        return category, (-reading[0],)
    return category, tuple(-r for r in reading)


def _low_value(rank: int) -> int:
    """Ace-to-five value: ace 0, deuce 1, ..., king 12."""
    return 0 if rank == ACE else rank + 1


def _low_class(ranks: Sequence[int]) -> LowClass:
    """(shape index, ace-low values in reading order); smaller compares better."""
    sizes, reading = _grouped(_low_value(r) for r in ranks)
    return LOW_SHAPES.index(sizes), reading


@cache
def _high_table() -> tuple[dict[HighClass, int], tuple[HighClass, ...]]:
    """Every high class of five cards, numbered 1 (best) .. 7462 by sorting."""
    classes: set[HighClass] = set()
    for ranks in combinations_with_replacement(range(13), 5):
        if len(set(ranks)) == 1:
            continue  # five of a kind does not exist
        classes.add(_high_class(ranks, flush=False))
        if len(set(ranks)) == 5:
            classes.add(_high_class(ranks, flush=True))
    ordered = tuple(sorted(classes, key=_high_order_key))
    assert len(ordered) == 7462, len(ordered)
    return {cls: i + 1 for i, cls in enumerate(ordered)}, ordered


@cache
def _low_table() -> tuple[dict[LowClass, int], tuple[LowClass, ...]]:
    """Every A-5 low class of five cards, numbered 1 (best) .. 6175 by sorting."""
    classes = {
        _low_class(ranks)
        for ranks in combinations_with_replacement(range(13), 5)
        if len(set(ranks)) > 1
    }
    ordered = tuple(sorted(classes))
    assert len(ordered) == 6175, len(ordered)
    return {cls: i + 1 for i, cls in enumerate(ordered)}, ordered


def _check(cards: Sequence[int], sizes: range) -> list[int]:
    codes = [int(c) for c in cards]
    if len(codes) not in sizes:
        raise ValueError(f"{len(codes)} cards; expected {sizes.start}..{sizes.stop - 1}")
    if any(not 0 <= c < 52 for c in codes):
        raise ValueError(f"card code out of range in {codes}")
    if len(set(codes)) != len(codes):
        raise ValueError(f"repeated card in {codes}")
    return codes


def _high5(five: Sequence[int]) -> int:
    flush = len({c % 4 for c in five}) == 1
    return _high_table()[0][_high_class([c // 4 for c in five], flush)]


def _low5(five: Sequence[int]) -> int:
    return _low_table()[0][_low_class([c // 4 for c in five])]


def high_rank(cards: Sequence[int]) -> int:
    """Best high rank of 5..7 card codes: 1 (royal flush) .. 7462 (7-5-4-3-2).

    >>> high_rank([20, 13, 8, 7, 0])  # 7c 5d 4c 3s 2c
    7462
    """
    codes = _check(cards, range(5, 8))
    return min(_high5(five) for five in combinations(codes, 5))


def low_rank(cards: Sequence[int]) -> int:
    """Best ace-to-five low rank of 5..7 card codes: 1 (5-4-3-2-A) .. 6175 (K-K-K-K-Q).

    >>> low_rank([44, 45, 46, 47, 40])  # Kc Kd Kh Ks Qc
    6175
    """
    codes = _check(cards, range(5, 8))
    return min(_low5(five) for five in combinations(codes, 5))


def _qualifies8(rank: int) -> bool:
    shape, values = _low_table()[1][rank - 1]
    return shape == 0 and values[0] <= _low_value(6)  # no pair, top card an eight or lower


def low8_rank(cards: Sequence[int]) -> int | None:
    """The low rank when the best low is five distinct ranks of 8 or lower, else None.

    >>> low8_rank([24, 20, 16, 12, 8, 45, 44])  # 8 7 6 5 4 + two kings: the worst 8-low
    56
    """
    rank = low_rank(cards)
    return rank if _qualifies8(rank) else None


def high_category(rank: int) -> str:
    """Category name of a high rank.

    >>> high_category(1), high_category(7462)
    ('Straight Flush', 'High Card')
    """
    return HIGH_CATEGORIES[_high_table()[1][rank - 1][0]]


def low_category(rank: int) -> str:
    """Shape name of a low rank.

    >>> low_category(1), low_category(6175)
    ('No Pair', 'Four of a Kind')
    """
    return LOW_CATEGORIES[_low_table()[1][rank - 1][0]]


def high_class_ranks(rank: int) -> tuple[int, tuple[int, ...]]:
    """(category index, five ranks in reading order) of a high rank.

    >>> high_class_ranks(10)  # the steel wheel, 5-4-3-2-A suited
    (0, (3, 2, 1, 0, 12))
    """
    category, reading = _high_table()[1][rank - 1]
    return category, reading


def low_class_ranks(rank: int) -> tuple[int, tuple[int, ...]]:
    """(shape index, five ranks in reading order, ace written as 12) of a low rank.

    >>> low_class_ranks(1)
    (0, (3, 2, 1, 0, 12))
    """
    shape, values = _low_table()[1][rank - 1]
    return shape, tuple(ACE if v == 0 else v - 1 for v in values)


_PLURAL = {
    0: "Twos",
    1: "Threes",
    2: "Fours",
    3: "Fives",
    4: "Sixes",
    5: "Sevens",
    6: "Eights",
    7: "Nines",
    8: "Tens",
    9: "Jacks",
    10: "Queens",
    11: "Kings",
    12: "Aces",
}
_SINGULAR = {r: name[:-2] if name == "Sixes" else name[:-1] for r, name in _PLURAL.items()}


def describe_high(rank: int) -> str:
    """Words for a high rank, in the wording studeval uses.

    >>> describe_high(1), describe_high(2), describe_high(7462)
    ('Royal Flush', 'Straight Flush, King high', 'High Card, Seven')
    """
    category, r = _high_table()[1][rank - 1]
    name = HIGH_CATEGORIES[category]
    if category == 0 and r[0] == ACE:
        return "Royal Flush"
    if category in (0, 3, 4):  # straight flush, flush, straight: the top card
        return f"{name}, {_SINGULAR[r[0]]} high"
    if category == 8:
        return f"{name}, {_SINGULAR[r[0]]}"
    if category == 2:  # full house: trips over pair
        return f"{name}, {_PLURAL[r[0]]} over {_PLURAL[r[3]]}"
    if category == 6:  # two pair: both pairs, higher first
        return f"{name}, {_PLURAL[r[0]]} and {_PLURAL[r[2]]}"
    return f"{name}, {_PLURAL[r[0]]}"  # quads, trips, one pair: the group


def describe_low(rank: int) -> str:
    """Words for a low rank: the cards from the top, pairs named first.

    >>> describe_low(1), describe_low(low_rank([0, 1, 20, 12, 48]))  # 2 2 7 5 A
    ('5-4-3-2-A', 'Pair of Twos, 7-5-A')
    """
    shape, ranks = low_class_ranks(rank)
    text = [RANK_CHARS[r] for r in ranks]
    if shape == 0:
        return "-".join(text)
    sizes = LOW_SHAPES[shape]
    groups: list[int] = []
    at = 0
    for size in sizes:
        groups.append(ranks[at])
        at += size
    kickers = "-".join(RANK_CHARS[g] for g, size in zip(groups, sizes, strict=True) if size == 1)
    if shape == 1:
        head = f"Pair of {_PLURAL[groups[0]]}"
    elif shape == 2:
        head = f"Two Pair, {_PLURAL[groups[0]]} and {_PLURAL[groups[1]]}"
    elif shape == 3:
        head = f"Three {_PLURAL[groups[0]]}"
    elif shape == 4:
        return f"Full House, {_PLURAL[groups[0]]} over {_PLURAL[groups[1]]}"
    else:
        head = f"Four {_PLURAL[groups[0]]}"
    return f"{head}, {kickers}"


def _up_class_high(ranks: Sequence[int]) -> tuple[int, tuple[int, ...]]:
    """Smaller = better: quads, trips, two pair, pair, no pair; then ranks from the top."""
    sizes, reading = _grouped(ranks)
    if sizes[0] == 4:
        shape = 0
    elif sizes[0] == 3:
        shape = 1
    elif sizes[:2] == (2, 2):
        shape = 2
    elif sizes[0] == 2:
        shape = 3
    else:
        shape = 4
    return shape, tuple(-r for r in reading)


def _up_class_low(ranks: Sequence[int]) -> tuple[int, tuple[int, ...]]:
    """Smaller = better: no pair, pair, two pair, trips, quads; then ace-low values."""
    sizes, reading = _grouped(_low_value(r) for r in ranks)
    if sizes[0] == 4:
        shape = 4
    elif sizes[0] == 3:
        shape = 3
    elif sizes[:2] == (2, 2):
        shape = 2
    elif sizes[0] == 2:
        shape = 1
    else:
        shape = 0
    return shape, reading


@cache
def _up_table(n: int, high: bool) -> dict[tuple[int, tuple[int, ...]], int]:
    """Dense ranks 1.. of the rank multisets of n up cards."""
    keyer = _up_class_high if high else _up_class_low
    keys = sorted({keyer(ranks) for ranks in combinations_with_replacement(range(13), n)})
    return {key: i + 1 for i, key in enumerate(keys)}


def up_high_rank(cards: Sequence[int]) -> int:
    """Rank of 1..4 up cards for the high action rules; 1 = best among that many cards.

    Pairs, trips and quads count, straights and flushes never; ace high.

    >>> up_high_rank([51]), up_high_rank([51, 50]), up_high_rank([0])
    (1, 1, 13)
    """
    codes = _check(cards, range(1, 5))
    return _up_table(len(codes), True)[_up_class_high([c // 4 for c in codes])]


def up_low_rank(cards: Sequence[int]) -> int:
    """Rank of 1..4 up cards in the ace-to-five order; 1 = best among that many cards.

    >>> up_low_rank([48]), up_low_rank([48, 1]), up_low_rank([44])
    (1, 1, 13)
    """
    codes = _check(cards, range(1, 5))
    return _up_table(len(codes), False)[_up_class_low([c // 4 for c in codes])]


def _low_reading_order(code: int) -> tuple[int, int]:
    """Order of a low five as written: ace lowest, then suit."""
    return _low_value(code // 4), code % 4


def best_five(cards: Sequence[int], ranking: str) -> list[int]:
    """The five cards that play, written from the highest card down.

    Among several fives with the same rank, the one whose codes, read from the
    highest down, are the highest. High fives are listed by code, highest first;
    low fives (``"low"`` and ``"low8"``, which both give the best A-5 low five)
    with the ace counted lowest, so it comes last.

    >>> best_five([51, 47, 43, 39, 35, 0, 1], "high")
    [51, 47, 43, 39, 35]
    >>> best_five([48, 1, 6, 11, 12, 45, 46], "low")  # Ac 2d 3h 4s 5c Kd Kh
    [12, 11, 6, 1, 48]
    """
    codes = _check(cards, range(5, 8))
    if ranking == "high":
        rank_of = _high5
    elif ranking in ("low", "low8"):
        rank_of = _low5
    else:
        raise ValueError(f"unknown ranking {ranking!r}")
    fives = [sorted(five, reverse=True) for five in combinations(codes, 5)]
    best = min(rank_of(five) for five in fives)
    chosen = max(five for five in fives if rank_of(five) == best)
    if ranking == "high":
        return chosen
    return sorted(chosen, key=_low_reading_order, reverse=True)
