"""The studeval command, called in-process through main()."""

from __future__ import annotations

import csv
import functools
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from helpers import HIGH_CATEGORIES, INTERNAL_WORDS

import studeval
from studeval.cli import main
from studeval.cli._rank_job import low8_hand_count
from studeval.stream import random_hands

# The categories and their textbook counts come from tests/data, not from the
# command's own table, which they check.
CATEGORIES = [category.name for category in HIGH_CATEGORIES]
SEVEN_CARD_COUNTS = [category.seven_cards for category in HIGH_CATEGORIES]
SEVEN_CARD_HANDS = 133_784_560  # C(52, 7)


def histogram(text):
    """The summary's category rows: name -> the numbers after it."""
    rows = {}
    for line in text.splitlines():
        name = line[:16].strip()
        if name in CATEGORIES:
            rows[name] = line[16:].split()
    return rows


def run(capsys, *argv):
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def write_hands(path, hands, sep=" "):
    names = [studeval.card_str(c) for c in range(52)]
    path.write_text("".join(sep.join(names[c] for c in h) + "\n" for h in hands.tolist()))
    return path


def expected_row(cards):
    cards = studeval.parse_cards(cards)
    high = studeval.high_rank(cards)
    low8 = studeval.low8_rank(cards)
    return {
        "cards": studeval.cards_str(cards),
        "high": high,
        "category": studeval.high_category(high),
        "low": studeval.low_rank(cards),
        "low8": low8,
    }


def test_version(capsys):
    status, out, _ = run(capsys, "--version")
    assert status == 0
    assert out.strip() == f"studeval {studeval.__version__}"


