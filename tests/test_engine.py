"""The fixed-limit engine, rule by rule, with literal chip counts.

Each test quotes the rule it checks (Robert's Rules of Poker, the seven-card stud
section, which the casino house rules we follow repeat). Stakes are a $5/$10 game:
ante 1, bring-in 2, small bet 5, big bet 10, unless a test says otherwise.
"""

from __future__ import annotations

import random

import pytest

from studeval import HouseRules, IllegalActionError, Stakes, StudHand, card_str, first_to_act
from studeval.errors import ChipError, DuplicateCardError, StudevalError

STAKES = Stakes(ante=1, bring_in=2, small_bet=5, big_bet=10)


def third_street(
    doors: list[str], stacks: list[int] | None = None, game: str = "stud", **kw: object
) -> StudHand:
    """A hand whose seats get two unknown down cards and these door cards."""
    hand = StudHand(game, STAKES, stacks or [200] * len(doors), **kw)  # type: ignore[arg-type]
    for seat, door in enumerate(doors):
        hand.deal(seat, [None, None, door])
    return hand


def deal_up(hand: StudHand, cards: list[str]) -> None:
    """Deal the next street's up card to every live seat, in seat order."""
    live = [s for s in range(hand.seats) if not hand.folded[s]]
    for seat, card in zip(live, cards, strict=True):
        hand.deal(seat, [card])


# ---- antes and the bring-in ----------------------------------------------------------


def test_antes_are_posted_at_once_and_a_short_stack_posts_all() -> None:
    hand = StudHand("stud", STAKES, [100, 0, 1, 50])
    assert hand.stacks == [99, 0, 0, 49]
    assert hand.contributions == [1, 0, 1, 1]
    assert [e.kind for e in hand.events] == ["ante", "ante", "ante"]


def test_the_lowest_door_card_brings_in_or_completes() -> None:
    """ "The lowest upcard by rank and suit has to start the action with a bring-in
    bet ... the player may also open for a full bet" (completing it)."""
    hand = third_street(["Kc", "2d", "9h"])
    assert hand.actor == 1
    legal = hand.legal()
    assert legal.bring_in == 2 and legal.complete_to == (5,)
    assert not legal.fold and legal.call is None  # a forced bet: post it
    with pytest.raises(IllegalActionError, match="seat 1 cannot fold"):
        hand.act("fold")
    hand.act("bring_in")
    assert hand.actor == 2
    assert hand.legal().call == 2 and hand.legal().complete_to == (5,)


def test_in_razz_the_highest_door_brings_in() -> None:
    hand = third_street(["Kc", "2d", "9h"], game="razz")
    assert hand.actor == 0


def test_the_bring_in_has_no_option_when_everyone_just_calls() -> None:
    hand = third_street(["Kc", "2d", "9h"])
    hand.act("bring_in")  # seat 1
    hand.act("call")  # seat 2
    hand.act("call")  # seat 0: the round is over
    assert hand.actor is None and hand.street == 4
    assert hand.contributions == [3, 3, 3] and hand.stacks == [197, 197, 197]


def test_completing_the_bring_in_is_not_a_raise() -> None:
    """ "Completing the forced opening bet does not count as a raise": after the
    completion, three raises are still allowed."""
    hand = third_street(["Kc", "2d", "9h"])
    hand.act("bring_in")  # seat 1: 2
    hand.act("complete", 5)  # seat 2: the bet
    hand.act("raise", 10)  # seat 0: raise 1
    hand.act("raise", 15)  # seat 1: raise 2
    hand.act("raise", 20)  # seat 2: raise 3
    legal = hand.legal()  # seat 0: capped, three players left
    assert legal.call == 10 and legal.raise_to == ()
    hand.act("call")
    hand.act("call")  # seat 1
    assert hand.street == 4 and hand.contributions == [21, 21, 21]


def test_a_short_bring_in_all_in() -> None:
    """A bring-in seat with less than the bring-in posts all it has; the next
    player may call that or complete to the small bet."""
    hand = third_street(["Kc", "2d", "9h"], stacks=[100, 2, 100])
    hand.act("bring_in")  # seat 1 has 1 chip after the ante
    assert hand.stacks[1] == 0 and hand.contributions[1] == 2
    legal = hand.legal()
    assert hand.actor == 2 and legal.call == 1 and legal.complete_to == (5,)


