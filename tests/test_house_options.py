"""The house options on which rulebooks (and pokerkit, PHH's reference implementation)
read stud differently: each option both ways, with literal chip counts.

Stakes are a $5/$10 game: ante 1, bring-in 2, small bet 5, big bet 10. The pokerkit
readings are checked against pokerkit itself in ``tests/test_phh.py``; here each is
stated as a rule and counted out by hand.
"""

from __future__ import annotations

import pytest

from studeval import HouseRules, Stakes, StudHand, award_pot, settle
from studeval.errors import DuplicateCardError, NoDealError

STAKES = Stakes(ante=1, bring_in=2, small_bet=5, big_bet=10)
FULL_BET = HouseRules(short_all_in="full_bet")


def _hand(doors: list[str], stacks: list[int], rules: HouseRules | None = None) -> StudHand:
    hand = StudHand("stud", STAKES, stacks, rules=rules)
    for seat, door in enumerate(doors):
        hand.deal(seat, [None, None, door])
    return hand


def _fifth_street(stacks: list[int], rules: HouseRules | None = None) -> StudHand:
    """Three seats checked to fifth street (3 chips in each), seat 0 (kings up) first."""
    hand = _hand(["Kc", "2d", "9h"], stacks, rules)
    hand.act("bring_in")
    hand.act("call")
    hand.act("call")
    for seat, card in enumerate(["Kd", "3d", "7h"]):
        hand.deal(seat, [card])
    while hand.actor is not None:
        hand.act("check")
    for seat, card in enumerate(["8c", "4s", "5h"]):
        hand.deal(seat, [card])
    assert hand.street == 5 and hand.actor == 0
    return hand


# ---- short_all_in ---------------------------------------------------------------------


def test_full_bet_a_short_all_in_raise_is_raised_a_full_bet_on_top() -> None:
    """Seat 0 bets 10, seat 1 raises all in to 14 (4 more). "half_bet": the next
    seat completes the raise to 20. "full_bet": it raises a full bet on top, to 24,
    and seat 0, which acted, may only call."""
    half = _fifth_street([200, 17, 200])
    half.act("bet", 10)
    half.act("raise", 14)
    assert half.legal().raise_to == (20,)
    full = _fifth_street([200, 17, 200], FULL_BET)
    full.act("bet", 10)
    full.act("raise", 14)
    assert full.legal().call == 14 and full.legal().raise_to == (24,)
    full.act("raise", 24)
    assert full.actor == 0 and full.legal().call == 14 and full.legal().raise_to == (34,)
    full.act("call")
    assert full.street == 6 and full.contributions == [27, 17, 27]


def test_full_bet_half_a_bet_all_in_does_not_reopen_the_betting() -> None:
    """The boundary between the readings: an all-in raise of exactly half a bet (5
    more on 10) reopens the betting under "half_bet" and not under "full_bet"."""
    for rules, raise_to in ((None, (25,)), (FULL_BET, ())):
        hand = _fifth_street([200, 18, 200], rules)
        hand.act("bet", 10)
        hand.act("raise", 15)
        hand.act("call")  # seat 2
        assert hand.actor == 0 and hand.legal().call == 5
        assert hand.legal().raise_to == raise_to


def test_full_bet_a_full_raise_all_in_reopens_the_betting() -> None:
    """An all-in that adds the round's largest increment (10 on 10) is a full raise."""
    hand = _fifth_street([200, 23, 200], FULL_BET)  # seat 1 has 20
    hand.act("bet", 10)
    hand.act("raise", 20)
    hand.act("call")
    assert hand.actor == 0 and hand.legal().raise_to == (30,)


def test_full_bet_the_first_wager_of_a_round_reopens_even_all_in_for_less() -> None:
    """A round's first wager sets its largest increment, however small: after an
    all-in bet of 4, the raise goes to 14 and a seat that checked may make it."""
    hand = _fifth_street([200, 7, 200], FULL_BET)  # seat 1 has 4
    hand.act("check")  # seat 0
    hand.act("bet", 4)  # seat 1, all in
    assert hand.legal().raise_to == (14,)
    hand.act("call")  # seat 2
    assert hand.actor == 0 and hand.legal().raise_to == (14,)
    half = _fifth_street([200, 7, 200])
    half.act("check")
    half.act("bet", 4)
    assert half.legal().complete_to == (10,)  # the short bet, completed


