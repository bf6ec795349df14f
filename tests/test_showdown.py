"""Showdown settlement: winners per game, side pots, odd chips, the community card.

Rule sources in test names and docstrings: Robert's Rules of Poker, its "Rules of
Seven-Card Stud" and "Ties" ("Robert's"), the WSOP 2024 tournament rules ("WSOP
TR") and the WSOP live-action rules ("WSOP LAR", with their rule numbers).
"""

from __future__ import annotations

import dataclasses
import random

import pytest

import studeval
from studeval import HouseRules, Pot, Settlement, award_pot, settle
from studeval.errors import (
    ChipError,
    DuplicateCardError,
    HandSizeError,
    InvalidCardError,
    SeatError,
    UnknownGameError,
)

ROBERT = HouseRules.robert()
WSOP = HouseRules.wsop()
PRESETS = pytest.mark.parametrize("rules", [ROBERT, WSOP], ids=["robert", "wsop"])

# Hands used across tests (seven distinct cards each, distinct within a test).
KINGS_FIVES = "Kc Kd 5h 5s 9c 2d 3h"  # two pair, no 8-or-better low
SEVEN_LOW = "7c 5d 4h 2s Ac Qd Jh"  # ace high; 7-5-4-2-A low
TRIP_ACES = "Ac Ad Ah 2c 3d 7s 9h"
QUEENS_FOURS = "Qs Qh 4d 4c 8s Jc 6d"


def _check_totals(result: Settlement, contributions: list[int]) -> None:
    assert sum(result.payouts) == sum(contributions)
    assert all(p >= 0 for p in result.payouts)
    assert sum(pot.amount for pot in result.pots) + sum(result.returned) == sum(contributions)
    for pot in result.pots:
        assert sum(pot.shares) == pot.amount


# ---- who wins, per game --------------------------------------------------------------


@PRESETS
def test_stud_best_high_hand_wins_whole_pot(rules: HouseRules) -> None:
    """Robert's, seven-card stud: the best high hand wins the pot."""
    hands = [KINGS_FIVES, "Ah As 7c 8d Js 4c 6h", "Qs Qh Qd 2c 3s 9d Th"]
    result = settle(hands, [50, 50, 50], "stud", rules=rules)
    assert result.payouts == [0, 0, 150]
    (pot,) = result.pots
    assert pot.high_winners == (2,)
    assert pot.low_winners == ()
    assert pot.eligible == (0, 1, 2)
    _check_totals(result, [50, 50, 50])


@PRESETS
def test_razz_best_ace_to_five_low_wins(rules: HouseRules) -> None:
    """WSOP LAR 235: in razz the best A-5 low wins; the wheel beats 6-4-3-2-A."""
    hands = ["Ac 2d 3h 4s 6c Kd Kh", "As 2c 3d 4h 5c Qd Qh"]
    result = settle(hands, [50, 50], "razz", rules=rules)
    assert result.payouts == [0, 100]
    assert result.pots[0].low_winners == (1,)
    assert result.pots[0].high_winners == ()


@PRESETS
def test_stud8_splits_high_and_qualifying_low_odd_chip_to_high(rules: HouseRules) -> None:
    """WSOP TR 73 and Robert's "Ties": the high half gets the odd chip of a split."""
    result = settle([KINGS_FIVES, SEVEN_LOW, None], [40, 40, 23], "stud8", rules=rules)
    assert result.payouts == [52, 51, 0]
    (pot,) = result.pots
    assert (pot.amount, pot.high_winners, pot.low_winners) == (103, (0,), (1,))
    assert pot.high_shares == (52, 0, 0)
    assert pot.low_shares == (0, 51, 0)
    assert pot.odd_chips == 1


