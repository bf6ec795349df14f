"""The environments for agents: PettingZoo's own API and seed tests, OpenSpiel's
random simulation test and Monte Carlo tree search games."""

from __future__ import annotations

import warnings

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import mcts
from pettingzoo.test import api_test, seed_test
from pettingzoo.utils import wrappers

import studeval.envs.openspiel  # registers the games
from studeval.envs.pettingzoo import env, raw_env
from studeval.errors import IllegalActionError, OptionError, StudevalError

CASES = [("stud", 2), ("razz", 3), ("stud8", 8)]


@pytest.mark.parametrize(("game", "seats"), CASES)
def test_pettingzoo_api_and_seed_tests_pass(game: str, seats: int) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # its advice on Dict observation spaces
        api_test(env(game=game, seats=seats), num_cycles=200)
        seed_test(lambda: env(game=game, seats=seats), num_cycles=200)


def test_pettingzoo_hands_end_with_zero_sum_rewards_and_render() -> None:
    rng = np.random.default_rng(4)
    table = env(game="stud8", seats=4, render_mode="ansi")
    lengths = []
    for hand in range(40):
        table.reset(seed=hand)
        total = dict.fromkeys(table.possible_agents, 0.0)
        steps = 0
        for agent in table.agent_iter():
            observation, reward, over, cut, _ = table.last()
            total[agent] += reward
            if over or cut:
                table.step(None)
                continue
            mask = observation["action_mask"]
            assert mask.any() and observation["observation"].shape == (52 + 4 * 52 + 5 + 12 + 2,)
            table.step(int(rng.choice(np.flatnonzero(mask))))
            steps += 1
        assert abs(sum(total.values())) < 1e-9  # no rake: zero sum
        lengths.append(steps)
    assert max(lengths) > 8  # hands went past 3rd street
    table.reset(seed=1)
    screen = table.render()
    assert screen is not None and "street 3" in screen and "player_3" in screen
    with pytest.raises(OptionError):
        env(seats=9)
    with pytest.raises(OptionError):
        env(render_mode="human")
    with pytest.raises(OptionError, match="stacks must be one a seat: 2 seats, got 4 stacks"):
        raw_env(seats=2, stacks=[100, 100, 100, 100])


def test_pettingzoo_env_has_the_classic_games_wrappers_and_raw_env_passes_too() -> None:
    wrapped = env(seats=3)
    layers = []
    layer = wrapped
    while isinstance(layer, wrappers.BaseWrapper):
        layers.append(type(layer).__name__)
        layer = layer.env
    assert layers == ["OrderEnforcingWrapper", "ActionCheckWrapper", "TerminateIllegalWrapper"]
    assert isinstance(wrapped.env, wrappers.AssertOutOfBoundsWrapper)  # its check, ours first
    assert isinstance(layer, raw_env) and wrapped.unwrapped is layer
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(raw_env(game="stud8", seats=3), num_cycles=100)


def _outcomes(game: object, actions: list[object]) -> list[object]:
    """What each step of ``actions`` did (the next agent and the rewards, or the
    error's type), played in turn with each agent's last()."""
    seen: list[object] = []
    game.reset(seed=3)  # type: ignore[attr-defined]
    for action in actions:
        if not game.agents:  # type: ignore[attr-defined]
            break
        try:
            game.step(action)  # type: ignore[attr-defined]
            seen.append((game.agent_selection, dict(game.rewards)))  # type: ignore[attr-defined]
        except Exception as error:
            seen.append(type(error))
    return seen


def test_the_action_check_refuses_what_pettingzoos_out_of_bounds_wrapper_does() -> None:
    """Our wrapper reads the raw environment at once: the same steps go through, and
    an action of a finished agent out of the space fails PettingZoo's assertion."""
    rng = np.random.default_rng(3)
    kinds: set[object] = set()
    for _ in range(60):
        ours = env(game="razz", seats=3)
        theirs = wrappers.OrderEnforcingWrapper(
            wrappers.AssertOutOfBoundsWrapper(
                wrappers.TerminateIllegalWrapper(raw_env(game="razz", seats=3), illegal_reward=-1)
            )
        )
        choices: list[object] = [None, 0, 1, 2, 3, 4, 7, -1, np.int64(1), np.uint64(3), np.uint8(1)]
        actions = [choices[int(i)] for i in rng.integers(0, len(choices), 40)]
        mine, pettingzoo = _outcomes(ours, actions), _outcomes(theirs, actions)
        for a, b in zip(mine, pettingzoo, strict=True):
            # Ours refuses a live agent's bad action with studeval's errors (an
            # AssertionError there); anything else is the same.
            assert a == b or (b is AssertionError and a in (OptionError, IllegalActionError))
            kinds.add(a if isinstance(a, type) else "step")
    assert {"step", AssertionError, OptionError, IllegalActionError} <= kinds  # all were met
    finished = env(game="stud", seats=2)
    finished.reset(seed=1)
    finished.step(0)  # a fold ends the hand: the other agent's turn to leave
    with pytest.raises(AssertionError, match="action is not in action space"):
        finished.step(9)


