"""analyze and analyze_many: equities by street, all-in expected chips and luck,
checked against an independent count (the pure-Python reference's brute force)."""

from __future__ import annotations

import datetime
import random
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest
import reference as ref
from helpers import twin

from studeval import Stakes, StudHand, equity, parse_cards, tracker
from studeval.analysis import (
    SAMPLES,
    STREET_EXACT_DEALS,
    STREET_SAMPLES,
    STREET_TARGET_SE,
    analyze,
    analyzed_seats,
)
from studeval.errors import OptionError, StudevalError
from studeval.histories import EXAMPLE, read
from studeval.phh import dumps
from studeval.play import random_hand
from studeval.tracker import COLUMNS, analyze_many

#: Two players' seven cards each: the first six are dealt before the all-in.
HEADS_UP = {
    "stud": ("Ah Ad 7c 9s 2d Jh 3c", "Kh Kd 8c Ts 2s Qh 4c"),
    "razz": ("Ah 2d 7c 9s 3d Jh Kc", "4h 5d 8c Ts 6s Qh 2c"),
    "stud8": ("Ah 2d 7c 9s 3d Jh Kc", "Kh Kd 8c Ts 6s Qh 2c"),
}


def _all_in_on_sixth(game: str) -> StudHand:
    """Heads-up, both all in on 6th street (9 chips each), then dealt out."""
    return _played(game, [9, 9], HEADS_UP[game])


def _played(game: str, stacks: list[int], sevens: tuple[str, ...]) -> StudHand:
    """Everyone bets, completes or calls what is legal: 9 chips each go all in on 6th
    street, 4 on 4th."""
    cards = [parse_cards(text) for text in sevens]
    hand = StudHand(game, Stakes(ante=0, bring_in=1, small_bet=2, big_bet=4), stacks)
    for seat, seven in enumerate(cards):
        hand.deal(seat, seven[:3])
    for street in range(3, 8):
        while hand.actor is not None and not hand.showdown:
            legal = hand.legal()
            if legal.bring_in is not None:
                hand.act("bring_in")
            elif legal.complete_to:
                hand.act("complete")
            elif legal.bet_to:
                hand.act("bet")
            else:
                hand.act("call")
        for seat, seven in enumerate(cards):
            if street < 7:
                hand.deal(seat, seven[street : street + 1])
    while hand.showdown:
        hand.show()
    assert hand.over and hand.stacks.count(0) >= 1
    return hand


@pytest.mark.parametrize("game", sorted(HEADS_UP))
def test_heads_up_all_in_expects_equity_times_the_pot_by_an_independent_count(game: str) -> None:
    hand = _all_in_on_sixth(game)
    found = analyze(hand, seed=1)
    assert found.all_in == 6 and not found.exact  # 3rd and 4th streets are sampled
    assert analyzed_seats(hand)[2].exact  # a tracker's rows: only the all-in, counted
    sixth = [parse_cards(text)[:6] for text in HEADS_UP[game]]
    shares = twin(game, sixth, [])["share"]  # every 7th-street deal, by the reference
    pot = sum(hand.contributions)
    assert pot == 18
    for seat in (0, 1):
        assert found.expected[seat] == pytest.approx(float(shares[seat] * pot), abs=1e-9)
        assert found.net[seat] == hand.result.payouts[seat] - 9  # type: ignore[union-attr]
        assert found.luck[seat] == pytest.approx(found.net[seat] - found.expected_net[seat])
    # The streets: the pot before each street's betting, and the shares from the
    # cards dealt so far (6th street's are the all-in's; on 7th all is known).
    assert [s.street for s in found.streets] == [3, 4, 5, 6, 7]
    assert [s.pot for s in found.streets] == [0, 4, 8, 16, 18]
    assert found.streets[3].shares == (float(shares[0]), float(shares[1]))
    payouts = hand.result.payouts  # type: ignore[union-attr]
    assert found.streets[4].shares == (payouts[0] / 18, payouts[1] / 18)
    # 5th street's 671,580 deals are sampled (a street counts STREET_EXACT_DEALS at
    # most); 6th street's 1,406-1,560 and 7th street's one are counted.
    assert [s.exact for s in found.streets] == [False, False, False, True, True]
    third = equity([c[:3] for c in map(parse_cards, HEADS_UP[game])], game).players
    bound = 0.5 / STREET_SAMPLES**0.5  # the documented worst standard error of a street's
    for seat in (0, 1):
        error = found.streets[0].std_errors[seat]
        assert error is not None and 0 < error <= bound
        assert found.streets[0].shares[seat] == pytest.approx(third[seat].share, abs=4 * error)
    counted = analyze(hand, method="exact")
    assert counted.exact and counted.streets[0].shares == (third[0].share, third[1].share)


