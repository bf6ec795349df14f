"""A pure-Python twin of a query's meaning on one trial, for the tests: the parsed
tree (studeval._pql) evaluated on explicit cards with tests/reference.py's rankings,
independent of the compiler and the C program of studeval.query.

Ratings are compared, never printed: hiRating's numbers compare hands of one street.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import reference as ref

from studeval import _pql

STREETS = {"third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7}
TYPES = ("highcard", "pair", "twopair", "trips", "straight", "flush", "fullhouse", "quads",
         "straightflush")  # fmt: skip
LOW_TYPES = ("nolow", "pairedlow", "kinglow", "queenlow", "jacklow", "tenlow", "ninelow",
             "eightlow", "sevenlow", "sixlow", "fivelow")  # fmt: skip
_CATEGORY = {"High Card": 0, "One Pair": 1, "Pair": 1, "Two Pair": 2, "Three of a Kind": 3,
             "Straight": 4, "Flush": 5, "Full House": 6, "Four of a Kind": 7,
             "Straight Flush": 8}  # fmt: skip


class Trial:
    """One trial: each player's seven cards in dealing order."""

    def __init__(self, game: str, players: list[str], cards: Sequence[Sequence[int]],
                 dead: Sequence[int] = ()) -> None:  # fmt: skip
        self.game, self.players, self.cards, self.dead = game, players, cards, set(dead)

    # -- what a player sees -----------------------------------------------------------

    def unseen(self, p: int, street: int) -> list[int]:
        """The cards p has not seen: not its own, no one's up card dealt by then
        (places 2 .. min(street, 6) - 1), not dead."""
        seen = set(self.dead) | set(self.cards[p][:street])
        for k in range(len(self.players)):
            seen |= set(self.cards[k][2 : min(street, 6)])
        return [c for c in range(52) if c not in seen]

    def _can_beat(self, k: int, p: int, street: int, low: bool, mine: int) -> bool:
        up = list(self.cards[k][2 : min(street, 6)])
        for hidden in itertools.combinations(self.unseen(p, street), street - len(up)):
            hand = up + list(hidden)
            if low:
                key = ref.low8_rank(hand) if self.game == "stud8" else ref.low_rank(hand)
                if key is not None and key < mine:
                    return True
            elif (ref.high_rank(hand) if street >= 5 else ref.up_high_rank(hand)) < mine:
                return True
        return False

    def nut(self, p: int, street: int, low: bool) -> bool:
        mine = self.lo_key(p, street) if low else self.hi_key(p, street)
        if mine is None:
            return False
        return not any(self._can_beat(k, p, street, low, mine)
                       for k in range(len(self.players)) if k != p)  # fmt: skip

    def outs(self, p: int, street: int, kind: int) -> int:
        if street == 7:
            return 0
        now, now_type = self.hi_key(p, street), self.hand_type(p, street)
        hand = list(self.cards[p][:street])
        count = 0
        for card in self.unseen(p, street):
            trial = Trial(self.game, self.players, [[*hand, card]])
            if trial.hand_type(0, street + 1) == kind:  # a higher type, or ranked higher
                count += kind > now_type or (street >= 5 and trial.hi_key(0, street + 1) < now)
        return count

    def low_type(self, p: int, street: int) -> int:
        """The best five of distinct ranks (ace low), by its highest card."""
        ranks = {(c // 4 + 1) % 13 + 1 for c in self.cards[p][:street]}  # ace 1 .. king 13
        if len(ranks) < 5:
            return LOW_TYPES.index("pairedlow" if self.game == "razz" else "nolow")
        top = sorted(ranks)[4]
        if self.game == "stud8" and top > 8:
            return 0
        return LOW_TYPES.index("fivelow") - (top - 5)

    def street_equity(self, p: int, street: int, blind: bool) -> float:
        """p's share over every rest of the deal from the street: every player's cards
        by then known (blind False), or only what p sees (the others' hidden cards
        any unseen ones; their ranges are not the twin's)."""
        n = len(self.players)
        known = [list(self.cards[k][:street]) if not blind or k == p else
                 [c for i, c in enumerate(self.cards[k][:street]) if 2 <= i < min(street, 6)]
                 for k in range(n)]  # fmt: skip
        used = set(self.dead) | {c for hand in known for c in hand}
        total = count = 0.0
        for rest in _completions([7 - len(h) for h in known], [c for c in range(52)
                                                                 if c not in used]):  # fmt: skip
            hands = [h + r for h, r in zip(known, rest, strict=True)]
            trial = Trial(self.game, self.players, hands)
            total += trial.showdown(p)[0]
            count += 1
        return total / count

    # -- a player's hand at a street ------------------------------------------------------

    def hi_key(self, p: int, street: int) -> int:
        """Smaller is better."""
        hand = list(self.cards[p][:street])
        return ref.high_rank(hand) if street >= 5 else ref.up_high_rank(hand)

    def lo_key(self, p: int, street: int) -> int | None:
        hand = list(self.cards[p][:street])
        if self.game == "stud8":
            return ref.low8_rank(hand)
        return ref.low_rank(hand)

    def hand_type(self, p: int, street: int) -> int:
        hand = list(self.cards[p][:street])
        if street >= 5:
            return _CATEGORY[ref.high_category(ref.high_rank(hand))]
        counts = sorted((sum(1 for c in hand if c // 4 == r) for r in range(13)), reverse=True)
        if counts[0] == 4:
            return 7
        if counts[0] == 3:
            return 3
        return 2 if counts[1] == 2 else int(counts[0] == 2)

    def showdown(self, p: int) -> tuple[float, bool, bool, bool, bool]:
        """share, wins the high alone, ties it, wins the low alone, ties it."""
        n = len(self.players)
        his = [self.hi_key(i, 7) for i in range(n)] if self.game != "razz" else None
        los = [self.lo_key(i, 7) for i in range(n)] if self.game != "stud" else None
        hi_best = [i for i in range(n) if his[i] == min(his)] if his else []
        real_los = [x for x in los if x is not None] if los else []
        lo_best = [i for i in range(n) if los and los[i] == min(real_los)] if real_los else []
        if self.game == "stud":
            share = 1 / len(hi_best) if p in hi_best else 0.0
        elif self.game == "razz":
            share = 1 / len(lo_best) if p in lo_best else 0.0
        elif not lo_best:
            share = 1 / len(hi_best) if p in hi_best else 0.0
        else:
            share = (0.5 / len(hi_best) if p in hi_best else 0.0) + (
                0.5 / len(lo_best) if p in lo_best else 0.0
            )
        return (share, p in hi_best and len(hi_best) == 1, p in hi_best and len(hi_best) > 1,
                p in lo_best and len(lo_best) == 1, p in lo_best and len(lo_best) > 1)  # fmt: skip

    # -- the tree -----------------------------------------------------------------------

    def value(self, node: _pql.Expr) -> float:
        if isinstance(node, _pql.Number):
            return node.value
        if isinstance(node, _pql.Name):
            word = node.name.lower()
            return float(LOW_TYPES.index(word) if word in LOW_TYPES else TYPES.index(word))
        if isinstance(node, _pql.Operation):
            args = [self.value(a) for a in node.args]
            op = node.op
            table = {
                "and": lambda: float(bool(args[0]) and bool(args[1])),
                "or": lambda: float(bool(args[0]) or bool(args[1])),
                "not": lambda: float(not args[0]),
                "=": lambda: float(args[0] == args[1]), "<>": lambda: float(args[0] != args[1]),
                "<": lambda: float(args[0] < args[1]), "<=": lambda: float(args[0] <= args[1]),
                ">": lambda: float(args[0] > args[1]), ">=": lambda: float(args[0] >= args[1]),
                "+": lambda: args[0] + args[1], "-": lambda: args[0] - args[1],
                "*": lambda: args[0] * args[1], "neg": lambda: -args[0],
                "/": lambda: args[0] / args[1],
            }  # fmt: skip
            return table[op]()
        return self.call(node)

    def call(self, node: _pql.Call) -> float:
        name = node.name.lower()
        args = node.args
        p = self.players.index(args[0].name.lower()) if args else 0  # type: ignore[union-attr]
        street = STREETS[args[1].name.lower()] if len(args) > 1 else 7  # type: ignore[union-attr]
        n = len(self.players)
        if name == "riverequity" or (name in ("equity", "hvhequity") and street == 7):
            return self.showdown(p)[0]
        if name in ("equity", "hvhequity"):
            return self.street_equity(p, street, blind=name == "equity")
        if name in ("nuthi", "nutlo"):
            return float(self.nut(p, street, low=name == "nutlo"))
        if name == "outstohandtype":
            return float(self.outs(p, street, TYPES.index(args[2].name.lower())))  # type: ignore[union-attr]
        if name == "lowtype":
            return float(self.low_type(p, street))
        if name in ("winshi", "tieshi", "winslo", "tieslo"):
            index = {"winshi": 1, "tieshi": 2, "winslo": 3, "tieslo": 4}[name]
            return float(self.showdown(p)[index])
        if name == "scoops":
            return float(self.showdown(p)[0] == 1.0)
        if name == "handtype":
            return float(self.hand_type(p, street))
        if name == "uphandtype":  # the up cards dealt by the street (places 2 .. 5)
            up = list(self.cards[p][2 : min(street, 6)])
            counts = sorted((sum(1 for c in up if c // 4 == r) for r in range(13)), reverse=True)
            return float(7 if counts[0] == 4 else 3 if counts[0] == 3 else
                         2 if counts[1] == 2 else int(counts[0] == 2))  # fmt: skip
        if name == "upcardsinrange":  # in some order; a rank, a card or *
            up = list(self.cards[p][2 : min(street, 6)])
            wanted = _pattern(args[2].text)  # type: ignore[union-attr]
            return float(any(all(w is None or w == c or w == c // 4 + 100 for w, c in
                                 zip(order, up, strict=True))
                             for order in itertools.permutations(wanted)))  # fmt: skip
        if name == "minhandtype":
            return float(self.hand_type(p, street) >= TYPES.index(args[2].name.lower()))  # type: ignore[union-attr]
        if name == "hirating":  # studeval's scale differs: only compared within a street
            return 65536.0 - self.hi_key(p, street)
        if name == "besthirating":
            mine = self.hi_key(p, street)
            return float(all(self.hi_key(i, street) >= mine for i in range(n)))
        if name == "bestlorating":
            mine_lo = self.lo_key(p, street)
            if mine_lo is None:
                return 0.0
            return float(all((k := self.lo_key(i, street)) is None or k >= mine_lo
                             for i in range(n)))  # fmt: skip
        if name == "winninghandtype":
            best = min(range(n), key=lambda i: self.hi_key(i, 7))
            return float(self.hand_type(best, 7))
        raise AssertionError(f"the reference has no {name}")


def _pattern(text: str) -> list[int | None]:
    """Each element of an up-card pattern: a card's code, 100 + a rank (any suit), or
    None (``*``)."""
    out: list[int | None] = []
    for word in text.replace(",", " ").split():
        while word:
            if word[0] == "*":
                out.append(None)
                word = word[1:]
            elif len(word) > 1 and word[1].lower() in "cdhs":
                rank, suit = word[0].upper(), word[1].lower()
                out.append("23456789TJQKA".index(rank) * 4 + "cdhs".index(suit))
                word = word[2:]
            else:
                out.append(100 + "23456789TJQKA".index(word[0].upper()))
                word = word[1:]
    return out


def _completions(needs: list[int], deck: list[int]) -> itertools.chain[list[list[int]]]:
    """Every way to give player i needs[i] more cards from deck (each set once)."""
    if not needs:
        return itertools.chain([[]])
    first, rest = needs[0], needs[1:]
    return itertools.chain.from_iterable(
        ([list(mine), *others]
         for others in _completions(rest, [c for c in deck if c not in mine]))
        for mine in itertools.combinations(deck, first))  # fmt: skip


def evaluate(text: str, cards: Sequence[Sequence[int]], dead: Sequence[int] = ()) -> list[float]:
    """Each selector's value on one trial, then the where clause's (1.0 or 0.0) if any."""
    tree = _pql.parse(text)
    game = {"studhi": "stud"}.get(tree.sources["game"].value, tree.sources["game"].value)
    players = [k for k in tree.sources if k not in ("game", "dead", "syntax")]
    trial = Trial(game, players, cards, dead)
    values = [trial.value(s.expr) for s in tree.selectors]
    if tree.where is not None:
        values.append(trial.value(tree.where))
    return values
