"""The database's tables, as users query them with SQL (``docs/database.md`` shows
each column). Amounts are chips (whole numbers, exact) where a column's name says
``chips`` or names a stake; the money columns of ``results`` are chips times the
hand's ``unit``, in its ``currency``.

>>> TABLES[:5]
('hands', 'seats', 'results', 'actions', 'cards')
>>> card_text("c").endswith("'Ah', 'As'])[c + 1] END")
True
"""

from __future__ import annotations

import datetime
import os
from collections.abc import Callable
from typing import TYPE_CHECKING

from studeval.betting import EVENT_KINDS
from studeval.cards import TEXT_OF_CODE

if TYPE_CHECKING:
    import duckdb

__all__ = [
    "SCHEMA",
    "SCHEMA_VERSION",
    "TABLES",
    "UPGRADES",
    "action_text",
    "card_text",
    "stored_moment",
    "stored_moments",
    "stored_time",
    "upgrade_files",
    "upgrade_money",
]

#: Changed when a table changes: a database of another version is refused, not
#: read wrongly, unless UPGRADES brings it to this one.
SCHEMA_VERSION = 7


def _money_sql(amount: str) -> str:
    """SQL giving a DECIMAL amount as ``_rows._money_text`` writes it: without places
    when whole, else with two at least."""
    text = f"rtrim(CAST({amount} AS VARCHAR), '0')"
    return (
        f"CASE WHEN {amount} = trunc({amount}) THEN CAST(trunc({amount}) AS HUGEINT)::VARCHAR"
        f" WHEN length(split_part({text}, '.', 2)) < 2 THEN {text} || '0' ELSE {text} END"
    )


#: A hand's stakes text from its columns, in SQL.
STAKES_TEXT = f"({_money_sql('small_bet * unit')}) || '/' || ({_money_sql('big_bet * unit')})"


def upgrade_files(con: duckdb.DuckDBPyConnection) -> None:
    """4 to 5, the part SQL cannot do: each file's name as its real path (links
    resolved), as the import now keys a file. A file an older import had read
    through a link would otherwise keep its refusals twice when read again by its
    real name. Only absolute names are resolved (``<stdin>`` and ``hand N`` of
    ``import_hands`` are no files; every file was stored by absolute name)."""
    names = con.execute("SELECT source FROM refused WHERE source IS NOT NULL UNION "
                        "SELECT source FROM hands WHERE source IS NOT NULL").fetchall()  # fmt: skip
    moved = [(name, os.path.realpath(name)) for (name,) in names
             if os.path.isabs(name) and os.path.realpath(name) != name]  # fmt: skip
    if not moved:
        return
    # One UPDATE a table from a table of the names (one a name took minutes on
    # millions of hands and thousands of files).
    con.execute("CREATE OR REPLACE TEMP TABLE moved_files (name VARCHAR, real VARCHAR)")
    con.executemany("INSERT INTO moved_files VALUES (?, ?)", moved)
    for table in ("refused", "hands"):
        con.execute(f"UPDATE {table} SET source = m.real FROM moved_files m "
                    f"WHERE {table}.source = m.name")  # fmt: skip
    con.execute("DROP TABLE moved_files")


def upgrade_money(con: duckdb.DuckDBPyConnection) -> None:
    """5 to 6: each stored currency as its code, as the import now stores it (a PHH
    record's ``"usd"`` or ``"$"`` is USD; an iPoker file's ``"eur"`` EUR), and the
    money of its hands and statistics with it. A copy read again would otherwise be
    another hand "in other money", and one player's dollars two rows of ``stats()``."""
    from studeval.histories._text import named_currency

    found = con.execute("SELECT DISTINCT currency FROM hands WHERE currency IS NOT NULL")
    renamed = [(name, named_currency(name)) for (name,) in found.fetchall()]
    renamed = [(name, code) for name, code in renamed if code is not None and code != name]
    if not renamed:
        return
    con.execute("CREATE OR REPLACE TEMP TABLE renamed_money (name VARCHAR, code VARCHAR)")
    con.executemany("INSERT INTO renamed_money VALUES (?, ?)", renamed)
    # A cash hand's money is its currency (a tournament's is its chips: money_of).
    con.execute("UPDATE hands SET currency = m.code, money = CASE WHEN money = currency "
                "THEN m.code ELSE money END FROM renamed_money m "
                "WHERE hands.currency = m.name")  # fmt: skip
    con.execute("UPDATE seat_stats SET currency = m.code FROM renamed_money m "
                "WHERE seat_stats.currency = m.name")  # fmt: skip
    con.execute("DROP TABLE renamed_money")


