"""Action rules: bring-in, first to act, fourth-street open pair, house rules, games.

Each test names the rule it checks and where the rule comes from: Robert's Rules
of Poker ("Robert's"), the WSOP 2024 tournament rules ("WSOP TR") and live-action
rules ("WSOP LAR"), with their rule numbers, and the house rules card rooms publish.
"""

from __future__ import annotations

import dataclasses

import pytest

import studeval
from studeval import HouseRules, bring_in, first_to_act, open_pair
from studeval.errors import (
    DuplicateCardError,
    HandSizeError,
    InvalidCardError,
    SeatError,
    UnknownGameError,
)
from studeval.games import GAMES, card_key, check_game, get_game

ROBERT = HouseRules.robert()
WSOP = HouseRules.wsop()
PRESETS = pytest.mark.parametrize("rules", [ROBERT, WSOP], ids=["robert", "wsop"])
HIGH_GAMES = pytest.mark.parametrize("game", ["stud", "stud8"])
LOW_GAMES = pytest.mark.parametrize("game", ["razz", "stud_hilo_noq"])


# ---- games as data ---------------------------------------------------------------


def test_games_table_matches_spec_section_1() -> None:
    """Four games; which are high, low, split, and whose low must qualify (WSOP LAR 233-241)."""
    assert set(GAMES) == {"stud", "stud8", "razz", "stud_hilo_noq"}
    assert studeval.GAME_NAMES == ("stud", "stud8", "razz", "stud_hilo_noq")
    props = {name: (g.high, g.low, g.split, g.low_must_qualify) for name, g in GAMES.items()}
    assert props == {
        "stud": (True, None, False, False),
        "stud8": (True, "low8", True, True),
        "razz": (False, "low", False, False),
        "stud_hilo_noq": (True, "low", True, False),
    }


def test_only_stud_has_the_open_pair_rule() -> None:
    """WSOP LAR 233/236/237: an open pair never changes the limit in Razz or Stud/8."""
    assert [name for name, g in GAMES.items() if g.open_pair] == ["stud"]


@pytest.mark.parametrize("bad", ["Stud", "holdem", "", None, 3, "razz "])
def test_check_game_rejects_other_names(bad: object) -> None:
    with pytest.raises(UnknownGameError) as info:
        check_game(bad)
    assert info.value.game == bad


def test_get_game_returns_the_record() -> None:
    assert get_game("razz") is GAMES["razz"]
    assert check_game("stud_hilo_noq") == "stud_hilo_noq"


def test_card_key_orders() -> None:
    """Ace high: 2c lowest, As highest; ace low: Ac lowest, Ks highest (WSOP LAR 235)."""
    deck = range(52)
    assert min(deck, key=lambda c: card_key(c, "ace_high")) == studeval.parse_card("2c")
    assert max(deck, key=lambda c: card_key(c, "ace_high")) == studeval.parse_card("As")
    assert min(deck, key=lambda c: card_key(c, "ace_low")) == studeval.parse_card("Ac")
    assert max(deck, key=lambda c: card_key(c, "ace_low")) == studeval.parse_card("Ks")
    assert sorted(card_key(c, "ace_low") for c in deck) == list(deck)


# ---- house rules -----------------------------------------------------------------


def test_robert_is_the_default() -> None:
    assert HouseRules() == ROBERT
    assert (
        HouseRules(
            bring_in_tie="suit",
            action_tie="position",
            open_pair_big_bet=True,
            odd_chip_cards="all",
            odd_chip_low="low_card",
        )
        == ROBERT
    )


def test_wsop_preset_values() -> None:
    """WSOP TR 2024: suit breaks board ties, no double bet, high card by suit in 5 cards."""
    assert (
        HouseRules(
            bring_in_tie="suit",
            action_tie="suit",
            open_pair_big_bet=False,
            odd_chip_cards="played",
            odd_chip_low="high_card",
        )
        == WSOP
    )


def test_house_rules_are_frozen_and_hashable() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        ROBERT.action_tie = "suit"  # type: ignore[misc]
    assert len({ROBERT, WSOP, HouseRules()}) == 2
    assert dataclasses.replace(ROBERT, open_pair_big_bet=False).open_pair_big_bet is False


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("bring_in_tie", "seat"),
        ("action_tie", "high_card"),
        ("open_pair_big_bet", 1),
        ("odd_chip_cards", 5),
        ("odd_chip_low", "lowest"),
    ],
)
def test_house_rules_reject_unknown_choices(field: str, value: object) -> None:
    with pytest.raises(ValueError, match=f"HouseRules.{field} must be one of"):
        HouseRules(**{field: value})


