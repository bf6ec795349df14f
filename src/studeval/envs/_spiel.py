"""What the OpenSpiel games share: their parameters checked (every one an int that
OpenSpiel's C++ side holds) and their game type.

>>> settings("a game", {"players": 3}, {"players": 2, "stack": 100})
{'players': 3, 'stack': 100}
>>> settings("a game", {"stack": 2**40}, {"players": 2, "stack": 100})
Traceback (most recent call last):
...
studeval.errors.OptionError: a game: stack is 1099511627776; OpenSpiel's parameters are C++ \
ints, below 2**31
"""

from __future__ import annotations

from typing import Any

from studeval.errors import OptionError

#: OpenSpiel's int parameters and game lengths are C++ ints.
INT_LIMIT = 2**31


def settings(name: str, params: dict[str, Any] | None, defaults: dict[str, int]) -> dict[str, int]:
    """``params`` over ``defaults``: every one known and an int OpenSpiel can hold;
    an :class:`~studeval.errors.OptionError` naming ``name`` and the parameter if not."""
    given = dict(params or {})
    for key, value in given.items():
        if key not in defaults:
            raise OptionError(f"{name}: no parameter {key!r}; they are {', '.join(defaults)}")
        if isinstance(value, bool) or not isinstance(value, int):
            raise OptionError(f"{name}: {key} must be an int; got {value!r}")
        if not -INT_LIMIT <= value < INT_LIMIT:
            raise OptionError(f"{name}: {key} is {value}; OpenSpiel's parameters are C++ "
                              "ints, below 2**31")  # fmt: skip
    return {**defaults, **given}


def observation_kind(iig_obs_type: Any, params: dict[str, Any] | None) -> Any:
    """The observation type asked for (``None``: pyspiel's default, without perfect
    recall); observer parameters are refused."""
    import pyspiel

    if params:
        raise OptionError(f"observation parameters are not supported; got {params}")
    return iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)


def tensor_pieces(pieces: list[tuple[str, tuple[int, ...]]]) -> tuple[Any, dict[str, Any]]:
    """An observer's tensor (float32 zeros) and its named pieces, views of it shaped
    as ``pieces`` says, in order."""
    import numpy as np

    tensor = np.zeros(sum(int(np.prod(shape)) for _, shape in pieces), np.float32)
    views, at = {}, 0
    for name, shape in pieces:
        size = int(np.prod(shape))
        views[name] = tensor[at : at + size].reshape(shape)
        at += size
    return tensor, views


def game_type(short_name: str, long_name: str, players: int, defaults: dict[str, int]) -> Any:
    """The pyspiel.GameType of a stud game: sequential, cards as explicit chance
    outcomes, zero-sum, returns at the end, for 2 to ``players`` players."""
    import pyspiel

    return pyspiel.GameType(
        short_name=short_name,
        long_name=long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=players,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=dict(defaults),
    )