def _observation_twin(game: raw_env, agent: str) -> np.ndarray:
    """The observation vector in plain numpy, from the module text's list of parts."""
    t, me, n = game.tables, game.possible_agents.index(agent), game.seats
    total = float(sum(game.stacks))
    order = [(me + k) % n for k in range(n)]
    vector = np.zeros(52 + 52 * n + 5 + 3 * n + 2, np.float32)
    for card in t.cards[0, me]:
        if card < 52:
            vector[card] = 1.0
    for r, s in enumerate(order):
        for card, up in zip(t.cards[0, s], t.up[0, s], strict=True):
            if up:
                vector[52 + 52 * r + int(card)] = 1.0  # (a uint8 sum would wrap)
    at = 52 + 52 * n
    vector[at + int(t.street[0]) - 3] = 1.0
    at += 5
    vector[at : at + n] = [t.stacks[0, s] / total for s in order]
    vector[at + n : at + 2 * n] = [t.bets[0, s] / total for s in order]
    vector[at + 2 * n : at + 3 * n] = [float(t.folded[0, s]) for s in order]
    vector[at + 3 * n :] = (t.pot[0] / total, t.to_call[0] / total)
    return vector


def test_pettingzoo_observations_are_the_documented_parts_for_every_seat() -> None:
    """The compiled encoder against a plain-numpy twin, for every agent at every step of
    hands of 2 to 8 seats in each game."""
    rng = np.random.default_rng(5)
    compared = 0
    for seats in range(2, 9):
        game = raw_env(game=["stud", "stud8", "razz"][seats % 3], seats=seats,
                       stacks=[int(x) for x in rng.integers(30, 300, seats)])  # fmt: skip
        for episode in range(4):
            game.reset(seed=episode)
            for agent in game.agent_iter():
                for watcher in game.agents:
                    seen = game.observe(watcher)["observation"]
                    assert np.array_equal(seen, _observation_twin(game, watcher)), watcher
                    compared += 1
                _, _, over, cut, _ = game.last()
                if over or cut:
                    game.step(None)
                else:
                    mask = game.observe(agent)["action_mask"]
                    game.step(int(rng.choice(np.flatnonzero(mask))))
    assert compared > 1000


def test_pettingzoo_reset_deals_as_new_tables_and_follows_changed_stacks() -> None:
    """A reset deals afresh in the tables the environment has (Tables.reset): the same
    hand a new environment deals for that seed; stacks changed between episodes are
    the next hand's."""
    game = raw_env(game="stud8", seats=3)
    game.reset(seed=4)
    first = game.observe("player_0")["observation"].copy()
    tables = game.tables
    for _ in range(3):
        game.step(int(np.flatnonzero(game.observe(game.agent_selection)["action_mask"])[0]))
    game.reset(seed=4)
    assert game.tables is tables  # dealt afresh, not made again
    assert np.array_equal(game.observe("player_0")["observation"], first)
    fresh = raw_env(game="stud8", seats=3)
    fresh.reset(seed=4)
    assert np.array_equal(fresh.observe("player_0")["observation"], first)
    game.stacks = [300, 300, 300]
    game.reset(seed=4)
    assert game.tables is not tables and game.tables.starting_stacks == [300, 300, 300]


@pytest.mark.parametrize("make", [env, raw_env])
def test_pettingzoo_actions_that_are_no_action_number_are_studeval_errors(make: object) -> None:
    table = make(seats=2)  # type: ignore[operator]
    table.reset(seed=1)
    agent = table.agent_selection
    for bad, error in ((None, OptionError), (2.5, OptionError), ("1", OptionError),
                       (True, OptionError), (7, IllegalActionError),
                       (-1, IllegalActionError)):  # fmt: skip
        with pytest.raises(error, match=agent) as caught:
            table.step(bad)
        assert isinstance(caught.value, StudevalError)
        assert not table.tables.history.any() and table.agent_selection == agent  # no change
    assert isinstance(OptionError("x"), TypeError) and isinstance(OptionError("x"), ValueError)
    table.step(np.int64(2))  # a numpy int is an action: the bring-in seat brings in
    assert table.tables.history[0, 0, 0] == 1 + int(agent[-1]) * 5 + 2
    table.step(np.array(1))
    assert table.tables.history[0, 0, 1] > 0


