"""The PokerStars header's fast paths give what the plain reading gives: the first
time found from the last header's place, the time read as ISO text, the table's
words read once even where each hand adds its time in ET."""

from __future__ import annotations

import dataclasses
import datetime
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from studeval.histories._text import moment
from studeval.histories.rooms import pokerstars

# Pieces a header's rest is made of, many of them parts of a time, so that a time
# may start before, at, or across the place the last text's time started.
_PIECES = st.sampled_from(["2026/12/02 12:00:00", "2026/1/2 3:04:05", "12:00:", "2026/",
                           "12/", "0", "7", "/", ":", " ", " ET", "Razz ($1/$2) - ",
                           "Hi/Lo", "\u0662", "x"])  # fmt: skip


@settings(max_examples=400, deadline=None)
@given(st.lists(st.lists(_PIECES, max_size=8).map("".join), min_size=1, max_size=12),
       st.lists(st.lists(_PIECES, max_size=4).map("".join), min_size=1, max_size=12))  # fmt: skip
def test_the_first_time_is_the_first_match_whatever_was_read_before(
    heads: list[str], tails: list[str]
) -> None:
    texts = [head + tail for head in heads for tail in tails]  # shared starts, often
    for text in texts:
        found, expected = pokerstars._first_time(text), pokerstars._TIME.search(text)
        assert (found and found.span()) == (expected and expected.span()), text


def test_the_first_time_after_a_time_cut_short_at_the_last_place(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(pokerstars, "_last_before_time", "\0")  # as a new process has it
    # The last text's time starts after "12:00:"; a later text whose seconds could
    # be read from that time's year would have had its time at the same place.
    first = "a 12:00:2026/12/02 12:00:00"
    assert pokerstars._first_time(first).start() == 8  # type: ignore[union-attr]
    later = "a 12:00:2027/1/2 3:04:05 ET"
    assert pokerstars._first_time(later).span() == pokerstars._TIME.search(later).span()  # type: ignore[union-attr]
    hits = [0]
    # "x 2026/1" is where the first text's time starts; the second has none there
    # but one that starts before.
    texts = ["x 2026/1" + "2026/12/02 12:00:00", "x 2026/12/02 12:00:00 2026/12/02 12:00:00",
             "x 2026/12/02 1",
             "2026/12/02 1" + "2026/12/02 12:00:00"]  # fmt: skip
    for text in texts * 3:
        found, expected = pokerstars._first_time(text), pokerstars._TIME.search(text)
        assert (found and found.span()) == (expected and expected.span()), text
        hits[0] += found is not None
    assert hits[0] == 9  # all but the third text have a time


def test_times_read_as_iso_text_are_the_times_read_field_by_field() -> None:
    rng = random.Random(7)
    checked = 0
    for _ in range(3000):
        highest = [12, 31, 23, 59, 59]  # a field past its range, now and then
        parts = [str(rng.choice([0, 1, 2000, 2026, 9999])).zfill(4), *(
            str(rng.randint(0, top + (rng.random() < 0.05))).zfill(rng.choice([1, 2]))
            for top in highest)]  # fmt: skip
        zone = rng.choice(["", " ET", " CET", " XYZ"])
        text = f"{parts[0]}/{parts[1]}/{parts[2]} {parts[3]}:{parts[4]:0>2}:{parts[5]:0>2}{zone}"
        found = pokerstars._TIME.match(text)
        assert found is not None
        try:
            expected: object = moment(found.group(1, 2, 3, 4, 5, 6), found.group(7))
        except ValueError as err:
            expected = str(err)
        try:
            got: object = pokerstars._played_at(found)
        except ValueError as err:
            got = str(err)
        assert got == expected and type(got) is type(expected), text
        if isinstance(got, datetime.datetime):
            assert got.tzinfo == getattr(expected, "tzinfo", None)
            checked += 1
    assert checked > 1000  # valid times were among them
    # An hour of 24 is refused, as moment() refuses it (Python 3.14's fromisoformat
    # would read it as the next day's midnight).
    found = pokerstars._TIME.match("2026/12/02 24:00:00 ET")
    assert found is not None
    with pytest.raises(ValueError, match="hour"):
        pokerstars._played_at(found)


def test_a_tables_words_are_read_once_though_each_hand_adds_its_time_in_et() -> None:
    pokerstars._table_header.cache_clear()
    headers = []
    for minute in range(40):
        clock = f"2010/01/09 19:{minute:02}:34"
        eastern = f"2010/01/09 13:{minute:02}:34"
        line = (f"PokerStars Hand #{374213 + minute}:  7 Card Stud Limit ($0.04/$0.08 USD)"
                f" - {clock} CET [{eastern} ET]")  # fmt: skip
        headers.append(pokerstars._header([line, "Table 'Amalthea' 8-max"]))
    assert pokerstars._table_header.cache_info().misses == 1
    last = headers[-1]
    assert (last.hand_id, last.game, last.game_text, str(last.small_bet), last.table,
            last.currency) == ("374252", "stud", "7 Card Stud Limit ($0.04/$0.08 USD)", "0.04",
                               "Amalthea", "USD")  # fmt: skip
    assert last.played_at == datetime.datetime(2010, 1, 9, 18, 39, 34, tzinfo=datetime.UTC)
    # The time in ET says nothing more: each header is that of its line without it,
    # read with nothing cached.
    for header, minute in zip(headers, range(40), strict=True):
        pokerstars._table_header.cache_clear()
        line = (f"PokerStars Hand #{374213 + minute}:  7 Card Stud Limit ($0.04/$0.08 USD)"
                f" - 2010/01/09 19:{minute:02}:34 CET")  # fmt: skip
        alone = pokerstars._header([line, "Table 'Amalthea' 8-max"])
        assert dataclasses.asdict(header) == dataclasses.asdict(alone)
