"""iPoker XML hand histories: a ``<session>`` of ``<game>`` elements.

iPoker writes each hand as XML: the players with their chips, what each bet and
won (``bet`` and ``win``, the uncalled part included in both), and one ``<round>``
a street whose ``<action>`` elements are numbered in the order they happened
(listed seat by seat, so the number decides) and whose ``<cards>`` show each seat's
cards for the street (``X`` for one not seen; a suit letter before the rank,
``S10``). There is no rake field: the rake is what was bet less what was won. The
stakes are in the session's ``<gametype>`` for cash games; a tournament's are read
from its wagers by the replay.

>>> from studeval.histories import read
>>> history = next(read(IPOKER_EXAMPLE))
>>> history.site, history.game, history.hand.stacks, history.rake
('iPoker', 'stud', [158, 242], 0)
"""

from __future__ import annotations

import datetime
import re
import xml.etree.ElementTree as ElementTree
from collections.abc import Iterator
from decimal import Decimal

from studeval.histories._record import HistoryError, Step, StepKind, Transcript
from studeval.histories._text import MONEY, currency_of, money

__all__ = ["IPOKER_EXAMPLE", "START", "transcripts"]

SITE = "iPoker"
#: How an iPoker file starts (after the XML declaration).
START = re.compile(r"^\s*<session\b")
_KINDS: dict[str, StepKind] = {
    "0": "fold", "3": "call", "4": "check", "5": "bet", "23": "raise", "15": "ante",
    "16": "bring_in", "7": "all_in",
}  # fmt: skip
#: Action codes that move no chips in stud (blinds, sitting out): passed over.
_IGNORED = {"1", "2", "8", "9"}
_STREETS = {"Third Street": 3, "Fourth Street": 4, "Fifth Street": 5, "Sixth Street": 6,
            "River": 7, "Seventh Street": 7}  # fmt: skip
_RANKS = {"10": "T"}


def _card(text: str) -> str | None:
    """iPoker's card (suit first: ``DA``, ``H10``) as ours; ``X`` is unknown."""
    if text.upper() == "X":
        return None
    suit, rank = text[0], text[1:]
    return _RANKS.get(rank, rank).upper() + suit.lower()


def _amount(text: str | None) -> Decimal:
    found = re.search(MONEY, (text or "0").replace("\u20ac", "$").replace("\ufffd", "$"))
    return money(found.group(0)) if found else Decimal(0)


def _game(text: str) -> str | None:
    lowered = text.lower()
    if "razz" in lowered:
        return "razz"
    if "7 card stud" not in lowered:
        return None
    return "stud8" if "hi-lo" in lowered or "hi/lo" in lowered else "stud"


def transcripts(
    text: str, first_line: int, source: str | None
) -> Iterator[Transcript | HistoryError]:
    """Every ``<game>`` of an iPoker session as a transcript (or the error that
    stops it)."""
    try:
        root = ElementTree.fromstring(re.sub(r"^\s*<\?xml[^>]*\?>", "", text))
    except ElementTree.ParseError as err:
        yield HistoryError(f"not well-formed XML: {err}", site=SITE, line=first_line,
                           source=source)  # fmt: skip
        return
    general = root.find("general")
    game_text = general.findtext("gametype", "") if general is not None else ""
    hero = general.findtext("nickname") if general is not None else None
    table = general.findtext("tablename") if general is not None else None
    currency = (general.findtext("tablecurrency") or general.findtext("currency")
                if general is not None else None)  # fmt: skip
    tournament_name = general.findtext("tournamentname") if general is not None else None
    stakes = re.search(rf"({MONEY})/({MONEY})", game_text.replace("\ufffd", "$"))
    for game in root.iter("game"):
        hand_id = game.get("gamecode", "")
        try:
            yield _transcript(game, hand_id, game_text, stakes, hero, table, currency,
                              tournament_name, first_line, source)  # fmt: skip
        except (ValueError, IndexError, KeyError) as err:
            yield HistoryError(f"cannot be read: {err}", site=SITE, hand_id=hand_id,
                               line=first_line, source=source)  # fmt: skip