# ---- one bet and three raises, and the heads-up exception ----------------------------


def test_one_bet_and_three_raises_then_the_cap() -> None:
    """ "One bet and three raises are allowed for each betting round.\""""
    hand = third_street(["Kc", "2d", "9h"])
    hand.act("bring_in")
    hand.act("call")
    hand.act("call")
    deal_up(hand, ["8c", "3d", "Qh"])  # seat 0 (K-8) is high
    assert hand.actor == 0
    hand.act("bet", 5)
    hand.act("raise", 10)
    hand.act("raise", 15)
    hand.act("raise", 20)  # seat 0: the third raise
    assert hand.actor == 1 and hand.legal().raise_to == ()


def test_no_cap_when_only_two_players_remain_before_the_third_raise() -> None:
    """ "If only two players remain before the third raise is made, there is no
    limit on raises.\""""
    hand = StudHand("stud", STAKES, [500, 500])
    hand.deal(0, [None, None, "Kc"])
    hand.deal(1, [None, None, "2d"])
    hand.act("complete", 5)  # seat 1 completes instead of bringing in
    for to in (10, 15, 20, 25, 30, 35):  # six raises, heads-up
        assert hand.legal().raise_to == (to,)
        hand.act("raise", to)
    hand.act("call")
    assert hand.contributions == [36, 36] and hand.street == 4


def test_two_players_left_after_a_fold_lift_the_cap() -> None:
    hand = third_street(["Kc", "2d", "9h"])
    hand.act("bring_in")  # seat 1
    hand.act("complete", 5)  # seat 2
    hand.act("fold")  # seat 0: two players left, no raise made yet
    hand.act("raise", 10)
    hand.act("raise", 15)
    hand.act("raise", 20)  # the third raise, with two players: no cap
    assert hand.legal().raise_to == (25,)


def test_a_fold_before_the_third_raise_lifts_the_cap() -> None:
    """Three players make the bet and two raises; one folds; the third raise, made
    with two players left, lifts the cap."""
    hand = third_street(["Kc", "2d", "9h"])
    hand.act("bring_in")  # seat 1
    hand.act("complete", 5)  # seat 2
    hand.act("raise", 10)  # seat 0
    hand.act("raise", 15)  # seat 1
    hand.act("fold")  # seat 2: two players left
    hand.act("raise", 20)  # seat 0: the third raise
    assert hand.legal().raise_to == (25,)


def test_an_all_in_seat_counts_as_a_player_for_the_cap() -> None:
    """ "Two players left" counts the seats that have not folded: a seat all in is
    still in the hand, so the two others betting beside it stay capped. A fold that
    leaves two before the third raise lifts the cap."""
    hand = third_street(["Kc", "2d", "9h"], stacks=[200, 200, 6])
    hand.act("bring_in")  # seat 1
    hand.act("complete", 5)  # seat 2: all of its 5 chips after the ante
    assert hand.stacks[2] == 0
    hand.act("raise", 10)  # seat 0
    hand.act("raise", 15)  # seat 1
    hand.act("raise", 20)  # seat 0: the third raise, three seats not folded
    assert hand.legal().raise_to == ()
    assert hand.legal().call == 5
    # Robert's own words, as an option: only the seats not all in count.
    robert = third_street(["Kc", "2d", "9h"], stacks=[200, 200, 6],
                          rules=HouseRules(heads_up_counts="not_all_in"))  # fmt: skip
    robert.act("bring_in")
    for action, total in (("complete", 5), ("raise", 10), ("raise", 15), ("raise", 20)):
        robert.act(action, total)
    assert robert.legal().raise_to == (25,)
    lifted = third_street(["Kc", "2d", "9h"], stacks=[200, 200, 200])
    lifted.act("bring_in")  # seat 1
    lifted.act("fold")  # seat 2: two players left before the third raise
    lifted.act("complete", 5)
    lifted.act("raise", 10)
    lifted.act("raise", 15)
    lifted.act("raise", 20)
    assert lifted.legal().raise_to == (25,)


# ---- small and big bets, and the fourth-street open pair -------------------------------


def _to_street(hand: StudHand, street: int, cards: list[list[str]]) -> None:
    """Everyone checks (or calls the bring-in) until ``street``, dealing ``cards``."""
    hand.act("bring_in")
    while hand.actor is not None:
        hand.act("call")
    for up in cards:
        deal_up(hand, up)
        if hand.street == street:
            return
        while hand.actor is not None:
            hand.act("check")


