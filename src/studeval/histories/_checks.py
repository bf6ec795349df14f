"""What a hand's lines must agree on as the general reader reads them, and the cards
a line's brackets hold.

:class:`Checks` follows a hand line by line: every amount in the header's currency,
one deal line a player and street, and the cards a deal line repeats the ones the
player's earlier lines gave. :func:`shown_twice` checks the cards shown at the end
against the deals.
"""

from __future__ import annotations

import re

from studeval._cardtext import CODE_OF_TEXT
from studeval.histories._record import Step
from studeval.histories._text import SIGNS

__all__ = ["Checks", "cards_in", "shown_twice"]

_BRACKETS = re.compile(r"\[([^\]]*)\]")
_RANKS = {"10": "T", "1": "A"}
#: How rooms write a card they do not show.
_HIDDEN = {"X", "XX", "??", "?", "-", "H"}


def cards_in(text: str, last_group_only: bool = False) -> tuple[str | None, ...]:
    """The cards in a line's brackets, as our card text.

    >>> cards_in("Dealt to Hero [Td Jd] [As]"), cards_in("[10h 2c] [as]", last_group_only=True)
    (('Td', 'Jd', 'As'), ('As',))
    >>> cards_in("Dealt to Hero [Ah 3c Ac 8h Qd As] [of]")[-1]  # no card: as written
    'of'
    """
    groups = _BRACKETS.findall(text)
    if last_group_only and groups:
        groups = groups[-1:]
    found: list[str | None] = []
    for group in groups:
        for word in group.replace(",", " ").split():
            if word.upper() in _HIDDEN:
                found.append(None)
                continue
            rank, suit = word[:-1], word[-1:]
            card = _RANKS.get(rank, rank).upper() + suit.lower()
            # A word that is no card is kept as written: its refusal quotes the file.
            found.append(card if card in CODE_OF_TEXT else word)
    return tuple(found)


def _same_cards(a: tuple[str | None, ...], b: tuple[str | None, ...]) -> bool:
    """The same cards, a card not shown (None) standing for any."""
    if len(a) != len(b):
        return False
    return all(x is None or y is None or x == y for x, y in zip(a, b, strict=True))


def _three(cards: tuple[str | None, ...]) -> tuple[str | None, ...]:
    """3rd street's cards, the down cards a line leaves out as not shown (None)."""
    return (None,) * (3 - len(cards)) + cards


class Checks:
    """What a hand's lines must agree on as they are read: every amount in the
    header's currency, one deal line a player and street, and the cards a deal line
    repeats (``[2c 7h] [3d]``) the ones the player's earlier deal lines gave."""

    def __init__(self, currency: str | None, card_by_card: bool = False) -> None:
        self.currency = currency
        self.sign = SIGNS.get(currency or "")
        # The signs of the other currencies (none to look for in a text of no currency).
        self.others = "" if self.sign is None else "".join(c for c in "$€£" if c != self.sign)
        self.card_by_card = card_by_card
        self.dealt: dict[str | None, dict[int, tuple[str | None, ...]]] = {}
        self.shown: dict[str | None, set[str]] = {}

    def foreign(self, text: str) -> str | None:
        """Why an amount's text is in another currency than the header's, or None."""
        for other in self.others:
            if other in text:
                return f"an amount in {other} in a {self.currency} game"
        return None

    def step(self, step: Step, found: re.Match[str]) -> str | None:
        """What is wrong with a step read from ``found``, or None."""
        groups = found.groupdict()
        for said in (groups.get("amount"), groups.get("to")) if self.others else ():
            problem = self.foreign(said) if said else None
            if problem:
                return problem
        if step.kind == "show":
            self.shown.setdefault(step.name, set()).update(c for c in step.cards if c)
        if step.kind != "deal" or self.card_by_card:
            return None
        mine = self.dealt.setdefault(step.name, {})
        before = mine.get(step.street)
        if before is not None:
            return None if before == step.cards else f"a second deal line for {step.name}"
        mine[step.street] = step.cards
        every = cards_in(groups.get("cards") or "")
        repeated = every[: len(every) - len(step.cards)]
        if step.street > 3 and repeated:
            # All the player's cards so far, or the up cards only (3rd street's last).
            # A 3rd-street line of the up card alone leaves the two down cards unshown
            # (Full Tilt repeats them once the player has shown them).
            known = [_three(cards) if street == 3 else cards
                     for street, cards in sorted(mine.items()) if street < step.street]  # fmt: skip
            ups = [cards[-1:] if street == 3 else cards for street, cards in sorted(mine.items())
                   if street < step.street]  # fmt: skip
            if not any(_same_cards(repeated, sum(k, ())) for k in (known, ups)):
                return f"{step.name} was not dealt the cards this line repeats"
            # Down cards no deal line showed must be those the player has shown.
            shown = self.shown.get(step.name)
            if shown and len(repeated) == len(sum(known, ())) and any(
                    dealt is None and card not in shown
                    for card, dealt in zip(repeated, sum(known, ()), strict=True)):  # fmt: skip
                return f"{step.name} was not dealt the cards this line repeats"
        return None


def shown_twice(steps: list[Step], revealed: dict[str, tuple[str, ...]]) -> tuple[str, str] | None:
    """A player whose shown cards contradict the deal lines, and why: more cards
    than the three dealt down besides the player's up cards, or a card another
    player was dealt face up or showed."""
    ups: dict[str | None, set[str | None]] = {}
    for s in steps:
        if s.kind == "deal" and s.cards and 3 <= s.street <= 6:
            ups.setdefault(s.name, set()).add(s.cards[-1])
    community = next((s.cards[0] for s in steps if s.kind == "street" and s.cards), None)
    holder = {card: name for name, cards in ups.items() for card in cards if card is not None}
    for name, shown in revealed.items():
        downs = {c for c in shown if c not in ups.get(name, set()) and c != community}
        if len(downs) > 3 and name in ups:  # no deal line at all: the replay says why
            return name, (f"{name} shows {' '.join(shown)}: {len(downs)} cards besides the "
                          "up cards the deal lines give, of 3 dealt down")  # fmt: skip
        for card in shown:
            if card == community:
                continue
            other = holder.setdefault(card, name)
            if other != name:
                return name, f"{name} shows {card}, a card {other} holds"
    return None
