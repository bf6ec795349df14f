"""Print the benchmark table and the targets, and optionally save it as JSON and a PNG.

Everything is measured in this one process, in one run (timeit-style: best and median
of repeats), on one fixed-seed set of random 7-card hands; peers that are not installed
are left out. Import time is measured in fresh interpreters.

    python benchmarks/report.py                       # table on stdout
    python benchmarks/report.py --json bench.json --png docs/benchmarks.png
    python benchmarks/report.py --hands 2000000 --repeats 7 --peers pkrbot,pokerkit
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path

from studeval import bench

sys.path.insert(0, str(Path(__file__).resolve().parent))
import targets


def draw_png(rows: Sequence[bench.BenchRow], path: Path) -> None:
    """Draw ns/hand (best, log scale) of every random-order call as horizontal bars."""
    # matplotlib is only needed here, so the rest of the script runs without it.
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    shown = [r for r in rows if r.kind != "import" and r.order == "random"]
    shown.sort(key=lambda r: r.best_ns)
    labels = [
        f"studeval {r.call}" if r.library == "studeval" else f"{r.call} [{r.version}]"
        for r in shown
    ]
    colors = [
        ("#1f77b4" if r.kind == "batch" else "#6baed6") if r.library == "studeval" else "#bdbdbd"
        for r in shown
    ]
    fig, ax = plt.subplots(figsize=(10, 0.38 * len(shown) + 1.6))
    bars = ax.barh(range(len(shown)), [r.best_ns for r in shown], color=colors)
    ax.set_yticks(range(len(shown)), labels, fontsize=8)
    ax.invert_yaxis()
    ax.set_xscale("log")
    ax.set_xlabel("ns per hand (best of repeats, log scale; lower is faster)")
    ax.set_title("Random 7-card hands, ns per hand (one thread unless stated)")
    legend = {"#1f77b4": "studeval batch", "#6baed6": "studeval per-hand call", "#bdbdbd": "peer"}
    handles = [plt.Rectangle((0, 0), 1, 1, color=c) for c in legend]
    ax.legend(handles, list(legend.values()), loc="upper right", fontsize=8)
    for bar, r in zip(bars, shown, strict=True):
        ax.text(
            bar.get_width() * 1.08,
            bar.get_y() + bar.get_height() / 2,
            f"{r.best_ns:,.1f}" if r.best_ns < 100 else f"{r.best_ns:,.0f}",
            va="center",
            fontsize=7,
        )
    ax.set_xlim(right=max(r.best_ns for r in shown) * 6)
    ax.grid(axis="x", which="major", alpha=0.3)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120)
    plt.close(fig)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmarks and print, save and draw the results; return the exit code."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1_000_000, help="random hands (1,000,000)")
    parser.add_argument("--repeats", type=int, default=5, help="repeats per call (5)")
    parser.add_argument("--threads", type=int, default=None, help="parallel threads (all cores)")
    parser.add_argument("--seed", type=int, default=bench.DEFAULT_SEED, help="hand seed")
    parser.add_argument(
        "--peers",
        default=None,
        help="comma-separated peers to time, or 'none' (default: every installed one of "
        f"{', '.join(bench.PEER_NAMES)})",
    )
    parser.add_argument("--no-import", action="store_true", help="skip the import-time rows")
    parser.add_argument("--json", type=Path, metavar="PATH", help="write the results as JSON")
    parser.add_argument("--png", type=Path, metavar="PATH", help="draw the bar chart as PNG")
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")
    args = parser.parse_args(argv)

    peers = None
    if args.peers is not None:
        peers = [] if args.peers == "none" else [p.strip() for p in args.peers.split(",") if p]

    def progress(text: str) -> None:
        print(f"... {text}", file=sys.stderr, flush=True)

    load_before = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    try:
        rows = bench.run_bench(
            args.hands,
            args.repeats,
            args.threads,
            peers=peers,
            include_import=not args.no_import,
            seed=args.seed,
            progress=None if args.quiet else progress,
        )
    except (ValueError, bench.BenchMismatchError) as exc:
        print(f"report.py: {exc}", file=sys.stderr)
        return 2
    print(bench.format_table(rows))
    print("\n" + targets.format_targets(rows))
    report = bench.report_dict(rows)
    report["targets"] = [asdict(t) for t in targets.targets(rows)]
    machine = report["machine"]
    machine["loadavg_1min_before"] = load_before
    # The load says how far to trust the numbers: other work on the cores slows the
    # 2-thread rows first.
    loads = [load_before, machine["loadavg"][0] if machine["loadavg"] else None]
    before, after = ("?" if x is None else f"{x:.2f}" for x in loads)
    print(
        f"\n{machine['cpu_count']} cores; 1-minute load average {before} before, {after} "
        f"after; Python {machine['python']}, numpy {machine['numpy']}"
    )
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(report, indent=2) + "\n")
    if args.png:
        draw_png(rows, args.png)
    return 0


if __name__ == "__main__":
    sys.exit(main())