def test_python_dash_m_version():
    result = subprocess.run(
        [sys.executable, "-m", "studeval", "--version"],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert result.returncode == 0
    assert result.stdout.strip() == f"studeval {studeval.__version__}"


def test_import_studeval_does_not_load_cli_libraries():
    code = (
        "import sys, studeval; "
        "print(sorted(m for m in ('argparse', 'tqdm', 'studeval.cli', 'dask') if m in sys.modules))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert result.stdout.strip() == "[]"


@pytest.mark.parametrize("command", [[], ["rank"], ["showdown"], ["bring-in"], ["bench"]])
def test_help_has_examples(capsys, command):
    status, out, _ = run(capsys, *command, "--help")
    assert status == 0
    assert "examples:" in out
    assert "studeval" in out


def test_no_command_is_a_usage_error(capsys):
    status, _, err = run(capsys)
    assert status == 2
    assert "required" in err


def test_rank_random_summary(capsys):
    status, out, _ = run(capsys, "rank", "--random", "200k", "--seed", "5", "--threads", "2")
    assert status == 0
    assert "ranked 200,000 random 7-card hands" in out
    assert "million hands/s" in out
    counts = {}
    rows = histogram(out)
    assert list(rows) == CATEGORIES
    for name, fields in rows.items():
        counts[name] = int(fields[0].replace(",", ""))
        share, exact = float(fields[1].rstrip("%")), float(fields[2].rstrip("%"))
        assert share == pytest.approx(100 * counts[name] / 200_000, abs=0.001)
        index = CATEGORIES.index(name)
        assert exact == pytest.approx(100 * SEVEN_CARD_COUNTS[index] / SEVEN_CARD_HANDS, abs=0.001)
    assert sum(counts.values()) == 200_000
    # Sampled shares are near the exact probabilities (generous: 6 sigma).
    for name, count in counts.items():
        p = SEVEN_CARD_COUNTS[CATEGORIES.index(name)] / SEVEN_CARD_HANDS
        assert abs(count - 200_000 * p) < 6 * np.sqrt(200_000 * p * (1 - p)) + 1
    low_line = next(line for line in out.splitlines() if line.startswith("8-or-better low"))
    lows = int(low_line.split()[2].replace(",", ""))
    p_low = low8_hand_count(7) / SEVEN_CARD_HANDS
    assert abs(lows - 200_000 * p_low) < 6 * np.sqrt(200_000 * p_low * (1 - p_low))


def test_rank_random_is_reproducible_and_thread_independent(capsys, threads_started):
    _, first, _ = run(capsys, "rank", "--random", "30000", "--seed", "9", "--threads", "1")
    assert threads_started() == 0
    _, second, _ = run(capsys, "rank", "--random", "30000", "--seed", "9", "--threads", "2")
    assert threads_started() > 0  # the second run really ranked on two threads
    assert histogram(first) == histogram(second)
    assert len(histogram(first)) == 9


def test_low8_hand_count_by_hand():
    # Five cards: five distinct ranks among A..8, any suits.
    assert low8_hand_count(5) == 56 * 4**5
    # Six cards: six distinct low ranks, or five plus one more card that is either
    # above 8 (20 cards) or pairs one of the five (5 ranks, 2 of 4 suits for the pair).
    assert low8_hand_count(6) == 28 * 4**6 + 56 * (4**5 * 20 + 5 * 6 * 4**4)
    # Seven cards: checked against the C core by sampling in the summary test.
    assert 0.18 < low8_hand_count(7) / SEVEN_CARD_HANDS < 0.19


def test_rank_random_rows(capsys):
    status, out, _ = run(capsys, "rank", "--random", "500", "--seed", "1", "--format", "jsonl")
    assert status == 0
    rows = [json.loads(line) for line in out.splitlines()]
    assert len(rows) == 500
    for row in rows:
        assert row == expected_row(row["cards"])


@pytest.mark.parametrize("fmt", ["table", "csv", "jsonl"])
@pytest.mark.parametrize("sep", [" ", ""])
def test_rank_file_formats(capsys, tmp_path, fmt, sep):
    hands = random_hands(300, seed=4)
    path = write_hands(tmp_path / "hands.txt", hands, sep)
    status, out, err = run(capsys, "rank", str(path), "--format", fmt)
    assert status == 0, err
    wanted = [expected_row(h) for h in hands.tolist()]
    if fmt == "jsonl":
        assert [json.loads(line) for line in out.splitlines()] == wanted
    elif fmt == "csv":
        rows = list(csv.DictReader(io.StringIO(out)))
        assert [r["cards"] for r in rows] == [w["cards"] for w in wanted]
        assert [int(r["high"]) for r in rows] == [w["high"] for w in wanted]
        assert [r["low8"] for r in rows] == [
            "" if w["low8"] is None else str(w["low8"]) for w in wanted
        ]
    else:
        lines = out.splitlines()
        assert lines[0].split() == ["cards", "high", "category", "low", "low8"]
        assert len(lines) == 301
        assert len({len(line) for line in lines}) == 1
        assert [line[:20].strip() for line in lines[1:]] == [w["cards"] for w in wanted]


def test_rank_default_format_is_table(capsys, tmp_path):
    path = write_hands(tmp_path / "h.txt", random_hands(3, seed=1))
    status, out, _ = run(capsys, "rank", str(path))
    assert status == 0
    assert out.splitlines()[0].startswith("cards")


def test_rank_stdin(capsys, monkeypatch):
    data = b"As Ks Qs Js Ts\nAc2d3h4s5cKdKh\n"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    status, out, _ = run(capsys, "rank", "-", "--format", "csv")
    assert status == 0
    assert out.splitlines() == [
        "cards,high,category,low,low8",
        "As Ks Qs Js Ts,1,Straight Flush,1279,",
        "Ac 2d 3h 4s 5c Kd Kh,1609,Straight,1,1",
    ]


def test_rank_threads_and_chunks_do_not_change_output(capsys, tmp_path):
    hands = random_hands(5000, seed=8)
    path = write_hands(tmp_path / "h.txt", hands)
    _, one, _ = run(capsys, "rank", str(path), "--format", "csv", "--threads", "1")
    _, many, _ = run(
        capsys, "rank", str(path), "--format", "csv", "--threads", "3", "--chunk-size", "100"
    )
    assert one == many
    assert len(one.splitlines()) == 5001


def test_rank_bad_line_exits_2_naming_line(capsys, tmp_path):
    hands = random_hands(1000, seed=2)
    path = write_hands(tmp_path / "h.txt", hands)
    lines = path.read_text().splitlines()
    lines[700] = "As Kd 7h 2c 3s 9d Kd"
    path.write_text("\n".join(lines) + "\n")
    status, out, err = run(capsys, "rank", str(path), "--format", "csv", "--chunk-size", "64")
    assert status == 2
    assert "line 701" in err and "'As Kd 7h 2c 3s 9d Kd'" in err and "duplicate card Kd" in err
    # Every line before the bad one is written, none after it.
    assert len(out.splitlines()) == 1 + 700
    assert out.splitlines()[-1].startswith(lines[699])


def test_rank_skip_invalid(capsys, tmp_path):
    hands = random_hands(1000, seed=2)
    path = write_hands(tmp_path / "h.txt", hands)
    lines = path.read_text().splitlines()
    for index in (5, 500, 999):
        lines[index] = "not a hand"
    path.write_text("\n".join(lines) + "\n")
    status, out, err = run(
        capsys, "rank", str(path), "--format", "csv", "--skip-invalid", "--chunk-size", "64"
    )
    assert status == 0
    assert len(out.splitlines()) == 1 + 997
    assert "skipped 3 invalid lines" in err
    assert "line 6" in err


def test_rank_file_summary(capsys, tmp_path):
    hands = random_hands(2000, seed=6)
    path = write_hands(tmp_path / "h.txt", hands)
    status, out, _ = run(capsys, "rank", str(path), "--summary")
    assert status == 0
    ranks = studeval.all_ranks(hands)
    rows = histogram(out)
    for index, name in enumerate(CATEGORIES):
        count = int(rows[name][0].replace(",", ""))
        assert len(rows[name]) == 2  # no "exact" column for a file
        expected = sum(1 for h in ranks.high.tolist() if studeval.high_category(h) == name)
        assert count == expected, (index, name)
    lows = int(np.count_nonzero(ranks.low8 != studeval.NO_LOW))
    assert f"8-or-better low: {lows:,} hands" in out


def test_rank_usage_errors(capsys, tmp_path):
    status, _, err = run(capsys, "rank", str(tmp_path / "h.txt"), "--random", "10")
    assert status == 2 and "not both" in err
    status, _, err = run(capsys, "rank", str(tmp_path / "missing.txt"))
    assert status == 2 and "cannot read" in err
    status, _, err = run(capsys, "rank", "--random", "0")
    assert status == 2 and "at least 1" in err
    status, _, err = run(capsys, "rank", "--random", "lots")
    assert status == 2
    status, _, err = run(capsys, "rank", "--format", "xml")
    assert status == 2 and "invalid choice" in err


def test_progress_bar_only_on_a_terminal(capsys, tmp_path, monkeypatch):
    path = write_hands(tmp_path / "h.txt", random_hands(100, seed=1))
    _, _, err = run(capsys, "rank", str(path), "--format", "csv")
    assert err == ""
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    status, out, err = run(capsys, "rank", str(path), "--format", "csv")
    assert status == 0
    assert len(out.splitlines()) == 101
    assert "B/s" in err or "100%" in err


def test_showdown_pot(capsys):
    status, out, _ = run(
        capsys,
        "showdown",
        "--game",
        "stud8",
        "--pot",
        "100",
        "As 2d 3h 4s 5c Kd Kh",
        "Ks Kc Qd Qh 9s 8s 7c",
    )
    assert status == 0
    # A wheel is both the low and a straight: it scoops (Robert's; WSOP LAR 238).
    assert out == "Pot of 100: Seat 0 scoops 100 with Straight, Five high and 5-4-3-2-A\n"


def test_showdown_contributions_and_folds(capsys):
    hands = ["Ac 2d 3h 4s 6c Kd Kh", "-", "8c 8d 9h Ts Jc 4d 5d"]
    status, out, _ = run(
        capsys, "showdown", "--game", "razz", "--contributions", "50,20,30", *hands
    )
    assert status == 0
    # 30 + 30 + 20 matched chips (the folded seat's 20 stay in); 20 of seat 0's 50
    # were never matched and go back.
    assert out == (
        "Main pot of 80: Seat 0 wins 80 with 6-4-3-2-A\nSeat 0 takes back 20 unmatched\n"
    )


def test_showdown_errors(capsys):
    status, _, err = run(capsys, "showdown", "--game", "stud", "--pot", "10", "As Ah", "Kd Kc")
    assert status == 2 and "studeval: error:" in err
    status, _, err = run(capsys, "showdown", "--game", "poker", "--pot", "10", "As Ah")
    assert status == 2 and "unknown game 'poker'" in err
    status, _, err = run(capsys, "showdown", "--game", "stud", "--pot", "-5", "As")
    assert status == 2
    status, _, err = run(capsys, "showdown", "--game", "stud", "As Ah Kd Kc 7s 3d 2c")
    assert status == 2 and "one of the arguments" in err


def test_bring_in(capsys):
    status, out, _ = run(capsys, "bring-in", "--game", "stud", "7h", "2d", "2c")
    assert (status, out) == (0, "Seat 2 brings in with 2c\n")
    status, out, _ = run(capsys, "bring-in", "--game", "razz", "Ac", "Kh", "-", "Ks")
    assert (status, out) == (0, "Seat 3 brings in with Ks\n")
    status, _, err = run(capsys, "bring-in", "--game", "stud", "7h", "Zz")
    assert status == 2 and "Zz" in err


def test_bench_prints_table(capsys):
    status, out, err = run(
        capsys, "bench", "--hands", "2000", "--repeats", "1", "--peers", "", "--no-import",
        "--min-time", "0",
    )  # fmt: skip
    assert status == 0
    assert "| library | call |" in out
    assert "high_ranks" in out
    assert not INTERNAL_WORDS.search(out) and "target" not in out  # targets: benchmarks/
    assert err  # progress lines on stderr
    status, _, err = run(capsys, "bench", "--hands", "100", "--peers", "nosuchpeer")
    assert status == 2 and "nosuchpeer" in err


# ---- the first hour of a new user: what a person types first --------------------------

STUDEVAL = [sys.executable, "-m", "studeval"]


class _Terminal(io.TextIOWrapper):
    def isatty(self):
        return True


def test_rank_reads_piped_stdin_without_dash(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"As Kd 7h 2c 3s 9d Th\n")))
    status, out, _ = run(capsys, "rank", "--format", "csv")
    assert status == 0
    assert out.splitlines() == [
        "cards,high,category,low,low8",
        "As Kd 7h 2c 3s 9d Th,6267,High Card,72,",
    ]


