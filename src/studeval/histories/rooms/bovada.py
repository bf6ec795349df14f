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
import re
from collections.abc import Callable

from studeval.engine import StudHand
from studeval.histories._grammar import Grammar, Header
from studeval.histories._room import Room
from studeval.histories._text import MONEY, currency_of, money
from studeval.histories._writer import Phrases, Table, write_hand

__all__ = ["GRAMMAR", "PHRASES", "ROOM", "names", "write"]

_HEAD = re.compile(r"^\ufeff?(?:Bovada|Bodog|Ignition) Hand #(?P<id>\d+):? (?P<rest>.*)$")
_TIME = re.compile(r"(\d{4})-(\d{2})-(\d{2}) (\d{1,2}):(\d{2}):(\d{2})")


def _header(lines: list[str]) -> Header:
    found = _HEAD.match(lines[0])
    if not found:
        raise ValueError("not a Bovada hand")
    rest = found["rest"]
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
    when = _TIME.search(rest)
    played_at = None
    if when:
        y, mo, d, h, mi, sec = map(int, when.groups())
        played_at = datetime.datetime(y, mo, d, h, mi, sec)
    table = re.search(r"TBL#(\d+)", rest)
    return Header(
        hand_id=found["id"], game=game, game_text=game_text, small_bet=small, big_bet=big,
        table=table.group(1) if table else None,
        tournament=tournament.group(1) if tournament else None, played_at=played_at,
        currency=None if tournament else currency_of(rest),
    )  # fmt: skip


_MARK = " [ME]"
_NAME = r"(?P<name>Seat\+\d+)(?: \[ME\])?"  # the hero's mark is no part of the name
_ALL_IN = r"(?P<all_in>)"
GRAMMAR = Grammar(
    site="Bovada",
    start=_HEAD,
    header=_header,
    seat=re.compile(rf"^(?P<name>Seat\+(?P<seat>\d+))(?: \[ME\])?: (?P<stack>{MONEY}) in chips"),
    street=re.compile(r"^\*\*\* (?P<street>HOLE CARDS|3RD STREET|4TH STREET|5TH STREET|6TH STREET|"
                      r"7TH STREET|RIVER|SHOW DOWN|SUMMARY) \*\*\*(?P<cards> \[[^\]]*\])?"),
    streets={"hole cards": 3, "3rd street": 3, "4th street": 4, "5th street": 5,
             "6th street": 6, "7th street": 7, "river": 7, "show down": 8, "summary": 9},
    streets_by_deals=True,
    hero_mark="[ME]",
    hints={"ante": "Ante chip", "deal": "Card dealt to a spot", "bring_in": "Bring",
           "bet": "ets ", "raise": "Raises ", "all_in": "All-in", "call": " : Call",
           "check": " : Checks", "fold": " : Folds", "return": "Return uncalled",
           "show": " : Showdown", "muck": " : ", "collect": " : Hand "},
    lines=(
        ("ante", re.compile(rf"^{_NAME} : Ante chip (?P<amount>{MONEY})$")),
        ("deal", re.compile(rf"^{_NAME} : Card dealt to a spot (?P<cards>\[.*\])\s*$")),
        ("bring_in", re.compile(rf"^{_NAME} : (?:Big blind/Bring in|Bring_in chip)(?:\(timeout\))?"
                                rf" (?P<amount>{MONEY})$")),
        ("bet", re.compile(rf"^{_NAME} : (?:Bets|Double bets|D bets) (?P<amount>{MONEY})$")),
        ("raise", re.compile(rf"^{_NAME} : Raises (?:{MONEY} to )?(?P<to>{MONEY})$")),
        ("all_in", re.compile(rf"^{_NAME} : All-in(?:\(raise\))? (?P<amount>{MONEY})$")),
        ("call", re.compile(rf"^{_NAME} : Calls? (?P<amount>{MONEY})$")),
        ("check", re.compile(rf"^{_NAME} : Checks(?:\(timeout\))?$")),
        ("fold", re.compile(rf"^{_NAME} : Folds(?:\(timeout\))?$")),
        ("return", re.compile(rf"^{_NAME} : Return uncalled portion of bet (?P<amount>{MONEY})$")),
        ("show", re.compile(rf"^{_NAME} : Showdown (?P<cards>\[[^\]]*\]).*$")),
        ("muck", re.compile(rf"^{_NAME} : (?:Does not show|Mucks) .*$")),
        ("collect", re.compile(rf"^{_NAME} : Hand [Rr]esult(?:-Side Pot)? (?P<amount>{MONEY})$")),
    ),
    reveals=(re.compile(rf"^{_NAME} : (?:Showdown|Does not show|Mucks) (?P<cards>\[[^\]]*\])"),),
    reveal_hints=("Showdown", "show", "Mucks"),
    totals=re.compile(rf"^Total Pot\((?P<pot>{MONEY})\)(?: \| Rake \((?P<rake>{MONEY})\))?"),
)  # fmt: skip

_TITLES = {"stud": "7CARD Stud", "stud8": "7CARD Stud Hi/Lo", "razz": "RAZZ"}


def _write_header(hand: StudHand, table: Table, money: Callable[[int], str]) -> list[str]:
    s = hand.stakes
    return [
        f"Bovada Hand #{table.hand_id}: {_TITLES[hand.game]} Fixed Limit "
        f"({money(s.small_bet)}/{money(s.big_bet)}) - {table.played_at:%Y-%m-%d %H:%M:%S}"
    ]


#: How Bovada words a hand (used by :func:`write`): every seat named by its number.
PHRASES = Phrases(
    header=_write_header,
    seat="{name}: {stack} in chips",
    ante="{name} : Ante chip {amount}",
    streets={3: "*** HOLE CARDS ***", 4: "*** 4TH STREET ***", 5: "*** 5TH STREET ***",
             6: "*** 6TH STREET ***", 7: "*** 7TH STREET ***"},
    community="*** 7TH STREET *** [{card}]",
    deal_down_up="{name} : Card dealt to a spot [{cards} {new}]",
    deal_up="{name} : Card dealt to a spot [X X {new}]",
    deal_more="{name} : Card dealt to a spot [{new}]",
    bring_in="{name} : Bring_in chip {amount}",
    complete="{name} : Raises {to}",
    bet="{name} : Bets {amount}",
    raise_="{name} : Raises {by} to {to}",
    call="{name} : Call {amount}",
    check="{name} : Checks",
    fold="{name} : Folds",
    all_in="",
    returned="{name} : Return uncalled portion of bet {amount}",
    show="{name} : Showdown [{cards}]",
    muck="{name} : Mucks hand",
    collect="{name} : Hand result {amount}",
    showdown="*** SHOW DOWN ***",
    summary="*** SUMMARY ***",
    total="Total Pot({pot}) | Rake ({rake})",
)  # fmt: skip


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
