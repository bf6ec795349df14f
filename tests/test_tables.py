"""Tables (many hands stepped in C) against StudHand, the reference: the same
states, actions and chips, hand after hand; chips conserved over millions of
actions; refusals that change nothing; threads that really ran."""

from __future__ import annotations

import copy
import os
import pickle
import subprocess
import sys
import warnings

import numpy as np
import pytest

from studeval import Stakes, StudHand
from studeval._core import _threads_started
from studeval.errors import ChipError, IllegalActionError, OptionError, SeatError
from studeval.tables import ACTIONS, TableArrays, Tables

STAKES = Stakes(ante=1, bring_in=2, small_bet=5, big_bet=10)
#: The cards each street deals a seat: their places in deal order.
PLACES = {3: (0, 1, 2), 4: (3,), 5: (4,), 6: (5,), 7: (6,)}


def _random_actions(tables: Tables, rng: np.random.Generator) -> np.ndarray:
    """One allowed action a table, drawn at random (numpy only)."""
    weights = tables.legal * rng.random(tables.legal.shape)
    return weights.argmax(axis=1)


def _deal_due(mirror: StudHand, tables: Tables, i: int) -> None:
    """Deal the mirror the streets it waits for, from table i's cards."""
    while mirror.actor is None and not mirror.over and not mirror.showdown:
        street = mirror.street
        for seat in range(mirror.seats):
            if mirror.folded[seat]:
                continue
            mirror.deal(seat, [int(tables.cards[i, seat, k]) for k in PLACES[street]])


def _fresh(tables: Tables, i: int) -> StudHand:
    mirror = StudHand(tables.game, tables.stakes, tables.starting_stacks, rules=tables.rules)
    _deal_due(mirror, tables, i)
    return mirror


def _same_state(mirror: StudHand, tables: Tables, i: int) -> None:
    assert tables.actor[i] == mirror.actor and tables.street[i] == mirror.street
    assert tables.stacks[i].tolist() == mirror.stacks
    assert tables.pot[i] == sum(mirror.contributions)
    assert tables.folded[i].tolist() == mirror.folded
    for seat in range(mirror.seats):
        dealt = mirror.cards[seat]
        assert tables.cards[i, seat, : len(dealt)].tolist() == dealt
    legal = mirror.legal()
    mask = tables.legal[i]
    assert mask[Tables.FOLD] == legal.fold
    assert mask[Tables.CHECK_CALL] == (legal.check or legal.call is not None)
    assert mask[Tables.BRING_IN] == (legal.bring_in is not None)
    assert tables.to_call[i] == (legal.call or 0)
    wagers = {t for kind in ("complete", "bet", "raise") for t in legal.totals(kind) or ()}
    offered = {int(tables.totals[i, a]) for a in (Tables.SMALL, Tables.BIG) if mask[a]}
    assert offered == wagers  # every wager the rules allow, and only those


def _play_mirror(mirror: StudHand, tables: Tables, i: int, action: int) -> None:
    """The table's action on the mirror: the kind whose total the table says."""
    legal, to = mirror.legal(), int(tables.totals[i, action])
    if action == Tables.FOLD:
        mirror.act("fold")
    elif action == Tables.CHECK_CALL:
        mirror.act("check" if legal.check else "call")
    elif action == Tables.BRING_IN:
        mirror.act("bring_in")
    else:
        kind = next(k for k in ("complete", "bet", "raise") if to in (legal.totals(k) or ()))
        mirror.act(kind, to)


