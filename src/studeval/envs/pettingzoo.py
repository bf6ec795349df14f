"""A PettingZoo AEC environment: one hand of stud, played on :class:`~studeval.Tables`.

Each agent's observation is ``{"observation": vector, "action_mask": mask}``: the
mask says which of the five actions (fold, check or call, bring in, the small bet,
the big bet; :data:`studeval.tables.ACTIONS`) are allowed for the agent to act (all
zero for the others), and the vector (float32, 0..1) holds, from the observer's
seat on round the table:

* 52: the observer's own cards, down and up;
* 52 a seat: each seat's up cards (the observer's first);
* 5: the street, one-hot (3rd to 7th);
* 3 a seat: each seat's stack, chips bet this street, and folded (chips as a share
  of all the chips at the table);
* 2: the pot and what a call costs, as shares of all the chips.

An episode is one hand; the rewards at its end are the chips won or lost, in big
bets. ``render_mode="ansi"`` returns the table as text.

:func:`env` wraps :class:`raw_env` in PettingZoo's standard wrappers, as PettingZoo's
classic games are: an action the agent may not take now ends the hand with -1 (big
bet) for that agent and 0 for the others (``TerminateIllegalWrapper``), and steps
out of order are refused (``OrderEnforcingWrapper``). An action that is no action
number (``None`` for an agent to act, ``2.5``, ``"1"``, ``True``) raises
:class:`~studeval.errors.OptionError`, and a number outside 0..4
:class:`~studeval.errors.IllegalActionError`, in both; :class:`raw_env` also raises
``IllegalActionError`` for an action not allowed now.

>>> env = env(game="razz", seats=3)
>>> env.reset(seed=1)
>>> agent = env.agent_selection
>>> env.observe(agent)["action_mask"].tolist()  # the bring-in seat: bring in or complete
[0, 0, 1, 1, 0]
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from studeval.betting import Stakes
from studeval.cards import card_str
from studeval.errors import IllegalActionError, OptionError
from studeval.houserules import HouseRules
from studeval.tables import ACTIONS, Tables

__all__ = ["ActionCheckWrapper", "action_number", "env", "raw_env"]

DEFAULT_STAKES = Stakes(ante=1, bring_in=2, small_bet=5, big_bet=10)


def env(**kwargs: Any) -> AECEnv[str, dict[str, np.ndarray], int]:
    """The environment in PettingZoo's standard wrappers (see the module text), as
    PettingZoo's classic games make theirs; :class:`raw_env` for its arguments."""
    wrapped: AECEnv[str, dict[str, np.ndarray], int] = raw_env(**kwargs)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=-1)
    wrapped = ActionCheckWrapper(wrapped)  # PettingZoo's AssertOutOfBoundsWrapper, ours first
    return wrappers.OrderEnforcingWrapper(wrapped)


def action_number(action: object, agent: str) -> int:
    """``action`` as an action number for ``agent`` to act: an int (a numpy one too)
    0..4; anything else is refused with a studeval error.

    >>> action_number(2.5, "player_0")
    Traceback (most recent call last):
    ...
    studeval.errors.OptionError: player_0's action must be an int 0..4 (fold, check_call, \
bring_in, small, big); got 2.5
    """
    if action is None:
        raise OptionError(f"{agent} is to act: step(None) is only for an agent whose "
                          "hand is over")  # fmt: skip
    integral = isinstance(action, (int, np.integer)) or (
        isinstance(action, np.ndarray) and action.shape == () and action.dtype.kind in "iu"
    )
    if isinstance(action, (bool, np.bool_)) or not integral:
        raise OptionError(f"{agent}'s action must be an int 0..4 ({', '.join(ACTIONS)}); "
                          f"got {action!r}")  # fmt: skip
    number = int(action)  # type: ignore[call-overload]
    if not 0 <= number < len(ACTIONS):
        raise IllegalActionError(f"{agent}: there is no action {number}; the actions are "
                                 f"0..4 ({', '.join(ACTIONS)})")  # fmt: skip
    return number


class ActionCheckWrapper(wrappers.AssertOutOfBoundsWrapper[str, dict[str, np.ndarray], int]):
    """PettingZoo's ``AssertOutOfBoundsWrapper`` that first refuses an action that is
    no action number (:func:`action_number`) for the agent to act with studeval's
    errors. (One wrapper, not two: every attribute read through a wrapper costs a
    call a layer, and a step reads a dozen; this one reads the environment under
    the wrappers at once.)"""

    def __init__(self, env: AECEnv[str, dict[str, np.ndarray], int]) -> None:
        super().__init__(env)
        self._raw = env.unwrapped

    def step(self, action: int | None) -> None:
        raw = self._raw
        agent = raw.agent_selection
        if not (raw.terminations[agent] or raw.truncations[agent]):
            action_number(action, agent)  # an int 0..4, or a numpy one
            if type(action) is not int:  # AssertOutOfBoundsWrapper's check (no uint64)
                assert raw.action_space(agent).contains(action), "action is not in action space"
        else:  # AssertOutOfBoundsWrapper's check: None, or an action of the space
            assert action is None or raw.action_space(agent).contains(action), (
                "action is not in action space")  # fmt: skip
        self.env.step(action)


