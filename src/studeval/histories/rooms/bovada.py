"""Bovada (Bodog, Ignition) text hand histories: seats named by number ("Seat+4"),
"[ME]" after the hero's (no part of the name), and in older files no line between streets (a street
begins where the deals begin again). Bovada writes every seat's cards once the hand
is over; its limits are read from the wagers.

>>> from studeval.histories import Table, read
>>> from studeval.play import random_hand
>>> hand = random_hand("stud", 3, seed=11)
>>> history = next(read(ROOM.write(hand, Table(names=names(3, hero=0)))))
>>> history.site, history.game, history.hand.stacks == hand.stacks
('Bovada', 'stud', True)
"""

from __future__ import annotations

import dataclasses
import datetime
import functools
import re
from collections.abc import Callable

from studeval.engine import StudHand
from studeval.histories._grammar import SUMMARY, Grammar, Header, section_lines
from studeval.histories._room import Room
from studeval.histories._text import MONEY, currency_of, cut, money
from studeval.histories._wording import Wording
from studeval.histories._writer import Table, write_hand

__all__ = ["GRAMMAR", "PHRASES", "ROOM", "WORDS", "names", "write"]

_HEAD = re.compile(r"^\ufeff?(?:Bovada|Bodog|Ignition) Hand #(?P<id>\d+):? (?P<rest>.*)$")
_TIME = re.compile(r"(\d{4})-(\d{2})-(\d{2}) (\d{1,2}):(\d{2}):(\d{2})")


def _header(lines: list[str]) -> Header:
    found = _HEAD.match(lines[0])
    if not found:
        raise ValueError("not a Bovada hand")
    rest = found["rest"]
    when = _TIME.search(rest)
    played_at = None
    if when:
        y, mo, d, h, mi, sec = map(int, when.groups())
        played_at = datetime.datetime(y, mo, d, h, mi, sec)
    # The rest is the same hand after hand but its time: read once a table.
    return _header_rest(cut(rest, when)).of_hand(found["id"], played_at)


@functools.lru_cache(maxsize=256)
def _header_rest(rest: str) -> Header:
    """The game, limits, table, tournament and currency of a header's first line after
    the hand id (``rest``, its time cut out as one NUL); no hand id and no time."""
    game_text = rest.split(" - ")[0]
    lowered = game_text.lower()
    game = None
    if "fixed limit" in lowered:
        if "razz" in lowered:
            game = "razz"
        elif "7card" in lowered.replace(" ", ""):
            game = "stud8" if re.search(r"\bhi[-/]?lo\b", lowered) else "stud"
    stakes = re.search(rf"\((?P<small>{MONEY})/(?P<big>{MONEY})\)", rest)
    small = money(stakes["small"]) if stakes else money("0")
    big = money(stakes["big"]) if stakes else money("0")
    tournament = re.search(r"Tournament #(\d+)", rest)
    table = re.search(r"TBL#(\d+)", rest)
    return Header(
        hand_id="", game=game, game_text=game_text, small_bet=small, big_bet=big,
        table=table.group(1) if table else None,
        tournament=tournament.group(1) if tournament else None,
        currency=None if tournament else currency_of(rest),
    )  # fmt: skip


