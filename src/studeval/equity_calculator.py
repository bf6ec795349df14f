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

import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from studeval import _core
from studeval.batch import threads_arg
from studeval.cards import cards_str
from studeval.equity_runs import (
    _CHUNK,
    _FIRST_CHUNKS,
    _STOPS,
    _WATCHED_DEALS,
    EXACT_BUDGET,
    MAX_SCOOP_RECORDS,
    MIN_TARGET_SE,
    EquityCounts,
    Sampler,
    exact_counts,
    monte_carlo,
    plain_part,
    plain_sampler,
    samples_arg,
    seed_of,
    share_of,
    std_error,
    stopping_rules,
    watch,
)
from studeval.equity_spot import read_spot
from studeval.errors import (
    NoDealError,
    OptionError,
    StoppedError,
)
from studeval.games import get_game

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from studeval.ranges import Range

__all__ = [
    "EXACT_BUDGET",
    "MIN_TARGET_SE",
    "Equity",
    "EquityCounts",
    "PlayerEquity",
    "equity",
    "range_equity",
]


@dataclass(frozen=True)
class PlayerEquity:
    """One player's result, as fractions of the deals.

    ``share`` is the expected fraction of the pot (the players' shares add to 1);
    ``high_win`` / ``high_tie`` the fraction of deals where the player alone holds,
    or shares, the best high, ``low_win`` / ``low_tie`` the same for the best low
    (the qualifying low in stud8); ``scoop`` the fraction of deals the player wins
    whole and alone; ``std_error`` the standard error of ``share`` (0 when exact);
    ``high_share`` and ``low_share`` the parts of ``share`` won with a high and with a
    low (stud8: from the high half, whole pots with no qualifying low included, and
    from the low half), None when the counts behind it do not say.
    """

    cards: str
    share: float
    high_win: float
    high_tie: float
    low_win: float
    low_tie: float
    scoop: float
    std_error: float
    high_share: float | None = None
    low_share: float | None = None


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
        if spec.high and spec.low is not None and self.players[0].low_share is not None:
            columns += [("high half", "high_share"), ("low half", "low_share")]
        columns.append(("scoop", "scoop"))
        width = max(5, *(len(p.cards) for p in self.players))
        head = f"{'player':<7} {'cards':<{width}}" + "".join(f"{t:>10}" for t, _ in columns)
        lines = [f"{spec.title}: {how}{shared}", head]
        for seat, p in enumerate(self.players):
            cells = "".join(f"{getattr(p, name):>10.2%}" for _, name in columns)
            lines.append(f"{seat:<7} {p.cards:<{width}}{cells}")
        return "\n".join(lines)


