"""Merge Gaming Network XML hand histories: ``<game>`` elements, each after a
``<description>`` of the game and its limits.

Each ``<round>`` holds its ``<event>`` elements, numbered in the order they
happened, and each seat's cards after the street's deal (``null`` for one not
seen; the hero's as ``HOLE``, cards shown at the end as ``SHOWN`` or ``MUCKED``).
A raise, a completion and a bet give the seat's street total; a call and an all-in
what they put in. ``<winner>`` gives what each took, an uncalled bet given back
included; the rake is what went in less what came out.

>>> from studeval.histories import Table, read
>>> from studeval.play import random_hand
>>> hand = random_hand("razz", 3, seed=11)
>>> history = next(read(ROOM.write(hand, Table(names=["Ann", "Bob", "Cy"]))))
>>> history.site, history.game, history.hand.stacks == hand.stacks
('Merge', 'razz', True)
"""

from __future__ import annotations

import datetime
import functools
import re
import urllib.parse
import xml.etree.ElementTree as ElementTree
from collections.abc import Iterator
from decimal import Decimal

from studeval import _core
from studeval.cards import card_str
from studeval.engine import StudHand
from studeval.histories._fast import finish, xml_reader
from studeval.histories._grammar import Header
from studeval.histories._record import (
    History,
    HistoryError,
    NotStudError,
    Step,
    StepKind,
    Transcript,
)
from studeval.histories._room import Room, XmlFiles
from studeval.histories._text import MONEY, currency_of, money
from studeval.histories._writer import Table, amount_text
from studeval.histories._xml import Game, Parsed, parse, resumed

__all__ = ["ROOM", "SITE", "START", "transcripts", "write"]

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


#: Merge's code of each game, as a mixed game's ``<game>`` gives it in
#: ``multigametype`` (a single game's file gives the same in ``gametype``): 7-Stud,
#: 7-Stud H/L8, Razz, cash and tournament; and the names of the others a mix deals.
_CODES = {"38": "stud", "39": "stud", "41": "stud", "42": "stud", "43": "stud8",
          "45": "stud8", "46": "razz", "47": "razz", "49": "razz"}  # fmt: skip
_OTHERS = {"1": "Hold'em", "2": "Hold'em", "9": "Hold'em", "23": "Hold'em", "4": "Omaha",
           "34": "Omaha H/L8", "35": "Omaha H/L8", "37": "Omaha H/L8"}  # fmt: skip


def _cards(text: str | None) -> tuple[str | None, ...]:
    return tuple(None if c in ("null", "") else c for c in (text or "").split(","))


def transcripts(
    text: str, first_line: int, source: str | None
) -> Iterator[History | Transcript | HistoryError]:
    """Every ``<game>`` of a Merge file read in C, or as a transcript (or the error
    that stops it); a game the text ends in is "the text ends before the hand does",
    on the text's last line, and text or an element that is no Merge game is an
    error on its line."""
    fast = _read_in_c(text, first_line, source)
    if fast is not None:
        yield from fast
        return
    parsed: Parsed | None = parse(text, first_line, wrap="merge")
    description = None
    while parsed is not None:
        stray = list(parsed.stray)  # text between the elements, in order
        for element in parsed.root:
            reading = Game(SITE, element.get("id", ""), source, parsed.lines, element, parsed)
            while stray and stray[0][0] <= reading.line:
                yield _stray(*stray.pop(0), source)
            if element.tag == "description" and element in parsed.closed:
                description = element
            elif element.tag == "game" or element not in parsed.closed:  # read, or its end
                build = functools.partial(_transcript, description=description)
                yield reading.transcript(parsed, build)
            else:
                yield reading.error(f"a <{element.tag}> element is no Merge game: not read")
        yield from (_stray(line, words, source) for line, words in stray)
        if parsed.error and all(e in parsed.closed for e in parsed.root):
            reason, line = parsed.error
            yield HistoryError(reason, site=SITE, line=line, source=source)
        # The elements after one broken inside (its text edited): read on their own.
        parsed = resumed(parsed, r"<(?:game|description)\b", "merge")


#: A Merge file's elements, one at a time (the C reader's; any other text is the
#: general reader's).
_DESCRIPTION = re.compile(r"<description\b[^>]*/>")
_GAME_END = re.compile(r"</game\s*>")
_GAP = re.compile(r"\s*")
_GAME_TAG = re.compile(r'<game(?:\s+[\w.:-]+\s*=\s*"[^"&<]*")*\s*>')
_ATTRIBUTE = re.compile(r'([\w.:-]+)\s*=\s*"([^"]*)"')


