"""Hands as the database's rows, a batch at a time: the compiled layer copies each
hand's log (``_core.HandRows``), this module adds what the room's record says and
what the analysis finds, and gives each table's rows as an Arrow table."""

from __future__ import annotations

import functools
from decimal import Decimal, localcontext
from typing import TYPE_CHECKING, Any

import numpy as np

from studeval import _core
from studeval.analysis import analyzed_seats
from studeval.db._schema import stored_moment, stored_moments
from studeval.engine import StudHand
from studeval.games import get_game
from studeval.handinfo import HandInfo
from studeval.histories._bulk import UNIT_TEXTS
from studeval.histories._fast import UNITS
from studeval.histories._text import named_currency
from studeval.tracker import money_of

if TYPE_CHECKING:
    import pyarrow

    from studeval.histories import History
    from studeval.histories._bulk import BulkRead, CompactHands

__all__ = ["HandBatch", "unstorable"]

# The hands table's columns that come from the record, in the table's order.
_HAND_FIELDS = (
    "hand_key", "site", "hand_id", "game", "table_name", "tournament", "cash", "currency",
    "money", "unit", "ante", "bring_in", "small_bet", "big_bet", "stakes", "players",
    "played_at", "played_at_utc", "rake", "all_in_street", "exact", "cap_lifted", "hero",
    "source", "line",
)  # fmt: skip


@functools.cache
def _hand_types() -> dict[str, Any]:
    """Each hands column's Arrow type: a column of a batch all None (no hero, no
    tournament) keeps its type, and a time its microseconds."""
    import pyarrow

    text, whole, flag = pyarrow.string(), pyarrow.int64(), pyarrow.bool_()
    kinds = {"cash": flag, "played_at_utc": flag, "exact": flag, "cap_lifted": flag,
             "players": pyarrow.int8(), "all_in_street": pyarrow.int8(),
             "line": pyarrow.int32(), "played_at": pyarrow.timestamp("us")}  # fmt: skip
    for name in ("hand_key", "ante", "bring_in", "small_bet", "big_bet", "rake"):
        kinds[name] = whole
    return {name: kinds.get(name, text) for name in _HAND_FIELDS}


#: Money the DECIMAL(38, 18) columns hold: less than this.
MOST_MONEY = 10**20

#: A seat's expected net where no all-in made it differ from the net.
_NO_ALL_IN = float("nan")


