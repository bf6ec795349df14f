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


# The batch's copies of a hand (by room and hand id) that differ from the hand kept
# (the one stored before, else the batch's first copy) in what every copy of one hand
# shares: the players dealt in, each player's net, and each card that both copies
# know (up cards, and down cards both show; a copy from another player's seat knows
# other down cards, and is a copy). Other hands under the same numbers: refused.
# (Both keys are hand_key: a stored hand's is this database's, a batch's its own
# number; "stored" says which.)
_CONFLICTS = f"""
WITH batch AS (  -- (a batch of hands no room numbered has a site of no type: NULL)
    SELECT hand_key, site::VARCHAR AS site, hand_id, source, line,
        row_number() OVER (PARTITION BY site, hand_id ORDER BY hand_key) AS copy
    FROM batch_hands),
stored AS (
    SELECT h.hand_key, h.site, h.hand_id, h.source, h.line FROM hands h
    WHERE EXISTS (SELECT 1 FROM batch b WHERE b.hand_id = h.hand_id
                  AND b.site IS NOT DISTINCT FROM h.site)),
pairs AS (
    SELECT b.hand_key AS copy_key, s.hand_key AS first_key, TRUE AS first_stored, b.site,
        b.hand_id, b.source, b.line, s.source AS first_source, s.line AS first_line
    FROM batch b JOIN stored s ON s.hand_id = b.hand_id AND s.site IS NOT DISTINCT FROM b.site
    UNION ALL
    SELECT b.hand_key, f.hand_key, FALSE, b.site, b.hand_id, b.source, b.line, f.source,
        f.line
    FROM batch b JOIN batch f
        ON f.hand_id = b.hand_id AND f.site IS NOT DISTINCT FROM b.site AND f.copy = 1
    WHERE b.copy > 1 AND NOT EXISTS (SELECT 1 FROM stored s WHERE s.hand_id = b.hand_id
                                     AND s.site IS NOT DISTINCT FROM b.site)),
in_batch AS (SELECT copy_key AS hand_key FROM pairs
             UNION SELECT first_key FROM pairs WHERE NOT first_stored),
in_store AS (SELECT first_key AS hand_key FROM pairs WHERE first_stored),
players AS (
    SELECT s.hand_key, FALSE AS stored, list(s.player ORDER BY s.player) AS players,
        list((s.player, r.net_chips * h.unit::DECIMAL(38, 18)) ORDER BY s.player) AS nets,
        any_value(h.money) AS money, any_value(h.game) AS game,
        list((s.player, s.stack * h.unit::DECIMAL(38, 18)) ORDER BY s.player) AS stacks
    FROM batch_seats s JOIN batch_results r ON r.hand_key = s.hand_key AND r.seat = s.seat
        JOIN batch_hands h ON h.hand_key = s.hand_key
    WHERE s.hand_key IN (SELECT hand_key FROM in_batch)
    GROUP BY s.hand_key
    UNION ALL
    SELECT s.hand_key, TRUE, list(s.player ORDER BY s.player),
        list((s.player, r.net) ORDER BY s.player), any_value(h.money), any_value(h.game),
        list((s.player, s.stack * h.unit) ORDER BY s.player)
    FROM seats s JOIN results r ON r.hand_key = s.hand_key AND r.seat = s.seat
        JOIN hands h ON h.hand_key = s.hand_key
    WHERE s.hand_key IN (SELECT hand_key FROM in_store) GROUP BY s.hand_key),
known AS (  -- every card a copy knows, by player: up cards by place, down cards as a
            -- set (a text shows down cards in any order); the community card's player
            -- is NULL (it has no seat)
    SELECT c.hand AS hand_key, FALSE AS stored, s.player, c.up::BOOLEAN AS up,
        CASE WHEN c.up::BOOLEAN THEN c.position END AS position, {card_text("c.card")} AS card
    FROM batch_cards c LEFT JOIN batch_seats s ON s.hand_key = c.hand AND s.seat = c.seat
    WHERE c.card >= 0 AND c.hand IN (SELECT hand_key FROM in_batch)
    UNION ALL
    SELECT c.hand_key, TRUE, s.player, c.up, CASE WHEN c.up THEN c.position END, c.card
    FROM cards c LEFT JOIN seats s ON s.hand_key = c.hand_key AND s.seat = c.seat
    WHERE c.card IS NOT NULL AND c.hand_key IN (SELECT hand_key FROM in_store)),
-- The cards compared copy by copy: each side's keyed by its copy (cards joined by
-- player alone had paired every hand of a player with every other: the square of
-- the batch in time and memory).
copy_cards AS (
    SELECT p.copy_key, a.player, a.up, a.position, a.card FROM pairs p
        JOIN known a ON a.hand_key = p.copy_key AND NOT a.stored),
first_cards AS (
    SELECT p.copy_key, b.player, b.up, b.position, b.card FROM pairs p
        JOIN known b ON b.hand_key = p.first_key AND b.stored = p.first_stored),
copy_downs AS (
    SELECT copy_key, player, list(card) AS cards FROM copy_cards WHERE NOT up GROUP BY ALL),
first_downs AS (
    SELECT copy_key, player, list(card) AS cards FROM first_cards WHERE NOT up GROUP BY ALL),
other_cards AS (
    SELECT a.copy_key FROM copy_cards a JOIN first_cards b ON b.copy_key = a.copy_key
        AND a.player IS NOT DISTINCT FROM b.player AND a.position = b.position
    WHERE a.up AND b.up AND a.card <> b.card
    UNION  -- down cards: one copy's known set within the other's
    SELECT a.copy_key FROM copy_downs a JOIN first_downs b ON b.copy_key = a.copy_key
        AND a.player IS NOT DISTINCT FROM b.player
    WHERE NOT list_has_all(a.cards, b.cards) AND NOT list_has_all(b.cards, a.cards))
SELECT p.site, p.hand_id, p.source, p.line, p.first_source, p.first_line,
    CASE WHEN m.players <> f.players THEN 'dealt to other players'
         WHEN m.money <> f.money THEN 'in other money'
         WHEN m.game <> f.game THEN 'in another game'
         WHEN m.nets <> f.nets THEN 'with other results'
         WHEN m.stacks <> f.stacks THEN 'with other stacks' ELSE 'with other cards' END,
    p.copy_key
FROM pairs p JOIN players m ON m.hand_key = p.copy_key AND NOT m.stored
    JOIN players f ON f.hand_key = p.first_key AND f.stored = p.first_stored
WHERE m.players <> f.players OR m.money <> f.money OR m.game <> f.game
    OR m.stacks <> f.stacks OR m.nets <> f.nets
    OR p.copy_key IN (SELECT copy_key FROM other_cards)
ORDER BY p.copy_key"""

