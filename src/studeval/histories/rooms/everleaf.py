"""Everleaf Gaming text hand histories.

Amounts are written in brackets with the currency's code (``[€ 0.05 EURO]``); a
call's and a raise's amount is what the action adds, a completion's (``completes to
€0.05.``) the street total. Everleaf writes no line for an uncalled bet given back
and no rake: the winner's ``wins € 0.40 EURO from main pot`` is the pot less the
rake, so the rake is taken to be what the pots held less what was won. Files from
before August 2011 write no other player's up cards, and are refused for that (the
bring-in and the order of play depend on them).

>>> from studeval.histories import Table, read
>>> from studeval.play import random_hand
>>> hand = random_hand("razz", 3, seed=11)
>>> history = next(read(ROOM.write(hand, Table(names=["Ann", "Bob", "Cy"]))))
>>> history.site, history.game, history.hand.stacks == hand.stacks
('Everleaf', 'razz', True)
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable

from studeval.engine import StudHand
from studeval.histories._grammar import Grammar, Header, section_lines
from studeval.histories._room import Room
from studeval.histories._text import MONEY, currency_of, money
from studeval.histories._wording import Wording
from studeval.histories._writer import Table, write_hand

__all__ = ["GRAMMAR", "PHRASES", "ROOM", "WORDS", "write"]

_HEAD = re.compile(r"^Everleaf Gaming Game #(?P<id>\d+)\s*$")
_GAME = re.compile(rf"^(?P<small>{MONEY})/(?P<big>{MONEY}) (?P<game>.*?) - "
                   r"(\d{4})/(\d{2})/(\d{2}) - (\d{1,2}):(\d{2}):(\d{2})")  # fmt: skip
_GAMES = {"7 card stud": "stud", "7 card stud hi/lo": "stud8", "razz": "razz"}


def _header(lines: list[str]) -> Header:
    found = _HEAD.match(lines[0])
    if not found:
        raise ValueError("not an Everleaf hand")
    game = next((m for m in map(_GAME.match, lines) if m), None)
    if game is None:
        raise ValueError("no stakes line")
    table = next((line[6:].strip() for line in lines if line.startswith("Table ")), None)
    y, mo, d, h, mi, s = (int(x) for x in game.groups()[3:])
    return Header(
        hand_id=found["id"], game=_GAMES.get(game["game"].strip().lower()),
        game_text=game["game"], small_bet=money(game["small"]), big_bet=money(game["big"]),
        table=table, played_at=datetime.datetime(y, mo, d, h, mi, s),
        currency=currency_of(game["small"]),
    )  # fmt: skip


# What an action puts in, in brackets with the currency's code: "[€ 0.05 EURO]".
_PAID = "[{spaces}{amount}{spaces}{?{code}}{spaces}]"
_MARK = "{**|{+*}} Dealing %s {**|{+*}}{? [{cards}]}{rest}"
#: The lines that end a hand, which has no summary: who won what, and who showed
#: or did not show ("Ann wins $ 0.32 USD from main pot", "Bob does not show cards").
_WINS = r"[^\n]* wins [^\n]* from (?:the )?(?:main|side) pot[^\n]*"
_SHOWS = r"[^\n]* (?:shows \[|does not show cards)"

#: Every line of an Everleaf hand but the header, in the slot notation
#: (studeval.histories._wording).
WORDS = Wording(
    seat=("Seat {seat}: {name} ({spaces}{stack}{spaces}{?{code}}{spaces}){? is sitting out}",),
    streets={3: (_MARK % "down cards",), 4: (_MARK % "4th Street",), 5: (_MARK % "5th Street",),
             6: (_MARK % "6th Street",), 7: (_MARK % "River",)},
    streets_any_case=True,
    lines=(
        ("ante", "{name}: posts ante " + _PAID),
        ("deal", "Dealt to {name} [{cards}]{?.}"),
        ("bring_in", "{name}{?:} posts bring-in {amount}{.|}"),
        ("complete", "{name}{?:} completes to {to}{.|}"),
        ("bet", "{name}{:|} bets " + _PAID),
        ("raise", "{name}{?:} raises " + _PAID.replace("amount", "added")),  # what it adds
        ("call", "{name}{?:} calls " + _PAID),
        ("check", "{name}{?:} checks"),
        ("fold", "{name}{?:} folds"),
        ("show", "{name}{?:} shows [{cards}]{rest}"),
        ("muck", "{name}{?:} does not show cards"),
        ("collect", "{name}{?:} wins {amount}{? {code}} from {?the }{main|side} pot{rest}"),
    ),
    reveals=("{name}{?:} shows [{cards}]{rest}",),
    ignore=("{text} {is sitting out|sits out|is back|has timed out|is disconnected|is connected"
            "|has joined the table|has left the table}{rest}",),
)  # fmt: skip

GRAMMAR = Grammar(site="Everleaf", start=_HEAD, header=_header, words=WORDS,
                  returns_unwritten=True, rake_unwritten=True, strict_prefix=" ",
                  last_section=_WINS, last_section_lines=section_lines(_WINS, _SHOWS))  # fmt: skip


_TITLES = {"stud": "7 Card Stud", "stud8": "7 Card Stud Hi/Lo", "razz": "Razz"}


def _write_header(hand: StudHand, table: Table, money: Callable[[int], str]) -> list[str]:
    s = hand.stakes
    return [
        f"Everleaf Gaming Game #{table.hand_id}",
        f"***** Hand history for game #{table.hand_id} *****",
        f"{money(s.small_bet)}/{money(s.big_bet)} {_TITLES[hand.game]} - "
        f"{table.played_at:%Y/%m/%d - %H:%M:%S}",
        f"Table {table.table}",
        f"Total number of players: {hand.seats}",
    ]


#: How Everleaf words a hand (used by :func:`write`): amounts in brackets, no line
#: for an uncalled bet, no rake.
PHRASES = WORDS.phrases(
    header=_write_header,
    seat="Seat {seat}: {name} (  {stack} )",
    community="** Dealing River ** [{card}]",
    deal_down_up="Dealt to {name} [ {cards} {new} ].",
    deal_up="Dealt to {name} [ {new} ].",
    deal_more="Dealt to {name} [ {new} ].",
    returned="",
    show="{name} shows [ {cards} ]",
    collect="{name} wins {amount} from main pot",
    total="",
    returns_unwritten=True,
)


def write(hand: StudHand, table: Table) -> str:
    """A finished hand as Everleaf writes it.

    >>> from studeval.histories import read
    >>> from studeval.play import random_hand
    >>> hand = random_hand("stud", 3, seed=5, rake=2)  # a pot of 58: a rake of 2
    >>> history = next(read(write(hand, Table(names=["Ann", "Bob", "Cy"], sign="€"))))
    >>> history.hand.stacks == hand.stacks, history.rake == hand.result.rake
    (True, True)
    """
    return write_hand(hand, table, PHRASES)


#: The room, as the list of rooms (studeval.histories.rooms.ROOMS) holds it.
ROOM = Room(
    site="Everleaf",
    about="files since August 2011 (older ones write no up cards: refused)",
    formats=(GRAMMAR,),
    writers={"Everleaf": write},
)
