"""Hand histories in the PHH format (the one pokerkit and the public PHH dataset use).

:func:`loads` replays a PHH record of fixed-limit stud (variants ``F7S`` stud,
``F7S/8`` stud hi/lo 8-or-better, ``FR`` razz) through :class:`StudHand`, so a
history that breaks a rule is an error naming the action; :func:`dumps` writes a
hand back. Seats are PHH's players ``p1``, ``p2``, ... in order (seat 0 is
``p1``). Unknown cards are ``??``. :func:`loads_all` and :func:`dumps_all` read and
write ``.phhs`` files, many hands in one.

Nothing is lost on the way: the standard fields that describe a hand (``players``,
``hand``, ``venue``, ``time``, ``currency`` and the others of :data:`INFO_FIELDS`) go
to and from :attr:`StudHand.info`; what PHH has no field for is written as fields of
our own, with the underscore PHH reserves for them: ``_rake``, ``_chip``, ``_unit``
(the money of a chip, as text: ``"0.01"`` for cents), ``_hand_id`` (a hand id that
PHH's whole-number ``hand`` would change: ``"000123"``, ``"A-17"``) and
``_house_rules``. ``finishing_stacks``, written for a finished hand, is checked on
reading. A record without ``_house_rules`` was written by another tool: it is played
under :meth:`HouseRules.pokerkit`, the readings of PHH's reference implementation.

>>> text = '''
... variant = "F7S"
... ante_trimming_status = true
... antes = [1, 1]
... bring_in = 2
... small_bet = 5
... big_bet = 10
... starting_stacks = [100, 100]
... actions = ["d dh p1 ????Kc", "d dh p2 ????2d", "p2 pb", "p1 cbr 5", "p2 f"]
... '''
>>> hand = loads(text)
>>> hand.over, hand.stacks
(True, [103, 97])
>>> print(dumps(hand).splitlines()[-3])
actions = ["d dh p1 ????Kc", "d dh p2 ????2d", "p2 pb", "p1 cbr 5", "p2 f"]
>>> dumps(hand).splitlines()[-2:]  # read under pokerkit's readings: no _house_rules
['finishing_stacks = [103, 97]', '_house_rules = "pokerkit"']
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable
from decimal import Decimal

from studeval.betting import Stakes
from studeval.cards import card_str, parse_card
from studeval.engine import StudHand
from studeval.errors import StudevalError
from studeval.handinfo import hand_digits, hand_number
from studeval.histories._phhtables import tables
from studeval.histories._phhwrite import actions, lone_winner, rules_value, toml
from studeval.houserules import HouseRules, house_rules

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib  # type: ignore[import-not-found, no-redef, unused-ignore]

__all__ = [
    "INFO_FIELDS", "PHHError", "dumps", "dumps_all", "hand_number", "loads", "loads_all",
    "money_unit", "read", "read_records",
]  # fmt: skip

#: PHH variant codes and our game names (PHH has no code for the no-qualifier game).
VARIANTS = {"F7S": "stud", "F7S/8": "stud8", "FR": "razz"}
_CODE_OF_GAME = {game: code for code, game in VARIANTS.items()}
#: The standard PHH fields about a hand (not its play) that loads keeps in
#: StudHand.info and dumps writes back, in the order PHH lists them.
INFO_FIELDS = (
    "author", "event", "url", "venue", "address", "city", "region", "postal_code",
    "country", "time", "time_zone", "day", "month", "year", "hand", "level", "seats",
    "seat_count", "table", "players", "winnings", "currency", "currency_symbol",
    "time_limit", "time_banks",
)  # fmt: skip
#: Our fields, for what PHH has none: the rake, the chip size, the house rules, the
#: money of a chip, and a hand id that is not a whole number as PHH's ``hand`` is.
_RAKE, _CHIP, _RULES, _UNIT, _HAND_ID = "_rake", "_chip", "_house_rules", "_unit", "_hand_id"
#: A ``_unit``'s text: ASCII digits, a point and more digits maybe.
_DECIMAL = re.compile(r"[0-9]{1,19}(\.[0-9]{1,19})?")
#: The most digits an amount may have: every chip count of a table is below 2**60.
_MAX_DIGITS = 19


class PHHError(StudevalError, ValueError):
    """A hand history that cannot be read or written: bad syntax, a field missing or
    of the wrong type, or an action the rules do not allow (named, with its place)."""


def _field(data: dict[str, object], name: str, kind: type) -> object:
    if name not in data:
        raise PHHError(f"the hand history has no {name!r} field")
    value = data[name]
    if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
        raise PHHError(f"{name} must be a whole number; got {value!r}")
    if kind is str and not isinstance(value, str):
        raise PHHError(f"{name} must be text; got {value!r}")
    if kind is list and not (isinstance(value, list) and value):
        raise PHHError(f"{name} must be a list; got {value!r}")
    return value


def _chips(values: object, name: str, count: int) -> list[int]:
    """A list of ``count`` whole, non-negative chip counts."""
    if not isinstance(values, list) or any(
        isinstance(v, bool) or not isinstance(v, int) or v < 0 for v in values
    ):
        raise PHHError(f"{name} must be a list of whole chip counts; got {values!r}")
    if len(values) != count:
        raise PHHError(f"{name} has {len(values)} entries for {count} players")
    return values


def _amount(text: str) -> int:
    """A chip amount of an action: ASCII digits only (Python's int() also reads
    full-width and other digits, which PHH does not have), never so long that it could
    not be a table's chips."""
    if not (text.isascii() and text.isdigit()) or len(text) > _MAX_DIGITS:
        raise PHHError(f"{text[:40]!r} is not a whole number of chips")
    return int(text)


