"""Hands read in bulk in C (``histories._bulk``, ``HistoryReader.read_hands``) for a
tracker's rows: the rows, reports and their order are those of the hands read one
at a time, on every room the C reader reads, with lines changed, copies of hands
and all-ins among them."""

from __future__ import annotations

import contextlib
import random
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from unittest import mock

import numpy as np
import pytest
from test_histories_fast import (
    FAST_WRITERS,
    ODD_NAMES,
    PLAIN_NAMES,
    _format_of,
    _mutated,
    _random_texts,
)

from studeval import Stakes, _core
from studeval.errors import CoreCallError
from studeval.histories import _bulk, _spans
from studeval.histories import _reader as reader_module
from studeval.histories._writer import Table
from studeval.histories.rooms import pokerstars
from studeval.play import random_hand
from studeval.tracker import analyze_many

#: The writers whose format is read in bulk: the C reader's, but a room that writes
#: no rake (each of its hands is played twice, to find the rake).
BULK_WRITERS = {name: writer for name, writer in FAST_WRITERS.items()
                if _bulk.bulk_readable(_format_of(writer))}  # fmt: skip


def test_every_format_the_c_reader_reads_is_read_in_bulk_but_rakeless_ones() -> None:
    assert len(BULK_WRITERS) >= 6
    for name in set(FAST_WRITERS) - set(BULK_WRITERS):
        assert _format_of(FAST_WRITERS[name]).rake_unwritten, name


