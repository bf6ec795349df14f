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

from studeval.cards import card_str
from studeval.engine import StudHand
from studeval.histories._record import HistoryError, Step, StepKind, Transcript
from studeval.histories._text import MONEY, currency_of, money
from studeval.histories._writer import Table, amount_text

__all__ = ["MERGE_EXAMPLE", "SITE", "START", "transcripts", "write"]

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


_TITLES = {"stud": "7-Stud", "stud8": "7-Stud H/L8", "razz": "Razz"}
_ROUND_NAMES = {3: "THIRD_STREET", 4: "FOURTH_STREET", 5: "FIFTH_STREET", 6: "SIXTH_STREET",
                7: "SEVENTH_STREET"}  # fmt: skip


def write(hand: StudHand, table: Table) -> str:
    """A finished hand as Merge writes it: a ``<description>`` and a ``<game>`` whose
    rounds hold the events and, after each deal, every seat's cards so far (the
    hero's as ``HOLE``, ``null`` for a card not seen; ``SHOWN`` at the showdown). A
    hand whose deck ran out to a community card cannot be written (Merge's text for
    one is not known) and is a ``ValueError``.

    >>> from studeval.histories import read
    >>> from studeval.play import random_hand
    >>> hand = random_hand("razz", 3, seed=9)
    >>> next(read(write(hand, Table(names=["Ann", "Bob", "Cy"])))).hand.stacks == hand.stacks
    True
    """
    result = hand.result
    if not hand.over or result is None:
        raise ValueError("only a finished hand can be written")
    if hand.community is not None:
        raise ValueError("Merge's text for a community card is not known")
    names = list(table.names)
    numbers = [str(n) for n in (table.seat_numbers or range(1, hand.seats + 1))]

    def money(chips: int) -> str:
        return amount_text(chips, table)

    def plain(chips: int) -> str:
        return amount_text(chips, Table(names=names, unit=table.unit, sign=""))

    s = hand.stakes
    root = ElementTree.Element("merge")
    ElementTree.SubElement(root, "description", type=_TITLES[hand.game],
                           stakes=f"Limit {money(s.small_bet)}/{money(s.big_bet)}")  # fmt: skip
    game = ElementTree.SubElement(
        root, "game", id=str(table.hand_id), starttime=f"{table.played_at:%Y%m%d%H%M%S}",
        realmoney="true" if table.sign else "false",
        data=f"{table.played_at:%Y%m%d}|{table.table}|1|{table.hand_id}")  # fmt: skip
    players = ElementTree.SubElement(game, "players", dealer="1")
    for seat in range(hand.seats):
        stack = money(hand.starting_stacks[seat])
        ElementTree.SubElement(players, "player", seat=numbers[seat], nickname=names[seat],
                               balance=stack, dealtin="true")  # fmt: skip
    shown = {e.seat: e.cards for e in hand.events if e.kind == "show" and e.seat is not None}
    seen: list[list[int | None]] = [[] for _ in range(hand.seats)]
    stacks = list(hand.starting_stacks)
    rounds: dict[str, ElementTree.Element] = {}
    sequence = 0

    def round_named(name: str) -> ElementTree.Element:
        if name not in rounds:
            rounds[name] = ElementTree.SubElement(game, "round", id=name,
                                                  sequence=str(len(rounds) + 1))  # fmt: skip
        return rounds[name]

    events = hand.events
    for at, event in enumerate(events):
        who = event.seat
        if event.kind == "ante":
            where = round_named("BLINDS")
        elif event.street == 3 and (
            event.kind == "deal"
            or (event.kind == "bring_in" and all(e.kind in ("ante", "deal") for e in events[:at]))
        ):
            where = round_named("BRING_IN")  # the 3rd-street deal and the bring-in
        elif event.kind in ("show", "muck"):
            where = round_named("SHOWDOWN")
        else:
            where = round_named(_ROUND_NAMES[event.street])
        if who is None:
            continue
        if event.kind == "deal":
            hidden = who != table.hero
            seen[who] += [None if hidden and (event.street == 7 or (event.street == 3 and i < 2))
                           else c for i, c in enumerate(event.cards)]  # fmt: skip
            ElementTree.SubElement(
                where, "cards", type="HOLE" if who == table.hero else "DRAW_DRAWN_CARDS",
                cards=",".join("null" if c is None else card_str(c) for c in seen[who]),
                player=numbers[who])  # fmt: skip
            continue
        if event.kind in ("show", "muck"):
            if event.kind == "show":
                cards = ",".join(card_str(c) for c in shown[who] if c is not None)
                ElementTree.SubElement(where, "cards", type="SHOWN", cards=cards,
                                       player=numbers[who])  # fmt: skip
            continue
        sequence += 1
        stacks[who] -= event.amount
        kind = event.kind.upper()
        amount = event.amount
        if kind in ("BET", "RAISE", "COMPLETE"):
            amount = event.to if event.to is not None else event.amount  # the street total
        if stacks[who] == 0 and event.amount and event.kind in ("bet", "raise", "complete",
                                                                   "call"):  # fmt: skip
            kind, amount = "ALL_IN", event.amount  # what it puts in
        attributes = {"sequence": str(sequence), "type": kind, "player": numbers[who]}
        if kind not in ("FOLD", "CHECK"):
            attributes["amount"] = plain(amount)
        ElementTree.SubElement(where, "event", attributes)
    end = ElementTree.SubElement(game, "round", id="END_OF_GAME", sequence=str(len(rounds) + 1))
    for seat in range(hand.seats):
        if result.payouts[seat]:
            won = plain(result.payouts[seat])
            ElementTree.SubElement(end, "winner", amount=won, uncalled="false", potnumber="1",
                                   player=numbers[seat])  # fmt: skip
    return "".join(ElementTree.tostring(child, encoding="unicode") + "\n" for child in root)


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
