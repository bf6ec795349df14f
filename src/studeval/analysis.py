"""Played hands analysed: each street's equities, and what an all-in was worth.

:func:`analyze` takes a finished :class:`~studeval.StudHand` (or a card room's
:class:`~studeval.histories.History`) and gives, for every street two or more seats
played, the pot before the street's betting and each live seat's share of it
(:func:`~studeval.equity`), from every card the hand ever shows or from what one
player saw. Where the betting ended with a seat all in, each seat's *expected*
chips are its equity in each pot (side pots apart, the rake out of the main pot first)
and *luck* is what it won less that: the "all-in adjusted" result of hand-history
trackers. A hand with no all-in has no luck: its expected chips are the chips paid.

>>> from studeval import Stakes, StudHand
>>> hand = StudHand("stud", Stakes(ante=0, bring_in=5, small_bet=10, big_bet=20), [10, 10])
>>> hand.deal(0, ["As", "Ad", "2c"]); hand.deal(1, ["Ks", "Kd", "3c"])
>>> hand.act("bring_in"); hand.act("complete", 10); hand.act("call")  # both all in
>>> for up, other in (("7h", "8d"), ("9s", "Tc"), ("4d", "Jd"), ("5h", "Kh")):
...     hand.deal(0, [up]); hand.deal(1, [other])
>>> hand.show(); hand.show()
>>> found = analyze(hand, method="exact")  # 3rd street: "auto" would sample
>>> found.all_in, found.net, [round(x, 2) for x in found.expected_net]  # kings made trips
(3, (-10, 10), [3.34, -3.34])
>>> [round(x, 2) for x in found.luck]
[-13.34, 13.34]
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from studeval.betting import EVENT_KINDS
from studeval.engine import StudHand
from studeval.equity_calculator import equity
from studeval.equity_runs import count_spot, sample_spot, share_of, std_error
from studeval.errors import OptionError
from studeval.handinfo import HandInfo
from studeval.pots import pot_layers

if TYPE_CHECKING:  # the rooms' package imports the engine, not this module
    from studeval._core import TableHand
    from studeval.histories._record import History

__all__ = [
    "EXACT_DEALS_HEADS_UP", "EXACT_DEALS_MULTIWAY", "SAMPLES", "STREET_EXACT_DEALS",
    "STREET_SAMPLES", "STREET_STEP", "STREET_TARGET_SE", "HandAnalysis",
    "StreetEquity",
    "analyze", "analyzed_seats", "went_to_showdown",
]  # fmt: skip

#: ``method="auto"`` counts a heads-up all-in's spot exactly when at most this many
#: deals are left (5th street on: under a millisecond); else it samples.
EXACT_DEALS_HEADS_UP = 1_000_000
#: ``method="auto"`` walks a multiway all-in's deals when at most this many are left
#: (three players on 6th street: under two milliseconds); else it samples.
EXACT_DEALS_MULTIWAY = 100_000
#: The Monte Carlo deals of an all-in's spot ``method="auto"`` does not count (chips
#: a tracker adds up): each share's standard error is at most 0.5 / sqrt(SAMPLES),
#: 0.0039 (0.39% of the pot).
SAMPLES = 16_384
#: The most Monte Carlo deals of a street's spot ``method="auto"`` does not count
#: (what a replayer shows, as whole percents): each share's standard error is then at
#: most 0.5 / sqrt(STREET_SAMPLES), 0.01 (1% of the pot), whatever the spot.
STREET_SAMPLES = 2_500
#: A street's spot is sampled STREET_STEP deals at a time, and stops as soon as every
#: share's estimated standard error is at most STREET_TARGET_SE: a share far from a
#: coin flip (most of a multiway pot's) needs fewer deals for the same precision.
#: Steps of 250 stop 5-11% sooner on average than steps of 625 (less overshoot past
#: the deal that reaches the target), and a first estimate from 250 deals is rarely
#: wrong by enough to matter: a share of 0.974, whose error at 250 deals is 0.0101,
#: wins all 250 and shows an error of 0 once in 700 spots.
STREET_STEP = 250
STREET_TARGET_SE = 0.01
#: ``method="auto"`` counts a street's spot exactly when at most this many deals are
#: left (6th street heads-up, every card known: 1,406 to 1,560; 7th street: one),
#: where counting costs no more than sampling it; an all-in's spot, whose expected
#: chips a tracker adds up, is counted up to EXACT_DEALS_HEADS_UP or
#: EXACT_DEALS_MULTIWAY deals.
STREET_EXACT_DEALS = 20_000

# The core's event codes the walk of a hand's log tells apart.
_DEAL, _FOLD = EVENT_KINDS.index("deal"), EVENT_KINDS.index("fold")
_DEALING = frozenset((_DEAL, EVENT_KINDS.index("community")))
_SHOWING = frozenset((EVENT_KINDS.index("show"), EVENT_KINDS.index("muck")))


@dataclass(frozen=True)
class StreetEquity:
    """One street as it began: the pot before its betting, and each live seat's
    share of the pot (``None`` for a seat out of the hand) with its standard error
    (0 when exact)."""

    street: int
    pot: int
    shares: tuple[float | None, ...]
    std_errors: tuple[float | None, ...]
    exact: bool


@dataclass(frozen=True)
class HandAnalysis:
    """What :func:`analyze` finds, seat by seat in the hand's order.

    ``players`` names the seats; ``streets`` the streets two or more seats were dealt
    (an all-in's later streets too, with no betting);
    ``all_in`` the street whose betting ended with a seat all in (``None``: no such
    street, or the hand was won by folds); ``expected`` each seat's expected chips
    from the pots at that point (the chips paid when there was no all-in); ``net``
    the chips each won or lost; ``expected_net`` (``expected`` less the chips paid; with
    no all-in, ``net`` as a float) and ``luck`` (``net`` less ``expected_net``: 0 with
    no all-in); ``rake`` the chips the house took; ``exact`` whether every
    equity behind it was counted exactly.
    """

    players: tuple[str, ...]
    streets: tuple[StreetEquity, ...]
    all_in: int | None
    expected: tuple[float, ...]
    net: tuple[int, ...]
    expected_net: tuple[float, ...]
    luck: tuple[float, ...]
    rake: int
    exact: bool
    showdown: bool


@dataclass
class _Spot:
    """The hand at one moment: the cards each seat had, who was still in."""

    street: int
    pot: int
    live: list[int]
    counts: list[int]  # cards each seat had been dealt
    folded_before: list[int]  # seats out by then


def _seat_names(hand: StudHand | History) -> tuple[StudHand, list[str]]:
    """The finished hand and its players' names (``Seat 0``... where the record
    names none)."""
    played = hand if isinstance(hand, StudHand) else getattr(hand, "hand", None)
    if not isinstance(played, StudHand) or not hasattr(hand, "info"):
        raise OptionError(f"analyze() takes a StudHand or a History; got {type(hand).__name__}")
    return played, HandInfo.of(hand).seat_names(played.seats)


def _viewer(viewpoint: object, names: list[str]) -> int | None:
    if viewpoint is None:
        return None
    if isinstance(viewpoint, str):
        if viewpoint not in names:
            raise OptionError(f"viewpoint {viewpoint!r} is not a player of this hand")
        return names.index(viewpoint)
    if isinstance(viewpoint, bool) or not isinstance(viewpoint, int):
        raise OptionError(f"viewpoint must be a player's name, a seat or None; got {viewpoint!r}")
    if not 0 <= viewpoint < len(names):
        raise OptionError(f"viewpoint seat {viewpoint} is not a seat of this hand")
    return viewpoint


def _spots(hand: StudHand | _TablePlayed) -> tuple[list[_Spot], int | None, list[int]]:
    """Each street once its cards are dealt (before its betting, if any), while two
    or more seats are in; the street whose betting ended with a seat all in; the
    seats still in at the end. (The core's log, read as it is: the hand's Event
    records would be made for this walk alone.)"""
    seats = hand.seats
    counts = [0] * seats
    paid = [0] * seats
    stacks = list(hand.starting_stacks)
    folded: list[int] = []
    spots: list[_Spot] = []
    all_in: int | None = None
    street = 0
    dealing = shown = False

    def dealt() -> None:  # the street's cards are all out, its betting not begun
        live = [s for s in range(seats) if s not in folded]
        if len(live) >= 2:
            spots.append(_Spot(street, sum(paid), live, list(counts), list(folded)))

    for event in hand._core.events(0):
        kind, seat = event.kind, event.seat  # seat -1: none
        if kind in _DEALING:
            if event.street != street:  # a new street: the last one's betting is over
                if dealing:  # a street nobody bet on (a seat was all in)
                    dealt()
                if all_in is None and street:  # (all in on an ante: no betting at all)
                    all_in = _all_in_after(street, stacks, folded, seats)
                dealing, street = True, event.street
            if kind == _DEAL and seat >= 0:
                counts[seat] += len(event.cards)
            continue
        if dealing:
            dealing = False
            dealt()
        if kind in _SHOWING:
            shown = True
        elif seat >= 0:
            paid[seat] += event.amount
            stacks[seat] -= event.amount
            if kind == _FOLD:
                folded.append(seat)
    if dealing:
        dealt()
    if all_in is None and shown:
        all_in = _all_in_after(street, stacks, folded, seats)
    live = [s for s in range(seats) if s not in folded]
    return spots, all_in, live


def _all_in_after(street: int, stacks: list[int], folded: list[int], seats: int) -> int | None:
    """``street`` when its betting ended with a live seat all in and no two live
    seats left to bet."""
    live = [s for s in range(seats) if s not in folded]
    if len(live) < 2:
        return None
    with_chips = [s for s in live if stacks[s] > 0]
    return street if len(with_chips) <= 1 and len(with_chips) < len(live) else None


def _cards(cards: list[list[int | None]], seat: int, count: int,
           viewer: int | None) -> list[object]:  # fmt: skip
    """What is known of ``seat``'s first ``count`` cards: every card the hand shows
    (``viewer`` None), or what ``viewer`` saw (its own cards, others' up cards)."""
    if viewer is None or viewer == seat:
        return [card if card is not None else "??" for card in cards[seat][:count]]
    return [card if card is not None and 2 <= place <= 5 else "??"
            for place, card in enumerate(cards[seat][:count])]  # fmt: skip


def _shares(game: str, cards: list[list[int | None]], seats: Sequence[int], count: int,
            dead_seats: Sequence[int], viewer: int | None, method: str, seed: int | None,
            counts: Sequence[int], samples: int, target_se: float | None = None,
            community: bool = False,
            ) -> tuple[dict[int, float], dict[int, float], bool]:  # fmt: skip
    """Each of ``seats``' share of a pot they contend for with their first ``count``
    cards known, ``dead_seats``' cards out, and its standard error; and whether it was
    counted. ``community``: the hand's deck ran out, and its 7th street was one card
    for all, whoever else was dealt in (a side pot's players alone would not run it
    out)."""
    if len(seats) == 1:
        return {seats[0]: 1.0}, {seats[0]: 0.0}, True
    hands = [_cards(cards, s, count, viewer) for s in seats]
    dead: list[int | None] = []  # a code, or None for a card out but not known
    for s in dead_seats:
        dead += [c for c in _cards(cards, s, counts[s], viewer) if isinstance(c, int)]
    if community:
        # Cards out, not known (the other seats' and the folded seats' unseen cards,
        # drawn at random like the rest): as many as leave one card after each of these
        # seats' 6th, so that the core deals the 7th as one community card, as the hand did.
        held = [sum(isinstance(c, int) for c in cards_of) for cards_of in hands]
        unseen = 52 - sum(held) - len(dead)
        dead += [None] * (unseen - sum(6 - k for k in held) - 1)
    if method != "auto":
        result = equity(hands, game, dead=dead, method=method, seed=seed)
        shares = {s: p.share for s, p in zip(seats, result.players, strict=True)}
        errors = {s: p.std_error for s, p in zip(seats, result.players, strict=True)}
        return shares, errors, result.exact
    # A replayed hand's cards are a stud deal already: counted or sampled without
    # equity() reading them again (its deals, its figures; most of a small spot's time).
    known = [[c for c in held if isinstance(c, int)] for held in hands]
    # A street's spot (the one sampled to a target) counts only the few deals that
    # cost no more than its sampling would; an all-in's, up to the larger thresholds.
    exact = _cheap([len(k) for k in known], len(dead), dead.count(None),
                   STREET_EXACT_DEALS if target_se is not None else None)  # fmt: skip
    if exact:
        sums = count_spot(game, known, dead)
    else:
        if seed is None:  # the same hand gives the same figures, run after run
            seed = zlib.crc32(repr((game, hands, dead)).encode())
        sums = sample_spot(game, known, dead, samples, seed, target_se=target_se,
                           step=STREET_STEP)  # fmt: skip
    return ({s: share_of(sums, i) for i, s in enumerate(seats)},
            {s: 0.0 if exact else std_error(sums, i) for i, s in enumerate(seats)},
            exact)  # fmt: skip


def _cheap(known: list[int], dead: int, unknown: int = 0, most: int | None = None) -> bool:
    """Whether the deals left are few enough to count, with ``known`` cards of each
    hand and ``dead`` cards out (``unknown`` of them not known, which only leave less
    room in the deck): at most ``most``, or by default EXACT_DEALS_HEADS_UP or
    EXACT_DEALS_MULTIWAY. Where the deck runs out, each hand's cards to 6th street
    and one community card, as the core deals them.

    >>> _cheap([6] * 8, 0)  # eight players on 6th street: 4 cards left, one for all
    True
    """
    unseen = 52 - sum(known) - dead + unknown  # what the core deals from
    own = 7 if sum(7 - k for k in known) <= unseen - unknown else 6
    deals = 1
    for k in known:
        need = own - k
        if need < 0 or need > unseen:
            return False
        deals *= math.comb(unseen, need)
        unseen -= need
    if own == 6:  # the community card
        if unseen < 1:
            return False
        deals *= unseen
    if most is None:
        most = EXACT_DEALS_HEADS_UP if len(known) == 2 else EXACT_DEALS_MULTIWAY
    return deals <= most


def analyze(
    hand: StudHand | History,
    *,
    viewpoint: object = None,
    method: str = "auto",
    seed: int | None = None,
) -> HandAnalysis:
    """Each street's equities and the all-in adjusted result of a finished hand.

    ``hand`` is a :class:`~studeval.StudHand` or a :class:`~studeval.histories.History`.
    ``viewpoint`` ``None`` uses every card the hand ever shows; a player's name or
    seat only what that player saw (its own cards, the others' up cards, the folded
    up cards). ``method`` and ``seed`` go to :func:`~studeval.equity`. ``"auto"``
    counts a spot exactly where that is cheap (a street's with at most
    :data:`STREET_EXACT_DEALS` deals left; an all-in's heads-up with at most
    :data:`EXACT_DEALS_HEADS_UP`, multiway with at most :data:`EXACT_DEALS_MULTIWAY`),
    else samples: a street's spot :data:`STREET_STEP` deals at a time until each
    share's estimated standard error is at most :data:`STREET_TARGET_SE` (0.01, what a
    replayer's whole percents need), at most :data:`STREET_SAMPLES` deals; an
    all-in's :data:`SAMPLES` (at most 0.0039: the expected chips a tracker adds up);
    each error is reported; with ``seed=None`` the seed of
    a sampled spot comes from its cards, so a hand gives the same figures every time
    it is analysed, from its room's text or from PHH); ``"exact"`` counts every spot,
    ``"mc"`` samples each to equity's default standard error (5e-4).

    >>> from studeval.play import random_hand
    >>> found = analyze(random_hand("razz", 3, seed=2, stack=1000), method="mc", seed=1)
    >>> found.all_in, found.luck  # deep stacks: nobody went all in
    (None, (0.0, 0.0, 0.0))
    >>> [s.street for s in found.streets][:1], round(sum(found.streets[0].shares), 9)
    ([3], 1.0)
    """
    return _analyze(hand, viewpoint, method, seed, with_streets=True)


def _analyze(hand: StudHand | History, viewpoint: object, method: str, seed: int | None,
             with_streets: bool) -> HandAnalysis:  # fmt: skip
    played, names = _seat_names(hand)
    if not played.over:
        raise OptionError("analyze() takes a finished hand")
    return _analysis(played, names, _viewer(viewpoint, names), method, seed, with_streets)


class _TablePlayed:
    """A core table's finished hand as :func:`_analysis` reads a StudHand: what the
    database's bulk reader has of an all-in hand, with no StudHand made."""

    def __init__(self, core: TableHand, game: str, starting_stacks: list[int]) -> None:
        self._core, self.game, self.starting_stacks = core, game, starting_stacks
        self.seats = len(starting_stacks)

    @property
    def cards(self) -> list[list[int | None]]:
        return [self._core.cards(seat) for seat in range(self.seats)]

    @property
    def community(self) -> int | None:
        card = self._core.community
        return None if card < 0 else card


def table_result(core: TableHand, game: str, starting_stacks: list[int],
                 ) -> tuple[int | None, bool, tuple[float, ...]]:  # fmt: skip
    """A finished hand on a core table (its ``game``'s name, and each seat's chips
    before it): :func:`analyzed_seats`' street of the all-in, whether its equities
    were counted exactly, and each seat's expected net, with no StudHand made.

    >>> from studeval.play import random_hand
    >>> hand = random_hand("razz", 3, seed=5)
    >>> found = table_result(hand._core, "razz", hand.starting_stacks)
    >>> found == (lambda a: (a.all_in, a.exact, a.expected_net))(analyzed_seats(hand)[2])
    True
    """
    played = _TablePlayed(core, game, starting_stacks)
    found = _analysis(played, [""] * played.seats, None, "auto", None, False)
    return found.all_in, found.exact, found.expected_net


def _analysis(played: StudHand | _TablePlayed, names: list[str], viewer: int | None,
              method: str, seed: int | None, with_streets: bool) -> HandAnalysis:  # fmt: skip
    """:func:`_analyze`'s work on a finished hand, seen by seat ``viewer`` (None:
    every card it shows)."""
    seats = played.seats
    core = played._core
    paid = core.contributions()
    # The core's payouts and rake are the Settlement's (no Settlement is made here).
    payouts, rake = core.payouts(), core.rake_taken
    net = tuple(payouts[s] - paid[s] for s in range(seats))
    # With no street's equity asked for and no seat's whole stack paid, there is no
    # all-in to find: the hand is not walked (a tracker's rows at the speed of reading).
    walk = with_streets or any(p >= s for p, s in zip(paid, played.starting_stacks, strict=True))
    spots, all_in, live_at_end = _spots(played) if walk else ([], None, [])
    cards = played.cards if spots or all_in is not None else []
    exact = True
    streets = []
    for spot in spots if with_streets else ():
        if spot.street == 7 and played.community is not None:
            continue  # the community card is shared: no per-seat seventh card to count
        count = spot.counts[spot.live[0]]
        shares, errors, was_exact = _shares(played.game, cards, spot.live, count,
                                            spot.folded_before, viewer, method, seed,
                                            spot.counts, STREET_SAMPLES,
                                            STREET_TARGET_SE)  # fmt: skip
        exact = exact and was_exact
        by_seat = tuple(shares.get(s) for s in range(seats))
        errors_by_seat = tuple(errors.get(s) for s in range(seats))
        streets.append(StreetEquity(spot.street, spot.pot, by_seat, errors_by_seat, was_exact))
    expected: list[float] = [float(x) for x in payouts]
    showdown = went_to_showdown(core)
    if all_in is not None and not (all_in == 7 and played.community is not None):
        count = all_in  # the cards each seat had then
        layers, returned = pot_layers(paid, live_at_end)
        # The rake the hand took, from the main pot and on into the next ones: a
        # seat that mucked at the showdown (live here, out of the core's pots) can
        # have made the pot the core took it from larger than this main pot.
        left = rake
        for place, (amount, eligible) in enumerate(layers):
            taken = min(amount, left)
            layers[place], left = (amount - taken, eligible), left - taken
        folded = [s for s in range(seats) if s not in live_at_end]
        counts = [min(len(cards[s]), count) for s in range(seats)]  # as at the all-in
        expected = [float(r) for r in returned]
        cache: dict[tuple[int, ...], dict[int, float]] = {}
        for amount, eligible in layers:
            if eligible not in cache:
                others = [s for s in live_at_end if s not in eligible]
                shares, _, was_exact = _shares(played.game, cards, eligible, count,
                                               [*folded, *others], viewer, method, seed,
                                               counts, SAMPLES,
                                               community=played.community is not None)  # fmt: skip
                exact = exact and was_exact
                cache[eligible] = shares
            for seat, share in cache[eligible].items():
                expected[seat] += share * amount
    else:
        all_in = None
    if all_in is None:  # the result is the payouts: as a hand with no stack all in (the
        # net rounded once, no luck, beyond 2**53 chips too)
        expected_net = tuple(float(x) for x in net)
        luck = (0.0,) * seats
    else:
        expected_net = tuple(expected[s] - paid[s] for s in range(seats))
        luck = tuple(net[s] - expected_net[s] for s in range(seats))
    return HandAnalysis(
        players=tuple(names), streets=tuple(streets), all_in=all_in, expected=tuple(expected),
        net=net, expected_net=expected_net, luck=luck, rake=rake, exact=exact,
        showdown=showdown,
    )  # fmt: skip


def went_to_showdown(core: TableHand) -> bool:
    """Whether a finished hand (its core) went to a showdown: a seat showed, or
    mucked there (a seat out of the hand that did not fold).

    >>> from studeval.play import random_hand
    >>> hand = random_hand("razz", 2, seed=3)
    >>> went_to_showdown(hand._core) == any(e.kind == "show" for e in hand.events)
    True
    """
    shown, out, folded = core.shown(), core.out(), core.folded()
    return any(shown) or any(o and not f for o, f in zip(out, folded, strict=True))


def analyzed_seats(
    hand: StudHand | History, method: str = "auto", seed: int | None = None
) -> tuple[StudHand, list[str], HandAnalysis]:
    """The hand played, its players' names by seat, and its analysis without the
    street equities (what a tracker's rows need: net, expected net and luck).

    >>> from studeval.play import random_hand
    >>> played, names, found = analyzed_seats(random_hand("stud", 2, seed=1))
    >>> names, found.luck
    (['Seat 0', 'Seat 1'], (0.0, 0.0))
    """
    played, names = _seat_names(hand)
    return played, names, _analyze(hand, None, method, seed, with_streets=False)
