"""iPoker XML hand histories: a ``<session>`` of ``<game>`` elements.

iPoker writes each hand as XML: the players with their chips, what each bet and
won (``bet`` and ``win``, the uncalled part included in both), and one ``<round>``
a street whose ``<action>`` elements are numbered in the order they happened
(listed seat by seat, so the number decides) and whose ``<cards>`` show each seat's
cards for the street (``X`` for one not seen; a suit letter before the rank,
``S10``). There is no rake field: the rake is what was bet less what was won. The
stakes are in the session's ``<gametype>`` for cash games; a tournament's are read
from its wagers by the replay.

>>> from studeval.histories import Table, read
>>> from studeval.play import random_hand
>>> hand = random_hand("stud", 3, seed=11)
>>> history = next(read(ROOM.write(hand, Table(names=["Ann", "Bob", "Cy"]))))
>>> history.site, history.game, history.hand.stacks == hand.stacks
('iPoker', 'stud', True)
"""

from __future__ import annotations

import datetime
import functools
import re
import xml.etree.ElementTree as ElementTree
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal

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
from studeval.histories._text import MONEY, currency_of, money, named_currency
from studeval.histories._writer import Table, amount_text
from studeval.histories._xml import Game, Parsed, documents, resumed

__all__ = ["ROOM", "START", "transcripts", "write"]

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
_TIME = re.compile(r"(\d{4})-(\d{2})-(\d{2}) (\d{1,2}):(\d{2}):(\d{2})")


def _card(text: str) -> str | None:
    """iPoker's card (suit first: ``DA``, ``H10``) as ours; ``X`` is unknown."""
    if text.upper() == "X":
        return None
    suit, rank = text[0], text[1:]
    return _RANKS.get(rank, rank).upper() + suit.lower()


def _game(text: str) -> str | None:
    lowered = text.lower()
    if "razz" in lowered:
        return "razz"
    if "7 card stud" not in lowered:
        return None
    return "stud8" if "hi-lo" in lowered or "hi/lo" in lowered else "stud"


@dataclass(frozen=True)
class _Session:
    """What a session's ``<general>`` says of all its games."""

    game_text: str
    hero: str | None
    table: str | None
    currency: str | None
    tournament: str | None
    bring_in: ElementTree.Element | None  # only studeval's writer, for a game without one

    @property
    def stakes(self) -> tuple[Decimal, Decimal]:
        """The small and big bet the game type names (zero for a tournament's: the
        replay reads them from the wagers)."""
        found = re.search(rf"({MONEY})/({MONEY})", self.game_text.replace("\ufffd", "$"))
        return (money(found.group(1)), money(found.group(2))) if found else (Decimal(0),) * 2


def transcripts(
    text: str, first_line: int, source: str | None
) -> Iterator[History | Transcript | HistoryError]:
    """Every ``<game>`` of the iPoker sessions in ``text`` (one, or files appended)
    read in C, or as a transcript, or the error that stops it; a game the text ends
    in is "the text ends before the hand does", on the text's last line."""
    fast = _read_in_c(text, first_line, source)
    if fast is not None:
        yield from fast
        return
    for document in documents(text, first_line, "session", SITE, source):
        if isinstance(document, HistoryError):
            yield document
            continue
        session = _session_of(document.root.find("general"))
        parsed: Parsed | None = document
        while parsed is not None:
            yield from _games(parsed, session, source)
            # The games after one broken inside (its text edited): read on their own.
            parsed = resumed(parsed, r"<game\b", "session", "session")


def _games(parsed: Parsed, session: _Session,
           source: str | None) -> Iterator[Transcript | HistoryError]:  # fmt: skip
    """The games of a parsed session (or of the games after a broken one), and where
    it was cut or broken outside a game."""
    games = list(parsed.root.iter("game"))
    for game in games:
        reading = Game(SITE, game.get("gamecode", ""), source, parsed.lines, game, parsed)
        yield reading.transcript(parsed, functools.partial(_transcript, session=session))
    # Cut or broken outside a game: said where, unless the text ends after a whole
    # game (fpdb's sample lacks only its "</session>").
    whole = parsed.ends_between and games
    if parsed.error and all(g in parsed.closed for g in games) and not whole:
        reason, line = parsed.error
        if parsed.cut and not games:
            reason = "the text ends before its first hand"
        yield HistoryError(reason, site=SITE, line=line, source=source)