def test_expected_chips_add_up_to_the_pots_less_the_rake() -> None:
    rng = random.Random(23)
    all_ins = 0
    for _ in range(120):
        hand = random_hand(rng.choice(["stud", "stud8", "razz"]), rng.randint(2, 5), rng=rng,
                           stack=rng.choice([10, 25]), rake=rng.choice([0, 2]))  # fmt: skip
        found = analyze(hand, method="mc", seed=1)
        result = hand.result
        assert result is not None
        assert sum(found.expected) == pytest.approx(sum(hand.contributions) - result.rake)
        assert sum(found.luck) == pytest.approx(0, abs=1e-9)
        all_ins += found.all_in is not None
    assert all_ins > 30  # the short stacks really went all in


def test_a_hand_with_no_all_in_has_no_luck() -> None:
    rng = random.Random(5)
    checked = 0
    for _ in range(60):
        hand = random_hand(rng.choice(["stud", "stud8", "razz"]), rng.randint(2, 6), rng=rng,
                           stack=10_000)  # fmt: skip
        found = analyze(hand)
        assert found.all_in is None
        assert found.luck == (0.0,) * hand.seats
        assert found.expected == tuple(float(p) for p in hand.result.payouts)  # type: ignore[union-attr]
        checked += len(found.streets) > 0
    assert checked > 30


def test_the_rake_taken_is_out_of_the_expected_chips_when_a_seat_mucks() -> None:
    """A seat all in for its ante, two others all in for 3; rake 5. The middle seat
    mucks at the showdown, so the pot the core rakes is all 7 chips; at the all-in
    the main pot was 3, and the 5 come out of it and the side pot after it."""
    hand = StudHand("stud", Stakes(ante=1, bring_in=2, small_bet=5, big_bet=10), [1, 3, 3],
                    rake=5)  # fmt: skip
    hand.deal(0, ["Ah", "Ad", "Ac"])
    hand.deal(1, ["2c", "3d", "4h"])
    hand.deal(2, ["Kc", "Kd", "9s"])
    hand.act("bring_in")
    hand.act("call")
    for up in (["7h", "8d", "Ts"], ["Jh", "Qd", "6s"], ["5c", "5d", "6c"], ["7c", "8c", "9c"]):
        for seat in range(3):
            hand.deal(seat, [up[seat]])
    hand.show()
    hand.muck()
    hand.show()
    found = analyze(hand)  # (3-way on 3rd street: sampled)
    assert found.all_in == 3 and found.rake == 5 and sum(found.net) == -5
    assert sum(found.expected_net) == pytest.approx(-5)
    assert sum(found.luck) == pytest.approx(0, abs=1e-9)
    # The 2 chips left are the side pot's, between seats 1 and 2 alone (sampled to a
    # standard error of at most 0.0039 of it).
    side = equity(["2c 3d 4h", "Kc Kd 9s"], "stud", dead=["Ah", "Ad", "Ac"],
                  method="exact").players  # fmt: skip
    assert found.expected[0] == 0
    assert found.expected[1] == pytest.approx(2 * side[0].share, abs=2 * 4 * 0.0039)


def _dealt_out(game: str, stacks: list[int]) -> StudHand:
    """Two seats dealt to the showdown with no action: their antes put them (or one
    of them) all in."""
    hand = StudHand(game, Stakes(ante=1, bring_in=2, small_bet=5, big_bet=10), stacks)
    hand.deal(0, ["2c", "7d", "9h"])
    hand.deal(1, ["Ac", "Ad", "Kh"])
    for ups in (["3s", "4d"], ["5h", "8c"], ["6d", "Js"], ["Tc", "Qd"]):
        hand.deal(0, [ups[0]])
        hand.deal(1, [ups[1]])
    hand.show()
    hand.show()
    return hand


