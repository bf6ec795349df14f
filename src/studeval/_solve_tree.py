"""The betting tree of the last streets of a heads-up fixed-limit hand, from the rules:
who acts first (the best board showing, section 4's rule: the same on sixth and
seventh street, as seventh street's card is dealt down), the bet size, the cap (one bet
and three raises a street, lifted heads-up under Robert's Rules when the house says so)
and the chips each seat has behind (all-ins). A street's betting that ends with both
seats in and chips behind goes on to the next street.

>>> tree = betting_tree(first=0, bet=10, cap=4, stack=None)
>>> [n.path for n in tree[:3]]
[(), ('check',), ('bet',)]
>>> sum(n.kind == "showdown" for n in tree), sum(n.kind == "fold" for n in tree)
(9, 8)
>>> both = betting_tree(first=0, bet=10, cap=4, stack=None, streets=2)
>>> sum(n.kind == "showdown" for n in both), both[-1].street
(81, 1)
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["KINDS", "TreeNode", "betting_tree"]

#: The core's node kinds (se_solve_kind).
KINDS = {"act": 0, "fold": 1, "showdown": 2}


@dataclass
class TreeNode:
    """A node of the tree: ``path`` the actions from the root; ``kind`` "act", "fold"
    or "showdown"; ``seat`` who acts (or who folded); ``actions`` the action names of
    its children, in order; ``put`` what each seat has put in since the root."""

    path: tuple[str, ...]
    kind: str
    seat: int
    put: tuple[int, int]
    actions: tuple[str, ...] = ()
    first_child: int = 0
    street: int = 0  # 0 the first street solved, 1 the next


@dataclass
class _State:
    path: tuple[str, ...]
    to_act: int
    put: list[int]
    bets: int  # the bet and raises made
    acted: int  # seats that have acted since the last wager
    all_in: bool = False
    street: int = 0
    children: list[tuple[str, _State | TreeNode]] = field(default_factory=list)


def _moves(s: _State, bet: int, cap: int | None, stack: int | None, first: int,
           streets: int) -> list[tuple[str, object]]:  # fmt: skip
    """The actions open to the seat to act, each with the state or terminal it leads to."""
    me, other = s.to_act, 1 - s.to_act

    def closed(path: tuple[str, ...], put: list[int], all_in: bool) -> object:
        """The street's betting is over: the next street, or the showdown."""
        if s.street + 1 < streets and not all_in:
            return _State(path, first, list(put), 0, 0, False, street=s.street + 1)
        return TreeNode(path, "showdown", -1, (put[0], put[1]), street=s.street)

    def wagered(name: str, wager: int) -> tuple[str, _State]:
        """A bet or raise of ``wager`` chips by the seat to act: the other seat's turn."""
        put = list(s.put)
        put[me] += wager
        all_in = room is not None and wager == room
        return name, _State((*s.path, name), other, put, s.bets + 1, 1, all_in, street=s.street)

    owed = s.put[other] - s.put[me]
    room = None if stack is None else stack - s.put[me]  # chips the seat has behind
    out: list[tuple[str, object]] = []
    if owed == 0:
        check = _State((*s.path, "check"), other, list(s.put), s.bets, s.acted + 1, s.all_in,
                       street=s.street)  # fmt: skip
        out.append(("check", closed(check.path, s.put, s.all_in) if s.acted + 1 == 2 else check))
        if not s.all_in and (room is None or room > 0) and (cap is None or s.bets < cap):
            out.append(wagered("bet", bet if room is None else min(bet, room)))
        return out
    put = list(s.put)
    short = room is not None and room <= owed
    put[me] += owed if room is None else min(owed, room)  # a call for less is all in
    out.append(("fold", TreeNode((*s.path, "fold"), "fold", me, (s.put[0], s.put[1]),
                                 street=s.street)))  # fmt: skip
    out.append(("call", closed((*s.path, "call"), put, s.all_in or short)))
    can_raise = not s.all_in and (cap is None or s.bets < cap)
    if can_raise and (room is None or room > owed):
        out.append(wagered("raise", owed + (bet if room is None else min(bet, room - owed))))
    return out


def betting_tree(first: int, bet: int, cap: int | None, stack: int | None,
                 streets: int = 1) -> list[TreeNode]:  # fmt: skip
    """Every node of the betting of ``streets`` heads-up streets, breadth first (a node's
    children follow one another, after it): ``first`` the seat to act first on each,
    ``bet`` the streets' bet, ``cap`` the most bets and raises a street (None: none),
    ``stack`` the chips the shorter seat has behind (None: enough for any)."""
    if cap is None and stack is None:
        raise ValueError("a street with no cap needs the stacks: the raising has no end")
    nodes: list[TreeNode] = []
    queue: list[_State | TreeNode] = [_State((), first, [0, 0], 0, 0)]
    while queue:
        item = queue.pop(0)
        if isinstance(item, TreeNode):
            nodes.append(item)
            continue
        moves = _moves(item, bet, cap, stack, first, streets)
        node = TreeNode(item.path, "act", item.to_act, (item.put[0], item.put[1]),
                        tuple(name for name, _ in moves), street=item.street)  # fmt: skip
        node.first_child = len(nodes) + 1 + len(queue)
        nodes.append(node)
        queue += [child for _, child in moves]  # type: ignore[misc]
    return nodes
