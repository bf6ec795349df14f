"""Absolute Poker and UltimateBet (the Cereus network) text hand histories.

A hand starts ``Stage #1300000000: Seven Card Hi/Lo  Normal $0.02/$0.04 - ...``
(``Normal`` is fixed limit, the limits the small and the big bet); lines read
``PLAYER - Calls $0.01``. Each ``Pocket`` line lists all of a player's cards so
far, ``H`` for one not seen (the hero's again on every street, after folding
too): the new cards are the last. ``Raises $X`` gives what the raise puts in. An
uncalled bet given back has no line; the winners' ``Collects`` lines and the
``Total Pot($0.43) | Rake ($0.04)`` line close the hand.

>>> from studeval.histories import Table, read
>>> from studeval.play import random_hand
>>> hand = random_hand("stud8", 3, seed=11)
>>> history = next(read(ROOM.write(hand, Table(names=["Ann", "Bob", "Cy"]))))
>>> history.site, history.game, history.hand.stacks == hand.stacks
('Absolute', 'stud8', True)
"""

from __future__ import annotations

import datetime
import functools
import re
from collections.abc import Callable

from studeval.engine import StudHand
from studeval.histories._grammar import SUMMARY, Grammar, Header, section_lines
from studeval.histories._room import Room
from studeval.histories._text import MONEY, currency_of, cut, money, zoned
from studeval.histories._wording import Wording
from studeval.histories._writer import Table, write_hand

__all__ = ["GRAMMAR", "PHRASES", "ROOM", "WORDS", "write"]

_HEAD = re.compile(r"^Stage #C?(?P<id>\d+):\s*(?P<rest>.*)$")
_GAMES = {"seven card hi/lo": "stud8", "7 card stud": "stud", "razz": "razz"}
_INFO = re.compile(
    rf"^(?:Tourney ID (?P<tournament>\d+)\s+)?(?P<game>.+?)\s+(?P<limit>Normal|NORMAL|No Limit|"
    rf"NO LIMIT|Pot Limit|POT LIMIT)\s+(?P<small>{MONEY})/(?P<big>{MONEY})\s.*?-\s+"
    r"(?P<when>\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)(?:\.\d+)?(?:\s+\((?P<zone>[A-Z]+)\))?"
)
_TABLE = re.compile(r"^Table: (?P<table>.*?) \(Real Money\)")


def _header(lines: list[str]) -> Header:
    found = _HEAD.match(lines[0])
    if found is None:
        raise ValueError("not an Absolute hand")
    rest = found["rest"]
    # The rest is the same hand after hand but its time: read once a table.
    when = _WHEN.search(rest)
    table, when_at, zone = _header_rest(cut(rest, when), tuple(lines[1:]))
    if when is None or when_at != when.start():
        table, when_at, zone = _header_rest(rest, tuple(lines[1:]))  # (a time elsewhere first)
        when = _WHEN.search(rest, when_at)
    assert when is not None
    # Fixed places ("2026-12-02 10:24:42"): as strptime("%Y-%m-%d %H:%M:%S") reads them.
    y, mo, d, h, mi, s = map(int, when.groups())
    return table.of_hand(found["id"], zoned(datetime.datetime(y, mo, d, h, mi, s), zone))


_WHEN = re.compile(r"(\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)")


@functools.lru_cache(maxsize=256)
def _header_rest(rest: str, after: tuple[str, ...]) -> tuple[Header, int, str | None]:
    """A header's game, limits, table, tournament and currency (``rest``: the first
    line after the hand id, its time cut out as one NUL); where in ``rest`` the time
    is, and the time zone it names."""
    info = _INFO.match(rest.replace("\0", "0000-00-00 00:00:00"))
    if info is None:
        raise ValueError("not an Absolute hand")
    game_text = f"{info['limit']} {info['game']}"
    game = _GAMES.get(info["game"].strip().lower()) if info["limit"].lower() == "normal" else None
    table = next((m["table"] for line in after if (m := _TABLE.match(line))), None)
    return Header(
        hand_id="", game=game, game_text=game_text, small_bet=money(info["small"]),
        big_bet=money(info["big"]), table=table, tournament=info["tournament"],
        currency=None if info["tournament"] else currency_of(info["small"]),
    ), info.start("when"), info["zone"]  # fmt: skip


