"""The project's speed targets, checked against one benchmark run's rows.

The targets are the project's acceptance bar, not something a user of
``studeval bench`` needs to see, so they live here beside the benchmarks:
``report.py`` prints them under the table. Every target is a ratio or a time
measured in the same run as what it is compared with.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from studeval import bench
from studeval._bench.report import parallel_row

__all__ = ["Target", "format_targets", "targets"]


@dataclass(frozen=True)
class Target:
    """One acceptance target: the measured value, the goal, and whether it is met.

    ``value`` is None (and ``met`` None) when a row it needs was not measured, for
    example when pkrbot is not installed.
    """

    name: str
    value: float | None
    unit: str
    goal: str
    met: bool | None


def targets(rows: Iterable[bench.BenchRow]) -> list[Target]:
    """The acceptance targets, read from one run's rows (best timings).

    >>> rows = [bench.BenchRow("studeval.high_ranks/random/t1", "studeval", "0", "high_ranks",
    ...                        "batch", "high", "random", 1, 1000, 4.0, 4.5),
    ...         bench.BenchRow("pkrbot.evaluate", "pkrbot", "1.1", "evaluate", "single", "high",
    ...                  "random", 1, 1000, 200.0, 210.0)]
    >>> [(t.name, t.value, t.met) for t in targets(rows)][:2]
    [('batch high, 1 thread', 4.0, True), ('batch high vs pkrbot per-hand loop', 50.0, True)]
    """
    by = {row.key: row for row in rows}
    high1 = by.get("studeval.high_ranks/random/t1")
    all1 = by.get("studeval.all_ranks/random/t1")
    pkrbot = by.get("pkrbot.evaluate")
    single = by.get("studeval.high_rank(tuple)")
    imp = by.get("import.studeval")
    high_n = parallel_row(by, "high_ranks")

    def target(
        name: str, value: float | None, unit: str, goal: str, test: Callable[[float], bool]
    ) -> Target:
        return Target(name, value, unit, goal, None if value is None else test(value))

    n_threads = high_n.threads if high_n else 2
    return [
        target(
            "batch high, 1 thread",
            high1.best_ns if high1 else None,
            "ns/hand",
            "<= 5",
            lambda v: v <= 5.0,
        ),
        target(
            "batch high vs pkrbot per-hand loop",
            pkrbot.best_ns / high1.best_ns if pkrbot and high1 else None,
            "x",
            ">= 30",
            lambda v: v >= 30.0,
        ),
        target(
            "all three rankings in one pass, 1 thread",
            all1.best_ns if all1 else None,
            "ns/hand",
            "<= 8",
            lambda v: v <= 8.0,
        ),
        target(
            f"batch high, {n_threads} threads vs 1",
            high1.best_ns / high_n.best_ns if high1 and high_n else None,
            "x",
            ">= 1.7",
            lambda v: v >= 1.7,
        ),
        target(
            "single high_rank(tuple) vs pkrbot.evaluate",
            pkrbot.best_ns / single.best_ns if pkrbot and single else None,
            "x",
            ">= 1",
            lambda v: v >= 1.0,
        ),
        target(
            "import studeval",
            imp.best_ns / 1e6 if imp else None,
            "ms",
            "< 100",
            lambda v: v < 100.0,
        ),
    ]


def format_targets(rows: Sequence[bench.BenchRow]) -> str:
    """The targets as a Markdown table: measured value, goal, met.

    >>> print(format_targets([]).splitlines()[2])
    | batch high, 1 thread | not measured | <= 5 ns/hand | - |
    """
    lines = ["| target | measured | goal | met |", "|---|---:|---|---|"]
    for t in targets(rows):
        value = "not measured" if t.value is None else f"{t.value:,.2f} {t.unit}"
        met = {True: "yes", False: "NO", None: "-"}[t.met]
        lines.append(f"| {t.name} | {value} | {t.goal} {t.unit} | {met} |")
    return "\n".join(lines)
