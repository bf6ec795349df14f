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


def _read(read: object, text: bytes) -> object:
    """A header as ``read`` gives it (its fields, the time's zone) or its error."""
    try:
        header = read(text)  # type: ignore[operator]
    except (ValueError, IndexError) as err:
        return type(err).__name__
    return dataclasses.asdict(header), getattr(header.played_at, "tzinfo", None)


# A first line, slot by slot: the plain start or another, an id, the white space
# after the colon, a club's name, the game and stakes, the separator, a time whole or
# not, a zone, the time again in ET or not quite, what follows; each slot's choices
# include bytes that are not printable ASCII (Unicode digits and spaces, NUL).
_SLOTS = [
    ["PokerStars Hand #", "PokerStars Zoom Hand #", "PokerStars Hand #x", "Poker Hand #"],
    ["12", "7", "", "\u0662"],
    [": ", ":", ":\t", ":\x1c ", " :", ":\u00a0"],
    ["", "{Club} ", "{a - 2026/12/02 9:05:00} ", "{a - b} ", "{x 2026/13/02 1:00:00 ET} "],
    ["7 Card Stud Limit ($0.04/$0.08 USD)", "Razz ($1/$2)", "Razz",
     "Tournament #55, $1+$0.10 USD 7 Card Stud Hi/Lo Limit - Level I (10/20)", "12026/1"],
    [" - ", " ", " -", "\0 - ", " - \x7f"],
    ["2026/12/02 9:05:00", "2026/12/2 19:05:07", "12026/12/02 12:00:00", "2026/13/02 1:00:00",
     "2026/12/02 24:00:00", "0000/01/01 1:00:00", "2026/123/02 1:00:00", "2026/12/02 9:05",
     "2026/12/02 \u0662:05:00"],
    ["", " ET", " CET", " XYZ", " et", "ET"],
    ["", " [2026/12/02 3:05:00 ET]", " [2026/12/02 3:05:00 CET]", " [2026/12/02 3:05 ET]",
     " [2026/12/02 3:05:00 ET", "[2026/12/02 3:05:00 ET]"],
    ["", " 2026/12/02 1:00:00", " (Hi/Lo)", "\r"],
]  # fmt: skip
# Mostly the first choice of a slot (a header as PokerStars writes it), else another.
_LINES = st.tuples(
    *[st.sampled_from([0] * len(slot) + list(range(len(slot)))) for slot in _SLOTS]
).map(lambda picks: "".join(slot[i] for slot, i in zip(_SLOTS, picks, strict=True)))


def _compare(lines: list[str], rng: random.Random) -> int:
    """Each line, then the same line with other ids and times and the same or other
    lines after it (a table's next hands, read from what the first one kept), read by
    _header_bytes as _header reads it. Returns how many were read from what was kept
    (without reading their text)."""
    pokerstars._TABLES.clear()
    texts = []
    for line in lines:
        for _ in range(4):
            again = line
            for clock in ("9:05:00", "12:00:00", "19:05:07"):
                again = again.replace(clock, f"{rng.randint(0, 23)}:{rng.randint(0, 59):02}:00")
            again = again.replace("#12", f"#{rng.randint(1, 10**12)}")
            more = rng.choice([[], ["Table 'Ida' 8-max"], ["Table 'Bo' 8-max"],
                               ["Table 'x\u0662'", ""]])  # fmt: skip
            texts.append("\n".join([again, *more]) + "\n")
    plain = pokerstars._header
    read_plainly = [0]

    def counted(header_lines: list[str]) -> object:
        read_plainly[0] += 1
        return plain(header_lines)

    for text in texts:
        data = text.encode()
        expected = _read(lambda t: plain(t.decode().split("\n")[:-1]), data)
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(pokerstars, "_header", counted)
            got = _read(pokerstars._header_bytes, data)
        assert got == expected, text
    return len(texts) - read_plainly[0]