def test_a_house_may_give_the_odd_chip_of_a_split_to_the_low_half() -> None:
    """The Winning Poker Network's older software pays the low half the odd chip."""
    low_house = HouseRules(odd_chip_half="low")
    result = settle([KINGS_FIVES, SEVEN_LOW, None], [40, 40, 23], "stud8", rules=low_house)
    assert result.payouts == [51, 52, 0]
    assert result.pots[0].low_shares == (0, 52, 0) and result.pots[0].odd_chips == 1
    # A scoop has no halves: the option changes nothing.
    scoop = settle([KINGS_FIVES, "Ac Qd Jh Ts 9h 6c 6d"], [51, 50], "stud8", rules=low_house)
    assert scoop.payouts == [101, 0]


@PRESETS
def test_stud8_without_qualifying_low_high_scoops(rules: HouseRules) -> None:
    """WSOP LAR 238-241: in stud/8, when no low qualifies the high takes the whole pot."""
    hands = [KINGS_FIVES, "Ac Qd Jh Ts 9h 6c 6d"]
    result = settle(hands, [50, 50], "stud8", rules=rules)
    assert result.payouts == [100, 0]
    assert result.pots[0].low_winners == ()
    assert "no low qualifies" in str(result)


@PRESETS
def test_stud_hilo_always_splits_even_a_nine_low(rules: HouseRules) -> None:
    """Hi/lo with no qualifier (WSOP TR's "Regular" Stud Hi/Lo) pays half to the best A-5
    low, qualifying or not; stud8 does not."""
    hands = ["Kc Kd Ks 9h 9c 2d 3h", "Qc Jd Th 9s 7c 6h 5d"]
    hilo = settle(hands, [50, 51], "stud_hilo_noq", rules=rules)
    # Seat 1's unmatched chip comes back; the 100 left split 50/50.
    assert hilo.returned == [0, 1]
    assert hilo.payouts == [50, 51]
    assert (hilo.pots[0].high_winners, hilo.pots[0].low_winners) == ((0,), (1,))
    eight = settle(hands, [50, 50], "stud8", rules=rules)
    assert eight.payouts == [100, 0]


@PRESETS
def test_one_seat_may_win_both_halves(rules: HouseRules) -> None:
    """Robert's, stud/8: a wheel is both a straight for high and the best low: it scoops."""
    hands = ["Ac 2d 3h 4s 5c Kd Kh", "Qc Qd Jh Js 9c 8d 7h"]
    result = settle(hands, [60, 60], "stud8", rules=rules)
    assert result.payouts == [120, 0]
    assert result.pots[0].high_winners == result.pots[0].low_winners == (0,)
    assert "scoops 120" in str(result)


@PRESETS
def test_suits_never_break_a_tie_for_the_pot(rules: HouseRules) -> None:
    """Robert's "Ties" and WSOP LAR r.146: same-rank flushes in different suits split."""
    hands = ["Ah Kh 9h 7h 4h 2c 3d", "As Ks 9s 7s 4s 2d 3c"]
    result = settle(hands, [50, 50], "stud", rules=rules)
    assert result.payouts == [50, 50]
    assert result.pots[0].high_winners == (0, 1)
    assert result.pots[0].odd_chips == 0


def test_lone_live_seat_wins_uncontested() -> None:
    result = settle([KINGS_FIVES, None, None], [20, 20, 5], "stud8")
    assert result.payouts == [45, 0, 0]
    (pot,) = result.pots
    assert pot.eligible == (0,)
    assert str(result) == "Main pot of 45: Seat 0 wins 45 uncontested"


def test_no_chips_settles_to_zero() -> None:
    result = settle([KINGS_FIVES, SEVEN_LOW], [0, 0], "stud")
    assert result.payouts == [0, 0]
    assert result.pots == []
    assert str(result) == "No chips to settle"


# ---- side pots ---------------------------------------------------------------------------


