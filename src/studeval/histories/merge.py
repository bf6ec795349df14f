"""Merge Gaming Network XML hand histories: ``<game>`` elements, each after a
``<description>`` of the game and its limits.

Each ``<round>`` holds its ``<event>`` elements, numbered in the order they
happened, and each seat's cards after the street's deal (``null`` for one not
seen; the hero's as ``HOLE``, cards shown at the end as ``SHOWN`` or ``MUCKED``).
A raise, a completion and a bet give the seat's street total; a call and an all-in
what they put in. ``<winner>`` gives what each took, an uncalled bet given back
included; the rake is what went in less what came out.

>>> from studeval.histories import read
>>> history = next(read(MERGE_EXAMPLE))
>>> history.site, history.game, history.hand.stacks, history.rake
('Merge', 'razz', [210, 188], 2)
"""

from __future__ import annotations

import datetime
import re
import xml.etree.ElementTree as ElementTree
from collections.abc import Iterator
from decimal import Decimal

from studeval.histories._record import HistoryError, Step, StepKind, Transcript
from studeval.histories._text import MONEY, currency_of, money

__all__ = ["MERGE_EXAMPLE", "SITE", "START", "transcripts"]

SITE = "Merge"
#: How a Merge file starts.
START = re.compile(r"^\s*<description\b")
_ROUNDS = {"BLINDS": 0, "BRING_IN": 3, "THIRD_STREET": 3, "FOURTH_STREET": 4, "FIFTH_STREET": 5,
           "SIXTH_STREET": 6, "SEVENTH_STREET": 7, "SHOWDOWN": 8, "END_OF_GAME": 8,
           "END_OF_FOLDED_GAME": 8}  # fmt: skip
_KINDS: dict[str, StepKind] = {
    "ANTE": "ante", "BRING_IN": "bring_in", "COMPLETE": "complete", "BET": "bet",
    "RAISE": "raise", "CALL": "call", "CHECK": "check", "FOLD": "fold", "ALL_IN": "all_in",
    "SHOW": "show", "MUCK": "muck",
}  # fmt: skip
#: The wagers whose amount is the seat's street total.
_TOTALS = {"COMPLETE", "BET", "RAISE"}
_GAMES = {"razz": "razz", "7-stud": "stud", "7-stud h/l8": "stud8", "7-stud h/l": "stud8"}


def _cards(text: str | None) -> tuple[str | None, ...]:
    return tuple(None if c in ("null", "") else c for c in (text or "").split(","))


def transcripts(
    text: str, first_line: int, source: str | None
) -> Iterator[Transcript | HistoryError]:
    """Every ``<game>`` of a Merge file as a transcript (or the error that stops it)."""
    try:
        root = ElementTree.fromstring(f"<merge>{re.sub(r'<[?]xml[^>]*[?]>', '', text)}</merge>")
    except ElementTree.ParseError as err:
        yield HistoryError(f"not well-formed XML: {err}", site=SITE, line=first_line,
                           source=source)  # fmt: skip
        return
    description = None
    for element in root:
        if element.tag == "description":
            description = element
        elif element.tag == "game":
            hand_id = element.get("id", "")
            try:
                yield _transcript(element, description, first_line, source)
            except (ValueError, IndexError, KeyError) as err:
                yield HistoryError(f"cannot be read: {err}", site=SITE, hand_id=hand_id,
                                   line=first_line, source=source)  # fmt: skip


