"""Solving a stud street: equilibrium strategies for the rest of a heads-up
fixed-limit hand, by CFR+ over both seats' whole ranges in C.

A :class:`Spot` is a street from fourth to seventh: each seat's up cards, its
:class:`Range` of hidden cards, the pot, the stakes and the house rules (and before
sixth street, how many deals of the up cards to come to sample). :func:`solve` builds
the betting tree from the rules (who acts first, each street's bet, the cap or the
stacks, the sampled deals as chance nodes), runs CFR+ until the strategies are exploitable
by at most a target share of the pot (measured by a best response computed apart from the
solver), and returns a :class:`Solution`: each node's strategy for every combination, each
combination's value, each seat's value and the exploitability.

>>> from studeval import Range, Stakes
>>> spot = Spot("razz", Stakes(ante=1, bring_in=2, small_bet=5, big_bet=10), pot=60,
...             up=["7c 4d 3h Kd", "8c 6d 5h 2s"], ranges=["*", "*"], stacks=[40, 40])
>>> sol = solve(spot)  # to 0.1% of the pot
>>> sol.node().actor, sol.node().actions  # the better low board acts first
(1, ('check', 'bet'))
>>> round(sum(sol.value), 6), sol.exploitability_pct <= 0.1
(60.0, True)
"""

from __future__ import annotations

import functools
import os
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

import numpy as np
import numpy.typing as npt

from studeval import _core
from studeval._solve_classes import hand_class
from studeval._solve_deals import Dealer
from studeval._solve_rows import Rows, core_memory, dead_cards, dealable, whole_at_least
from studeval._solve_tree import KINDS, Board, TreeNode, TreeTooLargeError, betting_tree
from studeval.batch import threads_arg
from studeval.betting import Stakes
from studeval.cards import TEXT_OF_CODE, parse_cards
from studeval.errors import SolveError, StudevalError
from studeval.games import get_game
from studeval.houserules import HouseRules, house_rules
from studeval.ranges import Range
from studeval.rules import first_to_act, open_pair

__all__ = ["Solution", "SolveError", "SolveNode", "Spot", "solve"]

#: How many iterations run between two measures of the exploitability.
CHECK_EVERY = 50


@dataclass(frozen=True)
class SolveNode:
    """A node of the betting tree: ``path`` the action names from the root (and the
    up cards dealt, named "Qh7c": seat 0's card, then seat 1's); ``kind`` "act",
    "fold", "showdown" or "chance" (up cards are dealt: its ``actions`` are the deals);
    ``actor`` the seat to act (at a fold, the seat that folded; None at a showdown or
    a deal); ``actions`` its children's names; ``put`` what each seat has put in since
    the root; ``up`` each seat's up cards by then; ``index`` its place in
    :attr:`Solution.nodes`."""

    index: int
    path: tuple[str, ...]
    kind: str
    actor: int | None
    actions: tuple[str, ...]
    put: tuple[int, int]
    up: Board


