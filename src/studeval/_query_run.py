"""A compiled query run: every deal enumerated where the deals are few, else Monte
Carlo trials in C; the selectors aggregated over the deals the where clause keeps.

An exact run lists every way the unseen cards can fall, each player's cards in
dealing order (so each street's cards are told apart), for every collision-free
choice of the ranged players' combinations, and runs the program on them all in C
(``se_query_eval``). Every deal is equally likely when the ranges' weights are
alike: an exact run takes ranges of equal weights only, and counts deals.

>>> from studeval import _pql, queries
>>> tree = _pql.parse("select count(winsHi(h)) as h from game='stud', "
...                   "h='As Ad 2c 2d 7h 9s', v='Kc Kd Ks 3c 4d 8h'")
>>> r = run(queries._compile(tree), samples=1, seed=1, threads=1, exact=None)
>>> r.exact, r["h"], r.dealt  # each seventh card of each player, in turn
(True, 134, 1560)
"""

from __future__ import annotations

import itertools
import math
import warnings
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

import numpy as np

from studeval import _core
from studeval.errors import NoDealError, QueryError, QueryWarning, RangeError
from studeval.games import get_game

__all__ = ["HAND_TYPES", "LOW_TYPES", "Compiled", "QueryResult", "Seat", "run"]

#: PQL's hand types, weakest first (a type's number is its place).
HAND_TYPES = ("highcard", "pair", "twopair", "trips", "straight", "flush", "fullhouse",
              "quads", "straightflush")  # fmt: skip
#: lowType's values, weakest first: no (qualifying) low, a low holding a pair (razz),
#: then by the highest card of a low of five ranks.
LOW_TYPES = ("nolow", "pairedlow", "kinglow", "queenlow", "jacklow", "tenlow", "ninelow",
             "eightlow", "sevenlow", "sixlow", "fivelow")  # fmt: skip
#: Trials dealt a call into C (a multiple of 4096: each chunk of 4096 trials has its
#: own generator, so the answer does not depend on the threads).
_BLOCK = 1 << 18
#: At most this many times the trials asked for are dealt to find those a where
#: clause keeps.
BUDGET = 100
#: The most deals an exact run enumerates (about a tenth of a second a million).
MOST_EXACT = 2_000_000
#: The most showdowns an exact run plays: deals times a street equity's runouts.
MOST_EXACT_SHOWDOWNS = 100_000_000

#: A player as the core deals to it: up cards, and the width, combinations (flat) and
#: weights of its range of down cards (width 0: dealt).
Seat = tuple[tuple[int, ...], int, np.ndarray | None, np.ndarray | None]


@dataclass
class Compiled:
    game: str
    names: list[str]
    players: list[Seat]
    dead: bytes
    ops: list[tuple[int, int, int, int, int, float]]
    outputs: list[int]
    kinds: list[str]  # each selector's kind
    aggregates: list[str]
    where: bool
    sampled: str | None = None  # why the query cannot be counted exactly, if it cannot
    runouts: int = 1  # the showdowns a deal's street equities take