def test_pettingzoo_illegal_action_ends_the_hand_wrapped_and_raises_raw() -> None:
    raw = raw_env(seats=2)
    raw.reset(seed=1)
    agent = raw.agent_selection
    with pytest.raises(IllegalActionError, match="cannot fold"):
        raw.step(0)  # the bring-in seat may not fold
    wrapped = env(seats=2)
    wrapped.reset(seed=1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PettingZoo's warning of the illegal move
        wrapped.step(0)
    assert all(wrapped.terminations.values())
    assert wrapped.rewards == {agent: -1.0, "player_1" if agent == "player_0" else "player_0": 0}
    raw.reset(seed=2**64 - 1)
    raw.reset()  # the next hand's seed goes round to 0
    assert raw.tables.seed == 0
    with pytest.raises(OptionError, match="seed"):
        raw.reset(seed=-1)


@pytest.mark.parametrize("game", ["stud", "stud8", "razz"])
def test_openspiel_random_simulations_pass(game: str) -> None:
    for players in (2, 5):
        loaded = pyspiel.load_game(f"python_studeval_{game}", {"players": players})
        pyspiel.random_sim_test(loaded, num_sims=8, serialize=False, verbose=False)


def test_openspiel_plays_monte_carlo_tree_search_games() -> None:
    game = pyspiel.load_game("python_studeval_razz", {"stack": 40})
    rng = np.random.RandomState(7)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=2, random_state=rng)
    bots = [mcts.MCTSBot(game, uct_c=2, max_simulations=16, evaluator=evaluator,
                         random_state=rng) for _ in range(2)]  # fmt: skip
    decisions = 0
    for _ in range(3):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                cards = [card for card, _ in state.chance_outcomes()]
                state.apply_action(int(rng.choice(cards)))
            else:
                state.apply_action(bots[state.current_player()].step(state))
                decisions += 1
        assert sum(state.returns()) == 0 and any(state.returns())
    assert decisions > 6


def test_openspiel_information_states_hide_the_other_players_down_cards() -> None:
    game = pyspiel.load_game("python_studeval_stud")
    state = game.new_initial_state()
    for card in (0, 4, 51, 1, 5, 47):
        state.apply_action(card)
    mine, theirs = state.information_state_string(0), state.information_state_string(1)
    assert "cards 2c 3c As" in mine and "2d" not in mine and "3d" not in mine
    assert "cards 2d 3d Ks" in theirs and "2c" not in theirs
    tensor = np.array(state.information_state_tensor(0))
    assert tensor.sum() > 0 and len(tensor) == game.information_state_tensor_size()


def test_openspiel_stakes_are_parameters_and_bad_ones_are_option_errors() -> None:
    game = pyspiel.load_game("python_studeval_stud",
                             {"ante": 2, "bring_in": 3, "small_bet": 6, "big_bet": 12})  # fmt: skip
    state = game.new_initial_state()
    for card in (0, 4, 51, 1, 5, 47):
        state.apply_action(card)
    assert state.hand.table_actions() == {2: ("bring_in", 3), 3: ("complete", 6)}
    assert state.hand.contributions == [2, 2]
    deep = {"stack": 2**31 - 1, "bring_in": 1, "small_bet": 1}
    for params, named in (({"stack": 2**62}, "stack"), ({"ante": -2**40}, "ante"),
                          ({"players": 9}, "players"), ({"bring_in": 6}, "bring_in"),
                          ({"stack": 1}, "stack"), ({"bogus": 1}, "bogus"),
                          (deep, "stack")):  # fmt: skip
        with pytest.raises(OptionError, match=named):
            studeval.envs.openspiel.load_game("python_studeval_stud", params)
    with pytest.raises(OptionError, match=r"stack .* too deep"):  # past load_game's own check
        pyspiel.load_game("python_studeval_razz", {"stack": 2**31 - 1})
    with pytest.raises(OptionError, match="no studeval game"):
        studeval.envs.openspiel.load_game("kuhn_poker")


@pytest.mark.parametrize("name", ["python_studeval_stud", "python_studeval_mini_stud"])
def test_openspiel_actions_not_allowed_are_illegal_action_errors(name: str) -> None:
    state = pyspiel.load_game(name).new_initial_state()
    first = state.chance_outcomes()[0][0]
    state.apply_action(first)
    with pytest.raises(IllegalActionError, match="no such card"):
        state.apply_action(first)  # dealt already
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    assert state.legal_actions() == [2, 3]  # bring in or complete
    before = str(state)
    for action in (0, 1, 4, 7):
        with pytest.raises(IllegalActionError, match=r"cannot .* allowed: bring_in \(2\)"):
            state.apply_action(action)
    assert str(state) == before
    while not state.is_terminal():
        outcomes = state.chance_outcomes() if state.is_chance_node() else None
        state.apply_action(outcomes[0][0] if outcomes else state.legal_actions()[-1])
    with pytest.raises(IllegalActionError, match="the hand is over"):
        state.apply_action(1)
