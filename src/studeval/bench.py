"""Measure studeval beside the other Python hand evaluators.

One run times studeval's numpy batch calls, its single-hand calls and the per-hand
calls of whichever peers are installed (pkrbot, eval7, phevaluator, treys, pokerkit),
on one fixed-seed set of random seven-card hands, and reports nanoseconds per hand.
Before anything is timed, every call's results are checked against studeval's batch
ranks on the same hands, so a fast wrong answer cannot make it into the table.

The peers are imported only when measured; a peer that is not installed is left out.
``benchmarks/report.py``, the pytest-benchmark suite in ``benchmarks/`` and the
``studeval bench`` command all build on this module.

>>> rows = run_bench(300, repeats=1, threads=1, peers=(), include_import=False, min_time=0.0)
>>> [row.key for row in rows][:2]
['studeval.high_ranks/random/t1', 'studeval.high_ranks/sorted/t1']
>>> all(row.best_ns > 0 for row in rows)
True
"""

from __future__ import annotations

import functools
import gc
import importlib
import importlib.metadata
import importlib.util
import os
import platform
import statistics
import subprocess
import sys
import time
import warnings
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass
from types import ModuleType
from typing import Any

import numpy as np

import studeval

__all__ = [
    "DEFAULT_SEED",
    "PEER_NAMES",
    "BenchMismatchError",
    "BenchRow",
    "PeerCall",
    "Timing",
    "check_same_order",
    "format_table",
    "import_times",
    "peer_calls",
    "random_hands",
    "report_dict",
    "run_bench",
    "same_order",
    "sorted_hands",
    "time_call",
    "time_calls",
]

#: Seed of the benchmark hands, so every run and every library sees the same hands.
DEFAULT_SEED = 20240601

#: The peers measured, in the order the table lists them (import names).
PEER_NAMES = ("pkrbot", "eval7", "phevaluator", "treys", "pokerkit", "poker_equity")

_RANK_CHARS = "23456789TJQKA"
_SUIT_CHARS = "cdhs"
# Text of every card code, built once: the peers take cards as text or build them from it.
_CARD_TEXT = tuple(r + s for r in _RANK_CHARS for s in _SUIT_CHARS)

_BATCH_FUNCS = ("high_ranks", "low_ranks", "low8_ranks", "all_ranks")
_BATCH_RANKING = {
    "high_ranks": "high",
    "low_ranks": "low",
    "low8_ranks": "low8",
    "all_ranks": "all",
}


class BenchMismatchError(RuntimeError):
    """Two evaluators disagreed on the benchmark hands, so nothing was timed.

    Raised before timing when a call's results do not match studeval's batch ranks
    (or, for the peers, do not order the hands the same way). It names the call and
    the first hand where they part.
    """


# ---------------------------------------------------------------------------
# Hands
# ---------------------------------------------------------------------------


def _rows_with_duplicates(hands: np.ndarray) -> np.ndarray:
    """Indices of the rows of ``hands`` that hold some card twice."""
    ordered = np.sort(hands, axis=1)
    return np.flatnonzero((ordered[:, 1:] == ordered[:, :-1]).any(axis=1))


def random_hands(n: int, seed: int = DEFAULT_SEED, k: int = 7) -> np.ndarray:
    """Return ``n`` random hands of ``k`` distinct cards as a C-contiguous uint8 array.

    Each row is drawn uniformly among the ordered ``k``-tuples of distinct cards
    (rows with a repeated card are drawn again), from a numpy generator seeded with
    ``seed``, so the same arguments always give the same hands.

    >>> hands = random_hands(4, seed=1)
    >>> hands.shape, hands.dtype.name, hands.flags.c_contiguous
    ((4, 7), 'uint8', True)
    >>> bool((random_hands(4, seed=1) == hands).all())
    True
    >>> random_hands(0)
    Traceback (most recent call last):
    ...
    ValueError: n must be at least 1, got 0
    """
    if n < 1:
        raise ValueError(f"n must be at least 1, got {n}")
    if not 5 <= k <= 7:
        raise ValueError(f"k must be 5, 6 or 7, got {k}")
    rng = np.random.default_rng(seed)
    hands = rng.integers(0, 52, size=(n, k), dtype=np.uint8)
    # Redrawing only the bad rows keeps each row uniform over distinct tuples
    # (per-row rejection sampling); about a third of 7-card draws repeat a card.
    bad = _rows_with_duplicates(hands)
    while bad.size:
        hands[bad] = rng.integers(0, 52, size=(bad.size, k), dtype=np.uint8)
        bad = bad[_rows_with_duplicates(hands[bad])]
    return np.ascontiguousarray(hands)


