"""The up cards dealt between the streets of a solved spot that starts before sixth
street (public chance), by sampling: before each street that deals an up card, a
fixed number of deals (a card for each seat) drawn at random from every deal the
cards no one has seen allow, without repeats, each as likely as another.

The solved game is then: the boards (every deal to come) are drawn from these
samples, each equally likely, and the hidden cards with them, a combination holding a
card of the board left out. Each deal is drawn from all the unseen cards, so each
pair of hidden hands keeps the same expected chance of meeting: the sampled game
tends to the whole one as the samples grow, and is the whole one when they cover every
deal (``deals=None``).

>>> dealer = Dealer(((0, 1, 2), (3, 4, 5)), deals=4, seed=7)
>>> [name for name, _ in dealer.deals(((0, 1, 2), (3, 4, 5)))] == [
...     name for name, _ in dealer.deals(((0, 1, 2), (3, 4, 5)))]  # the same every time
True
>>> len(dealer.boards()), len(dealer.boards()[0])  # four boards of 2 x 4 up cards
(4, 8)
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from studeval._solve_tree import Board
from studeval.cards import TEXT_OF_CODE

__all__ = ["Dealer"]


class Dealer:
    """The sampled deals from a root board: ``deals`` a street (None: every deal),
    never a ``dead`` card (known out of play: a folded seat's up cards)."""

    def __init__(self, root: Board, deals: int | None, seed: int,
                 dead: tuple[int, ...] = ()) -> None:  # fmt: skip
        self.root, self.count, self.seed, self.dead = root, deals, seed, frozenset(dead)
        self._made: dict[Board, list[tuple[str, Board]]] = {}

    def deals(self, up: Board) -> list[tuple[str, Board]]:
        """The deals before the next street from ``up`` (none once four cards show),
        each named by its cards, seat 0's then seat 1's ("Qh7c"); the same for the same
        board wherever the betting led."""
        if len(up[0]) >= 4:
            return []
        if up not in self._made:
            shown = {c for seat in up for c in seat} | self.dead
            free = np.array([c for c in range(52) if c not in shown], dtype=np.int64)
            n = len(free)
            every = n * (n - 1)  # ordered pairs of distinct cards
            # One stream a board, from the seed and the board (never from the path):
            # each seat's cards in order, 52 between them (seats swapped: another).
            rng = np.random.default_rng([self.seed, *up[0], 52, *up[1]])
            if self.count is None or self.count >= every:
                picks = np.arange(every)
            else:
                picks = np.sort(rng.choice(every, size=self.count, replace=False))
            first, rest = np.divmod(picks, n - 1)
            second = rest + (rest >= first)  # skip the first card's own place
            made = []
            for a, b in zip(free[first].tolist(), free[second].tolist(), strict=True):
                made.append((f"{TEXT_OF_CODE[a]}{TEXT_OF_CODE[b]}",
                             ((*up[0], a), (*up[1], b))))  # fmt: skip
            self._made[up] = made
        return self._made[up]

    def per_deal(self, shown: int) -> int:
        """The deals a chance node has, where each seat shows ``shown`` up cards."""
        free = 52 - 2 * shown - len(self.dead)
        return free * (free - 1) if self.count is None else min(self.count, free * (free - 1))

    def count_boards(self) -> int:
        """How many whole boards the samples make, without making them."""
        boards = 1
        for shown in range(len(self.root[0]), 4):
            boards *= self.per_deal(shown)
        return boards

    def count_nodes(self, shown: list[int]) -> int:
        """The nodes of the tree, from the up cards a seat shows at each node of the same
        tree with one deal a chance node (the same shape: every deal's subtree alike)."""
        total = 0
        for cards in shown:
            copies = 1
            for before in range(len(self.root[0]), cards):
                copies *= self.per_deal(before)
            total += copies
        return total

    def boards(self) -> npt.NDArray[np.uint8]:
        """Every whole board from the root, in the order the tree's chance nodes split
        them (a deal's boards after the one before): (boards, 8) codes."""
        out: list[list[int]] = []

        def walk(up: Board) -> None:
            if len(up[0]) >= 4:
                out.append([*up[0], *up[1]])
                return
            for _, dealt in self.deals(up):
                walk(dealt)

        walk(self.root)
        return np.array(out, dtype=np.uint8)