def _transcript(game: ElementTree.Element, hand_id: str, game_text: str,
                stakes: re.Match[str] | None, hero: str | None, table: str | None,
                currency: str | None, tournament: str | None, first_line: int,
                source: str | None) -> Transcript | HistoryError:  # fmt: skip
    kind = _game(game_text)
    if kind is None:
        return HistoryError(f"not a seven-card stud game: {game_text}", site=SITE,
                            hand_id=hand_id, line=first_line, source=source)  # fmt: skip
    seats, bet, won = [], {}, {}
    for player in game.iter("player"):
        name = player.get("name", "")
        seats.append((int(player.get("seat", "0")), name, _amount(player.get("chips"))))
        bet[name], won[name] = _amount(player.get("bet")), _amount(player.get("win"))
    steps: list[Step] = []
    for round_ in sorted(game.iter("round"), key=lambda r: int(r.get("no", "0"))):
        street = int(round_.get("no", "0")) + 1
        actions = sorted(round_.iter("action"), key=lambda a: int(a.get("no", "0")))
        dealt = list(round_.iter("cards"))
        if 3 <= street <= 7 and (dealt or actions):
            community = [c for c in dealt if not c.get("player")]
            cards = tuple(_card(c) for c in (community[0].text or "").split()) if community else ()
            steps.append(Step(first_line, "street", street=street, cards=cards[:1]))
        for element in dealt:
            if element.get("player") and _STREETS.get(element.get("type", "")) == street:
                cards = tuple(_card(c) for c in (element.text or "").split())
                steps.append(Step(first_line, "deal", element.get("player"), cards=cards,
                                  street=street))  # fmt: skip
        for action in actions:
            code = action.get("type", "")
            if code in _IGNORED:
                continue
            if code not in _KINDS:
                raise ValueError(f"action {action.get('no')} has unknown type {code}")
            amount = _amount(action.get("sum"))
            if code == "23":  # a raise's sum is its street total
                steps.append(Step(first_line, "raise", action.get("player"), to=amount,
                                  street=street))  # fmt: skip
            else:
                steps.append(Step(first_line, _KINDS[code], action.get("player"), amount,
                                  street=street))  # fmt: skip
    # A tournament names no limits: the replay reads them from the wagers.
    small, big = (money(stakes.group(1)), money(stakes.group(2))) if stakes else (Decimal(0),) * 2
    revealed = {}
    for step in steps:
        if step.kind == "deal" and step.name and step.street == 3 and step.cards[:1] != (None,):
            revealed[step.name] = tuple(c for s in steps if s.kind == "deal" and s.name == step.name
                                        for c in s.cards if c is not None)  # fmt: skip
    started = game.findtext("general/startdate") or ""
    played_at = None
    with_time = re.match(r"(\d{4})-(\d{2})-(\d{2}) (\d{1,2}):(\d{2}):(\d{2})", started)
    if with_time:
        y, mo, d, h, mi, sec = map(int, with_time.groups())
        played_at = datetime.datetime(y, mo, d, h, mi, sec)
    transcript = Transcript(
        site=SITE, hand_id=hand_id, game=kind, small_bet=small, big_bet=big, seats=seats,
        steps=steps, table=table, tournament=tournament if tournament else None,
        played_at=played_at, currency=None if tournament else currency_of(currency or ""),
        hero=hero if any(s.name == hero for s in steps) else None, revealed=revealed,
        # A tournament takes no rake; there, "bet" overstates by an ante the players of
        # an all-in pot, so only what each won is checked.
        rake=Decimal(0) if tournament else sum(bet.values(), Decimal(0)) - sum(won.values()),
        text=ElementTree.tostring(game, encoding="unicode"), line=first_line, source=source,
        collects_returns=True, contributed=None if tournament else bet,
    )  # fmt: skip
    transcript.steps += [Step(first_line, "collect", name, amount) for name, amount in won.items()
                         if amount]  # fmt: skip
    return transcript


IPOKER_EXAMPLE = """<?xml version="1.0" encoding="utf-8"?>
<session sessioncode="1">
  <general><gametype>7 Card Stud L 10/20</gametype><tablename>Example</tablename>
    <nickname>Hero</nickname></general>
  <game gamecode="100">
    <general><startdate>2026-12-02 12:00:00</startdate><players>
      <player seat="1" name="Hero" chips="200" win="0" bet="42"/>
      <player seat="2" name="Villain" chips="200" win="104" bet="62"/>
    </players></general>
    <round no="0"><action no="1" player="Hero" type="15" sum="2"/>
      <action no="2" player="Villain" type="15" sum="2"/></round>
    <round no="2"><cards type="Third Street" player="Hero">S2 H7 C3</cards>
      <cards type="Third Street" player="Villain">X X DK</cards>
      <action no="3" player="Hero" type="16" sum="5"/>
      <action no="5" player="Hero" type="3" sum="5"/>
      <action no="4" player="Villain" type="5" sum="10"/></round>
    <round no="3"><cards type="Fourth Street" player="Hero">D9</cards>
      <cards type="Fourth Street" player="Villain">SK</cards>
      <action no="6" player="Villain" type="5" sum="10"/>
      <action no="7" player="Hero" type="3" sum="10"/></round>
    <round no="4"><cards type="Fifth Street" player="Hero">C9</cards>
      <cards type="Fifth Street" player="Villain">H4</cards>
      <action no="8" player="Villain" type="5" sum="20"/>
      <action no="9" player="Hero" type="3" sum="20"/></round>
    <round no="5"><cards type="Sixth Street" player="Hero">DQ</cards>
      <cards type="Sixth Street" player="Villain">C5</cards>
      <action no="10" player="Villain" type="5" sum="20"/>
      <action no="11" player="Hero" type="0" sum="0"/></round>
  </game>
</session>
"""
