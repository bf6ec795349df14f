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
from pathlib import Path

import pytest
from helpers import build_c_check

SPOTS = 300


@pytest.fixture(scope="module")
def equity_check(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_c_check(tmp_path_factory.mktemp("equity"), "equity_check", ["equity_check.c"])


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
