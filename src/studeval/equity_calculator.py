"""Who is ahead: each player's share of the pot, by exact counting or Monte Carlo.

``equity(hands, game)`` takes each player's cards known so far (any card text or
codes; ``??`` marks an unknown card and may also be left out) and finishes every
hand to seven cards from the unseen cards: the 52 less every known and ``dead``
card. When the unseen cards cannot complete every hand, the seventh card is one
community card shared by all (WSOP live-action rule 228).

- Heads-up, the answer is exact at any street: every deal is counted, without
  walking the pairs of completions (3rd street: 1.8e10 deals in a fraction of a
  second), by sweeping sorted completions with inclusion-exclusion counters.
- Multiway, exact enumeration while the deal count fits a budget, else Monte
  Carlo to a target standard error, a sample count or a time limit.

>>> result = equity(["Ac 2d 3h", "Kc Kd Ks"], "razz")
>>> result.exact, result.deals
(True, 18265297050)
>>> round(result.players[0].share, 4), round(result.players[1].share, 4)
(0.9786, 0.0214)
"""

from __future__ import annotations

import math
import operator
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from studeval import _core
from studeval.batch import threads_arg
from studeval.cards import cards_str
from studeval.equity_spot import read_spot
from studeval.errors import (
    OptionError,
    StoppedError,
    TooBigError,
)
from studeval.games import get_game

__all__ = ["EXACT_BUDGET", "MIN_TARGET_SE", "Equity", "EquityCounts", "PlayerEquity", "equity"]

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
#: instead, slower and in little memory.
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
    squares of those per-deal units (0 for exact counting, which needs no error).
    Counts from runs of the same spot add up field by field (:meth:`merge`).
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
        return EquityCounts(self.deals + other.deals, **summed, units=self.units)


@dataclass(frozen=True)
class PlayerEquity:
    """One player's result, as fractions of the deals.

    ``share`` is the expected fraction of the pot (the players' shares add to 1);
    ``high_win`` / ``high_tie`` the fraction of deals where the player alone holds,
    or shares, the best high, ``low_win`` / ``low_tie`` the same for the best low
    (the qualifying low in stud8); ``scoop`` the fraction of deals the player wins
    whole and alone; ``std_error`` the standard error of ``share`` (0 when exact).
    """

    cards: str
    share: float
    high_win: float
    high_tie: float
    low_win: float
    low_tie: float
    scoop: float
    std_error: float