#: What brings a database of each older version to the next: its SQL, and a step
#: of Python where SQL cannot do it (None: none). 2 to 3: the
#: money of a cash hand whose room names no currency is the room's own chips
#: (``"<room> chips"``), not ``"chips"``, which had added two rooms' together. 3 to
#: 4: the statistics' facts are made again (``fold_to_open_pair`` had given the open
#: pair's bettor, raised, a chance), when the database is opened to write. 4 to 5:
#: the stakes written alike in every hand of a table (``"400/800"``, ``"0.50/1"``),
#: where they had the places of the hand's smallest amount (``"400.00/800.00"`` in
#: a hand with cents, ``"400/800"`` in one without), and ``upgrade_files``. 5 to 6:
#: ``upgrade_money`` (no SQL of its own). 6 to 7: ``seats.room_seat`` an INTEGER (a
#: room's seat number past 127, or a PHH record's, had stopped the import).
UPGRADES: dict[int, tuple[str, Callable[[duckdb.DuckDBPyConnection], None] | None]] = {
    2: ("""UPDATE hands SET money = site || ' chips' WHERE money = 'chips' AND site IS NOT NULL;
          UPDATE seat_stats SET currency = site || ' chips'
              WHERE currency = 'chips' AND site IS NOT NULL;""", None),
    3: ("DELETE FROM seat_stats;", None),
    4: (f"""UPDATE hands SET stakes = {STAKES_TEXT};
          UPDATE seat_stats SET stakes = h.stakes FROM hands h
              WHERE h.hand_key = seat_stats.hand_key;""", upgrade_files),
    5: ("", upgrade_money),
    6: ("ALTER TABLE seats ALTER room_seat TYPE INTEGER;", None),
}  # fmt: skip


#: The tables, in the order a hand's rows are written.
TABLES = ("hands", "seats", "results", "actions", "cards", "refused", "imports", "seat_stats")

# The actions that are no deal: what the actions table holds.
_ACTIONS = tuple(kind for kind in EVENT_KINDS if kind not in ("deal", "community"))


def stored_time(moment: object) -> object:
    """A time as the TIMESTAMP columns hold it: an aware one in UTC, without its zone
    (anything else as it is; :func:`stored_moment` says which).

    >>> stored_time(datetime.datetime(2026, 12, 2, 12, tzinfo=datetime.timezone(
    ...     datetime.timedelta(hours=-5))))
    datetime.datetime(2026, 12, 2, 17, 0)
    """
    return stored_moment(moment)[0]


def stored_moment(moment: object) -> tuple[object, bool | None]:
    """:func:`stored_time`'s time, and whether it is in UTC (``played_at_utc``; None
    for no time). An aware time whose UTC is past the year 9999 (a text's
    "9999/12/31 23:59:59 ET": Python's times end there) is kept as written, not in
    UTC, rather than stopping the import of every hand with it.

    >>> stored_moment(datetime.datetime(9999, 12, 31, 23, tzinfo=datetime.timezone(
    ...     datetime.timedelta(hours=-5))))
    (datetime.datetime(9999, 12, 31, 23, 0), False)
    >>> stored_moment(None), stored_moment(datetime.datetime(2026, 12, 2))
    ((None, None), (datetime.datetime(2026, 12, 2, 0, 0), False))
    """
    if not isinstance(moment, datetime.datetime):
        return moment, None if moment is None else False
    if moment.tzinfo is None:
        return moment, False
    try:
        return moment.astimezone(datetime.timezone.utc).replace(tzinfo=None), True
    except OverflowError:
        return moment.replace(tzinfo=None), False


def stored_moments(moments: list[object]) -> list[tuple[object, bool | None]]:
    """:func:`stored_moment` of each of ``moments`` (a file's hands' times), made
    faster: an aware time's UTC is the time as written less its offset from UTC,
    which is what ``astimezone`` works out, without its two new datetimes.

    >>> zone = datetime.timezone(datetime.timedelta(hours=-5))
    >>> stored_moments([datetime.datetime(2026, 12, 2, 12, 30, tzinfo=zone), None])
    [(datetime.datetime(2026, 12, 2, 17, 30), True), (None, None)]
    """
    found: list[tuple[object, bool | None]] = []
    naive = datetime.datetime
    for moment in moments:
        # (A subclass of datetime, which may work out its own offset: as it is.)
        if type(moment) is naive and moment.tzinfo is not None:
            try:
                offset = moment.utcoffset()
                if offset is not None:
                    found.append((naive(moment.year, moment.month, moment.day, moment.hour,
                                        moment.minute, moment.second, moment.microsecond)
                                  - offset, True))  # fmt: skip
                    continue
            except OverflowError:  # (past the year 9999 in UTC: as written)
                pass
        found.append(stored_moment(moment))
    return found


def action_text(code: str) -> str:
    """SQL giving the action's name from the core's event code ``code`` (an SQL
    expression)."""
    names = ", ".join(f"'{name}'" for name in EVENT_KINDS)
    return f"([{names}])[{code} + 1]::action_kind"


def card_text(code: str) -> str:
    """SQL giving a card's text ("As") from its code ``code`` (-1: unknown, NULL)."""
    names = ", ".join(f"'{TEXT_OF_CODE[c]}'" for c in range(52))
    return f"CASE WHEN {code} >= 0 THEN ([{names}])[{code} + 1] END"