class raw_env(AECEnv):
    """One hand of ``game`` (``"stud"``, ``"stud8"`` or ``"razz"``) for ``seats``
    agents with ``stakes`` and ``stacks`` (100 big bets each by default), under
    ``rules`` (:class:`~studeval.HouseRules`)."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi"], "name": "studeval_stud_v0", "is_parallelizable": False,
    }  # fmt: skip
    _seed: int  # the last hand's seed
    tables: Tables  # made at the first reset, dealt afresh at each next one
    _made_of: tuple[object, ...]  # what the tables were made of

    def __init__(
        self,
        game: str = "stud",
        seats: int = 2,
        stakes: Stakes = DEFAULT_STAKES,
        stacks: list[int] | None = None,
        rules: HouseRules | str | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise OptionError(f"render_mode must be None or 'ansi'; got {render_mode!r}")
        if isinstance(seats, bool) or not isinstance(seats, int) or not 2 <= seats <= 8:
            raise OptionError(f"seats must be 2 to 8; got {seats!r}")
        self.game, self.seats, self.stakes, self.rules = game, seats, stakes, rules
        self.stacks = list(stacks) if stacks is not None else [100 * stakes.big_bet] * seats
        if len(self.stacks) != seats:
            raise OptionError(f"stacks must be one a seat: {seats} seats, got "
                              f"{len(self.stacks)} stacks")  # fmt: skip
        self.render_mode = render_mode
        self._total = float(sum(self.stacks))
        Tables(1, game, stakes, self.stacks, rules=rules, seed=0)  # the arguments checked now
        self.possible_agents = [f"player_{seat}" for seat in range(seats)]
        size = self._size = 52 + 52 * seats + 5 + 3 * seats + 2
        self.observation_spaces = {
            agent: spaces.Dict({
                "observation": spaces.Box(0.0, 1.0, (size,), np.float32),
                "action_mask": spaces.Box(0, 1, (len(ACTIONS),), np.int8),
            })
            for agent in self.possible_agents
        }  # fmt: skip
        self.action_spaces = {
            agent: spaces.Discrete(len(ACTIONS)) for agent in self.possible_agents
        }

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is None and hasattr(self, "_seed"):  # on from the last, so hands differ
            seed = (self._seed + 1) % (1 << 64)
        elif seed is None:
            seed = random.getrandbits(63)
        made_of = (self.game, self.stakes, list(self.stacks), self.rules)
        if hasattr(self, "tables") and self._made_of == made_of:
            self.tables.reset(seed)  # the same hand as new tables would deal, sooner
        else:  # the first hand, or the game, stakes, stacks or rules changed since
            self.tables = Tables(1, self.game, self.stakes, self.stacks, rules=self.rules,
                                 seed=seed)  # fmt: skip
            self._made_of = made_of
        self._seed = self.tables.seed
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.agents[int(self.tables.actor[0])]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        t, me = self.tables, self.possible_agents.index(agent)
        vector = np.empty(self._size, np.float32)
        t._core.encode(0, me, self._total, vector)  # the module text's parts, in C
        mask = np.zeros(len(ACTIONS), np.int8)
        if not self.terminations[agent] and agent == self.agent_selection:
            mask[:] = t.legal[0]
        return {"observation": vector, "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self.tables.step(np.array([action_number(action, agent)]))
        self._cumulative_rewards[agent] = 0.0
        if self.tables.done[0]:
            won = self.tables.rewards[0] / self.stakes.big_bet
            self.rewards = {a: float(won[s]) for s, a in enumerate(self.possible_agents)}
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self.agent_selection = self.agents[int(self.tables.actor[0])]
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        t = self.tables
        if all(self.terminations.values()):
            return "hand over: " + ", ".join(
                f"{agent} {reward:+.1f} big bets" for agent, reward in self.rewards.items()
            )
        lines = [f"{self.game}, street {int(t.street[0])}, pot {int(t.pot[0])}"]
        for seat, agent in enumerate(self.possible_agents):
            shown = " ".join(
                card_str(int(c)) if up else "??"
                for c, up in zip(t.cards[0, seat], t.up[0, seat], strict=True)
                if c < 52
            )
            mark = "*" if int(t.actor[0]) == seat else " "
            state = "folded" if t.folded[0, seat] else f"{int(t.stacks[0, seat])} chips"
            lines.append(f"{mark} {agent}: {shown}  ({state}, bet {int(t.bets[0, seat])})")
        return "\n".join(lines)

    def close(self) -> None:
        pass