@dataclass(frozen=True)
class Equity:
    """The answer of :func:`equity`: one :class:`PlayerEquity` per player.

    ``deals`` is how many deals were counted (exact) or sampled; ``exact`` whether
    every deal was counted; ``community`` whether the deals share a community card;
    ``elapsed`` the seconds it took; ``method`` how it was computed ("count",
    "enumerate" or "monte carlo"); ``counts`` the integer sums behind it all.
    """

    game: str
    players: tuple[PlayerEquity, ...]
    deals: int
    exact: bool
    community: bool
    elapsed: float
    method: str
    counts: EquityCounts = field(repr=False)

    @classmethod
    def from_counts(
        cls, counts: EquityCounts, game: str = "stud", cards: Sequence[str] | None = None
    ) -> Equity:
        """The shares behind ``counts``, such as the merged counts of several runs.

        A range is the runs over its hands, merged: each exact run counts its deals,
        so hands of one street weigh alike. The answer is exact when every run was
        (exact counts carry no squares); ``method`` is ``"counts"``, ``elapsed`` 0.
        ``game`` names the game whose columns ``str()`` shows; counts with a low
        (or a high) that the game has not are refused. ``cards`` labels the players.

        >>> one = equity(["As Ad 7c", "Ks Kd Qh"], "stud")
        >>> two = equity(["As Ad 7c", "Qs Qd Jh"], "stud")
        >>> both = Equity.from_counts(one.counts.merge(two.counts), "stud")
        >>> both.exact, both.deals == one.deals + two.deals
        (True, True)
        >>> round(one.players[0].share, 4), round(two.players[0].share, 4)
        (0.6546, 0.6443)
        >>> round(both.players[0].share, 4)  # their mean: the runs counted as many deals
        0.6494
        """
        spec = get_game(game)
        if not spec.high and any(counts.high_win + counts.high_tie):
            raise OptionError(f"these counts have high hands; {spec.name} has none: name the game")
        if spec.low is None and any(counts.low_win + counts.low_tie):
            raise OptionError(f"these counts have lows; {spec.name} has none: name the game")
        n = len(counts.share)
        labels = ["??"] * n if cards is None else [str(c) for c in cards]
        if len(labels) != n:
            raise OptionError(f"cards names {len(labels)} players; the counts have {n}")
        exact = not any(counts.share_sq)
        result = _result(spec.name, labels, counts, exact, False, 0.0, "counts")
        return replace(result, elapsed=0.0)

    def __str__(self) -> str:
        spec = get_game(self.game)
        how = (
            f"exact, {self.deals:,} deals"
            if self.exact
            else f"Monte Carlo, {self.deals:,} deals, standard error "
            f"{max(p.std_error for p in self.players):.2%}"
        )
        shared = "; one community card" if self.community else ""
        columns = [("share", "share")]
        if spec.high:
            columns += [("high win", "high_win"), ("high tie", "high_tie")]
        if spec.low is not None:
            low = "low8" if spec.low_must_qualify else "low"
            columns += [(f"{low} win", "low_win"), (f"{low} tie", "low_tie")]
        columns.append(("scoop", "scoop"))
        width = max(5, *(len(p.cards) for p in self.players))
        head = f"{'player':<7} {'cards':<{width}}" + "".join(f"{t:>10}" for t, _ in columns)
        lines = [f"{spec.title}: {how}{shared}", head]
        for seat, p in enumerate(self.players):
            cells = "".join(f"{getattr(p, name):>10.2%}" for _, name in columns)
            lines.append(f"{seat:<7} {p.cards:<{width}}{cells}")
        return "\n".join(lines)


def _counts(sums: _core.EquitySums) -> EquityCounts:
    """The core's sums as counts."""
    return EquityCounts(
        sums.deals, sums.share, sums.share_sq, sums.high_win, sums.high_tie, sums.low_win,
        sums.low_tie, sums.scoop,
    )  # fmt: skip


def _std_error(counts: EquityCounts, player: int) -> float:
    """The standard error of a sampled share, from the sums of units and their squares."""
    n = counts.deals or 1
    mean = counts.share[player] / counts.units / n
    second = counts.share_sq[player] / counts.units**2 / n
    return math.sqrt(max(second - mean * mean, 0.0) / n)


def _result(
    game: str, hands: Sequence[list[int] | str], counts: EquityCounts, exact: bool,
    community: bool, started: float, method: str,
) -> Equity:  # fmt: skip
    n = counts.deals or 1
    players = []
    for i, cards in enumerate(hands):
        label = cards if isinstance(cards, str) else cards_str(cards) or "??"
        players.append(
            PlayerEquity(
                cards=label, share=counts.share[i] / counts.units / n,
                high_win=counts.high_win[i] / n, high_tie=counts.high_tie[i] / n,
                low_win=counts.low_win[i] / n, low_tie=counts.low_tie[i] / n,
                scoop=counts.scoop[i] / n, std_error=0.0 if exact else _std_error(counts, i),
            )
        )  # fmt: skip
    return Equity(game, tuple(players), counts.deals, exact, community,
                  time.perf_counter() - started, method, counts)  # fmt: skip


