"""Range text: the grammar of :class:`studeval.Range` read into a tree, and the tree
matched against every combination a seat may hold (numpy over all of them at once).

The grammar is documented in ``docs/ranges.md`` and in :mod:`studeval.ranges`.

>>> seat = _Seat(np.array([[44, 45, 0], [44, 1, 0]], dtype=np.uint8), (0, 1), (0,), 3, "KK")
>>> _evaluate(_Parser("KK").parse(), seat).tolist()
[1.0, 0.0]
"""

from __future__ import annotations

import itertools
import math
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from studeval._cardtext import RANKS, SUITS, TEXT_OF_CODE
from studeval.classes import CATEGORIES, CLASS_ALIASES, CLASS_NAMES, made_categories, rank_bits
from studeval.errors import RangeError

__all__ = ["RANK_VARIABLES", "SUIT_VARIABLES"]

#: Rank variables (each a distinct rank) and suit variables (each a distinct suit).
RANK_VARIABLES = "RON"
SUIT_VARIABLES = "xyzw"
_LOW = re.compile(r"low([1-5])-([2-9tjqkTJQK])")
# lowN-R's rank is written like every other rank (low4-T) or lowercase (low4-t).
_WORD = re.compile(r"low[0-9]+-[A-Za-z0-9]|[a-z][a-z0-9-]*")
_NUMBER = re.compile(r"[0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?")
_RANK_OF = {ch: i for i, ch in enumerate(RANKS)}
_ACE = 12


# ---- the text: a small recursive-descent parser -------------------------------------


@dataclass(frozen=True)
class _Token:
    """One card of a pattern: its ranks (a set, or one rank variable) and its suit
    (a set, or one suit variable); ``at`` is where it starts in the text."""

    ranks: frozenset[int] | str
    suits: frozenset[int] | str
    at: int


@dataclass(frozen=True)
class _Pattern:
    cards: tuple[_Token, ...]
    at: int
    plus: bool


@dataclass(frozen=True)
class _Word:
    name: str
    at: int
    plus: bool


@dataclass(frozen=True)
class _Weighted:
    node: _Node
    weight: float


@dataclass(frozen=True)
class _Chain:
    """``first`` then each (operator, term) in turn: a union of many terms, or an
    intersection/difference chain, held flat so that long texts need no deep stack."""

    first: _Node
    rest: tuple[tuple[str, _Node], ...]


_Node = _Pattern | _Word | _Weighted | _Chain
#: Parentheses nested deeper than this are refused (the parser recurses into them).
MAX_DEPTH = 50
#: Refused beyond this: variable bindings x placements x combinations of one pattern
#: (about a second of numpy); "RON" on 7th street would take hours.
MAX_PATTERN_WORK = 4e8
_ALL_RANKS = frozenset(range(13))
_ALL_SUITS = frozenset(range(4))