def test_a_seat_all_in_on_its_ante_is_an_all_in() -> None:
    """One chip, the ante: no betting at all, and the hand goes to the showdown. Its
    expected chips are its equity in the two antes (trackers adjust it too)."""
    found = analyze(_dealt_out("stud", [1, 50]), method="exact")
    shares = equity(["2c 7d 9h", "Ac Ad Kh"], "stud", method="exact").players
    assert found.all_in == 3
    assert found.expected_net == pytest.approx((2 * shares[0].share - 1, 2 * shares[1].share - 1))
    assert found.luck == pytest.approx((found.net[0] - found.expected_net[0],
                                        found.net[1] - found.expected_net[1]))  # fmt: skip
    assert found.luck[0] != 0
    # Both all in on their antes: the same.
    assert analyze(_dealt_out("razz", [1, 1]), method="exact").all_in == 3


def test_side_pots_are_each_expected_among_their_own_players() -> None:
    """A short stack all in on 3rd street for 4 chips, two others on for 16: the
    main pot of 12 among all three, the side pot of 24 between the two."""
    hand = StudHand("stud", Stakes(ante=0, bring_in=2, small_bet=4, big_bet=8), [4, 16, 16])
    hand.deal(0, ["2c", "2d", "3h"])  # the bring-in: the lowest up card
    hand.deal(1, ["Ac", "Ad", "Kh"])
    hand.deal(2, ["Qc", "Qd", "Jh"])
    hand.act("complete", 4)  # seat 0, all in
    hand.act("raise", 8)
    hand.act("raise", 12)
    hand.act("raise", 16)  # seat 2 all in, the cap (three seats not folded)
    hand.act("call")
    for up in (["7s", "8s", "9s"], ["7h", "8h", "9h"], ["Ts", "Js", "6d"]):
        for seat in range(3):
            hand.deal(seat, [up[seat]])
    for seat in range(3):
        hand.deal(seat, [["5c", "4c", "3c"][seat]])
    while hand.showdown:
        hand.show()
    found = analyze(hand, method="mc", seed=9)  # three-way at 3rd street: sampled
    assert found.all_in == 3
    main = equity(["2c 2d 3h", "Ac Ad Kh", "Qc Qd Jh"], "stud", method="mc", seed=9).players
    side = equity(["Ac Ad Kh", "Qc Qd Jh"], "stud", dead="2c 2d 3h", method="mc",
                  seed=9).players  # fmt: skip
    assert found.expected[0] == pytest.approx(12 * main[0].share)
    assert found.expected[1] == pytest.approx(12 * main[1].share + 24 * side[0].share)
    assert found.expected[2] == pytest.approx(12 * main[2].share + 24 * side[1].share)


def test_a_viewpoint_sees_its_own_cards_and_the_others_up_cards() -> None:
    hand = _all_in_on_sixth("stud")
    seen = analyze(hand, viewpoint=0, method="mc", seed=4)
    want = equity(["Ah Ad 7c", "?? ?? 8c"], "stud", method="mc", seed=4).players
    assert seen.streets[0].shares == (want[0].share, want[1].share)
    assert not seen.exact and seen.streets[0].std_errors[0] == want[0].std_error > 0
    fifth = equity(["?? ?? 7c 9s 2d", "?? ?? 8c Ts 2s"], "stud", method="mc", seed=4)
    seen_by_1 = analyze(hand, viewpoint=1, method="mc", seed=4)
    assert seen_by_1.streets[2].shares != (fifth.players[0].share, fifth.players[1].share)


def test_a_history_is_analysed_by_its_players_names() -> None:
    history = next(read(EXAMPLE))
    found = analyze(history)
    assert found.players == tuple(p.name for p in history.players)
    assert found.all_in is None and found.net[4] == 39 - 15  # DarioZ: 39 less what went in
    seen = analyze(history, viewpoint="Hero")
    assert seen.streets[0].shares[3] is not None  # Hero played 3rd street