class Spot:
    """A heads-up end of a hand to solve: seventh street (``street=7``), sixth and
    seventh street (``street=6``; the seventh-street card is dealt down, so each seat
    knows only its own), or from fifth or fourth street (``street=5`` or ``4``): the
    up cards dealt before each later street are then ``deals`` deals drawn at random
    (``seed``), each as likely, a documented approximation (None: every deal).

    ``up`` holds the two seats' up cards (four on sixth and seventh street, three on
    fifth, two on fourth; seat order, the order of ``ranges``); ``ranges`` their
    hidden cards on that street (three on seventh street, two before):
    :class:`Range` objects, or range text. ``pot`` is in the pot before the
    street's betting; ``stacks`` the chips each
    seat has behind then (None: deep enough for any raise); ``rules`` the
    :class:`HouseRules` (Robert's by default: heads-up the cap is lifted, so stacks are
    needed; ``HouseRules(heads_up_cap="kept")`` keeps one bet and three raises). A
    combination holding the other seat's up card cannot be dealt: it is left out, and
    ``removed`` counts those of each seat. The house takes ``rake_rate`` of every pot
    won (by a fold or a showdown), at most ``rake`` chips: ``rake=3`` alone takes 3
    chips as :class:`StudHand` does (a smaller pot pays what it holds), ``rake=3,
    rake_rate=0.05`` takes 5% up to 3 chips."""

    def __init__(self, game: str, stakes: Stakes, *, pot: int, up: Sequence[object],
                 ranges: Sequence[Range | str], street: int = 7,
                 stacks: Sequence[int] | None = None, rules: HouseRules | str | None = None,
                 rake: int = 0, rake_rate: float = 1.0, deals: int | None = 8,
                 seed: int = 0) -> None:  # fmt: skip
        self.game = get_game(game).name
        if street not in (4, 5, 6, 7):
            raise SolveError(f"street {street!r}: solve plays from fourth (4) to seventh (7) "
                             "street; third street's bring-in and completion are not "
                             "solved")  # fmt: skip
        self.street = street
        if deals is not None and not whole_at_least(deals, 1):
            raise SolveError(f"deals must be a whole number >= 1, or None for every deal; "
                             f"got {deals!r}")  # fmt: skip
        if not whole_at_least(seed, 0):
            raise SolveError(f"seed must be a whole number >= 0; got {seed!r}")
        self.deals, self.seed = deals, seed
        if self.game not in ("stud", "stud8", "razz"):
            raise SolveError(f"{game!r}: solve plays stud, stud8 or razz")
        if not isinstance(stakes, Stakes):
            raise SolveError(f"stakes must be a Stakes; got {type(stakes).__name__}")
        self.stakes, self.rules = stakes, house_rules(rules)
        if not whole_at_least(pot, 1) or pot >= _core.SOLVE_MAX_CHIPS:
            raise SolveError(f"pot must be a whole number of chips, 1 to "
                             f"{_core.SOLVE_MAX_CHIPS - 1:,}; got {pot!r}")  # fmt: skip
        self.pot = pot
        if isinstance(up, str) or isinstance(ranges, str) or not (
                hasattr(up, "__len__") and hasattr(ranges, "__len__")):  # fmt: skip
            raise SolveError("up and ranges are two seats' each: a list of two up cards' "
                             "texts and a list of two ranges")  # fmt: skip
        if len(up) != 2 or len(ranges) != 2:
            raise SolveError(f"a spot is heads-up: two seats' up cards and ranges; got "
                             f"{len(up)} and {len(ranges)}")  # fmt: skip
        self.up = tuple(tuple(parse_cards(u)) for u in up)  # type: ignore[arg-type]
        showing = min(street - 2, 4)
        for seat, cards in enumerate(self.up):
            if len(cards) != showing:
                raise SolveError(f"seat {seat}: {len(cards)} up cards; street {street} has "
                                 f"{showing}")  # fmt: skip
        if set(self.up[0]) & set(self.up[1]):
            raise SolveError("the two seats' up cards share a card")
        if street == 4 and open_pair([list(u) for u in self.up], self.game, rules=self.rules):
            raise SolveError("an open pair on fourth street lets a stud player bet the big bet "
                             "(Robert's Rules of Poker): that choice is not solved; start "
                             "from fifth street, or play HouseRules.wsop() (no such "
                             "choice)")  # fmt: skip
        self.dead = dead_cards(ranges, self.up)  # never dealt, and out of both ranges
        self.ranges: tuple[Range, Range] = tuple(  # type: ignore[assignment]
            self._range(seat, r) for seat, r in enumerate(ranges)
        )
        self.dealer = Dealer((self.up[0], self.up[1]), deals, seed, self.dead)
        self._tree: list[TreeNode] | None = None
        boards = self.dealer.count_boards()
        if boards > _core.SOLVE_MAX_BOARDS:
            raise SolveError(f"{boards:,} boards to deal, over the {_core.SOLVE_MAX_BOARDS:,} "
                             "a solve holds: sample fewer deals (deals)")  # fmt: skip
        if not whole_at_least(rake, 0) or rake >= _core.SOLVE_MAX_CHIPS:
            raise SolveError(f"rake must be a whole number of chips, 0 to "
                             f"{_core.SOLVE_MAX_CHIPS - 1:,}; got {rake!r}")  # fmt: skip
        if isinstance(rake_rate, bool) or not isinstance(rake_rate, (int, float)) or not (
                0.0 <= rake_rate <= 1.0):  # fmt: skip
            raise SolveError(f"rake_rate must be a share of the pot, 0 to 1; got {rake_rate!r}")
        self.rake, self.rake_rate = rake, float(rake_rate)
        self.stacks = None if stacks is None else tuple(stacks)
        chips = [s for s in self.stacks or () if not isinstance(s, bool) and isinstance(s, int)]
        if self.stacks is not None and (len(self.stacks) != 2 or len(chips) != 2 or
                                        min(chips) < 1):  # fmt: skip
            raise SolveError(f"stacks must be two whole numbers of chips >= 1 (one all in "
                             f"has no decision); got {stacks!r}")  # fmt: skip

    def _range(self, seat: int, given: Range | str) -> Range:
        up, other = self.up[seat], self.up[1 - seat]
        if isinstance(given, str):
            return Range(given, up=list(up), street=self.street, game=self.game,
                         dead=[*other, *self.dead])  # fmt: skip
        if not isinstance(given, Range):
            raise SolveError(f"seat {seat}: a range is a Range or range text")
        if given.street != self.street or tuple(given.up) != up:
            theirs, ours = (" ".join(TEXT_OF_CODE[c] for c in cards) for cards in (given.up, up))
            raise SolveError(f"seat {seat}: the range is of street {given.street} with up "
                             f"cards {theirs}; the spot is of street {self.street} with "
                             f"{ours}")  # fmt: skip
        return given

    def first(self, up: Board) -> int:
        """The seat to act first on a street with board ``up``."""
        first = first_to_act([list(u) for u in up], self.game, rules=self.rules)
        assert first is not None
        return first

    def boards(self) -> npt.NDArray[np.uint8] | None:
        """Every board the solve deals, in the tree's order; None from sixth street."""
        return self.dealer.boards() if self.street < 6 else None

    def tree(self) -> list[TreeNode]:
        """The betting tree of the streets to the end, from the rules (built once: the
        command line checks its nodes before the solve, which plays the same tree)."""
        if self._tree is None:
            try:
                self._tree = self._build_tree()
            except TreeTooLargeError as err:
                fix = "" if err.advised else ": keep the cap or shorten the stacks"
                raise SolveError(f"{err}{fix}") from None
        return self._tree

    def _build_tree(self) -> list[TreeNode]:
        cap = 4 if self.rules.heads_up_cap == "kept" else None
        stack = None if self.stacks is None else min(self.stacks)
        if cap is None and stack is None:
            raise SolveError("heads-up the cap is lifted (Robert's Rules of Poker): give the "
                             "stacks, or HouseRules(heads_up_cap='kept'): 4 bets")  # fmt: skip
        bets = [self.stakes.small_bet if s == 4 else self.stakes.big_bet
                for s in range(self.street, 8)]  # fmt: skip
        root = (self.up[0], self.up[1])
        if self.street < 6:  # the size first, from a tree of one deal each (same shape)
            probe = betting_tree(self.first, bets, cap, stack, streets=8 - self.street, up=root,
                                 deal=lambda up: self.dealer.deals(up)[:1])  # fmt: skip
            size = self.dealer.count_nodes([len(n.up[0]) for n in probe])
            if size > _core.SOLVE_MAX_NODES:
                raise SolveError(f"a tree of {size:,} nodes, over the {_core.SOLVE_MAX_NODES:,} "
                                 "a solve holds: sample fewer deals (deals), keep the cap or "
                                 "shorten the stacks")  # fmt: skip
        return betting_tree(self.first, bets, cap, stack, streets=8 - self.street, up=root,
                            deal=self.dealer.deals, most_nodes=_core.SOLVE_MAX_NODES,
                            most_chips=_core.SOLVE_MAX_CHIPS)  # fmt: skip


