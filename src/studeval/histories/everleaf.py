"""Everleaf Gaming text hand histories.

Amounts are written in brackets with the currency's code (``[€ 0.05 EURO]``); a
call's and a raise's amount is what the action adds, a completion's (``completes to
€0.05.``) the street total. Everleaf writes no line for an uncalled bet given back
and no rake: the winner's ``wins € 0.40 EURO from main pot`` is the pot less the
rake, so the rake is taken to be what the pots held less what was won. Files from
before August 2011 write no other player's up cards, and are refused for that (the
bring-in and the order of play depend on them).

>>> from studeval.histories import read
>>> history = next(read(EVERLEAF_EXAMPLE))
>>> history.site, history.hand_id, history.currency, history.hero, history.rake
('Everleaf', '300100200', 'EUR', 'Nadia', 2)
>>> history.hand.stacks, history.hand.result.returned  # Olek's last bet came back
([234, 264], [0, 10])
"""

from __future__ import annotations

import datetime
import re

from studeval.histories._grammar import Grammar, Header
from studeval.histories._text import MONEY, currency_of, money

__all__ = ["EVERLEAF_EXAMPLE", "GRAMMAR"]

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
                      r"Dealing 6th Street|Dealing River) \*+", re.IGNORECASE),
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


EVERLEAF_EXAMPLE = """\
Everleaf Gaming Game #300100200
***** Hand history for game #300100200 *****
€0.05/€0.10 7 Card Stud - 2026/12/02 - 12:00:00
Table Tammela
Total number of players: 2
Seat 3: Nadia (  € 2.50 EURO )
Seat 6: Olek (  € 2.50 EURO )
Nadia: posts ante [€ 0.01 EURO]
Olek: posts ante [€ 0.01 EURO]
** Dealing down cards **
Dealt to Nadia [ 9h, 9c, 4s ].
Dealt to Olek [ Kd ].
Nadia posts bring-in €0.02.
Olek completes to €0.05.
Nadia raises [€ 0.08 EURO]
Olek calls [€ 0.05 EURO]
** Dealing 4th Street **
Dealt to Nadia [ 2h ].
Dealt to Olek [ 7c ].
Olek: bets [€ 0.05 EURO]
Nadia calls [€ 0.05 EURO]
** Dealing 5th Street **
Dealt to Nadia [ Jd ].
Dealt to Olek [ Ks ].
Olek: bets [€ 0.10 EURO]
Nadia folds
Olek does not show cards
Olek wins € 0.30 EURO from main pot
"""