def test_full_bet_every_wager_counts_toward_the_cap() -> None:
    """Bet, an all-in raise for less, two raises: the cap of four wagers is reached,
    where "half_bet" leaves one more raise (the short all-in is no raise there). The
    cap is kept heads-up here: seat 1 is all in, two players are left."""
    capped = HouseRules(short_all_in="full_bet", heads_up_cap="kept")
    for rules, last in ((None, (40,)), (capped, ())):
        hand = _fifth_street([200, 17, 200], rules)
        hand.act("bet", 10)
        hand.act("raise", 14)
        to = hand.legal().raise_to[0]
        hand.act("raise", to)  # seat 2
        hand.act("raise", to + 10)  # seat 0
        assert hand.actor == 2 and hand.legal().raise_to == last


def test_full_bet_the_cap_and_its_heads_up_lift() -> None:
    """Under "full_bet" the cap counts every wager: three players make a bet and
    three raises, and the cap holds; with two players left before the third raise
    it is lifted, unless the house keeps it."""
    for rules, raise_to in ((FULL_BET, (25,)), (HouseRules.pokerkit(), ())):
        hand = _hand(["Kc", "2d", "9h"], [200, 200, 200], rules)
        hand.act("bring_in")  # seat 1
        hand.act("complete", 5)  # seat 2
        hand.act("raise", 10)  # seat 0
        hand.act("raise", 15)  # seat 1
        hand.act("fold")  # seat 2
        hand.act("raise", 20)  # seat 0: the third raise, heads-up
        assert hand.legal().raise_to == raise_to
    three = _hand(["Kc", "2d", "9h"], [200, 200, 200], FULL_BET)
    three.act("bring_in")
    for to in (5, 10, 15, 20):
        three.act("complete" if to == 5 else "raise", to)
    assert three.actor == 0 and three.legal().call == 10 and three.legal().raise_to == ()


def _fifth_street_four(stacks: list[int]) -> StudHand:
    """Four seats checked to fifth street under "full_bet", seat 0 (kings up) first."""
    hand = _hand(["Kc", "2d", "9h", "8s"], stacks, FULL_BET)
    hand.act("bring_in")
    while hand.actor is not None:
        hand.act("call")
    for ups in (["Kd", "3d", "7h", "6c"], ["8c", "4s", "5h", "Tc"]):
        for seat, card in enumerate(ups):
            hand.deal(seat, [card])
        while hand.actor is not None and hand.street == 4:
            hand.act("check")
    assert hand.street == 5 and hand.actor == 0
    return hand


def test_full_bet_all_ins_for_less_that_add_up_to_a_raise_reopen_the_betting() -> None:
    """Seat 0 bets 10; seats 1 and 2 raise all in by 4 and by 6: together a full
    raise, so seat 0, which acted, may raise again. By 4 and 4 they are not."""
    hand = _fifth_street_four([200, 17, 23, 200])  # 14 and 20 left
    hand.act("bet", 10)
    hand.act("raise", 14)
    hand.act("raise", 20)
    hand.act("call")  # seat 3
    assert hand.actor == 0 and hand.legal().raise_to == (30,)
    short = _fifth_street_four([200, 17, 21, 200])  # 14 and 18 left
    short.act("bet", 10)
    short.act("raise", 14)
    short.act("raise", 18)
    short.act("call")
    assert short.actor == 0 and short.legal().call == 8 and short.legal().raise_to == ()


# ---- bring_in_all_in -------------------------------------------------------------------