@PRESETS
def test_short_all_in_wins_only_the_main_pot(rules: HouseRules) -> None:
    """A short all-in; Robert's "Ties": main and side pots are split as separate pots."""
    hands = [TRIP_ACES, KINGS_FIVES, QUEENS_FOURS]
    result = settle(hands, [30, 100, 100], "stud", rules=rules)
    assert result.payouts == [90, 140, 0]
    main, side = result.pots
    assert (main.name, main.amount, main.eligible, main.high_winners) == (
        "Main pot",
        90,
        (0, 1, 2),
        (0,),
    )
    assert (side.name, side.amount, side.eligible, side.high_winners) == (
        "Side pot 1",
        140,
        (1, 2),
        (1,),
    )
    _check_totals(result, [30, 100, 100])


@PRESETS
def test_several_all_ins_at_different_levels(rules: HouseRules) -> None:
    """Each contribution level forms a pot that only the seats who reached it can win."""
    hands = [
        "2c 2d 2h 2s 5c 6d 7h",  # quads: best, all-in for 10
        "Ah Jh 8h 6h 3h Qc Td",  # flush: third, all-in for 40
        "Kc Kd Kh 9c 9d 3c 4d",  # full house: second, all-in for 70
        "Ac As 8c 7d 5d Js 4s",  # one pair: worst, put in 100
    ]
    contributions = [10, 40, 70, 100]
    result = settle(hands, contributions, "stud", rules=rules)
    assert [(p.amount, p.eligible, p.high_winners) for p in result.pots] == [
        (40, (0, 1, 2, 3), (0,)),
        (90, (1, 2, 3), (2,)),
        (60, (2, 3), (2,)),
    ]
    assert result.returned == [0, 0, 0, 30]
    assert result.payouts == [40, 0, 150, 30]
    _check_totals(result, contributions)


@PRESETS
def test_folded_big_contributor_feeds_pots_but_wins_nothing(rules: HouseRules) -> None:
    """Robert's: a fold gives up the hand, not the chips already bet; only live seats win."""
    hands = [None, TRIP_ACES, KINGS_FIVES]
    result = settle(hands, [80, 50, 80], "stud", rules=rules)
    assert [(p.amount, p.eligible) for p in result.pots] == [(150, (1, 2)), (60, (2,))]
    assert result.payouts == [0, 150, 60]
    assert result.returned == [0, 0, 0]


def test_folded_small_contributions_join_the_main_pot() -> None:
    """Layers with the same eligible seats are one pot, not several."""
    result = settle([None, TRIP_ACES, KINGS_FIVES, None], [30, 100, 100, 5], "stud")
    assert [(p.amount, p.eligible) for p in result.pots] == [(235, (1, 2))]
    assert result.payouts == [0, 235, 0, 0]


@PRESETS
def test_uncalled_bet_is_returned(rules: HouseRules) -> None:
    """Robert's: a bet nobody called is returned to its owner (it was never in the pot)."""
    result = settle([KINGS_FIVES, TRIP_ACES], [100, 60], "stud", rules=rules)
    assert result.returned == [40, 0]
    assert result.payouts == [40, 120]
    assert [(p.amount, p.eligible) for p in result.pots] == [(120, (0, 1))]
    assert "Seat 0 takes back 40 unmatched" in str(result)


def test_folded_seat_gets_back_its_own_unmatched_chips() -> None:
    """Uncalled chips are returned before the showdown, even to a seat that then mucks."""
    result = settle([None, TRIP_ACES, KINGS_FIVES], [100, 60, 60], "stud")
    assert result.returned == [40, 0, 0]
    assert result.payouts == [40, 180, 0]


def test_dead_money_above_every_live_seat_joins_the_top_pot() -> None:
    """Decided reading: folded chips no live seat matched, if matched by another folded
    seat, are dead money for the last pot a live seat can win."""
    result = settle([None, None, TRIP_ACES, KINGS_FIVES], [90, 90, 50, 20], "stud")
    assert [(p.amount, p.eligible) for p in result.pots] == [(80, (2, 3)), (170, (2,))]
    assert result.payouts == [0, 0, 250, 0]


# ---- odd chips ---------------------------------------------------------------------------


