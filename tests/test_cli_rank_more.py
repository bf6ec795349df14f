"""studeval rank: runaway lines and tokens, counts as people write them, and a hint when
the input is the command's own output."""

from __future__ import annotations

import argparse
import io
import re
import sys

import pytest

from studeval.cli import main
from studeval.cli._args import count
from studeval.cli._console import Output
from studeval.cli._rank_job import MAX_LINE_BYTES, RankJob, rank_stream
from studeval.errors import InvalidLineError

HAND = "As Kd 7h 2c 3s 9d Th"


def run(capsys, *argv):
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


class Endless(io.RawIOBase):
    """``first`` and then ``As `` for ever, no newline: a reader that takes it whole
    never ends; past ``cap`` bytes the test fails instead."""

    def __init__(self, first: bytes = b"", cap: int = 5_000_000) -> None:
        self.first, self.given, self.cap = first, 0, cap

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        if self.given > self.cap:
            raise AssertionError(f"read {self.given:,} bytes of one line")
        data, self.first = self.first, b""
        data += b"As " * max(1, (size - len(data)) // 3)
        self.given += len(data)
        return data

    def readinto(self, buffer) -> int:  # type: ignore[no-untyped-def]
        data = self.read(len(buffer))[: len(buffer)]
        buffer[: len(data)] = data
        return len(data)


def test_a_bad_token_is_cut_in_the_message(capsys, tmp_path):
    path = tmp_path / "h.txt"
    path.write_text(f"{HAND}\n{HAND} {'x' * 900}\n")  # under the line limit: parsed
    status, out, err = run(capsys, "rank", str(path), "--format", "csv")
    assert status == 2 and len(out.splitlines()) == 2
    assert "invalid card 'xxxx" in err and "'... (900 characters)" in err
    assert len(err) < 400, err


@pytest.mark.parametrize("chunk", [64, 65536])
def test_one_endless_line_is_refused_without_reading_it(capsys, chunk):
    source = Endless(f"{HAND}\n{HAND}\n".encode())
    job = RankJob("csv", 2, chunk)
    with pytest.raises(InvalidLineError) as caught:
        rank_stream(job, source, None, Output())  # type: ignore[arg-type]
    assert caught.value.line == 3
    assert f"more than {MAX_LINE_BYTES:,} bytes" in str(caught.value)
    assert source.given < 4 * chunk * 21 + 10 * MAX_LINE_BYTES  # a few reads, not the line
    assert capsys.readouterr().out.count(HAND) == 2  # the lines before it are written


def test_a_long_line_is_skipped_and_later_lines_keep_their_numbers(capsys, tmp_path):
    path = tmp_path / "h.txt"
    path.write_text(f"{HAND}\n{'As ' * 2_000_000}\n{HAND}\nAs Kd\n{HAND}\n")
    status, out, err = run(capsys, "rank", str(path), "--format", "csv", "--skip-invalid")
    assert status == 0 and out.count(HAND) == 3
    assert "skipped 2 invalid lines (first: line 2:" in err and "more than 1,000 bytes" in err
    status, out, err = run(capsys, "rank", str(path), "--format", "csv", "--chunk-size", "1")
    assert status == 2 and out.count(HAND) == 1 and "line 2: 'As As" in err
    assert len(err) < 300


def test_the_endless_line_through_the_command(capsys, monkeypatch):
    stdin = io.TextIOWrapper(io.BufferedReader(Endless(f"{HAND}\n".encode())))
    monkeypatch.setattr(sys, "stdin", stdin)
    status, out, err = run(capsys, "rank", "-", "--format", "csv")
    assert status == 2 and out.count(HAND) == 1
    assert "line 2: 'As As As" in err and "read no further" in err


@pytest.mark.parametrize(
    ("text", "value"),
    [("1e6", 10**6), ("1.5M", 1_500_000), ("10M", 10**7), ("2_000", 2000), ("1.5k", 1500),
     ("0.5k", 500), ("2.5e3k", 2_500_000), ("7", 7), ("1E2", 100)],
)  # fmt: skip
def test_counts_as_people_write_them(text, value):
    assert count(text) == value


@pytest.mark.parametrize(
    ("text", "message"),
    [("1.5", "expected a whole count; got '1.5', not a whole number"),
     ("1.2345k", "got '1.2345k' (1234.5), not a whole number"),
     ("lots", "expected a count such as 1000000, 1e6, 10M or 1.5M; got 'lots'"),
     ("3/2", "got '3/2'"), ("1e100", "got '1e100'"), ("0", "at least 1"), ("0.0001k", "whole")],
)  # fmt: skip
def test_counts_that_are_not_whole_are_refused(text, message):
    with pytest.raises(argparse.ArgumentTypeError, match=re.escape(message)):
        count(text)


def test_random_and_samples_take_those_counts(capsys):
    status, out, _ = run(capsys, "rank", "--random", "1.5k", "--seed", "1", "--format", "csv")
    assert status == 0 and len(out.splitlines()) == 1 + 1500
    status, out, _ = run(capsys, "rank", "--random", "1e4", "--seed", "1")
    assert status == 0 and "ranked 10,000 random 7-card hands" in out
    status, _, err = run(capsys, "rank", "--random", "1.5")
    assert status == 2 and "not a whole number" in err
    hands = ["As Ad 7c", "Ks Kd Qh", "2c 3c 4c"]
    status, out, _ = run(capsys, "equity", *hands, "--samples", "8.192e3", "--seed", "1")
    assert status == 0 and "8,192 deals" in out


@pytest.mark.parametrize(
    ("fmt", "command"),
    [("csv", "tail -n +2 {} | cut -d, -f1 | studeval rank -"),
     ("jsonl", "jq -r .cards {} | studeval rank -"),
     ("table", "tail -n +2 {} | cut -c1-20 | studeval rank -")],
)  # fmt: skip
def test_its_own_output_gets_a_hint(capsys, tmp_path, fmt, command):
    path = tmp_path / f"ranked.{fmt}"
    status, out, _ = run(capsys, "rank", "--random", "5", "--seed", "2", "--format", fmt)
    path.write_text(out)
    status, out, err = run(capsys, "rank", str(path))
    assert status == 2 and out == ""
    assert f"looks like the output of studeval rank --format {fmt}" in err
    assert command.format(path) in err
    # Not for other bad first lines, nor for a bad header-like line further down.
    path.write_text(f"{HAND}\ncards,high,category,low,low8\n")
    status, _, err = run(capsys, "rank", str(path))
    assert status == 2 and "looks like" not in err
