"""The compiled rankings against the pure-Python twin (``tests/reference.py``).

Hand-checked values for known hands first, then hypothesis comparisons of the
single-hand and batch paths with the twin: every hand size, any card order, the
input forms (codes, strings, one string), batch dtypes, layouts, read-only
arrays and thread counts.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest
import reference as ref
from conftest import MIN_ROWS_PER_THREAD_IN_TESTS
from helpers import KNOWN_HANDS, KnownHand
from hypothesis import given, settings
from hypothesis import strategies as st

import studeval
from studeval import _core, cards_str, parse_cards

DTYPES = [np.uint8, np.int8, np.int16, np.int32, np.int64, np.uint64]
THREADS = [1, 2]


def codes(text: str) -> list[int]:
    return parse_cards(text)


def hand_of(size: int) -> st.SearchStrategy[list[int]]:
    return st.lists(st.integers(0, 51), min_size=size, max_size=size, unique=True)


hands = st.integers(5, 7).flatmap(hand_of)
up_hands = st.integers(1, 4).flatmap(hand_of)


# ---- hand-checked values ----------------------------------------------------


@pytest.mark.parametrize("known", KNOWN_HANDS, ids=lambda known: known.cards)
def test_known_hands(known: KnownHand) -> None:
    """The hands of tests/data/known_hands.tsv (the exhaustive C check reads them too):
    every pinned rank and name, from the compiled core and from the reference."""
    text = known.cards
    high, low = studeval.high_rank(text), studeval.low_rank(text)
    assert high == ref.high_rank(codes(text))
    assert low == ref.low_rank(codes(text))
    if known.high is not None:
        assert high == known.high
        assert studeval.high_category(high) == known.high_words.split(",")[0].replace(  # type: ignore[union-attr]
            "Royal", "Straight"
        )
    if known.low is not None:
        assert low == known.low
    if known.low8 is not None:
        assert studeval.low8_rank(text) == (known.low8 or None)
    if known.high_words is not None:
        assert studeval.describe_high(high) == known.high_words
    if known.low_words is not None:
        assert studeval.describe_low(low) == known.low_words


def test_the_known_hands_were_read() -> None:
    assert len(KNOWN_HANDS) > 30
    assert sum(known.high is not None for known in KNOWN_HANDS) > 20
    assert sum(known.low8 == 0 for known in KNOWN_HANDS) > 5  # hands with no low


def test_rank_extremes_and_constants() -> None:
    assert studeval.NO_LOW == 65535
    assert studeval.low8_rank("8c 7d 6h 5s 4c Kd Kh") == 56
    assert studeval.low8_rank("9c 7d 6h 5s 4c Kd Kh") is None
    # A wheel plays for high as a straight and for low as the nuts at once.
    ranks = studeval.all_ranks(np.array([codes("5c 4d 3h 2s Ad Kc Kd")], dtype=np.uint8))
    assert (int(ranks.high[0]), int(ranks.low[0]), int(ranks.low8[0])) == (1609, 1, 1)


def test_low_categories() -> None:
    shapes = {
        "5c 4d 3h 2s Ad": "No Pair",
        "2c 2d 7h 5s Ad": "One Pair",
        "2c 2d 7h 7s Ad": "Two Pair",
        "2c 2d 2h 7s Ad": "Three of a Kind",
        "2c 2d 2h 7s 7d": "Full House",
        "Kc Kd Kh Ks Qd": "Four of a Kind",
    }
    for text, shape in shapes.items():
        assert studeval.low_category(studeval.low_rank(text)) == shape


def test_known_up_card_ranks() -> None:
    high = studeval.up_high_rank
    low = studeval.up_low_rank
    assert high("As") == 1 and high("2c") == 13
    assert high("Ac Ad") == 1 and high("2c 2d") == 13 and high("Ac Kd") == 14
    assert high("3c 2d") == 91
    # Pairs beat any high cards; trips beat two pair; straights/flushes never count.
    assert high("2c 2d") < high("As Ks")
    assert high("2c 2d 2h 3c") < high("Ac Ad Kc Kd")
    assert high("Ac Ad Kc Kd") < high("Ac Ad Kc Qd")
    assert high("9h Th Jh Qh") == high("9c Td Js Qh")
    assert high("Ac Ad Ah As") == 1 and high("3c 2d 4h 5s") > high("Ac Kd Qh 2s")
    assert low("Ac") == 1 and low("Kc") == 13
    assert low("2c Ad") == 1 and low("Ac Ad") == 79 and low("Kc Kd") == 91
    assert low("4c 3d 2h Ad") == 1
    # A-5 order: no pair < one pair < two pair < trips < quads.
    assert low("Kc Qd Jh Ts") < low("Ac Ad 2c 3d") < low("Ac Ad 2c 2d") < low("Ac Ad Ah 2c")
    assert low("Ac Ad Ah 2c") < low("Ac Ad Ah As")


def test_known_best_five() -> None:
    assert cards_str(studeval.best_five("As Ks Qs Js Ts 2c 3d", "high")) == "As Ks Qs Js Ts"
    assert cards_str(studeval.best_five("Ac 2d 3h 4s 5c Kd Kh", "low")) == "5c 4s 3h 2d Ac"
    assert cards_str(studeval.best_five("Ac 2d 3h 4s 5c Kd Kh", "low8")) == "5c 4s 3h 2d Ac"
    # Two equal fives: the one with the higher suits plays.
    assert cards_str(studeval.best_five("Ac Kd Qh Js Tc Ts", "high")) == "Ac Kd Qh Js Ts"
    assert cards_str(studeval.best_five("Kc Kd 7h 7s 4c 4d 2h", "low")) == "Kd 7s 4d 4c 2h"


# ---- single hands against the twin -------------------------------------------


@settings(max_examples=300, deadline=None)
@given(hands)
def test_single_hand_rankings_match_twin(hand: list[int]) -> None:
    assert studeval.high_rank(hand) == ref.high_rank(hand)
    assert studeval.low_rank(hand) == ref.low_rank(hand)
    assert studeval.low8_rank(hand) == ref.low8_rank(hand)


@settings(max_examples=150, deadline=None)
@given(st.integers(5, 7).flatmap(hand_of).flatmap(st.permutations), st.randoms())
def test_card_order_and_input_form_do_not_matter(hand: list[int], rnd: Any) -> None:
    shuffled = list(hand)
    rnd.shuffle(shuffled)
    text = cards_str(hand)
    forms: list[Any] = [
        hand,
        tuple(shuffled),
        text,
        text.split(),
        text.replace(" ", ""),
        ", ".join(reversed(text.split())).lower(),
        [np.int64(c) for c in shuffled],
        np.array(shuffled, dtype=np.uint8),
    ]
    expected = (ref.high_rank(hand), ref.low_rank(hand), ref.low8_rank(hand))
    for form in forms:
        got = (studeval.high_rank(form), studeval.low_rank(form), studeval.low8_rank(form))
        assert got == expected, form


@settings(max_examples=300, deadline=None)
@given(up_hands)
def test_up_card_ranks_match_twin(hand: list[int]) -> None:
    assert studeval.up_high_rank(hand) == ref.up_high_rank(hand)
    assert studeval.up_low_rank(hand) == ref.up_low_rank(hand)
    assert studeval.up_high_rank(cards_str(reversed(hand))) == ref.up_high_rank(hand)


@settings(max_examples=200, deadline=None)
@given(hands, st.sampled_from(["high", "low", "low8"]))
def test_best_five_matches_twin(hand: list[int], ranking: str) -> None:
    five = studeval.best_five(hand, ranking)
    assert five == ref.best_five(hand, ranking)
    rank_of: Callable[[Sequence[int]], int] = (
        studeval.high_rank if ranking == "high" else studeval.low_rank
    )
    assert rank_of(five) == rank_of(hand)
    assert set(five) <= set(hand)


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 7462))
def test_high_words_match_twin(rank: int) -> None:
    assert studeval.high_category(rank) == ref.high_category(rank)
    assert studeval.describe_high(rank) == ref.describe_high(rank)


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 6175))
def test_low_words_match_twin(rank: int) -> None:
    assert studeval.low_category(rank) == ref.low_category(rank)
    assert studeval.describe_low(rank) == ref.describe_low(rank)


def test_all_words_match_twin() -> None:
    """Every class, not a sample: the words are cheap."""
    for rank in range(1, 7463):
        assert studeval.describe_high(rank) == ref.describe_high(rank), rank
        assert studeval.high_category(rank) == ref.high_category(rank), rank
    for rank in range(1, 6176):
        assert studeval.describe_low(rank) == ref.describe_low(rank), rank
        assert studeval.low_category(rank) == ref.low_category(rank), rank


# ---- batches against the twin ------------------------------------------------


def twin_batch(rows: Sequence[Sequence[int]]) -> tuple[list[int], list[int], list[int]]:
    high = [ref.high_rank(r) for r in rows]
    low = [ref.low_rank(r) for r in rows]
    low8 = [studeval.NO_LOW if (v := ref.low8_rank(r)) is None else v for r in rows]
    return high, low, low8


def check_batch(cards: npt.ArrayLike, want: tuple[list[int], list[int], list[int]]) -> None:
    n = len(want[0])
    for threads in THREADS:
        started = _core._threads_started()
        got_all = studeval.all_ranks(cards, threads=threads)
        if threads > 1 and n >= 2 * MIN_ROWS_PER_THREAD_IN_TESTS:
            assert _core._threads_started() > started, "a threads=2 batch ran on one thread"
        assert isinstance(got_all, studeval.Ranks)
        assert got_all._fields == ("high", "low", "low8")
        got = (
            studeval.high_ranks(cards, threads=threads),
            studeval.low_ranks(cards, threads=threads),
            studeval.low8_ranks(cards, threads=threads),
            *got_all,
        )
        for array in got:
            assert isinstance(array, np.ndarray)
            assert array.dtype == np.uint16 and array.shape == (n,)
        assert [a.tolist() for a in got[:3]] == list(want)
        assert [a.tolist() for a in got[3:]] == list(want)
        unchecked = studeval.all_ranks(cards, threads=threads, check=False)
        assert [a.tolist() for a in unchecked] == list(want)


@settings(max_examples=60, deadline=None)
@given(
    st.integers(5, 7).flatmap(lambda k: st.lists(hand_of(k), min_size=1, max_size=24)),
    st.sampled_from(DTYPES),
)
def test_batch_matches_twin_for_dtypes(rows: list[list[int]], dtype: Any) -> None:
    want = twin_batch(rows)
    check_batch(np.array(rows, dtype=dtype), want)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize(
    "layout",
    [
        "fortran",
        "every_other_row",
        "every_other_column",
        "reversed_columns",
        "reversed_rows",
        "padded",
        "readonly",
    ],
)
@settings(max_examples=8, deadline=None)
@given(rows=st.integers(5, 7).flatmap(lambda k: st.lists(hand_of(k), min_size=1, max_size=40)))
def test_batch_layouts(rows: list[list[int]], dtype: Any, layout: str) -> None:
    """Every layout with every dtype (all 30 pairs), hypothesis drawing the rows."""
    want = twin_batch(rows)
    base = np.array(rows, dtype=dtype)
    if layout == "fortran":
        cards = np.asfortranarray(base)
    elif layout == "every_other_row":
        doubled = np.repeat(base, 2, axis=0)
        doubled[1::2] = 255 if np.dtype(dtype).kind == "u" else -1  # poison rows, skipped
        cards = doubled[::2]
    elif layout == "every_other_column":  # a column stride: read where the cards lie
        spread = np.repeat(base, 2, axis=1)
        spread[:, 1::2] = 255 if np.dtype(dtype).kind == "u" else -1  # poison, skipped
        cards = spread[:, ::2]
    elif layout == "reversed_columns":
        cards = base[:, ::-1]
    elif layout == "reversed_rows":  # a negative row stride: copied before the core reads it
        cards = base[::-1]
        want = twin_batch(rows[::-1])
    elif layout == "padded":
        wide = np.full((base.shape[0], base.shape[1] + 3), 99, dtype=dtype)
        wide[:, 1 : 1 + base.shape[1]] = base
        cards = wide[:, 1 : 1 + base.shape[1]]
    else:
        cards = base.copy()
        cards.flags.writeable = False
    if layout != "readonly" and len(rows) > 1:
        assert not cards.flags.c_contiguous  # the layout really is exercised
    check_batch(cards, want)


def test_batch_accepts_nested_lists_and_empty() -> None:
    rows = [codes("As Ks Qs Js Ts 2c 3d"), codes("7c 5d 4h 3s 2d 9c Td")]
    assert studeval.high_ranks(rows).tolist() == [1, ref.high_rank(rows[1])]
    for k in (5, 6, 7):
        empty = np.zeros((0, k), dtype=np.uint8)
        for fn in (studeval.high_ranks, studeval.low_ranks, studeval.low8_ranks):
            out = fn(empty)
            assert out.dtype == np.uint16 and out.shape == (0,)


@pytest.mark.parametrize("k", [5, 6, 7])
def test_large_batch_matches_twin(k: int, threads_started: Callable[[], int]) -> None:
    """Many random hands: every dtype and thread count against the pure-Python twin."""
    rng = np.random.default_rng(20240 + k)
    n = 1500
    rows = np.argsort(rng.random((n, 52)), axis=1)[:, :k].astype(np.uint8)
    want_high, want_low, want_low8 = twin_batch(rows.tolist())
    for dtype in DTYPES:
        cards = rows.astype(dtype)
        for threads in (*THREADS, None):
            got = studeval.all_ranks(cards, threads=threads)
            assert got.high.tolist() == want_high
            assert got.low.tolist() == want_low
            assert got.low8.tolist() == want_low8
    assert threads_started() >= len(DTYPES)  # every threads=2 call started a thread


# The compiled layer reads plain ASCII card text itself and leaves everything else
# to studeval.cards; both must agree on every text, valid or not.
card_text_alphabet = st.sampled_from(
    list("23456789TJQKAtjqka10cdhsCDHS ,\t\n\r\v\f\x1c\x1fx♠♣♧♦♢♥♡♤\xa0\u2028\u2669")
)


def test_the_core_reads_plain_text_and_symbols_itself() -> None:
    """se_parse_cards reads these without the Python grammar (a reader that fails
    proves it was never asked), and leaves the rest (other whitespace) to it."""

    def no_reader(hand: object) -> list[int]:
        raise AssertionError(f"the grammar was asked for {hand!r}")

    own = ["As Ks Qs Js Ts", "asKSqsJSts", "A♠,K♠ Q♤\tJ♠\nT♠", "10s 9s 8s 7s 6s\r\n",
           "Ac\v2d\f3h\x1c4s\x1f5c"]  # fmt: skip
    left = ["As\xa0Ks Qs Js Ts", "As\u2028Ks Qs Js Ts"]
    _core.set_card_reader(no_reader)
    try:
        assert [studeval.high_rank(text) for text in own] == [1, 1, 1, 5, 1609]
        for text in left:
            with pytest.raises(AssertionError, match="the grammar was asked"):
                studeval.high_rank(text)
    finally:
        _core.set_card_reader(studeval.cards.to_codes)
    assert [studeval.high_rank(text) for text in left] == [1, 1]


@settings(max_examples=400)
@given(st.text(card_text_alphabet, max_size=24))
def test_text_fast_path_agrees_with_the_parser(text: str) -> None:
    def outcome(hand: Any) -> list[Any]:
        results: list[Any] = []
        for function in (studeval.high_rank, studeval.low8_rank, studeval.up_low_rank):
            try:
                results.append(function(hand))
            except studeval.StudevalError as err:
                results.append(type(err).__name__)
        return results

    try:
        codes = parse_cards(text)
    except studeval.InvalidCardError:
        assert outcome(text) == ["InvalidCardError"] * 3
        return
    # Same hand, same answers (or the same kinds of error) from text and from codes.
    assert outcome(text) == outcome(codes)


@given(hands, st.sampled_from([" ", ",", ", ", ""]), st.booleans())
def test_text_forms_rank_like_codes(hand: list[int], separator: str, lower: bool) -> None:
    text = separator.join(cards_str(hand).split())
    text = text.lower() if lower else text
    assert studeval.high_rank(text) == studeval.high_rank(hand)
    assert studeval.low_rank(text) == studeval.low_rank(hand)


def _rank_in_child(cards: npt.NDArray[np.uint8]) -> list[int]:
    return studeval.high_ranks(cards, threads=2).tolist()


# Python 3.12+ warns about fork() whenever any thread is alive; studeval's own
# threads are joined before every batch call returns, but other tests' libraries
# (dask, hypothesis) may leave theirs.
@pytest.mark.filterwarnings("ignore:This process .* is multi-threaded:DeprecationWarning")
def test_forked_child_ranks_after_parent_used_threads() -> None:
    """Plain threads, no OpenMP runtime: a child forked after the parent ran a
    threaded batch can run one itself (libgomp children hang here)."""
    import multiprocessing

    rng = np.random.default_rng(3)
    cards = np.argsort(rng.random((40_000, 52)), axis=1)[:, :7].astype(np.uint8)
    expected = studeval.high_ranks(cards, threads=2).tolist()
    context = multiprocessing.get_context("fork")
    with context.Pool(1) as pool:
        result = pool.apply_async(_rank_in_child, (cards,))
        assert result.get(timeout=60) == expected


def test_every_kernel_ranks_alike_and_finds_the_same_bad_row() -> None:
    """Every kernel this CPU runs (STUDEVAL_KERNEL=scalar, avx2, avx512, avx512_loads,
    each in a child) against the scalar one: random hands of each size, some invalid, checked
    (the first bad row) and unchecked (the ranks of the valid rows), in rows and in
    columns (a column-major array, as a dataframe hands over)."""
    import os
    import subprocess
    import sys

    code = """
