"""Queries that read what a player sees: nutHi, nutLo, outsToHandType, lowType and the
equity of a street (HvHequity, equity(p, street)), each against the pure-Python twin
(tests/pql_reference.py) that enumerates every hidden hand and every runout.

Most trials here have many dead cards, so that the twin's enumerations are small."""

from __future__ import annotations

import numpy as np
import pytest
from pql_reference import evaluate

import studeval
from studeval import _core, _pql
from studeval.errors import QueryError
from studeval.games import get_game
from studeval.queries import _compile


def _trials(n: int, players: int, dead: list[int], seed: int) -> np.ndarray:
    """n random deals of seven cards a player from the cards not dead."""
    rng = np.random.default_rng(seed)
    live = np.array([c for c in range(52) if c not in dead], dtype=np.uint8)
    deals = np.array([rng.permutation(live)[: 7 * players] for _ in range(n)], dtype=np.uint8)
    return deals.reshape(n, players, 7)


def _run(text: str, trials: np.ndarray) -> tuple[np.ndarray, list[int]]:
    compiled = _compile(_pql.parse(text))
    out = np.empty((len(trials), len(compiled.outputs)))
    _core.query_eval(get_game(compiled.game).core_id, compiled.ops, compiled.outputs,
                     compiled.dead, np.ascontiguousarray(trials), 1, out)  # fmt: skip
    return out, list(compiled.dead)


DEAD = "2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ac 2d 3h 4s 5c 6d 7h 8s"  # 20 cards
SEAT_TABLE = [
    "select count(nutHi(a, third)), count(nutHi(b, sixth)), count(nutHi(a, fifth)), "
    "count(nutHi(b, seventh)), avg(outsToHandType(a, third, pair)), "
    "avg(outsToHandType(b, fourth, twopair)), avg(outsToHandType(a, fifth, straight)), "
    "avg(outsToHandType(b, sixth, flush)), avg(outsToHandType(a, sixth, fullhouse)), "
    "histogram(handType(a, sixth)) from game='stud', a='*', b='*', c='*', dead='" + DEAD + "'",
    "select count(nutLo(a, fifth)), count(nutLo(b, seventh)), histogram(lowType(a, sixth)), "
    "histogram(lowType(b, seventh)), count(nutHi(c, sixth)), "
    "count(lowType(a, seventh) >= sevenlow) from game='stud8', a='*', b='*', c='*', "
    "dead='" + DEAD + "'",
    "select count(nutLo(a, sixth)), histogram(lowType(a, fifth)), histogram(lowType(b, seventh)), "
    "avg(outsToHandType(b, fifth, pair)) from game='razz', a='*', b='*', dead='" + DEAD + "'",
    "select count(upCardsInRange(a, third, '9')), count(upCardsInRange(b, fifth, 'K * *')), "
    "count(upCardsInRange(a, sixth, 'Ah,*,*,*')), count(upCardsInRange(b, seventh, 'KQ**')), "
    "count(upCardsInRange(a, fourth, 'Td 9')) from game='stud', a='*', b='*', dead='2c 3d'",
]


def _picked(out: np.ndarray, each: int, seed: int) -> list[int]:
    """Trials to check: up to ``each`` of every value each column takes, and some more
    at random (the rare values, such as a nut, are found among many trials)."""
    rng = np.random.default_rng(seed)
    picked = set(rng.choice(len(out), size=min(30, len(out)), replace=False).tolist())
    for column in range(out.shape[1]):
        for value in np.unique(out[:, column]):
            picked.update(np.flatnonzero(out[:, column] == value)[:each].tolist())
    return sorted(picked)