def _session_of(general: ElementTree.Element | None) -> _Session:
    """What a session's ``<general>`` says of its games."""
    about = general if general is not None else ElementTree.Element("general")
    return _Session(
        game_text=about.findtext("gametype", ""), hero=about.findtext("nickname"),
        table=about.findtext("tablename"),
        currency=about.findtext("tablecurrency") or about.findtext("currency"),
        tournament=_tournament_id(about), bring_in=about.find("bringin"))  # fmt: skip


def _tournament_id(about: ElementTree.Element) -> str | None:
    """A tournament's id (None in a cash game): its code where the session names one,
    else the number that ends its table's name (``$5 Limit 7 Card Stud, 699476041,
    699476041``), else its title. The title alone is shared by every sit-and-go of a
    kind: one player's many would be one tournament.

    >>> about = ElementTree.fromstring("<general><tournamentname>$5 Limit 7 Card Stud"
    ...     "</tournamentname><tablename>$5 Limit 7 Card Stud, 699476041, 699476041"
    ...     "</tablename></general>")
    >>> _tournament_id(about)
    '699476041'
    """
    code = (about.findtext("tournamentcode") or about.findtext("tourcode") or "").strip()
    if code:
        return code
    title = (about.findtext("tournamentname") or "").strip()
    if not title:
        return None
    number = re.search(r"(\d+)\s*$", about.findtext("tablename") or "")
    return number[1] if number else title


#: A whole session of games and nothing else (the C reader's; any other text is the
#: general reader's): what is before the first game, the games, and the end.
_WHOLE = re.compile(r"\s*(?:<\?xml[^>]*\?>)?\s*<session\b")
_GAME_END = re.compile(r"</game\s*>")
_GAP = re.compile(r"\s*")
_END = re.compile(r"\s*</session\s*>\s*")
_GAME_CODE = re.compile(r"""\sgamecode\s*=\s*(?:"([^"]*)"|'([^']*)')""")
_START_DATE = re.compile(r"<startdate>([^<]*)</startdate>")


@functools.lru_cache(maxsize=64)
def _session_header(head: str) -> tuple[Header, bytes | None] | None:
    """A session's start (to its first game) read as the general reader reads it: the
    header of its games (no hand id, no time) and the hero's name; None where it is
    not well-formed or names no stud game."""
    try:
        root = ElementTree.fromstring(head + "</session>")
    except ElementTree.ParseError:
        return None
    session = _session_of(root.find("general"))
    game = _game(session.game_text)
    if game is None:
        return None
    tournament = session.tournament or None
    bring_in = None
    if session.bring_in is not None:
        named = (session.bring_in.text or "").strip()
        if not re.fullmatch(r"\$?\d+(?:\.\d+)?", named):
            return None
        bring_in = money(named)
    small, big = session.stakes
    currency = None if tournament else named_currency(session.currency or "")
    header = Header(hand_id="", game=game, game_text=session.game_text, small_bet=small,
                    big_bet=big, bring_in=bring_in, table=session.table, tournament=tournament,
                    currency=currency)  # fmt: skip
    return header, session.hero.encode() if session.hero is not None else None