@pytest.mark.parametrize(("game", "stacks"), [
    ("stud", [60, 60, 60]), ("stud8", [30, 200, 45, 80, 25]), ("razz", [40] * 8),
    ("stud", [300, 12]), ("stud_hilo_noq", [50, 70, 90, 110]),
])  # fmt: skip
def test_tables_play_as_studhand_does(game: str, stacks: list[int]) -> None:
    """Random actions on 40 tables for 600 steps, each table mirrored by a StudHand
    dealt the same cards: the same state before every action, the same actions
    logged, and each finished hand's rewards the StudHand's own settlement."""
    rng = np.random.default_rng(len(stacks))
    tables = Tables(40, game, STAKES, stacks, seed=11)
    mirrors = [_fresh(tables, i) for i in range(tables.n)]
    finished = showdowns = 0
    for _ in range(600):
        for i in range(tables.n):
            _same_state(mirrors[i], tables, i)
        actions = _random_actions(tables, rng)
        for i in range(tables.n):
            _play_mirror(mirrors[i], tables, i, int(actions[i]))
        tables.step(actions)
        for i in range(tables.n):
            if tables.done[i]:
                played = tables.hand(i)
                assert played is not None and played.result is not None
                kept = [e for e in played.events if e.kind not in ("deal", "community", "show")]
                mine = [e for e in mirrors[i].events if e.kind not in ("deal", "community", "show")]
                assert kept[: len(mine)] == mine  # the actions played, then the showdown's
                net = [p - c for p, c in zip(played.result.payouts, played.contributions,
                                             strict=True)]  # fmt: skip
                assert tables.rewards[i].tolist() == net
                finished += 1
                showdowns += played.showdown or any(e.kind == "show" for e in played.events)
                mirrors[i] = _fresh(tables, i)
            else:
                assert not tables.rewards[i].any()
                _deal_due(mirrors[i], tables, i)
    assert finished > 300 and showdowns > 30, (finished, showdowns)


def test_chips_are_conserved_over_millions_of_actions() -> None:
    tables = Tables(4000, "stud8", STAKES, [30, 80, 45, 200], seed=3)
    rng = np.random.default_rng(3)
    total = sum(tables.starting_stacks)
    actions = hands = 0
    for _ in range(600):
        tables.step(_random_actions(tables, rng))
        actions += tables.n
        assert (tables.stacks.sum(axis=1) + tables.pot == total).all()
        assert (tables.rewards.sum(axis=1) == 0).all()  # no rake: what one wins another lost
        assert not tables.rewards[~tables.done].any()
        hands += int(tables.done.sum())
    assert actions >= 2_400_000 and hands > 100_000
    assert int(tables.hands_played.sum()) == hands


def test_an_illegal_action_is_refused_and_nothing_changes() -> None:
    tables = Tables(8, "razz", STAKES, [50, 50, 50], seed=5)
    rng = np.random.default_rng(5)
    for _ in range(7):
        tables.step(_random_actions(tables, rng))
    names = ("actor", "legal", "pot", "stacks", "cards", "history", "bets")
    before = {name: getattr(tables, name).copy() for name in names}
    actions = _random_actions(tables, rng)
    bad = int(np.flatnonzero(~tables.legal[5])[0])
    actions[5] = bad
    with pytest.raises(IllegalActionError, match=rf"table 5: seat \d cannot {ACTIONS[bad]}"):
        tables.step(actions)
    actions[5] = 9
    with pytest.raises(IllegalActionError, match="no such action"):
        tables.step(actions)
    for name, array in before.items():
        assert (getattr(tables, name) == array).all(), name
    with pytest.raises(OptionError):
        tables.step(actions[:4])
    with pytest.raises(OptionError):
        tables.step(actions.astype(float))
    with pytest.raises(ValueError):
        tables.pot[0] = 1  # the arrays are the core's: read-only


