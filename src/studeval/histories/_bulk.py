"""Many hands of a room's text read in C in one call, for a tracker's rows and the
database: no StudHand, no History, no event objects.

``HistoryReader.read_hands`` reads, prepares, plays and checks a run of hands as
:func:`~studeval.histories._fast.read_fast` does one at a time; the header of
each stays the room's Python function, called back with its bytes. A hand it
reads where no seat put its whole stack in, or where one did and the others
folded, joins a :class:`CompactHands` batch: its net is its result, with no equity
to find. Read with the database's rows, a hand where a stack went all in with two
seats or more in to the end joins the batch too, its expected nets found from the
core's table of the hand (``analysis.table_result``). Every other hand (one the C
reader is not sure of; without the rows, an all-in with two seats or more in to
the end) is read again the usual way, in its place. The tests compare the rows of
both ways on every hand they write.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import TYPE_CHECKING

from studeval import _core
from studeval._tablerules import core_table_rules, settle_flags
from studeval.errors import StudevalError
from studeval.games import get_game
from studeval.histories._facts import Facts, batch_facts
from studeval.histories._fast import (
    UNITS,
    bring_in_of,
    dollars,
    limits_of,
    reader_of,
    stakes_of,
)
from studeval.histories._grammar import Grammar, Header
from studeval.histories._text import SIGNS
from studeval.houserules import HouseRules, house_rules

if TYPE_CHECKING:
    import numpy as np

    from studeval.betting import Stakes

__all__ = ["UNIT_TEXTS", "BulkRead", "CompactHands", "bulk_readable", "read_bulk", "read_spans"]

#: Each chip of money ``UNITS[places]`` as text ("0.01"), by its places.
UNIT_TEXTS = tuple(str(unit) for unit in UNITS)
#: Each column of HandRows' rows: its numpy type.
_ROW_TYPES = {(table, name): dtype for table, name, dtype in _core.HAND_ROWS_COLUMNS}


def bulk_readable(grammar: Grammar) -> bool:
    """Whether ``grammar``'s hands are read in bulk: a room with templates that writes
    its rake (a room that does not plays each hand twice: the History's way).

    >>> from studeval.histories.rooms import everleaf, pokerstars
    >>> bulk_readable(pokerstars.GRAMMAR), bulk_readable(everleaf.GRAMMAR)
    (True, False)
    """
    return bool(grammar.templates) and not grammar.rake_unwritten


@dataclass(eq=False)
class BulkRead:
    """What one ``read_hands`` call read, which the batches of its hands share: by
    hand (its place in the call) its header, its first line and its limits, and the
    core's arrays (by hand and by seat); the room's house rules; the hands' rows for
    the database (``HandRows``' columns, numbered by that place) where asked."""

    site: str
    source: str | None
    data: bytes  # the hands' UTF-8 text, which the name offsets point into
    arrays: dict[str, np.ndarray]
    headers: list[Header | None]
    lines: list[int]
    stakes: list[Stakes | None]
    rules: HouseRules
    rows: dict[str, dict[str, np.ndarray]] | None = None
    # By hand (its place), where a seat's whole stack went in and two or more seats
    # were in to the end (read with the rows): the street of the all-in (None: the
    # betting went on), whether its equities were counted exactly, and each seat's
    # expected net (``analysis.table_result``).
    equities: dict[int, tuple[int | None, bool, tuple[float, ...]]] = field(
        default_factory=dict)  # fmt: skip
    # What a reader of the batches makes once for the whole read, each batch then
    # taking its part (a batch runs from one all-in to the next: a few dozen hands).
    derived: dict[object, object] = field(default_factory=dict)
    # ``data`` as text where it is ASCII (a character a byte: the same offsets).
    text: str | None = None

    @functools.cached_property
    def facts(self) -> list[Facts | None]:
        """By hand, its facts (``_facts``: what its copies share), made once for the
        read's batches; None for a hand not read."""
        arrays, rows, headers = self.arrays, self.seat_rows, self.headers
        signs = arrays["stack_signs"].tolist()
        currencies = [None if h is None else _currency_of(h, s)
                      for h, s in zip(headers, signs, strict=True)]  # fmt: skip
        found = batch_facts(
            currencies,
            [h is None or h.tournament is None for h in headers],
            [h.game if h is not None and h.game is not None else "" for h in headers],
            arrays["places"], self.seat_names, arrays["seats"], arrays["stack"][rows],
            arrays["payout"][rows] - arrays["paid"][rows])  # fmt: skip
        return [None if h is None else f for f, h in zip(found, headers, strict=True)]

    @functools.cached_property
    def seat_starts(self) -> np.ndarray:
        """By hand, where its seats start among the seats of the hands read, hand after
        hand (a hand not read has none); one more place, their count."""
        import numpy as np

        starts = np.zeros(len(self.headers) + 1, dtype=np.int64)
        np.cumsum(self.arrays["seats"], out=starts[1:])
        return starts

    @functools.cached_property
    def seat_rows(self) -> np.ndarray:
        """Where the seats of the hands read are in the by-seat arrays, in that order."""
        import numpy as np

        return _seat_rows(np.arange(len(self.headers), dtype=np.int64), self.arrays["seats"])

    @functools.cached_property
    def seat_names(self) -> list[str]:
        """The players' names at :attr:`seat_rows`."""
        return self.names(self.seat_rows)

    def names(self, rows: np.ndarray) -> list[str]:
        """The players' names at seat rows ``rows``."""
        spans = zip(self.arrays["name_at"][rows].tolist(), self.arrays["name_len"][rows].tolist(),
                    strict=True)  # fmt: skip
        if self.text is not None:  # (a character a byte: sliced, not decoded)
            text = self.text
            return [text[at : at + size] for at, size in spans]
        data = self.data
        return [data[at : at + size].decode() for at, size in spans]

    def row_range(self, table: str, hands: np.ndarray) -> tuple[np.ndarray | slice, np.ndarray]:
        """Where the rows of ``hands`` (in order) are in ``rows[table]`` (a slice where
        they follow one another: no copy is taken), and how many each hand has."""
        import numpy as np  # (numpy is loaded by the readers' callers that read in bulk)

        assert self.rows is not None
        column = self.rows[table]["hand"]  # the hands' rows, hand after hand
        starts = np.searchsorted(column, hands, side="left")
        counts = np.searchsorted(column, hands, side="right") - starts
        total = int(counts.sum())
        if total and int(starts[-1] + counts[-1] - starts[0]) == total:
            return slice(int(starts[0]), int(starts[0]) + total), counts
        within = np.arange(total) - np.repeat(np.cumsum(counts) - counts, counts)
        return np.repeat(starts, counts) + within, counts


@dataclass(eq=False)
class CompactHands:
    """Consecutive hands of one text read in C where no betting ended all in (no seat
    put its whole stack in, or the others folded to it) (``hands``:
    their places in ``read``, in order): by hand its header, its first line and its
    limits; by seat its name, the room's seat number, and the chips it had, paid
    and won. Their nets are their results: no equity to find."""

    read: BulkRead
    hands: np.ndarray

    @property
    def site(self) -> str:
        return self.read.site

    @property
    def source(self) -> str | None:
        return self.read.source

    @property
    def arrays(self) -> dict[str, np.ndarray]:
        return self.read.arrays

    @property
    def headers(self) -> list[Header | None]:
        return self.read.headers

    def __len__(self) -> int:
        return len(self.hands)

    def keys(self) -> Iterator[tuple[str, str, int, list[str]]]:
        """Each hand's room, hand id, first line and players dealt in, in order."""
        site = self.read.site
        for hand_id, line, players in zip(*self.key_columns(), strict=True):
            yield site, hand_id, line, players

    def key_columns(self) -> tuple[list[str], list[int], list[list[str]]]:
        """:meth:`keys` as columns: the hands' ids, first lines and players, in order."""
        names = self.seat_names
        hands = self.hands.tolist()
        headers, lines = self.read.headers, self.read.lines
        ids = [headers[i].hand_id for i in hands]  # (a hand read has its header)
        seats = self.arrays["seats"][self.hands].tolist()
        ends = itertools.accumulate(seats)
        players = [names[end - count : end] for end, count in zip(ends, seats, strict=True)]
        return ids, [lines[i] for i in hands], players

    def facts(self) -> list[Facts | None]:
        """Each hand's facts (``_facts``: what its copies share), in order."""
        facts = self.read.facts
        return [facts[h] for h in self.hands.tolist()]

    def subset(self, positions: Sequence[int] | slice) -> CompactHands:
        """The batch of the hands at ``positions`` (in order)."""
        taken = self.hands[positions] if isinstance(positions, slice) else self.hands[
            list(positions)]  # fmt: skip
        return CompactHands(self.read, taken)

    def span(self) -> tuple[int, int] | None:
        """Where the batch's seats are among its read's (``BulkRead.seat_rows``), if they
        follow one another: its hands do, or the hands between them are hands not read
        (a batch of a read, or all its hands read, unless copies were taken out)."""
        hands = self.hands
        if len(hands) == 0:
            return None
        starts = self.read.seat_starts
        first, end = int(starts[hands[0]]), int(starts[hands[-1] + 1])
        return (first, end) if int(self.arrays["seats"][hands].sum()) == end - first else None

    def seat_rows(self) -> np.ndarray:
        """Where each hand's seats are in the by-seat arrays, hand after hand."""
        span = self.span()
        if span is not None:
            return self.read.seat_rows[span[0] : span[1]]
        return _seat_rows(self.hands, self.arrays["seats"][self.hands])

    @functools.cached_property
    def seat_names(self) -> list[str]:
        """:meth:`names` at :meth:`seat_rows`, made once for the batch's readers (the
        copies' check, then its rows): the read's, decoded once for all its batches."""
        span = self.span()
        if span is not None:
            return self.read.seat_names[span[0] : span[1]]
        return self.names(self.seat_rows())

    def names(self, rows: np.ndarray) -> list[str]:
        """The players' names at seat rows ``rows``."""
        return self.read.names(rows)

    def currency(self, hand: int) -> str | None:
        """Hand ``hand``'s currency: its header's; in a cash game whose header names
        none, its stacks' sign ("$")."""
        header = self.headers[hand]
        assert header is not None
        return _currency_of(header, int(self.arrays["stack_signs"][hand]))

    def currencies(self) -> list[str | None]:
        """:meth:`currency` of each hand of the batch, in order."""
        signs = self.arrays["stack_signs"][self.hands].tolist()
        headers = self.headers
        return [_currency_of(headers[h], s)
                for h, s in zip(self.hands.tolist(), signs, strict=True)]  # fmt: skip

    def unit(self, hand: int) -> Decimal:
        """Hand ``hand``'s chip in money (10 to the minus the places its amounts have)."""
        return UNITS[int(self.arrays["places"][hand])]

    def unit_text(self, hand: int) -> str:
        """:meth:`unit` as text ("0.01")."""
        return UNIT_TEXTS[int(self.arrays["places"][hand])]

    def hero(self, hand: int) -> str | None:
        """Hand ``hand``'s hero, where its seat lines mark one."""
        return _text_at(self.read.data, int(self.arrays["hero_at"][hand]),
                        int(self.arrays["hero_len"][hand]))  # fmt: skip

    def heroes(self) -> list[str | None]:
        """:meth:`hero` of each hand of the batch, in order."""
        data, arrays = self.read.data, self.arrays
        return [_text_at(data, at, size) for at, size in
                zip(arrays["hero_at"][self.hands].tolist(),
                    arrays["hero_len"][self.hands].tolist(), strict=True)]  # fmt: skip


def _seat_rows(hands: np.ndarray, seats: np.ndarray) -> np.ndarray:
    """Where the seats of ``hands`` (with ``seats`` seats each) are in the by-seat arrays,
    hand after hand."""
    import numpy as np

    seats = seats.astype(np.int64)
    within = np.arange(int(seats.sum())) - np.repeat(np.cumsum(seats) - seats, seats)
    return np.repeat(8 * hands, seats) + within


def _currency_of(header: Header, stack_signs: int) -> str | None:
    """A hand's currency from its header and its stacks' signs (the core's bits)."""
    if header.currency is None and header.tournament is None:
        return dollars(stack_signs)
    return header.currency


def _text_at(data: bytes, at: int, size: int) -> str | None:
    """The text of ``data[at:at + size]``; None where ``at`` is -1 (not written)."""
    return None if at < 0 else data[at : at + size].decode()


def read_bulk(grammar: Grammar, texts: Sequence[str], lines: Sequence[int],
              source: str | None, rows: bool = False) -> Iterator[CompactHands | int]:  # fmt: skip
    """The hands ``texts`` (each one hand's lines joined by ``"\\n"``, first line
    ``lines[i]``) of a room :func:`bulk_readable` says yes to, in order: batches of
    hands read in C, and the index of each hand the caller reads the usual way.
    ``rows``: the batches hold the hands' rows for the database too, and the hands
    whose betting ended all in are read in bulk as well, with their expected nets
    (``BulkRead.equities``).

    >>> from studeval.histories import EXAMPLE
    >>> from studeval.histories.rooms.pokerstars import GRAMMAR
    >>> [batch] = read_bulk(GRAMMAR, [EXAMPLE.rstrip("\\n")], [1], "stars.txt")
    >>> len(batch), batch.names(batch.seat_rows())[:2], batch.currency(0), batch.hero(0)
    (1, ['alba_k', 'bruno1977'], 'USD', 'Hero')
    >>> list(read_bulk(GRAMMAR, [EXAMPLE.replace("folds", "waves")], [1], None))  # not sure
    [0]
    """
    import numpy as np  # (the rooms' readers load none: `studeval replay --help` starts fast)

    joined: str | None = "".join(texts)
    bounds = np.zeros(len(texts) + 1, dtype=np.int64)
    if joined is not None and joined.isascii():  # (most text: encoded at once)
        data = joined.encode("ascii")
        np.cumsum([len(text) for text in texts], out=bounds[1:])
    else:
        joined = None
        encoded = [text.encode() for text in texts]
        np.cumsum([len(e) for e in encoded], out=bounds[1:])
        data = b"".join(encoded)
    yield from read_spans(grammar, data, joined, bounds[:-1], bounds[1:], lines, source, rows)


def read_spans(grammar: Grammar, data: bytes, text: str | None, starts: np.ndarray,
               ends: np.ndarray, lines: Sequence[int], source: str | None,
               rows: bool = False) -> Iterator[CompactHands | int]:  # fmt: skip
    """:func:`read_bulk`'s hands as they lie in ``data`` (hand ``i`` is
    ``data[starts[i]:ends[i]]``; ``text``: ``data`` as text where it is ASCII, or
    None), their first lines ``lines``."""
    import numpy as np

    reader = reader_of(grammar)
    count = len(starts)
    headers: list[Header | None] = [None] * count
    rules = house_rules(grammar.rules)
    flags = settle_flags(rules)
    tables: dict[tuple[object, ...], tuple[object, ...] | None] = {}

    # The room's reading of a header's bytes, else its reading of their lines.
    read_header = grammar.header_bytes or (
        lambda text: grammar.header(text.decode().split("\n")[:-1]))  # fmt: skip

    def header_of(hand: int, text: bytes) -> tuple[bytes, bytes, int] | None:
        try:
            header = read_header(text)
        except (ValueError, IndexError):
            return None
        if grammar.refused is not None or header.game is None or header.refused is not None:
            return None
        headers[hand] = header
        # (The limits as written, each hand's own: "5" and "5.00" are equal Decimals,
        # but one is read in whole chips of 1, the other of 0.01.)
        small, big = limits_of(header)
        return small, big, _core.HISTORY_SIGNS.get(SIGNS.get(header.currency or "", "$"), 0)

    def rules_of(hand: int, seats: int, places: int, ante: int, bring_in: int,
                 small_bet: int, big_bet: int, rake: int) -> tuple[object, ...] | None:  # fmt: skip
        header = headers[hand]
        assert header is not None and header.game is not None
        if header.ante is not None or header.bring_in is not None:
            named = bring_in_of(header, places, ante, bring_in, small_bet)
            if named is None:
                return None
            bring_in = named
        key = (header.game, seats, ante, bring_in, small_bet, big_bet, rake)
        found = tables.get(key, False)
        if found is False:
            try:
                limits = stakes_of(ante, bring_in, small_bet, big_bet)
            except StudevalError:
                found = tables[key] = None
            else:
                table = core_table_rules(header.game, rules, seats, ante, bring_in, small_bet,
                                         big_bet, rake)  # fmt: skip
                spec = get_game(header.game)
                found = tables[key] = (table, spec.core_id, flags, spec.split, limits)
        return found  # type: ignore[return-value]

    from studeval.analysis import table_result  # (the rooms' readers load no equity)

    equities: dict[int, tuple[int | None, bool, tuple[float, ...]]] = {}

    def all_in_of(hand: int, table: _core.TableHand, stacks: list[int]) -> bool:
        # The all-in's equity from the core's table, as the hand read the usual way
        # would give it (its analysis raising anything: read that way, and raise there).
        header = headers[hand]
        assert header is not None and header.game is not None
        try:
            equities[hand] = table_result(table, header.game, stacks)
        except StudevalError:
            return False
        return True

    sink = _core.HandRows() if rows else None
    arrays = reader.read_hands(data, starts, header_of, rules_of, sink,
                               all_in_of if rows else None, ends)  # fmt: skip
    read = BulkRead(grammar.site, source, data, arrays, headers, list(lines), arrays.pop("tags"),
                    rules, equities=equities, text=text)  # fmt: skip
    if sink is not None:
        read.rows = {}
        for (table, name), values in sink.take().items():
            dtype = _ROW_TYPES[table, name]
            read.rows.setdefault(table, {})[name] = np.frombuffer(values, dtype)
    done = (arrays["status"] == 0).tolist()  # (a list: read hand by hand)
    start = 0
    for hand in range(count + 1):
        if hand == count or not done[hand]:
            if hand > start:
                yield CompactHands(read, np.arange(start, hand, dtype=np.int64))
            if hand < count:
                yield hand
            start = hand + 1