# The cards that a batch's copies of a hand kept (stored before, or stored now from
# the batch's first copy) know and the hand kept does not: each player's down cards
# from the copy that knows most of them, where it knows more (a player's own export
# shows its own down cards; a text shows them in any order, so a player's are taken
# whole from one copy), and an up card (or the community card) the hand kept lacks.
# A copy that differs (a conflict: its keys the parameter) gives none.
_MERGED_CARDS = f"""
UPDATE cards SET card = m.card FROM (
WITH copies AS (
    SELECT b.hand_key AS copy_key, h.hand_key AS kept_key
    FROM batch_hands b JOIN hands h ON h.hand_id = b.hand_id AND h.site IS NOT DISTINCT FROM b.site
    WHERE b.hand_key NOT IN (SELECT batch_key FROM new_keys)
        AND NOT list_contains(?::BIGINT[], b.hand_key)),
copy_cards AS (
    SELECT p.kept_key, p.copy_key, s.player, c.position, c.up::BOOLEAN AS up,
        {card_text("c.card")} AS card
    FROM copies p JOIN batch_cards c ON c.hand = p.copy_key
        LEFT JOIN batch_seats s ON s.hand_key = c.hand AND s.seat = c.seat),
kept AS (
    SELECT c.hand_key AS kept_key, s.player, c.seat, c.position, c.up, c.card
    FROM cards c LEFT JOIN seats s ON s.hand_key = c.hand_key AND s.seat = c.seat
    WHERE c.hand_key IN (SELECT kept_key FROM copies)),
kept_downs AS (
    SELECT kept_key, player, count(card) AS known FROM kept WHERE NOT up GROUP BY ALL),
best AS (  -- the copy that knows most of a player's down cards (the first of those)
    SELECT kept_key, player, arg_max(copy_key, (known, -copy_key)) AS copy_key,
        max(known) AS known
    FROM (SELECT kept_key, copy_key, player, count(card) AS known FROM copy_cards
          WHERE NOT up GROUP BY ALL)
    GROUP BY ALL),
merged AS (
    SELECT k.kept_key, k.seat, k.position, c.card
    FROM best b JOIN kept_downs d ON d.kept_key = b.kept_key AND d.player = b.player
        AND b.known > d.known
    JOIN copy_cards c ON c.copy_key = b.copy_key AND c.player = b.player AND NOT c.up
    JOIN kept k ON k.kept_key = b.kept_key AND k.player = b.player
        AND k.position = c.position AND NOT k.up
    UNION ALL
    SELECT k.kept_key, k.seat, k.position, arg_min(c.card, c.copy_key)
    FROM kept k JOIN copy_cards c ON c.kept_key = k.kept_key
        AND c.player IS NOT DISTINCT FROM k.player AND c.position = k.position AND c.up
    WHERE k.up AND k.card IS NULL AND c.card IS NOT NULL GROUP BY ALL)
SELECT * FROM merged) m
WHERE cards.hand_key = m.kept_key AND cards.seat IS NOT DISTINCT FROM m.seat
    AND cards.position = m.position AND cards.card IS DISTINCT FROM m.card"""

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
    first in the batch) that differs from it (``_CONFLICTS``) is a conflict, refused with the
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
        rounds, split = 1, bool(frames) and run(con, _MOST_COPIES)[0][0] > 1
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
                run(con, f"CREATE OR REPLACE TEMP TABLE round_keys AS {_ROUND_KEYS}", [number])
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


