"""The database's import of hands read in bulk in C (``histories._bulk``): every
table, row for row and in order, is the import of the same files read one hand at
a time, across transactions, with copies, all-ins (their equities found in bulk too)
and changed lines among them."""

from __future__ import annotations

import random
from decimal import Decimal
from pathlib import Path

import pytest
from test_histories_bulk import BULK_WRITERS, _Counted, one_at_a_time
from test_histories_fast import PLAIN_NAMES, _mutated, _random_texts

pytest.importorskip("duckdb")

from studeval import Stakes, db
from studeval.db import _import
from studeval.histories._writer import Table
from studeval.histories.rooms import pokerstars
from studeval.play import random_hand

_TABLES = ("hands", "seats", "results", "actions", "cards", "seat_stats")


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_limits_written_with_and_without_places_in_one_file(newline: str, tmp_path: Path) -> None:
    """ "$5/$10" and "$5.00/$10.00" are equal amounts, but the places a text writes
    make its chip (1 or 0.01): each hand's own, in bulk too (a plain file and one
    with Windows' line ends)."""
    texts = []
    for number, seed in enumerate([4, 5, 6]):
        hand = random_hand("stud", 3, seed=seed, stakes=Stakes(1, 2, 5, 10), stack=40)
        texts.append(pokerstars.write(hand, Table(names=["Ann", "Bob", "Cy"], unit=Decimal(1),
                                                  hand_id=100 + number, table="T")))  # fmt: skip
    texts[1] = texts[1].replace("($5/$10 USD)", "($5.00/$10.00 USD)", 1)
    (tmp_path / "a.txt").write_bytes("\n\n".join(texts).replace("\n", newline).encode())
    bulk = db.connect()
    bulk.import_histories(tmp_path)
    with one_at_a_time():
        single = db.connect()
        single.import_histories(tmp_path)
    units = bulk.sql("SELECT hand_id, unit FROM hands ORDER BY hand_id")
    assert list(units.unit) == [1, 0.01, 1]
    for table in _TABLES:
        query = f"SELECT * FROM {table}"
        assert bulk.sql(query).equals(single.sql(query)), table


@pytest.mark.parametrize("writer", ["PokerStars", "Full Tilt Poker", "Bovada", "Winamax"])
def test_an_import_read_in_bulk_stores_the_rows_of_one_hand_at_a_time(
    writer: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = random.Random(4)
    texts = [_mutated(t, rng) if rng.random() < 0.1 else t
             for t in _random_texts(12, 160, PLAIN_NAMES, BULK_WRITERS[writer])]  # fmt: skip
    (tmp_path / "a.txt").write_text("\n\n".join(texts[:120] + texts[:5]))  # copies within
    (tmp_path / "b.txt").write_text("\n\n".join(texts[100:]))  # and across files
    # A plain file (ASCII, "\n" line ends), whose hands are read where they lie.
    ascii_names = [name for name in PLAIN_NAMES if name.isascii()] + ["Ida", "Jo"]
    plain = [_mutated(t, rng) if rng.random() < 0.1 else t
             for t in _random_texts(13, 90, ascii_names, BULK_WRITERS[writer],
                                    first_id=1001)]  # fmt: skip
    (tmp_path / "c.txt").write_text("Exported\n\n" + "\n\n\n".join(plain + plain[:3]) + "\n")
    monkeypatch.setattr(_import, "BATCH", 37)  # transactions end inside bulk batches
    counted = _Counted()
    with counted.patched():
        bulk = db.connect()
        bulk_report = bulk.import_histories(tmp_path)
    with one_at_a_time():
        single = db.connect()
        single_report = single.import_histories(tmp_path)
    assert counted.hands > 60 and counted.others > 5 and counted.whole_stacks > 0, vars(counted)
    assert counted.plain > 30  # hands read where they lie in a plain text (_spans)
    # Hands whose betting ended all in are read in bulk too, each with its equities
    # (those the C reader is not sure of are read the usual way, all-in or not).
    all_ins = single.sql("SELECT hand_id FROM hands WHERE all_in_street IS NOT NULL")
    assert counted.all_ins <= set(all_ins.hand_id) and len(counted.all_ins) > 5
    assert (bulk_report.hands, bulk_report.duplicates, bulk_report.reasons) == (
        single_report.hands, single_report.duplicates, single_report.reasons)  # fmt: skip
    assert bulk_report.duplicates > 20 and bulk_report.hands > 100
    for table in _TABLES:
        query = f"SELECT * FROM {table}"
        assert bulk.sql(query).equals(single.sql(query)), table
    refusals = "SELECT * EXCLUDE (imported_at) FROM refused"
    assert bulk.sql(refusals).equals(single.sql(refusals))
