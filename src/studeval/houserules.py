"""House rules: the choices on which stud rulebooks differ, as one frozen value.

Every rule in :mod:`studeval.rules` and :mod:`studeval.showdown` takes
``rules=``: a :class:`HouseRules`, one of the preset names ``"robert"`` (Robert's
Rules of Poker, the default) and ``"wsop"`` (the WSOP tournament rules), or
``None`` for the default.

>>> house_rules("wsop") == HouseRules.wsop()
True
>>> house_rules(None) == HouseRules.robert()
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from studeval.errors import RulesError

__all__ = ["PRESETS", "HouseRules", "house_rules"]


_CHOICES: dict[str, tuple[object, ...]] = {
    "bring_in_tie": ("suit", "position"),
    "action_tie": ("position", "suit"),
    "open_pair_big_bet": (True, False),
    "odd_chip_cards": ("all", "played"),
    "odd_chip_low": ("low_card", "high_card"),
}


@dataclass(frozen=True)
class HouseRules:
    """The choices on which stud rulebooks differ.

    Attributes:
        bring_in_tie: how door cards of the same rank pick the bring-in.
            ``"suit"``: by suit, clubs lowest and spades highest (Robert's,
            WSOP). ``"position"``: the tied seat nearest the dealer's left (as
            some card rooms' house rules write it).
        action_tie: how tied boards pick the first to act on 4th-7th street.
            ``"position"``: the first tied seat clockwise from the dealer
            (Robert's, WSOP live-action rules).
            ``"suit"``: the board with the high card by suit (WSOP tournament
            rules 2023 and 2024); on a low board the low card by suit.
        open_pair_big_bet: whether an open pair on fourth street in ``stud``
            lets any player bet the big bet (Robert's Rules of Poker);
            WSOP tournaments drop the rule. Other games never have it.
        odd_chip_cards: which of a tied winner's cards order the odd chips:
            ``"all"`` the seat's cards (Robert's) or ``"played"`` only the
            five that make the hand (WSOP).
        odd_chip_low: in low games and low halves, ``"low_card"`` gives the
            odd chip to the lowest card by suit, ace low (Robert's), and
            ``"high_card"`` to the highest card by suit (WSOP: high card by
            suit in every game). High games and halves always use the highest.

    >>> HouseRules() == HouseRules.robert()
    True
    >>> HouseRules.wsop().open_pair_big_bet
    False
    >>> HouseRules(action_tie="seat")
    Traceback (most recent call last):
    ...
    studeval.errors.RulesError: HouseRules.action_tie must be one of 'position', 'suit'; got 'seat'
    """

    bring_in_tie: Literal["suit", "position"] = "suit"
    action_tie: Literal["position", "suit"] = "position"
    open_pair_big_bet: bool = True
    odd_chip_cards: Literal["all", "played"] = "all"
    odd_chip_low: Literal["low_card", "high_card"] = "low_card"

    def __post_init__(self) -> None:
        for field, allowed in _CHOICES.items():
            value = getattr(self, field)
            # `True in (1, ...)` would accept 1 for a bool field, so compare types too.
            if not any(type(value) is type(ok) and value == ok for ok in allowed):
                choices = ", ".join(repr(ok) for ok in allowed)
                raise RulesError(f"HouseRules.{field} must be one of {choices}; got {value!r}")

    @classmethod
    def robert(cls) -> HouseRules:
        """Robert's Rules of Poker (the default everywhere).

        Bring-in ties by suit; tied boards by position; the fourth-street open
        pair allows the big bet in stud; odd chips to the highest card by suit
        in high games and halves and to the lowest card by suit in low games
        and halves, looking at all the seat's cards.

        >>> HouseRules.robert().odd_chip_cards
        'all'
        """
        return cls()

    @classmethod
    def wsop(cls) -> HouseRules:
        """WSOP tournament rules 2024.

        Bring-in ties by suit; tied boards by high card by suit; no big bet on
        a fourth-street open pair; odd chips to the highest card by suit in
        every game, looking only at the five cards that play.

        >>> HouseRules.wsop().action_tie, HouseRules.wsop().odd_chip_low
        ('suit', 'high_card')
        """
        return cls(
            bring_in_tie="suit",
            action_tie="suit",
            open_pair_big_bet=False,
            odd_chip_cards="played",
            odd_chip_low="high_card",
        )


#: The default, made once: HouseRules is frozen, so every caller can share it.
_DEFAULT = HouseRules()

#: The preset names ``rules=`` accepts, and the presets they name.
PRESETS = {"robert": HouseRules.robert, "wsop": HouseRules.wsop}


def house_rules(rules: HouseRules | str | None) -> HouseRules:
    """Return the house rules that ``rules`` names: itself, a preset, or the default.

    >>> house_rules("robert").action_tie
    'position'
    >>> house_rules("tda")
    Traceback (most recent call last):
    ...
    studeval.errors.RulesError: rules must be a HouseRules, 'robert', 'wsop' or None; got 'tda'
    """
    if rules is None:
        return _DEFAULT
    if isinstance(rules, HouseRules):
        return rules
    if isinstance(rules, str) and rules in PRESETS:
        return PRESETS[rules]()
    raise RulesError(f"rules must be a HouseRules, 'robert', 'wsop' or None; got {rules!r}")