def test_rules_argument_is_house_rules_or_a_preset_name() -> None:
    # "2c" and "2d" tie on rank: the bring-in depends on the tie rule.
    position = HouseRules(bring_in_tie="position")
    assert bring_in(["2d", "2c"], "stud", rules="wsop") == 1  # by suit: clubs lowest
    assert bring_in(["2d", "2c"], "stud", rules="robert") == 1
    assert bring_in(["2d", "2c"], "stud", rules=position) == 0
    for bad in ("tda", 5, True, {"bring_in_tie": "suit"}):
        with pytest.raises(
            studeval.RulesError, match="'robert', 'wsop', 'pokerkit' or None"
        ) as caught:
            bring_in(["2c", "3c"], "stud", rules=bad)  # type: ignore[arg-type]
        assert isinstance(caught.value, TypeError) and isinstance(caught.value, ValueError)


# ---- bring-in ------------------------------------------------------------------------


@PRESETS
@HIGH_GAMES
def test_bring_in_high_games_lowest_door_card_ace_high(game: str, rules: HouseRules) -> None:
    """Robert's r.1 / WSOP LAR 240: the lowest upcard brings in; an ace counts high."""
    assert bring_in(["Ac", "3d", "Kh", "9s"], game, rules=rules) == 1


@PRESETS
@HIGH_GAMES
def test_bring_in_high_games_tie_by_suit_clubs_lowest(game: str, rules: HouseRules) -> None:
    """Robert's "lowest upcard by suit" and WSOP LAR 146: suits rank s > h > d > c."""
    assert bring_in(["3d", "3s", "3c", "3h"], game, rules=rules) == 2
    assert bring_in(["3d", "3s", "3h"], game, rules=rules) == 0


@PRESETS
@LOW_GAMES
def test_bring_in_low_games_highest_door_card_ace_low(game: str, rules: HouseRules) -> None:
    """WSOP LAR 235: in Razz the highest card brings in; the ace is low, so never brings in."""
    assert bring_in(["Qh", "Kc", "9s"], game, rules=rules) == 1
    assert bring_in(["Ac", "2d"], game, rules=rules) == 1


@PRESETS
@LOW_GAMES
def test_bring_in_low_games_tie_by_suit_spades_highest(game: str, rules: HouseRules) -> None:
    """Razz: the king of spades is the highest card (suit order is not reversed)."""
    assert bring_in(["Kh", "Ks", "Kd", "Kc"], game, rules=rules) == 1
    assert bring_in(["Ad", "Ac"], game, rules=rules) == 0  # Ad outranks Ac


def test_bring_in_position_option_seed_003() -> None:
    """House rules that tie by position: the tied seat nearest the dealer's left brings in."""
    position = HouseRules(bring_in_tie="position")
    assert bring_in(["9h", "3s", "Kd", "3c"], "stud", rules=position) == 1
    assert bring_in(["9h", "3s", "Kd", "3c"], "stud") == 3
    assert bring_in(["Kc", "Ks", "2d"], "razz", rules=position) == 0
    assert bring_in(["Kc", "Ks", "2d"], "razz") == 1


def test_bring_in_skips_empty_seats_and_takes_codes() -> None:
    assert bring_in([None, 51, None, 0], "stud") == 3
    assert bring_in([None, "5h", None, "9c"], "stud") == 1


def test_bring_in_needs_two_to_eight_players() -> None:
    """Stud deals two to eight players: one door card, or nine, is no stud deal."""
    for doors in (["5h"], [None, "5h", None], [f"{r}c" for r in "23456789T"]):
        with pytest.raises(SeatError, match="a stud hand has 2 to 8 players"):
            bring_in(doors, "stud")
    assert bring_in([f"{r}c" for r in "3456789T"], "stud") == 0


