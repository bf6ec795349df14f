"""A batch of hands' rows written to the database in one transaction: the hands
already stored (by room and hand id) left out, the rest numbered after the last
hand, and the batch's refusals kept. The statistics' facts of the hands stored
(``seat_stats``) are computed in SQL after, many batches at once: the hands past
the last one with facts, which an import killed before then leaves too."""

from __future__ import annotations

import contextlib
import datetime
import os
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NoReturn

from studeval.db._copies_sql import CONFLICTS, COPY_ROUNDS, MERGED_CARDS, MOST_COPIES, ROUND_KEYS
from studeval.db._schema import action_text, card_text
from studeval.db._statistics import facts_sql

if TYPE_CHECKING:
    import duckdb
    import pandas
    import pyarrow

__all__ = [
    "Conflict",
    "is_interrupt",
    "missing_facts",
    "quoted",
    "refresh_facts",
    "roll_back",
    "run",
    "store",
    "writing",
]

#: One lock a database file: two connections of a process to one file (DuckDB lets
#: them) would otherwise number hands alike and both store a hand, each
#: transaction blind to the other's. Other processes cannot open the file to write.
_LOCKS: dict[str, threading.Lock] = {}
_LOCKS_LOCK = threading.Lock()


def writing(path: str) -> threading.Lock:
    """The lock that every write to the database in ``path`` holds.

    >>> writing("/tmp/a.duckdb") is writing("/tmp/a.duckdb")
    True
    """
    key = path if path == ":memory:" else os.path.realpath(path)
    with _LOCKS_LOCK:
        return _LOCKS.setdefault(key, threading.Lock())


def quoted(text: str) -> str:
    """``text`` inside an SQL string literal's quotes.

    >>> quoted("O'Hara's.parquet")
    "O''Hara''s.parquet"
    """
    return text.replace("'", "''")


def roll_back(con: duckdb.DuckDBPyConnection, error: BaseException) -> NoReturn:
    """Rolls back the transaction ``error`` stopped and raises it again, or a
    KeyboardInterrupt where DuckDB ended the statement Ctrl-C stopped with its own
    error. (DuckDB may have ended the transaction itself: a rollback that finds none
    is no second error hiding the first.)

    >>> import duckdb
    >>> try:
    ...     roll_back(duckdb.connect(), RuntimeError("Query interrupted"))
    ... except KeyboardInterrupt:  # (a doctest cannot show one: it stops the run)
    ...     print("Ctrl-C")
    Ctrl-C
    """
    import duckdb

    with contextlib.suppress(duckdb.Error):  # (no transaction left to roll back)
        run(con, "ROLLBACK")
    if is_interrupt(error):
        raise KeyboardInterrupt from None
    raise error


def is_interrupt(error: BaseException) -> bool:
    """Whether ``error`` is DuckDB's end of a statement that Ctrl-C stopped (its
    ``InterruptException``, or the error a statement ended by it raises on its
    connection), which the commands report as Ctrl-C: exit status 130.

    >>> is_interrupt(RuntimeError("Query interrupted")), is_interrupt(RuntimeError("disk full"))
    (True, False)
    """
    return type(error).__name__ == "InterruptException" or (
        isinstance(error, RuntimeError) and str(error).strip().lower() == "query interrupted"
    )


def run(con: duckdb.DuckDBPyConnection, sql: str, params: list[object] | None = None) -> list[Any]:
    """A statement's rows, all fetched (DuckDB runs nothing else on a connection
    while a result is unread).

    >>> import duckdb
    >>> run(duckdb.connect(), "SELECT 1 + ?", [1])
    [(2,)]
    """
    return con.execute(sql, params or []).fetchall()