class _Parser:
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

    def parse(self) -> _Node:
        if not self.text.strip():
            raise RangeError("the range is empty: give cards or a class", self.text, 0)
        node = self.union()
        if self.peek():
            raise self.fail(f"unexpected {self.peek()!r}: terms are joined by ',' ':' or '!'")
        return node

    def union(self) -> _Node:
        first = self.inter()
        rest = []
        while self.peek() == ",":
            self.at += 1
            rest.append((",", self.inter()))
        return _Chain(first, tuple(rest)) if rest else first

    def inter(self) -> _Node:
        first = self.term()
        rest = []
        while self.peek() in (":", "!") and self.peek():
            op = self.text[self.at]
            self.at += 1
            rest.append((op, self.term()))
        return _Chain(first, tuple(rest)) if rest else first

    def term(self) -> _Node:
        ch = self.peek()
        start = self.at
        node: _Node
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
            node = _Weighted(node, weight)
        return node

    def word_ahead(self) -> bool:
        """A lowercase run that is no run of suits: a class name (or a mistake)."""
        letters = re.match(r"[a-z]+", self.text[self.at :])
        assert letters is not None
        return not set(letters.group()) <= set(SUITS + SUIT_VARIABLES)

    def word(self) -> _Word:
        match = _WORD.match(self.text, self.at)
        assert match is not None
        start, name = self.at, match.group()
        name = CLASS_ALIASES.get(name, name)
        if name.startswith("low") and name[3:4].isdigit() and not _LOW.fullmatch(name):
            raise self.fail(
                f"{match.group()!r}: lowN-R takes N from 1 to 5 and a rank R from 2 to K "
                "(the ace is low, so every low holds ranks up to R)", start,
            )  # fmt: skip
        if name not in CLASS_NAMES and not _LOW.fullmatch(name):
            known = ", ".join(n for n in CLASS_NAMES)
            raise self.fail(f"no class is named {match.group()!r}; classes: {known}", start)
        self.at = match.end()
        plus = self.text.startswith("+", self.at)
        if plus:
            if name not in CATEGORIES:
                raise self.fail("'+' (or better) follows a made-hand category", self.at)
            self.at += 1
        return _Word(name, start, plus)

    def pattern(self) -> _Pattern:
        start = self.at
        cards: list[_Token] = []
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
                    or any(c.suits != _ALL_SUITS for c in cards) or len(cards) < 2):  # fmt: skip
                raise self.fail("'+' follows cards of one rank without suits (KK+, 999+)")
            self.at += 1
        return _Pattern(tuple(cards), start, plus)

    def card(self) -> _Token:
        text, start = self.text, self.at
        ch = text[self.at]
        ranks: frozenset[int] | str
        if ch in _RANK_OF:
            ranks = frozenset({_RANK_OF[ch]})
            self.at += 1
        elif ch == "*":
            ranks = _ALL_RANKS
            self.at += 1
        elif ch in RANK_VARIABLES:
            ranks = ch
            self.at += 1
        elif ch == "[":
            ranks = self.bracket()
        elif ch in SUITS or ch in SUIT_VARIABLES:
            ranks = _ALL_RANKS  # a suit alone: any rank of it
            return _Token(ranks, self.suit(), start)
        elif ch in "10" and text.startswith("10", self.at):
            ranks = frozenset({_RANK_OF["T"]})
            self.at += 2
        else:
            raise self.fail(f"{ch!r} is no rank, suit, '*', '[' or class name")
        suits: frozenset[int] | str = _ALL_SUITS
        if self.at < len(text) and (text[self.at] in SUITS or text[self.at] in SUIT_VARIABLES):
            suits = self.suit()
        return _Token(ranks, suits, start)

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
            if len(bounds) > 2 or any(len(b) != 1 or b not in _RANK_OF for b in bounds):
                raise self.fail(f"{item!r} is no rank or span of ranks (A-T, 2-8)", at)
            values = sorted(_RANK_OF[b] for b in bounds)
            lo, hi = values[0], values[-1]
            if len(bounds) == 2 and hi == _ACE and lo <= _RANK_OF["8"]:
                ranks.update({_ACE, *range(0, lo + 1)})  # the low ace
            else:
                ranks.update(range(lo, hi + 1))
        if not ranks:
            raise self.fail("'[]' lists no rank", start)
        self.at = end + 1
        return frozenset(ranks)


# ---- matching against every combination ------------------------------------------------


def _card_sets(token: _Token, rank_of: dict[str, int], suit_of: dict[str, int]) -> np.ndarray:
    """The 52 cards a token allows under one binding of the variables."""
    ranks = {rank_of[token.ranks]} if isinstance(token.ranks, str) else token.ranks
    suits = {suit_of[token.suits]} if isinstance(token.suits, str) else token.suits
    allowed = np.zeros(52, dtype=bool)
    for r in ranks:
        for s in suits:
            allowed[r * 4 + s] = True
    return allowed


def _variables(cards: Sequence[_Token]) -> tuple[list[str], list[str], list[int], list[int]]:
    """The pattern's rank and suit variables, and the ranks and suits they may take:
    none of the pattern's own single ranks and suits."""
    named_ranks = {next(iter(c.ranks)) for c in cards
                   if not isinstance(c.ranks, str) and len(c.ranks) == 1}  # fmt: skip
    named_suits = {next(iter(c.suits)) for c in cards
                   if not isinstance(c.suits, str) and len(c.suits) == 1}  # fmt: skip
    return (sorted({c.ranks for c in cards if isinstance(c.ranks, str)}),
            sorted({c.suits for c in cards if isinstance(c.suits, str)}),
            [r for r in range(13) if r not in named_ranks],
            [s for s in range(4) if s not in named_suits])  # fmt: skip


def _bindings(cards: Sequence[_Token]) -> Iterable[tuple[dict[str, int], dict[str, int]]]:
    """Every binding of the pattern's variables, each variable a distinct value."""
    rank_vars, suit_vars, free_ranks, free_suits = _variables(cards)
    for ranks in itertools.permutations(free_ranks, len(rank_vars)):
        for suits in itertools.permutations(free_suits, len(suit_vars)):
            yield dict(zip(rank_vars, ranks, strict=True)), dict(zip(suit_vars, suits, strict=True))


def _binding_count(cards: Sequence[_Token]) -> int:
    """How many bindings :func:`_bindings` gives, without listing them."""
    rank_vars, suit_vars, free_ranks, free_suits = _variables(cards)
    return math.perm(len(free_ranks), len(rank_vars)) * math.perm(len(free_suits), len(suit_vars))


