"""Mutation check of the engine's rules: would the tests notice a one-token slip?

Each mutant changes one token of the betting and dealing rules in
``csrc/engine/se_engine.c`` and ``csrc/engine/se_engine_deck.c``: a comparison turned into its
neighbour (``<`` and ``<=``, ``>`` and ``>=``, ``==`` and ``!=``) or a small
constant moved by one (the cap, the streets, the number of cards, half a bet's
factor). For each mutant the C core and the extension are rebuilt (only the mutated
file recompiles) in a private copy of the checkout, and the engine's tests run
against it; a mutant is *killed* when a test fails (or the build hangs or crashes).
One the tests miss gets a second chance to be caught: the C engine check
(``tests/c/engine_check.c``, random tables from C, with a count of the deck of its
own) built with AddressSanitizer and UBSan, which catches a slip that reads or writes
past an array without changing an answer. A mutant that passes both *survives*. A
survivor is either a gap in the tests (write the test that kills it) or an
equivalent mutant: a change no input can observe, listed with its reason in
``tools/mutants-equivalent.txt``. The run fails while any survivor is unlisted, or
(a whole run) while a listed key matches no mutant.

    python tools/mutate_engine.py                 # every mutant (30-40 minutes on 2 idle cores)
    python tools/mutate_engine.py --list          # the mutants, without running them
    python tools/mutate_engine.py --only 40-60    # a slice, by number

Needs the build tools of ``pip install -e .`` (CMake, Ninja, Cython, a C compiler)
and the test extras in the running interpreter.
"""

from __future__ import annotations

import argparse
import functools
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENGINES = (Path("csrc") / "engine" / "se_engine.c", Path("csrc") / "engine" / "se_engine_deck.c")
EQUIVALENT = ROOT / "tools" / "mutants-equivalent.txt"
#: The functions that hold the rules (argument checks and bookkeeping are left out).
RULE_FUNCTIONS = (
    "se_can_act", "se_increments", "se_bring_in_seat", "se_board_tiebreak",
    "se_board_before", "se_best_board", "se_first_to_act", "se_open_pair_now",
    "se_betting_possible",
    "se_next_to_act", "se_wager_answerable", "se_players_left", "se_finish_by_folds",
    "se_start_showdown", "se_next_shower", "se_end_round", "se_start_betting",
    "se_waiting", "se_cards_due", "se_cards_may_be_dealt", "se_hand_legal", "se_pick",
    "se_advance", "se_count_wager", "se_wager", "se_wager_full_bet", "se_hand_act",
    "se_hand_act_legal", "se_hand_act_known",
    "se_deck_left", "se_deck_shuffle", "se_deck_ready", "se_deck_take",
    "se_folded_cards", "se_refills", "se_deck_drop_known", "se_refill", "se_burn_and_refill",
    "se_hand_card_free",
    "se_hand_deal", "se_hand_deal_random",
)  # fmt: skip
#: The engine's tests: the rules with literal chips, the state machine, PHH and pokerkit.
TESTS = ["tests/test_engine.py", "tests/test_engine_machine.py", "tests/test_phh.py",
         "tests/test_house_options.py",
         "tests/test_engine_core.py", "-k", "not test_the_c_engine_keeps_every_rule"]  # fmt: skip
RELATIONAL = {"<": "<=", "<=": "<", ">": ">=", ">=": ">", "==": "!=", "!=": "=="}
TOKEN = re.compile(r"<<=?|>>=?|->|<=|>=|==|!=|<|>|\b\d+\b")
TEST_TIMEOUT_S = 300


@dataclass(frozen=True)
class Mutant:
    path: Path  # the engine file, relative to the checkout
    number: int
    line: int  # 1-based
    column: int
    old: str
    new: str
    function: str
    text: str  # the line as written

    def key(self) -> str:
        """How tools/mutants-equivalent.txt names it: function, line text, the column
        in that text (two tokens of a line may be alike), change."""
        column = self.column - (len(self.text) - len(self.text.lstrip()))
        return f"{self.function} | {self.text.strip()} | {column}: {self.old} -> {self.new}"

    def apply(self, source: list[str]) -> list[str]:
        line = source[self.line - 1]
        changed = line[: self.column] + self.new + line[self.column + len(self.old) :]
        return [*source[: self.line - 1], changed, *source[self.line :]]