def equity(
    hands: Sequence[object],
    game: str,
    *,
    dead: object = (),
    method: str = "auto",
    samples: int | None = None,
    target_se: float | None = None,
    time_limit: float | None = None,
    seed: int | None = None,
    threads: int | None = None,
    progress: Callable[[float], object] | None = None,
) -> Equity:
    """Each player's share of the pot and how often they win, tie and scoop.

    ``hands`` holds 2 to 8 players' known cards (0 to 7 each). ``method`` is
    ``"exact"`` (count every deal: heads-up by counting, multiway by walking
    them), ``"mc"`` (Monte Carlo) or ``"auto"`` (exact heads-up, and multiway
    while the deals number at most :data:`EXACT_BUDGET`; else Monte Carlo).
    Monte Carlo stops after ``samples`` deals (rounded up to whole chunks of
    4,096), once every share's standard error is at most ``target_se`` (default
    5e-4, at least :data:`MIN_TARGET_SE` when neither ``samples`` nor ``time_limit``
    caps the run), after ``time_limit`` seconds, or when ``progress`` returns False;
    ``method="exact"`` refuses these three. ``progress`` is
    called with the fraction done, also during a long exact count (heads-up with an
    unknown hole card takes seconds); stopped part way, a count has no answer and
    one quick batch of samples is returned instead, marked inexact. Ctrl-C stops a
    count too (``KeyboardInterrupt`` once it has). The same ``seed`` gives the same answer
    whatever the thread count, also when the run stops on ``target_se``: the deals come
    in the same batches on any machine. A run stopped by ``time_limit`` ends after a
    whole batch, so its answer is the seeded answer for ``result.deals`` deals (rerun
    with ``samples=result.deals`` to get it anywhere). ``dead`` cards are out of play:
    card text, one card or a list; ``??`` counts a dead card not known (a folded seat's
    down card), which changes no share but may leave the deck short, so that the
    seventh card is a community card as a table would deal it. Players whose cards
    cannot be of one street (a player's unknown down cards are each ``??`` or all
    left out) are refused. The GIL is released while the core works.

    >>> exact = equity(["As Ad 7c", "Ks Kd Qh"], "stud")
    >>> exact.exact, round(exact.players[0].share, 4)
    (True, 0.6546)
    >>> r = equity(["As Ad 7c", "Ks Kd Qh"], "stud", method="mc", samples=40_960, seed=1)
    >>> r.exact, r.deals, abs(r.players[0].share - 0.6546) < 4 * r.players[0].std_error
    (False, 40960, True)
    >>> equity(["As Ad", "As Kd"], "stud")
    Traceback (most recent call last):
    ...
    studeval.errors.DuplicateCardError: duplicate card As (in player 1, also in player 0)
    """
    started = time.perf_counter()
    game = get_game(game).name
    if method not in ("auto", "exact", "mc"):
        raise OptionError(f"method must be 'auto', 'exact' or 'mc'; got {method!r}")
    samples, target_se, time_limit = _stopping_rules(samples, target_se, time_limit)
    stops = (samples, target_se, time_limit)
    if method == "exact" and any(v is not None for v in stops):
        given = ", ".join(f"{n}={v!r}" for n, v in zip(_STOPS, stops, strict=True) if v is not None)
        raise OptionError(
            f"method='exact' counts every deal; samples, target_se and time_limit are for "
            f"Monte Carlo (method='mc'); got {given}"
        )
    players, dead_codes = read_spot(hands, dead)
    n_threads = threads_arg(threads)
    number = get_game(game).core_id
    deals, community = _core.equity_deals(number, players, dead_codes)
    wants_mc = method == "mc" or (method == "auto" and any(v is not None for v in stops))
    if not wants_mc:
        exact = _exact(number, players, dead_codes, n_threads, deals, community, method, progress)
        if exact == "stopped":
            # Stopped part way, an exact count holds no answer: the answer so far is
            # one quick batch of samples, marked inexact.
            quick = _CHUNK * _FIRST_CHUNKS
            counts = _monte_carlo(number, players, dead_codes, n_threads, quick, None, None,
                                  seed, None)  # fmt: skip
            return _result(game, players, counts, False, community, started, "monte carlo")
        if isinstance(exact, tuple):
            if progress is not None:
                progress(1.0)
            return _result(game, players, exact[0], True, community, started, exact[1])
    counts = _monte_carlo(number, players, dead_codes, n_threads, samples, target_se, time_limit,
                          seed, progress)  # fmt: skip
    return _result(game, players, counts, False, community, started, "monte carlo")


