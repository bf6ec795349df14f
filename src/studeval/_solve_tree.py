"""The betting tree of a heads-up fixed-limit street, from the rules: who acts first
(the best board showing, section 4's rule), the bet size, the cap (one bet and three
raises, lifted heads-up under Robert's Rules when the house says so) and the chips
each seat has behind (all-ins).

>>> tree = betting_tree(first=0, bet=10, cap=4, stack=None)
>>> [n.path for n in tree[:3]]
[(), ('check',), ('bet',)]
>>> sum(n.kind == "showdown" for n in tree), sum(n.kind == "fold" for n in tree)
(9, 8)
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


@dataclass
class _State:
    path: tuple[str, ...]
    to_act: int
    put: list[int]
    bets: int  # the bet and raises made
    acted: int  # seats that have acted since the last wager
    all_in: bool = False
    children: list[tuple[str, _State | TreeNode]] = field(default_factory=list)


def _moves(s: _State, bet: int, cap: int | None, stack: int | None) -> list[tuple[str, object]]:
    """The actions open to the seat to act, each with the state or terminal it leads to."""
    me, other = s.to_act, 1 - s.to_act
    owed = s.put[other] - s.put[me]
    room = None if stack is None else stack - s.put[me]  # chips the seat has behind
    out: list[tuple[str, object]] = []
    if owed == 0:
        check = _State((*s.path, "check"), other, list(s.put), s.bets, s.acted + 1, s.all_in)
        out.append(("check", TreeNode(check.path, "showdown", -1, (s.put[0], s.put[1]))
                     if s.acted + 1 == 2 else check))  # fmt: skip
        if not s.all_in and (room is None or room > 0) and (cap is None or s.bets < cap):
            wager = bet if room is None else min(bet, room)
            put = list(s.put)
            put[me] += wager
            out.append(("bet", _State((*s.path, "bet"), other, put, s.bets + 1, 1,
                                      room is not None and wager == room)))  # fmt: skip
        return out
    put = list(s.put)
    put[me] += owed if room is None else min(owed, room)  # a call for less is all in
    out.append(("fold", TreeNode((*s.path, "fold"), "fold", me, (s.put[0], s.put[1]))))
    out.append(("call", TreeNode((*s.path, "call"), "showdown", -1, (put[0], put[1]))))
    can_raise = not s.all_in and (cap is None or s.bets < cap)
    if can_raise and (room is None or room > owed):
        wager = owed + (bet if room is None else min(bet, room - owed))
        put = list(s.put)
        put[me] += wager
        out.append(("raise", _State((*s.path, "raise"), other, put, s.bets + 1, 1,
                                    room is not None and wager == room)))  # fmt: skip
    return out


def betting_tree(first: int, bet: int, cap: int | None, stack: int | None) -> list[TreeNode]:
    """Every node of a heads-up street's betting, breadth first (a node's children
    follow one another, after it): ``first`` the seat to act first, ``bet`` the
    street's bet, ``cap`` the most bets and raises (None: none), ``stack`` the chips
    the shorter seat has behind (None: enough for any)."""
    if cap is None and stack is None:
        raise ValueError("a street with no cap needs the stacks: the raising has no end")
    nodes: list[TreeNode] = []
    queue: list[_State | TreeNode] = [_State((), first, [0, 0], 0, 0)]
    while queue:
        item = queue.pop(0)
        if isinstance(item, TreeNode):
            nodes.append(item)
            continue
        moves = _moves(item, bet, cap, stack)
        node = TreeNode(item.path, "act", item.to_act, (item.put[0], item.put[1]),
                        tuple(name for name, _ in moves))  # fmt: skip
        node.first_child = len(nodes) + 1 + len(queue)
        nodes.append(node)
        queue += [child for _, child in moves]  # type: ignore[misc]
    return nodes
