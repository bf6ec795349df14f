"""Full Tilt Poker text hand histories ("completes it to", "raises to"), cash games
and tournaments."""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable

from studeval.engine import StudHand
from studeval.histories._grammar import Grammar, Header
from studeval.histories._room import Room
from studeval.histories._text import MONEY, currency_of, money, zoned
from studeval.histories._writer import Phrases, Table, write_hand

__all__ = ["GRAMMAR", "PHRASES", "ROOM", "write"]

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
    parts = rest.split(" - ")
    # The game is the part that names its limit ("Limit Razz"), not a table named so.
    game_text = next((p for p in parts if re.match(r"\s*(?:Limit|Pot Limit|No Limit) ", p)), rest)
    game = next((name for text, name in _GAMES if text in game_text.lower()), None)
    stakes = next((m for p in parts if (m := _STAKES.fullmatch(p.strip()))), None)
    if stakes is None:
        raise ValueError(f"no stakes in {rest!r}")
    table = re.search(r"Table (?P<table>.+?)(?: \(.*\))?$", parts[0])
    tournament = re.search(r"\((\d+)\), Table", parts[0])
    when = _TIME.search(rest)
    played_at = None
    if when:
        h, mi, s = (int(x) for x in when.groups()[:3])
        y, mo, d = (int(x) for x in when.groups()[4:])
        played_at = zoned(datetime.datetime(y, mo, d, h, mi, s), when.group(4))
    return Header(
        hand_id=found["id"], game=game, game_text=game_text.strip(),
        small_bet=money(stakes["small"]), big_bet=money(stakes["big"]),
        ante=money(stakes["ante"]) if stakes["ante"] else None,
        table=table["table"] if table else None,
        tournament=tournament.group(1) if tournament else None, played_at=played_at,
        currency=None if tournament else currency_of(stakes.group(0)),
    )  # fmt: skip


