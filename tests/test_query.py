"""studeval.query (PQL for stud): each trial's answers equal a pure-Python twin's,
the sampled answers agree with studeval.equity and with brute force on small spots,
ranges are drawn by weight, and bad queries get a QueryError at the character."""

from __future__ import annotations

import contextlib
import itertools
import math
import warnings

import numpy as np
import pytest
import reference as ref
from hypothesis import given, settings
from hypothesis import strategies as st
from pql_reference import evaluate

import studeval
from studeval import _core, _pql
from studeval.cards import parse_cards
from studeval.errors import OptionError, QueryError, QueryWarning
from studeval.games import get_game
from studeval.queries import _compile, query

#: Queries over every function, operator and street (hiRating only compared).
TABLE = [
    (
        "stud",
        "select avg(riverEquity(a)), count(winsHi(b)), count(tiesHi(c)), count(scoops(a)) "
        "from game='stud', a='*', b='*', c='*'",
    ),
    (
        "stud",
        "select histogram(handType(a, third)), histogram(handType(a, fourth)), "
        "histogram(handType(b, fifth)), histogram(handType(b, seventh)) "
        "from game='stud', a='*', b='*'",
    ),
    (
        "stud",
        "select count(hiRating(a, third) > hiRating(b, third)), "
        "count(bestHiRating(a, fourth)), count(bestHiRating(b, sixth)), "
        "avg(equity(a, seventh) * 2 - 1) from game='stud', a='*', b='*' "
        "where minHandType(a, fifth, pair) or not (handType(b, third) <> highcard)",
    ),
    (
        "stud",
        "select histogram(winningHandType()), max(handType(a, seventh)), "
        "min(handType(b, sixth)) from game='studhi', a='*', b='*', c='*', d='*'",
    ),
    (
        "stud",
        "select histogram(upHandType(a, sixth)), histogram(upHandType(a, third)), "
        "histogram(upHandType(a, fourth)), "
        "histogram(upHandType(b, fifth)), histogram(upHandType(b, sixth)), "
        "histogram(upHandType(c, seventh)) from game='stud', a='*', b='*', c='*' "
        "where upHandType(a, sixth) >= pair",
    ),
    (
        "stud8",
        "select avg(riverEquity(a)), count(winsLo(a)), count(tiesLo(b)), "
        "count(winsHi(b)), count(scoops(b)), count(bestLoRating(a, fifth)), "
        "count(bestLoRating(b, seventh)) from game='stud8', a='*', b='*', c='*'",
    ),
    (
        "razz",
        "select avg(riverEquity(a)), count(winsLo(b)), count(tiesLo(a)), "
        "count(bestLoRating(a, sixth)), avg(-riverEquity(b) + 1 / 2) "
        "from game='razz', a='*', b='*' where handType(a, third) = highcard",
    ),
]


