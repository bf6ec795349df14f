"""A later copy of a hand (same room and hand id) read by ``read``, ``replay`` and
``analyze``: a duplicate where it is the same hand, another hand (refused, saying how
it differs, as the database says it) where its money, game, results or stacks
differ; and the facts compared are the same whether C read the hand in bulk or
Python made its History."""

from __future__ import annotations

import os
import pathlib
import random
import re
from collections.abc import Callable

import pytest

from studeval.cli import main
from studeval.histories import EXAMPLE, read
from studeval.histories._seen import SeenHands, history_facts
from studeval.histories._sources import load
from studeval.histories._writer import Table
from studeval.histories.rooms import pokerstars
from studeval.play import random_hand

DATA = pathlib.Path(__file__).parent / "data" / "histories"


def _tenfold(text: str) -> str:
    """Every amount ten times larger: the same hand in bigger money."""
    return re.sub(r"\$(\d+)\.(\d\d)", lambda m: f"${int(m[1] + m[2]) / 10:.2f}", text)


CHANGES: list[tuple[Callable[[str], str], str]] = [
    (lambda text: text.replace("Seat 1: alba_k ($1.33 in chips)",
                               "Seat 1: alba_k ($1.93 in chips)"), "with other stacks"),
    (lambda text: text.replace("$", "€").replace(" USD)", " EUR)"), "in other money"),
    (lambda text: text.replace("cleo42", "zed"), "dealt to other players"),
    (_tenfold, "with other results"),  # (the nets compared before the stacks)
]  # fmt: skip


@pytest.mark.parametrize(("change", "how"), CHANGES)
def test_a_copy_that_differs_is_another_hand_for_read_replay_and_analyze(
        tmp_path: pathlib.Path, change: Callable[[str], str], how: str) -> None:  # fmt: skip
    # Only the players had been compared: a copy with other stacks, in another game
    # or in other money was a "duplicate", dropped, where the database refused it.
    first, second = tmp_path / "a.txt", tmp_path / "b.txt"
    first.write_text(EXAMPLE)
    second.write_text(change(EXAMPLE))
    seen = SeenHands()
    found = [f for path in (first, second) for f in read(path, errors="collect",
                                                         duplicates=seen)]  # fmt: skip
    assert [type(f).__name__ for f in found] == ["History", "ConflictingHandError"]
    assert found[1].how == how and found[1].first == f"{first} line 1"  # type: ignore[union-attr]
    # Read in bulk (the commands' way), the same.
    statuses = [(f.status, f.error and f.error.reason) for f in
                load([first, second], SeenHands(), compact=True)]  # fmt: skip
    assert statuses[0] == ("read", None) and statuses[1][0] == "refused"
    assert statuses[1][1].endswith(f"{how}: not read")
    for command in ("replay", "analyze"):
        extra = ["--player", "Hero"] if command == "analyze" else []
        assert main([command, str(first), str(second), *extra]) == 2  # a hand refused


@pytest.mark.parametrize(("change", "how"), CHANGES)
@pytest.mark.parametrize("player", [None, "Hero", "alba_k"])
def test_analyze_many_finds_the_copy_that_is_another_hand_across_files(
        tmp_path: pathlib.Path, change: Callable[[str], str], how: str,
        player: str | None) -> None:  # fmt: skip
    # Files are read each on its own (on Dask workers where large) and their rows
    # joined after: only the players had been compared there.
    pytest.importorskip("pandas")
    from studeval import analyze_many

    (tmp_path / "a.txt").write_text(EXAMPLE)
    (tmp_path / "b.txt").write_text(change(EXAMPLE))
    (tmp_path / "c.txt").write_text(EXAMPLE)  # the same hand: a duplicate
    frame = analyze_many([tmp_path / n for n in ("a.txt", "b.txt", "c.txt")], player=player)
    assert set(frame["source"]) == {str(tmp_path / "a.txt")}
    refused = frame.attrs["refused"]
    assert refused["status"].tolist() == ["refused", "duplicate"]
    assert refused["source"].tolist() == [str(tmp_path / n) for n in ("b.txt", "c.txt")]
    assert refused["reason"][0].endswith(f"{how}: not read")


