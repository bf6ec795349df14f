"""A batch of the hand database is stored whole: a hand whose adding stopped part
way leaves no rows, odd times and seat numbers are stored, and a folder with no
hand in it is only reported."""

from __future__ import annotations

import pathlib
from typing import Any

import pytest

from studeval import db
from studeval.db import _import, _rows
from studeval.histories import read
from studeval.play import random_hand

HISTORIES = pathlib.Path(__file__).parent / "data" / "histories"

# Each table's rows whose hand is not in ``hands``: there must be none.
_ORPHANS = " UNION ALL ".join(
    f"SELECT '{table}', count(*) FROM {table} WHERE hand_key NOT IN (SELECT hand_key FROM hands)"
    for table in ("seats", "results", "actions", "cards", "seat_stats")
)


def _orphans(database: db.Database) -> dict[str, int]:
    return {table: n for table, n in database.connection.execute(_ORPHANS).fetchall() if n}


def _players(database: db.Database, site: str) -> list[list[str]]:
    """Each stored hand of ``site``'s players, from its seats."""
    return database.sql(
        f"SELECT list(s.player ORDER BY s.seat) AS players FROM hands h JOIN seats s "
        f"USING (hand_key) WHERE h.site = '{site}' GROUP BY h.hand_key ORDER BY h.hand_key"
    ).players.tolist()


@pytest.mark.parametrize("site", ["PokerStars", "OnGame"])
@pytest.mark.parametrize("stop", [RuntimeError, KeyboardInterrupt])
def test_a_hand_whose_adding_stops_part_way_leaves_no_rows(
    tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch, site: str, stop: type[BaseException]
) -> None:
    """An error (or Ctrl-C) while a hand is added to the batch: the hands before it
    are stored whole, nothing of it is. Its seats, actions and cards had been stored
    under the key the next hand stored then took, as that hand's."""
    # Three PokerStars hands (read in bulk) and an OnGame hand (one by one): the
    # room whose hand stops read second, after the other's hands are in the batch.
    stars, ongame = db.EXAMPLE, (HISTORIES / "ongame.txt").read_text()
    first, second = (ongame, stars) if site == "PokerStars" else (stars, ongame)
    (tmp_path / "a.txt").write_text(first)
    (tmp_path / "b.txt").write_text(second)
    money_of = _rows.money_of
    calls = []

    def failing(row: dict[str, Any]) -> str:  # called after the hand's rows are taken
        calls.append(row["site"])
        if row["site"] == site:
            raise stop("stopped")
        return money_of(row)

    monkeypatch.setattr(_rows, "money_of", failing)
    database = db.connect(tmp_path / "t.duckdb")
    with pytest.raises(stop):
        database.import_histories([tmp_path / "a.txt", tmp_path / "b.txt"])
    assert site in calls
    assert _orphans(database) == {}
    stored = database.sql("SELECT site, count(*) AS n FROM hands GROUP BY ALL ORDER BY ALL")
    assert stored.values.tolist() == ([["OnGame", 1]] if site == "PokerStars"
                                      else [["PokerStars", 3]])  # fmt: skip
    monkeypatch.setattr(_rows, "money_of", money_of)
    # The next import's hands have their own rows only.
    report = database.import_histories(HISTORIES / "winning.txt")
    assert report.hands > 0 and _orphans(database) == {}
    expected = [[p.name for p in history.players] for history in read(HISTORIES / "winning.txt")]
    assert [list(players) for players in _players(database, "Winning")] == expected
    # And the folder read again stores what was stopped.
    report = database.import_histories([tmp_path / "a.txt", tmp_path / "b.txt"])
    counts = database.sql("SELECT site, count(*) AS n FROM hands GROUP BY ALL ORDER BY ALL")
    assert dict(counts.values.tolist()) | {"Winning": 0} == {
        "OnGame": 1, "PokerStars": 3, "Winning": 0}  # fmt: skip
    assert _orphans(database) == {}
    database.close()


def test_a_time_past_the_year_9999_in_utc_is_stored_as_written(tmp_path: pathlib.Path) -> None:
    """9999/12/31 23:59:59 ET is in the year 10000 in UTC, past Python's times: the
    hand is stored with its time as written (not UTC), the others as they were.
    Its conversion had stopped the import."""
    (tmp_path / "late.txt").write_text(
        db.EXAMPLE.replace("2026/12/02 12:00:00", "9999/12/31 23:59:59", 1)
    )
    database = db.connect()
    report = database.import_histories(tmp_path / "late.txt")
    assert (report.hands, report.refused) == (3, 0)
    rows = database.sql("SELECT played_at, played_at_utc FROM hands ORDER BY hand_key")
    assert rows.played_at_utc.tolist() == [False, True, True]
    assert str(rows.played_at[0]) == "9999-12-31 23:59:59"


