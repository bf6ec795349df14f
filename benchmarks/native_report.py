"""studeval's C core beside the fastest native 7-card evaluators a user can build:
SKPokerEval (``SevenEval::GetRank`` from card ids) and OMPEval (``evaluate`` of a
hand made from card ids), in one interleaved run, one thread, CPU ns a hand.

    SKPOKEREVAL_DIR=~/src/SKPokerEval OMPEVAL_DIR=~/src/OMPEval \\
        python benchmarks/native_report.py            # 4,194,304 hands, 7 rounds
    python benchmarks/native_report.py --quick        # 1,048,576 hands, 3 rounds

Nothing is fetched: the peers' sources are the user's own checkouts (their
licences: Apache 2.0 and ISC), named by SKPOKEREVAL_DIR and OMPEVAL_DIR; a peer not
found is said so and left out. studeval's core is built as the wheels are (CMake
Release, no ``-march``), the harness (``benchmarks/native_peers.cpp``) and the
peers with ``-O3`` and no ``-march`` as well, so that no side gets instructions the
others lack. Each evaluator runs in its own process, the evaluators in turn, round
after round; each process reports its best of 3 passes, and the table gives the
minimum over the rounds (the machine's neighbours only ever add time) and the
median. studeval's batch runs once a kernel the CPU has (``STUDEVAL_KERNEL``), so
an AVX2-only CPU can be imitated on one with AVX-512; its high rank also runs
without the check of each hand's cards (``check=False``; the check refuses a code
past 51 or a card twice), as the peers rank, on the scalar loop and the auto
choice. Before timing, every peer is checked to order the hands as studeval does.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import tempfile
from pathlib import Path

from kernel_report import cpu_name

from studeval import _core

ROOT = Path(__file__).resolve().parent.parent


def _peers() -> dict[str, Path | None]:
    """The peers' checkouts the environment names (None: not found)."""
    found: dict[str, Path | None] = {}
    for name, variable, marker in (("skpokereval", "SKPOKEREVAL_DIR", "src/SevenEval.h"),
                                   ("ompeval", "OMPEVAL_DIR", "omp/HandEvaluator.h")):  # fmt: skip
        folder = os.environ.get(variable)
        found[name] = Path(folder) if folder and (Path(folder) / marker).is_file() else None
    return found


def _run(command: list[str], env: dict[str, str] | None = None) -> str:
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    if done.returncode:
        raise SystemExit(f"native_report.py: {' '.join(command)} failed:\n{done.stderr}")
    return done.stdout


def build(work: Path, peers: dict[str, Path | None]) -> Path:
    """The harness linked to studeval's core built as the wheels are, and to the peers
    found."""
    core = work / "core"
    _run(["cmake", "-S", str(ROOT), "-B", str(core), "-DSTUDEVAL_PYTHON=OFF",
          "-DCMAKE_BUILD_TYPE=Release"])  # fmt: skip
    _run(["cmake", "--build", str(core), "-j", str(os.cpu_count() or 1)])
    library = next(core.rglob("libstudeval_core.a"))
    flags = ["-O3", "-std=c++17", f"-I{ROOT / 'csrc' / 'include'}"]
    sources = [str(ROOT / "benchmarks" / "native_peers.cpp")]
    if peers["skpokereval"] is not None:
        flags += ["-DWITH_SKPOKEREVAL", f"-I{peers['skpokereval'] / 'src'}"]
    if peers["ompeval"] is not None:
        flags += ["-DWITH_OMPEVAL", f"-I{peers['ompeval']}"]
        sources.append(str(peers["ompeval"] / "omp" / "HandEvaluator.cpp"))
    binary = work / "native_peers"
    _run(["c++", *flags, *sources, str(library), "-lpthread", "-o", str(binary)])
    return binary


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="1,048,576 hands, 3 rounds")
    args = parser.parse_args()
    hands, rounds = (1 << 20, 3) if args.quick else (1 << 22, 7)
    if shutil.which("cmake") is None or shutil.which("c++") is None:
        print("native_report.py needs cmake and a C++ compiler (c++)")
        return 1
    peers = _peers()
    for name, folder in peers.items():
        if folder is None:
            variable = "SKPOKEREVAL_DIR" if name == "skpokereval" else "OMPEVAL_DIR"
            print(f"{name}: not found (set {variable} to its checkout); left out")
    work = Path(tempfile.mkdtemp(prefix="studeval-native-"))
    try:
        binary = build(work, peers)
        verified = _run([str(binary), str(min(hands, 1 << 20)), "1", "verify"])
        print(verified.strip())
        if "FAILED" in verified:
            return 1
        kernels = _core.batch_kernels()  # what this CPU runs
        jobs: list[tuple[str, str, str | None]] = [("single", "single", None)]
        for kernel in [*kernels, "auto"]:
            chosen = None if kernel == "auto" else kernel
            jobs += [(f"batch high, {kernel}", "batch_high", chosen),
                     (f"batch all three, {kernel}", "batch_all", chosen)]  # fmt: skip
            if kernel in ("scalar", "auto"):  # as the peers rank: no check of the cards
                jobs.append((f"batch high unchecked, {kernel}", "batch_high_unchecked", chosen))
        jobs += [(name, name, None) for name, folder in peers.items() if folder is not None]
        times: dict[str, list[float]] = {label: [] for label, _, _ in jobs}
        picked: dict[str, str] = {}
        for _ in range(rounds):
            for label, what, kernel in jobs:
                env = dict(os.environ)
                env.pop("STUDEVAL_KERNEL", None)
                if kernel is not None:
                    env["STUDEVAL_KERNEL"] = kernel
                out = _run([str(binary), str(hands), "3", what], env).split("\n")
                for line in out:
                    if line.startswith("kernel "):
                        picked[label] = line.split()[1]
                    elif line.startswith(what + " "):
                        times[label].append(float(line.split()[1]))
        print(f"\n{cpu_name()}; {hands:,} random 7-card hands, one thread, CPU ns a hand, "
              f"{rounds} rounds (min, median)\n")  # fmt: skip
        print("| evaluator | min | median |")
        print("|---|---:|---:|")
        for label, values in times.items():
            shown = f"{label} (took {picked[label]})" if label.endswith("auto") else label
            print(f"| {shown} | {min(values):.2f} | {statistics.median(values):.2f} |")
        return 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    raise SystemExit(main())
