"""Build and run the exhaustive C check of the core (``tests/c/exhaustive.c``).

The program compares every 5-, 6- and 7-card hand, and every 1..4-card up-card
hand, between the C core (single-hand and batch paths) and the independent
brute-force reference in ``tests/c/reference.c``, then checks invariants that
need no oracle: textbook category counts, class counts, and the fingerprint of
the order of all 2,598,960 five-card hands under each ranking (pinned below, so
a table change that reorders or merges hands fails loudly).

Everything is built in a pytest temporary directory from the sources: the
tables come from the repository's generator, nothing is written into the tree.
A missing C compiler is a failure in CI, not a skip: this is the core's proof.
The textbook category counts and the hands checked by hand come from
``tests/data``, which the program reads itself.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import HIGH_CATEGORIES, KNOWN_HANDS, build_c_check

from studeval import _core

pytestmark = pytest.mark.slow  # the C check of every hand: minutes

# FNV-1a 64 of all five-card hands sorted by (rank, colex index), each hand
# hashed as its rank (2 bytes) then its colex index (4 bytes), little-endian.
# Derived by the reference; the core must reproduce them exactly.
PINNED_FINGERPRINTS = {
    "high": 0x8ACA1B62F99DE5D9,
    "low": 0x3B0224CEC97A6219,
    "low8": 0x10C9994D0A97B2C1,
}

# The program needs about a minute on two cores; leave room for a slow CI box.
RUN_TIMEOUT_S = 900


@pytest.fixture(scope="module")
def exhaustive_binary(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Generate the tables and compile core + reference + checker in a temp dir."""
    out = tmp_path_factory.mktemp("exhaustive")
    return build_c_check(out, "exhaustive", ["reference.c", "exhaustive.c"])


@pytest.fixture(scope="module", params=["scalar", "avx2", "avx512", "avx512_loads"])
def exhaustive_output(exhaustive_binary: Path, request: pytest.FixtureRequest) -> str:
    """Run the full program once per batch kernel the CPU offers; its stdout feeds the
    tests below. The program says which kernel ran."""
    kernel = request.param
    if kernel != "scalar" and kernel not in _core.batch_kernels():
        # The program would run the whole check on the scalar loop again (half a minute).
        pytest.skip(f"this CPU cannot run the {kernel} kernel")
    env = dict(os.environ)
    env["STUDEVAL_KERNEL"] = kernel
    proc = subprocess.run(
        [str(exhaustive_binary)],
        env=env,
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT_S,
        check=False,
    )
    # Echo the run so `pytest -s` shows the timings and counts.
    sys.stdout.write(proc.stdout)
    ran = re.search(r"^batch kernel: (\w+)$", proc.stdout, re.M)
    if proc.returncode == 0 and ran is not None and ran.group(1) != kernel:
        if kernel != "scalar":
            pytest.skip(f"this CPU cannot run the {kernel} kernel")
        pytest.fail(f"asked for the {kernel} kernel, the program ran {ran.group(1)}")
    if proc.returncode != 0:
        tail = "\n".join(proc.stdout.splitlines()[-30:])
        pytest.fail(
            f"exhaustive check failed (status {proc.returncode}):\n{tail}\n"
            f"--- stderr ---\n{proc.stderr}"
        )
    return proc.stdout


def test_every_hand_matches_the_reference(exhaustive_output: str) -> None:
    """The program ran to the end: no hand of any size disagreed."""
    lines = exhaustive_output.splitlines()
    assert lines[-1].startswith("PASS"), lines[-1]
    assert not any(line.startswith("FAIL") for line in lines)
    for size, count in (("5-card", 2_598_960), ("6-card", 20_358_520), ("7-card", 133_784_560)):
        assert f"ok {count} {size} hands" in exhaustive_output
    assert "ok up cards, classes and statuses" in exhaustive_output


def test_category_counts(exhaustive_output: str) -> None:
    """The textbook counts of tests/data, which the program read and checked, printed."""
    for category in HIGH_CATEGORIES:
        for size, count in ((5, category.five_cards), (6, category.six_cards),
                            (7, category.seven_cards)):  # fmt: skip
            line = rf"^  {size}-card {re.escape(category.name.lower())} +{count}$"
            assert re.search(line, exhaustive_output, re.M), (size, category)


def test_known_hands(exhaustive_output: str) -> None:
    """The hands of tests/data/known_hands.tsv, ranked by the reference and the core."""
    assert f"ok {len(KNOWN_HANDS)} known hands" in exhaustive_output


def test_class_counts(exhaustive_output: str) -> None:
    assert "5-card classes: high 7462, low 6175, low8 56" in exhaustive_output
    assert "7-card reachable classes: high 4824," in exhaustive_output
    for n, classes in ((1, 13), (2, 91), (3, 455), (4, 1820)):
        assert f"{n} up cards: " in exhaustive_output
        assert f"{classes} high classes, {classes} low classes" in exhaustive_output


def test_pinned_fingerprints(exhaustive_output: str) -> None:
    pattern = re.compile(r"^fingerprint (\w+) 0x([0-9a-f]{16})$", re.M)
    found = {name: int(value, 16) for name, value in pattern.findall(exhaustive_output)}
    assert found == PINNED_FINGERPRINTS, {k: hex(v) for k, v in found.items()}