def _placements(tokens: Sequence[int], n: int) -> Iterable[tuple[int, ...]]:
    """Ways to put the tokens (by kind: equal kinds are interchangeable) on distinct
    places among n, each set of places once per arrangement of unequal kinds."""
    seen: set[tuple[tuple[int, int], ...]] = set()
    for places in itertools.permutations(range(n), len(tokens)):
        key = tuple(sorted(zip(tokens, places, strict=True)))
        if key not in seen:
            seen.add(key)
            yield places


@dataclass(frozen=True)
class _Seat:
    """What the text is matched against: every combination's whole hand in dealing
    order, which places are down cards, and the up cards."""

    hands: np.ndarray  # (m, n) codes: down, down, up..., [7th]
    down: tuple[int, ...]  # places of the down cards (unordered among themselves)
    up: tuple[int, ...]
    street: int
    text: str


def _match_pattern(p: _Pattern, seat: _Seat, check_up: bool = True) -> np.ndarray:
    m, n = seat.hands.shape
    if p.plus:  # KK+: these ranks or any higher, as pairs (trips, ...) of one rank
        first = p.cards[0].ranks
        assert not isinstance(first, str)  # the parser allows '+' after one named rank
        out = np.zeros(m, dtype=bool)
        for rank in range(min(first), 13):
            cards = tuple(_Token(frozenset({rank}), _ALL_SUITS, c.at) for c in p.cards)
            out |= _match_pattern(_Pattern(cards, p.at, False), seat, check_up=False)
        return out
    k = len(p.cards)
    if k > n:
        raise RangeError(
            f"this pattern has {k} cards; on street {seat.street} the seat holds {n}",
            seat.text, p.at,
        )  # fmt: skip
    positional = k == n
    if positional and check_up:
        _check_up(p, seat)
    bindings = _binding_count(p.cards)
    repeats = Counter((c.ranks, c.suits) for c in p.cards)
    alike = math.prod(math.factorial(count) for count in repeats.values())
    ways = math.perm(len(seat.down)) if positional else math.perm(n, k) // alike
    work = bindings * ways * m
    if work > MAX_PATTERN_WORK:
        raise RangeError(
            f"this pattern takes {bindings:,} bindings of its variables to match; use fewer "
            f"rank and suit variables (or spans such as [A-T])", seat.text, p.at,
        )  # fmt: skip
    out = np.zeros(m, dtype=bool)
    for rank_of, suit_of in _bindings(p.cards):
        sets = [_card_sets(c, rank_of, suit_of) for c in p.cards]
        if positional:
            ok = np.ones(m, dtype=bool)
            for place, allowed in enumerate(sets):
                if place not in seat.down:
                    ok &= allowed[seat.up[_up_index(seat, place)]]
            if not ok.any():
                continue
            down_sets = [sets[place] for place in seat.down]
            any_order = np.zeros(m, dtype=bool)
            for order in itertools.permutations(seat.down):
                fits = ok.copy()
                for allowed, place in zip(down_sets, order, strict=True):
                    fits &= allowed[seat.hands[:, place]]
                any_order |= fits
            out |= any_order
        else:
            kinds: list[int] = []
            distinct: list[np.ndarray] = []
            for allowed in sets:
                for i, known in enumerate(distinct):
                    if np.array_equal(known, allowed):
                        kinds.append(i)
                        break
                else:
                    kinds.append(len(distinct))
                    distinct.append(allowed)
            held = [allowed[seat.hands] for allowed in distinct]  # (m, n) each
            for places in _placements(kinds, n):
                fits = np.ones(m, dtype=bool)
                for kind, place in zip(kinds, places, strict=True):
                    fits &= held[kind][:, place]
                out |= fits
    return out


def _up_index(seat: _Seat, place: int) -> int:
    return place - sum(1 for d in seat.down if d < place)


def _check_up(p: _Pattern, seat: _Seat) -> None:
    """A place-by-place pattern names the up cards: a fixed one must allow the card
    the seat shows."""
    for place, card in enumerate(p.cards):
        if place in seat.down or isinstance(card.ranks, str) or isinstance(card.suits, str):
            continue
        shown = seat.up[_up_index(seat, place)]
        if shown // 4 not in card.ranks or shown % 4 not in card.suits:
            raise RangeError(
                f"card {place + 1} of this pattern is an up card, and the seat shows "
                f"{TEXT_OF_CODE[shown]}", seat.text, card.at,
            )  # fmt: skip