# Each table's rows from a batch's frames (``b``), inserted by name, with this
# database's key of each hand (``{key}``): the new keys' through ``{join}``, or, for
# a batch all new, the batch's number (``b.hand_key`` or ``b.hand``) plus an offset
# (``{join}`` empty).
_INSERTS = {
    "hands": "SELECT {key} AS hand_key, b.* EXCLUDE (hand_key, unit), "
             "b.unit::DECIMAL(38, 18) AS unit FROM batch_hands b {join}",
    "seats": "SELECT {key} AS hand_key, b.* EXCLUDE (hand_key) FROM batch_seats b {join}",
    # The net in money is exact (chips times the unit, a decimal); the expected net
    # is chips over chips a unit, rounded once where the unit is a power of ten.
    "results": """SELECT {key} AS hand_key, b.* EXCLUDE (hand_key),
        b.net_chips * u.unit AS net,
        CASE WHEN b.expected_net_chips = b.net_chips THEN net::DOUBLE
             ELSE b.expected_net_chips / (1 / u.unit)::DOUBLE END AS expected_net,
        net::DOUBLE - expected_net AS luck
        FROM batch_results b {join}
        JOIN (SELECT hand_key, unit::DECIMAL(38, 18) AS unit FROM batch_hands) u
            ON u.hand_key = b.hand_key""",
    "actions": f"""SELECT {{key}} AS hand_key, b.seq, b.street, b.seat,
        {action_text("b.kind")} AS action, b.chips,
        CASE WHEN b."to" >= 0 THEN b."to" END AS to_chips, b.facing, b.callers, b.live
        FROM batch_actions b {{join}}""",
    "cards": f"""SELECT {{key}} AS hand_key, CASE WHEN b.seat >= 0 THEN b.seat END AS seat,
        b.position, CASE WHEN b.position < 3 THEN 3 ELSE b.position + 1 END AS street,
        {card_text("b.card")} AS card, b.up::BOOLEAN AS up
        FROM batch_cards b {{join}}""",
}  # fmt: skip

# Whether a batch is all new (no hand stored before, none twice in it) and numbered
# without gaps, and its first number: then a hand's key is its number plus a
# constant, and no table needs a join to the new keys.
_ALL_NEW = """SELECT count(*) = count(DISTINCT (site, hand_id))
        AND count(DISTINCT hand_key) = count(*) AND max(hand_key) - min(hand_key) + 1 = count(*)
        AND NOT EXISTS (SELECT 1 FROM hands h JOIN batch_hands b ON h.hand_id = b.hand_id
                        AND h.site IS NOT DISTINCT FROM b.site),
    min(hand_key)
    FROM batch_hands"""


#: A batch's hand that differs from the hand kept under its room and hand id: (room,
#: hand id, source, line, where the hand kept was read: source, line, and how the
#: copy differs: "dealt to other players", "in other money", "in another game", "with
#: other results", "with other stacks", "with other cards").
Conflict = tuple[str | None, str, str | None, int | None, str | None, int | None, str]


