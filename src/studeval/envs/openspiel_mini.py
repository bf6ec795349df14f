"""A reduced stud for tabular CFR: the OpenSpiel game ``python_studeval_mini_stud``,
registered with pyspiel when this module (or :mod:`studeval.envs.openspiel`) is
imported.

The full games deal 52 cards over five streets: far too many deals for tabular CFR,
which walks every one. This game keeps stud's shape on a deck small enough to walk,
as Kuhn and Leduc poker do for hold'em:

* the deck: the top ``ranks`` ranks (default 3: queen, king, ace) in ``suits`` suits
  (default 2: clubs and diamonds), 6 cards;
* two players; each antes ``ante`` (1) and is dealt a down card and an up card;
* the lower up card (by rank, then by suit: clubs, diamonds, hearts, spades) brings
  in for ``bring_in`` (1) or completes to ``small_bet`` (2); a call of the bring-in
  ends the street;
* with ``streets`` 2 (the default is 1: one street) each player is then dealt a
  second up card, and the better up cards (a pair, then high cards; the first seat
  on a tie) act first: check or bet ``big_bet`` (4);
* a street allows a wager (the completion or a bet) and ``raises`` raises (1); a
  player may fold only when facing a wager; the stacks are deep (no all-in);
* at the showdown the best cards win: three of a kind, a pair, then high cards rank
  by rank; suits never break a tie, and a tie splits the pot.

The actions are the five of the full games (0 fold, 1 check or call, 2 bring in, 3
the small bet, 4 the big bet), each card a chance outcome by its card code; the
returns are the chips won or lost.

Tabular CFR walks the whole tree at every iteration, and each of this game's states
is Python: ``pyspiel.convert_to_cached_tree(game)`` keeps the tree in C++ after the
first walk. With the defaults (360 deals, 720 information states) ``cfr.CFRSolver``
on the cached tree takes about a second to build and a third of a second an
iteration; ``{"streets": 2}`` (22,320 information states) takes seconds an
iteration, and ``{"ranks": 2}`` (4 cards, 144) hundredths.

>>> import pyspiel
>>> game = pyspiel.load_game(NAME)
>>> state = game.new_initial_state()
>>> [card for card, _ in state.chance_outcomes()]  # Qc Qd Kc Kd Ac Ad
[40, 41, 44, 45, 48, 49]
>>> for card in (48, 41, 44, 40):  # down Ac and Qd, up Kc and Qc
...     state.apply_action(card)
>>> state.current_player(), state.legal_actions()  # the Qc brings in or completes
(1, [2, 3])
>>> state.apply_action(2)
>>> state.information_state_string(0)
'p0; cards Ac Kc; up Kc | Qc; actions bring_in'
"""

from __future__ import annotations

from collections import Counter
from typing import Any, NamedTuple

import numpy as np
import pyspiel

from studeval.cards import card_str
from studeval.envs._spiel import game_type, observation_kind, settings, tensor_pieces
from studeval.errors import IllegalActionError, OptionError
from studeval.tables import ACTIONS

__all__ = ["DEFAULTS", "NAME", "MiniStudGame", "MiniStudState"]

NAME = "python_studeval_mini_stud"
#: The parameters and their defaults.
DEFAULTS = {"ranks": 3, "suits": 2, "streets": 1, "ante": 1, "bring_in": 1, "small_bet": 2,
            "big_bet": 4, "raises": 1}  # fmt: skip
FOLD, CALL, BRING_IN, SMALL, BIG = range(5)