@dataclass
class Solution:
    """What :func:`solve` found: the tree (``nodes``), each action node's strategy,
    each combination's value (``ev``: one array a seat, the chips it expects from the
    pot less what it puts in, given that it holds the combination), each seat's
    ``value`` (they add up to the pot, less the rake it expects), and
    ``exploitability``: half what two best responses would gain over the values
    together, in chips, and as a share of the pot (``exploitability_pct``, percent)."""

    spot: Spot
    nodes: list[SolveNode]
    ranges: tuple[Range, Range]
    removed: tuple[int, int]
    value: tuple[float, float]
    ev: tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]
    exploitability: float
    iterations: int
    seconds: float
    memory: int
    history: list[tuple[int, float]]  # (iterations, exploitability) at each measure
    _strategies: dict[int, npt.NDArray[np.float64]]
    _rows: tuple[Rows, Rows]
    _tied: dict[int, bool]

    @property
    def exploitability_pct(self) -> float:
        return 100.0 * self.exploitability / self.spot.pot if self.spot.pot else 0.0

    def node(self, *actions: str) -> SolveNode:
        """The node reached from the root by ``actions`` ("check", "bet", ..., and the
        deals such as "Qh7c" where up cards are dealt)."""
        return find_node(self._by_path, tuple(actions))

    @functools.cached_property
    def _by_path(self) -> dict[tuple[str, ...], SolveNode]:
        return {n.path: n for n in self.nodes}

    def strategy(self, node: SolveNode | Sequence[str]) -> npt.NDArray[np.float64]:
        """The actor's probabilities at ``node``: a column an action (``node.actions``),
        a row a combination of its range (in the range's order); from sixth street, a
        row each pair of down cards before seventh street, and each down cards and
        seventh card on seventh street (:meth:`hands` says which)."""
        return self._strategies[self._acting(node).index]

    def _acting(self, node: SolveNode | Sequence[str]) -> SolveNode:
        found = node if isinstance(node, SolveNode) else self.node(*node)  # a seat acts there
        if found.kind != "act":
            raise SolveError(f"the node after {' '.join(found.path)} is a {found.kind}: no one "
                             "acts")  # fmt: skip
        return found

    def frequencies(self, node: SolveNode | Sequence[str]) -> dict[str, float]:
        """How often each action is taken at ``node``, over the combinations that reach
        it (their weights times the actor's earlier actions); nan each where none
        reaches it (a deal that took every hand of the actor's range, say)."""
        found = self._acting(node)
        reach = self.reach(found)
        total = reach.sum()
        if not total > 0:
            return dict.fromkeys(found.actions, float("nan"))
        mix = reach @ self.strategy(found) / total
        return {a: float(p) for a, p in zip(found.actions, mix, strict=True)}

    def hands(self, node: SolveNode | Sequence[str]) -> npt.NDArray[np.uint8]:
        """The actor's hidden cards of each row of :meth:`strategy` at ``node``."""
        found = self._acting(node)
        assert found.actor is not None
        return self._rows[found.actor].rows_at(self._tied.get(found.index, False))

    def reach(self, node: SolveNode | Sequence[str]) -> npt.NDArray[np.float64]:
        """The actor's weight of each row at ``node``: its range's weights times its own
        earlier actions' probabilities on the way there (0 where it holds a card dealt
        up on the way)."""
        found = self._acting(node)
        assert found.actor is not None
        rows = self._rows[found.actor]
        weights = rows.weights.copy()
        dealt = [c for seat in range(2) for c in found.up[seat][len(self.spot.up[seat]) :]]
        if dealt:
            weights[np.isin(rows.hidden, dealt).any(axis=1)] = 0.0
        for step, name in enumerate(found.path):
            before = self.node(*found.path[:step])
            if before.actor == found.actor:
                at = rows.row_of(self._tied[before.index])
                weights *= self.strategy(before)[at, before.actions.index(name)]
        if self._tied.get(found.index, False) and rows.group is not None:
            counts = np.bincount(rows.group, minlength=rows.n_groups)
            return np.bincount(rows.group, weights=weights, minlength=rows.n_groups) / counts
        return weights

    def by_hand(self, node: SolveNode | Sequence[str]) -> list[tuple[str, float, dict[str, float]]]:
        """The actor's strategy at ``node`` by class of hand, best first: each class, its
        share of the weight reaching the node, and how often it takes each action."""
        found = self._acting(node)
        seat = found.actor
        assert seat is not None
        reach, rows = self.reach(found), self.strategy(found)
        up = list(found.up[seat])
        members: dict[str, list[int]] = {}
        order: dict[str, int] = {}  # a class's order: its best member's
        for i, hidden in enumerate(self.hands(found).tolist()):
            if reach[i] <= 0:
                continue  # not held here (or holding a card dealt up)
            rank, label = hand_class(self.spot.game, up + hidden)
            members.setdefault(label, []).append(i)
            order[label] = min(order.get(label, rank), rank)
        total = reach.sum()
        out = []
        for label in sorted(members, key=order.__getitem__):
            rows_of = members[label]
            weight = reach[rows_of].sum()
            if weight <= 0:
                continue
            mix = reach[rows_of] @ rows[rows_of] / weight
            actions = {a: float(p) for a, p in zip(found.actions, mix, strict=True)}
            out.append((label, float(weight / total), actions))
        return out


