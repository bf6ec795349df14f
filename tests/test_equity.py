"""Equity against a brute-force twin, Monte Carlo against exact, and every bad input.

The twin walks every deal in pure Python and ranks the hands with the independent
reference (tests/reference.py), applying the pot rules as written in the rule
books, with exact fractions. The C counting method is also checked against the C
walk on mid-size heads-up spots here and, by the hundred, in tests/c/equity_check.c.
"""

from __future__ import annotations

import itertools
import math
import random
import re
import threading
from fractions import Fraction

import numpy as np
import pytest
from helpers import twin

import studeval
from studeval import _core
from studeval.cards import parse_cards
from studeval.equity_runs import count_spot, sample_spot
from studeval.errors import (
    DuplicateCardError,
    HandSizeError,
    InvalidCardError,
    NoDealError,
    OptionError,
    SeatError,
    StoppedError,
    TooBigError,
    UnknownGameError,
)
from studeval.games import get_game

GAMES = ["stud", "stud8", "razz", "stud_hilo_noq"]
# The core's game ids, written out here so that a change to games.py shows.
NUMBER = {"stud": 0, "stud8": 1, "razz": 2, "stud_hilo_noq": 3}


def random_spot(rng: random.Random, players: int, known: tuple[int, int], dead: int):
    deck = rng.sample(range(52), 52)
    hands = [[deck.pop() for _ in range(rng.randint(*known))] for _ in range(players)]
    return hands, [deck.pop() for _ in range(dead)]


def assert_matches_twin(result: studeval.Equity, want: dict[str, list[Fraction]]) -> None:
    assert result.deals == int(want["deals"][0])
    assert result.community == bool(want["community"][0])
    for i, player in enumerate(result.players):
        for name in ("share", "high_win", "high_tie", "low_win", "low_tie", "scoop"):
            assert getattr(player, name) == pytest.approx(float(want[name][i]), abs=1e-12), (
                i, name,
            )  # fmt: skip


def _late_spots() -> list[tuple[str, list[list[int]], list[int]]]:
    rng = random.Random(2026)
    spots = []
    for index in range(40):
        game = GAMES[index % 4]
        players = 2 if index < 28 else 3
        hands, dead = random_spot(rng, players, (6, 7), rng.choice([0, 0, 3, 9]))
        spots.append((game, hands, dead))
    # Ties and special lows: two wheels; two identical 8-lows; drawing dead.
    spots.append(("stud8", [[48, 1, 6, 11, 12, 44], [49, 2, 7, 8, 13, 45]], []))
    spots.append(("razz", [[48, 1, 6, 11, 24, 44], [49, 2, 7, 8, 25, 45]], [0, 3]))
    spots.append(("stud", [[48, 49, 50, 51, 44, 45], [0, 4, 9, 13, 18]], []))
    spots.append(("stud_hilo_noq", [[48, 1, 6, 11, 12, 44], [49, 50, 51, 47, 46, 45]], []))
    return spots


@pytest.mark.parametrize(("game", "hands", "dead"), _late_spots())
def test_exact_matches_the_brute_force_twin(game: str, hands, dead) -> None:
    # A player some of whose down cards are known marks the others unknown (None).
    street = max(map(len, hands))
    marked = [[*hand, *[None] * (street - len(hand))] for hand in hands]
    result = studeval.equity(marked, game, dead=dead, method="exact")
    assert result.exact and result.players[0].std_error == 0.0
    assert_matches_twin(result, twin(game, hands, dead))
    assert sum(p.share for p in result.players) == pytest.approx(1.0, abs=1e-12)


def _multiway_spots() -> list[tuple[str, list[list[int]], list[int]]]:
    """Three to seven players, most of them at seven cards (few deals for the twin):
    the core counts each deal of a one-sided game, and of a hi/lo game among four
    or fewer, by its winners and scores it at the end; five or more at hi/lo, deal
    by deal. Ties made likely: hands that share their ranks."""
    rng = random.Random(40)
    spots = []
    for index in range(24):
        game = GAMES[index % 4]
        players = 3 + index % 5
        deck = rng.sample(range(52), 52)
        drawing = rng.sample(range(players), 2 if players <= 5 else 1)
        hands = [[deck.pop() for _ in range(6 if seat in drawing else 7)]
                 for seat in range(players)]  # fmt: skip
        dead = rng.choice([0, 5]) if players <= 5 else 0
        spots.append((game, hands, [deck.pop() for _ in range(dead)]))
    # Two seats holding the same ranks, and one holding four aces: ties on most deals.
    spots.append(("stud8", [[0, 4, 8, 12, 16, 44, 45], [1, 5, 9, 13, 17, 46, 47],
                            [2, 6, 10, 14], [48, 49, 50, 51, 40, 41, 42]], []))  # fmt: skip
    spots.append(("razz", [[0, 4, 8, 12, 16, 44], [1, 5, 9, 13, 17, 46],
                           [2, 6, 10, 14, 18, 47, 43]], []))  # fmt: skip
    return spots


