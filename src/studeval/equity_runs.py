"""How an equity call runs: the integer counts it gathers, Monte Carlo in batches to a
stopping rule, exact counts, and long exact calls watched from another thread
(progress, Ctrl-C); and the same runs for callers whose spots are codes already
checked (a replayed hand's streets: :func:`count_spot`, :func:`sample_spot`).

Shared by :func:`studeval.equity` and :func:`studeval.range_equity`; the answers
(:class:`~studeval.Equity`) are built in :mod:`studeval.equity_calculator`.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from studeval import _core
from studeval.batch import whole_arg
from studeval.errors import OptionError, StoppedError, TooBigError
from studeval.games import get_game

__all__ = [
    "DEFAULT_TARGET_SE",
    "EXACT_BUDGET",
    "MAX_SCOOP_RECORDS",
    "MIN_TARGET_SE",
    "EquityCounts",
    "PartSampler",
    "Sampler",
    "count_spot",
    "counts_of",
    "exact_counts",
    "monte_carlo",
    "plain_part",
    "plain_sampler",
    "sample_spot",
    "samples_arg",
    "seed_of",
    "share_of",
    "std_error",
    "stopping_rules",
    "watch",
]

#: The most deals that ``method="auto"`` walks one by one (multiway); beyond it,
#: Monte Carlo. About two seconds on one core.
EXACT_BUDGET = 60_000_000
#: The standard error of every player's share that ``method="auto"`` samples to.
DEFAULT_TARGET_SE = 5e-4
#: The smallest ``target_se`` a run without ``samples`` or ``time_limit`` may ask for.
#: A share's standard error falls as 1/sqrt(deals), so 1e-5 may take up to 2.5
#: billion deals (minutes on one core); 1e-9 would take 1e17, years. A smaller
#: target is refused unless ``samples`` or ``time_limit`` caps the run.
MIN_TARGET_SE = 1e-5
#: Memory for the scoop counts of exact heads-up no-qualifier spots (records of
#: 12 bytes): about 600 MB at most. Larger spots count their scoops by low class
#: instead, slower and in little memory. (Each player's card subsets, kept to count
#: faster, add at most 32 MiB a player, within the same budget.)
MAX_SCOOP_RECORDS = 50_000_000

_UNITS = _core.EQ_UNITS
_CHUNK = _core.EQ_CHUNK_SAMPLES
#: Exact calls over more deals than this run on a helper thread, so that this one
#: can report progress and stop them (progress returning False, or Ctrl-C).
_WATCHED_DEALS = 2_000_000
#: Chunks of the first Monte Carlo batch (each later batch doubles, to 4,096).
_FIRST_CHUNKS = 8
#: How often (seconds) a watched exact call reports progress.
_POLL_S = 0.1


@dataclass(frozen=True)
class EquityCounts:
    """Integer sums over the deals counted or sampled, for tools that merge runs.

    ``share`` is in units of ``1 / units`` of a pot per deal; ``share_sq`` sums the
    squares of those per-deal units (0 for exact counting, which needs no error);
    ``low_share`` the part of ``share`` won with a low (the low half in stud8, the
    whole pot in razz; empty when the counts do not say). Counts from runs of the
    same spot add up field by field (:meth:`merge`). Against weighted ranges counted
    exactly, each deal counts its combinations' weights (whole numbers: the weights
    scaled by a power of two), so ``deals`` is a weighted count.
    """

    deals: int
    share: tuple[int, ...]
    share_sq: tuple[int, ...]
    high_win: tuple[int, ...]
    high_tie: tuple[int, ...]
    low_win: tuple[int, ...]
    low_tie: tuple[int, ...]
    scoop: tuple[int, ...]
    units: int = _UNITS
    low_share: tuple[int, ...] = ()

    def merge(self, other: EquityCounts) -> EquityCounts:
        """The counts of both runs together.

        >>> a = EquityCounts(2, (1680, 1680), (0, 0), (1, 1), (0, 0), (0, 0), (0, 0), (1, 1))
        >>> a.merge(a).deals, a.merge(a).share
        (4, (3360, 3360))
        """
        if len(self.share) != len(other.share):
            raise OptionError("counts of spots with different numbers of players do not merge")
        names = ("share", "share_sq", "high_win", "high_tie", "low_win", "low_tie", "scoop")
        summed = {
            name: tuple(
                a + b for a, b in zip(getattr(self, name), getattr(other, name), strict=True)
            )
            for name in names
        }
        low: tuple[int, ...] = ()
        if self.low_share and other.low_share:
            low = tuple(a + b for a, b in zip(self.low_share, other.low_share, strict=True))
        return EquityCounts(self.deals + other.deals, **summed, units=self.units, low_share=low)


def counts_of(sums: _core.EquitySums) -> EquityCounts:
    """The core's sums as counts."""
    return EquityCounts(
        sums.deals, sums.share, sums.share_sq, sums.high_win, sums.high_tie, sums.low_win,
        sums.low_tie, sums.scoop, low_share=sums.low_share,
    )  # fmt: skip