def _read_both(folder: pathlib.Path, first: str, second: str) -> tuple[list[object], SeenHands]:
    """What ``read`` finds in ``first`` then ``second`` (written to a.txt and b.txt),
    counting hands once across both."""
    (folder / "a.txt").write_text(first)
    (folder / "b.txt").write_text(second)
    seen = SeenHands()
    found = [f for name in ("a.txt", "b.txt")
             for f in read(folder / name, errors="collect", duplicates=seen)]  # fmt: skip
    return found, seen


def test_a_copy_in_another_game_is_another_hand(tmp_path: pathlib.Path) -> None:
    text = next(t for t in _random_texts(40).split("\n\n\n") if "7 Card Stud Limit" in t)
    found, _ = _read_both(tmp_path, text,
                          text.replace("7 Card Stud Limit", "7 Card Stud Hi/Lo Limit"))  # fmt: skip
    assert [type(f).__name__ for f in found] == ["History", "ConflictingHandError"]
    assert found[1].how == "in another game"  # type: ignore[union-attr]


def test_a_copy_that_cannot_be_replayed_is_refused_for_its_reason(tmp_path: pathlib.Path) -> None:
    # In stud the lowest door card brings in, not razz's highest: this copy cannot be
    # the hand. It had been dropped as a duplicate, its fault never said.
    found, seen = _read_both(tmp_path, EXAMPLE, EXAMPLE.replace("Razz Limit", "7 Card Stud Limit"))
    assert [type(f).__name__ for f in found] == ["History", "HistoryError"]
    assert found[1].status == "refused" and "bring_ins, but" in found[1].reason  # type: ignore[union-attr]
    assert seen.dropped == 0


def test_the_same_hand_again_is_a_duplicate(tmp_path: pathlib.Path, capsys) -> None:
    (tmp_path / "a.txt").write_text(EXAMPLE)
    (tmp_path / "b.txt").write_text(EXAMPLE)
    # Another hand's text with the copy's own line ends and a blank line more: the
    # same facts.
    (tmp_path / "c.txt").write_text("\n" + EXAMPLE.replace("\n", "\r\n"))
    files = [tmp_path / n for n in ("a.txt", "b.txt", "c.txt")]
    seen = SeenHands()
    found = [f for path in files for f in read(path, errors="collect", duplicates=seen)]
    assert [type(f).__name__ for f in found] == ["History", "DuplicateHandError",
                                                 "DuplicateHandError"]  # fmt: skip
    assert main(["replay", *map(str, files)]) == 0
    assert "duplicates dropped (a hand already read, by room and hand id): 2" in (
        capsys.readouterr().err)  # fmt: skip


def _random_texts(count: int) -> str:
    """PokerStars text of random hands of every game, some all in (read as Histories
    in bulk too), stacks with cents."""
    rng = random.Random(5)
    texts = []
    for number in range(count):
        seats = rng.randint(2, 8)
        hand = random_hand(rng.choice(["stud", "stud8", "razz"]), seats, rng=rng,
                           stack=rng.choice([40, 200, 1000]))  # fmt: skip
        table = Table(names=[f"P{rng.randrange(50)}_{s}" for s in range(seats)],
                      hand_id=number + 1)  # fmt: skip
        texts.append(pokerstars.write(hand, table))
    return "\n\n\n".join(texts)


def test_facts_read_in_bulk_are_the_facts_of_the_history(tmp_path: pathlib.Path) -> None:
    # A copy read in C in bulk is compared with a first copy read as a History (or
    # the reverse): both must give a hand the same facts, else a true copy would be
    # "another hand".
    (tmp_path / "random.txt").write_text(_random_texts(300))
    (tmp_path / "example.txt").write_text(EXAMPLE)
    files = [tmp_path / "random.txt", tmp_path / "example.txt", *sorted(DATA.glob("*.txt"))]
    histories = {(h.site, h.hand_id): history_facts(h) for path in files
                 for h in read(path, errors="collect") if hasattr(h, "hand")}  # fmt: skip
    compared = 0
    for loaded in load(files, None, compact=True):
        if loaded.compact is None:
            continue
        batch = loaded.compact
        ids = batch.key_columns()[0]
        for hand_id, facts in zip(ids, batch.facts(), strict=True):
            assert facts is not None and facts == histories[batch.site, hand_id], hand_id
            compared += 1
    assert compared >= 250  # (the all-in hands are Histories on both sides)
    rooms = {site for site, _ in histories}
    assert {"PokerStars", "Bovada"} <= rooms


