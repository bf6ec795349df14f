"""What every room's text shares: its encoding, its money, its clocks.

Rooms write their files in UTF-8 (with or without a byte-order mark), UTF-16 with
a mark, or Windows code page 1252; :func:`decode` reads all of them, and a file
of both (a UTF-8 export with hands pasted in from a code-page-1252 one) line by
line as it was written. Money is
written with a currency sign, thousands separators and cents (``$1,234.50``,
``€25``, ``1,500`` tournament chips): :func:`money` reads it exactly, as a
:class:`~decimal.Decimal`.
"""

from __future__ import annotations

import codecs
import datetime
import functools
import os
import re
from collections.abc import Sequence
from decimal import Decimal, InvalidOperation

__all__ = [
    "MONEY",
    "SIGNS",
    "UTF8_ELSE_CP1252",
    "decode",
    "moment",
    "money",
    "shown_path",
    "zone_of",
    "zoned",
]

#: An amount as rooms write it: a currency sign before or after (``$1``, ``1€``),
#: digits with thousands commas (three digits a group: "2,23" is no amount), optional
#: decimals. Currency letters after it, if any, are left to the caller.
MONEY = r"[$€£]?\s?(?:\d{1,3}(?:,\d{3})+(?!\d)|\d+)(?:\.\d+)?(?:\s?[€$£](?![\d]))?"

#: The sign of each currency rooms write with one.
SIGNS = {"USD": "$", "EUR": "€", "GBP": "£"}
_CURRENCY_SIGNS = {sign: code for code, sign in SIGNS.items()}

#: The zones rooms name, as IANA zones (a name not here leaves the time naive).
_ZONES = {
    "ET": "America/New_York", "EST": "America/New_York", "EDT": "America/New_York",
    "CT": "America/Chicago", "PT": "America/Los_Angeles", "MT": "America/Denver",
    "CET": "Europe/Paris", "CEST": "Europe/Paris", "WET": "Europe/Lisbon",
    "EET": "Europe/Helsinki", "MSK": "Europe/Moscow", "GMT": "UTC", "UTC": "UTC",
    "BST": "Europe/London", "AET": "Australia/Sydney", "NZT": "Pacific/Auckland",
    "CCT": "Asia/Shanghai", "BRT": "America/Sao_Paulo", "ART": "America/Argentina/Buenos_Aires",
    "AEST": "Australia/Sydney", "AEDT": "Australia/Sydney", "NZST": "Pacific/Auckland",
    "NZDT": "Pacific/Auckland", "WEST": "Europe/Lisbon", "EEST": "Europe/Helsinki",
}  # fmt: skip


def unmarked_utf16(head: bytes) -> str | None:
    """The byte order of UTF-16 text without its mark, from a file's first bytes, or
    None. The rooms' text is mostly ASCII: in UTF-16 one byte of nearly every pair is
    NUL, on the same side, and text in an 8-bit encoding has no NUL byte. NUL bytes
    on both sides alike are no UTF-16 but padding (the tail a crash leaves in a file
    being written, or a run of them inside it): that text is read as it is, its
    hands read and the NUL bytes reported as text outside every hand.

    >>> unmarked_utf16("Seat 1".encode("utf-16-le")), unmarked_utf16(b"Seat 1" + bytes(90))
    ('utf-16-le', None)
    """
    head = head.rstrip(b"\0")
    even, odd = head[0::2].count(0), head[1::2].count(0)
    strong, weak = max(even, odd), min(even, odd)
    if len(head) < 4 or strong * 3 <= len(head) or weak * 4 >= strong:
        return None
    return "utf-16-le" if odd > even else "utf-16-be"


def _as_cp1252(error: UnicodeError) -> tuple[str, int]:
    """The bytes that are no UTF-8 read as code page 1252 (which gives nearly every
    byte a character; its five unassigned bytes become U+FFFD)."""
    if not isinstance(error, UnicodeDecodeError):
        raise error
    wrong = error.object[error.start : error.end]
    return bytes(wrong).decode("cp1252", errors="replace"), error.end


