"""Full Tilt Poker text hand histories ("completes it to", "raises to"), cash games
and tournaments."""

from __future__ import annotations

import datetime
import functools
import re
from collections.abc import Callable

from studeval.engine import StudHand
from studeval.histories._grammar import SUMMARY, Grammar, Header, section_lines
from studeval.histories._room import Room
from studeval.histories._text import MONEY, currency_of, cut, money, zoned
from studeval.histories._wording import Wording
from studeval.histories._writer import Table, write_hand

__all__ = ["GRAMMAR", "PHRASES", "ROOM", "WORDS", "write"]

_GAMES = (("stud h/l", "stud8"), ("stud hi/lo", "stud8"), ("5 card stud", None),
          ("stud hi", "stud"), ("razz", "razz"))  # fmt: skip
_HEAD = re.compile(r"^Full Tilt Poker (?:Game|Hand) #(?P<id>\d+):\s*(?P<rest>.*)$")
_STAKES = re.compile(rf"(?P<small>{MONEY})/(?P<big>{MONEY})(?: Ante (?P<ante>{MONEY}))?")
_TIME = re.compile(r"(\d{1,2}):(\d{2}):(\d{2}) ([A-Z]+) - (\d{4})/(\d{1,2})/(\d{1,2})")


def _header(lines: list[str]) -> Header:
    found = _HEAD.match(lines[0])
    if not found:
        raise ValueError("not a Full Tilt hand")
    rest = found["rest"]
    when = _TIME.search(rest)
    played_at = None
    if when:
        h, mi, s = (int(x) for x in when.groups()[:3])
        y, mo, d = (int(x) for x in when.groups()[4:])
        played_at = zoned(datetime.datetime(y, mo, d, h, mi, s), when.group(4))
    # The rest is the same hand after hand: read once (the time cut out of the key).
    key = cut(rest, when)
    return _header_rest(key).of_hand(found["id"], played_at)


@functools.lru_cache(maxsize=256)
def _header_rest(rest: str) -> Header:
    """The header's game, limits, table, tournament and currency (``rest``: its
    first line after the hand id, the time cut out); no hand id and no time."""
    parts = rest.split(" - ")
    # The game is the part that names its limit ("Limit Razz"), not a table named so.
    game_text = next((p for p in parts if re.match(r"\s*(?:Limit|Pot Limit|No Limit) ", p)), rest)
    game = next((name for text, name in _GAMES if text in game_text.lower()), None)
    stakes = next((m for p in parts if (m := _STAKES.fullmatch(p.strip()))), None)
    if stakes is None:
        raise ValueError(f"no stakes in {rest!r}")
    table = re.search(r"Table (?P<table>.+?)(?: \(.*\))?$", parts[0])
    tournament = re.search(r"\((\d+)\), Table", parts[0])
    return Header(
        hand_id="", game=game, game_text=game_text.strip(),
        small_bet=money(stakes["small"]), big_bet=money(stakes["big"]),
        ante=money(stakes["ante"]) if stakes["ante"] else None,
        table=table["table"] if table else None,
        tournament=tournament.group(1) if tournament else None,
        currency=None if tournament else currency_of(stakes.group(0)),
    )  # fmt: skip


_STREET = "*** %s ***{? [{cards}]}{rest}"
#: Every line of a Full Tilt hand but the header, in the slot notation
#: (studeval.histories._wording).
WORDS = Wording(
    seat=("Seat {seat}: {name} ({stack}){?, is sitting out}",),
    streets={3: (_STREET % "3RD STREET",), 4: (_STREET % "4TH STREET",),
             5: (_STREET % "5TH STREET",), 6: (_STREET % "6TH STREET",),
             7: (_STREET % "7TH STREET",), 8: (_STREET % "SHOW DOWN",), 9: (_STREET % "SUMMARY",)},
    lines=(
        ("ante", "{name} antes {amount}{all_in}"),
        ("deal", "Dealt to {name} {allcards}"),
        ("bring_in", "{name} brings in for {amount}{all_in}"),
        ("complete", "{name} completes it to {to}{all_in}"),
        ("bet", "{name} bets {amount}{all_in}"),
        ("raise", "{name} raises to {to}{all_in}"),
        ("call", "{name} calls {amount}{all_in}"),
        ("check", "{name} checks"),
        ("fold", "{name} folds"),
        ("return", "Uncalled bet of {amount} returned to {name}"),
        ("show", "{name} shows [{cards}]{rest}"),
        ("muck", "{name} mucks{rest}"),
        ("collect", "{name} {wins|ties for} {the |}{?high |low }{?main |side }pot{? #{number}} "
                    "({amount}){rest}"),
    ),
    reveals=("{name} shows [{cards}]{rest}", "Seat {seat}: {name} {showed|mucked} [{cards}]{rest}"),
    totals=("Total pot {pot} {text}| Rake {rake}", "Total pot {pot}{rest}"),
    all_in=(", and is all in", " and is all in"),
)  # fmt: skip

GRAMMAR = Grammar(site="Full Tilt Poker", start=_HEAD, header=_header, words=WORDS,
                  last_section=SUMMARY,
                  last_section_lines=section_lines(r"Seat \d+: ", "Total pot ",
                                                   "Board: "))  # fmt: skip

_TITLES = {"stud": "Limit Stud Hi", "stud8": "Limit Stud H/L", "razz": "Limit Razz"}


def _write_header(hand: StudHand, table: Table, money: Callable[[int], str]) -> list[str]:
    s = hand.stakes
    at = table.played_at
    ante = f" Ante {money(s.ante)}" if s.ante else ""
    return [
        f"Full Tilt Poker Game #{table.hand_id}: Table {table.table} - "
        f"{money(s.small_bet)}/{money(s.big_bet)}{ante} - {_TITLES[hand.game]} - "
        f"{at:%H:%M:%S} ET - {at:%Y/%m/%d}"
    ]


#: How Full Tilt Poker words a hand (used by :func:`write`). Full Tilt's wording of
#: a community card is not known to us; it is written as PokerStars does.
PHRASES = WORDS.phrases(
    header=_write_header,
    community="*** 7TH STREET *** [{card}]",
    deal_down_up="Dealt to {name} [{cards}] [{new}]",
    deal_up="Dealt to {name} [{new}]",
    deal_more="Dealt to {name} [{cards}] [{new}]",
    total="Total pot {pot} | Rake {rake}",
)


def write(hand: StudHand, table: Table) -> str:
    """A finished hand as Full Tilt Poker writes it (``table``: names, ids, money).

    >>> from studeval.histories import read
    >>> from studeval.play import random_hand
    >>> hand = random_hand("razz", 4, seed=3)
    >>> history = next(read(write(hand, Table(names=["Ann", "Bob", "Cy", "Di"]))))
    >>> history.site, history.hand.stacks == hand.stacks
    ('Full Tilt Poker', True)
    """
    return write_hand(hand, table, PHRASES)


#: The room, as the list of rooms (studeval.histories.rooms.ROOMS) holds it.
ROOM = Room(
    site="Full Tilt Poker",
    about="cash games and tournaments",
    formats=(GRAMMAR,),
    writers={"Full Tilt Poker": write},
)