class HandBatch:
    """The rows of the hands added since the last :meth:`frames`."""

    def __init__(self) -> None:
        self._rows = _core.HandRows()
        # The rows of the hands of bulk reads so far, a chunk a read (the hands' places
        # in it and their keys here: their rows are taken from the read's all at once,
        # in frames()); the hands added one at a time are HandRows' until then, and
        # frames() puts every table's rows in the order of their keys.
        self._chunks: list[dict[str, dict[str, np.ndarray]] | tuple[BulkRead, list[np.ndarray],
                                                                     list[int]]] = []  # fmt: skip
        self._hands: dict[str, list[Any]] = {name: [] for name in _HAND_FIELDS}
        self._players: list[str] = []
        self._room_seats: list[int | None] = []
        # Per seat of the batch, in order: expected net chips where an all-in made it
        # differ from the net (else NaN).
        self._expected: list[float] = []

    def __len__(self) -> int:
        return len(self._hands["hand_key"])

    def add(self, found: History | StudHand, key: int, site: str | None, hand_id: str,
            source: str, line: int | None) -> None:  # fmt: skip
        """Adds a finished hand (a room's :class:`History` or a StudHand) as
        ``key``."""
        state = self._state()
        try:
            self._add(found, key, site, hand_id, source, line)
        except BaseException:  # (an error, or Ctrl-C, part way): the batch as it was
            self._restore(state)
            raise

    def _add(self, found: History | StudHand, key: int, site: str | None, hand_id: str,
             source: str, line: int | None) -> None:  # fmt: skip
        hand = found if isinstance(found, StudHand) else found.hand
        info = HandInfo.of(found)
        core = hand._core
        whole_stack = self._rows.add(core, key, get_game(hand.game).split)
        seats = hand.seats
        names = info.seat_names(seats)
        room_seats: list[int | None] = (list(info.seats) if len(info.seats) == seats
                                        else [None] * seats)  # fmt: skip
        table, tournament = info.table, info.tournament
        # A PHH record's currency as written ("usd", "$"): the code, as the rooms' are.
        currency = named_currency(info.currency) if info.currency else None
        unit, played_at, hero = info.unit, info.played_at, info.hero
        stakes = hand.stakes
        expected: list[float] = [_NO_ALL_IN] * seats
        all_in, exact = None, True
        if whole_stack:
            _, _, found_out = analyzed_seats(found)
            if found_out.all_in is not None:
                all_in, exact = found_out.all_in, found_out.exact
                expected = list(found_out.expected_net)
        played_at, utc = stored_moment(played_at)  # type: ignore[assignment]
        row = self._hands
        for name, value in (
            ("hand_key", key), ("site", site), ("hand_id", hand_id), ("game", hand.game),
            ("table_name", table), ("tournament", tournament), ("cash", tournament is None),
            ("currency", currency),
            ("money", money_of({"currency": currency, "tournament": tournament, "site": site})),
            ("unit", str(unit)), ("ante", stakes.ante), ("bring_in", stakes.bring_in),
            ("small_bet", stakes.small_bet), ("big_bet", stakes.big_bet),
            ("stakes", _stakes_text(stakes.small_bet, stakes.big_bet, unit)),
            ("players", seats), ("played_at", played_at),
            ("played_at_utc", utc),
            ("rake", core.rake_taken), ("all_in_street", all_in),
            ("exact", exact), ("cap_lifted", hand.rules.heads_up_cap == "lifted"),
            ("hero", hero), ("source", source), ("line", line),
        ):  # fmt: skip
            row[name].append(value)
        self._players += names
        self._room_seats += room_seats
        self._expected += expected

    def add_compact(self, batch: CompactHands, source: str) -> None:
        """Adds a batch of hands read in bulk with their rows (no betting ended all in:
        each seat's expected net is its net), numbered after the hands held."""
        state = self._state()
        try:
            self._add_compact(batch, source)
        except BaseException:  # (an error, or Ctrl-C, part way): the batch as it was
            self._restore(state)
            raise

    def _add_compact(self, batch: CompactHands, source: str) -> None:
        read = batch.read
        assert read.rows is not None  # read with the database's rows
        first = len(self)
        keys = range(first, first + len(batch))
        # A read's hands in one chunk, whatever hands were added between its batches
        # (the all-in hands, added one at a time): a chunk a batch of a read had cost a
        # row search each, three hundred of them a transaction.
        chunk = next((c for c in self._chunks if isinstance(c, tuple) and c[0] is read), None)
        if chunk is None:
            self._chunks.append((read, [batch.hands], [first]))
        else:
            chunk[1].append(batch.hands)
            chunk[2].append(first)
        arrays = batch.arrays
        seats = arrays["seats"][batch.hands].tolist()
        rows = batch.seat_rows()
        self._players += batch.seat_names
        self._room_seats += arrays["seat_number"][rows].tolist()
        hands = batch.hands.tolist()
        # The hands whose betting ended all in: their street, exactness and expected
        # nets (the rest: no all-in, each seat's expected net its net).
        all_in: list[int | None] = [None] * len(hands)
        exact = [True] * len(hands)
        if read.equities:
            expected: list[float] = []
            for place, (hand, count) in enumerate(zip(hands, seats, strict=True)):
                equity = read.equities.get(hand)
                if equity is None or equity[0] is None:
                    expected += [_NO_ALL_IN] * count
                    continue
                all_in[place], exact[place] = equity[0], equity[1]
                expected += equity[2]
            self._expected += expected
        else:
            self._expected += [_NO_ALL_IN] * len(rows)
        headers = [read.headers[h] for h in hands]
        stakes = [read.stakes[h] for h in hands]
        # Every hand of a batch was read: its header and its limits are known.
        # (by identity: ``in`` compares each Header with None by its __eq__)
        assert all(h is not None for h in headers) and all(x is not None for x in stakes)
        places = arrays["places"][batch.hands].tolist()
        currencies = batch.currencies()
        moments = stored_moments([h.played_at for h in headers])
        tournaments = [h.tournament for h in headers]
        count = len(hands)
        # Few distinct units of money and stakes a file: each worked out once.
        moneys: dict[tuple[str | None, str | None], str] = {}
        texts: dict[tuple[int, int, int], str] = {}
        money, stakes_texts = [], []
        for currency, tournament, limits, place in zip(currencies, tournaments, stakes, places,
                                                      strict=True):  # fmt: skip
            found = moneys.get((currency, tournament))
            if found is None:
                row = {"currency": currency, "tournament": tournament, "site": read.site}
                found = moneys[currency, tournament] = money_of(row)
            money.append(found)
            key = (limits.small_bet, limits.big_bet, place)
            text = texts.get(key)
            if text is None:
                text = texts[key] = _stakes_text(limits.small_bet, limits.big_bet, UNITS[place])
            stakes_texts.append(text)
        for name, values in (
            ("hand_key", list(keys)), ("site", [read.site] * count),
            ("hand_id", [h.hand_id for h in headers]),
            ("game", [h.game for h in headers]),
            ("table_name", [h.table for h in headers]),
            ("tournament", tournaments), ("cash", [t is None for t in tournaments]),
            ("currency", currencies), ("money", money),
            ("unit", [UNIT_TEXTS[p] for p in places]),
            ("ante", [x.ante for x in stakes]),
            ("bring_in", [x.bring_in for x in stakes]),
            ("small_bet", [x.small_bet for x in stakes]),
            ("big_bet", [x.big_bet for x in stakes]),
            ("stakes", stakes_texts),
            ("players", seats), ("played_at", [m[0] for m in moments]),
            ("played_at_utc", [m[1] for m in moments]),
            ("rake", arrays["rake"][batch.hands].tolist()), ("all_in_street", all_in),
            ("exact", exact),
            ("cap_lifted", [read.rules.heads_up_cap == "lifted"] * count),
            ("hero", batch.heroes()), ("source", [source] * count),
            ("line", [read.lines[h] for h in hands]),
        ):  # fmt: skip
            self._hands[name] += values

    def _state(self) -> tuple[Any, ...]:
        """What :meth:`_restore` needs to undo an add stopped part way: every list's
        length, each bulk chunk's, and the core's rows held."""
        parts = [(len(c[1]), len(c[2])) if isinstance(c, tuple) else None for c in self._chunks]
        return ({name: len(values) for name, values in self._hands.items()},
                len(self._players), len(self._room_seats), len(self._expected),
                len(self._chunks), parts, self._rows.counts)  # fmt: skip

    def _restore(self, state: tuple[Any, ...]) -> None:
        """The batch as it was at ``state``: no hand's rows in part (their rows of
        seats, actions and cards would be stored under the key of the next hand)."""
        lengths, players, room_seats, expected, chunks, parts, counts = state
        for name, values in self._hands.items():
            del values[lengths[name] :]
        del self._players[players:], self._room_seats[room_seats:], self._expected[expected:]
        del self._chunks[chunks:]
        for chunk, lengths in zip(self._chunks, parts, strict=True):
            if isinstance(chunk, tuple):
                del chunk[1][lengths[0] :], chunk[2][lengths[1] :]
        self._rows.drop_to(*counts)

    def _take(self) -> None:
        """Moves the rows HandRows holds (the hands added one at a time) to a chunk."""
        if not any(self._rows.counts):
            return
        taken = self._rows.take()
        self._chunks.append({table: {
            name: np.frombuffer(taken[t, name], dtype)
            for t, name, dtype in _core.HAND_ROWS_COLUMNS if t == table}
            for table in ("actions", "cards", "seats")})  # fmt: skip

    def _columns(self) -> dict[str, dict[str, np.ndarray]]:
        """Each table's columns of the rows held, in order."""
        self._take()
        parts: dict[str, list[dict[str, np.ndarray]]] = {"actions": [], "cards": [], "seats": []}
        for chunk in self._chunks:
            if isinstance(chunk, dict):
                for table, columns in chunk.items():
                    parts[table].append(columns)
                continue
            read, places, firsts = chunk
            assert read.rows is not None  # read with the database's rows
            hands = np.concatenate(places)
            # Each hand's key here: the first of its batch's, counted on.
            keys = np.concatenate([first + np.arange(len(h)) for first, h in
                                   zip(firsts, places, strict=True)])  # fmt: skip
            for table, columns in read.rows.items():
                at, counts = read.row_range(table, hands)
                taken = {name: values[at] for name, values in columns.items()}
                taken["hand"] = np.repeat(keys, counts)  # (each hand's rows follow one another)
                parts[table].append(taken)
        found = {table: {name: np.concatenate([p[name] for p in chunks]) if chunks
                         else np.zeros(0, dtype)
                         for t, name, dtype in _core.HAND_ROWS_COLUMNS if t == table}
                 for table, chunks in parts.items()}  # fmt: skip
        for table, columns in found.items():
            hands = columns["hand"]
            # Hand by hand, each hand's rows in their order: the chunks follow one
            # another but where hands were added one at a time between bulk ones.
            if len(parts[table]) > 1 and bool(np.any(hands[1:] < hands[:-1])):
                order = np.argsort(hands, kind="stable")
                found[table] = {name: values[order] for name, values in columns.items()}
        return found

    def frames(self) -> dict[str, pyarrow.Table]:
        """Each table's rows (``hands``, ``seats``, ``results``, ``actions``,
        ``cards``: the core's codes, which the import's SQL names) as Arrow tables,
        which DuckDB reads without a copy, and starts a new batch."""
        import pyarrow

        columns = self._columns()
        seats = columns.pop("seats")
        net = seats["payout"] - seats["paid"]
        expected = np.array(self._expected, dtype=float)
        expected = np.where(np.isnan(expected), net, expected)
        showdown = seats["showdown"].astype(bool)
        # A hand went to a showdown when one of its seats reached it.
        players = np.array(self._hands["players"], dtype=np.int64)
        starts = np.cumsum(players) - players
        types = _hand_types()
        hands = {name: pyarrow.array(self._hands[name], type=types[name])
                 for name in _HAND_FIELDS}  # fmt: skip
        hands["showdown"] = pyarrow.array(np.logical_or.reduceat(showdown, starts) if len(players)
                                          else np.zeros(0, dtype=bool))  # fmt: skip
        scooped = seats["scooped"]
        frames = {
            "hands": pyarrow.table(hands),
            "seats": pyarrow.table({
                "hand_key": seats["hand"], "seat": seats["seat"],
                "player": pyarrow.array(self._players, type=pyarrow.string()),
                "room_seat": pyarrow.array(self._room_seats, type=pyarrow.int32()),
                "stack": seats["stack"]}),
            "results": pyarrow.table({
                "hand_key": seats["hand"], "seat": seats["seat"], "paid": seats["paid"],
                "payout": seats["payout"], "returned": seats["returned"], "net_chips": net,
                "expected_net_chips": expected, "folded": seats["folded"].astype(bool),
                "showdown": showdown, "showdown_won": seats["showdown_won"],
                "scooped": pyarrow.array(scooped == 1, mask=scooped < 0)}),
            "actions": pyarrow.table(columns["actions"]),
            "cards": pyarrow.table(columns["cards"]),
        }  # fmt: skip
        self.__init__()  # type: ignore[misc]
        return frames