@functools.lru_cache(maxsize=64)
def _description(text: str) -> ElementTree.Element | None:
    """A ``<description>`` element, as the general reader reads it; None where it is
    not well-formed."""
    try:
        return ElementTree.fromstring(text)
    except ElementTree.ParseError:
        return None


def _read_in_c(text: str, first_line: int,
               source: str | None) -> list[History | NotStudError] | None:  # fmt: skip
    """Every game of a file of descriptions and games alone, read and replayed in C (a
    mixed game's hands of other games refused, as the general reader refuses them);
    None where the C reader is not sure of one (the general reader reads them all)."""
    reader = xml_reader()
    description: ElementTree.Element | None = None
    read: list[History | NotStudError] = []
    line, counted = first_line, 0  # the line of text[counted]
    at = _GAP.match(text).end()  # type: ignore[union-attr]
    while at < len(text):
        found = _DESCRIPTION.match(text, at)
        if found is not None:
            description = _description(found.group())
            if description is None:
                return None
            at = _GAP.match(text, found.end()).end()  # type: ignore[union-attr]
            continue
        end = _GAME_END.search(text, at) if text.startswith("<game", at) else None
        if end is None:
            return None
        element = text[at : end.end()]
        opening = _GAME_TAG.match(element)
        if opening is None or "<game" in element[5:]:
            return None
        game = dict(_ATTRIBUTE.findall(opening.group()))
        line += text.count("\n", counted, at)
        counted = at
        at = _GAP.match(text, end.end()).end()  # type: ignore[union-attr]
        history = _game_in_c(reader, game, description, element, line, source)
        if history is None:
            return None
        read.append(history)
    return read or None


def _game_in_c(reader: _core.HistoryReader, game: dict[str, str],
               description: ElementTree.Element | None, text: str, line: int,
               source: str | None) -> History | NotStudError | None:  # fmt: skip
    """One game read in C (``game``: its start tag's attributes; ``text``: the whole
    element, on ``line``), or refused as another game than stud, or None."""
    kind = (game.get("multigametype", ""), game.get("numholecards", "7"), game.get("realmoney"))
    known = _game_header(description, *kind)
    hand_id = game.get("id", "")
    if isinstance(known, NotStudError):  # another game of a mix: refused on this hand's line
        return NotStudError(known.game, site=SITE, hand_id=hand_id, line=line,
                            source=source)  # fmt: skip
    started = game.get("starttime", "")
    try:
        played_at = _start_time(started) if _DIGITS_14.fullmatch(started) else None
    except ValueError:
        return None
    if known is None or not reader.read_merge(text.encode(), known.tournament is not None):
        return None
    data = [*game.get("data", "").split("|"), "", "", ""]
    tournament = (data[2].split("-")[0] or None) if known.tournament is not None else None
    header = known.of_hand(hand_id, played_at, table=urllib.parse.unquote(data[1]) or None,
                           tournament=tournament)  # fmt: skip
    return finish(reader, header, SITE, None, False, text, source, line)


_DIGITS_14 = re.compile(r"\d{14}")


@functools.lru_cache(maxsize=256)
def _game_header(description: ElementTree.Element | None, multigametype: str, numholecards: str,
                 realmoney: str | None) -> Header | NotStudError | None:  # fmt: skip
    """What a game's description and kind say of it, read once a table: a header
    (its ``tournament`` "" for a tournament's, no hand id, table or time), the
    refusal of another game, or None where the C reader leaves it."""
    attributes = {"multigametype": multigametype, "numholecards": numholecards}
    if realmoney is not None:
        attributes["realmoney"] = realmoney
    reading = Game(SITE, "", None, {}, ElementTree.Element("game", attributes))
    try:
        game_name, stakes_text, tournament = _game_of(reading, description)
    except NotStudError as refused:
        return refused
    bring_in = None
    if description is not None and description.get("bringin") is not None:
        try:
            bring_in = reading.amount(description, "bringin")
        except HistoryError:
            return None
    limits = [] if tournament else re.findall(MONEY, stakes_text)
    small, big = (money(limits[0]), money(limits[1])) if len(limits) >= 2 else (Decimal(0),) * 2
    return Header(
        hand_id="", game=game_name, game_text=stakes_text, small_bet=small, big_bet=big,
        bring_in=bring_in, tournament="" if tournament else None,
        currency=currency_of(stakes_text) if realmoney == "true" and not tournament else None,
    )  # fmt: skip