class _Counted:
    """Counts the hands read in bulk (:meth:`patched`), and those of them read where
    they lie in a plain text (``plain``: ``_spans``)."""

    def __init__(self) -> None:
        self.batches = self.hands = self.others = self.whole_stacks = self.plain = 0
        self.all_ins: set[str] = set()  # the hand ids of the hands below
        self.real = _bulk.read_spans

    def counting(self, plain: bool):  # type: ignore[no-untyped-def]
        def read(*args: object):  # type: ignore[no-untyped-def]
            for item in self.real(*args):  # type: ignore[arg-type]
                if isinstance(item, int):
                    self.others += 1
                else:
                    self.batches += 1
                    self.hands += len(item)
                    self.plain += len(item) if plain else 0
                    # Hands in bulk where a seat put its whole stack in (won by folds).
                    rows = item.seat_rows()
                    all_in = item.arrays["paid"][rows] >= item.arrays["stack"][rows]
                    self.whole_stacks += len(set((rows[all_in] // 8).tolist()))
                    # Hands whose betting ended all in, read in bulk with their equities.
                    headers, equities = item.headers, item.read.equities
                    self.all_ins |= {headers[h].hand_id  # type: ignore[union-attr]
                                     for h in item.hands.tolist()
                                     if equities.get(h, (None,))[0] is not None}  # fmt: skip
                yield item

        return read

    @contextlib.contextmanager
    def patched(self) -> Iterator[None]:
        """The bulk reader counted, whichever way its hands were cut."""
        with mock.patch.object(_bulk, "read_spans", self.counting(False)), \
                mock.patch.object(_spans, "read_spans", self.counting(True)):  # fmt: skip
            yield


@contextlib.contextmanager
def one_at_a_time() -> Iterator[None]:
    """No hand read in bulk, whichever way its text is cut (the expectation), as
    the block checks."""
    counted = _Counted()
    with mock.patch.object(reader_module, "bulk_readable", lambda grammar: False), \
            mock.patch.object(_spans, "bulk_readable", lambda grammar: False), \
            counted.patched():  # fmt: skip
        yield
    assert counted.hands == counted.others == 0, vars(counted)


def _both(folder: Path, **options: object):  # type: ignore[no-untyped-def]
    """analyze_many's frame in bulk and one hand at a time, and the count of bulk."""
    counted = _Counted()
    with counted.patched():
        bulk = analyze_many(folder, client=False, seed=1, **options)  # type: ignore[arg-type]
    with one_at_a_time():
        single = analyze_many(folder, client=False, seed=1, **options)  # type: ignore[arg-type]
    return bulk, single, counted


def _same(bulk, single) -> None:  # type: ignore[no-untyped-def]
    assert bulk.equals(single)
    assert list(bulk.dtypes) == list(single.dtypes)
    assert bulk.attrs["refused"].equals(single.attrs["refused"])


@pytest.mark.parametrize("writer", sorted(BULK_WRITERS))
def test_rows_read_in_bulk_are_the_rows_of_hands_read_one_at_a_time(
    writer: str, tmp_path: Path
) -> None:
    """Random hands of every game (all-ins among them), some with a line changed,
    copies within a file and across files, names beyond ASCII and names the C
    reader gives up on: the same rows, reports and order both ways."""
    rng = random.Random(5)
    texts = list(_random_texts(7, 240, PLAIN_NAMES, BULK_WRITERS[writer]))
    texts += list(_random_texts(8, 40, ODD_NAMES + PLAIN_NAMES, BULK_WRITERS[writer]))
    texts = [_mutated(t, rng) if rng.random() < 0.15 else t for t in texts]
    rng.shuffle(texts)
    (tmp_path / "a.txt").write_text("\n\n".join(texts[:200] + texts[10:20]))  # copies within
    (tmp_path / "b.txt").write_text("\n\n".join(texts[150:]))  # and across files
    # A plain file (ASCII, "\n" line ends), whose hands are read where they lie.
    plain = [t for t in texts if t.isascii()]
    (tmp_path / "c.txt").write_text(
        "\n\n".join(plain[:60] + texts[:2]).encode("ascii", "replace").decode()
    )
    bulk, single, counted = _both(tmp_path)
    _same(bulk, single)
    # The test reads in bulk, leaves some hands to the other way, and finds copies.
    assert counted.hands > 100 and counted.others > 10 and counted.whole_stacks > 3, vars(counted)
    assert counted.plain > 30, vars(counted)
    assert (bulk.attrs["refused"]["status"] == "duplicate").sum() > 10
    assert bulk["all_in"].notna().any()


def test_one_players_rows_in_bulk(tmp_path: Path) -> None:
    texts = _random_texts(9, 300, PLAIN_NAMES, pokerstars.write)
    (tmp_path / "a.txt").write_text("\n\n".join(texts))
    bulk, single, counted = _both(tmp_path, player="Dörte")
    _same(bulk, single)
    assert len(bulk) > 50 and set(bulk["player"]) == {"Dörte"} and counted.hands > 100


def test_money_of_every_chip_size_in_bulk(tmp_path: Path) -> None:
    """Chips of 1 and 0.01 of money, and nets beyond 2**53 chips (net in money: one
    rounding of chips times the unit, as the rows of one hand at a time)."""
    rng = random.Random(3)
    big = (10**13 + 1, 2 * 10**13 + 3, 10**15 + 1, 2 * 10**15 + 2)
    texts = []
    for number in range(300):
        seats = rng.randint(2, 8)
        stakes, stack = rng.choice([(Stakes(1, 2, 5, 10), 300), (Stakes(*big), 10**16 - 1)])
        hand = random_hand(rng.choice(["stud", "stud8", "razz"]), seats, rng=rng,
                           stakes=stakes, stack=stack)  # fmt: skip
        table = Table(names=rng.sample(PLAIN_NAMES, seats), hand_id=number + 1,
                      unit=Decimal(rng.choice(["1", "0.01"])),
                      sign=rng.choice(["$", ""]))  # fmt: skip
        texts.append(pokerstars.write(hand, table))
    (tmp_path / "a.txt").write_text("\n\n".join(texts))
    bulk, single, counted = _both(tmp_path)
    _same(bulk, single)
    assert bulk["unit"].nunique() == 2 and counted.hands > 150, vars(counted)
    assert (bulk["net"].abs() > 2**53 / 100).any()


def test_the_bulk_reader_refuses_bounds_outside_its_text() -> None:
    reader = _core.HistoryReader(pokerstars.GRAMMAR.templates)
    for bounds in ([0, 11], [-1, 3], [5, 2]):
        with pytest.raises(CoreCallError, match="bounds"):
            reader.read_hands(b"0123456789", np.array(bounds, np.int64), None, None)
    out = reader.read_hands(b"", np.zeros(1, np.int64), None, None)
    assert len(out["status"]) == 0
