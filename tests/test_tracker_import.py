"""A tracker's import of a folder of exports: every file and hand read or reported,
never passed over and never aborting the rest; other games counted apart; a hand
counted once; money never mixed."""

from __future__ import annotations

import csv
import io
import os
import pickle
import re
import warnings
from pathlib import Path

import pytest
from helpers import example

from studeval.cli import main
from studeval.histories import (
    EXAMPLE,
    DuplicateHandError,
    DuplicateHandsWarning,
    History,
    HistoryError,
    NotAHistoryError,
    NotStudError,
    SeenHands,
    UnreadableFileError,
    read,
)

#: The rooms' example hands (tests/data/histories).
IPOKER_EXAMPLE = example("ipoker.xml")
MERGE_EXAMPLE = example("merge.xml")

HEADER = "PokerStars Game #20261202017:  Razz Limit ($0.04/$0.08 USD) - 2026/12/02 10:24:42 ET"


def stars(hand_id: str, game: str = "Razz Limit", stakes: str = "($0.04/$0.08 USD)") -> str:
    """The PokerStars example with another hand id, game or stakes."""
    header = f"PokerStars Game #{hand_id}:  {game} {stakes} - 2026/12/02 10:24:42 ET"
    return EXAMPLE.replace(HEADER, header)


def home_game(hand_id: str) -> str:
    """A Home Game hand of an 8-Game tournament, as PokerStars writes its header."""
    header = (f"PokerStars Home Game Hand #{hand_id}: {{Dazzle's Room}} Tournament #7431, "
              "100+9 8-Game (Razz Limit) - Level I (4/8) - 2026/12/02 10:24:42 ET")  # fmt: skip
    text = EXAMPLE.replace(HEADER, header)
    # Tournament chips: each cent of the example a chip.
    return re.sub(r"\$(\d+)\.(\d\d)", lambda m: str(int(m[1]) * 100 + int(m[2])), text)


def statuses(found: list[History | HistoryError]) -> list[str]:
    return ["read" if isinstance(item, History) else item.status for item in found]


def test_home_game_hands_are_read_as_pokerstars_hands() -> None:
    found = list(read(home_game("99632234066") + "\n\n" + home_game("99632234067")))
    assert [h.hand_id for h in found] == ["99632234066", "99632234067"]
    assert {h.site for h in found} == {"PokerStars"} and found[0].game == "razz"
    assert found[0].tournament == "7431" and found[0].currency is None


def test_a_text_of_no_known_room_is_reported_never_passed_over(tmp_path: Path) -> None:
    # A room studeval does not read (the wording of none of ROOMS).
    other_room = "Hand #45 - 2020-10-14 20:01:02\nGame: 7 Card Stud ($44 - $88) - Table Ivory\n"
    (tmp_path / "other_room.txt").write_text(other_room)
    (tmp_path / "README.txt").write_text("Exports from three rooms.\n")
    (tmp_path / "stars.txt").write_text(EXAMPLE)
    (tmp_path / "empty.txt").write_text("")
    found = list(read(tmp_path, errors="collect"))
    assert statuses(found) == ["not a history", "not a history", "not a history", "read"]
    first = found[0]
    assert isinstance(first, NotAHistoryError) and isinstance(first, ValueError)
    assert str(first).startswith(f"{tmp_path / 'README.txt'}: not a hand history studeval reads")
    assert "PokerStars" in str(first) and "or PHH" in str(first)
    assert "empty" in str(found[1])
    with pytest.raises(NotAHistoryError, match=r"README\.txt"):
        list(read(tmp_path))  # errors="raise": the first report is raised
    phh = read('variant = "F7S"\nante_trimming_status = false\n', errors="collect")
    assert "studeval.phh reads it" in str(next(phh))


