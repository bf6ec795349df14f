"""PartyPoker text hand histories: found, and refused with the reason.

PartyPoker writes the hero's cards only (``Dealt to Hero [  3h 8c 7c ]``), never
another player's up cards before the showdown. The bring-in and the order of play on
every street depend on those cards, so no hand can be replayed and checked; each is
refused with that reason, and a directory of them is counted as refused, not as
unknown text.

>>> from studeval.histories import read
>>> text = '''***** Hand History for Game 1 *****
... $0.50/$1 USD 7 Card Stud - Wednesday, December 02, 12:00:00 EDT 2026
... Table Example (Real Money)
... Seat 1: Ann ( $10 USD )
... Seat 2: Bob ( $10 USD )
... '''
>>> refused = next(read(text, errors="collect"))
>>> type(refused).__name__, str(refused).split(": ")[1]
('HistoryError', "PartyPoker shows no other player's up cards")
"""

from __future__ import annotations

import re

from studeval.histories._grammar import Grammar, Header
from studeval.histories._room import Room
from studeval.histories._text import MONEY, money
from studeval.histories._wording import Wording

__all__ = ["GRAMMAR", "ROOM", "WORDS"]

_HEAD = re.compile(r"^\*{5} Hand History for Game (?P<id>\d+) \*{5}\s*$")
_STAKES = re.compile(rf"(?P<small>{MONEY})/(?P<big>{MONEY})")


def _header(lines: list[str]) -> Header:
    found = _HEAD.match(lines[0])
    if not found:
        raise ValueError("not a PartyPoker hand")
    text = lines[1] if len(lines) > 1 else ""
    lowered = text.lower()
    game = None
    if "7 card stud" in lowered:
        game = "stud8" if "hi-lo" in lowered or "hi/lo" in lowered else "stud"
    elif "razz" in lowered:
        game = "razz"
    stakes = _STAKES.search(text)
    return Header(
        hand_id=found["id"], game=game, game_text=text.split(" - ")[0],
        small_bet=money(stakes["small"]) if stakes else money("0"),
        big_bet=money(stakes["big"]) if stakes else money("0"),
    )  # fmt: skip


#: A PartyPoker hand's seat lines and first street marker, in the slot notation
#: (studeval.histories._wording): enough to find its hands and refuse them.
WORDS = Wording(
    seat=("Seat {seat}: {name} ({? }{stack}{? {code}}{? }){rest}",),
    streets={3: ("** Dealing **{rest}",)},
    lines=(),
)

GRAMMAR = Grammar(
    site="PartyPoker",
    start=_HEAD,
    header=_header,
    words=WORDS,
    preamble=r"Game #\d+ starts\.|#Game No : \d+",
    refused=(
        "PartyPoker shows no other player's up cards: the bring-in and the order of "
        "play cannot be replayed"
    ),
)


#: The room, as the list of rooms (studeval.histories.rooms.ROOMS) holds it.
ROOM = Room(
    site="PartyPoker",
    about="found, and refused: it writes no other player's up cards",
    formats=(GRAMMAR,),
)