@pytest.mark.parametrize(("game", "hands", "dead"), _multiway_spots())
def test_multiway_counts_match_the_brute_force_twin(game: str, hands, dead) -> None:
    # (The core's count: seats on unlike streets, which equity() refuses, keep the
    # twin's walk short.)
    counts = count_spot(game, hands, dead)
    want = twin(game, hands, dead)
    units = _core.EQ_UNITS
    assert counts.deals == int(want["deals"][0]) and counts.deals > 1
    for name in ("high_win", "high_tie", "low_win", "low_tie", "scoop"):
        assert [Fraction(x, counts.deals) for x in getattr(counts, name)] == want[name], name
    for name, scale in (("share", units), ("low_share", units), ("share_sq", units * units)):
        assert [Fraction(x, counts.deals * scale) for x in getattr(counts, name)] == want[name], (
            name)  # fmt: skip


def test_the_community_card_when_the_deck_runs_out() -> None:
    """Eight players at sixth street: 48 cards out, 4 unseen, 8 needed: one shared card."""
    rng = random.Random(8)
    deck = rng.sample(range(52), 52)
    hands = [[deck.pop() for _ in range(6)] for _ in range(8)]
    for game in GAMES:
        result = studeval.equity(hands, game)
        assert result.community and result.deals == 4
        assert_matches_twin(result, twin(game, hands, []))
    with pytest.raises(NoDealError, match="too few unseen cards"):
        studeval.equity(hands, "stud", dead=deck[:4])  # no card left for the community


@pytest.mark.parametrize("game", GAMES)
def test_counting_equals_walking_on_mid_size_spots(game: str) -> None:
    """Fifth street heads-up (each draws two): ~4e5 deals walked, and counted."""
    rng = random.Random(NUMBER[game])
    for _ in range(3):
        hands, dead = random_spot(rng, 2, (5, 5), rng.choice([0, 4]))
        walked = _core.equity_enumerate(NUMBER[game], hands, dead, 2)
        counted = _core.equity_count_heads_up(NUMBER[game], hands, dead, 1 << 26, 2)
        assert walked.deals == counted.deals > 300_000
        assert walked.share == counted.share
        assert walked[4:] == counted[4:]  # wins, ties, scoops
        assert counted.share_sq == (0, 0)  # counting needs no standard error
        # No room: the scoops by class, and each step making its card subsets again.
        no_room = _core.equity_count_heads_up(NUMBER[game], hands, dead, 0, 1)
        assert no_room == counted


@pytest.mark.parametrize("game", GAMES)
def test_counting_equals_walking_where_the_players_draw_unlike_numbers(game: str) -> None:
    """Fourth street against fifth (three cards drawn against two), with room and
    without: every count the same as the deals walked."""
    deck = random.Random(NUMBER[game] + 10).sample(range(52), 52)
    hands, dead = [deck[:4], deck[4:9]], deck[9:19]
    walked = _core.equity_enumerate(NUMBER[game], hands, dead, 2)
    assert walked.deals > 1_000_000
    for room in (1 << 26, 0):
        counted = _core.equity_count_heads_up(NUMBER[game], hands, dead, room, 1)
        assert (counted.deals, counted.share, counted[4:]) == (walked.deals, walked.share,
                                                               walked[4:])  # fmt: skip


@pytest.mark.parametrize("game", GAMES)
def test_third_street_heads_up_is_exact_and_adds_up(game: str) -> None:
    result = studeval.equity(["As 2d 3h", "Kc Kd Qs"], game)
    assert result.exact and result.method == "count"
    assert result.deals == 18_265_297_050  # C(46, 4) * C(42, 4): every deal
    assert sum(p.share for p in result.players) == pytest.approx(1.0, abs=1e-12)
    assert all(0 <= p.scoop <= p.share + 1e-12 for p in result.players)