@dataclass
class QueryResult(Mapping[str, object]):
    """A query's answers: a mapping from each selector's name (its ``as`` name, else
    its text) to its value (a float for avg, min and max, an int for count, a dict
    of outcome to fraction for histogram).

    ``exact`` says whether every deal was counted (then ``trials`` and ``dealt`` count
    deals, and every standard error is 0.0) or the answers were sampled.
    ``std_error`` maps the same names to the Monte Carlo standard errors (a dict for a
    histogram; 0.0 for min and max, which are of the trials dealt); ``trials`` counts
    the trials kept (after ``where``), ``dealt`` those dealt; ``seed`` is the sample's
    (None when exact). The fields are ``answers`` (the mapping itself), ``std_error``,
    ``trials``, ``dealt``, ``seed`` and ``exact``."""

    answers: dict[str, object]
    std_error: dict[str, object]
    trials: int
    dealt: int
    seed: int | None
    exact: bool = False

    def __getitem__(self, name: str) -> object:
        return self.answers[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self.answers)

    def __len__(self) -> int:
        return len(self.answers)

    def __str__(self) -> str:
        how = "exact: every deal" if self.exact else f"Monte Carlo, seed {self.seed}"
        lines = [f"{self.trials:,} {'deals' if self.exact else 'trials'} kept of "
                 f"{self.dealt:,} dealt ({how})"]  # fmt: skip
        for name, value in self.answers.items():
            error = self.std_error[name]
            if isinstance(value, dict):
                lines.append(f"{name}:")
                errors = error if isinstance(error, dict) else {}
                lines += [f"  {k}: {v:.4%} (+/- {errors.get(k, 0.0):.4%})"
                          for k, v in value.items()]  # fmt: skip
            else:
                shown = f"{value:.6g}" if isinstance(value, float) else str(value)
                lines.append(f"{name}: {shown} (+/- {error:.6g})")
        return "\n".join(lines)


def run(c: Compiled, samples: int, seed: int, threads: int, exact: bool | None) -> QueryResult:
    """The query's answers: exact where it fits (``exact`` None), must (True) or
    must not (False); else from ``samples`` trials kept."""
    short = _short_deck(c)
    if short:
        raise NoDealError(short)
    if exact and c.sampled:
        raise QueryError(f"the query cannot be counted exactly: {c.sampled}")
    deals = None if exact is False or c.sampled else _deals(c)
    if exact and deals is None:
        raise QueryError(f"the query cannot be counted exactly: the ranges' weights differ, "
                         f"or the deals are more than {MOST_EXACT:,} (or their street "
                         f"equities' showdowns more than {MOST_EXACT_SHOWDOWNS:,})")  # fmt: skip
    if deals is not None:
        return _run_exact(c, deals, threads)
    return _run_sampled(c, samples, seed, threads)


# ---- Monte Carlo ------------------------------------------------------------------------


@dataclass
class _Tally:
    """What a selector has seen over the kept trials."""

    total: float = 0.0
    squares: float = 0.0
    least: float = math.inf
    most: float = -math.inf
    counts: dict[float, int] = field(default_factory=dict)

    def add(self, values: np.ndarray, aggregate: str) -> None:
        if aggregate == "histogram":
            found, counted = np.unique(values, return_counts=True)
            for value, n in zip(found.tolist(), counted.tolist(), strict=True):
                self.counts[value] = self.counts.get(value, 0) + n
        elif aggregate in ("min", "max"):
            # A nan (0 / 0) among the values makes both nan, as it makes avg's sum:
            # Python's min() would keep whichever came first.
            if len(values) and np.isnan(values).any():
                self.least = self.most = math.nan
            elif len(values) and not math.isnan(self.least):
                self.least = min(self.least, float(values.min()))
                self.most = max(self.most, float(values.max()))
        else:
            self.total += float(values.sum())
            self.squares += float(np.square(values).sum())


