"""Writing a played :class:`~studeval.StudHand` as a room's text.

Each room's module gives its wording as :class:`Phrases`; :func:`write_hand` walks
the hand's events once for all of them. The writers are how the readers are tested
on hands we are free to publish: random play written out, read back, compared.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal

from studeval.cards import card_str
from studeval.engine import StudHand
from studeval.handinfo import HandInfo, hand_digits
from studeval.histories._text import SIGNS

__all__ = ["Phrases", "Table", "amount_text", "write_hand"]


@dataclass(frozen=True)
class Table:
    """What a room's text says beyond the play: names by seat, the room's seat
    numbers, the hand id, the table, the time, the money per chip and its sign.

    >>> Table(names=["Ann", "Bob"]).unit, Table(names=["Ann", "Bob"], sign="").sign
    (Decimal('0.01'), '')
    """

    names: Sequence[str]
    hand_id: int = 1
    table: str = "studeval"
    seat_numbers: Sequence[int] | None = None
    played_at: datetime.datetime = datetime.datetime(2026, 12, 2, 12, 0, 0)
    unit: Decimal = Decimal("0.01")
    sign: str = "$"
    hero: int | None = 0  # the seat whose down cards the text shows

    @classmethod
    def of(cls, info: HandInfo) -> Table:
        """The table that writes a hand of this record again, in any room's words: its
        players, seat numbers, table, time, chip, currency sign and hero. Rooms number
        their hands: a hand id that is not a whole number is written as 1.

        >>> from studeval.histories import EXAMPLE, read, room
        >>> stars = next(read(EXAMPLE))
        >>> text = room("Full Tilt Poker").write(stars.hand, Table.of(stars.info))
        >>> tilt = next(read(text))
        >>> tilt.site, tilt.hand_id, tilt.players == stars.players
        ('Full Tilt Poker', '20261202017', True)
        >>> tilt.collected == stars.collected, tilt.played_at == stars.played_at
        (True, True)
        """
        names = list(info.players)
        return cls(
            names=names, hand_id=hand_digits(info.hand_id or "") or 1,
            table=info.table or cls.table,
            seat_numbers=list(info.seats) if len(info.seats) == len(names) else None,
            played_at=info.played_at or cls.played_at, unit=info.unit,
            sign=SIGNS.get(info.currency or "", ""),
            hero=names.index(info.hero) if info.hero in names else None,
        )  # fmt: skip


@dataclass(frozen=True)
class Phrases:
    """One room's wording. Each template is ``str.format``-ed with ``name``,
    ``amount``, ``to``, ``by`` (over the level), ``added`` (what the action puts in),
    ``in_hand`` (what the player has bet in the hand, antes out), ``cards``, ``new``
    and ``all_in`` as they apply; ``deal_down_up`` with ``first`` and ``second`` (the
    down cards), ``deal_more`` with ``held`` (all the player's cards so far, another
    player's down cards written as ``hidden``), ``collect`` with ``seat``, ``pot`` and
    ``bet`` (what the player put in, an uncalled bet out) too, and ``show`` with
    ``seat``, ``stack`` (at the end) and ``net``. An empty template writes no line."""

    header: Callable[[StudHand, Table, Callable[[int], str]], list[str]]
    seat: str
    ante: str
    streets: dict[int, str]
    community: str
    deal_down_up: str  # the hero's 3rd street
    deal_up: str  # another seat's 3rd street
    deal_more: str  # 4th street on: the cards before, then the new one
    bring_in: str
    complete: str
    bet: str
    raise_: str
    call: str
    check: str
    fold: str
    all_in: str
    returned: str
    show: str
    muck: str
    collect: str
    showdown: str
    summary: str
    total: str
    # Winamax: no line for an uncalled bet (the bettor collects it), and the total
    # pot written is what was paid out, net of the rake.
    collects_returns: bool = False
    pot_after_rake: bool = False
    sign_after: bool = False  # 25€, not €25
    # Winning: what each player won is written in the summary, by seat number.
    collect_in_summary: bool = False
    # OnGame: the winners on one line ("{winners}": the collect lines joined by
    # ", "; with "{pot}" and "{rake}"), the cards shown beside the seats in the summary.
    collects_line: str | None = None
    shows_in_summary: bool = False
    returns_unwritten: bool = False  # Everleaf, OnGame: no line for an uncalled bet
    collects_all: bool = False  # Winning before 2019: a summary line for every player
    hidden: str = "??"  # a card not seen, in ``held``


def amount_text(chips: int, table: Table, sign_after: bool = False) -> str:
    """``chips`` as money in ``table``'s unit and sign.

    >>> amount_text(250, Table(names=[])), amount_text(250, Table(names=[], sign="€"), True)
    ('$2.50', '2.50€')
    """
    value = chips * table.unit
    digits = f"{value:.2f}" if table.unit < 1 else f"{int(value)}"
    return digits + table.sign if sign_after else table.sign + digits


def write_hand(hand: StudHand, table: Table, words: Phrases) -> str:
    """``hand`` (finished) as ``words`` write it."""
    if not hand.over or hand.result is None:
        raise ValueError("only a finished hand can be written")

    def money(chips: int) -> str:
        return amount_text(chips, table, sign_after=words.sign_after)

    names = list(table.names)
    numbers = list(table.seat_numbers or range(1, hand.seats + 1))
    lines = words.header(hand, table, money)
    for seat in range(hand.seats):
        lines.append(words.seat.format(seat=numbers[seat], name=names[seat],
                                       stack=money(hand.starting_stacks[seat])))  # fmt: skip
    stacks = list(hand.starting_stacks)
    cards: list[list[int | None]] = [[] for _ in range(hand.seats)]
    level, street, showdown = 0, 0, False
    street_total = [0] * hand.seats
    in_hand = [0] * hand.seats  # each seat's bets, antes out
    shown: list[str] = []  # show lines for the summary
    result = hand.result
    for event in hand.events:
        who = event.seat
        name = names[who] if who is not None else ""
        stacks_after = stacks[who] - event.amount if who is not None else 0
        all_in = words.all_in if who is not None and event.amount and stacks_after == 0 else ""
        if who is not None:
            stacks[who] = stacks_after
        kind = event.kind
        if kind == "ante":
            lines.append(words.ante.format(name=name, amount=money(event.amount), all_in=all_in))
            continue
        if event.street != street and kind in ("deal", "community"):
            street, level, street_total = event.street, 0, [0] * hand.seats
            if kind == "community":
                lines.append(words.community.format(card=_text(event.cards[:1])))
            else:
                lines.append(words.streets[street])
        if kind == "community":
            for s in range(hand.seats):
                if not hand.folded[s] and len(cards[s]) == 6:
                    cards[s].append(event.cards[0])
            continue
        if kind == "deal":
            assert who is not None
            before = list(cards[who])
            cards[who].extend(event.cards)
            shown_before = _visible(before, who == table.hero)
            if street == 3:
                if who == table.hero:
                    downs, up = _text(event.cards[:2]), _text(event.cards[2:])
                    lines.append(words.deal_down_up.format(
                        name=name, cards=downs, new=up, first=_text(event.cards[:1]),
                        second=_text(event.cards[1:2])))  # fmt: skip
                else:
                    lines.append(words.deal_up.format(name=name, new=_text(event.cards[2:])))
            elif street < 7 or who == table.hero:
                held = " ".join(card_str(c) if c is not None and (who == table.hero or 2 <= i <= 5)
                                else words.hidden for i, c in enumerate(cards[who]))  # fmt: skip
                lines.append(words.deal_more.format(name=name, cards=_text(shown_before),
                                                    new=_text(event.cards), held=held))  # fmt: skip
            continue
        if kind in ("show", "muck") and not showdown:
            showdown = True
            lines.extend(_returns(hand, names, words, money))
            lines.append(words.showdown)
        if kind == "show":
            assert who is not None
            cards[who] = list(event.cards)
            stack = hand.stacks[who]
            line = words.show.format(
                name=name,
                cards=_text(event.cards),
                seat=numbers[who],
                stack=money(stack),
                net=_signed(stack - hand.starting_stacks[who], money),
            )
            (shown if words.shows_in_summary else lines).append(line)
            continue
        if kind == "muck":
            lines.append(words.muck.format(name=name))
            continue
        assert who is not None
        to = event.to if event.to is not None else street_total[who]
        in_hand[who] += event.amount
        template = {"bring_in": words.bring_in, "complete": words.complete, "bet": words.bet,
                    "raise": words.raise_, "call": words.call, "check": words.check,
                    "fold": words.fold}[kind]  # fmt: skip
        lines.append(template.format(name=name, amount=money(event.amount), to=money(to),
                                     by=money(to - level), added=money(event.amount),
                                     in_hand=money(in_hand[who]), all_in=all_in))  # fmt: skip
        if event.to is not None:
            street_total[who] = event.to
            level = max(level, event.to)
    if not showdown:
        lines.extend(_returns(hand, names, words, money))
    pot = sum(result.payouts) - (0 if words.collects_returns else sum(result.returned))
    pot += 0 if words.pot_after_rake else result.rake
    collects = []
    for seat in range(hand.seats):
        won = result.payouts[seat] - (0 if words.collects_returns else result.returned[seat])
        if won or words.collects_all:
            bet = hand.contributions[seat] - result.returned[seat]
            collects.append(words.collect.format(name=names[seat], amount=money(won),
                                                 seat=numbers[seat], pot=money(pot),
                                                 bet=money(bet)))  # fmt: skip
    if words.collects_line is not None:  # also for a pot the rake took whole
        collects = [words.collects_line.format(pot=money(pot), winners=", ".join(collects),
                                               rake=money(result.rake))]  # fmt: skip
    lines += [] if words.collect_in_summary else collects
    lines.append(words.summary)
    lines.append(words.total.format(pot=money(pot), rake=money(result.rake)))
    lines += collects if words.collect_in_summary else []
    lines += shown
    return "\n".join(line for line in lines if line) + "\n"


def _returns(hand: StudHand, names: list[str], words: Phrases,
             money: Callable[[int], str]) -> list[str]:  # fmt: skip
    result = hand.result
    assert result is not None
    if words.collects_returns or words.returns_unwritten:
        return []
    return [words.returned.format(name=names[s], amount=money(chips))
            for s, chips in enumerate(result.returned) if chips]  # fmt: skip


def _signed(chips: int, money: Callable[[int], str]) -> str:
    return ("+" if chips > 0 else "-" if chips < 0 else "") + money(abs(chips))


def _visible(cards: list[int | None], hero: bool) -> list[int | None]:
    """The cards a deal line repeats: all of the hero's, the up cards of others."""
    if hero:
        return cards
    return [c for i, c in enumerate(cards) if 2 <= i <= 5]


def _text(cards: Sequence[int | None]) -> str:
    return " ".join(card_str(c) if c is not None else "??" for c in cards)
