"""OnGame (bwin, PartyPoker's later network) text hand histories.

A hand runs from ``***** History for hand R5-82086688-607 *****`` to its ``End of
hand`` line; streets are ``Dealing pocket cards``, ``Dealing 4th street`` ...
``Dealing river``, each after a ``---`` line, and a card not seen is ``-``. The
bring-in seat writes ``small bring in`` for the bring-in and ``big bring in`` when it
completes instead. In ``raises $A to $B``, ``A`` is the raise's street total and
``B`` what the player has bet in the hand. Who won what is written only in the
summary (``Main pot: $2.35 won by Hero ($2.24)``, the pot before the rake), with the
cards shown beside the seats.

>>> from studeval.histories import read
>>> history = next(read(ONGAME_EXAMPLE))
>>> history.site, history.hand_id, history.table, history.hero, history.rake
('OnGame', 'R5-700123456-12', 'Kestrel', 'Hero', 40)
>>> history.hand.stacks, history.collected["Anna B"]
([2140, 6820], 680)
"""

from __future__ import annotations

import datetime
import re

from studeval.histories._grammar import Grammar, Header
from studeval.histories._text import MONEY, currency_of, money, zoned

__all__ = ["GRAMMAR", "ONGAME_EXAMPLE"]

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
    offset = re.fullmatch(r"GMT([+-])(\d{2}):?(\d{2})", zone)
    if offset:
        minutes = int(offset.group(2)) * 60 + int(offset.group(3))
        sign = 1 if offset.group(1) == "+" else -1
        return moment.replace(tzinfo=datetime.timezone(datetime.timedelta(minutes=sign * minutes)))
    return zoned(moment, zone)


def _header(lines: list[str]) -> Header:
    found = _HEAD.match(lines[0])
    if not found:
        raise ValueError("not an OnGame hand")
    table = next((m for m in map(_TABLE.match, lines) if m), None)
    if table is None:
        raise ValueError("no 'Table:' line")
    game = _GAMES.get(table["game"]) if table["limit"] == "LIMIT" else None
    started = next((line for line in lines if line.startswith("Start hand: ")), "")
    return Header(
        hand_id=found["id"], game=game, game_text=f"{table['limit']} {table['game']}",
        small_bet=money(table["small"]), big_bet=money(table["big"]),
        ante=money(table["ante"]) if table["ante"] else None, table=table["table"],
        played_at=_when(started), currency=currency_of(table["small"]),
    )  # fmt: skip


_NAME = r"(?P<name>.+?)"
GRAMMAR = Grammar(
    site="OnGame",
    start=_HEAD,
    header=_header,
    seat=re.compile(rf"^Seat (?P<seat>\d+): {_NAME} \((?P<stack>{MONEY})\)\s*$"),
    street=re.compile(r"^(?P<street>Dealing pocket cards|Dealing 4th street|Dealing 5th street|"
                      r"Dealing 6th street|Dealing river|Summary):?\s*$"),
    streets={"dealing pocket cards": 3, "dealing 4th street": 4, "dealing 5th street": 5,
             "dealing 6th street": 6, "dealing river": 7, "summary": 9},
    hints={"ante": " posts ante ", "deal": "Dealing to ", "bring_in": " small bring in ",
           "complete": " big bring in ", "bet": " bets ", "raise": " raises ",
           "call": " calls ", "check": " checks", "fold": " folds"},
    lines=(
        ("ante", re.compile(rf"^{_NAME} posts ante (?P<amount>{MONEY})$")),
        ("deal", re.compile(rf"^Dealing to {_NAME}: (?P<cards>\[[^\]]*\])\s*$")),
        ("bring_in", re.compile(rf"^{_NAME} small bring in (?P<amount>{MONEY})$")),
        ("complete", re.compile(rf"^{_NAME} big bring in (?P<to>{MONEY})$")),
        ("bet", re.compile(rf"^{_NAME} bets (?P<amount>{MONEY})$")),
        # "raises $A to $B": A is the street total, B the player's bets in the hand.
        ("raise", re.compile(rf"^{_NAME} raises (?P<to>{MONEY}) to {MONEY}$")),
        ("call", re.compile(rf"^{_NAME} calls (?P<amount>{MONEY})$")),
        ("check", re.compile(rf"^{_NAME} checks\s*$")),
        ("fold", re.compile(rf"^{_NAME} folds\s*$")),
    ),
    reveals=(re.compile(rf"^Seat \d+: {_NAME} \({MONEY}\), net: [^,]*, (?P<cards>\[[^\]]*\])"),),
    reveal_hints=(", net: ",),
    totals=re.compile(rf"^(?:Main pot: (?P<pot>{MONEY}) won by .*|Rake taken: (?P<rake>{MONEY}))$"),
    summary=(re.compile(rf"(?:won by |, )(?P<name>[^,]+?) \((?P<won>{MONEY})\)"),),
    strict_prefix=" ",
    ignore=(re.compile(r".* (?:is sitting out|sits out|is back|has timed out|"
                       r"is disconnected|is connected|joined the table|left the table).*$"),),
)  # fmt: skip


ONGAME_EXAMPLE = """\
***** History for hand R5-700123456-12 *****
Start hand: Wed Dec 02 12:00:00 GMT+0100 2026
Table: Kestrel [700123456] (LIMIT SEVEN_CARD_STUD $0.50/$1, ante: $0.10, Real money)
User: Hero
Players in round: 2
Seat 2: Hero ($25)
Seat 7: Anna B ($65)
Hero posts ante $0.10
Anna B posts ante $0.10
---
Dealing pocket cards
Dealing to Hero: [Kd, 9s, 2c]
Dealing to Anna B: [-, -, Qh]
Hero small bring in $0.25
Anna B raises $0.50 to $0.50
Hero calls $0.25
---
Dealing 4th street
Dealing to Hero: [Ts]
Dealing to Anna B: [Qc]
Anna B bets $1
Hero raises $2 to $2.50
Anna B calls $1
---
Dealing 5th street
Dealing to Hero: [4d]
Dealing to Anna B: [7h]
Anna B checks
Hero bets $1
Anna B calls $1
---
Dealing 6th street
Dealing to Hero: [8s]
Dealing to Anna B: [3c]
Anna B checks
Hero checks
---
Dealing river
Dealing to Hero: [Jc]
Anna B checks
Hero checks
---
Summary:
Main pot: $7.20 won by Anna B ($6.80)
Rake taken: $0.40
Seat 2: Hero ($21.40), net: -$3.60, [Kd, 9s, 2c, Ts, 4d, 8s, Jc] (HIGH_CARD KING)
Seat 7: Anna B ($68.20), net: +$3.20, [Qd, 5s, Qh, Qc, 7h, 3c, 6d] (THREE_OF_A_KIND QUEEN)
***** End of hand R5-700123456-12 *****
"""