def test_bad_input_is_refused_by_name() -> None:
    hand = StudHand("stud", Stakes(1, 2, 5, 10), [50, 50])
    with pytest.raises(OptionError, match="a finished hand"):
        analyze(hand)
    finished = _all_in_on_sixth("stud")
    with pytest.raises(OptionError, match="'Bob' is not a player"):
        analyze(finished, viewpoint="Bob")
    with pytest.raises(OptionError, match="seat 5 is not a seat"):
        analyze(finished, viewpoint=5)
    with pytest.raises(OptionError, match="a StudHand or a History; got int"):
        analyze(3)
    deep = random_hand("stud", 6, seed=1, stack=1000)  # sampled streets, no all-in
    for seed in (1.5, True, "7"):
        with pytest.raises(OptionError, match="seed must be an int"):
            analyze(deep, seed=seed)  # type: ignore[arg-type]
    with pytest.raises(StudevalError, match="no such file or directory"):
        analyze_many(["/no/such/dir"])
    assert isinstance(OptionError("x"), ValueError)


def test_analyze_many_gives_a_row_a_hand_and_player(tmp_path: Path) -> None:
    hands = [_all_in_on_sixth(game) for game in sorted(HEADS_UP)]
    frame = analyze_many(hands)
    assert list(frame.columns) == list(COLUMNS) and len(frame) == 6
    assert frame["luck"].sum() == pytest.approx(0)
    assert list(frame["all_in"]) == [6] * 6
    # Files: a card room's text and PHH, a directory read whole; one player's rows.
    (tmp_path / "stars.txt").write_text(EXAMPLE)
    (tmp_path / "hand.phh").write_text(dumps(hands[0]))
    rows = analyze_many(tmp_path, player="Hero")
    assert list(rows["player"]) == ["Hero"] and rows["net"][0] == pytest.approx(-0.01)
    both = analyze_many([tmp_path])
    assert len(both) == 5 + 2 and set(both["site"].dropna()) == {"PokerStars"}


def test_the_frame_is_pandas_own_reading_of_the_rows_whatever_their_times() -> None:
    import datetime

    import pandas

    # Equal instants in two zones, a time of no zone, none at all, rows sharing one
    # time object and rows with equal ones: the column pandas makes of every row.
    new_york = datetime.timezone(datetime.timedelta(hours=-5))
    at = datetime.datetime(2026, 12, 2, 7, 0, tzinfo=datetime.timezone.utc)
    times_sets = [
        [at, at, at.astimezone(new_york), None],
        [at, at.astimezone(new_york)],
        [at.replace(tzinfo=None), at.replace(tzinfo=None), None],
        [None, None],
        [at, datetime.datetime(2026, 12, 2, 7, 0, tzinfo=datetime.timezone.utc)],
        [],
    ]
    for times in times_sets:
        # (the money and flags are of their one type in every row analyze_many makes)
        rows = [dict.fromkeys(COLUMNS, None) | {"seat": s, "played_at": t, "net": -1.5,
                                                "expected_net": 0.25, "luck": -1.75,
                                                "showdown": s % 2 == 0, "exact": True}
                for s, t in enumerate(times)]  # fmt: skip
        made = tracker._frames(tracker._columns(rows), [])
        expected = pandas.DataFrame(rows, columns=list(COLUMNS))
        assert made.equals(expected), times
        assert list(made.dtypes) == list(expected.dtypes), times


def test_analyze_many_on_a_dask_cluster_gives_the_same_rows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    distributed = pytest.importorskip("distributed")
    rng = random.Random(8)
    for number in range(3):
        hands = [random_hand("stud", 3, rng=rng, stack=15) for _ in range(4)]
        (tmp_path / f"{number}.phhs").write_text(
            "\n".join(f"[{i + 1}]\n{dumps(h)}" for i, h in enumerate(hands)))  # fmt: skip
    here = analyze_many(tmp_path, method="mc", seed=3)
    # Two worker processes: the files' names go to other interpreters, the rows come back.
    with (
        distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1,
                                 dashboard_address=None, memory_limit="1GiB") as cluster,
        distributed.Client(cluster) as client,
    ):  # fmt: skip
        there = analyze_many(tmp_path, client=client, method="mc", seed=3)
    assert len(here) == 3 * 4 * 3
    assert here.equals(there)
    # Files larger than LARGE_INPUT start a local cluster of their own, and close it.
    started: list[object] = []

    class Spy(distributed.LocalCluster):  # type: ignore[misc]
        def __init__(self, *args: object, **kwargs: object) -> None:
            started.append(kwargs)
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(distributed, "LocalCluster", Spy)
    monkeypatch.setattr(tracker, "LARGE_INPUT", 0)
    assert analyze_many(tmp_path, method="mc", seed=3).equals(here) and len(started) == 1
    assert analyze_many(tmp_path, client=False, method="mc", seed=3).equals(here)
    assert len(started) == 1  # client=False: this process