_CoreNode = tuple[int, int, int, int, int, float, float]  # kind, seat, child, children, tied, put
_CoreGroups = list[tuple[npt.NDArray[np.int32], int] | None]
_CoreSpot = tuple[int, float, tuple[float, float], list[list[int]], list[npt.NDArray[np.uint8]],
                  list[npt.NDArray[np.float64] | None], _CoreGroups, list[_CoreNode],
                  npt.NDArray[np.uint8] | None]  # fmt: skip


def _tied(spot: Spot, tree: list[TreeNode]) -> dict[int, bool]:
    """Each action node: is it an earlier street's (one strategy a group)?"""
    last = 7 - spot.street
    return {i: n.street < last for i, n in enumerate(tree) if n.kind == "act"}


def _core_spot(spot: Spot, rows: tuple[Rows, Rows], tree: list[TreeNode]) -> _CoreSpot:
    tied = _tied(spot, tree)
    nodes = [(KINDS[n.kind], max(n.seat, 0), n.first_child, len(n.actions),
              int(tied.get(i, False)), float(n.put[0]), float(n.put[1]))
             for i, n in enumerate(tree)]  # fmt: skip
    hidden = [r.hidden.reshape(-1) for r in rows]
    weights: list[npt.NDArray[np.float64] | None] = [r.weights for r in rows]
    groups: _CoreGroups = [None if r.group is None else (r.group, r.n_groups) for r in rows]
    return (get_game(spot.game).core_id, float(spot.pot), (spot.rake_rate, float(spot.rake)),
            [list(u) if len(u) == 4 else [*u, *[0] * (4 - len(u))] for u in spot.up], hidden,
            weights, groups, nodes, spot.boards())  # fmt: skip


