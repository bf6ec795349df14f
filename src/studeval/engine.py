"""A hand of fixed-limit stud, action by action: whose turn it is, what is legal.

:class:`StudHand` plays one hand from the antes to the settlement. It deals
(given cards, unknown ones, or from a seeded deck), knows every betting rule of
Robert's Rules of Poker for the structured stud games (the bring-in and its
completion, one bet and three raises with no cap heads-up, small and big bets,
the fourth-street open pair, all-ins for less than a bet), runs the showdown in
order and settles with :func:`studeval.settle`. Seats are clockwise from the
dealer's left.

The state machine runs in the C core (``se_hand`` in ``studeval.h``), so a hand
costs a few microseconds an action; this module checks every input, words
every refusal, keeps the game and house rules as data for the core, and builds
the Python values (:class:`Legal`, :class:`Event`, the settlement) from its state.

>>> h = StudHand("stud", Stakes(ante=1, bring_in=2, small_bet=5, big_bet=10), [100, 100])
>>> h.deal(0, ["As", "Ad", "7c"]); h.deal(1, ["Ks", "Kd", "2c"])
>>> h.actor, h.legal().bring_in, h.legal().complete_to
(1, 2, (5,))
>>> h.act("bring_in"); h.act("fold")
>>> h.over, h.stacks
(True, [99, 101])
"""

from __future__ import annotations

import copy
import operator
import random
from collections.abc import Sequence

from studeval import _core
from studeval._seats import check_whole_chips, chip_count, seat_index, seat_list
from studeval._tablerules import core_table_rules
from studeval.betting import ACTION_KINDS, EVENT_KINDS, Event, Legal, Stakes
from studeval.cards import to_codes
from studeval.errors import ChipError, DuplicateCardError, IllegalActionError, SeatError
from studeval.games import get_game
from studeval.handinfo import PhhFields
from studeval.houserules import HouseRules, house_rules
from studeval.pots import Settlement, settle_uncontested
from studeval.showdown import settle

__all__ = ["StudHand"]

#: The core's code of each kind of action.
_KIND_CODE = {kind: code for code, kind in enumerate(ACTION_KINDS)}
#: Every chip count of a table stays below this, so the core's sums cannot overflow.
MAX_CHIPS = _core.ENGINE_MAX_CHIPS


#: Legal values by the core's totals: few distinct ones occur at a table, and a
#: Legal is immutable, so hands share them.
_LEGAL_OF: dict[_core.LegalTotals, Legal] = {}
_LEGAL_MEMO_SIZE = 4096


def _legal_of(totals: _core.LegalTotals) -> Legal:
    legal = _LEGAL_OF.get(totals)
    if legal is None:
        if len(_LEGAL_OF) >= _LEGAL_MEMO_SIZE:
            _LEGAL_OF.clear()
        legal = _LEGAL_OF[totals] = Legal(
            fold=totals.fold, check=totals.check, call=totals.call, bring_in=totals.bring_in,
            complete_to=totals.complete_to, bet_to=totals.bet_to, raise_to=totals.raise_to,
        )  # fmt: skip
    return legal