def _read_in_c(text: str, first_line: int, source: str | None) -> list[History] | None:
    """Every game of a text that is one whole session, read and replayed in C; None
    where the C reader is not sure of one (the general reader then reads them all)."""
    found = _WHOLE.match(text)
    if found is None or text.count("<session") != 1:
        return None
    start = text.find("<game ", found.end())
    if start < 0:
        return None
    known = _session_header(text[found.end() - len("<session") : start])
    if known is None:
        return None
    prototype, hero = known
    reader = xml_reader()
    read: list[History] = []
    line, counted = first_line, 0  # the line of text[counted]
    at = start
    while text.startswith("<game", at):
        end = _GAME_END.search(text, at)
        if end is None:
            return None
        element = text[at : end.end()]
        if "<game" in element[5:]:  # one game inside another: not well-formed
            return None
        if not reader.read_ipoker(element.encode(), hero, prototype.tournament is not None):
            return None
        opening = _GAME_CODE.search(element, 0, element.index(">"))
        started = _START_DATE.search(element)
        with_time = _TIME.match(started.group(1)) if started else None
        played_at = None
        if with_time:
            y, mo, d, h, mi, sec = map(int, with_time.groups())
            try:
                played_at = datetime.datetime(y, mo, d, h, mi, sec)
            except ValueError:  # no such day: the general reader says so
                return None
        hand_id = (opening.group(1) or opening.group(2) or "") if opening else ""
        header = prototype.of_hand(hand_id, played_at)
        line += text.count("\n", counted, at)
        counted = at
        history = finish(reader, header, SITE, None, False, element, source, line)
        if history is None:
            return None
        read.append(history)
        at = _GAP.match(text, end.end()).end()  # type: ignore[union-attr]
    return read if read and _END.fullmatch(text, at) else None


def _players(reading: Game) -> tuple[list[tuple[int, str, Decimal]], dict[str, Decimal],
                                     dict[str, Decimal]]:  # fmt: skip
    """The players of a game (an empty seat, named "", left out): seat, name and
    chips, and what each bet and won."""
    seats: list[tuple[int, str, Decimal]] = []
    bet: dict[str, Decimal] = {}
    won: dict[str, Decimal] = {}
    where: dict[str, int] = {}
    for player in reading.element.iter("player"):
        name = player.get("name", "")
        seat = reading.number(player, "seat")
        if not name:
            continue
        if name in where:
            raise reading.error(f"{name!r} is seated twice (seats {where[name]} and {seat})",
                                player)  # fmt: skip
        where[name] = seat
        seats.append((seat, name, reading.amount(player, "chips")))
        bet[name] = reading.amount(player, "bet", Decimal(0))
        won[name] = reading.amount(player, "win", Decimal(0))
    return seats, bet, won


def _transcript(reading: Game, session: _Session) -> Transcript:
    game = reading.element
    kind = _game(session.game_text)
    if kind is None:
        raise NotStudError(session.game_text, site=SITE, hand_id=reading.hand_id,
                           line=reading.line, source=reading.source)  # fmt: skip
    seats, bet, won = _players(reading)
    steps: list[Step] = []
    rounds = [(reading.number(r, "no"), r) for r in game.iter("round")]
    for number, round_ in sorted(rounds, key=lambda r: r[0]):
        street = number + 1
        actions = [(reading.number(a, "no"), a) for a in round_.iter("action")]
        dealt = list(round_.iter("cards"))
        if 3 <= street <= 7 and (dealt or actions):
            community = [c for c in dealt if not c.get("player")]
            cards = tuple(_card(c) for c in (community[0].text or "").split()) if community else ()
            steps.append(Step(reading.lines[round_], "street", street=street, cards=cards[:1]))
        for element in dealt:
            if element.get("player") is None:
                continue
            name = reading.seated(element.get("player"), bet, element)
            if _STREETS.get(element.get("type", "")) == street:
                cards = tuple(_card(c) for c in (element.text or "").split())
                steps.append(Step(reading.lines[element], "deal", name, cards=cards,
                                  street=street))  # fmt: skip
        for _, action in sorted(actions, key=lambda a: a[0]):
            steps += _action(reading, action, street, bet)
    hero = session.hero if any(s.name == session.hero for s in steps) else None
    revealed = {}
    for step in steps:
        if step.kind == "deal" and step.name and step.street == 3 and step.cards[:1] != (None,):
            revealed[step.name] = tuple(c for s in steps if s.kind == "deal" and s.name == step.name
                                        for c in s.cards if c is not None)  # fmt: skip
    if hero is not None and hero in revealed and _conceded(hero, bet, won):
        # The hero's own cards are always written, shown or not: a hero who took
        # no pot is taken to have mucked (the same chips as showing a loser).
        steps.append(Step(reading.line, "muck", hero))
    reading.check_paid(sum(won.values(), Decimal(0)), sum(bet.values(), Decimal(0)), game)
    started = game.findtext("general/startdate") or ""
    played_at = None
    with_time = _TIME.match(started)
    if with_time:
        y, mo, d, h, mi, sec = map(int, with_time.groups())
        played_at = datetime.datetime(y, mo, d, h, mi, sec)
    tournament = session.tournament or None
    small, big = session.stakes
    transcript = Transcript(
        site=SITE, hand_id=reading.hand_id, game=kind, small_bet=small, big_bet=big,
        seats=seats, steps=steps, table=session.table, tournament=tournament,
        played_at=played_at,
        currency=None if tournament else named_currency(session.currency or ""),
        hero=hero, revealed=revealed,
        bring_in=None if session.bring_in is None else reading.amount_text(session.bring_in),
        # A tournament takes no rake; there, "bet" overstates by an ante the players of
        # an all-in pot, so only what each won is checked.
        rake=Decimal(0) if tournament else sum(bet.values(), Decimal(0)) - sum(won.values()),
        text=reading.text, line=reading.line,
        source=reading.source, collects_returns=True, contributed=None if tournament else bet,
    )  # fmt: skip
    end = reading.line + transcript.text.count("\n")
    transcript.steps += [Step(end, "collect", name, amount) for name, amount in won.items()
                         if amount]  # fmt: skip
    return transcript