def test_a_three_way_all_in_on_sixth_is_counted_as_the_brute_force_counts() -> None:
    """Three players all in on 6th street: 34 x 33 x 32 deals, few enough to walk,
    so "auto" counts them for the expected chips (the independent count's); the 6th
    street's own equity is sampled (more than STREET_EXACT_DEALS deals)."""
    sevens = ("Ah 2d 7c 9s 3d Jh Kc", "Kh Kd 8c Ts 6s Qh 2c", "Qc Qd 4c 5h 6h 8d 9d")
    hand = _played("stud8", [9, 9, 9], sevens)
    full = analyze(hand, seed=1)
    assert STREET_EXACT_DEALS < 34 * 33 * 32
    assert full.streets[3].street == 6 and not full.streets[3].exact
    for found in (full, analyzed_seats(hand)[2]):
        assert found.all_in == 6 and found.exact is (found is not full)
        shares = twin("stud8", [parse_cards(text)[:6] for text in sevens], [])["share"]
        for seat in range(3):
            assert found.expected[seat] == pytest.approx(float(shares[seat] * 27), abs=1e-9)


def test_a_sampled_all_in_is_within_its_documented_error_of_the_exact_count() -> None:
    """Heads-up all in on 4th street: 141 million deals, sampled (SAMPLES deals).
    The exact count (proven against the brute-force twin in test_equity) is within
    four reported standard errors, each at most the documented 0.5 / sqrt(SAMPLES)."""
    for game, sevens in sorted(HEADS_UP.items()):
        hand = _played(game, [4, 4], sevens)
        _, _, found = analyzed_seats(hand, seed=5)
        assert found.all_in == 4 and not found.exact
        assert analyzed_seats(hand, seed=5)[2] == found  # a seed repeats it
        fourth = equity([parse_cards(text)[:4] for text in sevens], game, method="exact")
        sampled = equity([parse_cards(text)[:4] for text in sevens], game, method="mc",
                         samples=SAMPLES, seed=5)  # fmt: skip
        error = sampled.players[0].std_error
        assert 0 < error <= 0.5 / SAMPLES**0.5
        for seat in (0, 1):
            assert found.expected[seat] == pytest.approx(8 * sampled.players[seat].share)
            assert found.expected[seat] == pytest.approx(8 * fourth.players[seat].share,
                                                         abs=8 * 4 * error)  # fmt: skip
        assert analyze(hand, method="exact").expected == pytest.approx(
            [8 * p.share for p in fourth.players], abs=1e-9)  # fmt: skip


STAKES_OF_CALLS = Stakes(ante=1, bring_in=2, small_bet=5, big_bet=10)


