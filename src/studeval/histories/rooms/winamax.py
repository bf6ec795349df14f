"""Winamax text hand histories: cash games and play money, euros written after the
amount (``25€``). Three of Winamax's ways differ from the other rooms': in "raises X
to Y" the Y is what the raise puts in; an uncalled bet is not written apart but
counted in what the bettor collected; and the total pot it writes is what was paid
out, net of the rake."""

from __future__ import annotations

import datetime
import functools
import re
from collections.abc import Callable

from studeval.engine import StudHand
from studeval.histories._grammar import SUMMARY, Grammar, Header, section_lines
from studeval.histories._room import Room
from studeval.histories._text import currency_of, money, zoned
from studeval.histories._wording import Wording
from studeval.histories._writer import Table, write_hand

__all__ = ["GRAMMAR", "PHRASES", "ROOM", "WORDS", "write"]

_GAMES = (("hi/lo", "stud8"), ("razz", "razz"), ("stud", "stud"))
_HEAD = re.compile(r"^Winamax Poker - (?P<kind>[^-]+?) - HandId: #(?P<id>[\d-]+) - "
                   r"(?P<game>.+?) \((?P<stakes>[^)]*)\) - (?P<when>.*)$")  # fmt: skip
_TIME = re.compile(r"(\d{4})/(\d{1,2})/(\d{1,2}) (\d{1,2}):(\d{2}):(\d{2})(?: ([A-Z]+))?")


def _header(lines: list[str]) -> Header:
    found = _HEAD.match(lines[0])
    if not found:
        raise ValueError("not a Winamax hand")
    when = _TIME.search(found["when"])
    played_at = None
    if when:
        y, mo, d, h, mi, s = (int(x) for x in when.groups()[:6])
        played_at = zoned(datetime.datetime(y, mo, d, h, mi, s), when.group(7))
    # The rest is the same hand after hand: read once.
    same = _header_rest(found["kind"], found["game"], found["stakes"], tuple(lines[1:]))
    return same.of_hand(found["id"], played_at,
                        tournament=found["id"].split("-")[0] if same.tournament is not None
                        else None)  # fmt: skip


@functools.lru_cache(maxsize=256)
def _header_rest(kind: str, game_text: str, stakes: str, lines: tuple[str, ...]) -> Header:
    """The header's game, limits, table and currency, and whether it is a tournament
    (``tournament`` is "" then); no hand id and no time."""
    lowered = game_text.lower()
    game = next((name for text, name in _GAMES if text in lowered), None)
    if "fixed limit" not in lowered or "5" in lowered.split("stud")[0]:
        game = None  # no-limit games, and five-card stud
    limits = [money(part) for part in stakes.split("/")]
    if len(limits) != 3:
        raise ValueError(f"stakes are not ante/small bet/big bet: {stakes!r}")
    ante, small, big = limits
    table = next((m["table"] for line in lines
                  if (m := re.match(r"^Table: '(?P<table>[^']*)'", line))), None)  # fmt: skip
    tournament = re.search(r"Tournament \"?[^\"]*\"? buyIn|Tournament", kind)
    return Header(
        hand_id="", game=game, game_text=game_text, small_bet=small, big_bet=big,
        ante=ante, table=table, tournament="" if tournament else None,
        currency=currency_of(stakes),
    )  # fmt: skip


_STREET = "*** %s ***{? [{cards}]}{rest}"
#: Every line of a Winamax hand but the header, in the slot notation
#: (studeval.histories._wording). "raises A to B": B is what the raise puts in.
WORDS = Wording(
    seat=("Seat {seat}: {name} ({stack}{?, {notparen}})",),
    streets={0: (_STREET % "ANTE/BLINDS",), 3: (_STREET % "3rd STREET",),
             4: (_STREET % "4th STREET",), 5: (_STREET % "5th STREET",),
             6: (_STREET % "6th STREET",), 7: (_STREET % "7th STREET",),
             8: (_STREET % "SHOW DOWN",), 9: (_STREET % "SUMMARY",)},
    lines=(
        ("ante", "{name} posts ante {amount}{all_in}"),
        ("deal", "Dealt to {name} {allcards}"),
        ("bring_in", "{name} brings in {amount}{all_in}"),
        ("bet", "{name} bets {amount}{all_in}"),
        ("raise", "{name} raises {?-}{by:money} to {added}{all_in}"),
        ("call", "{name} calls {amount}{all_in}"),
        ("check", "{name} checks"),
        ("fold", "{name} folds"),
        ("return", "Uncalled bet ({amount}) returned to {name}"),
        ("show", "{name} shows [{cards}]{rest}"),
        ("muck", "{name} {doesn't show|mucks}{rest}"),
        ("collect", "{name} collected {amount} from {?side |main }pot{rest}"),
    ),
    reveals=("{name} shows [{cards}]{rest}", "Seat {seat}: {name} {showed|mucked} [{cards}]{rest}"),
    totals=("Total pot {pot} {text}| Rake {rake}", "Total pot {pot}{rest}"),
    all_in=(" and is all-in",),
)  # fmt: skip

GRAMMAR = Grammar(site="Winamax", start=_HEAD, header=_header, words=WORDS,
                  pot_after_rake=True, collects_returns=True, last_section=SUMMARY,
                  last_section_lines=section_lines(r"Seat \d+: ", "Total pot ",
                                                   "Board: "))  # fmt: skip

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
PHRASES = WORDS.phrases(
    header=_write_header,
    community="*** 7th STREET *** [{card}]",
    deal_down_up="Dealt to {name} [{cards} {new}]",
    deal_up="Dealt to {name} [X X {new}]",
    deal_more="Dealt to {name} [{cards}] [{new}]",
    complete="{name} raises {by} to {added}",
    all_in="",
    returned="",
    collect="{name} collected {amount} from pot",
    total="Total pot {pot} | Rake {rake}",
    collects_returns=True,
    pot_after_rake=True,
    sign_after=True,
)


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