def sorted_hands(hands: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Return the same hands in enumeration order, and the permutation used.

    Each row's cards are sorted ascending and the rows are put in colex order of
    their card sets: the order of nested loops over the cards with the highest card
    outermost. Consecutive hands then share most cards, which is what an
    enumeration feeds an evaluator; timing it apart from random order shows how much
    of the speed comes from cache locality. ``result[i]`` is ``hands[perm[i]]``
    with its cards sorted.

    >>> ordered, perm = sorted_hands(np.array([[9, 8, 7, 6, 5], [4, 3, 2, 1, 0]], np.uint8))
    >>> ordered.tolist(), perm.tolist()
    ([[0, 1, 2, 3, 4], [5, 6, 7, 8, 9]], [1, 0])
    """
    rows = np.sort(np.asarray(hands), axis=1)
    # A hand's card set as a 52-bit mask; sorting masks numerically is colex order.
    masks = np.bitwise_or.reduce(np.left_shift(np.uint64(1), rows.astype(np.uint64)), axis=1)
    perm = np.argsort(masks, kind="stable")
    return np.ascontiguousarray(rows[perm]), perm


def _hand_texts(hands: np.ndarray) -> list[list[str]]:
    """Each hand as a list of two-character card texts."""
    text = _CARD_TEXT
    return [[text[c] for c in row] for row in hands.tolist()]


# ---------------------------------------------------------------------------
# Order checks
# ---------------------------------------------------------------------------


def same_order(a: Sequence[Any] | np.ndarray, b: Sequence[Any] | np.ndarray) -> bool:
    """Whether two score lists (lower = better in both) order the hands the same way.

    True when for every pair of hands, ``a`` and ``b`` agree on which wins or that
    they tie. Scores may be on different scales: only the order matters.

    >>> same_order([1, 5, 5, 9], [10, 20, 20, 30])
    True
    >>> same_order([1, 5, 5, 9], [10, 20, 21, 30])
    False
    >>> same_order([1, 2], [2, 1])
    False
    """
    a_arr = np.asarray(a)
    b_arr = np.asarray(b)
    if a_arr.shape != b_arr.shape:
        return False
    idx = np.argsort(a_arr, kind="stable")
    a_s = a_arr[idx]
    b_s = b_arr[idx]
    tie = a_s[1:] == a_s[:-1]
    # Sorted by a: a tie in a must be a tie in b, and a step up in a a step up in b;
    # checking neighbours suffices because both orders are transitive.
    return bool(np.all(np.where(tie, b_s[1:] == b_s[:-1], b_s[1:] > b_s[:-1])))


def check_same_order(
    name: str, reference: np.ndarray, keys: np.ndarray, hands: np.ndarray, *, exact: bool = False
) -> None:
    """Raise BenchMismatchError unless ``keys`` ranks ``hands`` as ``reference`` does.

    ``reference`` holds studeval's ranks and ``keys`` the other call's scores mapped
    to lower = better. With ``exact``, the values themselves must be equal (for peers
    that use the same 1..7462 numbering).

    >>> hands = random_hands(3, seed=5)
    >>> check_same_order("demo", np.array([3, 1, 2]), np.array([30, 10, 20]), hands)
    >>> check_same_order("demo", np.array([3, 1, 2]), np.array([3, 1, 2]), hands, exact=True)
    >>> check_same_order("demo", np.array([3, 1, 2]), np.array([10, 30, 20]), hands)
    Traceback (most recent call last):
    ...
    studeval.bench.BenchMismatchError: demo orders the benchmark hands differently from studeval ...
    """
    reference = np.asarray(reference)
    keys = np.asarray(keys)
    if exact:
        diff = np.flatnonzero(reference != keys)
        if diff.size:
            i = int(diff[0])
            raise BenchMismatchError(
                f"{name} gives {keys[i]} but studeval gives {reference[i]} "
                f"for {' '.join(_CARD_TEXT[c] for c in hands[i])} (hand {i})"
            )
        return
    if same_order(reference, keys):
        return
    # Name one hand pair that the two order differently, to make the report useful.
    idx = np.argsort(reference, kind="stable")
    for j in range(idx.size - 1):
        p, q = int(idx[j]), int(idx[j + 1])
        tie = reference[p] == reference[q]
        if (tie and keys[p] != keys[q]) or (not tie and not keys[p] < keys[q]):
            pair = " vs ".join(" ".join(_CARD_TEXT[c] for c in hands[h]) for h in (p, q))
            raise BenchMismatchError(
                f"{name} orders the benchmark hands differently from studeval (hands {p}, "
                f"{q}: {pair}; studeval {reference[p]}, {reference[q]}; "
                f"{name} keys {keys[p]}, {keys[q]})"
            )
    raise BenchMismatchError(f"{name} orders the benchmark hands differently from studeval")


def _keys_higher_better(results: list[Any]) -> np.ndarray:
    """Scores where a higher value wins, negated so lower wins."""
    return -np.asarray(results, dtype=np.int64)


def _keys_lower_better(results: list[Any]) -> np.ndarray:
    return np.asarray(results, dtype=np.int64)


def _keys_comparable(results: list[Any]) -> np.ndarray:
    """Dense ranks (1 = best) of comparable objects where greater wins; None loses."""
    present = [i for i, r in enumerate(results) if r is not None]
    order = sorted(present, key=results.__getitem__, reverse=True)
    keys = np.full(len(results), len(results) + 1, dtype=np.int64)
    rank = 0
    prev: Any = None
    for i in order:
        # Ranks step only when strictly worse, so hands of equal value tie.
        if prev is None or results[i] < prev:
            rank += 1
            prev = results[i]
        keys[i] = rank
    return keys


# ---------------------------------------------------------------------------
# Timing
# ---------------------------------------------------------------------------


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


# ---------------------------------------------------------------------------
# Results
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class BenchRow:
    """One measured call.

    ``best_ns`` and ``median_ns`` are nanoseconds per hand (for ``kind == "import"``
    rows, nanoseconds per import); ``hands`` is the number of hands one timed call
    ranks, so a call took ``best_ns * hands`` nanoseconds.
    """

    key: str
    library: str
    version: str
    call: str
    kind: str  # "batch", "single" (a Python loop of one call per hand) or "import"
    ranking: str  # "high", "low", "low8", "all" or "-"
    order: str  # "random", "sorted" or "-"
    threads: int
    hands: int
    best_ns: float
    median_ns: float

    @property
    def hands_per_s(self) -> float:
        """Hands per second at the best timing."""
        return 1e9 / self.best_ns


def _version(dist: str) -> str:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return "?"


# ---------------------------------------------------------------------------
# Peers
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class PeerCall:
    """One peer's per-hand call, with how to build its inputs and read its scores.

    ``build(hands)`` imports the peer, converts ``hands`` (uint8, shape (n, 7)) into
    the inputs it expects, once, and returns a runner: a callable that ranks all of
    them with one Python call per hand (``[f(x) for x in inputs]``, the way a user
    writes it) and returns the results. ``order_keys(results)`` maps those results to
    numbers where lower wins, to compare with studeval's ranks.
    """

    key: str
    module: str
    call: str
    ranking: str
    max_hands: int
    exact: bool
    make_runner: Callable[[ModuleType, np.ndarray], Callable[[], list[Any]]]
    keys: Callable[[list[Any]], np.ndarray]
    style: str = "single"  # "single": a Python loop of one call per hand; "batch": one call

    def available(self) -> bool:
        """Whether the peer is installed (without importing it)."""
        return importlib.util.find_spec(self.module) is not None

    def build(self, hands: np.ndarray) -> Callable[[], list[Any]]:
        """Import the peer and return a runner over pre-built inputs for ``hands``."""
        with warnings.catch_warnings():
            # Some peers warn on import about their own dependencies (eval7: pyparsing
            # deprecations); that is not ours to report, nor to fail a strict run.
            warnings.simplefilter("ignore")
            module = importlib.import_module(self.module)
        return self.make_runner(module, hands)

    def order_keys(self, results: list[Any]) -> np.ndarray:
        """The runner's results as numbers where lower wins."""
        return self.keys(results)

    @property
    def version(self) -> str:
        """The installed version of the peer, or "?"."""
        return _version(self.module)


def _pkrbot_runner(mod: ModuleType, hands: np.ndarray) -> Callable[[], list[Any]]:
    card = mod.Card
    inputs = [[card(t) for t in hand] for hand in _hand_texts(hands)]
    evaluate = mod.evaluate
    return lambda: [evaluate(c) for c in inputs]


def _eval7_runner(mod: ModuleType, hands: np.ndarray) -> Callable[[], list[Any]]:
    card = mod.Card
    inputs = [[card(t) for t in hand] for hand in _hand_texts(hands)]
    evaluate = mod.evaluate
    return lambda: [evaluate(c) for c in inputs]


def _phe_cards_runner(mod: ModuleType, hands: np.ndarray) -> Callable[[], list[Any]]:
    # phevaluator's card ids are rank * 4 + suit with clubs, diamonds, hearts, spades:
    # studeval's codes, so the ints go in unchanged.
    inputs = [tuple(h) for h in hands.tolist()]
    evaluate = mod.evaluate_cards
    return lambda: [evaluate(*h) for h in inputs]


def _phe_7cards_runner(mod: ModuleType, hands: np.ndarray) -> Callable[[], list[Any]]:
    inputs = [tuple(h) for h in hands.tolist()]
    evaluate = mod.evaluate_7cards
    return lambda: [evaluate(*h) for h in inputs]


def _treys_runner(mod: ModuleType, hands: np.ndarray) -> Callable[[], list[Any]]:
    new = mod.Card.new
    # treys scores hole cards plus a board; any 2 + 5 split of the 7 cards is the same.
    inputs = [
        ([new(t) for t in hand[:2]], [new(t) for t in hand[2:]]) for hand in _hand_texts(hands)
    ]
    evaluate = mod.Evaluator().evaluate
    return lambda: [evaluate(h, b) for h, b in inputs]


def _pokerkit_inputs(mod: ModuleType, hands: np.ndarray) -> list[tuple[Any, ...]]:
    parse = mod.Card.parse
    return [tuple(parse("".join(hand))) for hand in _hand_texts(hands)]


def _pokerkit_high_runner(mod: ModuleType, hands: np.ndarray) -> Callable[[], list[Any]]:
    inputs = _pokerkit_inputs(mod, hands)
    from_game = mod.StandardHighHand.from_game
    return lambda: [from_game(c) for c in inputs]


def _pokerkit_low_runner(mod: ModuleType, hands: np.ndarray) -> Callable[[], list[Any]]:
    inputs = _pokerkit_inputs(mod, hands)
    from_game = mod.RegularLowHand.from_game
    return lambda: [from_game(c) for c in inputs]


def _pokerkit_low8_runner(mod: ModuleType, hands: np.ndarray) -> Callable[[], list[Any]]:
    inputs = _pokerkit_inputs(mod, hands)
    # from_game raises when no low qualifies; from_game_or_none returns None instead.
    from_game = mod.EightOrBetterLowHand.from_game_or_none
    return lambda: [from_game(c) for c in inputs]


def _poker_equity_runner(
    kernel: str,
) -> Callable[[ModuleType, np.ndarray], Callable[[], list[Any]]]:
    # poker-equity's batch call takes each hand as concatenated text ("AhKhQsQd2c7d9s").
    def make(mod: ModuleType, hands: np.ndarray) -> Callable[[], list[Any]]:
        texts = ["".join(hand) for hand in _hand_texts(hands)]
        score = mod.score_batch
        return lambda: list(score(kernel, texts))

    return make


def peer_calls() -> list[PeerCall]:
    """The peers' per-hand calls that the benchmarks time, fastest peer first.

    Sample sizes are capped per peer so that one pass takes a fraction of a second:
    pokerkit needs about 0.3 ms a hand, treys about 13 us, the rest under 1 us.

    >>> [p.key for p in peer_calls()][:2]
    ['pkrbot.evaluate', 'eval7.evaluate']
    """
    return [
        PeerCall(
            "pkrbot.evaluate",
            "pkrbot",
            "pkrbot.evaluate(list of 7 Card)",
            "high",
            200_000,
            False,
            _pkrbot_runner,
            _keys_higher_better,
        ),
        PeerCall(
            "eval7.evaluate",
            "eval7",
            "eval7.evaluate(list of 7 Card)",
            "high",
            200_000,
            False,
            _eval7_runner,
            _keys_higher_better,
        ),
        PeerCall(
            "phevaluator.evaluate_7cards",
            "phevaluator",
            "phevaluator.evaluate_7cards(*ids)",
            "high",
            200_000,
            True,
            _phe_7cards_runner,
            _keys_lower_better,
        ),
        PeerCall(
            "phevaluator.evaluate_cards",
            "phevaluator",
            "phevaluator.evaluate_cards(*ids)",
            "high",
            200_000,
            True,
            _phe_cards_runner,
            _keys_lower_better,
        ),
        PeerCall(
            "treys.evaluate",
            "treys",
            "treys Evaluator.evaluate(hole, board)",
            "high",
            20_000,
            True,
            _treys_runner,
            _keys_lower_better,
        ),
        PeerCall(
            "pokerkit.StandardHighHand",
            "pokerkit",
            "pokerkit StandardHighHand.from_game",
            "high",
            1_000,
            False,
            _pokerkit_high_runner,
            _keys_comparable,
        ),
        PeerCall(
            "pokerkit.RegularLowHand",
            "pokerkit",
            "pokerkit RegularLowHand.from_game",
            "low",
            1_000,
            False,
            _pokerkit_low_runner,
            _keys_comparable,
        ),
        PeerCall(
            "pokerkit.EightOrBetterLowHand",
            "pokerkit",
            "pokerkit EightOrBetterLowHand.from_game_or_none",
            "low8",
            1_000,
            False,
            _pokerkit_low8_runner,
            _keys_comparable,
        ),
        PeerCall(
            "poker_equity.score_batch/high",
            "poker_equity",
            "poker_equity.score_batch('high', texts)",
            "high",
            200_000,
            False,
            _poker_equity_runner("high"),
            _keys_lower_better,
            style="batch",
        ),
        PeerCall(
            "poker_equity.score_batch/low_a5",
            "poker_equity",
            "poker_equity.score_batch('low_a5', texts)",
            "low",
            200_000,
            False,
            _poker_equity_runner("low_a5"),
            _keys_lower_better,
            style="batch",
        ),
    ]


# ---------------------------------------------------------------------------
# Import time
# ---------------------------------------------------------------------------

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


# ---------------------------------------------------------------------------
# The run
# ---------------------------------------------------------------------------


def _studeval_batch_results(name: str, result: Any) -> np.ndarray:
    """A batch result as one array; all_ranks' three outputs stacked as (3, N)."""
    if name == "all_ranks":
        return np.stack([result.high, result.low, result.low8])
    return np.asarray(result)


def _check_equal(name: str, expected: np.ndarray, got: np.ndarray, hands: np.ndarray) -> None:
    if expected.shape != got.shape:
        raise BenchMismatchError(f"{name} returned shape {got.shape}, expected {expected.shape}")
    bad = np.flatnonzero((expected != got).reshape(-1, expected.shape[-1]).any(axis=0))
    if bad.size:
        i = int(bad[0])
        raise BenchMismatchError(
            f"{name} disagrees with studeval's 1-thread batch on "
            f"{' '.join(_CARD_TEXT[c] for c in hands[i])} (hand {i})"
        )


def _row(timing: Timing, hands: int, **fields: Any) -> BenchRow:
    """A result row from a timing of calls that each rank ``hands`` hands."""
    return BenchRow(
        **fields,
        hands=hands,
        best_ns=timing.best_s * 1e9 / hands,
        median_ns=timing.median_s * 1e9 / hands,
    )


def _select_peers(peers: Iterable[str] | None) -> list[PeerCall]:
    calls = peer_calls()
    if peers is None:
        return [p for p in calls if p.available()]
    wanted = list(peers)
    unknown = [name for name in wanted if name not in PEER_NAMES]
    if unknown:
        raise ValueError(f"unknown peer {unknown[0]!r}; known peers: {', '.join(PEER_NAMES)}")
    return [p for p in calls if p.module in wanted and p.available()]


def run_bench(
    n_hands: int = 1_000_000,
    repeats: int = 5,
    threads: int | None = None,
    *,
    peers: Iterable[str] | None = None,
    include_import: bool = True,
    seed: int = DEFAULT_SEED,
    min_time: float = 0.1,
    progress: Callable[[str], None] | None = None,
) -> list[BenchRow]:
    """Run the benchmarks and return one row per measured call.

    ``n_hands`` random 7-card hands (seed ``seed``) are built once. Timed, in order:

    * studeval's batch calls ``high_ranks``, ``low_ranks``, ``low8_ranks`` and
      ``all_ranks`` (default ``check=True``) on the (n, 7) uint8 array, in random
      order and in enumeration order (see :func:`sorted_hands`), at 1 thread and at
      ``threads`` threads (default: every core; left out when that is 1);
    * ``studeval.high_rank`` called once per hand on tuples of 7 ints and on strings;
    * each installed peer in ``peers`` (default: all of :data:`PEER_NAMES`) on the
      first hands of the same set, capped per peer (see :func:`peer_calls`);
    * with ``include_import``, ``import studeval`` in fresh interpreters: alone (the
      figure a user waits for, everything it pulls in counted), after ``import numpy``, and
      ``import numpy`` alone for reference.

    Every call's results are checked against the 1-thread batch before it is timed
    (:class:`BenchMismatchError` otherwise). ``progress`` is called with a short text
    before each measurement.

    >>> rows = run_bench(200, repeats=1, threads=2, peers=(), include_import=False,
    ...                  min_time=0.0)
    >>> len(rows), sorted({row.threads for row in rows})
    (18, [1, 2])
    >>> run_bench(10, peers=["deuces"])
    Traceback (most recent call last):
    ...
    ValueError: unknown peer 'deuces'; known peers: pkrbot, eval7, phevaluator, ...
    """
    if repeats < 1:
        raise ValueError(f"repeats must be at least 1, got {repeats}")
    peer_list = _select_peers(peers)
    many = studeval.cpu_count() if threads is None else threads
    if many < 1:
        raise ValueError(f"threads must be at least 1, got {threads}")
    thread_counts = (1,) if many == 1 else (1, many)
    say = progress or (lambda _text: None)
    version = studeval.__version__
    rows: list[BenchRow] = []

    say(f"building {n_hands:,} random hands (seed {seed})")
    hands = random_hands(n_hands, seed)
    ordered, perm = sorted_hands(hands)
    inputs = {"random": hands, "sorted": ordered}

    # Reference: the 1-thread batches on random order; everything else must match them,
    # and all_ranks must equal the three single-ranking calls.
    reference = {
        name: _studeval_batch_results(name, getattr(studeval, name)(hands, threads=1))
        for name in _BATCH_FUNCS
    }
    singles = np.stack([reference["high_ranks"], reference["low_ranks"], reference["low8_ranks"]])
    _check_equal(
        "studeval.all_ranks vs the single rankings", singles, reference["all_ranks"], hands
    )
    for name in _BATCH_FUNCS:
        func = getattr(studeval, name)
        for order, arr in inputs.items():
            expected = reference[name] if order == "random" else reference[name][..., perm]
            for t in thread_counts:
                got = _studeval_batch_results(name, func(arr, threads=t))
                _check_equal(f"studeval.{name}(threads={t}) in {order} order", expected, got, arr)
            say(f"timing studeval.{name}, threads {thread_counts}, {order} order")
            # The thread counts are timed in turns so their ratio sees the same load.
            timings = time_calls(
                [functools.partial(func, arr, threads=t) for t in thread_counts],
                repeats=repeats,
                min_time=min_time,
            )
            for t, timing in zip(thread_counts, timings, strict=True):
                rows.append(
                    _row(
                        timing,
                        n_hands,
                        key=f"studeval.{name}/{order}/t{t}",
                        library="studeval",
                        version=version,
                        call=f"{name}(cards, threads={t})",
                        kind="batch",
                        ranking=_BATCH_RANKING[name],
                        order=order,
                        threads=t,
                    )
                )

    high_ref = reference["high_ranks"]
    n_single = min(n_hands, 200_000)
    sample = hands[:n_single]
    high_rank = studeval.high_rank
    tuples = [tuple(h) for h in sample.tolist()]
    strings = [" ".join(h) for h in _hand_texts(sample)]
    for label, key, items in (
        ("high_rank(tuple of 7 ints)", "studeval.high_rank(tuple)", tuples),
        ("high_rank(str)", "studeval.high_rank(str)", strings),
    ):

        def loop(items: list[Any] = items) -> list[int]:
            return [high_rank(h) for h in items]

        _check_equal(f"studeval.{label}", high_ref[:n_single], np.asarray(loop()), sample)
        say(f"timing studeval.{label}, one call per hand")
        timing = time_call(loop, repeats=repeats, min_time=min_time)
        rows.append(
            _row(
                timing,
                n_single,
                key=key,
                library="studeval",
                version=version,
                call=label,
                kind="single",
                ranking="high",
                order="random",
                threads=1,
            )
        )

    all_ref = reference["all_ranks"]
    ref_by_ranking = {"high": all_ref[0], "low": all_ref[1], "low8": all_ref[2]}
    for peer in peer_list:
        n_peer = min(n_hands, peer.max_hands)
        peer_hands = hands[:n_peer]
        say(f"preparing {peer.call} on {n_peer:,} hands")
        runner = peer.build(peer_hands)
        keys = peer.order_keys(runner())
        check_same_order(
            peer.call, ref_by_ranking[peer.ranking][:n_peer], keys, peer_hands, exact=peer.exact
        )
        say(f"timing {peer.call}, " + ("one call per hand" if peer.style == "single" else "batch"))
        timing = time_call(runner, repeats=repeats, min_time=min_time)
        rows.append(
            _row(
                timing,
                n_peer,
                key=peer.key,
                library=peer.module,
                version=peer.version,
                call=peer.call,
                kind=peer.style,
                ranking=peer.ranking,
                order="random",
                threads=1,
            )
        )

    if include_import:
        say("timing import studeval in fresh interpreters")
        for key, call, module, preload in (
            ("import.studeval", "import studeval", "studeval", ""),
            (
                "import.studeval_after_numpy",
                "import studeval, numpy already imported",
                "studeval",
                "numpy",
            ),
            ("import.numpy", "import numpy (for reference)", "numpy", ""),
        ):
            secs = import_times(module, repeats=repeats, preload=preload)
            timing = Timing(min(secs), statistics.median(secs), 1, repeats)
            rows.append(
                _row(
                    timing,
                    1,
                    key=key,
                    library=module,
                    version=version if module == "studeval" else _version(module),
                    call=call,
                    kind="import",
                    ranking="-",
                    order="-",
                    threads=1,
                )
            )
    return rows


# ---------------------------------------------------------------------------
# Ratios and tables
# ---------------------------------------------------------------------------


def _by_key(rows: Iterable[BenchRow]) -> dict[str, BenchRow]:
    return {row.key: row for row in rows}


def _parallel_row(rows: dict[str, BenchRow], name: str) -> BenchRow | None:
    """The random-order batch row for ``name`` with the most threads above 1."""
    candidates = [
        r for k, r in rows.items() if k.startswith(f"studeval.{name}/random/t") and r.threads > 1
    ]
    return max(candidates, key=lambda r: r.threads) if candidates else None


def _ratios(rows: Iterable[BenchRow]) -> list[tuple[str, float]]:
    """Ratios between calls of one run, which say more than any single timing."""
    by = _by_key(rows)
    out = []
    high1 = by.get("studeval.high_ranks/random/t1")
    all1 = by.get("studeval.all_ranks/random/t1")
    if high1 and all1:
        out.append(("all_ranks / high_ranks time, 1 thread", all1.best_ns / high1.best_ns))
    all_n = _parallel_row(by, "all_ranks")
    if all1 and all_n:
        out.append(
            (f"all_ranks speed-up, {all_n.threads} threads vs 1", all1.best_ns / all_n.best_ns)
        )
    sorted1 = by.get("studeval.high_ranks/sorted/t1")
    if high1 and sorted1:
        out.append(("high_ranks random / enumeration order time", high1.best_ns / sorted1.best_ns))
    single = by.get("studeval.high_rank(tuple)")
    text = by.get("studeval.high_rank(str)")
    if single and text:
        out.append(("high_rank(str) / high_rank(tuple) time", text.best_ns / single.best_ns))
    peq = by.get("poker_equity.score_batch/high")
    if high1 and peq:
        out.append(
            ("batch high_ranks vs poker_equity.score_batch('high')", peq.best_ns / high1.best_ns)
        )
    for key, label in (
        ("pokerkit.RegularLowHand", "low_ranks"),
        ("pokerkit.EightOrBetterLowHand", "low8_ranks"),
    ):
        peer = by.get(key)
        ours = by.get(f"studeval.{label}/random/t1")
        if peer and ours:
            out.append((f"batch {label} vs {key} per-hand loop", peer.best_ns / ours.best_ns))
    return out


def _fmt_ns(ns: float) -> str:
    if ns >= 100:
        return f"{ns:,.0f}"
    return f"{ns:.2f}" if ns < 10 else f"{ns:.1f}"


def format_table(rows: Sequence[BenchRow]) -> str:
    """The table as Markdown: ns/hand per call, import times, then ratios.

    >>> rows = [BenchRow("studeval.high_ranks/random/t1", "studeval", "0.1", "high_ranks(cards)",
    ...                  "batch", "high", "random", 1, 1000, 4.0, 4.5)]
    >>> print(format_table(rows).splitlines()[2])
    | studeval 0.1 | high_ranks(cards) | batch | random | 1 | 1,000 | 4.00 | 4.50 | 250.0 M |
    """
    lines = [
        "| library | call | style | order | threads | hands/call | ns/hand best "
        "| ns/hand median | hands/s |",
        "|---|---|---|---|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        if r.kind == "import":
            continue
        rate = r.hands_per_s
        rate_text = f"{rate / 1e6:.1f} M" if rate >= 1e6 else f"{rate / 1e3:.1f} k"
        style = "batch" if r.kind == "batch" else "per-hand loop"
        lines.append(
            f"| {r.library} {r.version} | {r.call} | {style} | {r.order} | {r.threads} "
            f"| {r.hands:,} | {_fmt_ns(r.best_ns)} | {_fmt_ns(r.median_ns)} | {rate_text} |"
        )
    imports = [r for r in rows if r.kind == "import"]
    if imports:
        lines += ["", "| import (fresh interpreter) | best ms | median ms |", "|---|---:|---:|"]
        lines += [
            f"| {r.call} | {r.best_ns / 1e6:.1f} | {r.median_ns / 1e6:.1f} |" for r in imports
        ]
    ratios = _ratios(rows)
    if ratios:
        lines += ["", "| ratio (best timings, same run) | value |", "|---|---:|"]
        lines += [
            f"| {name} | {value:,.0f} |" if value >= 100 else f"| {name} | {value:.2f} |"
            for name, value in ratios
        ]
    return "\n".join(lines)


def report_dict(rows: Sequence[BenchRow]) -> dict[str, Any]:
    """Rows, ratios and the machine, as JSON-ready data.

    >>> sorted(report_dict([]))
    ['machine', 'ratios', 'rows']
    """
    return {
        "machine": {
            "python": platform.python_version(),
            "implementation": platform.python_implementation(),
            "platform": platform.platform(),
            "processor": platform.processor() or platform.machine(),
            "cpu_count": studeval.cpu_count(),
            "loadavg": list(os.getloadavg()) if hasattr(os, "getloadavg") else None,
            "numpy": _version("numpy"),
            "studeval": studeval.__version__,
        },
        "rows": [asdict(r) | {"hands_per_s": r.hands_per_s} for r in rows],
        "ratios": dict(_ratios(rows)),
    }