import sys, numpy as np, studeval
from studeval import _core
rng = np.random.default_rng(11)
out = [_core.batch_kernel()]
for k in (5, 6, 7):
    hands = np.argsort(rng.random((50_000, 52)), axis=1)[:, :k].astype(np.uint8)
    bad = hands.copy()
    bad[rng.integers(0, 50_000, 40), rng.integers(0, k, 40)] = rng.integers(52, 256, 40)
    bad[777, 1] = bad[777, 0]  # a repeated card
    for rows in (hands, np.asfortranarray(hands)):
        r = studeval.all_ranks(rows, threads=1)
        out.append([a.tobytes().hex()[:64] + str(int(a.astype(np.int64).sum())) for a in r])
        r = studeval.all_ranks(rows, threads=1, check=False)
        out.append([a.tobytes().hex()[:64] + str(int(a.astype(np.int64).sum())) for a in r])
        out.append(int(studeval.high_ranks(rows, threads=1, check=False).astype(np.int64).sum()))
    try:
        studeval.high_ranks(bad, threads=1)
    except studeval.StudevalError as err:
        out.append(str(err))
    valid = studeval.high_ranks(bad, threads=1, check=False)
    rows = [i for i in range(50_000) if len(set(bad[i])) == k and bad[i].max() < 52]
    out.append(int(valid[rows].astype(np.int64).sum()))
