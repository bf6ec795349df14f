"""House rules: the choices on which stud rulebooks differ, as one frozen value.

Every rule in :mod:`studeval.rules` and :mod:`studeval.showdown` takes
``rules=``: a :class:`HouseRules`, one of the preset names ``"robert"`` (Robert's
Rules of Poker, the default), ``"wsop"`` (the WSOP tournament rules) and
``"pokerkit"`` (the readings of pokerkit, PHH's reference implementation, for the
hand histories it writes), or ``None`` for the default.

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
    "odd_chips": ("by_cards", "first_seat"),
    "odd_chip_half": ("high", "low"),
    "split_pots": ("each", "merged"),
    "short_all_in": ("half_bet", "full_bet"),
    "bring_in_all_in": ("nobody", "next_seat"),
    "heads_up_cap": ("lifted", "kept"),
    "heads_up_counts": ("not_folded", "not_all_in"),
    "deck_runs_out": ("community", "muck"),
    "short_bring_in": ("bring_in", "may_open"),
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
        odd_chips: ``"by_cards"``: tied winners get one odd chip each, in the
            order of ``odd_chip_cards`` and ``odd_chip_low`` (Robert's, WSOP).
            ``"first_seat"``: every odd chip of a tie goes to the tied seat
            nearest the dealer's left (pokerkit).
        odd_chip_half: which half of a hi/lo split takes its odd chip: the
            ``"high"`` (Robert's, WSOP) or the ``"low"`` (as the Winning Poker
            Network's older software pays).
        split_pots: ``"each"``: the main pot and every side pot are split on
            their own (Robert's, WSOP). ``"merged"``: the hands that win
            nothing are mucked first, and pots in a row that the same seats
            still contend for are split as one pot (pokerkit), which moves odd
            chips.
        short_all_in: ``"half_bet"``: an all-in wager of half a bet or more
            counts as a full bet and reopens the betting; a shorter one does
            not, and the next seat may complete it to a full bet (Robert's,
            WSOP). ``"full_bet"``: a seat may raise only when it faces at least
            the round's largest bet or raise (all-ins for less since it acted
            reopen the betting only when together they make one), a raise goes
            a full bet on top of the highest wager, and every wager, an all-in
            for less too, counts toward the cap (pokerkit).
        bring_in_all_in: when the seat that would bring in is all in for the
            ante, ``"nobody"`` brings in and the next seat opens or checks
            (Robert's), or the ``"next_seat"`` clockwise brings in (pokerkit).
        heads_up_cap: with two players left before the third raise the cap is
            ``"lifted"`` (Robert's, WSOP) or ``"kept"`` (pokerkit): one bet and
            three raises a round, always.
        heads_up_counts: who the two players left are: the seats that have not
            folded (``"not_folded"``: an all-in seat is a player, so two seats
            betting beside it stay capped), or only the seats not all in
            (``"not_all_in"``: Robert's Rules' "a pot involving three or more
            players who are not all-in" is capped).
        deck_runs_out: ``"community"``: when the deck cannot give every live
            seat a 7th-street card, one community card is dealt (Robert's,
            WSOP). ``"muck"``: a card is burned before each of 4th to 7th
            street, and when the deck runs out the burned cards and the folded
            seats' cards are shuffled into a new one (pokerkit).
        short_bring_in: the seat to bring in has no more chips than the bring-in:
            ``"bring_in"``: all it has is the bring-in, and the next seat may
            complete to the small bet (Robert's). ``"may_open"``: it may instead
            wager it all as the round's opening bet (PHH's ``cbr`` where ``pb``
            would post the same chips), which a raise tops by a full small bet
            (pokerkit).

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
    odd_chips: Literal["by_cards", "first_seat"] = "by_cards"
    odd_chip_half: Literal["high", "low"] = "high"
    split_pots: Literal["each", "merged"] = "each"
    short_all_in: Literal["half_bet", "full_bet"] = "half_bet"
    bring_in_all_in: Literal["nobody", "next_seat"] = "nobody"
    heads_up_cap: Literal["lifted", "kept"] = "lifted"
    heads_up_counts: Literal["not_folded", "not_all_in"] = "not_folded"
    deck_runs_out: Literal["community", "muck"] = "community"
    short_bring_in: Literal["bring_in", "may_open"] = "bring_in"

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

    @classmethod
    def pokerkit(cls) -> HouseRules:
        """The readings of pokerkit 0.7, PHH's reference implementation.

        :func:`studeval.phh.loads` plays a record under them when it has no
        ``_house_rules`` field of ours (another tool wrote it): bring-in ties by
        suit, tied boards by position, no big bet on a fourth-street open pair;
        losing hands mucked before the pots are split, and every odd chip of a
        tie to the first tied seat; only a full raise reopens the betting; the
        cap holds heads-up; the next seat brings in for one all in for the ante;
        a seat to bring in with no more than the bring-in may wager it all as the
        opening bet; burned and folded cards make a new deck when it runs out.

        >>> HouseRules.pokerkit().short_all_in, HouseRules.pokerkit().deck_runs_out
        ('full_bet', 'muck')
        """
        return cls(
            open_pair_big_bet=False,
            odd_chips="first_seat",
            split_pots="merged",
            short_all_in="full_bet",
            bring_in_all_in="next_seat",
            heads_up_cap="kept",
            deck_runs_out="muck",
            short_bring_in="may_open",
        )


#: The default, made once: HouseRules is frozen, so every caller can share it.
_DEFAULT = HouseRules()

#: The preset names ``rules=`` accepts, and the presets they name.
PRESETS = {"robert": HouseRules.robert, "wsop": HouseRules.wsop, "pokerkit": HouseRules.pokerkit}


def house_rules(rules: HouseRules | str | None) -> HouseRules:
    """Return the house rules that ``rules`` names: itself, a preset, or the default.

    >>> house_rules("robert").action_tie
    'position'
    >>> house_rules("tda")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    studeval.errors.RulesError: rules must be a HouseRules, 'robert', ... or None; got 'tda'
    """
    if rules is None:
        return _DEFAULT
    if isinstance(rules, HouseRules):
        return rules
    if isinstance(rules, str) and rules in PRESETS:
        return PRESETS[rules]()
    names = ", ".join(repr(name) for name in PRESETS)
    raise RulesError(f"rules must be a HouseRules, {names} or None; got {rules!r}")
