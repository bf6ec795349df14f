"""Game names: the four games, the PHH codes, and the refused bare "stud_hilo"."""

from __future__ import annotations

import pytest

import studeval
from studeval.errors import UnknownGameError
from studeval.games import check_game

HANDS = ["Ac 2d 3h 4s 5c Kd Kh", "Ks Kc Qd Qh 9s 8s 7c"]


@pytest.mark.parametrize(("alias", "game"), [("F7S", "stud"), ("F7S/8", "stud8"), ("FR", "razz")])
def test_phh_codes_name_the_games(alias: str, game: str) -> None:
    assert check_game(alias) == game
    # Every function that takes a game takes the code and reports the real name.
    assert studeval.settle(HANDS, [10, 10], alias).game == game
    assert studeval.bring_in(["Kd", "3c"], alias) == studeval.bring_in(["Kd", "3c"], game)


@pytest.mark.parametrize("name", ["stud_hilo", "Stud_HiLo", "stud-hi-lo", "stud_hi_lo"])
def test_bare_stud_hilo_names_both_choices(name: str) -> None:
    with pytest.raises(UnknownGameError) as caught:
        studeval.settle(HANDS, [10, 10], name)
    message = str(caught.value)
    assert "'stud8'" in message and "'stud_hilo_noq'" in message
    assert isinstance(caught.value, ValueError) and caught.value.game == name


def test_no_qualifier_game_always_splits() -> None:
    # A 9-low: no low in stud8 (the high scoops), half the pot in stud_hilo_noq.
    hands = ["9c 7d 5h 4s 3c Kd Qh", "Ks Kc Qd Jh Ts 8s 8c"]
    assert studeval.settle(hands, [50, 50], "stud8").payouts == [0, 100]
    assert studeval.settle(hands, [50, 50], "stud_hilo_noq").payouts == [50, 50]


@pytest.mark.parametrize("name", ["f7s", "F7S/8 ", "holdem", "", None, 7])
def test_other_names_are_unknown(name: object) -> None:
    with pytest.raises(UnknownGameError, match="expected one of"):
        check_game(name)
