"""The engine's C state machine, against references it does not share code with.

- tests/c/engine_check.c plays 200,000 hands from C alone on random tables and
  random bytes (legal and illegal calls, cards dealt by hand, wrong payouts) and
  checks that refusals change nothing, that every offered action is accepted,
  that no chip is lost, and that the deck (burns and new decks from the muck
  included) matches a count of its own.
- Who brings in and who acts first come from the core's own code; here they are
  compared on thousands of random tables with :mod:`studeval.rules`, the pure
  Python reference, in every game and under both tie rules.
- A hand won by folds is paid by the core; :func:`studeval.pots.settle_uncontested`
  settles it again in Python, and the stacks must agree seat by seat.
"""

from __future__ import annotations

import random
import re
import subprocess
from pathlib import Path

import pytest
from helpers import build_c_check

from studeval import HouseRules, Stakes, StudHand, _core, bring_in, first_to_act, open_pair
from studeval.errors import ChipError, IllegalActionError
from studeval.pots import settle_uncontested

GAMES = ["stud", "stud8", "razz", "stud_hilo_noq"]
RULES = [HouseRules.robert(), HouseRules.wsop(), HouseRules(bring_in_tie="position")]
STAKES = Stakes(ante=1, bring_in=2, small_bet=5, big_bet=10)
HANDS = 200_000