_STREET = "*** %s ***{? [{cards}]}{rest}"
#: Every line of an Absolute hand but the header, in the slot notation
#: (studeval.histories._wording).
WORDS = Wording(
    seat=("Seat {seat} - {name} ({stack} in chips)",),
    streets={3: (_STREET % "3rd STREET",), 4: (_STREET % "4TH STREET",),
             5: (_STREET % "5TH STREET",), 6: (_STREET % "6TH STREET",), 7: (_STREET % "RIVER",),
             8: (_STREET % "SHOW DOWN",), 9: (_STREET % "SUMMARY",)},
    lines=(
        ("ante", "{name} - Ante {amount}"),
        ("deal", "{name} - Pocket [{cards}]"),
        ("bring_in", "{name} - Bring-In {amount}{?.}"),
        ("bet", "{name} - Bets {amount}"),
        ("raise", "{name} - Raises {added}"),
        ("all_in", "{name} - All-In{?(Raise)} {amount}"),
        ("call", "{name} - Calls {amount}"),
        ("check", "{name} - Checks"),
        ("fold", "{name} - Folds"),
        ("show", "{name} - Shows [{cards}]{rest}"),
        ("muck", "{name} - Mucks{rest}"),
        ("collect", "{name} Collects {amount} from {main|side} pot{rest}"),
    ),
    reveals=("{name} - Shows [{cards}]{rest}",),
    totals=("Total Pot({pot}){? {|} Rake ({rake})}{rest}",),
)  # fmt: skip

GRAMMAR = Grammar(site="Absolute", start=_HEAD, header=_header, words=WORDS,
                  returns_unwritten=True, deals_repeat_all=True, last_section=SUMMARY,
                  last_section_lines=section_lines(r"Seat \d+: ", "Total Pot"))  # fmt: skip

_TITLES = {"stud": "7 Card Stud", "stud8": "Seven Card Hi/Lo", "razz": "Razz"}


def _write_header(hand: StudHand, table: Table, money: Callable[[int], str]) -> list[str]:
    s = hand.stakes
    return [f"Stage #{table.hand_id}: {_TITLES[hand.game]}  Normal {money(s.small_bet)}/"
            f"{money(s.big_bet)} - {table.played_at:%Y-%m-%d %H:%M:%S} (ET)"]  # fmt: skip


#: How Absolute words a hand (used by :func:`write`). Its wording of a completion, of
#: an all-in and of a community card is not known to us: a completion is written as
#: a raise of what it puts in, an all-in as the plain action, a community card as a
#: 7th-street marker with the card.
PHRASES = WORDS.phrases(
    header=_write_header,
    community="*** RIVER *** [{card}]",
    deal_down_up="{name} - Pocket [{cards} {new}]",
    deal_up="{name} - Pocket [H H {new}]",
    deal_more="{name} - Pocket [{held}]",
    complete="{name} - Raises {added}",
    returned="",
    collect="{name} Collects {amount} from main pot",
    total="Total Pot({pot}) | Rake ({rake})",
    returns_unwritten=True,
    hidden="H",
)


def write(hand: StudHand, table: Table) -> str:
    """A finished hand as Absolute writes it (``table``: names, ids, money).

    >>> from studeval.histories import read
    >>> from studeval.play import random_hand
    >>> hand = random_hand("razz", 4, seed=3)
    >>> history = next(read(write(hand, Table(names=["Ann", "Bob", "Cy", "Di"]))))
    >>> history.site, history.hand.stacks == hand.stacks
    ('Absolute', True)
    """
    return write_hand(hand, table, PHRASES)


#: The room, as the list of rooms (studeval.histories.rooms.ROOMS) holds it.
ROOM = Room(
    site="Absolute",
    about="Absolute Poker and UltimateBet (the Cereus network), cash games",
    formats=(GRAMMAR,),
    writers={"Absolute": write},
)
