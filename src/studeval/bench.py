"""Measure studeval beside the other Python hand evaluators.

One run times studeval's numpy batch calls, its single-hand calls and the calls of
whichever peers are installed (pkrbot, eval7, phevaluator, treys, pokerkit,
poker-equity), on one fixed-seed set of random seven-card hands, and reports
nanoseconds per hand. Before anything is timed, every call's results are checked
against studeval's batch ranks on the same hands, so a fast wrong answer cannot
make it into the table.

The peers are imported only when measured; a peer that is not installed is left
out. ``benchmarks/report.py``, the pytest-benchmark suite in ``benchmarks/`` and
the ``studeval bench`` command all build on this module, whose parts live in
``studeval._bench``: timing, the peers, the agreement checks, the run, the report.

>>> rows = run_bench(300, repeats=1, threads=1, peers=(), include_import=False, min_time=0.0)
>>> [row.key for row in rows][:2]
['studeval.high_ranks/random/t1', 'studeval.high_ranks/sorted/t1']
>>> all(row.best_ns > 0 for row in rows)
True
"""

from __future__ import annotations

from studeval._bench.agreement import BenchMismatchError, check_same_order, same_order
from studeval._bench.peers import PEER_NAMES, PeerCall, peer_calls
from studeval._bench.report import format_table, report_dict
from studeval._bench.run import DEFAULT_SEED, BenchRow, run_bench, sorted_hands
from studeval._bench.timing import Timing, import_times, time_call, time_calls
from studeval.parsing import random_hands

__all__ = [
    "DEFAULT_SEED",
    "PEER_NAMES",
    "BenchMismatchError",
    "BenchRow",
    "PeerCall",
    "Timing",
    "check_same_order",
    "format_table",
    "import_times",
    "peer_calls",
    "random_hands",
    "report_dict",
    "run_bench",
    "same_order",
    "sorted_hands",
    "time_call",
    "time_calls",
]
