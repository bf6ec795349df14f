"""A hand database on DuckDB, and stud's own statistics (``pip install 'studeval[db]'``).

:func:`connect` opens (or makes) a database file; :meth:`Database.import_histories`
stores card rooms' histories and PHH files, a hand once however often it is
imported (by room and hand id), and keeps every hand and file it refused with the
reason; :meth:`Database.stats` gives each player's statistics as a pandas frame.
The tables (``hands``, ``seats``, ``results``, ``actions``, ``cards``, ``refused``)
are documented for SQL (:meth:`Database.sql`) in ``docs/database.md``, and each
statistic is defined in ``docs/stats.md``.

>>> import pathlib, tempfile
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> _ = (folder / "ursa.txt").write_text(EXAMPLE)  # three hands at one table
>>> _ = (folder / "README.txt").write_text("My exports")
>>> with connect(pathlib.Path(tempfile.mkdtemp()) / "hands.duckdb") as db:
...     report = db.import_histories(folder / "ursa.txt")
...     again = db.import_histories(folder)
...     frame = db.stats(player=["Bob", "Dee"])
>>> report.hands, again.hands, again.duplicates, again.refused
(3, 0, 3, 1)
>>> frame[["player", "currency", "hands", "vpip", "steal", "net"]].values.tolist()
[['Bob', 'USD', 3, 0.6666666666666666, 1.0, -0.33], ['Dee', 'USD', 2, 1.0, 1.0, 0.36]]
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

from studeval.db._example import EXAMPLE
from studeval.db._import import BATCH, ImportReport, import_files, import_hands
from studeval.db._schema import SCHEMA, SCHEMA_VERSION, TABLES, UPGRADES
from studeval.db._statistics import (
    STATISTICS,
    checked_filters,
    seat_stats_table,
    stats_source,
    stats_sql,
    unstored_values_sql,
    views_sql,
)
from studeval.db._store import missing_facts, quoted, refresh_facts, roll_back, run, writing
from studeval.errors import DatabaseError, OptionError, install_hint
from studeval.histories._text import shown_path

if TYPE_CHECKING:
    import datetime

    import duckdb
    import pandas

__all__ = ["BATCH", "EXAMPLE", "STATISTIC_NAMES", "Database", "ImportReport", "connect"]

#: The statistics of :meth:`Database.stats`, in its columns' order.
STATISTIC_NAMES: tuple[str, ...] = tuple(x.name for x in STATISTICS)


def connect(path: str | os.PathLike[str] = ":memory:", *, read_only: bool = False) -> Database:
    """The database in the file ``path`` (made when there is none; ``":memory:"``
    for one that lives as long as the object).

    >>> db = connect(); db.sql("SELECT count(*) AS n FROM hands").n.tolist()
    [0]
    """
    try:
        import duckdb
    except ImportError:
        raise OptionError(f"studeval.db needs DuckDB: {install_hint('db')}") from None
    _check_utf8(str(path), "the database")
    try:
        con = duckdb.connect(str(path), read_only=read_only)
    except duckdb.Error as err:  # (DuckDB's message names the path too)
        raise DatabaseError(f"{shown_path(str(path))}: cannot be opened as a DuckDB database: "
                            f"{shown_path(str(err))}") from None  # fmt: skip
    return Database(con, str(path), read_only)


def _check_utf8(path: str, what: str) -> None:
    r"""A DatabaseError where ``path`` is not UTF-8 (a name from an old disk, held
    by Python with lone surrogates), which DuckDB cannot open or write: it had
    stopped with a C++ ``std::bad_cast``, naming nothing.

    >>> _check_utf8("caf\udce9.duckdb", "the database")
    Traceback (most recent call last):
    ...
    studeval.errors.DatabaseError: caf\xe9.duckdb: DuckDB opens and writes only files ...
    """
    try:
        path.encode()
    except UnicodeEncodeError:
        raise DatabaseError(f"{shown_path(path)}: DuckDB opens and writes only files whose "
                            f"names are UTF-8; give {what} another name") from None  # fmt: skip


class Database:
    """A hand database (made by :func:`connect`); a context manager that closes it.

    ``connection`` is the DuckDB connection, for anything this class does not do.
    """

    def __init__(self, connection: duckdb.DuckDBPyConnection, path: str, read_only: bool) -> None:
        self.connection = connection
        self.path = path
        if read_only:
            self._open(read_only=True)
        else:  # a second thread opening the file waits until the first has made it
            with writing(path):
                self._open(read_only=False)

    def _open(self, *, read_only: bool) -> None:
        """Checks the schema; makes or upgrades it when writing (as the one writer)."""
        connection, path = self.connection, shown_path(self.path)
        tables = {row[0] for row in connection.execute("SHOW TABLES").fetchall()}
        if tables and "studeval_schema" not in tables:
            connection.close()
            raise DatabaseError(f"{path}: not a studeval database (it has other tables)")
        if "studeval_schema" in tables:
            version = run(connection, "SELECT max(version) FROM studeval_schema")[0][0]
            if version in UPGRADES and read_only:
                connection.close()
                raise DatabaseError(f"{path}: written by an older studeval (schema "
                                    f"{version}); open it once to write, which brings it up "
                                    "to date: studeval.db.connect(path) without read_only, "
                                    "or a `studeval import` into it")  # fmt: skip
            if version in UPGRADES:
                self._upgrade(version)
            elif version != SCHEMA_VERSION:
                connection.close()
                raise DatabaseError(f"{path}: written by another version of studeval "
                                    f"(schema {version}; this one reads "
                                    f"{SCHEMA_VERSION})")  # fmt: skip
        elif read_only:
            connection.close()
            raise DatabaseError(f"{path}: not a studeval database (it has no tables)")
        else:
            run(connection, "BEGIN TRANSACTION")
            run(connection, SCHEMA + seat_stats_table() + views_sql())
            run(connection, "INSERT INTO studeval_schema VALUES (?)", [SCHEMA_VERSION])
            run(connection, "COMMIT")
        if not read_only:  # the facts an import killed before them left out (the views)
            refresh_facts(connection)

    def _upgrade(self, version: int) -> None:
        """Brings a database of an older schema to this one, in one transaction."""
        run(self.connection, "BEGIN TRANSACTION")
        try:
            while version in UPGRADES:
                sql, step = UPGRADES[version]
                if sql:
                    run(self.connection, sql)
                if step is not None:
                    step(self.connection)
                version += 1
            run(self.connection, "UPDATE studeval_schema SET version = ?", [version])
            run(self.connection, "COMMIT")
        except BaseException as error:
            roll_back(self.connection, error)

    def __enter__(self) -> Database:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Closes the database (what was imported is already written)."""
        self.connection.close()

    def import_histories(
        self,
        paths: str | os.PathLike[str] | Iterable[str | os.PathLike[str]],
        *,
        errors: str = "collect",
        client: object = None,
        on_file: Callable[[str], None] | None = None,
    ) -> ImportReport:
        """Stores the hands of card rooms' histories and PHH files (``paths``: files
        and directories, read whole; ``"-"``: standard input, ``<stdin>`` as its
        source). A hand already stored or read before (the same
        room and hand id) is counted as a duplicate and left as it is, so importing
        a folder again adds only its new hands; one that differs from the hand kept
        (other players, a player's net, a card both copies know) is another hand, refused
        (:class:`~studeval.histories.ConflictingHandError`). Every other hand and
        file not stored is kept in the ``refused`` table with its status and reason
        (those of a file read again replace its earlier ones); ``errors="raise"``
        raises the first instead, after storing the hands before it (a conflict:
        once the hands of its batch are stored).

        Hands are written :data:`BATCH` at a time, each batch in one transaction: a
        killed import leaves every hand whole or absent, and importing again
        finishes it. With ``client`` (a ``distributed.Client``) each file is read
        on a worker into Parquet partitions that this database then reads.
        ``on_file`` is called with each file's name when its hands are read.
        """
        listed = [paths] if isinstance(paths, (str, os.PathLike)) else paths
        return import_files(self.connection, listed, errors, client, on_file, self.path)

    def import_hands(self, hands: Iterable[object], *, source: str | None = None) -> ImportReport:
        """Stores finished hands (:class:`~studeval.StudHand` or
        :class:`~studeval.histories.History` objects). A hand whose record names no
        room and hand id is stored under a digest of its players, stakes and log.

        >>> from studeval.play import random_hand
        >>> db = connect()
        >>> db.import_hands([random_hand("razz", 3, seed=s) for s in range(5)]).hands
        5
        >>> db.import_hands([random_hand("razz", 3, seed=0)]).duplicates
        1
        """
        return import_hands(self.connection, hands, source, self.path)

    def stats(
        self,
        player: str | Sequence[str] | None = None,
        *,
        game: str | Sequence[str] | None = None,
        currency: str | Sequence[str] | None = None,
        stakes: str | Sequence[str] | None = None,
        site: str | Sequence[str] | None = None,
        cash: bool | None = None,
        since: datetime.datetime | datetime.date | str | None = None,
        until: datetime.datetime | datetime.date | str | None = None,
        counts: bool = False,
    ) -> pandas.DataFrame:
        """Each player's statistics (``docs/stats.md`` defines them), a row a player,
        room and currency: a name in two rooms is two players, as trackers count them
        (``site``: the room, None for hands stored without one by :meth:`import_hands`;
        ``currency``: the hands' ``money``: the currency, ``"tournament chips"``,
        ``"<room> chips"`` or ``"chips"``, as :func:`studeval.tracker.money_of` names it:
        money is never added across). Columns: ``player``, ``site``, ``currency``, ``hands``, then
        each of :data:`STATISTIC_NAMES` as a fraction (hands done over hands with the
        chance; NaN with no chance), ``net_bb100`` and ``adjusted_bb100`` (net and all-in
        adjusted net per 100 hands, in big bets), ``net`` and ``adjusted_net`` (in the
        currency). ``counts=True`` adds ``<name>_chances`` and ``<name>_done`` for each
        statistic.

        The filters keep hands of those players, games (``"stud"``, ``"stud8"``,
        ``"razz"``), currencies, stakes (``"0.04/0.08"``: the small and big bet as
        the room writes them), rooms, cash (True) or tournament (False) hands, and
        hands played from ``since`` and before ``until`` (UTC where the room named
        the time zone). A room, currency or stakes that no stored hand has is an
        :class:`~studeval.errors.OptionError` listing those stored (they are matched
        as stored: ``"PokerStars"``, not ``"pokerstars"``); a player or game with no
        stored hands gives no rows.
        """
        filters = checked_filters(player=player, game=game, currency=currency, stakes=stakes,
                                  site=site, cash=cash, since=since, until=until)  # fmt: skip
        # Hands stored by an import killed before their facts were computed: here.
        missing = missing_facts(self.connection)
        self._check_stored(filters, stats_source(missing))
        sql, params = stats_sql(filters, counts, missing)
        import duckdb

        try:
            return self.connection.execute(sql, params).df()
        except duckdb.OutOfRangeException:
            # A hand holds less than 10**20 of money (unstorable), a player's sum
            # of many such hands may not: said, not a bare DuckDB error.
            raise DatabaseError(
                f"{self.path}: a sum of these hands' money passes 10**20, "
                "more than DECIMAL(38, 18) holds; ask for fewer hands "
                "(a player, currency, stakes or time)"
            ) from None

    def _check_stored(self, filters: dict[str, object], source: str) -> None:
        """A room, currency or stakes no stored hand has is a mistyped one (a filter
        that silently kept nothing would read as a player who never played there)."""
        for name in ("site", "currency", "stakes"):
            values = filters[name]  # a list (checked_filters), or None
            if not isinstance(values, list):
                continue
            unstored = self.connection.execute(*unstored_values_sql(name, values, source))
            absent = sorted(row[0] for row in unstored.fetchall())
            if absent:
                stored = f"SELECT DISTINCT {name} FROM {source} WHERE {name} IS NOT NULL"
                held = self.connection.execute(stored + " ORDER BY 1").fetchall()
                listed = ", ".join(repr(row[0]) for row in held)
                if not held:  # hands stored by import_hands name no room
                    rows = self.connection.execute(f"SELECT count(*) FROM {source}").fetchone()
                    listed = f"none: no stored hand names a {name}" if rows and rows[0] else (
                        "none: no hands are stored")  # fmt: skip
                raise OptionError(f"{name}={absent[0]!r}: no stored hand has it; the stored "
                                  f"{name} values are {listed}")  # fmt: skip

    def sql(self, query: str, params: Sequence[Any] | None = None) -> pandas.DataFrame:
        """A query's rows as a pandas frame (the tables are in ``docs/database.md``).

        >>> connect().sql("SELECT count(*) AS n FROM refused").n.tolist()
        [0]
        """
        return self.connection.execute(query, list(params or [])).df()

    def export_parquet(self, folder: str | os.PathLike[str]) -> list[str]:
        """Writes each table to ``folder/<table>.parquet``; returns the files."""
        _check_utf8(os.fsdecode(folder), "the folder")
        os.makedirs(folder, exist_ok=True)
        written = []
        for table in TABLES:
            path = os.path.join(folder, f"{table}.parquet")
            run(self.connection, f"COPY {table} TO '{quoted(path)}' (FORMAT parquet)")
            written.append(path)
        return written
