"""The four stud games as data.

Every rule in :mod:`studeval.rules` and :mod:`studeval.showdown` reads a game's
properties from the :class:`Game` records here instead of branching on its
name, so the games differ only in these fields:

============= ====== ======= ========= ========= ========== =========
game          high   low     card      bring-in  board      open pair
============= ====== ======= ========= ========= ========== =========
stud          yes    none    ace high  lowest    high       yes
stud8         yes    low8    ace high  lowest    high       no
razz          no     low     ace low   highest   low        no
stud_hilo_noq yes    low     ace low   highest   low        no
============= ====== ======= ========= ========= ========== =========

The hand-history (PHH) variant codes ``"F7S"``, ``"F7S/8"`` and ``"FR"`` name
``"stud"``, ``"stud8"`` and ``"razz"`` too. ``"stud_hilo"`` is refused: most card
rooms and libraries mean 8-or-better by "Stud Hi/Lo", so the name alone would be
a silently wrong game here.

>>> get_game("stud8").split, get_game("stud8").low_must_qualify
(True, True)
>>> check_game("razz")
'razz'
>>> check_game("holdem")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
studeval.errors.UnknownGameError: unknown game 'holdem'; expected one of ...
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from studeval.errors import UnknownGameError

__all__ = [
    "ALIASES", "GAMES", "GAME_NAMES", "STANDARD_GAMES", "Game", "card_key", "check_game",
    "get_game",
]  # fmt: skip

CardOrder = Literal["ace_high", "ace_low"]


@dataclass(frozen=True)
class Game:
    """One game's rules as data.

    Attributes:
        name: the game's name as every function takes it (``"stud"`` ...).
        title: the game's usual English name.
        high: whether a high hand wins the pot or its high half.
        low: which ranking wins the pot or its low half: ``None`` (no low),
            ``"low"`` (ace-to-five, every hand has one) or ``"low8"``
            (ace-to-five that must qualify as 8-or-better).
        card_order: how single cards compare for the bring-in and for suit
            tie-breaks on the board: ``"ace_high"`` (2 lowest, ace highest) or
            ``"ace_low"`` (ace lowest, king highest); suits always rank clubs,
            diamonds, hearts, spades from lowest.
        bring_in: which door card brings it in under ``card_order``:
            ``"lowest"`` or ``"highest"``.
        board: which up-card ranking picks the first to act on 4th-7th street:
            ``"high"`` (best poker hand showing) or ``"low"`` (best A-5 low
            showing).
        open_pair: whether an open pair on fourth street lets a player make
            the big bet (only when the house rules keep that rule).
        core_id: the game's number in the C core (``se_game`` in ``studeval.h``),
            which scores equity deals by it.

    >>> get_game("razz").bring_in, get_game("razz").card_order
    ('highest', 'ace_low')
    """

    name: str
    title: str
    high: bool
    low: Literal["low", "low8"] | None
    card_order: CardOrder
    bring_in: Literal["lowest", "highest"]
    board: Literal["high", "low"]
    open_pair: bool
    core_id: int

    @property
    def split(self) -> bool:
        """Whether the pot is split between a high half and a low half.

        >>> get_game("stud_hilo_noq").split, get_game("razz").split
        (True, False)
        """
        return self.high and self.low is not None

    @property
    def low_must_qualify(self) -> bool:
        """Whether a low must be 8-or-better to win anything.

        >>> get_game("stud8").low_must_qualify, get_game("stud_hilo_noq").low_must_qualify
        (True, False)
        """
        return self.low == "low8"


GAMES: dict[str, Game] = {
    game.name: game
    for game in (
        Game(
            name="stud",
            title="Seven Card Stud",
            high=True,
            low=None,
            card_order="ace_high",
            bring_in="lowest",
            board="high",
            open_pair=True,
            core_id=0,
        ),
        Game(
            name="stud8",
            title="Seven Card Stud Hi/Lo, 8 or better",
            high=True,
            low="low8",
            card_order="ace_high",
            bring_in="lowest",
            board="high",
            open_pair=False,
            core_id=1,
        ),
        Game(
            name="razz",
            title="Razz",
            high=False,
            low="low",
            card_order="ace_low",
            bring_in="highest",
            board="low",
            open_pair=False,
            core_id=2,
        ),
        # Stud Hi/Lo with no qualifier plays its action like Razz: the high card
        # brings in and the low board acts first (the WSOP tournament rules'
        # "Regular" Stud Hi/Lo; house rules that spread the game say the same).
        Game(
            name="stud_hilo_noq",
            title="Seven Card Stud Hi/Lo, no qualifier",
            high=True,
            low="low",
            card_order="ace_low",
            bring_in="highest",
            board="low",
            open_pair=False,
            core_id=3,
        ),
    )
}

GAME_NAMES: tuple[str, ...] = tuple(GAMES)

#: Other names accepted for a game: the variant codes of the PHH hand-history
#: format (fixed-limit 7-card stud, stud hi/lo 8-or-better, razz).
ALIASES: dict[str, str] = {"F7S": "stud", "F7S/8": "stud8", "FR": "razz"}

#: The three games card rooms spread, each with a PHH code above (the no-qualifier
#: Hi/Lo is a house game): the games the agents' environments offer.
STANDARD_GAMES: tuple[str, ...] = tuple(ALIASES.values())


def check_game(game: object) -> str:
    """Return the name of the game ``game`` names, else raise.

    Names are exact: ``"stud"``, ``"stud8"``, ``"razz"`` or ``"stud_hilo_noq"``,
    or one of the PHH codes in :data:`ALIASES`, which give the game's name.

    >>> check_game("stud")
    'stud'
    >>> check_game("F7S/8")
    'stud8'
    >>> check_game("Stud")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    studeval.errors.UnknownGameError: unknown game 'Stud'; expected one of ...
    >>> check_game("stud_hilo")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    studeval.errors.UnknownGameError: 'stud_hilo' is ambiguous: ... 'stud8' ... 'stud_hilo_noq' ...
    """
    if isinstance(game, str):
        if game in GAMES:
            return game
        alias = ALIASES.get(game)
        if alias is not None:
            return alias
    raise UnknownGameError(game)


def get_game(game: object) -> Game:
    """Return the :class:`Game` record of a game name.

    >>> get_game("stud").title
    'Seven Card Stud'
    """
    return GAMES[check_game(game)]


def card_key(code: int, order: CardOrder) -> int:
    """Return a sort key for one card code under a card order.

    Larger keys are higher cards; rank counts first, then suit (clubs lowest).
    Under ``"ace_low"`` the ace is the lowest rank, so the ace of clubs is the
    lowest card and the king of spades the highest.

    >>> card_key(51, "ace_high") > card_key(47, "ace_high")  # As above Ks
    True
    >>> card_key(48, "ace_low") < card_key(0, "ace_low")  # Ac below 2c
    True
    """
    if order == "ace_high":
        return code
    # Rank 12 (ace) becomes 0 and every other rank moves up one; suit unchanged.
    return ((code // 4 + 1) % 13) * 4 + code % 4