def test_the_bring_in_seat_all_in_for_the_ante() -> None:
    """The 2c would bring in but is all in for the ante. "nobody": seat 1 opens or
    checks. "next_seat": seat 1 brings in (or completes)."""
    nobody = _hand(["2c", "Kd", "9h"], [1, 200, 200])
    assert nobody.actor == 1
    legal = nobody.legal()
    assert legal.bring_in is None and legal.check and legal.bet_to == (5,)
    passed = _hand(["2c", "Kd", "9h"], [1, 200, 200], HouseRules(bring_in_all_in="next_seat"))
    assert passed.actor == 1
    legal = passed.legal()
    assert legal.bring_in == 2 and legal.complete_to == (5,) and not legal.check
    passed.act("bring_in")
    passed.act("call")
    assert passed.street == 4 and passed.contributions == [1, 3, 3]


# ---- short_bring_in ----------------------------------------------------------------------


def test_a_short_stack_to_bring_in_may_open() -> None:
    """The 2c brings in with 2 chips after the ante, the bring-in. "bring_in": they
    are the bring-in only, and seat 1 completes to 5. "may_open" (pokerkit): they may
    also be wagered as the opening bet, which seat 1 raises a full bet, to 7."""
    posted = _hand(["2c", "Kd", "9h"], [3, 200, 200])
    assert posted.legal().bring_in == 2 and posted.legal().complete_to == ()
    posted.act("bring_in")
    assert posted.legal().complete_to == (5,) and posted.legal().raise_to == ()
    opened = _hand(["2c", "Kd", "9h"], [3, 200, 200], HouseRules.pokerkit())
    assert opened.legal().bring_in == 2 and opened.legal().complete_to == (2,)
    opened.act("complete", 2)
    assert opened.legal().call == 2 and opened.legal().raise_to == (7,)
    opened.act("raise", 7)
    opened.act("call")
    assert opened.street == 4 and opened.contributions == [3, 8, 8]


def test_a_short_opening_bet_counts_as_half_a_bet_or_less() -> None:
    """Under Robert's half-bet rule the same opening of 2 (less than half of 5) is
    completed to 5, as the bring-in would be; the seat's bring-in stays legal."""
    rules = HouseRules(short_bring_in="may_open")
    hand = _hand(["2c", "Kd", "9h"], [3, 200, 200], rules)
    hand.act("complete", 2)
    assert hand.legal().complete_to == (5,) and hand.legal().call == 2
    assert _hand(["2c", "Kd"], [2, 200], rules).legal().complete_to == (1,)
    assert _hand(["2c", "Kd"], [50, 200], rules).legal().complete_to == (5,)


# ---- heads_up_cap ------------------------------------------------------------------------


def test_the_heads_up_cap_kept() -> None:
    """Robert's lifts the cap for two players left before the third raise; "kept"
    stops at one bet and three raises."""
    for rules, raise_to in ((None, (25,)), (HouseRules(heads_up_cap="kept"), ())):
        hand = _hand(["Kc", "2d"], [500, 500], rules)
        hand.act("complete", 5)  # seat 1
        for to in (10, 15, 20):
            hand.act("raise", to)
        assert hand.legal().call == 5 and hand.legal().raise_to == raise_to


# ---- deck_runs_out -----------------------------------------------------------------------

MUCK = HouseRules(deck_runs_out="muck")


def _seventh_street(rules: HouseRules | None, fold_on: int = 3) -> StudHand:
    """Eight seats, seat 7 folds on street ``fold_on`` (3 or 4); the rest check or
    call to seventh."""
    ranks = "23456789TJQKA"
    hand = StudHand("stud", STAKES, [100] * 8, rules=rules)
    deck = iter([r + s for s in "cdhs" for r in ranks])
    for seat in range(8):
        hand.deal(seat, [next(deck) for _ in range(3)])
    hand.act("bring_in")  # seat 0: the 4c
    while hand.actor is not None:
        hand.act("fold" if hand.actor == 7 and fold_on == 3 else "call")
    for street in range(4, 7):
        for seat in range(8 if street == 4 and fold_on == 4 else 7):
            hand.deal(seat, [next(deck)])
        while hand.actor is not None:
            hand.act("fold" if hand.actor == 7 else "check")
    assert hand.street == 7 and hand.folded[7]
    return hand


