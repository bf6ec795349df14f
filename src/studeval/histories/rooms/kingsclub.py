"""KingsClub text hand histories (its mixed games' stud rounds).

A hand starts ``#39969428: Limit Seven Card Stud Hi-Lo - 40/80``, then the time and
``Table '8 Game Mix'``. KingsClub marks no 3rd street: its ``*** 3RD STREET ***``
starts the fourth card, and so on to ``*** 6TH STREET ***`` for the seventh. Every
amount of a bet, a raise and a call is the street total the player reaches
(``Player0 calls 40`` after a bring-in of 10 puts in 30). An uncalled bet given back
has no line; the summary gives each seat's stack and net, the rake (``Rake 1``) and
what each winner took (``Hero wins pot (99)``). The text names no currency: its
hands are read in chips (``currency`` None). Its 2-7 razz (deuce-to-seven lowball
stud) is another game's hand, reported with that reason: studeval does not play it.

>>> from studeval.histories import Table, read
>>> from studeval.play import random_hand
>>> hand = random_hand("stud8", 3, seed=11)
>>> history = next(read(ROOM.write(hand, Table(names=["Ann", "Bob", "Cy"]))))
>>> history.site, history.game, history.hand.stacks == hand.stacks
('KingsClub', 'stud8', True)
"""

from __future__ import annotations

import dataclasses
import datetime
import re
from collections.abc import Callable

from studeval.engine import StudHand
from studeval.histories._grammar import SUMMARY, Grammar, Header, section_lines
from studeval.histories._room import Room
from studeval.histories._text import MONEY, money
from studeval.histories._wording import Wording
from studeval.histories._writer import Table, write_hand

__all__ = ["GRAMMAR", "PHRASES", "ROOM", "WORDS", "write"]

_HEAD = re.compile(
    rf"^#(?P<id>\d+): (?P<game>(?:Limit|No Limit|Pot Limit) .+?) - (?P<small>{MONEY})/"
    rf"(?P<big>{MONEY})\s*$"
)
_GAMES = {"limit seven card stud": "stud", "limit seven card stud hi-lo": "stud8",
          "limit razz": "razz"}  # fmt: skip
_TIME = re.compile(r"^(\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)\s*$")
_TABLE = re.compile(r"^Table '(?P<table>.*)'\s*$")


def _when(found: re.Match[str]) -> datetime.datetime:
    year, month, day, hour, minute, second = map(int, found.groups())
    return datetime.datetime(year, month, day, hour, minute, second)


def _header(lines: list[str]) -> Header:
    found = _HEAD.match(lines[0])
    if found is None:
        raise ValueError("not a KingsClub hand")
    game_text = found["game"].strip()
    when = next((m for line in lines[1:] if (m := _TIME.match(line))), None)
    table = next((m["table"] for line in lines[1:] if (m := _TABLE.match(line))), None)
    refused = None
    if game_text.lower() == "limit 2-7 razz":
        refused = ("2-7 razz (deuce-to-seven lowball stud) is not a game studeval plays: "
                   "its hands are reported as another game's, not replayed")  # fmt: skip
    return Header(
        hand_id=found["id"], game=_GAMES.get(game_text.lower()), game_text=game_text,
        small_bet=money(found["small"]), big_bet=money(found["big"]), table=table,
        played_at=_when(when) if when else None,
        refused=refused,
    )  # fmt: skip


_STREET = "*** %s ***{? [{cards}]}{rest}"
#: Every line of a KingsClub hand but the header, in the slot notation
#: (studeval.histories._wording). Its street markers name the street before.
WORDS = Wording(
    seat=("Seat {seat}: {name} ({stack})",),
    streets={4: (_STREET % "3RD STREET",), 5: (_STREET % "4TH STREET",),
             6: (_STREET % "5TH STREET",), 7: (_STREET % "6TH STREET",),
             9: (_STREET % "SUMMARY",)},
    lines=(
        ("ante", "{name}: posts ante {amount}{all_in}"),
        ("deal", "Dealt to {name}: [{cards}]"),
        ("bring_in", "{name} brings in for {amount}{all_in}"),
        ("bet", "{name} bets {to}{all_in}"),
        ("raise", "{name} raises to {to}{all_in}"),
        ("call", "{name} calls {to}{all_in}"),
        ("check", "{name} checks"),
        ("fold", "{name} folds"),
        ("show", "{name} shows [{cards}]"),
        ("muck", "{name} mucks{rest}"),
    ),
    reveals=("{name} shows [{cards}]{rest}",),
    totals=("Rake {rake}",),
    summary=("{name} wins pot ({won}){rest}",),
    all_in=(", and is all in",),
)  # fmt: skip

GRAMMAR = Grammar(site="KingsClub", start=_HEAD, header=_header, words=WORDS, first_street=3,
                  returns_unwritten=True, last_section=SUMMARY,
                  last_section_lines=section_lines(r"Seat \d+: ", "Rake ",
                                                   r"[^\n]* wins pot \("))  # fmt: skip

_TITLES = {"stud": "Seven Card Stud", "stud8": "Seven Card Stud Hi-Lo", "razz": "Razz"}


def _write_header(hand: StudHand, table: Table, money: Callable[[int], str]) -> list[str]:
    s = hand.stakes
    return [f"#{table.hand_id}: Limit {_TITLES[hand.game]} - {money(s.small_bet)}/"
            f"{money(s.big_bet)}", f"{table.played_at:%Y-%m-%d %H:%M:%S}",
            f"Table '{table.table}'"]  # fmt: skip


#: How KingsClub words a hand (used by :func:`write`). Its wording of a completion
#: and of a community card is not known to us: a completion is written as a bet to
#: its total, a community card on the 7th card's street marker.
PHRASES = WORDS.phrases(
    header=_write_header,
    community="*** 6TH STREET *** [{card}]",
    deal_down_up="Dealt to {name}: [{cards} {new}]",
    deal_up="Dealt to {name}: [X X {new}]",
    deal_more="Dealt to {name}: [{new}]",
    complete="{name} bets {to}{all_in}",
    returned="",
    collect="{name} wins pot ({amount})",
    returns_unwritten=True,
    collect_in_summary=True,
)


def write(hand: StudHand, table: Table) -> str:
    """A finished hand as KingsClub writes it (``table``: names, ids, the chip's
    money; no currency sign, as KingsClub writes none).

    >>> from studeval.histories import read
    >>> from studeval.play import random_hand
    >>> hand = random_hand("razz", 4, seed=3)
    >>> history = next(read(write(hand, Table(names=["Ann", "Bob", "Cy", "Di"]))))
    >>> history.site, history.currency, history.hand.stacks == hand.stacks
    ('KingsClub', None, True)
    """
    return write_hand(hand, dataclasses.replace(table, sign=""), PHRASES)


#: The room, as the list of rooms (studeval.histories.rooms.ROOMS) holds it.
ROOM = Room(
    site="KingsClub",
    about="its mixed games' stud, stud hi-lo and razz (its 2-7 razz reported: not a game "
    "studeval plays)",
    formats=(GRAMMAR,),
    writers={"KingsClub": write},
)
