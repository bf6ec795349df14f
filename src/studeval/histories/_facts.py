"""What two copies of one hand (by room and hand id) share besides their players:
the money, the game, each player's net and each player's stack. A later copy that
differs in one of them is another hand under the same number, as the database
finds it (``db``: "in other money", "in another game", "with other results", "with
other stacks"), not a duplicate to drop.

A hand's nets and stacks are kept as two 64-bit digests, so that the hands read so
far cost a few words each: the sum over its players of a number of the player's
name (from the name's UTF-8 bytes: the same in every process, a Dask worker's too)
times the amount in money, modulo 2**64. A batch read in C gets its digests from
numpy in one pass (:func:`batch_facts`), a hand read in Python from
:func:`hand_facts`; both agree.

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

import functools
import hashlib
import operator
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
#: Added to every amount: a player whose amount is 0 still counts.
_SHIFT = 0x9E3779B97F4A7C15


@functools.lru_cache(maxsize=1 << 16)
def _name_number(name: str) -> int:
    """A player's number: 64 bits of the name's BLAKE2 digest, odd (a product by it
    loses no bit of the amount); a player's names repeat, and are worked out once."""
    digest = hashlib.blake2b(name.encode("utf-8", "surrogatepass"), digest_size=8).digest()
    return int.from_bytes(digest, "little") | 1


@functools.lru_cache(maxsize=64)
def _scale(unit: Decimal) -> int | None:
    """A chip of ``unit`` money in units of 10 ** -_PLACES, where whole (else None)."""
    scaled = unit.scaleb(_PLACES)
    return int(scaled) if scaled == scaled.to_integral_value() else None


def hand_facts(currency: str | None, cash: bool, game: str, unit: Decimal,
               names: Sequence[str], stacks: Sequence[int], nets: Sequence[int],
               ) -> Facts:  # fmt: skip
    """A hand's facts: its money, game, and the players' stacks before the antes and
    nets, in chips of ``unit`` money (``names`` the players, in any order)."""
    numbers = list(map(_name_number, names))
    scale = _scale(unit)
    if scale is None:  # (a PHH record's unit that is no power of ten: exact, hashed)
        scale = 1
        nets = [hash(net * unit) for net in nets]
        stacks = [hash(stack * unit) for stack in stacks]
    # The sum of number * (amount * scale + _SHIFT), as batch_facts adds it up.
    shift = _SHIFT * sum(numbers)
    net_sum = scale * sum(map(operator.mul, numbers, nets)) + shift
    stack_sum = scale * sum(map(operator.mul, numbers, stacks)) + shift
    return (currency, cash, game, net_sum & _MASK, stack_sum & _MASK)


def batch_facts(currencies: Sequence[str | None], cash: Sequence[bool], games: Sequence[str],
                places: np.ndarray, names: Sequence[str], seats: np.ndarray,
                stacks: np.ndarray, nets: np.ndarray) -> list[Facts]:  # fmt: skip
    """:func:`hand_facts` of a batch of hands whose chip is ``10 ** -places`` money:
    ``seats`` players each (their ``names``, ``stacks`` and ``nets``, hand after
    hand, as int64)."""
    import numpy as np

    with np.errstate(over="ignore"):  # (arithmetic modulo 2 ** 64, as hand_facts)
        scale = (np.uint64(10) ** (_PLACES - places.astype(np.uint64))).astype(np.uint64)
        scale = np.repeat(scale, seats.astype(np.int64))
        numbers = np.array(list(map(_name_number, names)), dtype=np.uint64)
        ends = np.cumsum(seats)

        def digest(amounts: np.ndarray) -> list[int]:
            value = amounts.astype(np.int64).view(np.uint64) * scale + np.uint64(_SHIFT)
            sums = np.zeros(len(value) + 1, dtype=np.uint64)
            np.cumsum(numbers * value, out=sums[1:])  # (a hand of no seats: 0)
            return (sums[ends] - sums[ends - seats]).tolist()

        net_digests, stack_digests = digest(nets), digest(stacks)
    return list(zip(currencies, cash, games, net_digests, stack_digests, strict=True))


def differs(facts: Facts | None, first: Facts | None) -> str | None:
    """How a copy with ``facts`` differs from the first copy read (``first``), in the
    database's words; None where they agree or either is not known."""
    if facts is None or first is None:
        return None
    return next((how for how, a, b in zip(_HOW, facts, first, strict=True) if a != b), None)
