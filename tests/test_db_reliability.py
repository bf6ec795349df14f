"""The database never loses a file, a hand or a refusal: folders reached through
links and folders that cannot be listed, files named twice, imports stopped halfway
through a file, and one table's stakes written alike in every hand of it."""

from __future__ import annotations

import errno
import os
import pathlib
import random
import re
import shlex
import sys
from collections.abc import Callable

import pytest

pytest.importorskip("duckdb")
pytest.importorskip("pandas")

from studeval import Stakes, StudHand, analyze_many, db
from studeval.cli import main
from studeval.errors import DatabaseError, OptionError
from studeval.histories import read
from studeval.histories._files import files_in
from studeval.histories._writer import Table
from studeval.histories.rooms import pokerstars
from studeval.play import random_hand

#: The example's stud8 hand, with a payout one cent short: refused.
_BAD = db.EXAMPLE.split("\n\n")[2].replace("Dee collected $0.42",
                                                          "Dee collected $0.41")  # fmt: skip


def _hands(first: int, count: int) -> str:
    """``count`` copies of the example's first hand, numbered from ``first``."""
    hand = db.EXAMPLE.split("\n\n")[0]
    return "\n\n".join(hand.replace("#250101001", f"#{first + i}") for i in range(count))


def _locked(monkeypatch: pytest.MonkeyPatch, folder: pathlib.Path) -> None:
    """``folder`` cannot be listed, as a folder of mode 000 is to anyone but root (the
    tests may run as root, which the mode does not stop)."""
    real = os.scandir

    def scandir(path: object = ".") -> object:
        if os.path.realpath(os.fspath(path)) == os.path.realpath(folder):  # type: ignore[arg-type]
            raise PermissionError(errno.EACCES, "Permission denied", os.fspath(path))  # type: ignore[arg-type]
        return real(path)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "scandir", scandir)