#: The error handler that reads UTF-8 with code page 1252 wherever the bytes are
#: no UTF-8. A file is read as one or the other as a whole when it is all one, and
#: a file of both keeps each hand's own text: one hand saved in code page 1252 in a
#: UTF-8 file must not turn the others' ``€`` into three other characters (their amounts unread).
#: Code page 1252 text whose bytes happen to form UTF-8 (``Ã©`` for ``é``) is rare
#: enough in names and never in the rooms' own words.
UTF8_ELSE_CP1252 = "studeval-utf8-else-cp1252"
codecs.register_error(UTF8_ELSE_CP1252, _as_cp1252)


def utf16_length(size: int, tail: bytes) -> int:
    """How many of ``size`` bytes of UTF-16 (``tail`` the last two of them) are
    read: all but a line end a text tool that knows no UTF-16 appended in its own
    8-bit encoding (a ``"\\n"`` or ``"\\r"`` left over from the pairs, or a
    ``"\\r\\n"``), which is white space. Any other byte left over is read as U+FFFD
    (text outside every hand).

    >>> data = "ab\\n".encode("utf-16-le")
    >>> [utf16_length(len(d), d[-2:]) for d in (data, data + b"\\n", data + b"\\r\\n")]
    [6, 6, 6]
    >>> utf16_length(7, b"\\0x")
    7
    """
    if size % 2:
        return size - 1 if tail[-1:] in (b"\n", b"\r") else size
    return size - 2 if tail == b"\r\n" else size


def decode(data: bytes) -> str:
    """The text of a history file: UTF-16 or UTF-8 by their byte-order marks, UTF-16
    without a mark by its NUL bytes, else UTF-8, with code page 1252 wherever the
    bytes are no UTF-8 (a file in code page 1252, or hands of one pasted into a
    UTF-8 file).

    >>> decode("Seat 1".encode("utf-16-le")), decode("Seat 1".encode("utf-16-be"))
    ('Seat 1', 'Seat 1')
    >>> decode("€2/€4 ".encode() + "€1/€2".encode("cp1252"))
    '€2/€4 €1/€2'
    """
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        # A stray last byte is not fatal (utf16_length: a line end a text tool
        # appended is white space, any other byte U+FFFD, text outside every hand).
        return data[: utf16_length(len(data), data[-2:])].decode("utf-16", errors="replace")
    order = unmarked_utf16(data[:4096])
    if order is not None:
        return data[: utf16_length(len(data), data[-2:])].decode(order, errors="replace")
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    return data.decode("utf-8", errors=UTF8_ELSE_CP1252)


def money(text: str) -> Decimal:
    """An amount as a Decimal: ``"$1,234.50"`` is ``Decimal("1234.50")``.

    >>> money("$1,234.50"), money("€25"), money("1,500"), money("70.30€")
    (Decimal('1234.50'), Decimal('25'), Decimal('1500'), Decimal('70.30'))
    """
    digits = text.strip().strip("$€£ ").replace(",", "")
    try:
        return Decimal(digits)
    except InvalidOperation:
        raise ValueError(f"not an amount: {text!r}") from None


#: ISO 4217 codes of the currencies card rooms have kept accounts in.
_CURRENCY_CODES = re.compile(
    r"\b(USD|EUR|GBP|CAD|INR|CNY|SEK|NOK|DKK|PLN|CHF|AUD|NZD|RUB|UAH|BRL|MXN|JPY|CZK"
    r"|HUF|RON|BGN|TRY|ZAR|ILS|KZT)\b"
)


def currency_of(text: str) -> str | None:
    """The currency a sign or a code in ``text`` names (``"$0.04/$0.08 USD"`` is USD).

    >>> currency_of("$0.04/$0.08 USD"), currency_of("€2/€4"), currency_of("2/4 SEK")
    ('USD', 'EUR', 'SEK')
    """
    code = _CURRENCY_CODES.search(text)
    if code:
        return code.group(1)
    for sign, name in _CURRENCY_SIGNS.items():
        if sign in text:
            return name
    return None


def named_currency(named: str) -> str | None:
    """The currency a file's own currency field names (iPoker's ``<currency>``): a
    code in capitals (any three letters: "eur" is EUR), else the code of its sign,
    else the text itself, so that a currency this reader does not know is kept apart
    from every other, never taken for none and added to them. Empty: none.

    >>> named_currency("PLN"), named_currency("eur"), named_currency(" $ "), named_currency("")
    ('PLN', 'EUR', 'USD', None)
    >>> named_currency("Fun chips")
    'Fun chips'
    """
    text = named.strip()
    if len(text) == 3 and text.isascii() and text.isalpha():
        return text.upper()
    return (currency_of(text) or text) if text else None


