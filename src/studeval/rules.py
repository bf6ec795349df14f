"""Stud action rules: who brings in, who acts first, and the fourth-street open pair.

Seats are listed clockwise starting at the dealer's left, so a seat's index is
its position in that list and "first clockwise from the dealer" means the
lowest index. ``None`` marks an empty or folded seat. Every choice on which
rulebooks differ lives in :class:`HouseRules`; the default is
:meth:`HouseRules.robert` (Robert's Rules of Poker, which most card rooms follow).

>>> bring_in(["Kd", "3c", "3s", None], "stud")
1
>>> bring_in(["Kd", "3c", "Ks", None], "razz")
2
>>> first_to_act([["Kc", "5d"], ["Ks", "5h"], None], "stud")
0
>>> first_to_act([["Kc", "5d"], ["Ks", "5h"], None], "stud", rules=HouseRules.wsop())
1
>>> open_pair([["9c", "9d"], ["As", "Kd"]], "stud")
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from studeval import _core
from studeval._seats import (
    CardLike,
    HandLike,
    check_distinct,
    codes_at,
    live_seats,
    parse_seats,
    seat_index,
    seat_list,
)
from studeval.errors import HandSizeError, InvalidCardError, OptionError, SeatError
from studeval.games import Game, card_key, get_game
from studeval.houserules import HouseRules, house_rules

__all__ = ["HouseRules", "bring_in", "first_to_act", "open_pair"]


def bring_in(
    door_cards: Sequence[CardLike | None], game: str, *, rules: HouseRules | str | None = None
) -> int:
    """Return the seat that must bring in on third street.

    ``door_cards`` holds each seat's one up card (a code or text) or ``None``.
    In ``stud`` and ``stud8`` the lowest door card brings in, ace high; in
    ``razz`` and ``stud_hilo_noq`` the highest, ace low (king highest). Door cards of
    the same rank are told apart by suit, clubs lowest and spades highest, or
    under ``HouseRules(bring_in_tie="position")`` by the seat nearest the
    dealer's left.

    >>> bring_in(["7h", "2d", "2c"], "stud")
    2
    >>> bring_in(["Ac", "Kh", "Ks"], "razz")
    2
    >>> bring_in(["Ac", "Kh", "Ks"], "razz", rules=HouseRules(bring_in_tie="position"))
    1
    >>> bring_in(["7h", "7h"], "stud")
    Traceback (most recent call last):
    ...
    studeval.errors.DuplicateCardError: duplicate card 7h at seat 1 (also at seat 0)
    """
    spec = get_game(game)
    house = house_rules(rules)
    doors: list[list[int] | None] = []
    for seat, card in enumerate(seat_list(door_cards, "door_cards")):
        if card is None:
            doors.append(None)
            continue
        # One card: text, a code, or another library's card object; never a list.
        if isinstance(card, bool) or (not isinstance(card, str) and isinstance(card, Iterable)):
            raise InvalidCardError(card, detail=f"at seat {seat}; a door card is one card")
        # A one-card list keeps parsing in one place; "As Kd" becomes two cards.
        codes = codes_at(card if isinstance(card, str) else [card], seat)
        if len(codes) != 1:
            raise HandSizeError(len(codes), "1 door card", seat=seat)
        doors.append(codes)
    check_distinct(doors)
    live = live_seats(doors, "bring_in")
    if not 2 <= len(live) <= 8:
        # A stud table deals two to eight players (eight need 56 cards, the last
        # from a community card): one door card brings in nothing.
        raise SeatError(
            f"bring_in: a stud hand has 2 to 8 players; door cards for {len(live)} seat"
            + ("" if len(live) == 1 else "s")
        )
    sign = 1 if spec.bring_in == "lowest" else -1

    def order(seat: int) -> tuple[int, int]:
        key = card_key(doors[seat][0], spec.card_order)  # type: ignore[index]
        if house.bring_in_tie == "position":
            # Rank only (key // 4); equal ranks fall to the lower seat index.
            return (sign * (key // 4), seat)
        return (sign * key, seat)

    return min(live, key=order)


def _board5_high_rank(cards: list[int]) -> int:
    """Five cards of a board (four up and the community card) in the high board's
    order, straights and flushes not counted: the counts of the ranks from the
    largest, then the ranks by count from the ace down; the lower the better.

    >>> _board5_high_rank([51, 50, 47, 0, 4]) < _board5_high_rank([47, 46, 51, 0, 4])  # AA > KK
    True
    >>> _board5_high_rank([28, 24, 20, 16, 12]) > _board5_high_rank([0, 1, 51, 47, 43])  # 9-5 < 22
    True
    """
    counts = [0] * 13
    for code in cards:
        counts[code // 4] += 1
    groups = sorted(((n, rank) for rank, n in enumerate(counts) if n), reverse=True)
    shape = [n for n, _ in groups] + [0] * (5 - len(groups))
    ranks = [rank for _, rank in groups] + [0] * (5 - len(groups))
    return -int("".join(map(str, shape)), 5) * 13**5 - int(
        sum(r * 13 ** (4 - i) for i, r in enumerate(ranks))
    )


def _board_order(
    spec: Game, house: HouseRules, boards: list[list[int] | None], community: int | None = None
) -> Callable[[int], tuple[int, tuple[int, ...], int]]:
    rank_of = _core.up_high_rank if spec.board == "high" else _core.up_low_rank
    if community is not None:  # each board of four and the community card: five cards
        if spec.board == "high":
            rank_of = lambda cards: _board5_high_rank([*cards, community])  # noqa: E731
        else:
            rank_of = lambda cards: _core.low_rank([*cards, community])  # noqa: E731

    def order(seat: int) -> tuple[int, tuple[int, ...], int]:
        cards = boards[seat]
        assert cards is not None
        rank = rank_of(cards)
        if house.action_tie == "position":
            return (rank, (), seat)
        # Equal boards differ only in suits: compare cards from the highest down
        # in the game's card order. A high board wants the higher card, a low
        # board the lower one (the mirror of the bring-in).
        keys = sorted((card_key(code, spec.card_order) for code in cards), reverse=True)
        suit_key = tuple(-k for k in keys) if spec.board == "high" else tuple(keys)
        return (rank, suit_key, seat)

    return order


def first_to_act(
    up_cards: Sequence[HandLike | None],
    game: str,
    *,
    all_in: Iterable[int] = (),
    rules: HouseRules | str | None = None,
    community: object = None,
) -> int | None:
    """Return the seat that starts the action on 4th to 7th street.

    ``up_cards`` holds each seat's up cards (1 to 4, the same count at every
    live seat) or ``None``. In ``stud`` and ``stud8`` the best poker hand
    showing acts first, in ``razz`` and ``stud_hilo_noq`` the best A-5 low showing;
    pairs, two pair, trips and quads count, straights and flushes never.
    Tied boards go to the first seat clockwise from the dealer, or under
    ``HouseRules(action_tie="suit")`` to the high card by suit (the low card by
    suit on a low board).

    Seats in ``all_in`` cannot act: when the best board is one of them the
    action starts with the next seat clockwise that can (WSOP live-action rule
    240), and the result is ``None`` when no seat can act.

    ``community``: the 7th-street community card, dealt when the deck runs out. It
    plays in every hand, and the best five-card board it makes with each seat's four
    up cards acts first (Robert's Rules: "the player who is now high using the common
    card"); there, a straight or a flush showing counts.

    >>> first_to_act([["Ah", "2c"], ["Kd", "Kc"], ["5s", "3d"]], "stud")
    1
    >>> first_to_act([["Ah", "2c"], ["Kd", "Kc"], ["5s", "3d"]], "razz")
    0
    >>> first_to_act([["Ah", "2c"], ["Kd", "Kc"], ["5s", "3d"]], "stud", all_in=[1])
    2
    >>> first_to_act([["Kh", "Qh", "7c", "3d"], ["Jc", "Jd", "4h", "2s"]], "stud",
    ...              community="Ks")
    0
    >>> first_to_act([["Ah", "2c"], ["Kd"]], "stud")
    Traceback (most recent call last):
    ...
    studeval.errors.HandSizeError: a hand of 1 cards at seat 1; expected 2 up cards, as at seat 0
    """
    spec = get_game(game)
    house = house_rules(rules)
    boards = parse_seats(up_cards, sizes=range(1, 5), expected="1 to 4 up cards", what="up_cards")
    live = live_seats(boards, "first_to_act")
    count = len(boards[live[0]])  # type: ignore[arg-type]
    for seat in live:
        size = len(boards[seat])  # type: ignore[arg-type]
        # Up-card ranks compare only between boards of the same size.
        if size != count:
            raise HandSizeError(size, f"{count} up cards, as at seat {live[0]}", seat=seat)
    stuck = _all_in_seats(all_in, boards)
    shared = None
    if community is not None:
        try:
            shared = parse_seats([[community]], sizes=range(1, 2), expected="one card",
                                 what="community")[0][0]  # type: ignore[index]  # fmt: skip
        except InvalidCardError:
            raise InvalidCardError(community, detail="the community card") from None
        if count != 4:
            raise HandSizeError(count, "4 up cards with a community card", seat=live[0])
        if any(shared in boards[seat] for seat in live):  # type: ignore[operator]
            raise OptionError(f"community={community!r} is also a seat's up card")
    best = min(live, key=_board_order(spec, house, boards, shared))
    if best not in stuck:
        return best
    n = len(boards)
    for step in range(1, n):
        seat = (best + step) % n
        if boards[seat] is not None and seat not in stuck:
            return seat
    return None


def _all_in_seats(all_in: Iterable[int], boards: list[list[int] | None]) -> set[int]:
    if isinstance(all_in, (str, bytes)) or not isinstance(all_in, Iterable):
        raise SeatError(f"all_in must be an iterable of seat indices; got {all_in!r}")
    seats: set[int] = set()
    for value in all_in:
        seat = seat_index(value, len(boards), "all_in")
        if boards[seat] is None:
            raise SeatError(f"all_in seat {seat} has no up cards (folded or empty)")
        seats.add(seat)
    return seats


def open_pair(
    up_cards: Sequence[HandLike | None], game: str, *, rules: HouseRules | str | None = None
) -> bool:
    """Return whether the big bet is allowed on fourth street.

    ``up_cards`` holds each seat's two fourth-street up cards or ``None``. Only
    ``stud`` has the rule: when any live seat shows a pair, any player may bet
    the big bet (Robert's Rules of Poker). ``HouseRules.wsop()``
    drops it, as WSOP tournaments do; Stud/8, Razz and Stud Hi/Lo never have it.

    >>> open_pair([["9c", "9d"], None, ["As", "Kd"]], "stud")
    True
    >>> open_pair([["9c", "9d"], None, ["As", "Kd"]], "stud", rules=HouseRules.wsop())
    False
    >>> open_pair([["9c", "9d"], ["As", "Kd"]], "razz")
    False
    >>> open_pair([["9c", "9d", "2h"]], "stud")
    Traceback (most recent call last):
    ...
    studeval.errors.HandSizeError: a hand of 3 cards at seat 0; expected 2 up cards (fourth street)
    """
    spec = get_game(game)
    house = house_rules(rules)
    boards = parse_seats(
        up_cards, sizes=(2,), expected="2 up cards (fourth street)", what="up_cards"
    )
    live = live_seats(boards, "open_pair")
    if not (spec.open_pair and house.open_pair_big_bet):
        return False
    # Two up cards make a pair exactly when their ranks (code // 4) match.
    return any(boards[s][0] // 4 == boards[s][1] // 4 for s in live)  # type: ignore[index]
