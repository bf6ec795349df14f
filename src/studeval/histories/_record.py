"""What a card room's hand history says, before and after its replay.

A site's grammar (one module a site) reads one hand's text into a
:class:`Transcript`: the header, the seats, and every line that moves chips or
shows cards as a :class:`Step`, amounts still in the text's money. The replay
(:mod:`studeval.histories._replay`) turns a transcript into a :class:`History`,
whose ``hand`` is a finished :class:`~studeval.StudHand` that played every step.
"""

from __future__ import annotations

import datetime
import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Literal, TypeVar

from studeval.betting import Stakes
from studeval.engine import StudHand
from studeval.errors import StudevalError, StudevalWarning
from studeval.handinfo import HandInfo
from studeval.histories._text import shown_path
from studeval.histories.phh import dumps
from studeval.houserules import HouseRules

__all__ = [
    "ConflictingHandError", "DuplicateHandError", "DuplicateHandsWarning", "History",
    "HistoryError",
    "NotAHistoryError", "NotStudError", "OutsideHandsError", "Player", "Step", "StepKind",
    "Transcript",
    "UnreadableFileError", "kept", "reason_kind", "where_read",
]  # fmt: skip


class HistoryError(StudevalError, ValueError):
    """A hand history that cannot be read, or whose replay disagrees with what it
    records: the message names the site, the hand id and the line.

    >>> err = HistoryError("Hero calls 0.03; the call is 0.02", site="PokerStars",
    ...                    hand_id="7", line=20)
    >>> str(err), err.line, isinstance(err, ValueError)
    ('PokerStars, hand 7, line 20: Hero calls 0.03; the call is 0.02', 20, True)
    """

    def __init__(self, message: str, *, site: str | None = None, hand_id: str | None = None,
                 line: int | None = None, source: str | None = None,
                 names: Sequence[str] | None = None) -> None:  # fmt: skip
        where = ", ".join(
            part
            for part in (
                site,
                f"hand {hand_id}" if hand_id else None,
                shown_path(source) if source else None,
                f"line {line}" if line is not None else None,
            )
            if part
        )
        super().__init__(f"{where}: {message}" if where else message)
        self.reason = message
        # The players the message names, in its order (None: not said).
        self.names = tuple(names) if names is not None else None
        self.site = site
        self.hand_id = hand_id
        self.line = line
        self.source = source

    def __reduce__(self) -> tuple[object, ...]:
        # Sent between processes (a Dask worker's refusal) with every field, whatever
        # the subclass's own arguments.
        return _restored, (type(self), str(self), dict(self.__dict__))

    #: What became of the hand: ``"refused"`` (it cannot be read, or its replay
    #: disagrees with the text); the subclasses say ``"not stud"``, ``"duplicate"``,
    #: ``"not a history"`` and ``"unreadable"``.
    status: str = "refused"

    @property
    def kind(self) -> str:
        """The reason without the names and amounts that vary from hand to hand, to
        count refusals by.

        >>> HistoryError("Hero calls 0.03; the call is 0.02", line=20).kind
        'P calls N; the call is N'
        >>> HistoryError("Bob Jr raises to 0.30; legal: bring_in 0.30", names=["Bob Jr"]).kind
        'P raises to N; legal: bring_in N'
        """
        names = self.names
        if names is None and self.site and self.reason.startswith(self.site + " "):
            names = ()  # the room ("PartyPoker shows no other player's up cards"), no player
        return reason_kind(self.reason, names)


def _restored(kind: type[HistoryError], message: str, fields: dict[str, object]) -> HistoryError:
    """A :class:`HistoryError` unpickled: its message and fields as they were."""
    error = kind.__new__(kind)
    Exception.__init__(error, message)
    error.__dict__.update(fields)
    return error


