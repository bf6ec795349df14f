"""The reduced stud for tabular CFR (python_studeval_mini_stud): its rules hand by
hand, OpenSpiel's random simulation test, and CFR that runs to the end with its
exploitability falling."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import cfr, exploitability

import studeval.envs.openspiel  # registers the games
from studeval.envs.openspiel_mini import NAME
from studeval.errors import OptionError

FOLD, CALL, BRING_IN, SMALL, BIG = range(5)


def _play(moves: list[int], params: dict[str, int] | None = None) -> pyspiel.State:
    state = pyspiel.load_game(NAME, params or {}).new_initial_state()
    for move in moves:
        state.apply_action(move)
    return state


def test_mini_stud_plays_by_its_rules() -> None:
    deal = [48, 41, 44, 40]  # down Ac and Qd, up Kc and Qc
    state = _play(deal)
    assert state.current_player() == 1 and state.legal_actions() == [BRING_IN, SMALL]
    assert _play([*deal, BRING_IN, CALL]).returns() == [-2, 2]  # a call ends; queens win
    assert _play([*deal, BRING_IN, FOLD]).returns() == [-1, 1]
    state = _play([*deal, SMALL])  # the completion
    assert state.current_player() == 0 and state.legal_actions() == [FOLD, CALL, SMALL]
    state.apply_action(SMALL)  # a raise: the cap (a wager and one raise) is reached
    assert state.legal_actions() == [FOLD, CALL]
    state.apply_action(CALL)
    assert state.is_terminal() and state.returns() == [-5, 5]
    assert _play([48, 49, 44, 45, BRING_IN, CALL]).returns() == [0, 0]  # Ac Kc, Ad Kd: a tie
    # Two streets: the open pair of kings acts first on the second, with the big bet.
    state = _play([*deal, BRING_IN, CALL, 45, 49], {"streets": 2})
    assert state.current_player() == 0 and state.legal_actions() == [CALL, BIG]
    for move in (BIG, BIG, CALL):
        state.apply_action(move)
    assert state.returns() == [10, -10]  # kings over queens: 1 + 1 + 8 each
    assert state.information_state_string(1) == (
        "p1; cards Qd Qc Ad; up Kc Kd | Qc Ad; actions bring_in check_call / big big check_call"
    )
    game = state.get_game()
    assert len(state.information_state_tensor(0)) == game.information_state_tensor_size()
    assert len(state.observation_tensor(1)) == game.observation_tensor_size()
    assert "Qd" not in state.observation_string(0) and "pot 10 10" in state.observation_string(0)


def test_mini_stud_random_simulations_and_parameters() -> None:
    for params in ({}, {"streets": 2}, {"ranks": 5, "suits": 4, "raises": 3, "ante": 0}):
        pyspiel.random_sim_test(pyspiel.load_game(NAME, params), num_sims=20,
                                serialize=False, verbose=False)  # fmt: skip
    for params, named in (({"ranks": 1}, "ranks"), ({"suits": 5}, "suits"),
                          ({"streets": 3}, "streets"), ({"bring_in": 2}, "bring_in"),
                          ({"ranks": 2, "streets": 2}, "ranks x suits"),
                          ({"raises": 2**40}, "raises")):  # fmt: skip
        with pytest.raises(OptionError, match=named):
            studeval.envs.openspiel.load_game(NAME, params)


def test_tabular_cfr_runs_to_the_end_and_exploitability_falls() -> None:
    """CFRSolver on the cached tree of the default game (720 information states), and
    on the game itself with 4 cards: each exploitability falls several-fold."""
    game = pyspiel.convert_to_cached_tree(pyspiel.load_game(NAME))
    solver = cfr.CFRSolver(game)
    assert len(solver.current_policy().state_lookup) == 720
    figures = []
    for iteration in range(1, 13):
        solver.evaluate_and_update_policy()
        if iteration in (1, 4, 12):
            figures.append(exploitability.exploitability(game, solver.average_policy()))
    assert figures[0] > figures[1] > figures[2] and figures[2] < figures[0] / 4, figures
    small = pyspiel.load_game(NAME, {"ranks": 2})
    solver = cfr.CFRSolver(small)
    first = exploitability.exploitability(small, solver.average_policy())
    for _ in range(30):
        solver.evaluate_and_update_policy()
    last = exploitability.exploitability(small, solver.average_policy())
    assert last < first / 4 and np.isfinite(last), (first, last)