def _transcript(game: ElementTree.Element, description: ElementTree.Element | None,
                first_line: int, source: str | None) -> Transcript | HistoryError:  # fmt: skip
    hand_id = game.get("id", "")
    kind_text = description.get("type", "") if description is not None else ""
    stakes_text = description.get("stakes", "") if description is not None else ""
    game_name = _GAMES.get(kind_text.lower())
    if game_name is None or not stakes_text.startswith("Limit"):
        return HistoryError(f"not a fixed-limit seven-card stud game: {kind_text} "
                            f"{stakes_text}".strip(), site=SITE, hand_id=hand_id,
                            line=first_line, source=source)  # fmt: skip
    limits = re.findall(MONEY, stakes_text)
    small, big = money(limits[0]), money(limits[1])
    names = {p.get("seat", ""): p.get("nickname", "") for p in game.iter("player")}
    seats = [(int(p.get("seat", "0")), p.get("nickname", ""), money(p.get("balance", "0")))
             for p in game.iter("player") if p.get("dealtin", "true") == "true"]  # fmt: skip
    steps: list[Step] = []
    revealed: dict[str, tuple[str, ...]] = {}
    hero = None
    put_in: dict[str, Decimal] = {}
    street_total: dict[str, Decimal] = {}
    for round_ in game.iter("round"):
        street = _ROUNDS.get(round_.get("id", ""), -1)
        if street < 0:
            raise ValueError(f"an unknown round {round_.get('id')!r}")
        if 3 <= street <= 7 and round_.get("id") != "THIRD_STREET":
            steps.append(Step(first_line, "street", street=street))
            street_total = {}
        for cards in round_.iter("cards"):
            name = names.get(cards.get("player", ""), "")
            dealt = _cards(cards.get("cards"))
            if cards.get("type") in ("SHOWN", "MUCKED"):
                revealed[name] = tuple(c for c in dealt if c is not None)
            elif 3 <= street <= 7 and round_.get("id") != "THIRD_STREET":
                if cards.get("type") == "HOLE":
                    hero = name
                new = dealt if street == 3 else dealt[-1:]
                steps.append(Step(first_line, "deal", name, cards=new, street=street))
        for event in sorted(round_.iter("event"), key=lambda e: int(e.get("sequence", "0"))):
            code = event.get("type", "")
            if code not in _KINDS:
                continue  # sitting out, chat and the like move no chips
            name = names.get(event.get("player", ""), "")
            amount = money(event.get("amount", "0")) if event.get("amount") else None
            if code in _TOTALS and amount is not None:
                added = amount - street_total.get(name, Decimal(0))
                street_total[name] = amount
                steps.append(Step(first_line, _KINDS[code], name, to=amount, street=street))
            else:
                added = amount or Decimal(0)
                if code != "ANTE":
                    street_total[name] = street_total.get(name, Decimal(0)) + added
                steps.append(Step(first_line, _KINDS[code], name, amount, street=street))
            put_in[name] = put_in.get(name, Decimal(0)) + added
    paid_out = Decimal(0)
    for winner in game.iter("winner"):
        name = names.get(winner.get("player", ""), "")
        amount = money(winner.get("amount", "0"))
        paid_out += amount
        steps.append(Step(first_line, "collect", name, amount, street=8))
    started = game.get("starttime", "")
    played_at = None
    if re.fullmatch(r"\d{14}", started):
        played_at = datetime.datetime.strptime(started, "%Y%m%d%H%M%S")
    table = [*game.get("data", "").split("|"), "", ""][1] or None
    return Transcript(
        site=SITE, hand_id=hand_id, game=game_name, small_bet=small, big_bet=big, seats=seats,
        steps=steps, table=table, played_at=played_at,
        currency=currency_of(stakes_text) if game.get("realmoney") == "true" else None,
        hero=hero, revealed=revealed, rake=sum(put_in.values(), Decimal(0)) - paid_out,
        text=ElementTree.tostring(game, encoding="unicode"), line=first_line, source=source,
        collects_returns=True,
    )  # fmt: skip


MERGE_EXAMPLE = """\
<description type="Razz" stakes="Limit $0.10/$0.20"/>
<game id="1-1" starttime="20261202120000" realmoney="true" data="20261202|Example (1)|1|1-1">
  <players dealer="1">
    <player seat="1" nickname="Hero" balance="$2.00" dealtin="true"/>
    <player seat="2" nickname="Villain" balance="$2.00" dealtin="true"/>
  </players>
  <round id="BLINDS" sequence="1">
    <event sequence="1" type="ANTE" player="1" amount="0.02"/>
    <event sequence="2" type="ANTE" player="2" amount="0.02"/>
  </round>
  <round id="BRING_IN" sequence="2">
    <event sequence="3" type="BRING_IN" player="2" amount="0.05"/>
    <cards type="HOLE" cards="As,2h,3c" player="1"/>
    <cards type="DRAW_DRAWN_CARDS" cards="null,null,Kd" player="2"/>
  </round>
  <round id="THIRD_STREET" sequence="3">
    <event sequence="4" type="COMPLETE" player="1" amount="0.10"/>
    <event sequence="5" type="CALL" player="2" amount="0.05"/>
  </round>
  <round id="FOURTH_STREET" sequence="4">
    <event sequence="6" type="BET" player="1" amount="0.10"/>
    <event sequence="7" type="FOLD" player="2"/>
    <cards type="HOLE" cards="As,2h,3c,4d" player="1"/>
    <cards type="DRAW_DRAWN_CARDS" cards="null,null,Kd,Qs" player="2"/>
  </round>
  <round id="END_OF_GAME" sequence="5">
    <winner amount="0.32" uncalled="false" potnumber="1" player="1"/>
  </round>
</game>
"""