#: The most copies of one hand (by room and hand id) in the batch.
_MOST_COPIES = """SELECT coalesce(max(n), 1)
    FROM (SELECT count(*) AS n FROM batch_hands GROUP BY site, hand_id)"""


#: The round of each copy of a hand the batch holds more than once: copies that know
#: the same cards (by seat and place) share one, numbered in the order of the first
#: of them.
_COPY_ROUNDS = """CREATE OR REPLACE TEMP TABLE copy_rounds AS
WITH copied AS (
    SELECT hand_key, site, hand_id FROM whole_hands
    QUALIFY count(*) OVER (PARTITION BY site, hand_id) > 1),
known AS (
    SELECT hand AS hand_key, list((seat, position, card) ORDER BY seat, position) AS cards
    FROM whole_cards WHERE card >= 0 AND hand IN (SELECT hand_key FROM copied) GROUP BY ALL),
signed AS (
    SELECT c.hand_key, c.site, c.hand_id,
        min(c.hand_key) OVER (PARTITION BY c.site, c.hand_id, k.cards) AS first_key
    FROM copied c LEFT JOIN known k USING (hand_key))
SELECT hand_key, dense_rank() OVER (PARTITION BY site, hand_id ORDER BY first_key) AS round
FROM signed"""

#: The batch's hands of the round that is the parameter (a hand of one copy: the first).
_ROUND_KEYS = """SELECT h.hand_key FROM whole_hands h LEFT JOIN copy_rounds r USING (hand_key)
    WHERE coalesce(r.round, 1) = ?"""


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
    run(con, _COPY_ROUNDS)
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
        run(con, _MERGED_CARDS, [[row[7] for row in found]])
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
    found: list[tuple[Any, ...]] = run(con, _CONFLICTS) if conflicts else []
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
