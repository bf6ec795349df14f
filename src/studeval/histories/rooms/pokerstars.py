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
import datetime
import functools
import re
from collections.abc import Callable, Sequence
from decimal import Decimal

from studeval import _core
from studeval.engine import StudHand
from studeval.histories._grammar import SUMMARY, Grammar, Header
from studeval.histories._room import Room
from studeval.histories._text import MONEY, currency_of, cut, moment, money, zone_of, zoned
from studeval.histories._wording import Wording
from studeval.histories._writer import Table, write_hand

__all__ = ["GRAMMAR", "PHRASES", "PHRASES_HOME", "ROOM", "WORDS", "write", "write_home"]

_GAMES = (("7 card stud hi/lo", "stud8"), ("7 card stud", "stud"), ("razz", "razz"))
# Home Games write "PokerStars Home Game Hand #...: {the club's name} ...".
_HEAD = re.compile(r"^PokerStars (?:Zoom |Home Game )?(?:Game|Hand) #(?P<id>\d+):\s*(?P<rest>.*)$")
_CLUB = re.compile(r"^\{[^}]*\}\s*")
_STAKES = re.compile(rf"\((?:[^()]*?, )?(?P<small>{MONEY})/(?P<big>{MONEY})(?P<cur> [A-Z]{{3}})?\)")
_CLOCK = r"(\d{4})/(\d{1,2})/(\d{1,2}) (\d{1,2}):(\d{2}):(\d{2})"
_TIME = re.compile(_CLOCK + r"(?: ([A-Z]+))?")
#: The hand's time again in ET, in brackets right after its time in the player's zone
#: (matched from the bracket's inside).
_ET_AFTER = re.compile(rf"(?<= \[)(?:{_CLOCK}) ET(?=\])")


_TOURNAMENT = re.compile(r"tournament #(\d+)")
_TABLE = re.compile(r"^Table '(?P<table>[^']*)'")


#: The starts of a summary's lines, every game's (a mixed-game file's hold'em hand
#: run twice writes its boards): the pot, the seats, the boards.
_SUMMARY_LINES = r"Total pot |Seat \d+: |Board \[|Hand was run |(?:FIRST|SECOND|THIRD) Board \["

#: How the first line of most hands starts: read without _HEAD (a third of its time).
_PLAIN_HEAD = "PokerStars Hand #"


def _header(lines: list[str]) -> Header:
    line = lines[0]
    colon = line.find(":", len(_PLAIN_HEAD)) if line.startswith(_PLAIN_HEAD) else -1
    if colon > len(_PLAIN_HEAD) and line[len(_PLAIN_HEAD) : colon].isdecimal():
        # As _HEAD reads it: \d is a Unicode decimal digit (isdecimal), and \s* the
        # white space str.lstrip strips.
        hand_id, rest = line[len(_PLAIN_HEAD) : colon], line[colon + 1 :].lstrip()
    else:
        found = _HEAD.match(line)
        if not found:
            raise ValueError("not a PokerStars hand")
        hand_id, rest = found["id"], found["rest"]
    if rest.startswith("{"):
        rest = _CLUB.sub("", rest)  # a Home Game club's name is no game or stakes
    when = _first_time(rest)
    played_at = None if when is None else _played_at(when)
    # The rest of the header is the same hand after hand: read once. (The time,
    # cut out of the key, is no part of the game, the stakes or the tournament; nor
    # the same time in ET that most exports add, "[2026/12/02 9:05:00 ET]", without
    # which no key would be read twice.)
    eastern = None if when is None else _ET_AFTER.match(rest, when.end() + 2)
    if eastern is not None and played_at is not None and _unsure(played_at):
        played_at = _exact(played_at, eastern.group(1, 2, 3, 4, 5, 6))
    try:
        table = _table_header(cut(rest, when, eastern), tuple(lines[1:]))
    except ValueError:
        raise ValueError(f"no stakes in {rest!r}") from None
    if "\0" in table.game_text:  # the time within the game's words: the hand's own
        return table.of_hand(hand_id, played_at, game_text=rest.split(" - ")[0].strip())
    return table.of_hand(hand_id, played_at)


#: A table's header by its bytes with the hand id and times cut out
#: (:func:`_header_bytes`): every header of the table's hands after the first.
_TABLES: dict[bytes, Header] = {}
#: The tables kept at most: a file's tables are few; past this all are forgotten
#: (simpler than an LRU), each read again at its next hand. Memory stays small.
_MOST_TABLES = 1024
_PLAIN_PREFIX = _PLAIN_HEAD.encode()