def _cards(text: str) -> list[int | None]:
    """PHH's concatenated cards ("????Kc"), ``??`` for an unknown card."""
    if len(text) % 2:
        raise PHHError(f"cards {text!r} are not pairs of rank and suit")
    out: list[int | None] = []
    for at in range(0, len(text), 2):
        token = text[at : at + 2]
        out.append(None if token == "??" else parse_card(token))
    return out


def _seat(word: str, hand: StudHand) -> int:
    digits = word[1:]
    if not (word.startswith("p") and digits.isascii() and digits.isdigit() and len(digits) < 4):
        raise PHHError(f"{word[:40]!r} is not a player (p1, p2, ...)")
    seat = int(word[1:]) - 1
    if not 0 <= seat < hand.seats:
        raise PHHError(f"there is no player {word} at this table of {hand.seats}")
    return seat


def _fields(text: object, kind: str) -> dict[str, object]:
    """The fields of a PHH or PHHS text (TOML), or a PHHError saying why not."""
    if not isinstance(text, str):
        raise PHHError(f"a hand history is text (str); got {type(text).__name__}")
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise PHHError(f"not a {kind} (TOML) text: {err}") from None


def money_unit(hand: StudHand) -> Decimal:
    """The money one chip of ``hand`` is worth, as its record's ``_unit`` gives it
    (``0.01`` for cents); 1, the chips being the money, when it gives none.

    >>> money_unit(loads(PHH_EXAMPLE + '_unit = "0.25"')), money_unit(loads(PHH_EXAMPLE))
    (Decimal('0.25'), Decimal('1'))
    """
    value = hand.info.get(_UNIT)
    return Decimal(_unit_text(str(value))) if value is not None else Decimal(1)


def _unit_text(value: object) -> str:
    """A ``_unit``: the money of a chip as decimal text, above nothing."""
    if isinstance(value, str) and _DECIMAL.fullmatch(value) and Decimal(value) > 0:
        return value
    raise PHHError(f'{_UNIT} must be the money of a chip as text, such as "0.01"; '
                   f"got {str(value)[:40]!r}")  # fmt: skip


def _info(data: dict[str, object]) -> dict[str, object]:
    """The record's fields about the hand, as :attr:`StudHand.info` keeps them: PHH's,
    ``_unit``, and ``_hand_id`` as the ``hand``."""
    info = {name: data[name] for name in INFO_FIELDS if name in data}
    if _UNIT in data:
        info[_UNIT] = _unit_text(data[_UNIT])
    hand_id = data.get(_HAND_ID)
    if hand_id is not None:
        if not isinstance(hand_id, str) or not hand_id:
            raise PHHError(f"{_HAND_ID} must be text; got {hand_id!r}")
        number = hand_digits(hand_id)
        if "hand" in data and data["hand"] != number:
            raise PHHError(f"hand = {data['hand']!r} is not the {_HAND_ID} {hand_id!r}")
        info["hand"] = hand_id
    return info


def loads(text: str, *, rules: HouseRules | str | None = None) -> StudHand:
    """Replay one PHH hand history and return the hand, played to where it stops.

    ``rules`` plays it under other house rules than the record's own ``_house_rules``
    (a record without that field, written by another tool, plays under
    :meth:`~studeval.HouseRules.pokerkit`).
    """
    return _load(_fields(text, "PHH"), rules)