class MiniStudGame(pyspiel.Game):
    """The reduced stud (see the module text), for two players."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        p = settings(NAME, params, DEFAULTS)
        checks = [("ranks", 2 <= p["ranks"] <= 13, "2 to 13"), ("suits", 1 <= p["suits"] <= 4,
                   "1 to 4"), ("streets", p["streets"] in (1, 2), "1 or 2"),
                  ("ante", p["ante"] >= 0, "at least 0"), ("small_bet", p["small_bet"] >= 2,
                   "at least 2"), ("bring_in", 1 <= p["bring_in"] < p["small_bet"],
                   "1 to small_bet - 1"), ("big_bet", p["big_bet"] >= p["small_bet"],
                   "at least small_bet"), ("raises", 0 <= p["raises"] <= 8, "0 to 8")]  # fmt: skip
        for name, good, want in checks:
            if not good:
                raise OptionError(f"{NAME}: {name} must be {want}; got {p[name]}")
        if p["ranks"] * p["suits"] < 2 * (1 + p["streets"]):
            raise OptionError(f"{NAME}: ranks x suits is {p['ranks'] * p['suits']} cards; "
                              f"{p['streets']} streets deal {2 * (1 + p['streets'])}")  # fmt: skip
        deck = tuple(rank * 4 + suit for rank in range(13 - p["ranks"], 13)
                     for suit in range(p["suits"]))  # fmt: skip
        self.rules = _Rules(p["streets"], p["ante"], p["bring_in"], p["small_bet"],
                            p["big_bet"], p["raises"], deck)  # fmt: skip
        wagers = 1 + p["raises"]
        most = p["ante"] + p["small_bet"] * wagers + (p["streets"] - 1) * p["big_bet"] * wagers
        info = pyspiel.GameInfo(
            num_distinct_actions=len(ACTIONS), max_chance_outcomes=52, num_players=2,
            min_utility=-float(most), max_utility=float(most), utility_sum=0.0,
            max_game_length=2 * (1 + p["streets"]) + p["streets"] * (p["raises"] + 3),
        )  # fmt: skip
        super().__init__(game_type(NAME, "studeval mini stud (a reduced deck)", 2, DEFAULTS),
                         info, p)  # fmt: skip

    def new_initial_state(self) -> MiniStudState:
        return MiniStudState(self)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None,
        params: dict[str, Any] | None = None,
    ) -> MiniObserver:  # fmt: skip
        return MiniObserver(self, observation_kind(iig_obs_type, params))


class _Rules(NamedTuple):
    """A game's rules, shared by its states (a clone keeps the same)."""

    streets: int
    ante: int
    bring_in: int
    small_bet: int
    big_bet: int
    raises: int
    deck: tuple[int, ...]

    def __deepcopy__(self, memo: dict[int, Any]) -> _Rules:
        return self