def _run_sampled(c: Compiled, samples: int, seed: int, threads: int) -> QueryResult:
    tallies = [_Tally() for _ in c.names]
    kept = dealt = 0
    budget = samples * BUDGET
    while kept < samples and dealt < budget:
        block = min(_BLOCK, -(-(samples - kept) // 4096) * 4096)
        out = np.empty((block, len(c.outputs)))
        try:
            _core.query_sample(get_game(c.game).core_id, c.players, c.dead, c.ops, c.outputs,
                               seed, dealt, threads, out)  # fmt: skip
        except NoDealError:
            # The deck holds enough cards (run() checked): the ranges' draws kept colliding.
            raise RangeError(
                "the ranges can (almost) never be held together: a million draws in a row "
                "gave two players a card alike"
            ) from None
        keep = np.flatnonzero(out[:, -1] != 0.0) if c.where else np.arange(block)
        keep = keep[: samples - kept]
        # The trials dealt up to the last one kept, once enough are (the rest unused).
        dealt += int(keep[-1]) + 1 if kept + len(keep) == samples else block
        kept += len(keep)
        for k, tally in enumerate(tallies):
            tally.add(out[keep, k], c.aggregates[k])
    if kept == 0:
        raise QueryError(f"the where clause kept none of the {dealt:,} trials dealt")
    if kept < samples:
        warnings.warn(QueryWarning(f"the where clause kept {kept:,} of {dealt:,} trials dealt "
                                   f"(the budget: {BUDGET} times the {samples:,} asked for)"),
                      stacklevel=4)  # fmt: skip
    return _result(c, tallies, kept, dealt, seed, exact=False)


def _short_deck(c: Compiled) -> str | None:
    """Why the unseen cards cannot give every player its seven (a query deals no
    community card: every player's cards are its own), or None when they can.

    >>> seats = [((44,), 2, None, None)] * 7
    >>> _short_deck(Compiled("stud", [], seats, bytes(range(4)), [], [], [], [], False))
    '7 players need 42 unseen cards and 41 are left (52, less 7 up and 4 dead)'
    """
    up = sum(len(u) for u, _, _, _ in c.players)
    unseen, needed = 52 - len(c.dead) - up, 7 * len(c.players) - up
    if unseen >= needed:
        return None
    return (
        f"{len(c.players)} players need {needed} unseen cards and {unseen} are left (52, "
        f"less {up} up and {len(c.dead)} dead)"
    )


def _kept(out: np.ndarray, where: bool) -> np.ndarray:
    """The rows a where clause (the last column) keeps: all without one."""
    return out[out[:, -1] != 0.0] if where else out


def _result(c: Compiled, tallies: list[_Tally], kept: int, dealt: int, seed: int | None,
            exact: bool) -> QueryResult:  # fmt: skip
    answers: dict[str, object] = {}
    errors: dict[str, object] = {}
    for name, tally, aggregate, kind in zip(c.names, tallies, c.aggregates, c.kinds, strict=True):
        answers[name], errors[name] = _answer(tally, aggregate, kind, kept, exact)
    return QueryResult(answers, errors, kept, dealt, seed, exact)


def _label(value: float, kind: str) -> object:
    if kind == "handtype":
        return HAND_TYPES[int(value)]
    if kind == "lowtype":
        return LOW_TYPES[int(value)]
    if kind == "boolean":
        return bool(value)
    return float(value)


def _answer(tally: _Tally, aggregate: str, kind: str, n: int,
            exact: bool) -> tuple[object, object]:  # fmt: skip
    """A selector's value and standard error (0.0 when exact) from its tally over
    ``n`` kept trials."""
    if aggregate == "histogram":
        order = sorted(tally.counts)
        share = {_label(v, kind): tally.counts[v] / n for v in order}
        return share, {k: 0.0 if exact else math.sqrt(p * (1 - p) / n) for k, p in share.items()}
    if aggregate in ("min", "max"):
        value = tally.least if aggregate == "min" else tally.most
        return _label(value, kind) if kind in ("handtype", "lowtype") else value, 0.0
    mean = tally.total / n
    spread = 0.0 if exact else math.sqrt(max(tally.squares / n - mean * mean, 0.0) / n)
    if aggregate == "count":
        return round(tally.total), spread * n
    return mean, spread


# ---- every deal -------------------------------------------------------------------------


@dataclass
class _Deals:
    """Every deal of a spot: the choices of the ranged players' combinations (their
    cards, a row each), and the unseen cards' places (player, place) to fill."""

    template: np.ndarray  # (players, 7): the up cards in their places
    ranged: list[tuple[int, np.ndarray]]  # (player, (count, width) combinations)
    choices: np.ndarray  # (tuples, cards): each collision-free choice's cards, in order
    places: list[tuple[int, int]]  # the places dealt from the unseen cards, in order
    unseen: int  # the cards left unseen after a choice
    count: int


def _deals(c: Compiled) -> _Deals | None:
    """The spot's deals, where they are few enough and equally likely; else None."""
    template = np.zeros((len(c.players), 7), dtype=np.uint8)
    known = set(c.dead)
    ranged, places = [], []
    for p, (up, width, combos, weights) in enumerate(c.players):
        if width and weights is not None:
            return None  # unequal weights: the deals are not equally likely
        template[p, 2 : 2 + len(up)] = up
        known.update(up)
        held = {2 + u for u in range(len(up))} | ({0, 1, 6} if width == 3 else
                                                   {0, 1} if width == 2 else set())  # fmt: skip
        places += [(p, place) for place in range(7) if place not in held]
        if width:
            ranged.append((p, np.asarray(combos, dtype=np.uint8).reshape(-1, width)))
    widths = sum(r.shape[1] for _, r in ranged)
    unseen = 52 - len(known) - widths
    orders = math.perm(unseen, len(places)) if unseen >= len(places) else 0
    most = math.prod(len(r) for _, r in ranged) * orders
    if orders == 0 or most > MOST_EXACT or most * c.runouts > MOST_EXACT_SHOWDOWNS:
        return None
    choices = np.zeros((1, 0), dtype=np.uint8)
    for _, combos in ranged:  # every choice, collisions left out
        pairs = np.repeat(choices, len(combos), axis=0), np.tile(combos, (len(choices), 1))
        joined = np.concatenate(pairs, axis=1)
        distinct = np.array([len(set(row)) == len(row) for row in joined.tolist()], dtype=bool)
        choices = joined[distinct]
    if len(choices) == 0:
        return None  # the ranges cannot all be held: sampling says so
    return _Deals(template, ranged, choices, places, unseen, len(choices) * orders)


def _run_exact(c: Compiled, d: _Deals, threads: int) -> QueryResult:
    tallies = [_Tally() for _ in c.names]
    kept = 0
    game = get_game(c.game).core_id
    # (Shapes given in full: with every card known, no place is dealt, once.)
    every = list(itertools.permutations(range(d.unseen), len(d.places)))
    orders = np.array(every, dtype=np.intp).reshape(len(every), len(d.places))
    known = np.zeros(52, dtype=bool)
    known[list(c.dead)] = True
    for up, _, _, _ in c.players:
        known[list(up)] = True
    per_call = max(1, _BLOCK // len(orders))
    for start in range(0, len(d.choices), per_call):
        chosen = d.choices[start : start + per_call]
        free = np.tile(~known, (len(chosen), 1))
        free[np.arange(len(chosen))[:, None], chosen] = False
        decks = np.nonzero(free)[1].reshape(len(chosen), d.unseen).astype(np.uint8)
        cards = np.repeat(d.template[None], len(chosen) * len(orders), axis=0)
        at = 0
        for p, combos in d.ranged:  # the chosen down cards (a third: the seventh card)
            width = combos.shape[1]
            column = np.repeat(chosen[:, at : at + width], len(orders), axis=0)
            cards[:, p, [0, 1, 6][:width]] = column
            at += width
        dealt = decks[:, orders].reshape(len(chosen) * len(orders), len(d.places))
        for j, (p, place) in enumerate(d.places):
            cards[:, p, place] = dealt[:, j]
        out = np.empty((len(cards), len(c.outputs)))
        _core.query_eval(game, c.ops, c.outputs, c.dead, np.ascontiguousarray(cards), threads,
                         out)  # fmt: skip
        rows = _kept(out, c.where)
        kept += len(rows)
        for k, tally in enumerate(tallies):
            tally.add(rows[:, k], c.aggregates[k])
    if kept == 0:
        raise QueryError(f"the where clause holds in none of the {d.count:,} deals")
    return _result(c, tallies, kept, d.count, None, exact=True)