def test_other_games_of_mixed_files_are_their_own_kind() -> None:
    text = "\n\n".join([stars("1", "HORSE (Hold'em Limit)"), stars("2"), stars("3", "Omaha")])
    found = list(read(text, errors="collect"))
    assert statuses(found) == ["not stud", "read", "not stud"]
    other = found[0]
    assert isinstance(other, NotStudError) and other.game.startswith("HORSE (Hold'em Limit)")
    assert other.kind == "not a fixed-limit seven-card stud game: Hold'em Limit"


def test_a_hold_em_hand_run_twice_is_not_stud_and_no_more() -> None:
    # A hold'em hand's summary run twice writes its boards: summary lines, not text
    # after the hand (which had been reported besides the "not stud").
    run_twice = stars("1", "8-Game (Hold'em No Limit)").replace(
        "*** SUMMARY ***\n", "*** SUMMARY ***\nHand was run twice\nFIRST Board [2c 3d 4h 5s 6c]\n"
        "SECOND Board [Kc Kd Kh 9s 8c]\n")  # fmt: skip
    found = list(read(run_twice + "\n\n" + stars("2"), errors="collect"))
    assert statuses(found) == ["not stud", "read"]


def test_a_hand_is_counted_once_by_room_and_hand_id(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text(EXAMPLE)
    (tmp_path / "b.txt").write_text(stars("8") + "\n\n" + EXAMPLE)
    found = list(read(tmp_path, errors="collect"))
    assert statuses(found) == ["read", "read", "duplicate"]
    copy = found[2]
    assert isinstance(copy, DuplicateHandError) and copy.source == str(tmp_path / "b.txt")
    assert copy.first == f"{tmp_path / 'a.txt'} line 1"
    with pytest.warns(DuplicateHandsWarning, match="1 duplicate hand dropped"):
        assert [h.hand_id for h in read(tmp_path)] == ["20261202017", "8"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert len(list(read(tmp_path, duplicates="keep"))) == 3
    seen = SeenHands()  # across calls
    assert statuses([*read(tmp_path / "a.txt", duplicates=seen, errors="collect"),
                     *read(tmp_path / "b.txt", duplicates=seen, errors="collect")]) == [
        "read", "read", "duplicate"]  # fmt: skip


def test_files_that_cannot_be_read_are_named_and_the_rest_read(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text(EXAMPLE)
    os.mkfifo(tmp_path / "b.fifo")  # read whole, it would wait for a writer for ever
    (tmp_path / "c.txt").symlink_to(tmp_path / "gone.txt")
    (tmp_path / "d.txt").symlink_to("/proc/self/mem")  # reading it fails with EIO
    (tmp_path / "e.txt").write_text(stars("9"))
    (tmp_path / "f.txt").symlink_to(tmp_path / "f.txt")  # a loop: not "a link to nothing"
    found = list(read(tmp_path, errors="collect"))
    assert statuses(found) == ["read", "unreadable", "unreadable", "unreadable", "read",
                               "unreadable"]  # fmt: skip
    assert "not a regular file" in str(found[1]) and "a link to nothing" in str(found[2])
    assert "cannot read the file" in str(found[3]) and isinstance(found[3], UnreadableFileError)
    assert str(found[5]).endswith("f.txt: a link in a loop of links: not read")
    with pytest.raises(HistoryError, match="not a regular file"):
        list(read(tmp_path / "b.fifo"))


def test_a_text_without_a_line_feed_is_a_text_not_a_path() -> None:
    for text in (EXAMPLE.replace("\n", "\r"), IPOKER_EXAMPLE.replace("\n", "")):
        assert statuses(list(read(text, errors="collect"))) == ["read"]
    with pytest.raises(HistoryError, match=r"cannot read|no such file"):
        list(read("A" * 300))  # a name too long for the system: an error of ours


def test_utf16_without_a_byte_order_mark_is_read() -> None:
    for codec in ("utf-16-le", "utf-16-be"):
        assert [h.hand_id for h in read(EXAMPLE.encode(codec))] == ["20261202017"]


def test_two_rooms_in_one_file_are_both_read() -> None:
    for first, then in ((EXAMPLE, IPOKER_EXAMPLE), (EXAMPLE, MERGE_EXAMPLE),
                        (IPOKER_EXAMPLE, EXAMPLE)):  # fmt: skip
        rooms = [next(read(first)).site, next(read(then)).site]
        assert [h.site for h in read(first + "\n" + then)] == rooms
    second = IPOKER_EXAMPLE.replace('gamecode="100"', 'gamecode="101"')
    assert len(list(read(IPOKER_EXAMPLE + "\n" + second))) == 2  # two sessions appended


def test_history_errors_cross_processes_whole() -> None:
    error = NotStudError("Limit Hold'em", site="PokerStars", hand_id="3", line=9, source="a")
    back = pickle.loads(pickle.dumps(error))
    assert type(back) is NotStudError and str(back) == str(error)
    assert (back.game, back.line, back.kind) == (error.game, 9, error.kind)


def _folder(tmp_path: Path) -> Path:
    """Dollars, euros, tournament chips, a copy, a hold'em hand and a README."""
    folder = tmp_path / "exports"
    folder.mkdir()
    (folder / "usd.txt").write_text(EXAMPLE + "\n\n" + stars("2", "Hold'em Limit"))
    (folder / "usd-copy.txt").write_text(EXAMPLE)
    (folder / "eur.txt").write_text(stars("3", stakes="(€0.04/€0.08 EUR)").replace("$", "€"))
    (folder / "tour.txt").write_text(home_game("4"))
    (folder / "README.txt").write_text("Three rooms' exports.\n")
    return folder


def test_analyze_many_analyses_the_rest_and_reports_what_it_refused(tmp_path: Path) -> None:
    pytest.importorskip("pandas")
    from studeval.tracker import analyze_many, money_of

    folder = _folder(tmp_path)
    bad = stars("5").replace("calls $0.02", "calls $0.03", 1)
    (folder / "bad.txt").write_text(bad)
    frame = analyze_many(folder, player="DarioZ", client=False)
    assert sorted(frame["hand_id"]) == ["20261202017", "3", "4"]  # once each
    by_money = frame.groupby(frame.apply(money_of, axis=1))["net"].sum()
    assert by_money.to_dict() == pytest.approx({"USD": 0.24, "EUR": 0.24, "tournament chips": 24})
    refused = frame.attrs["refused"]
    assert sorted(refused["status"]) == ["duplicate", "not a history", "not stud", "refused"]
    row = refused[refused["status"] == "refused"].iloc[0]
    assert row["hand_id"] == "5" and "calls 0.03" in row["reason"]
    assert set(frame["currency"].dropna()) == {"USD", "EUR"}
    assert frame[frame["hand_id"] == "4"]["tournament"].tolist() == ["7431"]
    with pytest.raises(HistoryError):
        analyze_many(folder, client=False, errors="raise")
    from studeval.errors import OptionError

    with pytest.raises(OptionError, match="errors must be"):
        analyze_many(folder, errors="ignore")
    with pytest.raises(OptionError, match="method must be"):
        analyze_many([], method="bogus")
    with pytest.raises(OptionError, match="client must be"):
        analyze_many(folder, client=5)
    # A path among hands: named by its place, not taken for a hand it is not.
    hand = next(read(stars("6")))
    with pytest.raises(OptionError, match=r"hands \(StudHand or History objects\), or paths "
                                          r"alone; item 1 is a PosixPath"):  # fmt: skip
        analyze_many([hand, folder / "bad.txt"])


def test_the_cli_counts_other_games_duplicates_and_files_apart(capsys, tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    status = main(["replay", str(folder)])
    err = capsys.readouterr().err
    assert status == 0  # every stud hand replayed
    assert "studeval: 3 hands replayed, 0 refused" in err
    assert "studeval: skipped, not fixed-limit seven-card stud: 1 (Hold'em Limit 1)" in err
    assert "studeval: duplicates dropped (a hand already read, by room and hand id): 1" in err
    assert f"studeval: files with no hand history: 1 ({folder / 'README.txt'})" in err
    assert main(["replay", str(folder / "README.txt")]) == 2  # nothing read at all


def test_analyze_never_adds_up_different_money(capsys, tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    assert main(["analyze", str(folder), "--player", "DarioZ"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[1] for line in lines[1:]] == ["EUR", "USD", "tournament"]
    assert main(["analyze", str(folder), "--format", "csv", "--player", "DarioZ"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert {(r["hand_id"], r["currency"], r["tournament"]) for r in rows} == {
        ("20261202017", "USD", ""), ("3", "EUR", ""), ("4", "", "7431")}  # fmt: skip
    assert rows[0]["played_at"].startswith("2026-12-02T10:24:42")


def test_analyze_draws_one_graph_a_money_and_refuses_an_unknown_player(capsys, tmp_path):
    pytest.importorskip("matplotlib")
    folder = _folder(tmp_path)
    graph = tmp_path / "graph.png"
    assert main(["analyze", str(folder), "--player", "DarioZ", "--plot", str(graph)]) == 0
    assert "never added together" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.glob("graph*")) == [
        "graph-EUR.png", "graph-USD.png", "graph-tournament-chips.png"]  # fmt: skip
    assert (
        main(["analyze", str(folder), "--player", "Nobody", "--plot", str(tmp_path / "n.png")]) == 2
    )
    assert "'Nobody' played none of the 3 hands read" in capsys.readouterr().err
    assert not (tmp_path / "n.png").exists()


def test_analyze_refuses_a_graph_name_it_cannot_write_before_reading(capsys, tmp_path):
    # A name of a kind matplotlib does not write had ended in its traceback after the
    # table (exit 1); a folder had been given a hidden ".png" file, and a name with
    # no kind of image a ".png" added, neither said.
    pytest.importorskip("matplotlib")
    folder = _folder(tmp_path)
    (tmp_path / "plots").mkdir()
    for name, words in (("graph.txt", "matplotlib writes no .txt file"),
                        ("plots", "a folder; name the graph's file"),
                        (f"plots{os.sep}", "a folder; name the graph's file"),
                        ("graph", "name the graph's file with its kind of image"),
                        (".png", "name the graph's file with its kind of image"),
                        (f"nowhere{os.sep}g.png", "g.png: no such folder")):  # fmt: skip
        assert main(["analyze", str(folder), "--player", "DarioZ", "--plot",
                     str(tmp_path / name)]) == 2, name  # fmt: skip
        captured = capsys.readouterr()
        assert words in captured.err and "Traceback" not in captured.err, name
        assert captured.out == "", name  # refused before any hand was read
    assert sorted(p.name for p in tmp_path.rglob("*") if p.is_file() and p.suffix != ".txt"
                  and p.parent.name != folder.name) == []  # fmt: skip
    assert main(["analyze", str(folder), "--player", "DarioZ", "--plot",
                 str(tmp_path / "graph.SVG")]) == 0  # fmt: skip


def test_graph_order_is_the_order_played() -> None:
    import datetime

    from studeval.cli.analyze import _when

    late = {"played_at": datetime.datetime(2026, 1, 2, tzinfo=datetime.timezone.utc)}
    early = {"played_at": datetime.datetime(2026, 1, 1)}
    unknown = {"played_at": None}
    assert sorted([unknown, late, early], key=_when) == [early, late, unknown]


def test_a_large_file_is_read_in_parts_as_it_would_be_whole(tmp_path: Path, monkeypatch) -> None:
    from studeval.histories import _files

    hands = [stars(str(n)) for n in range(1, 41)]
    path = tmp_path / "big.txt"
    path.write_text("\n\n".join(hands).replace("alba_k", "albà_k"), encoding="utf-8")
    whole = [(h.hand_id, h.line, h.players[0].name) for h in read(path)]
    cuts: list[int] = []
    real_cut = _files._cut

    def counted(blocks, starts):  # type: ignore[no-untyped-def]
        for part, line in real_cut(blocks, starts):
            cuts.append(line)
            yield part, line

    monkeypatch.setattr(_files, "WHOLE_BELOW", 0)
    monkeypatch.setattr(_files, "BLOCK", 1000)  # blocks end inside hands and characters
    monkeypatch.setattr(_files, "_cut", counted)
    assert [(h.hand_id, h.line, h.players[0].name) for h in read(path)] == whole
    assert len(whole) == 40 and len(cuts) > 10  # it was read in parts
    path.write_bytes("\n\n".join(hands).replace("alba_k", "albà_k").encode("cp1252"))
    assert [h.players[0].name for h in read(path)] == ["albà_k"] * 40


@pytest.mark.parametrize("in_parts", [False, True])
def test_a_utf16_files_stray_last_byte_is_white_space_if_a_line_end_else_reported(
        tmp_path: Path, monkeypatch, in_parts: bool) -> None:  # fmt: skip
    """A text tool that knows no UTF-16 appends its own 8-bit line end: white space.
    Any other stray byte is read as U+FFFD, reported outside every hand, with a
    byte-order mark or without, whole or in blocks (it had been read into the last
    hand and passed over, or dropped)."""
    from studeval.histories import OutsideHandsError, _files

    if in_parts:
        monkeypatch.setattr(_files, "WHOLE_BELOW", 0)
        monkeypatch.setattr(_files, "BLOCK", 999)
    hands = "\n\n".join(stars(str(n)) for n in (1, 2))
    for text in (hands.encode("utf-16"), hands.encode("utf-16-le"), hands.encode("utf-16-be")):
        for stray, outside in ((b"\n", 0), (b"\r", 0), (b"\r\n", 0), (b"x", 1), (b"\0", 1)):
            path = tmp_path / "hands.txt"
            path.write_bytes(text + stray)
            read_back = list(read(path, errors="collect"))
            assert [h.hand_id for h in read_back if not isinstance(h, Exception)] == ["1", "2"]
            reported = [h for h in read_back if isinstance(h, OutsideHandsError)]
            assert len(reported) == outside and all("\ufffd" in str(r) for r in reported)


@pytest.mark.parametrize("in_parts", [False, True])
def test_a_hand_of_code_page_1252_pasted_into_a_utf8_file_keeps_every_hand(
        tmp_path: Path, monkeypatch, in_parts: bool) -> None:  # fmt: skip
    """A UTF-8 file of euro hands with one hand saved in code page 1252 among them:
    each hand is read in its own encoding. The whole file had been read as code page
    1252, the UTF-8 hands' ``€`` becoming three characters and every one of them refused."""
    from studeval.histories import _files

    def euro(hand_id: str) -> str:
        return stars(hand_id).replace("$", "€").replace(" USD", " EUR").replace("alba_k", "albà_k")

    utf8 = [euro(str(n)).encode() for n in (1, 2, 4, 5)]
    pasted = euro("3").encode("cp1252")
    assert b"\x80" in pasted and "€".encode() in utf8[0]  # each keeps its own bytes
    path = tmp_path / "mixed.txt"
    path.write_bytes(b"\n\n".join([*utf8[:2], pasted, *utf8[2:]]))
    if in_parts:
        monkeypatch.setattr(_files, "WHOLE_BELOW", 0)
        monkeypatch.setattr(_files, "BLOCK", 701)  # blocks end inside hands and characters
    read_back = list(read(path, errors="collect"))
    assert [getattr(h, "hand_id", h) for h in read_back] == ["1", "2", "3", "4", "5"]
    assert {h.currency for h in read_back} == {"EUR"}  # type: ignore[union-attr]
    assert {h.players[0].name for h in read_back} == {"albà_k"}  # type: ignore[union-attr]


@pytest.mark.parametrize("longest", [None, 2500])
def test_a_large_files_lines_before_its_first_hand_are_reported_as_whole(
        tmp_path: Path, monkeypatch, longest: int | None) -> None:  # fmt: skip
    """A heading before the first hand is said however the file is cut: it had been a
    part of its own, with no hand to report it, when the first block held one start
    only; longer than a part (``longest``), it is its own part, reported too."""
    import re

    from studeval.histories import OutsideHandsError, _files

    heading = "".join(f"note {n}: exported by a tracker\n" for n in range(1, 201))
    path = tmp_path / "big.txt"
    path.write_text(heading + "\n\n".join(stars(str(n)) for n in range(1, 4)))
    whole = [(type(h).__name__, h.line) for h in read(path, errors="collect")]
    assert whole == [("OutsideHandsError", 1), ("History", 201), ("History", 257),
                     ("History", 313)]  # fmt: skip
    monkeypatch.setattr(_files, "WHOLE_BELOW", 0)
    # The first hand starts in the first block, or (longest) after parts of text alone.
    monkeypatch.setattr(_files, "BLOCK", 7000 if longest is None else 1000)
    if longest is not None:
        monkeypatch.setattr(_files, "LONGEST_PART", longest)
    found = list(read(path, errors="collect"))
    assert [h.hand_id for h in found if not isinstance(h, OutsideHandsError)] == ["1", "2", "3"]
    outside = [h for h in found if isinstance(h, OutsideHandsError)]
    assert outside and outside[0].line == 1
    lines = [int(re.search(r"(\d+) lines? outside", str(h)).group(1)) for h in outside]  # type: ignore[union-attr]
    assert sum(lines) == 200  # every line of the heading, once
    assert len(outside) == (1 if longest is None else 3)


def test_a_hand_and_its_phh_conversion_count_once(capsys, tmp_path: Path) -> None:
    """The room's text and the PHH record written from it are one hand (the record
    names its venue and hand), so a folder holding both counts it once."""
    pytest.importorskip("pandas")
    from studeval.tracker import analyze_many

    (tmp_path / "stars.txt").write_text(EXAMPLE)
    history = next(read(EXAMPLE))
    (tmp_path / "stars.phh").write_text(history.to_phh())
    frame = analyze_many(tmp_path, player="DarioZ", client=False)
    assert frame["hand_id"].tolist() == ["20261202017"] and frame["net"].tolist() == [0.24]
    assert frame.attrs["refused"]["status"].tolist() == ["duplicate"]
    assert main(["analyze", str(tmp_path), "--player", "DarioZ"]) == 0
    out, err = capsys.readouterr()
    assert "studeval: 1 hand analysed, 0 refused" in err and "duplicates dropped" in err
    assert out.splitlines()[1].split()[:3] == ["DarioZ", "USD", "1"]


def test_the_collector_pauses_for_a_bulk_read_and_comes_back(tmp_path: Path) -> None:
    """The cyclic collector waits while files are read (their rows are all kept), and
    runs again afterwards: after an error too, after readers in threads, and never
    where the program had turned it off."""
    import gc
    import threading

    from studeval._collection import collection_paused
    from studeval.db import connect
    from studeval.tracker import analyze_many

    (tmp_path / "stars.txt").write_text(EXAMPLE)
    during: list[bool] = []
    with connect() as database:
        database.import_histories(tmp_path, on_file=lambda name: during.append(gc.isenabled()))
    assert during == [False] and gc.isenabled()
    assert len(analyze_many([str(tmp_path / "stars.txt")])) > 0 and gc.isenabled()
    with pytest.raises(NotAHistoryError):
        (tmp_path / "notes.txt").write_text("no hands here\n")
        analyze_many([str(tmp_path / "notes.txt")], errors="raise")
    assert gc.isenabled()
    # Two readers in threads, the first leaving while the second still reads.
    inside, leave = threading.Event(), threading.Event()

    def read() -> None:
        with collection_paused():
            inside.set()
            leave.wait(10)

    reader = threading.Thread(target=read)
    reader.start()
    inside.wait(10)
    with collection_paused():
        pass
    still = gc.isenabled()  # the thread still reads
    leave.set()
    reader.join()
    assert (still, gc.isenabled()) == (False, True)
    gc.disable()
    try:
        analyze_many([str(tmp_path / "stars.txt")])
        assert not gc.isenabled()  # the program's choice, kept
    finally:
        gc.enable()


def test_a_refused_hand_leaves_no_cycle_to_collect(tmp_path: Path) -> None:
    """While the collector is paused, a cycle lives until the read ends: a refusal kept
    with its traceback held the whole file's text in one (1,298 objects for a file
    of 100 hands before the fix). Reading such a file now leaves no cyclic garbage of
    the read's: no frame of studeval's code, none of its objects, no text of the file.
    (Garbage of others is not counted: a library's first import, or a thread an
    earlier test left running, makes its own while the collector is off.)"""
    import gc
    import types

    from studeval.tracker import analyze_many

    hands = [stars(str(20261202100 + i)) for i in range(100)]
    hands[0] = hands[0].replace("*** 3rd STREET ***", "*** 3rd STREEX ***", 1)
    (tmp_path / "a.txt").write_text("\n\n".join(hands))

    def ours(thing: object) -> bool:
        if isinstance(thing, types.FrameType):
            return "studeval" in thing.f_code.co_filename
        if isinstance(thing, types.TracebackType):
            return "studeval" in thing.tb_frame.f_code.co_filename
        if isinstance(thing, str):
            return "20261202100" in thing
        return type(thing).__module__.startswith("studeval")

    gc.collect()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        frame = analyze_many([str(tmp_path / "a.txt")])
        assert list(frame.attrs["refused"].status) == ["refused"]  # the refusal was read
        del frame
        gc.collect()
        found = [thing for thing in gc.garbage if ours(thing)]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()
    assert found == []


@pytest.mark.parametrize("command", ["replay", "analyze", "import"])
def test_a_file_name_holding_control_characters_is_shown_escaped(
    capsys, tmp_path: Path, command: str
) -> None:
    """A file named with an escape sequence and a line end: every command names it
    with those characters written ``\\xNN``, so that a terminal shows the name and
    obeys nothing in it (the escape had turned the rest of the output red, and the
    line end had split the report's line)."""
    from studeval import db

    pytest.importorskip("duckdb")
    folder = tmp_path / "exports"
    folder.mkdir()
    (folder / "ursa.txt").write_text(db.EXAMPLE)
    (folder / "a\x1b[31mred\nnote.txt").write_text("not a hand\n")
    hand = db.EXAMPLE.split("\n\n")[0].replace("#250101001", "#250101009")
    (folder / "b\x07bell.txt").write_text(hand.replace("collected $", "collected $1"))
    arguments = [str(folder)] if command != "import" else [str(tmp_path / "h.duckdb"), str(folder)]
    main([command, *arguments])
    captured = capsys.readouterr()
    shown = captured.out + captured.err
    assert "a\\x1b[31mred\\x0anote.txt" in shown  # the file with no hand history
    assert "b\\x07bell.txt" in shown  # the file whose hand is refused
    assert not re.search("[\x00-\x09\x0b-\x1f\x7f]", shown)


def test_a_missing_or_broken_path_holding_control_characters_is_shown_escaped(
    capsys, tmp_path: Path
) -> None:
    """A file or database that does not exist, or a database file that is no
    database: the error names it with its control characters escaped."""
    pytest.importorskip("duckdb")
    missing = str(tmp_path / "gone\x1b[31m.txt")
    broken = tmp_path / "bad\x1b[31m.duckdb"
    broken.write_text("no database\n")
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "a.txt").write_text("not a hand\n")
    statuses = [main(["import", str(tmp_path / "h.duckdb"), missing]),
                main(["stats", str(tmp_path / "none\x1b[31m.duckdb")]),
                main(["import", str(broken), str(tmp_path / "in")]),
                main(["analyze", missing])]  # fmt: skip
    shown = capsys.readouterr().err
    assert statuses == [2, 2, 2, 2]
    assert "bad\\x1b[31m.duckdb: cannot be opened as a DuckDB database" in shown
    assert shown.count("\\x1b[31m") >= 5  # DuckDB's own message names the file too
    assert "\x1b" not in shown
