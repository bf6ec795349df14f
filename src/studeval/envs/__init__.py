"""Stud for agent libraries: :mod:`studeval.envs.pettingzoo` (extra ``rl``) and
:mod:`studeval.envs.openspiel` (extra ``openspiel``). Each is imported on its own, so
that only the library it serves must be installed.

>>> import studeval.envs
>>> studeval.envs.GAMES
('stud', 'stud8', 'razz')
"""

from studeval.games import STANDARD_GAMES

__all__ = ["GAMES"]

#: The games the environments offer: the three card rooms spread.
GAMES = STANDARD_GAMES
