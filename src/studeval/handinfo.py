"""What a hand's record says besides its play, in one record: :class:`HandInfo`.

A room's history (:attr:`History.info <studeval.histories.History.info>`), a PHH
record (the fields :attr:`StudHand.info <studeval.StudHand.info>` keeps) and a
room's writer (:meth:`Table.of <studeval.histories.Table.of>`) speak of the same
facts: the venue, the hand's id, the table, the time, the money, cash or
tournament, the players, their seats and the hero. Here they have one shape, and
:meth:`HandInfo.to_phh` and :meth:`HandInfo.from_phh` are the one translation to
and from PHH's fields.

>>> from decimal import Decimal
>>> info = HandInfo(venue="PokerStars", hand_id="000123", currency="USD",
...                 players=("Ann", "Bob"), seats=(1, 4), unit=Decimal("0.01"))
>>> fields = info.to_phh()
>>> fields["hand"], fields["_unit"], fields["seats"]
('000123', '0.01', [1, 4])
>>> HandInfo.from_phh(fields) == info
True
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Protocol

__all__ = ["HandInfo", "PhhFields", "hand_number"]

#: PHH's ``hand`` and TOML's integers are 64-bit; an id of more digits stays text.
_MAX_HAND = 2**63
_MAX_DIGITS = 19
#: How a tournament is named in PHH's ``event``, as :meth:`HandInfo.to_phh` writes it
#: (an id may hold spaces: iPoker's is the tournament's name, "$5 Limit 7 Card Stud").
_EVENT = re.compile(r"^(?P<venue>.*?) tournament (?P<id>.+)$")


def hand_digits(text: str) -> int | None:
    """The whole number ``text``'s ASCII digits make, when PHH's ``hand`` can hold it.

    >>> hand_digits("20261202017"), hand_digits("A-17"), hand_digits("9" * 20)
    (20261202017, None, None)
    """
    if text.isascii() and text.isdigit() and len(text) <= _MAX_DIGITS and int(text) < _MAX_HAND:
        return int(text)
    return None


def hand_number(hand_id: str) -> int | str:
    """What PHH's ``hand`` holds for a room's hand id: the whole number, where that is
    the id as written; else the id itself, as text (``studeval.phh.dumps`` writes it
    as ``_hand_id`` too, so that it reads back the same).

    >>> hand_number("20261202017"), hand_number("000123"), hand_number("A-17")
    (20261202017, '000123', 'A-17')
    """
    number = hand_digits(hand_id)
    return number if number is not None and str(number) == hand_id else hand_id


class _Recorded(Protocol):
    """A hand with a record: a StudHand (its PHH fields) or a History (its HandInfo)."""

    @property
    def info(self) -> object: ...


@dataclass(frozen=True)
class HandInfo:
    """The facts of a hand's record besides its play.

    Attributes:
        venue: the room (``"PokerStars"``), or ``None``.
        hand_id: the room's hand number, as text, or ``None``.
        table: the table's name, or ``None``.
        played_at: when it was played (aware when the record names the zone).
        currency: ``"USD"`` and so on; ``None`` for chips (tournament or play money).
        tournament: the tournament's id, or ``None`` for a cash game.
        players: the players' names, in dealing order (seat 0 of the hand first).
        seats: the room's seat number of each, in the same order (may be empty).
        hero: the player whose down cards the record shows, or ``None``.
        unit: the money of one chip (``Decimal("0.01")`` for cents).
    """

    venue: str | None = None
    hand_id: str | None = None
    table: str | None = None
    played_at: datetime.datetime | None = None
    currency: str | None = None
    tournament: str | None = None
    players: tuple[str, ...] = ()
    seats: tuple[int, ...] = ()
    hero: str | None = None
    unit: Decimal = Decimal(1)

    @property
    def cash(self) -> bool:
        """Whether the hand was played for money at a cash table (not a tournament).

        >>> HandInfo(tournament="7431").cash, HandInfo(currency="EUR").cash
        (False, True)
        """
        return self.tournament is None

    def seat_names(self, seats: int) -> list[str]:
        """The players' names of a hand of ``seats`` seats, in dealing order: the
        record's, or ``Seat 0``, ``Seat 1``... where it does not name them all (what
        the analysis, the database and the copies' check call them).

        >>> HandInfo(players=("Ann", "Bo")).seat_names(2), HandInfo().seat_names(2)
        (['Ann', 'Bo'], ['Seat 0', 'Seat 1'])
        """
        if len(self.players) == seats:
            return list(self.players)
        return [f"Seat {seat}" for seat in range(seats)]

    @classmethod
    def of(cls, hand: _Recorded) -> HandInfo:
        """The record of a :class:`~studeval.StudHand` (from the PHH fields of its
        ``info``) or of a :class:`~studeval.histories.History`.

        >>> from studeval.play import random_hand
        >>> HandInfo.of(random_hand("stud", 2, seed=1)).players
        ()
        """
        info = hand.info
        if isinstance(info, HandInfo):
            return info
        return cls.from_phh(info if isinstance(info, Mapping) else {})

    def to_phh(self) -> dict[str, object]:
        """The PHH fields that say these facts (``StudHand.info``'s shape): ``venue``,
        ``hand``, ``table``, ``currency``, ``event`` for a tournament, the time's
        fields, ``players`` and ``seats``, and ``_unit`` for a chip that is not 1.
        PHH has no field for the hero: it is not written."""
        info: dict[str, object] = {}
        if self.venue is not None:
            info["venue"] = self.venue
        if self.players:
            info["players"] = list(self.players)
        if self.seats:
            info["seats"] = list(self.seats)
        if self.hand_id:
            info["hand"] = hand_number(self.hand_id)
        if self.table is not None:
            info["table"] = self.table
        if self.currency is not None:
            info["currency"] = self.currency
        if self.unit != 1:
            info["_unit"] = format(self.unit, "f")
        if self.tournament is not None:
            info["event"] = f"{self.venue} tournament {self.tournament}"
        if self.played_at is not None:
            at = self.played_at
            info.update(year=at.year, month=at.month, day=at.day, time=at.time().isoformat())
            if at.tzinfo is not None:
                info["time_zone"] = str(at.tzinfo)
        return info

    @classmethod
    def from_phh(cls, info: Mapping[str, object]) -> HandInfo:
        """The facts PHH fields (as ``StudHand.info`` keeps them) say; a field that
        is missing or not of its type says nothing.

        >>> HandInfo.from_phh({"venue": "Winamax", "event": "Winamax tournament 88",
        ...                    "year": 2026, "month": 12, "day": 2}).tournament
        '88'
        >>> HandInfo.from_phh({"venue": "iPoker",
        ...                    "event": "iPoker tournament $5 Limit 7 Card Stud"}).tournament
        '$5 Limit 7 Card Stud'
        """
        hand = info.get("_hand_id", info.get("hand"))
        players = info.get("players")
        seats = info.get("seats")
        event, venue = info.get("event"), info.get("venue")
        tournament: str | None = None
        if isinstance(event, str):  # (the record's venue first: a name may hold "tournament")
            named = f"{venue} tournament " if isinstance(venue, str) else None
            if named and event.startswith(named) and len(event) > len(named):
                tournament = event[len(named) :]
            elif found := _EVENT.match(event):
                tournament = found["id"]
        unit = Decimal(1)
        if isinstance(info.get("_unit"), str):
            try:
                unit = Decimal(str(info["_unit"]))
            except InvalidOperation:
                unit = Decimal(1)
        return cls(
            venue=_text(info.get("venue")),
            hand_id=str(hand) if isinstance(hand, (int, str)) and hand != "" else None,
            table=_text(info.get("table")),
            played_at=_played_at(info),
            currency=_text(info.get("currency")),
            tournament=tournament,
            players=tuple(str(p) for p in players) if isinstance(players, list) else (),
            seats=tuple(s for s in seats if isinstance(s, int)) if isinstance(seats, list) else (),
            unit=unit if unit > 0 else Decimal(1),
        )  # fmt: skip


def _text(value: object) -> str | None:
    return value if isinstance(value, str) else None


#: A ``time_zone`` that is a fixed offset from UTC, as ``str`` writes one ("UTC+01:00").
_OFFSET = re.compile(r"UTC([+-])([01][0-9]|2[0-3]):([0-5][0-9])")


def _played_at(info: Mapping[str, object]) -> datetime.datetime | None:
    """When PHH's ``year``, ``month``, ``day``, ``time`` and ``time_zone`` say the hand
    was played, or ``None``."""
    try:
        day = datetime.date(int(info["year"]), int(info["month"]), int(info["day"]))  # type: ignore[call-overload]
    except (KeyError, TypeError, ValueError):
        return None
    clock = info.get("time")
    if isinstance(clock, str):
        try:
            clock = datetime.time.fromisoformat(clock)
        except ValueError:
            clock = None
    moment = datetime.datetime.combine(day, clock if isinstance(clock, datetime.time) else
                                       datetime.time())  # fmt: skip
    zone = info.get("time_zone")
    offset = _OFFSET.fullmatch(zone) if isinstance(zone, str) else None
    if offset is not None and moment.tzinfo is None:  # OnGame's "GMT+0100": "UTC+01:00"
        sign = -1 if offset[1] == "-" else 1
        return moment.replace(tzinfo=datetime.timezone(
            sign * datetime.timedelta(hours=int(offset[2]), minutes=int(offset[3]))))  # fmt: skip
    if isinstance(zone, str) and moment.tzinfo is None:
        try:
            from zoneinfo import ZoneInfo

            moment = moment.replace(tzinfo=ZoneInfo(zone))
        except (ImportError, ValueError, KeyError, OSError):  # a zone this system lacks
            pass
    return moment


class PhhFields:
    """A hand's ``info`` (:attr:`StudHand.info <studeval.StudHand.info>`): PHH's fields,
    set as a dict or as a :class:`HandInfo`, which is made them when first read (a
    history reader sets one for every hand it reads, and most are never asked).

    >>> from studeval.play import random_hand
    >>> hand = random_hand("stud", 2, seed=1)
    >>> hand.info = HandInfo(venue="Winamax", hand_id="17")
    >>> hand.info
    {'venue': 'Winamax', 'hand': 17}
    """

    def __get__(self, hand: object, owner: type | None = None) -> dict[str, object]:
        if hand is None:
            return self  # type: ignore[return-value]  # the class's attribute: for its docs
        kept = hand.__dict__.get("_info")
        if not isinstance(kept, dict):
            kept = hand.__dict__["_info"] = {} if kept is None else kept.to_phh()
        return kept

    def __set__(self, hand: object, fields: dict[str, object] | HandInfo) -> None:
        hand.__dict__["_info"] = fields