class StudHand:
    """One hand of fixed-limit stud; see the module text.

    ``stacks`` are the chips before the antes, which are posted at once (a stack
    shorter than the ante posts all of it). ``rake`` (the most the house takes from
    the main pot: a smaller pot pays what it holds, ``result.rake`` says what) and
    ``chip`` go to :func:`studeval.settle`; the stakes, the stacks and the rake
    are whole numbers of ``chip``, and the table's chips stay below ``2**60``.
    """

    #: What a hand history says of the hand besides its play (names, hand number, venue,
    #: time, currency...): PHH's fields as read and written back (:mod:`studeval.phh`);
    #: a reader may set a :class:`~studeval.handinfo.HandInfo`, made them when read.
    info = PhhFields()

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
        self.seats = len(listed)
        if all(type(v) is int and v >= 0 for v in listed):  # the common case, quickly
            self.starting_stacks: list[int] = listed  # type: ignore[assignment]
        else:
            self.starting_stacks = [chip_count(v, f"stacks[{i}]") for i, v in enumerate(listed)]
        s = stakes
        if self.chip > 1:
            values = [(f"stacks[{i}]", v) for i, v in enumerate(self.starting_stacks)]
            values += [("Stakes: ante", s.ante), ("Stakes: bring_in", s.bring_in),
                       ("Stakes: small_bet", s.small_bet), ("Stakes: big_bet", s.big_bet),
                       ("rake", self.rake)]  # fmt: skip
            for what, value in values:
                check_whole_chips(value, self.chip, what)
        if max(sum(self.starting_stacks), s.ante, s.big_bet, self.rake) >= MAX_CHIPS:
            raise ChipError("a table's chips (the stacks, each stake, the rake) stay below 2**60")
        self._core = _core.TableHand(
            core_table_rules(self.game, self.rules, self.seats, s.ante, s.bring_in,
                             s.small_bet, s.big_bet, self.rake),
            self.starting_stacks,
        )  # fmt: skip
        self._legal: Legal | None = None  # legal() of the current state, once asked
        self._events: list[Event] = []
        self._result: Settlement | None = None

    @classmethod
    def from_events(
        cls,
        game: str,
        stakes: Stakes,
        stacks: Sequence[int],
        events: Sequence[Event],
        *,
        rules: HouseRules | str | None = None,
        rake: int = 0,
        chip: int = 1,
    ) -> StudHand:
        """A hand played again from an event log (another hand's :attr:`events`, or
        a log kept elsewhere), every deal, action and showdown step checked as it is
        replayed; the settlement is this hand's own.

        >>> h = StudHand("stud", Stakes(ante=0, bring_in=2, small_bet=5, big_bet=10), [50, 50])
        >>> h.deal(0, ["As", "Ad", "7c"]); h.deal(1, ["Ks", "Kd", "2c"]); h.act("bring_in")
        >>> again = StudHand.from_events("stud", h.stakes, [50, 50], h.events)
        >>> again.stacks == h.stacks, again.actor
        (True, 0)
        """
        hand = cls(game, stakes, stacks, rules=rules, rake=rake, chip=chip)
        for event in events:
            hand._replay(event)
        return hand

    # ---- copies and pickles --------------------------------------------------------------

    def __copy__(self) -> StudHand:
        """An independent copy of the hand (for a search that tries actions)."""
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        other.starting_stacks = list(self.starting_stacks)
        other._core = self._core.copy()
        other.info = dict(self.info)
        other._events = list(self._events)  # Events are immutable
        other._result = copy.deepcopy(self._result)
        return other

    def __deepcopy__(self, memo: dict[int, object]) -> StudHand:
        return self.__copy__()

    def __getstate__(self) -> dict[str, object]:
        # The core's state travels as the events that made it, replayed through the
        # checked calls on loading, and the rest of the shuffled deck.
        state = {k: v for k, v in self.__dict__.items()
                 if k not in ("_core", "_legal", "_events", "_result", "_info")}  # fmt: skip
        return {**state, "info": self.info, "events": self.events, "deck": self._core.deck()}

    def __setstate__(self, state: dict[str, object]) -> None:
        events: list[Event] = state["events"]  # type: ignore[assignment]
        deck: list[int] | None = state["deck"]  # type: ignore[assignment]
        self.__init__(  # type: ignore[misc]
            state["game"], state["stakes"], state["starting_stacks"], rules=state["rules"],
            rake=state["rake"], chip=state["chip"],
        )  # fmt: skip
        self.info = dict(state.get("info", {}))  # type: ignore[call-overload]
        for event in events:
            self._replay(event)
        if deck is not None:
            core = self._core
            self._done(core.set_deck([c for c in deck if not core.is_known(c)]), "the deck")

    def _replay(self, event: Event) -> None:
        kind, seat = event.kind, event.seat
        if kind == "ante":
            return  # posted when the hand was made
        if kind == "deal":
            assert seat is not None
            self.deal(seat, list(event.cards))
        elif kind == "community":
            self.deal_community(event.cards[0])
        elif kind == "show":
            self.show([c for i, c in enumerate(event.cards) if i < 2 or i == 6])
        elif kind == "muck":
            self.muck()
        else:
            self.act(kind, event.to if kind in ("bring_in", "complete", "bet", "raise") else None)

    # ---- the state, read from the core ------------------------------------------------

    @property
    def street(self) -> int:
        """The street being dealt or bet, 3 to 7."""
        return self._core.street

    @property
    def actor(self) -> int | None:
        """The seat to act (or to show at the showdown); ``None`` while the street
        waits for cards or when the hand is over."""
        seat = self._core.actor
        return None if seat < 0 else seat

    @property
    def showdown(self) -> bool:
        """The betting is over and :attr:`actor` shows or mucks."""
        return self._core.showdown

    @property
    def over(self) -> bool:
        """The hand is settled: :attr:`stacks` are the final stacks."""
        return self._core.over

    @property
    def stacks(self) -> list[int]:
        """Each seat's chips behind (the final stacks once the hand is over)."""
        return self._core.stacks()

    @property
    def contributions(self) -> list[int]:
        """The chips each seat has put in the pot, antes included."""
        return self._core.contributions()

    @property
    def folded(self) -> list[bool]:
        """Which seats have folded."""
        return self._core.folded()

    @property
    def cards(self) -> list[list[int | None]]:
        """Each seat's cards in deal order (``None`` for an unknown down card)."""
        core = self._core
        return [core.cards(seat) for seat in range(self.seats)]

    @property
    def up_cards(self) -> list[list[int]]:
        """Each seat's up cards in deal order."""
        core = self._core
        return [core.up_cards(seat) for seat in range(self.seats)]

    @property
    def community(self) -> int | None:
        """The community card, when the deck ran out on seventh street."""
        card = self._core.community
        return None if card < 0 else card

    @property
    def events(self) -> list[Event]:
        """Everything that happened, in order."""
        events = self._events
        if len(events) < self._core.events_count:
            for e in self._core.events(len(events)):
                events.append(
                    Event(EVENT_KINDS[e.kind], None if e.seat < 0 else e.seat, e.amount,
                          None if e.to < 0 else e.to, e.cards, e.street)
                )  # fmt: skip
        return events

    @property
    def result(self) -> Settlement | None:
        """The :class:`~studeval.Settlement` once the hand is over, else ``None``."""
        core = self._core
        if self._result is None and core.over:  # won uncontested, or a showdown the core settled
            self._result = result = self._settlement()
            if result.payouts != core.payouts():  # pragma: no cover - an internal check
                raise AssertionError(f"the core paid {core.payouts()}, not {result.payouts}")
        return self._result

    # ---- dealing ------------------------------------------------------------------------

    def deal(self, seat: int, cards: Sequence[object]) -> None:
        """Give ``seat`` its cards for the current street: on 3rd street three (down,
        down, up), on 4th-6th one up card, on 7th one down card. An unknown down card
        is ``None`` or ``"??"``."""
        core = self._core
        street = core.street
        if core.over or core.actor >= 0 or core.showdown:
            raise IllegalActionError(f"seat {seat}: no cards are due now (street {street})")
        seat = seat_index(seat, self.seats, "deal:")
        if core.out()[seat] or core.dealt()[seat]:
            raise IllegalActionError(f"seat {seat} is not due cards on street {street}")
        want = 3 if street == 3 else 1
        if isinstance(cards, str):
            items: list[object] = list(cards.split())
        elif isinstance(cards, (list, tuple)):
            items = list(cards)
        else:
            raise IllegalActionError(f"seat {seat}: cards must be a list; got {cards!r}")
        if len(items) != want:
            n = len(items)
            raise IllegalActionError(f"seat {seat}: street {street} deals {want} card(s); got {n}")
        codes: list[int | None] = []
        for place, item in enumerate(items):
            down = street == 7 or (street == 3 and place < 2)
            if item is None or item == "??" or item == "?":
                if not down:
                    raise IllegalActionError(f"seat {seat}: an up card cannot be unknown")
                codes.append(None)
                continue
            known = item if type(item) is int and 0 <= item < 52 else to_codes([item])[0]
            if not core.card_free(known, want) or known in codes:
                raise DuplicateCardError(known, seat=seat, detail="already dealt")
            codes.append(known)
        self._done(core.deal(seat, codes), f"deal to seat {seat}")

    def deal_community(self, card: object) -> None:
        """Deal the seventh-street community card when the deck cannot give every
        live seat its own (the card is shared by all)."""
        core = self._core
        if core.street != 7 or core.actor >= 0 or core.showdown or core.over:
            raise IllegalActionError("a community card is dealt only on 7th street, once")
        if core.community >= 0 or any(core.dealt()):
            raise IllegalActionError("a community card is dealt only on 7th street, once, "
                                     "instead of every seat's own seventh card")  # fmt: skip
        code = to_codes([card])[0]
        if core.is_known(code):
            raise DuplicateCardError(code, detail="the community card is already dealt")
        self._done(core.deal_community(code), "the community card")

    def deal_random(self, seed: int | None = None) -> None:
        """Deal every live seat the current street from what is left of the deck
        (seeded: the first call's ``seed``, an int, shuffles it); the community card
        when the deck runs out on 7th street."""
        core = self._core
        if core.over or core.actor >= 0 or core.showdown:
            raise IllegalActionError(f"no cards are due now (street {core.street})")
        if seed is None:
            deck_seed = random.getrandbits(64)
        elif isinstance(seed, bool) or not hasattr(type(seed), "__index__"):
            raise IllegalActionError(f"deal_random: seed must be an int or None; got {seed!r}")
        else:
            deck_seed = operator.index(seed) & 0xFFFF_FFFF_FFFF_FFFF  # any int: its low 64 bits
        self._done(core.deal_random(deck_seed), "deal_random")

    # ---- betting ------------------------------------------------------------------------

    def legal(self) -> Legal:
        """What the seat to act may do (nothing when no seat is to act).

        >>> h = StudHand("stud", Stakes(ante=0, bring_in=2, small_bet=5, big_bet=10), [50, 50])
        >>> h.deal(0, ["As", "Ad", "7c"]); h.deal(1, ["Ks", "Kd", "2c"])
        >>> h.act("complete", 5)
        >>> h.legal().kinds(), h.legal().call, h.legal().raise_to
        (['fold', 'call', 'raise'], 5, (10,))
        """
        legal = self._legal
        if legal is None:
            legal = self._legal = _legal_of(self._core.legal())
        return legal

    def act(self, kind: str, to: int | None = None) -> None:
        """Do ``kind`` for the seat to act (``to``: its street total after a bet,
        bring-in, completion or raise; the smallest legal one when left out). An
        illegal action raises :class:`~studeval.errors.IllegalActionError` and changes
        nothing."""
        legal = self._legal or self.legal()  # Legal() when no seat is to act
        totals = legal._sizes.get(kind) if type(kind) is str else None
        if totals is None:
            raise self._refusal(kind, legal)
        target = -1  # the core's "smallest legal total"
        if to is not None:
            if type(to) is not int:
                if isinstance(to, bool) or not hasattr(type(to), "__index__"):
                    raise IllegalActionError(
                        f"seat {self.actor}: {kind} to {to!r}; a total is whole chips"
                    )
                to = operator.index(to)
            if not totals:  # fold, check and call take no total: one given is a mistake
                raise IllegalActionError(f"seat {self.actor}: {kind} takes no total; got {to}")
            if to not in totals:
                raise self._refusal(kind, legal, to)
            target = to
        self._legal = None
        status = self._core.act(_KIND_CODE[kind], target)
        if status:
            self._done(status, f"seat {self.actor} {kind}")

    def table_actions(self) -> dict[int, tuple[str, int | None]]:
        """The actions of :class:`~studeval.Tables` (0 fold .. 4 the big bet) the seat to
        act may take, each as the ``(kind, to)`` it plays (``docs/tables.md``).

        >>> h = StudHand("stud", Stakes(ante=0, bring_in=2, small_bet=5, big_bet=10), [50, 50])
        >>> h.deal(0, ["As", "Ad", "7c"]); h.deal(1, ["Ks", "Kd", "2c"]); h.table_actions()
        {2: ('bring_in', 2), 3: ('complete', 5)}
        """
        choices = self._core.table_choices()
        return {a: (ACTION_KINDS[kind], choices.totals[a] if kind >= 3 else None)
                for a, kind in enumerate(choices.kinds) if choices.allowed[a]}  # fmt: skip

    def _refusal(self, kind: object, legal: Legal, to: int | None = None) -> IllegalActionError:
        """The error for an action ``legal`` does not offer, saying what it does."""
        seat = self.actor
        if seat is None or self.showdown:
            return IllegalActionError(f"{kind}: no seat is to act now")
        if to is None:
            allowed = ", ".join(legal.kinds()) or "nothing"
            return IllegalActionError(f"seat {seat} cannot {kind} now; legal: {allowed}")
        if kind == "bring_in":
            return IllegalActionError(
                f"seat {seat} brings in {legal.bring_in}, not {to}; "
                f"legal: {', '.join(legal.kinds())}"
            )
        totals = legal.totals(str(kind)) or ()
        return IllegalActionError(
            f"seat {seat} cannot {kind} to {to}; legal totals: {', '.join(map(str, totals))}"
        )

    # ---- the showdown -------------------------------------------------------------------

    def show(self, cards: Sequence[object] | None = None) -> None:
        """The seat to act at showdown shows its hand (``cards``: its down cards in
        deal order, needed when they were dealt unknown)."""
        core = self._core
        seat = core.actor
        if not core.showdown or seat < 0:
            raise IllegalActionError("show: it is not the showdown")
        dealt = core.cards(seat)
        down_places = [i for i in range(len(dealt)) if i < 2 or i == 6]
        codes: list[int] | None = None
        if cards is not None:
            items = list(cards) if not isinstance(cards, str) else cards.split()
            if len(items) != len(down_places):
                raise IllegalActionError(
                    f"seat {seat} shows {len(down_places)} down cards; got {len(items)}"
                )
            codes = list(to_codes(items))
            for place, code in zip(down_places, codes, strict=True):
                old = dealt[place]
                if old is not None and old != code:
                    raise IllegalActionError(f"seat {seat} was dealt another card there")
                if old is None and (core.is_known(code) or codes.count(code) > 1):
                    raise DuplicateCardError(code, seat=seat, detail="already dealt")
        elif any(c is None for c in dealt):
            raise IllegalActionError(f"seat {seat}: its unknown down cards must be shown")
        self._done(core.show(codes), f"seat {seat} shows")
        self._settle_showdown()

    def muck(self) -> None:
        """The seat to act at showdown gives up the pot without showing."""
        core = self._core
        seat = core.actor
        if not core.showdown or seat < 0:
            raise IllegalActionError("muck: it is not the showdown")
        self._done(core.muck(), f"seat {seat} mucks")
        self._settle_showdown()

    # ---- the end ------------------------------------------------------------------------

    def _done(self, status: int, what: str) -> None:
        """Check a core call's status; the checks above make refusals rare."""
        self._legal = None
        if status:
            _core.raise_for_status(status, f"street {self.street}: {what}")

    def _settlement(self) -> Settlement:
        """The hand's settlement from the core's state: won uncontested (one seat left
        and none shown), or at the showdown (the cards, who is out)."""
        core = self._core
        out = core.out()
        if out.count(False) == 1 and not any(core.shown()):
            return settle_uncontested(self.contributions, out.index(False), self.game,
                                      rake=self.rake, chip=self.chip,
                                      rake_at_most=True)  # fmt: skip
        hands = [None if out[seat] else core.cards(seat) for seat in range(self.seats)]
        community = core.community
        return settle(
            hands, self.contributions, self.game, community=None if community < 0 else community,
            rules=self.rules, rake=self.rake, chip=self.chip, rake_at_most=True,
        )  # fmt: skip

    def _settle_showdown(self) -> None:
        core = self._core
        if not core.settle_due:
            return
        result = self._settlement()
        if core.pay(result.payouts, result.rake) != 0:  # pragma: no cover
            raise AssertionError(f"the core refused the payouts {result.payouts}")
        self._result = result