print(out)
"""
    results = {}
    for kernel in ("scalar", "avx2", "avx512", "avx512_loads"):
        env = dict(os.environ, STUDEVAL_KERNEL=kernel)
        proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                              text=True, check=True)  # fmt: skip
        ran, *answers = eval(proc.stdout)
        results[ran] = answers
    assert "scalar" in results
    assert set(results) == set(studeval._core.batch_kernels())  # each ran that could
    for kernel, answers in results.items():
        assert answers == results["scalar"], kernel


def test_high_categories_of_an_array() -> None:
    """The batch twin of high_category, checked against it on every rank."""
    ranks = np.arange(1, 7463, dtype=np.uint16)
    got = studeval.high_categories(ranks)
    assert got.dtype == np.uint8 and got.shape == (7462,)
    names = [studeval.HighCategory(studeval.high_category(r)).name for r in range(1, 7463)]
    assert [list(studeval.HighCategory)[c].name for c in got.tolist()] == names
    two_d = studeval.high_categories(np.array([[1, 7462], [166, 167]], dtype=np.int64))
    assert two_d.tolist() == [[0, 8], [1, 2]]
    for bad in ([0], [7463], np.array([-1], dtype=np.int8)):
        with pytest.raises(studeval.InvalidRankError):
            studeval.high_categories(bad)
    with pytest.raises(studeval.OptionError, match="integer array; got dtype float64"):
        studeval.high_categories(np.array([1.0]))
