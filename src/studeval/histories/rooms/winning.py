"""Winning Poker Network (Americas Cardroom, True Poker) text hand histories, in the
room's two formats.

Since 2019 (``Hand #90412077 - 7Stud(Fixed Limit) - $0.04/$0.08 - ...``) the text
reads much like PokerStars', with three differences: in ``raises $A to $B`` only
``B`` can be trusted, the total pot is written after the rake and the jackpot fee
(``Total pot $199.00 | Rake $0.96 | JP Fee $0.04``; the replay counts the fee as
rake), and a pot won without a showdown is written only in the summary (``did not
show and won $0.36``).

The older software (``Game started at: 2016/8/2 21:17:19``, then ``Game ID: ...``)
writes each card on a line of its own (``received a card.`` for one dealt face
down), marks no 3rd street (its ``Third street`` is the fourth), writes amounts
without a currency sign, and tells what each player put in and took only in the
summary (``Bets: 4.55. Collects: 8.95.``); it gives the odd chip of a hi/lo split
to the low half.

>>> from studeval.histories import Table, read
>>> from studeval.play import random_hand
>>> hand = random_hand("stud", 3, seed=11)
>>> history = next(read(ROOM.write(hand, Table(names=["Ann", "Bob", "Cy"]))))
>>> history.site, history.game, history.hand.stacks == hand.stacks
('Winning', 'stud', True)
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
from studeval.histories._writer import Table, amount_text, write_hand
from studeval.houserules import HouseRules

__all__ = [
    "GRAMMAR", "GRAMMAR_2016", "PHRASES", "PHRASES_2016", "ROOM", "WORDS", "WORDS_2016", "write",
    "write_2016",
]  # fmt: skip

SITE = "Winning"

# ---- the format since 2019 ---------------------------------------------------------

_HEAD = re.compile(r"^(?:Game )?Hand #(?P<id>\d+) - (?P<rest>.*\((?:Fixed|No|Pot) Limit\).*)$")
_GAME = re.compile(r"(?P<game>[^-]+?)\s?\((?P<limit>[^)]*Limit)\)")
_STAKES = re.compile(rf"(?P<small>{MONEY})/(?P<big>{MONEY})")
_TIME = re.compile(r"(\d{4})/(\d{1,2})/(\d{1,2}) (\d{1,2}):(\d{1,2}):(\d{1,2})(?: ([A-Z]+))?")


def _game(text: str, fixed_limit: bool) -> str | None:
    """Our name of a Winning game ("7Stud", "7Stud H/L", "Seven Cards Stud HiLow")."""
    words = text.lower().replace(" ", "")
    if not fixed_limit:
        return None
    if "razz" in words:
        return "razz"
    if "7stud" in words or "sevencardsstud" in words:
        return "stud8" if re.search(r"h/?l|hilo", words) else "stud"
    return None


def _when(text: str, found: re.Match[str] | None = None) -> datetime.datetime | None:
    """The time ``text`` names (``found``: its match, where already searched)."""
    found = found or _TIME.search(text)
    if not found:
        return None
    y, mo, d, h, mi, s = map(int, found.groups()[:6])
    return zoned(datetime.datetime(y, mo, d, h, mi, s), found.group(7))


def _header(lines: list[str]) -> Header:
    found = _HEAD.match(lines[0])
    if not found:
        raise ValueError("not a Winning hand")
    rest = found["rest"]
    when = _TIME.search(rest)
    # The rest is the same hand after hand: read once (the time cut out of the key).
    key = cut(rest, when)
    table = lines[1].split(" ", 1)[0] if len(lines) > 1 else None
    return _header_rest(key, table).of_hand(found["id"], _when(rest, when))


@functools.lru_cache(maxsize=256)
def _header_rest(rest: str, table: str | None) -> Header:
    """The header's game, limits, tournament and currency (``rest``: its first line
    after the hand id, the time cut out); no hand id and no time."""
    tournament = re.search(r"Tournament #(\d+)", rest)
    named = _GAME.search(rest.split(" - ", 1)[1] if tournament else rest)
    if named is None:
        raise ValueError(f"no game in {rest!r}")
    stakes = _STAKES.search(rest[named.end() :])
    if stakes is None:
        raise ValueError(f"no stakes in {rest!r}")
    return Header(
        hand_id="", game=_game(named["game"], named["limit"] == "Fixed Limit"),
        game_text=named.group(0), small_bet=money(stakes["small"]),
        big_bet=money(stakes["big"]), table=table,
        tournament=tournament.group(1) if tournament else None,
        currency=None if tournament else currency_of(stakes.group(0)),
    )  # fmt: skip


_STREET = "*** %s ***{? [{cards}]}{rest}"
#: Every line of a Winning hand (since 2019) but the header, in the slot notation
#: (studeval.histories._wording). "raises $A to $B": only B is reliable.
WORDS = Wording(
    seat=("Seat {seat}: {name} ({stack}){? is sitting out}",),
    streets={3: (_STREET % "3rd STREET",), 4: (_STREET % "4th STREET",),
             5: (_STREET % "5th STREET",), 6: (_STREET % "6th STREET",),
             7: (_STREET % "7th STREET",), 8: (_STREET % "SHOW DOWN", _STREET % "SHOWDOWN"),
             9: (_STREET % "SUMMARY",)},
    lines=(
        ("ante", "{name} posts ante {amount}{all_in}"),
        ("deal", "Dealt to {name} {allcards}"),
        ("bring_in", "{name} {brings in|brings-in}{? low} {amount}{all_in}"),
        ("bet", "{name} bets {amount}{all_in}"),
        ("raise", "{name} raises {added:money} to {to}{all_in}"),
        ("call", "{name} calls {amount}{all_in}"),
        ("check", "{name} checks"),
        ("fold", "{name} folds"),
        ("return", "Uncalled bet ({amount}) returned to {name}"),
        ("show", "{name} shows [{cards}]{rest}"),
        ("muck", "{name} {mucks hand|does not show}{rest}"),
        ("collect", "{name} collected {amount} from {text}pot{rest}"),
    ),
    reveals=("{name} shows [{cards}]{rest}",
             "Seat {seat}: {name} {?({notparen}) }{showed|mucked} [{cards}]{rest}"),
    totals=("Total pot {pot}{? {|} Rake {rake}}{? {|} JP Fee {fee}}",),
    summary=("Seat {seat}: {name} {?({notparen}) }{did not show|showed [{cards}]} and "
             "{won|collected} {won}{rest}",),
    ignore=("{Main|Side} pot{? {number}} {rest}",
            "{text} {is sitting out|sits out|is back|has returned|timed out|is disconnected"
            "|is connected|joins the table|leaves the table}{rest}"),
    all_in=(" and is all-in",),
)  # fmt: skip

GRAMMAR = Grammar(site=SITE, start=_HEAD, header=_header, words=WORDS, pot_after_rake=True,
                  strict_prefix=" ", last_section=SUMMARY,
                  last_section_lines=section_lines(r"Seat \d+: ", "Total pot ",
                                                   "Board"))  # fmt: skip

_TITLES = {"stud": "7Stud", "stud8": "7Stud H/L", "razz": "Razz"}


def _write_header(hand: StudHand, table: Table, money: Callable[[int], str]) -> list[str]:
    s = hand.stakes
    at = table.played_at.strftime("%Y/%m/%d %H:%M:%S")
    return [
        f"Hand #{table.hand_id} - {_TITLES[hand.game]}(Fixed Limit) - "
        f"{money(s.small_bet)}/{money(s.big_bet)} - {at} UTC",
        f"{table.table} 8-max",
    ]


#: How the Winning Poker Network words a hand since 2019 (used by :func:`write`):
#: the unreliable ``A`` of ``raises $A to $B`` is written as what the raise puts in.
PHRASES = WORDS.phrases(
    header=_write_header,
    community="*** 7th STREET *** [{card}]",
    deal_down_up="Dealt to {name} [{cards} {new}]",
    deal_up="Dealt to {name} [{new}]",
    deal_more="Dealt to {name} [{cards}] [{new}]",
    complete="{name} raises {added} to {to}{all_in}",
    collect="Seat {seat}: {name} did not show and won {amount}",
    total="Total pot {pot} | Rake {rake}",
    pot_after_rake=True,
    collect_in_summary=True,
)


def write(hand: StudHand, table: Table) -> str:
    """A finished hand as the Winning Poker Network writes it since 2019.

    >>> from studeval.histories import read
    >>> from studeval.play import random_hand
    >>> hand = random_hand("stud8", 4, seed=3)
    >>> text = write(hand, Table(names=["Ann", "Bob", "Cy", "Di"]))
    >>> next(read(text)).hand.stacks == hand.stacks
    True
    """
    return write_hand(hand, table, PHRASES)


# ---- the format before 2019 ----------------------------------------------------------

_START_2016 = re.compile(r"^Game started at: ")
_GAME_ID = re.compile(r"^Game ID: (?P<id>\d+) (?P<small>[\d.]+)/(?P<big>[\d.]+) (?P<rest>.*)$")


def _header_2016(lines: list[str]) -> Header:
    for line in lines:
        found = _GAME_ID.match(line)
        if found is not None:
            break
    else:
        raise ValueError("no 'Game ID' line")
    # The rest is the same hand after hand: read once a table.
    header = _header_2016_rest(found["small"], found["big"], found["rest"])
    return header.of_hand(found["id"], _when(lines[0]))


@functools.lru_cache(maxsize=256)
def _header_2016_rest(small: str, big: str, rest: str) -> Header:
    """The game, limits and table of a 'Game ID' line (no hand id and no time)."""
    named = re.search(r"\(([^()]*)\)\s*$", rest)
    game_text = named.group(1) if named else rest
    table = re.sub(r"^\([^)]*\)\s*", "", rest[: named.start()] if named else rest).strip()
    return Header(
        hand_id="", game=_game(game_text, fixed_limit=True), game_text=game_text,
        small_bet=money(small), big_bet=money(big), table=table or None,
    )  # fmt: skip


_PLAYER = "{?*}Player {name}"
_STREET_2016 = "{***|{+-}} %s {***|{+-}}{? [{cards}]}{rest}"
#: Every line of a Winning hand before 2019 but the header, in the slot notation
#: (studeval.histories._wording). A card a line; the street markers name the street
#: before; a raise's amount is its total.
WORDS_2016 = Wording(
    seat=("Seat {seat}: {name} ({stack}).",),
    streets={4: (_STREET_2016 % "Third street",), 5: (_STREET_2016 % "Fourth street",),
             6: (_STREET_2016 % "Fifth street",), 7: (_STREET_2016 % "Sixth street",),
             9: (_STREET_2016 % "Summary",)},
    lines=(
        ("ante", _PLAYER + " ante ({amount})"),
        ("deal", _PLAYER + " received {a card.|card: [{cards}]}"),
        ("bring_in", _PLAYER + " bring in ({amount})"),
        ("bet", _PLAYER + " bets ({amount})"),
        ("raise", _PLAYER + " raises ({to})"),
        ("all_in", _PLAYER + " allin ({amount})"),
        ("call", _PLAYER + " calls ({amount})"),
        ("check", _PLAYER + " checks"),
        ("fold", _PLAYER + " folds"),
        ("return", "Uncalled bet ({amount}) returned to {name}"),
        ("muck", _PLAYER + " mucks cards"),
    ),
    reveals=(_PLAYER + " shows: {text}[{cards}]{rest}",),
    totals=("Pot: {pot}. Rake {rake}{?. JP fee {fee}}{rest}",),
    summary=(_PLAYER + " {text}Bets: {bet}. Collects: {won}.{rest}",),
    ignore=("Game ended at: {rest}",
            "{text} {is sitting out|sits out|is back|timed out|is disconnected|is connected"
            "|has joined|has left}{rest}"),
)  # fmt: skip

GRAMMAR_2016 = Grammar(site=SITE, start=_START_2016, header=_header_2016, words=WORDS_2016,
                       first_street=3, card_by_card=True, pot_after_rake=True, strict_prefix=" ",
                       rules=HouseRules(odd_chip_half="low"),
                       last_section=re.escape("------ Summary ------"),
                       last_section_lines=section_lines(r"\*?Player ", "Pot: ",
                                                        "Game ended at: "))  # fmt: skip

_TITLES_2016 = {"stud": "Seven Cards Stud", "stud8": "Seven Cards Stud HiLow", "razz": "Razz"}


def _write_header_2016(hand: StudHand, table: Table, money: Callable[[int], str]) -> list[str]:
    s = hand.stakes
    at = table.played_at
    plain = Table(names=table.names, unit=table.unit, sign="")  # "1/2", no sign
    return [
        f"Game started at: {at.year}/{at.month}/{at.day} {at.hour}:{at.minute}:{at.second}",
        f"Game ID: {table.hand_id} {amount_text(s.small_bet, plain)}/"
        f"{amount_text(s.big_bet, plain)} (PRR) {table.table} ({_TITLES_2016[hand.game]})",
    ]


#: How the Winning Poker Network's software before 2019 words a hand (used by
#: :func:`write_2016`): a line a card, a summary line a player.
PHRASES_2016 = WORDS_2016.phrases(
    header=_write_header_2016,
    community="*** Sixth street *** [{card}]",
    deal_down_up="Player {name} received card: [{first}]\nPlayer {name} received card: "
                 "[{second}]\nPlayer {name} received card: [{new}]",
    deal_up="Player {name} received a card.\nPlayer {name} received a card.\n"
            "Player {name} received card: [{new}]",
    deal_more="Player {name} received card: [{new}]",
    complete="Player {name} raises ({to})",
    show="*Player {name} shows: [{cards}].",
    collect="Player {name} does not show cards.Bets: {bet}. Collects: {amount}. Wins: 0.",
    summary="------ Summary ------",
    pot_after_rake=True,
    collect_in_summary=True,
    shows_in_summary=True,
    collects_all=True,
)  # fmt: skip


def write_2016(hand: StudHand, table: Table) -> str:
    """A finished hand as the Winning Poker Network's software before 2019 wrote it
    (that software gave the odd chip of a hi/lo split to the low half: play the hand
    under ``HouseRules(odd_chip_half="low")`` for its text to read back the same).

    >>> from studeval.histories import read
    >>> from studeval.play import random_hand
    >>> hand = random_hand("stud8", 3, seed=4, rules=GRAMMAR_2016.rules)
    >>> next(read(write_2016(hand, Table(names=["Ann", "Bob", "Cy"])))).hand.stacks == hand.stacks
    True
    """
    return write_hand(hand, table, PHRASES_2016)


#: The room, as the list of rooms (studeval.histories.rooms.ROOMS) holds it.
ROOM = Room(
    site=SITE,
    about=(
        "the Winning Poker Network (Americas Cardroom, True Poker): its format since 2019 "
        "and the older one"
    ),
    formats=(GRAMMAR, GRAMMAR_2016),
    writers={"Winning": write, "Winning 2016": write_2016},
)
