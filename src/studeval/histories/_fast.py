"""The C reader of a room's common lines (``se_history.c``), before the general one.

A room whose grammar has ``templates`` gives each hand to the C reader first: it
reads the seat lines and every step by the templates and replays them on the
engine, checking each amount as :mod:`~studeval.histories._replay` does, about
twenty times faster. Where it is not sure (a line no template knows, an amount or
a card it does not read, anything the replay would refuse) it gives the hand up,
and :func:`read_fast` returns ``None``: the general reader then reads the hand and
names what is wrong with it. The header stays the room's Python function, and the
settlement of a showdown stays :func:`studeval.settle`. A hand the C reader does
read is the same :class:`History` the general reader makes (the tests compare the
two on every hand they write, and on hands with a line changed).
"""

from __future__ import annotations

import datetime
import functools
import threading
from decimal import Decimal

from studeval import _core
from studeval._tablerules import settle_flags
from studeval.betting import Stakes
from studeval.engine import StudHand
from studeval.errors import StudevalError
from studeval.games import get_game
from studeval.histories._grammar import Grammar, Header
from studeval.histories._limits import most_unwritten_rake
from studeval.histories._record import History, Player
from studeval.histories._text import SIGNS, currency_of
from studeval.houserules import HouseRules

__all__ = [
    "UNITS",
    "bring_in_of",
    "c_flags",
    "dollars",
    "finish",
    "limits_of",
    "read_fast",
    "reader_of",
    "stakes_of",
    "xml_reader",
]

#: One C reader a room and thread (a reader holds the hand it is reading).
_LOCAL = threading.local()


#: The currency of amounts written with "$", the one sign the C reader takes where a
#: header names no currency.
_DOLLARS = currency_of("$")

#: The money of one chip, by its places (the C reader reads 17 at most).
UNITS = tuple(Decimal(1).scaleb(-places) for places in range(18))


@functools.lru_cache(maxsize=256)
def stakes_of(ante: int, bring_in: int, small_bet: int, big_bet: int) -> Stakes:
    """The limits (immutable, so hands at one table share them)."""
    return Stakes(ante=ante, bring_in=bring_in, small_bet=small_bet, big_bet=big_bet)


def c_flags(grammar: Grammar) -> int:
    """The C reader's flags (``se_hist_grammar.flags``) for the quirks of a format it
    reads."""
    return ((_core.HISTORY_POT_AFTER_RAKE if grammar.pot_after_rake else 0)
            | (_core.HISTORY_RETURNS_UNWRITTEN if grammar.returns_unwritten else 0)
            | (_core.HISTORY_COLLECTS_RETURNS if grammar.collects_returns else 0)
            | (_core.HISTORY_FIRST_STREET_3 if grammar.first_street == 3 else 0)
            | (_core.HISTORY_DEALS_REPEAT_ALL if grammar.deals_repeat_all else 0)
            | (_core.HISTORY_RAKE_UNWRITTEN if grammar.rake_unwritten else 0)
            | (_core.HISTORY_CARD_BY_CARD if grammar.card_by_card else 0)
            | (_core.HISTORY_STREETS_BY_DEALS if grammar.streets_by_deals else 0)
            | (_core.HISTORY_HERO_MARKED if grammar.hero_mark is not None else 0))  # fmt: skip


def reader_of(grammar: Grammar) -> _core.HistoryReader:
    """This thread's C reader of ``grammar``'s hands."""
    # By the grammar itself (a room may have formats of one site); grammars are the
    # rooms' module constants, alive as long as the process.
    readers: dict[int, _core.HistoryReader] = _LOCAL.__dict__.setdefault("readers", {})
    reader = readers.get(id(grammar))
    if reader is None:
        reader = readers[id(grammar)] = _core.HistoryReader(grammar.templates, c_flags(grammar))
    return reader


def xml_reader() -> _core.HistoryReader:
    """This thread's C reader of XML rooms' hands (no templates: its own calls)."""
    reader: _core.HistoryReader | None = _LOCAL.__dict__.get("xml")
    if reader is None:
        reader = _LOCAL.xml = _core.HistoryReader((), 0)
    return reader


def read_fast(grammar: Grammar, text: str, first_line: int, source: str | None) -> History | None:
    """The hand ``text`` (its lines joined by ``"\\n"``) read and replayed in C, or
    ``None`` where the C reader is not sure of it.

    >>> from studeval.histories import EXAMPLE
    >>> from studeval.histories.rooms.pokerstars import GRAMMAR
    >>> read_fast(GRAMMAR, EXAMPLE.rstrip("\\n"), 1, None).collected["DarioZ"]
    39
    >>> read_fast(GRAMMAR, EXAMPLE.replace("folds", "waves"), 1, None) is None
    True
    """
    reader = reader_of(grammar)
    data = text.encode()
    end = reader.read(data)
    if end < 0:
        return None
    try:
        header = grammar.header(data[:end].decode().split("\n")[:-1])
    except (ValueError, IndexError):
        return None
    if grammar.refused is not None:
        return None
    return finish(reader, header, grammar.site, grammar.rules, grammar.rake_unwritten, text,
                  source, first_line)  # fmt: skip


