"""An independent solution of a small heads-up street: the sequence-form linear
program (Koller, Megiddo and von Stengel) solved by scipy, every showdown settled by
tests/reference.py's rankings. Nothing of studeval's solver or its C showdowns."""

from __future__ import annotations

import itertools

import numpy as np
import reference as ref
from scipy.optimize import linprog
from scipy.sparse import csr_matrix, hstack, lil_matrix

from studeval._solve_tree import TreeNode


def _share(game: str, mine: list[int], theirs: list[int]) -> float:
    """Seat 0's share of the pot at a showdown of seven cards each."""

    def half(a: float | None, b: float | None) -> float | None:
        if a is None and b is None:
            return None
        if b is None or (a is not None and a < b):
            return 1.0
        if a is None or b < a:
            return 0.0
        return 0.5

    hi = half(ref.high_rank(mine), ref.high_rank(theirs))
    if game == "stud":
        return hi  # type: ignore[return-value]
    if game == "razz":
        return half(ref.low_rank(mine), ref.low_rank(theirs))  # type: ignore[return-value]
    lo = half(ref.low8_rank(mine), ref.low8_rank(theirs))
    return hi if lo is None else 0.5 * hi + 0.5 * lo  # type: ignore[operator]


def lp_value(game: str, pot: float, up: list[list[int]], hidden: list[np.ndarray],
             weights: list[np.ndarray], tree: list[TreeNode],
             groups: list[np.ndarray | None] | None = None,
             rake: tuple[float, float] = (0.0, 0.0),
             boards: list[list[list[int]]] | None = None) -> float:  # fmt: skip
    """Seat 0's equilibrium value (chips from the pot less what it puts in). With
    ``groups``, a node before the last street is decided by a combination's group (its
    two down cards) alone: one information set a group. With ``boards`` (each seat's
    four up cards at the end), chance deals one of them, each as likely, with the
    hidden cards (none of its cards among them); a node is on a board's way when the
    up cards dealt by then (its ``up``) begin the board's."""
    n = [len(h) for h in hidden]
    streets = 1 + max(node.street for node in tree)

    def info(p: int, h: int, i: int) -> tuple[str, int]:
        """The information set of seat p holding h at node i."""
        if groups is not None and groups[p] is not None and tree[i].street < streets - 1:
            return ("group", int(groups[p][h]))  # type: ignore[index]
        return ("hand", h)

    # Each seat's sequences: 0 the empty one, then (information set, node, action).
    index: list[dict[tuple[tuple[str, int], int, int], int]] = [{}, {}]
    for p in range(2):
        for h in range(n[p]):
            for i, node in enumerate(tree):
                if node.kind == "act" and node.seat == p:
                    for a in range(len(node.actions)):
                        index[p].setdefault((info(p, h, i), i, a), len(index[p]) + 1)
    parent = {}  # node -> (the node before it, the action taken or the deal)
    for i, node in enumerate(tree):
        if node.kind in ("act", "chance"):
            for a in range(len(node.actions)):
                parent[node.first_child + a] = (i, a)

    def last(p: int, h: int, i: int) -> int:
        """Seat p's last sequence before node i, holding h."""
        while i in parent:
            i, a = parent[i]
            if tree[i].kind == "act" and tree[i].seat == p:
                return index[p][(info(p, h, i), i, a)]
        return 0

    every = boards if boards is not None else [up]
    deals = [
        (board, h, o)
        for board in every
        for h in range(n[0])
        for o in range(n[1])
        if not set(hidden[0][h].tolist()) & set(hidden[1][o].tolist())
        and not set(hidden[0][h].tolist() + hidden[1][o].tolist()) & {*board[0], *board[1]}
    ]
    total = sum(weights[0][h] * weights[1][o] for _, h, o in deals)
    size = [len(index[0]) + 1, len(index[1]) + 1]
    on_way = {id(board): [i for i, node in enumerate(tree) if node.kind in ("fold", "showdown")
                          and all(list(node.up[s]) == board[s][:len(node.up[s])] for s in (0, 1))]
              for board in every}  # fmt: skip
    cells: dict[tuple[int, int], float] = {}
    for board, h, o in deals:
        chance = weights[0][h] * weights[1][o] / total
        mine = [*board[0], *hidden[0][h].tolist()]
        theirs = [*board[1], *hidden[1][o].tolist()]
        share = _share(game, mine, theirs)
        for i in on_way[id(board)]:
            node = tree[i]
            # Chips the other seat did not match go back before the rake is taken.
            back = node.put[0] - node.put[1]
            whole = pot + node.put[0] + node.put[1] - abs(back)
            whole -= min(rake[0] * whole, rake[1])  # the house's cut of the pot won
            won = (0.0 if node.seat == 0 else whole) if node.kind == "fold" else share * whole
            key = (last(0, h, i), last(1, o, i))
            cells[key] = cells.get(key, 0.0) + chance * (won - node.put[0] + max(back, 0))
    keys = list(cells)
    payoff = csr_matrix(([cells[k] for k in keys], ([k[0] for k in keys], [k[1] for k in keys])),
                        shape=(size[0], size[1]))  # fmt: skip

    def constraints(p: int) -> tuple[lil_matrix, np.ndarray]:
        """E x = e: the empty sequence is 1; each information set's actions add up to
        the sequence that leads to it."""
        sets: dict[tuple[tuple[str, int], int], int] = {}  # information set -> a member
        for h in range(n[p]):
            for i, node in enumerate(tree):
                if node.kind == "act" and node.seat == p:
                    sets.setdefault((info(p, h, i), i), h)
        rows = [(None, 0)] + [(h, i) for (_, i), h in sets.items()]
        m = lil_matrix((len(rows), size[p]))
        for r, (h, i) in enumerate(rows):
            if h is None:
                m[r, 0] = 1.0
                continue
            for a in range(len(tree[i].actions)):
                m[r, index[p][(info(p, h, i), i, a)]] = 1.0
            m[r, last(p, h, i)] -= 1.0
        e = np.zeros(len(rows))
        e[0] = 1.0
        return m, e

    e_mat, e_vec = constraints(0)
    f_mat, f_vec = constraints(1)
    # max f.v  s.t.  F^T v - A^T x <= 0,  E x = e,  x >= 0  (v free)
    k0, k1 = size[0], f_mat.shape[0]
    c = np.concatenate([np.zeros(k0), -f_vec])
    a_ub = hstack([-payoff.T.tocsr(), f_mat.T.tocsr()]).tocsr()
    a_eq = hstack([e_mat.tocsr(), csr_matrix((e_mat.shape[0], k1))]).tocsr()
    bounds = [(0, None)] * k0 + [(None, None)] * k1
    result = linprog(c, A_ub=a_ub, b_ub=np.zeros(size[1]), A_eq=a_eq, b_eq=e_vec,
                     bounds=bounds, method="highs")  # fmt: skip
    assert result.status == 0, result.message
    return -float(result.fun)


def random_hidden(rng: np.random.Generator, up: list[list[int]], count: int) -> list[np.ndarray]:
    """``count`` random combinations of three hidden cards a seat, none an up card."""
    free = [c for c in range(52) if c not in itertools.chain(*up)]
    out = []
    for _ in range(2):
        seen: set[tuple[int, ...]] = set()
        while len(seen) < count:
            seen.add(tuple(sorted(rng.choice(free, 3, replace=False).tolist())))
        out.append(np.array(sorted(seen), dtype=np.uint8))
    return out
