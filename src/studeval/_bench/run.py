"""One benchmark run: build the hands, check every call, time it, return the rows."""

from __future__ import annotations

import functools
import statistics
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np

from studeval import batch
from studeval._bench.agreement import check_equal, check_same_order
from studeval._bench.peers import PeerCall, hand_texts, select_peers, version_of
from studeval._bench.timing import Timing, import_times, time_call, time_calls
from studeval._core import cpu_count, high_rank
from studeval._version import __version__
from studeval.parsing import random_hands

__all__ = ["DEFAULT_SEED", "BenchRow", "run_bench", "sorted_hands"]

#: Seed of the benchmark hands, so every run and every library sees the same hands.
DEFAULT_SEED = 20240601

_BATCH_FUNCS = ("high_ranks", "low_ranks", "low8_ranks", "all_ranks")


_BATCH_RANKING = {
    "high_ranks": "high",
    "low_ranks": "low",
    "low8_ranks": "low8",
    "all_ranks": "all",
}


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


def _batch_results(name: str, result: Any) -> np.ndarray:
    """A batch result as one array; all_ranks' three outputs stacked as (3, N)."""
    if name == "all_ranks":
        return np.stack([result.high, result.low, result.low8])
    return np.asarray(result)


def _row(timing: Timing, hands: int, **fields: Any) -> BenchRow:
    """A result row from a timing of calls that each rank ``hands`` hands."""
    return BenchRow(
        **fields,
        hands=hands,
        best_ns=timing.best_s * 1e9 / hands,
        median_ns=timing.median_s * 1e9 / hands,
    )


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


@dataclass(frozen=True)
class _Plan:
    """What one run measures, and how."""

    hands: np.ndarray
    threads: tuple[int, ...]
    repeats: int
    min_time: float
    say: Callable[[str], None]


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
    peer_list = select_peers(peers)
    many = cpu_count() if threads is None else threads
    if many < 1:
        raise ValueError(f"threads must be at least 1, got {threads}")
    say = progress or (lambda _text: None)
    say(f"building {n_hands:,} random hands (seed {seed})")
    hands = random_hands(n_hands, 7, seed=seed)
    plan = _Plan(hands, (1,) if many == 1 else (1, many), repeats, min_time, say)
    reference = _reference(hands)
    rows = _time_batches(plan, reference)
    rows += _time_single_calls(plan, reference["high_ranks"])
    all_ref = reference["all_ranks"]
    by_ranking = {"high": all_ref[0], "low": all_ref[1], "low8": all_ref[2]}
    rows += [_time_peer(plan, peer, by_ranking[peer.ranking]) for peer in peer_list]
    if include_import:
        rows += _time_imports(plan)
    return rows


def _reference(hands: np.ndarray) -> dict[str, np.ndarray]:
    """The 1-thread batches on random order, which every other call must match.

    all_ranks must also equal the three single-ranking calls.
    """
    reference = {
        name: _batch_results(name, getattr(batch, name)(hands, threads=1)) for name in _BATCH_FUNCS
    }
    singles = np.stack([reference["high_ranks"], reference["low_ranks"], reference["low8_ranks"]])
    check_equal("studeval.all_ranks vs the single rankings", singles, reference["all_ranks"], hands)
    return reference


def _time_batches(plan: _Plan, reference: dict[str, np.ndarray]) -> list[BenchRow]:
    """Each batch call in random and in enumeration order, at each thread count."""
    ordered, perm = sorted_hands(plan.hands)
    rows = []
    for name in _BATCH_FUNCS:
        func = getattr(batch, name)
        for order, arr in (("random", plan.hands), ("sorted", ordered)):
            expected = reference[name] if order == "random" else reference[name][..., perm]
            for t in plan.threads:
                got = _batch_results(name, func(arr, threads=t))
                check_equal(f"studeval.{name}(threads={t}) in {order} order", expected, got, arr)
            plan.say(f"timing studeval.{name}, threads {plan.threads}, {order} order")
            # The thread counts are timed in turns so their ratio sees the same load.
            timings = time_calls(
                [functools.partial(func, arr, threads=t) for t in plan.threads],
                repeats=plan.repeats,
                min_time=plan.min_time,
            )
            for t, timing in zip(plan.threads, timings, strict=True):
                rows.append(
                    _row(timing, len(arr), key=f"studeval.{name}/{order}/t{t}",
                         library="studeval", version=__version__,
                         call=f"{name}(cards, threads={t})", kind="batch",
                         ranking=_BATCH_RANKING[name], order=order, threads=t)
                )  # fmt: skip
    return rows


def _time_single_calls(plan: _Plan, high_ref: np.ndarray) -> list[BenchRow]:
    """``high_rank`` once per hand, on tuples of 7 ints and on text."""
    n_single = min(len(plan.hands), 200_000)
    sample = plan.hands[:n_single]
    tuples = [tuple(h) for h in sample.tolist()]
    strings = [" ".join(h) for h in hand_texts(sample)]
    rows = []
    for label, key, items in (
        ("high_rank(tuple of 7 ints)", "studeval.high_rank(tuple)", tuples),
        ("high_rank(str)", "studeval.high_rank(str)", strings),
    ):

        def loop(items: list[Any] = items) -> list[int]:
            return [high_rank(h) for h in items]

        check_equal(f"studeval.{label}", high_ref[:n_single], np.asarray(loop()), sample)
        plan.say(f"timing studeval.{label}, one call per hand")
        timing = time_call(loop, repeats=plan.repeats, min_time=plan.min_time)
        rows.append(
            _row(timing, n_single, key=key, library="studeval", version=__version__,
                 call=label, kind="single", ranking="high", order="random", threads=1)
        )  # fmt: skip
    return rows


def _time_peer(plan: _Plan, peer: PeerCall, reference: np.ndarray) -> BenchRow:
    """One peer's call on the first hands (capped per peer), checked, then timed."""
    n_peer = min(len(plan.hands), peer.max_hands)
    peer_hands = plan.hands[:n_peer]
    plan.say(f"preparing {peer.call} on {n_peer:,} hands")
    runner = peer.build(peer_hands)
    keys = peer.order_keys(runner())
    check_same_order(peer.call, reference[:n_peer], keys, peer_hands, exact=peer.exact)
    style = "one call per hand" if peer.style == "single" else "batch"
    plan.say(f"timing {peer.call}, {style}")
    timing = time_call(runner, repeats=plan.repeats, min_time=plan.min_time)
    return _row(timing, n_peer, key=peer.key, library=peer.module, version=peer.version,
                call=peer.call, kind=peer.style, ranking=peer.ranking, order="random",
                threads=1)  # fmt: skip


def _time_imports(plan: _Plan) -> list[BenchRow]:
    """``import studeval`` in fresh interpreters: alone, after numpy; numpy alone."""
    plan.say("timing import studeval in fresh interpreters")
    rows = []
    for key, call, module, preload in (
        ("import.studeval", "import studeval", "studeval", ""),
        ("import.studeval_after_numpy", "import studeval, numpy already imported", "studeval",
         "numpy"),
        ("import.numpy", "import numpy (for reference)", "numpy", ""),
    ):  # fmt: skip
        secs = import_times(module, repeats=plan.repeats, preload=preload)
        timing = Timing(min(secs), statistics.median(secs), 1, plan.repeats)
        rows.append(
            _row(timing, 1, key=key, library=module,
                 version=__version__ if module == "studeval" else version_of(module),
                 call=call, kind="import", ranking="-", order="-", threads=1)
        )  # fmt: skip
    return rows