class NotStudError(HistoryError):
    """A hand of a game studeval does not replay (hold'em, omaha, draw, five-card
    stud, no-limit stud) in a room's file: mixed-game files hold many. Such a hand is
    skipped and counted apart from the refusals: it is not a fault of the file.

    >>> err = NotStudError("Limit Hold'em", site="PokerStars", hand_id="9", line=1)
    >>> str(err), err.game, err.status
    ("PokerStars, hand 9, line 1: not a fixed-limit seven-card stud game: Limit Hold'em", \
"Limit Hold'em", 'not stud')
    """

    status = "not stud"

    def __init__(self, game: str, *, site: str | None = None, hand_id: str | None = None,
                 line: int | None = None, source: str | None = None,
                 why: str | None = None) -> None:  # fmt: skip
        super().__init__(why or f"not a fixed-limit seven-card stud game: {game}", site=site,
                         hand_id=hand_id, line=line, source=source)  # fmt: skip
        self.game, self.why = game, why  # why: KingsClub's 2-7 razz, a game not played

    @property
    def kind(self) -> str:
        """The reason with the game as :attr:`game_name` gives it (or ``why``).

        >>> NotStudError("Tournament #74, 100+9 8-Game (Hold'em Limit)").kind
        "not a fixed-limit seven-card stud game: Hold'em Limit"
        """
        return self.why or "not a fixed-limit seven-card stud game: " + self.game_name

    @property
    def game_name(self) -> str:
        """The game as the room names it (stakes as ``N/N``, no tournament number), to
        count the skipped hands by game.

        >>> NotStudError("HORSE Limit $0.25/$0.50", why="not played").game_name
        'HORSE Limit N/N'
        """
        game = re.sub(r"\s*\([^()]*\d/\D?\d[^()]*\)", "", self.game)  # "($1/$2 USD)"
        mixed = re.search(r"\(([^()]*[A-Za-z][^()]*)\)\s*$", game)  # "8-Game (Razz Limit)"
        if mixed:
            game = mixed.group(1)
        game = re.sub(r"^.*#\d+,?\s*", "", game)  # a tournament's number
        game = re.sub(r"[$€£]?\d[\d.,]*/[$€£]?\d[\d.,]*", "N/N", game)  # stakes
        return game.strip()


HistoryErrorT = TypeVar("HistoryErrorT", bound=HistoryError)


def kept(error: HistoryErrorT) -> HistoryErrorT:
    """``error`` to keep as a value (a refusal reported, not raised): without its
    traceback, whose frames hold the text being read and the error itself, a cycle
    that only the cyclic collector frees (paused while a folder is read), and
    without a context that was never to be shown (``raise ... from None``).

    >>> try:
    ...     raise HistoryError("a bad line")
    ... except HistoryError as err:
    ...     caught = kept(err)
    >>> caught.__traceback__ is None
    True
    """
    error.__traceback__ = None
    if error.__suppress_context__:
        error.__context__ = None
    return error


def where_read(source: str | None, line: int | None) -> str:
    """Where a hand was read, as a copy's report names the first copy: its source
    ("the text" where none) and its first line where known.

    >>> where_read("a.txt", 40), where_read("a.txt", None), where_read(None, 3)
    ('a.txt line 40', 'a.txt', 'the text line 3')
    """
    shown = shown_path(source) if source else "the text"
    return shown + ("" if line is None else f" line {line}")


class DuplicateHandError(HistoryError):
    """A hand read before, by its room and hand id: exports overlap, and a hand is
    counted once. ``first`` says where the copy kept was read.

    >>> err = DuplicateHandError("b.txt line 1", site="PokerStars", hand_id="9",
    ...                          source="a.txt", line=40)
    >>> err.reason, err.status
    ('a duplicate of the hand read from b.txt line 1', 'duplicate')
    """

    status = "duplicate"

    def __init__(self, first: str, *, site: str | None = None, hand_id: str | None = None,
                 line: int | None = None, source: str | None = None) -> None:  # fmt: skip
        super().__init__(f"a duplicate of the hand read from {first}", site=site,
                         hand_id=hand_id, line=line, source=source)  # fmt: skip
        self.first = first