def test_facts_are_the_same_in_every_process() -> None:
    # Dask workers started without a nanny each have their own string hash seed:
    # digests from hash(name) had made every copy read on another worker "another
    # hand, with other results".
    import subprocess
    import sys

    code = ("from studeval.histories import EXAMPLE, read\n"
            "from studeval.histories._seen import history_facts\n"
            "print(history_facts(next(read(EXAMPLE))))")  # fmt: skip
    printed = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              env={**os.environ, "PYTHONHASHSEED": seed},
                              check=True).stdout for seed in ("1", "2", "random")}  # fmt: skip
    assert len(printed) == 1 and "'razz'" in printed.pop()


def test_a_phh_record_of_a_hand_is_compared_by_its_facts_too(tmp_path: pathlib.Path) -> None:
    # A PHH record under a room's hand id had been compared by its players alone: one
    # with other stacks or money was a "duplicate" where the database refused it.
    pytest.importorskip("pandas")
    from studeval import analyze_many, phh

    record = phh.dumps(next(iter(read(EXAMPLE))).hand)  # type: ignore[union-attr]
    (tmp_path / "stars.txt").write_text(EXAMPLE)
    copies = {
        "same": (record, "duplicate"),
        "stacks": (record.replace("starting_stacks = [133,", "starting_stacks = [193,").replace(
            "finishing_stacks = [130,", "finishing_stacks = [190,"), "with other stacks"),
        "money": (record.replace('currency = "USD"', 'currency = "EUR"'), "in other money"),
    }  # fmt: skip
    for name, (text, how) in copies.items():
        assert text != record or name == "same"
        (tmp_path / f"{name}.phh").write_text(text)
        for order in ((tmp_path / "stars.txt", tmp_path / f"{name}.phh"),
                      (tmp_path / f"{name}.phh", tmp_path / "stars.txt")):  # fmt: skip
            loaded = list(load(list(order), SeenHands(), compact=True))
            later = loaded[1].error
            assert later is not None
            assert (later.status == "duplicate") == (how == "duplicate")
            assert how == "duplicate" or f"{how}: not read" in later.reason
            refused = analyze_many(list(order)).attrs["refused"]
            assert refused["status"].tolist() == [later.status]


def test_analyze_many_of_hands_counts_a_hand_given_twice_once() -> None:
    # Hands given (not files) had each been analysed, a copy's net counted twice.
    pytest.importorskip("pandas")
    from studeval import analyze_many
    from studeval.play import random_hand

    hand = next(iter(read(EXAMPLE)))
    other = next(iter(read(_tenfold(EXAMPLE))))  # another hand under the same number
    frame = analyze_many([hand, hand, other])
    alone = analyze_many([hand])
    assert frame["net"].tolist() == alone["net"].tolist() and len(alone) == 5
    refused = frame.attrs["refused"]
    assert refused["source"].tolist() == ["hand 1", "hand 2"]
    assert refused["status"].tolist() == ["duplicate", "refused"]
    assert refused["reason"][1].endswith("from hand 0, with other results: not read")
    # Hands with no room's number are known by a digest of their play, as the
    # database stores them: the same hand given twice is analysed once.
    played, again = random_hand("stud", 2, seed=1), random_hand("stud", 2, seed=2)
    assert len(analyze_many([played, again, played])) == 4


def test_a_later_copy_refused_as_it_is_read_is_refused_for_its_reason(
        tmp_path: pathlib.Path) -> None:  # fmt: skip
    # A line the reader does not know: the copy had been a "duplicate" for the
    # readers (the database refused it for its reason).
    broken = EXAMPLE.replace("cleo42: calls $0.02\n", "cleo42: calls $0.02\ncleo42: dances\n", 1)
    assert broken != EXAMPLE
    found, seen = _read_both(tmp_path, EXAMPLE, broken)
    assert [type(f).__name__ for f in found] == ["History", "HistoryError"]
    assert "does not know: 'cleo42: dances'" in found[1].reason  # type: ignore[attr-defined]
    assert seen.dropped == 0
    loaded = list(load([tmp_path / "a.txt", tmp_path / "b.txt"], SeenHands(), compact=True))
    assert [f.status for f in loaded] == ["read", "refused"]