def _random_trials(n: int, players: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    order = np.argsort(rng.random((n, 52)), axis=1)[:, : 7 * players]
    return order.astype(np.uint8).reshape(n, players, 7)


@pytest.mark.parametrize(("game", "text"), TABLE)
def test_every_trial_equals_the_reference(game: str, text: str) -> None:
    """The compiled program, run in C on 400 random trials, gives each trial exactly
    the twin's values (every selector, and the where clause)."""
    compiled = _compile(_pql.parse(text))
    trials = _random_trials(400, len(compiled.players), seed=len(text))
    out = np.empty((len(trials), len(compiled.outputs)))
    _core.query_eval(get_game(game).core_id, compiled.ops, compiled.outputs, b"", trials, 1,
                     out)  # fmt: skip
    expected = np.array([evaluate(text, t.tolist()) for t in trials])
    assert expected.shape == out.shape
    np.testing.assert_allclose(out, expected, rtol=0, atol=1e-12)
    assert len(np.unique(out[:, 0])) > 1  # the trials tell the answers apart


def _within(value: float, expected: float, error: float, sigmas: float = 5.0) -> bool:
    return abs(value - expected) <= sigmas * error + 1e-12


@pytest.mark.parametrize(
    ("game", "players", "seats"),
    [
        ("stud", ["As Ad Ah", "Kc Kd Qh", "*"], ["As Ad Ah", "Kc Kd Qh", "??"]),
        ("stud8", ["As 2d 3h", "Kc Kd Qh"], ["As 2d 3h", "Kc Kd Qh"]),
        ("razz", ["As 2d 3h 9c", "4c 5d 6h Kd"], ["As 2d 3h 9c", "4c 5d 6h Kd"]),
    ],
)
def test_equity_agrees_with_studeval_equity(game: str, players: list[str],
                                            seats: list[str]) -> None:  # fmt: skip
    names = [f"p{i}" for i in range(len(players))]
    selectors = ", ".join(f"avg(riverEquity({n}))" for n in names)
    seats_text = ", ".join(f"{n}='{p}'" for n, p in zip(names, players, strict=True))
    text = f"select {selectors} from game='{game}', {seats_text}"
    got = query(text, samples=200_000, seed=5)
    want = studeval.equity(seats, game=game, samples=200_000, seed=6)
    for name, player in zip(names, want.players, strict=True):
        error = math.hypot(float(got.std_error[f"avg(riverEquity({name}))"]), player.std_error)
        assert _within(float(got[f"avg(riverEquity({name}))"]), player.share, error), name  # type: ignore[arg-type]


def test_a_range_agrees_with_studeval_equity() -> None:
    got = query("select avg(riverEquity(h)) as h from game='stud', h='Qs Qd Qh', v='KK, AA@Kc'",
                samples=200_000, seed=8)  # fmt: skip
    want = studeval.equity(["Qs Qd Qh", studeval.Range("KK, AA", up="Kc")], game="stud",
                           samples=200_000, seed=9)  # fmt: skip
    error = math.hypot(float(got.std_error["h"]), want.players[0].std_error)  # type: ignore[arg-type]
    assert _within(float(got["h"]), want.players[0].share, error)  # type: ignore[arg-type]


def test_a_small_spot_agrees_with_brute_force() -> None:
    """Hero's seven cards known, the villain's first six: every seventh card counted
    in pure Python (tests/reference.py), the where clause too. The query counts the
    same deals exactly; sampled, it agrees within its standard error."""
    hero, villain = "Ts Td 4h 4c 2s 7d 9c", "Js Jd 8h 3c 5s Kd"  # two pair; a pair
    known = parse_cards(hero + " " + villain)
    shares, kept = [], []
    for card in (c for c in range(52) if c not in known):
        h, v = ref.high_rank(parse_cards(hero)), ref.high_rank([*parse_cards(villain), card])
        share = 1.0 if h < v else 0.5 if h == v else 0.0
        shares.append(share)
        if ref.high_category(v) != "Two Pair":
            kept.append(share)
    exact, conditional = sum(shares) / len(shares), sum(kept) / len(kept)
    assert not math.isclose(exact, conditional, abs_tol=0.02)  # the where clause matters
    text = f"select avg(riverEquity(h)) as eq from game='stud', h='{hero}', v='{villain}'"
    where = text + " where not handType(v, seventh) = twopair"
    counted = query(text)
    assert counted.exact and counted.dealt == counted.trials == len(shares)
    assert counted["eq"] == pytest.approx(exact, abs=1e-12)
    assert counted.std_error["eq"] == 0.0
    counted = query(where)
    assert counted.exact and (counted.trials, counted.dealt) == (len(kept), len(shares))
    assert counted["eq"] == pytest.approx(conditional, abs=1e-12)
    got = query(text, samples=100_000, seed=3, exact=False)
    assert not got.exact and got.trials == 100_000
    assert _within(float(got["eq"]), exact, float(got.std_error["eq"]))  # type: ignore[arg-type]
    got = query(where, samples=100_000, seed=4, exact=False)
    assert got.trials == 100_000 and got.dealt > got.trials
    assert _within(float(got["eq"]), conditional, float(got.std_error["eq"]))  # type: ignore[arg-type]


def test_exact_with_ranges_agrees_with_brute_force() -> None:
    """Two sixth-street players, one a range (two down kings, ``KK****``: 3
    combinations), the other's down cards known: every combination and each seventh
    card of each player, in order (3 x 40 x 39 deals), counted in pure Python against
    the query's exact answers."""
    hero, up = parse_cards("As Ad 2c 2d 7h 9s"), parse_cards("Ks 3c 4d 8h")
    deals = wins = full_houses = 0
    for pair in itertools.combinations(parse_cards("Kc Kd Kh"), 2):
        villain = [*pair, *up]
        rest = [c for c in range(52) if c not in (*hero, *villain)]
        for a, b in itertools.permutations(rest, 2):
            h, v = ref.high_rank([*hero, a]), ref.high_rank([*villain, b])
            deals += 1
            wins += h < v
            full_houses += ref.high_category(h) == "Full House"
    r = query("select count(winsHi(h)) as wins, avg(handType(h, seventh) = fullhouse) as full "
              "from game='stud', h='As Ad 2c 2d 7h 9s', v='KK****@Ks 3c 4d 8h'")  # fmt: skip
    assert r.exact and r.dealt == r.trials == deals == 3 * 40 * 39
    assert r["wins"] == wins and r["full"] == pytest.approx(full_houses / deals, abs=1e-12)


def test_when_a_query_is_counted_exactly() -> None:
    """Unequal weights or too many deals: sampled (exact=True refuses, naming why)."""
    early = "select avg(riverEquity(h)) from game='stud', h='As Ad Ah', v='*'"
    assert not query(early, samples=4096, seed=1).exact
    with pytest.raises(QueryError, match="cannot be counted exactly"):
        query(early, exact=True)
    weighted = ("select avg(riverEquity(h)) from game='stud', h='As Ad 2c 2d 7h 9s', "
                "v='KK*@0.5, QQ*@Ks 3c 4d 8h'")  # fmt: skip
    assert not query(weighted, samples=4096, seed=1).exact
    with pytest.raises(OptionError, match="exact must be"):
        query(early, exact=1)  # type: ignore[arg-type]


def test_the_documented_limits_are_the_constants() -> None:
    from studeval._query_run import BUDGET, MOST_EXACT

    doc = str(query.__doc__)
    assert f"at most {MOST_EXACT:,} and" in doc and f"up to {BUDGET} times" in doc


def test_range_combinations_drawn_by_weight() -> None:
    """With the Kh up, AA at weight 0.25 (6 combinations: a pair) and KK at weight 1
    (3 combinations: trips): trips in 3 / 4.5 of the draws."""
    got = query("select avg(handType(p, third) = trips) as trips from game='stud', "
                "p='AA*@0.25, KK*@Kh', q='*'", samples=200_000, seed=11)  # fmt: skip
    assert _within(float(got["trips"]), 3 / 4.5, float(got.std_error["trips"]))  # type: ignore[arg-type]


def test_the_same_seed_gives_the_same_answers_on_any_threads() -> None:
    text = ("select avg(riverEquity(a)), histogram(handType(b, sixth)) from game='stud8', "
            "a='*', b='*', c='*'")  # fmt: skip
    one = query(text, samples=300_000, seed=42, threads=1)
    two = query(text, samples=300_000, seed=42, threads=2)
    assert dict(one) == dict(two) and one.trials == two.trials == 300_000
    other = query(text, samples=300_000, seed=43, threads=2)
    assert dict(other) != dict(one)


def test_histogram_and_count_shapes() -> None:
    r = query("select histogram(handType(p, seventh)) as t, count(winsHi(p)) as w, "
              "max(hiRating(p, fifth)) as m from game='stud', p='*', q='*'",
              samples=50_000, seed=1)  # fmt: skip
    shares = r["t"]
    assert isinstance(shares, dict) and set(shares) <= {"highcard", "pair", "twopair", "trips",
                                                         "straight", "flush", "fullhouse",
                                                         "quads", "straightflush"}  # fmt: skip
    assert math.isclose(sum(shares.values()), 1.0)
    assert isinstance(r["w"], int) and 0 < r["w"] < 50_000
    assert r.exact is False and r.std_error["m"] == 0.0
    assert "50,000 trials kept" in str(r)


def test_outs_count_exactly_the_type_and_razz_asks_about_its_cards() -> None:
    """outsToHandType counts the cards that make exactly that type (as query.md says),
    and the functions about a hand's cards answer in razz; expectations counted by
    hand."""
    # Ac Ad 7s 8h on fourth street: two pair from a seven or an eight (3 + 3 left),
    # trips from the two aces left; a pair it already has.
    r = query("select avg(outsToHandType(h, fourth, twopair)) as two, "
              "avg(outsToHandType(h, fourth, trips)) as three, "
              "avg(outsToHandType(h, fourth, pair)) as pair "
              "from game='stud', h='Ac Ad 7s 8h', v='2c 3c 4c 5d'", samples=9, seed=1)  # fmt: skip
    assert (r["two"], r["three"], r["pair"]) == (6, 2, 0)
    # Razz: 2s 2d 3c 4h 8s 9d Kc holds one pair and nothing better.
    r = query("select avg(minHandType(h, seventh, pair)) as paired, "
              "avg(handType(h, seventh) = pair) as one_pair "
              "from game='razz', h='2s 2d 3c 4h 8s 9d Kc', v='*'", samples=9, seed=1)  # fmt: skip
    assert (r["paired"], r["one_pair"]) == (1.0, 1.0)


def test_ranges_never_held_together_are_named_not_a_short_deck() -> None:
    """Two ranges that both need the ace of spades: a RangeError saying so (it was a
    NoDealError about community cards, though the deck has room), sampled or not,
    on the river and for a street's equity."""
    for selector in ("riverEquity(h)", "equity(h, fifth)"):
        text = f"select avg({selector}) as e from game='stud', h='AsAh@Kc', v='AsAd@Kd'"
        for options in ({"samples": 100, "seed": 1}, {"seed": 1}):
            with pytest.raises(studeval.RangeError, match="never be held together"):
                query(text, **options)
    # A deck that is really short is said to be, with the count (a query deals no
    # community card): seven players and four dead cards leave 48 of the 49 needed.
    seven = ", ".join(f"p{i}='*'" for i in range(7))
    short = f"select avg(riverEquity(p0)) as e from game='stud', {seven}, dead='2c 2d 2h 2s'"
    for options in ({"samples": 100, "seed": 1}, {"seed": 1}):
        with pytest.raises(studeval.NoDealError, match="7 players need 49 unseen cards and 48"):
            query(short, **options)
    assert query(short.replace("2c 2d 2h 2s", "2c"), samples=100, seed=1).trials == 100


@pytest.mark.parametrize(
    ("text", "reason", "at"),
    [
        ("select avg(x) form game='stud'", "expected FROM", "form"),
        ("select avg(riverEquity(p)) from game='stud', p='*' where", "expected a value", None),
        ("select total(riverEquity(p)) from game='stud', p='*'", "no aggregate", "total"),
        ("select avg(nutHiOuts(p, fifth)) from game='stud', p='*'", "nutHiOuts", "nutHi"),
        ("select avg(foo(p)) from game='stud', p='*'", "no PQL function", "foo"),
        ("select avg(riverEquity(q)) from game='stud', p='*'", "expected a player", "q)"),
        ("select count(winsHi(p)) from game='razz', p='*'", "razz has only the low", "winsHi"),
        ("select count(winsLo(p)) from game='stud', p='*'", "stud has only the high", "winsLo"),
        ("select count(bestLoRating(p, third)) from game='razz', p='*'", "five cards", "best"),
        ("select avg(nutLo(p, fourth)) from game='razz', p='*'", "five cards", "nutLo"),
        ("select avg(riverEquity(p)) from game='holdem', p='*'", "no stud game", "holdem"),
        ("select count(riverEquity(p)) from game='stud', p='*'", "count counts", "count"),
        ("select avg(handType(p, third) = flsh) from game='stud', p='*'", "no hand type", "flsh"),
        ("select avg(riverEquity(p)) from game='stud', p='ZZ@Kc'", "range", "ZZ"),
        ("select avg(riverEquity(p)) from game='stud', p='  ZZ@Kc'", "range", "ZZ"),
        ("select avg(riverEquity(p)) from game='stud', p='As'", "1 card", "As"),
        ("select avg(case when 1 then 2 end) from game='stud', p='*'", "CASE", "case"),
        ("select avg(riverEquity(p) || 1) from game='stud', p='*'", "||", "||"),
        ("select avg(riverEquity(p)) from game='stud', p='*' garbage", "unexpected", "garbage"),
    ],
)
def test_errors_point_at_the_character(text: str, reason: str, at: str | None) -> None:
    with pytest.raises(QueryError) as caught:
        query(text, samples=4096, seed=1)
    err = caught.value
    assert isinstance(err, ValueError) and reason in str(err)
    if at is not None:
        assert err.position == text.index(at), (err.position, str(err))
        assert "^" in str(err)


def test_whole_query_errors() -> None:
    eight = ", ".join(f"p{i}='*'" for i in range(8))
    with pytest.raises(QueryError, match="at most 7"):
        query(f"select avg(riverEquity(p0)) from game='stud', {eight}")
    with pytest.raises(QueryError, match="names no game"):
        query("select avg(riverEquity(p)) from p='*'")
    # query's keyword arguments are checked as equity's are (numpy's integers taken).
    text = "select avg(riverEquity(p)) from game='stud', p='*'"
    for bad in (0, -1, 1.5, True, "9"):
        with pytest.raises(OptionError, match="samples"):
            query(text, samples=bad)  # type: ignore[arg-type]
    for name, bad in (("threads", 0), ("threads", True), ("seed", -1), ("seed", 2.0)):
        with pytest.raises(OptionError, match=name):
            query(text, **{name: bad})  # type: ignore[arg-type]
    r = query(text, samples=np.int64(4096), seed=np.uint64(7), threads=np.int32(1),
              exact=np.bool_(False))  # fmt: skip
    assert r.trials == 4096 and r.seed == 7 and not r.exact


def test_a_where_clause_that_keeps_nothing_or_little() -> None:
    with pytest.raises(QueryError, match="kept none"):
        query("select avg(riverEquity(p)) from game='stud', p='*', q='*' "
              "where handType(p, third) = flush", samples=1000, seed=1)  # fmt: skip
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        r = query("select avg(riverEquity(p)) as e from game='stud', p='*', q='*' "
                  "where handType(p, fourth) = quads", samples=5000, seed=1)  # fmt: skip
    assert any(issubclass(w.category, QueryWarning) for w in caught)
    assert 0 < r.trials < 5000 and r.dealt >= 5000 * 100


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="selctavgfromwhreiEqutyp()'=,<>!|*-+/ 0123.56789abdhknoz_\"", max_size=80))
def test_the_parser_never_fails_otherwise(text: str) -> None:
    """Any text is read, or refused with a QueryError: never another exception."""
    with contextlib.suppress(QueryError):
        _pql.parse(text)