@pytest.mark.skipif(not hasattr(os, "fork"), reason="a forked child is a POSIX matter")
def test_threads_kept_from_step_to_step_and_a_forked_child_steps_alone() -> None:
    single = Tables(4096, "razz", STAKES, [60] * 5, seed=3, threads=1)
    double = Tables(4096, "razz", STAKES, [60] * 5, seed=3, threads=2)
    rng = np.random.default_rng(3)
    first = _random_actions(double, rng)
    double.step(first)  # its worker thread starts
    single.step(first)
    started = _threads_started()
    for _ in range(60):
        actions = _random_actions(double, rng)
        single.step(actions)
        double.step(actions)
        assert double.threads_used == 2
        for name in ("actor", "legal", "stacks", "pot", "rewards", "done", "cards", "history"):
            assert np.array_equal(getattr(single, name), getattr(double, name)), name
    assert _threads_started() == started  # the same worker every step, none started anew
    with warnings.catch_warnings():  # Python warns of fork() in a threaded process
        warnings.simplefilter("ignore", DeprecationWarning)
        child = os.fork()
    if child == 0:  # the worker thread is not in the child: the step runs alone
        code = 1
        try:
            double.step(_random_actions(double, rng))
            code = 0 if double.threads_used == 1 else 2
        finally:
            os._exit(code)
    _, status = os.waitpid(child, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    double.step(_random_actions(double, rng))  # and the parent's team still runs
    assert double.threads_used == 2


def test_seeds_threads_and_bad_input() -> None:
    def run(seed: int, threads: int | None) -> tuple[np.ndarray, Tables]:
        tables = Tables(9000, "stud", STAKES, [40, 40, 40, 40], seed=seed, threads=threads)
        rng = np.random.default_rng(1)
        for _ in range(30):
            tables.step(_random_actions(tables, rng))
        return tables.cards.copy(), tables

    one, single = run(1, 1)
    two, double = run(1, 2)
    assert single.threads_used == 1 and double.threads_used == 2  # the threads really ran
    assert (one == two).all()  # and each table dealt the same cards
    assert not (run(2, 1)[0] == one).all()
    with pytest.raises(ChipError, match="above the ante"):
        Tables(2, "stud", STAKES, [1, 50])
    # A stake past what the core holds: named as StudHand names it (it had been the
    # core's "bad argument").
    with pytest.raises(ChipError, match=r"each stake\) stay below 2\*\*60"):
        Tables(2, "stud", Stakes(1, 2, 5, 2**60), [100, 100])
    with pytest.raises(SeatError):
        Tables(2, "stud", STAKES, [50])
    with pytest.raises(OptionError):
        Tables(0, "stud", STAKES, [50, 50])
    with pytest.raises(OptionError):
        Tables(2, "stud", STAKES, [50, 50], threads=True)  # type: ignore[arg-type]


def test_observe_hides_the_other_seats_down_cards() -> None:
    tables = Tables(4, "stud", STAKES, [50, 50, 50], seed=9)
    assert tables.hand(0) is None  # no hand has ended yet
    seen = tables.observe(1)
    assert (seen.cards[:, 1] == tables.cards[:, 1]).all()
    for seat in (0, 2):
        assert (seen.cards[:, seat, :2] == 255).all()  # down
        assert (seen.cards[:, seat, 2] == tables.cards[:, seat, 2]).all()  # the door card
    with pytest.raises(SeatError):
        tables.observe(3)


def test_small_and_big_are_the_rounds_bets() -> None:
    """3rd street: bring in (2) or complete to the small bet (5); 5th street: the big
    bet (10); a 4th-street open pair: the small bet or the big bet."""
    tables = Tables(500, "stud", STAKES, [200, 200], seed=21)
    rng = np.random.default_rng(21)
    assert tables.totals[0, [Tables.BRING_IN, Tables.SMALL]].tolist() == [2, 5]
    seen = set()
    for _ in range(40):
        for i in np.flatnonzero(tables.bets.max(axis=1) == 0):  # a street's first wager
            street, legal = int(tables.street[i]), tables.legal[i]
            if street >= 5 and legal[Tables.BIG]:
                assert not legal[Tables.SMALL] and tables.totals[i, Tables.BIG] == 10
                seen.add("big")
            if street == 4 and legal[Tables.SMALL] and legal[Tables.BIG]:
                assert tables.totals[i, [Tables.SMALL, Tables.BIG]].tolist() == [5, 10]
                seen.add("open pair")
        tables.step(_random_actions(tables, rng))
    assert seen == {"big", "open pair"}


def test_observe_actor_is_each_tables_seat_to_act_and_hides_the_others() -> None:
    """Row i of observe_actor() is row i of observe(actor[i]), over many steps and
    hands, and it never shows another seat's down card."""
    tables = Tables(30, "stud8", STAKES, [60, 45, 60, 30], seed=17)
    rng = np.random.default_rng(17)
    names = list(TableArrays.__annotations__)
    ended = 0
    for _ in range(300):
        seen = tables.observe_actor()
        assert np.array_equal(seen.seat, tables.actor) and "seat=actor" in repr(seen)
        views = [tables.observe(seat) for seat in range(tables.seats)]
        for i, actor in enumerate(tables.actor.tolist()):
            for name in names:
                assert np.array_equal(getattr(seen, name)[i], getattr(views[actor], name)[i])
            others = np.arange(tables.seats) != actor
            down = ~tables.up[i] & others[:, None]
            assert (seen.cards[i][down] == 255).all()  # no other seat's down card
            assert np.array_equal(seen.cards[i][~down], tables.cards[i][~down])
        tables.step(_random_actions(tables, rng))
        ended += int(tables.done.sum())
    assert ended > 50  # rows of tables whose hand just ended: the next hand's actor


def test_too_many_tables_copies_and_seeds_are_refused_clearly() -> None:
    for n in (10**30, 2**63):
        with pytest.raises(OptionError, match=f"n={n}: that many tables need"):
            Tables(n, "stud", STAKES, [50, 50], seed=1)
    tables = Tables(2, "stud", STAKES, [50, 50], seed=1)
    for copier in (pickle.dumps, copy.copy, copy.deepcopy):
        with pytest.raises(OptionError, match="cannot be pickled or copied"):
            copier(tables)
    for seed in (-1, 2**64):
        with pytest.raises(OptionError, match="seed"):
            Tables(2, "stud", STAKES, [50, 50], seed=seed)
    top = Tables(2, "stud", STAKES, [50, 50], seed=2**64 - 1)
    assert top.seed == 2**64 - 1 and not np.array_equal(top.cards, tables.cards)


@pytest.mark.skipif(sys.platform == "win32", reason="a memory limit by setrlimit")
def test_tables_out_of_memory_name_n() -> None:
    """Under a memory limit, the arrays or the core run out of memory: an OptionError
    naming n."""
    import resource

    script = ("from studeval import Stakes, Tables\n"
              "Tables(10**7, 'stud', Stakes(1, 2, 5, 10), [50, 50], seed=1)")  # fmt: skip
    limit = 2 << 30
    child = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120,
        env={**os.environ, "OPENBLAS_NUM_THREADS": "1"},
        preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_AS, (limit, limit)),
    )  # fmt: skip
    assert "studeval.errors.OptionError: n=10000000: " in child.stderr, child.stderr[-600:]