@pytest.mark.parametrize("game", GAMES)
def test_monte_carlo_within_four_standard_errors(game: str) -> None:
    hands = ["7c 5d 2h", "Kc Kd 9s", "Ah 4s 6d"]
    exact = studeval.equity([[*h.split()[:2], "??"] for h in hands][:2], game, dead=["Qs"])
    mc = studeval.equity([h.split()[:2] for h in hands][:2], game, dead=["Qs"], method="mc",
                         samples=200_000, seed=3)  # fmt: skip
    assert not mc.exact and mc.deals >= 200_000
    for e, m in zip(exact.players, mc.players, strict=True):
        assert m.std_error > 0
        assert abs(e.share - m.share) < 4 * m.std_error, (e.share, m.share, m.std_error)
    sixth = [f"{h} {x}" for h, x in zip(hands, ["Js Th 9h", "Tc 3s 4d", "Jd 8c 2s"], strict=True)]
    three = studeval.equity(sixth, game)
    sampled = studeval.equity(sixth, game, method="mc", samples=100_000, seed=5)
    assert three.exact and three.method == "enumerate"
    for e, m in zip(three.players, sampled.players, strict=True):
        assert abs(e.share - m.share) < 4 * m.std_error + 1e-9


def test_same_seed_same_answer_whatever_the_threads(threads_started) -> None:
    spot = (["As 2d 3h", "Kc Kd Qs", "8h 8d 4c"], "stud8")
    one = studeval.equity(*spot, method="mc", samples=300_000, seed=11, threads=1)
    two = studeval.equity(*spot, method="mc", samples=300_000, seed=11, threads=2)
    assert one.counts == two.counts
    assert threads_started() > 0
    other = studeval.equity(*spot, method="mc", samples=300_000, seed=12, threads=2)
    assert other.counts != one.counts


def test_swapping_players_swaps_results() -> None:
    a = studeval.equity(["As 2d 3h 9c", "Kc Kd Qs 4h"], "stud8")
    b = studeval.equity(["Kc Kd Qs 4h", "As 2d 3h 9c"], "stud8")
    assert [p.share for p in a.players] == pytest.approx([p.share for p in b.players][::-1])
    assert [p.scoop for p in a.players] == pytest.approx([p.scoop for p in b.players][::-1])


def test_target_se_time_limit_and_cancel() -> None:
    spot = (["As Ad 7c", "Ks Kd Qh", "9h 9s 2c", "5c 6c 7d"], "stud")
    fine = studeval.equity(*spot, target_se=2e-3, seed=1)
    assert not fine.exact and max(p.std_error for p in fine.players) <= 2e-3
    seen = []
    stopped = studeval.equity(*spot, method="mc", samples=10**9, seed=1,
                              progress=lambda f: seen.append(f) or len(seen) < 3)  # fmt: skip
    assert len(seen) == 3 and stopped.deals < 10**8 and not stopped.exact
    timed = studeval.equity(*spot, method="mc", time_limit=0.2, seed=1)
    assert timed.deals > 0 and timed.elapsed < 5


def test_unknown_cards_may_be_marked_or_left_out() -> None:
    a = studeval.equity(["?? 2c 3h 5d", "Kd 9c 7s ??"], "razz")
    b = studeval.equity([["??", "2c", None, "3h", "5d"], ["Kd", "9c", "7s"]], "razz")
    c = studeval.equity(["2c 3h 5d", "Kd 9c 7s"], "razz")
    assert a.counts == b.counts == c.counts
    assert a.exact and a.method == "count"


def test_str_is_a_readable_table() -> None:
    text = str(studeval.equity(["As 2d 3h", "Kc Kd Qs"], "stud8", dead="5c 9h"))
    lines = text.splitlines()
    assert lines[0] == "Seven Card Stud Hi/Lo, 8 or better: exact, 12,406,283,890 deals"
    assert lines[1].split() == ["player", "cards", "share", "high", "win", "high", "tie",
                                "low8", "win", "low8", "tie", "high", "half", "low", "half",
                                "scoop"]  # fmt: skip
    assert lines[2].startswith("0       As 2d 3h    48.18%")
    # The share in two parts: from the high half (and whole pots with no low), the low half.
    result = studeval.equity(["As 2d 3h", "Kc Kd Qs"], "stud8", dead="5c 9h")
    for p in result.players:
        assert p.high_share is not None and p.low_share is not None
        assert p.high_share + p.low_share == pytest.approx(p.share, abs=1e-15)