def test_small_bets_on_third_and_fourth_big_from_fifth() -> None:
    """ "Small bets on the first two betting rounds and big bets on the later ones.\""""
    hand = third_street(["Kc", "2d", "9h"])
    _to_street(hand, 4, [["8c", "3d", "Qh"]])
    assert hand.legal().bet_to == (5,)
    while hand.actor is not None:
        hand.act("check")
    deal_up(hand, ["7c", "4d", "Jh"])
    assert hand.street == 5 and hand.legal().bet_to == (10,)


def test_open_pair_on_fourth_allows_the_big_bet() -> None:
    """ "If there is an open pair on fourth street, players have the option of making
    a small or a big bet"; after a big bet or raise every increment is big: $5 then
    $15 or $25, never $20."""
    hand = third_street(["Kc", "2d", "9h"])
    _to_street(hand, 4, [["Kd", "3d", "Qh"]])  # seat 0 shows a pair of kings
    assert hand.actor == 0
    assert hand.legal().bet_to == (5, 10)
    hand.act("bet", 5)
    assert hand.legal().raise_to == (10, 15)  # a small or a big raise
    hand.act("raise", 15)
    assert hand.legal().raise_to == (25,)  # after a big raise: big only, never 20
    hand.act("raise", 25)
    assert hand.legal().raise_to == (35,)


def test_the_open_pair_rule_can_be_switched_off() -> None:
    """WSOP tournaments do not use the open-pair big bet."""
    hand = third_street(["Kc", "2d", "9h"], rules=HouseRules.wsop())
    _to_street(hand, 4, [["Kd", "3d", "Qh"]])
    assert hand.legal().bet_to == (5,)


def test_no_open_pair_rule_in_razz() -> None:
    hand = third_street(["Kc", "2d", "9h"], game="razz")
    hand.act("bring_in")  # seat 0: the king
    while hand.actor is not None:
        hand.act("call")
    deal_up(hand, ["Kd", "3d", "9c"])
    assert hand.legal().bet_to == (5,)


# ---- all-ins for less than a bet ----------------------------------------------------


def _fifth_street_bet(stacks: list[int]) -> StudHand:
    """Three seats on fifth street, seat 0 to act first (kings up)."""
    hand = third_street(["Kc", "2d", "9h"], stacks=stacks)
    _to_street(hand, 5, [["Kd", "3d", "7h"], ["8c", "4s", "5h"]])
    assert hand.actor == 0
    return hand


def test_an_all_in_below_half_a_bet_does_not_reopen_the_betting() -> None:
    """ "An all-in wager of less than half a bet does not reopen the betting for any
    player who has already acted ... A player facing less than half a bet may fold,
    call, or complete the wager.\""""
    hand = _fifth_street_bet([200, 17, 200])  # seat 1 has 14 after ante and bring-in
    hand.act("bet", 10)  # seat 0
    assert hand.legal().raise_to == (14,)  # seat 1: all it has
    hand.act("raise", 14)  # 4 more: less than half of 10
    legal = hand.legal()  # seat 2 has not acted: fold, call 14 or complete to 20
    assert legal.call == 14 and legal.raise_to == (20,)
    hand.act("call")
    legal = hand.legal()  # seat 0 already acted: call or fold only
    assert hand.actor == 0 and legal.call == 4 and legal.raise_to == ()
    hand.act("call")
    assert hand.street == 6 and hand.contributions == [17, 17, 17]


def test_half_a_bet_or_more_all_in_is_a_full_bet() -> None:
    """ "An all-in wager of half a bet or more is treated as a full bet, and a player
    may fold, call, or make a full raise.\""""
    hand = _fifth_street_bet([200, 19, 200])  # seat 1 has 16
    hand.act("bet", 10)
    hand.act("raise", 16)  # 6 more: half a bet or more
    hand.act("call")  # seat 2
    legal = hand.legal()  # seat 0 may raise again: a full raise on top
    assert legal.call == 6 and legal.raise_to == (26,)