def share_of(counts: EquityCounts, player: int) -> float:
    """A player's share of the pot: the units it won over the units of every deal.

    >>> share_of(EquityCounts(2, (1680, 1680), (0, 0), (1, 1), (0, 0), (0, 0), (0, 0), (1, 1)), 0)
    0.5
    """
    return counts.share[player] / (counts.units * (counts.deals or 1))


def std_error(counts: EquityCounts, player: int) -> float:
    """The standard error of a sampled share, from the sums of units and their squares."""
    n = counts.deals or 1
    mean = counts.share[player] / counts.units / n
    second = counts.share_sq[player] / counts.units**2 / n
    return math.sqrt(max(second - mean * mean, 0.0) / n)


_T = TypeVar("_T")


def watch(
    call: Callable[[_core.EquityProgress | None], _T],
    progress: Callable[[float], object] | None, watched: bool,
) -> _T:  # fmt: skip
    """Runs one exact core call. A long one runs on a helper thread while this one
    reports its progress every ``_POLL_S`` seconds and stops it when ``progress``
    returns False or on Ctrl-C (the core stops within milliseconds; the interrupt
    is raised once it has)."""
    if not watched:
        return call(None)
    control = _core.EquityProgress()
    outcome: list[_T] = []
    failure: list[BaseException] = []

    def run() -> None:
        try:
            outcome.append(call(control))
        except BaseException as error:  # handed to the waiting thread
            failure.append(error)

    worker = threading.Thread(target=run, name="studeval-exact-equity", daemon=True)
    worker.start()
    try:
        while worker.is_alive():
            worker.join(_POLL_S)
            alive = worker.is_alive()
            # Once stopped, no more reports: the core may take a poll or two to stop
            # on a busy machine, and the caller has already said it is done.
            if (
                alive
                and progress is not None
                and not control.stopped
                and progress(control.fraction()) is False
            ):
                control.stop()
    except BaseException:
        control.stop()
        worker.join()
        raise
    if failure:
        raise failure[0]
    return outcome[0]


_STOPS = ("samples", "target_se", "time_limit")


def samples_arg(samples: object, what: str = "deal") -> int:
    """``samples`` checked: a whole number of at least 1 (numpy's too), never a bool
    or a float cut to a whole number.

    >>> samples_arg(4096)
    4096
    >>> samples_arg(2.5)
    Traceback (most recent call last):
    ...
    studeval.errors.OptionError: samples must be a whole number of deals; got 2.5
    """
    count = whole_arg(samples, f"samples must be a whole number of {what}s; got {samples!r}")
    if count < 1:
        raise OptionError(f"samples must be at least 1 {what}; got {count}")
    return count


def stopping_rules(
    samples: object, target_se: object, time_limit: object
) -> tuple[int | None, float | None, float | None]:
    """Checked ``samples`` (a whole number of at least 1), ``target_se`` and
    ``time_limit`` (positive, finite numbers, not text): a bad one is an error at
    once, never a run that cannot stop. A ``target_se`` under :data:`MIN_TARGET_SE`
    needs ``samples`` or ``time_limit`` to cap the run."""
    if samples is not None:
        samples = samples_arg(samples)
    checked: list[float | None] = []
    for name, value in (("target_se", target_se), ("time_limit", time_limit)):
        if value is None:
            checked.append(None)
            continue
        try:
            if isinstance(value, (bool, str, bytes)):
                raise TypeError  # "0.01" is text: a number is given as one
            number = float(value)  # type: ignore[arg-type]
        except (TypeError, ValueError):
            raise OptionError(f"{name} must be a number; got {value!r}") from None
        if not math.isfinite(number) or number <= 0:
            raise OptionError(f"{name} must be a positive, finite number; got {value!r}")
        checked.append(number)
    target, limit = checked
    if target is not None and target < MIN_TARGET_SE and samples is None and limit is None:
        raise OptionError(
            f"target_se={target!r} could take up to {0.25 / target**2:.1e} deals (about "
            f"1 / (4 target_se**2)); give samples or time_limit to cap the run, or a "
            f"target_se of at least {MIN_TARGET_SE:g}"
        )
    return samples, target, limit


