"""studeval.solve: the values of small spots equal an independent linear program's
(tests/solve_reference.py) in every game, a polarized river gives the textbook
frequencies, and the exploitability falls as the iterations grow."""

from __future__ import annotations

import numpy as np
import pytest
from solve_reference import lp_value, random_hidden

import studeval
from studeval import HouseRules, Range, Stakes
from studeval.errors import OptionError, SolveError
from studeval.solving import Spot, solve

STAKES = Stakes(ante=1, bring_in=2, small_bet=5, big_bet=10)
KEPT = HouseRules(heads_up_cap="kept")


def _spot(game: str, seed: int, count: int, stacks: tuple[int, int] | None) -> Spot:
    rng = np.random.default_rng(seed)
    cards = rng.permutation(52)[:8].tolist()
    up = [cards[:4], cards[4:]]
    hidden = random_hidden(rng, up, count)
    ranges = [Range(h, up=u, street=7, game=game, weights=rng.uniform(0.2, 1.0, count))
              for h, u in zip(hidden, up, strict=True)]  # fmt: skip
    rules = HouseRules() if stacks else KEPT
    return Spot(game, STAKES, pot=40, up=up, ranges=ranges, stacks=stacks, rules=rules)


@pytest.mark.parametrize(
    ("game", "seed", "stacks"),
    [("stud", 1, None), ("stud8", 2, None), ("razz", 3, None), ("stud", 4, (25, 60)),
     ("stud8", 5, (35, 35))],
)  # fmt: skip
def test_values_equal_the_linear_program(game: str, seed: int,
                                         stacks: tuple[int, int] | None) -> None:  # fmt: skip
    spot = _spot(game, seed, count=4, stacks=stacks)
    sol = solve(spot, iterations=20_000)
    tree = spot.tree()
    hidden = [r.hidden for r in sol.ranges]
    weights = [r.weights for r in sol.ranges]
    want = lp_value(game, spot.pot, [list(u) for u in spot.up], hidden, weights, tree)
    assert sol.value[0] == pytest.approx(want, abs=1e-6)
    assert sum(sol.value) == pytest.approx(spot.pot, abs=1e-9)
    assert 0 <= sol.exploitability < 2.5e-5 * spot.pot  # CFR+'s average converges as 1/T
    acts = [n for n in sol.nodes if n.kind == "act"]
    assert any(np.ptp(sol.strategy(n)) > 0.1 for n in acts)  # the strategies are not all one


@pytest.mark.parametrize(("game", "seed"), [("stud", 11), ("stud8", 12), ("razz", 13)])
def test_sixth_street_equals_the_linear_program(game: str, seed: int) -> None:
    """Sixth and seventh street: the seventh card is private chance, a sixth-street
    decision one per two down cards (it cannot depend on the card to come). The
    linear program's information sets say the same independently."""
    rng = np.random.default_rng(seed)
    cards = rng.permutation(52)[:8].tolist()
    up = [cards[:4], cards[4:]]
    free = [c for c in range(52) if c not in cards]
    pairs = [np.array(sorted(rng.choice(free, size=(2, 2), replace=False).tolist()),
                      dtype=np.uint8) for _ in range(2)]  # fmt: skip
    ranges = [Range(np.sort(p, axis=1), up=u, street=6, game=game, weights=[1.0, 0.6])
              for p, u in zip(pairs, up, strict=True)]  # fmt: skip
    spot = Spot(game, STAKES, pot=30, up=up, ranges=ranges, street=6, stacks=(20, 20),
                rules=HouseRules())  # fmt: skip
    sol = solve(spot, iterations=20_000)
    rows = sol._rows
    want = lp_value(game, spot.pot, [list(u) for u in spot.up], [r.hidden for r in rows],
                    [r.weights for r in rows], spot.tree(), [r.group for r in rows])  # fmt: skip
    assert sol.value[0] == pytest.approx(want, abs=1e-6)
    assert 0 <= sol.exploitability < 1e-4 * spot.pot
    assert sol.strategy(sol.node()).shape[0] == 2  # one row a pair of down cards
    assert sol.strategy(sol.node("check", "check")).shape[0] == len(rows[sol.node().actor].hidden)