@pytest.mark.parametrize("copy_first", [False, True])
def test_analyze_many_for_a_player_in_one_copy_only_finds_the_other_hand(
        tmp_path: pathlib.Path, copy_first: bool) -> None:  # fmt: skip
    # The copy deals Zed where the hand dealt cleo42: with player="cleo42" the copy
    # has no rows, and only the rows had been compared (nothing reported; with the
    # copy first, cleo42's row of the hand the database refuses was kept).
    pytest.importorskip("pandas")
    from studeval import analyze_many

    texts = [EXAMPLE, EXAMPLE.replace("cleo42", "Zed")]
    if copy_first:
        texts.reverse()
    paths = [tmp_path / "a.txt", tmp_path / "b.txt"]
    for path, text in zip(paths, texts, strict=True):
        path.write_text(text)
    everyone = analyze_many(paths)
    frame = analyze_many(paths, player="cleo42")
    assert frame["hand_id"].tolist() == ([] if copy_first else ["20261202017"])
    for result in (everyone, frame):
        refused = result.attrs["refused"]
        assert refused["source"].tolist() == [str(paths[1])]
        assert refused["reason"][0].endswith("dealt to other players: not read")
    hands = [next(iter(read(text))) for text in texts]
    assert len(analyze_many(hands, player="cleo42").attrs["refused"]) == 1


def test_a_phh_record_naming_no_players_is_dealt_to_other_players(
        tmp_path: pathlib.Path) -> None:  # fmt: skip
    # Its players are "Seat 0"... (as the database and analyze_many name them): the
    # readers had compared nothing, and called it a duplicate whatever its stacks.
    from studeval import phh

    record = phh.dumps(next(iter(read(EXAMPLE))).hand)  # type: ignore[union-attr]
    unnamed = "\n".join(line for line in record.splitlines() if not line.startswith("players"))
    assert unnamed != record
    (tmp_path / "stars.txt").write_text(EXAMPLE)
    (tmp_path / "record.phh").write_text(unnamed)
    loaded = list(load([tmp_path / "stars.txt", tmp_path / "record.phh"], SeenHands(),
                       compact=True))  # fmt: skip
    later = loaded[1].error
    assert later is not None and later.reason.endswith("dealt to other players: not read")


@pytest.mark.parametrize("holdem_first", [True, False])
def test_a_hand_of_another_game_claims_no_number_from_a_stud_hand(
        tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str],
        holdem_first: bool) -> None:  # fmt: skip
    # A hold'em hand under a stud hand's number, read first, had made the stud hand a
    # "duplicate", lost by read, replay, analyze and analyze_many (not by the
    # database); read second, it was a "duplicate" where the others say "not stud".
    from studeval import db
    from studeval.tracker import analyze_many

    holdem = EXAMPLE.replace("Razz Limit ($0.04/$0.08 USD)",
                             "HORSE (Hold'em Limit, $0.04/$0.08 USD)")  # fmt: skip
    assert holdem != EXAMPLE
    texts = [holdem, EXAMPLE] if holdem_first else [EXAMPLE, holdem]
    one = tmp_path / "one.txt"
    one.write_text("\n\n".join(texts))
    folder = tmp_path / "files"
    folder.mkdir()
    for name, text in zip(("a.txt", "b.txt"), texts, strict=True):
        (folder / name).write_text(text)
    for source in (one, folder):
        found = list(read(source, errors="collect"))
        statuses = sorted(getattr(f, "status", "read") for f in found)
        assert statuses == ["not stud", "read"], (source, statuses)
        frame = analyze_many(source, client=False)
        assert sorted(set(frame["hand_id"])) == ["20261202017"]
        assert sorted(frame.attrs["refused"]["status"]) == ["not stud"]
        report = db.connect().import_histories([source])
        assert (report.hands, report.duplicates, dict(report.statuses)) == (
            1, 0, {"not stud": 1})  # fmt: skip
        assert main(["analyze", str(source)]) == 0
        err = capsys.readouterr().err
        assert "1 hand analysed" in err and "duplicate" not in err, err


