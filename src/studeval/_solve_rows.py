"""What the solver's rows are: each seat's combinations as the core plays them.

On seventh street a seat's combinations are its range's (three hidden cards each). From
sixth street they are its range's two down cards with every seventh card it may be
dealt (any card not in them and no one's up card), grouped by the two down cards: a
sixth-street node has one strategy row a group, a seventh-street node one a
combination. Every deal of the six hidden cards is alike, so a combination weighs what
its two down cards weigh.

>>> import numpy as np
>>> rows = Rows.of(np.array([[0, 1]], dtype=np.uint8), np.array([2.0]), up=[4, 5, 6, 7])
>>> rows.hidden.shape, rows.group[:3].tolist(), rows.n_groups, float(rows.weights[0])
((46, 3), [0, 0, 0], 1, 2.0)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from studeval.errors import SolveError
from studeval.ranges import Range, combination_keys

__all__ = ["Rows", "core_memory", "dead_cards", "dealable", "whole_at_least"]


@dataclass(frozen=True)
class Rows:
    """A seat's combinations as the core plays them: ``hidden`` (n, 3), ``weights`` (n,),
    and ``group`` (n,) the index of each one's sixth-street hand in the range (None on
    seventh street: each its own); ``down`` the range's hidden cards, a row a group."""

    hidden: npt.NDArray[np.uint8]
    weights: npt.NDArray[np.float64]
    group: npt.NDArray[np.int32] | None
    down: npt.NDArray[np.uint8]

    @property
    def n_groups(self) -> int:
        return len(self.down)

    @classmethod
    def of(cls, hidden: npt.NDArray[np.uint8], weights: npt.NDArray[np.float64],
           up: Sequence[int]) -> Rows:  # fmt: skip
        """The rows of a range's ``hidden`` cards and ``weights``; ``up`` every up card
        on the table (both seats')."""
        if hidden.shape[1] == 3:
            return cls(np.ascontiguousarray(hidden), np.ascontiguousarray(weights), None, hidden)
        free = np.array([c for c in range(52) if c not in set(up)], dtype=np.uint8)
        # Each pair with each free card not in it: (pairs, free) then the pair's own out.
        held = (free[None, :] == hidden[:, :1]) | (free[None, :] == hidden[:, 1:2])
        pair_index, card_index = np.nonzero(~held)
        triples = np.column_stack([hidden[pair_index], free[card_index]]).astype(np.uint8)
        return cls(np.ascontiguousarray(triples),
                   np.ascontiguousarray(weights[pair_index], dtype=np.float64),
                   np.ascontiguousarray(pair_index, dtype=np.int32), hidden)  # fmt: skip

    def rows_at(self, tied: bool) -> npt.NDArray[np.uint8]:
        """The hidden cards of each strategy row of a node: a group's down cards at a
        tied (sixth-street) node, else a combination's three."""
        return self.down if tied and self.group is not None else self.hidden

    def row_of(self, tied: bool) -> npt.NDArray[np.intp]:
        """For each combination, its row at a node (its group's at a tied node)."""
        if tied and self.group is not None:
            return self.group.astype(np.intp)
        return np.arange(len(self.hidden))

    def to_groups(self, values: npt.NDArray[np.float64],
                  weights: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:  # fmt: skip
        """Each group's weighted mean of its combinations' ``values`` (a group with no
        weight: nan); the values themselves on seventh street."""
        if self.group is None:
            return values
        total = np.bincount(self.group, weights=weights, minlength=self.n_groups)
        ok = np.isfinite(values) & (weights > 0)
        summed = np.bincount(self.group[ok], weights=(values * weights)[ok],
                             minlength=self.n_groups)  # fmt: skip
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(total > 0, summed / np.where(total > 0, total, 1.0), np.nan)


def core_memory(kinds: Sequence[str], seats: Sequence[int], children: Sequence[int],
                tied: Sequence[bool], rows: tuple[Rows, Rows], boards: int,
                workers: int = 1) -> int:  # fmt: skip
    """The bytes a solve holds for a tree (each node's kind, seat, number of children
    and whether it is tied) and the rows, as se_solve.c lays them out: a regret and an
    average sum for each action of each strategy row, the strategies read back from
    them and handed to the best response; each seat's reach, a row of its combinations
    a node it has acted on the way to; every node's values, a row of the larger seat's;
    each combination's ranks and order with each board (twice: the best response
    makes its own); each of ``workers`` threads' scratch.

    >>> rows = Rows.of(np.array([[0, 1, 2]], dtype=np.uint8), np.array([1.0]), up=[])
    >>> core_memory(["act", "showdown", "fold"], [0, -1, 0], [2, 0, 0], [False] * 3,
    ...             (rows, rows), boards=1)
    188072
    """
    count = [len(r.hidden) for r in rows]
    strategy = 0
    reach = [1, 1]
    for kind, seat, k, tie in zip(kinds, seats, children, tied, strict=True):
        if kind == "act":
            strategy += k * (rows[seat].n_groups if tie and rows[seat].group is not None
                             else count[seat])  # fmt: skip
            reach[seat] += k
    reach_rows = reach[0] * count[0] + reach[1] * count[1]
    ranks = 12 * boards * (count[0] + count[1])
    # A worker's: the advantages (3 a combination) and a sweep's vectors and sums.
    scratch = workers * (10 * max(count) + 52 + 1326 + 22100)
    return 8 * (4 * strategy + reach_rows + len(kinds) * max(count) + scratch) + 2 * ranks


def whole_at_least(value: object, least: int) -> bool:
    """Whether ``value`` is a whole number (not a bool) of at least ``least``: a spot's
    chips, deals, seed, iterations and memory."""
    return isinstance(value, int) and not isinstance(value, bool) and value >= least


def dead_cards(ranges: Sequence[object], up: Sequence[Sequence[int]]) -> tuple[int, ...]:
    """The cards out of play that the seats' Ranges know (a folded seat's up cards, not
    the seats' own up cards), in order."""
    known = {c for r in ranges if isinstance(r, Range) for c in r.dead}
    return tuple(sorted(known - {c for seat in up for c in seat}))


def dealable(ranges: Sequence[Range], up: Sequence[Sequence[int]], dead: Sequence[int] = ()
             ) -> tuple[tuple[Range, Range], tuple[int, int]]:  # fmt: skip
    """Each seat's range without the combinations holding the other's up cards or a
    ``dead`` card, and how many each lost; a SolveError where no deal could give both
    seats their hidden cards."""
    kept, removed = [], []
    for seat, r in enumerate(ranges):
        other = np.array([*up[1 - seat], *dead], dtype=np.uint8)
        ok = ~np.isin(r.hidden, other).any(axis=1)
        if not ok.any():
            raise SolveError(f"seat {seat}: every combination of the range holds one of the "
                             "other seat's up cards or a dead card")  # fmt: skip
        kept.append(r if ok.all() else r.where(ok))
        removed.append(int((~ok).sum()))
    # A combination of one seat's that shares no card with one of the other's (the
    # first found ends the search).
    masks = [combination_keys(r.hidden) for r in kept]
    if not any(((masks[1] & mask) == 0).any() for mask in np.unique(masks[0])):
        raise SolveError("the ranges cannot be held together: every combination of seat "
                         "0's range shares a card with every combination of seat 1's")  # fmt: skip
    return (kept[0], kept[1]), (removed[0], removed[1])