def test_the_dead_cards_of_the_ranges_are_never_dealt() -> None:
    """Sixth street, ten cards out of play in the seats' Ranges (folded seats' up
    cards): the seventh card is never one of them. The linear program's combinations
    are made here, each pair with each card neither seen nor dead."""
    rng = np.random.default_rng(21)
    cards = rng.permutation(52)[:20].tolist()
    up, dead = [cards[:4], cards[4:8]], cards[10:20]
    free = [c for c in range(52) if c not in cards]
    other = rng.choice(free, size=2, replace=False).tolist()
    pairs = [np.array([sorted(pair)], dtype=np.uint8) for pair in (cards[8:10], other)]
    ranges = [Range(p, up=u, street=6, dead=dead) for p, u in zip(pairs, up, strict=True)]
    spot = Spot("stud", STAKES, pot=30, up=up, ranges=ranges, street=6, stacks=(20, 20),
                rules=HouseRules())  # fmt: skip
    assert spot.dead == tuple(sorted(dead))
    sol = solve(spot, iterations=20_000)
    out = {*cards[:8], *dead}
    hidden = [np.array([[*p[0], c] for c in range(52) if c not in out and c not in p[0]],
                       dtype=np.uint8) for p in pairs]  # fmt: skip
    assert not np.isin(sol._rows[0].hidden, dead).any()
    want = lp_value("stud", spot.pot, up, hidden, [np.ones(len(h)) for h in hidden],
                    spot.tree(), [np.zeros(len(h), dtype=np.int64) for h in hidden])  # fmt: skip
    assert sol.value[0] == pytest.approx(want, abs=1e-6)
    fifth = Spot("stud", STAKES, pot=30, up=[up[0][:3], up[1][:3]], street=5, rules=KEPT,
                 ranges=[Range("*", up=up[0][:3], street=5, dead=dead), "*"], deals=6)  # fmt: skip
    boards = fifth.boards()
    assert boards is not None and len(boards) == 6 and not np.isin(boards, dead).any()


@pytest.mark.parametrize(
    ("game", "street", "deals", "seed"),
    [
        ("stud8", 5, 3, 34),
        pytest.param("razz", 5, 2, 35, marks=pytest.mark.slow),
        pytest.param("razz", 4, 2, 25, marks=pytest.mark.slow),
    ],
)
def test_earlier_streets_equal_the_linear_program(game: str, street: int, deals: int,
                                                  seed: int) -> None:  # fmt: skip
    """From fifth or fourth street: the up cards to come are a few sampled deals, the
    seventh card private chance. The linear program deals the same boards (read from
    the tree's nodes, not from the solver's order of them) with the hidden cards, and
    its information sets see the deals on the way."""
    rng = np.random.default_rng(seed)
    cards = rng.permutation(52)[: 2 * (street - 2)].tolist()
    up = [cards[: street - 2], cards[street - 2 :]]
    free = [c for c in range(52) if c not in cards]
    pairs = [np.sort(rng.choice(free, size=(2, 2), replace=False), axis=1).astype(np.uint8)
             for _ in range(2)]  # fmt: skip
    ranges = [Range(p, up=u, street=street, game=game, weights=[1.0, 0.5])
              for p, u in zip(pairs, up, strict=True)]  # fmt: skip
    stacks = (20, 20) if street == 5 else (10, 10)
    spot = Spot(game, STAKES, pot=30, up=up, ranges=ranges, street=street, stacks=stacks,
                rules=HouseRules(), deals=deals, seed=seed)  # fmt: skip
    # A strategy pair exploitable by e chips (half what the two best responses gain
    # together) holds each seat's value within 2e of the game's: 10,000 iterations
    # bring e near 2e-5 chips (100,000 had brought it to 1e-6, in 12 times the time).
    sol = solve(spot, iterations=10_000, target_exploitability=100 * 2e-7 / spot.pot)
    tree, rows = spot.tree(), sol._rows
    boards = [[list(n.up[0]), list(n.up[1])] for n in tree if n.kind == "showdown"]
    unique = [[list(s) for s in b] for b in dict.fromkeys(tuple(map(tuple, b)) for b in boards)]
    assert len(unique) == deals ** (6 - street)  # every sampled board is reached
    want = lp_value(game, spot.pot, [list(u) for u in spot.up], [r.hidden for r in rows],
                    [r.weights for r in rows], tree, [r.group for r in rows],
                    boards=unique)  # fmt: skip
    assert 0 <= sol.exploitability < 1e-4  # chips: a pot of 30 / 300,000
    assert abs(sol.value[0] - want) <= 2 * sol.exploitability + 1e-9  # the LP to 1e-9
    assert 0.1 * spot.pot < want < 0.9 * spot.pot  # neither hand a lock
    assert sum(sol.value) == pytest.approx(spot.pot, abs=1e-9)
    # The core plays each deal's subtree with that deal's board: a row holding a card
    # dealt on the way is never reached there, so its strategy stays uniform.
    dead = 0
    for n in sol.nodes:
        dealt = [c for s in (0, 1) for c in n.up[s][street - 2 :]]
        if n.kind == "act" and dealt:
            held = np.isin(sol.hands(n), dealt).any(axis=1)
            assert np.allclose(sol.strategy(n)[held], 1 / len(n.actions), rtol=0, atol=1e-12)
            dead += int(held.sum())
    assert dead > 0
    deal = next(n for n in sol.nodes if n.kind == "chance")
    assert deal.actor is None and len(deal.actions) == deals
    after = sol.node(*deal.path, deal.actions[0])
    dealt = set(after.up[0][street - 2 :] + after.up[1][street - 2 :])
    if after.kind == "act":  # a hand holding a dealt card does not reach it
        held = np.isin(sol.hands(after), list(dealt)).any(axis=1)
        assert (sol.reach(after)[held] == 0).all()