_WORDS = ["select", "avg(", "count(", "histogram(", "riverEquity(p)", "handType(p, fifth)",
          "winsHi(p)", ")", "from", "game='stud'", "p='*'", "q='KK@Kc'", "where", "and", "or",
          "not", "=", "<", "+", "-", "*", "/", ",", "1", "flush", "as x", "(",
          "equity(q)"]  # fmt: skip


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(_WORDS), max_size=16))
def test_queries_of_real_words_are_answered_or_refused(words: list[str]) -> None:
    text = " ".join(words)
    with contextlib.suppress(QueryError):
        query(text, samples=4096, seed=1)


def test_every_combination_of_two_functions_compiles() -> None:
    """Each function the docs list compiles in each game where it has a meaning."""
    calls = ["riverEquity(p)", "equity(p)", "equity(p, seventh)", "winsHi(p)", "tiesHi(p)",
             "winsLo(p)", "tiesLo(p)", "scoops(p)", "handType(p, fourth) = pair",
             "hiRating(p, fifth) > 0", "bestHiRating(p, sixth)", "bestLoRating(p, fifth)",
             "minHandType(p, seventh, flush)", "winningHandType() = flush",
             "upHandType(q, fifth) >= pair"]  # fmt: skip
    answered = 0
    for game, (a, b) in itertools.product(("stud", "stud8", "razz"), itertools.pairwise(calls)):
        text = f"select avg({a}), avg({b}) from game='{game}', p='*', q='*'"
        try:
            query(text, samples=4096, seed=1)
            answered += 1
        except QueryError as err:
            assert "has only the" in str(err)
    assert answered >= 25


