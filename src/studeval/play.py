"""Random hands played through the engine, and a hand written out street by street.

:func:`random_hand` deals from a seeded deck and picks each action uniformly from
what :meth:`StudHand.legal` offers (each bet size too); at the showdown every
seat shows. It is what ``studeval play`` and the engine benchmark run.
:func:`describe` writes a hand the way a hand history reads.

>>> hand = random_hand("razz", 3, seed=2)
>>> hand.over, sum(hand.stacks)
(True, 600)
>>> print(describe(hand).splitlines()[0])
Razz, 3 seats, stakes 1/2/5/10 (ante, bring-in, small bet, big bet)
"""

from __future__ import annotations

import random

from studeval.betting import Event, Stakes
from studeval.cards import card_str
from studeval.engine import StudHand
from studeval.games import get_game
from studeval.houserules import HouseRules

__all__ = ["DEFAULT_STAKES", "describe", "random_hand"]

#: The stakes of ``studeval play``: a $5/$10 game with a 1 ante and a 2 bring-in.
DEFAULT_STAKES = Stakes(ante=1, bring_in=2, small_bet=5, big_bet=10)

_STREETS = {3: "Third street", 4: "Fourth street", 5: "Fifth street", 6: "Sixth street",
            7: "Seventh street"}  # fmt: skip


def random_hand(
    game: str,
    seats: int,
    seed: int | None = None,
    *,
    stakes: Stakes = DEFAULT_STAKES,
    stack: int = 200,
    rules: HouseRules | str | None = None,
    rng: random.Random | None = None,
    rake: int = 0,
    chip: int = 1,
) -> StudHand:
    """Play one hand of random legal actions from a seeded deck, to the end.

    ``seed`` fixes the hand; ``rng`` (a :class:`random.Random`, instead of a seed)
    draws every choice and the deck from one generator, for many hands in a row.
    ``rake`` and ``chip`` go to the hand (see :class:`StudHand`).

    >>> rng = random.Random(7)
    >>> [random_hand("stud", 4, rng=rng).over for _ in range(3)]
    [True, True, True]
    """
    if rng is None:
        rng = random.Random(seed)
    hand = StudHand(game, stakes, [stack] * seats, rules=rules, rake=rake, chip=chip)
    deck_seed = rng.getrandbits(64)
    uniform = rng.random
    legal_now = hand.legal
    act = hand.act
    while True:
        if hand.actor is None:
            if hand.over:
                return hand
            hand.deal_random(deck_seed)
        elif hand.showdown:
            hand.show()
        else:
            legal = legal_now()
            kinds = legal.kinds()
            # Uniform over the kinds, then over the totals of a sized kind.
            kind = kinds[int(uniform() * len(kinds))]
            totals = legal.totals(kind)
            act(kind, totals[int(uniform() * len(totals))] if totals else None)


def _cards(cards: tuple[int | None, ...]) -> str:
    return " ".join("??" if c is None else card_str(c) for c in cards)


#: How each kind of event reads; {seat}, {amount}, {to} and {cards} are the event's.
_LINES = {
    "ante": "Seat {seat} antes {amount}",
    "deal": "Seat {seat} is dealt {cards}",
    "community": "Community card {cards}",
    "bring_in": "Seat {seat} brings in for {amount}",
    "fold": "Seat {seat} folds",
    "check": "Seat {seat} checks",
    "call": "Seat {seat} calls {amount}",
    "complete": "Seat {seat} completes to {to}",
    "bet": "Seat {seat} bets {to}",
    "raise": "Seat {seat} raises to {to}",
    "show": "Seat {seat} shows {cards}",
    "muck": "Seat {seat} mucks",
}


def _line(event: Event) -> str:
    return _LINES[event.kind].format(
        seat=event.seat, amount=event.amount, to=event.to, cards=_cards(event.cards)
    )


def describe(hand: StudHand, notes: dict[int, str] | None = None) -> str:
    """The hand as text: the stakes, each street's cards and actions, the result;
    ``notes[street]``, where given, as a line after the street's cards, before its
    first action."""
    s = hand.stakes
    lines = [
        f"{get_game(hand.game).title}, {hand.seats} seats, stakes "
        f"{s.ante}/{s.bring_in}/{s.small_bet}/{s.big_bet} (ante, bring-in, small bet, big bet)",
        "Stacks " + " ".join(str(chips) for chips in hand.starting_stacks),
    ]
    street = 0
    showing = False
    notes = dict(notes or {})  # each note written once
    for event in hand.events:
        dealing = event.kind in ("deal", "community")
        if street in notes and not (dealing and event.street == street):
            lines.append("  " + notes.pop(street))  # the street's cards are out
        if event.kind in ("show", "muck") and not showing:
            lines.append("Showdown")
            showing = True
        elif event.kind not in ("ante", "show", "muck") and event.street != street:
            street = event.street
            lines.append(_STREETS[street])
        lines.append("  " + _line(event))
    if street in notes:
        lines.append("  " + notes.pop(street))
    if hand.result is not None:
        lines.append(str(hand.result))
        lines.append("Final stacks " + " ".join(str(chips) for chips in hand.stacks))
    return "\n".join(lines)