@pytest.fixture(scope="module")
def engine_check(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("engine")
    return build_c_check(out, "engine_check", ["engine_check.c"], "-DENGINE_CHECK_MAIN")


def test_the_c_engine_keeps_every_rule_of_the_machine(engine_check: Path) -> None:
    proc = subprocess.run([str(engine_check), str(HANDS), "2026"], capture_output=True,
                          text=True, timeout=600, check=False)  # fmt: skip
    assert proc.returncode == 0, proc.stdout + proc.stderr
    found = re.search(
        r"^ok (\d+) hands \((\d+) showdowns, (\d+) community cards, (\d+) uncapped rounds, "
        r"(\d+) open pairs, (\d+) deals by hand, (\d+) actions accepted, (\d+) calls refused, "
        r"(\d+) new decks from the muck\)",
        proc.stdout,
        re.M,
    )
    assert found, proc.stdout
    hands, showdowns, community, uncapped, pairs, by_hand, accepted, refused, new_decks = map(
        int, found.groups()
    )
    assert hands == HANDS
    # The random tables really reach the rare corners.
    assert showdowns > HANDS // 20 and community > 100 and uncapped > 1000 and pairs > 1000
    assert by_hand > 1000 and accepted > 10 * HANDS and refused > HANDS and new_decks > 1000


def _boards(hand: StudHand) -> list[list[int] | None]:
    return [None if hand.folded[s] else hand.up_cards[s] for s in range(hand.seats)]


def test_bring_in_and_first_to_act_match_the_python_rules() -> None:
    """At every street of random hands, the seat the core starts with is the one
    studeval.rules names (all-in seats skipped), and the open pair offers the big
    bet exactly when studeval.rules.open_pair says so."""
    rng = random.Random(12)
    checked = {"bring_in": 0, "first": 0, "all_in_skipped": 0, "open_pair": 0}
    for _ in range(5000):
        game = rng.choice(GAMES)
        rules = rng.choice(RULES)
        seats = rng.randint(2, 8)
        stacks = [rng.choice([0, 1, 3, 8, 30, 200]) for _ in range(seats)]
        hand = StudHand(game, STAKES, stacks, rules=rules)
        hand.deal_random(rng.getrandbits(64))
        doors = [hand.up_cards[s][0] for s in range(seats)]
        seat = bring_in(doors, game, rules=rules)
        if hand.stacks[seat] > 0 and hand.actor is not None:
            assert hand.actor == seat, (game, rules, doors)
            checked["bring_in"] += 1
        while not hand.over:
            if hand.showdown:
                hand.show()
            elif hand.actor is None:
                hand.deal_random()
                if (
                    hand.actor is None
                    or hand.showdown
                    or hand.street == 3
                    or hand.community is not None
                ):
                    continue
                live = [s for s in range(seats) if not hand.folded[s]]
                all_in = [s for s in live if hand.stacks[s] == 0]
                want = first_to_act(_boards(hand), game, all_in=all_in, rules=rules)
                assert hand.actor == want, (game, rules, _boards(hand), all_in)
                checked["first"] += 1
                best = first_to_act(_boards(hand), game, rules=rules)
                checked["all_in_skipped"] += best != want
                if hand.street == 4 and not hand.legal().call:
                    big = open_pair(_boards(hand), game, rules=rules)
                    stack = hand.stacks[hand.actor]  # a short stack bets what it has
                    sizes = sorted({min(bet, stack) for bet in ((5, 10) if big else (5,))})
                    assert hand.legal().bet_to == tuple(sizes)
                    checked["open_pair"] += big
            else:
                legal = hand.legal()
                # Mostly calls and checks, so that hands reach the later streets.
                kinds = legal.kinds()
                kind = rng.choice(kinds) if rng.random() < 0.3 else kinds[-1]
                if kind == "fold" and rng.random() < 0.7:
                    kind = "call" if legal.call is not None else kinds[-1]
                hand.act(kind)
    assert checked["bring_in"] > 2500 and checked["first"] > 3500
    assert checked["all_in_skipped"] > 500 and checked["open_pair"] > 50


def test_the_core_pays_a_hand_won_by_folds_as_the_python_settlement_does() -> None:
    rng = random.Random(5)
    by_folds = 0
    for _ in range(2000):
        game = rng.choice(GAMES)
        seats = rng.randint(2, 8)
        stacks = [rng.randint(0, 60) for _ in range(seats)]
        rake = rng.choice([0, 1, 3])
        if sum(1 for s in stacks if s) < 2:
            continue
        hand = StudHand(game, STAKES, stacks, rake=rake)
        while not hand.over:
            if hand.showdown:
                hand.muck() if rng.random() < 0.5 else hand.show()
            elif hand.actor is None:
                hand.deal_random(rng.getrandbits(64))
            else:
                hand.act(rng.choice(hand.legal().kinds()))
        if any(e.kind == "show" for e in hand.events):
            continue
        winner = [s for s in range(seats) if not hand.folded[s]]
        mucked = [s for s in range(seats) if any(e.kind == "muck" and e.seat == s
                                                  for e in hand.events)]  # fmt: skip
        winner = [s for s in winner if s not in mucked]
        assert len(winner) == 1
        python = settle_uncontested(hand.contributions, winner[0], game, rake=rake,
                                    rake_at_most=True)  # fmt: skip
        expected = [s - c + p for s, c, p in
                    zip(stacks, hand.contributions, python.payouts, strict=True)]  # fmt: skip
        assert hand.stacks == expected
        by_folds += 1
    assert by_folds > 1000


def test_chips_must_be_whole_chips_and_fit_the_core() -> None:
    with pytest.raises(ChipError, match=r"stacks\[1\] is 30, not a whole number of 25-chips"):
        StudHand("stud", Stakes(0, 25, 50, 100), [100, 30], chip=25)
    with pytest.raises(ChipError, match="Stakes: ante is 10, not a whole number of 25-chips"):
        StudHand("stud", Stakes(10, 25, 50, 100), [100, 100], chip=25)
    with pytest.raises(ChipError, match=r"below 2\*\*60"):
        StudHand("stud", STAKES, [2**59, 2**59])
    hand = StudHand("stud", STAKES, [2**59 - 1, 2**59 - 1])  # the most a table may hold
    hand.deal_random(1)
    hand.act("complete")
    assert hand.contributions == [6, 1] or hand.contributions == [1, 6]


def test_deal_random_takes_an_int_seed_and_only_when_cards_are_due() -> None:
    hand = StudHand("stud", STAKES, [50, 50])
    with pytest.raises(IllegalActionError, match="seed must be an int or None; got 'x'"):
        hand.deal_random("x")  # type: ignore[arg-type]
    hand.deal_random(2**70 + 3)  # any int: its low 64 bits
    with pytest.raises(IllegalActionError, match="no cards are due now"):
        hand.deal_random(1)
    same = StudHand("stud", STAKES, [50, 50])
    same.deal_random(3)
    assert same.cards == hand.cards


def test_the_community_card_replaces_every_seats_own_seventh_card() -> None:
    hand = StudHand("stud", Stakes(0, 0, 5, 10), [100, 100])
    for street in range(3, 7):
        hand.deal(0, [None, None, "As"] if street == 3 else [f"{'KQJT'[street - 4]}s"])
        hand.deal(1, [None, None, "Ah"] if street == 3 else [f"{'KQJT'[street - 4]}h"])
        while hand.actor is not None:
            hand.act("check")
    hand.deal(0, [None])
    with pytest.raises(IllegalActionError, match="instead of every seat's own seventh card"):
        hand.deal_community("2c")
    hand.deal(1, [None])
    assert hand.actor is not None and hand.community is None


def _finish(hand: StudHand, seed: int) -> tuple[list[int], list[tuple[object, ...]]]:
    """Play a hand on to the end by a seeded policy; its stacks and events."""
    rng = random.Random(seed)
    while not hand.over:
        if hand.showdown:
            hand.show()
        elif hand.actor is None:
            hand.deal_random()
        else:
            hand.act(rng.choice(hand.legal().kinds()))
    return hand.stacks, [(e.kind, e.seat, e.amount, e.cards) for e in hand.events]


@pytest.mark.parametrize("game", GAMES)
def test_a_copy_or_a_pickle_plays_on_exactly_as_the_hand_would(game: str) -> None:
    """A search tries actions on copies; a pickle (multiprocessing) replays the events
    and keeps the rest of the shuffled deck, so later deals are the same cards."""
    import copy
    import pickle

    for seed in range(40):
        hand = StudHand(game, STAKES, [60, 80, 100, 40], rake=1)
        hand.deal_random(seed)
        steps = random.Random(seed).randint(0, 12)
        rng = random.Random(seed + 1000)
        for _ in range(steps):  # somewhere in the hand, possibly its end
            if hand.over or hand.showdown:
                break
            if hand.actor is None:
                hand.deal_random()
            else:
                hand.act(rng.choice(hand.legal().kinds()))
        before = (hand.stacks, len(hand.events), hand.actor)
        twin, loaded = copy.deepcopy(hand), pickle.loads(pickle.dumps(hand))
        assert (loaded.stacks, len(loaded.events), loaded.actor) == before
        played = _finish(twin, seed)
        assert (hand.stacks, len(hand.events), hand.actor) == before  # the copy is its own
        assert _finish(loaded, seed) == played == _finish(hand, seed)
        assert loaded.result == hand.result == twin.result


@pytest.mark.parametrize("rules", ["robert", "pokerkit"])
def test_a_saved_deck_shorter_than_the_cards_not_dealt_is_refused(rules: str) -> None:
    """Restoring a deck (what unpickling does) takes every card not yet dealt: a
    shorter one is refused, so a later deal cannot run past it."""
    hand = StudHand("stud", STAKES, [100] * 2, rules=rules)
    core = hand._core
    assert core.set_deck(list(range(51))) != 0 and core.set_deck([]) != 0
    assert core.deck() is None  # refused: nothing was set
    assert core.set_deck(list(range(52))) == 0 and len(core.deck()) == 52
    hand.deal_random(1)
    cards = [c for seat in hand.cards for c in seat]
    assert len(set(cards)) == 6 and core.deck() == list(range(6, 52))


@pytest.mark.parametrize("by_hand", [False, True])
def test_reading_the_deck_changes_no_deal(by_hand: bool) -> None:
    """The shuffle is carried out as cards are dealt; ``deck()`` carries it out whole.
    Two hands from one seed, one whose deck is read before every deal, deal the same
    cards, each street's the front of the deck read (also with a card dealt by hand
    in between, which leaves the deck), and play the same hand."""
    checked = 0
    for seed in range(40):
        read, unread = (StudHand("stud", STAKES, [100] * 5) for _ in range(2))
        rng = random.Random(seed)
        for hand in (read, unread):
            hand.deal_random(seed)
        while not read.over:
            if read.showdown:
                for hand in (read, unread):
                    hand.show()
                continue
            if read.actor is not None:
                kinds = read.legal().kinds()
                staying = [k for k in kinds if k != "fold"]  # mostly on to the later streets
                kind = rng.choice(staying if staying and rng.random() < 0.9 else kinds)
                for hand in (read, unread):
                    hand.act(kind)
                continue
            order = read._core.deck()
            assert order is not None and order == read._core.deck()  # reading changes nothing
            waiting = [s for s in range(5) if not read._core.out()[s]]
            if by_hand and read.street in (4, 5, 6):  # a card from the back, by hand
                seat = waiting.pop(0)
                for hand in (read, unread):
                    hand.deal(seat, [order[-1]])
                order = order[:-1]
            before = [len(c) for c in read.cards]
            for hand in (read, unread):
                hand.deal_random()
            dealt = [card for s in waiting for card in read.cards[s][before[s] :]]
            if read.street == 7 and read.community is not None:
                dealt = [read.community]
            assert dealt == order[: len(dealt)], (seed, read.street)
            checked += 1
        assert read.events == unread.events and read.stacks == unread.stacks
    assert checked > 100, checked


def test_the_cores_records_pickle_and_name_their_module() -> None:
    # namedtuple had taken its module from a frame the compiled code lacks
    # ("importlib._bootstrap"): a TableRules could not be pickled.
    import pickle

    records = [_core.TableRules(*range(18)), _core.TableChoices((1,), (2,), (3,)),
               _core.Settlement((1,), (0,), 0), _core.DealCount(10, False)]  # fmt: skip
    for record in records:
        assert type(record).__module__ == "studeval._core"
        assert pickle.loads(pickle.dumps(record)) == record
