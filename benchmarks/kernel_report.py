"""The batch kernels side by side: scalar, AVX2 and AVX-512, and what ``auto`` chose.

    python benchmarks/kernel_report.py            # 1,000,000 hands, 3 rounds
    python benchmarks/kernel_report.py --quick
    python benchmarks/kernel_report.py --kernels scalar,avx2   # an AVX2-only CPU, imitated

Each kernel this CPU runs (``studeval._core.batch_kernels()``) ranks the same random
7-card hands in a child process of its own (``STUDEVAL_KERNEL=...``): ``high_ranks``
and ``all_ranks`` on one thread, the calling thread's CPU time, best of five calls.
The children run in turn, round after round, so that a busy neighbour slows every
kernel alike; each figure is the best over the rounds. A last child with no setting
reports what ``auto`` chose here and why (``--kernels`` sets ``STUDEVAL_KERNELS`` for
every child: only those kernels run and ``auto`` chooses among them). The project's
targets, on each CPU vendor: the kernel ``auto`` takes ranks high >= 1.3x and all
three >= 1.5x as fast as the scalar loop, and never slower.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys

CHILD = """
import json, sys, time
import numpy as np
import studeval
from studeval import _core
n = int(sys.argv[1])
rng = np.random.default_rng(7)
hands = np.argsort(rng.random((n, 52)), axis=1)[:, :7].astype(np.uint8)
high = np.empty(n, dtype=np.uint16)
outs = tuple(np.empty(n, dtype=np.uint16) for _ in range(3))
def best(call):
    times = []
    for _ in range(5):
        start = time.thread_time()
        call()
        times.append(time.thread_time() - start)
    return min(times) / n * 1e9
result = {
    "kernel": _core.batch_kernel(),
    "why": _core.batch_kernel(explain=True),
    "high": best(lambda: studeval.high_ranks(hands, threads=1, out=high)),
    "all": best(lambda: studeval.all_ranks(hands, threads=1, out=outs)),
}
print(json.dumps(result))
"""


def cpu_name() -> str:
    """The CPU's model name (Linux), else what platform says."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def child(kernel: str | None, n: int) -> dict[str, object]:
    env = {k: v for k, v in os.environ.items() if k != "STUDEVAL_KERNEL"}
    if kernel is not None:
        env["STUDEVAL_KERNEL"] = kernel
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(n)], env=env, capture_output=True, text=True, check=True
    )
    result: dict[str, object] = json.loads(done.stdout)
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="200,000 hands, 2 rounds")
    parser.add_argument(
        "--kernels", help="only these kernels, by commas (STUDEVAL_KERNELS): scalar,avx2"
    )
    args = parser.parse_args()
    if args.kernels:
        os.environ["STUDEVAL_KERNELS"] = args.kernels
    n, rounds = (200_000, 2) if args.quick else (1_000_000, 3)
    from studeval import _core

    kernels = _core.batch_kernels()
    best: dict[str, dict[str, float]] = {k: {"high": 1e9, "all": 1e9} for k in kernels}
    for _ in range(rounds):
        for kernel in kernels:
            got = child(kernel, n)
            assert got["kernel"] == kernel, got
            for what in ("high", "all"):
                best[kernel][what] = min(best[kernel][what], float(got[what]))  # type: ignore[arg-type]
    chosen = child(None, n)
    kept = f" (STUDEVAL_KERNELS={args.kernels})" if args.kernels else ""
    print(f"CPU: {cpu_name()}{kept}; {n:,} random 7-card hands, one thread, CPU ns a hand")
    print(f"{'kernel':<12} {'high':>8} {'x scalar':>9} {'all three':>10} {'x scalar':>9}")
    scalar = best["scalar"]
    for kernel in kernels:
        row = best[kernel]
        print(f"{kernel:<12} {row['high']:8.2f} {scalar['high'] / row['high']:8.2f}x "
              f"{row['all']:10.2f} {scalar['all'] / row['all']:8.2f}x")  # fmt: skip
    print(f"auto chose {chosen['kernel']}: {chosen['why']}")
    high_kernel, _, low_kernel = str(chosen["kernel"]).partition("/")
    low_kernel = low_kernel or high_kernel
    high_ratio = scalar["high"] / best[high_kernel]["high"]
    all_ratio = scalar["all"] / best[low_kernel]["all"]
    print(f"targets: high {high_ratio:.2f}x scalar (>= 1.3x: "
          f"{'met' if high_ratio >= 1.3 else 'NOT met'}), all three {all_ratio:.2f}x "
          f"(>= 1.5x: {'met' if all_ratio >= 1.5 else 'NOT met'})")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
