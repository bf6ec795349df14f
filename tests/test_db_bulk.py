"""The database's import of hands read in bulk in C (``histories._bulk``): every
table, row for row and in order, is the import of the same files read one hand at
a time, across transactions, with copies, all-ins (their equities found in bulk too)
and changed lines among them."""

from __future__ import annotations

import random
from pathlib import Path
from unittest import mock

import pytest
from test_histories_bulk import BULK_WRITERS, _Counted
from test_histories_fast import PLAIN_NAMES, _mutated, _random_texts

pytest.importorskip("duckdb")

from studeval import db
from studeval.db import _import
from studeval.histories import _reader as reader_module

_TABLES = ("hands", "seats", "results", "actions", "cards", "seat_stats")


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
    with mock.patch.object(reader_module, "bulk_readable", lambda grammar: False):
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
