"""PokerStars text hand histories: cash games, tournaments, HORSE and 8-Game
headers, play money.

>>> from studeval.histories import Table, read
>>> from studeval.play import random_hand
>>> hand = random_hand("razz", 3, seed=11)
>>> history = next(read(ROOM.write(hand, Table(names=["Ann", "Bob", "Cy"]))))
>>> history.site, history.game, history.hand.stacks == hand.stacks
('PokerStars', 'razz', True)
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Callable
from decimal import Decimal

from studeval.engine import StudHand
from studeval.histories._grammar import Grammar, Header
from studeval.histories._room import Room
from studeval.histories._text import MONEY, currency_of, cut, moment, money
from studeval.histories._wording import Wording
from studeval.histories._writer import Table, write_hand

__all__ = ["GRAMMAR", "PHRASES", "PHRASES_HOME", "ROOM", "WORDS", "write", "write_home"]

_GAMES = (("7 card stud hi/lo", "stud8"), ("7 card stud", "stud"), ("razz", "razz"))
# Home Games write "PokerStars Home Game Hand #...: {the club's name} ...".
_HEAD = re.compile(r"^PokerStars (?:Zoom |Home Game )?(?:Game|Hand) #(?P<id>\d+):\s*(?P<rest>.*)$")
_CLUB = re.compile(r"^\{[^}]*\}\s*")
_STAKES = re.compile(rf"\((?:[^()]*?, )?(?P<small>{MONEY})/(?P<big>{MONEY})(?P<cur> [A-Z]{{3}})?\)")
_TIME = re.compile(r"(\d{4})/(\d{1,2})/(\d{1,2}) (\d{1,2}):(\d{2}):(\d{2})(?: ([A-Z]+))?")


_TOURNAMENT = re.compile(r"tournament #(\d+)")
_TABLE = re.compile(r"^Table '(?P<table>[^']*)'")


def _header(lines: list[str]) -> Header:
    found = _HEAD.match(lines[0])
    if not found:
        raise ValueError("not a PokerStars hand")
    rest = found["rest"]
    if rest.startswith("{"):
        rest = _CLUB.sub("", rest)  # a Home Game club's name is no game or stakes
    when = _first_time(rest)
    played_at = None
    if when:
        played_at = moment(when.group(1, 2, 3, 4, 5, 6), when.group(7))
    # The rest of the header is the same hand after hand: read once. (The time,
    # cut out of the key, is no part of the game, the stakes or the tournament.)
    try:
        table = _table_header(cut(rest, when), tuple(lines[1:]))
    except ValueError:
        raise ValueError(f"no stakes in {rest!r}") from None
    if "\0" in table.game_text:  # the time within the game's words: the hand's own
        return table.of_hand(found["id"], played_at, game_text=rest.split(" - ")[0].strip())
    return table.of_hand(found["id"], played_at)


def _first_time(text: str) -> re.Match[str] | None:
    """``_TIME.search(text)``, found faster: a time's match has a "/" four places in,
    so the first "/" where it matches starts the first match."""
    slash = text.find("/", 4)
    while slash >= 0:
        found = _TIME.match(text, slash - 4)
        if found:
            return found
        slash = text.find("/", slash + 1)
    return None


@functools.lru_cache(maxsize=256)
def _table_header(rest: str, lines: tuple[str, ...]) -> Header:
    """What a header says hand after hand (``rest``: its first line after the hand id,
    the time cut out; ``lines``: the lines after it), without the hand id and time."""
    game, small_bet, big_bet, table, tournament, currency = _header_rest(rest, lines)
    return Header(
        hand_id="", game=game, game_text=rest.split(" - ")[0].strip(), small_bet=small_bet,
        big_bet=big_bet, table=table, tournament=tournament, played_at=None, currency=currency,
    )  # fmt: skip


def _header_rest(
    rest: str, lines: tuple[str, ...]
) -> tuple[str | None, Decimal, Decimal, str | None, str | None, str | None]:
    """The game, the limits, the table, the tournament and the currency a header
    names (``rest``: its first line after the hand id, the time cut out)."""
    lowered = rest.lower()
    game = next((name for text, name in _GAMES if text in lowered), None)
    stakes = _STAKES.search(rest)
    if stakes is None:
        raise ValueError("no stakes")
    tournament = _TOURNAMENT.search(lowered)
    table = None
    for line in lines:
        named = _TABLE.match(line)
        if named:
            table = named["table"]
    currency = None if tournament else currency_of(stakes.group(0))
    return (game, money(stakes["small"]), money(stakes["big"]), table,
            tournament.group(1) if tournament else None, currency)  # fmt: skip


_STREET = "*** %s ***{? [{cards}]}{rest}"
#: Every line of a PokerStars hand but the header, in the slot notation
#: (studeval.histories._wording): read by the general and the C reader, and written.
WORDS = Wording(
    seat=("Seat {seat}: {name} ({stack} in chips{?, {notparen}})"
          "{? is sitting out| out of hand{rest}}",),
    streets={3: (_STREET % "3rd STREET",), 4: (_STREET % "4th STREET",),
             5: (_STREET % "5th STREET",), 6: (_STREET % "6th STREET",), 7: (_STREET % "RIVER",),
             8: (_STREET % "SHOW DOWN",), 9: (_STREET % "SUMMARY",)},
    lines=(
        ("ante", "{name}: posts the ante {amount}{all_in}"),
        ("deal", "Dealt to {name} {allcards}"),
        ("bring_in", "{name}: brings in for {amount}{all_in}"),
        ("complete", "{name}: completes it to {to}{all_in}"),
        ("bet", "{name}: bets {amount}{all_in}"),
        ("raise", "{name}: raises {by} to {to}{all_in}"),
        ("call", "{name}: calls {amount}{all_in}"),
        ("check", "{name}: checks"),
        ("fold", "{name}: folds{? {allcards}}"),
        ("return", "Uncalled bet ({amount}) returned to {name}"),
        ("show", "{name}: shows [{cards}]{rest}"),
        ("muck", "{name}: {mucks hand|doesn't show hand}{rest}"),
        ("collect", "{name} collected {amount} from {?the }{?main |side }pot{rest}"),
    ),
    reveals=("{name}: shows [{cards}]{rest}",
             "Seat {seat}: {name} {?({notparen}) }{showed|mucked} [{cards}]{rest}"),
    totals=("Total pot {pot} {text}| Rake {rake}", "Total pot {pot}{rest}"),
    ignore=("{text}: {is sitting out|sits out|is back|has returned|timed out|is disconnected"
            "|is connected}{rest}",),
    all_in=(" and is all-in",),
)  # fmt: skip

GRAMMAR = Grammar(site="PokerStars", start=_HEAD, header=_header, words=WORDS, strict_prefix=": ")

_TITLES = {"stud": "7 Card Stud", "stud8": "7 Card Stud Hi/Lo", "razz": "Razz"}


def _write_header(hand: StudHand, table: Table, money: Callable[[int], str]) -> list[str]:
    s = hand.stakes
    at = table.played_at.strftime("%Y/%m/%d %H:%M:%S")
    currency = " USD" if table.sign == "$" else ""
    return [
        f"PokerStars Hand #{table.hand_id}:  {_TITLES[hand.game]} Limit "
        f"({money(s.small_bet)}/{money(s.big_bet)}{currency}) - {at} ET",
        f"Table '{table.table}' 8-max",
    ]


#: How PokerStars words a hand (used by :func:`write`): a completion is written as
#: a raise of what it adds.
PHRASES = WORDS.phrases(
    header=_write_header,
    community="*** RIVER *** [{card}]",
    deal_down_up="Dealt to {name} [{cards} {new}]",
    deal_up="Dealt to {name} [{new}]",
    deal_more="Dealt to {name} [{cards}] [{new}]",
    complete="{name}: raises {by} to {to}{all_in}",
    collect="{name} collected {amount} from pot",
    total="Total pot {pot} | Rake {rake}",
)


def write(hand: StudHand, table: Table) -> str:
    """A finished hand as PokerStars writes it (``table``: names, ids, money).

    >>> from studeval.histories import read
    >>> from studeval.play import random_hand
    >>> hand = random_hand("stud", 3, seed=1)
    >>> text = write(hand, Table(names=["Ann", "Bob", "Cy"]))
    >>> next(read(text)).hand.stacks == hand.stacks
    True
    """
    return write_hand(hand, table, PHRASES)


def _write_home_header(hand: StudHand, table: Table, money: Callable[[int], str]) -> list[str]:
    first, *rest = _write_header(hand, table, money)
    first = first.replace("PokerStars Hand #", "PokerStars Home Game Hand #", 1)
    return [first.replace(":  ", f": {{{table.table}}} ", 1), *rest]  # the club, in braces


#: How PokerStars words a Home Game's hand: the same lines, the header naming the
#: club ("PokerStars Home Game Hand #...: {the club} ...").
PHRASES_HOME = dataclasses.replace(PHRASES, header=_write_home_header)


def write_home(hand: StudHand, table: Table) -> str:
    """A finished hand of a Home Game (a private club on PokerStars' software, its
    name ``table.table``), as PokerStars writes it; it reads back as a PokerStars hand.

    >>> from studeval.histories import read
    >>> from studeval.play import random_hand
    >>> hand = random_hand("stud8", 3, seed=1)
    >>> text = write_home(hand, Table(names=["Ann", "Bob", "Cy"], table="Dazzle's Room"))
    >>> text.split(":")[0], next(read(text)).hand.stacks == hand.stacks
    ('PokerStars Home Game Hand #1', True)
    """
    return write_hand(hand, table, PHRASES_HOME)


#: The room, as the list of rooms (studeval.histories.rooms.ROOMS) holds it.
ROOM = Room(
    site="PokerStars",
    about="cash games, tournaments, HORSE and 8-Game headers, Home Games, play money",
    formats=(GRAMMAR,),
    writers={"PokerStars": write, "PokerStars Home Games": write_home},
)
