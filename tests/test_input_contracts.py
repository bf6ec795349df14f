"""Inputs that could be read two ways, or that would break a promise without a word:
each is refused with a StudevalError that names it, or read the one documented way.

Outputs that overlap the cards or each other, chips given as a mapping, hand cells
that could shift rows, options of the wrong type, and the rule that every public
error is a StudevalError.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

import studeval
from studeval import _core
from studeval.errors import (
    BatchOutputError,
    BatchShapeError,
    ChipError,
    HandSizeError,
    InvalidCardError,
    OptionError,
    RulesError,
    StudevalError,
)
from studeval.stream import random_hands

HANDS = random_hands(50_000, seed=77)


# ---- outputs that share memory with the cards or with each other -------------------


def test_out_sharing_the_cards_buffer_is_refused(threads_started: Callable[[], int]) -> None:
    """Threads that write ranks over the cards they read would give wrong ranks, or
    invent an invalid card, now and then: refused."""
    buffer = np.zeros(HANDS.size + 8, dtype=np.uint8)
    cards = buffer[: HANDS.size].reshape(HANDS.shape)
    cards[:] = HANDS
    for start in (0, 2, HANDS.size - 2 * len(HANDS)):  # the front, the middle, the end
        out = buffer[start : start + 2 * len(HANDS)].view(np.uint16)
        with pytest.raises(BatchOutputError, match="shares memory with the cards"):
            studeval.high_ranks(cards, out=out, threads=4)
    assert np.array_equal(cards, HANDS)  # nothing was written
    assert threads_started() == 0  # refused before any work


def test_outputs_sharing_memory_are_refused() -> None:
    """all_ranks(out=(o, o, o)) would return the low8 ranks as high: refused."""
    o = np.empty(len(HANDS), dtype=np.uint16)
    with pytest.raises(BatchOutputError, match=r"out\.low shares memory with out\.high"):
        studeval.all_ranks(HANDS, out=studeval.Ranks(o, o, o))
    wide = np.empty(2 * len(HANDS), dtype=np.uint16)
    overlapping = studeval.Ranks(wide[: len(HANDS)], wide[1 : len(HANDS) + 1], None)
    with pytest.raises(BatchOutputError, match="shares memory"):
        studeval.all_ranks(HANDS, out=overlapping)  # type: ignore[arg-type]


def test_separate_outputs_in_one_buffer_are_fine() -> None:
    n = len(HANDS)
    block = np.empty(3 * n, dtype=np.uint16)
    out = studeval.Ranks(block[:n], block[n : 2 * n], block[2 * n :])
    got = studeval.all_ranks(HANDS, out=out)
    assert got.high is out.high
    assert got.high[:3].tolist() == [studeval.high_rank(h) for h in HANDS[:3].tolist()]


def test_the_compiled_layer_refuses_overlap_too() -> None:
    rows = np.ascontiguousarray(HANDS[:100])
    raw = rows.reshape(-1)[: 2 * 100].view(np.uint16)
    with pytest.raises(BatchOutputError, match="shares memory with the cards"):
        _core.rank_batch(rows, raw, None, None, 1, True)
    out = np.empty(100, dtype=np.uint16)
    with pytest.raises(BatchOutputError, match="two outputs share memory"):
        _core.rank_batch(rows, out, out, None, 1, True)


# ---- containers that are not what they look like ----------------------------------

SHOWDOWN = ["As Ah Kd Kc 7s 3d 2c", "Ks Kh 2d 5d 4c 7c 9c"]


@pytest.mark.parametrize(
    "contributions",
    [{0: 10, 1: 10}, {10, 20}, "10,10", b"\x0a\x0a", (c for c in (10, 10)), np.array([[10, 10]])],
    ids=["dict", "set", "str", "bytes", "generator", "2-D array"],
)
def test_contributions_must_be_a_sequence(contributions: object) -> None:
    """settle(hands, {0: 10, 1: 10}) would read the keys as chips and pay [0, 1]."""
    with pytest.raises(ChipError, match="sequence of chip counts"):
        studeval.settle(SHOWDOWN, contributions, "stud")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "contributions", [[10, 10], (10, 10), np.array([10, 10]), [np.int64(10), np.uint8(10)]]
)
def test_contribution_sequences(contributions: object) -> None:
    assert studeval.settle(SHOWDOWN, contributions, "stud").payouts == [20, 0]  # type: ignore[arg-type]


def test_text_cells_never_shift_rows() -> None:
    """A blank cell must not move the rows below up, nor a newline end the input."""
    import dask.dataframe as dd
    import pandas as pd

    import studeval.dask as sd

    cells = ["As Ks Qs Js Ts", "", "7c 5d 4h 3s 2d"]
    frame = dd.from_pandas(pd.DataFrame({"hand": cells}, index=[10, 11, 12]), npartitions=1)
    with pytest.raises(HandSizeError, match="row with index 11") as caught:
        sd.rank_dataframe(frame, "hand").compute(scheduler="sync")
    assert caught.value.row == 1
    cells = ["As Ks Qs Js Ts", "7c 5d 4h\n3s 2d"]
    frame = dd.from_pandas(pd.DataFrame({"hand": cells}), npartitions=1)
    with pytest.raises(InvalidCardError, match=r"line break.*row with index 1"):
        sd.rank_dataframe(frame, "hand").compute(scheduler="sync")
    for texts in (["As Ks Qs Js Ts", ""], ["", "As Ks Qs Js Ts"]):
        with pytest.raises(HandSizeError, match="0 cards in row"):
            studeval.parse_hands(texts)


# ---- every error is a StudevalError that names what was given -----------------------


@pytest.mark.parametrize("threads", [0, -1, True, 1.5, "2", [2]])
def test_thread_counts(threads: object) -> None:
    with pytest.raises(OptionError, match="threads") as caught:
        studeval.high_ranks(HANDS[:3], threads=threads)  # type: ignore[arg-type]
    assert repr(threads) in str(caught.value) or str(threads) in str(caught.value)
    assert isinstance(caught.value, ValueError) and isinstance(caught.value, TypeError)


def test_numpy_integers_are_ints_everywhere() -> None:
    assert studeval.high_ranks(HANDS[:3], threads=np.int64(2)).tolist() == [
        studeval.high_rank(h) for h in HANDS[:3].tolist()
    ]
    boards = ["Kd 5c", "9h 9s", "Ah 2c"]
    assert studeval.first_to_act(boards, "stud") == 1
    assert studeval.first_to_act(boards, "stud", all_in=[np.int64(1)]) == 2
    assert studeval.first_to_act(boards, "stud", all_in=np.array([1, 2])) == 0


@pytest.mark.parametrize("check", [np.array([1, 0]), "yes", 2, None, 0.5])
def test_check_must_be_a_bool(check: object) -> None:
    with pytest.raises(OptionError, match="check must be True or False"):
        studeval.high_ranks(HANDS[:3], check=check)  # type: ignore[arg-type]


def test_check_takes_numpy_bools_and_zero_one() -> None:
    for check in (np.True_, np.False_, 1, 0):
        assert len(studeval.high_ranks(HANDS[:3], check=check)) == 3  # type: ignore[arg-type]


def test_an_empty_list_is_a_shape_problem() -> None:
    with pytest.raises(BatchShapeError, match=r"got shape \(0,\)"):
        studeval.high_ranks([])


@pytest.mark.parametrize(("name", "preset"), [("robert", "robert"), ("wsop", "wsop")])
def test_rules_take_the_preset_names(name: str, preset: str) -> None:
    rules = getattr(studeval.HouseRules, preset)()
    boards = [["Kc", "5d"], ["Ks", "5h"]]
    assert studeval.first_to_act(boards, "stud", rules=name) == studeval.first_to_act(
        boards, "stud", rules=rules
    )
    hands = ["Ac 2d 3h 4s 6c Kd Kh", "As 2c 3d 4h 6s Qd Qh"]
    assert (
        studeval.award_pot(hands, 11, "razz", rules=name).shares
        == studeval.award_pot(hands, 11, "razz", rules=rules).shares
    )


def test_unknown_rules_name_what_was_given() -> None:
    with pytest.raises(RulesError, match="got 'tda'"):
        studeval.bring_in(["2c", "3c"], "stud", rules="tda")  # type: ignore[arg-type]


def test_every_public_error_is_a_studeval_error() -> None:
    names = [n for n in studeval.__all__ if n.endswith("Error") and n != "StudevalError"]
    errors = [getattr(studeval, n) for n in names]
    assert len(errors) >= 14
    for error in errors:
        assert issubclass(error, StudevalError)
        assert issubclass(error, (ValueError, TypeError)), error


def test_every_warning_raised_as_an_error_is_a_studeval_error() -> None:
    """Under ``-W error`` a warning is raised: it must be caught with studeval's other
    errors, and a warning about the input (a range's term) as bad input is."""
    import warnings

    from studeval import histories

    warned = [getattr(studeval, n) for n in studeval.__all__ if n.endswith("Warning")]
    warned += [getattr(histories, n) for n in histories.__all__ if n.endswith("Warning")]
    assert {w.__name__ for w in warned} == {"QueryWarning", "RangeWarning", "StudevalWarning",
                                            "DuplicateHandsWarning"}  # fmt: skip
    for warning in warned:
        assert issubclass(warning, UserWarning) and issubclass(warning, StudevalError)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(ValueError, match="holds no combination") as caught:
            studeval.Range("KK*, AAA+", up="Kc")
    assert isinstance(caught.value, StudevalError)