def test_bring_in_errors() -> None:
    with pytest.raises(DuplicateCardError) as info:
        bring_in(["7h", "2c", "7h"], "stud")
    assert info.value.seat == 2
    assert "also at seat 0" in str(info.value)
    with pytest.raises(SeatError, match="no live seat"):
        bring_in([None, None], "stud")
    with pytest.raises(SeatError):
        bring_in([], "stud")
    with pytest.raises(SeatError, match="one entry per seat"):
        bring_in("7h 2c", "stud")  # type: ignore[arg-type]
    with pytest.raises(HandSizeError) as size:
        bring_in(["7h", "As Kd"], "stud")
    assert size.value.seat == 1
    with pytest.raises(InvalidCardError, match="at seat 1"):
        bring_in(["7h", "1x"], "stud")
    with pytest.raises(InvalidCardError, match="at seat 0"):
        bring_in([["7h"], "2c"], "stud")  # type: ignore[list-item]
    with pytest.raises(UnknownGameError):
        bring_in(["7h", "2c"], "omaha")


# ---- first to act on 4th-7th street ------------------------------------------------


@PRESETS
@HIGH_GAMES
def test_first_to_act_high_games_best_poker_hand_showing(game: str, rules: HouseRules) -> None:
    """Robert's r.1: "the high hand on board initiates the action"; a pair beats A-K."""
    assert first_to_act([["Ah", "Kd"], ["4c", "4d"], ["Qs", "Js"]], game, rules=rules) == 1
    assert first_to_act([["Ah", "2d"], ["Kc", "Qd"]], game, rules=rules) == 0


@PRESETS
@HIGH_GAMES
def test_first_to_act_high_games_ignore_straights_and_flushes(game: str, rules: HouseRules) -> None:
    """House rules: "straights and flushes do not count" on the board; a pair does."""
    boards = [["9h", "Th", "Jh", "Qh"], ["2c", "2d", "5s", "7h"], ["Ac", "Kd", "Qs", "Jc"]]
    assert first_to_act(boards, game, rules=rules) == 1


@PRESETS
@HIGH_GAMES
def test_first_to_act_high_games_counts_two_pair_and_trips(game: str, rules: HouseRules) -> None:
    boards = [["Ac", "Ad", "Kc", "Qs"], ["3c", "3d", "2c", "2d"], ["4c", "4d", "4h", "5c"]]
    assert first_to_act(boards, game, rules=rules) == 2
    assert first_to_act(boards[:2], game, rules=rules) == 1


@PRESETS
@LOW_GAMES
def test_first_to_act_low_games_best_low_showing(game: str, rules: HouseRules) -> None:
    """WSOP LAR 235: "the low hand acts first"; ace is low, pairs count against."""
    assert first_to_act([["Kc", "Qd"], ["Ac", "2d"], ["3c", "4d"]], game, rules=rules) == 1
    assert first_to_act([["2c", "2d"], ["8c", "7d"]], game, rules=rules) == 1
    assert first_to_act([["Ac", "7d"], ["2c", "7h"]], game, rules=rules) == 0


@PRESETS
@LOW_GAMES
def test_first_to_act_low_games_ignore_straights_and_flushes(game: str, rules: HouseRules) -> None:
    """A-5 low: 5-4-3-2 suited is still the best four-card low board."""
    boards = [["6c", "4d", "3s", "2s"], ["5h", "4h", "3h", "2h"]]
    assert first_to_act(boards, game, rules=rules) == 1


@pytest.mark.parametrize("game", ["stud", "stud8"])
def test_first_to_act_tie_by_position_robert(game: str) -> None:
    """Robert's r.1: "a tie is broken by position"; WSOP LAR 215: nearest the dealer's left."""
    boards = [None, ["Kc", "5d"], ["9s", "3h"], ["Ks", "5h"]]
    assert first_to_act(boards, game) == 1


@pytest.mark.parametrize("game", ["stud", "stud8"])
def test_first_to_act_tie_by_high_card_by_suit_wsop(game: str) -> None:
    """WSOP TR 2023-24: a tie for high board is broken by high card by suit."""
    boards = [None, ["Kc", "5d"], ["9s", "3h"], ["Ks", "5h"]]
    assert first_to_act(boards, game, rules=WSOP) == 3
    pairs = [["9h", "9d", "2c"], ["9s", "9c", "2d"]]
    assert first_to_act(pairs, game, rules=WSOP) == 1
    assert first_to_act(pairs, game) == 0


@LOW_GAMES
def test_first_to_act_low_board_tie_position_and_suit(game: str) -> None:
    """Tied low boards: position (Robert's); by suit the lower card acts first (decided)."""
    boards = [["6s", "2c"], ["6c", "2d"]]
    assert first_to_act(boards, game) == 0
    assert first_to_act(boards, game, rules=WSOP) == 1