def loads_all(text: str, *, rules: HouseRules | str | None = None) -> list[StudHand]:
    """Every hand of a ``.phhs`` text (PHH records in TOML tables ``[1]``, ``[2]``, ...),
    in order. An error names the table.

    >>> one = dumps(loads(PHH_EXAMPLE))
    >>> [h.stacks for h in loads_all(dumps_all([loads(one), loads(one)]))]
    [[103, 97], [103, 97]]
    """
    hands = [_record(name, record, rules) for name, record in _fields(text, "PHHS").items()]
    for hand in hands:
        if isinstance(hand, PHHError):
            raise hand
    return hands  # type: ignore[return-value]


def read_records(text: str, *, rules: HouseRules | str | None = None,
                 ) -> list[tuple[int, StudHand | PHHError]]:  # fmt: skip
    """Each hand of a PHH or ``.phhs`` text with the line its record starts on, or in
    its place the :class:`PHHError` that refuses it: one bad record refuses itself,
    not the rest, and where the text is no TOML as a whole, each record's is read on
    its own (``_phhtables``).

    >>> one = dumps(loads(PHH_EXAMPLE))
    >>> bad = dumps_all([loads(one)] * 3).replace("= [103", "= [104", 1)  # its stacks
    >>> [(line, type(found).__name__) for line, found in read_records(bad)]
    [(1, 'PHHError'), (13, 'StudHand'), (25, 'StudHand')]
    """
    try:
        data = _fields(text, "PHH")
    except PHHError as err:
        parts = tables(text) if isinstance(text, str) else None
        if parts is None:
            return [(1, err)]
        found, seen = [], set()
        for name, start, end, line in parts:  # TOML's errors name the file's lines
            try:
                if name in seen:
                    raise PHHError("declared twice")
                record: object = _fields("\n" * (line - 1) + text[start:end], "PHHS").get(name)
            except PHHError as bad:
                record = bad
            seen.add(name)
            found.append((line, _record(name, record, rules)))
        return found
    if not (data and all(isinstance(value, dict) for value in data.values())):
        return [(1, _record(None, data, rules))]
    lines = {name: line for name, _, _, line in tables(text) or []}
    return [(lines.get(name, 1), _record(name, record, rules)) for name, record in data.items()]


def _record(name: str | None, record: object,
            rules: HouseRules | str | None) -> StudHand | PHHError:  # fmt: skip
    """A record's hand, or why not (named by its table ``name``, where it has one)."""
    try:
        if isinstance(record, PHHError):
            raise record
        if not isinstance(record, dict):
            raise PHHError("a .phhs file holds one table of fields a hand")
        return _load(record, rules)
    except (StudevalError, ValueError) as err:  # a PHHError, or the engine's own
        return PHHError(str(err) if name is None else f"[{name}]: {err}")


def read(text: str, *, rules: HouseRules | str | None = None) -> list[StudHand]:
    """The hands of a PHH text (one hand) or a ``.phhs`` text (tables ``[1]``, ``[2]``...).

    >>> [h.stacks for h in read(PHH_EXAMPLE)]
    [[103, 97]]
    """
    data = _fields(text, "PHH")
    if data and all(isinstance(value, dict) for value in data.values()):
        return loads_all(text, rules=rules)
    return [_load(data, rules)]


def _house(data: dict[str, object], rules: HouseRules | str | None) -> HouseRules:
    if rules is not None:
        return house_rules(rules)
    written = data.get(_RULES)
    if written is None:
        # Another tool wrote the record: read it as PHH's reference implementation
        # plays, where its readings of a rule differ from ours.
        return HouseRules.pokerkit()
    try:
        if isinstance(written, str):
            return house_rules(written)
        if isinstance(written, dict):
            return HouseRules(**written)
    except (StudevalError, TypeError) as err:
        raise PHHError(f"{_RULES}: {err}") from None
    raise PHHError(f"{_RULES} must be a preset's name or a table of options; got {written!r}")