@functools.lru_cache(maxsize=1024)
def _stakes_text(small_bet: int, big_bet: int, unit: Decimal) -> str:
    """The small and big bet in money as rooms write stakes: a whole amount without
    places, any other with two (or as many as it needs), whatever the places of the
    hand's smallest amount (its ``unit``), so that a table's stakes read alike in
    every hand of it.

    >>> _stakes_text(5, 10, Decimal("0.01")), _stakes_text(2, 4, Decimal(1))
    ('0.05/0.10', '2/4')
    >>> _stakes_text(40000, 80000, Decimal("0.01")), _stakes_text(50, 100, Decimal("0.01"))
    ('400/800', '0.50/1')
    """
    # Exact whatever the unit's digits (decimal's default context keeps 28: a
    # stake of 2**59 chips of 18 places has 36).
    with localcontext() as context:
        context.prec = 60
        return f"{_money_text(small_bet * unit)}/{_money_text(big_bet * unit)}"


def _money_text(amount: Decimal) -> str:
    """``amount`` without places when it is whole, else with two at least
    (``schema.STAKES_TEXT`` says the same in SQL)."""
    if amount == amount.to_integral_value():
        return str(int(amount))
    text = format(amount.normalize(), "f")
    return text if len(text.partition(".")[2]) >= 2 else f"{amount:.2f}"


def unstorable(unit: Decimal, most_chips: int = 0) -> str | None:
    """Why money in chips of ``unit`` cannot be kept exactly, or ``None``: the money
    columns are DECIMAL(38, 18), which hold 18 places and less than 10**20, and a
    hand whose largest amount of chips (``most_chips``: all the stacks together, or
    a stake or the rake where larger) is worth that much is refused, not stored.

    >>> unstorable(Decimal("0.01")), unstorable(Decimal("1e-19"))
    (None, 'its chip (1E-19) has more than 18 decimal places')
    >>> unstorable(Decimal("1000000"), 10**14)
    'its money (100,000,000,000,000 chips of 1000000) passes 10**20, more than the tables hold'
    """
    if -int(unit.as_tuple().exponent) > 18:
        return f"its chip ({unit}) has more than 18 decimal places"
    if unit > 10**6:
        return f"its chip ({unit}) is worth more than 1,000,000"
    if most_chips * unit >= MOST_MONEY:
        return (
            f"its money ({most_chips:,} chips of {unit}) passes 10**20, more than the tables hold"
        )
    return None