def limits_of(header: Header) -> tuple[bytes, bytes]:
    """The small and big bet ``header`` names, as written, for the C reader; empty
    where it names none (Bovada's cash games): found from the wagers."""
    if not header.small_bet:
        return b"", b""
    return str(header.small_bet).encode(), str(header.big_bet).encode()


def dollars(stack_signs: int) -> str | None:
    """The currency of a cash game whose header names none: "$" where its stacks are
    written with it (``HistoryTable.stack_signs``), else none."""
    return _DOLLARS if stack_signs else None


def bring_in_of(header: Header, places: int, ante: int, bring_in: int,
                small_bet: int) -> int | None:  # fmt: skip
    """The bring-in a hand the C reader prepared (its chip ``10**-places``, the ante
    its lines post, their bring-in and small bet) is played with, by what ``header``
    names; ``None`` where the C reader is not sure of it.

    An ante the header names (Full Tilt's "Ante $0.10") must be the one the lines
    post, in the chip the C reader found (the general reader takes the header's:
    where they differ, it reads the hand and says why). A bring-in it names is the
    hand's, as the general reader takes it, where it is whole chips of that chip.
    """
    unit = UNITS[places]
    if header.ante is not None and header.ante != ante * unit:
        return None
    if header.bring_in is not None:
        count = header.bring_in / unit
        if count != int(count) or -header.bring_in.as_tuple().exponent > places:  # type: ignore[operator]
            return None
        bring_in = min(int(count), small_bet)
    return bring_in


def finish(reader: _core.HistoryReader, header: Header, site: str, rules: HouseRules | None,
           rake_unwritten: bool, text: str, source: str | None,
           first_line: int) -> History | None:  # fmt: skip
    """The hand ``reader`` has read (a text room's lines or an XML room's element),
    prepared by the limits ``header`` names, replayed in C, each amount checked, as a
    :class:`History`; ``None`` where the C reader is not sure of it."""
    game = header.game
    if game is None or header.refused is not None:
        return None
    prepared = reader.prepare(*limits_of(header))
    # Every amount in the sign of the header's currency (a currency without one, or
    # none named: "$" or no sign); the general reader names any other.
    if prepared is None or prepared.signs & ~_core.HISTORY_SIGNS.get(
            SIGNS.get(header.currency or "", "$"), 0):  # fmt: skip
        return None
    currency = header.currency
    if currency is None and header.tournament is None:
        currency = dollars(prepared.stack_signs)
    bring_in = bring_in_of(header, prepared.places, prepared.ante, prepared.bring_in,
                           prepared.small_bet)  # fmt: skip
    if bring_in is None:
        return None
    try:
        stakes = stakes_of(prepared.ante, bring_in, prepared.small_bet, prepared.big_bet)
    except StudevalError:
        return None
    players = [Player(seat, name, stack) for seat, name, stack in prepared.players]
    stacks = [p.stack for p in players]
    played = _play(reader, rules, game, stakes, stacks, prepared.rake)
    if played is None:
        return None
    rake = reader.unwritten_rake(played[1]) if rake_unwritten else 0
    if rake and rake > most_unwritten_rake(_pot(played)):
        return None  # no rake: the general reader says why
    if rake:  # a rake the room does not write: the hand played again, taking it
        played = _play(reader, rules, game, stakes, stacks, rake)
        if played is None:
            return None
    hand, returned = played
    collected = reader.check_end(returned)
    if collected is None:
        return None
    played_at: datetime.datetime | None = header.played_at  # type: ignore[assignment]
    history = History(
        site=site, hand_id=header.hand_id, table=header.table,
        tournament=header.tournament, played_at=played_at,
        currency=currency, game=game, stakes=stakes,
        unit=UNITS[prepared.places], players=players,
        hero=prepared.hero, hand=hand,
        collected={p.name: chips for p, chips in zip(players, collected, strict=True)},
        rake=rake or prepared.rake, text=text, source=source, line=first_line,
    )  # fmt: skip
    hand.info = history.info  # one record a hand, the History's (not made again for it)
    return history


def _pot(played: tuple[StudHand, list[int] | None]) -> int:
    """What the pots of a hand played taking no rake paid out (a room's rake is
    taken of it)."""
    result = played[0].result
    assert result is not None
    return sum(result.payouts) - sum(result.returned)


def _play(reader: _core.HistoryReader, rules: HouseRules | None, game: str, stakes: Stakes,
          stacks: list[int], rake: int) -> tuple[StudHand, list[int] | None] | None:  # fmt: skip
    """The prepared hand played in C on a new table taking ``rake``, and its showdown
    settled: the hand and what each seat got back unmatched (``None`` when won by
    folds); ``None`` where the C reader is not sure of it."""
    try:
        hand = StudHand(game, stakes, stacks, rules=rules, rake=rake)
    except StudevalError:
        return None
    status = reader.play(hand._core)
    if status == _core.HISTORY_SETTLE:  # to the showdown: settled in C, as settle() does
        # (a StudHand's result, the Settlement with its pots, is made when first asked for)
        returned = hand._core.settle(get_game(game).core_id, 1, settle_flags(hand.rules))
        return None if returned is None else (hand, returned)
    return (hand, None) if status == _core.HISTORY_OVER else None