def _rank_counts(hands: np.ndarray, suits: bool = False) -> np.ndarray:
    """Cards of each rank (or, with ``suits``, of each suit) in each row."""
    if suits:
        return (hands[:, :, None] % 4 == np.arange(4)).sum(axis=1)
    return (hands[:, :, None] // 4 == np.arange(13)).sum(axis=1)


# The fewest cards a seat must hold for each class to be possible at all (lowN-R
# needs N; a made category's "+" needs the fewest of it and the better ones).
_CARDS_NEEDED = {"pair": 2, "buried": 2, "split": 2, "rolled": 3, "trips": 3,
                 "three-flush": 3, "three-straight": 3, "high-card": 1, "one-pair": 2,
                 "two-pair": 4, "three-of-a-kind": 3, "straight": 5, "flush": 5,
                 "full-house": 5, "four-of-a-kind": 4, "straight-flush": 5}  # fmt: skip

_NEEDS_UP = {"split": "pairs a down card with an up card",
             "rolled": "is three of the door card's rank"}  # fmt: skip


def _check_possible(w: _Word, seat: _Seat) -> None:
    """A class the seat's cards could never hold is an error, as a pattern longer than
    the seat's cards is: in a union it would otherwise add nothing without a word."""
    held = seat.hands.shape[1]
    low = _LOW.fullmatch(w.name)
    if low:
        need = int(low.group(1))
    elif w.plus:
        need = min(_CARDS_NEEDED[c] for c in CATEGORIES[CATEGORIES.index(w.name) :])
    else:
        need = _CARDS_NEEDED[w.name]
    if w.name in _NEEDS_UP and not seat.up:
        raise RangeError(
            f"{w.name!r} {_NEEDS_UP[w.name]}: give the seat's up cards (up='Kc' on third "
            "street)", seat.text, w.at,
        )  # fmt: skip
    if need > held:
        raise RangeError(
            f"{w.name + '+' * w.plus!r} needs {need} cards; with {len(seat.up)} up "
            f"card{'s' * (len(seat.up) != 1)} the seat holds {held}", seat.text, w.at,
        )  # fmt: skip


def _match_word(w: _Word, seat: _Seat) -> np.ndarray:
    _check_possible(w, seat)
    hands = seat.hands
    m = len(hands)
    down = hands[:, list(seat.down)]
    up = np.broadcast_to(np.array(seat.up, dtype=np.int64), (m, len(seat.up)))
    counts = _rank_counts(hands)
    low = _LOW.fullmatch(w.name)
    if low:
        need, top = int(low.group(1)), _RANK_OF[low.group(2).upper()]
        held = counts > 0
        small = held[:, : top + 1].sum(axis=1) + held[:, _ACE] * (top != _ACE)
        return np.asarray(small >= need)
    if w.name in CATEGORIES:
        made = made_categories(hands)
        wanted = CATEGORIES.index(w.name)
        return np.asarray(made >= wanted if w.plus else made == wanted)
    if w.name == "pair":
        return np.asarray(counts.max(axis=1) >= 2)
    if w.name == "trips":
        return np.asarray(counts.max(axis=1) >= 3)
    if w.name == "buried":
        return np.asarray(_rank_counts(down).max(axis=1) >= 2)
    if w.name == "split":
        return np.asarray((down[:, :, None] // 4 == up[:, None, :] // 4).any(axis=(1, 2)))
    if w.name == "rolled":
        # Two down cards of the door's rank; on 7th street the three down cards are
        # one unordered group, so any two of them.
        door = hands[:, 2:3] // 4
        return np.asarray((down // 4 == door).sum(axis=1) >= 2)
    if w.name == "three-flush":
        return np.asarray(_rank_counts(hands, suits=True).max(axis=1) >= 3)
    assert w.name == "three-straight"
    bits = rank_bits(counts > 0)
    window = np.zeros(m, dtype=bool)
    for start in range(10):  # A-5 up to T-A, five ranks each
        held = np.zeros(m, dtype=np.int64)
        for i in range(5):
            held = held + ((bits >> (start + i)) & 1).astype(np.int64)
        window |= held >= 3
    return window


def _evaluate(node: _Node, seat: _Seat) -> np.ndarray:
    """The weight of every combination (0: not in the range)."""
    if isinstance(node, _Pattern):
        return _match_pattern(node, seat).astype(np.float64)
    if isinstance(node, _Word):
        return _match_word(node, seat).astype(np.float64)
    if isinstance(node, _Weighted):
        return _evaluate(node.node, seat) * node.weight
    out = _evaluate(node.first, seat)
    for op, term in node.rest:
        value = _evaluate(term, seat)
        if op == ",":
            out = np.maximum(out, value)
        elif op == ":":
            out = np.minimum(out, value)
        else:
            out = np.where(value > 0, 0.0, out)
    return out
