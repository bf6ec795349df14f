"""Winamax text hand histories: cash games and play money, euros written after the
amount (``25€``). Three of Winamax's ways differ from the other rooms': in "raises X
to Y" the Y is what the raise puts in; an uncalled bet is not written apart but
counted in what the bettor collected; and the total pot it writes is what was paid
out, net of the rake."""

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

_GAMES = (("hi/lo", "stud8"), ("razz", "razz"), ("stud", "stud"))
_HEAD = re.compile(r"^Winamax Poker - (?P<kind>[^-]+?) - HandId: #(?P<id>[\d-]+) - "
                   r"(?P<game>.+?) \((?P<stakes>[^)]*)\) - (?P<when>.*)$")  # fmt: skip
_TIME = re.compile(r"(\d{4})/(\d{1,2})/(\d{1,2}) (\d{1,2}):(\d{2}):(\d{2})(?: ([A-Z]+))?")


def _header(lines: list[str]) -> Header:
    found = _HEAD.match(lines[0])
    if not found:
        raise ValueError("not a Winamax hand")
    game_text = found["game"]
    lowered = game_text.lower()
    game = next((name for text, name in _GAMES if text in lowered), None)
    if "fixed limit" not in lowered or "5" in lowered.split("stud")[0]:
        game = None  # no-limit games, and five-card stud
    limits = [money(part) for part in found["stakes"].split("/")]
    if len(limits) != 3:
        raise ValueError(f"stakes are not ante/small bet/big bet: {found['stakes']!r}")
    ante, small, big = limits
    when = _TIME.search(found["when"])
    played_at = None
    if when:
        y, mo, d, h, mi, s = (int(x) for x in when.groups()[:6])
        played_at = zoned(datetime.datetime(y, mo, d, h, mi, s), when.group(7))
    table = next((m["table"] for line in lines[1:]
                  if (m := re.match(r"^Table: '(?P<table>[^']*)'", line))), None)  # fmt: skip
    tournament = re.search(r"Tournament \"?[^\"]*\"? buyIn|Tournament", found["kind"])
    return Header(
        hand_id=found["id"], game=game, game_text=game_text, small_bet=small, big_bet=big,
        ante=ante, table=table, tournament=found["id"].split("-")[0] if tournament else None,
        played_at=played_at, currency=currency_of(found["stakes"]),
    )  # fmt: skip


_NAME = r"(?P<name>.+?)"
_ALL_IN = r"(?P<all_in> and is all-in)?"
GRAMMAR = Grammar(
    site="Winamax",
    start=_HEAD,
    header=_header,
    seat=re.compile(rf"^Seat (?P<seat>\d+): {_NAME} \((?P<stack>{MONEY})(?:, [^)]*)?\)\s*$"),
    street=re.compile(r"^\*\*\* (?P<street>ANTE/BLINDS|3rd STREET|4th STREET|5th STREET|"
                      r"6th STREET|7th STREET|SHOW DOWN|SUMMARY) \*\*\*(?P<cards> \[[^\]]*\])?"),
    streets={"ante/blinds": 0, "3rd street": 3, "4th street": 4, "5th street": 5,
             "6th street": 6, "7th street": 7, "show down": 8, "summary": 9},
    hints={"ante": " posts ante ", "deal": "Dealt to ", "bring_in": " brings in ",
           "bet": " bets ", "raise": " raises ", "call": " calls ", "check": " checks",
           "fold": " folds", "return": "Uncalled bet (", "show": " shows [",
           "collect": " collected "},
    lines=(
        ("ante", re.compile(rf"^{_NAME} posts ante (?P<amount>{MONEY}){_ALL_IN}$")),
        ("deal", re.compile(rf"^Dealt to (?=.*\]\s*$){_NAME} (?P<cards>\[.*\])\s*$")),
        ("bring_in", re.compile(rf"^{_NAME} brings in (?P<amount>{MONEY}){_ALL_IN}$")),
        ("bet", re.compile(rf"^{_NAME} bets (?P<amount>{MONEY}){_ALL_IN}$")),
        ("raise", re.compile(rf"^{_NAME} raises -?{MONEY} to (?P<amount>{MONEY}){_ALL_IN}$")),
        ("call", re.compile(rf"^{_NAME} calls (?P<amount>{MONEY}){_ALL_IN}$")),
        ("check", re.compile(rf"^{_NAME} checks\s*$")),
        ("fold", re.compile(rf"^{_NAME} folds\s*$")),
        ("return", re.compile(rf"^Uncalled bet \((?P<amount>{MONEY})\) returned to {_NAME}$")),
        ("show", re.compile(rf"^{_NAME} shows (?P<cards>\[[^\[\]]*\]).*$")),
        ("muck", re.compile(rf"^{_NAME} (?:mucks|doesn't show).*$")),
        ("collect", re.compile(rf"^{_NAME} collected (?P<amount>{MONEY}) from "
                               r"(?:side |main )?pot.*$")),
    ),
    reveals=(
        re.compile(rf"^{_NAME} shows (?P<cards>\[[^\[\]]*\])"),
        re.compile(rf"^Seat \d+: {_NAME} (?:showed|mucked) (?P<cards>\[[^\[\]]*\])"),
    ),
    totals=re.compile(rf"^Total pot (?P<pot>{MONEY})(?:.*\| Rake (?P<rake>{MONEY})\s*$)?"),
    pot_after_rake=True,
    collects_returns=True,
)  # fmt: skip