def test_no_raise_when_no_other_seat_could_answer_it() -> None:
    """A bet or raise needs someone to call it (Robert's: an all-in player "can win only
    the amount of his bets"): facing a bet that put every other seat all in, a seat
    may call or fold, and a raise is refused, changing nothing."""
    hand = third_street(["Kc", "2d"], stacks=[200, 13])  # seat 1: 10 after ante and bring-in
    hand.act("bring_in")
    hand.act("call")
    deal_up(hand, ["Kd", "3d"])
    hand.act("check")
    hand.act("check")
    deal_up(hand, ["8c", "4s"])
    hand.act("check")  # seat 0
    assert hand.legal().bet_to == (10,)
    hand.act("bet", 10)  # seat 1: all in with a full bet
    legal = hand.legal()
    assert hand.actor == 0 and legal.call == 10 and legal.raise_to == ()
    assert legal.kinds() == ["fold", "call"]
    with pytest.raises(IllegalActionError, match="seat 0 cannot raise now; legal: fold, call"):
        hand.act("raise", 20)
    assert hand.contributions == [3, 13]
    hand.act("call")
    assert hand.contributions == [13, 13] and hand.stacks == [187, 0]


def test_an_all_in_of_exactly_half_a_bet_reopens_the_betting() -> None:
    """The boundary of the rule above: "half a bet or more" includes exactly half. Facing
    a $10 bet, an all-in raise of exactly $5 more is a full raise."""
    hand = _fifth_street_bet([200, 18, 200])  # seat 1 has 15: a raise to 15 is 5 more
    hand.act("bet", 10)
    hand.act("raise", 15)
    hand.act("call")  # seat 2
    legal = hand.legal()  # seat 0 may raise again, a full raise on top
    assert legal.call == 5 and legal.raise_to == (25,)
    short = _fifth_street_bet([200, 17, 200])  # 14: 4 more, less than half
    short.act("bet", 10)
    short.act("raise", 14)
    short.act("call")
    assert short.legal().raise_to == ()


# ---- who acts first, the deck running out, the showdown -------------------------------


def test_first_to_act_skips_an_all_in_best_board() -> None:
    """The best board acts first; when it is all-in, the next seat clockwise."""
    hand = third_street(["Kc", "2d", "9h"], stacks=[4, 200, 200])
    hand.act("bring_in")  # seat 1
    hand.act("call")  # seat 2
    hand.act("call")  # seat 0: 2 of its 3 chips
    deal_up(hand, ["Kd", "3d", "9c"])  # seat 0 shows kings but has 1 chip: it may act
    assert hand.actor == 0
    hand.act("check")
    hand.act("check")
    hand.act("bet", 5)  # seat 2
    hand.act("call")  # seat 0: all-in for 1
    hand.act("call")  # seat 1
    assert hand.stacks[0] == 0
    deal_up(hand, ["Kh", "4d", "9s"])  # seat 0 shows trip kings but is all-in
    assert hand.actor == 1  # the next seat clockwise from the best board acts
    assert hand.legal().bet_to == (10,)


def test_tied_boards_by_suit_compare_the_highest_card_first() -> None:
    """WSOP TR: tied boards act by "high card by suit". The highest card decides, also
    when it was dealt after the lower one: 2c Kd acts before Kc 2d."""
    for doors, fourth, first in ((["2c", "Kc"], ["Kd", "2d"], 0), (["2c", "2d"], ["Kc", "Kd"], 1)):
        hand = third_street(doors, rules=HouseRules.wsop())
        hand.act("bring_in")
        while hand.actor is not None:
            hand.act("call")
        deal_up(hand, fourth)
        assert hand.actor == first, (doors, fourth)
        robert = third_street(doors)
        robert.act("bring_in")
        while robert.actor is not None:
            robert.act("call")
        deal_up(robert, fourth)
        assert robert.actor == 0  # Robert's: ties by position, the first seat


def test_a_seat_with_one_chip_acts_first_after_an_all_in_best_board() -> None:
    """The next seat clockwise that can act acts first: one chip is enough to act."""
    hand = third_street(["Kc", "2d", "9h"], stacks=[3, 4, 200])
    hand.act("bring_in")  # seat 1: 1 chip left
    hand.act("call")  # seat 2
    hand.act("call")  # seat 0: all in
    deal_up(hand, ["Kd", "3d", "Qh"])  # seat 0 shows kings, and cannot act
    assert hand.stacks[:2] == [0, 1] and hand.actor == 1


