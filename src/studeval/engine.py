"""A hand of fixed-limit stud, action by action: whose turn it is, what is legal.

:class:`StudHand` plays one hand from the antes to the settlement. It deals
(given cards, unknown ones, or from a seeded deck), knows every betting rule of
Robert's Rules of Poker for the structured stud games (the bring-in and its
completion, one bet and three raises with no cap heads-up, small and big bets,
the fourth-street open pair, all-ins for less than a bet), runs the showdown in
order and settles with :func:`studeval.settle`. Seats are clockwise from the
dealer's left.

>>> h = StudHand("stud", Stakes(ante=1, bring_in=2, small_bet=5, big_bet=10), [100, 100])
>>> h.deal(0, ["As", "Ad", "7c"]); h.deal(1, ["Ks", "Kd", "2c"])
>>> h.actor, h.legal().bring_in, h.legal().complete_to
(1, 2, (5,))
>>> h.act("bring_in"); h.act("fold")
>>> h.over, h.stacks
(True, [99, 101])
"""

from __future__ import annotations

import operator
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from studeval._seats import chip_count, seat_index, seat_list
from studeval.cards import to_codes
from studeval.errors import ChipError, DuplicateCardError, IllegalActionError, SeatError
from studeval.games import get_game
from studeval.houserules import HouseRules, house_rules
from studeval.rules import bring_in as find_bring_in
from studeval.rules import first_to_act, open_pair
from studeval.showdown import Settlement, settle, settle_uncontested

__all__ = ["Event", "Legal", "Stakes", "StudHand"]

ActionKind = Literal["fold", "check", "call", "bring_in", "complete", "bet", "raise"]
_KINDS = ("fold", "check", "call", "bring_in", "complete", "bet", "raise")
#: One bet and three raises a round.
_CAP = 4


@dataclass(frozen=True)
class Stakes:
    """The limits of a fixed-limit stud game, in chips.

    >>> Stakes(ante=1, bring_in=2, small_bet=5, big_bet=10)
    Stakes(ante=1, bring_in=2, small_bet=5, big_bet=10)
    >>> Stakes(ante=1, bring_in=6, small_bet=5, big_bet=10)
    Traceback (most recent call last):
    ...
    studeval.errors.ChipError: Stakes: bring_in 6 is more than the small bet 5
    """

    ante: int
    bring_in: int
    small_bet: int
    big_bet: int

    def __post_init__(self) -> None:
        for name in ("ante", "bring_in", "small_bet", "big_bet"):
            # Frozen: store the checked int (a numpy int becomes a plain one).
            object.__setattr__(self, name, chip_count(getattr(self, name), f"Stakes: {name}"))
        if self.small_bet < 1:
            raise ChipError("Stakes: small_bet must be at least 1")
        if self.bring_in > self.small_bet:
            raise ChipError(
                f"Stakes: bring_in {self.bring_in} is more than the small bet {self.small_bet}"
            )
        if self.big_bet < self.small_bet:
            raise ChipError(
                f"Stakes: big_bet {self.big_bet} is less than the small bet {self.small_bet}"
            )


@dataclass(frozen=True)
class Legal:
    """What the seat to act may do. Amounts ending in ``_to`` are the seat's total
    for the street after the action (every legal one); ``call`` is the chips it
    costs to call (all the seat has when that is less)."""

    fold: bool = False
    check: bool = False
    call: int | None = None
    bring_in: int | None = None
    complete_to: tuple[int, ...] = ()
    bet_to: tuple[int, ...] = ()
    raise_to: tuple[int, ...] = ()

    def kinds(self) -> list[str]:
        """The kinds of action allowed, in a fixed order.

        >>> Legal(fold=True, call=5, raise_to=(10,)).kinds()
        ['fold', 'call', 'raise']
        """
        out = []
        if self.fold:
            out.append("fold")
        if self.check:
            out.append("check")
        if self.call is not None:
            out.append("call")
        if self.bring_in is not None:
            out.append("bring_in")
        if self.complete_to:
            out.append("complete")
        if self.bet_to:
            out.append("bet")
        if self.raise_to:
            out.append("raise")
        return out


