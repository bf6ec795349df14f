"""The engine as a state machine: random legal play from ``legal()`` at any stacks.

Hypothesis drives every hand: the game, 2 to 8 seats, stacks from nothing to
deep, the cards (from a seeded deck), each action among those ``legal()`` offers
and the showdown's shows and mucks. At every step an action ``legal()`` does not
offer is tried too and must be refused without changing anything. Every hand
must end, and end with every chip where it started or in the rake.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from studeval import IllegalActionError, Stakes, StudHand

GAMES = ["stud", "stud8", "razz", "stud_hilo_noq"]
KINDS = ["fold", "check", "call", "bring_in", "complete", "bet", "raise"]


def _snapshot(hand: StudHand) -> tuple[object, ...]:
    return (
        list(hand.stacks), list(hand.contributions), len(hand.events), hand.actor,
        hand.street, hand.showdown, hand.over, list(hand.folded),
    )  # fmt: skip


def _options(legal: object, kind: str) -> tuple[int, ...]:
    return {
        "complete": legal.complete_to,  # type: ignore[attr-defined]
        "bet": legal.bet_to,  # type: ignore[attr-defined]
        "raise": legal.raise_to,  # type: ignore[attr-defined]
    }.get(kind, ())


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_random_legal_play_conserves_chips_and_ends(data: st.DataObject) -> None:
    game = data.draw(st.sampled_from(GAMES), label="game")
    n = data.draw(st.integers(2, 8), label="seats")
    stacks = data.draw(st.lists(st.integers(0, 120), min_size=n, max_size=n), label="stacks")
    rake = data.draw(st.sampled_from([0, 0, 1]), label="rake")
    total = sum(stacks)
    antes = sum(min(1, s) for s in stacks)
    if rake > antes:
        rake = 0
    hand = StudHand(game, Stakes(ante=1, bring_in=2, small_bet=5, big_bet=10), stacks, rake=rake)
    seed = data.draw(st.integers(0, 2**32 - 1), label="deck")
    illegal_tried = 0
    for _step in range(400):
        if hand.over:
            break
        if hand.showdown:
            if data.draw(st.booleans(), label="show"):
                hand.show()
            else:
                hand.muck()
            continue
        if hand.actor is None:
            hand.deal_random(seed)
            continue
        legal = hand.legal()
        kinds = legal.kinds()
        assert kinds, "a seat to act always has something legal"
        # Something legal() does not offer is refused and changes nothing.
        bad_kind = data.draw(st.sampled_from(KINDS), label="bad kind")
        bad_to = data.draw(st.integers(-5, 200), label="bad to")
        offered = _options(legal, bad_kind)
        if bad_kind not in kinds or (offered and bad_to not in offered):
            before = _snapshot(hand)
            with pytest.raises(IllegalActionError):
                hand.act(bad_kind, bad_to if offered or bad_kind not in kinds else None)
            assert _snapshot(hand) == before
            illegal_tried += 1
        kind = data.draw(st.sampled_from(kinds), label="kind")
        options = _options(legal, kind)
        to = data.draw(st.sampled_from(options), label="to") if options else None
        hand.act(kind, to)
        assert all(s >= 0 for s in hand.stacks)
        if not hand.over:  # every chip is behind or in the pot
            assert sum(hand.stacks) + sum(hand.contributions) == total
    assert hand.over, "the hand did not end in 400 steps"
    assert hand.result is not None
    assert sum(hand.stacks) + hand.result.rake == total
    assert sum(hand.result.payouts) + hand.result.rake == sum(hand.contributions)


def test_the_machine_really_tries_illegal_actions() -> None:
    """The refusal check above is not vacuous: a bring-in seat cannot check."""
    hand = StudHand("stud", Stakes(1, 2, 5, 10), [50, 50])
    hand.deal_random(seed=1)
    assert "check" not in hand.legal().kinds()
    with pytest.raises(IllegalActionError):
        hand.act("check")