def test_sampled_deals_are_fixed_by_the_seed_and_cover_every_deal_when_asked() -> None:
    spot = Spot("razz", STAKES, pot=30, up=["Ah 2d 3c", "Kh Qd Jc"], ranges=["A4", "KQ"],
                street=5, stacks=(20, 20), deals=5, seed=3)  # fmt: skip
    again = Spot("razz", STAKES, pot=30, up=["Ah 2d 3c", "Kh Qd Jc"], ranges=["A4", "KQ"],
                 street=5, stacks=(20, 20), deals=5, seed=3)  # fmt: skip
    other = Spot("razz", STAKES, pot=30, up=["Ah 2d 3c", "Kh Qd Jc"], ranges=["A4", "KQ"],
                 street=5, stacks=(20, 20), deals=5, seed=4)  # fmt: skip
    assert (spot.boards() == again.boards()).all() and (spot.boards() != other.boards()).any()
    every = Spot("razz", STAKES, pot=30, up=["Ah 2d 3c", "Kh Qd Jc"], ranges=["A4", "KQ"],
                 street=5, stacks=(20, 20), deals=None)  # fmt: skip
    boards = every.boards()
    assert boards is not None and len(boards) == 46 * 45  # each seat's sixth card, in order
    assert len({tuple(b) for b in boards.tolist()}) == 46 * 45
    # One deal: a pair of down cards holding a card of its board is never dealt.
    one = Spot("razz", STAKES, pot=30, up=["Ah 2d 3c", "Kh Qd Jc"], ranges=["4*, 5*", "KQ"],
               street=5, stacks=(20, 20), deals=1, seed=1)  # fmt: skip
    board = one.boards()
    assert board is not None and board.shape == (1, 8)
    sol = solve(one, iterations=200)
    held = np.isin(sol.ranges[0].hidden, board[0]).any(axis=1)
    assert held.any() and (~held).any()
    assert np.isnan(sol.ev[0][held]).all() and np.isfinite(sol.ev[0][~held]).all()
    assert sum(sol.value) == pytest.approx(30, abs=1e-9)


