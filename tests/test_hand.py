"""``Hand``: parsing, value semantics, and ranks that agree with the core functions."""

from __future__ import annotations

import copy
import pickle

import pytest

import studeval
from studeval import Hand
from studeval.errors import DuplicateCardError, HandSizeError, InvalidCardError


def test_parse_accepts_every_card_text() -> None:
    """Cards as codes, strings, or one string (spaced, comma-separated or concatenated)."""
    codes = studeval.parse_cards("As Kd 7h")
    assert Hand("As Kd 7h").cards == tuple(codes)
    assert Hand("AsKd7h") == Hand(["As", "Kd", "7h"]) == Hand(codes) == Hand.parse("as,kd,7H")
    assert Hand(Hand("As Kd")).cards == Hand("As Kd").cards
    assert Hand("10h").cards == (studeval.parse_card("Th"),)


def test_str_and_repr_keep_the_given_order() -> None:
    hand = Hand("2c As 9d")
    assert str(hand) == "2c As 9d"
    assert repr(hand) == "Hand('2c As 9d')"
    assert list(hand) == [0, 51, 29]
    assert len(hand) == 3


def test_equality_and_hash_by_cards_only() -> None:
    """Two hands with the same cards are equal whatever the order they were given in."""
    a, b = Hand("As Kd 7h"), Hand("7h As Kd")
    assert a == b
    assert hash(a) == hash(b)
    assert len({a, b, Hand("As Kd 7c")}) == 2
    assert a != Hand("As Kd")
    assert a != "As Kd 7h"
    assert (a == "As Kd 7h") is False


def test_contains() -> None:
    hand = Hand("As Kd 7h")
    assert "As" in hand
    assert 51 in hand
    assert "2c" not in hand
    assert "junk" not in hand
    assert 99 not in hand


def test_hand_is_immutable_and_copies_by_value() -> None:
    hand = Hand("As Kd 7h")
    with pytest.raises(AttributeError, match="immutable"):
        hand._cards = ()  # type: ignore[misc]
    with pytest.raises(AttributeError, match="immutable"):
        hand.extra = 1  # type: ignore[attr-defined]
    with pytest.raises(AttributeError, match="immutable"):
        del hand._cards
    with pytest.raises(AttributeError):
        hand.cards = ()  # type: ignore[misc]
    assert pickle.loads(pickle.dumps(hand)) == hand
    assert copy.deepcopy(hand).cards == hand.cards


@pytest.mark.parametrize(
    "text",
    [
        "Kc Kd 5h 5s 9c 2d 3h",
        "As Ks Qs Js Ts 2c 3d",
        "Ac 2d 3h 4s 5c Kd Kh",
        "9c Td Jh Qs Kc 2d 2h",
        "7c 5d 4h 2s Ac",
        "Ah Ad Ac Kh Kd Qs",
    ],
)
def test_ranks_and_descriptions_agree_with_the_core(text: str) -> None:
    hand = Hand(text)
    assert hand.high_rank == studeval.high_rank(text)
    assert hand.low_rank == studeval.low_rank(text)
    assert hand.low8_rank == studeval.low8_rank(text)
    assert hand.high_description == studeval.describe_high(studeval.high_rank(text))
    assert hand.low_description == studeval.describe_low(studeval.low_rank(text))
    low8 = studeval.low8_rank(text)
    expected = None if low8 is None else studeval.describe_low(low8)
    assert hand.low8_description == expected
    for ranking in ("high", "low", "low8"):
        assert hand.best_five(ranking).cards == tuple(studeval.best_five(text, ranking))


def test_known_values() -> None:
    hand = Hand("Kc Kd 5h 5s 9c 2d 3h")
    assert hand.high_description == "Two Pair, Kings and Fives"
    assert hand.low8_rank is None
    assert Hand("As Ks Qs Js Ts").high_rank == 1
    assert Hand("5c 4d 3h 2s Ac").low_rank == 1
    assert Hand("7c 5d 4h 2s Ac Qd Jh").low_description == "7-5-4-2-A"


def test_up_card_ranks_agree_with_the_core() -> None:
    for text in ("Ac", "Kc Kd", "Ac 2d 3h", "9c 9d 9h 2s"):
        assert Hand(text).up_high_rank == studeval.up_high_rank(text)
        assert Hand(text).up_low_rank == studeval.up_low_rank(text)
    assert Hand("Ac Ad").up_high_rank < Hand("Kc Kd").up_high_rank
    assert Hand("Ac 2d").up_low_rank < Hand("Kc Kd").up_low_rank


def test_bad_input() -> None:
    with pytest.raises(DuplicateCardError) as info:
        Hand("As Kd As")
    assert info.value.card == 51
    with pytest.raises(HandSizeError):
        Hand("")
    with pytest.raises(HandSizeError):
        Hand("2c 3c 4c 5c 6c 7c 8c 9c")
    with pytest.raises(InvalidCardError):
        Hand("As Xx")
    with pytest.raises(InvalidCardError):
        Hand([52])


def test_ranks_need_five_to_seven_cards() -> None:
    with pytest.raises(HandSizeError):
        _ = Hand("As Kd 7h").high_rank
    with pytest.raises(HandSizeError):
        _ = Hand("As Kd 7h 2c 3c").up_high_rank


def test_hand_works_where_a_hand_is_taken() -> None:
    assert studeval.high_rank(Hand("As Ks Qs Js Ts")) == 1
    assert studeval.bring_in([Hand("7h").cards[0], "2c"], "stud") == 1
    assert studeval.first_to_act([Hand("Ah Ad"), Hand("Kh Kd")], "stud") == 0