def solve(spot: Spot, *, iterations: int | None = None,
          target_exploitability: float | None = None, threads: int | None = None,
          max_memory: int | None = None,
          progress: Callable[[int, float], object] | None = None) -> Solution:  # fmt: skip
    """Solve ``spot``: CFR+ until the exploitability is at most
    ``target_exploitability`` percent of the pot (0.1 by default), measured every
    50 iterations, or for ``iterations`` (the most, with a target; exactly, without:
    then measured at the end only, unless ``progress`` is given).
    ``progress(iterations, exploitability_pct)`` is called at each measure; when it
    returns False the run stops there, with the solution so far. A spot whose solve
    would hold more than ``max_memory`` bytes (by default three quarters of the
    machine's memory) is refused before it starts, with the size it needs.

    >>> from studeval import HouseRules, Stakes
    >>> spot = Spot("stud", Stakes(ante=1, bring_in=2, small_bet=5, big_bet=10), pot=40,
    ...             up=["Kc Kd 7h 2s", "Qs Jd Th 4c"], ranges=["KK*, 77*, 22*", "*"],
    ...             rules=HouseRules(heads_up_cap="kept"))
    >>> sol = solve(spot, iterations=300)
    >>> sol.iterations, sol.exploitability_pct < 0.1
    (300, True)
    """
    if not isinstance(spot, Spot):
        raise SolveError(f"solve takes a Spot; got {type(spot).__name__}")
    if max_memory is not None and not whole_at_least(max_memory, 1):
        raise SolveError(f"max_memory must be a number of bytes >= 1 (or None); got "
                         f"{max_memory!r}")  # fmt: skip
    if iterations is not None and not whole_at_least(iterations, 0):
        raise SolveError(f"iterations must be a whole number >= 0; got {iterations!r}")
    target = target_exploitability
    if target is not None and (isinstance(target, bool) or not isinstance(target, (int, float))
                               or not target > 0):  # fmt: skip
        raise SolveError(f"target_exploitability must be a number > 0 (percent of the pot); "
                         f"got {target_exploitability!r}")  # fmt: skip
    threads = threads_arg(threads) or None  # (an OptionError naming it where it is wrong)
    if target is None and iterations is None:
        target = 0.1
    most = iterations if iterations is not None else 100_000
    ranges, removed = dealable(spot.ranges, spot.up, spot.dead)
    tree = spot.tree()
    table = sorted({c for u in spot.up for c in u} | set(spot.dead))  # none is dealt
    rows = (Rows.of(ranges[0].hidden, ranges[0].weights, table),
            Rows.of(ranges[1].hidden, ranges[1].weights, table))  # fmt: skip
    tied = _tied(spot, tree)
    boards = spot.boards()
    memory = core_memory([n.kind for n in tree], [n.seat for n in tree],
                         [len(n.actions) for n in tree],
                         [tied.get(i, False) for i in range(len(tree))], rows,
                         1 if boards is None else len(boards),
                         threads or os.cpu_count() or 1)  # fmt: skip
    limit = _memory_limit() if max_memory is None else max_memory
    if limit is not None and memory > limit:
        raise SolveError(f"the solve would hold {memory / 2**30:.1f} GiB ({len(tree):,} nodes, "
                         f"{len(rows[0].hidden):,} and {len(rows[1].hidden):,} hands), over "
                         f"max_memory {limit / 2**30:.1f} GiB: narrow the ranges, deal fewer "
                         "up cards (deals), keep the cap or shorten the stacks")  # fmt: skip
    args = _core_spot(spot, rows, tree)
    start = time.perf_counter()
    try:
        core = _core.SolverCore(*args)
    except StudevalError as err:
        raise SolveError(f"the spot cannot be solved: {err}") from None
    history: list[tuple[int, float]] = []
    exploitability = float("inf")
    while core.iterations < most:
        core.run(min(most - core.iterations, CHECK_EVERY), threads or 0)
        if target is None and progress is None and core.iterations < most:
            continue  # (no target, no one to tell: measured once, at the end)
        exploitability = _exploitability(core, args, _strategies(core, tree, rows, tied))
        history.append((core.iterations, exploitability))
        pct = 100 * exploitability / spot.pot if spot.pot else 0.0
        if progress is not None and progress(core.iterations, pct) is False:
            break  # the caller stops it: the solution so far
        if target is not None and 100 * exploitability <= target * spot.pot:
            break
    strategies = _strategies(core, tree, rows, tied)
    if not history or history[-1][0] != core.iterations:
        exploitability = _exploitability(core, args, strategies)
        history.append((core.iterations, exploitability))
    seconds = time.perf_counter() - start
    ev = [np.empty(len(r.hidden)) for r in rows]
    met = [np.empty(len(r.hidden)) for r in rows]
    value = core.values(ev[0], ev[1], met[0], met[1])
    nodes = [SolveNode(i, n.path, n.kind, n.seat if n.seat >= 0 else None, n.actions, n.put,
                       n.up) for i, n in enumerate(tree)]  # fmt: skip
    return Solution(spot, nodes, ranges, removed, value,
                    (rows[0].to_groups(ev[0], met[0]), rows[1].to_groups(ev[1], met[1])),
                    exploitability, core.iterations, seconds, memory, history, strategies, rows,
                    tied)  # fmt: skip