def test_fourth_street_tables_and_nodes_no_hand_reaches() -> None:
    """Fourth street's four cards make no five-card hand: its table classes a hand by
    what it holds. A node that a deal keeps every hand of the actor from has no
    frequencies."""
    spot = Spot("razz", STAKES, pot=30, up=["Ah 2d", "Kh Qd"], ranges=["34, 77", "JT"],
                street=4, stacks=(10, 10), deals=2, seed=5)  # fmt: skip
    sol = solve(spot, iterations=50)
    root = sol.node()
    assert root.actor == 0  # the better low board
    labels = [label for label, _, _ in sol.by_hand(root)]
    assert labels == ["four to a 4", "paired"]  # 3-4 under A-2; 7-7
    narrow = Spot("razz", STAKES, pot=30, up=["Ah 2d 3c", "Kh Qd Jc"], ranges=["4s5s", "T9"],
                  street=5, stacks=(20, 20), deals=None)  # fmt: skip
    sol = solve(narrow, iterations=5)
    # Every deal of the 4s or 5s to seat 0 takes its one hand away.
    gone = [n for n in sol.nodes if n.kind == "act" and n.actor == 0
            and any(len(step) == 4 and step[:2] in ("4s", "5s") for step in n.path)]  # fmt: skip
    assert len(gone) > 0
    for n in gone:
        assert sol.reach(n).sum() == 0
        assert all(np.isnan(p) for p in sol.frequencies(n).values())
        assert sol.by_hand(n) == []


def test_too_many_deals_are_refused_before_the_tree_is_built() -> None:
    with pytest.raises(SolveError, match=f"{48 * 47 * 46 * 45:,} boards"):  # 4,669,920
        Spot("razz", STAKES, pot=30, up=["Ah 2d", "Kh Qd"], ranges=["34", "JT"], street=4,
             deals=None)  # fmt: skip
    wide = Spot("razz", STAKES, pot=30, up=["Ah 2d 3c", "Kh Qd Jc"], ranges=["45", "T9"],
                street=5, rules=KEPT, deals=None)  # fmt: skip
    with pytest.raises(SolveError, match=r"a tree of 4,\d{3},\d{3} nodes"):
        wide.tree()
    # The size comes from a tree of one deal a chance node: the same shape as any.
    small, one = (Spot("razz", STAKES, pot=30, up=["Ah 2d 3c", "Kh Qd Jc"], ranges=["45", "T9"],
                       street=5, rules=KEPT, deals=deals) for deals in (3, 1))  # fmt: skip
    shown = [len(n.up[0]) for n in one.tree()]
    assert len(small.tree()) == small.dealer.count_nodes(shown) > len(one.tree())


def _uniform_value(tree: list, i: int, pot: int, rake: int, rate: float) -> float:
    """Seat 0's value from node ``i`` on where each seat plays every action alike and
    seat 0 wins every showdown: a bet nobody called goes back before the rake."""
    node = tree[i]
    if node.kind == "act":
        return sum(_uniform_value(tree, node.first_child + a, pot, rake, rate)
                   for a in range(len(node.actions))) / len(node.actions)  # fmt: skip
    winner = 0 if node.kind == "showdown" else 1 - node.seat
    back = node.put[winner] - node.put[1 - winner]  # not called: given back
    contested = pot + node.put[0] + node.put[1] - back
    won = contested - min(rate * contested, rake)
    return won - node.put[0] + back if winner == 0 else -node.put[0]


def test_a_bet_nobody_called_goes_back_before_the_rake() -> None:
    """Seat 0 holds a royal flush, seat 1 can win nothing: with no iteration each seat
    plays every action alike, and seat 0's value is the tree's average, worked out
    here from the tree alone: at a fold the bet nobody called goes back first and the
    rake is a cut of the rest (a pot of 2 with a 3-chip rake leaves the winner 0, not
    a loss of the chip its bet paid in rake)."""
    code = {text: i for i, text in enumerate(studeval.cards.TEXT_OF_CODE)}

    def combo(text: str) -> np.ndarray:
        return np.array([[code[c] for c in text.split()]])

    up = ["Ac Kc Qc Jc", "2d 3d 4h 5s"]
    for pot, rake, rate in ((40, 3, 0.05), (2, 3, 1.0)):
        spot = Spot("stud", STAKES, pot=pot, up=up, rules=KEPT, rake=rake, rake_rate=rate,
                    ranges=[Range(combo("Tc 9s 9h"), up=up[0], street=7),
                            Range(combo("7d 8h 9d"), up=up[1], street=7)])  # fmt: skip
        tree = spot.tree()
        sol = solve(spot, iterations=0, threads=1)
        assert sol.value[0] == pytest.approx(_uniform_value(tree, 0, pot, rake, rate), abs=1e-9)
        assert any(n.kind == "fold" and n.seat == 1 for n in tree)  # a bet folded to