@pytest.mark.parametrize("text", SEAT_TABLE)
def test_what_a_seat_sees_equals_the_twin(text: str) -> None:
    """Nuts, outs and low types exactly as the twin's brute force (each opponent's every
    hidden hand among the cards the player has not seen), on trials that hold every
    value each selector takes in 20,000 random ones."""
    tree = _pql.parse(text)
    dead = studeval.parse_cards(tree.sources["dead"].value)
    players = len([k for k in tree.sources if k not in ("game", "dead")])
    trials = _trials(20_000, players, dead, seed=len(text))
    out, _ = _run(text, trials)
    for column in range(out.shape[1]):  # each selector tells the trials apart
        assert len(np.unique(out[:, column])) > 1, tree.selectors[column]
    picked = _picked(out, each=4, seed=len(text))
    expected = np.array([evaluate(text, trials[i].tolist(), dead) for i in picked])
    np.testing.assert_array_equal(out[picked], expected)


def test_nuts_without_dead_cards() -> None:
    """The nuts searched over a whole deck: held and not held, as the twin finds them
    (every opponent's hidden cards among the 40-odd unseen)."""
    text = "select count(nutHi(a, fifth)), count(nutHi(b, seventh)) from game='stud', " \
           "a='*', b='*'"  # fmt: skip
    trials = _trials(100_000, 2, [], seed=3)
    out, _ = _run(text, trials)
    assert 0 < out[:, 1].sum() < out[:, 0].sum() < len(trials) / 10
    picked = _picked(out, each=5, seed=3)
    expected = np.array([evaluate(text, trials[i].tolist()) for i in picked])
    np.testing.assert_array_equal(out[picked], expected)
    assert expected[:, 1].sum() == min(5, out[:, 1].sum())


def test_hand_against_hand_is_exact_where_the_runouts_are_few() -> None:
    """HvHequity on sixth street: every runout, equal to the twin's to the last bit of
    a double; a spot of fixed hands counts every deal and equals studeval.equity."""
    text = "select avg(HvHequity(a, sixth)), avg(HvHequity(b, sixth)) from game='stud8', " \
           "a='*', b='*', dead='" + DEAD + "'"  # fmt: skip
    dead = studeval.parse_cards(DEAD)
    trials = _trials(16, 2, dead, seed=9)
    out, _ = _run(text, trials)
    expected = np.array([evaluate(text, t.tolist(), dead) for t in trials])
    np.testing.assert_allclose(out, expected, rtol=0, atol=1e-12)
    assert len(np.unique(out[:, 0])) > 8
    r = studeval.query("select avg(HvHequity(h, sixth)) as h from game='stud', "
                       "h='As Ad 2c 2d 7h 9s', v='Kc Kd Ks 3c 4d 8h'")  # fmt: skip
    want = studeval.equity(["As Ad 2c 2d 7h 9s", "Kc Kd Ks 3c 4d 8h"], "stud", method="exact")
    assert r.exact and r.dealt == 1560
    assert r["h"] == pytest.approx(want.players[0].share, abs=1e-12)


RUNOUT_SE = 0.5 / np.sqrt(_core.QUERY_RUNOUTS)  # a share's largest standard error


@pytest.mark.parametrize("blind", [False, True])
def test_drawn_street_equity_is_unbiased(blind: bool) -> None:
    """Where the runouts are many, each trial's street equity is drawn from 1,024 of
    them: within 5 standard errors of the twin's every runout in each trial, and their
    mean error within 5 standard errors of 0. equity(p, street) sees only the others'
    up cards, HvHequity every card: the two differ."""
    dead = list(range(36))  # 16 cards live: 2-card hidden hands and runouts are few
    name = "equity" if blind else "HvHequity"
    text = f"select avg({name}(a, fifth)) from game='stud', a='*', b='*'"
    trials = _trials(40, 2, dead, seed=4)
    compiled = _compile(_pql.parse(text))
    out = np.empty((len(trials), 1))
    _core.query_eval(0, compiled.ops, compiled.outputs, bytes(dead), trials, 1, out)
    expected = np.array([evaluate(text, t.tolist(), dead) for t in trials])[:, 0]
    errors = out[:, 0] - expected
    assert np.all(np.abs(errors) <= 5 * RUNOUT_SE)
    assert abs(errors.mean()) <= 5 * RUNOUT_SE / np.sqrt(len(trials))
    other = "select avg(HvHequity(a, fifth)) from game='stud', a='*', b='*'"
    if blind:
        seen_all = np.array([evaluate(other, t.tolist(), dead)[0] for t in trials])
        assert np.abs(seen_all - expected).max() > 0.2