def test_a_nan_among_the_values_makes_min_and_max_nan() -> None:
    # 0/0 is nan on every trial; 1/0 is inf: min and max of values holding a nan are
    # nan (as avg's), not the infinities they start from.
    result = query("select min(0/0) as a, max(0/0) as b, avg(0/0) as c, max(1/0) as d, "
                   "min(riverEquity(h)) as e from game='stud', h='As Ad Ah', v='*'",
                   samples=2_000, seed=1)  # fmt: skip
    assert all(math.isnan(result[name]) for name in "abc")
    assert result["d"] == math.inf and 0 <= result["e"] <= 1


def test_every_card_known_is_one_deal_counted() -> None:
    # Both seats' seven cards given: nothing to deal, one deal, counted exactly.
    text = ("select avg(riverEquity(h)) as e, count(winsHi(v)) as v from game='stud', "
            "h='As Ad Ah Kc Kd 2c 3d', v='Qs Qd Qh Jc Jd 2s 3s'")  # fmt: skip
    result = query(text)
    assert (result["e"], result["v"]) == (1.0, 0)
    assert result.exact and result.trials == 1


def test_deep_nesting_and_too_many_selectors_are_named() -> None:
    # The parser recurses into nested expressions: past 50 levels, a QueryError at
    # the character, not a RecursionError; 17 outputs are one more than the core runs.
    spot = " from game='stud', h='As Ad Ah', v='*'"
    for deep in ("(" * 150 + "riverEquity(h)" + ")" * 150, "not " * 100 + "winsHi(h)",
                 "-" * 200 + "1"):  # fmt: skip
        with pytest.raises(QueryError, match="nested more than 50 deep at character"):
            query(f"select avg({deep}) as x{spot}", samples=100, seed=1)
    assert query("select avg(" + "(" * 45 + "1" + ")" * 45 + f") as x{spot}", samples=10,
                 seed=1)["x"] == 1  # fmt: skip
    many = ", ".join(f"avg(riverEquity(h)) as s{i}" for i in range(16))
    query(f"select {many}{spot}", samples=10, seed=1)
    with pytest.raises(QueryError, match="at most 16 selectors, its where clause counted"):
        query(f"select {many}{spot} where winsHi(h)", samples=10, seed=1)