def test_open_pair_increments_after_a_short_all_in_go_from_the_full_bet() -> None:
    """After a big bet in the open-pair round and an all-in for less than half a bet,
    a raise goes a big bet above the last full bet: $10, all in $13, then $20."""
    hand = third_street(["Kc", "2d", "9h"], stacks=[200, 16, 200])
    _to_street(hand, 4, [["Kd", "3d", "Qh"]])
    hand.act("bet", 10)  # seat 0: the big bet
    assert hand.legal().raise_to == (13,)  # seat 1 has 13: all in, 3 more
    hand.act("raise", 13)
    legal = hand.legal()  # seat 2 has not acted
    assert legal.call == 13 and legal.raise_to == (20,)


def test_the_deck_runs_out_and_a_community_card_is_dealt() -> None:
    """With eight players to the river the deck cannot give each a card: one
    community card is turned up for all."""
    hand = StudHand("stud", STAKES, [100] * 8)
    hand.deal_random(seed=7)
    hand.act("bring_in")
    while hand.actor is not None:
        hand.act("call")
    while not hand.showdown:
        hand.deal_random()
        while hand.actor is not None and not hand.showdown:
            hand.act("check")
    assert hand.community is not None
    assert all(len(cards) == 6 for cards in hand.cards)
    while hand.showdown:
        hand.show()
    assert hand.over and sum(hand.stacks) == 800
    assert hand.result is not None and sum(hand.result.payouts) == 8 * 3


def _checked_to_seventh_street() -> StudHand:
    """Three seats check to seventh street, where seat 0 (kings up) acts first."""
    hand = StudHand("stud", STAKES, [200, 200, 200])
    for seat, cards in enumerate([["Ac", "Ad", "Kc"], ["2c", "3c", "2d"], ["9s", "9h", "9d"]]):
        hand.deal(seat, cards)
    hand.act("bring_in")  # seat 1
    hand.act("call")
    hand.act("call")
    for street_cards in (["Ks", "3d", "8c"], ["7c", "4d", "8d"], ["6c", "5d", "Th"]):
        deal_up(hand, street_cards)
        while hand.actor is not None:
            hand.act("check")
    for seat, card in enumerate(["Ah", "2h", "9c"]):
        hand.deal(seat, [card])
    return hand


def test_the_last_aggressor_shows_first() -> None:
    hand = _checked_to_seventh_street()
    first = hand.actor  # seat 0 (kings up) acts first and checks
    hand.act("check")
    hand.act("bet", 10)  # seat 1 bets
    hand.act("call")
    hand.act("call")
    assert first == 0 and hand.showdown and hand.actor == 1
    hand.show()
    assert hand.actor == 2
    hand.show()
    hand.muck()  # seat 0 gives up
    assert hand.over and hand.result is not None
    assert hand.stacks == [187, 187, 226]  # seat 2's four nines take the 39-chip pot


def test_the_last_to_bet_shows_first_also_after_an_all_in_for_less() -> None:
    """Robert's: "the last player to make an aggressive action shows first"; a bet of
    all a seat has is that action even when it is less than half a bet."""
    hand = StudHand("stud", STAKES, [200, 7])  # seat 1: 4 left after ante and bring-in
    hand.deal(0, ["Ac", "Ad", "Kc"])
    hand.deal(1, ["2c", "3c", "2d"])
    hand.act("bring_in")  # seat 1
    hand.act("call")
    for street_cards in (["Ks", "3d"], ["7c", "4d"], ["6c", "5d"]):
        deal_up(hand, street_cards)
        while hand.actor is not None:
            hand.act("check")
    hand.deal(0, ["Ah"])
    hand.deal(1, ["2h"])
    assert hand.actor == 0  # kings up act first, and check
    hand.act("check")
    assert hand.legal().bet_to == (4,)
    hand.act("bet", 4)  # seat 1: all in, less than half of the big bet
    hand.act("call")
    assert hand.showdown and hand.actor == 1
    hand.show()
    hand.show()
    assert hand.over and hand.stacks == [207, 0]  # aces full take the 14-chip pot


def _all_in_run_out(stacks: list[int], doors: list[list[str]], ups: list[list[str]]) -> StudHand:
    """Seats all in on third street (bring-in, then everyone calls all in), run out."""
    hand = StudHand("stud", STAKES, stacks)
    for seat, cards in enumerate(doors):
        hand.deal(seat, cards)
    while hand.actor is not None:
        legal = hand.legal()
        hand.act("bring_in" if legal.bring_in is not None else "call")
    for street_cards in ups:
        for seat, card in enumerate(street_cards):
            hand.deal(seat, [card])
    assert hand.showdown
    return hand


