"""OnGame (bwin, PartyPoker's later network) text hand histories.

A hand runs from ``***** History for hand R5-82086688-607 *****`` to its ``End of
hand`` line; streets are ``Dealing pocket cards``, ``Dealing 4th street`` ...
``Dealing river``, each after a ``---`` line, and a card not seen is ``-``. The
bring-in seat writes ``small bring in`` for the bring-in and ``big bring in`` when it
completes instead. In ``raises $A to $B``, ``A`` is what the raise adds and ``B``
what the player has bet in the hand. An uncalled bet given back has no line. Who won
what is written only in the summary (``Main pot: $2.35 won by Hero ($2.24)``, each
pot before the rake, ``Side pot 1: ...`` after it), with the cards shown beside the
seats.

>>> from studeval.histories import Table, read
>>> from studeval.play import random_hand
>>> hand = random_hand("stud8", 3, seed=11)
>>> history = next(read(ROOM.write(hand, Table(names=["Ann", "Bob", "Cy"]))))
>>> history.site, history.game, history.hand.stacks == hand.stacks
('OnGame', 'stud8', True)
"""

from __future__ import annotations

import datetime
import functools
import re
from collections.abc import Callable

from studeval.engine import StudHand
from studeval.histories._grammar import Grammar, Header, section_lines
from studeval.histories._room import Room
from studeval.histories._text import MONEY, currency_of, money, zoned
from studeval.histories._wording import Wording
from studeval.histories._writer import Table, write_hand

__all__ = ["GRAMMAR", "PHRASES", "ROOM", "WORDS", "write"]

_HEAD = re.compile(r"^\*{5} History for hand (?P<id>\S+) \*{5}\s*$")
_TABLE = re.compile(rf"^Table: (?P<table>.*?) \[\d+\] \((?P<limit>[A-Z_]+) (?P<game>[A-Z_0-9]+) "
                    rf"(?P<small>{MONEY})/(?P<big>{MONEY})"
                    rf"(?:, ante: (?P<ante>{MONEY}))?")  # fmt: skip
_TIME = re.compile(r"(\w{3}) (\d{1,2}) (\d{1,2}):(\d{2}):(\d{2}) (\S+) (\d{4})")
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
_GAMES = {"SEVEN_CARD_STUD": "stud", "SEVEN_CARD_STUD_HI_LO": "stud8", "RAZZ": "razz"}


def _when(text: str) -> datetime.datetime | None:
    """``Mon Sep 13 22:31:30 GMT+0100 2010`` (or a zone's name: ``CET``)."""
    found = _TIME.search(text)
    if not found or found.group(1) not in _MONTHS:
        return None
    month, day, hour, minute, second, zone, year = found.groups()
    moment = datetime.datetime(int(year), _MONTHS.index(month) + 1, int(day), int(hour),
                               int(minute), int(second))  # fmt: skip
    offset = _offset(zone)
    return zoned(moment, zone) if offset is None else moment.replace(tzinfo=offset)


@functools.lru_cache(maxsize=64)
def _offset(zone: str) -> datetime.timezone | None:
    """The zone of ``GMT+0100`` (or ``GMT-05:00``); None for a zone's name."""
    offset = re.fullmatch(r"GMT([+-])(\d{2}):?(\d{2})", zone)
    if offset is None:
        return None
    minutes = int(offset.group(2)) * 60 + int(offset.group(3))
    sign = 1 if offset.group(1) == "+" else -1
    return datetime.timezone(datetime.timedelta(minutes=sign * minutes))


def _header(lines: list[str]) -> Header:
    found = _HEAD.match(lines[0])
    if not found:
        raise ValueError("not an OnGame hand")
    # The first "Table:" line that reads as one, read once a table.
    same = next((h for line in lines if line.startswith("Table: ")
                 and (h := _table_header(line)) is not None), None)  # fmt: skip
    if same is None:
        raise ValueError("no 'Table:' line")
    started = next((line for line in lines if line.startswith("Start hand: ")), "")
    return same.of_hand(found["id"], _when(started))


@functools.lru_cache(maxsize=256)
def _table_header(line: str) -> Header | None:
    """What a ``Table:`` line says of every hand at the table (no hand id, no time);
    None where it is none."""
    table = _TABLE.match(line)
    if table is None:
        return None
    game = _GAMES.get(table["game"]) if table["limit"] == "LIMIT" else None
    return Header(
        hand_id="", game=game, game_text=f"{table['limit']} {table['game']}",
        small_bet=money(table["small"]), big_bet=money(table["big"]),
        ante=money(table["ante"]) if table["ante"] else None, table=table["table"],
        currency=currency_of(table["small"]),
    )  # fmt: skip