class ConflictingHandError(HistoryError):
    """A hand under the room and hand id of a hand read (or stored) before that is
    another hand: dealt to other players, or (where the database compares them) in
    other money, in another game, with other results, with other stacks or with
    other cards where both copies know a card. Another
    hand under the same number (a file edited, a room's numbers reused), not a copy:
    it is refused, never counted as a copy of the hand kept; ``first`` says where
    that one was read, ``how`` how the two differ.

    >>> err = ConflictingHandError("a.txt line 1", site="PokerStars", hand_id="9")
    >>> err.status, err.first, err.reason.endswith("dealt to other players: not read")
    ('refused', 'a.txt line 1', True)
    >>> err.kind  # counted together, whichever file and however they differ
    'another hand under the room and hand id of a hand read before'
    """

    def __init__(self, first: str, *, site: str | None = None, hand_id: str | None = None,
                 line: int | None = None, source: str | None = None,
                 how: str = "dealt to other players") -> None:  # fmt: skip
        super().__init__(f"another hand under the room and hand id of the hand read from "
                         f"{first}, {how}: not read", site=site,
                         hand_id=hand_id, line=line, source=source)  # fmt: skip
        self.first = first
        self.how = how

    @property
    def kind(self) -> str:
        return "another hand under the room and hand id of a hand read before"


class DuplicateHandsWarning(StudevalWarning):
    """Hands read more than once and dropped (``read(..., errors="raise")``): how
    many, and the first of them.

    >>> first = DuplicateHandError("a.txt line 1", site="PokerStars", hand_id="9")
    >>> print(DuplicateHandsWarning([first]))  # doctest: +NORMALIZE_WHITESPACE
    1 duplicate hand dropped (a hand read before, by room and hand id), the first:
    PokerStars, hand 9: a duplicate of the hand read from a.txt line 1
    """

    def __init__(self, dropped: list[DuplicateHandError]) -> None:
        count = len(dropped)
        super().__init__(f"{count} duplicate hand{'s' * (count != 1)} dropped (a hand read "
                         f"before, by room and hand id), the first: {dropped[0]}")  # fmt: skip
        self.dropped = dropped


class NotAHistoryError(HistoryError):
    """A file or text in which no room's hand starts (a ``README.txt`` beside the
    exports, a room studeval does not read, a damaged file), or that cannot be read
    at all: the whole file is reported, never passed over."""

    status = "not a history"


class OutsideHandsError(NotAHistoryError):
    """Lines of a file that holds hands but outside every hand: before the first (a
    tracker's heading), or after a PokerStars hand's end (a blank line) and before the
    next start (the hand of a room studeval does not read, notes). Reported, as a file
    with no hand is, never passed over.

    >>> err = OutsideHandsError("888poker Hand History for Game 1 :", 12, line=40,
    ...                         source="a.txt")
    >>> print(err)
    a.txt, line 40: 12 lines outside every hand, not read: '888poker Hand History for Game 1 :'
    >>> err.status, err.kind
    ('not a history', 'lines outside every hand, not read')
    """

    def __init__(self, first: str, lines: int, *, line: int | None = None,
                 source: str | None = None) -> None:  # fmt: skip
        super().__init__(f"{lines} line{'s' * (lines != 1)} outside every hand, not read: "
                         f"{_quoted_start(first)}", line=line, source=source)  # fmt: skip

    @property
    def kind(self) -> str:
        return "lines outside every hand, not read"


class HeadlessHandError(HistoryError):
    """Lines outside every hand that hold seat lines: a hand whose first line was
    damaged or lost (or another room's, pasted in), so that no start studeval reads
    was found there. Refused, as a hand that cannot be read is, where a heading or
    notes between hands are only reported (:class:`OutsideHandsError`).

    >>> err = HeadlessHandError("XokerStars Hand #7", 20, line=32, source="a.txt")
    >>> print(err.reason)
    20 lines of a hand without a first line studeval reads, not read: 'XokerStars Hand #7'
    >>> err.status, err.kind
    ('refused', 'a hand without a first line studeval reads')
    """

    def __init__(self, first: str, lines: int, *, line: int | None = None,
                 source: str | None = None) -> None:  # fmt: skip
        super().__init__(f"{lines} lines of a hand without a first line studeval reads, "
                         f"not read: {_quoted_start(first)}", line=line, source=source)  # fmt: skip

    @property
    def kind(self) -> str:
        return "a hand without a first line studeval reads"


