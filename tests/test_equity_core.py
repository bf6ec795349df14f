"""Build and run tests/c/equity_check.c: counting against walking, in C, by the hundred.

Hundreds of random heads-up spots in every game, from fifth street to the river,
with and without dead cards and unknown hole cards, are counted by the
inclusion-exclusion method and walked deal by deal; every count must agree. The
program also checks that shares add up to the pot and that Monte Carlo sums do
not depend on the thread count. Built from the sources in a temporary directory.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from test_exhaustive import CSRC, TESTS_C, _run, find_compiler

SPOTS = 300


@pytest.fixture(scope="module")
def equity_check(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("equity")
    _run([sys.executable, str(CSRC / "gen" / "gen_tables.py"), "--output", str(out)],
         "table generator", 300)  # fmt: skip
    binary = out / "equity_check"
    _run([*find_compiler().split(), "-O2", "-std=c99", "-Wall", "-Wextra", "-Werror", "-pthread",
          f"-I{CSRC / 'include'}", f"-I{CSRC}", f"-I{out}", *map(str, sorted(CSRC.glob("*.c"))),
          str(out / "se_tables.c"), str(TESTS_C / "equity_check.c"), "-o", str(binary),
          "-lpthread"], "compiling the equity check", 600)  # fmt: skip
    return binary


def test_counting_equals_walking_on_hundreds_of_spots(equity_check: Path) -> None:
    proc = subprocess.run([str(equity_check), str(SPOTS), "2026"], capture_output=True,
                          text=True, timeout=600, check=False)  # fmt: skip
    assert proc.returncode == 0, proc.stdout + proc.stderr
    pattern = (
        r"^ok (\d+) heads-up spots \((\d+) with dead cards, (\d+) with unknown "
        r"hole cards, (\d+) with ties, (\d+) where both scoop sometimes, (\d+) also with the "
        r"players swapped, (\d+) no-qualifier spots also by low class"
    )
    found = re.search(pattern, proc.stdout, re.M)
    assert found, proc.stdout
    spots, dead, unknown, ties, scoops, swaps, by_class = map(int, found.groups())
    assert spots == SPOTS == swaps
    assert by_class == SPOTS // 4  # every no-qualifier spot (one in four)
    # The spots really cover the cases they are meant to.
    assert dead > 50 and unknown > 20 and ties > 20 and scoops > 100
