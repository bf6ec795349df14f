"""What two copies of one hand (by room and hand id) share besides their players:
the money, the game, each player's net and each player's stack. A later copy that
differs in one of them is another hand under the same number, as the database
finds it (``db``: "in other money", "in another game", "with other results", "with
other stacks"), not a duplicate to drop.

A hand's nets and stacks are kept as two 64-bit digests (a sum over its players of a
mix of the name and the amount in money), so that the hands read so far cost a few
words each; a batch read in C gets its digests from numpy in one pass
(:func:`batch_facts`), a hand read in Python from :func:`hand_facts`, and both agree.

>>> from decimal import Decimal
>>> a = hand_facts("USD", True, "razz", Decimal("0.01"), ["Ann", "Bo"], [133, 200], [-5, 5])
>>> b = hand_facts("USD", True, "razz", Decimal("0.010"), ["Bo", "Ann"], [200, 133], [5, -5])
>>> a == b, differs(a, b)
(True, None)
>>> differs(a, hand_facts("USD", True, "razz", Decimal("0.01"), ["Ann", "Bo"], [193, 200],
...                       [-5, 5]))
'with other stacks'
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

__all__ = ["Facts", "batch_facts", "differs", "hand_facts"]

#: The money (currency; whether cash), the game, and the digests of the nets and of
#: the stacks, by player.
Facts = tuple[str | None, bool, str, int, int]

#: How a copy differs, by the first of its facts that does (the database's words).
_HOW = ("in other money", "in other money", "in another game", "with other results",
        "with other stacks")  # fmt: skip

_MASK = (1 << 64) - 1
#: Amounts are digested in units of 10 ** -_PLACES of the money (a chip of 10 ** -p
#: is 10 ** (_PLACES - p) of them): one amount, whatever places a copy writes.
_PLACES = 17
_ODD = 0x9E3779B97F4A7C15  # (odd: multiplying by it mixes and loses nothing)
_MIX1, _MIX2 = 0xBF58476D1CE4E5B9, 0x94D049BB133111EB


def _mix(x: int) -> int:
    """A 64-bit finalizer (splitmix64's): every bit of ``x`` moves every bit out."""
    x = ((x ^ (x >> 30)) * _MIX1) & _MASK
    x = ((x ^ (x >> 27)) * _MIX2) & _MASK
    return x ^ (x >> 31)


def _scale(unit: Decimal) -> int | None:
    """A chip of ``unit`` money in units of 10 ** -_PLACES, where whole (else None)."""
    scaled = unit.scaleb(_PLACES)
    return int(scaled) if scaled == scaled.to_integral_value() else None


def _digest(names: Sequence[str], amounts: Sequence[int], unit: Decimal) -> int:
    """The sum of each player's mix of name and amount in money (order does not count)."""
    scale = _scale(unit)
    total = 0
    for name, amount in zip(names, amounts, strict=True):
        value = (amount * scale) & _MASK if scale is not None else hash(amount * unit) & _MASK
        total += _mix((hash(name) & _MASK) ^ ((value * _ODD) & _MASK))
    return total & _MASK


def hand_facts(currency: str | None, cash: bool, game: str, unit: Decimal,
               names: Sequence[str], stacks: Sequence[int], nets: Sequence[int],
               ) -> Facts:  # fmt: skip
    """A hand's facts: its money, game, and the players' stacks before the antes and
    nets, in chips of ``unit`` money (``names`` the players, in any order)."""
    return (currency, cash, game, _digest(names, nets, unit), _digest(names, stacks, unit))


def batch_facts(currencies: Sequence[str | None], cash: Sequence[bool], games: Sequence[str],
                places: np.ndarray, names: Sequence[str], seats: np.ndarray,
                stacks: np.ndarray, nets: np.ndarray) -> list[Facts]:  # fmt: skip
    """:func:`hand_facts` of a batch of hands whose chip is ``10 ** -places`` money:
    ``seats`` players each (their ``names``, ``stacks`` and ``nets``, hand after
    hand, as int64)."""
    import numpy as np

    with np.errstate(over="ignore"):  # (arithmetic modulo 2 ** 64, as _digest's)
        scale = (np.uint64(10) ** (_PLACES - places.astype(np.uint64))).astype(np.uint64)
        scale = np.repeat(scale, seats.astype(np.int64))
        named = np.array(list(map(hash, names)), dtype=np.int64).view(np.uint64)

        def digest(amounts: np.ndarray) -> list[int]:
            value = amounts.astype(np.int64).view(np.uint64) * scale
            x = named ^ (value * np.uint64(_ODD))
            x = (x ^ (x >> np.uint64(30))) * np.uint64(_MIX1)
            x = (x ^ (x >> np.uint64(27))) * np.uint64(_MIX2)
            x ^= x >> np.uint64(31)
            sums = np.zeros(len(x) + 1, dtype=np.uint64)
            np.cumsum(x, out=sums[1:])  # (a hand of no seats: 0)
            ends = np.cumsum(seats)
            return (sums[ends] - sums[ends - seats]).tolist()

        net_digests, stack_digests = digest(nets), digest(stacks)
    return list(zip(currencies, cash, games, net_digests, stack_digests, strict=True))


def differs(facts: Facts | None, first: Facts | None) -> str | None:
    """How a copy with ``facts`` differs from the first copy read (``first``), in the
    database's words; None where they agree or either is not known."""
    if facts is None or first is None:
        return None
    return next((how for how, a, b in zip(_HOW, facts, first, strict=True) if a != b), None)
