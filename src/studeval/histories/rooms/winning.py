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
import re
from collections.abc import Callable

from studeval.engine import StudHand
from studeval.histories._grammar import Grammar, Header
from studeval.histories._room import Room
from studeval.histories._text import MONEY, currency_of, money, zoned
from studeval.histories._writer import Phrases, Table, amount_text, write_hand
from studeval.houserules import HouseRules

__all__ = [
    "GRAMMAR", "GRAMMAR_2016", "PHRASES", "PHRASES_2016", "ROOM", "write", "write_2016",
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


def _when(text: str) -> datetime.datetime | None:
    found = _TIME.search(text)
    if not found:
        return None
    y, mo, d, h, mi, s = (int(x) for x in found.groups()[:6])
    return zoned(datetime.datetime(y, mo, d, h, mi, s), found.group(7))


def _header(lines: list[str]) -> Header:
    found = _HEAD.match(lines[0])
    if not found:
        raise ValueError("not a Winning hand")
    rest = found["rest"]
    tournament = re.search(r"Tournament #(\d+)", rest)
    named = _GAME.search(rest.split(" - ", 1)[1] if tournament else rest)
    if named is None:
        raise ValueError(f"no game in {rest!r}")
    stakes = _STAKES.search(rest[named.end() :])
    if stakes is None:
        raise ValueError(f"no stakes in {rest!r}")
    return Header(
        hand_id=found["id"], game=_game(named["game"], named["limit"] == "Fixed Limit"),
        game_text=named.group(0), small_bet=money(stakes["small"]),
        big_bet=money(stakes["big"]), table=lines[1].split(" ", 1)[0] if len(lines) > 1 else None,
        tournament=tournament.group(1) if tournament else None, played_at=_when(rest),
        currency=None if tournament else currency_of(stakes.group(0)),
    )  # fmt: skip


_NAME = r"(?P<name>.+?)"
_ALL_IN = r"(?P<all_in> and is all-in)?"
GRAMMAR = Grammar(
    site=SITE,
    start=_HEAD,
    header=_header,
    seat=re.compile(rf"^Seat (?P<seat>\d+): {_NAME} \((?P<stack>{MONEY})\)"
                    r"(?P<out> is sitting out)?\s*$"),
    street=re.compile(r"^\*\*\* (?P<street>3rd STREET|4th STREET|5th STREET|6th STREET|"
                      r"7th STREET|SHOW DOWN|SHOWDOWN|SUMMARY) \*\*\*(?P<cards> \[[^\]]*\])?"),
    streets={"3rd street": 3, "4th street": 4, "5th street": 5, "6th street": 6,
             "7th street": 7, "show down": 8, "showdown": 8, "summary": 9},
    hints={"ante": " posts ante ", "deal": "Dealt to ", "bring_in": " brings",
           "bet": " bets ", "raise": " raises ", "call": " calls ", "check": " checks",
           "fold": " folds", "return": "Uncalled bet (", "show": " shows [",
           "collect": " collected "},
    lines=(
        ("ante", re.compile(rf"^{_NAME} posts ante (?P<amount>{MONEY}){_ALL_IN}$")),
        ("deal", re.compile(rf"^Dealt to (?=.*\]\s*$){_NAME} (?P<cards>\[.*\])\s*$")),
        ("bring_in", re.compile(rf"^{_NAME} brings[- ]in(?: low)? (?P<amount>{MONEY}){_ALL_IN}$")),
        ("bet", re.compile(rf"^{_NAME} bets (?P<amount>{MONEY}){_ALL_IN}$")),
        # "raises $A to $B": only B is reliable.
        ("raise", re.compile(rf"^{_NAME} raises {MONEY} to (?P<to>{MONEY}){_ALL_IN}$")),
        ("call", re.compile(rf"^{_NAME} calls (?P<amount>{MONEY}){_ALL_IN}$")),
        ("check", re.compile(rf"^{_NAME} checks\s*$")),
        ("fold", re.compile(rf"^{_NAME} folds\s*$")),
        ("return", re.compile(rf"^Uncalled bet \((?P<amount>{MONEY})\) returned to {_NAME}$")),
        ("show", re.compile(rf"^{_NAME} shows (?P<cards>\[[^\[\]]*\]).*$")),
        ("muck", re.compile(rf"^{_NAME} (?:mucks hand|does not show).*$")),
        ("collect", re.compile(rf"^{_NAME} collected (?P<amount>{MONEY}) from .*pot.*$")),
    ),
    reveals=(
        re.compile(rf"^{_NAME} shows (?P<cards>\[[^\[\]]*\])"),
        re.compile(rf"^Seat \d+: {_NAME} (?:\([^()]*\) )?(?:showed|mucked) "
                   r"(?P<cards>\[[^\[\]]*\])"),
    ),
    reveal_hints=("show", "muck"),
    totals=re.compile(rf"^Total pot (?P<pot>{MONEY})(?: \| Rake (?P<rake>{MONEY}))?"
                      rf"(?: \| JP Fee (?P<fee>{MONEY}))?\s*$"),
    summary=(re.compile(rf"^Seat \d+: {_NAME} (?:\([^)]*\) )?(?:did not show|showed \[[^\]]*\])"
                        rf" and (?:won|collected) (?P<won>{MONEY})"),),
    pot_after_rake=True,
    strict_prefix=" ",
    ignore=(
        re.compile(r"^(?:Main|Side) pot(?: \d+)? "),
        re.compile(r".* (?:is sitting out|sits out|is back|has returned|timed out|"
                   r"is disconnected|is connected|joins the table|leaves the table).*$"),
    ),
    # The lines of nearly every hand, for the C reader (a hand with any other line
    # is read by the patterns above). In the patterns' order; slots: studeval.h.
    templates=(
        ("seat", 0, "Seat {seat}: {name} ({amount})"),
        ("seat", 0, "Seat {seat}: {name} ({amount}) is sitting out"),
        ("street", 3, "*** 3rd STREET ***{rest}"),
        ("street", 4, "*** 4th STREET ***{rest}"),
        ("street", 5, "*** 5th STREET ***{rest}"),
        ("street", 6, "*** 6th STREET ***{rest}"),
        ("street", 7, "*** 7th STREET ***{rest}"),
        ("street", 8, "*** SHOW DOWN ***{rest}"),
        ("street", 8, "*** SHOWDOWN ***{rest}"),
        ("street", 9, "*** SUMMARY ***{rest}"),
        ("reveal", 0, "{name} shows {cards}{rest}"),
        ("reveal", 0, "Seat {seat}: {name} ({notparen}) showed {cards}{rest}"),
        ("reveal", 0, "Seat {seat}: {name} showed {cards}{rest}"),
        ("reveal", 0, "Seat {seat}: {name} ({notparen}) mucked {cards}{rest}"),
        ("reveal", 0, "Seat {seat}: {name} mucked {cards}{rest}"),
        ("total", 0, "Total pot {amount} | Rake {to}"),
        ("total", 0, "Total pot {amount}"),
        ("won", 0, "Seat {seat}: {name} ({notparen}) did not show and won {amount}{rest}"),
        ("won", 0, "Seat {seat}: {name} did not show and won {amount}{rest}"),
        ("won", 0, "Seat {seat}: {name} ({notparen}) showed {cards} and won {amount}{rest}"),
        ("won", 0, "Seat {seat}: {name} showed {cards} and won {amount}{rest}"),
        ("strict", 0, " "),  # strict_prefix: another line is passed over
        ("ante", 0, "{name} posts ante {amount}{? and is all-in}"),
        ("deal", 0, "Dealt to {name} {allcards}"),
        ("bring_in", 0, "{name} brings in {amount}{? and is all-in}"),
        ("bring_in", 0, "{name} brings-in {amount}{? and is all-in}"),
        ("bring_in", 0, "{name} brings in low {amount}{? and is all-in}"),
        ("bring_in", 0, "{name} brings-in low {amount}{? and is all-in}"),
        ("bet", 0, "{name} bets {amount}{? and is all-in}"),
        ("raise", 0, "{name} raises {money} to {to}{? and is all-in}"),
        ("call", 0, "{name} calls {amount}{? and is all-in}"),
        ("check", 0, "{name} checks"),
        ("fold", 0, "{name} folds"),
        ("return", 0, "Uncalled bet ({amount}) returned to {name}"),
        ("show", 0, "{name} shows {cards}{rest}"),
        ("muck", 0, "{name} mucks hand{rest}"),
        ("muck", 0, "{name} does not show{rest}"),
        ("collect", 0, "{name} collected {amount} from pot{rest}"),
        ("collect", 0, "{name} collected {amount} from main pot{rest}"),
        ("collect", 0, "{name} collected {amount} from side pot{rest}"),
        ("collect", 0, "{name} collected {amount} from the pot{rest}"),
    ),
)  # fmt: skip

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
PHRASES = Phrases(
    header=_write_header,
    seat="Seat {seat}: {name} ({stack})",
    ante="{name} posts ante {amount}{all_in}",
    streets={3: "*** 3rd STREET ***", 4: "*** 4th STREET ***", 5: "*** 5th STREET ***",
             6: "*** 6th STREET ***", 7: "*** 7th STREET ***"},
    community="*** 7th STREET *** [{card}]",
    deal_down_up="Dealt to {name} [{cards} {new}]",
    deal_up="Dealt to {name} [{new}]",
    deal_more="Dealt to {name} [{cards}] [{new}]",
    bring_in="{name} brings in {amount}{all_in}",
    complete="{name} raises {added} to {to}{all_in}",
    bet="{name} bets {amount}{all_in}",
    raise_="{name} raises {added} to {to}{all_in}",
    call="{name} calls {amount}{all_in}",
    check="{name} checks",
    fold="{name} folds",
    all_in=" and is all-in",
    returned="Uncalled bet ({amount}) returned to {name}",
    show="{name} shows [{cards}]",
    muck="{name} mucks hand",
    collect="Seat {seat}: {name} did not show and won {amount}",
    showdown="*** SHOW DOWN ***",
    summary="*** SUMMARY ***",
    total="Total pot {pot} | Rake {rake}",
    pot_after_rake=True,
    collect_in_summary=True,
)  # fmt: skip


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
    found = next((m for m in map(_GAME_ID.match, lines) if m), None)
    if found is None:
        raise ValueError("no 'Game ID' line")
    rest = found["rest"]
    named = re.search(r"\(([^()]*)\)\s*$", rest)
    game_text = named.group(1) if named else rest
    table = re.sub(r"^\([^)]*\)\s*", "", rest[: named.start()] if named else rest).strip()
    return Header(
        hand_id=found["id"], game=_game(game_text, fixed_limit=True), game_text=game_text,
        small_bet=money(found["small"]), big_bet=money(found["big"]), table=table or None,
        played_at=_when(lines[0]),
    )  # fmt: skip


_PLAYER = r"^\*?Player (?P<name>.+?)"
GRAMMAR_2016 = Grammar(
    site=SITE,
    start=_START_2016,
    header=_header_2016,
    seat=re.compile(rf"^Seat (?P<seat>\d+): (?P<name>.+?) \((?P<stack>{MONEY})\)\.\s*$"),
    street=re.compile(r"^(?:\*\*\*|-+) (?P<street>Third street|Fourth street|Fifth street|"
                      r"Sixth street|Summary) (?:\*\*\*|-+)(?P<cards> \[[^\]]*\])?"),
    streets={"third street": 4, "fourth street": 5, "fifth street": 6, "sixth street": 7,
             "summary": 9},
    first_street=3,
    card_by_card=True,
    hints={"ante": " ante (", "deal": " received ", "bring_in": " bring in (",
           "bet": " bets (", "raise": " raises (", "all_in": " allin", "call": " calls (",
           "check": " checks", "fold": " folds", "return": "Uncalled bet (", "muck": " mucks"},
    lines=(
        ("ante", re.compile(rf"{_PLAYER} ante \((?P<amount>{MONEY})\)$")),
        ("deal", re.compile(rf"{_PLAYER} received (?:a card\.|card: (?P<cards>\[[^\[\]]*\]))\s*$")),
        ("bring_in", re.compile(rf"{_PLAYER} bring in \((?P<amount>{MONEY})\)$")),
        ("bet", re.compile(rf"{_PLAYER} bets \((?P<amount>{MONEY})\)$")),
        ("raise", re.compile(rf"{_PLAYER} raises \((?P<to>{MONEY})\)$")),  # the total
        ("all_in", re.compile(rf"{_PLAYER} allin \((?P<amount>{MONEY})\)$")),
        ("call", re.compile(rf"{_PLAYER} calls \((?P<amount>{MONEY})\)$")),
        ("check", re.compile(rf"{_PLAYER} checks\s*$")),
        ("fold", re.compile(rf"{_PLAYER} folds\s*$")),
        ("return", re.compile(rf"^Uncalled bet \((?P<amount>{MONEY})\) returned to "
                              r"(?P<name>.+?)$")),
        ("muck", re.compile(rf"{_PLAYER} mucks cards\s*$")),
    ),
    reveals=(re.compile(rf"{_PLAYER} shows: [^\[]*(?P<cards>\[[^\[\]]*\])"),),
    reveal_hints=("shows: ",),
    totals=re.compile(rf"^Pot: (?P<pot>{MONEY})\. Rake (?P<rake>{MONEY})"
                      rf"(?:\. JP fee (?P<fee>{MONEY}))?"),
    summary=(re.compile(rf"{_PLAYER} .*Bets: (?P<bet>{MONEY})\. Collects: (?P<won>{MONEY})\."),),
    pot_after_rake=True,
    strict_prefix=" ",
    ignore=(re.compile(r"^Game ended at: "),
            re.compile(r".* (?:is sitting out|sits out|is back|timed out|is disconnected|"
                       r"is connected|has joined|has left).*$")),
    rules=HouseRules(odd_chip_half="low"),
)  # fmt: skip


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
PHRASES_2016 = Phrases(
    header=_write_header_2016,
    seat="Seat {seat}: {name} ({stack}).",
    ante="Player {name} ante ({amount})",
    streets={3: "", 4: "*** Third street ***", 5: "*** Fourth street ***",
             6: "*** Fifth street ***", 7: "*** Sixth street ***"},
    community="*** Sixth street *** [{card}]",
    deal_down_up="Player {name} received card: [{first}]\nPlayer {name} received card: "
                 "[{second}]\nPlayer {name} received card: [{new}]",
    deal_up="Player {name} received a card.\nPlayer {name} received a card.\n"
            "Player {name} received card: [{new}]",
    deal_more="Player {name} received card: [{new}]",
    bring_in="Player {name} bring in ({amount})",
    complete="Player {name} raises ({to})",
    bet="Player {name} bets ({amount})",
    raise_="Player {name} raises ({to})",
    call="Player {name} calls ({amount})",
    check="Player {name} checks",
    fold="Player {name} folds",
    all_in="",
    returned="Uncalled bet ({amount}) returned to {name}",
    show="*Player {name} shows: [{cards}].",
    muck="Player {name} mucks cards",
    collect="Player {name} does not show cards.Bets: {bet}. Collects: {amount}. Wins: 0.",
    showdown="",
    summary="------ Summary ------",
    total="Pot: {pot}. Rake {rake}",
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