def test_two_way_tie_odd_chip_to_highest_card_by_suit() -> None:
    """Robert's: in high games the odd chip goes to the highest card by suit."""
    hands = ["Ah Kh 9h 7h 4h 2c 3d", "As Ks 9s 7s 4s 2d 3c"]
    for rules in (ROBERT, WSOP):
        pot = award_pot(hands, 101, "stud", rules=rules)
        assert pot.shares == (50, 51)
        assert pot.odd_chips == 1


# Two nine-high straights; seat 0 also holds the As, which does not play.
STRAIGHTS = ["9c 8d 7h 6c 5d As 2h", "9s 8c 7d 6h 5h 3c 2d"]


def test_odd_chip_robert_counts_a_card_outside_the_best_five() -> None:
    """Robert's: "all cards are used, not just the five" - the unused As decides."""
    assert award_pot(STRAIGHTS, 25, "stud").shares == (13, 12)


def test_odd_chip_wsop_counts_only_the_five_that_play() -> None:
    """WSOP LAR r.149 / TR r.73: only the five cards that make the hand; 9s beats 9c."""
    assert award_pot(STRAIGHTS, 25, "stud", rules=WSOP).shares == (12, 13)


def test_odd_chip_options_are_independent() -> None:
    played = HouseRules(odd_chip_cards="played")
    assert award_pot(STRAIGHTS, 25, "stud", rules=played).shares == (12, 13)
    wsop_all = dataclasses.replace(WSOP, odd_chip_cards="all")
    assert award_pot(STRAIGHTS, 25, "stud", rules=wsop_all).shares == (13, 12)


# Three ten-high straights, no flush; the tens rank Th > Td > Tc.
THREE_STRAIGHTS = ["Tc 9c 8d 7d 6h 2s 3s", "Td 9d 8h 7h 6s 2c 3c", "Th 9h 8s 7s 6c 2d 4d"]


@PRESETS
def test_three_way_tie_two_odd_chips_one_per_seat(rules: HouseRules) -> None:
    """Robert's: "No player may receive more than one odd chip"; order by high card by suit."""
    pot = award_pot(THREE_STRAIGHTS, 50, "stud", rules=rules)
    assert pot.shares == (16, 17, 17)
    assert pot.odd_chips == 2
    assert award_pot(THREE_STRAIGHTS, 100, "stud", rules=rules).shares == (33, 33, 34)
    assert award_pot(THREE_STRAIGHTS, 99, "stud", rules=rules).shares == (33, 33, 33)


# Seat 0 flush for high; seats 1 and 2 tie with 7-5-4-2-A for low.
TIED_LOWS = ["Kh Qh 9h 6h 3h Kc Kd", "Ac 2d 4s 5c 7d Js Qs", "Ad 2c 4c 5s 7s Jd Tc"]


def test_hilo_tied_low_half_robert_lowest_card_by_suit() -> None:
    """Robert's: tied low hands split as in a low game - the lowest card by suit (Ac)."""
    result = settle(TIED_LOWS, [35, 34, 34], "stud8")
    # Seat 0's unmatched chip comes back; pot 102: high 51, low 51 -> 26 + 25.
    assert result.returned == [1, 0, 0]
    assert result.payouts == [52, 26, 25]
    pot = result.pots[0]
    assert pot.low_winners == (1, 2)
    assert pot.odd_chips == 1


def test_hilo_tied_low_half_wsop_highest_card_in_the_five() -> None:
    """WSOP LAR r.149: high card by suit in every game, five cards only: 7s beats 7d."""
    result = settle(TIED_LOWS, [35, 34, 34], "stud8", rules=WSOP)
    assert result.payouts == [52, 25, 26]


@PRESETS
def test_hilo_tied_low_half_even_split(rules: HouseRules) -> None:
    """Pot 101: the high half takes 51, the tied lows 25 each with no odd chip between them."""
    pot = award_pot(TIED_LOWS, 101, "stud_hilo_noq", rules=rules)
    assert pot.shares == (51, 25, 25)
    assert pot.odd_chips == 1


