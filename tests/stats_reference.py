"""A plain-Python twin of the database's statistics: each hand's chances and deeds
counted from the engine's events, with none of the SQL, for the tests to compare
with ``Database.stats(counts=True)``. Written from ``docs/stats.md``'s words."""

from __future__ import annotations

import itertools
from collections import Counter

from studeval import StudHand

_DECISIONS = {"fold", "check", "call", "complete", "bet", "raise"}
_LEVELS = {"complete", "bet", "raise"}


def _rank(code: int) -> int:
    return code // 4 + 2  # 2..14, the ace 14


def _strength(code: int, game: str) -> int:
    rank = _rank(code)
    if game != "razz":
        return rank
    return 14 if rank == 14 else 15 - rank  # low is good: the ace best, the king worst


def hand_facts(hand: StudHand, names: list[str]) -> list[tuple[str, Counter[str]]]:
    """Each seat's player and its counts: ``<name>_chance`` and ``<name>`` for each
    statistic with a chance (1 or 0), and ``hands``."""
    seats, game = hand.seats, hand.game
    chance = [Counter() for _ in range(seats)]
    done = [Counter() for _ in range(seats)]

    def mark(seat: int, name: str, did: bool) -> None:
        chance[seat][name] = 1
        if did:
            done[seat][name] = 1

    cards = hand.cards
    doors = [_strength(cards[s][2], game) for s in range(seats)]  # type: ignore[arg-type]
    open_pair = [len(cards[s]) >= 4 and _rank(cards[s][2]) == _rank(cards[s][3])  # type: ignore[arg-type]
                 for s in range(seats)]  # fmt: skip
    folded: set[int] = set()
    bring_in_seat = None
    street = 0
    level = calls = folds = 0
    faced: set[int] = set()
    steal_seen = False
    opener = None
    lifted = hand.rules.heads_up_cap == "lifted"
    for event in hand.events:
        kind, seat = event.kind, event.seat
        if kind in ("deal", "community", "ante", "show", "muck") or seat is None:
            continue
        if event.street != street:
            street, level, calls, folds, faced, opener = event.street, 0, 0, 0, set(), None
        if kind == "bring_in":
            bring_in_seat = seat
            mark(seat, "complete", False)  # it might have completed instead
            continue
        assert kind in _DECISIONS, kind
        if street == 3:
            if kind in ("call", "complete", "bet", "raise"):
                done[seat]["vpip"] = 1
            if level == 0:
                mark(seat, "complete", kind in ("complete", "bet"))
                live_others = [s for s in range(seats) if s != seat and s not in folded]
                if calls == 0 and all(doors[seat] > doors[s] for s in live_others):
                    opened = kind in ("complete", "bet")  # bet: nobody brought in
                    mark(seat, "steal", opened)
                    steal_seen = steal_seen or opened
            else:
                capped = level >= 4 and not (lifted and seats - folds == 2)
                if not capped:
                    mark(seat, "raise", kind == "raise")
                if steal_seen and level == 1 and calls == 0:
                    name = ("fold_to_steal_bring_in" if seat == bring_in_seat
                            else "fold_to_steal_later")  # fmt: skip
                    mark(seat, name, kind == "fold")
                    mark(seat, "re_steal", kind == "raise")
        elif street == 4 and level == 0:
            mark(seat, "fourth_street_bet", kind == "bet")
            if open_pair[seat]:
                mark(seat, "open_pair_bet", kind == "bet")
        if street in (4, 5) and level >= 1 and seat not in faced:
            faced.add(seat)
            if street == 4:
                mark(seat, "fourth_street_fold", kind == "fold")
                if opener is not None and opener != seat and open_pair[opener]:
                    mark(seat, "fold_to_open_pair", kind == "fold")
            else:
                mark(seat, "fifth_street_fold", kind == "fold")
        if kind == "bet" and street == 4 and opener is None:
            opener = seat
        if kind in _LEVELS:
            level += 1
        elif kind == "call":
            calls += 1
        elif kind == "fold":
            folds += 1
            folded.add(seat)
    paid = hand.contributions
    payouts = hand.result.payouts  # type: ignore[union-attr]
    live = [s for s in range(seats) if not hand.folded[s]]
    won, whole = _showdown_levels(paid, payouts, live, hand.result.rake)  # type: ignore[union-attr]
    out = []
    for seat in range(seats):
        returned = max(0, paid[seat] - max(paid[s] for s in range(seats) if s != seat))
        collected = payouts[seat] - returned
        saw_fourth = len(cards[seat]) >= 4
        showdown = len(live) >= 2 and seat in live
        if saw_fourth:
            mark(seat, "went_to_showdown", showdown)
            mark(seat, "won_seeing_fourth", collected > 0)
        if showdown:
            mark(seat, "won_at_showdown", won[seat] > 0)
            if game == "stud8":
                mark(seat, "scoop", whole[seat] > 0 and won[seat] == whole[seat])
        chance[seat]["vpip"] = 1
        counts: Counter[str] = Counter(hands=1)
        for name, n in chance[seat].items():
            counts[f"{name}_chances"] += n
            counts[f"{name}_done"] += done[seat][name]
        out.append((names[seat], counts))
    return out


def _showdown_levels(paid: list[int], payouts: list[int], live: list[int],
                     rake: int) -> tuple[list[int], list[int]]:  # fmt: skip
    """Chip level by chip level (between the distinct amounts paid): a level is
    contested when two or more seats at the showdown paid up to it; chips of a level
    only one of them reached are that seat's alone. Each seat's chips won from the
    contested levels, and the chips of the contested levels it reached (less the
    rake, out of the lowest)."""
    seats = len(paid)
    matched = [min(p, max(paid[:s] + paid[s + 1 :])) for s, p in enumerate(paid)]
    alone = [0] * seats
    reached = [0] * seats
    bounds = sorted({0, *matched})
    for low, high in itertools.pairwise(bounds):
        chips = (high - low) * sum(1 for m in matched if m >= high)
        there = [s for s in live if matched[s] >= high]
        for s in there:
            if len(there) == 1:
                alone[s] += chips
            else:
                reached[s] += chips
    won = [payouts[s] - (paid[s] - matched[s]) - alone[s] if s in live else 0
           for s in range(seats)]  # fmt: skip
    return [max(0, w) for w in won], [r - rake if r else 0 for r in reached]


def twin_stats(hands: list[StudHand]) -> dict[str, Counter[str]]:
    """Every player's counts over ``hands`` (players named ``Seat N``)."""
    totals: dict[str, Counter[str]] = {}
    for hand in hands:
        names = [f"Seat {s}" for s in range(hand.seats)]
        for name, counts in hand_facts(hand, names):
            totals.setdefault(name, Counter()).update(counts)
    return totals