def test_counts_merge() -> None:
    spot = (["As 2d 3h", "Kc Kd Qs"], "stud")
    a = studeval.equity(*spot, method="mc", samples=4096, seed=1).counts
    b = studeval.equity(*spot, method="mc", samples=4096, seed=2).counts
    merged = a.merge(b)
    assert merged.deals == 8192 and merged.share[0] == a.share[0] + b.share[0]


@pytest.mark.parametrize(
    ("hands", "kwargs", "error", "match"),
    [
        (["As Ad", "As Kd"], {}, DuplicateCardError, "player 1, also in player 0"),
        (["As Ad", "Kd Kc"], {"dead": "Kd"}, DuplicateCardError, "in dead, also in player 1"),
        (["As Ad 2c 3c 4c 5c 6c 7c", "Kd"], {}, HandSizeError, "8 cards at seat 0"),
        (["As Ad"], {}, SeatError, "2 to 8 players; got 1"),
        ([f"{r}c" for r in "23456789T"], {}, SeatError, "got 9"),
        (["As Ad", "Kd"], {"game": "holdem"}, UnknownGameError, "holdem"),
        (["As Ad", "Kd"], {"game": "stud_hilo"}, UnknownGameError, "ambiguous"),
        (["As Xd", "Kd"], {}, InvalidCardError, "player 0"),
        (["As Ad", "Kd"], {"method": "fast"}, OptionError, "method"),
        (["As Ad", "Kd"], {"method": "mc", "samples": 0}, OptionError, "samples"),
        (["As Ad", "Kd"], {"threads": 0}, OptionError, "threads"),
        ("As Ad", {}, SeatError, "one entry per player"),
        (
            [[51, 49, 0], [45, 44, 4]],
            {"dead": [c for c in range(52) if c not in (51, 49, 0, 45, 44, 4, 20, 21)]},
            NoDealError,
            "too few unseen cards",
        ),  # two unseen cards for eight draws
    ],
)
def test_bad_input(hands, kwargs, error, match) -> None:
    game = kwargs.pop("game", "stud")
    with pytest.raises(error, match=match):
        studeval.equity(hands, game, **kwargs)


# ---- progress and stopping in a long exact count ------------------------------------

#: Heads-up with unknown hole cards: 1.4e12 deals, a count of some seconds.
LONG_SPOT = ["As 2d 3h", "Kc"]


def test_a_long_exact_count_reports_its_progress() -> None:
    fractions: list[float] = []
    result = studeval.equity(LONG_SPOT, "stud", threads=2, progress=fractions.append)
    assert result.exact and result.method == "count"
    assert fractions[-1] == 1.0
    during = fractions[:-1]
    assert len(during) >= 3 and all(0.0 < f <= 1.0 for f in during[1:])
    assert during == sorted(during)  # never goes back


def test_no_progress_report_after_the_caller_said_stop() -> None:
    """A core call that takes several polls to stop (a busy machine) gets no report
    after the one that stopped it."""
    import time

    from studeval import equity_runs

    calls: list[float] = []

    def slow_to_stop(control: _core.EquityProgress | None) -> _core.EquitySums:
        assert control is not None
        while not control.stopped:
            time.sleep(0.01)
        time.sleep(4 * equity_runs._POLL_S)  # still running for four more polls
        raise StoppedError("stopped")

    def stop_at_once(fraction: float) -> bool:
        calls.append(fraction)
        return False

    with pytest.raises(StoppedError):
        equity_runs.watch(slow_to_stop, stop_at_once, watched=True)
    assert calls == [0.0]