def test_folders_through_links_are_read_and_a_folder_not_listed_is_reported(
        tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    exports, elsewhere = tmp_path / "exports", tmp_path / "elsewhere"
    for folder in (exports / "ok", exports / "locked", elsewhere):
        folder.mkdir(parents=True)
    (exports / "ok" / "a.txt").write_text(_hands(1, 3))
    (elsewhere / "b.txt").write_text(_hands(11, 2))  # e.g. on another disk
    (exports / "locked" / "c.txt").write_text(_hands(21, 4))
    (exports / "linked").symlink_to(elsewhere)
    (exports / "ok" / "up").symlink_to(exports)  # a loop: walked once
    _locked(monkeypatch, exports / "locked")
    assert [pathlib.Path(f).relative_to(exports).as_posix() for f in files_in([exports])] == [
        "linked/b.txt", "locked", "ok/a.txt"]  # fmt: skip
    database = db.connect(tmp_path / "h.duckdb")
    report = database.import_histories(exports)
    assert (report.files, report.hands, report.refused) == (3, 5, 1)
    assert report.reasons == {"unreadable: cannot read the folder: Permission denied": 1}
    refused = database.sql("SELECT source, status FROM refused")
    assert refused.values.tolist() == [[str(exports / "locked"), "unreadable"]]


def test_a_file_named_twice_or_through_a_link_is_read_once(tmp_path: pathlib.Path) -> None:
    exports = tmp_path / "exports"
    exports.mkdir()
    (exports / "bad.txt").write_text(_BAD)
    (tmp_path / "link").symlink_to(exports)
    database = db.connect(tmp_path / "h.duckdb")
    report = database.import_histories([exports, exports / "bad.txt"])
    assert (report.files, report.refused) == (1, 1)
    again = database.import_histories(tmp_path / "link")  # the same file, by a link
    assert (again.files, again.refused) == (1, 1)
    refused = database.sql("SELECT source, hand_id FROM refused").values.tolist()
    assert refused == [[str(exports / "bad.txt"), "250101003"]]


def test_an_import_stopped_halfway_through_a_file_keeps_its_refusals(
        tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    import studeval.db._import as importing

    # 120 hands, then one refused: with 50 hands a batch, the refusal is read in
    # the file's third batch, and the import is stopped in its second.
    (tmp_path / "big.txt").write_text(_hands(1000, 120) + "\n\n\n" + _BAD)
    path = tmp_path / "h.duckdb"
    monkeypatch.setattr(importing, "BATCH", 50)
    with db.connect(path) as database:
        assert database.import_histories(tmp_path / "big.txt").refused == 1
    batches = {"stored": 0}
    store = importing.store

    def stopped(*args: object, **kwargs: object) -> object:
        batches["stored"] += 1
        if batches["stored"] == 2:
            raise KeyboardInterrupt
        return store(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(importing, "store", stopped)
    with db.connect(path) as database, pytest.raises(KeyboardInterrupt):
        database.import_histories(tmp_path / "big.txt")
    assert batches["stored"] >= 2  # the first batch was stored, the second stopped
    monkeypatch.setattr(importing, "store", store)
    with db.connect(path) as database:
        kept = database.sql("SELECT hand_id, reason FROM refused").values.tolist()
        assert kept == [["250101003", "Dee collected 0.41; the replay pays 0.42"]]
        # Read to its end, the file's refusals are replaced: still one.
        assert database.import_histories(tmp_path / "big.txt").refused == 1
        assert database.sql("SELECT count(*) AS n FROM refused").n.tolist() == [1]
        assert database.sql("SELECT count(*) AS n FROM hands").n.tolist() == [120]


def _table_hands() -> list[object]:
    """Two hands of one $400/$800 table, one kept in cents (an amount with cents
    somewhere in it) and one in dollars."""
    hands = []
    for number, unit in enumerate(("0.01", "1")):
        chip = 100 if unit == "0.01" else 1
        stakes = Stakes(ante=40 * chip, bring_in=100 * chip, small_bet=400 * chip,
                        big_bet=800 * chip)  # fmt: skip
        hand = random_hand("stud", 2, seed=number, stakes=stakes, stack=20000 * chip)
        hand.info = {"players": ["Ann", "Bob"], "venue": "PokerStars", "hand": number + 1,
                     "currency": "USD", "_unit": unit}  # fmt: skip
        hands.append(hand)
    return hands


def test_a_tables_stakes_read_alike_whatever_the_places_of_its_hands(
        tmp_path: pathlib.Path) -> None:  # fmt: skip
    path = tmp_path / "h.duckdb"
    with db.connect(path) as database:
        database.import_hands(_table_hands())
        units = database.sql("SELECT unit, stakes FROM hands ORDER BY unit").values.tolist()
        assert [(float(unit), stakes) for unit, stakes in units] == [(0.01, "400/800"),
                                                                     (1.0, "400/800")]  # fmt: skip
        assert database.stats(player="Ann", stakes="400/800")["hands"].tolist() == [2]
        # A database of schema 4 kept the places of each hand's smallest amount:
        # brought up to date when opened to write.
        database.connection.execute("UPDATE hands SET stakes = '400.00/800.00' WHERE unit < 1")
        database.connection.execute("UPDATE seat_stats SET stakes = '400.00/800.00' "
                                    "WHERE hand_key = 1")  # fmt: skip
        database.connection.execute("UPDATE studeval_schema SET version = 4")
    with db.connect(path) as database:
        assert database.sql("SELECT DISTINCT stakes FROM hands").stakes.tolist() == ["400/800"]
        facts = database.sql("SELECT DISTINCT stakes FROM seat_stats").stakes.tolist()
        assert facts == ["400/800"]
        assert database.stats(player="Ann", stakes="400/800")["hands"].tolist() == [2]


@pytest.mark.parametrize(("small", "big", "unit", "text"), [
    (5, 10, "0.01", "0.05/0.10"), (50, 100, "0.01", "0.50/1"), (2, 4, "1", "2/4"),
    (150, 300, "0.01", "1.50/3"), (1, 2, "0.001", "0.001/0.002"), (25, 50, "0.1", "2.50/5"),
    # 36 digits, where Python's decimal keeps 28 unless told (worked out in whole
    # numbers: 2**59 * 333333333333333333 / 10**18)
    (2**59, 10**17 + 1, "0.333333333333333333",
     "192153584101141162.474513082565525504/33333333333333333.633333333333333333"),
])  # fmt: skip
def test_stakes_text_in_python_and_in_the_upgrades_sql(small: int, big: int, unit: str,
                                                       text: str) -> None:  # fmt: skip
    from decimal import Decimal

    import duckdb

    from studeval.db._rows import _stakes_text
    from studeval.db._schema import STAKES_TEXT

    assert _stakes_text(small, big, Decimal(unit)) == text
    sql = (
        f"SELECT {STAKES_TEXT} FROM (SELECT ?::BIGINT AS small_bet, ?::BIGINT AS big_bet, "
        f"?::DECIMAL(38, 18) AS unit)"
    )
    assert duckdb.connect().execute(sql, [small, big, unit]).fetchall() == [(text,)]
    assert re.fullmatch(r"\d+(\.\d\d+)?/\d+(\.\d\d+)?", text)


def test_the_import_command_names_each_refusal_and_reads_standard_input(
        tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    import io
    import sys

    from studeval.cli import main

    (tmp_path / "bad.txt").write_text(_hands(1, 2) + "\n\n\n" + _BAD)
    path = str(tmp_path / "h.duckdb")
    assert main(["import", path, str(tmp_path / "bad.txt")]) == 2
    err = capsys.readouterr().err
    bad = tmp_path / "bad.txt"
    assert (
        f"studeval: not stored: PokerStars, hand 250101003, {bad}, line 99: Dee collected 0.41"
        in err
    )
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(_hands(50, 3).encode())))
    assert main(["import", path, "-"]) == 0
    assert "3 hands stored from 1 file" in capsys.readouterr().err
    with db.connect(path, read_only=True) as database:
        sources = database.sql("SELECT source, count(*) AS n FROM hands GROUP BY ALL ORDER BY 1")
        assert sources.values.tolist() == [[str(tmp_path / "bad.txt"), 2], ["<stdin>", 3]]


def test_stats_of_players_one_without_hands_of_the_game_asked(
        tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    from studeval.cli import main

    (tmp_path / "s.txt").write_text(db.EXAMPLE)
    path = str(tmp_path / "h.duckdb")
    assert main(["import", path, str(tmp_path / "s.txt")]) == 0
    capsys.readouterr()
    # Ann played stud and razz only; Dee played stud8 too.
    assert main(["stats", path, "--player", "Ann", "--player", "Dee", "--game", "stud8",
                 "--format", "csv"]) == 0  # fmt: skip
    out, err = capsys.readouterr()
    assert [line.split(",")[0] for line in out.splitlines()] == ["player", "Dee"]
    assert "studeval: Ann: no hand of --game stud8" in err
    # The filter named is the one given (a room's had been called "the game or money").
    with db.connect(path, read_only=True) as database:
        site = database.sql("SELECT any_value(site) AS s FROM hands").s[0]
    assert main(["stats", path, "--player", "Ann", "--player", "Dee", "--game", "stud8",
                 "--site", site]) == 0  # fmt: skip
    assert (f"studeval: Ann: no hand of --game stud8 --site {shlex.quote(site)}"
            in capsys.readouterr().err)  # fmt: skip
    assert main(["stats", path, "--player", "Nobody", "--player", "Ann"]) == 2
    assert "no hand of Nobody in" in capsys.readouterr().err
    with db.connect(path) as database, pytest.raises(OptionError, match="game='Razz'"):
        database.stats(game="Razz")


def test_a_command_given_an_empty_folder_says_so_and_fails(
        tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    from studeval.cli import main

    for command in ("replay", "analyze"):
        assert main([command, str(tmp_path)]) == 2
        assert "no file to read: the folders given are empty" in capsys.readouterr().err


def _with_text_outside_hands() -> tuple[str, list[int]]:
    """Three PokerStars hands with a tracker's heading before them, another room's hand
    after the first and notes after the second (each after a blank line); the lines
    where the text outside the hands starts, counted here."""
    first, second, third = (_hands(n, 1) for n in (701, 702, 703))
    heading = "Exported by SomeTracker 2.1\nSession of 2026-12-02"
    other = ("888poker Hand History for Game 123456789 :\n$0.05/$0.10 Blinds No Limit Holdem"
             "\nSeat 1: Ann ( $5 )\nSeat 3: Bob ( $5 )\nBob collected [ $0.15 ]")  # fmt: skip
    parts = [heading, first, other, second, "notes: a good session", third]
    text = "\n\n\n".join(parts) + "\n"
    starts, line = [], 1
    for part in parts:
        if part in (heading, other, "notes: a good session"):
            starts.append(line)
        line += part.count("\n") + 3
    return text, starts


def test_lines_outside_every_hand_are_reported_where_they_are(
        tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    from studeval.cli import main
    from studeval.histories import read
    from studeval.histories._record import OutsideHandsError

    text, starts = _with_text_outside_hands()
    path = tmp_path / "mixed.txt"
    path.write_text(text)
    found = list(read(path, errors="collect"))
    outside = [x for x in found if isinstance(x, OutsideHandsError)]
    assert [x.line for x in outside] == starts == [1, 37, 76]
    assert sum(not isinstance(x, OutsideHandsError) for x in found) == 3
    assert outside[1].reason.startswith("5 lines outside every hand, not read: '888poker")
    assert main(["replay", str(path)]) == 0  # reported, as a file of no hands is
    err = capsys.readouterr().err
    assert "3 hands replayed" in err
    assert f"lines outside every hand, not read: 3 ({path} line 1, {path} line 37" in err
    database = db.connect(tmp_path / "h.duckdb")  # the bulk reader's way
    report = database.import_histories(path)
    assert (report.hands, report.refused) == (3, 3)
    refused = database.sql("SELECT line, status FROM refused ORDER BY line").values.tolist()
    assert refused == [[line, "not a history"] for line in starts]


def test_import_of_an_empty_folder_fails_and_standard_input_named_twice_is_read_once(
        tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    import io
    import sys

    from studeval.cli import main

    (tmp_path / "empty").mkdir()
    path = str(tmp_path / "h.duckdb")
    assert main(["import", path, str(tmp_path / "empty")]) == 2
    assert "no file to read: the folders given are empty" in capsys.readouterr().err
    assert not pathlib.Path(path).exists()  # (an empty database had been made)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(_BAD.encode())))
    assert main(["import", path, "-", "-"]) == 2  # one refused hand, one file
    assert "0 hands stored from 1 file" in capsys.readouterr().err
    # A later import from standard input keeps the refusals of the earlier ones.
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(_hands(900, 2).encode())))
    assert main(["import", path, "-"]) == 0
    with db.connect(path, read_only=True) as database:
        assert database.sql("SELECT source FROM refused").source.tolist() == ["<stdin>"]


def test_an_older_database_keeps_a_file_read_through_a_link_once(
        tmp_path: pathlib.Path) -> None:  # fmt: skip
    # Schema 4 kept a file by the name it was read by; read again by its real name
    # after the upgrade, its refusal is replaced, not kept twice.
    exports = tmp_path / "exports"
    exports.mkdir()
    (exports / "bad.txt").write_text(_hands(1, 2) + "\n\n\n" + _BAD)
    (tmp_path / "link").symlink_to(exports)
    path = tmp_path / "h.duckdb"
    through_link = str(tmp_path / "link" / "bad.txt")
    with db.connect(path) as database:
        assert database.import_histories(exports).refused == 1
        database.connection.execute("UPDATE refused SET source = ?", [through_link])
        database.connection.execute("UPDATE hands SET source = ?", [through_link])
        database.connection.execute("UPDATE studeval_schema SET version = 4")
    with db.connect(path) as database:
        assert database.sql("SELECT DISTINCT source FROM refused").source.tolist() == [
            str(exports / "bad.txt")]  # fmt: skip
        assert database.sql("SELECT DISTINCT source FROM hands").source.tolist() == [
            str(exports / "bad.txt")]  # fmt: skip
        assert database.import_histories(exports / "bad.txt").refused == 1
        assert database.sql("SELECT count(*) AS n FROM refused").n.tolist() == [1]


def _huge(number: int, chip: int) -> object:
    """A hand of a home game whose chip is worth 1,000,000: 400 big bets of ``chip``
    chips a stack."""
    stakes = Stakes(ante=chip, bring_in=2 * chip, small_bet=5 * chip, big_bet=10 * chip)
    hand = random_hand("stud", 2, seed=number, stakes=stakes, stack=400 * chip)
    hand.info = {"players": ["Ann", "Bob"], "venue": "Home", "hand": number,
                 "currency": "USD", "_unit": "1000000"}  # fmt: skip
    return hand


def test_a_hand_worth_more_than_the_tables_hold_is_refused_and_the_rest_stored() -> None:
    # 8 * 10**14 chips of 1,000,000 is 8 * 10**20 of money: DECIMAL(38, 18) holds
    # less than 10**20. The hand had stopped the import of its whole batch.
    database = db.connect()
    report = database.import_hands([_huge(1, 10**12), _huge(2, 10**10), _huge(3, 10**11)])
    assert (report.hands, report.refused) == (2, 1)
    refused = database.sql("SELECT hand_id, reason FROM refused").values.tolist()
    assert refused == [["1", "cannot be stored: its money (800,000,000,000,000 chips of "
                             "1000000) passes 10**20, more than the tables hold"]]  # fmt: skip
    stakes = database.sql("SELECT stakes FROM hands ORDER BY hand_key").stakes.tolist()
    assert stakes == ["50000000000000000/100000000000000000",
                      "500000000000000000/1000000000000000000"]  # fmt: skip


def test_a_sum_of_money_past_what_the_tables_hold_is_a_clear_error() -> None:
    database = db.connect()
    database.import_hands([_huge(number, 10**11) for number in range(1, 5)])
    # Each hand holds less than 10**20; the sum of a player's can pass it.
    database.connection.execute("UPDATE results SET net = 9e19 WHERE net > 0")
    database.connection.execute("UPDATE seat_stats SET net = 9e19 WHERE net > 0")
    with pytest.raises(db.DatabaseError, match=r"a sum of these hands' money passes 10\*\*20"):
        database.stats()


@pytest.mark.parametrize("damage", [" ", "\0", "\t", "\x1a", "\u200b", "\xa0", "hello\n"])
@pytest.mark.parametrize("gap", ["\n\n", "\n"])
def test_a_hand_whose_first_line_is_damaged_is_reported_and_its_neighbours_stored(
        tmp_path: pathlib.Path, damage: str, gap: str) -> None:  # fmt: skip
    # The damaged start is no start: the hand before had run on through it, and was
    # refused for its second deal ("a second deal line for Ann") while the damaged
    # hand was in neither table. Without a blank line too (gap "\n"). A line of
    # notes before an intact start is reported, and every hand stored.
    first, second, third = db.EXAMPLE.split("\n\n")[:3]
    (tmp_path / "h.txt").write_text(first + gap + damage + second + "\n\n" + third)
    database = db.connect()
    report = database.import_histories(tmp_path / "h.txt")
    # A line of notes, or NUL bytes (a crash's, read as a break): the hand is intact.
    kept = ["250101001", "250101003"] if damage not in ("hello\n", "\0") else [
        "250101001", "250101002", "250101003"]  # fmt: skip
    assert (report.hands, report.refused) == (len(kept), 1)
    stored = database.sql("SELECT hand_id FROM hands ORDER BY hand_id").hand_id.tolist()
    assert stored == kept
    line = first.count("\n") + gap.count("\n") + 1
    refused = database.sql("SELECT line, status, reason FROM refused").values.tolist()
    if damage in ("hello\n", "\0"):  # a line between two hands: reported
        assert refused[0][:2] == [line, "not a history"]
        assert "1 line outside every hand, not read" in refused[0][2]
    else:  # a hand that lost its first line: refused, as a hand not stored
        assert refused[0][:2] == [line, "refused"]
        assert "lines of a hand without a first line studeval reads" in refused[0][2]


def test_a_hand_glued_to_a_crashs_nul_bytes_is_read_and_the_bytes_reported(
        tmp_path: pathlib.Path) -> None:  # fmt: skip
    # A client that crashed left NUL bytes where the file's end was not written, and
    # appended its next hand right after them, on the same line (after a blank line,
    # or cut into the last line of the hand before). That hand had been reported as
    # lines outside every hand, and not stored.
    first, second, third = db.EXAMPLE.split("\n\n")[:3]
    text = ("\0" * 10 + first + "\0" * 4096 + second + "\n\n" + "\0" * 7 + third
            + "\n" + "\0" * 3)  # fmt: skip
    (tmp_path / "h.txt").write_text(text)
    lines = [1, 1 + first.count("\n"), 3 + first.count("\n") + second.count("\n")]
    database = db.connect()
    report = database.import_histories(tmp_path / "h.txt")
    assert (report.hands, report.refused) == (3, 4)
    stored = database.sql("SELECT hand_id, line FROM hands ORDER BY line").values.tolist()
    assert stored == [[f"25010100{i + 1}", line] for i, line in enumerate(lines)]
    refused = database.sql("SELECT line, reason FROM refused ORDER BY line").values.tolist()
    assert [line for line, _ in refused] == [*lines, text.count("\n") + 1]
    assert all(r.startswith("1 line outside every hand, not read: '\\x00") for _, r in refused)
    # The reader one hand at a time says the same, in the file's order.
    found = [(type(f).__name__, f.line) for f in read(tmp_path / "h.txt", errors="collect")]
    assert found == [("OutsideHandsError", lines[0]), ("History", lines[0]),
                     ("OutsideHandsError", lines[1]), ("History", lines[1]),
                     ("OutsideHandsError", lines[2]), ("History", lines[2]),
                     ("OutsideHandsError", text.count("\n") + 1)]  # fmt: skip
    # A file glued after the run starts with its byte-order mark: no text, and its
    # hand is read (it had been lines outside every hand).
    marked = list(read(first + "\0" * 5 + "\ufeff" + second, errors="collect"))
    assert [(type(f).__name__, f.line) for f in marked] == [
        ("History", 1), ("OutsideHandsError", lines[1]), ("History", lines[1])]  # fmt: skip
    assert "not read: '\\x00\\x00\\x00\\x00\\x00'" in str(marked[1])
    # Read for another room's hands only (none here): the text is one text of no hand.
    found = [(type(f).__name__, f.line) for f in read(text, site="iPoker", errors="collect")]
    assert found == [("NotAHistoryError", None)]
    # NUL bytes before a line that starts no hand are that line's damage, as before.
    (tmp_path / "n.txt").write_text(first.replace("\nAnn: ", "\n\0\0Ann: ", 1))
    assert db.connect().import_histories(tmp_path / "n.txt").refused == 1


@pytest.mark.parametrize("tail", ["hello there\n", "\0" * 4096, "Seat 9 ran away\n"])
def test_text_after_a_hands_summary_is_reported_and_nul_padding_is_no_utf16(
        tmp_path: pathlib.Path, tail: str) -> None:  # fmt: skip
    # Right after the last summary line, with no blank line between: it had been
    # read as part of the hand and passed over. 4096 NUL bytes (the tail a crash
    # leaves) had made the file read as UTF-16: its three hands "not a history".
    (tmp_path / "h.txt").write_text(db.EXAMPLE + tail)
    database = db.connect()
    report = database.import_histories(tmp_path / "h.txt")
    assert (report.hands, report.refused) == (3, 1)
    refused = database.sql("SELECT line, reason FROM refused").values.tolist()
    assert refused[0][0] == db.EXAMPLE.count("\n") + 1
    assert refused[0][1].startswith("1 line outside every hand, not read")


def _tenfold(text: str) -> str:
    """A hand's text with every amount ten times larger (stakes $0.50/$1)."""
    return re.sub(r"\$(\d+)\.(\d\d)", lambda m: f"${int(m[1] + m[2]) / 10:.2f}", text)


def _both(first: pathlib.Path, second: pathlib.Path,
          together: bool) -> tuple[db.Database, db.ImportReport]:  # fmt: skip
    """A database that imported ``first`` and ``second`` in one import (one batch,
    ``together``) or in two, and the report of the import that read ``second``."""
    database = db.connect()
    if together:
        return database, database.import_histories([first, second])
    database.import_histories(first)
    return database, database.import_histories(second)


@pytest.mark.parametrize(("change", "how"), [
    (_tenfold, "with other results"),
    (lambda text: text.replace("Dealt to Cy [5d]", "Dealt to Cy [6d]"), "with other cards"),
    (lambda text: text.replace("Bob: shows [Kc Kd 2h Ks Qd Jd 8s]",
                               "Bob: shows [Kc Kd 2h Ks Qd Jd 8c]"), "with other cards"),
    (lambda text: text.replace("Bob", "Zed"), "dealt to other players"),
    # The same hands in another currency, or in play chips: the money had not been
    # compared, and such a copy was "already stored".
    (lambda text: text.replace("$", "€").replace(" USD)", " EUR)"), "in other money"),
    (lambda text: text.replace("$", "").replace(" USD)", ")"), "in other money"),
    # Another game, or other stacks: neither had been compared ("already stored").
    (lambda text: text.replace("7 Card Stud Limit", "7 Card Stud Hi/Lo Limit"),
     "in another game"),
    (lambda text: text.replace("Seat 1: Ann ($5.00 in chips)", "Seat 1: Ann ($5.50 in chips)"),
     "with other stacks"),
])  # fmt: skip
def test_another_hand_with_the_same_players_under_a_stored_number_is_refused(
        tmp_path: pathlib.Path, change: object, how: str) -> None:  # fmt: skip
    # Only the players had been compared: the same number and players with other
    # amounts, another door card or another card shown had been "already stored".
    (tmp_path / "a.txt").write_text(db.EXAMPLE)
    (tmp_path / "b.txt").write_text(change(db.EXAMPLE))  # type: ignore[operator]
    for together in (True, False):  # one batch, or the second against the stored
        database, report = _both(tmp_path / "a.txt", tmp_path / "b.txt", together)
        assert report.hands == (3 if together else 0)
        assert report.refused >= 1 and report.duplicates + report.refused == 3
        reasons = database.sql("SELECT reason FROM refused").reason.tolist()
        assert reasons and all(r.endswith(f"{how}: not read") for r in reasons)
        assert database.sql("SELECT count(*) AS n FROM hands").n.tolist() == [3]


def _two_exports(folder: pathlib.Path) -> str:
    """Ann's and Bob's exports of the example's first hand (``ann.txt``, ``bob.txt``),
    each with its player's down cards; Bob's text."""
    hand = db.EXAMPLE.split("\n\n")[0]
    ann = hand.replace("Dealt to Ann [2c]", "Dealt to Ann [Ac Ad 2c]")
    bob = hand.replace("Dealt to Bob [Kh]", "Dealt to Bob [Qs Qh Kh]").replace(
        "Dealt to Bob [Kh] [Jc]", "Dealt to Bob [Qs Qh Kh] [Jc]")  # fmt: skip
    (folder / "ann.txt").write_text(ann)
    (folder / "bob.txt").write_text(bob)
    return bob


def test_copies_from_two_seats_knowing_other_down_cards_are_one_hand(
        tmp_path: pathlib.Path) -> None:  # fmt: skip
    # Each player's own export shows their own down cards: the copies agree on every
    # card both know, and are one hand.
    _two_exports(tmp_path)
    # Down cards shown in another order: their places are the text's order, no fact.
    shown = db.EXAMPLE.split("\n\n")[2]
    (tmp_path / "shown.txt").write_text(shown)
    (tmp_path / "reordered.txt").write_text(shown.replace("[Kc Kd 2h Ks Qd Jd 8s]",
                                                          "[8s Kd 2h Ks Qd Jd Kc]"))  # fmt: skip
    for first, second in (("ann", "bob"), ("shown", "reordered")):
        for together in (True, False):
            _, report = _both(tmp_path / f"{first}.txt", tmp_path / f"{second}.txt", together)
            assert (report.hands, report.duplicates, report.refused) == (int(together), 1, 0)


def _community_card_hand() -> str:
    """Eight players check to 7th street (the deck runs out: one community card), where
    the first to act bets and the rest fold: no showdown, so any unseen card could have
    been the community card without changing a chip."""
    hand = StudHand("stud", Stakes(1, 2, 5, 10), [1000] * 8)
    while not hand.over:
        if hand.actor is None:
            hand.deal_random(7)
            continue
        kinds = hand.legal().kinds()
        if hand.community is not None:
            hand.act("bet" if "bet" in kinds else "fold")
        else:
            hand.act(next(k for k in ("check", "call", "bring_in") if k in kinds))
    assert hand.community is not None
    return pokerstars.write(hand, Table(names=[f"P{s} x" for s in range(8)]))


def test_copies_of_a_hand_with_another_community_card_conflict(tmp_path: pathlib.Path) -> None:
    # The community card has no seat: it had been left out of the comparison, and a
    # copy with another one was "already stored".
    text = _community_card_hand()
    river = re.search(r"\*\*\* RIVER \*\*\* \[(\w\w)\]", text)
    assert river is not None
    unseen = next(f"{r}{s}" for r in "23456789TJQKA" for s in "cdhs"
                  if not re.search(rf"\b{r}{s}\b", text))  # fmt: skip
    (tmp_path / "a.txt").write_text(text)
    (tmp_path / "b.txt").write_text(re.sub(rf"\b{river[1]}\b", unseen, text))
    (tmp_path / "c.txt").write_text(text)
    for together in (True, False):
        database, report = _both(tmp_path / "a.txt", tmp_path / "b.txt", together)
        assert (report.hands, report.duplicates, report.refused) == (int(together), 0, 1)
        reasons = database.sql("SELECT reason FROM refused").reason.tolist()
        assert len(reasons) == 1 and reasons[0].endswith("with other cards: not read")
        # The same text again is the same hand.
        _, report = _both(tmp_path / "a.txt", tmp_path / "c.txt", together)
        assert (report.hands, report.duplicates, report.refused) == (int(together), 1, 0)


def test_a_file_name_that_is_not_utf8_is_stored_as_text(tmp_path: pathlib.Path) -> None:
    # A Latin-1 name ("café.txt" from an old disk) is held by Python as a lone
    # surrogate, which no table could store: the whole import had stopped with a
    # UnicodeEncodeError, no hand stored, every later import of the folder the same.
    (tmp_path / "in").mkdir()
    folder = os.fsencode(tmp_path / "in")
    with open(os.path.join(folder, b"caf\xe9.txt"), "wb") as file:
        file.write(db.EXAMPLE.encode())
    with open(os.path.join(folder, b"notes-\xe9t\xe9.txt"), "wb") as file:
        file.write(b"nothing here\n")
    database = db.connect(tmp_path / "h.duckdb")
    for _ in range(2):  # read again: the same names, its refusal replaced, not doubled
        report = database.import_histories(tmp_path / "in")
        assert report.refused == 1
        sources = database.sql("SELECT DISTINCT source FROM hands").source.tolist()
        assert sources == [f"{tmp_path}/in/caf\\xe9.txt"]
        refused = database.sql("SELECT source FROM refused").source.tolist()
        assert refused == [f"{tmp_path}/in/notes-\\xe9t\\xe9.txt"]
    assert database.sql("SELECT count(*) AS n FROM hands").n.tolist() == [3]
    assert "notes-\\xe9t\\xe9.txt" in str(report)


def test_a_database_or_export_folder_name_that_is_not_utf8_is_a_clear_error(
        tmp_path: pathlib.Path) -> None:  # fmt: skip
    # DuckDB cannot open such a name: it had stopped with a RuntimeError
    # ("std::bad_cast") that named nothing, and `studeval import` with a traceback.
    name = os.fsdecode(os.path.join(os.fsencode(tmp_path), b"hands\xff.duckdb"))
    with pytest.raises(DatabaseError, match=r"hands\\xff\.duckdb: DuckDB opens .* UTF-8"):
        db.connect(name)
    database = db.connect()
    folder = os.fsdecode(os.path.join(os.fsencode(tmp_path), b"caf\xe9"))
    with pytest.raises(DatabaseError, match=r"caf\\xe9: DuckDB opens .* UTF-8"):
        database.export_parquet(folder)
    (tmp_path / "ex.txt").write_text(db.EXAMPLE)
    assert main(["import", name, str(tmp_path / "ex.txt")]) == 2


def test_a_phh_records_currency_is_stored_as_its_code(tmp_path: pathlib.Path) -> None:
    # PHH asks for a code, and records write "usd" or "$" too: each had been a money
    # of its own, one player's dollars in three rows of stats().
    histories = list(read(db.EXAMPLE))
    for number, (history, written) in enumerate(zip(histories, ["USD", "usd", "$"],
                                                    strict=True)):  # fmt: skip
        text = history.to_phh().replace('currency = "USD"', f'currency = "{written}"')
        assert f'currency = "{written}"' in text
        (tmp_path / f"h{number}.phh").write_text(text.replace(
            f"hand = {history.hand_id}", f"hand = {number + 1}"))  # fmt: skip
    database = db.connect()
    assert database.import_histories(tmp_path).hands == 3
    assert database.sql("SELECT DISTINCT currency, money FROM hands").values.tolist() == [
        ["USD", "USD"]]  # fmt: skip
    assert database.stats(player="Bob")[["currency", "hands"]].values.tolist() == [["USD", 3]]
    frame = analyze_many(tmp_path)
    assert set(frame.currency) == {"USD"}


def test_an_older_databases_currencies_become_their_codes(tmp_path: pathlib.Path) -> None:
    # Schema 5 kept a PHH record's currency as written: read again, each hand would
    # be another hand "in other money", and stats() split one player's dollars.
    history = next(read(db.EXAMPLE))
    (tmp_path / "h.phh").write_text(history.to_phh().replace('currency = "USD"',
                                                             'currency = "usd"'))  # fmt: skip
    path = tmp_path / "h.duckdb"
    with db.connect(path) as database:
        assert database.import_histories(tmp_path / "h.phh").hands == 1
        database.connection.execute("UPDATE hands SET currency = 'usd', money = 'usd'")
        database.connection.execute("UPDATE seat_stats SET currency = 'usd'")
        database.connection.execute("UPDATE studeval_schema SET version = 5")
    with db.connect(path) as database:
        assert database.sql("SELECT currency, money FROM hands").values.tolist() == [
            ["USD", "USD"]]  # fmt: skip
        assert set(database.stats().currency) == {"USD"}
        report = database.import_histories(tmp_path / "h.phh")
        assert (report.hands, report.duplicates, report.refused) == (0, 1, 0)


def _open_at_once(path: pathlib.Path, count: int) -> tuple[list[db.Database], list[Exception]]:
    """``count`` threads connecting to ``path`` at one moment: the databases they got,
    and what each that failed raised."""
    import threading

    start = threading.Barrier(count)
    opened: list[db.Database] = []
    failures: list[Exception] = []

    def open_it() -> None:
        start.wait()
        try:
            opened.append(db.connect(path))
        except Exception as err:  # each thread's failure is the finding
            failures.append(err)

    threads = [threading.Thread(target=open_it) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return opened, failures


def test_threads_opening_a_new_file_at_once_make_it_once(tmp_path: pathlib.Path) -> None:
    """Threads that open the same new file at one moment (a tracker's workers) each
    get the database: the first makes it, the others wait and find it made. Each had
    tried to make it too, and all but one got DuckDB's "Type action_kind already
    exists"."""
    for attempt in range(4):
        opened, failures = _open_at_once(tmp_path / f"new{attempt}.duckdb", 6)
        assert failures == []
        assert len(opened) == 6
        versions = opened[0].sql("SELECT version FROM studeval_schema").version.tolist()
        assert versions == [db._schema.SCHEMA_VERSION]
        for database in opened:
            database.close()


def test_the_spill_files_of_a_killed_import_are_the_databases_own(
    tmp_path: pathlib.Path,
) -> None:
    """A database inside the folder it imports: what DuckDB spilled to its temporary
    folder (``hands.duckdb.tmp``), left there by an import that was killed, is the
    database's own, not a history that failed to read."""
    (tmp_path / "ursa.txt").write_text(db.EXAMPLE)
    spill = tmp_path / "hands.duckdb.tmp"
    spill.mkdir()
    (spill / "duckdb_temp_storage_S32K-0.tmp").write_bytes(b"\x00\x17" * 4096)
    with db.connect(tmp_path / "hands.duckdb") as database:
        report = database.import_histories(tmp_path)
        reasons = database.sql("SELECT source, reason FROM refused ORDER BY source")
    assert report.hands == 3
    assert set(reasons.reason) == {"the database being written, not read"}
    names = sorted(pathlib.Path(source).name for source in reasons.source)
    assert names == ["duckdb_temp_storage_S32K-0.tmp", "hands.duckdb", "hands.duckdb.wal"]


def test_a_file_named_with_control_characters_keeps_one_refusal_across_versions(
    tmp_path: pathlib.Path,
) -> None:
    """The name is stored escaped (``\\x1b``); a database an older studeval wrote holds
    it raw. Importing the file again replaces the refusal under either name, where
    the raw one had been kept beside the new one at every import."""
    name = tmp_path / "a\x1b[31mred.txt"
    name.write_text("not a hand\n")
    with db.connect(tmp_path / "h.duckdb") as database:
        database.import_histories(name)
        stored = database.sql("SELECT source FROM refused").source.tolist()
        assert stored == [str(tmp_path / "a\\x1b[31mred.txt")]
        database.connection.execute("UPDATE refused SET source = ?", [str(name)])  # as before
        database.import_histories(name)
        again = database.sql("SELECT source, status FROM refused").values.tolist()
    assert again == [[stored[0], "not a history"]]


@pytest.mark.parametrize("site", ["PokerStars", "Full Tilt Poker", "Winning", "Winamax",
                                  "Bovada", "OnGame", "Everleaf", "Absolute",
                                  "KingsClub"])  # fmt: skip
def test_a_hand_that_lost_its_first_line_is_refused_in_every_room(site: str) -> None:
    """Three hands of a room, the second's first line damaged: its lines (seat lines
    and streets that deal) are a hand refused, never notes reported, in each room's
    words (Bovada's seats are "Seat+3")."""
    from studeval.histories import HeadlessHandError
    from studeval.histories.rooms import bovada, room

    write = room(site).writers[site]
    rng = random.Random(7)
    texts = []
    for number in range(3):
        hand = random_hand("stud", 4, rng=rng, stack=400)
        names = bovada.names(4) if site == "Bovada" else [f"P{s}" for s in range(4)]
        texts.append(write(hand, Table(names=names, hand_id=900 + number)))
    first, rest = texts[1].split("\n", 1)
    texts[1] = "X" + first[1:] + "\n" + rest
    found = list(read("\n\n\n".join(texts), errors="collect"))
    kinds = [type(x).__name__ for x in found]
    assert kinds == ["History", "HeadlessHandError", "History"], [str(x) for x in found]
    assert isinstance(found[1], HeadlessHandError) and found[1].status == "refused"
    # A file of that hand alone: refused as such, where the file had been "not a
    # history" (and the import had exited 0 with the hand in neither table).
    (alone,) = read(texts[1], errors="collect")
    assert isinstance(alone, HeadlessHandError) and alone.line == 1, alone
    # With a room named, a file of none of its hands stays "no ... hand in it".
    other = "Winamax" if site == "PokerStars" else "PokerStars"
    (elsewhere,) = read(texts[0], site=other, errors="collect")
    assert elsewhere.status == "not a history" and f"no {other} hand" in str(elsewhere)


def test_a_summary_cut_from_its_hand_by_a_blank_line_is_reported_not_refused() -> None:
    """A blank line after a PokerStars hand's totals ends the hand: its summary's seat
    lines deal nothing, so they are lines outside every hand, as before, and the hand
    itself is stored."""
    from studeval.histories import EXAMPLE  # a summary of seat lines after its totals

    cut = re.sub(r"(Total pot [^\n]*\n)", r"\1\n", EXAMPLE, count=1)
    assert cut != EXAMPLE
    second = EXAMPLE.replace("20261202017", "20261202018")
    found = list(read(cut + "\n\n" + second, errors="collect"))
    kinds = ["History", "OutsideHandsError", "History"]
    assert [type(x).__name__ for x in found] == kinds, [str(x) for x in found]


def _down_cards(database: db.Database) -> dict[str, list[str | None]]:
    """Each player's down cards as the database holds them, by place."""
    rows = database.sql("SELECT s.player, c.card FROM cards c JOIN seats s USING (hand_key, "
                        "seat) WHERE NOT c.up ORDER BY s.player, c.position")  # fmt: skip
    found: dict[str, list[str | None]] = {}
    for player, card in zip(rows.player, rows.card, strict=True):
        found.setdefault(player, []).append(None if card is None or card != card else card)
    return found


def test_a_copy_that_knows_more_cards_gives_them_to_the_hand_kept(
        tmp_path: pathlib.Path) -> None:  # fmt: skip
    # Ann's export knows her down cards, Bob's his: the hand is stored once, from the
    # copy read first, and had kept only that player's, the other's lost for good.
    bob = _two_exports(tmp_path)
    # Another hand under the same number (another door card): its cards are not taken.
    (tmp_path / "other.txt").write_text(
        bob.replace("Dealt to Cy [5d]", "Dealt to Cy [6d]").replace(
            "Dealt to Bob [Qs Qh", "Dealt to Bob [Ts Th"
        )
    )
    for first, second in (("ann", "bob"), ("bob", "ann")):
        for together in (True, False):
            database, report = _both(tmp_path / f"{first}.txt", tmp_path / f"{second}.txt",
                                     together)  # fmt: skip
            assert (report.duplicates, report.refused) == (1, 0)
            downs = _down_cards(database)
            assert downs["Ann"] == ["Ac", "Ad"] and downs["Bob"] == ["Qs", "Qh"]
            assert downs["Cy"] == downs["Dee"] == [None, None]
            assert database.sql("SELECT count(*) AS n FROM hands").n.tolist() == [1]
        database, report = _both(tmp_path / "ann.txt", tmp_path / "other.txt", together)
        assert report.refused == 1
        assert _down_cards(database)["Bob"] == [None, None]


def test_a_copy_knowing_a_players_down_cards_in_another_order_changes_nothing(
        tmp_path: pathlib.Path) -> None:  # fmt: skip
    # The hand kept knows them already: its places stay as its text wrote them.
    shown = db.EXAMPLE.split("\n\n")[2]
    (tmp_path / "shown.txt").write_text(shown)
    (tmp_path / "reordered.txt").write_text(shown.replace("[Kc Kd 2h Ks Qd Jd 8s]",
                                                          "[8s Kd 2h Ks Qd Jd Kc]"))  # fmt: skip
    alone = db.connect()
    alone.import_histories(tmp_path / "shown.txt")
    for together in (True, False):
        database, _ = _both(tmp_path / "shown.txt", tmp_path / "reordered.txt", together)
        assert _down_cards(database) == _down_cards(alone)


def test_ctrl_c_that_duckdb_turns_into_its_own_error_exits_130(monkeypatch) -> None:
    # Ctrl-C in a statement: DuckDB ends it with InterruptException (or "Query
    # interrupted"), and a ROLLBACK after a COMMIT it stopped finds no transaction:
    # `studeval import` had ended with that traceback and status 1.
    import duckdb

    from studeval import cli
    from studeval.db._store import roll_back

    con = duckdb.connect()
    con.execute("BEGIN TRANSACTION")
    con.execute("COMMIT")  # (no transaction left for the rollback)
    for stopped in (duckdb.InterruptException("INTERRUPT Error: Interrupted!"),
                    RuntimeError("Query interrupted")):  # fmt: skip
        with pytest.raises(KeyboardInterrupt):
            roll_back(con, stopped)
    with pytest.raises(ValueError, match="other"):
        roll_back(con, ValueError("other"))

    def stopping(error: Exception) -> Callable[[object], int]:
        def stop(argv: object) -> int:
            raise error

        return stop

    monkeypatch.setattr(sys, "argv", ["studeval", "import", "x.duckdb"])
    # The command and the rollback tell Ctrl-C by one test (db._store.is_interrupt).
    for stopped in (duckdb.InterruptException("INTERRUPT Error: Interrupted!"),
                    RuntimeError("Query interrupted")):  # fmt: skip
        monkeypatch.setattr(cli, "main", stopping(stopped))
        with pytest.raises(SystemExit) as stopped_run:
            cli.console_main()
        assert stopped_run.value.code == 130
    monkeypatch.setattr(cli, "main", stopping(RuntimeError("disk full")))
    with pytest.raises(RuntimeError, match="disk full"):  # any other error stays one
        cli.console_main()


def test_without_duckdb_the_error_says_how_to_install_the_extra(monkeypatch, tmp_path) -> None:
    # studeval is not on PyPI yet: "pip install 'studeval[db]'" alone finds nothing,
    # and the message gives the command that works from a checkout too.
    monkeypatch.setitem(sys.modules, "duckdb", None)  # `import duckdb` fails
    with pytest.raises(OptionError, match=r"studeval\[db\]'.*pip install '\.\[db\]'"):
        db.connect()
    (tmp_path / "ex.txt").write_text(db.EXAMPLE)
    assert main(["import", str(tmp_path / "h.duckdb"), str(tmp_path / "ex.txt")]) == 2


def test_three_copies_are_judged_alike_in_one_batch_or_many(
        tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    # Hero's export, then two of DarioZ's own with other down cards for him: the third
    # is another hand than the second. In one batch each copy had been compared with
    # the first alone (which knows none of DarioZ's down cards): the third taken as
    # "already stored", while imported apart, or in batches of one, or again, it was
    # refused; the database's content hung on the batch's size.
    from studeval.histories import EXAMPLE

    def export(downs: str) -> str:
        text = EXAMPLE.replace("Dealt to Hero [Td 2s 9s]", "Dealt to Hero [9s]").replace(
            "Dealt to DarioZ [3h]", f"Dealt to DarioZ [{downs} 3h]")  # fmt: skip
        assert text.count(downs) == 2  # (3rd and 4th street: "[Ah 2h 3h] [3d]")
        return text

    folder = tmp_path / "exports"
    folder.mkdir()
    (folder / "a.txt").write_text(EXAMPLE)
    (folder / "b.txt").write_text(export("Ah 2h"))
    (folder / "c.txt").write_text(export("Kd Kc"))
    refusal = ("another hand under the room and hand id of the hand read from "
               f"{folder / 'a.txt'} line 1, with other cards: not read")  # fmt: skip
    downs = (
        "SELECT list(c.card ORDER BY c.position) AS cards FROM cards c "
        "JOIN seats s USING (hand_key, seat) WHERE s.player = 'DarioZ' AND NOT c.up"
    )
    results = []
    distributed = pytest.importorskip("distributed")
    with distributed.Client(n_workers=1, threads_per_worker=1, processes=False,
                            dashboard_address=None) as client:  # fmt: skip
        for way in ("together", "apart", "batches of one", "dask"):
            database = db.connect(tmp_path / f"{way}.duckdb")
            with monkeypatch.context() as patched:
                if way == "batches of one":
                    patched.setattr("studeval.db._import.BATCH", 1)
                if way == "apart":
                    reports = [database.import_histories(folder / f"{name}.txt")
                               for name in "abc"]  # fmt: skip
                else:
                    reports = [database.import_histories(
                        folder, client=client if way == "dask" else None)]  # fmt: skip
            counts = [sum(getattr(r, n) for r in reports) for n in ("hands", "duplicates",
                                                                     "refused")]  # fmt: skip
            assert counts == [1, 1, 1], way
            again = database.import_histories(folder)
            assert (again.hands, again.duplicates, again.refused) == (0, 2, 1), way
            rows = database.sql("SELECT source, reason FROM refused").values.tolist()
            assert rows == [[str(folder / "c.txt"), refusal]], way
            results.append([list(cards) for cards in database.sql(downs).cards])
    assert results == [[["Ah", "2h"]]] * 4


def test_copies_in_rounds_raise_the_first_conflict_and_same_copies_share_a_round(
        tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    # The batch's rounds of copies had given their conflicts round by round: a later
    # line's raised before an earlier one's, as a batch of one never did; and every
    # copy had had a round of its own, a file of a thousand copies of one hand taking
    # a minute (about 15 statements a round).
    from studeval.db import _store
    from studeval.histories import EXAMPLE, ConflictingHandError

    other_y = EXAMPLE.replace("#20261202017", "#20261202018")
    moved = EXAMPLE.replace("Dealt to Hero [Td 2s 9s]", "Dealt to Hero [Tc 2s 9s]")
    assert moved != EXAMPLE
    (tmp_path / "y.txt").write_text(other_y)
    texts = [EXAMPLE, moved, moved.replace("#20261202017", "#20261202018")]
    joined = "\n\n\n".join(texts)
    (tmp_path / "batch.txt").write_text(joined)
    line = joined[: len(EXAMPLE) + 3].count("\n") + 1  # the second hand's first line
    for batch in (50_000, 1):
        monkeypatch.setattr("studeval.db._import.BATCH", batch)
        database = db.connect(tmp_path / f"b{batch}.duckdb")
        database.import_histories(tmp_path / "y.txt")
        with pytest.raises(ConflictingHandError) as raised:
            database.import_histories(tmp_path / "batch.txt", errors="raise")
        assert (raised.value.hand_id, raised.value.line) == ("20261202017", line), batch
    rounds = []
    real = _store._store_round
    monkeypatch.setattr(_store, "_store_round", lambda *a: rounds.append(1) or real(*a))
    monkeypatch.setattr("studeval.db._import.BATCH", 50_000)
    (tmp_path / "many.txt").write_text("\n\n\n".join([EXAMPLE] * 300 + [moved]))
    report = db.connect().import_histories(tmp_path / "many.txt")
    assert (report.hands, report.duplicates, report.refused) == (1, 299, 1)
    assert len(rounds) == 2  # the 300 copies that know the same cards, then the other


def test_other_hands_under_one_number_are_compared_in_one_round(
        tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    # A room that numbers each table's hands from 1: other hands under one number,
    # each with cards of its own, had had a round of their own each (a minute a
    # thousand); they are another hand than the first whatever a copy gave it.
    from studeval.db import _store

    rng = random.Random(7)
    texts = [pokerstars.write(random_hand("razz", 3, rng=rng, stack=200),
                              Table(names=["Ann", "Bo", "Cy"], hand_id=1))
             for _ in range(60)]  # fmt: skip
    assert len(set(texts)) == 60
    (tmp_path / "table.txt").write_text("\n\n\n".join(texts))
    rounds = []
    real = _store._store_round
    monkeypatch.setattr(_store, "_store_round", lambda *a: rounds.append(1) or real(*a))
    report = db.connect().import_histories(tmp_path / "table.txt")
    assert report.hands == 1 and report.hands + report.duplicates + report.refused == 60
    assert report.refused >= 55  # (a hand whose nets and stacks are the first's: a copy)
    assert len(rounds) <= 2