def test_a_trackers_rows_are_the_full_analysis_without_the_streets() -> None:
    """analyzed_seats skips the replay, and the settlement, where no seat paid its
    whole stack: its results are analyze's, street equities apart; the showdown is a
    show or a muck in the log, and the net is the settlement's."""
    rng = random.Random(41)
    kinds: Counter[tuple[bool, bool]] = Counter()
    raked = mucked = 0
    for _ in range(300):
        hand = random_hand(rng.choice(["stud", "stud8", "razz"]), rng.randint(2, 6), rng=rng,
                           stack=rng.choice([15, 40, 1000]), rake=rng.choice([0, 3]))  # fmt: skip
        full = analyze(hand, seed=2)
        _, _, rows = analyzed_seats(hand, seed=2)
        assert rows.streets == ()
        for name in ("all_in", "expected", "net", "expected_net", "luck", "rake", "showdown"):
            assert getattr(rows, name) == getattr(full, name), name
        assert rows.showdown == any(e.kind in ("show", "muck") for e in hand.events)
        settled = hand.result
        assert settled is not None and rows.rake == settled.rake
        paid = hand.contributions
        assert list(rows.net) == [p - c for p, c in zip(settled.payouts, paid, strict=True)]
        kinds[(rows.showdown, rows.all_in is not None)] += 1
        raked += rows.rake > 0
        if full.all_in is None:
            assert rows.exact
    for seed in range(40):  # hands called down to a showdown, some seats mucking there
        hand = StudHand(rng.choice(["stud", "stud8", "razz"]), STAKES_OF_CALLS, [500] * 4,
                        rake=rng.choice([0, 3]))  # fmt: skip
        while not hand.over:
            if hand.actor is None:
                hand.deal_random(seed)
            elif hand.showdown:
                try:
                    hand.muck() if rng.random() < 0.4 else hand.show()
                except StudevalError:  # the first to show may not muck
                    hand.show()
            else:
                kinds_now = hand.legal().kinds()
                hand.act(next(k for k in ("check", "call", "bring_in") if k in kinds_now))
        _, _, rows = analyzed_seats(hand)
        # The same as the full analysis but for its streets' equities (sampled: not exact).
        assert rows.showdown and rows == replace(analyze(hand), streets=(), exact=True)
        assert rows.showdown == any(e.kind in ("show", "muck") for e in hand.events)
        kinds[(rows.showdown, rows.all_in is not None)] += 1
        mucked += any(e.kind == "muck" for e in hand.events)
    assert mucked > 5
    # Won by folds, shown down without and with an all-in; raked and not.
    assert {(False, False), (True, False), (True, True)} <= set(kinds), kinds
    assert 0 < raked < 300


def test_each_sampled_street_is_within_its_documented_error() -> None:
    """Random multiway hands: every sampled street's shares have standard errors of at
    most STREET_TARGET_SE, and add up to the pot; exact streets report none."""
    rng = random.Random(8)
    sampled = exact = 0
    for _ in range(30):
        hand = random_hand(rng.choice(["stud", "stud8", "razz"]), rng.randint(3, 8), rng=rng,
                           stack=1000)  # fmt: skip
        for street in analyze(hand).streets:
            shares = [x for x in street.shares if x is not None]
            errors = [e for e in street.std_errors if e is not None]
            assert sum(shares) == pytest.approx(1.0) and len(errors) == len(shares)
            if street.exact:
                exact += 1
                assert errors == [0.0] * len(errors)
            else:
                sampled += 1
                assert max(errors) <= STREET_TARGET_SE
    assert sampled > 30 and exact > 5


def test_a_hand_whose_result_needs_no_equity_has_no_luck_beyond_2_53_chips() -> None:
    """A stack all in and won by folds is its payouts, as a hand with no stack all in:
    the net rounded once, luck exactly 0 (the payouts less what was paid, each a
    float, left a few chips of luck beyond 2**53)."""
    rng = random.Random(4)
    big = Stakes(10**13 + 1, 2 * 10**13 + 3, 10**15 + 1, 2 * 10**15 + 2)
    whole_stacks = 0
    for _ in range(800):
        hand = random_hand(rng.choice(["stud", "stud8", "razz"]), rng.randint(2, 5), rng=rng,
                           stakes=big, stack=10**16 - 1)  # fmt: skip
        _, _, found = analyzed_seats(hand)
        if found.all_in is not None:
            continue
        assert found.luck == (0.0,) * hand.seats
        assert found.expected_net == tuple(float(n) for n in found.net)
        paid = hand._core.contributions()
        if any(p >= s for p, s in zip(paid, hand.starting_stacks, strict=True)) and any(
                abs(n) > 2**53 for n in found.net):  # fmt: skip
            whole_stacks += 1
    assert whole_stacks >= 5


class _NoOffset(datetime.tzinfo):
    def utcoffset(self, moment: datetime.datetime | None) -> None:
        return None