def cut(text: str, *found: re.Match[str] | None) -> str:
    """``text`` with what each of ``found`` matched in it (a hand's time; in order, not
    overlapping; None for nothing) made one NUL: a key for what a header says hand
    after hand, read once a table.

    >>> cut("Razz - 12:00:00 ET", re.search("[0-9:]+", "Razz - 12:00:00 ET"))
    'Razz - \\x00 ET'
    >>> cut("a 1 b 2", re.search("1", "a 1 b 2"), None, re.search("2", "a 1 b 2"))
    'a \\x00 b \\x00'
    """
    at, parts = 0, list[str]()
    for match in found:
        if match is not None:
            parts += (text[at : match.start()], "\0")
            at = match.end()
    return "".join(parts) + text[at:] if parts else text


def zoned(moment: datetime.datetime, zone: str | None) -> datetime.datetime:
    """``moment`` in the zone a room names; naive when the name is not known."""
    tzinfo = zone_of(zone)
    if tzinfo is None:
        return moment
    # replace(tzinfo=...) as combine makes it (the fold kept): a quarter of its time.
    return datetime.datetime.combine(moment.date(), moment.time(), tzinfo)


def moment(parts: Sequence[str], zone: str | None) -> datetime.datetime:
    """The time written as year, month, day, hour, minute and second (``parts``), in
    the zone a room names: :func:`zoned`'s, made at once.

    >>> moment(["2026", "12", "02", "9", "05", "00"], "ET").isoformat()
    '2026-12-02T09:05:00-05:00'
    """
    year, month, day, hour, minute, second = parts
    numbers = _NUMBERS  # two digits or fewer, looked up: a fifth of int()'s time
    try:
        return datetime.datetime(int(year), numbers[month], numbers[day], numbers[hour],
                                 numbers[minute], numbers[second],
                                 tzinfo=zone_of(zone))  # fmt: skip
    except KeyError:  # more digits ("007"): as int() reads them
        y, mo, d, h, mi, s = map(int, parts)
        return datetime.datetime(y, mo, d, h, mi, s, tzinfo=zone_of(zone))


#: "0" to "99" and "00" to "09", with their values.
_NUMBERS = {text: n for n in range(100) for text in (str(n), f"{n:02}")}


@functools.lru_cache(maxsize=64)
def zone_of(name: str | None) -> datetime.tzinfo | None:
    """The zone a room names ("ET", "CET"), as :func:`moment` gives a time; None for
    a name not known, or where no time zone data is installed (a naive time).

    >>> zone_of("ET") is zone_of("et"), zone_of("XYZ")
    (True, None)
    """
    if name is None or name.upper() not in _ZONES:
        return None
    try:
        from zoneinfo import ZoneInfo

        return ZoneInfo(_ZONES[name.upper()])
    except Exception:  # no time zone data on this system: keep the clock reading
        return None


def shown_path(name: str) -> str:
    """``name`` as text that can be written anywhere: the bytes of a file name that are
    not UTF-8 (a Latin-1 name copied from an old disk), which Python holds as lone
    surrogates that no text encoding takes, and control characters (a line end, or an
    escape that a terminal would obey), each written ``\\xNN``. The same file gives
    the same text every time.

    >>> shown_path("caf\\udce9.txt"), shown_path("café.txt"), shown_path("a\\x1b[2Jb.txt")
    ('caf\\\\xe9.txt', 'café.txt', 'a\\\\x1b[2Jb.txt')
    """
    if name.isascii() and name.isprintable():
        return name
    try:
        name.encode()
        text = name
    except UnicodeEncodeError:
        try:  # the file system's bytes, as Python escaped them
            text = os.fsencode(name).decode(errors="backslashreplace")
        except UnicodeEncodeError:  # a lone surrogate given as text
            text = name.encode(errors="backslashreplace").decode()
    return _CONTROL.sub(lambda found: f"\\x{ord(found[0]):02x}", text)


# C0 and C1 control characters and DEL: a file name's, escaped where it is shown.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")