def store(con: duckdb.DuckDBPyConnection, frames: dict[str, pyarrow.Table | str],
          refused: pandas.DataFrame, forget_sources: list[str],
          refusals: Callable[[list[Conflict]], pandas.DataFrame] | None = None,
          imported_at: datetime.datetime | None = None,
          ) -> tuple[int, int, dict[str | None, int], list[Conflict]]:  # fmt: skip
    """Writes a batch (``frames`` from :class:`~studeval.db._rows.HandBatch`, or the
    Parquet files a worker wrote them to; ``hand_key`` the batch's own numbers) and
    its ``refused`` rows in one transaction, after removing the refusals kept for
    ``forget_sources`` (files read again) by imports other than the one that began
    at ``imported_at`` (whose refusals of those files, stored with earlier
    batches, stay). A copy of a hand (stored before, or
    first in the batch) that differs from it (``CONFLICTS``) is a conflict, refused with the
    rows ``refusals`` makes of them.
    Returns the hands stored, the hands left out as already stored, the hands
    stored by room, and the conflicts."""
    hands = frames["hands"]
    if not isinstance(hands, str) and not len(hands):
        # No hand (a folder of a README alone): only the refusals. The empty frames'
        # columns have no type, and SQL comparing them with the stored hands' ids
        # had read those as numbers and stopped the import.
        frames = {}
    run(con, "BEGIN TRANSACTION")
    try:
        for name, frame in frames.items():
            if isinstance(frame, str):
                run(con, f"CREATE OR REPLACE TEMP VIEW batch_{name} AS "
                         f"SELECT * FROM read_parquet('{quoted(frame)}')")  # fmt: skip
            else:
                con.register(f"batch_{name}", frame)
        rounds, split = 1, bool(frames) and run(con, MOST_COPIES)[0][0] > 1
        if split:
            # A hand's copies that know other cards, each in a round of its own, after
            # the round that stored the hand (or refused a copy): a copy is compared
            # with the hand kept and the cards the copies before it gave it, as in a
            # later batch or import (all at once, a third copy had been compared with
            # the first alone, and another hand's cards kept or refused by the batch's
            # size). Copies that know the same cards share a round: a file of a
            # thousand copies of a hand is one round, not a thousand.
            rounds = _by_rounds(con, frames)
        stored = again = 0
        rooms: dict[str | None, int] = {}
        found: list[tuple[Any, ...]] = []
        for number in range(1, rounds + 1):
            if split:
                run(con, f"CREATE OR REPLACE TEMP TABLE round_keys AS {ROUND_KEYS}", [number])
            done = _store_round(con, bool(frames), refusals is not None)
            stored, again = stored + done[0], again + done[1]
            for site, count in done[2].items():
                rooms[site] = rooms.get(site, 0) + count
            found += done[3]
        # In the batch's order, whatever the round (the first is raised, where raised).
        conflicts: list[Conflict] = [row[:7] for row in sorted(found, key=lambda r: r[7])]
        if conflicts:
            import pandas

            assert refusals is not None
            more = refusals(conflicts)
            refused = pandas.concat([refused, more], ignore_index=True) if len(refused) else more
        for source in forget_sources:
            run(
                con,
                "DELETE FROM refused WHERE source = ? AND imported_at IS DISTINCT FROM ?",
                [source, imported_at],
            )
        if len(refused):
            con.register("batch_refused", refused)
            run(con, "INSERT INTO refused BY NAME SELECT * FROM batch_refused")
            con.unregister("batch_refused")
        for name, frame in frames.items():
            prefix = "whole" if split else "batch"
            if split:
                run(con, f"DROP VIEW batch_{name}")
            if isinstance(frame, str):
                run(con, f"DROP VIEW {prefix}_{name}")
            else:
                con.unregister(f"{prefix}_{name}")
        run(con, "COMMIT")
    except BaseException as error:
        roll_back(con, error)
    return stored, again, rooms, conflicts


def _by_rounds(con: duckdb.DuckDBPyConnection, frames: dict[str, pyarrow.Table | str]) -> int:
    """The batch's frames as ``whole_<table>``, ``batch_<table>`` their rows of the
    hands in ``round_keys``, and ``copy_rounds``; the number of rounds."""
    run(con, "CREATE OR REPLACE TEMP TABLE round_keys (hand_key BIGINT)")
    for name, frame in frames.items():
        if isinstance(frame, str):
            run(con, f"ALTER VIEW batch_{name} RENAME TO whole_{name}")
        else:
            con.unregister(f"batch_{name}")
            con.register(f"whole_{name}", frame)
        key = "hand" if name in ("actions", "cards") else "hand_key"
        run(con, f"CREATE OR REPLACE TEMP VIEW batch_{name} AS SELECT * FROM whole_{name} "
                 f"WHERE {key} IN (SELECT hand_key FROM round_keys)")  # fmt: skip
    run(con, COPY_ROUNDS)
    rounds: int = run(con, "SELECT coalesce(max(round), 1) FROM copy_rounds")[0][0]
    return rounds