def _action(reading: Game, action: ElementTree.Element, street: int,
            seated: dict[str, Decimal]) -> list[Step]:  # fmt: skip
    """The step an ``<action>`` is (none for one that moves no chips in stud)."""
    code = action.get("type", "")
    if code in _IGNORED:
        return []
    if code not in _KINDS:
        raise reading.error(f"action {action.get('no')} has unknown type {code}", action)
    name = reading.seated(action.get("player"), seated, action)
    amount = reading.amount(action, "sum", Decimal(0))
    line = reading.lines[action]
    if code == "23":  # a raise's sum is its street total
        return [Step(line, "raise", name, to=amount, street=street)]
    return [Step(line, _KINDS[code], name, amount, street=street)]


def _conceded(hero: str, bet: dict[str, Decimal], won: dict[str, Decimal]) -> bool:
    """Whether the hero took no pot: won no more than the uncalled part of the bet
    (what the hero bet over anyone else), which "win" holds too."""
    others = max((amount for name, amount in bet.items() if name != hero), default=Decimal(0))
    return won[hero] <= max(bet[hero] - others, Decimal(0))


_CODES = {"fold": "0", "call": "3", "check": "4", "bet": "5", "raise": "23", "complete": "23",
          "ante": "15", "bring_in": "16"}  # fmt: skip
_STREET_NAMES = {3: "Third Street", 4: "Fourth Street", 5: "Fifth Street", 6: "Sixth Street",
                 7: "Seventh Street"}  # fmt: skip
_TITLES = {"stud": "7 Card Stud", "stud8": "7 Card Stud Hi-Lo", "razz": "Razz"}


def _card_text(code: int | None) -> str:
    """Our card code as iPoker writes it: suit first, ``10`` for a ten, ``X`` unseen."""
    if code is None:
        return "X"
    text = card_str(code)
    return text[1].upper() + ("10" if text[0] == "T" else text[0])


