"""The benchmark module: hands, order checks, timing and a tiny full run.

No wall-clock thresholds here: speed is for benchmarks/, these check the machinery.
"""

from __future__ import annotations

import importlib.util
import math
import sys
from pathlib import Path

import numpy as np
import pytest
from helpers import INTERNAL_WORDS

import studeval
from studeval import bench

BATCH = ("high_ranks", "low_ranks", "low8_ranks", "all_ranks")


def test_random_hands_are_valid_and_reproducible() -> None:
    hands = bench.random_hands(5000, seed=7)
    assert hands.shape == (5000, 7)
    assert hands.dtype == np.uint8
    assert hands.flags.c_contiguous
    assert int(hands.max()) <= 51
    ordered = np.sort(hands, axis=1)
    assert not (ordered[:, 1:] == ordered[:, :-1]).any()
    assert np.array_equal(hands, bench.random_hands(5000, seed=7))
    assert not np.array_equal(hands, bench.random_hands(5000, seed=8))
    # Every card turns up in 5000 hands, each about 5000 * 7 / 52 = 673 times.
    counts = np.bincount(hands.ravel(), minlength=52)
    assert counts.min() > 500 and counts.max() < 850


@pytest.mark.parametrize(("n", "k"), [(-3, 7), (10, 0), (10, 53)])
def test_random_hands_rejects_bad_sizes(n: int, k: int) -> None:
    with pytest.raises(studeval.OptionError):
        bench.random_hands(n, k)


def test_bench_and_stream_share_one_random_hands() -> None:
    from studeval import parsing, stream

    assert bench.random_hands is stream.random_hands is parsing.random_hands
    assert bench.random_hands(0).shape == (0, 7)


def test_sorted_hands_is_a_permutation_in_colex_order() -> None:
    hands = bench.random_hands(3000, seed=3)
    ordered, perm = bench.sorted_hands(hands)
    assert ordered.flags.c_contiguous and ordered.dtype == np.uint8
    assert sorted(perm.tolist()) == list(range(3000))
    assert np.array_equal(ordered, np.sort(hands[perm], axis=1))
    masks = [sum(1 << int(c) for c in row) for row in ordered]
    assert masks == sorted(masks)


def test_same_order() -> None:
    assert bench.same_order([3, 1, 2, 2], [30, 10, 20, 20])
    assert bench.same_order(np.array([1, 1, 1]), np.array([9, 9, 9]))
    assert not bench.same_order([1, 2, 2], [1, 2, 3])  # a tie split
    assert not bench.same_order([1, 2, 3], [1, 2, 2])  # a tie made
    assert not bench.same_order([1, 2, 3], [1, 3, 2])  # a swap
    assert not bench.same_order([1, 2], [1, 2, 3])


def test_check_same_order_names_the_hands() -> None:
    hands = bench.random_hands(4, seed=1)
    bench.check_same_order("x", np.array([1, 2, 2, 4]), np.array([5, 6, 6, 9]), hands)
    with pytest.raises(bench.BenchMismatchError, match="x orders the benchmark hands"):
        bench.check_same_order("x", np.array([1, 2, 2, 4]), np.array([5, 6, 7, 9]), hands)
    with pytest.raises(bench.BenchMismatchError, match=r"x gives 6 but studeval gives 4"):
        bench.check_same_order(
            "x", np.array([1, 2, 3, 4]), np.array([1, 2, 3, 6]), hands, exact=True
        )


def test_time_call_counts_calls() -> None:
    calls = []
    timing = bench.time_call(lambda: calls.append(1), repeats=3, min_time=0.002)
    assert timing.repeats == 3
    assert len(calls) >= 3 * timing.calls  # calibration may run smaller batches first
    assert 0 < timing.best_s <= timing.median_s


def test_time_calls_interleaves_repeats() -> None:
    trace: list[str] = []
    timings = bench.time_calls(
        [lambda: trace.append("a"), lambda: trace.append("b")], repeats=3, min_time=0.0
    )
    # One calibration call each, then the remaining two repeats in turns.
    assert "".join(trace) == "ababab"
    assert [t.calls for t in timings] == [1, 1]
    assert all(t.best_s > 0 for t in timings)


def test_peer_calls_cover_every_peer() -> None:
    calls = bench.peer_calls()
    assert {p.module for p in calls} == set(bench.PEER_NAMES)
    assert {p.ranking for p in calls} == {"high", "low", "low8"}
    assert len({p.key for p in calls}) == len(calls)


def test_run_bench_unknown_peer_and_bad_arguments() -> None:
    with pytest.raises(ValueError, match="unknown peer 'deuces'"):
        bench.run_bench(100, peers=["deuces"])
    with pytest.raises(ValueError, match="repeats"):
        bench.run_bench(100, repeats=0)
    with pytest.raises(ValueError, match="threads"):
        bench.run_bench(100, threads=0, peers=())


