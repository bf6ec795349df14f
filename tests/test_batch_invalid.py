"""Build and run ``tests/c/batch_invalid.c`` on each batch kernel the CPU offers:
every repeated code (2..k copies), and codes past 51, in every lane of a 96-row
batch, contiguous, with slack and column-major. The program places the bad row
itself, so its expectation does not come from the core.

A fuzzer found why this exists: three copies of code 31 (or five of code 30)
wrapped around the AVX2 kernel's 32-bit sum of card bits and the row passed.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest
from helpers import build_c_check

KERNELS = ["scalar", "avx2", "avx512", "avx512_loads"]
# Per k (5, 6, 7), layout (3) and place (96): codes 0-51 repeated 2..k times, and
# five codes past 51 once..k times.
EXPECTED_BAD_ROWS = sum((52 * (k - 1) + 5 * k) * 3 * 96 for k in (5, 6, 7))


@pytest.fixture(scope="module")
def batch_invalid(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("batch_invalid")
    return build_c_check(out, "batch_invalid", ["batch_invalid.c"])


@pytest.mark.parametrize("kernel", KERNELS)
def test_every_invalid_row_is_named(batch_invalid: Path, kernel: str) -> None:
    env = {**os.environ, "STUDEVAL_KERNEL": kernel}
    proc = subprocess.run([str(batch_invalid)], env=env, capture_output=True, text=True,
                          timeout=600, check=False)  # fmt: skip
    assert proc.returncode == 0, proc.stdout + proc.stderr
    ran = re.search(r"^batch kernel: (\w+)$", proc.stdout, re.M)
    assert ran is not None, proc.stdout
    if ran.group(1) != kernel:
        assert kernel != "scalar", proc.stdout
        pytest.skip(f"this CPU cannot run the {kernel} kernel")
    found = re.search(r"^ok (\d+) invalid rows named, (\d+) valid rows ranked$", proc.stdout,
                      re.M)  # fmt: skip
    assert found is not None, proc.stdout
    assert int(found.group(1)) == EXPECTED_BAD_ROWS == 250_560
    assert int(found.group(2)) == 3 * 3 * 3 * 96
