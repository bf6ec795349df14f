"""How :mod:`studeval.phh` writes a hand: the words of each event, the show that PHH's
reference implementation needs from a seat that wins a showdown unshown, and values
in TOML's words.

>>> from studeval.phh import loads, PHH_EXAMPLE
>>> actions(loads(PHH_EXAMPLE))
['d dh p1 ????Kc', 'd dh p2 ????2d', 'p2 pb', 'p1 cbr 5', 'p2 f']
>>> print(toml(["a\\x00b", "x\\U000e0001y"]))
["a\\u0000b", "x\\U000e0001y"]
"""

from __future__ import annotations

import dataclasses
import datetime
from collections.abc import Iterable

from studeval.betting import Event
from studeval.cards import card_str
from studeval.engine import StudHand
from studeval.houserules import PRESETS, HouseRules

__all__ = ["actions", "lone_winner", "rules_value", "toml"]


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


def lone_winner(hand: StudHand) -> int | None:
    """The seat that won a showdown without showing, every other seat having mucked
    (the engine then pays it at once: it takes no step), or ``None``."""
    if not hand.over:
        return None
    acted = {e.seat for e in hand.events if e.kind in ("show", "muck")}
    if not acted or any(e.kind == "show" for e in hand.events):
        return None
    left = [s for s in range(hand.seats) if not hand.folded[s] and s not in acted]
    return left[0] if len(left) == 1 else None


def actions(hand: StudHand) -> list[str]:
    """The hand's events as PHH actions. After a showdown that every seat but one
    mucked, the winner's cards, when all are known, follow as its show: pokerkit (PHH's
    reference implementation) waits for that seat's ``sm`` and, without one, gives the
    pot to nobody. The show moves no chip; :func:`~studeval.histories.phh.loads` checks it."""
    words = [w for w in map(_words, hand.events) if w is not None]
    seat = lone_winner(hand)
    if seat is not None and None not in hand.cards[seat]:
        words.append(f"p{seat + 1} sm " + "".join(map(card_str, hand.cards[seat])))  # type: ignore[arg-type]
    return words


def _char(c: str) -> str:
    """One character of a TOML basic string: itself where printable, else an escape
    (``\\U`` and eight digits above U+FFFF, where ``\\u`` takes only four)."""
    if c.isprintable():
        return c
    code = ord(c)
    if 0xD800 <= code <= 0xDFFF:
        raise ValueError(f"{c!r}, half of a surrogate pair, has no TOML form")
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


def toml(value: object) -> str:
    """A value as TOML writes it: text, whole and decimal numbers, truth values, dates
    and times, lists and tables of them (a ``ValueError`` for anything else)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        escaped = value.replace("\\", "\\\\").replace('"', '\\"')
        return '"' + "".join(map(_char, escaped)) + '"'
    if isinstance(value, (datetime.date, datetime.time)):
        return value.isoformat()
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} = {toml(v)}" for k, v in value.items()) + "}"
    if isinstance(value, Iterable):
        return "[" + ", ".join(toml(v) for v in value) + "]"
    raise ValueError(f"{value!r} has no TOML form")


def rules_value(rules: HouseRules) -> object:
    """The house rules as ``_house_rules`` holds them: a preset's name, else a table
    of every option."""
    for name, preset in PRESETS.items():
        if preset() == rules:
            return name
    return dataclasses.asdict(rules)
