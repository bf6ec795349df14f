"""Hands as the database's rows, a batch at a time: the compiled layer copies each
hand's log (``_core.HandRows``), this module adds what the room's record says and
what the analysis finds, and gives each table's rows as a pandas frame."""

from __future__ import annotations

import functools
import hashlib
from decimal import Decimal
from typing import TYPE_CHECKING, Any

import numpy as np

from studeval import _core
from studeval.analysis import analyzed_seats
from studeval.db._schema import stored_time
from studeval.engine import StudHand
from studeval.games import get_game
from studeval.handinfo import HandInfo
from studeval.tracker import money_of

if TYPE_CHECKING:
    import pandas

    from studeval.histories import History

__all__ = ["HandBatch", "hand_key_of", "unstorable"]

# The hands table's columns that come from the record, in the table's order.
_HAND_FIELDS = (
    "hand_key", "site", "hand_id", "game", "table_name", "tournament", "cash", "currency",
    "money", "unit", "ante", "bring_in", "small_bet", "big_bet", "stakes", "players",
    "played_at", "played_at_utc", "rake", "all_in_street", "exact", "cap_lifted", "hero",
    "source", "line",
)  # fmt: skip

#: A seat's expected net where no all-in made it differ from the net.
_NO_ALL_IN = float("nan")


def hand_key_of(found: History | StudHand) -> tuple[str | None, str]:
    """The room and hand id a hand is stored under. A hand no room numbered (one
    played here, or a PHH record without ``venue`` and ``hand``) is named by a
    digest of its players, stakes and log, so that importing it again finds it.

    >>> from studeval.play import random_hand
    >>> hand_key_of(random_hand("stud", 2, seed=1)) == hand_key_of(random_hand("stud", 2, seed=1))
    True
    """
    if isinstance(found, StudHand):
        info = HandInfo.of(found)
        if info.venue is not None and info.hand_id is not None:
            return info.venue, info.hand_id
        log = repr((found.game, found.stakes, found.starting_stacks, info.players,
                    [(e.kind, e.seat, e.amount, e.cards) for e in found.events]))  # fmt: skip
        return info.venue, "sha1:" + hashlib.sha1(log.encode()).hexdigest()
    return found.site, found.hand_id


class HandBatch:
    """The rows of the hands added since the last :meth:`frames`."""

    def __init__(self) -> None:
        self._rows = _core.HandRows()
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
        hand = found if isinstance(found, StudHand) else found.hand
        info = HandInfo.of(found)
        core = hand._core
        whole_stack = self._rows.add(core, key, get_game(hand.game).split)
        seats = hand.seats
        names = list(info.players) if len(info.players) == seats else [
            f"Seat {s}" for s in range(seats)]  # fmt: skip
        room_seats: list[int | None] = (list(info.seats) if len(info.seats) == seats
                                        else [None] * seats)  # fmt: skip
        table, tournament, currency = info.table, info.tournament, info.currency
        unit, played_at, hero = info.unit, info.played_at, info.hero
        stakes = hand.stakes
        expected: list[float] = [_NO_ALL_IN] * seats
        all_in, exact = None, True
        if whole_stack:
            _, _, found_out = analyzed_seats(found)
            if found_out.all_in is not None:
                all_in, exact = found_out.all_in, found_out.exact
                expected = list(found_out.expected_net)
        utc = played_at is not None and played_at.tzinfo is not None
        played_at = stored_time(played_at)  # type: ignore[assignment]
        row = self._hands
        for name, value in (
            ("hand_key", key), ("site", site), ("hand_id", hand_id), ("game", hand.game),
            ("table_name", table), ("tournament", tournament), ("cash", tournament is None),
            ("currency", currency),
            ("money", money_of({"currency": currency, "tournament": tournament})),
            ("unit", str(unit)), ("ante", stakes.ante), ("bring_in", stakes.bring_in),
            ("small_bet", stakes.small_bet), ("big_bet", stakes.big_bet),
            ("stakes", _stakes_text(stakes.small_bet, stakes.big_bet, unit)),
            ("players", seats), ("played_at", played_at),
            ("played_at_utc", utc if played_at is not None else None),
            ("rake", core.rake_taken), ("all_in_street", all_in),
            ("exact", exact), ("cap_lifted", hand.rules.heads_up_cap == "lifted"),
            ("hero", hero), ("source", source), ("line", line),
        ):  # fmt: skip
            row[name].append(value)
        self._players += names
        self._room_seats += room_seats
        self._expected += expected

    def frames(self) -> dict[str, pandas.DataFrame]:
        """Each table's rows (``hands``, ``seats``, ``results``, ``actions``,
        ``cards``: the core's codes, which the import's SQL names), and starts a
        new batch."""
        import pandas

        taken = self._rows.take()
        columns: dict[str, dict[str, np.ndarray]] = {}
        for table, name, dtype in _core.HAND_ROWS_COLUMNS:
            columns.setdefault(table, {})[name] = np.frombuffer(taken[table, name], dtype)
        seats = columns.pop("seats")
        net = seats["payout"] - seats["paid"]
        expected = np.array(self._expected, dtype=float)
        expected = np.where(np.isnan(expected), net, expected)
        showdown = seats["showdown"].astype(bool)
        # A hand went to a showdown when one of its seats reached it.
        hands = pandas.DataFrame(self._hands)
        starts = np.cumsum(self._hands["players"], dtype=np.int64) - self._hands["players"]
        hands["showdown"] = np.logical_or.reduceat(showdown, starts) if len(hands) else False
        scooped = seats["scooped"]
        frames = {
            "hands": hands,
            "seats": pandas.DataFrame({
                "hand_key": seats["hand"], "seat": seats["seat"], "player": self._players,
                "room_seat": pandas.array(self._room_seats, dtype="Int8"),
                "stack": seats["stack"]}),
            "results": pandas.DataFrame({
                "hand_key": seats["hand"], "seat": seats["seat"], "paid": seats["paid"],
                "payout": seats["payout"], "returned": seats["returned"], "net_chips": net,
                "expected_net_chips": expected, "folded": seats["folded"].astype(bool),
                "showdown": showdown, "showdown_won": seats["showdown_won"],
                "scooped": pandas.arrays.BooleanArray(scooped == 1, scooped < 0)}),
            "actions": pandas.DataFrame(columns["actions"]),
            "cards": pandas.DataFrame(columns["cards"]),
        }  # fmt: skip
        self.__init__()  # type: ignore[misc]
        return frames


@functools.lru_cache(maxsize=1024)
def _stakes_text(small_bet: int, big_bet: int, unit: Decimal) -> str:
    """The small and big bet as money with the chip's places, as rooms write stakes
    ("0.05/0.10", "2/4").

    >>> _stakes_text(5, 10, Decimal("0.01")), _stakes_text(2, 4, Decimal(1))
    ('0.05/0.10', '2/4')
    """
    places = max(0, -int(unit.as_tuple().exponent))
    return f"{small_bet * unit:.{places}f}/{big_bet * unit:.{places}f}"


def unstorable(unit: Decimal) -> str | None:
    """Why money in chips of ``unit`` cannot be kept exactly (DECIMAL(38, 18), up to
    10**15 of money), or ``None``.

    >>> unstorable(Decimal("0.01")), unstorable(Decimal("1e-19"))
    (None, 'its chip (1E-19) has more than 18 decimal places')
    """
    if -int(unit.as_tuple().exponent) > 18:
        return f"its chip ({unit}) has more than 18 decimal places"
    if unit > 10**6:
        return f"its chip ({unit}) is worth more than 1,000,000"
    return None