_MARK = "%s{? [{cards}]}{?:}"
#: Every line of an OnGame hand but the header, in the slot notation
#: (studeval.histories._wording). "raises $A to $B": A is what the raise adds, B
#: the player's bets in the hand.
WORDS = Wording(
    seat=("Seat {seat}: {name} ({stack})",),
    streets={3: (_MARK % "Dealing pocket cards",), 4: (_MARK % "Dealing 4th street",),
             5: (_MARK % "Dealing 5th street",), 6: (_MARK % "Dealing 6th street",),
             7: (_MARK % "Dealing river",), 9: (_MARK % "Summary",)},
    lines=(
        ("ante", "{name} posts ante {amount}{all_in}"),
        ("deal", "Dealing to {name}: [{cards}]"),
        ("bring_in", "{name} small bring in {amount}{all_in}"),
        ("complete", "{name} big bring in {to}{all_in}"),
        ("bet", "{name} bets {amount}{all_in}"),
        ("raise", "{name} raises {added} to {in_hand:money}{all_in}"),
        ("call", "{name} calls {amount}{all_in}"),
        ("check", "{name} checks"),
        ("fold", "{name} folds"),
    ),
    reveals=("Seat {number}: {name} ({money}), net: {text}, [{cards}]{rest}",),
    totals=("{Main|Side} pot{? {number}}: {pot_part} won by {rest}", "Rake taken: {rake}"),
    # Many winners on one line ("won by Ann ($1), Bob ($1)"): found wherever they are.
    summary=("{*}{won by |, }{name} ({won})",),
    ignore=("{text} {is sitting out|sits out|is back|has timed out|is disconnected|is connected"
            "|joined the table|left the table}{rest}",),
    all_in=(" [all in]",),
)  # fmt: skip

GRAMMAR = Grammar(site="OnGame", start=_HEAD, header=_header, words=WORDS,
                  returns_unwritten=True, strict_prefix=" ", last_section="Summary:",
                  last_section_lines=section_lines(
                      "(?:Main|Side) pot", "Rake taken: ", r"Seat \d+: ", r"\*{5} End of hand "),
                  )  # fmt: skip


_GAME_NAMES = {game: name for name, game in _GAMES.items()}  # the reader's table, turned


def _write_header(hand: StudHand, table: Table, money: Callable[[int], str]) -> list[str]:
    s = hand.stakes
    hero = [f"User: {table.names[table.hero]}"] if table.hero is not None else []
    return [
        f"***** History for hand R5-{table.hand_id} *****",
        f"Start hand: {table.played_at:%a %b %d %H:%M:%S} GMT+0000 {table.played_at:%Y}",
        f"Table: {table.table} [1] (LIMIT {_GAME_NAMES[hand.game]} {money(s.small_bet)}/"
        f"{money(s.big_bet)}, ante: {money(s.ante)}, Real money)",
        *hero,
        f"Players in round: {hand.seats}",
    ]


#: How OnGame words a hand (used by :func:`write`). A completion is written as a
#: raise (OnGame's "big bring in" is the bring-in seat's completion, read too).
PHRASES = WORDS.phrases(
    header=_write_header,
    streets={
        3: "---\nDealing pocket cards",
        4: "---\nDealing 4th street",
        5: "---\nDealing 5th street",
        6: "---\nDealing 6th street",
        7: "---\nDealing river",
    },
    community="---\nDealing river [{card}]",
    deal_down_up="Dealing to {name}: [{cards} {new}]",
    deal_up="Dealing to {name}: [-, -, {new}]",
    deal_more="Dealing to {name}: [{new}]",
    complete="{name} raises {added} to {in_hand}{all_in}",
    returned="",
    show="Seat {seat}: {name} ({stack}), net: {net}, [{cards}]",
    muck="",
    collect="{name} ({amount})",
    collects_line="Main pot: {pot} won by {winners}\nRake taken: {rake}",
    showdown="",
    summary="---\nSummary:",
    total="",
    collect_in_summary=True,
    shows_in_summary=True,
    returns_unwritten=True,
)


def write(hand: StudHand, table: Table) -> str:
    """A finished hand as OnGame writes it.

    >>> from studeval.histories import read
    >>> from studeval.play import random_hand
    >>> hand = random_hand("stud8", 4, seed=6)
    >>> text = write(hand, Table(names=["Ann", "Bob", "Cy", "Di"]))
    >>> next(read(text)).hand.stacks == hand.stacks
    True
    """
    return write_hand(hand, table, PHRASES)


#: The room, as the list of rooms (studeval.histories.rooms.ROOMS) holds it.
ROOM = Room(
    site="OnGame",
    about="bwin and PartyPoker's later network",
    formats=(GRAMMAR,),
    writers={"OnGame": write},
)