def test_after_an_all_in_run_out_the_best_board_shows_first() -> None:
    """Nobody could bet on seventh street (every seat all in): the seat that would
    have acted first, the best board, shows first, then clockwise."""
    doors = [["Ac", "Ad", "2c"], ["3c", "3d", "Kc"], ["4c", "4d", "9h"]]
    ups = [["5h", "Ks", "Qh"], ["6h", "7s", "8d"], ["Th", "Js", "2s"], ["7c", "8c", "6s"]]
    hand = _all_in_run_out([3, 3, 3], doors, ups)  # seat 1 shows K-K-7-J up
    assert hand.actor == 1
    hand.show()
    assert hand.actor == 2
    hand.show()
    hand.show()
    assert hand.over and sum(hand.stacks) == 9


def test_the_best_board_shows_first_when_the_first_to_act_folded_a_free_check() -> None:
    hand = _checked_to_seventh_street()
    assert hand.actor == 0  # kings up act first, and fold with a check free
    hand.act("fold")
    hand.act("check")  # seat 1
    hand.act("check")  # seat 2
    assert hand.showdown and hand.actor == 2  # a pair of eights up before 5-4-3-2
    hand.show()
    hand.show()
    assert hand.over


def test_with_no_bring_in_the_lowest_door_opens() -> None:
    """A game without a bring-in (bring-in 0): the low door card acts first, and
    may check."""
    hand = StudHand("stud", Stakes(ante=1, bring_in=0, small_bet=5, big_bet=10), [50, 50, 50])
    for seat, door in enumerate(["Kc", "2d", "9h"]):
        hand.deal(seat, [None, None, door])
    assert hand.actor == 1 and hand.legal().check and hand.legal().bet_to == (5,)


def test_a_bring_in_nobody_calls_pays_no_rake() -> None:
    """No ante: seat 0 brings in and everyone folds. The bring-in nobody called goes
    back first; the pot left is empty, so the rake is 0 (no chip is lost)."""
    hand = StudHand("stud", Stakes(ante=0, bring_in=2, small_bet=5, big_bet=10), [50] * 3, rake=1)
    for seat, door in enumerate(["2c", "Kd", "9h"]):
        hand.deal(seat, [None, None, door])
    hand.act("bring_in")
    hand.act("fold")
    hand.act("fold")
    assert hand.over and hand.stacks == [50, 50, 50]
    assert hand.result is not None and hand.result.rake == 0


def test_a_hand_won_by_folds_shows_nothing() -> None:
    hand = third_street(["Kc", "2d", "9h"])
    hand.act("bring_in")
    hand.act("complete", 5)
    hand.act("fold")
    hand.act("fold")
    assert hand.over and hand.stacks == [199, 197, 204]
    assert not any(e.kind == "show" for e in hand.events)


def test_unknown_down_cards_are_shown_at_the_showdown() -> None:
    hand = StudHand("stud", STAKES, [100, 100])
    hand.deal(0, [None, None, "Kc"])
    hand.deal(1, ["As", "Ad", "2c"])
    hand.act("bring_in")
    hand.act("call")
    for cards in (["Kd", "3c"], ["7d", "8c"], ["Th", "Jc"]):
        deal_up(hand, cards)
        while hand.actor is not None:
            hand.act("check")
    hand.deal(0, [None])
    hand.deal(1, ["4s"])
    while hand.actor is not None and not hand.showdown:
        hand.act("check")
    assert hand.actor == 0  # no bet on the river: the first to act shows first
    with pytest.raises(IllegalActionError, match="unknown down cards must be shown"):
        hand.show()
    hand.show(["Ks", "Kh", "2d"])  # four kings
    hand.show()
    assert hand.stacks == [103, 97]


# ---- errors ------------------------------------------------------------------------------


def test_folding_is_allowed_even_when_checking_is_free() -> None:
    hand = third_street(["Kc", "2d", "9h"])
    _to_street(hand, 4, [["8c", "3d", "Qh"]])
    assert hand.legal().check and hand.legal().fold
    hand.act("fold")
    assert hand.folded[0]