def test_seventh_street_own_cards_while_the_deck_has_one_for_every_seat() -> None:
    """Robert's Rules: when the deck cannot give every seat its last card, none takes
    one; a community card is dealt. Seat 7 folded on 3rd street: 45 cards out, 7 left
    for 7 seats, so each takes its own. Folded on 4th: 46 out, 6 left for 7 seats."""
    enough = _seventh_street(None, fold_on=3)
    enough.deal(0, ["As"])  # its own card: the deck holds one for each of the 7
    short = _seventh_street(None, fold_on=4)
    left = [c for c in range(52) if all(c not in cards for cards in short.cards)]
    assert len(left) == 6
    with pytest.raises(NoDealError):
        short.deal(0, [left[0]])
    short.deal_community(left[0])
    assert short.community == left[0] and short.actor is not None


def test_a_shuffled_deck_counts_the_cards_dealt_unknown_as_gone() -> None:
    """Down cards dealt by hand as unknown are somewhere among the cards not seen, so
    the shuffled deck cannot count on them: seat 7 folded on 4th street, 46 cards are
    out and 6 left for 7 seats, and the community card is dealt, however many cards
    the deck has not seen."""
    ranks = "23456789TJQKA"
    ups = iter([r + s for s in "cdhs" for r in ranks])
    hand = StudHand("stud", STAKES, [100] * 8)
    for seat in range(8):
        hand.deal(seat, [None, None, next(ups)])
    hand.act("bring_in")
    while hand.actor is not None:
        hand.act("call")
    for street in range(4, 7):
        for seat in range(8 if street == 4 else 7):
            hand.deal(seat, [next(ups)])
        while hand.actor is not None:
            hand.act("fold" if hand.actor == 7 else "check")
    assert hand.street == 7 and hand.folded[7] and sum(map(len, hand.cards)) == 46
    hand.deal_random(5)
    assert hand.community is not None and hand.actor is not None
    assert all(len(hand.cards[seat]) == 6 for seat in range(7))


def test_eight_seats_on_seventh_street_take_no_own_card_even_with_the_muck() -> None:
    """Under "muck" too: 48 cards out and 4 burned leave the deck and the muck 4
    cards for 8 seats, so no seat takes its own (by hand as at random)."""
    hand = StudHand("stud", STAKES, [100] * 8, rules=MUCK)
    hand.deal_random(3)
    hand.act("bring_in")
    while hand.street < 7:
        while hand.actor is not None:
            hand.act("call" if hand.legal().call else "check")
        if hand.street < 7:
            hand.deal_random()
    while hand.actor is not None:
        hand.act("call" if hand.legal().call else "check")
    left = [c for c in range(52) if all(c not in cards for cards in hand.cards)]
    assert hand.street == 7 and len(left) == 4
    with pytest.raises(NoDealError):
        hand.deal(0, [left[0]])
    hand.deal_community(left[0])
    assert hand.community == left[0]


def test_the_muck_makes_a_new_deck_when_the_deck_runs_out() -> None:
    """45 cards are out and 4 burned: the deck gives three 7th-street cards, then the
    burns and the folded seat's three cards make a new deck. Under "community" the
    deck still has 7 cards for the 7 seats and the folded cards stay dead."""
    hand = _seventh_street(MUCK)
    folded = list(hand.cards[7])
    unseen = [c for c in range(52) if all(c not in cards for cards in hand.cards)]
    assert len(folded) == 3 and len(unseen) == 7
    with pytest.raises(DuplicateCardError):
        hand.deal(0, [folded[0]])  # the deck has not run out yet
    for seat in range(3):
        with pytest.raises(DuplicateCardError):  # the deck still has a card for it
            hand.deal(seat, [folded[0]])
        hand.deal(seat, [unseen[seat]])
    for seat, card in zip((3, 4, 5, 6), [*folded, unseen[3]], strict=True):
        hand.deal(seat, [card])  # the deck ran out: the muck came back
    assert hand.actor is not None and hand.community is None
    plain = _seventh_street(None)
    with pytest.raises(DuplicateCardError):
        plain.deal(0, [plain.cards[7][0]])