def test_first_to_act_all_in_high_board_passes_clockwise() -> None:
    """WSOP LAR 240: if the high hand is all-in, action proceeds clockwise from it."""
    boards = [["Qc", "Jd"], ["2c", "3d"], ["Ac", "Ad"], None, ["5c", "6d"]]
    assert first_to_act(boards, "stud") == 2
    assert first_to_act(boards, "stud", all_in=[2]) == 4  # seat 3 is empty
    assert first_to_act(boards, "stud", all_in=[2, 4]) == 0  # wraps past the dealer
    assert first_to_act(boards, "stud", all_in=(4,)) == 2


def test_first_to_act_all_in_tie_winner_passes_to_next_seat_not_other_tied_seat() -> None:
    """The tied seat nearest the dealer is high; if it is all-in, the next seat acts."""
    boards = [["Kc", "5d"], ["2c", "3d"], ["Ks", "5h"]]
    assert first_to_act(boards, "stud", all_in=[0]) == 1


def test_first_to_act_everyone_all_in_is_none() -> None:
    boards = [["Kc", "5d"], None, ["Ks", "5h"]]
    assert first_to_act(boards, "razz", all_in=[0, 2]) is None


def test_first_to_act_errors() -> None:
    with pytest.raises(HandSizeError, match="2 up cards, as at seat 0") as info:
        first_to_act([["Ah", "2c"], ["Kd"]], "stud")
    assert info.value.seat == 1
    with pytest.raises(HandSizeError):
        first_to_act([["Ah", "2c", "3c", "4c", "5c"]], "stud")
    with pytest.raises(HandSizeError):
        first_to_act([[]], "stud")
    with pytest.raises(DuplicateCardError) as dup:
        first_to_act([["Ah", "2c"], ["Kd", "Ah"]], "stud")
    assert dup.value.seat == 1
    with pytest.raises(DuplicateCardError, match="twice in this hand"):
        first_to_act([["Ah", "Ah"]], "stud")
    with pytest.raises(SeatError, match="no live seat"):
        first_to_act([None], "stud")
    with pytest.raises(SeatError, match="not a seat"):
        first_to_act([["Ah", "2c"]], "stud", all_in=[1])
    with pytest.raises(SeatError, match="folded or empty"):
        first_to_act([["Ah", "2c"], None], "stud", all_in=[1])
    with pytest.raises(SeatError, match="seat indices are ints"):
        first_to_act([["Ah", "2c"]], "stud", all_in=["0"])  # type: ignore[list-item]
    with pytest.raises(UnknownGameError):
        first_to_act([["Ah", "2c"]], "badugi")


# ---- fourth-street open pair -------------------------------------------------------


def test_open_pair_stud_allows_big_bet_robert() -> None:
    """Robert's r.4 and WSOP LAR 220: an open pair on fourth street lets anyone bet big."""
    assert open_pair([["Ah", "Kd"], ["9c", "9d"], None], "stud") is True
    assert open_pair([["Ah", "Kd"], ["9c", "8d"], None], "stud") is False


def test_open_pair_dropped_in_wsop_tournaments() -> None:
    """WSOP TR 2022-24: participants do not have the option of the upper limit."""
    assert open_pair([["Ah", "Kd"], ["9c", "9d"]], "stud", rules=WSOP) is False


@PRESETS
@pytest.mark.parametrize("game", ["stud8", "razz", "stud_hilo_noq"])
def test_open_pair_never_in_other_games(game: str, rules: HouseRules) -> None:
    """WSOP LAR 233/236/237: in stud/8 and razz a visible pair does not affect the limit."""
    assert open_pair([["9c", "9d"], ["Ah", "Kd"]], game, rules=rules) is False


def test_open_pair_errors() -> None:
    with pytest.raises(HandSizeError, match="fourth street"):
        open_pair([["9c", "9d", "2h"]], "stud")
    with pytest.raises(DuplicateCardError):
        open_pair([["9c", "9d"], ["9d", "2h"]], "stud")
    with pytest.raises(SeatError):
        open_pair([None, None], "stud")
    # Bad input raises even in games where the rule never applies.
    with pytest.raises(HandSizeError):
        open_pair([["9c"]], "razz")