@pytest.mark.parametrize("conflict_first", [True, False])
def test_analyze_many_raising_raises_the_first_fault_of_the_files_copies_included(
        tmp_path: pathlib.Path, conflict_first: bool) -> None:  # fmt: skip
    # errors="raise" had raised a file's own refusal but never a copy across files
    # that is another hand (only a row of the refusals); and a file's own refusal
    # after such a copy was raised in its place.
    from studeval.histories import HistoryError
    from studeval.histories._record import ConflictingHandError
    from studeval.tracker import analyze_many

    distributed = pytest.importorskip("distributed")
    other = _tenfold(EXAMPLE)  # the same number, other results
    damaged = EXAMPLE.replace("#20261202017", "#20261202099").replace(
        "DarioZ: calls $0.02", "DarioZ: calls $0.03")  # fmt: skip
    assert other != EXAMPLE and damaged.count("#20261202099") == 1 and "calls $0.03" in damaged
    (tmp_path / "a.txt").write_text(EXAMPLE)
    (tmp_path / "b.txt").write_text("\n\n".join([other, damaged] if conflict_first
                                                else [damaged, other]))  # fmt: skip
    expected = ConflictingHandError if conflict_first else HistoryError
    # (a copy's line: its first; a refusal's: the line at fault)
    line = 1 if conflict_first else 1 + EXAMPLE.split("\n").index("DarioZ: calls $0.02")
    with distributed.Client(n_workers=1, threads_per_worker=1, processes=False,
                            dashboard_address=None) as client:  # fmt: skip
        for spread in (False, client):
            for player in (None, "DarioZ"):
                with pytest.raises(expected) as raised:
                    analyze_many(tmp_path, errors="raise", player=player, client=spread)
                error = raised.value
                assert (error.source, error.line) == (str(tmp_path / "b.txt"), line)
                assert isinstance(error, ConflictingHandError) == conflict_first
                # Collected, both reported, and the frame has no column of its own.
                refused = analyze_many(tmp_path, player=player, client=spread).attrs["refused"]
                assert sorted(refused["status"]) == ["refused", "refused"]
                assert list(refused.columns) == ["source", "line", "site", "hand_id", "status",
                                                 "reason"]  # fmt: skip
    hands = [next(read(text)) for text in (EXAMPLE, other)]
    with pytest.raises(ConflictingHandError, match="with other results"):
        analyze_many(hands, errors="raise")


def test_a_record_no_room_numbered_copied_to_another_file_is_counted_once(
        tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    # A PHH record without venue and hand, in two files: the database stored it once
    # (by a digest of its play) while analyze_many and analyze counted it twice.
    from studeval import db
    from studeval.histories import phh
    from studeval.tracker import analyze_many

    hand = random_hand("stud", 3, seed=5)
    other = random_hand("stud", 3, seed=6)  # another hand no room numbered: kept
    (tmp_path / "a.phh").write_text(phh.dumps(hand))
    (tmp_path / "copy of a.phh").write_text(phh.dumps(hand))
    (tmp_path / "other.phh").write_text(phh.dumps(other))
    for player in (None, "Seat 0"):
        frame = analyze_many(tmp_path, client=False, player=player)
        expected = [n for h in (hand, other) for n in _nets(h)[: 3 if player is None else 1]]
        assert sorted(frame["net"]) == pytest.approx(sorted(expected))  # each hand once
        refused = frame.attrs["refused"]
        assert refused["status"].tolist() == ["duplicate"]
        assert refused["source"].tolist() == [str(tmp_path / "copy of a.phh")]
        assert refused["hand_id"].isna().all()  # (shown as the record has it: none)
    assert len(analyze_many([hand, hand, other])) == 6  # given twice: once
    report = db.connect().import_histories(tmp_path)
    assert (report.hands, report.duplicates) == (2, 1)
    assert main(["analyze", str(tmp_path)]) == 0
    err = capsys.readouterr().err
    assert "2 hands analysed" in err and "duplicates dropped (a hand already read" in err, err


def _nets(hand: object) -> list[int]:
    return [end - start for end, start in zip(hand.stacks, hand.starting_stacks, strict=True)]
