"""The benchmark table and the ratios between its rows, as Markdown and as JSON data."""

from __future__ import annotations

import os
import platform
from collections.abc import Iterable, Sequence
from dataclasses import asdict
from typing import Any

from studeval._bench.peers import version_of
from studeval._bench.run import BenchRow
from studeval._core import cpu_count
from studeval._version import __version__

__all__ = ["editable_install", "format_table", "parallel_row", "ratios", "report_dict"]


def _by_key(rows: Iterable[BenchRow]) -> dict[str, BenchRow]:
    return {row.key: row for row in rows}


def parallel_row(rows: dict[str, BenchRow], name: str) -> BenchRow | None:
    """The random-order batch row for ``name`` with the most threads above 1."""
    candidates = [
        r for k, r in rows.items() if k.startswith(f"studeval.{name}/random/t") and r.threads > 1
    ]
    return max(candidates, key=lambda r: r.threads) if candidates else None


def ratios(rows: Iterable[BenchRow]) -> list[tuple[str, float]]:
    """Ratios between calls of one run, which say more than any single timing."""
    by = _by_key(rows)
    out = []
    high1 = by.get("studeval.high_ranks/random/t1")
    all1 = by.get("studeval.all_ranks/random/t1")
    if high1 and all1:
        out.append(("all_ranks / high_ranks time, 1 thread", all1.best_ns / high1.best_ns))
    all_n = parallel_row(by, "all_ranks")
    if all1 and all_n:
        out.append(
            (f"all_ranks speed-up, {all_n.threads} threads vs 1", all1.best_ns / all_n.best_ns)
        )
    sorted1 = by.get("studeval.high_ranks/sorted/t1")
    if high1 and sorted1:
        out.append(("high_ranks random / enumeration order time", high1.best_ns / sorted1.best_ns))
    single = by.get("studeval.high_rank(tuple)")
    text = by.get("studeval.high_rank(str)")
    if single and text:
        out.append(("high_rank(str) / high_rank(tuple) time", text.best_ns / single.best_ns))
    peq = by.get("poker_equity.score_batch/high")
    if high1 and peq:
        out.append(
            ("batch high_ranks vs poker_equity.score_batch('high')", peq.best_ns / high1.best_ns)
        )
    for key, label in (
        ("pokerkit.RegularLowHand", "low_ranks"),
        ("pokerkit.EightOrBetterLowHand", "low8_ranks"),
    ):
        peer = by.get(key)
        ours = by.get(f"studeval.{label}/random/t1")
        if peer and ours:
            out.append((f"batch {label} vs {key} per-hand loop", peer.best_ns / ours.best_ns))
    return out


def editable_install() -> bool:
    """Whether this studeval is an editable install whose imports first check its
    build (scikit-build-core's rebuild on import), which a wheel's never do."""
    import importlib.util

    spec = importlib.util.find_spec("studeval")
    loader = type(spec.loader).__name__ if spec is not None else ""
    return loader.startswith("_ScikitBuild")


def _fmt_ns(ns: float) -> str:
    if ns >= 100:
        return f"{ns:,.0f}"
    return f"{ns:.2f}" if ns < 10 else f"{ns:.1f}"


def format_table(rows: Sequence[BenchRow]) -> str:
    """The table as Markdown: ns/hand per call, import times, then ratios.

    >>> rows = [BenchRow("studeval.high_ranks/random/t1", "studeval", "0.1", "high_ranks(cards)",
    ...                  "batch", "high", "random", 1, 1000, 4.0, 4.5)]
    >>> print(format_table(rows).splitlines()[2])
    | studeval 0.1 | high_ranks(cards) | batch | random | 1 | 1,000 | 4.00 | 4.50 | 250.0 M |
    """
    lines = [
        "| library | call | style | order | threads | hands/call | ns/hand best "
        "| ns/hand median | hands/s |",
        "|---|---|---|---|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        if r.kind == "import":
            continue
        rate = r.hands_per_s
        rate_text = f"{rate / 1e6:.1f} M" if rate >= 1e6 else f"{rate / 1e3:.1f} k"
        style = "batch" if r.kind == "batch" else "per-hand loop"
        lines.append(
            f"| {r.library} {r.version} | {r.call} | {style} | {r.order} | {r.threads} "
            f"| {r.hands:,} | {_fmt_ns(r.best_ns)} | {_fmt_ns(r.median_ns)} | {rate_text} |"
        )
    imports = [r for r in rows if r.kind == "import"]
    if imports:
        lines += ["", "| import (fresh interpreter) | best ms | median ms |", "|---|---:|---:|"]
        lines += [
            f"| {r.call} | {r.best_ns / 1e6:.1f} | {r.median_ns / 1e6:.1f} |" for r in imports
        ]
        if editable_install():
            lines += ["", "studeval is an editable install here: each import first checks "
                      "its build (scikit-build-core's rebuild), which an installed wheel's "
                      "import does not; time the import from a wheel."]  # fmt: skip
    found = ratios(rows)
    if found:
        lines += ["", "| ratio (best timings, same run) | value |", "|---|---:|"]
        lines += [
            f"| {name} | {value:,.0f} |" if value >= 100 else f"| {name} | {value:.2f} |"
            for name, value in found
        ]
    return "\n".join(lines)


def report_dict(rows: Sequence[BenchRow]) -> dict[str, Any]:
    """Rows, ratios and the machine, as JSON-ready data.

    >>> sorted(report_dict([]))
    ['machine', 'ratios', 'rows']
    """
    return {
        "machine": {
            "python": platform.python_version(),
            "implementation": platform.python_implementation(),
            "platform": platform.platform(),
            "processor": platform.processor() or platform.machine(),
            "cpu_count": cpu_count(),
            "loadavg": list(os.getloadavg()) if hasattr(os, "getloadavg") else None,
            "numpy": version_of("numpy"),
            "studeval": __version__,
        },
        "rows": [asdict(r) | {"hands_per_s": r.hands_per_s} for r in rows],
        "ratios": dict(ratios(rows)),
    }
