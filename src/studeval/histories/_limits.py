"""What a hand's text leaves to be found from its amounts: the money of one chip,
and the limits of a hand whose text names none (tournament levels, some rooms'
cash games).
"""

from __future__ import annotations

from decimal import Decimal

from studeval.histories._record import Step, Transcript

__all__ = ["chip_unit", "limits", "most_unwritten_rake"]


def most_unwritten_rake(pot: int) -> int:
    """The most rake a room that writes none (Everleaf) is taken to have kept of a
    pot of ``pot`` chips: a tenth, and a chip for the rounding (rooms keep about a
    twentieth, capped). What the winners' lines leave beyond that is no rake but a
    winner's amount edited or lost: the hand is refused, not stored with the rest.

    >>> most_unwritten_rake(222), most_unwritten_rake(12)
    (23, 2)
    """
    return pot // 10 + 1


def chip_unit(t: Transcript) -> Decimal:
    """The money of one chip: the finest place any amount of the hand is written to.

    >>> chip_unit(Transcript("PokerStars", "1", "razz", Decimal("0.04"), Decimal("0.08"),
    ...                      [(1, "a", Decimal("1.5")), (2, "b", Decimal("2"))]))
    Decimal('0.01')
    """
    amounts = [t.small_bet, t.big_bet, *(stack for _, _, stack in t.seats)]
    amounts += [a for s in t.steps for a in (s.amount, s.to) if a is not None]
    amounts += [a for a in (t.ante, t.bring_in, t.total_pot, t.rake) if a is not None]
    places = max((-int(a.as_tuple().exponent) for a in set(amounts)), default=0)
    return Decimal(1).scaleb(-max(places, 0))


def _most_common(amounts: list[Decimal]) -> Decimal:
    return max(sorted(set(amounts)), key=amounts.count) if amounts else Decimal(0)


def limits(steps: list[Step]) -> tuple[Decimal, Decimal]:
    """The small and big bet of a hand whose text names no limits (tournament
    levels, some rooms' cash games), from its wagers: a completion on 3rd street,
    else the commonest bet of 3rd and 4th street, is the small bet; the commonest of
    5th to 7th the big bet (twice the other when one street shows none). A 4th-street
    bet of the big bet is an open pair's double bet (Bovada's "D bets"), no small
    bet. With no bet at all, four bring-ins or the largest early all-in: the limits
    then change nothing in the hand.

    >>> limits([Step(1, "bet", "a", Decimal(10), street=4),
    ...          Step(2, "bet", "a", Decimal(20), street=5)])
    (Decimal('10'), Decimal('20'))
    >>> limits([Step(1, "bet", "a", Decimal(20), street=4),
    ...          Step(2, "bet", "a", Decimal(20), street=5)])
    (Decimal('10'), Decimal('20'))
    """

    def bets(streets: tuple[int, ...]) -> list[Decimal]:
        return [s.amount for s in steps if s.kind == "bet" and s.street in streets and s.amount]

    # A completion on 3rd street (a first raise over the bring-in) is the small bet.
    first = next((s for s in steps if s.street == 3 and s.kind in ("complete", "bet", "raise")),
                 None)  # fmt: skip
    completed = None if first is None or first.all_in else first.to or first.amount
    big = _most_common(bets((5, 6, 7)))
    small = completed or _most_common(bets((3,)) + [a for a in bets((4,)) if a != big])
    if small and not big:
        big = small * 2
    elif big and not small:
        small = big / 2
    elif not small:
        bring_in = max((s.amount or Decimal(0) for s in steps if s.kind == "bring_in"),
                       default=Decimal(1))  # fmt: skip
        shoves = [s.amount or Decimal(0) for s in steps if s.kind == "all_in" and s.street < 5]
        small = max([bring_in * 4, *shoves])
        big = small * 2
    return small, big
