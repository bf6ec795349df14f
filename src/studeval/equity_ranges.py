"""Equity against ranges: the seats' ranges checked against the spot, counted exactly
combination by combination, or sampled jointly, in the core.

:func:`studeval.equity` takes a :class:`~studeval.Range` wherever it takes a seat's
cards, and :func:`studeval.range_equity` gives the hero's share against each
combination of one range: both build on this module.

Card removal is exact. A combination holding a card known elsewhere (another seat's
cards, a dead card) is impossible and leaves the range first. Several ranges are
drawn jointly: exactly, every collision-free choice of one combination a range (a
tuple) is counted with the product of their weights; by Monte Carlo, a draw whose
combinations share a card is drawn again, which gives each tuple the same weight.

Weights are kept exact: the weights, binary fractions as every float is, are scaled
by one power of two to whole numbers, so the counts stay integers.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from studeval import _core
from studeval.cards import cards_str
from studeval.equity_spot import read_spot
from studeval.errors import NoDealError, OptionError, RangeError
from studeval.games import get_game
from studeval.ranges import Range, combination_keys

__all__ = [
    "COUNT_COST",
    "RangedSpot",
    "TupleCounts",
    "count_tuples",
    "counted_cost",
    "ranged_spot",
    "sample_call",
    "tuple_cost",
    "tuples_of",
]

#: The most tuples an exact count against several ranges lists (beyond it, the
#: joint count would take long anyway: Monte Carlo).
MAX_TUPLES = 4_000_000
#: Up to this many distinct tuple weights, the weighted sums are exact integers.
MAX_EXACT_GROUPS = 65_536
#: Tuples counted per core call: bounds the memory of one call's counts and lets a
#: long count report progress and stop between calls.
_TUPLES_PER_CALL = 32_768
#: From this many deals a tuple, heads-up tuples are counted, not walked (the core's
#: SE_RANGE_COUNT_FROM); counting one costs about as much as walking this many deals.
_COUNT_FROM = 200_000
#: What counting one heads-up tuple costs, in deals walked: about 2,000,000 from 4th
#: street on, growing with the deals (a 3rd-street spot counts in 0.05 s, 1.5M deals
#: walked; a 2nd-street one takes seconds), six times that where scoops are counted by
#: low class (stud8, and the no-qualifier game).
COUNT_COST = 2_000_000
_FIELDS = _core.TUPLE_FIELDS
#: The games whose heads-up scoops are counted by low class (slower).
_BY_CLASS = (get_game("stud8").core_id, get_game("stud_hilo_noq").core_id)


@dataclass(frozen=True)
class RangedSpot:
    """A spot with ranged seats: ``players`` the known cards (a ranged seat's up
    cards), ``dead`` the dead cards (None: one not known), ``ranges`` each ranged
    seat and its range after card removal, ``labels`` how each seat is shown."""

    players: list[list[int]]
    dead: list[int | None]
    ranges: list[tuple[int, Range]]
    labels: list[str]


def ranged_spot(hands: Sequence[object], dead: object) -> RangedSpot:
    """Read a spot whose seats may be ranges: the known cards checked as
    :func:`studeval.equity` checks them (a range stands for its seat's street of
    cards), every range's dead cards added to the spot's, and each range without
    the combinations that hold a card known elsewhere.

    >>> spot = ranged_spot(["As Ad 7c", Range("KK", up="Kc")], ())
    >>> spot.players, len(spot.ranges[0][1])
    ([[51, 49, 20], [44]], 138)
    """
    if isinstance(hands, (str, bytes)) or not isinstance(hands, Sequence):
        hands = [hands]  # read_spot words the error
    stand_ins: list[object] = []
    range_dead: set[int] = set()
    for entry in hands:
        if isinstance(entry, Range):
            up = [cards_str([c]) for c in entry.up]
            stand_ins.append(["??", "??", *up, *(["??"] if entry.street == 7 else [])])
            range_dead.update(entry.dead)
        else:
            stand_ins.append(entry)
    players, dead_codes = read_spot(stand_ins, dead)
    known_dead = {c for c in dead_codes if c is not None}
    dead_codes += sorted(range_dead - known_dead - {c for p in players for c in p})
    taken = {c for p in players for c in p} | {c for c in dead_codes if c is not None}
    ranges = []
    labels = []
    for seat, entry in enumerate(hands):
        if not isinstance(entry, Range):
            labels.append(cards_str(players[seat]) or "??")
            continue
        live = ~np.isin(entry.hidden, np.array(sorted(taken), dtype=np.uint8)).any(axis=1)
        if not live.any():
            raise RangeError(
                f"player {seat}'s range ({entry!r}) has no combination left: each holds a "
                f"card known elsewhere (another seat's, or dead)"
            )
        kept = entry if live.all() else entry.where(live)
        ranges.append((seat, kept))
        text = entry.text or f"{len(entry)} combinations"
        labels.append(f"{text} @ {cards_str(entry.up)}" if entry.up else text)
    return RangedSpot(players, dead_codes, ranges, labels)


def integer_weights(weights: npt.NDArray[np.float64]) -> tuple[npt.NDArray[np.intp], list[int]]:
    """Each weight's group and each group's whole-number weight, in the same
    proportions exactly: every float is a binary fraction, so one power of two
    scales them all to integers.

    >>> groups, ints = integer_weights(np.array([0.5, 1.0, 0.5, 0.75]))
    >>> groups.tolist(), ints
    ([0, 2, 0, 1], [2, 3, 4])
    """
    values, groups = np.unique(weights, return_inverse=True)
    ratios = [float(v).as_integer_ratio() for v in values]
    scale = max(d for _, d in ratios)
    ints = [n * (scale // d) for n, d in ratios]
    common = math.gcd(*ints)
    return groups.reshape(-1), [i // common for i in ints]


@dataclass(frozen=True)
class TupleCounts:
    """Exact counts per tuple: ``rows`` (tuples x (1 + 8 players), laid out as the
    core's TUPLE_FIELDS), each tuple's ``group`` and the groups' whole-number
    ``weights``."""

    rows: npt.NDArray[np.uint64]
    group: npt.NDArray[np.intp]
    weights: list[int]

    def totals(self, players: int) -> tuple[int, dict[str, tuple[int, ...]], int]:
        """The weighted sums as Python integers: the weighted deals, each per-player
        field by name, and the deals walked (unweighted).

        Each weight group's column sums come from one pass over the tuples; the groups
        are then weighed exactly. Beyond :data:`MAX_EXACT_GROUPS` distinct tuple weights
        the sums are taken in floating point and scaled to 53-bit integers instead."""
        rows, n_groups = self.rows, len(self.weights)
        walked = int(rows[:, 0].sum(dtype=np.uint64)) if len(rows) else 0
        if n_groups <= MAX_EXACT_GROUPS:
            exact = len(rows) == 0 or int(rows.max()) * len(rows) < 2**63
            sums = np.zeros((n_groups, rows.shape[1]), dtype=np.uint64 if exact else object)
            np.add.at(sums, self.group, rows if exact else rows.astype(object))
            table = sums.tolist()
            column = [sum(w * g[c] for w, g in zip(self.weights, table, strict=True))
                      for c in range(rows.shape[1])]  # fmt: skip
        else:
            top = max(self.weights)
            scale = np.array([w / top for w in self.weights])[self.group]
            floats = scale @ rows.astype(np.float64)
            unit = 2.0**52 / max(float(floats[0]), 1e-300)
            column = [round(v * unit) for v in floats.tolist()]
        fields: dict[str, tuple[int, ...]] = {}
        for f, name in enumerate(_FIELDS[1:], start=1):
            fields[name] = tuple(column[1 + (f - 1) * players : 1 + f * players])
        return column[0], fields, walked


def tuples_of(spot: RangedSpot) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.intp], list[int]]:
    """Every collision-free choice of one combination per range (their hidden cards
    side by side), each tuple's weight group and the groups' whole-number weights."""
    cards = spot.ranges[0][1].hidden
    group, ints = integer_weights(spot.ranges[0][1].weights)
    keys = combination_keys(cards)
    for _, r in spot.ranges[1:]:
        if len(cards) * len(r) > MAX_TUPLES:
            raise OptionError(
                f"the ranges make {len(cards) * len(r):,} tuples to count one by one; the "
                f"most an exact count takes is {MAX_TUPLES:,}: use method='mc'"
            )
        r_group, r_ints = integer_weights(r.weights)
        r_keys = combination_keys(r.hidden)
        left, right = np.nonzero((keys[:, None] & r_keys[None, :]) == 0)
        cards = np.concatenate([cards[left], r.hidden[right]], axis=1)
        keys = keys[left] | r_keys[right]
        group = group[left] * len(r_ints) + r_group[right]
        ints = [a * b for a in ints for b in r_ints]
    if len(cards) == 0:
        raise RangeError("the ranges cannot be held together: every choice shares a card")
    return np.ascontiguousarray(cards), group, ints


def counted_cost(number: int, deals: float) -> float:
    """The cost of counting one heads-up tuple of ``deals`` deals, in deals walked."""
    by_class = number in _BY_CLASS
    return COUNT_COST * max(1.0, deals / 1e8) ** 0.5 * (6 if by_class else 1)


def tuple_cost(number: int, spot: RangedSpot, first: npt.NDArray[np.uint8]) -> tuple[float, bool]:
    """The deals of one tuple (all tuples have as many) and whether the core counts
    it rather than walking it (see :func:`counted_cost`)."""
    players = [list(p) for p in spot.players]
    at = 0
    for seat, r in spot.ranges:
        players[seat] = [*players[seat], *first[at : at + r.width].tolist()]
        at += r.width
    deals, community = _core.equity_deals(number, players, spot.dead)
    counted = len(players) == 2 and not community and deals >= _COUNT_FROM
    return deals, counted


def count_tuples(
    number: int, spot: RangedSpot, cards: npt.NDArray[np.uint8], threads: int,
    max_records: int, control: _core.EquityProgress | None,
    on_call: Callable[[float], None] | None = None,
) -> npt.NDArray[np.uint64]:  # fmt: skip
    """Exact counts of every tuple, in core calls of :data:`_TUPLES_PER_CALL`."""
    seats = [seat for seat, _ in spot.ranges]
    widths = [r.width for _, r in spot.ranges]
    rows = np.zeros((len(cards), 1 + 8 * len(spot.players)), dtype=np.uint64)
    for start in range(0, len(cards), _TUPLES_PER_CALL):
        part = np.ascontiguousarray(cards[start : start + _TUPLES_PER_CALL])
        out = rows[start : start + len(part)]
        _core.equity_tuples(number, spot.players, spot.dead, seats, widths, part, out,
                            max_records, threads, control)  # fmt: skip
        if on_call is not None:
            on_call(min((start + len(part)) / len(cards), 1.0))
    return rows


def sample_call(number: int, spot: RangedSpot) -> Callable[[int, int, int, int], _core.EquitySums]:
    """The core's Monte Carlo against the spot's ranges, as (seed, first chunk,
    chunks, threads) -> sums."""
    ranges = []
    for seat, r in spot.ranges:
        uniform = bool((r.weights == r.weights[0]).all())
        # Scaled to at most 1: the core sums them, and any finite weights must fit.
        weights = None if uniform else np.ascontiguousarray(r.weights / r.weights.max())
        ranges.append((seat, r.width, np.ascontiguousarray(r.hidden), weights))

    def call(seed: int, first: int, chunks: int, threads: int) -> _core.EquitySums:
        try:
            return _core.equity_sample_ranges(number, spot.players, spot.dead, ranges, seed,
                                              first, chunks, threads)  # fmt: skip
        except NoDealError:
            # The deck itself was checked (equity_deals): the ranges kept colliding.
            raise RangeError(
                "the ranges can (almost) never be held together: a million draws in a row "
                "gave two seats a card alike"
            ) from None

    return call