def _strength(cards: list[int]) -> tuple[int, ...]:
    """Cards' strength: three of a kind, a pair, then high cards, rank by rank."""
    groups = sorted(((n, rank) for rank, n in Counter(c // 4 for c in cards).items()), reverse=True)
    return tuple(value for group in groups for value in group)


class MiniStudState(pyspiel.State):
    """A hand of the reduced stud: its cards, the street's bets and the actions."""

    def __init__(self, game: MiniStudGame) -> None:
        super().__init__(game)
        self.rules = game.rules
        ante = self.rules.ante
        self.cards: list[list[int]] = [[], []]  # each seat's: down first, then up
        self.put = [ante, ante]  # chips in the pot
        self.bets = [0, 0]  # this street's
        self.street = 0
        self.wagers = 0  # this street's completion or bet and raises
        self.actor = -1  # -1: a card to deal, or the hand is over
        self.folded = -1
        self.over = False
        self.actions: list[list[int]] = [[]]  # each street's

    def current_player(self) -> int:
        if self.over:
            return int(pyspiel.PlayerId.TERMINAL)
        return int(pyspiel.PlayerId.CHANCE) if self.actor < 0 else self.actor

    def _legal_actions(self, player: int) -> list[int]:
        me, street, cap = self.actor, self.street, 1 + self.rules.raises
        wager = SMALL if street == 0 else BIG
        if street == 0 and not self.actions[0]:
            return [BRING_IN, SMALL]
        if self.bets[1 - me] > self.bets[me]:
            return [FOLD, CALL] + ([wager] if self.wagers < cap else [])
        return [CALL] + ([wager] if self.wagers < cap else [])

    def chance_outcomes(self) -> list[tuple[int, float]]:
        dealt = set(self.cards[0] + self.cards[1])
        left = [card for card in self.rules.deck if card not in dealt]
        return [(card, 1.0 / len(left)) for card in left]

    def _apply_action(self, action: int) -> None:
        if self.over:
            raise IllegalActionError(f"action {action}: the hand is over")
        if self.actor < 0:
            self._deal(action)
            return
        me, legal = self.actor, self._legal_actions(self.actor)
        if action not in legal:
            name = ACTIONS[action] if 0 <= action < len(ACTIONS) else "no such action"
            allowed = ", ".join(f"{ACTIONS[a]} ({a})" for a in legal)
            raise IllegalActionError(f"player {me} cannot {name} ({action}) now; "
                                     f"allowed: {allowed}")  # fmt: skip
        bring_in, small, big = self.rules.bring_in, self.rules.small_bet, self.rules.big_bet
        other, facing = 1 - me, self.bets[1 - me] > self.bets[me]
        self.actions[self.street].append(action)
        if action == FOLD:
            self.folded, self.over, self.actor = me, True, -1
            return
        if action == CALL:
            self._bet(me, self.bets[other])
            if facing or len(self.actions[self.street]) > 1:  # a call, or check and check
                self._next_street()
            else:
                self.actor = other
            return
        if action == BRING_IN:
            self._bet(me, bring_in)
        else:
            self.wagers += 1
            step = small if action == SMALL else big
            first = self.street == 0 and self.wagers == 1  # the completion
            self._bet(me, small if first else self.bets[other] + step)
        self.actor = other

    def _bet(self, seat: int, to: int) -> None:
        self.put[seat] += to - self.bets[seat]
        self.bets[seat] = to

    def _deal(self, card: int) -> None:
        if card not in {c for c, _ in self.chance_outcomes()}:
            raise IllegalActionError(f"deal {card}: no such card is left to deal")
        seat = 0 if len(self.cards[0]) <= len(self.cards[1]) else 1
        self.cards[seat].append(card)
        if len(self.cards[1]) < self.street + 2:
            return
        if self.street == 0:  # the lower up card brings in
            self.actor = 0 if self.cards[0][1] < self.cards[1][1] else 1
        else:  # the better up cards act first
            shown = [_strength(self.cards[s][1:]) for s in (0, 1)]
            self.actor = 0 if shown[0] >= shown[1] else 1

    def _next_street(self) -> None:
        if self.street + 1 == self.rules.streets:
            self.over, self.actor = True, -1
            return
        self.street += 1
        self.bets, self.wagers, self.actor = [0, 0], 0, -1
        self.actions.append([])

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {card_str(action)}"
        return ACTIONS[action]

    def is_terminal(self) -> bool:
        return self.over

    def returns(self) -> list[float]:
        if not self.over:
            return [0.0, 0.0]
        if self.folded >= 0:
            loser = self.folded
        else:
            mine, theirs = _strength(self.cards[0]), _strength(self.cards[1])
            if mine == theirs:
                return [0.0, 0.0]  # a split: the chips in are equal at a showdown
            loser = 1 if mine > theirs else 0
        won = float(self.put[loser])
        return [-won, won] if loser == 0 else [won, -won]

    def __str__(self) -> str:
        seats = [" ".join(card_str(c) for c in cards) or "-" for cards in self.cards]
        return f"street {self.street}; " + " | ".join(seats) + f"; actions {self.actions}"


class MiniObserver:
    """Observations and information states: the player, its own cards, each player's
    up cards, the street, each player's chips in, and with perfect recall each
    street's actions (one-hot)."""

    def __init__(self, game: MiniStudGame, iig_obs_type: pyspiel.IIGObservationType) -> None:
        streets, deck = game.rules.streets, len(game.rules.deck)
        self.index = {card: i for i, card in enumerate(game.rules.deck)}
        pieces: list[tuple[str, tuple[int, ...]]] = [("player", (2,))]
        if iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER:
            pieces.append(("own_cards", (deck,)))
        if iig_obs_type.public_info:
            pieces += [("up_cards", (2, deck)), ("street", (streets,)), ("chips", (2,))]
            if iig_obs_type.perfect_recall:
                pieces.append(("history", (streets, game.rules.raises + 3, len(ACTIONS))))
        self.tensor, self.dict = tensor_pieces(pieces)
        self.most = float(game.max_utility())

    def set_from(self, state: MiniStudState, player: int) -> None:
        self.tensor.fill(0)
        d = self.dict
        d["player"][player] = 1
        if "own_cards" in d:
            d["own_cards"][[self.index[c] for c in state.cards[player]]] = 1
        if "up_cards" in d:
            for seat in (0, 1):
                d["up_cards"][seat, [self.index[c] for c in state.cards[seat][1:]]] = 1
            d["street"][state.street] = 1
            d["chips"][:] = np.array(state.put) / self.most
        if "history" in d:
            for street, actions in enumerate(state.actions):
                d["history"][street, np.arange(len(actions)), actions] = 1

    def string_from(self, state: MiniStudState, player: int) -> str:
        d = self.dict
        pieces = [f"p{player}"]
        if "own_cards" in d:
            pieces.append("cards " + " ".join(card_str(c) for c in state.cards[player]))
        if "up_cards" in d:
            ups = [" ".join(card_str(c) for c in cards[1:]) or "-" for cards in state.cards]
            pieces.append("up " + " | ".join(ups))
            if "history" not in d:
                pieces.append(f"street {state.street + 1}; pot {state.put[0]} {state.put[1]}")
        if "history" in d:
            pieces.append("actions " + " / ".join(" ".join(ACTIONS[a] for a in actions)
                                                  for actions in state.actions))  # fmt: skip
        return "; ".join(pieces)


pyspiel.register_game(game_type(NAME, "studeval mini stud (a reduced deck)", 2, DEFAULTS),
                      MiniStudGame)  # fmt: skip
