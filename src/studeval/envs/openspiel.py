"""Stud as OpenSpiel games: ``python_studeval_stud``, ``python_studeval_stud8`` and
``python_studeval_razz``, registered with pyspiel when this module is imported.

Each game is one hand of fixed-limit stud for ``players`` players (2 to 8, default
2) from stacks of ``stack`` chips (default 100), with the stakes as parameters:
``ante`` 1, ``bring_in`` 2, ``small_bet`` 5 and ``big_bet`` 10 by default. Every
card is a chance outcome (one card at a time, uniform over the cards not yet
dealt); the players' actions are the five of :class:`~studeval.Tables` (0 fold, 1
check or call, 2 bring in, 3 the small bet, 4 the big bet), played on
:class:`~studeval.StudHand`. The returns are the chips won or lost. Information
states and observations: each player's own cards, every up card, the street, each
player's chips in the pot and left, and (information states) every action so far.

>>> import pyspiel
>>> import studeval.envs.openspiel
>>> game = pyspiel.load_game("python_studeval_razz")
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 52)

A parameter out of range is an :class:`~studeval.errors.OptionError` naming it, and
an action not allowed now (a card already dealt, a wager not offered) an
:class:`~studeval.errors.IllegalActionError`. ``pyspiel.load_game`` turns the
parameters into C++ ints before the game sees them, so that a value from 2**31 on
fails there with pyspiel's own ``RuntimeError``; :func:`load_game` checks them
first:

>>> load_game("python_studeval_stud", {"stack": 2**62})
Traceback (most recent call last):
...
studeval.errors.OptionError: python_studeval_stud: stack is 4611686018427387904; \
OpenSpiel's parameters are C++ ints, below 2**31

The full games are far too big for tabular methods (``cfr.CFRSolver`` would walk
every deal of 52 cards): sampling methods (outcome- and external-sampling MCCFR),
Monte Carlo tree search and learned policies play them. For tabular CFR there is
``python_studeval_mini_stud`` (:mod:`studeval.envs.openspiel_mini`), a reduced deck
of few cards and two streets, registered with these.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from studeval import _core
from studeval.betting import Stakes
from studeval.cards import card_str
from studeval.engine import StudHand
from studeval.envs import GAMES
from studeval.envs._spiel import INT_LIMIT, game_type, observation_kind, settings, tensor_pieces
from studeval.errors import IllegalActionError, OptionError, StudevalError
from studeval.tables import ACTIONS

__all__ = ["PARAMETERS", "STAKES", "StudGame", "StudState", "load_game"]

#: The games' default stakes.
STAKES = Stakes(ante=1, bring_in=2, small_bet=5, big_bet=10)
_MAX_PLAYERS = 8
_DEFAULTS = {"players": 2, "stack": 100, "ante": STAKES.ante, "bring_in": STAKES.bring_in,
             "small_bet": STAKES.small_bet, "big_bet": STAKES.big_bet}  # fmt: skip
#: Actions an information state's history holds: as many as a table's (5 streets).
_HISTORY = 5 * _core.TABLES_HISTORY
#: Each studeval game's parameters and their defaults, by name.
PARAMETERS: dict[str, dict[str, int]] = {f"python_studeval_{g}": _DEFAULTS for g in GAMES}


def load_game(name: str, params: dict[str, Any] | None = None) -> pyspiel.Game:
    """``pyspiel.load_game(name, params)`` for a studeval game, its parameters checked
    first (every one an int that OpenSpiel can hold), so that a bad one is an
    :class:`~studeval.errors.OptionError` naming it.

    >>> load_game("python_studeval_razz", {"players": 3, "ante": 2}).num_players()
    3
    """
    if name not in PARAMETERS:
        raise OptionError(f"{name!r} is no studeval game; they are {', '.join(PARAMETERS)}")
    settings(name, params, PARAMETERS[name])
    return pyspiel.load_game(name, dict(params or {}))


def _game_type(game: str) -> pyspiel.GameType:
    return game_type(f"python_studeval_{game}", f"studeval {game} (fixed-limit, one hand)",
                     _MAX_PLAYERS, _DEFAULTS)  # fmt: skip


class StudGame(pyspiel.Game):
    """One hand of ``game`` (its parameters: ``players``, ``stack``, ``ante``,
    ``bring_in``, ``small_bet`` and ``big_bet``); one subclass a game, registered with
    pyspiel."""

    game = "stud"

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        game = self.game
        name = f"python_studeval_{game}"
        chosen = settings(name, params, _DEFAULTS)
        self.players, self.stack = chosen["players"], chosen["stack"]
        if not 2 <= self.players <= _MAX_PLAYERS:
            raise OptionError(f"{name}: players must be 2 to 8; got {self.players}")
        try:
            self.stakes = Stakes(chosen["ante"], chosen["bring_in"], chosen["small_bet"],
                                 chosen["big_bet"])  # fmt: skip
            if self.stack <= self.stakes.ante:
                raise OptionError(f"stack must be above the ante ({self.stakes.ante}); got "
                                  f"{self.stack}")  # fmt: skip
            StudHand(game, self.stakes, [self.stack] * self.players)  # the engine's checks
        except StudevalError as error:
            raise OptionError(f"{name}: {error}".replace("Stakes: ", "")) from None
        # Every action but the last of a street is answered; a street has a few raises
        # and as many calls, unless two players raise each other all in (no cap).
        longest = 52 + 5 * (2 * self.players + 2 * self.stack // self.stakes.small_bet + 8)
        if longest >= INT_LIMIT:
            raise OptionError(f"{name}: stack {self.stack} is too deep for a small_bet of "
                              f"{self.stakes.small_bet}: a hand could last {longest} moves, "
                              "more than OpenSpiel's C++ int holds")  # fmt: skip
        info = pyspiel.GameInfo(
            num_distinct_actions=len(ACTIONS), max_chance_outcomes=52,
            num_players=self.players, min_utility=-float(self.stack),
            max_utility=float(self.stack * (self.players - 1)), utility_sum=0.0,
            max_game_length=longest,
        )  # fmt: skip
        super().__init__(_game_type(game), info, dict(chosen))

    def new_initial_state(self) -> StudState:
        return StudState(self)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None,
        params: dict[str, Any] | None = None,
    ) -> StudObserver:  # fmt: skip
        return StudObserver(self, observation_kind(iig_obs_type, params))


class StudState(pyspiel.State):
    """A hand in progress: a :class:`~studeval.StudHand` and the cards being dealt."""

    def __init__(self, game: StudGame) -> None:
        super().__init__(game)
        self.hand = StudHand(game.game, game.stakes, [game.stack] * game.players)
        self.pending: list[int] = []  # the cards of the seat being dealt, so far
        self.actions: list[tuple[int, int]] = []  # (seat, action), in order

    # ---- whose turn -------------------------------------------------------------------

    def _dealing(self) -> tuple[int, int] | None:
        """(seat, cards) of the next deal, (-1, 1) for a community card, or None."""
        hand = self.hand
        if hand.over or hand.showdown or hand.actor is not None:
            return None
        street = hand.street
        waiting = [s for s in range(hand.seats) if not hand.folded[s]
                   and len(hand.cards[s]) < (3 if street == 3 else street)]  # fmt: skip
        dealt = sum(len(c) for c in hand.cards) + (hand.community is not None)
        if street == 7 and 52 - dealt - len(self.pending) < len(waiting) and not self.pending:
            return (-1, 1)
        return (waiting[0], 3 if street == 3 else 1) if waiting else None

    def current_player(self) -> int:
        hand = self.hand
        if hand.over:  # (a showdown never waits: _apply_action shows every hand)
            return int(pyspiel.PlayerId.TERMINAL)
        if hand.actor is None:
            return int(pyspiel.PlayerId.CHANCE)
        return hand.actor

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(self.hand.table_actions())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        seen = {c for cards in self.hand.cards for c in cards if c is not None}
        seen |= set(self.pending)
        if self.hand.community is not None:
            seen.add(self.hand.community)
        outcomes = [c for c in range(52) if c not in seen]
        return [(c, 1.0 / len(outcomes)) for c in outcomes]

    # ---- moves ------------------------------------------------------------------------

    def _apply_action(self, action: int) -> None:
        hand = self.hand
        if hand.over:
            raise IllegalActionError(f"action {action}: the hand is over")
        if self.is_chance_node():
            if action not in {card for card, _ in self.chance_outcomes()}:
                raise IllegalActionError(f"deal {action}: no such card is left to deal")
            seat, count = self._dealing()  # type: ignore[misc]
            if seat < 0:
                hand.deal_community(action)
            else:
                self.pending.append(action)
                if len(self.pending) == count:
                    hand.deal(seat, self.pending)
                    self.pending = []
        else:
            seat, choices = hand.actor, hand.table_actions()
            if action not in choices:
                name = ACTIONS[action] if 0 <= action < len(ACTIONS) else "no such action"
                allowed = ", ".join(f"{ACTIONS[a]} ({a})" for a in sorted(choices)) or "nothing"
                raise IllegalActionError(f"player {seat} cannot {name} ({action}) now; "
                                         f"allowed: {allowed}")  # fmt: skip
            kind, to = choices[action]
            hand.act(kind, to)
            self.actions.append((seat, action))  # type: ignore[arg-type]
        while hand.showdown:  # everyone left shows
            hand.show()

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {card_str(action)}"
        return ACTIONS[action]

    def is_terminal(self) -> bool:
        return self.hand.over

    def returns(self) -> list[float]:
        result = self.hand.result
        if result is None:
            return [0.0] * self.hand.seats
        return [float(p - c) for p, c in zip(result.payouts, self.hand.contributions, strict=True)]

    def __str__(self) -> str:
        hand = self.hand
        seats = [" ".join(card_str(c) if c is not None else "??" for c in cards)
                 for cards in hand.cards]  # fmt: skip
        return f"street {hand.street}; " + " | ".join(seats) + f"; actions {self.actions}"


class StudObserver:
    """Observations and information states (pyspiel's observer interface): the
    player, its own cards, every up card by seat, the street, each seat's chips in
    the pot and left (as shares of all the chips), and with perfect recall every
    action so far (one-hot by action, with the acting seat)."""

    def __init__(self, game: StudGame, iig_obs_type: pyspiel.IIGObservationType) -> None:
        n = game.players
        pieces: list[tuple[str, tuple[int, ...]]] = [("player", (n,))]
        if iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER:
            pieces.append(("own_cards", (52,)))
        if iig_obs_type.public_info:
            pieces += [("up_cards", (n, 52)), ("street", (5,)), ("chips", (n, 2))]
            if iig_obs_type.perfect_recall:
                pieces.append(("history", (_HISTORY, len(ACTIONS) + n)))
        self.tensor, self.dict = tensor_pieces(pieces)
        self.total = float(game.stack * n)

    def set_from(self, state: StudState, player: int) -> None:
        self.tensor.fill(0)
        hand, d = state.hand, self.dict
        d["player"][player] = 1
        if "own_cards" in d:
            for card in hand.cards[player]:
                if card is not None:
                    d["own_cards"][card] = 1
        if "up_cards" in d:
            for seat, ups in enumerate(hand.up_cards):
                d["up_cards"][seat, ups] = 1
            d["street"][hand.street - 3] = 1
            d["chips"][:, 0] = np.array(hand.contributions) / self.total
            d["chips"][:, 1] = np.array(hand.stacks) / self.total
        if "history" in d:
            for turn, (seat, action) in enumerate(state.actions[:_HISTORY]):
                d["history"][turn, action] = 1
                d["history"][turn, len(ACTIONS) + seat] = 1

    def string_from(self, state: StudState, player: int) -> str:
        hand, d = state.hand, self.dict
        pieces = [f"p{player}"]
        if "own_cards" in d:
            pieces.append(
                "cards " + " ".join(card_str(c) for c in hand.cards[player] if c is not None)
            )
        if "up_cards" in d:
            ups = ["/".join(card_str(c) for c in ups) or "-" for ups in hand.up_cards]
            pieces += [f"street {hand.street}", "up " + " ".join(ups),
                       "pot " + " ".join(map(str, hand.contributions))]  # fmt: skip
        if "history" in d:
            pieces.append("actions " + " ".join(f"{s}:{ACTIONS[a]}" for s, a in state.actions))
        return "; ".join(pieces)


for _game in GAMES:
    pyspiel.register_game(
        _game_type(_game), type(f"StudGame_{_game}", (StudGame,), {"game": _game})
    )

# The reduced deck for tabular CFR registers itself with these.
from studeval.envs import openspiel_mini  # noqa: E402

PARAMETERS[openspiel_mini.NAME] = openspiel_mini.DEFAULTS
