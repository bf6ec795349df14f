"""The betting tree of the last streets of a heads-up fixed-limit hand, from the rules:
who acts first (the best board showing, section 4's rule: the same on sixth and
seventh street, as seventh street's card is dealt down), the bet size, the cap (one bet
and three raises a street, lifted heads-up under Robert's Rules when the house says so)
and the chips each seat has behind (all-ins). A street's betting that ends with both
seats in and chips behind goes on to the next street; up cards dealt between two
streets make a chance node, a child a deal (named by its cards: seat 0's, then seat
1's, "Qh7c"), and a hand all in before them still sees them dealt before its showdown.

>>> tree = betting_tree(first=0, bet=10, cap=4, stack=None)
>>> [n.path for n in tree[:3]]
[(), ('check',), ('bet',)]
>>> sum(n.kind == "showdown" for n in tree), sum(n.kind == "fold" for n in tree)
(9, 8)
>>> both = betting_tree(first=0, bet=10, cap=4, stack=None, streets=2)
>>> sum(n.kind == "showdown" for n in both), both[-1].street
(81, 1)
>>> dealt = betting_tree(first=lambda up: 0, bet=10, cap=4, stack=None, streets=2,
...                      up=((1,), (2,)), deal=lambda up: [("3 4", ((1, 3), (2, 4)))])
>>> [n.kind for n in dealt if n.path[:2] == ("check", "check")][:2]
['chance', 'act']
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

__all__ = ["KINDS", "MOST_STEPS", "Board", "TreeNode", "TreeTooLargeError", "betting_tree"]

#: The most actions and deals the paths of a tree's act and chance nodes may hold
#: together. A node keeps its path from the root, so a street whose raising has no cap
#: and deep stacks grows as the square of its depth: seventh street 10,000 big bets
#: deep is refused at 49,148 nodes, 1.6 GB and 3.4 s into its building (it had gone on
#: to 2.3 GB, and past the machine's memory 100,000 deep). Capped trees of the most
#: nodes a solve holds (2**20) stay under a fifth of it; sixth street with the cap
#: lifted is built to about 400 big bets deep (780,000 nodes at 360).
MOST_STEPS = 1 << 26


class TreeTooLargeError(ValueError):
    """The tree's paths pass :data:`MOST_STEPS` steps (nodes so far, the deepest), its
    nodes the most asked, or a seat's bets the chips asked. ``advised``: the message
    already says what to change."""

    def __init__(self, message: str, *, advised: bool = False) -> None:
        super().__init__(message)
        self.advised = advised


#: The core's node kinds (se_solve_kind).
KINDS = {"act": 0, "fold": 1, "showdown": 2, "chance": 3}

#: Each seat's up cards (codes), seat 0's first.
Board = tuple[tuple[int, ...], tuple[int, ...]]
#: The deals of up cards before the next street from a board (none: the next card
#: is dealt down), each named, with the board it makes.
Deal = Callable[[Board], Sequence[tuple[str, Board]]]


@dataclass
class TreeNode:
    """A node of the tree: ``path`` the actions (and deals) from the root; ``kind``
    "act", "fold", "showdown" or "chance"; ``seat`` who acts (or who folded); ``actions``
    the names of its children, in order; ``put`` what each seat has put in since the
    root; ``up`` the up cards dealt by then."""

    path: tuple[str, ...]
    kind: str
    seat: int
    put: tuple[int, int]
    actions: tuple[str, ...] = ()
    first_child: int = 0
    street: int = 0  # 0 the first street solved, 1 the next
    up: Board = ((), ())


@dataclass
class _State:
    path: tuple[str, ...]
    to_act: int
    put: list[int]
    bets: int  # the bet and raises made
    acted: int  # seats that have acted since the last wager
    all_in: bool = False
    street: int = 0
    up: Board = ((), ())


@dataclass
class _Chance:
    """Up cards are dealt: a child a deal."""

    path: tuple[str, ...]
    put: list[int]
    street: int
    up: Board
    children: list[tuple[str, object]] = field(default_factory=list)


@dataclass(frozen=True)
class _Rules:
    first: Callable[[Board], int]
    bets: Sequence[int]  # a street's bet, by street
    cap: int | None
    stack: int | None
    streets: int
    deal: Deal


def _next_street(s: _State, rules: _Rules, path: tuple[str, ...], put: list[int],
                 all_in: bool) -> object:  # fmt: skip
    """The street's betting is over: the next street (after the cards dealt up before
    it), or the showdown (once every card is dealt)."""
    going_on = s.street + 1 < rules.streets

    def after(up: Board, path: tuple[str, ...], street: int) -> object:
        if going_on and not all_in:
            return _State(path, rules.first(up), list(put), 0, 0, False, street=street, up=up)
        deals = rules.deal(up) if going_on else ()
        if not deals:
            return TreeNode(path, "showdown", -1, (put[0], put[1]), street=street, up=up)
        return _Chance(
            path,
            list(put),
            street,
            up,
            [(name, after(dealt, (*path, name), street)) for name, dealt in deals],
        )

    deals = rules.deal(s.up) if going_on and not all_in else ()
    if not deals:
        return after(s.up, path, s.street + 1 if going_on and not all_in else s.street)
    return _Chance(
        path,
        list(put),
        s.street + 1,
        s.up,
        [(name, after(up, (*path, name), s.street + 1)) for name, up in deals],
    )


def _moves(s: _State, rules: _Rules) -> list[tuple[str, object]]:
    """The actions open to the seat to act, each with the state or terminal it leads to."""
    me, other = s.to_act, 1 - s.to_act
    bet, cap, stack = rules.bets[s.street], rules.cap, rules.stack

    def closed(path: tuple[str, ...], put: list[int], all_in: bool) -> object:
        return _next_street(s, rules, path, put, all_in)

    def wagered(name: str, wager: int) -> tuple[str, _State]:
        """A bet or raise of ``wager`` chips by the seat to act: the other seat's turn."""
        put = list(s.put)
        put[me] += wager
        all_in = room is not None and wager == room
        return name, _State((*s.path, name), other, put, s.bets + 1, 1, all_in, street=s.street,
                            up=s.up)  # fmt: skip

    owed = s.put[other] - s.put[me]
    room = None if stack is None else stack - s.put[me]  # chips the seat has behind
    out: list[tuple[str, object]] = []
    if owed == 0:
        check = _State((*s.path, "check"), other, list(s.put), s.bets, s.acted + 1, s.all_in,
                       street=s.street, up=s.up)  # fmt: skip
        out.append(("check", closed(check.path, s.put, s.all_in) if s.acted + 1 == 2 else check))
        if not s.all_in and (room is None or room > 0) and (cap is None or s.bets < cap):
            out.append(wagered("bet", bet if room is None else min(bet, room)))
        return out
    put = list(s.put)
    short = room is not None and room <= owed
    put[me] += owed if room is None else min(owed, room)  # a call for less is all in
    out.append(("fold", TreeNode((*s.path, "fold"), "fold", me, (s.put[0], s.put[1]),
                                 street=s.street, up=s.up)))  # fmt: skip
    out.append(("call", closed((*s.path, "call"), put, s.all_in or short)))
    can_raise = not s.all_in and (cap is None or s.bets < cap)
    if can_raise and (room is None or room > owed):
        out.append(wagered("raise", owed + (bet if room is None else min(bet, room - owed))))
    return out