def test_fold_check_and_call_take_no_total() -> None:
    """A total given with a fold, a check or a call is a mistake, refused, never
    dropped: a tool that means a raise must not see a call happen."""
    hand = third_street(["Kc", "2d", "9h"])
    hand.act("bring_in")
    for kind, to in (("call", 999), ("fold", 7), ("call", 2)):
        with pytest.raises(IllegalActionError, match=f"seat 2: {kind} takes no total; got {to}"):
            hand.act(kind, to)
    assert hand.contributions == [1, 3, 1] and hand.actor == 2
    four = third_street(["Kc", "2d"])
    _to_street(four, 4, [["8c", "3d"]])
    with pytest.raises(IllegalActionError, match="check takes no total; got 5"):
        four.act("check", 5)


def test_no_seat_is_named_once_the_hand_is_over() -> None:
    hand = third_street(["Kc", "2d"])
    hand.act("bring_in")
    hand.act("fold")
    assert hand.over
    for kind, to in (("call", None), ("raise", "x"), ("bet", 5), ("fold", 3)):
        with pytest.raises(IllegalActionError) as caught:
            hand.act(kind, to)  # type: ignore[arg-type]
        assert str(caught.value) == f"{kind}: no seat is to act now"


def test_an_illegal_action_names_what_is_legal_and_changes_nothing() -> None:
    hand = third_street(["Kc", "2d", "9h"])
    hand.act("bring_in")
    before = (list(hand.stacks), list(hand.contributions), len(hand.events), hand.actor)
    with pytest.raises(IllegalActionError, match=r"seat 2 cannot raise now; legal: fold, call"):
        hand.act("raise", 10)
    with pytest.raises(IllegalActionError, match="seat 2 cannot complete to 7; legal totals: 5"):
        hand.act("complete", 7)
    with pytest.raises(IllegalActionError, match="seat 2 cannot shout"):
        hand.act("shout")
    after = (list(hand.stacks), list(hand.contributions), len(hand.events), hand.actor)
    assert before == after
    assert isinstance(IllegalActionError("x"), ValueError)
    assert issubclass(IllegalActionError, StudevalError)


def test_bad_setup_is_refused() -> None:
    with pytest.raises(ChipError, match="bring_in 6 is more than the small bet 5"):
        Stakes(ante=1, bring_in=6, small_bet=5, big_bet=10)
    with pytest.raises(StudevalError, match="2 to 8 seats"):
        StudHand("stud", STAKES, [100])
    with pytest.raises(ChipError, match=r"stacks\[1\] is -5"):
        StudHand("stud", STAKES, [100, -5])
    hand = StudHand("stud", STAKES, [100, 100])
    hand.deal(0, ["As", "Ad", "Kc"])
    with pytest.raises(DuplicateCardError, match="duplicate card As at seat 1"):
        hand.deal(1, ["As", "2d", "3c"])
    with pytest.raises(IllegalActionError, match="an up card cannot be unknown"):
        hand.deal(1, ["2d", "3c", None])
    with pytest.raises(IllegalActionError, match="deals 3 card"):
        hand.deal(1, ["2d", "3c"])


def test_bad_values_are_errors_not_crashes() -> None:
    with pytest.raises(ChipError, match="rake is -1; chips cannot be negative"):
        StudHand("stud", STAKES, [10, 10], rake=-1)
    with pytest.raises(ChipError, match="chip is 0; the smallest chip in play is at least 1"):
        StudHand("stud", STAKES, [10, 10], chip=0)
    hand = StudHand("stud", STAKES, [100, 100])
    with pytest.raises(IllegalActionError, match="cards must be a list; got 5"):
        hand.deal(0, 5)  # type: ignore[arg-type]
    hand.deal(0, ["As", "Ad", "Kc"])
    hand.deal(1, ["2s", "2d", "2c"])
    for bad in (5.0, "5", True):
        with pytest.raises(IllegalActionError, match="a total is whole chips"):
            hand.act("complete", bad)  # type: ignore[arg-type]
    assert hand.contributions == [1, 1] and hand.actor == 1


def test_numpy_ints_are_chips_and_seats() -> None:
    np = pytest.importorskip("numpy")
    stakes = Stakes(np.int64(1), np.int32(2), np.int64(5), np.int64(10))
    assert type(stakes.small_bet) is int
    hand = StudHand("stud", stakes, [np.int64(100), np.int16(100)])
    hand.deal(np.int64(0), ["As", "Ad", "Kc"])
    hand.deal(1, ["2s", "2d", "2c"])
    hand.act("complete", np.int64(5))
    assert hand.contributions == [1, 6] and type(hand.contributions[1]) is int