def _functions(lines: list[str]) -> list[str | None]:
    """The rule function each line belongs to (None outside them)."""
    owner: list[str | None] = []
    current: str | None = None
    depth = 0
    for line in lines:
        if depth == 0:
            match = re.match(r"^(?:static\s+)?[\w\s*]+?\b(se_\w+)\s*\(", line)
            current = match.group(1) if match and match.group(1) in RULE_FUNCTIONS else None
        owner.append(current)
        depth += line.count("{") - line.count("}")
        if depth == 0 and "}" in line:
            current = None
    return owner


def _code_spans(line: str, in_comment: bool) -> tuple[list[tuple[int, int]], bool]:
    """The parts of a line that are code, not comments; and whether a comment runs on."""
    spans, at = [], 0
    while at < len(line):
        if in_comment:
            end = line.find("*/", at)
            if end < 0:
                return spans, True
            at, in_comment = end + 2, False
            continue
        start = line.find("/*", at)
        slash = line.find("//", at)
        if slash >= 0 and (start < 0 or slash < start):
            spans.append((at, slash))
            return spans, False
        if start < 0:
            spans.append((at, len(line)))
            return spans, False
        spans.append((at, start))
        at, in_comment = start + 2, True
    return spans, in_comment


def mutants(path: Path, source: list[str]) -> list[Mutant]:
    found: list[Mutant] = []
    owners = _functions(source)
    in_comment = False
    for number, line in enumerate(source, 1):
        spans, in_comment = _code_spans(line, in_comment)
        function = owners[number - 1]
        if function is None or line.lstrip().startswith("#"):
            continue
        for start, end in spans:
            for match in TOKEN.finditer(line, start, end):
                token, column = match.group(), match.start()
                if token in RELATIONAL:
                    changes = [RELATIONAL[token]]
                elif token.isdigit() and line[column - 1 : column] != "[":
                    value = int(token)
                    changes = [str(value + 1)] + ([str(value - 1)] if value > 0 else [])
                else:
                    continue
                for new in changes:
                    found.append(Mutant(path, 0, number, column, token, new, function, line))
    # The cap lives in a define: one more and one less raise a round.
    for number, line in enumerate(source, 1):
        match = re.match(r"#define SE_CAP (\d+)", line)
        if match:
            value = int(match.group(1))
            column = match.start(1)
            for new in (str(value + 1), str(value - 1)):
                found.append(Mutant(path, 0, number, column, match.group(1), new, "SE_CAP",
                                    line))  # fmt: skip
    return found


def every_mutant() -> list[Mutant]:
    """The mutants of every engine file, numbered in order."""
    found = [m for path in ENGINES for m in mutants(path, _source(path))]
    return [Mutant(m.path, i, m.line, m.column, m.old, m.new, m.function, m.text)
            for i, m in enumerate(found, 1)]  # fmt: skip


@functools.cache
def _source(path: Path) -> list[str]:
    """An engine file's lines, read once: edits made while the check runs do not
    move its mutants."""
    return (ROOT / path).read_text(encoding="utf-8").splitlines(keepends=True)


def _equivalent() -> dict[str, str]:
    """tools/mutants-equivalent.txt: ``key :: reason`` lines."""
    listed = {}
    if EQUIVALENT.exists():
        for line in EQUIVALENT.read_text(encoding="utf-8").splitlines():
            if line.strip() and not line.startswith("#"):
                key, _, reason = line.partition(" :: ")
                listed[key.strip()] = reason.strip()
    return listed


def _run(cmd: list[str], cwd: Path, timeout: float, env: dict[str, str] | None = None) -> int:
    try:
        return subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, timeout=timeout).returncode  # fmt: skip
    except subprocess.TimeoutExpired:
        return -1