def test_a_card_given_twice_is_named_where_it_is_given_again() -> None:
    head = "select avg(riverEquity(h)) as e from game='stud', "
    for spot, message in (
        ("h='As Ad Ah Kc', v='Qs Qd Qh', dead='As'", "As is in player h's cards and in the dead"),
        ("h='As Ad Ah', v='As Kd Kh'", "As is in player v's cards and in player h's cards"),
        ("h='KK@Ah', v='QQ@Ah'", "Ah is in player v's cards and in player h's cards"),
        ("h='As As Ah', v='*'", "As is in player h's cards and twice there"),
    ):  # fmt: skip
        with pytest.raises(QueryError, match=message) as caught:
            query(head + spot, samples=100, seed=1)
        at = (head + spot).index(message.split("player ")[1][0] + "=")  # the string given again
        assert caught.value.position is not None and at <= caught.value.position <= at + 3


def test_a_player_string_with_a_comma_is_a_range_never_cards() -> None:
    # "AsKs, AhKh" reads as card text too (four cards, dealt in order); the comma makes
    # it what it is written as: a range of two combinations of down cards.
    text = "select avg(riverEquity(h)) as eq from game='stud', h='{}', v='*'"
    as_range = query(text.format("AsKs, AhKh"), samples=4000, seed=1, threads=1)
    with_no_up = query(text.format("AsKs, AhKh@"), samples=4000, seed=1, threads=1)
    assert as_range["eq"] == with_no_up["eq"]
    as_cards = query(text.format("AsKs AhKh"), samples=4000, seed=1, threads=1)
    assert as_cards["eq"] != as_range["eq"]


@pytest.mark.parametrize(("op", "term"), [("+", "1"), (" and ", "winsHi(h)")])
def test_a_long_flat_chain_is_too_long_not_a_recursion_error(op: str, term: str) -> None:
    # A chain is parsed without recursion into a tree as deep as it is long.
    text = f"select avg({op.join([term] * 3000)}) as x from game='stud', h='As Ad Ah', v='*'"
    with pytest.raises(QueryError, match="too long"):
        query(text, samples=100, seed=1, threads=1)


@pytest.mark.parametrize("call", ["minHandType(h, fifth, sevenlow)",
                                  "outsToHandType(h, fifth, sevenlow)"])  # fmt: skip
def test_a_low_type_where_a_hand_type_is_wanted_is_named_so(call: str) -> None:
    # The message had said "'sevenlow' is no ... low type (..., sevenlow, ...)".
    with pytest.raises(QueryError, match=r"'sevenlow' is a low type; this argument is a hand "
                                         r"type \(highcard, pair"):  # fmt: skip
        query(f"select avg({call}) as x from game='razz', h='As 2d 3h', v='*'", samples=100, seed=1)
