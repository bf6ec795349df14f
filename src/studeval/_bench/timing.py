"""Timing calls the way ``timeit`` does, and imports in fresh interpreters."""

from __future__ import annotations

import gc
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

__all__ = ["Timing", "import_times", "time_call", "time_calls"]


@dataclass(frozen=True)
class Timing:
    """Seconds per call of one timed callable: best and median over the repeats."""

    best_s: float
    median_s: float
    calls: int
    repeats: int


def _run(fn: Callable[[], object], calls: int) -> float:
    """Seconds that ``calls`` calls of ``fn`` take."""
    start = time.perf_counter()
    for _ in range(calls):
        fn()
    return time.perf_counter() - start


def _calibrate(fn: Callable[[], object], min_time: float) -> tuple[int, float]:
    """Calls per repeat (1, 2, 5, 10, 20, ...) so that one lasts ``min_time``, and its time."""
    steps = (1, 2, 5)
    exponent = 0
    calls = 1
    while True:
        elapsed = _run(fn, calls)
        if elapsed >= min_time:
            return calls, elapsed
        # The timeit.autorange sequence: 1, 2, 5, 10, 20, 50, ...
        exponent += 1
        calls = steps[exponent % 3] * 10 ** (exponent // 3)


def time_calls(
    fns: Sequence[Callable[[], object]], *, repeats: int = 5, min_time: float = 0.1
) -> list[Timing]:
    """Time several callables the way ``timeit`` does, interleaving their repeats.

    For each callable, the number of calls per repeat grows (1, 2, 5, 10, 20, ...)
    until one repeat lasts at least ``min_time`` seconds. Then the repeats run in
    turns (a, b, a, b, ...) with the garbage collector off, so calls whose times are
    compared (1 thread against 2, say) see the same moments of a shared machine.
    The best repeat is the estimate least disturbed by other work; the median is
    reported beside it.

    >>> fast, slow = time_calls([lambda: None, lambda: sum(range(1000))], repeats=3,
    ...                         min_time=0.001)
    >>> fast.repeats, fast.best_s <= fast.median_s, fast.best_s < slow.best_s
    (3, True, True)
    >>> time_calls([lambda: None], repeats=0)
    Traceback (most recent call last):
    ...
    ValueError: repeats must be at least 1, got 0
    """
    if repeats < 1:
        raise ValueError(f"repeats must be at least 1, got {repeats}")
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        plans = [_calibrate(fn, min_time) for fn in fns]
        # The calibration run counts as the first repeat: it ran the final call count.
        per_call = [[elapsed / calls] for calls, elapsed in plans]
        for _ in range(repeats - 1):
            for fn, (calls, _first), times in zip(fns, plans, per_call, strict=True):
                times.append(_run(fn, calls) / calls)
    finally:
        if gc_was_enabled:
            gc.enable()
    return [
        Timing(min(times), statistics.median(times), calls, repeats)
        for (calls, _first), times in zip(plans, per_call, strict=True)
    ]


def time_call(fn: Callable[[], object], *, repeats: int = 5, min_time: float = 0.1) -> Timing:
    """Time ``fn()`` the way ``timeit`` does and return seconds per call.

    See :func:`time_calls`, which this calls with one callable.

    >>> t = time_call(lambda: sum(range(100)), repeats=3, min_time=0.001)
    >>> t.repeats, t.best_s > 0, t.best_s <= t.median_s
    (3, True, True)
    """
    return time_calls([fn], repeats=repeats, min_time=min_time)[0]


_IMPORT_SNIPPET = (
    "import time\n{pre}t = time.perf_counter()\nimport {module}\n"
    "print(repr(time.perf_counter() - t))\n"
)


def import_times(module: str = "studeval", *, repeats: int = 5, preload: str = "") -> list[float]:
    """Seconds that ``import module`` takes in each of ``repeats`` fresh interpreters.

    ``preload`` names a module imported before the clock starts (``"numpy"`` leaves
    numpy's own import cost out). Each repeat is a new ``sys.executable`` process,
    so nothing is cached in memory between them.

    >>> times = import_times("json", repeats=2)
    >>> len(times), all(t > 0 for t in times)
    (2, True)
    """
    pre = f"import {preload}\n" if preload else ""
    code = _IMPORT_SNIPPET.format(pre=pre, module=module)
    out = []
    for _ in range(repeats):
        done = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True
        )
        out.append(float(done.stdout.strip().splitlines()[-1]))
    return out
