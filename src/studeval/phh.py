"""Hand histories in the PHH format (the one pokerkit and the public PHH dataset use).

:func:`loads` replays a PHH record of fixed-limit stud (variants ``F7S`` stud,
``F7S/8`` stud hi/lo 8-or-better, ``FR`` razz) through :class:`StudHand`, so a
history that breaks a rule is an error naming the action; :func:`dumps` writes a
hand back. Seats are PHH's players ``p1``, ``p2``, ... in order (seat 0 is
``p1``). Unknown cards are ``??``.

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
>>> dumps(hand).splitlines()[-1]
'actions = ["d dh p1 ????Kc", "d dh p2 ????2d", "p2 pb", "p1 cbr 5", "p2 f"]'
"""

from __future__ import annotations

import sys

from studeval.betting import Event, Stakes
from studeval.cards import card_str, parse_card
from studeval.engine import StudHand
from studeval.errors import StudevalError

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib  # type: ignore[import-not-found, no-redef, unused-ignore]

__all__ = ["PHHError", "dumps", "loads"]

#: PHH variant codes and our game names (PHH has no code for the no-qualifier game).
VARIANTS = {"F7S": "stud", "F7S/8": "stud8", "FR": "razz"}
_CODE_OF_GAME = {game: code for code, game in VARIANTS.items()}


class PHHError(StudevalError, ValueError):
    """A hand history that cannot be read or written: bad syntax, a field missing or
    of the wrong type, or an action the rules do not allow (named, with its place)."""


def _field(data: dict[str, object], name: str, kind: type) -> object:
    if name not in data:
        raise PHHError(f"the hand history has no {name!r} field")
    value = data[name]
    if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
        raise PHHError(f"{name} must be a whole number; got {value!r}")
    if kind is list and not (isinstance(value, list) and value):
        raise PHHError(f"{name} must be a list; got {value!r}")
    return value


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
    if not (word.startswith("p") and word[1:].isdigit()):
        raise PHHError(f"{word!r} is not a player (p1, p2, ...)")
    seat = int(word[1:]) - 1
    if not 0 <= seat < hand.seats:
        raise PHHError(f"there is no player {word} at this table of {hand.seats}")
    return seat


def loads(text: str) -> StudHand:
    """Replay one PHH hand history and return the hand, played to where it stops."""
    if not isinstance(text, str):
        raise PHHError(f"a hand history is text (str); got {type(text).__name__}")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise PHHError(f"not a PHH (TOML) text: {err}") from None
    variant = _field(data, "variant", str)
    if variant not in VARIANTS:
        raise PHHError(
            f"variant {variant!r} is not fixed-limit stud; studeval reads {', '.join(VARIANTS)}"
        )
    stacks = _field(data, "starting_stacks", list)
    antes = _field(data, "antes", list)
    assert isinstance(stacks, list) and isinstance(antes, list)
    if any(isinstance(a, bool) or not isinstance(a, int) or a < 0 for a in antes):
        raise PHHError(f"antes must be whole chips; got {antes!r}")
    if len(set(antes)) > 1:
        raise PHHError(f"antes {antes} differ by player; studeval plays one ante for all")
    stakes = Stakes(
        ante=int(antes[0]) if antes else 0,
        bring_in=int(_field(data, "bring_in", int)),  # type: ignore[call-overload]
        small_bet=int(_field(data, "small_bet", int)),  # type: ignore[call-overload]
        big_bet=int(_field(data, "big_bet", int)),  # type: ignore[call-overload]
    )
    hand = StudHand(VARIANTS[variant], stakes, stacks)
    actions = data.get("actions", [])
    if not isinstance(actions, list):
        raise PHHError(f"actions must be a list of strings; got {actions!r}")
    for place, action in enumerate(actions):
        try:
            _replay(hand, str(action))
        except StudevalError as err:
            raise PHHError(f"actions[{place}] {action!r}: {err}") from None
    return hand


def _replay(hand: StudHand, action: str) -> None:
    words = action.split("#", 1)[0].split()
    match words:
        case ["d", "dh", player, cards]:
            hand.deal(_seat(player, hand), _cards(cards))
        case ["d", "db", cards]:
            (card,) = _cards(cards)
            hand.deal_community(card)
        case [player, *rest] if rest and rest[0] in ("pb", "f", "cc", "cbr", "sm"):
            seat = _seat(player, hand)
            if seat != hand.actor:
                raise PHHError(f"it is not {player}'s turn (p{(hand.actor or 0) + 1} acts)")
            _act(hand, rest)
        case _:
            raise PHHError("not an action studeval knows")


def _act(hand: StudHand, words: list[str]) -> None:
    match words:
        case ["pb"]:
            hand.act("bring_in")
        case ["f"]:
            hand.act("fold")
        case ["cc"]:
            hand.act("check" if hand.legal().check else "call")
        case ["cbr", amount] if amount.isdigit():
            legal = hand.legal()
            kind = "complete" if legal.complete_to else "bet" if legal.bet_to else "raise"
            hand.act(kind, int(amount))
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


def _words(event: Event) -> str | None:
    player = f"p{(event.seat or 0) + 1}"
    kind = event.kind
    if kind == "deal":
        return f"d dh {player} " + "".join("??" if c is None else card_str(c) for c in event.cards)
    if kind == "community":
        return "d db " + card_str(event.cards[0])  # type: ignore[arg-type]
    if kind == "bring_in":
        return f"{player} pb"
    if kind == "fold":
        return f"{player} f"
    if kind in ("check", "call"):
        return f"{player} cc"
    if kind in ("complete", "bet", "raise"):
        return f"{player} cbr {event.to}"
    if kind == "show":
        return f"{player} sm " + "".join(card_str(c) for c in event.cards if c is not None)
    if kind == "muck":
        return f"{player} sm"
    return None  # antes: PHH posts them from the antes field


def dumps(hand: StudHand) -> str:
    """Write ``hand`` (to where it is) as a PHH hand history."""
    if hand.game not in _CODE_OF_GAME:
        raise PHHError(f"PHH has no variant for {hand.game!r}")
    s = hand.stakes
    actions = [w for w in map(_words, hand.events) if w is not None]
    quoted = ", ".join(f'"{a}"' for a in actions)
    lines = [
        f'variant = "{_CODE_OF_GAME[hand.game]}"',
        "ante_trimming_status = true",
        f"antes = [{', '.join([str(s.ante)] * hand.seats)}]",
        f"bring_in = {s.bring_in}",
        f"small_bet = {s.small_bet}",
        f"big_bet = {s.big_bet}",
        f"starting_stacks = [{', '.join(map(str, hand.starting_stacks))}]",
        f"actions = [{quoted}]",
    ]
    return "\n".join(lines) + "\n"
