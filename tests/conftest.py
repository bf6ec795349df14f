"""Shared test set-up: small batches really run on several threads.

The C core starts threads only for batches of at least 65,536 rows per thread,
so without this every ``threads=2`` test on a few thousand rows would run on one
thread and prove nothing about threads. For the tests the least share is 8 rows
(the core then cuts chunks of 4 rows), and ``threads_started`` lets a test
assert that worker threads ran. The default itself is checked by the C test.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from hypothesis import settings

from studeval import _core

MIN_ROWS_PER_THREAD_IN_TESTS = 8

# No example may fail for its time alone: Hypothesis's default 200 ms deadline is a
# wall-clock threshold, which a busy machine, another test worker or an emulated CPU
# (the aarch64 proof) passes without any fault in the code.
settings.register_profile("studeval", deadline=None)
settings.load_profile("studeval")


def pytest_configure(config: pytest.Config) -> None:
    """``-n auto`` (pytest-xdist) hands out whole files, not single tests: a file's
    module fixtures build C programs (the exhaustive check, the CMake build), which
    tests of one file spread over the workers would each build again. A ``--dist``
    given on the command line is kept."""
    asked = any(arg.startswith("--dist") for arg in config.invocation_params.args)
    if getattr(config.option, "dist", "no") == "load" and not asked:
        config.option.dist = "loadfile"


@pytest.fixture(autouse=True, scope="session")
def _small_batches_use_threads() -> Iterator[None]:
    default = _core._batch_min_rows_per_thread()
    _core._set_batch_min_rows_per_thread(MIN_ROWS_PER_THREAD_IN_TESTS)
    yield
    _core._set_batch_min_rows_per_thread(default)


@pytest.fixture
def threads_started() -> Callable[[], int]:
    """How many C worker threads have started since the test began."""
    start = _core._threads_started()
    return lambda: _core._threads_started() - start