def test_stopping_a_long_exact_count_returns_a_quick_sample() -> None:
    calls: list[float] = []

    def stop_at_once(fraction: float) -> bool:
        calls.append(fraction)
        return False

    result = studeval.equity(LONG_SPOT, "stud", threads=2, progress=stop_at_once, seed=5)
    # Had the count run to its end it would be exact: it was stopped part way.
    assert not result.exact and result.method == "monte carlo"
    assert len(calls) == 1
    assert result.deals == _core.EQ_CHUNK_SAMPLES * 8  # one first batch, on any threads
    share = result.players[0].share
    assert abs(share - 0.4454) < 5 * result.players[0].std_error  # the exact 44.54%
    assert abs(sum(p.share for p in result.players) - 1.0) < 1e-12


def test_ctrl_c_stops_a_long_exact_count() -> None:
    def interrupt(fraction: float) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        studeval.equity(LONG_SPOT, "stud8", threads=2, progress=interrupt)
    # The count's thread was stopped and joined before the interrupt went on.
    assert not [t for t in threading.enumerate() if t.name == "studeval-exact-equity"]


def test_progress_of_a_stopped_core_call() -> None:
    control = _core.EquityProgress()
    control.stop()
    with pytest.raises(StoppedError):  # no counts
        _core.equity_count_heads_up(NUMBER["stud"], [[51, 1, 6], [44]], [], 1 << 26, 1, control)
    assert control.fraction() < 0.01


def test_scoop_counts_too_long_to_count_are_sampled() -> None:
    """Stud8 with both players' hole cards unknown would count for minutes: the core
    says so at once, and ``auto`` samples."""
    with pytest.raises(TooBigError):
        _core.equity_count_heads_up(NUMBER["stud8"], [[44], [43]], [], 1 << 26, 1)
    result = studeval.equity(["Kc", "Qd"], "stud8", seed=1, samples=8192)
    assert not result.exact and result.method == "monte carlo"
    assert studeval.equity(["Kc", "Qd"], "stud", method="mc", samples=8192).deals == 8192


# ---- stopping rules, dead cards and streets ---------------------------------------------


def test_a_seed_gives_one_answer_on_any_thread_count_also_to_a_target() -> None:
    """The Monte Carlo batches do not depend on the thread count, so a run that stops
    on target_se (the default multiway) stops at the same deal on any machine."""
    hands = ["As Ad 7c", "Ks Kd Qh", "9h 9s 2c"]
    runs = [studeval.equity(hands, "stud", method="mc", seed=11, target_se=1e-3, threads=t)
            for t in (1, 2, 3)]  # fmt: skip
    assert runs[0].deals > 8 * _core.EQ_CHUNK_SAMPLES  # it took more than one batch
    assert runs[0].counts == runs[1].counts == runs[2].counts


def test_a_run_stopped_by_time_is_the_seeded_answer_for_its_deals() -> None:
    hands = ["As Ad 7c", "Ks Kd Qh", "9h 9s 2c"]
    timed = studeval.equity(hands, "stud", method="mc", seed=5, time_limit=0.02, threads=2)
    again = studeval.equity(hands, "stud", method="mc", seed=5, samples=timed.deals, threads=1)
    assert timed.deals % _core.EQ_CHUNK_SAMPLES == 0
    assert again.counts == timed.counts


def test_samples_not_a_whole_number_of_chunks_are_the_next_chunks_first_deals() -> None:
    """samples=N draws N deals: the whole chunks, then the first deals of the next,
    which are the deals that whole chunk starts with."""
    texts, chunk = ["Ac Kc 2c", "Qc Qd 2d", "7c 7d 2h"], _core.EQ_CHUNK_SAMPLES
    hands = [list(parse_cards(t)) for t in texts]
    runs = {
        n: studeval.equity(texts, "stud", method="mc", seed=3, samples=n)
        for n in (100, chunk, chunk + 100)
    }
    assert [r.deals for r in runs.values()] == [100, chunk, chunk + 100]
    whole = [_core.equity_sample(0, hands, [], 3, c, 1, 1) for c in (0, 1)]
    for c in (0, 1):  # a part as long as a chunk is that chunk
        part = _core.equity_sample_part(0, hands, [], 3, c, chunk)
        assert (part.deals, part.share, part.share_sq) == (whole[c].deals, whole[c].share,
                                                            whole[c].share_sq)  # fmt: skip
    first = _core.equity_sample_part(0, hands, [], 3, 1, 100)
    summed = [a + b for a, b in zip(whole[0].share, first.share, strict=True)]
    assert list(runs[chunk + 100].counts.share) == summed
    assert list(runs[100].counts.share) == list(_core.equity_sample_part(0, hands, [], 3, 0,
                                                                         100).share)  # fmt: skip
    for bad in (0, chunk + 1):
        with pytest.raises(studeval.errors.StudevalError):
            _core.equity_sample_part(0, hands, [], 3, 0, bad)


