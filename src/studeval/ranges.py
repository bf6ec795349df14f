"""Ranges: what one seat may hold, given what it shows.

A :class:`Range` is the weighted set of a seat's hidden-card combinations (two down
cards from 3rd to 6th street, three on 7th) that a text allows, given the seat's up
cards and the cards known to be out of play. It is numpy underneath: ``hidden``
(one row of card codes a combination), ``hands`` (the whole hands, for the batch
rankings) and ``weights``, all read-only.

The text grammar follows ProPokerTools' generic range syntax where a stud player
would expect it (``docs/ranges.md`` has the whole grammar and every difference):

- cards in dealing order: down, down, door, 4th, 5th, 6th, 7th (down); a pattern
  with as many cards as the seat holds is read place by place (the down cards in
  any order); a shorter pattern is found anywhere among the seat's cards, so
  ``KK`` is "at least two kings";
- ranks ``A``..``2``, any card ``*``, suits ``s h d c``, rank variables ``R O N``
  (distinct ranks, none of the pattern's own), suit variables ``x y z w``; spans
  and lists ``[A-T]``, ``[A,5,3]``, ``[A-5]`` (with an ace and a rank 8 or lower a
  span is a low one: A, 2, 3, 4, 5); ``KK+`` for kings or any higher pair;
- ``,`` union, ``:`` intersection, ``!`` difference, parentheses, ``@w`` weights;
- the named stud classes: ``pair``, ``buried``, ``split``, ``rolled``, ``trips``,
  ``three-flush``, ``three-straight``, ``low3-8`` (three ranks 8 or lower) and the
  made hands by category (``two-pair``, ``flush+``, ...).

>>> r = Range("buried, split", up="Kc")
>>> r.street, len(r)  # 75 pairs in the hole, 147 down kings: 3 hands are both
(3, 219)
>>> Range("KK", up="Kc").hidden.shape  # at least two kings: split, or rolled up
(147, 2)
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable

import numpy as np
import numpy.typing as npt

from studeval._cardtext import TEXT_OF_CODE
from studeval._range_match import Seat, evaluate
from studeval._range_text import Parser
from studeval.cards import parse_cards, to_codes
from studeval.classes import CATEGORIES, CLASS_NAMES
from studeval.errors import InvalidCardError, RangeError, StudevalError
from studeval.games import get_game

__all__ = ["CATEGORIES", "CLASS_NAMES", "Range", "combination_keys", "split_range_text"]


# ---- the Range ----------------------------------------------------------------------------


def _codes(cards: object, what: str) -> tuple[int, ...]:
    if cards is None:
        return ()
    try:
        if isinstance(cards, str):
            return tuple(to_codes(cards.replace(",", " ")))
        if hasattr(cards, "tolist"):
            listed = cards.tolist()
            cards = listed if isinstance(listed, list) else [listed]
        if hasattr(type(cards), "__index__"):
            cards = [cards]
        return tuple(to_codes(cards))  # type: ignore[arg-type]
    except InvalidCardError as err:
        raise InvalidCardError(err.card, detail=f"in {what}") from None


def _street_of(up: int, street: int | None) -> int:
    if not 0 <= up <= 4:
        raise RangeError(f"a seat shows 0 to 4 up cards; got {up}")
    natural = up + 2
    if street is None:
        return natural
    if street == 7 and up == 4:
        return 7
    if street != natural:
        raise RangeError(
            f"street {street} does not fit {up} up card{'s' * (up != 1)}: that is street "
            f"{natural}{' (or 7, with street=7)' if up == 4 else ''}"
        )
    return street


class Range:
    """The hidden cards one seat may hold, weighted: built from range text or from an
    array of combinations, given the seat's ``up`` cards (0 to 4; the street follows:
    one up card is 3rd street, four are 6th, or 7th with ``street=7``) and ``dead``
    cards known out of play. ``game`` is the game the range is for (kept for
    equity and queries; the classes are the same in every game).

    ``hidden`` is an (m, h) uint8 array of the combinations' hidden cards (h = 2, or 3
    on 7th street), each sorted; ``hands`` the (m, h + up) whole hands in dealing order
    (down, down, up cards, 7th); ``weights`` (m,) float64, every one positive. All
    three are read-only. Combinations holding an up or dead card are never in a range
    (``removed`` counts those an array gave); a range that would be empty is an error.

    >>> r = Range("KK, AA@0.5", up="Kc 7d", dead="Kh")
    >>> len(r), r.street, sorted(set(r.weights.tolist()))
    (101, 4, [0.5, 1.0])
    >>> r.where(r.weights == 1.0).combos()[:3]
    ['2c Kd', '2d Kd', '2h Kd']
    """

    __slots__ = ("_dead", "_game", "_hands", "_hidden", "_removed", "_street", "_text", "_up",
                 "_weights")  # fmt: skip

    def __init__(
        self,
        spec: str | npt.ArrayLike,
        *,
        up: object = (),
        street: int | None = None,
        game: str = "stud",
        dead: object = (),
        weights: npt.ArrayLike | None = None,
    ) -> None:
        self._game = get_game(game).name
        self._up = _codes(up, "up")
        self._dead = _codes(dead, "dead")
        self._street = _street_of(len(self._up), street)
        clash = set(self._up) & set(self._dead)
        twice = [c for i, c in enumerate(self._up) if c in self._up[:i]]
        if clash or twice:
            card = TEXT_OF_CODE[min(clash) if clash else twice[0]]
            raise RangeError(f"the card {card} is given twice (up cards and dead cards)")
        self._removed = 0
        if isinstance(spec, str):
            if weights is not None:
                raise RangeError("weights come with an array of combinations; in text use @w")
            self._text = spec
            hidden = _every_combination(self.width, {*self._up, *self._dead})
            seat = Seat(self._whole(hidden), self._down_places(), self._up, self._street, spec)
            values = evaluate(Parser(spec).parse(), seat)
            self._set(hidden, values, f"no combination of {spec!r} is left", spec)
        else:
            self._text = ""
            hidden, values = self._from_array(spec, weights)
            self._set(hidden, values, "the array holds no combination with weight", None)

    # -- building --------------------------------------------------------------------

    def _down_places(self) -> tuple[int, ...]:
        return (0, 1, 6) if self._street == 7 else (0, 1)

    def _whole(self, hidden: np.ndarray) -> np.ndarray:
        up = np.broadcast_to(np.array(self._up, dtype=np.uint8), (len(hidden), len(self._up)))
        return np.concatenate([hidden[:, :2], up, hidden[:, 2:]], axis=1).astype(np.uint8)

    def _from_array(
        self, spec: npt.ArrayLike, weights: npt.ArrayLike | None
    ) -> tuple[np.ndarray, np.ndarray]:
        try:
            raw = np.asarray(spec)
        except ValueError:
            raise RangeError("combinations are an (m, h) array of card codes, rows of one "
                             "length") from None  # fmt: skip
        if raw.ndim != 2 or raw.shape[1] != self.width:
            raise RangeError(
                f"an array of combinations is (m, {self.width}) on street {self._street}; "
                f"got shape {raw.shape}"
            )
        if raw.dtype.kind not in "iu":
            raise RangeError(f"combinations are integer card codes; got dtype {raw.dtype}")
        bad = np.argwhere((raw < 0) | (raw > 51))
        if len(bad):
            row, col = bad[0]
            raise RangeError(f"row {row}: {raw[row, col]} is no card code (0..51)")
        hidden = np.sort(raw.astype(np.uint8), axis=1)
        twice = np.nonzero((hidden[:, 1:] == hidden[:, :-1]).any(axis=1))[0]
        if len(twice):
            raise RangeError(f"row {twice[0]} holds a card twice: {_text_of(hidden[twice[0]])}")
        shown = np.isin(hidden, np.array(self._up, dtype=np.uint8)).any(axis=1)
        if shown.any():
            row = int(np.nonzero(shown)[0][0])
            raise RangeError(f"row {row} holds an up card of the seat: {_text_of(hidden[row])}")
        try:
            values = np.ones(len(hidden)) if weights is None else np.asarray(weights, np.float64)
        except (TypeError, ValueError):
            got = repr(weights)[:60]
            raise RangeError(f"weights are numbers, one a combination; got {got}") from None
        if values.shape != (len(hidden),):
            raise RangeError(f"{values.shape} weights for {len(hidden)} combinations")
        if not np.isfinite(values).all() or (values < 0).any():
            row = int(np.nonzero(~np.isfinite(values) | (values < 0))[0][0])
            raise RangeError(f"row {row}: a weight is a finite number >= 0; got {values[row]}")
        keys = combination_keys(hidden)
        _, first, counts = np.unique(keys, return_index=True, return_counts=True)
        if (counts > 1).any():
            row = int(np.sort(first[counts > 1])[0])
            raise RangeError(f"the combination {_text_of(hidden[row])} is given twice")
        dead = np.isin(hidden, np.array(self._dead, dtype=np.uint8)).any(axis=1)
        self._removed = int(dead.sum())
        return hidden[~dead], values[~dead]

    def _set(self, hidden: np.ndarray, values: np.ndarray, why: str, text: str | None) -> None:
        keep = values > 0
        if not keep.any():
            raise RangeError(why if text is None else f"{why} (up {self._up_text()}, dead "
                             f"{_text_of(self._dead) or 'none'})")  # fmt: skip
        order = np.argsort(combination_keys(hidden[keep]), kind="stable")
        self._hidden = _frozen(hidden[keep][order])
        self._weights = _frozen(values[keep][order].astype(np.float64))
        self._hands = _frozen(self._whole(self._hidden))

    def _derived(
        self, hidden: np.ndarray, values: np.ndarray, why: str, text: str = "",
        dead: tuple[int, ...] | None = None,
    ) -> Range:  # fmt: skip
        """A range of this seat holding ``hidden`` with weights ``values`` (those of
        weight 0 left out; none left is a RangeError saying ``why``). ``text`` is "" by
        default: a changed range no longer holds what this one's text says."""
        out = object.__new__(Range)
        out._game, out._up, out._street = self._game, self._up, self._street
        out._dead = self._dead if dead is None else dead
        out._text, out._removed = text, 0
        out._set(hidden, values, why, None)
        return out

    # -- what it holds ------------------------------------------------------------------

    @property
    def hidden(self) -> npt.NDArray[np.uint8]:
        """(m, h) hidden cards of each combination, sorted; read-only."""
        return self._hidden

    @property
    def hands(self) -> npt.NDArray[np.uint8]:
        """(m, h + up) whole hands in dealing order, for the batch rankings; read-only."""
        return self._hands

    @property
    def weights(self) -> npt.NDArray[np.float64]:
        """(m,) weights, each positive; read-only."""
        return self._weights

    @property
    def up(self) -> tuple[int, ...]:
        """The seat's up cards (codes)."""
        return self._up

    @property
    def dead(self) -> tuple[int, ...]:
        """The cards known out of play (codes)."""
        return self._dead

    @property
    def street(self) -> int:
        """The street: 3 to 7 (2: no up card yet)."""
        return self._street

    @property
    def width(self) -> int:
        """Hidden cards per combination: 3 on 7th street, else 2."""
        return 3 if self._street == 7 else 2

    @property
    def game(self) -> str:
        return self._game

    @property
    def text(self) -> str:
        """The text the range was read from ("" for one built from an array)."""
        return self._text

    @property
    def removed(self) -> int:
        """Combinations of the array given that held a dead card, so are not in it."""
        return self._removed

    def __len__(self) -> int:
        return len(self._hidden)

    def combos(self) -> list[str]:
        """Each combination's hidden cards as text, in order."""
        return [_text_of(row) for row in self._hidden]

    def __repr__(self) -> str:
        source = repr(self._text) if self._text else "array"
        return (f"Range({source}, up={self._up_text()!r}, street={self._street}: "
                f"{len(self)} combinations, weight {self._weights.sum():g})")  # fmt: skip

    def _up_text(self) -> str:
        return _text_of(self._up) or "none"

    # -- new ranges ---------------------------------------------------------------------

    def where(self, mask: npt.ArrayLike) -> Range:
        """The combinations where ``mask`` (m booleans) is true.

        >>> import studeval
        >>> r = Range("*", up="Kc Kd Qh 2s")
        >>> (r.where(studeval.high_ranks(r.hands) <= 166)).combos()[:2]  # quads or better
        ['Kh Ks']
        """
        keep = np.asarray(mask)
        if keep.dtype != np.bool_ or keep.shape != (len(self),):
            raise RangeError(f"where() takes {len(self)} booleans; got {keep.dtype} {keep.shape}")
        return self._derived(self._hidden[keep], self._weights[keep], "where() kept nothing")

    def reweight(self, factor: float | npt.ArrayLike | Callable[[Range], npt.ArrayLike]) -> Range:
        """The same combinations, each weight multiplied by ``factor``: a number, m numbers,
        or a function of this range that gives them. A weight of 0 leaves the range.

        >>> r = Range("rolled, KK*@0.5", up="Kc")
        >>> r.reweight(lambda r: np.where(r.hidden[:, 0] % 4 == 1, 2.0, 1.0)).weights.tolist()
        [2.0, 2.0, 1.0]
        """
        value = factor(self) if callable(factor) else factor
        try:
            scale = np.broadcast_to(np.asarray(value, dtype=np.float64), (len(self),))
        except (TypeError, ValueError):
            raise RangeError(f"reweight() takes a number or {len(self)} numbers; "
                             f"got {repr(value)[:60]}") from None  # fmt: skip
        if not np.isfinite(scale).all() or (scale < 0).any():
            raise RangeError("reweight() takes finite factors >= 0")
        with np.errstate(over="ignore"):
            weights = self._weights * scale
        if not np.isfinite(weights).all():
            raise RangeError("reweight() would make a weight too large for a float")
        return self._derived(self._hidden, weights, "reweight() left no weight")

    def _pair(self, other: object, op: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        if not isinstance(other, Range):
            raise RangeError(f"'{op}' combines two ranges; got {type(other).__name__}")
        if other._up != self._up or other._street != self._street:
            raise RangeError(
                f"'{op}' combines ranges of one seat: up {self._up_text()} street "
                f"{self._street} and up {other._up_text()} street {other._street}"
            )
        keys_a, keys_b = combination_keys(self._hidden), combination_keys(other._hidden)
        keys = np.union1d(keys_a, keys_b)
        wa = np.zeros(len(keys))
        wb = np.zeros(len(keys))
        wa[np.searchsorted(keys, keys_a)] = self._weights
        wb[np.searchsorted(keys, keys_b)] = other._weights
        hidden = np.concatenate([self._hidden, other._hidden])
        hidden = hidden[np.unique(np.concatenate([keys_a, keys_b]), return_index=True)[1]]
        return hidden, wa, wb

    def _combined(
        self, other: Range, hidden: np.ndarray, values: np.ndarray, op: str, why: str
    ) -> Range:
        # Either range's dead cards are out of the result; the text of both, when both
        # have one, joined into range text that means the same.
        dead = tuple(sorted({*self._dead, *other._dead}))
        live = ~np.isin(hidden, np.array(dead, dtype=np.uint8)).any(axis=1)
        text = f"({self._text}) {op} ({other._text})" if self._text and other._text else ""
        return self._derived(hidden[live], values[live], why, text, dead)

    def __or__(self, other: Range) -> Range:
        """Either range; a combination in both keeps the larger weight."""
        hidden, wa, wb = self._pair(other, "|")
        return self._combined(other, hidden, np.maximum(wa, wb), ",", "'|' gave nothing")

    def __and__(self, other: Range) -> Range:
        """Both ranges; a combination keeps the smaller weight."""
        hidden, wa, wb = self._pair(other, "&")
        return self._combined(
            other, hidden, np.minimum(wa, wb), ":", "'&': the ranges share nothing"
        )

    def __sub__(self, other: Range) -> Range:
        """This range without the other's combinations."""
        hidden, wa, wb = self._pair(other, "-")
        return self._combined(other, hidden, np.where(wb > 0, 0.0, wa), "!", "'-' left nothing")

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Range) and self._up == other._up
                and self._street == other._street
                and np.array_equal(self._hidden, other._hidden)
                and np.array_equal(self._weights, other._weights))  # fmt: skip

    __hash__ = None  # type: ignore[assignment]


