"""Everleaf Gaming text hand histories.

Amounts are written in brackets with the currency's code (``[€ 0.05 EURO]``); a
call's and a raise's amount is what the action adds, a completion's (``completes to
€0.05.``) the street total. Everleaf writes no line for an uncalled bet given back
and no rake: the winner's ``wins € 0.40 EURO from main pot`` is the pot less the
rake, so the rake is taken to be what the pots held less what was won. Files from
before August 2011 write no other player's up cards, and are refused for that (the
bring-in and the order of play depend on them).

>>> from studeval.histories import Table, read
>>> from studeval.play import random_hand
>>> hand = random_hand("razz", 3, seed=11)
>>> history = next(read(ROOM.write(hand, Table(names=["Ann", "Bob", "Cy"]))))
>>> history.site, history.game, history.hand.stacks == hand.stacks
('Everleaf', 'razz', True)
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable

from studeval.engine import StudHand
from studeval.histories._grammar import Grammar, Header
from studeval.histories._room import Room
from studeval.histories._text import MONEY, currency_of, money
from studeval.histories._writer import Phrases, Table, write_hand

__all__ = ["GRAMMAR", "PHRASES", "ROOM", "write"]

_HEAD = re.compile(r"^Everleaf Gaming Game #(?P<id>\d+)\s*$")
_GAME = re.compile(rf"^(?P<small>{MONEY})/(?P<big>{MONEY}) (?P<game>.*?) - "
                   r"(\d{4})/(\d{2})/(\d{2}) - (\d{1,2}):(\d{2}):(\d{2})")  # fmt: skip
_GAMES = {"7 card stud": "stud", "7 card stud hi/lo": "stud8", "razz": "razz"}


def _header(lines: list[str]) -> Header:
    found = _HEAD.match(lines[0])
    if not found:
        raise ValueError("not an Everleaf hand")
    game = next((m for m in map(_GAME.match, lines) if m), None)
    if game is None:
        raise ValueError("no stakes line")
    table = next((line[6:].strip() for line in lines if line.startswith("Table ")), None)
    y, mo, d, h, mi, s = (int(x) for x in game.groups()[3:])
    return Header(
        hand_id=found["id"], game=_GAMES.get(game["game"].strip().lower()),
        game_text=game["game"], small_bet=money(game["small"]), big_bet=money(game["big"]),
        table=table, played_at=datetime.datetime(y, mo, d, h, mi, s),
        currency=currency_of(game["small"]),
    )  # fmt: skip


_NAME = r"(?P<name>.+?)"
_PAID = rf"\[\s*(?P<amount>{MONEY})\s*(?:[A-Z]{{3,4}})?\s*\]"  # [€ 0.05 EURO]
GRAMMAR = Grammar(
    site="Everleaf",
    start=_HEAD,
    header=_header,
    seat=re.compile(rf"^Seat (?P<seat>\d+): {_NAME} \(\s*(?P<stack>{MONEY})\s*(?:[A-Z]{{3,4}})?"
                    r"\s*\)(?P<out> is sitting out)?\s*$"),
    street=re.compile(r"^\*+ (?P<street>Dealing down cards|Dealing 4th Street|Dealing 5th Street|"
                      r"Dealing 6th Street|Dealing River) \*+(?P<cards> \[[^\]]*\])?",
                      re.IGNORECASE),
    streets={"dealing down cards": 3, "dealing 4th street": 4, "dealing 5th street": 5,
             "dealing 6th street": 6, "dealing river": 7},
    hints={"ante": " posts ante ", "deal": "Dealt to ", "bring_in": " posts bring-in ",
           "complete": " completes to ", "bet": " bets ", "raise": " raises ",
           "call": " calls ", "check": " checks", "fold": " folds", "show": " shows ",
           "muck": " does not show", "collect": " wins "},
    lines=(
        ("ante", re.compile(rf"^{_NAME}: posts ante {_PAID}$")),
        ("deal", re.compile(rf"^Dealt to {_NAME} (?P<cards>\[[^\]]*\])\.?\s*$")),
        ("bring_in", re.compile(rf"^{_NAME}:? posts bring-in (?P<amount>{MONEY})\.?$")),
        ("complete", re.compile(rf"^{_NAME}:? completes to (?P<to>{MONEY})\.?$")),
        ("bet", re.compile(rf"^{_NAME}:? bets {_PAID}$")),
        ("raise", re.compile(rf"^{_NAME}:? raises {_PAID}$")),  # what the raise adds
        ("call", re.compile(rf"^{_NAME}:? calls {_PAID}$")),
        ("check", re.compile(rf"^{_NAME}:? checks\s*$")),
        ("fold", re.compile(rf"^{_NAME}:? folds\s*$")),
        ("show", re.compile(rf"^{_NAME}:? shows (?P<cards>\[[^\]]*\]).*$")),
        ("muck", re.compile(rf"^{_NAME}:? does not show cards\s*$")),
        ("collect", re.compile(rf"^{_NAME}:? wins (?P<amount>{MONEY})(?: [A-Z]{{3,4}})? from "
                               r"(?:the )?(?:main|side) pot.*$")),
    ),
    reveals=(re.compile(rf"^{_NAME}:? shows (?P<cards>\[[^\]]*\])"),),
    reveal_hints=(" shows ",),
    returns_unwritten=True,
    rake_unwritten=True,
    strict_prefix=" ",
    ignore=(re.compile(r".* (?:is sitting out|sits out|is back|has timed out|is disconnected|"
                       r"is connected|has joined the table|has left the table).*$"),),
)  # fmt: skip


_TITLES = {"stud": "7 Card Stud", "stud8": "7 Card Stud Hi/Lo", "razz": "Razz"}


def _write_header(hand: StudHand, table: Table, money: Callable[[int], str]) -> list[str]:
    s = hand.stakes
    return [
        f"Everleaf Gaming Game #{table.hand_id}",
        f"***** Hand history for game #{table.hand_id} *****",
        f"{money(s.small_bet)}/{money(s.big_bet)} {_TITLES[hand.game]} - "
        f"{table.played_at:%Y/%m/%d - %H:%M:%S}",
        f"Table {table.table}",
        f"Total number of players: {hand.seats}",
    ]


#: How Everleaf words a hand (used by :func:`write`): amounts in brackets, no line
#: for an uncalled bet, no rake.
PHRASES = Phrases(
    header=_write_header,
    seat="Seat {seat}: {name} (  {stack} )",
    ante="{name}: posts ante [{amount}]",
    streets={3: "** Dealing down cards **", 4: "** Dealing 4th Street **",
             5: "** Dealing 5th Street **", 6: "** Dealing 6th Street **",
             7: "** Dealing River **"},
    community="** Dealing River ** [{card}]",
    deal_down_up="Dealt to {name} [ {cards} {new} ].",
    deal_up="Dealt to {name} [ {new} ].",
    deal_more="Dealt to {name} [ {new} ].",
    bring_in="{name} posts bring-in {amount}.",
    complete="{name} completes to {to}.",
    bet="{name}: bets [{amount}]",
    raise_="{name} raises [{added}]",
    call="{name} calls [{amount}]",
    check="{name} checks",
    fold="{name} folds",
    all_in="",
    returned="",
    show="{name} shows [ {cards} ]",
    muck="{name} does not show cards",
    collect="{name} wins {amount} from main pot",
    showdown="",
    summary="",
    total="",
    returns_unwritten=True,
)  # fmt: skip


def write(hand: StudHand, table: Table) -> str:
    """A finished hand as Everleaf writes it.

    >>> from studeval.histories import read
    >>> from studeval.play import random_hand
    >>> hand = random_hand("stud", 3, seed=7, rake=2)
    >>> history = next(read(write(hand, Table(names=["Ann", "Bob", "Cy"], sign="€"))))
    >>> history.hand.stacks == hand.stacks, history.rake == hand.result.rake
    (True, True)
    """
    return write_hand(hand, table, PHRASES)


#: The room, as the list of rooms (studeval.histories.rooms.ROOMS) holds it.
ROOM = Room(
    site="Everleaf",
    about="files since August 2011 (older ones write no up cards: refused)",
    formats=(GRAMMAR,),
    writers={"Everleaf": write},
)