def test_a_rake_of_every_pot() -> None:
    """A rake that every pot pays in full (3 chips from pots of 40 and more) keeps the
    game constant-sum: the linear program, given the same cut, still says its value.
    A rake by share of the pot (5% up to 3 chips) is not constant-sum: the best
    responses still find little to gain."""
    spot = _spot("stud", 21, count=4, stacks=None)
    flat = Spot(spot.game, STAKES, pot=spot.pot, up=spot.up, ranges=spot.ranges, rules=KEPT,
                rake=3)  # fmt: skip
    sol = solve(flat, iterations=20_000)
    want = lp_value("stud", flat.pot, [list(u) for u in flat.up], [r.hidden for r in sol.ranges],
                    [r.weights for r in sol.ranges], flat.tree(), rake=(1.0, 3.0))  # fmt: skip
    assert sol.value[0] == pytest.approx(want, abs=1e-6)
    assert sum(sol.value) == pytest.approx(flat.pot - 3, abs=1e-9)
    share = Spot(spot.game, STAKES, pot=spot.pot, up=spot.up, ranges=spot.ranges, rules=KEPT,
                 rake=3, rake_rate=0.05)  # fmt: skip
    raked = solve(share, target_exploitability=0.01)
    assert raked.exploitability_pct <= 0.01
    assert flat.pot - 3 <= sum(raked.value) < flat.pot - 2  # 5% of 40 is 2, of more up to 3
    with pytest.raises(SolveError, match="rake_rate"):
        Spot("stud", STAKES, pot=40, up=spot.up, ranges=["*", "*"], rake_rate=1.5)


def _polarized(pot: int) -> Spot:
    """The bluff-catcher (trip kings) acts first; the polarized seat holds a straight
    (weight 1 in all) or nothing (weight 2 in all)."""
    catcher = Range(np.array([[studeval.parse_cards(h)] for h in ("Ks 3h 4h", "Ks 3s 4s")],
                             dtype=np.uint8).reshape(2, 3),
                    up="Kc Kd 5h 2s", street=7, weights=[1.0, 1.0])  # fmt: skip
    polar = Range(np.array([studeval.parse_cards(h) for h in ("Th 9c 2d", "Th 9d 2c", "3c 4d 6d",
                                                              "3d 4c 6c")], dtype=np.uint8),
                  up="Qc Jd 8h 7s", street=7, weights=[0.5, 0.5, 1.0, 1.0])  # fmt: skip
    return Spot("stud", STAKES, pot=pot, up=["Kc Kd 5h 2s", "Qc Jd 8h 7s"],
                ranges=[catcher, polar], rules=KEPT)  # fmt: skip


@pytest.mark.parametrize("pot", [20, 60])
def test_a_polarized_river_gives_the_textbook_frequencies(pot: int) -> None:
    """Against a bluff-catcher, the polarized seat bets every nut hand and bluffs so
    that bluffs are bet / (pot + bet) of its value bets; the bluff-catcher calls
    pot / (pot + bet) of the time. Every quantity is known in closed form."""
    bet = STAKES.big_bet
    sol = solve(_polarized(pot), target_exploitability=1e-4)
    assert sol.node().actor == 0
    assert sol.frequencies(()) == pytest.approx({"check": 1.0, "bet": 0.0}, abs=1e-3)
    after = sol.node("check")
    assert after.actor == 1 and after.actions == ("check", "bet")
    betting = sol.strategy(after)[:, 1]
    weights = sol.ranges[1].weights
    straight = (sol.ranges[1].hidden == studeval.parse_card("Th")).any(axis=1)
    assert straight.sum() == 2
    value_bets = float(weights[straight] @ betting[straight])
    bluffs = float(weights[~straight] @ betting[~straight])
    assert value_bets == pytest.approx(1.0, abs=1e-3)
    assert bluffs / value_bets == pytest.approx(bet / (pot + bet), abs=2e-3)
    assert sol.frequencies(("check", "bet"))["call"] == pytest.approx(pot / (pot + bet), abs=2e-3)
    # The catcher is indifferent when bet into (so its value there is folding's, 0),
    # and wins the pot when the air checks behind: air of weight 2 less the bluffs, of 3.
    assert sol.value[0] == pytest.approx(pot * (2 - bet / (pot + bet)) / 3, abs=1e-3)