def split_range_text(text: str) -> tuple[str, str] | None:
    """``RANGE@UP`` as (range text, up cards): an "@" whose tail is card text or
    nothing; ``None`` for any other text ("KK@0.5" alone is a weight in range text).

    >>> split_range_text("split, buried@Kc"), split_range_text("KK@0.5")
    (('split, buried', 'Kc'), None)
    """
    if "@" not in text:
        return None
    spec, _, tail = text.rpartition("@")
    if tail.strip():
        try:
            parse_cards(tail.replace(",", " "))
        except StudevalError:
            return None
    return spec, tail


def _every_combination(width: int, out: set[int]) -> np.ndarray:
    live = np.array([c for c in range(52) if c not in out], dtype=np.uint8)
    if len(live) < width:
        return np.zeros((0, width), dtype=np.uint8)
    index = np.array(list(itertools.combinations(range(len(live)), width)), dtype=np.intp)
    return live[index]


def combination_keys(hidden: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint64]:
    """One integer per combination: the set of its cards as bits (a range's
    combinations are in the order of these keys)."""
    return (np.uint64(1) << hidden.astype(np.uint64)).sum(axis=1, dtype=np.uint64)


def _frozen(array: np.ndarray) -> np.ndarray:
    """``array`` (a new one, which nothing else holds) read-only for good: a view of
    it read-only, whose flag numpy will not set back (an array that owns its data
    may be made writable again)."""
    out = np.ascontiguousarray(array)
    out.flags.writeable = False
    view = out.view()
    view.flags.writeable = False
    return view


def _text_of(codes: Iterable[int]) -> str:
    return " ".join(TEXT_OF_CODE[int(c)] for c in codes)