def _start_time(digits: str) -> datetime.datetime:
    """A game's start (``starttime``, 14 digits) as ``strptime`` reads it, in its
    fixed places where they make a time (``ValueError`` for no time)."""
    try:
        parts = (digits[:4], digits[4:6], digits[6:8], digits[8:10], digits[10:12], digits[12:])
        return datetime.datetime(*map(int, parts))  # type: ignore[arg-type]
    except ValueError:  # (strptime may read fewer digits a field: "2011131" ...)
        return datetime.datetime.strptime(digits, "%Y%m%d%H%M%S")


def _stray(line: int, words: str, source: str | None) -> HistoryError:
    """Text between a Merge file's elements, reported: it is not read."""
    return HistoryError(f"text that is no Merge game is not read: {words[:60]!r}", site=SITE,
                        line=line, source=source)  # fmt: skip


def _game_of(reading: Game, description: ElementTree.Element | None) -> tuple[str, str, bool]:
    """The game of a ``<game>`` (``stud``, ``stud8``, ``razz``), the file's stakes
    and whether it is a tournament; a hand of another game is a NotStudError."""
    kind_text = description.get("type", "") if description is not None else ""
    stakes_text = description.get("stakes", "") if description is not None else ""
    tournament = kind_text.endswith(" Tournament")
    named = kind_text.removesuffix(" Tournament").strip()
    game_name = _GAMES.get(named.lower())
    code = reading.element.get("multigametype", "")
    if game_name is None and code:  # a mixed game's file: each hand names its game
        if reading.element.get("numholecards", "7") == "7":
            game_name = _CODES.get(code)
        if game_name is None:
            other = _OTHERS.get(code) or f"game {code}"
            raise NotStudError(f"{kind_text} {stakes_text} ({other})".replace("  ", " "),
                               site=SITE, hand_id=reading.hand_id, line=reading.line,
                               source=reading.source)  # fmt: skip
    if game_name is None or not stakes_text.startswith("Limit"):
        raise NotStudError(f"{kind_text} {stakes_text}".strip(), site=SITE,
                           hand_id=reading.hand_id, line=reading.line,
                           source=reading.source)  # fmt: skip
    return game_name, stakes_text, tournament