def _header_bytes(text: bytes) -> Header:
    """:func:`_header` of the header's bytes, the same header; the C core finds the
    hand id and the time (``se_hist_stamp_of``), and what else the header says is
    read once a table (:func:`_header`, of the first hand's lines): 2.0 µs a header
    instead of 5.0 on a Zen 4. A first line the core is not sure of (not
    "PokerStars Hand #", a club's name, no time, a byte of 0x80 or more or a control
    byte but white space: \\d and \\s read Unicode) is read by :func:`_header`
    alone.

    >>> first = _header_bytes(b"PokerStars Hand #7: Razz Limit ($1/$2 USD) - "
    ...                       b"2026/12/02 9:05:00 ET\\nTable 'Ida' 8-max\\n")
    >>> again = _header_bytes(b"PokerStars Hand #8: Razz Limit ($1/$2 USD) - "
    ...                       b"2026/12/02 9:06:10 ET\\nTable 'Ida' 8-max\\n")
    >>> again.hand_id, again.played_at.isoformat(), again.table, again.small_bet
    ('8', '2026-12-02T09:06:10-05:00', 'Ida', Decimal('1'))
    """
    stamp = _core.history_stamp(text, _PLAIN_PREFIX)  # (a tuple: the fastest to make)
    # A club's name, which _header cuts before it looks for the time, may hold a time
    # of its own: such a header is read from its text.
    key = None
    if stamp is not None and text[stamp[2] : stamp[2] + 1] != b"{":
        id_at, id_end, rest_at, time_at, time_end, zone_at, zone_end, again_at, again_end = (
            stamp[:9])  # fmt: skip
        # What the header says but the hand's id and time: NUL for each time (no
        # printable line holds one), as _header's key cuts them.
        after = text[time_end:again_at] + b"\0" + text[again_end:] if again_at >= 0 else (
            text[time_end:])  # fmt: skip
        key = text[id_end:time_at] + b"\0" + after
        table = _TABLES.get(key)
        if table is not None:
            zone = text[zone_at:zone_end].decode() if zone_at >= 0 else None
            year, month, day, hour, minute, second = stamp[9:]
            played_at = datetime.datetime(year, month, day, hour, minute, second,
                                          tzinfo=zone_of(zone))  # fmt: skip
            if again_at >= 0 and _unsure(played_at):
                eastern = _TIME.match(text[again_at:again_end].decode())
                if eastern is not None:
                    played_at = _exact(played_at, eastern.group(1, 2, 3, 4, 5, 6))
            return table.of_hand(text[id_at:id_end].decode(), played_at)
        # Kept only where the game's name ends before the time (else it holds the
        # time, each hand's own: _header's "\0" case).
        if text.find(b" - ", rest_at, time_at) < 0:
            key = None
    header = _header(text.decode().split("\n")[:-1])
    if key is not None:
        if len(_TABLES) >= _MOST_TABLES:
            _TABLES.clear()
        _TABLES[key] = header.of_hand(header.hand_id, header.played_at)  # its own copy
    return header


#: The months in which a zone a room names may change its clocks (north or south).
_CLOCKS_CHANGE = frozenset((3, 4, 9, 10, 11))


def _unsure(moment: datetime.datetime) -> bool:
    """Whether ``moment`` names no one instant: its zone is not known (a naive
    time), or its hour is one the clocks skip or repeat there.

    >>> _unsure(moment(["2026", "10", "25", "2", "15", "00"], "CET"))
    True
    >>> _unsure(moment(["2026", "10", "25", "4", "15", "00"], "CET"))
    False
    """
    if moment.tzinfo is None:
        return True
    if moment.month not in _CLOCKS_CHANGE or moment.hour > 3:  # no change: no need to ask
        return False
    return moment.replace(fold=1).utcoffset() != moment.utcoffset()


def _exact(played_at: datetime.datetime, eastern: Sequence[str]) -> datetime.datetime:
    """The hand's time from the same time in ET that the header adds (its clock's
    six numbers, ``eastern``), where ``played_at`` (in the player's zone) names no
    one instant; ``played_at`` where the ET time is no surer (its own repeated hour).

    >>> local = moment(["2026", "10", "25", "2", "15", "00"], "CET")  # twice that night
    >>> _exact(local, ["2026", "10", "24", "21", "15", "00"]).isoformat()
    '2026-10-24T21:15:00-04:00'
    """
    again = moment(eastern, "ET")
    return played_at if _unsure(again) else again


def _played_at(when: re.Match[str]) -> datetime.datetime:
    """The time ``_TIME`` found, in its zone. Written "2026/12/02 09:05:00" (most
    are), it is read as ISO 8601 text: a third of :func:`moment`'s time. (Not an hour
    of 24: Python 3.14's ``fromisoformat`` reads "24:00:00" as the next midnight,
    which :func:`moment` refuses.)"""
    start = when.start()
    if when.end(6) - start == 19 and when.group(4) < "24":
        try:
            iso = datetime.datetime.fromisoformat(when.string[start : start + 19].replace("/", "-"))
        except ValueError:  # digits fromisoformat does not read: moment reads them
            pass
        else:
            return zoned(iso, when.group(7))
    return moment(when.group(1, 2, 3, 4, 5, 6), when.group(7))


def _first_time(text: str) -> re.Match[str] | None:
    """``_TIME.search(text)``, found faster.

    A text that starts as the last one read did, up to where its time began, and
    has a time there, has its first time there (the hands of a table: their game
    and stakes, then the time). No time can start earlier: one wholly before that
    place would have been the last text's; one reaching past it would cover the
    year's four digits with at most the seconds' two, the only digits of a time
    followed by no "/", ":" or " ", and so would have been the last text's too.
    Else, a time's match has a "/" four places in, so the first "/" where it
    matches starts the first match.
    """
    global _last_before_time
    before = _last_before_time  # (one object: another thread's is as good)
    if text.startswith(before):
        found = _TIME.match(text, len(before))
        if found:
            return found
    slash = text.find("/", 4)
    while slash >= 0:
        found = _TIME.match(text, slash - 4)
        if found:
            _last_before_time = text[: found.start()]
            return found
        slash = text.find("/", slash + 1)
    return None


#: The text before the first time of the last header whose time was searched for
#: (:func:`_first_time`); none yet: a text never starts with a NUL.
_last_before_time = "\0"


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

GRAMMAR = Grammar(site="PokerStars", start=_HEAD, header=_header, header_bytes=_header_bytes,
                  words=WORDS, strict_prefix=": ", last_section=SUMMARY,
                  last_section_lines=_SUMMARY_LINES, blank_line_ends=True)  # fmt: skip

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