def test_exploitability_falls_toward_zero() -> None:
    spot = _spot("stud8", 7, count=40, stacks=None)
    sol = solve(spot, iterations=1000, target_exploitability=1e-9)
    history = [e for _, e in sol.history]
    assert len(history) == 20 and history[-1] < history[0] / 20
    # Monotone within noise: no measure more than 10% above the least before it.
    assert all(e <= 1.1 * min(history[: k + 1]) + 1e-9 for k, e in enumerate(history))


def test_a_whole_seventh_street_solves_to_the_target() -> None:
    """Every combination both seats can hold (13,244 each), razz: 0.1% of the pot."""
    spot = Spot("razz", STAKES, pot=60, up=["7c 4d 3h Kd", "8c 6d 5h 2s"], ranges=["*", "*"],
                rules=KEPT)  # fmt: skip
    sol = solve(spot, threads=1)
    assert len(sol.ranges[0]) == len(sol.ranges[1]) == 13_244
    assert sol.exploitability_pct <= 0.1
    assert sum(sol.value) == pytest.approx(60.0, abs=1e-6)
    assert sol.node().actor == 1  # the best low board acts first


def test_progress_can_stop_a_run() -> None:
    seen: list[tuple[int, float]] = []
    spot = _spot("razz", 8, count=40, stacks=None)
    sol = solve(spot, target_exploitability=1e-9,
                progress=lambda i, e: seen.append((i, e)) is not None or len(seen) < 3)  # fmt: skip
    assert [i for i, _ in seen] == [50, 100, 150] and sol.iterations == 150
    assert sol.history[-1][1] == pytest.approx(seen[-1][1] * spot.pot / 100)


def test_progress_hears_every_measure_of_a_run_of_fixed_length() -> None:
    seen: list[int] = []
    spot = _spot("razz", 8, count=40, stacks=None)
    sol = solve(spot, iterations=200, progress=lambda i, e: seen.append(i))
    assert seen == [50, 100, 150, 200] and sol.iterations == 200
    stopped = solve(spot, iterations=200, progress=lambda i, e: False)
    assert stopped.iterations == 50


