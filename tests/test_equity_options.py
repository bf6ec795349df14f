"""equity's option contract: exact with Monte Carlo options, text numbers, targets that
cannot be reached, players of different streets, and Equity.from_counts."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

import studeval
from studeval import Equity, EquityCounts, HandSizeError, OptionError
from studeval.equity_calculator import MIN_TARGET_SE

HEADS_UP = ["As Ad 7c", "Ks Kd Qh"]
THREE = ["As Ad 7c", "Ks Kd Qh", "2c 3c 4c"]


@pytest.mark.parametrize(
    ("kwargs", "given"),
    [({"samples": 10}, "samples=10"), ({"target_se": 1e-3}, "target_se=0.001"),
     ({"time_limit": 2}, "time_limit=2.0")],
)  # fmt: skip
def test_exact_refuses_the_monte_carlo_options(kwargs: dict[str, object], given: str) -> None:
    """The command line makes --exact and --samples exclusive; the library says so too."""
    with pytest.raises(OptionError, match=re.escape(f"Monte Carlo (method='mc'); got {given}")):
        studeval.equity(HEADS_UP, "stud", method="exact", **kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", ["target_se", "time_limit"])
@pytest.mark.parametrize("value", ["0.01", b"0.01", True])
def test_text_is_not_a_number(name: str, value: object) -> None:
    with pytest.raises(OptionError, match=re.escape(f"{name} must be a number; got {value!r}")):
        studeval.equity(THREE, "stud", method="mc", **{name: value})  # type: ignore[arg-type]


def test_numpy_and_int_numbers_are_numbers() -> None:
    np = pytest.importorskip("numpy")
    for value in (np.float32(0.01), np.float64(0.01), 1):
        result = studeval.equity(THREE, "stud", method="mc", target_se=value, seed=1)
        assert not result.exact and result.deals > 0


def test_a_target_that_cannot_be_reached_is_refused_at_once() -> None:
    """1e-9 needs about 1e17 deals: without a cap it is refused before any sampling."""
    with pytest.raises(OptionError, match=r"target_se=1e-09 could take up to 2\.5e\+17 deals"):
        studeval.equity(THREE, "stud", method="mc", target_se=1e-9)
    with pytest.raises(OptionError, match="give samples or time_limit to cap the run"):
        studeval.equity(THREE, "stud", target_se=MIN_TARGET_SE / 2)
    # Capped, a small target is only a wish: the cap stops the run.
    capped = studeval.equity(THREE, "stud", method="mc", target_se=1e-9, samples=8192, seed=2)
    assert capped.deals == 8192 and not capped.exact
    timed = studeval.equity(THREE, "stud", method="mc", target_se=1e-9, time_limit=0.01)
    assert timed.deals > 0


def test_the_unreachable_target_does_not_run(tmp_path: object) -> None:
    """The reported call returns at once (it ran for minutes before)."""
    code = (
        "import studeval\n"
        "try:\n"
        "    studeval.equity(['As Ad 7c', 'Ks Kd Qh', '2c 3c 4c'], 'stud', method='mc',"
        " target_se=1e-9)\n"
        "except studeval.OptionError as e:\n"
        "    print('refused')\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, check=True)  # fmt: skip
    assert done.stdout.strip().splitlines()[-1] == "refused"


@pytest.mark.parametrize(
    ("hands", "seat", "expected"),
    [
        (["As Ad 7c", "Ks Kd Qh 2c"], 0, "4 cards or its 2 up cards alone"),  # 3rd vs 4th
        (["Ks Kd Qh 2c", "As Ad 7c"], 1, "4 cards or its 2 up cards alone"),
        (["As Ad 7c 8d 9s 2c 3c", "Kd 7h 8h 9h 2h"], 1, "7 cards or its 4 up cards alone"),
        (["As Ad 7c", "Ks Kd Qh", "2c 3c 4c 5c"], 0, "4 cards or its 2 up cards alone"),
    ],
)
def test_players_of_different_streets_are_refused(
    hands: list[str], seat: int, expected: str
) -> None:
    with pytest.raises(HandSizeError, match=re.escape(f"at seat {seat}; expected {expected}")):
        studeval.equity(hands, "stud", method="mc", samples=10)


def test_unknown_down_cards_marked_or_all_left_out_are_one_street() -> None:
    marked = studeval.equity(["?? As Ad 7c", "Ks Kd Qh 2c"], "stud")
    assert marked.exact and marked.players[0].cards == "As Ad 7c"
    up_only = studeval.equity(["Ad 7c", "Ks Kd Qh 2c"], "stud")
    assert studeval.equity(["?? ?? Ad 7c", "Ks Kd Qh 2c"], "stud").counts == up_only.counts
    # Before third street every card is a down card: any may be left out.
    assert studeval.equity(["As Ad", "Kd"], "stud", method="mc", samples=10).deals > 0


def _counts(deals: int, share: tuple[int, int], **fields: tuple[int, int]) -> EquityCounts:
    zero = (0, 0)
    values = {k: fields.get(k, zero) for k in ("high_win", "high_tie", "low_win", "low_tie")}
    return EquityCounts(deals, share, fields.get("share_sq", zero), **values,
                        scoop=fields.get("scoop", zero))  # fmt: skip


def test_from_counts_by_hand() -> None:
    """Shares worked out by hand: 4 deals, player 0 wins 3 outright and one is tied."""
    units = _counts(0, (0, 0)).units
    one = _counts(4, (3 * units + units // 2, units // 2), high_win=(3, 0), high_tie=(1, 1),
                  scoop=(3, 0))  # fmt: skip
    result = Equity.from_counts(one, "stud", ["As Ad 7c", "Ks Kd Qh"])
    assert result.exact and result.deals == 4 and result.method == "counts"
    assert [p.share for p in result.players] == [0.875, 0.125]
    assert [p.high_win for p in result.players] == [0.75, 0.0]
    assert [p.high_tie for p in result.players] == [0.25, 0.25]
    assert result.players[0].cards == "As Ad 7c" and result.elapsed == 0.0
    # A second run of 4 deals that player 1 wins all of: 3.5 of 8 pots, 4.5 of 8.
    two = _counts(4, (0, 4 * units), high_win=(0, 4), scoop=(0, 4))
    merged = Equity.from_counts(one.merge(two))
    assert merged.deals == 8
    assert [p.share for p in merged.players] == [3.5 / 8, 4.5 / 8]
    assert [p.scoop for p in merged.players] == [3 / 8, 4 / 8]
    assert [p.cards for p in merged.players] == ["??", "??"]


def test_from_counts_of_one_run_is_that_run() -> None:
    run = studeval.equity(HEADS_UP, "stud")
    again = Equity.from_counts(run.counts, "stud", [p.cards for p in run.players])
    assert again.players == run.players and again.deals == run.deals and again.exact
    mc = studeval.equity(THREE, "stud8", method="mc", samples=20_000, seed=3)
    back = Equity.from_counts(mc.counts, "stud8", [p.cards for p in mc.players])
    assert back.players == mc.players and not back.exact
    assert str(back).splitlines()[1:] == str(mc).splitlines()[1:]


def test_from_counts_of_two_merged_runs_weighs_by_deals() -> None:
    """A two-hand range for player 1: the merged share is the mean of the two shares,
    as both exact runs count the same number of deals."""
    a = studeval.equity(["As Ad 7c", "Ks Kd Qh"], "stud")
    b = studeval.equity(["As Ad 7c", "Qs Qd Jh"], "stud")
    both = Equity.from_counts(a.counts.merge(b.counts))
    assert a.deals == b.deals and both.deals == 2 * a.deals and both.exact
    for i in range(2):
        mean = (a.players[i].share + b.players[i].share) / 2
        assert both.players[i].share == pytest.approx(mean, abs=1e-15)


def test_from_counts_refuses_counts_that_do_not_fit() -> None:
    stud8 = studeval.equity(["As 2d 3h 4c", "Kc Kd Qs 9d"], "stud8").counts
    with pytest.raises(OptionError, match="these counts have lows; stud has none"):
        Equity.from_counts(stud8)
    with pytest.raises(OptionError, match="these counts have high hands; razz has none"):
        Equity.from_counts(stud8, "razz")
    with pytest.raises(OptionError, match="cards names 3 players; the counts have 2"):
        Equity.from_counts(stud8, "stud8", ["a", "b", "c"])
    assert Equity.from_counts(stud8, "stud8").players[0].low_win > 0