def test_street_equity_reads_the_others_ranges() -> None:
    """equity(p, street) draws another player's hidden cards from its range: a range of
    one hand gives the hand-against-hand equity; a query of one seed gives the same
    answers on one thread and on two."""
    text = ("select avg(equity(h, sixth)) as blind, avg(HvHequity(h, sixth)) as known "
            "from game='stud', h='As Ad 2c 2d 7h 9s', v='Kc Kd Ks 3c 4d 8h'")  # fmt: skip
    r = studeval.query(text, samples=8192, seed=3, threads=1)
    assert not r.exact and r.std_error["known"] == 0.0
    assert r["known"] == pytest.approx(0.0858974, abs=1e-6)
    assert abs(r["blind"] - r["known"]) <= 5 * r.std_error["blind"]  # type: ignore[operator]
    assert r.answers == studeval.query(text, samples=8192, seed=3, threads=2).answers
    wide = studeval.query(
        "select avg(equity(h, sixth)) as e from game='stud', "
        "h='As Ad 2c 2d 7h 9s', v='*@Ks 3c 4d 8h'",
        samples=8192,
        seed=3,
    )
    assert wide["e"] > r["blind"] + 0.3  # type: ignore[operator]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("select count(nutHi(p, fifth)) from game='razz', p='*'", "razz has only the low"),
        ("select histogram(lowType(p, fifth)) from game='stud', p='*'", "stud has only"),
        ("select histogram(lowType(p, fourth)) from game='razz', p='*'", "five cards"),
        ("select avg(lowType(p, fifth)) from game='razz', p='*'", "use histogram"),
        ("select count(lowType(p, fifth) = flush) from game='razz', p='*'", "compares two"),
        ("select avg(outsToHandType(p, fifth)) from game='stud', p='*'", "3 arguments"),
        (
            "select count(minOutsToHandType(p, fifth, flush, 3)) from game='stud', p='*'",
            "not supported",
        ),
        ("select count(lowType(p, fifth) = sixhigh) from game='razz', p='*'", "no hand type"),
        (
            "select count(upCardsInRange(p, fifth, 'K7')) from game='stud', p='*'",
            "names 2 up cards; a player has 3 by fifth street",
        ),
        ("select count(upCardsInRange(p, third, 'X')) from game='stud', p='*'", "'X' is no rank"),
        ("select count(upCardsInRange(p, third, 9)) from game='stud', p='*'", "in quotes"),
        ("select avg(riverEquity(p) > 'x') from game='stud', p='*'", "quoted string"),
        ("select count(boardInRange('AKK')) from game='stud', p='*'", "upCardsInRange"),
    ],
)
def test_seat_functions_refuse_what_has_no_meaning(text: str, words: str) -> None:
    with pytest.raises(QueryError, match=words):
        studeval.query(text, samples=4096, seed=1)


def test_no_outs_after_seventh_street() -> None:
    r = studeval.query("select max(outsToHandType(p, seventh, flush)) as most, "
                       "max(outsToHandType(p, sixth, flush)) as sixth from game='stud', p='*'",
                       samples=4096, seed=1)  # fmt: skip
    assert r["most"] == 0.0 and r["sixth"] > 0  # type: ignore[operator]


def test_a_drawn_equity_is_never_called_exact() -> None:
    text = ("select avg(HvHequity(h, fifth)) from game='stud', h='As Ad 2c 2d 7h', "
            "v='Kc Kd Ks 3c 4d'")  # fmt: skip
    with pytest.raises(QueryError, match="drawn from 1,024 runouts"):
        studeval.query(text, exact=True)
    assert not studeval.query(text, samples=4096, seed=1).exact