def test_reset_deals_what_new_tables_with_that_seed_deal() -> None:
    """Tables.reset(seed) in the tables' own arrays: the same hands, step for step, as
    Tables made with that seed, after hands were played and finished before."""
    rng = np.random.default_rng(3)
    played = Tables(300, "stud8", STAKES, [40, 60, 80], seed=5)
    for _ in range(60):
        played.step(_random_actions(played, rng))
    assert played.hands_played.sum() > 0  # hands finished before the reset
    played.reset(seed=11)
    fresh = Tables(300, "stud8", STAKES, [40, 60, 80], seed=11)
    arrays = ("actor", "legal", "totals", "street", "pot", "to_call", "stacks", "bets",
              "folded", "cards", "up", "history", "rewards", "done", "hands_played")  # fmt: skip
    finished = 0
    for step in range(80):
        for name in arrays:
            assert np.array_equal(getattr(played, name), getattr(fresh, name)), (step, name)
        assert played.seed == fresh.seed == 11
        actions = _random_actions(fresh, rng)
        played.step(actions)
        fresh.step(actions)
        finished += int(fresh.done.sum())
    assert finished > 0  # hands ended and new ones started alike
    assert played.hand(0) is not None
    played.reset()  # a random seed
    assert played.hands_played.sum() == 0 and played.hand(0) is None
    with pytest.raises(OptionError, match="seed"):
        played.reset(seed=-1)