def test_two_seeds_draw_two_sets_of_deals_whatever_bits_they_differ_by() -> None:
    """A chunk's odd deals come from a generator seeded by a mix of its even deals'
    seed: with a plain XOR of a constant, seeds s and s ^ that constant swapped their
    two decks and gave the same counts."""
    spot = (["As Ah 7c", "Ks Kh Qh", "8d 8c 2s"], "stud")
    for seed in (1, 2**40 + 3):
        for other in (seed ^ 0x6A09E667F3BCC909, seed ^ 1, seed + 1):
            one = studeval.equity(*spot, method="mc", samples=2_000, seed=seed, threads=1)
            two = studeval.equity(*spot, method="mc", samples=2_000, seed=other, threads=1)
            assert one.counts.share != two.counts.share, (seed, other)


def test_a_chunks_first_deals_are_the_same_whatever_count_asks_for() -> None:
    """The deals are dealt from two decks in turn (even and odd deals): a part of n
    deals is the part of n - 1 and one deal more, odd n too (whose last odd deal is
    drawn and not counted), every share's sum growing by a whole pot's units."""
    hands = [list(parse_cards(t)) for t in ("Ac Kc 2c", "Qc Qd 2d", "7c 7d 2h")]
    parts = [_core.equity_sample_part(1, hands, [], 9, 2, n) for n in range(1, 70)]
    pot = sum(parts[0].share)  # one deal: one pot's units, shared out
    assert pot == _core.EQ_UNITS
    for n, (before, after) in enumerate(itertools.pairwise(parts), start=1):
        assert (before.deals, after.deals) == (n, n + 1)
        grown = [b - a for a, b in zip(before.share, after.share, strict=True)]
        assert min(grown) >= 0 and sum(grown) == pot, (n, grown)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"target_se": 0}, "target_se must be a positive, finite number; got 0"),
        ({"target_se": -1e-3}, "target_se must be a positive, finite number"),
        ({"target_se": float("nan")}, "target_se must be a positive, finite number; got nan"),
        ({"time_limit": float("nan")}, "time_limit must be a positive, finite number"),
        ({"time_limit": float("inf")}, "time_limit must be a positive, finite number"),
        ({"time_limit": "soon"}, "time_limit must be a number; got 'soon'"),
        ({"samples": 0}, "samples must be at least 1 deal; got 0"),
        ({"samples": 1.5}, "samples must be a whole number of deals; got 1.5"),
        ({"samples": "10"}, "samples must be a whole number of deals; got '10'"),
        ({"samples": True}, "samples must be a whole number of deals; got True"),
    ],
)
def test_bad_stopping_rules_are_refused_at_once(kwargs: dict[str, object], match: str) -> None:
    for method in ("auto", "mc"):
        with pytest.raises(OptionError, match=re.escape(match)):
            studeval.equity(["As Ad 7c", "Ks Kd Qh", "9h 9s 2c"], "stud", method=method,
                            **kwargs)  # type: ignore[arg-type]  # fmt: skip


def test_dead_cards_in_every_form_are_used() -> None:
    hands = ["As Ad 7c 8d 9s Tc", "Ks Kd Qh 5c 3d 4h"]
    as_list = studeval.equity(hands, "stud", dead=[0, 1])
    assert as_list.deals != studeval.equity(hands, "stud").deals  # the dead cards count
    assert studeval.equity(hands, "stud", dead=np.array([0, 1])).counts == as_list.counts
    assert studeval.equity(hands, "stud", dead="2c 2d").counts == as_list.counts
    one = studeval.equity(hands, "stud", dead="2c")
    for form in (0, np.int64(0), np.array([0]), ["2c"], (0,)):
        assert studeval.equity(hands, "stud", dead=form).counts == one.counts, form
    with pytest.raises(DuplicateCardError, match="in dead, also in player 0"):
        studeval.equity(hands, "stud", dead=np.array([51]))