_TITLES = {"stud": "7-Card Stud", "stud8": "7-Card Stud Hi/Lo", "razz": "Razz"}


def _write_header(hand: StudHand, table: Table, money: Callable[[int], str]) -> list[str]:
    s = hand.stakes
    return [
        f"Winamax Poker - CashGame - HandId: #1-{table.hand_id}-1 - {_TITLES[hand.game]} "
        f"fixed limit ({money(s.ante)}/{money(s.small_bet)}/{money(s.big_bet)}) - "
        f"{table.played_at:%Y/%m/%d %H:%M:%S} UTC",
        f"Table: '{table.table}' 8-max (real money)",
    ]


#: How Winamax words a hand (used by :func:`write`).
PHRASES = Phrases(
    header=_write_header,
    seat="Seat {seat}: {name} ({stack})",
    ante="{name} posts ante {amount}",
    streets={3: "*** 3rd STREET ***", 4: "*** 4th STREET ***", 5: "*** 5th STREET ***",
             6: "*** 6th STREET ***", 7: "*** 7th STREET ***"},
    community="*** 7th STREET *** [{card}]",
    deal_down_up="Dealt to {name} [{cards} {new}]",
    deal_up="Dealt to {name} [X X {new}]",
    deal_more="Dealt to {name} [{cards}] [{new}]",
    bring_in="{name} brings in {amount}",
    complete="{name} raises {by} to {added}",
    bet="{name} bets {amount}",
    raise_="{name} raises {by} to {added}",
    call="{name} calls {amount}",
    check="{name} checks",
    fold="{name} folds",
    all_in="",
    returned="",
    show="{name} shows [{cards}]",
    muck="{name} doesn't show",
    collect="{name} collected {amount} from pot",
    showdown="*** SHOW DOWN ***",
    summary="*** SUMMARY ***",
    total="Total pot {pot} | Rake {rake}",
    collects_returns=True,
    pot_after_rake=True,
    sign_after=True,
)  # fmt: skip


def write(hand: StudHand, table: Table) -> str:
    """A finished hand as Winamax writes it (its sign after the amount: give
    ``Table(sign="€")`` for euros, no sign for play money).

    >>> from studeval.histories import read
    >>> from studeval.play import random_hand
    >>> hand = random_hand("stud8", 3, seed=4)
    >>> history = next(read(write(hand, Table(names=["Ann", "Bob", "Cy"], sign="€"))))
    >>> history.site, history.hand.stacks == hand.stacks
    ('Winamax', True)
    """
    return write_hand(hand, table, PHRASES)


#: The room, as the list of rooms (studeval.histories.rooms.ROOMS) holds it.
ROOM = Room(
    site="Winamax",
    about="cash games and play money, euros written after the amount",
    formats=(GRAMMAR,),
    writers={"Winamax": write},
)