def test_a_hand_won_by_folds_returns_the_uncalled_bet_before_the_rake() -> None:
    """The chips nobody called go back to their owner; the rake is taken from the
    main pot only."""
    hand = third_street(["Kc", "2d", "9h"], rake=1)
    hand.act("bring_in")  # seat 1: 2
    hand.act("complete", 5)  # seat 2
    hand.act("fold")  # seat 0
    hand.act("fold")  # seat 1: seat 2's 3 uncalled chips go back
    assert hand.result is not None and hand.result.returned == [0, 0, 3]
    assert hand.result.pots[0].amount == 3 + 2 + 2 - 1  # antes, matched bring-in, less rake
    assert hand.stacks == [199, 197, 203]


def test_the_rake_is_at_most_the_main_pot() -> None:
    hand = StudHand("stud", STAKES, [0, 1], rake=1)  # one ante, nobody to match it
    hand.deal(0, ["As", "Ad", "Kc"])
    hand.deal(1, ["2s", "2d", "2c"])
    for _street in range(4):
        hand.deal_random(seed=1)
    while hand.showdown:
        hand.show()
    assert hand.over and hand.result is not None
    assert hand.result.rake == 0 and hand.stacks == [0, 1]


def _eight_to_seventh(game: str, boards: list[list[str]], community: str) -> StudHand:
    """Eight seats check and call to 7th street with these up cards (the first two
    seats'; the others' unpaired and low), where the deck runs out: ``community``."""
    used = {c for board in boards for c in board} | {community}
    spare = [c for c in (f"{r}{s}" for s in "cdhs" for r in "23456789T") if c not in used]
    while len(boards) < 8:
        board: list[str] = []
        for card in list(spare):
            if len(board) < 4 and all(card[0] != other[0] for other in board):
                board.append(card)
                spare.remove(card)
        boards.append(board)
    used |= {c for board in boards for c in board}
    rest = iter(c for c in (f"{r}{s}" for r in "AKQJT98765432" for s in "cdhs") if c not in used)
    hand = StudHand(game, Stakes(1, 2, 5, 10), [1000] * 8)
    for seat in range(8):
        hand.deal(seat, [next(rest), next(rest), boards[seat][0]])
    for street in range(3, 8):
        while hand.actor is not None:
            legal = hand.legal()
            hand.act("bring_in" if legal.bring_in else "check" if legal.check else "call")
        if street < 6:
            for seat in range(8):
                hand.deal(seat, [boards[seat][street - 2]])
        elif street == 6:
            hand.deal_community(community)
            break
    return hand


@pytest.mark.parametrize("game", ["stud", "razz"])
def test_the_community_card_plays_in_every_board_for_the_first_to_act(game: str) -> None:
    # Robert's Rules: "the player who is now high using the common card initiates the
    # action". The 7th-street order had been 6th street's, the common card left out.
    boards = [["Kh", "Qh", "7c", "3d"], ["Jc", "Jd", "4h", "2s"]]
    hand = _eight_to_seventh(game, [list(b) for b in boards], "Ks")
    assert hand.street == 7 and hand.community is not None
    up = [[card_str(c) for c in hand.cards[s][2:6]] for s in range(8)]
    want = first_to_act(up, game, community="Ks")
    assert hand.actor == want
    if game == "stud":  # K-K-Q-7-3 over J-J-K-4-2; on 6th street the jacks led
        assert want == 0 and first_to_act(up, game) == 1


@pytest.mark.parametrize("game", ["stud", "stud8", "razz"])
def test_the_engine_and_first_to_act_agree_on_community_boards(game: str) -> None:
    # Random boards of eight seats and a community card: the engine's order (C) and
    # first_to_act's (Python) are written apart; straights and flushes never count.
    rng = random.Random(game)
    for _ in range(60):
        deck = [card_str(c) for c in range(52)]
        rng.shuffle(deck)
        boards = [deck[4 * s : 4 * s + 4] for s in range(8)]
        hand = _eight_to_seventh(game, [list(b) for b in boards], deck[40])
        up = [[card_str(c) for c in hand.cards[s][2:6]] for s in range(8)]
        assert up == boards
        assert hand.actor == first_to_act(up, game, community=deck[40])