def test_unknown_dead_cards_only_bring_the_community_card_sooner() -> None:
    """Seven players on sixth street leave ten unseen cards for seven seventh cards;
    four folded down cards nobody saw leave six, so the seventh card is one community
    card, as the table deals it. Every way the four could lie, averaged, is the answer."""
    rng = random.Random(21)
    deck = rng.sample(range(52), 52)
    hands = [[deck.pop() for _ in range(6)] for _ in range(7)]
    plain = studeval.equity(hands, "stud")
    folded = studeval.equity(hands, "stud", dead="?? ?? ????")
    assert not plain.community and folded.community and folded.exact
    unseen = [c for c in range(52) if all(c not in h for h in hands)]
    subsets = list(itertools.combinations(unseen, 4))
    mean = [sum(twin("stud", hands, list(d))["share"][i] for d in subsets) / len(subsets)
            for i in range(7)]  # fmt: skip
    assert [p.share for p in folded.players] == pytest.approx([float(m) for m in mean], abs=1e-12)
    with pytest.raises(NoDealError):
        studeval.equity(hands, "stud", dead=["??"] * 10)  # no card left for the community


def test_players_on_different_streets_are_refused() -> None:
    with pytest.raises(HandSizeError, match="at seat 1; expected 5 cards or its 3 up cards alone"):
        studeval.equity(["As Ad 7c 8d 9s", "Ks"], "stud")
    # Down cards may be unknown and left out; up cards never are.
    assert studeval.equity(["?? ?? Kd 9c 2h", "As Ad 7c 8d 3s"], "stud").exact
    assert studeval.equity(["Kd 9c 2h", "As Ad 7c 8d 3s"], "stud").exact
    with pytest.raises(HandSizeError, match="expected 7 cards or its 4 up cards alone"):
        studeval.equity(["As Ad 7c 8d 9s Tc Jh", "Ks Kd 2h"], "stud")


def test_a_spot_sampled_to_a_precision_is_its_chunks_first_deals_until_the_errors_are_small() -> (
    None
):
    """sample_spot(target_se=..., step=...) sums the first `step` deals of chunk 0, 1, ...
    (each the core's part, as equity() draws it) and stops at the first step where every
    share's standard error, recomputed here, is at most the target; without a target it
    is equity()'s Monte Carlo, and count_spot equity()'s exact count."""
    spots = [("stud", [[4 * rank] for rank in range(6)]), ("stud8", [[48, 1, 6], [44, 45, 40]]),
             ("razz", [[0, 5, 10], [13, 17, 21], [26, 30, 34]])]  # fmt: skip
    stopped_at = set()
    for game, players in spots:
        number = get_game(game).core_id
        for target in (0.0, 0.01, 0.015, 1.0):
            share = [0] * len(players)
            square = [0] * len(players)
            deals = 0
            for chunk in range(4):
                part = _core.equity_sample_part(number, players, [], 11, chunk, 625)
                deals += part.deals
                share = [a + b for a, b in zip(share, part.share, strict=True)]
                square = [a + b for a, b in zip(square, part.share_sq, strict=True)]
                errors = [math.sqrt(max(q / 1680**2 / deals - (x / 1680 / deals) ** 2, 0) / deals)
                          for x, q in zip(share, square, strict=True)]  # fmt: skip
                if max(errors) <= target:
                    break
            counts = sample_spot(game, players, [], 2_500, 11, target_se=target, step=625)
            assert (counts.deals, counts.share, counts.share_sq) == (deals, tuple(share),
                                                                     tuple(square))  # fmt: skip
            stopped_at.add(deals)
        plain = studeval.equity(players, game, method="mc", samples=2_500, seed=11, threads=1)
        assert plain.counts == sample_spot(game, players, [], 2_500, 11)
    assert stopped_at == {625, 1250, 1875, 2500}  # every way of stopping was seen
    sixth = [parse_cards("As Ah 7c 6d 4h 3s"), parse_cards("Ks Kh Qc Jd 8h 2s")]
    assert count_spot("stud", sixth, [0]) == studeval.equity(sixth, "stud", dead="2c",
                                                             method="exact").counts  # fmt: skip
    for target, step in ((0.01, 0), (0.01, 4097), (-1.0, 100), (float("nan"), 100)):
        with pytest.raises(OptionError):
            sample_spot("stud", sixth, [], 100, 1, target_se=target, step=step)
