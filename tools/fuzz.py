"""Sanitizer builds and fuzzers of the core and the Python API, in one command.

    python tools/fuzz.py                 # everything, 60 s per fuzzer
    python tools/fuzz.py --seconds 600   # longer fuzzing
    python tools/fuzz.py --only libfuzzer,atheris
    python tools/fuzz.py --only libfuzzer --targets solve   # one fuzzer

Steps (each fails the command on any finding):

1. ``asan``: the exhaustive C check (tests/c) built with
   ``-fsanitize=address,undefined`` (two files without UBSan's pointer-overflow
   check: SLOW_TO_SANITIZE), the core compared on the first hands of each
   size (the brute-force reference still runs in full);
2. ``tsan``: the same check under ThreadSanitizer, whose 2-thread batches race
   on nothing; both steps also run the invalid-row check (tests/c/batch_invalid.c:
   every repeated or out-of-range code in every lane of a batch), the equity
   check (tests/c/equity_check.c) on fewer spots, with its threaded counting,
   sampling and stopping, and the engine check (tests/c/engine_check.c: random
   tables and byte streams of legal and illegal calls, chips conserved, refusals
   changing nothing) and the tables
   check (tests/c/tables_check.c: tables stepped by a team of 2 threads equal to
   one thread's after every step, the team's worker kept from step to step) and the
   query check (tests/c/query_check.c: a query's trials on 2 threads equal to one
   thread's, every trial's shares adding to 1) and the solve check
   (tests/c/solve_check.c: a sixth-street spot and a fifth-street one over four
   boards solved on 2 and 3 threads equal to one thread, the best responses worth at
   least the values, a combination never dealt at a node left uniform there);
3. ``libfuzzer``: tests/fuzz/fuzz_batch.c, libFuzzer over ``se_rank_batch``
   with AddressSanitizer and UBSan, the single-hand calls as its oracle; then
   tests/c/engine_check.c as a libFuzzer target over the engine (its bytes choose
   the table and every call), tests/fuzz/fuzz_format.c over ``se_format_rows``
   (tables, indexes and room from the bytes, a plain concatenation as its oracle)
   and tests/fuzz/fuzz_parse.c over ``se_parse_lines`` (any bytes as text; each
   line read alone as its oracle), and tests/fuzz/fuzz_history.c over the hand-history
   reader (any bytes as a PokerStars hand, from our example hand: read, prepared,
   played and checked, chips conserved), and tests/fuzz/fuzz_ranges.c over equity
   against ranges (spots, combinations and weights from the bytes, sums checked),
   and tests/fuzz/fuzz_query.c over queries (spots, ranges, programs and given trials
   from the bytes; each output within its scale), and tests/fuzz/fuzz_solve.c over the
   solver (spots, groups, trees with chance nodes and boards from the bytes; 1 and 2
   threads alike, strategies and values checked, bad splits of the boards refused),
   each as long again, side by side a core each (``--targets`` picks some of them);
4. ``atheris``: tests/fuzz/fuzz_api.py over the Python API.

It needs clang with libFuzzer (Debian: ``clang`` and ``libclang-rt-14-dev``;
installed with apt-get when missing and running as root) and atheris (installed
with pip into this interpreter when missing). Everything is built in a temporary
directory; the checkout is not touched.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CSRC = REPO / "csrc"
STEPS = ("asan", "tsan", "libfuzzer", "atheris")
# Heads-up spots of the equity check under the sanitizers (the plain build checks 300).
SANITIZED_SPOTS = 40
# Hands of the engine check under the sanitizers (the plain build plays 200,000).
SANITIZED_ENGINE_HANDS = 50_000
# The core is compared on this many hands of each size under the sanitizers
# (about 40 s each on two cores); every hand is compared by the plain build.
SANITIZED_HANDS = 3_000_000


def log(message: str) -> None:
    print(f"fuzz.py: {message}", flush=True)


def run(
    cmd: list[str],
    *,
    env: dict[str, str] | None = None,
    cwd: Path | None = None,
    quiet: bool = False,
) -> str:
    """Run a command, echoing its tail; raise SystemExit with its output on failure."""
    started = time.monotonic()
    proc = subprocess.run(
        cmd, capture_output=True, text=True, env=env, cwd=cwd, check=False, timeout=1800
    )
    output = proc.stdout + proc.stderr
    if proc.returncode != 0:
        sys.stdout.write(output[-6000:])
        raise SystemExit(f"fuzz.py: failed with status {proc.returncode}: {' '.join(cmd)}")
    if not quiet:
        log(f"ok in {time.monotonic() - started:.1f} s: {Path(cmd[0]).name} ...")
    return output


def ensure_clang() -> str:
    """clang that can link libFuzzer, installing it with apt-get if need be."""

    def has_fuzzer() -> bool:
        clang = shutil.which("clang")
        if clang is None:
            return False
        probe = subprocess.run(
            [clang, "-fsanitize=fuzzer", "-x", "c", "-", "-o", os.devnull],
            input="#include <stdint.h>\n#include <stddef.h>\n"
            "int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { return 0; }\n",
            capture_output=True, text=True, check=False,
        )  # fmt: skip
        return probe.returncode == 0

    if not has_fuzzer():
        if os.geteuid() != 0 or shutil.which("apt-get") is None:
            raise SystemExit("fuzz.py: needs clang with libFuzzer (apt-get install clang "
                             "libclang-rt-14-dev) and cannot install it here")  # fmt: skip
        log("installing clang and libFuzzer with apt-get")
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        run(["apt-get", "update", "-qq"], env=env)
        run(["apt-get", "install", "-y", "-qq", "clang", "libclang-rt-14-dev"], env=env)
        if not has_fuzzer():
            raise SystemExit("fuzz.py: clang still cannot link -fsanitize=fuzzer")
    clang = shutil.which("clang")
    assert clang is not None
    return clang


def ensure_atheris() -> None:
    probe = subprocess.run([sys.executable, "-c", "import atheris"], capture_output=True)
    if probe.returncode != 0:
        log("installing atheris with pip")
        run([sys.executable, "-m", "pip", "install", "--quiet", "atheris"])


def core_sources(tables: Path) -> list[Path]:
    """The files of csrc/sources.txt (the list CMake builds) and the generated tables."""
    lines = (CSRC / "sources.txt").read_text(encoding="utf-8").splitlines()
    listed = [CSRC / line.strip() for line in lines if line.strip() and not line.startswith("#")]
    return [*listed, tables / "se_lookup_tables.c"]


def includes(tables: Path) -> list[str]:
    return [f"-I{CSRC / 'include'}", f"-I{CSRC}", f"-I{tables}"]


# One build of the core per sanitizer, shared by every harness linked against it: the
# AVX-512 kernels alone take about a minute to compile under ASan+UBSan, so building
# the core once (its files two at a time) instead of once per harness saves minutes.
# The fuzz targets get a build of their own: libFuzzer's coverage hooks make the
# plain ASan checks several times slower.
CORE_FLAGS = {
    "asan": ["-fsanitize=address,undefined", "-fno-sanitize-recover=all"],
    "tsan": ["-fsanitize=thread"],
    "fuzz": ["-fsanitize=fuzzer-no-link,address,undefined", "-fno-sanitize-recover=all"],
}
COMMON = ["-O1", "-g", "-std=c99", "-pthread"]
# UBSan's pointer-overflow check of the two files that inline the ranking loops many
# times takes clang 14 a minute to compile (on a Zen 3: the vector kernels 70 s of the
# file's 80, equity's counting 40 of 60; every other file takes under 4 s), the longest
# part of each core build. AddressSanitizer still checks every access they make, and
# every other file (the scalar ranking loop among them) keeps the check.
SLOW_TO_SANITIZE = {"se_kernel_x86.c": ["-fno-sanitize=pointer-overflow"],
                    "se_equity.c": ["-fno-sanitize=pointer-overflow"]}  # fmt: skip


def file_flags(sanitizer: str, source: Path) -> list[str]:
    """The sanitizer's flags for one core file (less SLOW_TO_SANITIZE's checks)."""
    flags = CORE_FLAGS[sanitizer]
    undefined = any("undefined" in flag for flag in flags)
    return [*flags, *(SLOW_TO_SANITIZE.get(source.name, []) if undefined else [])]


def build_core(clang: str, work: Path, sanitizer: str) -> list[str]:
    """Compile every core file with the sanitizer's flags, as many at once as there
    are cores; return the object files."""
    out = work / f"core-{sanitizer}"
    out.mkdir(exist_ok=True)
    sources = core_sources(work)
    objects = [out / f"{index:02}-{source.stem}.o" for index, source in enumerate(sources)]
    started = time.monotonic()
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        jobs = [pool.submit(run, [clang, *COMMON, *file_flags(sanitizer, source),
                                  *includes(work), "-c", str(source), "-o", str(obj)], quiet=True)
                for source, obj in zip(sources, objects, strict=True)]  # fmt: skip
        for job in jobs:
            job.result()
    log(f"{sanitizer} core: {len(objects)} files in {time.monotonic() - started:.1f} s")
    return [str(obj) for obj in objects]


def link(
    clang: str, work: Path, core: list[str], flags: list[str], harness: list[Path], name: str
) -> Path:
    """Compile a harness and link it with a sanitizer build of the core."""
    binary = work / name
    (work / "fuzz_history_rooms.h").write_text(history_rooms_header())
    run([clang, *COMMON, *flags, *includes(work), *map(str, harness), *core,
         "-o", str(binary), "-lpthread"])  # fmt: skip
    return binary


def sanitized_check(clang: str, work: Path, sanitizer: str) -> str:
    core = build_core(clang, work, sanitizer)
    flags = CORE_FLAGS[sanitizer]
    data = f'-DTEST_DATA_DIR="{REPO / "tests" / "data"}"'  # the check reads its fixtures
    binary = link(clang, work, core, [*flags, data],
                  [REPO / "tests" / "c" / "reference.c", REPO / "tests" / "c" / "exhaustive.c"],
                  f"exhaustive-{sanitizer}")  # fmt: skip
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=1:abort_on_error=1",
               UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1",
               TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1")  # fmt: skip
    output = run([str(binary), str(SANITIZED_HANDS)], env=env)
    last = output.strip().splitlines()[-1]
    if not last.startswith("PASS") or "WARNING: ThreadSanitizer" in output:
        raise SystemExit(f"fuzz.py: {sanitizer} check did not pass: {last}")
    threads = re.search(r"worker threads started: (\d+)", output)
    checks = "; ".join(f"{name}: {sanitized_c_check(clang, work, sanitizer, core, env, name)}"
                       for name in SANITIZED_CHECKS)  # fmt: skip
    return f"{last}; {threads.group(1) if threads else '?'} worker threads; {checks}"


#: The C checks each sanitizer runs after the exhaustive one: the source in tests/c/,
#: extra compile flags, the arguments, and what a pass reports (None: its "ok" line).
SANITIZED_CHECKS: dict[str, tuple[str, list[str], list[str], str | None]] = {
    # every repeated and out-of-range code in every lane of a batch (auto's kernel)
    "invalid": ("batch_invalid.c", [], [], None),
    # counting against walking on 2 threads (the parallel sweeps), Monte Carlo on 1
    # and 3 threads, progress and stopping, on fewer spots
    "equity": ("equity_check.c", [], [str(SANITIZED_SPOTS), "7"],
               f"{SANITIZED_SPOTS} heads-up spots agree"),
    "engine": ("engine_check.c", ["-DENGINE_CHECK_MAIN"], [str(SANITIZED_ENGINE_HANDS), "9"],
               f"{SANITIZED_ENGINE_HANDS:,} hands"),
    # tables stepped by a team of 2 threads against one thread, array for array
    "tables": ("tables_check.c", [], ["2048", "60", "5"], None),
    # a query's trials on 2 threads equal to one thread's, its shares adding up
    "query": ("query_check.c", [], ["20000", "5"], None),
    # a sixth-street spot and a fifth-street one over four boards solved on 2 and 3
    # threads equal to one thread, its best responses above its values
    "solve": ("solve_check.c", [], ["40", "5"], None),
}  # fmt: skip


def sanitized_c_check(clang: str, work: Path, sanitizer: str, core: list[str],
                      env: dict[str, str], name: str) -> str:  # fmt: skip
    """One of SANITIZED_CHECKS under the same sanitizer: what it reports on a pass."""
    source, extra, args, report = SANITIZED_CHECKS[name]
    binary = link(clang, work, core, [*extra, *CORE_FLAGS[sanitizer]],
                  [REPO / "tests" / "c" / source], f"{name}-{sanitizer}")  # fmt: skip
    output = run([str(binary), *args], env=env)
    last = output.strip().splitlines()[-1]
    if not last.startswith("ok ") or "WARNING: ThreadSanitizer" in output:
        raise SystemExit(f"fuzz.py: {sanitizer} {name} check did not pass: {last}")
    return report if report is not None else last.removeprefix("ok ")


def libfuzzer(clang: str, work: Path, seconds: int, only: set[str] | None = None) -> str:
    targets = {"batch": REPO / "tests" / "fuzz" / "fuzz_batch.c",
               "engine": REPO / "tests" / "c" / "engine_check.c",
               "format": REPO / "tests" / "fuzz" / "fuzz_format.c",
               "parse": REPO / "tests" / "fuzz" / "fuzz_parse.c",
               "history": REPO / "tests" / "fuzz" / "fuzz_history.c",
               "ranges": REPO / "tests" / "fuzz" / "fuzz_ranges.c",
               "query": REPO / "tests" / "fuzz" / "fuzz_query.c",
               "solve": REPO / "tests" / "fuzz" / "fuzz_solve.c"}  # fmt: skip
    if only:
        unknown = only - targets.keys()
        if unknown:
            raise SystemExit(f"fuzz.py: unknown target {sorted(unknown)[0]!r}; targets are "
                             f"{', '.join(targets)}")  # fmt: skip
        targets = {name: source for name, source in targets.items() if name in only}
    core = build_core(clang, work, "fuzz")
    flags = ["-fsanitize=fuzzer,address,undefined", "-fno-sanitize-recover=all"]
    runs: dict[str, list[str]] = {}
    for name, source in targets.items():
        binary = link(clang, work, core, flags, [source], f"fuzz_{name}")
        corpus = work / f"corpus-{name}"
        corpus.mkdir()
        if name == "history":  # from a whole hand, the fuzzer reaches the replay at once
            (corpus / "example").write_text(_history_seed())
            for number, (_, _, seed) in enumerate(_c_formats()):
                (corpus / f"format-{number}").write_text(seed)
            for room, seed in _xml_seeds().items():
                (corpus / room).write_text(seed)
        if name == "query":  # two players, the first one's showdown share, 10 trials and 1 given
            (corpus / "example").write_bytes(bytes([0, 2, 0, 0, 0, 0, 0, 1, 1, 20, 255, 255, 0, 7,
                                                    0, 10, 0, 1, *range(14)]))  # fmt: skip
        if name == "solve":  # stud, pot 10, two combinations a seat, seat 0 to check or fold
            spot = [0, 10, 0, 48, 44, 40, 36, 0, 4, 8, 12,
                    2, 16, 20, 24, 17, 21, 25, 0,
                    2, 18, 22, 26, 19, 23, 27, 0]  # fmt: skip
            (corpus / "example").write_bytes(bytes([*spot,
                                                    2, 0, 0, 1, 2, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0,
                                                    1, 0, 0, 0, 0, 0, 0, 0, 0, 3]))  # fmt: skip
            # the same, a check dealing one of two boards (2c..3s, or 6c 2c..3h: seat 0's
            # 6c 7c 8c kept out of the second) to a showdown
            (corpus / "boards").write_bytes(bytes([*spot, 4,
                                                   0, 0, 1, 2, 0, 0, 0, 3, 0, 3, 2, 0, 0, 0,
                                                   1, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0,
                                                   2, 0, 0, 0, 0, 0, 0, 2, 0, *[0] * 8,
                                                   16, *[0] * 7, 3]))  # fmt: skip
        runs[name] = [str(binary), str(corpus), f"-max_total_time={seconds}",
                      "-print_final_stats=1", "-rss_limit_mb=4096"]  # fmt: skip
    # The fuzzers (one thread each) run side by side, a core each: CI's time is bounded.
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        outputs = dict(zip(runs, pool.map(lambda command: run(command, cwd=work),
                                          runs.values()), strict=True))  # fmt: skip
    return "; ".join(f"{name}: {_executions(outputs[name])}" for name in runs)


def _history_seed() -> str:
    """The PokerStars example hand (written for the project), the history fuzzer's seed,
    from the installed package (as atheris needs it too)."""
    from studeval.histories import EXAMPLE

    return EXAMPLE


def _xml_seeds() -> dict[str, str]:
    """One ``<game>`` element each XML room's writer wrote, a hand to the showdown (the
    history fuzzer reads a text that starts "<game" as iPoker's or Merge's)."""
    import re

    from studeval.histories import Table
    from studeval.histories.rooms import ipoker, merge
    from studeval.play import random_hand

    seeds = {}
    for room in (ipoker, merge):
        hand = random_hand("stud8", 4, seed=2)
        text = room.write(hand, Table(names=["Ann", "Bob", "Cy", "Di"]))
        found = re.search(r"<game\b.*</game>", text, re.DOTALL)
        assert found is not None
        seeds[room.SITE] = found.group()
    return seeds


def _c_formats() -> list[tuple[str, object, str]]:
    """Every format the C reader reads: how its hands start (the text before the first
    digit of a hand its writer wrote; PokerStars' last, as ""), its grammar, and that
    hand (a seed of the history fuzzer)."""
    from studeval.histories import Table, _reader, _split
    from studeval.histories.rooms import ROOMS
    from studeval.play import random_hand

    found: dict[int, tuple[str, object, str]] = {}
    for room in ROOMS:
        for writer in room.writers.values():
            hand = random_hand("stud8", 4, seed=2)
            sign = "€" if room.site == "Winamax" else "$"
            text = writer(hand, Table(names=["Ann", "Bob", "Cy", "Di"], sign=sign))
            first = next(_split.hands(text, _reader.GRAMMARS), None)  # None: an XML room
            grammar = first[0] if first is not None else None
            if grammar is not None and grammar.in_c and id(grammar) not in found:
                start = "" if grammar.site == "PokerStars" else re.split(r"\d", text, maxsplit=1)[0]
                found[id(grammar)] = (start, grammar, text)
    return sorted(found.values(), key=lambda f: f[0] == "")  # PokerStars' last: any text


def history_rooms_header() -> str:
    """``fuzz_history_rooms.h``: the C reader's formats for tests/fuzz/fuzz_history.c,
    from the rooms' own grammars (their templates and flags)."""
    import json

    from studeval.histories._fast import c_flags

    arrays, rows = [], []
    for number, (start, grammar, _) in enumerate(_c_formats()):
        lines = "".join(
            f"    {{SE_HIST_{role.upper()}, {value}, "
            f"{json.dumps(text, ensure_ascii=False)}, {{0}}}},\n"
            for role, value, text in grammar.templates
        )  # type: ignore[attr-defined]
        arrays.append(f"static se_hist_template format_{number}[] = {{\n{lines}}};\n")
        rows.append(
            f"    {{{json.dumps(start)}, {c_flags(grammar)}, format_{number}, "  # type: ignore[arg-type]
            f"(int)(sizeof format_{number} / sizeof *format_{number})}},\n"
        )
    return (
        "/* Written by tools/fuzz.py from the rooms' grammars. */\n"
        + "\n".join(arrays)
        + "static const struct {\n    const char *start;\n    int flags;\n"
        "    se_hist_template *templates;\n    int count;\n} fuzz_rooms[] = {\n"
        + "".join(rows)
        + "};\n"
    )


def atheris_run(work: Path, seconds: int) -> str:
    corpus = work / "corpus-api"
    corpus.mkdir()
    output = run([sys.executable, str(REPO / "tests" / "fuzz" / "fuzz_api.py"), str(corpus),
                  f"-max_total_time={seconds}", "-print_final_stats=1"], cwd=work)  # fmt: skip
    return _executions(output)


def _executions(output: str) -> str:
    runs = re.search(r"stat::number_of_executed_units: (\d+)", output)
    rate = re.search(r"stat::average_exec_per_sec: +(\d+)", output)
    if runs is None:
        raise SystemExit("fuzz.py: the fuzzer printed no statistics")
    return f"{int(runs.group(1)):,} executions, {rate.group(1) if rate else '?'}/s, no finding"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=60, help="time per fuzzer (60)")
    parser.add_argument("--only", default=",".join(STEPS), help=f"steps ({','.join(STEPS)})")
    parser.add_argument("--targets", default="",
                        help="libfuzzer: only these targets, e.g. solve,query (all)")  # fmt: skip
    args = parser.parse_args(argv)
    steps = [s.strip() for s in args.only.split(",") if s.strip()]
    unknown = [s for s in steps if s not in STEPS]
    if unknown:
        parser.error(f"unknown step {unknown[0]!r}; steps are {', '.join(STEPS)}")
    results: dict[str, str] = {}
    with tempfile.TemporaryDirectory(prefix="studeval-fuzz-") as tmp:
        work = Path(tmp)
        run([sys.executable, str(CSRC / "rank" / "gen" / "gen_tables.py"), "--output", str(work)])
        clang = ensure_clang() if {"asan", "tsan", "libfuzzer"} & set(steps) else ""
        for step in steps:
            log(f"== {step}")
            if step in ("asan", "tsan"):
                results[step] = sanitized_check(clang, work, step)
            elif step == "libfuzzer":
                targets = {t.strip() for t in args.targets.split(",") if t.strip()}
                results[step] = libfuzzer(clang, work, args.seconds, targets)
            else:
                ensure_atheris()
                results[step] = atheris_run(work, args.seconds)
    log("== summary")
    for step, result in results.items():
        print(f"  {step:<10} {result}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
