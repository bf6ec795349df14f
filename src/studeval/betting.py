"""The values fixed-limit stud is played with: the stakes, what the seat to act may do,
and what happened in a hand.

:class:`~studeval.StudHand` takes a :class:`Stakes`, answers
:meth:`~studeval.StudHand.legal` with a :class:`Legal` and logs each step as an
:class:`Event`. All three are immutable values, shared freely between hands.

>>> Legal(fold=True, call=5, raise_to=(10,)).kinds()
['fold', 'call', 'raise']
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from studeval._seats import chip_count
from studeval.errors import ChipError

__all__ = ["ACTION_KINDS", "EVENT_KINDS", "ActionKind", "Event", "Legal", "Stakes"]

ActionKind = Literal["fold", "check", "call", "bring_in", "complete", "bet", "raise"]
#: The kinds of action, in the order of the core's action codes (``se_action``).
ACTION_KINDS: tuple[str, ...] = ("fold", "check", "call", "bring_in", "complete", "bet", "raise")
#: Every kind of event, in the order of the core's event codes (``se_event_kind``).
EVENT_KINDS: tuple[str, ...] = (*ACTION_KINDS, "ante", "deal", "community", "show", "muck")


@dataclass(frozen=True)
class Stakes:
    """The limits of a fixed-limit stud game, in chips.

    >>> Stakes(ante=1, bring_in=2, small_bet=5, big_bet=10)
    Stakes(ante=1, bring_in=2, small_bet=5, big_bet=10)
    >>> Stakes(ante=1, bring_in=6, small_bet=5, big_bet=10)
    Traceback (most recent call last):
    ...
    studeval.errors.ChipError: Stakes: bring_in 6 is more than the small bet 5
    """

    ante: int
    bring_in: int
    small_bet: int
    big_bet: int

    def __post_init__(self) -> None:
        for name in ("ante", "bring_in", "small_bet", "big_bet"):
            # Frozen: store the checked int (a numpy int becomes a plain one).
            object.__setattr__(self, name, chip_count(getattr(self, name), f"Stakes: {name}"))
        if self.small_bet < 1:
            raise ChipError("Stakes: small_bet must be at least 1")
        if self.bring_in > self.small_bet:
            raise ChipError(
                f"Stakes: bring_in {self.bring_in} is more than the small bet {self.small_bet}"
            )
        if self.big_bet < self.small_bet:
            raise ChipError(
                f"Stakes: big_bet {self.big_bet} is less than the small bet {self.small_bet}"
            )


@dataclass(frozen=True)
class Legal:
    """What the seat to act may do. Amounts ending in ``_to`` are the seat's total
    for the street after the action (every legal one); ``call`` is the chips it
    costs to call (all the seat has when that is less)."""

    fold: bool = False
    check: bool = False
    call: int | None = None
    bring_in: int | None = None
    complete_to: tuple[int, ...] = ()
    bet_to: tuple[int, ...] = ()
    raise_to: tuple[int, ...] = ()
    _sizes: dict[str, tuple[int, ...]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # Each kind allowed and its legal totals (none for fold, check and call),
        # worked out once: act() looks an action up here.
        sizes: dict[str, tuple[int, ...]] = {}
        if self.fold:
            sizes["fold"] = ()
        if self.check:
            sizes["check"] = ()
        if self.call is not None:
            sizes["call"] = ()
        if self.bring_in is not None:
            sizes["bring_in"] = (self.bring_in,)
        for kind, totals in (("complete", self.complete_to), ("bet", self.bet_to),
                             ("raise", self.raise_to)):  # fmt: skip
            if totals:
                sizes[kind] = totals
        object.__setattr__(self, "_sizes", sizes)

    def kinds(self) -> list[str]:
        """The kinds of action allowed, in a fixed order.

        >>> Legal(fold=True, call=5, raise_to=(10,)).kinds()
        ['fold', 'call', 'raise']
        """
        return list(self._sizes)

    def totals(self, kind: str) -> tuple[int, ...] | None:
        """The legal street totals of ``kind`` (empty for fold, check and call), or
        ``None`` when ``kind`` is not allowed.

        >>> Legal(fold=True, call=5, raise_to=(10,)).totals("raise")
        (10,)
        >>> Legal(fold=True, call=5).totals("check") is None
        True
        """
        return self._sizes.get(kind) if type(kind) is str else None


@dataclass(frozen=True)
class Event:
    """One thing that happened in the hand: ``kind`` is ``"ante"``, ``"deal"``,
    ``"community"``, an action kind, ``"show"`` or ``"muck"``; ``amount`` the chips
    it put in (antes and actions); ``to`` the seat's street total after a bet;
    ``cards`` the cards dealt or shown (``None`` for an unknown card)."""

    kind: str
    seat: int | None
    amount: int = 0
    to: int | None = None
    cards: tuple[int | None, ...] = ()
    street: int = 3
