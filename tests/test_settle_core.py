"""The core's settlement (``se_settle``) against the Python layer's ``settle``, the
reference: the same payouts, chips returned and rake on random showdowns of every
game and every house option that touches the chips, ties and odd chips included."""

from __future__ import annotations

import random

import pytest

from studeval import HouseRules, _core, settle
from studeval._tablerules import settle_flags
from studeval.errors import StudevalError
from studeval.games import get_game

GAMES = ("stud", "stud8", "razz", "stud_hilo_noq")


def _showdown(rng: random.Random) -> dict[str, object]:
    seats = rng.randint(2, 8)
    ranks = list(range(13))
    if rng.random() < 0.6:  # few ranks: ties, split pots and odd chips are common
        ranks = rng.sample(ranks, rng.randint(4, 8))
    deck = [r * 4 + s for r in ranks for s in range(4)]
    rng.shuffle(deck)
    own = 6 if rng.random() < 0.15 else 7
    while seats * own + (own == 6) > len(deck):
        seats -= 1
    if seats < 2:
        return _showdown(rng)
    community = deck.pop() if own == 6 else None
    hands: list[list[int] | None] = [[deck.pop() for _ in range(own)] for _ in range(seats)]
    live = [s for s in range(seats) if rng.random() < 0.75] or [rng.randrange(seats)]
    chip = rng.choice([1, 1, 5, 25])
    levels = [rng.randint(0, 40) * chip for _ in range(3)]
    contributions = [rng.choice(levels) for _ in range(seats)]
    for s in range(seats):
        if s not in live:
            hands[s] = None
    return {
        "game": rng.choice(GAMES),
        "hands": hands,
        "community": community,
        "contributions": contributions,
        "chip": chip,
        "rake": rng.randint(0, 3) * chip,
        "rake_at_most": rng.random() < 0.8,
        "rules": HouseRules(
            odd_chip_cards=rng.choice(["all", "played"]),
            odd_chip_low=rng.choice(["low_card", "high_card"]),
            odd_chips=rng.choice(["by_cards", "first_seat"]),
            odd_chip_half=rng.choice(["high", "low"]),
            split_pots=rng.choice(["each", "merged"]),
        ),
    }


def _core_settle(spot: dict[str, object]) -> tuple[list[int], list[int], int]:
    rules: HouseRules = spot["rules"]  # type: ignore[assignment]
    community = spot["community"]
    return _core.settle_payouts(
        get_game(str(spot["game"])).core_id, spot["hands"],  # type: ignore[arg-type]
        -1 if community is None else community, spot["contributions"],  # type: ignore[arg-type]
        spot["rake"], spot["rake_at_most"], spot["chip"],  # type: ignore[arg-type]
        *settle_flags(rules),
    )  # fmt: skip


def test_the_cores_settlement_is_settles_on_random_showdowns() -> None:
    rng = random.Random(2026)
    odd = side = merged_differs = refused = 0
    for _ in range(4000):
        spot = _showdown(rng)
        try:
            expected = settle(spot["hands"], spot["contributions"], str(spot["game"]),  # type: ignore[arg-type]
                              community=spot["community"], rules=spot["rules"],  # type: ignore[arg-type]
                              rake=spot["rake"], chip=spot["chip"],  # type: ignore[arg-type]
                              rake_at_most=spot["rake_at_most"])  # type: ignore[arg-type]  # fmt: skip
        except StudevalError:
            with pytest.raises(StudevalError):
                _core_settle(spot)
            refused += 1
            continue
        got = _core_settle(spot)
        assert got == (expected.payouts, expected.returned, expected.rake), spot
        odd += sum(p.odd_chips for p in expected.pots) > 0
        side += len(expected.pots) > 1
        rules: HouseRules = spot["rules"]  # type: ignore[assignment]
        if rules.split_pots == "merged":
            each = settle(spot["hands"], spot["contributions"], str(spot["game"]),  # type: ignore[arg-type]
                          community=spot["community"], rake=spot["rake"],  # type: ignore[arg-type]
                          chip=spot["chip"], rake_at_most=True)  # type: ignore[arg-type]  # fmt: skip
            merged_differs += len(each.pots) != len(expected.pots)
    # The cases that make settlement hard were met, each many times.
    assert odd > 300 and side > 1000 and merged_differs > 50 and refused > 10, (
        odd, side, merged_differs, refused)  # fmt: skip


def test_bad_arguments_are_refused() -> None:
    hands = [[0, 4, 8, 12, 16, 20, 24], [1, 5, 9, 13, 17, 21, 25]]
    with pytest.raises(StudevalError):
        _core.settle_payouts(0, hands, -1, [10, 7], 0, False, 5, False, False, False, False, False)
    with pytest.raises(StudevalError):
        _core.settle_payouts(0, [None, None], -1, [10, 10], 0, False, 1, False, False, False,
                             False, False)  # fmt: skip
    with pytest.raises(StudevalError):
        _core.settle_payouts(0, hands[:1], -1, [10], 0, False, 1, False, False, False, False,
                             False)  # fmt: skip
