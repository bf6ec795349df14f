"""Ranges: the grammar against counts made by hand, every malformed text pointing at
its character, and equity against ranges against the brute-force twin.

The twin (tests/helpers.py) walks every deal in pure Python with the independent
reference ranks; against a range it is run once per combination (or per
collision-free tuple of combinations, several ranges) and the results are weighted
with exact fractions. Nothing here comes from the code under test but the answers.
"""

from __future__ import annotations

import itertools
import random
import warnings
from fractions import Fraction
from math import comb, isclose

import numpy as np
import pytest
from helpers import twin
from hypothesis import given, settings
from hypothesis import strategies as st

import studeval
from studeval import Range, RangeError, RangeWarning, range_equity
from studeval.errors import NoDealError, OptionError

GAMES = ["stud", "stud8", "razz", "stud_hilo_noq"]
FIELDS = ("share", "high_win", "high_tie", "low_win", "low_tie", "scoop", "low_share")


# ---- the grammar: texts and the combinations each must give, counted by hand ----------

# (text, up, street, dead, combinations). The counts, with n the cards left live:
GRAMMAR = [
    ("*", "Kc", None, "", comb(51, 2)),  # any two down cards
    ("*", "Kc Kd Qh 2s", 7, "", comb(48, 3)),  # any three on 7th street
    ("KK", "Kc", None, "", 3 * 48 + 3),  # two kings anywhere: a down king, or both
    ("buried", "Kc", None, "", 12 * 6 + 3),  # a pair in the hole: 12 ranks x 6, or KK
    ("split", "Kc", None, "", 3 * 48 + 3),  # a down card pairs the door
    ("buried, split", "Kc", None, "", 12 * 6 + 3 * 48 + 3),  # KK in the hole in both
    ("rolled", "Kc", None, "", comb(3, 2)),  # two of the three kings left
    ("KK*", "Kc", None, "", 3),  # place by place: two down kings, any door
    ("K*K", "Kc", None, "", 3 * 48 + 3),  # a down king, any other down card, door K
    ("KK!rolled", "Kc", None, "", 3 * 48),  # two kings but not three
    ("RR", "Kc", None, "", 12 * 6 + 3 * 48 + 3),  # any pair: in the hole, or split kings
    ("AxKx", "2c", None, "", 4),  # suited ace-king in the hole
    ("AxKy", "2c", None, "", 12),  # offsuit ace-king
    ("KK+", "2c", None, "", 12),  # kings or aces in the hole: 6 + 6
    ("99+:buried", "2c", None, "", 6 * 6),  # nines to aces, pairs in the hole
    ("three-flush", "Kc", None, "", comb(12, 2)),  # two more clubs
    ("low3-8", "5c", None, "", comb(7, 2) * 16),  # two of A,2,3,4,6,7,8, distinct ranks
    # four distinct ranks T or lower with 4d 5c up: two of A,2,3,6,7,8,9,T down
    ("low4-T", "4d 5c", None, "", comb(8, 2) * 16),
    ("low4-10", "4d 5c", None, "", comb(8, 2) * 16),  # a ten written as ranks are elsewhere
    ("[A-5][A-5]", "9c", None, "", comb(20, 2)),  # two of the twenty cards A..5
    ("[2-8]", "9c", None, "", comb(51, 2) - comb(51 - 28, 2)),  # at least one 2..8
    ("[A,K]s", "2c", None, "As", 49),  # a spade A or K: As is dead, so Ks and any other
    ("KK@0.5, AA", "2c", None, "", 12),
    ("pair", "Kc Kd", None, "", comb(50, 2)),  # the up cards pair already
    ("trips", "Kc Kd", None, "", 2 * 48 + 1),  # a down king (Kh or Ks), or both
    ("two-pair", "Kc Qd", None, "", 3 * 3),  # a down K and a down Q
    ("one-pair", "Kc Qd", None, "", 11 * 6 + 2 * 3 * 44),  # a hole pair, or K or Q and a blank
    ("three-straight", "9c", None, "", 0),  # filled in below: counted by brute force
]


