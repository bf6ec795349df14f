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
from collections.abc import Callable
from decimal import Decimal

from studeval.engine import StudHand
from studeval.histories._grammar import Grammar, Header
from studeval.histories._room import Room
from studeval.histories._text import MONEY, currency_of, money, zoned
from studeval.histories._writer import Phrases, Table, write_hand

__all__ = ["GRAMMAR", "PHRASES", "PHRASES_HOME", "ROOM", "write", "write_home"]

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
    rest = _CLUB.sub("", found["rest"])  # a Home Game club's name is no game or stakes
    when = _TIME.search(rest)
    played_at = None
    if when:
        y, mo, d, h, mi, s = (int(x) for x in when.groups()[:6])
        played_at = zoned(datetime.datetime(y, mo, d, h, mi, s), when.group(7))
    # The rest of the header is the same hand after hand: read once. (The time,
    # cut out of the key, is no part of the game, the stakes or the tournament.)
    key = rest if when is None else rest[: when.start()] + "\0" + rest[when.end() :]
    try:
        game, small_bet, big_bet, table, tournament, currency = _header_rest(key, tuple(lines[1:]))
    except ValueError:
        raise ValueError(f"no stakes in {rest!r}") from None
    return Header(
        hand_id=found["id"], game=game, game_text=rest.split(" - ")[0].strip(),
        small_bet=small_bet, big_bet=big_bet, table=table, tournament=tournament,
        played_at=played_at, currency=currency,
    )  # fmt: skip


@functools.lru_cache(maxsize=256)
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