def _exact(
    number: int, players: list[list[int]], dead: list[int | None], threads: int, deals: float,
    community: bool, method: str, progress: Callable[[float], object] | None,
) -> tuple[EquityCounts, str] | str | None:  # fmt: skip
    """Exact counts, "stopped" when ``progress`` stopped them, or None when
    ``method="auto"`` should sample instead."""
    watched = deals > _WATCHED_DEALS
    try:
        if len(players) == 2 and not community:
            try:
                sums = _watch(
                    lambda control: _core.equity_count_heads_up(
                        number, players, dead, MAX_SCOOP_RECORDS, threads, control
                    ),
                    progress, watched,
                )  # fmt: skip
                return _counts(sums), "count"
            except TooBigError:
                pass  # too big to count: walk the deals (exact) or sample them
        if deals <= EXACT_BUDGET or method == "exact":
            if method == "exact" and deals > 50 * EXACT_BUDGET:
                raise OptionError(
                    f"an exact answer needs {deals:,.0f} deals walked one by one; use method='mc'"
                )
            sums = _watch(
                lambda control: _core.equity_enumerate(number, players, dead, threads, control),
                progress, watched,
            )  # fmt: skip
            return _counts(sums), "enumerate"
    except StoppedError:
        return "stopped"
    return None


def _watch(
    call: Callable[[_core.EquityProgress | None], _core.EquitySums],
    progress: Callable[[float], object] | None, watched: bool,
) -> _core.EquitySums:  # fmt: skip
    """Runs one exact core call. A long one runs on a helper thread while this one
    reports its progress every ``_POLL_S`` seconds and stops it when ``progress``
    returns False or on Ctrl-C (the core stops within milliseconds; the interrupt
    is raised once it has)."""
    if not watched:
        return call(None)
    control = _core.EquityProgress()
    outcome: list[_core.EquitySums] = []
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


def _stopping_rules(
    samples: object, target_se: object, time_limit: object
) -> tuple[int | None, float | None, float | None]:
    """Checked ``samples`` (a whole number of at least 1), ``target_se`` and
    ``time_limit`` (positive, finite numbers, not text): a bad one is an error at
    once, never a run that cannot stop. A ``target_se`` under :data:`MIN_TARGET_SE`
    needs ``samples`` or ``time_limit`` to cap the run."""
    if samples is not None:
        if isinstance(samples, bool) or not hasattr(type(samples), "__index__"):
            raise OptionError(f"samples must be a whole number of deals; got {samples!r}")
        samples = operator.index(samples)  # type: ignore[arg-type]
        if samples < 1:
            raise OptionError(f"samples must be at least 1 deal; got {samples}")
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


def _monte_carlo(
    number: int, players: list[list[int]], dead: list[int | None], threads: int,
    samples: int | None, target_se: float | None, time_limit: float | None,
    seed: int | None, progress: Callable[[float], object] | None,
) -> EquityCounts:  # fmt: skip
    if target_se is None and samples is None and time_limit is None:
        target_se = DEFAULT_TARGET_SE
    if seed is None:
        import secrets

        seed = secrets.randbits(64)
    elif isinstance(seed, bool) or not hasattr(type(seed), "__index__"):
        raise OptionError(f"seed must be an int; got {seed!r}")
    seed = int(seed) & (2**64 - 1)
    total_chunks = None if samples is None else -(-samples // _CHUNK)
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    counts: EquityCounts | None = None
    done = 0
    # The batches are the same whatever the thread count, so every stopping test
    # sees the same sums: a seed gives one answer on any machine.
    step = _FIRST_CHUNKS
    while True:
        batch = step if total_chunks is None else min(step, total_chunks - done)
        part = _counts(_core.equity_sample(number, players, dead, seed, done, batch, threads))
        counts = part if counts is None else counts.merge(part)
        done += batch
        step = min(step * 2, 4096)  # bigger batches once the first ones are in
        fraction, finished = _progress(counts, done, total_chunks, target_se, deadline)
        if progress is not None and progress(min(fraction, 1.0)) is False:
            finished = True
        if finished:
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
        worst = max(_std_error(counts, i) for i in range(len(counts.share)))
        fractions.append((target_se / worst) ** 2 if worst > 0 else 1.0)
        finished |= worst <= target_se
    if deadline is not None:
        now = time.perf_counter()
        fractions.append(1.0 if now >= deadline else 0.0)
        finished |= now >= deadline
    return (max(fractions) if fractions else 1.0), finished
