"""The one card-text table of the package: how each card is written and read.

A leaf module (it imports nothing of studeval), so that the errors can name
cards, the compiled layer can build its ASCII tables, and the formatter its
texts, all from these same few lines. The C core's reader of hand text
(``csrc/base/se_parse.c``, usable without Python) spells the same letters in C;
tests/test_parse_core.py holds it to :func:`studeval.parse_cards`.

>>> TEXT_OF_CODE[0], TEXT_OF_CODE[51], CODE_OF_TEXT["10h"], CODE_OF_TEXT["A\u2660"]
('2c', 'As', 34, 51)
"""

from __future__ import annotations

__all__ = ["CODE_OF_TEXT", "RANKS", "RANK_OF", "SUITS", "SUIT_OF", "SUIT_SYMBOLS", "TEXT_OF_CODE"]

#: Rank letters 2 .. A (rank 0 .. 12) and suit letters clubs .. spades (suit 0 .. 3).
RANKS = "23456789TJQKA"
SUITS = "cdhs"

#: The suit symbols read as suits: filled and outlined.
SUIT_SYMBOLS = {
    "\u2663": "c", "\u2667": "c", "\u2666": "d", "\u2662": "d",
    "\u2665": "h", "\u2661": "h", "\u2660": "s", "\u2664": "s",
}  # fmt: skip

#: Every way of writing a rank (either case; "10" for ten) and a suit (either
#: case, or a symbol), to its number.
RANK_OF: dict[str, int] = {r: i for i, ch in enumerate(RANKS) for r in (ch, ch.lower())}
RANK_OF["10"] = RANKS.index("T")
SUIT_OF: dict[str, int] = {s: i for i, ch in enumerate(SUITS) for s in (ch, ch.upper())}
SUIT_OF.update({symbol: SUITS.index(letter) for symbol, letter in SUIT_SYMBOLS.items()})

#: Every text of one card to its code ``rank * 4 + suit``, and each code's canonical text.
CODE_OF_TEXT: dict[str, int] = {
    rank_text + suit_text: rank * 4 + suit
    for rank_text, rank in RANK_OF.items()
    for suit_text, suit in SUIT_OF.items()
}
TEXT_OF_CODE: tuple[str, ...] = tuple(r + s for r in RANKS for s in SUITS)