@settings(max_examples=400, deadline=None)
@given(st.lists(_LINES, min_size=1, max_size=6), st.randoms(use_true_random=False))
def test_the_header_read_from_bytes_is_the_header_read_from_text(
    lines: list[str], rng: random.Random
) -> None:
    _compare(lines, rng)


def test_headers_read_from_what_was_kept_are_many_among_such_lines() -> None:
    """The lines above, drawn without hypothesis: many hands are read from what their
    table's first hand kept, so the comparison above meets that path."""
    rng = random.Random(3)
    kept = 0
    for _ in range(100):
        lines = ["".join(slot[0] if rng.random() < 0.7 else rng.choice(slot) for slot in _SLOTS)
                 for _ in range(3)]  # fmt: skip
        kept += _compare(lines, rng)
    assert kept > 50  # 114 of 1,200 with this seed


def test_a_tables_hands_after_the_first_are_read_from_what_it_kept() -> None:
    pokerstars._TABLES.clear()
    found = []
    for minute in range(30):
        line = (f"PokerStars Hand #{5000 + minute}: Razz Limit ($1/$2 USD) - "
                f"2026/12/02 9:{minute:02}:00 CET [2026/12/02 3:{minute:02}:00 ET]")  # fmt: skip
        text = f"{line}\nTable 'Ida' 8-max\n".encode()
        found.append(pokerstars._header_bytes(text))
        assert _read(pokerstars._header_bytes, text) == _read(
            lambda t: pokerstars._header(t.decode().split("\n")[:-1]), text)  # fmt: skip
    assert len(pokerstars._TABLES) == 1  # the first hand's header, kept
    assert [h.hand_id for h in found[:2]] == ["5000", "5001"]
    assert found[-1].played_at == datetime.datetime(2026, 12, 2, 8, 29, tzinfo=datetime.UTC)
    # A game's name that holds the time (no " - " before it) is each hand's own.
    pokerstars._TABLES.clear()
    pokerstars._header_bytes(b"PokerStars Hand #1: Razz ($1/$2) 2026/12/02 9:00:00 ET\n")
    assert not pokerstars._TABLES


@pytest.mark.parametrize(("written", "utc"), [
    # The second 2:15 of the night Paris turns its clocks back, and the first.
    ("2026/10/25 2:15:00 CET [2026/10/24 21:15:00 ET]", "2026-10-25 01:15"),
    ("2026/10/25 2:15:00 CET [2026/10/24 20:15:00 ET]", "2026-10-25 00:15"),
    # An hour Paris skips; a zone this reader does not know.
    ("2026/03/29 2:30:00 CET [2026/03/28 20:30:00 ET]", "2026-03-29 00:30"),
    ("2026/12/02 8:00:00 XYZT [2026/12/01 16:00:00 ET]", "2026-12-01 21:00"),
    # Sure in its own zone: as written (AEDT is known: Sydney's summer).
    ("2026/12/02 8:00:00 AEDT [2026/12/01 16:00:00 ET]", "2026-12-01 21:00"),
    ("2026/07/02 8:00:00 CEST [2026/07/02 2:00:00 ET]", "2026-07-02 06:00"),
])  # fmt: skip
def test_a_time_that_names_no_one_instant_is_taken_from_the_et_time(written: str,
                                                                     utc: str) -> None:  # fmt: skip
    """A wall time the player's zone repeats or skips, or a zone not known, had
    been stored as written (two hands an hour apart at one time, or a naive time);
    the header's ET time says the instant."""
    expected = datetime.datetime.fromisoformat(utc).replace(tzinfo=datetime.UTC)
    pokerstars._TABLES.clear()
    for number in range(3):  # the first read from text, the others from what it kept
        line = f"PokerStars Hand #{700 + number}: Razz Limit ($1/$2 USD) - {written}"
        text = f"{line}\nTable 'Ida' 8-max\n"
        for header in (pokerstars._header_bytes(text.encode()),
                       pokerstars._header(text.split("\n")[:-1])):  # fmt: skip
            assert header.played_at is not None and header.played_at.tzinfo is not None
            assert header.played_at.astimezone(datetime.UTC) == expected
