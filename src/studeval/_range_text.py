"""Range text: the grammar of :class:`studeval.Range` read into a tree of patterns,
class words, weights and set operations (:mod:`studeval._range_match` matches the
tree against a seat's combinations).

The grammar is documented in ``docs/ranges.md`` and in :mod:`studeval.ranges`.

>>> Parser("KK@0.5, buried-pair").parse().rest[0][1]
Word(name='buried', at=8, plus=False, written='buried-pair')
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from studeval._cardtext import RANKS, SUITS
from studeval.classes import CATEGORIES, CLASS_ALIASES, CLASS_NAMES
from studeval.errors import RangeError

__all__ = [
    "ACE", "ALL_RANKS", "ALL_SUITS", "LOW_CLASS", "MAX_DEPTH", "MAX_PATTERN_WORK",
    "RANK_OF", "RANK_VARIABLES", "SUIT_VARIABLES", "Chain", "Node", "Parser", "Pattern",
    "Token", "Weighted", "Word", "low_class",
]  # fmt: skip

#: Rank variables (each a distinct rank) and suit variables (each a distinct suit).
RANK_VARIABLES = "RON"
SUIT_VARIABLES = "xyzw"
LOW_CLASS = re.compile(r"low([1-5])-(10|[2-9tjqkTJQK])")
# lowN-R's rank is written like every other rank (low4-T) or lowercase (low4-t).
_WORD = re.compile(r"low[0-9]+-[A-Za-z0-9]+|[a-z][a-z0-9-]*")
_NUMBER = re.compile(r"[0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?")
RANK_OF = {ch: i for i, ch in enumerate(RANKS)}
ACE = 12


def low_class(name: str) -> tuple[int, int] | None:
    """``lowN-R``'s N and R's rank (0 for a two .. 11 for a king), or None for a name
    that is no low class.

    >>> low_class("low3-8"), low_class("low4-10"), low_class("low3-A")
    ((3, 6), (4, 8), None)
    """
    found = LOW_CLASS.fullmatch(name)
    if found is None:
        return None
    rank = found.group(2).upper()
    return int(found.group(1)), RANK_OF["T" if rank == "10" else rank]


# ---- the text: a small recursive-descent parser -------------------------------------


@dataclass(frozen=True)
class Token:
    """One card of a pattern: its ranks (a set, or one rank variable) and its suit
    (a set, or one suit variable); ``at`` is where it starts in the text."""

    ranks: frozenset[int] | str
    suits: frozenset[int] | str
    at: int


@dataclass(frozen=True)
class Pattern:
    cards: tuple[Token, ...]
    at: int
    plus: bool


@dataclass(frozen=True)
class Word:
    name: str  # the class's own name (an alias read as it)
    at: int
    plus: bool
    written: str  # as the text writes it


@dataclass(frozen=True)
class Weighted:
    node: Node
    weight: float


@dataclass(frozen=True)
class Chain:
    """``first`` then each (operator, term) in turn: a union of many terms, or an
    intersection/difference chain, held flat so that long texts need no deep stack."""

    first: Node
    rest: tuple[tuple[str, Node], ...]


Node = Pattern | Word | Weighted | Chain
#: Parentheses nested deeper than this are refused (the parser recurses into them).
MAX_DEPTH = 50
#: Refused beyond this: variable bindings x placements x combinations of one pattern
#: (about a second of numpy); "RON" on 7th street would take hours.
MAX_PATTERN_WORK = 4e8
ALL_RANKS = frozenset(range(13))
ALL_SUITS = frozenset(range(4))


class Parser:
    """``range := inter (',' inter)*``, ``inter := term ((':' | '!') term)*``,
    ``term := (pattern | word | '(' range ')') ['@' weight]``."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.at = 0
        self.depth = 0

    def fail(self, reason: str, at: int | None = None) -> RangeError:
        return RangeError(reason, self.text, self.at if at is None else at)

    def skip(self) -> None:
        while self.at < len(self.text) and self.text[self.at].isspace():
            self.at += 1

    def peek(self) -> str:
        self.skip()
        return self.text[self.at] if self.at < len(self.text) else ""

    def parse(self) -> Node:
        if not self.text.strip():
            raise RangeError("the range is empty: give cards or a class", self.text, 0)
        node = self.union()
        if self.peek():
            raise self.fail(f"unexpected {self.peek()!r}: terms are joined by ',' ':' or '!'")
        return node

    def union(self) -> Node:
        first = self.inter()
        rest = []
        while self.peek() == ",":
            self.at += 1
            rest.append((",", self.inter()))
        return Chain(first, tuple(rest)) if rest else first

    def inter(self) -> Node:
        first = self.term()
        rest = []
        while self.peek() in (":", "!") and self.peek():
            op = self.text[self.at]
            self.at += 1
            rest.append((op, self.term()))
        return Chain(first, tuple(rest)) if rest else first

    def term(self) -> Node:
        ch = self.peek()
        start = self.at
        node: Node
        if ch == "(":
            self.depth += 1
            if self.depth > MAX_DEPTH:
                raise self.fail(f"parentheses nested more than {MAX_DEPTH} deep")
            self.at += 1
            node = self.union()
            self.depth -= 1
            if self.peek() != ")":
                raise self.fail("missing ')' to close the '(' here", start)
            self.at += 1
        elif ch == "":
            raise self.fail("a term is missing at the end")
        elif ch in ",:!)@":
            raise self.fail(f"a term is missing before {ch!r}")
        elif _WORD.match(self.text, self.at) and self.word_ahead():
            node = self.word()
        else:
            node = self.pattern()
        if self.peek() == "@":
            self.at += 1
            self.skip()
            number = _NUMBER.match(self.text, self.at)
            if number is None:
                raise self.fail("'@' takes a weight, a number such as 0.5")
            weight = float(number.group())
            if not math.isfinite(weight):
                raise self.fail("a weight must be a finite number")
            self.at = number.end()
            node = Weighted(node, weight)
        return node

    def word_ahead(self) -> bool:
        """A lowercase run that is no run of suits: a class name (or a mistake)."""
        letters = re.match(r"[a-z]+", self.text[self.at :])
        assert letters is not None
        return not set(letters.group()) <= set(SUITS + SUIT_VARIABLES)

    def word(self) -> Word:
        match = _WORD.match(self.text, self.at)
        assert match is not None
        start, name = self.at, match.group()
        name = CLASS_ALIASES.get(name, name)
        if name.startswith("low") and name[3:4].isdigit():
            low = low_class(name)
            if low is None:
                raise self.fail(
                    f"{name!r}: lowN-R takes N from 1 to 5 and a rank R from 2 to K (the ace "
                    "is low, so every low holds ranks up to R)", start,
                )  # fmt: skip
            if low[0] > low[1] + 2:  # A, 2 .. R: RANK_OF[R] + 2 ranks
                top = name.split("-")[1].upper()
                raise self.fail(f"{name!r}: only {low[1] + 2} ranks, the ace to {top}, are {top} "
                                f"or lower: no hand holds {low[0]}", start)  # fmt: skip
        elif name not in CLASS_NAMES:
            known = ", ".join(n for n in CLASS_NAMES)
            raise self.fail(f"no class is named {match.group()!r}; classes: {known}", start)
        self.at = match.end()
        plus = self.text.startswith("+", self.at)
        if plus:
            if name not in CATEGORIES:
                raise self.fail("'+' (or better) follows a made-hand category", self.at)
            self.at += 1
        return Word(name, start, plus, match.group())

    def pattern(self) -> Pattern:
        start = self.at
        cards: list[Token] = []
        while True:
            self.skip()
            if self.at >= len(self.text) or self.text[self.at] in ",:!()@+":
                break
            cards.append(self.card())
        if not cards:
            raise self.fail(f"unexpected {self.text[self.at]!r}", self.at)
        plus = self.peek() == "+"
        if plus:
            ranks = {c.ranks for c in cards}
            one = next(iter(ranks))
            if (len(ranks) != 1 or isinstance(one, str) or len(one) != 1
                    or any(c.suits != ALL_SUITS for c in cards) or len(cards) < 2):  # fmt: skip
                raise self.fail("'+' follows cards of one rank without suits (KK+, 999+)")
            self.at += 1
        return Pattern(tuple(cards), start, plus)

    def card(self) -> Token:
        text, start = self.text, self.at
        ch = text[self.at]
        ranks: frozenset[int] | str
        if ch in RANK_OF:
            ranks = frozenset({RANK_OF[ch]})
            self.at += 1
        elif ch == "*":
            ranks = ALL_RANKS
            self.at += 1
        elif ch in RANK_VARIABLES:
            ranks = ch
            self.at += 1
        elif ch == "[":
            ranks = self.bracket()
        elif ch in SUITS or ch in SUIT_VARIABLES:
            ranks = ALL_RANKS  # a suit alone: any rank of it
            return Token(ranks, self.suit(), start)
        elif ch in "10" and text.startswith("10", self.at):
            ranks = frozenset({RANK_OF["T"]})
            self.at += 2
        else:
            raise self.fail(f"{ch!r} is no rank, suit, '*', '[' or class name")
        suits: frozenset[int] | str = ALL_SUITS
        if self.at < len(text) and (text[self.at] in SUITS or text[self.at] in SUIT_VARIABLES):
            suits = self.suit()
        return Token(ranks, suits, start)

    def suit(self) -> frozenset[int] | str:
        ch = self.text[self.at]
        self.at += 1
        return ch if ch in SUIT_VARIABLES else frozenset({SUITS.index(ch)})

    def bracket(self) -> frozenset[int]:
        start = self.at
        end = self.text.find("]", start)
        if end < 0:
            raise self.fail("missing ']' to close the '[' here", start)
        ranks: set[int] = set()
        for part in re.finditer(r"[^,\s]+", self.text[start + 1 : end]):
            item, at = part.group(), start + 1 + part.start()
            bounds = item.split("-")
            if len(bounds) > 2 or any(len(b) != 1 or b not in RANK_OF for b in bounds):
                raise self.fail(f"{item!r} is no rank or span of ranks (A-T, 2-8)", at)
            values = sorted(RANK_OF[b] for b in bounds)
            lo, hi = values[0], values[-1]
            if len(bounds) == 2 and hi == ACE and lo <= RANK_OF["8"]:
                ranks.update({ACE, *range(0, lo + 1)})  # the low ace
            else:
                ranks.update(range(lo, hi + 1))
        if not ranks:
            raise self.fail("'[]' lists no rank", start)
        self.at = end + 1
        return frozenset(ranks)