def test_a_lifted_cap_with_deep_stacks_is_refused_while_its_tree_is_built(
        monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    import studeval._solve_tree as trees

    # Robert's Rules heads-up, 10,000 big bets deep: the raising's tree grows as the
    # square of its depth; it is refused within the builder's budget (made small here,
    # so that the test holds no gigabytes), not after it.
    monkeypatch.setattr(trees, "MOST_STEPS", 1 << 20)
    spot = Spot("stud", STAKES, pot=60, up=["Kc 7d 5h 2s", "Qs 8d 6h 3c"],
                ranges=["KK*", "QQ*"], stacks=[100_000, 100_000])  # fmt: skip
    with pytest.raises(SolveError, match=r"paths pass 1,048,576 actions .* shorten the stacks"):
        solve(spot, iterations=1, threads=1)
    # A tree past the nodes a solve holds is refused as it is built, too.
    monkeypatch.setattr(trees, "MOST_STEPS", 1 << 40)
    monkeypatch.setattr(studeval._core, "SOLVE_MAX_NODES", 5_000)
    deep = Spot("stud", STAKES, pot=60, up=["Kc 7d 5h 2s", "Qs 8d 6h 3c"],
                ranges=["KK*", "QQ*"], stacks=[100_000, 100_000])  # fmt: skip
    with pytest.raises(SolveError, match=r"passes 5,000 nodes, the most a solve holds"):
        deep.tree()


def test_ranges_that_no_deal_can_give_both_seats_are_refused_by_name() -> None:
    up = ["Kc 7d 5h 2s", "Qs 8d 6h 3c"]
    spot = Spot("stud", STAKES, pot=60, up=up, ranges=[Range("AsAh*", up=up[0], street=7),
                Range("As**", up=up[1], street=7)], rules=KEPT)  # fmt: skip
    with pytest.raises(SolveError, match="the ranges cannot be held together"):
        solve(spot, iterations=10, threads=1)


def test_solve_refuses_what_is_no_spot_by_name() -> None:
    up = ["Kc Kd 5h 2s", "Qc Jd 8h 7s"]
    with pytest.raises(SolveError, match="solve takes a Spot; got str"):
        solve("stud")  # type: ignore[arg-type]
    with pytest.raises(SolveError, match="up and ranges are two seats' each"):
        Spot("stud", STAKES, pot=40, up=up, ranges=None)  # type: ignore[arg-type]
    spot = Spot("stud", STAKES, pot=40, up=up, ranges=["*", "*"], rules=KEPT)
    with pytest.raises(SolveError, match="max_memory must be a number of bytes"):
        solve(spot, max_memory="x")  # type: ignore[arg-type]


def test_solve_refuses_what_it_cannot_solve() -> None:
    with pytest.raises(SolveError, match="stacks"):
        Spot("stud", STAKES, pot=40, up=["Kc Kd 5h 2s", "Qc Jd 8h 7s"],
             ranges=["*", "*"]).tree()  # fmt: skip
    with pytest.raises(SolveError, match="3 up cards; street 7 has 4"):
        Spot("stud", STAKES, pot=40, up=["Kc Kd 5h", "Qc Jd 8h"], ranges=["*", "*"], rules=KEPT)
    with pytest.raises(SolveError, match="third street"):
        Spot("stud", STAKES, pot=40, up=["Kc", "Qc"], ranges=["*", "*"], street=3)
    with pytest.raises(SolveError, match="open pair"):
        Spot("stud", STAKES, pot=40, up=["Kc Kd", "Qc Jd"], ranges=["*", "*"], street=4)
    six = Spot("stud", STAKES, pot=40, up=["Kc Kd 5h 2s", "Qc Jd 8h 7s"], ranges=["*", "*"],
               street=6, rules=KEPT)  # fmt: skip
    with pytest.raises(SolveError, match=r"would hold 0\.\d GiB .* over max_memory"):
        solve(six, iterations=1, max_memory=10**6)  # refused before it starts
    wsop = HouseRules.wsop()  # no big bet on an open pair: solvable
    Spot("stud", STAKES, pot=40, up=["Kc Kd", "Qc Jd"], ranges=["*", "*"], street=4, rules=wsop)
    for deals in (0, 1.5, True):
        with pytest.raises(SolveError, match="deals"):
            Spot("stud", STAKES, pot=40, up=["Kc Kd 2h", "Qc Jd 3h"], ranges=["*", "*"],
                 street=5, deals=deals)  # type: ignore[arg-type]  # fmt: skip
    with pytest.raises(SolveError, match="share a card"):
        Spot("stud", STAKES, pot=40, up=["Kc Kd 5h 2s", "Kc Jd 8h 7s"], ranges=["*", "*"])
    up = ["Kc Kd 5h 2s", "Qc Jd 8h 7s"]
    # A pot of 0: no share of it to stop at; 2**53 had been the core's "bad argument".
    for pot in (-1, 0, 2**53):
        with pytest.raises(SolveError, match="pot must be a whole number of chips, 1 to "
                                             "999,999,999,999,999; got " + str(pot)):  # fmt: skip
            Spot("stud", STAKES, pot=pot, up=up, ranges=["*", "*"])
    with pytest.raises(SolveError, match="rake must be a whole number of chips, 0 to"):
        Spot("stud", STAKES, pot=40, up=up, ranges=["*", "*"], rake=10**15)
    # Bets past the core's limit (a bet and three raises of 2 * 10**14, two streets).
    huge = Spot("stud", Stakes(ante=1, bring_in=2, small_bet=10**14, big_bet=2 * 10**14),
                pot=10, up=["Kc Kd Qh 2s", "As 3d 4h 5c"], ranges=["KK*", "*"], street=6,
                deals=2, rules=KEPT)  # fmt: skip
    # The cap is kept: the stakes are what to lower (the cap and the stacks had been
    # advised), or the stacks where they end the raising.
    with pytest.raises(
        SolveError,
        match="bets reach 1,600,000,000,000,000 chips, over the "
        r"999,999,999,999,999 a solve holds: lower the stakes$",
    ):
        solve(huge, iterations=10, threads=1)
    deep = Spot("stud", Stakes(ante=1, bring_in=2, small_bet=10**14, big_bet=2 * 10**14),
                pot=10, up=["Kc Kd Qh 2s", "As 3d 4h 5c"], ranges=["KK*", "*"], street=6,
                deals=2, stacks=[10**15, 2 * 10**15])  # fmt: skip
    with pytest.raises(
        SolveError,
        match=r"bets reach 1,000,000,000,000,000 chips, .*: "
        "shorten the stacks$",
    ):
        solve(deep, iterations=10, threads=1)
    with pytest.raises(SolveError, match=r"stacks .* \(one all in has no decision\)"):
        Spot("stud", STAKES, pot=40, up=up, ranges=["*", "*"], stacks=[0, 50])
    small = Spot("stud", STAKES, pot=40, up=up, ranges=["KK*", "QQ*"], rules=KEPT)
    for threads, kind in ((-1, OptionError), (1.5, OptionError), ("2", OptionError)):
        with pytest.raises(kind, match="threads"):
            solve(small, iterations=1, threads=threads)  # type: ignore[arg-type]
    with pytest.raises(SolveError, match="target_exploitability"):
        solve(small, target_exploitability="0.1")  # type: ignore[arg-type]
    sol = solve(small, iterations=1)
    for ask in (sol.hands, sol.reach, sol.frequencies, sol.by_hand, sol.strategy):
        with pytest.raises(SolveError, match="after check check is a showdown: no one acts"):
            ask(["check", "check"])
    assert isinstance(SolveError("x"), ValueError)


def test_the_core_refuses_arrays_of_the_wrong_size() -> None:
    """The compiled solver's outputs are checked against the spot's sizes in C: a
    short array is an error, never a write past its end."""
    from studeval import _core
    from studeval.errors import CoreCallError

    up = [[48, 44, 40, 36], [0, 4, 8, 12]]
    hidden = [np.array([16, 20, 24, 28, 32, 33], np.uint8), np.array([17, 21, 25], np.uint8)]
    nodes = [(0, 0, 1, 2, 0, 0.0, 0.0), (1, 0, 0, 0, 0, 0.0, 0.0), (2, 0, 0, 0, 0, 0.0, 0.0)]
    core = _core.SolverCore(0, 10.0, (0.0, 0.0), up, hidden, [None, None], [None, None], nodes)
    core.run(2, 1)
    core.strategy(0, np.empty((2, 2)))  # seat 0's two combinations, two actions
    for shape in ((1, 2), (3, 2), (0, 2)):
        with pytest.raises(CoreCallError, match="strategy: an array of the wrong length"):
            core.strategy(0, np.empty(shape))
    ev = [np.empty(2), np.empty(1)]
    core.values(ev[0], ev[1], np.empty(2), np.empty(1))
    for wrong in ((np.empty(1), None, None, None), (None, np.empty(5), None, None),
                  (np.empty(2), None, np.empty(3), None), (np.empty(0), None, None, None),
                  (None, None, None, np.empty(0))):  # fmt: skip
        with pytest.raises(CoreCallError):
            core.values(*wrong)
    args = (0, 10.0, (0.0, 0.0), up, hidden, [None, None], [None, None], nodes, None)
    _core.solve_best_response(*args, np.full(4, 0.5))
    for size in (3, 5, 0):
        with pytest.raises(CoreCallError):
            _core.solve_best_response(*args, np.full(size, 0.5))