def test_room_seat_numbers_past_a_byte_are_stored_and_past_the_column_refused(
    tmp_path: pathlib.Path,
) -> None:
    """A room's seat 128 (the column had been a TINYINT: the batch had stopped with a
    TypeError, nothing stored or refused); a PHH record's seat past 2**31 is refused
    with the reason, the other hands stored."""
    (tmp_path / "seats.txt").write_text(db.EXAMPLE.replace("Seat 7: Dee", "Seat 128: Dee"))
    database = db.connect()
    assert database.import_histories(tmp_path / "seats.txt").hands == 3
    seats = database.sql("SELECT DISTINCT room_seat FROM seats ORDER BY ALL").room_seat
    assert seats.tolist() == [1, 3, 5, 128]
    records = []
    for number, seat in enumerate([2, 2**40]):
        hand = random_hand("stud", 2, seed=number)
        hand.info = {"venue": "Somewhere", "hand": number + 1, "players": ["Ann", "Bob"],
                     "seats": [1, seat]}  # fmt: skip
        records.append(hand)
    report = database.import_hands(records)
    assert (report.hands, report.refused) == (1, 1)
    reason = database.sql("SELECT reason FROM refused").reason.tolist()
    assert reason == ["cannot be stored: its seat number 1,099,511,627,776 passes what the "
                      "tables hold"]  # fmt: skip


def test_a_folder_with_no_hand_is_reported_beside_hands_of_any_number(
    tmp_path: pathlib.Path,
) -> None:
    """A README alone, imported into a database holding a hand whose id is no number
    (OnGame's "R5-..."): the README is reported. The empty batch's columns, of no
    type, had made SQL read the stored ids as numbers, and the import had stopped."""
    database = db.connect(tmp_path / "t.duckdb")
    assert database.import_histories(HISTORIES / "ongame.txt").hands == 1
    folder = tmp_path / "exports"
    folder.mkdir()
    (folder / "README.txt").write_text("My exports, by month.\n")
    report = database.import_histories(folder)
    assert (report.hands, report.refused, dict(report.statuses)) == (0, 1, {"not a history": 1})
    refused = database.sql("SELECT source, status FROM refused").values.tolist()
    assert refused == [[str(folder / "README.txt"), "not a history"]]
    # A Dask worker's file of no hand makes no part to store (only its refusal).
    parts, refusals, duplicates = _import._file_parts(str(folder / "README.txt"), str(tmp_path))
    assert (parts, len(refusals), duplicates) == ([], 1, 0)
    database.close()


def test_a_schema_6_database_gets_room_seats_of_any_number(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "old.duckdb"
    with db.connect(path) as database:
        database.connection.execute("ALTER TABLE seats ALTER room_seat TYPE TINYINT")
        database.connection.execute("UPDATE studeval_schema SET version = 6")
    with pytest.raises(db.DatabaseError, match=r"schema 6\); open it once to write"):
        db.connect(path, read_only=True)
    (tmp_path / "seats.txt").write_text(db.EXAMPLE.replace("Seat 7: Dee", "Seat 200: Dee"))
    with db.connect(path) as database:
        assert database.import_histories(tmp_path / "seats.txt").hands == 3
        assert database.sql("SELECT max(room_seat) AS m FROM seats").m.tolist() == [200]
        kind = database.sql("SELECT data_type FROM information_schema.columns "
                            "WHERE table_name = 'seats' AND column_name = 'room_seat'")  # fmt: skip
        assert kind.data_type.tolist() == ["INTEGER"]


def test_the_batch_the_help_and_the_docs_name_is_the_one_written() -> None:
    # `studeval import --help` and docs/cli.md had said 10,000 hands a transaction
    # after the batch became 50,000.
    from studeval.cli.db_import import EPILOG

    docs = pathlib.Path(__file__).parents[1] / "docs"
    said = f"Hands are written {_import.BATCH:,} to a transaction"
    assert said in " ".join(EPILOG.split())
    assert said in " ".join((docs / "cli.md").read_text().split())
    assert f"Hands are written {_import.BATCH:,} at a time" in (docs / "database.md").read_text()