class Workspace:
    """A private copy of the checkout with a CMake build of the extension."""

    def __init__(self, work: Path) -> None:
        self.copy = work / "src"
        self.build = work / "build"
        files = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z"], capture_output=True,
                               check=True).stdout.decode().split("\0")  # fmt: skip
        for name in filter(None, files):
            target = self.copy / name
            target.parent.mkdir(parents=True, exist_ok=True)
            if (ROOT / name).is_file():
                shutil.copy2(ROOT / name, target)
        self.originals = {path: (self.copy / path).read_text(encoding="utf-8")
                          for path in ENGINES}  # fmt: skip
        import cython_cmake  # the CMake modules scikit-build-core hands a build

        modules = Path(cython_cmake.__file__).parent / "cmake"
        configure = [
            "cmake", "-S", str(self.copy), "-B", str(self.build), "-G", "Ninja",
            "-DCMAKE_BUILD_TYPE=Release", f"-DPython_EXECUTABLE={sys.executable}",
            f"-DCMAKE_MODULE_PATH={modules}",
        ]  # fmt: skip
        if _run(configure, self.copy, 300) != 0:
            raise SystemExit("mutate_engine: cmake could not configure the copy")
        self.env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
        # The tests must import the copy's package. An editable install of the
        # checkout puts an import hook before any path (a .pth file), so the tests
        # run without the site module's .pth processing, on the copy's src/ and this
        # environment's site-packages named explicitly.
        paths = [str(self.copy / "src"), sysconfig.get_path("purelib"),
                 sysconfig.get_path("platlib")]  # fmt: skip
        self.bootstrap = (f"import sys; sys.path[:0] = {paths!r}; import pytest; "
                          "sys.exit(pytest.main(sys.argv[1:]))")  # fmt: skip

    def sanitized_check(self) -> bool:
        """Whether the C engine check, under ASan and UBSan, passes on the copy."""
        compiler = shutil.which("clang") or shutil.which("cc")
        if compiler is None:
            return True
        csrc = self.copy / "csrc"
        binary = self.build / "engine_check_asan"
        tables = self.build / "generated" / "se_lookup_tables.c"
        listed = (csrc / "sources.txt").read_text(encoding="utf-8").splitlines()
        sources = [*(str(csrc / line.strip()) for line in listed
                     if line.strip() and not line.startswith("#")), str(tables),
                   str(self.copy / "tests" / "c" / "engine_check.c")]  # fmt: skip
        compile_ = [compiler, "-O1", "-g", "-std=c99", "-pthread", "-DENGINE_CHECK_MAIN",
                    "-fsanitize=address,undefined", "-fno-sanitize-recover=all",
                    f"-I{csrc / 'include'}", f"-I{csrc}", f"-I{self.build / 'generated'}",
                    *sources, "-o", str(binary), "-lpthread"]  # fmt: skip
        if _run(compile_, self.copy, 600) != 0:
            return False
        env = dict(os.environ, ASAN_OPTIONS="detect_leaks=0:abort_on_error=1",
                   UBSAN_OPTIONS="halt_on_error=1")  # fmt: skip
        return _run([str(binary), "20000", "7"], self.copy, TEST_TIMEOUT_S, env) == 0

    def build_and_test(self, path: Path, text: str, sanitize: bool = True) -> str:
        """'killed', 'survived' or 'stillborn' (does not compile), with ``path`` (an
        engine file) holding ``text``."""
        self.restore()
        (self.copy / path).write_text(text, encoding="utf-8")
        if _run(["cmake", "--build", str(self.build)], self.copy, 600) != 0:
            return "stillborn"
        for built in self.build.glob("_core*.so"):
            shutil.copy2(built, self.copy / "src" / "studeval" / built.name)
        pytest = [sys.executable, "-S", "-c", self.bootstrap, "-x", "-q", "-p",
                  "no:cacheprovider", "--hypothesis-seed=0", *TESTS]  # fmt: skip
        if _run(pytest, self.copy, TEST_TIMEOUT_S, self.env) != 0:
            return "killed"
        return "survived" if not sanitize or self.sanitized_check() else "killed"

    def restore(self) -> None:
        for path, text in self.originals.items():
            if (self.copy / path).read_text(encoding="utf-8") != text:
                (self.copy / path).write_text(text, encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--list", action="store_true", help="list the mutants and stop")
    parser.add_argument("--only", metavar="A-B", help="run mutants A to B only")
    parser.add_argument("--numbers", metavar="N,M", help="run these mutants only")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                        help="mutants built and tested at once (default: one a core)")  # fmt: skip
    args = parser.parse_args(argv)
    every = every_mutant()
    if args.list:
        for m in every:
            print(f"{m.number:4} line {m.line:4} {m.function:<22} {m.old:>3} -> {m.new:<3} "
                  f"{m.text.strip()}")  # fmt: skip
        print(f"{len(every)} mutants")
        return 0
    chosen = every
    if args.only:
        first, _, last = args.only.partition("-")
        chosen = [m for m in every if int(first) <= m.number <= int(last or first)]
    if args.numbers:
        wanted = {int(n) for n in args.numbers.split(",")}
        chosen = [m for m in chosen if m.number in wanted]
    equivalent = _equivalent()
    started = time.perf_counter()
    outcome: dict[str, list[Mutant]] = {"killed": [], "survived": [], "stillborn": []}
    jobs = max(1, min(args.jobs, len(chosen)))
    with tempfile.TemporaryDirectory(prefix="studeval-mutants-") as work:
        spaces = [Workspace(Path(work) / str(i)) for i in range(jobs)]
        for space in spaces:
            engine = space.originals[ENGINES[0]]
            if space.build_and_test(ENGINES[0], engine, sanitize=True) != "survived":
                raise SystemExit("mutate_engine: the engine's checks fail without any mutant")
            # And they must see the build: rules broken on purpose fail them.
            broken = engine.replace("#define SE_CAP 4", "#define SE_CAP 1")
            if broken == engine or space.build_and_test(ENGINES[0], broken) != "killed":
                raise SystemExit("mutate_engine: the tests do not run on the mutated build")

        def run_share(space: Workspace, share: list[Mutant]) -> None:
            try:
                for m in share:
                    result = space.build_and_test(m.path, "".join(m.apply(_source(m.path))))
                    outcome[result].append(m)
                    print(f"{m.number:4}/{len(every)} {result:<9} line {m.line} "
                          f"{m.function}: {m.old} -> {m.new}", flush=True)  # fmt: skip
            finally:
                space.restore()

        # Each workspace builds and tests its own share, so the builds never meet.
        threads = [threading.Thread(target=run_share, args=(space, chosen[i::jobs]))
                   for i, space in enumerate(spaces)]  # fmt: skip
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    for results in outcome.values():
        results.sort(key=lambda m: m.number)
    unlisted = [m for m in outcome["survived"] if m.key() not in equivalent]
    print(f"\n{len(chosen)} mutants in {time.perf_counter() - started:.0f} s: "
          f"{len(outcome['killed'])} killed, {len(outcome['survived'])} survived "
          f"({len(outcome['survived']) - len(unlisted)} listed as equivalent), "
          f"{len(outcome['stillborn'])} did not compile")  # fmt: skip
    for m in outcome["survived"]:
        reason = equivalent.get(m.key())
        print(f"  {'equivalent' if reason else 'SURVIVED':<10} {m.key()}"
              + (f"\n             because {reason}" if reason else ""))  # fmt: skip
    # A listed reason whose code is gone would hide the next slip in its place.
    stale = [] if args.only or args.numbers else sorted(set(equivalent) - {m.key() for m in every})
    for key in stale:
        print(f"  STALE      {key}  (listed, but no mutant has this key)")
    return 1 if unlisted or stale else 0


if __name__ == "__main__":
    sys.exit(main())