def _load(data: dict[str, object], rules: HouseRules | str | None) -> StudHand:
    variant = _field(data, "variant", str)
    if variant not in VARIANTS:
        raise PHHError(
            f"variant {variant!r} is not fixed-limit stud; studeval reads {', '.join(VARIANTS)}"
        )
    stacks = _field(data, "starting_stacks", list)
    antes = _chips(_field(data, "antes", list), "antes", len(stacks))  # type: ignore[arg-type]
    if len(set(antes)) > 1:
        raise PHHError(f"antes {antes} differ by player; studeval plays one ante for all")
    extra = {name: data.get(name, default) for name, default in ((_RAKE, 0), (_CHIP, 1))}
    try:
        stakes = Stakes(
            ante=antes[0],
            bring_in=_field(data, "bring_in", int),  # type: ignore[arg-type]
            small_bet=_field(data, "small_bet", int),  # type: ignore[arg-type]
            big_bet=_field(data, "big_bet", int),  # type: ignore[arg-type]
        )
        hand = StudHand(VARIANTS[str(variant)], stakes, stacks,  # type: ignore[arg-type]
                        rules=_house(data, rules), rake=extra[_RAKE],  # type: ignore[arg-type]
                        chip=extra[_CHIP])  # type: ignore[arg-type]  # fmt: skip
    except PHHError:
        raise
    except StudevalError as err:
        raise PHHError(f"the table: {err}") from None
    hand.info = _info(data)
    actions = data.get("actions", [])
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise PHHError(f"actions must be a list of strings; got {str(actions)[:80]}")
    shown: dict[int, list[str] | None] = {}  # seats that showed early, or show out of turn
    for place, action in enumerate(actions):
        try:
            _replay(hand, action, shown)
        except StudevalError as err:
            raise PHHError(f"actions[{place}] {action[:80]!r}: {err}") from None
    try:
        _show_in_turn(hand, shown, at_end=True)
    except StudevalError as err:
        raise PHHError(f"the showdown: {err}") from None
    waiting = [f"p{seat + 1}" for seat, words in shown.items() if words]
    if waiting:
        raise PHHError(f"the showdown: {', '.join(waiting)} showed out of turn and never had one")
    finishing = data.get("finishing_stacks")
    if finishing is not None:
        _chips(finishing, "finishing_stacks", hand.seats)
        if not hand.over:
            raise PHHError("finishing_stacks is given, but the actions stop before the end")
        if finishing != hand.stacks:
            raise PHHError(f"the hand ends with stacks {hand.stacks}, not the "
                           f"finishing_stacks {finishing}")  # fmt: skip
    return hand


def _show_in_turn(hand: StudHand, shown: dict[int, list[str] | None], at_end: bool) -> None:
    """Showdown steps written out of the engine's order are played when the seat's turn
    comes (the order of showing moves no chip); at the end of the record, seats that
    showed every card before the run-out show them again, as the table would see."""
    while hand.showdown and hand.actor is not None:
        words = shown.get(hand.actor)
        if words:
            del shown[hand.actor]
            _act(hand, words)
        elif at_end and hand.actor in shown and None not in hand.cards[hand.actor]:
            del shown[hand.actor]
            hand.show()
        else:
            return


def _replay(hand: StudHand, action: str, shown: dict[int, list[str] | None]) -> None:
    words = action.split("#", 1)[0].split()
    match words:
        case ["d", "dh", player, cards]:
            hand.deal(_seat(player, hand), _cards(cards))
        case ["d", "db", cards]:
            (card,) = _cards(cards)
            hand.deal_community(card)
        case [player, "sm", cards] if hand.actor is None and not hand.over:
            # Cards shown while the betting is over and the streets still run out
            # (every seat but one is all in): pokerkit writes them so. They show what
            # was dealt; each seat shows again at the showdown.
            seat = _seat(player, hand)
            _check_shown(hand, seat, _cards(cards))
            shown.setdefault(seat, None)
        case [player, "sm", *rest] if hand.showdown and _seat(player, hand) != hand.actor:
            seat = _seat(player, hand)
            if shown.get(seat) or hand.folded[seat]:
                raise PHHError(f"{player} shows twice, or has folded")
            shown[seat] = ["sm", *rest]
        case [player, "sm", cards] if hand.over and _seat(player, hand) == lone_winner(hand):
            # The winner of a showdown that every other seat mucked shows after it is
            # paid (we write that show for pokerkit): the cards must be the ones dealt.
            if cards != "-":
                _check_shown(hand, _seat(player, hand), _cards(cards))
        case [player, *rest] if rest and rest[0] in ("pb", "f", "cc", "cbr", "sm"):
            seat = _seat(player, hand)
            if seat != hand.actor:
                raise PHHError(f"it is not {player}'s turn (p{(hand.actor or 0) + 1} acts)")
            _act(hand, rest)
            _show_in_turn(hand, shown, at_end=False)
        case _:
            raise PHHError("not an action studeval knows")