_MARK = " [ME]"
_STREET = "*** %s ***{? [{cards}]}{rest}"
#: Every line of a Bovada hand but the header, in the slot notation
#: (studeval.histories._wording). A name is a seat's ("Seat+4": the seat line's number
#: is in it), the hero's mark no part of it.
WORDS = Wording(
    seat=("{name}: {stack} in chips{rest}",),
    streets={3: (_STREET % "HOLE CARDS", _STREET % "3RD STREET"), 4: (_STREET % "4TH STREET",),
             5: (_STREET % "5TH STREET",), 6: (_STREET % "6TH STREET",),
             7: (_STREET % "7TH STREET", _STREET % "RIVER"), 8: (_STREET % "SHOW DOWN",),
             9: (_STREET % "SUMMARY",)},
    lines=(
        ("ante", "{name} : Ante chip {amount}"),
        ("deal", "{name} : Card dealt to a spot {allcards}"),
        ("bring_in", "{name} : {Bring_in chip|Big blind/Bring in}{?(timeout)} {amount}"),
        ("bet", "{name} : {Bets|Double bets|D bets} {amount}"),
        ("raise", "{name} : Raises {{by:money} to |}{to}"),
        ("all_in", "{name} : All-in{?(raise)} {amount}"),
        ("call", "{name} : {Call|Calls} {amount}"),
        ("check", "{name} : Checks{?(timeout)}"),
        ("fold", "{name} : Folds{?(timeout)}"),
        ("return", "{name} : Return uncalled portion of bet {amount}"),
        ("show", "{name} : Showdown [{cards}]{rest}"),
        ("muck", "{name} : {Mucks|Does not show} {rest}"),
        ("collect", "{name} : Hand {result|Result}{?-Side Pot} {amount}"),
    ),
    reveals=("{name} : {Showdown|Does not show|Mucks} [{cards}]{rest}",),
    totals=("Total Pot({pot}){? {|} Rake ({rake})}{rest}",),
    name_shape="Seat+{seat}",
    name_mark=_MARK,
)  # fmt: skip

GRAMMAR = Grammar(site="Bovada", start=_HEAD, header=_header, words=WORDS,
                  streets_by_deals=True, hero_mark=_MARK.strip(), last_section=SUMMARY,
                  last_section_lines=section_lines(r"Seat[+ ]\d+", "Total Pot"))  # fmt: skip

_TITLES = {"stud": "7CARD Stud", "stud8": "7CARD Stud Hi/Lo", "razz": "RAZZ"}


def _write_header(hand: StudHand, table: Table, money: Callable[[int], str]) -> list[str]:
    s = hand.stakes
    return [
        f"Bovada Hand #{table.hand_id}: {_TITLES[hand.game]} Fixed Limit "
        f"({money(s.small_bet)}/{money(s.big_bet)}) - {table.played_at:%Y-%m-%d %H:%M:%S}"
    ]


#: How Bovada words a hand (used by :func:`write`): every seat named by its number.
PHRASES = WORDS.phrases(
    header=_write_header,
    seat="{name}: {stack} in chips",
    community="*** 7TH STREET *** [{card}]",
    deal_down_up="{name} : Card dealt to a spot [{cards} {new}]",
    deal_up="{name} : Card dealt to a spot [X X {new}]",
    deal_more="{name} : Card dealt to a spot [{new}]",
    complete="{name} : Raises {to}",
    muck="{name} : Mucks hand",
    total="Total Pot({pot}) | Rake ({rake})",
)


def names(seats: int, hero: int | None = None) -> list[str]:
    """The names Bovada gives the seats: ``Seat+1``, ``Seat+2 [ME]`` for the hero.

    >>> names(3, hero=1)
    ['Seat+1', 'Seat+2 [ME]', 'Seat+3']
    """
    return [f"Seat+{seat + 1}" + (_MARK if seat == hero else "") for seat in range(seats)]


def write(hand: StudHand, table: Table) -> str:
    """A finished hand as Bovada writes it (``table.names`` as :func:`names` gives them;
    "[ME]" after ``table.hero``'s).

    >>> from studeval.histories import read
    >>> from studeval.play import random_hand
    >>> hand = random_hand("razz", 3, seed=5)
    >>> history = next(read(write(hand, Table(names=names(3), hero=0))))
    >>> history.hero, history.players[0].name, history.hand.stacks == hand.stacks
    ('Seat+1', 'Seat+1', True)
    """
    if table.hero is not None and _MARK not in table.names[table.hero]:
        marked = [*table.names]
        marked[table.hero] += _MARK
        table = dataclasses.replace(table, names=marked)
    return write_hand(hand, table, PHRASES)


#: The room, as the list of rooms (studeval.histories.rooms.ROOMS) holds it.
ROOM = Room(
    site="Bovada",
    about="Bovada, Bodog and Ignition, seats named by number",
    formats=(GRAMMAR,),
    writers={"Bovada": write},
)