def test_hilo_high_winner_also_ties_for_low() -> None:
    """One seat takes the high half and shares the low half; odd chips per each preset."""
    hands = ["Ac 2c 3c 4c 5c Kd Kh", "As 2d 3d 4h 5h Qc Jd"]
    assert award_pot(hands, 100, "stud8").shares == (75, 25)
    # 103: high 52; low 51 splits 26/25. Robert's lowest card: Ac (seat 0).
    assert award_pot(hands, 103, "stud8").shares == (78, 25)
    # WSOP: highest card of the five low cards, ace low: 5h beats 5c.
    assert award_pot(hands, 103, "stud8", rules=WSOP).shares == (77, 26)


def test_razz_odd_chip_robert_lowest_card_wsop_highest_card() -> None:
    """Razz tie 6-4-3-2-A: Robert's gives the chip to the Ac, WSOP to the 6d (6d > 6c)."""
    hands = ["Ac 2d 3h 4s 6c Kd Kh", "Ad 2c 3s 4h 6d Qc Qd"]
    assert award_pot(hands, 25, "razz").shares == (13, 12)
    assert award_pot(hands, 25, "razz", rules=WSOP).shares == (12, 13)


def test_odd_chips_are_per_pot_not_pooled() -> None:
    """Robert's: "All side pots and the main pot will be split as separate pots"."""
    hands = ["Ah Kh 9h 7h 4h 2c 3d", "As Ks 9s 7s 4s 2d 3c", QUEENS_FOURS]
    result = settle(hands, [40, 40, 13], "stud")
    main, side = result.pots
    assert (main.amount, main.shares) == (39, (19, 20, 0))
    assert (side.amount, side.shares) == (54, (27, 27, 0))
    assert result.payouts == [46, 47, 0]


# ---- community card (deck exhausted) ----------------------------------------------------------


@PRESETS
def test_community_card_plays_in_every_hand(rules: HouseRules) -> None:
    """WSOP LAR 228: when the deck runs out, one card in the middle plays for all."""
    hands = ["Ah Kd Kc 7s 3d 2c", "Ad Ks Kh 7d 3c 2h", "Qs Qh 5c 4d 9h 8c"]
    result = settle(hands, [50, 50, 50], "stud", community="As", rules=rules)
    # The As gives seats 0 and 1 aces and kings; they split 150.
    assert result.payouts == [75, 75, 0]
    # Both seats' highest card is the shared As, so the next card decides: Ah > Ad.
    assert award_pot(hands, 151, "stud", community="As", rules=rules).shares == (76, 75, 0)


def test_community_card_eight_seats_matches_direct_ranking() -> None:
    """Eight seats: 8 x 6 own cards + 1 community card; winners as the core ranks them."""
    deck = random.Random(2024).sample(range(52), 49)
    community, hands = deck[48], [deck[6 * s : 6 * s + 6] for s in range(8)]
    for game in ("stud", "razz", "stud8", "stud_hilo_noq"):
        pot = award_pot(hands, 800, game, community=community)
        full = [[*h, community] for h in hands]
        if game != "razz":
            highs = [studeval.high_rank(h) for h in full]
            assert pot.high_winners == tuple(s for s in range(8) if highs[s] == min(highs))
        if game in ("razz", "stud_hilo_noq"):
            lows = [studeval.low_rank(h) for h in full]
            assert pot.low_winners == tuple(s for s in range(8) if lows[s] == min(lows))
        assert sum(pot.shares) == 800


def test_community_card_errors() -> None:
    six = ["Ah Kd Kc 7s 3d 2c", "Ad Ks Kh 7d 3c 2h"]
    with pytest.raises(DuplicateCardError, match="community card") as info:
        settle(six, [10, 10], "stud", community="Kh")
    assert info.value.seat == 1
    with pytest.raises(HandSizeError, match="community") as size:
        settle([KINGS_FIVES, TRIP_ACES], [10, 10], "stud", community="Ts")
    assert size.value.seat == 0
    with pytest.raises(HandSizeError):
        settle(six, [10, 10], "stud", community="Ts Js")
    with pytest.raises(InvalidCardError):
        settle(six, [10, 10], "stud", community=["Ts"])  # type: ignore[arg-type]