def test_the_muck_deck_deals_at_random_without_a_community_card() -> None:
    for seed in range(20):
        hand = _seventh_street(MUCK)
        hand.deal_random(seed)
        live = [card for seat in range(7) for card in hand.cards[seat]]
        assert hand.community is None and len(live) == 49 and len(set(live)) == 49
        assert all(len(hand.cards[seat]) == 7 for seat in range(7))


def test_eight_seats_to_seventh_street_need_a_community_card_even_with_the_muck() -> None:
    """48 cards out and 4 burned: the muck (the burns) cannot give 8 seats a card."""
    hand = StudHand("stud", STAKES, [100] * 8, rules=MUCK)
    hand.deal_random(3)
    hand.act("bring_in")
    while not hand.showdown:
        while hand.actor is not None and not hand.showdown:
            hand.act("call" if hand.legal().call else "check")
        if not hand.showdown:
            hand.deal_random()
    assert hand.community is not None


# ---- odd_chips and split_pots ------------------------------------------------------------

STRAIGHTS = ["5c 6d 7h 8s 9c 2d 2h", "5d 6h 7s 8c 9d 3c 3h", "5h 6s 7c 8d 9h 4c 4d"]


def test_odd_chips_of_a_three_way_tie() -> None:
    """8 chips, three nine-high straights: 2 each and 2 odd chips. "by_cards": one
    each, by the highest card by suit (9h, then 9d). "first_seat": both to seat 0."""
    assert award_pot(STRAIGHTS, 8, "stud").shares == (2, 3, 3)
    first = HouseRules(odd_chips="first_seat")
    assert award_pot(STRAIGHTS, 8, "stud", rules=first).shares == (4, 2, 2)


HI_LO = [
    "As Ah Ad Kc Kd Qs Js",  # seat 0: the high (aces full)
    "2c 3c 4d 5h 7s Th Jh",  # seat 1: the low (7-5-4-3-2)
    "9c 9d Tc Td 8c 6d Qh",  # seats 2-4: all in for 1, 2 and 3; no low, a worse high
    "9h 9s Ts Jc Jd 6c Qc",
    "8d 8h Kh Ks Qd 6h 6s",
]


def test_pots_with_the_same_contenders_split_as_one() -> None:
    """Pots of 5, 4, 3 and 4 chips, each won high by seat 0 and low by seat 1. Split
    "each" on its own the high half takes two odd chips (9 and 7); "merged", the
    losers' hands mucked first, they are one pot of 16 (8 and 8)."""
    each = settle(HI_LO, [5, 5, 1, 2, 3], "stud8")
    assert [pot.amount for pot in each.pots] == [5, 4, 3, 4]
    assert each.payouts == [9, 7, 0, 0, 0]
    merged = settle(HI_LO, [5, 5, 1, 2, 3], "stud8", rules=HouseRules(split_pots="merged"))
    assert [(pot.amount, pot.eligible) for pot in merged.pots] == [(16, (0, 1, 2, 3, 4))]
    assert (merged.pots[0].high_winners, merged.pots[0].low_winners) == ((0,), (1,))
    assert merged.payouts == [8, 8, 0, 0, 0]
    assert settle(HI_LO, [5, 5, 1, 2, 3], "stud8", rules="pokerkit").payouts == [8, 8, 0, 0, 0]


# ---- the stakes' boundaries, in both readings of the short all-in --------------------


@pytest.mark.parametrize("rules", [None, FULL_BET], ids=["half_bet", "full_bet"])
def test_a_bring_in_of_the_small_bet_cannot_be_completed(rules: HouseRules | None) -> None:
    """Bring-in 5 in a $5/$10 game: the bring-in is already a full bet, so the next
    seat calls 5 or raises to 10, and three raises cap the round. (The raise to 10 had
    been a "completion" that no cap counted: a bet and four raises three-handed.)"""
    hand = StudHand("stud", Stakes(1, 5, 5, 10), [100, 100, 100], rules=rules)
    for seat, door in enumerate(["Kc", "2d", "9h"]):
        hand.deal(seat, [None, None, door])
    assert hand.legal().bring_in == 5 and hand.legal().complete_to == ()
    hand.act("bring_in")
    legal = hand.legal()
    assert legal.call == 5 and legal.complete_to == () and legal.raise_to == (10,)
    totals = []
    while hand.legal().raise_to:
        totals.append(hand.legal().raise_to[0])
        hand.act("raise", totals[-1])
    assert totals == [10, 15, 20] and hand.legal().call is not None