@dataclass(frozen=True)
class Event:
    """One thing that happened in the hand: ``kind`` is ``"ante"``, ``"deal"``,
    ``"community"``, an action kind, ``"show"`` or ``"muck"``; ``amount`` the chips
    it put in (antes and actions); ``to`` the seat's street total after a bet;
    ``cards`` the cards dealt or shown (``None`` for an unknown card)."""

    kind: str
    seat: int | None
    amount: int = 0
    to: int | None = None
    cards: tuple[int | None, ...] = ()
    street: int = 3


class StudHand:
    """One hand of fixed-limit stud; see the module text.

    ``stacks`` are the chips before the antes, which are posted at once (a stack
    shorter than the ante posts all of it). ``rake`` (the most the house takes from
    the main pot: a smaller pot pays what it holds, ``result.rake`` says what) and
    ``chip`` go to :func:`studeval.settle`.
    """

    def __init__(
        self,
        game: str,
        stakes: Stakes,
        stacks: Sequence[int],
        *,
        rules: HouseRules | str | None = None,
        rake: int = 0,
        chip: int = 1,
    ) -> None:
        self.game = get_game(game).name
        if not isinstance(stakes, Stakes):
            raise ChipError(f"stakes must be a Stakes; got {stakes!r}")
        self.stakes = stakes
        self.rules = house_rules(rules)
        self.rake = chip_count(rake, "rake")
        self.chip = chip_count(chip, "chip")
        if self.chip < 1:
            raise ChipError("chip is 0; the smallest chip in play is at least 1")
        listed = seat_list(stacks, "stacks")
        if not 2 <= len(listed) <= 8:
            raise SeatError(f"a stud hand has 2 to 8 seats; got {len(listed)}")
        n = len(listed)
        self.seats = n
        self.starting_stacks = [chip_count(s, f"stacks[{i}]") for i, s in enumerate(listed)]
        self.stacks = list(self.starting_stacks)
        self.contributions = [0] * n
        self.folded = [False] * n
        self.cards: list[list[int | None]] = [[] for _ in range(n)]
        self.up_cards: list[list[int]] = [[] for _ in range(n)]
        self.community: int | None = None
        self.events: list[Event] = []
        self.street = 3
        self.actor: int | None = None
        self.showdown = False
        self.over = False
        self.result: Settlement | None = None
        self._street_bets = [0] * n
        self._dealt = [False] * n
        self._deck: list[int] | None = None
        self._known: set[int] = set()
        self._shown = [False] * n
        self._mucked = [False] * n
        self._out = [False] * n  # folded or mucked
        self._show_order: list[int] = []
        self._last_aggressor: int | None = None
        self._first_actor: int | None = None
        self._round_aggressor: int | None = None
        self._open_pair_round = False
        self._legal: Legal | None = None  # legal() of the current state, once asked
        self._reset_round()
        for seat in range(n):
            ante = min(stakes.ante, self.stacks[seat])
            if ante:
                self._put(seat, ante)
                self.events.append(Event("ante", seat, ante))

    # ---- state helpers ---------------------------------------------------------------

    def _reset_round(self) -> None:
        self._level = 0  # the highest street total
        self._full_level = 0  # the last total reached by a full bet or raise
        self._bets = 0  # full bets and raises this street (a completion is the bet)
        self._uncapped = False
        self._big_seen = False  # 4th-street open pair: a big bet or raise was made
        self._acted_at: list[int | None] = [None] * self.seats
        self._street_bets = [0] * self.seats
        self._bring_in_due = False

    def _put(self, seat: int, chips: int) -> None:
        self.stacks[seat] -= chips
        self.contributions[seat] += chips

    def _in_hand(self, seat: int) -> bool:
        return not self._out[seat]

    def _can_act(self, seat: int) -> bool:
        return self._in_hand(seat) and self.stacks[seat] > 0

    def _live(self) -> list[int]:
        out = self._out
        return [s for s in range(self.seats) if not out[s]]

    def _unit(self) -> int:
        return self.stakes.small_bet if self.street <= 4 else self.stakes.big_bet

    def _open_pair(self) -> bool:
        if self.street != 4:
            return False
        boards = [self.up_cards[s] if self._in_hand(s) else None for s in range(self.seats)]
        return open_pair(boards, self.game, rules=self.rules)

    def _increments(self) -> tuple[int, ...]:
        """The sizes a bet or raise may have now."""
        if self._open_pair_round:
            big = self.stakes.big_bet
            return (big,) if self._big_seen else tuple(sorted({self.stakes.small_bet, big}))
        return (self._unit(),)

    # ---- dealing ------------------------------------------------------------------------

    def _cards_due(self) -> int:
        return 3 if self.street == 3 else 1

    def _waiting_for_cards(self) -> list[int]:
        return [s for s in self._live() if not self._dealt[s]]

    def deal(self, seat: int, cards: Sequence[object]) -> None:
        """Give ``seat`` its cards for the current street: on 3rd street three (down,
        down, up), on 4th-6th one up card, on 7th one down card. An unknown down card
        is ``None`` or ``"??"``."""
        if self.over or self.actor is not None or self.showdown:
            raise IllegalActionError(f"seat {seat}: no cards are due now (street {self.street})")
        seat = seat_index(seat, self.seats, "deal:")
        if not self._in_hand(seat) or self._dealt[seat]:
            raise IllegalActionError(f"seat {seat} is not due cards on street {self.street}")
        want = self._cards_due()
        if isinstance(cards, str):
            items: list[object] = list(cards.split())
        elif isinstance(cards, (list, tuple)):
            items = list(cards)
        else:
            raise IllegalActionError(f"seat {seat}: cards must be a list; got {cards!r}")
        if len(items) != want:
            raise IllegalActionError(
                f"seat {seat}: street {self.street} deals {want} card(s); got {len(items)}"
            )
        codes: list[int | None] = []
        for place, item in enumerate(items):
            down = self.street == 7 or (self.street == 3 and place < 2)
            if item is None or item == "??" or item == "?":
                if not down:
                    raise IllegalActionError(f"seat {seat}: an up card cannot be unknown")
                codes.append(None)
                continue
            known = item if type(item) is int and 0 <= item < 52 else to_codes([item])[0]
            if known in self._known or known in codes:
                raise DuplicateCardError(known, seat=seat, detail="already dealt")
            codes.append(known)
        self._give(seat, codes)
        if not self._waiting_for_cards():
            self._start_betting()

    def _give(self, seat: int, codes: list[int | None]) -> None:
        """Deal checked cards: the street's down and up cards to one seat."""
        up = self.street != 7
        for place, code in enumerate(codes):
            self.cards[seat].append(code)
            if code is not None:
                self._known.add(code)
                if up and (self.street != 3 or place == 2):
                    self.up_cards[seat].append(code)
        self._dealt[seat] = True
        self.events.append(Event("deal", seat, cards=tuple(codes), street=self.street))

    def deal_community(self, card: object) -> None:
        """Deal the seventh-street community card when the deck cannot give every
        live seat its own (the card is shared by all)."""
        if self.street != 7 or self.actor is not None or self.community is not None:
            raise IllegalActionError("a community card is dealt only on 7th street, once")
        code = to_codes([card])[0]
        if code in self._known:
            raise DuplicateCardError(code, detail="the community card is already dealt")
        self.community = code
        self._known.add(code)
        for seat in self._live():
            self._dealt[seat] = True
        self.events.append(Event("community", None, cards=(code,), street=7))
        self._start_betting()

    def deal_random(self, seed: int | None = None) -> None:
        """Deal every live seat the current street from what is left of the deck
        (seeded: the first call's ``seed`` shuffles it); the community card when the
        deck runs out on 7th street."""
        if self._deck is None:
            rest = [c for c in range(52) if c not in self._known]
            random.Random(seed).shuffle(rest)
            self._deck = rest
        deck = [c for c in self._deck if c not in self._known]
        waiting = self._waiting_for_cards()
        if self.street == 7 and len(deck) < len(waiting):
            self.deal_community(deck[0])
            return
        take = self._cards_due()
        for seat in waiting:
            cards, deck = deck[:take], deck[take:]
            self._give(seat, cards)  # type: ignore[arg-type]
        self._deck = deck
        if waiting:
            self._start_betting()

    # ---- betting ------------------------------------------------------------------------

    def _start_betting(self) -> None:
        self._legal = None
        self._reset_round()
        self._open_pair_round = self._open_pair()
        live = self._live()
        if self.street == 3:
            doors = [self.up_cards[s][0] if self._in_hand(s) else None for s in range(self.seats)]
            seat = find_bring_in(doors, self.game, rules=self.rules)
            self._first_actor = seat
            if self.stacks[seat] > 0:
                self._bring_in_due = self.stakes.bring_in > 0
                self.actor = seat
                if not self._bring_in_due:
                    self.actor = self._next_to_act(seat, include=True)
            else:
                self.actor = self._next_to_act(seat)
        else:
            boards = [self.up_cards[s] if self._in_hand(s) else None for s in range(self.seats)]
            all_in = [s for s in live if self.stacks[s] == 0]
            self._first_actor = first_to_act(boards, self.game, all_in=all_in, rules=self.rules)
            self.actor = self._first_actor
        if self.actor is not None and not self._betting_possible():
            self.actor = None
        if self.actor is None:
            self._end_round()

    def _betting_possible(self) -> bool:
        """More than one seat can still bet, or one can and owes a call."""
        able = [s for s in self._live() if self.stacks[s] > 0]
        if len(able) >= 2:
            return True
        return bool(able) and self._street_bets[able[0]] < self._level

    def _next_to_act(self, after: int, include: bool = False) -> int | None:
        """The next seat clockwise (from ``after``, or ``after`` itself with
        ``include``) that must still act this round."""
        for step in range(0 if include else 1, self.seats + 1):
            seat = (after + step) % self.seats
            if not self._can_act(seat):
                continue
            if self._acted_at[seat] is None or self._street_bets[seat] < self._level:
                return seat
        return None

    def _players_left(self) -> int:
        # Seats still able to bet: folded and all-in seats do not count.
        return sum(1 for s in range(self.seats) if self._can_act(s))

    def legal(self) -> Legal:
        """What the seat to act may do (nothing when no seat is to act).

        >>> h = StudHand("stud", Stakes(ante=0, bring_in=2, small_bet=5, big_bet=10), [50, 50])
        >>> h.deal(0, ["As", "Ad", "7c"]); h.deal(1, ["Ks", "Kd", "2c"])
        >>> h.act("complete", 5)
        >>> h.legal().kinds(), h.legal().call, h.legal().raise_to
        (['fold', 'call', 'raise'], 5, (10,))
        """
        if self._legal is not None:
            return self._legal
        self._legal = legal = self._compute_legal()
        return legal

    def _compute_legal(self) -> Legal:
        seat = self.actor
        if seat is None or self.showdown:
            return Legal()
        stack = self.stacks[seat]
        mine = self._street_bets[seat]
        most = mine + stack  # the seat's street total all-in
        if self._bring_in_due:
            complete = min(self.stakes.small_bet, most)
            return Legal(
                bring_in=min(self.stakes.bring_in, stack),
                complete_to=(complete,) if complete > min(self.stakes.bring_in, stack) else (),
            )
        owe = self._level - mine
        call = min(owe, stack) if owe > 0 else None
        check = owe <= 0
        acted = self._acted_at[seat]
        reopened = acted is None or acted < self._full_level
        may_raise = reopened and (self._bets < _CAP or self._uncapped) and stack > owe
        targets: tuple[int, ...] = ()
        if may_raise:
            wanted = sorted({self._full_level + inc for inc in self._increments()})
            wanted = [t for t in wanted if t > self._level] or [self._level + self._increments()[0]]
            capped = sorted({min(t, most) for t in wanted})
            targets = tuple(capped)
        complete_to: tuple[int, ...] = ()
        bet_to: tuple[int, ...] = ()
        raise_to: tuple[int, ...] = ()
        if targets:
            if self._full_level == 0 and self._level == 0:
                bet_to = targets
            elif self._full_level == 0:
                complete_to = targets  # the bring-in or a short all-in bet, completed
            else:
                raise_to = targets
        return Legal(
            fold=True, check=check, call=call, complete_to=complete_to, bet_to=bet_to,
            raise_to=raise_to,
        )  # fmt: skip

    def act(self, kind: str, to: int | None = None) -> None:
        """Do ``kind`` for the seat to act (``to``: its street total after a bet,
        bring-in, completion or raise; the smallest legal one when left out). An
        illegal action raises :class:`~studeval.errors.IllegalActionError` and changes
        nothing."""
        seat = self.actor
        if seat is None or self.showdown:
            raise IllegalActionError(f"{kind}: no seat is to act now")
        legal = self.legal()
        allowed = legal.kinds()
        if to is not None:
            if isinstance(to, bool) or not hasattr(type(to), "__index__"):
                raise IllegalActionError(f"seat {seat}: {kind} to {to!r}; a total is whole chips")
            to = operator.index(to)
        if kind not in _KINDS or kind not in allowed:
            raise IllegalActionError(
                f"seat {seat} cannot {kind} now; legal: {', '.join(allowed) or 'nothing'}"
            )
        mine = self._street_bets[seat]
        if kind == "fold":
            self.folded[seat] = True
            self._out[seat] = True
            self.events.append(Event("fold", seat, street=self.street))
        elif kind == "check":
            self._acted_at[seat] = self._full_level
            self.events.append(Event("check", seat, street=self.street))
        elif kind == "call":
            assert legal.call is not None
            self._pay(seat, legal.call)
            self._acted_at[seat] = self._full_level
            self.events.append(
                Event("call", seat, legal.call, mine + legal.call, street=self.street)
            )
        elif kind == "bring_in":
            assert legal.bring_in is not None
            if to is not None and to != legal.bring_in:
                raise IllegalActionError(
                    f"seat {seat} brings in {legal.bring_in}, not {to}; legal: {', '.join(allowed)}"
                )
            self._pay(seat, legal.bring_in)
            self._level = max(self._level, legal.bring_in)
            self._bring_in_due = False
            self._acted_at[seat] = self._full_level
            self.events.append(Event("bring_in", seat, legal.bring_in, legal.bring_in))
        else:
            options = {"complete": legal.complete_to, "bet": legal.bet_to, "raise": legal.raise_to}[
                kind
            ]
            target = options[0] if to is None else to
            if target not in options:
                raise IllegalActionError(
                    f"seat {seat} cannot {kind} to {to}; legal totals: "
                    f"{', '.join(map(str, options))}"
                )
            self._wager(seat, kind, target)
        self._advance(seat)

    def _pay(self, seat: int, chips: int) -> None:
        self._put(seat, chips)
        self._street_bets[seat] += chips

    def _wager(self, seat: int, kind: str, target: int) -> None:
        mine = self._street_bets[seat]
        increment = target - self._full_level
        unit = min(self._increments())
        full = 2 * increment >= unit  # half a bet or more counts as a full bet
        self._bring_in_due = False  # a completion is the bring-in's alternative
        if full and self._bets == _CAP - 1 and self._players_left() <= 2:
            # Two players left before the third raise: no cap (Robert's Rules).
            self._uncapped = True
        self._pay(seat, target - mine)
        if full:
            self._bets += 1
            self._full_level = target
            self._last_aggressor = seat
            if self._open_pair_round and increment >= self.stakes.big_bet:
                self._big_seen = True
        self._level = max(self._level, target)
        self._acted_at[seat] = self._full_level
        self.events.append(Event(kind, seat, target - mine, target, street=self.street))

    def _advance(self, seat: int) -> None:
        self._legal = None
        live = self._live()
        if len(live) == 1:
            self.actor = None
            self._finish_by_folds(live[0])
            return
        nxt = self._next_to_act(seat)
        if nxt is not None and not self._betting_possible():
            nxt = None
        self.actor = nxt
        if nxt is None:
            self._end_round()

    def _end_round(self) -> None:
        if self.over:
            return
        live = self._live()
        if len(live) == 1:
            self._finish_by_folds(live[0])
            return
        self._round_aggressor = self._last_aggressor
        if self.street == 7:
            self._start_showdown()
            return
        self.street += 1
        self._dealt = [False] * self.seats
        self._last_aggressor = None
        self.actor = None

    # ---- the end ------------------------------------------------------------------------

    def _finish_by_folds(self, winner: int) -> None:
        result = settle_uncontested(
            self.contributions, winner, self.game, rake=self.rake, chip=self.chip,
            rake_at_most=True,
        )  # fmt: skip
        self._close(result)

    def _close(self, result: Settlement) -> None:
        self.result = result
        self.stacks = [s + p for s, p in zip(self.stacks, result.payouts, strict=True)]
        self.over = True
        self.showdown = False
        self.actor = None

    def _start_showdown(self) -> None:
        live = self._live()
        first = self._round_aggressor if self._round_aggressor is not None else self._first_actor
        if first is None or first not in live:
            first = live[0]
        clockwise = ((first + k) % self.seats for k in range(self.seats))
        self._show_order = [s for s in clockwise if not self._out[s]]
        self.showdown = True
        self.actor = self._show_order[0]

    def _next_shower(self) -> None:
        remaining = [s for s in self._show_order if not self._shown[s] and not self._mucked[s]]
        live = self._live()
        if len(live) == 1 and not any(self._shown):
            self.actor = None
            self._finish_by_folds(live[0])
            return
        if not remaining:
            self._settle_showdown()
            return
        self.actor = remaining[0]

    def show(self, cards: Sequence[object] | None = None) -> None:
        """The seat to act at showdown shows its hand (``cards``: its down cards in
        deal order, needed when they were dealt unknown)."""
        seat = self.actor
        if not self.showdown or seat is None:
            raise IllegalActionError("show: it is not the showdown")
        down_places = [i for i in range(len(self.cards[seat])) if i < 2 or i == 6]
        if cards is not None:
            items = list(cards) if not isinstance(cards, str) else cards.split()
            if len(items) != len(down_places):
                raise IllegalActionError(
                    f"seat {seat} shows {len(down_places)} down cards; got {len(items)}"
                )
            codes = list(to_codes(items))
            for place, code in zip(down_places, codes, strict=True):
                old = self.cards[seat][place]
                if old is not None and old != code:
                    raise IllegalActionError(f"seat {seat} was dealt another card there")
                if old is None and code in self._known:
                    raise DuplicateCardError(code, seat=seat, detail="already dealt")
            for place, code in zip(down_places, codes, strict=True):
                if self.cards[seat][place] is None:
                    self.cards[seat][place] = code
                    self._known.add(code)
        if any(c is None for c in self.cards[seat]):
            raise IllegalActionError(f"seat {seat}: its unknown down cards must be shown")
        self._shown[seat] = True
        shown = tuple(self.cards[seat])
        self.events.append(Event("show", seat, cards=shown, street=self.street))
        self._next_shower()

    def muck(self) -> None:
        """The seat to act at showdown gives up the pot without showing."""
        seat = self.actor
        if not self.showdown or seat is None:
            raise IllegalActionError("muck: it is not the showdown")
        self._mucked[seat] = True
        self._out[seat] = True
        self.events.append(Event("muck", seat, street=self.street))
        self._next_shower()

    def _settle_showdown(self) -> None:
        hands: list[list[int] | None] = [None] * self.seats
        for seat in range(self.seats):
            if self._shown[seat]:
                hands[seat] = [c for c in self.cards[seat] if c is not None]
        result = settle(
            hands, self.contributions, self.game, community=self.community, rules=self.rules,
            rake=self.rake, chip=self.chip, rake_at_most=True,
        )  # fmt: skip
        self._close(result)
