"""studeval.parse_hands: hand texts and card sequences to a batch, errors naming the row."""

from __future__ import annotations

import sys

import numpy as np
import pytest
from reference import high_rank as reference_high_rank

import studeval
from studeval.errors import (
    BatchShapeError,
    DuplicateCardError,
    HandSizeError,
    InvalidCardError,
    StudevalError,
)
from studeval.stream import random_hands

NAMES = [r + s for r in "23456789TJQKA" for s in "cdhs"]


def test_texts_become_the_batch_rows() -> None:
    hands = random_hands(5000, seed=11)
    texts = [" ".join(NAMES[c] for c in row) for row in hands.tolist()]
    parsed = studeval.parse_hands(texts)
    assert parsed.dtype == np.uint8 and parsed.shape == (5000, 7)
    assert np.array_equal(parsed, hands)
    # And they rank as the reference ranks the same cards.
    ranks = studeval.high_ranks(parsed[:50])
    assert ranks.tolist() == [reference_high_rank(row) for row in hands[:50].tolist()]


def test_every_card_text_and_sequence_form() -> None:
    expected = [[51, 45, 22, 0, 7, 29, 34]] * 5
    rows = [
        "As Kd 7h 2c 3s 9d Th",
        "AsKd7h2c3s9d10h",
        ["As", "Kd", "7h", "2c", "3s", "9d", "Th"],
        (51, 45, 22, 0, 7, 29, 34),
        np.array([51, 45, 22, 0, 7, 29, 34]),
    ]
    assert studeval.parse_hands(rows).tolist() == expected
    assert studeval.parse_hands(iter(rows[:2])).tolist() == expected[:2]
    assert studeval.parse_hands("As Kd 7h 2c 3s 9d Th\n\nAc 2d 3h 4s 5c Kd Kh\n").shape == (2, 7)
    assert studeval.parse_hands([]).shape == (0, 5)


@pytest.mark.parametrize(
    ("rows", "error", "message"),
    [
        (["As Kd 7h 2c 3s", "As Kd 7h 2c As"], DuplicateCardError, "duplicate card As in row 1"),
        (["As Kd 7h 2c 3s", "As Kd 7h 2c Xx"], InvalidCardError, "'Xx' in row 1"),
        (["As Kd 7h 2c 3s", "As Kd 7h 2c 3s 4s"], HandSizeError, "6 cards in row 1"),
        (["As Kd 7h 2c 3s", "", "As Kd 7h 2c 3s"], HandSizeError, "0 cards in row 1"),
        (["As Kd 7h 2c 3s", "2c 3c\n4c 5c 6c"], InvalidCardError, "in row 1 (one hand per item"),
        (["As Kd 7h 2c 3s", "   "], HandSizeError, "0 cards in row 1"),
        ([[0, 1, 2, 3, 4], [0, 1, 2, 3]], HandSizeError, "4 cards in row 1"),
        ([[0, 1, 2, 3, 4], [0, 1, 2, 3, 99]], InvalidCardError, "99 in row 1"),
        ([[0, 1, 2, 3, 4], [0, 1, 2, 3, True]], InvalidCardError, "True in row 1"),
    ],
)
def test_errors_name_the_row(rows: list[object], error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=".*".join(map(__import__("re").escape, message.split("*")))):
        studeval.parse_hands(rows)


def test_a_blank_row_never_shifts_the_rows() -> None:
    """A text path that skips blank items like blank lines would move rows up silently."""
    rows = ["As Ks Qs Js Ts 2c 3d"] * 3
    rows[1] = ""
    with pytest.raises(HandSizeError) as caught:
        studeval.parse_hands(rows)
    assert caught.value.row == 1


def test_not_an_iterable() -> None:
    with pytest.raises(BatchShapeError):
        studeval.parse_hands(7)
    with pytest.raises(StudevalError):
        studeval.parse_hands([7, 8])


def _foreign_cards(module: str):
    """Card objects made by another installed library, and the texts they stand for."""
    texts = ["As", "Kd", "7h", "2c", "3s", "9d", "Th"]
    lib = __import__(module)  # in the test extra: a missing one is a failure
    if module == "pokerkit":
        return [next(iter(lib.Card.parse(t))) for t in texts], texts
    return [lib.Card(t) for t in texts], texts


@pytest.mark.parametrize(
    "module",
    [
        "eval7",
        "pkrbot",
        pytest.param(
            "pokerkit",
            marks=pytest.mark.skipif(
                sys.version_info < (3, 11), reason="pokerkit needs Python 3.11 (not in the extra)"
            ),
        ),
    ],
)
def test_card_objects_of_other_libraries(module: str) -> None:
    cards, texts = _foreign_cards(module)
    codes = studeval.parse_cards(texts)
    assert studeval.parse_cards(cards) == codes
    assert studeval.high_rank(cards) == studeval.high_rank(texts) == 6267
    assert studeval.parse_hands([cards, cards]).tolist() == [codes, codes]
    assert studeval.bring_in([cards[0], cards[1]], "stud") == 1