@pytest.fixture(scope="module")
def tiny_run() -> list[bench.BenchRow]:
    messages: list[str] = []
    rows = bench.run_bench(2000, repeats=1, threads=2, min_time=0.0, progress=messages.append)
    assert messages and messages[0].startswith("building 2,000 random hands")
    return rows


def test_run_bench_rows(tiny_run: list[bench.BenchRow]) -> None:
    keys = [r.key for r in tiny_run]
    assert len(keys) == len(set(keys))
    expected = [
        f"studeval.{name}/{order}/t{t}"
        for name in BATCH
        for order in ("random", "sorted")
        for t in (1, 2)
    ]
    expected += ["studeval.high_rank(tuple)", "studeval.high_rank(str)"]
    expected += [
        p.key for p in bench.peer_calls() if importlib.util.find_spec(p.module) is not None
    ]
    expected += ["import.studeval", "import.studeval_after_numpy", "import.numpy"]
    assert keys == expected
    for row in tiny_run:
        assert math.isfinite(row.best_ns) and row.best_ns > 0, row
        assert row.median_ns >= row.best_ns, row
        assert row.hands >= 1 and row.threads >= 1
        assert row.hands_per_s > 0
    by = {r.key: r for r in tiny_run}
    assert by["studeval.high_ranks/random/t1"].hands == 2000
    assert by["studeval.all_ranks/sorted/t2"].threads == 2
    assert by["studeval.high_rank(str)"].kind == "single"
    assert by["import.studeval"].kind == "import"
    assert by["studeval.high_ranks/random/t1"].version == studeval.__version__


def _targets_module():
    """benchmarks/targets.py: the acceptance targets live beside the benchmarks."""
    path = Path(__file__).resolve().parents[1] / "benchmarks" / "targets.py"
    spec = importlib.util.spec_from_file_location("studeval_bench_targets", path)
    assert spec is not None and spec.loader is not None, path
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


def test_targets_and_table(tiny_run: list[bench.BenchRow]) -> None:
    targets = _targets_module()
    found = targets.targets(tiny_run)
    assert [t.name for t in found] == [
        "batch high, 1 thread",
        "batch high vs pkrbot per-hand loop",
        "all three rankings in one pass, 1 thread",
        "batch high, 2 threads vs 1",
        "single high_rank(tuple) vs pkrbot.evaluate",
        "import studeval",
    ]
    have_pkrbot = importlib.util.find_spec("pkrbot") is not None
    for t in found:
        if "pkrbot" in t.name and not have_pkrbot:
            assert t.value is None and t.met is None
        else:
            assert t.value is not None and t.value > 0 and isinstance(t.met, bool)

    table = bench.format_table(tiny_run)
    for row in tiny_run:
        assert row.call in table
    assert "target" not in table and not INTERNAL_WORDS.search(table)  # no targets shown
    assert "all_ranks / high_ranks time, 1 thread" in table
    # An editable install's import first checks its build: the table says so, as
    # the loader of studeval here shows (a wheel's import does not).
    loader = type(importlib.util.find_spec("studeval").loader).__name__  # type: ignore[union-attr]
    assert ("an editable install here" in table) == loader.startswith("_ScikitBuild")
    target_table = targets.format_targets(tiny_run)
    assert target_table.count("\n") == 1 + len(found)
    assert "| batch high, 1 thread |" in target_table

    report = bench.report_dict(tiny_run)
    assert len(report["rows"]) == len(tiny_run)
    assert report["machine"]["cpu_count"] == studeval.cpu_count()
    assert "targets" not in report


def test_run_bench_single_thread_without_peers() -> None:
    rows = bench.run_bench(300, repeats=2, threads=1, peers=(), include_import=False, min_time=0.0)
    assert {r.threads for r in rows} == {1}
    assert {r.library for r in rows} == {"studeval"}
    assert len(rows) == 4 * 2 + 2
    t = {t.name: t for t in _targets_module().targets(rows)}
    assert t["batch high, 2 threads vs 1"].value is None
    assert t["import studeval"].met is None


def test_a_peer_not_installed_is_said_not_dropped(monkeypatch, capsys) -> None:
    # `studeval bench --peers pkrbot,eval7` without them had printed studeval's rows
    # alone, and no word of the two peers asked for.
    from studeval._bench import peers
    from studeval.cli import main

    monkeypatch.setattr(peers.PeerCall, "available", lambda self: False)
    status = main(["bench", "--hands", "2000", "--repeats", "1", "--peers", "pkrbot,eval7",
                   "--no-import", "--min-time", "0"])  # fmt: skip
    assert status == 0
    err = capsys.readouterr().err
    assert "not installed, so not timed: eval7, pkrbot (pip install 'studeval[bench]'" in err