#: The core's Monte Carlo of one spot: (seed, first chunk, chunks, threads) -> sums.
Sampler = Callable[[int, int, int, int], _core.EquitySums]
#: The first deals of one chunk, where a sampler can draw them: (seed, chunk, deals)
#: -> sums.
PartSampler = Callable[[int, int, int], _core.EquitySums]


def seed_of(seed: object) -> int:
    """A run's 64-bit seed: ``seed`` as an unsigned 64-bit int, a random one for None.

    >>> seed_of(-1) == 2**64 - 1
    True
    >>> seed_of(True)
    Traceback (most recent call last):
    ...
    studeval.errors.OptionError: seed must be an int; got True
    """
    if type(seed) is int:  # the common case, without the protocol check (microseconds)
        return seed & (2**64 - 1)
    if seed is None:
        import secrets

        return secrets.randbits(64)
    return whole_arg(seed, f"seed must be an int; got {seed!r}") & (2**64 - 1)


def monte_carlo(
    sample: Sampler, threads: int, samples: int | None, target_se: float | None,
    time_limit: float | None, seed: int | None, progress: Callable[[float], object] | None,
    part: PartSampler | None = None,
) -> EquityCounts:  # fmt: skip
    """Sums of deals drawn a batch of chunks at a time until a stopping rule holds.
    ``samples`` not a whole number of chunks is drawn exactly where ``part`` draws
    the last chunk's first deals; else it is rounded up to whole chunks."""
    if target_se is None and samples is None and time_limit is None:
        target_se = DEFAULT_TARGET_SE
    seed = seed_of(seed)
    total_chunks, rest = None, 0
    if samples is not None:
        whole = -(-samples // _CHUNK), 0  # rounded up to whole chunks
        total_chunks, rest = divmod(samples, _CHUNK) if part is not None else whole
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    counts: EquityCounts | None = None
    done = 0
    # The batches are the same whatever the thread count, so every stopping test
    # sees the same sums: a seed gives one answer on any machine.
    step = _FIRST_CHUNKS
    finished = total_chunks == 0
    while not finished:
        batch = step if total_chunks is None else min(step, total_chunks - done)
        part_sums = counts_of(sample(seed, done, batch, threads))
        counts = part_sums if counts is None else counts.merge(part_sums)
        done += batch
        step = min(step * 2, 4096)  # bigger batches once the first ones are in
        fraction, finished = _progress(counts, done, total_chunks, target_se, deadline)
        if progress is not None and progress(min(fraction, 1.0)) is False:
            return counts
    # The last chunk's first deals, unless the standard error or the time stopped the
    # run at its last whole chunk.
    stopped = counts is not None and _progress(counts, done, None, target_se, deadline)[1]
    if rest and part is not None and done == total_chunks and not stopped:
        last = counts_of(part(seed, done, rest))
        counts = last if counts is None else counts.merge(last)
        if progress is not None:
            progress(1.0)
    assert counts is not None
    return counts


def _progress(
    counts: EquityCounts, done: int, total: int | None, target_se: float | None,
    deadline: float | None,
) -> tuple[float, bool]:  # fmt: skip
    """How far a Monte Carlo run is (0..1) and whether it may stop."""
    fractions = []
    finished = False
    if total is not None:
        fractions.append(done / total)
        finished |= done >= total
    if target_se is not None:
        worst = max(std_error(counts, i) for i in range(len(counts.share)))
        fractions.append((target_se / worst) ** 2 if worst > 0 else 1.0)
        finished |= worst <= target_se
    if deadline is not None:
        now = time.perf_counter()
        fractions.append(1.0 if now >= deadline else 0.0)
        finished |= now >= deadline
    return (max(fractions) if fractions else 1.0), finished


def plain_part(number: int, players: list[list[int]], dead: list[int | None]) -> PartSampler:
    """The first deals of one chunk of the core's Monte Carlo of a spot, as (seed,
    chunk, deals) -> sums."""
    return lambda seed, chunk, deals: _core.equity_sample_part(number, players, dead, seed,
                                                               chunk, deals)  # fmt: skip


def plain_sampler(number: int, players: list[list[int]], dead: list[int | None]) -> Sampler:
    """The core's Monte Carlo of a spot, as (seed, first chunk, chunks, threads) -> sums."""
    return lambda seed, first, chunks, threads: _core.equity_sample(
        number, players, dead, seed, first, chunks, threads
    )


def exact_counts(
    number: int, players: list[list[int]], dead: list[int | None], threads: int, deals: float,
    community: bool, method: str, progress: Callable[[float], object] | None,
) -> tuple[EquityCounts, str] | str | None:  # fmt: skip
    """Exact counts, "stopped" when ``progress`` stopped them, or None when
    ``method="auto"`` should sample instead."""
    watched = deals > _WATCHED_DEALS
    try:
        if len(players) == 2 and not community:
            try:
                sums = watch(
                    lambda control: _core.equity_count_heads_up(
                        number, players, dead, MAX_SCOOP_RECORDS, threads, control
                    ),
                    progress, watched,
                )  # fmt: skip
                return counts_of(sums), "count"
            except TooBigError:
                pass  # too big to count: walk the deals (exact) or sample them
        if deals <= EXACT_BUDGET or method == "exact":
            if method == "exact" and deals > 50 * EXACT_BUDGET:
                raise OptionError(
                    f"an exact answer needs {deals:,.0f} deals walked one by one; use method='mc'"
                )
            sums = watch(
                lambda control: _core.equity_enumerate(number, players, dead, threads, control),
                progress, watched,
            )  # fmt: skip
            return counts_of(sums), "enumerate"
    except StoppedError:
        return "stopped"
    return None


def count_spot(game: str, players: list[list[int]], dead: list[int | None]) -> EquityCounts:
    """The counts of ``equity(hands, game, dead=dead, method="exact", threads=1)`` for a
    spot whose cards are codes already known to be a stud deal, as :func:`sample_spot`
    takes them: the same count, without reading and checking the cards again.

    >>> from studeval.equity_runs import share_of
    >>> aces, kings = [51, 50, 20, 17, 10, 7], [47, 46, 40, 37, 26, 3]  # As Ah 7c 6d 4h 3s
    >>> counts = count_spot("stud", [aces, kings], [])  # against Ks Kh Qc Jd 8h 2s
    >>> counts.deals, round(share_of(counts, 0), 4)
    (1560, 0.7962)
    """
    number = get_game(game).core_id
    deals, community = _core.equity_deals(number, players, dead)
    found = exact_counts(number, players, dead, 1, deals, community, "exact", None)
    if not isinstance(found, tuple):  # pragma: no cover - no progress: nothing stops it
        raise AssertionError(f"an exact count with no progress to stop it gave {found!r}")
    return found[0]


def sample_spot(
    game: str, players: list[list[int]], dead: list[int | None], samples: int, seed: int, *,
    target_se: float | None = None, step: int = 0,
) -> EquityCounts:  # fmt: skip
    """Monte Carlo counts of a spot whose cards are codes already known to be a stud
    deal (``players``: each player's known cards; ``dead``: None for a dead card not
    known), as a replayed hand's are, on the calling thread, without reading and
    checking the cards again (the core still refuses a card twice). For callers that
    sample many small spots.

    Without ``target_se``: the counts of ``equity(hands, game, dead=dead, method="mc",
    samples=samples, seed=seed, threads=1)``, the same deals. With it: ``step`` deals
    at a time (at most a chunk of ``EQ_CHUNK_SAMPLES``; the first ``step`` deals of
    chunk 0, then of chunk 1, ...) until every share's standard error is at most
    ``target_se``, or ``samples`` deals are drawn.

    >>> from studeval.equity_runs import share_of
    >>> counts = sample_spot("stud", [[51, 50, 20], [47, 46, 42]], [], 2_500, 1)
    >>> counts.deals, round(share_of(counts, 0), 1)  # exactly 0.6375: within 0.01 or so
    (2500, 0.6)
    >>> eight = [[4 * rank] for rank in range(8)]  # eight door cards: small shares
    >>> sample_spot("stud", eight, [], 2_500, 1, target_se=0.01, step=625).deals
    1875
    """
    number = get_game(game).core_id
    if target_se is None:
        return monte_carlo(plain_sampler(number, players, dead), 1, samples, None, None, seed,
                           None, part=plain_part(number, players, dead))  # fmt: skip
    if not 0 < step <= _CHUNK or samples < 1 or not target_se >= 0:
        raise OptionError(f"sample_spot needs 1 <= step <= {_CHUNK:,}, samples >= 1 and "
                          f"target_se >= 0; got {step!r}, {samples!r}, {target_se!r}")  # fmt: skip
    return counts_of(_core.equity_sample_steps(number, players, dead, seed_of(seed), step,
                                               samples, target_se))  # fmt: skip
