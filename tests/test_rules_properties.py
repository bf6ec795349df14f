"""Properties of the rules layer that must hold for any table (hypothesis).

Random tables rarely tie, so one strategy deals tie-rich tables: up to four seats
holding the same seven ranks in different suits, which tie for high and for low
unless a flush breaks the tie. That exercises the odd-chip paths.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import pytest
import reference as ref
from hypothesis import given, settings
from hypothesis import strategies as st

import studeval
from studeval import HouseRules, SeatError, award_pot, bring_in, first_to_act, settle
from studeval.games import GAME_NAMES, card_key, get_game

PRESETS = (HouseRules.robert(), HouseRules.wsop())
SETTINGS = settings(max_examples=120, deadline=None)


@dataclass(frozen=True)
class Table:
    game: str
    rules: HouseRules
    hands: list[list[int] | None]
    contributions: list[int]
    community: int | None

    def settle(self, **changes: object) -> studeval.Settlement:
        args = {
            "hands": self.hands,
            "contributions": self.contributions,
            "game": self.game,
            "community": self.community,
            "rules": self.rules,
        }
        args.update(changes)
        return settle(**args)  # type: ignore[arg-type]


chips = st.one_of(st.integers(0, 300), st.sampled_from([0, 1, 10, 25, 50, 99, 100, 101]))


@st.composite
def random_hands(draw: st.DrawFn) -> tuple[list[list[int]], int | None]:
    community = draw(st.booleans())
    size = 6 if community else 7
    n = draw(st.integers(1, 8 if community else 7))
    deck = draw(st.permutations(range(52)))
    hands = [list(deck[size * s : size * (s + 1)]) for s in range(n)]
    return hands, (deck[size * n] if community else None)


@st.composite
def tied_hands(draw: st.DrawFn) -> tuple[list[list[int]], int | None]:
    n = draw(st.integers(2, 4))
    ranks = draw(st.lists(st.integers(0, 12), min_size=7, max_size=7, unique=True))
    # One suit permutation per rank: seat s gets suit perm[s] of that rank.
    perms = [draw(st.permutations(range(4))) for _ in ranks]
    hands = [
        [rank * 4 + perm[s] for rank, perm in zip(ranks, perms, strict=True)] for s in range(n)
    ]
    return hands, None


@st.composite
def tables(draw: st.DrawFn) -> Table:
    hands, community = draw(st.one_of(random_hands(), tied_hands()))
    n = len(hands)
    live = draw(st.lists(st.booleans(), min_size=n, max_size=n).filter(any))
    return Table(
        game=draw(st.sampled_from(GAME_NAMES)),
        rules=draw(st.sampled_from(PRESETS)),
        hands=[h if alive else None for h, alive in zip(hands, live, strict=True)],
        contributions=draw(st.lists(chips, min_size=n, max_size=n)),
        community=community,
    )


@SETTINGS
@given(tables())
def test_payouts_sum_to_contributions_and_are_never_negative(table: Table) -> None:
    result = table.settle()
    assert sum(result.payouts) == sum(table.contributions)
    assert all(p >= 0 for p in result.payouts)
    assert all(sum(pot.shares) == pot.amount > 0 for pot in result.pots)


@SETTINGS
@given(tables())
def test_folded_seats_never_win(table: Table) -> None:
    """A folded seat gets back at most its own unmatched chips and is in no pot."""
    result = table.settle()
    c = table.contributions
    for seat, hand in enumerate(table.hands):
        if hand is not None:
            continue
        others = max((x for s, x in enumerate(c) if s != seat), default=0)
        assert result.payouts[seat] == result.returned[seat] <= max(0, c[seat] - others)
        for pot in result.pots:
            assert seat not in pot.eligible
            assert pot.shares[seat] == 0


@SETTINGS
@given(tables(), st.data())
def test_relabelling_seats_relabels_payouts(table: Table, data: st.DataObject) -> None:
    n = len(table.hands)
    perm = data.draw(st.permutations(range(n)))
    before = table.settle()
    after = table.settle(
        hands=[table.hands[p] for p in perm],
        contributions=[table.contributions[p] for p in perm],
    )
    assert after.payouts == [before.payouts[p] for p in perm]


@SETTINGS
@given(tables())
def test_doubling_contributions_doubles_payouts_without_odd_chips(table: Table) -> None:
    before = table.settle()
    after = table.settle(contributions=[2 * c for c in table.contributions])
    if all(pot.odd_chips == 0 for pot in before.pots):
        assert after.payouts == [2 * p for p in before.payouts]
    # Doubling never changes who is eligible for which pot.
    assert [p.eligible for p in after.pots] == [p.eligible for p in before.pots]


@SETTINGS
@given(tables())
def test_splits_are_as_even_as_possible(table: Table) -> None:
    """One odd chip per seat at most; the high half never gets less than the low half."""
    for pot in table.settle().pots:
        for winners, shares in (
            (pot.high_winners, pot.high_shares),
            (pot.low_winners, pot.low_shares),
        ):
            amounts = [shares[s] for s in winners]
            assert not amounts or max(amounts) - min(amounts) <= 1
        high_total, low_total = sum(pot.high_shares), sum(pot.low_shares)
        if pot.high_winners and pot.low_winners:
            assert high_total - low_total in (0, 1)
        assert set(pot.high_winners) | set(pot.low_winners) <= set(pot.eligible)


@SETTINGS
@given(tables())
def test_side_pots_nest(table: Table) -> None:
    pots = table.settle().pots
    for outer, inner in itertools.pairwise(pots):
        assert set(inner.eligible) < set(outer.eligible)


@SETTINGS
@given(tables(), st.integers(0, 1000))
def test_award_pot_matches_settle_with_equal_stakes(table: Table, stake: int) -> None:
    live = [h is not None for h in table.hands]
    contributions = [stake if alive else 0 for alive in live]
    pot = award_pot(
        table.hands, stake * sum(live), table.game, community=table.community, rules=table.rules
    )
    result = table.settle(contributions=contributions)
    assert sum(pot.shares) == stake * sum(live)
    # A lone live seat gets its stake back as unmatched chips: the same total.
    assert result.payouts == list(pot.shares)


@SETTINGS
@given(tables(), st.randoms(use_true_random=False))
def test_card_order_within_a_hand_does_not_matter(table: Table, rnd: object) -> None:
    shuffled = []
    for hand in table.hands:
        if hand is None:
            shuffled.append(None)
        else:
            copy = list(hand)
            rnd.shuffle(copy)  # type: ignore[attr-defined]
            shuffled.append(copy)
    assert table.settle(hands=shuffled).payouts == table.settle().payouts


@st.composite
def boards(draw: st.DrawFn) -> tuple[list[list[int] | None], int]:
    n = draw(st.integers(1, 8))
    size = draw(st.integers(1, 4))
    deck = draw(st.permutations(range(52)))
    live = draw(st.lists(st.booleans(), min_size=n, max_size=n).filter(any))
    cards = [list(deck[size * s : size * (s + 1)]) if live[s] else None for s in range(n)]
    return cards, size


@SETTINGS
@given(boards(), st.sampled_from(GAME_NAMES), st.sampled_from(PRESETS), st.data())
def test_first_to_act_is_a_live_seat_that_can_act(
    board: tuple[list[list[int] | None], int], game: str, rules: HouseRules, data: st.DataObject
) -> None:
    cards, _ = board
    live = [s for s, c in enumerate(cards) if c is not None]
    all_in = data.draw(st.sets(st.sampled_from(live)))
    seat = first_to_act(cards, game, all_in=all_in, rules=rules)
    if set(live) <= all_in:
        assert seat is None
    else:
        assert seat in live
        assert seat not in all_in
    if not all_in and rules.action_tie == "position":
        # The boards ranked by the independent twin, not by the code under test.
        rank_of = ref.up_high_rank if get_game(game).board == "high" else ref.up_low_rank
        ranks = {s: rank_of(cards[s]) for s in live}
        assert ranks[seat] == min(ranks.values())
        assert all(ranks[s] > ranks[seat] for s in live if s < seat)


@SETTINGS
@given(boards(), st.sampled_from(GAME_NAMES))
def test_bring_in_is_the_extreme_door_card(
    board: tuple[list[list[int] | None], int], game: str
) -> None:
    doors = [None if c is None else c[0] for c in board[0]]
    spec = get_game(game)
    live = [d for d in doors if d is not None]
    if len(live) < 2:  # one player is no stud deal
        with pytest.raises(SeatError, match="2 to 8 players"):
            bring_in(doors, game)
        return
    keys = [card_key(d, spec.card_order) for d in live]
    extreme = min(keys) if spec.bring_in == "lowest" else max(keys)
    seat = bring_in(doors, game)
    assert card_key(doors[seat], spec.card_order) == extreme  # type: ignore[arg-type]


@SETTINGS
@given(tables())
def test_winners_are_the_best_eligible_hands(table: Table) -> None:
    """Each half goes to every eligible seat whose rank is the best.

    The ranks come from the pure-Python twin (tests/reference.py), so the winners
    are checked against an independent reading of the hands, not the core's own."""
    spec = get_game(table.game)
    extra = [] if table.community is None else [table.community]
    for pot in table.settle().pots:
        full = {s: [*table.hands[s], *extra] for s in pot.eligible}  # type: ignore[misc]
        if spec.high:
            highs = {s: ref.high_rank(c) for s, c in full.items()}
            best = min(highs.values())
            assert pot.high_winners == tuple(s for s in pot.eligible if highs[s] == best)
        low_of = {"low": ref.low_rank, "low8": ref.low8_rank}.get(spec.low or "")
        if low_of is not None:
            lows = {s: r for s, c in full.items() if (r := low_of(c)) is not None}
            best_low = min(lows.values(), default=0)  # 0: no low; ranks start at 1
            assert pot.low_winners == tuple(s for s in pot.eligible if lows.get(s) == best_low)