# ---- readable results ----------------------------------------------------------------


def test_str_says_who_won_what_with_which_hand() -> None:
    """The issue's example wording, from the core's hand descriptions."""
    result = settle([KINGS_FIVES, SEVEN_LOW, None], [40, 40, 23], "stud8")
    assert str(result) == (
        "Main pot of 103: Seat 0 wins 52 with Two Pair, Kings and Fives; "
        "Seat 1 wins 51 with 7-5-4-2-A"
    )
    assert result.pots[0].high_hand == studeval.describe_high(studeval.high_rank(KINGS_FIVES))
    assert result.pots[0].low_hand == "7-5-4-2-A"


def test_str_lists_every_pot_and_return() -> None:
    result = settle([TRIP_ACES, KINGS_FIVES, QUEENS_FOURS], [30, 120, 100], "stud")
    lines = str(result).splitlines()
    assert len(lines) == 3
    assert lines[0].startswith("Main pot of 90: Seat 0 wins 90 with ")
    assert lines[1].startswith("Side pot 1 of 140: Seat 1 wins 140 with ")
    assert lines[2] == "Seat 1 takes back 20 unmatched"


def test_results_are_frozen_values() -> None:
    result = settle([KINGS_FIVES, SEVEN_LOW], [10, 10], "stud")
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.game = "razz"  # type: ignore[misc]
    pot = result.pots[0]
    assert isinstance(pot, Pot)
    assert hash(pot) == hash(dataclasses.replace(pot))
    assert result == settle([KINGS_FIVES, SEVEN_LOW], [10, 10], "stud")


# ---- bad input -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("chips", "match"),
    [
        ([10, -5], r"contributions\[1\] is -5; chips cannot be negative"),
        ([10, 2.5], r"contributions\[1\] is 2.5; chips are whole numbers"),
        ([10.0, 10], r"contributions\[0\] is 10.0"),
        ([True, 10], r"contributions\[0\] is True"),
        ([10, "10"], r"contributions\[1\] is '10'"),
    ],
)
def test_bad_chips_raise_chip_error(chips: list[object], match: str) -> None:
    with pytest.raises(ChipError, match=match):
        settle([KINGS_FIVES, SEVEN_LOW], chips, "stud")  # type: ignore[arg-type]


def test_chip_error_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        award_pot([KINGS_FIVES], -1, "stud")
    with pytest.raises(ChipError, match="amount"):
        award_pot([KINGS_FIVES], 1.5, "stud")  # type: ignore[arg-type]
    with pytest.raises(ChipError):
        settle([KINGS_FIVES], 10, "stud")  # type: ignore[arg-type]


def test_numpy_style_integers_are_accepted() -> None:
    import numpy as np

    result = settle([KINGS_FIVES, SEVEN_LOW], np.array([10, 10]), "stud")  # type: ignore[arg-type]
    assert result.payouts == [20, 0]


def test_mismatched_lengths_raise_seat_error() -> None:
    with pytest.raises(SeatError, match="contributions has 3 entries but hands has 2 seats"):
        settle([KINGS_FIVES, SEVEN_LOW], [10, 10, 10], "stud")


def test_no_live_seat_raises_seat_error() -> None:
    with pytest.raises(SeatError, match="no live seat"):
        settle([None, None], [10, 10], "stud")
    with pytest.raises(SeatError, match="no live seat"):
        award_pot([None], 10, "razz")
    with pytest.raises(SeatError, match="one entry per seat"):
        settle(KINGS_FIVES, [10], "stud")  # type: ignore[arg-type]