_NAME = r"(?P<name>.+?)"
_ALL_IN = r"(?P<all_in> and is all-in)?"
GRAMMAR = Grammar(
    site="PokerStars",
    start=_HEAD,
    header=_header,
    seat=re.compile(
        rf"^Seat (?P<seat>\d+): {_NAME} \((?P<stack>{MONEY}) in chips"
        r"(?:, [^)]*)?\)(?P<out> is sitting out| out of hand.*)?\s*$"
    ),
    street=re.compile(
        r"^\*\*\* (?P<street>3rd STREET|4th STREET|5th STREET|6th STREET|RIVER|"
        r"SHOW DOWN|SUMMARY) \*\*\*(?P<cards> \[[^\]]*\])?"
    ),
    streets={
        "3rd street": 3,
        "4th street": 4,
        "5th street": 5,
        "6th street": 6,
        "river": 7,
        "show down": 8,
        "summary": 9,
    },
    hints={
        "ante": ": posts the ante ",
        "deal": "Dealt to ",
        "bring_in": ": brings in for ",
        "complete": ": completes it to ",
        "bet": ": bets ",
        "raise": ": raises ",
        "call": ": calls ",
        "check": ": checks",
        "fold": ": folds",
        "return": "Uncalled bet (",
        "show": ": shows [",
        "collect": " collected ",
    },
    lines=(
        ("ante", re.compile(rf"^{_NAME}: posts the ante (?P<amount>{MONEY}){_ALL_IN}$")),
        ("deal", re.compile(rf"^Dealt to (?=.*\]\s*$){_NAME} (?P<cards>\[.*\])\s*$")),
        ("bring_in", re.compile(rf"^{_NAME}: brings in for (?P<amount>{MONEY}){_ALL_IN}$")),
        ("complete", re.compile(rf"^{_NAME}: completes it to (?P<to>{MONEY}){_ALL_IN}$")),
        ("bet", re.compile(rf"^{_NAME}: bets (?P<amount>{MONEY}){_ALL_IN}$")),
        (
            "raise",
            re.compile(rf"^{_NAME}: raises (?P<amount>{MONEY}) to (?P<to>{MONEY}){_ALL_IN}$"),
        ),
        ("call", re.compile(rf"^{_NAME}: calls (?P<amount>{MONEY}){_ALL_IN}$")),
        ("check", re.compile(rf"^{_NAME}: checks\s*$")),
        ("fold", re.compile(rf"^{_NAME}: folds(?: (?P<cards>\[.*\]))?\s*$")),
        ("return", re.compile(rf"^Uncalled bet \((?P<amount>{MONEY})\) returned to {_NAME}$")),
        ("show", re.compile(rf"^{_NAME}: shows (?P<cards>\[[^\[\]]*\]).*$")),
        ("muck", re.compile(rf"^{_NAME}: (?:mucks hand|doesn't show hand).*$")),
        (
            "collect",
            re.compile(
                rf"^{_NAME} collected (?P<amount>{MONEY}) from (?:the )?"
                r"(?:main |side )?pot.*$"
            ),
        ),
    ),
    reveals=(
        re.compile(rf"^{_NAME}: shows (?P<cards>\[[^\[\]]*\])"),
        re.compile(
            rf"^Seat \d+: {_NAME} (?:\([^()]*\) )?(?:showed|mucked) "
            r"(?P<cards>\[[^\[\]]*\])"
        ),
    ),
    totals=re.compile(rf"^Total pot (?P<pot>{MONEY})(?:.*\| Rake (?P<rake>{MONEY})\s*$)?"),
    strict_prefix=": ",
    ignore=(
        re.compile(
            r".*: (?:is sitting out|sits out|is back|has returned|timed out|"
            r"is disconnected|is connected).*$"
        ),
    ),
    # The lines of nearly every hand, for the C reader (a hand with any other line
    # is read by the patterns above). In the patterns' order; slots: studeval.h.
    templates=(
        ("seat", 0, "Seat {seat}: {name} ({amount} in chips)"),
        ("seat", 0, "Seat {seat}: {name} ({amount} in chips) is sitting out"),
        ("street", 3, "*** 3rd STREET ***{rest}"),
        ("street", 4, "*** 4th STREET ***{rest}"),
        ("street", 5, "*** 5th STREET ***{rest}"),
        ("street", 6, "*** 6th STREET ***{rest}"),
        ("street", 7, "*** RIVER ***{rest}"),
        ("street", 8, "*** SHOW DOWN ***{rest}"),
        ("street", 9, "*** SUMMARY ***{rest}"),
        ("reveal", 0, "{name}: shows {cards}{rest}"),
        ("reveal", 0, "Seat {seat}: {name} ({notparen}) showed {cards}{rest}"),
        ("reveal", 0, "Seat {seat}: {name} showed {cards}{rest}"),
        ("reveal", 0, "Seat {seat}: {name} ({notparen}) mucked {cards}{rest}"),
        ("reveal", 0, "Seat {seat}: {name} mucked {cards}{rest}"),
        ("total", 0, "Total pot {amount}{text}| Rake {to}"),
        ("total", 0, "Total pot {amount}{rest}"),
        ("strict", 0, ": "),  # strict_prefix: another line is passed over
        ("ante", 0, "{name}: posts the ante {amount}{? and is all-in}"),
        ("deal", 0, "Dealt to {name} {allcards}"),
        ("bring_in", 0, "{name}: brings in for {amount}{? and is all-in}"),
        ("complete", 0, "{name}: completes it to {to}{? and is all-in}"),
        ("bet", 0, "{name}: bets {amount}{? and is all-in}"),
        ("raise", 0, "{name}: raises {amount} to {to}{? and is all-in}"),
        ("call", 0, "{name}: calls {amount}{? and is all-in}"),
        ("check", 0, "{name}: checks"),
        ("fold", 0, "{name}: folds"),
        ("return", 0, "Uncalled bet ({amount}) returned to {name}"),
        ("show", 0, "{name}: shows {cards}{rest}"),
        ("muck", 0, "{name}: mucks hand{rest}"),
        ("muck", 0, "{name}: doesn't show hand{rest}"),
        ("collect", 0, "{name} collected {amount} from pot{rest}"),
        ("collect", 0, "{name} collected {amount} from the pot{rest}"),
        ("collect", 0, "{name} collected {amount} from main pot{rest}"),
        ("collect", 0, "{name} collected {amount} from side pot{rest}"),
        ("collect", 0, "{name} collected {amount} from the main pot{rest}"),
        ("collect", 0, "{name} collected {amount} from the side pot{rest}"),
    ),
)

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


#: How PokerStars words a hand (used by :func:`write`).
PHRASES = Phrases(
    header=_write_header,
    seat="Seat {seat}: {name} ({stack} in chips)",
    ante="{name}: posts the ante {amount}{all_in}",
    streets={3: "*** 3rd STREET ***", 4: "*** 4th STREET ***", 5: "*** 5th STREET ***",
             6: "*** 6th STREET ***", 7: "*** RIVER ***"},
    community="*** RIVER *** [{card}]",
    deal_down_up="Dealt to {name} [{cards} {new}]",
    deal_up="Dealt to {name} [{new}]",
    deal_more="Dealt to {name} [{cards}] [{new}]",
    bring_in="{name}: brings in for {amount}{all_in}",
    complete="{name}: raises {by} to {to}{all_in}",
    bet="{name}: bets {amount}{all_in}",
    raise_="{name}: raises {by} to {to}{all_in}",
    call="{name}: calls {amount}{all_in}",
    check="{name}: checks",
    fold="{name}: folds",
    all_in=" and is all-in",
    returned="Uncalled bet ({amount}) returned to {name}",
    show="{name}: shows [{cards}]",
    muck="{name}: mucks hand",
    collect="{name} collected {amount} from pot",
    showdown="*** SHOW DOWN ***",
    summary="*** SUMMARY ***",
    total="Total pot {pot} | Rake {rake}",
)  # fmt: skip


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
