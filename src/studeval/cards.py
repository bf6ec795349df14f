"""Card codes and card text.

A card is the int ``rank * 4 + suit``: rank 0..12 is 2..A and suit 0..3 is
clubs, diamonds, hearts, spades, so code order is stud's card order
(2c = 0, As = 51).

>>> parse_card("As"), parse_card("10h"), card_str(0)
(51, 34, '2c')
>>> parse_cards("AsKd 7h")
[51, 45, 22]
>>> parse_card("1x")
Traceback (most recent call last):
...
studeval.errors.InvalidCardError: invalid card '1x'
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from studeval import _core
from studeval._cardtext import CODE_OF_TEXT, RANK_OF, RANKS, SUIT_OF, SUITS, TEXT_OF_CODE
from studeval.errors import InvalidCardError, _clip

__all__ = ["RANKS", "SUITS", "card_str", "cards_str", "parse_card", "parse_cards", "to_codes"]

# One card inside a run of concatenated cards ("AsKd10h"): a rank then a suit, each
# spelled as the card-text table spells it (longest first, so "10" is one rank).
_CARD_RE = re.compile(
    "({})({})".format(*("|".join(map(re.escape, sorted(table, key=len, reverse=True)))
                        for table in (RANK_OF, SUIT_OF)))
)  # fmt: skip


def parse_card(text: str) -> int:
    """Return the code of one card written as rank then suit.

    Ranks ``23456789TJQKA`` (or ``10``), suits ``cdhs`` or ``♣♦♥♠``, any case.

    >>> parse_card("td"), parse_card("A♠")
    (33, 51)
    """
    if not isinstance(text, str):
        raise InvalidCardError(text, detail="a card must be a string such as 'As'")
    code = CODE_OF_TEXT.get(text.strip())
    if code is None:
        raise InvalidCardError(text)
    return code


def _split_text(text: str) -> list[int]:
    tokens = text.replace(",", " ").split()
    # Fast path: every token is one card ("As Kd 7h").
    codes = [CODE_OF_TEXT.get(token, -1) for token in tokens]
    if -1 not in codes:
        return codes
    codes = []
    for token in tokens:
        code = CODE_OF_TEXT.get(token)
        if code is not None:
            codes.append(code)
            continue
        # Concatenated cards such as "AsKd7h": the whole token must be cards.
        pairs = [CODE_OF_TEXT.get(token[i : i + 2], -1) for i in range(0, len(token), 2)]
        if len(token) % 2 == 0 and -1 not in pairs:
            codes.extend(pairs)
            continue
        pos = 0
        for match in _CARD_RE.finditer(token):
            if match.start() != pos:
                break
            codes.append(RANK_OF[match.group(1)] * 4 + SUIT_OF[match.group(2)])
            pos = match.end()
        if pos != len(token):
            bad = token[pos : pos + 2] if pos else token
            raise InvalidCardError(bad, detail=f"in {_clip(text)}")
    return codes


def parse_cards(cards: str | Iterable[object]) -> list[int]:
    """Return the codes of several cards.

    A string is split on whitespace and commas, and each piece may hold several
    concatenated cards. Any other iterable may mix card strings, codes and card
    objects of other libraries whose ``str()`` or ``repr()`` is card text (eval7,
    pkrbot and pokerkit cards are).

    >>> parse_cards("As, Kd 7h2c")
    [51, 45, 22, 0]
    >>> parse_cards(["As", 0])
    [51, 0]
    """
    if isinstance(cards, str):
        return _split_text(cards)
    if isinstance(cards, (bytes, bytearray)):
        raise InvalidCardError(cards, detail="give card codes as ints or text as str")
    try:
        items = list(cards)
    except TypeError:
        raise InvalidCardError(cards, detail="expected a string or an iterable of cards") from None
    return [_one_code(item) for item in items]


def _one_code(item: object) -> int:
    if type(item) is int and 0 <= item < 52:  # the common case, first
        return item
    if isinstance(item, str):
        return parse_card(item)
    if isinstance(item, bool):
        raise InvalidCardError(item, detail="a card is a code 0..51 or a string such as 'As'")
    if not hasattr(item, "__index__"):
        # Another library's card object (eval7, pkrbot, pokerkit, ...): its str()
        # or its repr() is the card's text.
        for text in (str(item), repr(item)):
            code = CODE_OF_TEXT.get(text.strip())
            if code is not None:
                return code
        raise InvalidCardError(
            item,
            detail="a card is a code 0..51, a string such as 'As', or an object "
            "whose str() or repr() is such a string",
        )
    code = item.__index__()
    if not 0 <= code < 52:
        raise InvalidCardError(item, detail="codes are 0..51")
    return code


def to_codes(hand: str | Iterable[object]) -> list[int]:
    """Return a hand's codes, accepting codes, card strings or one string.

    Like :func:`parse_cards`; kept as the single entry point every hand-taking
    function uses.

    >>> to_codes((51, 47, 43))
    [51, 47, 43]
    """
    return parse_cards(hand)


# The compiled single-hand calls read int codes and plain card text themselves and
# hand everything else (other libraries' cards, numpy ints, unusual text) to this
# grammar, so that every function reads a hand the same way.
_core.set_card_reader(to_codes)


def card_str(code: int) -> str:
    """Return the canonical text of a card code.

    >>> card_str(51), card_str(33)
    ('As', 'Td')
    """
    if isinstance(code, bool) or not hasattr(code, "__index__"):
        raise InvalidCardError(code, detail="a card code is an int 0..51")
    value = code.__index__()
    if not 0 <= value < 52:
        raise InvalidCardError(code, detail="codes are 0..51")
    return TEXT_OF_CODE[value]


def cards_str(codes: Iterable[int]) -> str:
    """Return cards as space-separated canonical text.

    >>> cards_str([51, 45])
    'As Kd'
    """
    return " ".join(card_str(code) for code in codes)
