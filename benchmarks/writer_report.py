"""The command line's writer, end to end: ``studeval rank --random N --format F``.

    python benchmarks/writer_report.py            # 4,000,000 hands
    python benchmarks/writer_report.py --quick    # 500,000

Each run is the installed command's own code in a child process writing to
/dev/null, timed in CPU seconds of the child, with its peak memory (max RSS).
"before" is the same run with the previous writer (numpy cell matrices and
``bytes.translate``), the previous random hands (numpy, vectorised) and the
previous reader of text (numpy byte matrices and a numpy pass for repeated
cards), all read from the repository's history at commit ``BEFORE`` and patched
into the child; "after" is the core's ``se_format_rows``, ``se_random_hands`` and
``se_parse_lines``.
Best of five each, in turns (the machine is shared: fewer turns gave spreads of
30%). The project's target: >= 2x for csv and jsonl, and a
lower peak for jsonl.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BEFORE = "ab3ed18"  # the last commit with the numpy writer
ROUNDS = 5

_CHILD = """
import os, sys, types
# console_main keeps numpy's BLAS to one thread; the patching below imports numpy
# first, so the same setting is made here, for both runs alike.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
old = sys.argv.pop(1)
if old != "-":
    from studeval import stream
    for name, functions in (("formatting", ["format_rows"]),
                            ("parsing", ["random_hands", "parse_block"])):
        path = f"{old}-{name}.py"
        module = sys.modules[f"old_{name}"] = types.ModuleType(f"old_{name}")
        exec(compile(open(path).read(), path, "exec"), module.__dict__)
        for function in functions:
            setattr(stream, function, getattr(module, function))
from studeval.cli import console_main
sys.argv[0] = "studeval"
console_main()  # as the console script runs it
"""


def _args(hands: int | str, fmt: str) -> list[str]:
    """The command's arguments: random hands, or a file of hands when given a path."""
    source = ["--random", str(hands), "--seed", "1"] if isinstance(hands, int) else [hands]
    return ["rank", *source, "--format", fmt, "--threads", "1"]


def run(old: str, hands: int | str, fmt: str) -> tuple[float, float]:
    """CPU seconds and peak MB of one child run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with open(os.devnull, "wb") as sink:
        subprocess.run([sys.executable, "-c", _CHILD, old, *_args(hands, fmt)], stdout=sink,
                       check=True)  # fmt: skip
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, after.ru_maxrss / 1024


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="500,000 hands")
    args = parser.parse_args()
    hands = 500_000 if args.quick else 4_000_000
    old = Path(os.environ.get("TMPDIR", "/tmp")) / f"studeval-writer-{BEFORE}"
    for name in ("formatting", "parsing"):
        text = subprocess.run(["git", "-C", str(ROOT), "show",
                               f"{BEFORE}:src/studeval/{name}.py"], check=True,
                              capture_output=True, text=True).stdout  # fmt: skip
        Path(f"{old}-{name}.py").write_text(text)
    path = Path(f"{old}-hands.txt")
    from studeval.cards import cards_str
    from studeval.parsing import random_hands

    path.write_text("".join(cards_str(row) + "\n" for row in random_hands(hands, seed=5)))
    print("One thread, CPU seconds of the whole command, > /dev/null:\n")
    print("| command | format | before | after | speed-up | peak MB before / after |")
    print("|---|---|---:|---:|---:|---:|")
    for label, source in ((f"--random {hands:,}", hands), (f"a file of {hands:,} lines",
                                                            str(path))):  # fmt: skip
        for fmt in ("csv", "jsonl", "table"):
            runs: dict[str, list[tuple[float, float]]] = {"old": [], "new": []}
            for _ in range(ROUNDS):
                runs["old"].append(run(str(old), source, fmt))
                runs["new"].append(run("-", source, fmt))
            (t_old, _), (t_new, _) = min(runs["old"]), min(runs["new"])
            # ru_maxrss of children is the largest so far: each peak in a fresh process.
            peak_old, peak_new = _peak(str(old), source, fmt), _peak("-", source, fmt)
            print(f"| {label} | {fmt} | {t_old:.2f} s | {t_new:.2f} s | {t_old / t_new:.2f}x "
                  f"| {peak_old:.0f} / {peak_new:.0f} |")  # fmt: skip
    return 0


def _peak(old: str, hands: int | str, fmt: str) -> float:
    """Peak RSS (MB) of one run, in a fresh process so the maximum is its own."""
    code = (
        "import resource, subprocess, sys; subprocess.run(sys.argv[1:], check=True, "
        "stdout=subprocess.DEVNULL); "
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024)"
    )
    cmd = [sys.executable, "-c", _CHILD, old, *_args(hands, fmt)]
    out = subprocess.run([sys.executable, "-c", code, *cmd], check=True, capture_output=True,
                         text=True).stdout  # fmt: skip
    return float(out.strip())


if __name__ == "__main__":
    started = time.perf_counter()
    status = main()
    print(f"\n({time.perf_counter() - started:.0f} s)")
    raise SystemExit(status)