def betting_tree(first: int | Callable[[Board], int], bet: int | Sequence[int],
                 cap: int | None, stack: int | None, streets: int = 1, *,
                 up: Board = ((), ()), deal: Deal | None = None,
                 most_nodes: int | None = None,
                 most_chips: int | None = None) -> list[TreeNode]:  # fmt: skip
    """Every node of the betting of ``streets`` heads-up streets, breadth first (a node's
    children follow one another, after it): ``first`` the seat to act first on each
    street (or, from the board, who does), ``bet`` the streets' bet (or each street's),
    ``cap`` the most bets and raises a street (None: none), ``stack`` the chips the
    shorter seat has behind (None: enough for any), ``up`` the up cards at the root and
    ``deal`` the up cards dealt before the next street from a board (None: none);
    :class:`TreeTooLargeError` once it passes ``most_nodes`` nodes or
    :data:`MOST_STEPS` steps, or where a seat could put in ``most_chips`` or more."""
    if cap is None and stack is None:
        raise ValueError("a street with no cap needs the stacks: the raising has no end")
    who = first if callable(first) else (lambda board: int(first))
    bets = [bet] * streets if isinstance(bet, int) else list(bet)
    most = min(x for x in (stack, None if cap is None else cap * sum(bets)) if x is not None)
    if most_chips is not None and most >= most_chips:
        # Say which bound to lower: the stacks where they end the raising, else the
        # stakes (the cap is already kept).
        fix = "shorten the stacks" if most == stack else "lower the stakes"
        raise TreeTooLargeError(
            f"a seat's bets reach {most:,} chips, over the {most_chips - 1:,} a solve holds: {fix}",
            advised=True,
        )
    rules = _Rules(who, bets, cap, stack, streets, deal or (lambda board: ()))
    nodes: list[TreeNode] = []
    queue: deque[object] = deque([_State((), who(up), [0, 0], 0, 0, up=up)])
    steps = 0
    while queue:
        item = queue.popleft()
        if isinstance(item, TreeNode):
            nodes.append(item)
            continue
        if isinstance(item, _Chance):
            moves: list[tuple[str, object]] = item.children
            node = TreeNode(
                item.path,
                "chance",
                -1,
                (item.put[0], item.put[1]),
                tuple(name for name, _ in moves),
                street=item.street,
                up=item.up,
            )
        else:
            assert isinstance(item, _State)
            moves = _moves(item, rules)
            node = TreeNode(
                item.path,
                "act",
                item.to_act,
                (item.put[0], item.put[1]),
                tuple(name for name, _ in moves),
                street=item.street,
                up=item.up,
            )
        node.first_child = len(nodes) + 1 + len(queue)
        nodes.append(node)
        queue += [child for _, child in moves]
        steps += len(node.path)
        if most_nodes is not None and len(nodes) > most_nodes:
            raise TreeTooLargeError(f"the betting tree passes {most_nodes:,} nodes, the most a "
                                    "solve holds")  # fmt: skip
        if steps > MOST_STEPS:
            raise TreeTooLargeError(f"the betting tree's paths pass {MOST_STEPS:,} actions "
                                    f"({len(nodes):,} nodes so far, {len(node.path):,} "
                                    "actions deep)")  # fmt: skip
    return nodes