def test_the_played_at_column_is_the_one_pandas_infers(monkeypatch: pytest.MonkeyPatch) -> None:
    """Times of one zone are made from their microseconds: the same column and dtype as
    pandas reading the objects, across daylight saving's changes (both readings of
    an hour that comes twice) and in every kind of zone; other lists are read by
    pandas."""
    from zoneinfo import ZoneInfo

    rng = random.Random(6)
    start = datetime.datetime(2026, 3, 1)

    def moments(zone: datetime.tzinfo | None, count: int = 400) -> list[object]:
        found: list[object] = []
        for _ in range(count):
            naive = start + datetime.timedelta(seconds=rng.randrange(300 * 86400))
            found.append(naive.replace(tzinfo=zone, fold=rng.randrange(2)))
        found.append(datetime.datetime(2026, 11, 1, 1, 30, tzinfo=zone, fold=1))  # twice
        found.append(datetime.datetime(2026, 11, 1, 1, 30, tzinfo=zone, fold=0))
        return found

    zones = [ZoneInfo("America/New_York"), ZoneInfo("Europe/Paris"), datetime.timezone.utc,
             datetime.timezone(datetime.timedelta(hours=-5)), None]  # fmt: skip
    one_zone = [moments(zone) for zone in zones]
    mixed = [moments(zones[0], 20) + moments(zones[1], 20), [*moments(zones[0], 20), None],
             [], [datetime.date(2026, 1, 1)]]  # fmt: skip
    read_whole = []
    real = tracker._inferred_times
    monkeypatch.setattr(tracker, "_inferred_times",
                        lambda times: read_whole.append(len(times)) or real(times))  # fmt: skip
    for times in one_zone + mixed:
        made, inferred = tracker._times_column(times), real(times)
        assert made.equals(inferred) and made.dtype == inferred.dtype, times[:2]
    # Each one-zone list: pandas read one of its times (for the dtype), not all; the
    # others, every time.
    assert read_whole == [1] * len(one_zone) + [len(times) for times in mixed]
    # A zone with no offset: pandas refuses it, whichever way it is asked.
    for make in (tracker._times_column, real):
        with pytest.raises(AttributeError):
            make(moments(_NoOffset(), 5))


def _eight_all_in_on_sixth(seed: int) -> StudHand:
    """Eight players check and call to 6th street, where all of them go all in for
    different amounts (5 to 40 chips left): layered side pots, and four cards left
    for eight players on 7th street, one community card."""
    deck = list(range(52))
    random.Random(seed).shuffle(deck)
    hand = StudHand("stud", Stakes(ante=0, bring_in=1, small_bet=5, big_bet=10),
                    [6, 11, 16, 21, 26, 31, 36, 41])  # fmt: skip
    for seat in range(8):
        hand.deal(seat, deck[3 * seat : 3 * seat + 3])
    deck = deck[24:]
    while not hand.over:
        legal = hand.legal() if hand.actor is not None and not hand.showdown else None
        if hand.showdown:
            hand.show()
        elif legal is None and hand.street == 7:
            hand.deal_community(deck.pop(0))
        elif legal is None:
            for seat in range(8):
                hand.deal(seat, [deck.pop(0)])
        elif legal.bring_in:
            hand.act("bring_in")
        elif hand.street < 6:
            hand.act("call" if legal.call else "check")
        elif legal.bet_to or legal.raise_to:
            hand.act("bet" if legal.bet_to else "raise", max(legal.bet_to or legal.raise_to))
        else:
            hand.act("call")
    return hand


def test_a_side_pot_of_a_hand_whose_deck_ran_out_shares_the_community_card() -> None:
    # Each pot among its own players had been dealt with the others' cards out: the
    # two players of the top pot each got a 7th card of their own where the hand dealt
    # one card for all (and the eight players' main pot was sampled: 4 deals). The
    # expected chips against a plain count over the 4 cards the community could be,
    # each pot split among its best hands (tests/reference.py ranks them).
    for seed in (0, 2, 5):  # (in others two players bet on 7th: no all-in to adjust)
        hand = _eight_all_in_on_sixth(seed)
        found = analyze(hand)
        assert found.all_in == 6 and hand.community is not None
        known = [list(hand.cards[s][:6]) for s in range(8)]
        unseen = [c for c in range(52) if not any(c in k for k in known)]
        assert len(unseen) == 4
        paid, expected, below = list(hand.contributions), [0.0] * 8, 0
        for level in sorted(set(paid)):
            amount = sum(min(p, level) - min(p, below) for p in paid)
            eligible = [s for s in range(8) if paid[s] >= level]
            for card in unseen:
                ranks = {s: ref.high_rank([*known[s], card]) for s in eligible}
                winners = [s for s in eligible if ranks[s] == min(ranks.values())]
                for s in winners:
                    expected[s] += amount / len(winners) / len(unseen)
            below = level
        assert found.expected == pytest.approx(expected, abs=1e-9), seed