def _three_straights() -> int:
    """9c and two down cards: three distinct ranks within five in a row, written out."""
    windows = [{12, 0, 1, 2, 3}] + [set(range(s, s + 5)) for s in range(9)]
    live = [c for c in range(52) if c != 28]
    return sum(
        1 for a, b in itertools.combinations(live, 2)
        if len({a // 4, b // 4, 7}) == 3 and any({a // 4, b // 4, 7} <= w for w in windows)
    )  # fmt: skip


GRAMMAR[-1] = ("three-straight", "9c", None, "", _three_straights())


@pytest.mark.parametrize(("text", "up", "street", "dead", "count"), GRAMMAR)
def test_grammar_gives_the_combinations_counted_by_hand(text, up, street, dead, count) -> None:
    r = Range(text, up=up, street=street, dead=dead)
    assert len(r) == count
    # Every combination is distinct, sorted, and holds no up or dead card.
    assert len({tuple(row) for row in r.hidden.tolist()}) == len(r)
    assert (np.diff(r.hidden.astype(int), axis=1) > 0).all()
    excluded = set(r.up) | set(r.dead)
    assert not any(set(row) & excluded for row in r.hidden.tolist())


def test_weights_from_text() -> None:
    r = Range("KK@0.5, AA", up="2c")
    by_rank = {row[0] // 4: w for row, w in zip(r.hidden.tolist(), r.weights.tolist(), strict=True)}
    assert by_rank == {11: 0.5, 12: 1.0}
    # In a union a combination keeps its larger weight; in an intersection the smaller.
    both_kings = Range("KK", up="2c").hidden.tolist()
    union, inter = Range("KK@0.5, K*@2", up="2c"), Range("KK@0.5 : K*@2", up="2c")
    assert {w for row, w in zip(union.hidden.tolist(), union.weights, strict=True)
            if row in both_kings} == {2.0}  # fmt: skip
    assert inter.hidden.tolist() == both_kings and set(inter.weights) == {0.5}


def test_hands_are_in_dealing_order_and_read_only() -> None:
    r = Range("rolled", up="Kc Qd Jh 2s", street=7)
    assert r.hands.shape == (len(r), 7)
    assert (r.hands[:, 2:6] == studeval.parse_cards("Kc Qd Jh 2s")).all()
    assert sorted(r.hands[0, [0, 1, 6]].tolist()) == r.hidden[0].tolist()
    with pytest.raises(ValueError):
        r.hidden[0, 0] = 0


@pytest.mark.parametrize(
    ("text", "up", "position", "words"),
    [
        ("KK,", "2c", 3, "missing at the end"),
        ("K(K", "2c", 1, "unexpected '('"),
        ("pears", "2c", 0, "no class is named 'pears'"),
        ("KX", "2c", 1, "'X' is no rank"),
        ("[A-]", "2c", 1, "no rank or span"),
        ("[A-K", "2c", 0, "missing ']'"),
        ("KK@", "2c", 3, "takes a weight"),
        ("KK+s", "2c", 3, "unexpected 's'"),
        ("AK+", "2c", 2, "'+' follows cards of one rank"),
        ("Kc Kd Ks Kh", "2c", 0, "has 4 cards"),
        ("**Kd", "Kc", 2, "the seat shows Kc"),
        ("(KK, QQ", "2c", 0, "missing ')'"),
        (", KK", "2c", 0, "a term is missing"),
        ("  ", "2c", 0, "empty"),
        ("pair+", "2c", 4, "'+' (or better) follows a made-hand category"),
        ("low6-8", "2c", 0, "lowN-R takes N from 1 to 5"),
        ("low3-A", "2c", 0, "a rank R from 2 to K"),
        ("KK, low5-4", "2c", 4, "'low5-4': only 4 ranks, the ace to 4, are 4 or lower"),
        ("low3-1x", "2c", 0, "'low3-1x': lowN-R takes"),  # the whole word quoted
        ("KK, rolled-up", "", 4, "'rolled-up' is three of the door card's rank"),
        ("rolled", "", 0, "is three of the door card's rank: give the seat's up cards"),
        # Classes the seat's cards could never hold: an error, not a class that
        # silently adds nothing to a union.
        ("buried, split", "", 8, "'split' pairs a down card with an up card"),
        ("KK, trips", "", 4, "'trips' needs 3 cards; with 0 up cards the seat holds 2"),
        ("pair, three-flush", "", 6, "'three-flush' needs 3 cards"),
        ("low3-8", "", 0, "'low3-8' needs 3 cards"),
        ("KK, two-pair", "2c", 4, "'two-pair' needs 4 cards; with 1 up card the seat holds 3"),
        ("full-house", "2c 3c", 0, "'full-house' needs 5 cards"),
        ("full-house+", "2c", 0, "'full-house+' needs 4 cards"),  # quads: 4
    ],
)
def test_malformed_text_points_at_the_character(text, up, position, words) -> None:
    with pytest.raises(RangeError) as info:
        Range(text, up=up)
    assert info.value.position == position
    assert words in str(info.value)
    assert isinstance(info.value, ValueError)
    assert "^" in str(info.value).splitlines()[-1]


def test_a_term_of_a_list_that_can_hold_nothing_is_said_not_dropped() -> None:
    # With Kc up, three aces cannot be held: the term had added nothing, silently.
    # A warning, not an error: a range written for many spots meets dead cards.
    for text, at in (("KK*, AAA+", 5), ("AAA+, KK*", 0), ("KK*, (AAA+)@0.5", 6)):
        with pytest.warns(RangeWarning, match="this term holds no combination") as caught:
            found = Range(text, up="Kc")
        assert len(found) == 3  # the kings
        assert len(caught) == 1 and caught[0].filename == __file__  # the caller's line
        assert str(caught[0].message).splitlines()[-1] == " " * (2 + at) + "^"
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # none where every term holds something
        assert len(Range("KK*, QQ*", up="Kc")) == 3 + 6
        assert len(Range("KK*!AAA+", up="Kc")) == 3  # a difference is no list of terms
    with pytest.raises(RangeError, match="no combination of 'AAA\\+' is left"):
        Range("AAA+", up="Kc")  # a range that holds nothing at all


def test_empty_and_bad_ranges_name_why() -> None:
    with pytest.raises(RangeError, match="no combination of 'AA' is left"):
        Range("AA", up="Ac", dead="Ad Ah As")
    with pytest.raises(RangeError, match="street 5 does not fit 1 up card"):
        Range("*", up="Kc", street=5)
    with pytest.raises(RangeError, match="row 1 holds a card twice"):
        Range(np.array([[0, 1], [2, 2]]), up="Kc")
    with pytest.raises(RangeError, match="row 0 holds an up card"):
        Range(np.array([[44, 1]]), up="Kc")
    with pytest.raises(RangeError, match="given twice"):
        Range(np.array([[0, 1], [1, 0]]), up="Kc")
    with pytest.raises(RangeError, match=r"\(m, 2\)"):
        Range(np.array([0, 1]), up="Kc")
    with pytest.raises(RangeError, match="finite number >= 0"):
        Range(np.array([[0, 1]]), up="Kc", weights=[-1.0])


def test_arrays_and_the_set_operations() -> None:
    every = Range("*", up="Kc")
    kings = Range("KK", up="Kc")
    pairs = Range("buried", up="Kc")
    assert len(kings | pairs) == 219 and len(kings & pairs) == 3 and len(kings - pairs) == 144
    again = Range(kings.hidden, up="Kc")
    assert again == kings
    assert len(every.where(np.isin(every.hidden // 4, [11]).any(axis=1))) == len(kings)
    # An array's rows that hold a dead card are not in the range, and are counted.
    with_dead = Range(every.hidden, up="Kc", dead="As")
    assert with_dead.removed == 50 and len(with_dead) == len(every) - 50
    doubled = kings.reweight(2.0)
    assert (doubled.weights == 2.0).all()
    with pytest.raises(RangeError, match="one seat"):
        _ = kings | Range("KK", up="Kd")
    # Filtering with the batch rankings: made quads on 7th street.
    r = Range("*", up="Kc Kd Qh 2s", street=7)
    quads = r.where(studeval.high_ranks(r.hands) <= 166)
    # Kh Ks and any of the 46 other live cards, or the three queens, or the three deuces.
    assert len(quads) == 46 + 1 + 1


# ---- equity against ranges: exact against the twin --------------------------------------


def _twin_against(game, hero, ranges, dead):
    """The twin over every collision-free tuple of combinations, weighted."""
    totals = dict.fromkeys(FIELDS)
    weight_sum = Fraction(0)
    deals = 0
    rows = [list(zip(r.hidden.tolist(), r.weights.tolist(), strict=True)) for r in ranges]
    known = set(hero) | set(dead) | {c for r in ranges for c in r.up}
    for picks in itertools.product(*rows):
        cards = [c for hidden, _ in picks for c in hidden]
        if len(set(cards)) != len(cards) or set(cards) & known:
            continue
        hands = [hero] + [[*hidden, *r.up] for (hidden, _), r in zip(picks, ranges, strict=True)]
        got = twin(game, hands, dead)
        weight = Fraction(1)
        for _, w in picks:
            weight *= Fraction(w)
        weight_sum += weight
        deals += int(got["deals"][0])
        for name in FIELDS:
            values = [weight * v for v in got[name]]
            totals[name] = values if totals[name] is None else [
                a + b for a, b in zip(totals[name], values, strict=True)]  # fmt: skip
    return {k: [v / weight_sum for v in vs] for k, vs in totals.items()}, deals


def _small_spots():
    """Spots at every street from 4th to 7th, each game, one and two ranges, weights
    and dead cards; the deck is cut short with dead cards so that the twin can walk."""
    rng = random.Random(35)
    spots = []
    for index in range(24):
        street = 4 + index % 4
        game = GAMES[(index // 4) % 4]
        n_ranges = 1 if index < 16 else 2
        deck = rng.sample(range(52), 52)
        hero = [deck.pop() for _ in range(min(street, 7))]
        ups = [[deck.pop() for _ in range(min(street - 2, 4))] for _ in range(n_ranges)]
        # Two ranges on 4th street need more cards left (and narrow ranges: see below).
        live = 9 if n_ranges == 1 else 11 if street == 4 else 8
        for _ in range(live):
            deck.pop()
        dead = deck
        spots.append((game, street, hero, ups, dead, index))
    return spots


@pytest.mark.parametrize(("game", "street", "hero", "ups", "dead", "index"), _small_spots())
def test_exact_range_equity_matches_the_twin(game, street, hero, ups, dead, index) -> None:
    rng = np.random.default_rng(index)
    ranges = []
    for seat, up in enumerate(ups):
        # The other villain's up cards are out of this range too (as equity would remove).
        others = [c for i, u in enumerate(ups) if i != seat for c in u]
        r = Range("*", up=up, street=7 if street == 7 else None, dead=[*dead, *others, *hero])
        if index % 2:  # weights, some of them zero
            r = r.reweight(rng.choice([0.0, 0.5, 1.0, 3.0], size=len(r)))
        if index % 3 == 0:
            r = r.where(np.arange(len(r)) % 2 == 0)
        if len(ups) == 2 and street == 4:  # few tuples, so that the twin can walk them:
            # the first range's lowest combinations, the second's highest
            r = r.where(np.arange(len(r)) < 4 if ranges else np.arange(len(r)) >= len(r) - 4)
        ranges.append(r)
    result = studeval.equity([hero, *ranges], game, method="exact")
    want, deals = _twin_against(game, hero, ranges, dead)
    assert result.exact and result.method == "exact by combination"
    assert result.deals == deals
    for i, player in enumerate(result.players):
        for name in FIELDS:
            assert getattr(player, name) == pytest.approx(float(want[name][i]), abs=1e-12), (
                i, name)  # fmt: skip
        assert player.high_share == pytest.approx(float(want["share"][i] - want["low_share"][i]),
                                                  abs=1e-12)  # fmt: skip


def test_auto_is_exact_late_and_samples_early() -> None:
    late = studeval.equity(["As Ad 7c 8d 9h Tc", Range("pair", up="Kc Qd 2h 3s")], "stud8")
    assert late.exact and late.method == "exact by combination"
    early = studeval.equity(["As Ad 7c", Range("KK", up="Kc")], "stud", seed=1)
    assert not early.exact and early.method == "monte carlo"


@pytest.mark.parametrize("game", GAMES)
def test_monte_carlo_at_third_street_within_four_standard_errors(game) -> None:
    villain = Range("rolled, KK*", up="Kc")  # 3 + 3 - 3: the rolled-up kings and KK*
    exact = studeval.equity(["As Ad 7c", villain], game, method="exact")
    sampled = studeval.equity(["As Ad 7c", villain], game, method="mc", samples=300_000,
                              seed=7)  # fmt: skip
    assert exact.exact and not sampled.exact
    for e, s in zip(exact.players, sampled.players, strict=True):
        assert abs(e.share - s.share) <= 4 * s.std_error
        assert s.std_error > 0


def test_monte_carlo_is_the_same_on_any_thread_count() -> None:
    villain = Range("buried@3, split", up="Kc")
    one = studeval.equity(["As Ad 7c", villain], "stud", samples=65_536, seed=3, threads=1)
    two = studeval.equity(["As Ad 7c", villain], "stud", samples=65_536, seed=3, threads=2)
    assert one.counts == two.counts


@pytest.mark.parametrize("game", GAMES)
def test_monte_carlo_draws_by_weight(game) -> None:
    # 5th street, the deck cut short so that the exact answer is quick: the weighted
    # sample agrees with the exact weighted count, and the weights move the answer.
    dead = "2c 2d 2h 2s 3c 3d 3h 3s 4c 4d 4h 4s 5c 5d 5h 5s 6c 6d 6h 6s"
    hero = "As Ad 7c 8d 9h"
    weighted = Range("two-pair+@20, *@0.05", up="Kc Qd Jh", dead=dead)
    plain = Range("*", up="Kc Qd Jh", dead=dead)
    exact = studeval.equity([hero, weighted], game, method="exact")
    sampled = studeval.equity([hero, weighted], game, method="mc", samples=200_000, seed=11)
    unweighted = studeval.equity([hero, plain], game, method="exact")
    for e, s in zip(exact.players, sampled.players, strict=True):
        assert abs(e.share - s.share) <= 4 * s.std_error
    assert (
        abs(exact.players[0].share - unweighted.players[0].share) > 8 * sampled.players[0].std_error
    )


def test_two_ranges_drawn_jointly_against_exact() -> None:
    a = Range("*", up="Kc Qd 2h 3s", dead="4c 4d 4h 4s 5c 5d 5h 5s 6c 6d 6h 6s")
    b = Range("pair", up="9c 9d Th Ts", dead=a.dead)
    hero = "As Ad 7c 8d 9h Tc"
    exact = studeval.equity([hero, a, b], "stud", method="exact")
    sampled = studeval.equity([hero, a, b], "stud", method="mc", samples=400_000, seed=5)
    for e, s in zip(exact.players, sampled.players, strict=True):
        assert abs(e.share - s.share) <= 4 * s.std_error


def test_ranges_that_cannot_be_held_together() -> None:
    one = Range(np.array([[0, 1]]), up="Kc")
    same = Range(np.array([[0, 1]]), up="Kd")
    with pytest.raises(RangeError, match="cannot be held together"):
        studeval.equity(["As Ad 7c", one, same], "stud", method="exact")
    with pytest.raises(RangeError, match="never be held together"):
        studeval.equity(["As Ad 7c", one, same], "stud", method="mc", samples=4096, seed=1)
    with pytest.raises(RangeError, match="player 1's range"):
        studeval.equity(["2c 2d 7c", one], "stud")
    # Eight seats on seventh street: 32 up cards leave 20, too few for eight own
    # seventh cards, so the seventh card is a community card and a range that holds
    # its own is refused by name (it was the core's bare "bad argument").
    boards = [f"{r}c {r}d {r}h {r}s" for r in "23456789"]
    with pytest.raises(NoDealError, match="player 0's range holds its own seventh card"):
        studeval.equity([Range("*", up=b, street=7) for b in boards], "stud", seed=1)
    sixth = studeval.equity([Range("*", up=b) for b in boards], "stud", samples=4096, seed=1)
    assert sixth.community and isclose(sum(p.share for p in sixth.players), 1.0)


# ---- range_equity -------------------------------------------------------------------


def test_range_equity_is_plain_equity_per_combination() -> None:
    hero = "As Ad 7c 8d 9h Tc"
    villain = Range("pair, three-flush", up="Kc Qd 2h 3s")
    shares = range_equity(hero, villain, "stud8")
    taken = set(studeval.parse_cards(hero))
    assert np.isnan(shares).sum() == sum(1 for row in villain.hidden.tolist() if set(row) & taken)
    for i in range(0, len(villain), 97):
        if np.isnan(shares[i]):
            continue
        cards = studeval.cards_str([*villain.hidden[i], *villain.up])
        assert shares[i] == pytest.approx(studeval.equity([hero, cards], "stud8").players[0].share,
                                          abs=1e-12)  # fmt: skip
    sampled = range_equity(hero, villain, "stud8", method="mc", samples=20_000, seed=1)
    live = ~np.isnan(shares)
    assert np.abs(sampled[live] - shares[live]).max() < 0.05
    with pytest.raises(OptionError):
        range_equity(hero, villain, "stud8", method="exact", samples=10)
    # samples and seed checked as equity checks them: nothing cut or read as a number.
    for bad in ({"samples": 2.5}, {"samples": True}, {"samples": 0}, {"seed": 2.5},
                {"seed": True}):  # fmt: skip
        with pytest.raises(OptionError, match=next(iter(bad))):
            range_equity(hero, villain, "stud8", method="mc", **bad)  # type: ignore[arg-type]


# ---- properties ---------------------------------------------------------------------


@settings(max_examples=25, deadline=None)
@given(st.randoms(use_true_random=False), st.sampled_from(GAMES))
def test_a_range_of_one_combination_is_plain_equity(rnd, game) -> None:
    deck = rnd.sample(range(52), 52)
    hero = [deck.pop() for _ in range(6)]
    hidden = [deck.pop(), deck.pop()]
    up = [deck.pop() for _ in range(4)]
    r = Range(np.array([hidden]), up=up)
    ranged = studeval.equity([hero, r], game, method="exact")
    plain = studeval.equity([hero, hidden + up], game, method="exact")
    for a, b in zip(ranged.players, plain.players, strict=True):
        assert a.share == pytest.approx(b.share, abs=1e-12)
        assert a.scoop == pytest.approx(b.scoop, abs=1e-12)


@settings(max_examples=15, deadline=None)
@given(st.randoms(use_true_random=False), st.floats(0.1, 10.0), st.floats(0.1, 10.0))
def test_union_and_weights_are_linear(rnd, wa, wb) -> None:
    deck = rnd.sample(range(52), 52)
    hero = [deck.pop() for _ in range(7)]
    up = [deck.pop() for _ in range(4)]
    every = Range("*", up=up, street=7, dead=hero)
    half = np.arange(len(every)) % 2 == 0
    a, b = every.where(half).reweight(wa), every.where(~half).reweight(wb)
    ea, eb, eab = (studeval.equity([hero, r], "stud").players[0].share for r in (a, b, a | b))
    total_a, total_b = a.weights.sum(), b.weights.sum()
    assert eab == pytest.approx((total_a * ea + total_b * eb) / (total_a + total_b), abs=1e-12)
    assert studeval.equity([hero, a.reweight(3.0)], "stud").players[0].share == pytest.approx(ea)


def test_made_categories_agree_with_the_core_ranks() -> None:
    # The ranges' categories are counted from ranks and suits; on 5 to 7 cards they must
    # name the core's category (high_categories: 0 straight flush .. 8 high card).
    from studeval.classes import made_categories

    rng = np.random.default_rng(5)
    for size in (5, 6, 7):
        hands = np.argsort(rng.random((20_000, 52)), axis=1)[:, :size].astype(np.uint8)
        core = studeval.high_categories(studeval.high_ranks(hands))
        assert (made_categories(hands) == 8 - core.astype(np.int64)).all()


PIECES = [
    "KK",
    "AxKx",
    "RR",
    "*",
    "[A-5]",
    "[2-8]s",
    ",",
    ":",
    "!",
    "(",
    ")",
    "@0.5",
    "+",
    "buried",
    "split",
    "rolled",
    "low3-8",
    "two-pair+",
    "three-flush",
    " ",
    "Kc",
    "x",
]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(PIECES), st.text(max_size=3)), min_size=1, max_size=7),
       st.sampled_from(["2c", "Kc Kd", "9h 8h 7h", "Kc Kd Qh 2s"]))  # fmt: skip
def test_any_text_is_a_range_or_a_range_error(pieces, up) -> None:
    text = "".join(pieces)
    try:
        r = Range(text, up=up)
    except RangeError as err:
        assert err.position is None or 0 <= err.position <= len(text)
        return
    assert len(r) > 0 and (r.weights > 0).all()
    assert not set(r.hidden.ravel().tolist()) & set(r.up)


# ---- the command line -------------------------------------------------------------


def test_cli_reads_range_at_up_cards_and_explains(capsys) -> None:
    from studeval.cli import main

    hero, villain = "As Ad Ah 7c 7d 3h 4h", "two-pair+@Kc Kd Qh 2s"
    assert main(["equity", hero, villain, "--explain"]) == 0
    out = capsys.readouterr().out.splitlines()
    want = studeval.equity([hero, Range("two-pair+", up="Kc Kd Qh 2s", street=7)], "stud")
    assert out[0] == f"Seven Card Stud: exact, {want.deals:,} deals"
    assert out[3].split()[-1] == f"{want.players[1].share:.2%}"
    listed = [line.strip() for line in out if line.startswith("  ")]
    assert len(listed) == want.deals  # on 7th street, one deal a combination counted
    hero_cards = set(hero.split())
    assert not any(set(line.split()) & hero_cards for line in listed)


def test_cli_range_errors_point_at_the_character(capsys) -> None:
    from studeval.cli import main

    assert main(["equity", "As Ad 7c", "KK, pears@Kc"]) == 2
    err = capsys.readouterr().err
    assert "player 1's range" in err and "no class is named 'pears'" in err
    assert err.rstrip().splitlines()[-1] == "      ^"


def test_cli_json_gives_the_halves(capsys) -> None:
    import json

    from studeval.cli import main

    assert main(["equity", "--game", "stud8", "--format", "json", "As Ad 7c 8d 9h Tc",
                 "pair, three-flush@Kc Qd 2h 3s"]) == 0  # fmt: skip
    data = json.loads(capsys.readouterr().out)
    assert data["method"] == "exact by combination"
    for p in data["players"]:
        assert p["high_share"] + p["low_share"] == pytest.approx(p["share"], abs=1e-12)


# ---- what an adversarial review found (each once a bug) -----------------------------


def test_plus_patterns_and_rolled_up_on_every_street() -> None:
    assert len(Range("999+", up="Kc")) == 3  # only rolled-up kings: the door is a king
    assert len(Range("999+", up="9c")) == 3
    # 7th street: any two of the three down cards pair the door (3 kings left, 45 others).
    assert len(Range("rolled", up="Kc Qd 2s 3h", street=7)) == 3 * 45 + 1
    assert len(Range("h5", up="Kc 5d")) == len(Range("*h 5", up="Kc 5d"))


def test_patterns_too_slow_to_match_and_deep_texts_are_refused() -> None:
    with pytest.raises(RangeError, match="bindings of its variables"):
        Range("RON", up="Kc Qd 2s 3h", street=7)
    assert len(Range(", ".join(["KK"] * 3000), up="Kc 7d")) == len(Range("KK", up="Kc 7d"))
    with pytest.raises(RangeError, match="nested more than"):
        Range("(" * 60 + "KK" + ")" * 60, up="Kc")


def test_wide_weights_stay_exact_and_sampled() -> None:
    hero = "As Ad 7c 8d 9h Th"
    wide = Range("KK@1e-300, QQ@1e300", up="Kc 2d 3h 4s")
    queens = Range("QQ", up="Kc 2d 3h 4s")
    assert studeval.equity([hero, wide], "stud").players[0].share == pytest.approx(
        studeval.equity([hero, queens], "stud").players[0].share, abs=1e-12)  # fmt: skip
    huge = Range("KK@1e301, QQ", up="Kc")
    assert not studeval.equity(["As Ad 7c", huge], "stud", samples=4096, seed=1).exact
    with pytest.raises(RangeError, match="too large"):
        Range("KK", up="Kc").reweight(1e308).reweight(10)


def test_many_distinct_weights_fall_back_to_53_bit_sums(monkeypatch) -> None:
    from studeval import equity_ranges

    hero = "As Ad 7c 8d 9h Tc 2c"
    rng = np.random.default_rng(3)
    a = Range("*", up="Kc Qd 2h 3s", street=7, dead="4c 4d 4h 4s 5c 5d 5h 5s 6c 6d 6h 6s")
    a = a.reweight(rng.random(len(a)) + 0.1)
    exact = studeval.equity([hero, a], "stud", method="exact")
    monkeypatch.setattr(equity_ranges, "MAX_EXACT_GROUPS", 4)
    rounded = studeval.equity([hero, a], "stud", method="exact")
    assert len(set(a.weights.tolist())) > 4
    for e, r in zip(exact.players, rounded.players, strict=True):
        assert r.share == pytest.approx(e.share, abs=1e-12)


def test_auto_samples_when_counting_would_take_long() -> None:
    # Second street in stud8: counting one combination takes seconds.
    result = studeval.equity(["2c 3d", Range("KsKh")], "stud8", seed=1)
    assert not result.exact


def test_bad_inputs_are_range_errors() -> None:
    kings = Range("KK", up="Kc")
    for bad in (
        lambda: Range(np.array([[0, 1]]), up="Kc", weights=["a"]),
        lambda: Range(np.array([[0, 1], [2, 3]]), up="Kc", weights=[1j, 1]),
        lambda: Range([[0, 1], [2]], up="Kc"),
        lambda: kings.reweight(np.ones(3)),
        lambda: kings.reweight("a"),
        lambda: kings.reweight(lambda r: np.ones((len(r), 1))),
    ):
        with pytest.raises(RangeError):
            bad()
    with pytest.raises(RangeError, match="the card Qd is given twice"):
        Range("KK", up="Kc Qd Qd")
    with pytest.raises(OptionError, match="not a range"):
        range_equity(Range("AA", up="Ac 7c 8d 9h"), Range("KK", up="Kc 2d 3h 4s"), "stud")


def test_set_operations_keep_both_texts() -> None:
    both = Range("KK", up="Kc") | Range("QQ", up="Kc")
    assert both.text == "(KK) , (QQ)" and both == Range(both.text, up="Kc")
    assert (Range("KK", up="Kc") - Range("rolled", up="Kc")).text == "(KK) ! (rolled)"
    assert Range("KK", up="Kc").where(np.arange(147) < 3).text == ""


def test_cli_reads_compact_card_text(capsys) -> None:
    from studeval.cli import main

    assert main(["equity", "AsAd7c8d9hTcJc", "KK@KcQd2h3s"]) == 0
    assert "exact, 2,224 deals" in capsys.readouterr().out


def test_a_ranges_arrays_stay_read_only() -> None:
    # The core trusts a Range's codes: a writable array could be given other ones.
    found = Range("KK*, QQ*", up="Kc")
    for array in (found.hands, found.hidden, found.weights):
        with pytest.raises(ValueError, match="WRITEABLE"):
            array.flags.writeable = True
        with pytest.raises(ValueError, match="read-only"):
            array[0] = 0