def _result(
    game: str, hands: Sequence[list[int] | str], counts: EquityCounts, exact: bool,
    community: bool, started: float, method: str,
) -> Equity:  # fmt: skip
    n = counts.deals or 1
    players = []
    for i, cards in enumerate(hands):
        label = cards if isinstance(cards, str) else cards_str(cards) or "??"
        # One division each: the weighted counts of a range may be huge integers.
        per_pot = counts.units * n
        low = counts.low_share[i] / per_pot if counts.low_share else None
        high = (counts.share[i] - counts.low_share[i]) / per_pot if counts.low_share else None
        players.append(
            PlayerEquity(
                cards=label, share=share_of(counts, i),
                high_win=counts.high_win[i] / n, high_tie=counts.high_tie[i] / n,
                low_win=counts.low_win[i] / n, low_tie=counts.low_tie[i] / n,
                scoop=counts.scoop[i] / n, std_error=0.0 if exact else std_error(counts, i),
                high_share=high, low_share=low,
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
    Monte Carlo stops after ``samples`` deals (against ranges rounded up to whole
    chunks of 4,096), once every share's standard error is at most ``target_se`` (default
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
    samples, target_se, time_limit = stopping_rules(samples, target_se, time_limit)
    stops = (samples, target_se, time_limit)
    if method == "exact" and any(v is not None for v in stops):
        given = ", ".join(f"{n}={v!r}" for n, v in zip(_STOPS, stops, strict=True) if v is not None)
        raise OptionError(
            f"method='exact' counts every deal; samples, target_se and time_limit are for "
            f"Monte Carlo (method='mc'); got {given}"
        )
    # No Range can exist before studeval.ranges (and numpy) is imported: `import
    # studeval` and plain equity stay free of both.
    ranges = sys.modules.get("studeval.ranges")
    if (
        ranges is not None
        and not isinstance(hands, (str, bytes))
        and isinstance(hands, Sequence)
        and any(isinstance(h, ranges.Range) for h in hands)
    ):
        return _against_ranges(hands, game, dead, method, stops, seed, threads, progress,
                                   started)  # fmt: skip
    players, dead_codes = read_spot(hands, dead)
    n_threads = threads_arg(threads)
    number = get_game(game).core_id
    deals, community = _core.equity_deals(number, players, dead_codes)
    wants_mc = method == "mc" or (method == "auto" and any(v is not None for v in stops))
    if not wants_mc:
        exact = exact_counts(
            number, players, dead_codes, n_threads, deals, community, method, progress
        )
        if exact == "stopped":
            sampler = plain_sampler(number, players, dead_codes)
            return _quick_answer(sampler, n_threads, seed, game, players, community, started)
        if isinstance(exact, tuple):
            if progress is not None:
                progress(1.0)
            return _result(game, players, exact[0], True, community, started, exact[1])
    counts = monte_carlo(plain_sampler(number, players, dead_codes), n_threads, samples,
                          target_se, time_limit, seed, progress,
                          part=plain_part(number, players, dead_codes))  # fmt: skip
    return _result(game, players, counts, False, community, started, "monte carlo")


def _quick_answer(
    sample: Sampler, threads: int, seed: int | None, game: str,
    labels: Sequence[list[int] | str], community: bool, started: float,
) -> Equity:  # fmt: skip
    """Stopped part way, an exact count holds no answer: the answer so far is one quick
    batch of samples, marked inexact."""
    counts = monte_carlo(sample, threads, _CHUNK * _FIRST_CHUNKS, None, None, seed, None)
    return _result(game, labels, counts, False, community, started, "monte carlo")


def _against_ranges(
    hands: Sequence[object], game: str, dead: object, method: str,
    stops: tuple[int | None, float | None, float | None], seed: int | None,
    threads: int | None, progress: Callable[[float], object] | None, started: float,
) -> Equity:  # fmt: skip
    """:func:`equity` where some seats are ranges: exact, combination tuple by tuple,
    when that fits the budget (or ``method="exact"``), else Monte Carlo drawing the
    ranges jointly."""
    from studeval.equity_ranges import (
        TupleCounts,
        count_tuples,
        counted_cost,
        ranged_spot,
        sample_call,
        tuple_cost,
        tuples_of,
    )

    number = get_game(game).core_id
    spot = ranged_spot(hands, dead)
    n_threads = threads_arg(threads)
    community = _core.equity_deals(number, spot.players, spot.dead).community
    if community:  # the deck runs out on seventh street: no seat has a card of its own
        own = [seat for seat, r in spot.ranges if r.street == 7]
        if own:
            raise NoDealError(
                f"player {own[0]}'s range holds its own seventh card, but with these seats "
                "the deck runs out on seventh street and the dealer turns one community "
                "card for all (too few cards are left to give each seat its own): give "
                "the range on sixth street"
            )
    samples, target_se, time_limit = stops
    wants_mc = method == "mc" or (method == "auto" and any(v is not None for v in stops))
    if not wants_mc:
        try:
            cards, group, ints = tuples_of(spot)
        except OptionError:
            if method == "exact":
                raise
            cards = None
        if cards is not None:
            deals, counted = tuple_cost(number, spot, cards[0])
            cost = len(cards) * (counted_cost(number, deals) if counted else deals)
            if method == "exact" and cost > 50 * EXACT_BUDGET:
                raise OptionError(
                    f"an exact answer against these ranges costs about {cost:,.0f} deals "
                    f"walked ({len(cards):,} combinations); use method='mc'"
                )
            if method == "exact" or cost <= EXACT_BUDGET:
                try:
                    rows = watch(
                        lambda control: count_tuples(number, spot, cards, n_threads,
                                                     MAX_SCOOP_RECORDS, control),
                        progress, cost > _WATCHED_DEALS,
                    )  # fmt: skip
                except StoppedError:
                    return _quick_answer(sample_call(number, spot), n_threads, seed, game,
                                         spot.labels, community, started)  # fmt: skip
                deals_w, f, walked = TupleCounts(rows, group, ints).totals(len(spot.players))
                counts = EquityCounts(
                    deals_w, f["share"], f["share_sq"], f["high_win"], f["high_tie"],
                    f["low_win"], f["low_tie"], f["scoop"], low_share=f["low_share"],
                )  # fmt: skip
                if progress is not None:
                    progress(1.0)
                result = _result(game, spot.labels, counts, True, community, started,
                                 "exact by combination")  # fmt: skip
                return replace(result, deals=walked)
    counts = monte_carlo(sample_call(number, spot), n_threads, samples, target_se, time_limit,
                          seed, progress)  # fmt: skip
    return _result(game, spot.labels, counts, False, community, started, "monte carlo")


def range_equity(
    hero: object,
    villain: Range,
    game: str,
    *,
    dead: object = (),
    method: str = "auto",
    samples: int | None = None,
    seed: int | None = None,
    threads: int | None = None,
) -> npt.NDArray[np.float64]:
    """The hero's share of the pot heads-up against each combination of ``villain``:
    an array aligned with ``villain.hidden`` (NaN for a combination that holds one of
    the hero's cards or a dead card, so cannot be). ``method="exact"`` counts every
    deal of every combination; ``"mc"`` samples ``samples`` deals (default 16,384) for
    each, seeded from ``seed`` and the combination's place; ``"auto"`` counts exactly
    when that costs at most ``EXACT_BUDGET`` deals walked, else samples.

    >>> import numpy as np, studeval
    >>> villain = studeval.Range("*", up="Kc Kd Qh 2s", street=7)
    >>> shares = range_equity("As Ad Ah 7c 7d 3h 4h", villain, "stud")
    >>> len(shares), int(np.isnan(shares).sum())  # NaN: a combination holding a hero's card
    (17296, 6636)
    >>> float(np.nanmin(shares)), float(np.nanmax(shares))
    (0.0, 1.0)
    >>> round(float(np.nanmean(shares)), 4)  # as his combinations weigh alike: the equity
    0.9962
    """
    import numpy as np

    from studeval.equity_ranges import count_tuples, counted_cost, ranged_spot, tuple_cost
    from studeval.ranges import Range, combination_keys

    if not isinstance(villain, Range):
        raise OptionError(f"range_equity takes the villain's Range; got {type(villain).__name__}")
    if isinstance(hero, Range):
        raise OptionError("range_equity takes the hero's cards, not a range: for a range "
                          "against a range, use equity()")  # fmt: skip
    if method not in ("auto", "exact", "mc"):
        raise OptionError(f"method must be 'auto', 'exact' or 'mc'; got {method!r}")
    if method == "exact" and samples is not None:
        raise OptionError("method='exact' counts every deal; samples is for method='mc'")
    number = get_game(game).core_id
    spot = ranged_spot([hero, villain], dead)
    kept = spot.ranges[0][1]
    n_threads = threads_arg(threads)
    deals, counted = tuple_cost(number, spot, kept.hidden[0])
    cost = len(kept) * (counted_cost(number, deals) if counted else deals)
    out = np.full(len(villain), np.nan)
    place = np.searchsorted(combination_keys(villain.hidden), combination_keys(kept.hidden))
    if method == "exact" or (method == "auto" and samples is None and cost <= EXACT_BUDGET):
        rows = count_tuples(number, spot, kept.hidden, n_threads, MAX_SCOOP_RECORDS, None)
        out[place] = rows[:, 1] / rows[:, 0] / _core.EQ_UNITS
        return out
    per = 16_384 if samples is None else samples_arg(samples)
    chunks = -(-per // _core.EQ_CHUNK_SAMPLES)
    base = seed_of(seed)
    for i, hidden in enumerate(kept.hidden):
        players = [spot.players[0], [*hidden[:2].tolist(), *kept.up, *hidden[2:].tolist()]]
        # Seeded by the combination's place in the range given, whatever was removed.
        combo_seed = (base ^ (0x9E3779B97F4A7C15 * (int(place[i]) + 1))) & (2**64 - 1)
        sums = _core.equity_sample(number, players, spot.dead, combo_seed, 0, chunks, n_threads)
        out[place[i]] = sums.share[0] / sums.deals / _core.EQ_UNITS
    return out