SCHEMA = f"""
CREATE TYPE action_kind AS ENUM ({", ".join(f"'{k}'" for k in _ACTIONS)});
CREATE TABLE IF NOT EXISTS studeval_schema (version INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS hands (
    hand_key BIGINT NOT NULL,        -- this database's number of the hand
    site VARCHAR,                    -- the card room; NULL for a hand played here
    hand_id VARCHAR NOT NULL,        -- the room's hand number (a digest of the log where none)
    game VARCHAR NOT NULL,           -- stud, stud8 or razz
    table_name VARCHAR,
    tournament VARCHAR,              -- the tournament's id; NULL in a cash game
    cash BOOLEAN NOT NULL,
    currency VARCHAR,                -- USD, EUR...; NULL for chips
    money VARCHAR NOT NULL,          -- the unit of the money columns: the currency,
                                     -- 'tournament chips', '<room> chips' or 'chips'
    unit DECIMAL(38, 18) NOT NULL,   -- money per chip
    ante BIGINT NOT NULL, bring_in BIGINT NOT NULL,
    small_bet BIGINT NOT NULL, big_bet BIGINT NOT NULL,  -- chips
    stakes VARCHAR NOT NULL,         -- small and big bet in money: '0.04/0.08', '400/800'
    players TINYINT NOT NULL,
    played_at TIMESTAMP,             -- UTC where the room names the zone, else as written
    played_at_utc BOOLEAN,
    rake BIGINT NOT NULL,            -- chips
    showdown BOOLEAN NOT NULL,       -- two or more seats showed or mucked at the end
    all_in_street TINYINT,           -- the street whose betting ended with a seat all in
    exact BOOLEAN NOT NULL,          -- the expected net of an all-in was counted exactly
    cap_lifted BOOLEAN NOT NULL,     -- the cap on raises is lifted heads-up
    hero VARCHAR,
    source VARCHAR,                  -- the file read, or 'hand N' of import_hands
    line INTEGER                     -- the hand's first line in it
);
CREATE TABLE IF NOT EXISTS seats (
    hand_key BIGINT NOT NULL, seat TINYINT NOT NULL,  -- seat 0 is dealt first
    player VARCHAR NOT NULL,
    room_seat INTEGER,               -- the room's seat number
    stack BIGINT NOT NULL            -- chips before the antes
);
CREATE TABLE IF NOT EXISTS results (
    hand_key BIGINT NOT NULL, seat TINYINT NOT NULL,
    paid BIGINT NOT NULL,            -- chips put in
    payout BIGINT NOT NULL,          -- chips received, unmatched chips back included
    returned BIGINT NOT NULL,        -- unmatched chips given back
    net_chips BIGINT NOT NULL,
    expected_net_chips DOUBLE NOT NULL,  -- all-in adjusted (the net with no all-in)
    net DECIMAL(38, 18) NOT NULL,    -- money: chips times the hand's unit, exact
    expected_net DOUBLE NOT NULL,
    luck DOUBLE NOT NULL,
    folded BOOLEAN NOT NULL,
    showdown BOOLEAN NOT NULL,       -- reached the showdown (showed or mucked there)
    showdown_won BIGINT NOT NULL,    -- chips from the pots contested at the showdown
    scooped BOOLEAN                  -- hi/lo showdowns: won every pot it was in whole
);
CREATE TABLE IF NOT EXISTS actions (
    hand_key BIGINT NOT NULL,
    seq INTEGER NOT NULL,            -- the order in the hand's log
    street TINYINT NOT NULL,         -- 3 to 7
    seat TINYINT NOT NULL,
    action action_kind NOT NULL,
    chips BIGINT NOT NULL,           -- chips put in (0 for check, fold, show, muck)
    to_chips BIGINT,                 -- the seat's street total after a wager
    facing TINYINT NOT NULL,         -- completions, bets and raises before it this street
    callers TINYINT NOT NULL,        -- calls of the last of them (or of the bring-in)
    live TINYINT NOT NULL            -- seats not folded before it
);
CREATE TABLE IF NOT EXISTS cards (
    hand_key BIGINT NOT NULL,
    seat TINYINT,                    -- NULL for the community card
    position TINYINT NOT NULL,       -- 0 to 6 in deal order
    street TINYINT NOT NULL,
    card VARCHAR,                    -- '7h'; NULL where never shown
    up BOOLEAN NOT NULL
);
CREATE TABLE IF NOT EXISTS refused (
    source VARCHAR, line INTEGER, site VARCHAR, hand_id VARCHAR,
    status VARCHAR NOT NULL,         -- refused, not stud, not a history, unreadable
    reason VARCHAR NOT NULL,
    kind VARCHAR NOT NULL,           -- the reason without names and amounts
    imported_at TIMESTAMP NOT NULL
);
CREATE TABLE IF NOT EXISTS imports (
    started_at TIMESTAMP NOT NULL, finished_at TIMESTAMP,
    files INTEGER NOT NULL, hands INTEGER NOT NULL, duplicates INTEGER NOT NULL,
    refused INTEGER NOT NULL
);
"""