def _transcript(reading: Game, description: ElementTree.Element | None) -> Transcript:
    game = reading.element
    game_name, stakes_text, tournament = _game_of(reading, description)
    limits = [] if tournament else re.findall(MONEY, stakes_text)
    small, big = (money(limits[0]), money(limits[1])) if len(limits) >= 2 else (Decimal(0),) * 2
    listed: dict[str, str] = {}
    names: dict[str, str] = {}  # the players dealt in, by seat
    seats = []
    for player in game.iter("player"):
        seat, name = str(reading.number(player, "seat")), player.get("nickname", "")
        if seat in listed or name in listed.values():
            twice = f"seat {seat}" if seat in listed else repr(name)
            raise reading.error(f"{twice} is listed twice", player)
        listed[seat] = name
        if player.get("dealtin", "true") == "true":
            names[seat] = name
            seats.append((int(seat), name, reading.amount(player, "balance")))
    steps: list[Step] = []
    revealed: dict[str, tuple[str, ...]] = {}
    hero = None
    put_in: dict[str, Decimal] = {}
    street_total: dict[str, Decimal] = {}
    dealt: dict[str, int] = {}  # how many cards each was seen to get
    for round_ in game.iter("round"):
        street = _ROUNDS.get(round_.get("id", ""), -1)
        if street < 0:
            raise reading.error(f"an unknown round {round_.get('id')!r}", round_)
        if 3 <= street <= 7 and round_.get("id") != "THIRD_STREET":
            steps.append(Step(reading.lines[round_], "street", street=street))
            street_total = {}
        for cards in round_.iter("cards"):
            name = names[reading.seated(cards.get("player"), names, cards, "player ")]
            shown = _cards(cards.get("cards"))
            if cards.get("type") in ("SHOWN", "MUCKED"):
                revealed[name] = tuple(c for c in shown if c is not None)
            elif 3 <= street <= 7 and len(shown) > dealt.get(name, 0):
                if cards.get("type") == "HOLE":
                    hero = name
                new = shown[dealt.get(name, 0) :]  # a folded hero's cards come again
                dealt[name] = len(shown)
                steps.append(Step(reading.lines[cards], "deal", name, cards=new, street=street))
        for event in sorted(round_.iter("event"), key=lambda e: reading.number(e, "sequence")):
            code = event.get("type", "")
            if code not in _KINDS:
                continue  # sitting out, chat and the like move no chips
            name = names[reading.seated(event.get("player"), names, event, "player ")]
            amount = reading.amount(event, "amount") if event.get("amount") else None
            line = reading.lines[event]
            if code in _TOTALS and amount is not None:
                added = amount - street_total.get(name, Decimal(0))
                street_total[name] = amount
                # A bet's chips are its total too: a tournament's limits are read from them.
                chips = added if code == "BET" and added == amount else None
                steps.append(Step(line, _KINDS[code], name, chips, to=amount, street=street))
            else:
                added = amount or Decimal(0)
                if code != "ANTE":
                    street_total[name] = street_total.get(name, Decimal(0)) + added
                steps.append(Step(line, _KINDS[code], name, amount, street=street))
            put_in[name] = put_in.get(name, Decimal(0)) + added
    if tournament:  # a tournament's balance is written after the ante was posted
        antes = {s.name: s.amount for s in steps if s.kind == "ante" and s.amount}
        seats = [(seat, name, stack + antes.get(name, 0)) for seat, name, stack in seats]
    paid_out = Decimal(0)
    for winner in game.iter("winner"):
        name = names[reading.seated(winner.get("player"), names, winner, "player ")]
        amount = reading.amount(winner, "amount")
        paid_out += amount
        steps.append(Step(reading.lines[winner], "collect", name, amount, street=8))
    reading.check_paid(paid_out, sum(put_in.values(), Decimal(0)), game.find(".//winner"))
    started = game.get("starttime", "")
    played_at = None
    if re.fullmatch(r"\d{14}", started):
        played_at = datetime.datetime.strptime(started, "%Y%m%d%H%M%S")
    data = [*game.get("data", "").split("|"), "", "", ""]
    bring_in = None  # named only by studeval's writer, for a game without one
    if description is not None and description.get("bringin") is not None:
        bring_in = reading.amount(description, "bringin")
    return Transcript(
        site=SITE, hand_id=reading.hand_id, game=game_name, small_bet=small, big_bet=big,
        seats=seats, steps=steps, table=urllib.parse.unquote(data[1]) or None,
        tournament=(data[2].split("-")[0] or None) if tournament else None, played_at=played_at,
        currency=currency_of(stakes_text) if game.get("realmoney") == "true" and not tournament
        else None,
        hero=hero, revealed=revealed, rake=sum(put_in.values(), Decimal(0)) - paid_out,
        bring_in=bring_in,
        text=reading.text, line=reading.line,
        source=reading.source, collects_returns=True,
    )  # fmt: skip


_TITLES = {"stud": "7-Stud", "stud8": "7-Stud H/L8", "razz": "Razz"}
_ROUND_NAMES = {3: "THIRD_STREET", 4: "FOURTH_STREET", 5: "FIFTH_STREET", 6: "SIXTH_STREET",
                7: "SEVENTH_STREET"}  # fmt: skip


def write(hand: StudHand, table: Table) -> str:
    """A finished hand as Merge writes it: a ``<description>`` and a ``<game>`` whose
    rounds hold the events and, after each deal, every seat's cards so far (the
    hero's as ``HOLE``, ``null`` for a card not seen; ``SHOWN`` at the showdown). A
    game without a bring-in (none at Merge) has a ``bringin`` of 0 in its
    ``<description>``: the text's first bet could be a completion otherwise. A
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
    stakes = f"Limit {money(s.small_bet)}/{money(s.big_bet)}"
    described = ElementTree.SubElement(root, "description", type=_TITLES[hand.game], stakes=stakes)
    if not s.bring_in:  # Merge deals no such game: the text says so, as no file does
        described.set("bringin", plain(0))
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


#: The room, as the list of rooms (studeval.histories.rooms.ROOMS) holds it.
ROOM = Room(
    site=SITE,
    about="its XML games",
    xml=XmlFiles(START, transcripts),
    writers={"Merge": write},
)