@pytest.mark.parametrize("rules", [None, FULL_BET], ids=["half_bet", "full_bet"])
def test_a_bring_in_of_one_chip_is_completed_to_the_small_bet(rules: HouseRules | None) -> None:
    hand = StudHand("stud", Stakes(1, 1, 5, 10), [100, 100, 100], rules=rules)
    for seat, door in enumerate(["Kc", "2d", "9h"]):
        hand.deal(seat, [None, None, door])
    assert hand.actor == 1 and hand.legal().bring_in == 1 and hand.legal().complete_to == (5,)
    hand.act("bring_in")
    assert hand.legal().call == 1 and hand.legal().complete_to == (5,)


@pytest.mark.parametrize("rules", [None, FULL_BET], ids=["half_bet", "full_bet"])
def test_a_bet_of_one_chip_is_raised(rules: HouseRules | None) -> None:
    """A game of 1 and 2 without bring-in: after a bet of 1 the next seat raises."""
    hand = StudHand("stud", Stakes(0, 0, 1, 2), [50, 50, 50], rules=rules)
    for seat, door in enumerate(["Kc", "2d", "9h"]):
        hand.deal(seat, [None, None, door])
    hand.act("bet", 1)  # seat 1, the low door
    legal = hand.legal()
    assert legal.raise_to == (2,) and legal.complete_to == () and legal.bet_to == ()


@pytest.mark.parametrize(("bring_in", "due"), [(0, None), (1, 1)])
def test_the_next_seat_brings_in_only_in_a_game_with_a_bring_in(
    bring_in: int, due: int | None
) -> None:
    rules = HouseRules(bring_in_all_in="next_seat")
    hand = StudHand("stud", Stakes(1, bring_in, 5, 10), [1, 100, 100], rules=rules)
    for seat, door in enumerate(["2c", "Kd", "9h"]):
        hand.deal(seat, [None, None, door])
    assert hand.actor == 1 and hand.legal().bring_in == due
    assert hand.legal().check is (due is None)


def test_a_showdown_one_seat_shows_and_the_others_muck() -> None:
    """Seat 0 shows first and the others muck: the pot is won at the showdown, by a
    hand that was shown (not as a hand won by folds)."""
    hand = StudHand("stud", STAKES, [100, 100, 100])
    for seat, cards in enumerate([["Ac", "Ad", "Kc"], ["2c", "3c", "2d"], ["9s", "9h", "9d"]]):
        hand.deal(seat, cards)
    hand.act("bring_in")
    hand.act("call")
    hand.act("call")
    for ups in (["Ks", "3d", "8c"], ["Kh", "4d", "8d"], ["6c", "5d", "Th"], ["Ah", "2h", "4c"]):
        for seat, card in enumerate(ups):
            hand.deal(seat, [card])
        while hand.actor is not None and not hand.showdown:
            hand.act("check")
    assert hand.showdown and hand.actor == 0  # kings up acted first on seventh street
    hand.show()
    hand.muck()
    hand.muck()
    assert hand.over and hand.stacks == [106, 97, 97]
    assert hand.result is not None and hand.result.pots[0].high_winners == (0,)
    assert hand.result.pots[0].high_hand is not None


@pytest.mark.parametrize("rules", [None, MUCK], ids=["community", "muck"])
def test_a_shuffled_deck_deals_every_card(rules: HouseRules | None) -> None:
    """Fifty seeded hands of eight seats to fourth street: every one of the 52 cards
    is dealt somewhere (a deck that left a card out would miss it every time)."""
    seen: set[int] = set()
    for seed in range(50):
        hand = StudHand("stud", STAKES, [100] * 8, rules=rules)
        hand.deal_random(seed)
        hand.act("bring_in")
        while hand.actor is not None:
            hand.act("call")
        hand.deal_random()
        seen.update(card for cards in hand.cards for card in cards)
    assert seen == set(range(52))