def _quoted_start(first: str) -> str:
    """A first line as Python writes it (NUL bytes and the like seen), cut to about
    60 characters inside its quotes."""
    cut = first
    while len(repr(cut)) > 60:
        cut = cut[: len(cut) * 3 // 4]
    return repr(cut) if cut == first else repr(cut + "...")


class UnreadableFileError(NotAHistoryError):
    """A file that could not be read at all (no permission, an input/output error,
    a pipe or a device): unlike a file that holds no history, it may hold hands,
    so a command that meets one exits with an error status."""

    status = "unreadable"


#: What varies from hand to hand in a reason besides the names: quoted text, cards
#: ("Kd 7c 2s", two or more), and amounts (a number that is no part of a word).
_VARYING = re.compile(r"'[^'\0]*'|(?<![\w-])[2-9TJQKA][cdhs](?: [2-9TJQKA][cdhs])+(?![\w-])"
                      r"|(?<![\w-])\d+(?:[.,]\d+)*(?![\w-])")  # fmt: skip


def reason_kind(reason: str, names: Sequence[str] | None = None) -> str:
    """``reason`` with the players it names as ``P``, and quoted text, cards and
    amounts as ``N``: what stays is the same for every hand refused for that reason.

    ``names`` are the players ``reason`` names, in the order it names them (each is
    looked for after the one before, as a whole word: a name that is also a word of
    the reason is not taken for it). Without them a leading word before a verb is
    taken to be a player's name. A number that is part of a word ("3rd", "2-7",
    "H/L8") is no amount and stays.

    >>> reason_kind("'nobody' is not seated in this hand")
    'P is not seated in this hand'
    >>> reason_kind("1Incubator1 collected 0.00; the replay pays 41.05", ["1Incubator1"])
    'P collected N; the replay pays N'
    >>> reason_kind("the raises to 30, but E (x) is to act", ["the", "E (x)"])
    'P raises to N, but P is to act'
    >>> reason_kind("Hero has no up card on 3rd street; limit 2-7, $0.02/$0.04", ["Hero"])
    'P has no up card on 3rd street; limit 2-7, $N/$N'
    >>> reason_kind("[5]: actions[8] 'p4 zz': not an action studeval knows")
    '[N]: actions[N] N: not an action studeval knows'
    >>> reason_kind("[TAG]Bob raises to 5, but")
    'P raises to N, but'
    """
    parts, at = [], 0
    for name in names or ():
        found = re.compile(rf"(?<!\w){re.escape(name)}(?!\w)").search(reason, at)
        if found and name:
            parts += [reason[at : found.start()], "\0"]
            at = found.end()
    general = "".join([*parts, reason[at:]])
    general = _VARYING.sub("N", general)
    if names is None:  # (not a PHH record's "[5]: ...": no player)
        general = re.sub(r"^(?!\[N\]:)\S+ (\w+s)\b", "\0 \\1", general)
    return general.replace("\0", "P")


#: What a step of a history does. ``street`` starts a street (``cards`` holds the
#: community card when the text deals one); ``deal`` gives one player the cards the
#: text shows (``None`` for each card it hides); ``return`` is an uncalled bet given
#: back; ``collect`` is chips taken from a pot; ``all_in`` is a wager of ``amount``
#: whose kind the text does not say (a call, bet or raise, as the rules make it).
StepKind = Literal[
    "ante", "street", "deal", "bring_in", "complete", "bet", "raise", "call", "check",
    "fold", "all_in", "return", "show", "muck", "collect",
]  # fmt: skip


@dataclass(frozen=True)
class Step:
    """One line of a history that the replay plays or checks.

    ``amount`` is what the line says the player put in (``bet``, ``call``,
    ``bring_in``, ``ante``), got back (``return``) or took (``collect``); ``to`` is
    the player's total for the street after a ``complete`` or ``raise`` (or a bet
    written as a total), when the text gives it.
    """

    line: int
    kind: StepKind
    name: str | None = None
    amount: Decimal | None = None
    to: Decimal | None = None
    cards: tuple[str | None, ...] = ()
    street: int = 0
    all_in: bool = False


@dataclass
class Transcript:
    """One hand as its text records it, amounts in the text's money."""

    site: str
    hand_id: str
    game: str
    small_bet: Decimal
    big_bet: Decimal
    seats: list[tuple[int, str, Decimal]]  # (seat number, name, stack), as listed
    steps: list[Step] = field(default_factory=list)
    table: str | None = None
    tournament: str | None = None
    played_at: datetime.datetime | None = None
    currency: str | None = None
    ante: Decimal | None = None  # when the header names it
    bring_in: Decimal | None = None  # when the header names it
    hero: str | None = None
    revealed: dict[str, tuple[str, ...]] = field(default_factory=dict)  # every card shown
    total_pot: Decimal | None = None
    rake: Decimal | None = None
    text: str = ""
    line: int = 1  # where the hand starts in its source
    source: str | None = None
    # iPoker's "win" holds the uncalled bet given back too; other rooms write it apart.
    collects_returns: bool = False
    pot_after_rake: bool = False  # Winamax writes the total pot net of the rake
    returns_unwritten: bool = False  # no line for an uncalled bet given back
    rake_unwritten: bool = False  # a rake taken but not written
    writes_total: bool = False  # the room writes the total pot in every hand's summary
    contributed: dict[str, Decimal] | None = None  # chips each put in, when recorded
    rules: HouseRules | None = None  # the room's house rules, where not Robert's
    # (line, why): lines the reader found to contradict others; the replay refuses
    # the hand at the first of them, unless it disagrees with an earlier line first.
    contradictions: list[tuple[int, str]] = field(default_factory=list)


@dataclass(frozen=True)
class Player:
    """A player dealt into the hand: the site's seat number, the name, the stack
    (chips) before the antes."""

    seat: int
    name: str
    stack: int


@dataclass
class History:
    """One hand from a card room's history, replayed.

    Attributes:
        site: the room, e.g. ``"PokerStars"``.
        hand_id: the room's hand number, as text.
        table: the table's name (``None`` when not given).
        tournament: the tournament id, or ``None`` for a cash game.
        played_at: when it was played; aware when the text names the time zone.
        currency: e.g. ``"USD"``; ``None`` for tournament chips or play money.
        game: ``"stud"``, ``"stud8"`` or ``"razz"``.
        stakes: the limits, in chips.
        unit: money per chip (``Decimal("0.01")`` for cents; 1 for tournament chips).
        players: the players dealt in, in dealing order (seat 0 of ``hand`` first).
        hero: the player whose down cards the text shows, or ``None``.
        hand: the finished :class:`~studeval.StudHand` that replayed every line.
        collected: chips each player took from the pots, as recorded.
        rake: chips the house took, as recorded.
        text: the hand's text; ``source`` and ``line``: where it starts.
    """

    site: str
    hand_id: str
    table: str | None
    tournament: str | None
    played_at: datetime.datetime | None
    currency: str | None
    game: str
    stakes: Stakes
    unit: Decimal
    players: list[Player]
    hero: str | None
    hand: StudHand
    collected: dict[str, int]
    rake: int
    text: str
    source: str | None
    line: int

    @functools.cached_property
    def info(self) -> HandInfo:
        """The hand's record besides its play: the room as ``venue``, the hand id, the
        table, the time, the money, the tournament, the players, their seats, the hero
        (made once: a History is the record as read).

        >>> from studeval.histories import EXAMPLE, read
        >>> info = next(read(EXAMPLE)).info
        >>> info.venue, info.hand_id, info.cash, info.players[:2], info.seats[:2]
        ('PokerStars', '20261202017', True, ('alba_k', 'bruno1977'), (1, 3))
        """
        return HandInfo(venue=self.site, hand_id=self.hand_id, table=self.table,
                        played_at=self.played_at, currency=self.currency,
                        tournament=self.tournament, players=tuple(p.name for p in self.players),
                        seats=tuple(p.seat for p in self.players), hero=self.hero,
                        unit=self.unit)  # fmt: skip

    def to_phh(self) -> str:
        """The hand as a PHH record (:func:`studeval.phh.dumps`), with the room's
        names, hand id, table, time and currency."""
        return dumps(self.hand)