def _check_shown(hand: StudHand, seat: int, shown: list[int | None]) -> None:
    """Cards a seat shows before the showdown must be the ones it was dealt."""
    dealt = hand.cards[seat]
    if hand.folded[seat] or len(shown) != len(dealt):
        raise PHHError(f"p{seat + 1} shows {len(shown)} cards and holds {len(dealt)}")
    for card, held in zip(shown, dealt, strict=True):
        if held is not None and card is not None and card != held:
            raise PHHError(f"p{seat + 1} shows {card_str(card)} where it was dealt "
                           f"{card_str(held)}")  # fmt: skip


def _act(hand: StudHand, words: list[str]) -> None:
    match words:
        case ["pb"]:
            hand.act("bring_in")
        case ["f"]:
            hand.act("fold")
        case ["cc"]:
            hand.act("check" if hand.legal().check else "call")
        case ["cbr", amount]:
            legal = hand.legal()
            to = _amount(amount)
            if legal.bring_in is not None and to == legal.bring_in and to not in legal.complete_to:
                hand.act("bring_in")  # a bring-in of all a short stack has, written as cbr
                return
            kind = "complete" if legal.complete_to else "bet" if legal.bet_to else "raise"
            hand.act(kind, to)
        case ["sm"]:
            hand.muck()
        case ["sm", "-"]:
            hand.show()
        case ["sm", cards]:
            shown = _cards(cards)
            seat = hand.actor
            assert seat is not None
            if len(shown) == len(hand.cards[seat]):  # every card: keep the down ones
                shown = [c for i, c in enumerate(shown) if i < 2 or i == 6]
            hand.show(shown)
        case _:
            raise PHHError("not an action studeval knows")


def dumps(hand: StudHand) -> str:
    """Write ``hand`` (to where it is) as a PHH hand history: the play, its
    :attr:`~studeval.StudHand.info` (a ``_unit`` and a hand id that is text too), the
    rake, the chip size and the house rules, and the finishing stacks of a finished hand.

    Text is written as it reads back, any character escaped that TOML needs escaped,
    and a seat that wins a showdown that every other seat mucked shows its cards last
    (where all are known): pokerkit otherwise gives that pot to nobody.
    """
    if hand.game not in _CODE_OF_GAME:
        raise PHHError(f"PHH has no variant for {hand.game!r}")
    s = hand.stakes
    fields: list[tuple[str, object]] = [
        ("variant", _CODE_OF_GAME[hand.game]),
        ("ante_trimming_status", True),
        ("antes", [s.ante] * hand.seats),
        ("bring_in", s.bring_in),
        ("small_bet", s.small_bet),
        ("big_bet", s.big_bet),
        ("starting_stacks", hand.starting_stacks),
        ("actions", actions(hand)),
    ]
    if hand.over:
        fields.append(("finishing_stacks", hand.stacks))
    info = hand.info
    hand_id = info.get("hand")
    for name in INFO_FIELDS:
        if name == "hand" and isinstance(hand_id, str):
            number = hand_digits(hand_id)
            if number is not None:
                fields.append(("hand", number))
        elif name in info:
            fields.append((name, info[name]))
    if hand.rake:
        fields.append((_RAKE, hand.rake))
    if hand.chip != 1:
        fields.append((_CHIP, hand.chip))
    if info.get(_UNIT) is not None:
        fields.append((_UNIT, _unit_text(str(info[_UNIT]))))
    if isinstance(hand_id, str):
        fields.append((_HAND_ID, hand_id))
    fields.append((_RULES, rules_value(hand.rules)))
    try:
        return "".join(f"{name} = {toml(value)}\n" for name, value in fields)
    except ValueError as err:
        raise PHHError(str(err)) from None


def dumps_all(hands: Iterable[StudHand]) -> str:
    """Write hands as one ``.phhs`` text: each hand's PHH record under ``[1]``, ``[2]``..."""
    return "\n".join(f"[{i}]\n{dumps(hand)}" for i, hand in enumerate(hands, 1))


#: A short hand, for examples.
PHH_EXAMPLE = """variant = "F7S"
antes = [1, 1]
bring_in = 2
small_bet = 5
big_bet = 10
starting_stacks = [100, 100]
actions = ["d dh p1 ????Kc", "d dh p2 ????2d", "p2 pb", "p1 cbr 5", "p2 f"]
"""