def test_duplicate_card_across_seats_names_the_seat() -> None:
    with pytest.raises(DuplicateCardError, match="also at seat 0") as info:
        settle([KINGS_FIVES, "Kc 2h 3c 4d 6s 8h Th"], [10, 10], "stud")
    assert info.value.seat == 1
    assert info.value.card == studeval.parse_card("Kc")
    with pytest.raises(DuplicateCardError, match="twice"):
        settle(["Kc Kc 2h 3c 4d 6s 8h"], [10], "stud")


@pytest.mark.parametrize("hand", ["Kc Kd 5h 5s 9c 2d", "Kc Kd 5h 5s 9c 2d 3h 4h", "Kc"])
def test_wrong_hand_size_names_the_seat(hand: str) -> None:
    with pytest.raises(HandSizeError, match="expected 7 cards") as info:
        settle([SEVEN_LOW, hand], [10, 10], "stud")
    assert info.value.seat == 1


def test_invalid_card_names_the_seat() -> None:
    with pytest.raises(InvalidCardError, match="at seat 1"):
        settle([SEVEN_LOW, "Kc Kd 5h 5s 9c 2d 1x"], [10, 10], "stud")


def test_unknown_game() -> None:
    with pytest.raises(UnknownGameError):
        settle([SEVEN_LOW], [10], "lowball")
    with pytest.raises(UnknownGameError):
        award_pot([SEVEN_LOW], 10, "STUD")


def test_hand_values_are_accepted() -> None:
    hands = [studeval.Hand(KINGS_FIVES), studeval.Hand(SEVEN_LOW)]
    assert settle(hands, [40, 40], "stud8").payouts == [40, 40]


# ---- rake and chip size ---------------------------------------------------------------


def test_wsop_hi_lo_pot_in_25000_chips() -> None:
    """2023 WSOP Players Championship: a 4,825,000 hi/lo pot paid 2,425,000 high and
    2,400,000 low, the smallest chip in play being 25,000 (the odd chip to the high)."""
    s = settle(
        ["As Ah Kd Kc 7s 3d 2c", "7c 5d 4h 2s Ac Qd Jh", None],
        [2_400_000, 2_400_000, 25_000],
        "stud8",
        chip=25_000,
    )
    pot = s.pots[0]
    assert pot.amount == 4_825_000
    assert pot.high_shares[0] == 2_425_000 and pot.low_shares[1] == 2_400_000
    assert s.payouts == [2_425_000, 2_400_000, 0]
    assert s.chip == 25_000


def test_the_rake_comes_from_the_main_pot_before_the_split() -> None:
    # Main pot 3 x 30 = 90, rake 6 -> 84 split by the two tied aces-up hands;
    # the side pot of 2 x 70 = 140 is not raked.
    s = settle(
        ["As Ah Kd Kc 7s 3d 2c", "Ad Ac Ks Kh 7d 3c 2h", "Qs Qh 5c 4d 9h 8c 6d"],
        [100, 100, 30],
        "stud",
        rake=6,
    )
    assert [p.amount for p in s.pots] == [84, 140]
    assert s.payouts == [112, 112, 0]
    assert s.rake == 6 and sum(s.payouts) + s.rake == 230
    assert "Rake 6" in str(s)


def test_rake_and_chip_errors_name_the_input() -> None:
    hands = ["As Ah Kd Kc 7s 3d 2c", "7c 5d 4h 2s Ac Qd Jh"]
    with pytest.raises(ChipError, match="rake is 200 but the main pot is only 100"):
        settle(hands, [50, 50], "stud", rake=200)
    with pytest.raises(ChipError, match=r"contributions\[1\] is 30, not a whole number of 25"):
        settle(hands, [50, 30], "stud", chip=25)
    with pytest.raises(ChipError, match="rake is 5, not a whole number of 25-chips"):
        settle(hands, [50, 50], "stud", chip=25, rake=5)
    with pytest.raises(ChipError, match="chip is 0"):
        settle(hands, [50, 50], "stud", chip=0)
    with pytest.raises(ChipError, match="rake is -1"):
        settle(hands, [50, 50], "stud", rake=-1)