def test_rank_from_a_terminal_ranks_random_hands(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", _Terminal(io.BytesIO(b"As Kd 7h 2c 3s 9d Th\n")))
    status, out, _ = run(capsys, "rank", "--random", "5000")
    assert status == 0 and "ranked 5,000 random 7-card hands" in out


def test_rank_piped_stdin_through_the_console_script():
    result = subprocess.run(
        [*STUDEVAL, "rank"], input=b"As Kd 7h 2c 3s 9d Th\n", capture_output=True, timeout=60,
    )  # fmt: skip
    assert result.returncode == 0
    assert result.stdout.decode().splitlines()[1].split() == [
        "As", "Kd", "7h", "2c", "3s", "9d", "Th", "6267", "High", "Card", "72", "-",
    ]  # fmt: skip


@pytest.mark.parametrize(
    "command",
    [
        "rank --random 100000",
        "rank --random 1000 --format csv",
        "showdown --pot 10 'As Ah Kd Kc 7s 3d 2c' -",
        "bring-in 7h 2d 2c",
        "showdown --help",  # argparse would swallow the error and exit 0
        "--version",
    ],
)
def test_full_disk_is_one_line_and_exit_1(command):
    if not os.path.exists("/dev/full"):
        pytest.fail("this test needs /dev/full (Linux)")
    shell = f"{sys.executable} -m studeval {command} > /dev/full"
    result = subprocess.run(["/bin/sh", "-c", shell], capture_output=True, text=True, timeout=60)
    assert result.returncode == 1
    assert result.stderr == "studeval: error: cannot write the output: No space left on device\n"


@pytest.mark.parametrize(
    "command",
    ["showdown --pot 10 'As Ah Kd Kc 7s 3d 2c' -", "bring-in 7h 2d 2c", "rank --random 2M"],
)
def test_closed_pipe_is_one_line_and_non_zero(command):
    shell = f"{sys.executable} -m studeval {command} | head -c 0"
    result = subprocess.run(
        ["/bin/bash", "-c", f"{shell}; echo status=${{PIPESTATUS[0]}} >&2"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    lines = result.stderr.splitlines()
    assert "Traceback" not in result.stderr
    assert lines[-1] != "status=0"
    # Either the pipe closed before the output was written (one line), or the
    # whole output fitted in the pipe before head exited (nothing to say).
    assert lines[:-1] in ([], ["studeval: stopped: the output pipe was closed"])


def test_closed_pipe_mid_stream_stops_quietly(tmp_path):
    path = write_hands(tmp_path / "h.txt", random_hands(200_000, seed=3))
    shell = f"{sys.executable} -m studeval rank {path} --format csv | head -n 3"
    result = subprocess.run(
        ["/bin/bash", "-c", f"{shell}; echo status=${{PIPESTATUS[0]}} >&2"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert len(result.stdout.splitlines()) == 3
    assert result.stderr.splitlines() == [
        "studeval: stopped: the output pipe was closed", "status=1",
    ]  # fmt: skip


@pytest.mark.parametrize("command", ["rank", "rank -"])
def test_closed_stdin_is_one_line_and_exit_2(command):
    shell = f"{sys.executable} -m studeval {command} <&-"
    result = subprocess.run(["/bin/bash", "-c", shell], capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert result.stderr.startswith("studeval: error: standard input is closed")
    assert len(result.stderr.splitlines()) == 1


def test_closed_stdout_is_one_line():
    result = subprocess.run(
        ["/bin/bash", "-c", f"{sys.executable} -m studeval bring-in 7h 2c >&-"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert result.returncode == 1
    assert result.stderr == "studeval: error: standard output is closed\n"


def test_bring_in_accepts_any_card_text_the_api_does(capsys):
    assert studeval.bring_in(["2c,", "As"], "stud") == 0
    status, out, err = run(capsys, "bring-in", "--game", "stud", "2c,", "As")
    assert (status, out, err) == (0, "Seat 0 brings in with 2c\n", "")


def test_chunk_size_is_capped(capsys):
    for argv in (["--chunk-size", "100G"], ["--random", "1G", "--chunk-size", "1G"]):
        status, out, err = run(capsys, "rank", *argv)
        assert status == 2 and out == ""
        assert "at most 4,194,304 hands per chunk" in err
        assert err.startswith("usage: studeval rank")


def test_error_on_a_huge_line_is_cut(capsys, tmp_path):
    path = tmp_path / "huge.txt"
    path.write_text("As Kd 7h 2c 3s 9d Th\n" + "Kd " * 3_500_000 + "\n")
    status, out, err = run(capsys, "rank", str(path), "--format", "csv")
    assert status == 2
    assert out.splitlines()[1].startswith("As Kd 7h 2c 3s 9d Th,6267")
    assert len(err) < 300
    assert err.startswith("studeval: error: line 2: 'Kd Kd Kd")
    assert "more than 1,000 bytes, read no further" in err  # the rest never read


def test_byte_order_mark_is_accepted(capsys, tmp_path):
    path = tmp_path / "bom.txt"
    path.write_bytes("\ufeffAs Kd 7h 2c 3s 9d Th\r\nAc 2d 3h 4s 5c Kd Kh\r\n".encode())
    status, out, err = run(capsys, "rank", str(path), "--format", "csv")
    assert (status, err) == (0, "")
    assert out.splitlines()[1:] == ["As Kd 7h 2c 3s 9d Th,6267,High Card,72,",
                                    "Ac 2d 3h 4s 5c Kd Kh,1609,Straight,1,1"]  # fmt: skip


def test_invalid_card_error_shows_the_line_once(capsys, tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("As Kd 7h 2c 3s 9d Xx\n")
    status, _, err = run(capsys, "rank", str(path))
    assert status == 2
    assert err == "studeval: error: line 1: 'As Kd 7h 2c 3s 9d Xx': invalid card 'Xx'\n"


def test_tiny_inputs_report_a_readable_rate(capsys, tmp_path):
    path = write_hands(tmp_path / "h.txt", random_hands(3, seed=1))
    status, out, _ = run(capsys, "rank", str(path), "--summary")
    assert status == 0
    assert "0.0 million" not in out
    assert re.search(r"end to end: [\d,.]+ (thousand |million )?hands/s", out), out


def test_game_has_a_default_and_help(capsys):
    status, out, _ = run(
        capsys, "showdown", "--pot", "10", "As Ah Kd Kc 7s 3d 2c", "Ks Kh 2d 5d 4c 7c 9c"
    )
    assert status == 0 and "Seat 0 wins 10 with" in out  # stud by default
    for command in ("showdown", "bring-in"):
        _, out, _ = run(capsys, command, "--help")
        assert "stud (high, the default)" in out and "stud_hilo_noq" in out
    _, out, _ = run(capsys, "bench", "--help")
    assert "random 7-card hands each call ranks" in out
    assert "best and the median" in out


def test_stray_option_shows_the_subcommand_usage(capsys):
    status, _, err = run(capsys, "rank", "--foo")
    assert status == 2
    assert err.startswith("usage: studeval rank")
    assert err.rstrip().endswith("studeval rank: error: unrecognized arguments: --foo")


def test_help_and_messages_cite_nothing_users_lack(capsys):
    for command in (
        [],
        *(
            [c]
            for c in (
                "rank",
                "showdown",
                "bring-in",
                "equity",
                "replay",
                "convert",
                "play",
                "bench",
            )
        ),
    ):
        _, out, _ = run(capsys, *command, "--help")
        assert not INTERNAL_WORDS.search(out) and "target" not in out


def test_progress_bar_counts_bytes_in_powers_of_1000(monkeypatch):
    from studeval.cli._console import Progress

    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    bar = Progress(10_000_000, "B")
    try:
        assert bar.bar is not None and bar.bar.unit_divisor == 1000
    finally:
        bar.close()


def test_the_equity_bar_times_the_rest_by_the_average_rate(capsys, monkeypatch):
    """An exact stud8 count runs phases at rates 4x apart: the time left follows
    the rate since the start (smoothing 0), not the last phase's."""
    from studeval.cli import equity

    made = []

    class Recorded(equity._Bar):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            made.append((self, kwargs, self.bar.smoothing))

    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    monkeypatch.setattr(equity, "_Bar", Recorded)
    assert main(["equity", "--game", "stud8", "--exact", "As 2s 3s", "Kd Kh 4c"]) == 0
    ((bar, options, smoothing),) = made
    assert options == {"smoothing": 0} and smoothing == 0
    assert bar.bar is None  # closed at the end


def test_version_does_not_import_numpy():
    code = (
        "import sys; from studeval.cli import main; status = main(['--version']);"
        "print(status, 'numpy' in sys.modules)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60
    )
    assert result.stdout.splitlines()[-1] == "0 False"


def test_replaying_history_text_does_not_import_numpy(tmp_path):
    """The rooms' readers (and a command's help) load no numpy: only the callers that
    read in bulk (the tracker's rows, the database) do."""
    from studeval.histories import EXAMPLE

    (tmp_path / "stars.txt").write_text(EXAMPLE)
    code = (
        "import sys; from studeval.cli import main;"
        f"status = main(['replay', {str(tmp_path / 'stars.txt')!r}]);"
        "print(status, 'numpy' in sys.modules)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60
    )
    assert result.stdout.splitlines()[-1] == "0 False", result.stdout + result.stderr


def test_allocator_is_tuned_only_by_the_console_entry(capsys, monkeypatch):
    from studeval import cli
    from studeval.cli import _tuning

    calls = []
    monkeypatch.setattr(_tuning, "keep_freed_memory", lambda: calls.append(1))
    assert main(["rank", "--random", "1000"]) == 0
    assert calls == []
    monkeypatch.setattr(sys, "argv", ["studeval", "rank", "--random", "1000"])
    with pytest.raises(SystemExit) as exit_:
        cli.console_main()
    assert exit_.value.code == 0 and calls == [1]
    capsys.readouterr()


def test_console_script_keeps_blas_to_one_thread_unless_told():
    # The console script runs in its own process: OpenBLAS gets one thread there
    # (its pool would spin for nothing), a user's own setting wins, and main()
    # called in-process leaves the environment alone.
    code = (
        "import os; from studeval.cli import main; main(['rank', '--random', '10']);"
        "print(os.environ.get('OPENBLAS_NUM_THREADS'))"
    )
    probe = (
        "import os, sys; sys.argv = ['studeval', '--version'];"
        "from studeval import cli\n"
        "try:\n    cli.console_main()\nexcept SystemExit:\n    pass\n"
        "print(os.environ.get('OPENBLAS_NUM_THREADS'))"
    )
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    run = functools.partial(subprocess.run, capture_output=True, text=True, timeout=60)
    assert run([sys.executable, "-c", probe], env=env).stdout.splitlines()[-1] == "1"
    told = run([sys.executable, "-c", probe], env={**env, "OPENBLAS_NUM_THREADS": "3"})
    assert told.stdout.splitlines()[-1] == "3"
    assert run([sys.executable, "-c", code], env=env).stdout.splitlines()[-1] == "None"


# ---- what a first hour turned up -------------------------------------------------------


@pytest.mark.parametrize("fmt", ["table", "csv", "jsonl"])
def test_input_with_no_hand_writes_nothing_and_says_so(capsys, tmp_path, fmt):
    for text in ("", "\n\n  \n"):
        path = tmp_path / "empty.txt"
        path.write_text(text)
        status, out, err = run(capsys, "rank", str(path), "--format", fmt)
        assert status == 0 and out == ""
        assert "holds no hand to rank" in err


def test_a_bad_first_line_writes_no_header(capsys, tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("As Kd\nAs Kd 7h 2c 3s\n")
    status, out, err = run(capsys, "rank", str(path), "--format", "csv")
    assert status == 2 and out == ""
    assert "line 1: 'As Kd': 2 cards" in err
    path.write_text("As Kd 7h 2c 3s\nAs Kd\n")  # a good line first: header and that line
    status, out, _ = run(capsys, "rank", str(path), "--format", "csv")
    assert status == 2 and out.splitlines() == ["cards,high,category,low,low8",
                                                "As Kd 7h 2c 3s,6339,High Card,808,"]  # fmt: skip


def test_one_hand_is_one_hand(capsys, tmp_path):
    path = tmp_path / "one.txt"
    path.write_text("As Kd 7h 2c 3s\n")
    status, out, _ = run(capsys, "rank", str(path), "--summary")
    # "1 hands" as a count (not the end of a rate such as "561 hands/s").
    assert status == 0 and "ranked 1 hand in" in out
    assert re.search(r"(?<![\d,.])1 hands\b", out) is None, out
    status, out, _ = run(capsys, "rank", "--random", "1", "--seed", "3")
    assert status == 0 and "ranked 1 random 7-card hand in" in out


def test_game_names_in_any_case(capsys):
    for name, seat in (("Razz", 0), ("RAZZ", 0), ("Stud", 1), ("f7s/8", 1), ("fr", 0)):
        status, out, _ = run(capsys, "bring-in", "--game", name, "Kc", "2d")
        assert status == 0 and out == f"Seat {seat} brings in with {['Kc', '2d'][seat]}\n", name
    status, _, err = run(capsys, "bring-in", "--game", "Holdem", "Kc", "2d")
    assert status == 2 and "unknown game 'Holdem'" in err


@pytest.mark.parametrize("doors", [["Kc"], ["Kc", "-", "-"], [f"{r}c" for r in "23456789T"]])
def test_bring_in_takes_two_to_eight_seats(capsys, doors):
    status, out, err = run(capsys, "bring-in", *doors)
    assert status == 2 and out == ""
    assert "give 2 to 8 door cards" in err and "bring_in" not in err


def test_command_errors_name_no_library_function(capsys):
    status, _, err = run(capsys, "showdown", "--pot", "10", "-", "-")
    assert status == 2 and "every HAND is '-'" in err
    assert "award_pot" not in err and "settle" not in err
    status, _, err = run(capsys, "equity", "--exact", "As Ad", "Kc Kd", "Qs Qd")
    assert status == 2 and "leave out --exact, or give --samples N" in err
    assert "method=" not in err
    status, out, _ = run(capsys, "equity", "--help")
    assert status == 0 and "exact at any street;" not in out and "which are sampled" in out


def _room_files(tmp_path: Path) -> Path:
    """A directory of a PokerStars file (two hands, one of them wrong), a Full Tilt
    file written from a random hand, and a PHH file."""
    from studeval.histories import EXAMPLE
    from studeval.histories._writer import Table
    from studeval.histories.rooms import fulltilt
    from studeval.phh import dumps
    from studeval.play import random_hand

    folder = tmp_path / "histories"
    (folder / "ftp").mkdir(parents=True)
    bad = EXAMPLE.replace("#20261202017", "#7").replace("calls $0.02", "calls $0.05", 1)
    (folder / "stars.txt").write_text(EXAMPLE + "\n\n" + bad)
    hand = random_hand("razz", 3, seed=5)
    (folder / "ftp" / "razz.txt").write_text(fulltilt.write(hand, Table(names=["A", "B", "C"])))
    (folder / "hand.phh").write_text(dumps(random_hand("stud", 2, seed=6)))
    return folder


def test_replay_reads_every_format_and_counts_the_refused(capsys, tmp_path):
    status, out, err = run(capsys, "replay", str(_room_files(tmp_path)))
    assert status == 2
    assert "== PokerStars hand 20261202017 (" in out and "stars.txt:1)" in out
    assert "== Full Tilt Poker hand 1 (" in out and "hand.phh hand 1" in out
    assert "Razz, 3 seats" in out and "Final stacks 130 202 164 159 189" in out
    assert "studeval: refused: PokerStars, hand 7, " in err and "calls 0.05" in err
    assert err.rstrip().endswith("studeval: 3 hands replayed, 1 refused")


def test_convert_writes_phhs_that_reads_back(capsys, tmp_path):
    from studeval.phh import loads_all

    status, out, err = run(capsys, "convert", str(_room_files(tmp_path)), "--to", "phhs")
    assert status == 2 and err.rstrip().endswith("3 hands converted, 1 refused")
    hands = loads_all(out)
    assert len(hands) == 3 and hands[2].stacks == [130, 202, 164, 159, 189]  # sorted paths
    assert hands[2].info["venue"] == "PokerStars" and hands[2].info["hand"] == 20261202017
    status, out, err = run(capsys, "convert", str(_room_files(tmp_path / "2")), "--to", "phh")
    assert status == 2 and "--to phh writes one hand" in err and out == ""


def test_convert_jsonl_names_the_room_and_the_money(capsys, tmp_path):
    from studeval.histories import EXAMPLE

    path = tmp_path / "one.txt"
    path.write_text(EXAMPLE)
    status, out, _ = run(capsys, "convert", str(path), "--to", "jsonl")
    record = json.loads(out)
    assert status == 0 and record["site"] == "PokerStars" and record["unit"] == "0.01"
    assert record["collected"]["DarioZ"] == 39 and record["rake"] == 2
    assert record["finishing_stacks"] == [130, 202, 164, 159, 189]
    assert record["played_at"] == "2026-12-02T10:24:42-05:00"


def _all_in_history(tmp_path: Path) -> Path:
    """Two PokerStars hands of one table: Ann all in on 3rd street with the worse
    hand (and winning), then a hand with no all-in."""
    from studeval import Stakes, StudHand
    from studeval.histories._writer import Table
    from studeval.histories.rooms import pokerstars

    texts = []
    for number, (ann, bob) in enumerate(
        (
            ("Kh Kd 2c 3s 4d 9h Kc", "Ah Ad 5c 6s 7d Jh 8c"),
            ("2h 3d 4c 5s 7d 9h Tc", "Qh Qd 8c 8s 6d Jh Jc"),
        ),
        1,
    ):
        hand = StudHand("stud", Stakes(ante=0, bring_in=5, small_bet=10, big_bet=20),
                        [10 if number == 1 else 100, 100])  # fmt: skip
        cards = [ann.split(), bob.split()]
        hand.deal(0, cards[0][:3])
        hand.deal(1, cards[1][:3])
        for street in range(3, 8):
            while hand.actor is not None and not hand.showdown:
                legal = hand.legal()
                hand.act("bring_in" if legal.bring_in else "complete" if legal.complete_to
                         else "call" if legal.call else "check")  # fmt: skip
            if street < 7 and not hand.over:
                hand.deal(0, cards[0][street : street + 1])
                hand.deal(1, cards[1][street : street + 1])
        while hand.showdown:
            hand.show()
        texts.append(pokerstars.write(hand, Table(names=["Ann", "Bob"], hand_id=number)))
    path = tmp_path / "table.txt"
    path.write_text("\n\n".join(texts))
    return path


def test_analyze_sums_net_adjusted_net_and_luck_by_player(capsys, tmp_path):
    from studeval import equity

    path = _all_in_history(tmp_path)
    status, out, err = run(capsys, "analyze", str(path), "--player", "Ann")
    assert status == 0 and err.rstrip().endswith("studeval: 2 hands analysed, 0 refused")
    lines = out.splitlines()
    assert lines[0].split() == ["player", "money", "hands", "net", "adjusted", "net", "luck",
                                "all-in", "hands"]  # fmt: skip
    # Ann's kings against aces all in on 3rd street for 10 each: 20 * her share.
    share = equity(["Kh Kd 2c", "Ah Ad 5c"], "stud").players[0].share
    expected_net = 20 * share - 10
    name, money, hands, net, adjusted, luck, all_in = lines[1].split()
    assert (name, money, hands, all_in) == ("Ann", "USD", "2", "1")
    status, out, _ = run(capsys, "analyze", str(path), "--player", "Ann", "--format", "jsonl")
    rows = [json.loads(line) for line in out.splitlines()]
    assert [r["hand_id"] for r in rows] == ["1", "2"] and rows[0]["all_in"] == 3
    assert rows[0]["net"] == pytest.approx(0.10)  # Ann's trip kings won Bob's 10 cents
    # A heads-up 3rd-street all-in is sampled over 16,384 deals (analysis.md): within
    # four of its standard errors (0.0039 of the 20-cent pot at most) of the exact count,
    # and the same figures every time the hand is analysed.
    within = 4 * 0.0039 * 20 / 100
    assert rows[0]["exact"] is False
    assert rows[0]["expected_net"] == pytest.approx(expected_net / 100, abs=within)
    assert rows[0]["luck"] == pytest.approx(0.10 - expected_net / 100, abs=within)
    assert rows[0]["net"] == pytest.approx(rows[0]["expected_net"] + rows[0]["luck"])
    _, again, _ = run(capsys, "analyze", str(path), "--player", "Ann", "--format", "jsonl")
    assert [json.loads(line) for line in again.splitlines()] == rows
    assert rows[1]["luck"] == 0 and rows[1]["all_in"] is None
    second_hand = rows[1]["net"]
    assert float(net.replace(",", "")) == pytest.approx(0.10 + second_hand, abs=0.005)
    assert float(luck) == pytest.approx(rows[0]["luck"], abs=0.005)
    assert float(adjusted) == pytest.approx(rows[0]["expected_net"] + second_hand, abs=0.005)
    status, out, _ = run(capsys, "analyze", str(path), "--format", "csv")
    table = list(csv.DictReader(io.StringIO(out)))
    assert len(table) == 4 and {r["player"] for r in table} == {"Ann", "Bob"}
    assert sum(float(r["luck"]) for r in table) == pytest.approx(0, abs=1e-9)


def test_analyze_plot_draws_both_lines(capsys, tmp_path):
    image = pytest.importorskip("matplotlib.image")
    from studeval.cli.analyze import ADJUSTED_COLOUR, NET_COLOUR

    path = _all_in_history(tmp_path)
    graph = tmp_path / "graph.png"
    status, _, _ = run(capsys, "analyze", str(path), "--player", "Ann", "--plot", str(graph))
    assert status == 0
    pixels = (image.imread(str(graph))[:, :, :3] * 255).round().astype(int)
    for colour in (NET_COLOUR, ADJUSTED_COLOUR):
        rgb = [int(colour[i : i + 2], 16) for i in (1, 3, 5)]
        assert (np.abs(pixels - rgb).sum(axis=2) < 30).sum() > 200, colour  # a line, not a dot
    status, _, err = run(capsys, "analyze", str(path), "--plot", str(graph))
    assert status == 2 and "give --player NAME" in err
    status, _, err = run(capsys, "analyze", str(path), "--player", "Ann", "--plot",
                         str(tmp_path / "no" / "dir" / "g.png"))  # fmt: skip
    assert status == 2 and "cannot write" in err


def test_replay_equity_prints_each_streets_shares_before_its_betting(capsys, tmp_path):
    from studeval import equity

    path = _all_in_history(tmp_path)
    status, out, _ = run(capsys, "replay", "--equity", str(path))
    assert status == 0
    first = out.split("\n\n")[0].splitlines()
    at = first.index("Third street")
    share = equity(["Kh Kd 2c", "Ah Ad 5c"], "stud").players[0].share
    # After the deals, before the bring-in: heads-up 3rd street is sampled (analysis.md:
    # a street's share to a standard error of at most 1%),
    # each share with its standard error, within four of them of the exact count.
    found = re.fullmatch(r"  equity \(pot 0; every card shown\): Ann ([\d.]+)% ±([\d.]+)%, "
                         r"Bob ([\d.]+)% ±([\d.]+)%", first[at + 3])  # fmt: skip
    assert found is not None, first[at + 3]
    ann, error = float(found[1]) / 100, float(found[2]) / 100
    assert 0 < error <= 0.01 and abs(ann - share) <= 4 * error + 0.0005  # shown to 0.1%
    assert first[at + 4].startswith("  Seat 0 brings in")
    # All in on 3rd street: every street after is dealt with no betting, each with
    # its line after its cards.
    notes = [i for i, line in enumerate(first) if line.strip().startswith("equity")]
    seventh = first.index("Seventh street")
    assert len(notes) == 5 and all(" is dealt " in line for line in first[seventh + 1 : notes[-1]])
    trip_kings = "  equity (pot 20; every card shown): Ann 100.0%, Bob 0.0%"
    assert first[notes[-1]] == trip_kings
    status, plain, _ = run(capsys, "replay", str(path))
    assert "equity (pot" not in plain


def test_replay_counts_the_refused_by_reason(capsys, tmp_path):
    from studeval.histories import EXAMPLE

    bad = EXAMPLE.replace("calls $0.02", "calls $0.05", 1)
    (tmp_path / "bad.txt").write_text("\n\n".join([bad, bad.replace("#20261202017", "#8")]))
    (tmp_path / "good.txt").write_text(EXAMPLE.replace("#20261202017", "#9"))
    (tmp_path / "junk.phh").write_text('variant = "F7S"\nnot = [a phh')
    (tmp_path / "notes.txt").write_text("not = [a phh")
    status, _, err = run(capsys, "replay", str(tmp_path))
    assert status == 2
    tail = err.rstrip().splitlines()[-5:]
    assert tail[0] == "studeval: 1 hand replayed, 3 refused"
    assert tail[1] == f"studeval: files with no hand history: 1 ({tmp_path / 'notes.txt'})"
    assert tail[2] == "studeval: refused by reason:"
    assert tail[3] == "      2  P calls N; the call is N"
    assert tail[4].lstrip().startswith("1  ") and "PHH" in tail[4]