def _store_round(con: duckdb.DuckDBPyConnection, any_hands: bool, compare: bool,
                 ) -> tuple[int, int, dict[str | None, int], list[tuple[Any, ...]]]:  # fmt: skip
    """:func:`store`'s hands of ``batch_<table>`` (``any_hands``: the batch has
    some), each numbered after the last stored, compared with the hand kept under
    its number where ``compare``: the hands stored, the hands left out as already
    stored, the hands stored by room, and the conflicts, each a Conflict and the
    copy's batch key."""
    base = run(con, "SELECT coalesce(max(hand_key), 0) FROM hands")[0][0]
    all_new, first = run(con, _ALL_NEW)[0] if any_hands else (False, None)
    rooms: dict[str | None, int] = {}
    found: list[tuple[Any, ...]] = []
    offset: int | None = None
    stored = total = 0
    if all_new:
        rooms = dict(run(con, "SELECT site, count(*) FROM batch_hands GROUP BY ALL"))
        stored = total = sum(rooms.values())
        offset = base + 1 - first
    elif any_hands:
        stored, total, rooms, found = _new_keys(con, base, compare)
    if stored:
        for table, rows in _INSERTS.items():
            number = "b.hand" if table in ("actions", "cards") else "b.hand_key"
            key, join = (("k.hand_key", f"JOIN new_keys k ON {number} = k.batch_key")
                         if offset is None else (f"{number} + {offset}", ""))  # fmt: skip
            run(con, f"INSERT INTO {table} BY NAME {rows.format(key=key, join=join)}")
    if any_hands and not all_new and compare:  # copies, each compared
        run(con, MERGED_CARDS, [[row[7] for row in found]])
    return stored, total - stored - len(found), rooms, found


def _new_keys(con: duckdb.DuckDBPyConnection, base: int, conflicts: bool,
              ) -> tuple[int, int, dict[str | None, int], list[tuple[Any, ...]]]:  # fmt: skip
    """Numbers the batch's new hands after ``base`` (``new_keys``: a hand already
    stored, or twice in the batch, is stored once, its first copy), and gives the
    hands to store, the batch's hands, the hands to store by room, and (where
    ``conflicts``) the conflicts, each a Conflict and the copy's batch key."""
    run(con, f"""CREATE OR REPLACE TEMP TABLE new_keys AS
        SELECT hand_key AS batch_key, {base} + row_number() OVER (ORDER BY hand_key)
            AS hand_key
        FROM (SELECT * FROM batch_hands
              QUALIFY row_number() OVER (PARTITION BY site, hand_id ORDER BY hand_key) = 1) b
        WHERE NOT EXISTS (SELECT 1 FROM hands h WHERE h.hand_id = b.hand_id
                          AND h.site IS NOT DISTINCT FROM b.site)""")  # fmt: skip
    rooms: dict[str | None, int] = dict(run(con,
        "SELECT b.site, count(*) FROM new_keys k JOIN batch_hands b "
        "ON b.hand_key = k.batch_key GROUP BY ALL"))  # fmt: skip
    total = run(con, "SELECT count(*) FROM batch_hands")[0][0]
    found: list[tuple[Any, ...]] = run(con, CONFLICTS) if conflicts else []
    return sum(rooms.values()), total, rooms, found


def missing_facts(con: duckdb.DuckDBPyConnection) -> str | None:
    """The SQL condition on ``hand_key`` of the hands stored without their facts
    (``None``: there are none)."""
    done, last = run(con, "SELECT (SELECT coalesce(max(hand_key), 0) FROM seat_stats), "
                          "(SELECT coalesce(max(hand_key), 0) FROM hands)")[0]  # fmt: skip
    return f"hand_key > {done}" if last > done else None


def refresh_facts(con: duckdb.DuckDBPyConnection) -> None:
    """Computes the facts of the hands stored without them, in one transaction (the
    caller holds :func:`writing`)."""
    run(con, "BEGIN TRANSACTION")
    try:
        where = missing_facts(con)
        if where is not None:
            run(con, f"INSERT INTO seat_stats BY NAME {facts_sql(where)}")
        run(con, "COMMIT")
    except BaseException as error:
        roll_back(con, error)