def write(hand: StudHand, table: Table) -> str:
    """A finished hand as an iPoker session of one ``<game>``: its actions listed
    seat by seat in each round and numbered in the order they happened, the cards
    of the hero and of those who showed written in full, the others' down cards as
    ``X``; an all-in bet, raise or call as iPoker's all-in action. A game without a
    bring-in (none at iPoker) has a ``<bringin>`` of 0 in the session's
    ``<general>``: the text's first bet could be a completion otherwise.

    >>> from studeval.histories import read
    >>> from studeval.play import random_hand
    >>> hand = random_hand("stud8", 4, seed=8)
    >>> next(read(write(hand, Table(names=["Ann", "Bob", "Cy", "Di"])))).hand.stacks == hand.stacks
    True
    """
    result = hand.result
    if not hand.over or result is None:
        raise ValueError("only a finished hand can be written")
    names = list(table.names)
    numbers = list(table.seat_numbers or range(1, hand.seats + 1))

    def money(chips: int) -> str:
        return amount_text(chips, table)

    known = {e.seat for e in hand.events if e.kind == "show"} | {table.hero}
    session = ElementTree.Element("session", sessioncode="1")
    general = ElementTree.SubElement(session, "general")
    s = hand.stakes
    for tag, text in (
        ("gametype", f"{_TITLES[hand.game]} L {money(s.small_bet)}/{money(s.big_bet)}"),
        ("tablename", table.table),
        ("currency", currency_of(table.sign) or ""),
    ):
        ElementTree.SubElement(general, tag).text = text
    if table.hero is not None:
        ElementTree.SubElement(general, "nickname").text = names[table.hero]
    if not s.bring_in:  # iPoker deals no such game: the text says so, as no file does
        ElementTree.SubElement(general, "bringin").text = money(0)
    game = ElementTree.SubElement(session, "game", gamecode=str(table.hand_id))
    about = ElementTree.SubElement(game, "general")
    ElementTree.SubElement(about, "startdate").text = f"{table.played_at:%Y-%m-%d %H:%M:%S}"
    players = ElementTree.SubElement(about, "players")
    for seat in range(hand.seats):
        ElementTree.SubElement(players, "player", seat=str(numbers[seat]), name=names[seat],
                               chips=money(hand.starting_stacks[seat]), dealer="0",
                               win=money(result.payouts[seat]),
                               bet=money(hand.contributions[seat]))  # fmt: skip
    # Each round's elements seat by seat (the community card first), as iPoker lists them.
    rounds: dict[int, list[list[ElementTree.Element]]] = {}
    stacks, number = list(hand.starting_stacks), 0
    for event in hand.events:
        street = 0 if event.kind == "ante" else event.street - 1
        by_seat = rounds.setdefault(street, [[] for _ in range(hand.seats + 1)])
        if event.kind == "community":
            element = ElementTree.Element("cards", type=_STREET_NAMES[7])
            element.text = _card_text(event.cards[0])
            by_seat[0].append(element)
            continue
        who = event.seat
        if who is None or event.kind in ("show", "muck"):
            continue
        name = names[who]
        if event.kind == "deal":
            cards = list(event.cards)
            if who not in known:  # down cards unseen
                cards = [c if i == 2 or event.street in (4, 5, 6) else None
                         for i, c in enumerate(cards)]  # fmt: skip
            element = ElementTree.Element("cards", type=_STREET_NAMES[event.street], player=name)
            element.text = " ".join(_card_text(c) for c in cards)
            by_seat[who + 1].append(element)
            continue
        number += 1
        stacks[who] -= event.amount
        code = _CODES[event.kind]
        if stacks[who] == 0 and event.amount and event.kind in ("bet", "raise", "complete", "call"):
            code = "7"  # all in: what it puts in
        total = event.kind in ("raise", "complete") and code != "7"
        chips = event.to if total and event.to is not None else event.amount
        by_seat[who + 1].append(ElementTree.Element("action", no=str(number), player=name,
                                                     type=code, sum=money(chips)))  # fmt: skip
    for street in sorted(rounds):
        round_ = ElementTree.SubElement(game, "round", no=str(street))
        for elements in rounds[street]:
            round_.extend(elements)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ElementTree.tostring(
        session, encoding="unicode"
    )


#: The room, as the list of rooms (studeval.histories.rooms.ROOMS) holds it.
ROOM = Room(
    site=SITE,
    about="its XML sessions",
    xml=XmlFiles(START, transcripts),
    writers={"iPoker": write},
)
