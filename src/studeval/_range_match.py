"""Range text's tree (:mod:`studeval._range_text`) matched against every combination a
seat may hold, numpy over all of them at once: a weight a combination, 0 where the
text does not allow it.

>>> from studeval._range_text import Parser
>>> seat = Seat(np.array([[44, 45, 0], [44, 1, 0]], dtype=np.uint8), (0, 1), (0,), 3, "KK")
>>> evaluate(Parser("KK").parse(), seat).tolist()
[1.0, 0.0]
"""

from __future__ import annotations

import itertools
import math
import os
import sys
import warnings
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from types import FrameType

import numpy as np

from studeval._cardtext import TEXT_OF_CODE
from studeval._range_text import (
    ACE,
    ALL_SUITS,
    MAX_PATTERN_WORK,
    Node,
    Pattern,
    Token,
    Weighted,
    Word,
    low_class,
)
from studeval.classes import (
    CATEGORIES,
    CLASS_NEEDS_UP,
    cards_needed,
    made_categories,
    rank_bits,
)
from studeval.errors import RangeError, RangeWarning

__all__ = ["Seat", "evaluate"]


def _card_sets(token: Token, rank_of: dict[str, int], suit_of: dict[str, int]) -> np.ndarray:
    """The 52 cards a token allows under one binding of the variables."""
    ranks = {rank_of[token.ranks]} if isinstance(token.ranks, str) else token.ranks
    suits = {suit_of[token.suits]} if isinstance(token.suits, str) else token.suits
    allowed = np.zeros(52, dtype=bool)
    for r in ranks:
        for s in suits:
            allowed[r * 4 + s] = True
    return allowed


def _variables(cards: Sequence[Token]) -> tuple[list[str], list[str], list[int], list[int]]:
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


def _bindings(cards: Sequence[Token]) -> Iterable[tuple[dict[str, int], dict[str, int]]]:
    """Every binding of the pattern's variables, each variable a distinct value."""
    rank_vars, suit_vars, free_ranks, free_suits = _variables(cards)
    for ranks in itertools.permutations(free_ranks, len(rank_vars)):
        for suits in itertools.permutations(free_suits, len(suit_vars)):
            yield dict(zip(rank_vars, ranks, strict=True)), dict(zip(suit_vars, suits, strict=True))


def _binding_count(cards: Sequence[Token]) -> int:
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
class Seat:
    """What the text is matched against: every combination's whole hand in dealing
    order, which places are down cards, and the up cards."""

    hands: np.ndarray  # (m, n) codes: down, down, up..., [7th]
    down: tuple[int, ...]  # places of the down cards (unordered among themselves)
    up: tuple[int, ...]
    street: int
    text: str


def _match_pattern(p: Pattern, seat: Seat, check_up: bool = True) -> np.ndarray:
    m, n = seat.hands.shape
    if p.plus:  # KK+: these ranks or any higher, as pairs (trips, ...) of one rank
        first = p.cards[0].ranks
        assert not isinstance(first, str)  # the parser allows '+' after one named rank
        out = np.zeros(m, dtype=bool)
        for rank in range(min(first), 13):
            cards = tuple(Token(frozenset({rank}), ALL_SUITS, c.at) for c in p.cards)
            out |= _match_pattern(Pattern(cards, p.at, False), seat, check_up=False)
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


def _up_index(seat: Seat, place: int) -> int:
    return place - sum(1 for d in seat.down if d < place)


def _check_up(p: Pattern, seat: Seat) -> None:
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


def _check_possible(w: Word, seat: Seat) -> None:
    """A class the seat's cards could never hold is an error, as a pattern longer than
    the seat's cards is: in a union it would otherwise add nothing without a word."""
    low = low_class(w.name)
    held, need = seat.hands.shape[1], low[0] if low else cards_needed(w.name, w.plus)
    written = w.written + "+" * w.plus
    if w.name in CLASS_NEEDS_UP and not seat.up:
        raise RangeError(f"{written!r} {CLASS_NEEDS_UP[w.name]}: give the seat's up cards "
                         "(up='Kc' on third street)", seat.text, w.at)  # fmt: skip
    if need > held:
        raise RangeError(
            f"{written!r} needs {need} cards; with {len(seat.up)} up "
            f"card{'s' * (len(seat.up) != 1)} the seat holds {held}", seat.text, w.at,
        )  # fmt: skip


def _match_word(w: Word, seat: Seat) -> np.ndarray:
    _check_possible(w, seat)
    hands = seat.hands
    m = len(hands)
    down = hands[:, list(seat.down)]
    up = np.broadcast_to(np.array(seat.up, dtype=np.int64), (m, len(seat.up)))
    counts = _rank_counts(hands)
    low = low_class(w.name)
    if low:
        need, top = low
        held = counts > 0
        small = held[:, : top + 1].sum(axis=1) + held[:, ACE]  # R is 2..K: the ace apart
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


def _start(node: Node) -> int:
    """Where a term starts in the text."""
    while not isinstance(node, (Pattern, Word)):
        node = node.node if isinstance(node, Weighted) else node.first
    return node.at


def _caller_level() -> int:
    """The ``stacklevel`` of the first frame outside studeval, counted from the
    caller of this function's caller (who warns): the user's own line."""
    package = os.path.dirname(os.path.abspath(__file__)) + os.sep
    frame: FrameType | None = sys._getframe(2)
    level = 2
    while frame is not None and frame.f_code.co_filename.startswith(package):
        frame, level = frame.f_back, level + 1
    return level


def _held(term: Node, value: np.ndarray, seat: Seat) -> None:
    """A term of a list that no combination left can hold adds nothing: said (a
    :class:`RangeWarning`), not dropped without a word. (Not an error: a range
    written for many spots meets dead cards that rule a term out.)"""
    if not (value > 0).any():
        where = str(RangeError("this term holds no combination that the up and dead "
                               "cards leave: it adds nothing", seat.text,
                               _start(term)))  # fmt: skip
        warnings.warn(RangeWarning(where), stacklevel=_caller_level())


def evaluate(node: Node, seat: Seat) -> np.ndarray:
    """The weight of every combination (0: not in the range)."""
    if isinstance(node, Pattern):
        return _match_pattern(node, seat).astype(np.float64)
    if isinstance(node, Word):
        return _match_word(node, seat).astype(np.float64)
    if isinstance(node, Weighted):
        return evaluate(node.node, seat) * node.weight
    out = evaluate(node.first, seat)
    union = any(op == "," for op, _ in node.rest)
    if union:
        _held(node.first, out, seat)
    for op, term in node.rest:
        value = evaluate(term, seat)
        if union:
            _held(term, value, seat)
        if op == ",":
            out = np.maximum(out, value)
        elif op == ":":
            out = np.minimum(out, value)
        else:
            out = np.where(value > 0, 0.0, out)
    return out