_Node = TypeVar("_Node", SolveNode, TreeNode)


def find_node(by_path: Mapping[tuple[str, ...], _Node], path: tuple[str, ...]) -> _Node:
    """The node at ``path`` among nodes by path (a solution's, or a tree's before the
    solve), or a SolveError naming the choices where the path leaves the tree."""
    if path in by_path:
        return by_path[path]
    known = next(path[:k] for k in range(len(path), -1, -1) if path[:k] in by_path)
    at = by_path[known]
    where = " ".join(known) or "the root"
    if at.kind not in ("act", "chance"):
        raise SolveError(f"no node after {' '.join(path)}: the hand ends at {where} "
                         f"(a {at.kind})")  # fmt: skip
    choices = ", ".join(at.actions[:12]) + (", ..." if len(at.actions) > 12 else "")
    raise SolveError(f"no node after {' '.join(path)}: after {where} come {choices}")


def _memory_limit() -> int | None:
    """Three quarters of the machine's memory, where the system says (else none)."""
    try:
        return int(0.75 * os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES"))
    except (AttributeError, ValueError, OSError):
        return None


def _strategies(core: _core.SolverCore, tree: list[TreeNode], rows: tuple[Rows, Rows],
                tied: dict[int, bool]) -> dict[int, npt.NDArray[np.float64]]:  # fmt: skip
    out = {}
    for i, n in enumerate(tree):
        if n.kind == "act":
            out[i] = np.empty((len(rows[n.seat].rows_at(tied[i])), len(n.actions)))
            core.strategy(i, out[i])
    return out


def _exploitability(core: _core.SolverCore, args: _CoreSpot,
                    strategies: dict[int, npt.NDArray[np.float64]]) -> float:  # fmt: skip
    """Half of what two best responses gain over the strategies' values, in chips."""
    parts = [strategies[i].reshape(-1) for i in sorted(strategies)]
    strategy = np.ascontiguousarray(np.concatenate(parts) if parts else np.zeros(1))
    best = _core.solve_best_response(*args, strategy)
    value = core.values()
    return (best[0] + best[1] - value[0] - value[1]) / 2.0