_NAME = r"(?P<name>.+?)"
_ALL_IN = r"(?P<all_in>,? and is all in)?"
GRAMMAR = Grammar(
    site="Full Tilt Poker",
    start=_HEAD,
    header=_header,
    seat=re.compile(
        rf"^Seat (?P<seat>\d+): {_NAME} \((?P<stack>{MONEY})\)"
        r"(?P<out>, is sitting out)?\s*$"
    ),
    street=re.compile(
        r"^\*\*\* (?P<street>3RD STREET|4TH STREET|5TH STREET|6TH STREET|"
        r"7TH STREET|SHOW DOWN|SUMMARY) \*\*\*(?P<cards> \[[^\]]*\])?"
    ),
    streets={
        "3rd street": 3,
        "4th street": 4,
        "5th street": 5,
        "6th street": 6,
        "7th street": 7,
        "show down": 8,
        "summary": 9,
    },
    hints={
        "ante": " antes ",
        "deal": "Dealt to ",
        "bring_in": " brings in for ",
        "complete": " completes it to ",
        "bet": " bets ",
        "raise": " raises to ",
        "call": " calls ",
        "check": " checks",
        "fold": " folds",
        "return": "Uncalled bet of ",
        "show": " shows [",
        "muck": " mucks",
        "collect": " pot",
    },
    lines=(
        ("ante", re.compile(rf"^{_NAME} antes (?P<amount>{MONEY}){_ALL_IN}$")),
        ("deal", re.compile(rf"^Dealt to (?=.*\]\s*$){_NAME} (?P<cards>\[.*\])\s*$")),
        ("bring_in", re.compile(rf"^{_NAME} brings in for (?P<amount>{MONEY}){_ALL_IN}$")),
        ("complete", re.compile(rf"^{_NAME} completes it to (?P<to>{MONEY}){_ALL_IN}$")),
        ("bet", re.compile(rf"^{_NAME} bets (?P<amount>{MONEY}){_ALL_IN}$")),
        ("raise", re.compile(rf"^{_NAME} raises to (?P<to>{MONEY}){_ALL_IN}$")),
        ("call", re.compile(rf"^{_NAME} calls (?P<amount>{MONEY}){_ALL_IN}$")),
        ("check", re.compile(rf"^{_NAME} checks\s*$")),
        ("fold", re.compile(rf"^{_NAME} folds\s*$")),
        ("return", re.compile(rf"^Uncalled bet of (?P<amount>{MONEY}) returned to {_NAME}$")),
        ("show", re.compile(rf"^{_NAME} shows (?P<cards>\[[^\[\]]*\]).*$")),
        ("muck", re.compile(rf"^{_NAME} mucks.*$")),
        (
            "collect",
            re.compile(
                rf"^{_NAME} (?:wins|ties for) (?:the )?(?:high |low )?(?:main |side )?"
                rf"pot(?: #\d+)? \((?P<amount>{MONEY})\).*$"
            ),
        ),
    ),
    reveals=(
        re.compile(rf"^{_NAME} shows (?P<cards>\[[^\[\]]*\])"),
        re.compile(rf"^Seat \d+: {_NAME} (?:showed|mucked) (?P<cards>\[[^\[\]]*\])"),
    ),
    totals=re.compile(rf"^Total pot (?P<pot>{MONEY})(?:.*\| Rake (?P<rake>{MONEY})\s*$)?"),
    # The lines of nearly every hand, for the C reader (a hand with any other line
    # is read by the patterns above). In the patterns' order; slots: studeval.h.
    templates=(
        ("seat", 0, "Seat {seat}: {name} ({amount})"),
        ("seat", 0, "Seat {seat}: {name} ({amount}), is sitting out"),
        ("street", 3, "*** 3RD STREET ***{rest}"),
        ("street", 4, "*** 4TH STREET ***{rest}"),
        ("street", 5, "*** 5TH STREET ***{rest}"),
        ("street", 6, "*** 6TH STREET ***{rest}"),
        ("street", 7, "*** 7TH STREET ***{rest}"),
        ("street", 8, "*** SHOW DOWN ***{rest}"),
        ("street", 9, "*** SUMMARY ***{rest}"),
        ("reveal", 0, "{name} shows {cards}{rest}"),
        ("reveal", 0, "Seat {seat}: {name} showed {cards}{rest}"),
        ("reveal", 0, "Seat {seat}: {name} mucked {cards}{rest}"),
        ("total", 0, "Total pot {amount}{text}| Rake {to}"),
        ("total", 0, "Total pot {amount}{rest}"),
        ("ante", 0, "{name} antes {amount}{?, and is all in}"),
        ("ante", 0, "{name} antes {amount} and is all in"),
        ("deal", 0, "Dealt to {name} {allcards}"),
        ("bring_in", 0, "{name} brings in for {amount}{?, and is all in}"),
        ("bring_in", 0, "{name} brings in for {amount} and is all in"),
        ("complete", 0, "{name} completes it to {to}{?, and is all in}"),
        ("complete", 0, "{name} completes it to {to} and is all in"),
        ("bet", 0, "{name} bets {amount}{?, and is all in}"),
        ("bet", 0, "{name} bets {amount} and is all in"),
        ("raise", 0, "{name} raises to {to}{?, and is all in}"),
        ("raise", 0, "{name} raises to {to} and is all in"),
        ("call", 0, "{name} calls {amount}{?, and is all in}"),
        ("call", 0, "{name} calls {amount} and is all in"),
        ("check", 0, "{name} checks"),
        ("fold", 0, "{name} folds"),
        ("return", 0, "Uncalled bet of {amount} returned to {name}"),
        ("show", 0, "{name} shows {cards}{rest}"),
        ("muck", 0, "{name} mucks{rest}"),
        ("collect", 0, "{name} wins the pot ({amount}){rest}"),
        ("collect", 0, "{name} ties for the pot ({amount}){rest}"),
        ("collect", 0, "{name} wins the high pot ({amount}){rest}"),
        ("collect", 0, "{name} wins the low pot ({amount}){rest}"),
        ("collect", 0, "{name} ties for the high pot ({amount}){rest}"),
        ("collect", 0, "{name} ties for the low pot ({amount}){rest}"),
        ("collect", 0, "{name} wins the main pot ({amount}){rest}"),
        ("collect", 0, "{name} ties for the main pot ({amount}){rest}"),
    ),
)

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
PHRASES = Phrases(
    header=_write_header,
    seat="Seat {seat}: {name} ({stack})",
    ante="{name} antes {amount}{all_in}",
    streets={3: "*** 3RD STREET ***", 4: "*** 4TH STREET ***", 5: "*** 5TH STREET ***",
             6: "*** 6TH STREET ***", 7: "*** 7TH STREET ***"},
    community="*** 7TH STREET *** [{card}]",
    deal_down_up="Dealt to {name} [{cards}] [{new}]",
    deal_up="Dealt to {name} [{new}]",
    deal_more="Dealt to {name} [{cards}] [{new}]",
    bring_in="{name} brings in for {amount}{all_in}",
    complete="{name} completes it to {to}{all_in}",
    bet="{name} bets {amount}{all_in}",
    raise_="{name} raises to {to}{all_in}",
    call="{name} calls {amount}{all_in}",
    check="{name} checks",
    fold="{name} folds",
    all_in=", and is all in",
    returned="Uncalled bet of {amount} returned to {name}",
    show="{name} shows [{cards}]",
    muck="{name} mucks",
    collect="{name} wins the pot ({amount})",
    showdown="*** SHOW DOWN ***",
    summary="*** SUMMARY ***",
    total="Total pot {pot} | Rake {rake}",
)  # fmt: skip


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
