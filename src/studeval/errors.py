"""The exceptions studeval raises.

Every error derives from :class:`StudevalError` and from the builtin that fits
(``ValueError`` for bad values, ``TypeError`` for bad types), so callers may
catch either. Each carries the offending input as attributes.

>>> from studeval.errors import InvalidCardError
>>> err = InvalidCardError("Xx")
>>> isinstance(err, ValueError), err.card
(True, 'Xx')
"""

from __future__ import annotations

from studeval._cardtext import TEXT_OF_CODE

__all__ = [
    "BatchDtypeError",
    "BatchOutputError",
    "BatchShapeError",
    "ChipError",
    "CoreCallError",
    "DatabaseError",
    "DuplicateCardError",
    "HandSizeError",
    "IllegalActionError",
    "InvalidCardError",
    "InvalidLineError",
    "InvalidRankError",
    "NoDealError",
    "OptionError",
    "QueryError",
    "QueryWarning",
    "RangeError",
    "RangeWarning",
    "RulesError",
    "SeatError",
    "StoppedError",
    "StudevalError",
    "StudevalWarning",
    "TooBigError",
    "UnknownGameError",
    "UnknownRankingError",
]


class StudevalError(Exception):
    """Base class of every error raised by studeval."""


def _card_text(card: object) -> str:
    """A card code as text for a message ("As"), or its repr when it is no code."""
    if isinstance(card, bool) or not hasattr(type(card), "__index__"):
        return repr(card)
    code = int(card.__index__())  # type: ignore[attr-defined]
    return TEXT_OF_CODE[code] if 0 <= code < 52 else repr(card)


def _where(row: int | None) -> str:
    return "" if row is None else f" in row {row}"


class InvalidCardError(StudevalError, ValueError):
    """A card text that does not parse, or a code outside 0..51.

    ``card`` is the offending text or value; ``row`` the batch row, if any.
    """

    def __init__(self, card: object, row: int | None = None, detail: str = "") -> None:
        self.card = card
        self.row = row
        why = f" ({detail})" if detail else ""
        shown = _clip(card) if isinstance(card, str) else repr(card)  # never megabytes
        super().__init__(f"invalid card {shown}{_where(row)}{why}")


class DuplicateCardError(StudevalError, ValueError):
    """The same card twice where cards must be distinct.

    ``card`` is the repeated card's code; ``row`` the batch row or ``seat`` the
    seat where it was found, if any.
    """

    def __init__(
        self, card: int, row: int | None = None, seat: int | None = None, detail: str = ""
    ) -> None:
        self.card = card
        self.row = row
        self.seat = seat
        where = _where(row) + ("" if seat is None else f" at seat {seat}")
        why = f" ({detail})" if detail else ""
        super().__init__(f"duplicate card {_card_text(card)}{where}{why}")


class HandSizeError(StudevalError, ValueError):
    """A hand with a number of cards the function does not accept."""

    def __init__(
        self, size: int | None, expected: str, seat: int | None = None, row: int | None = None
    ) -> None:
        self.size = size
        self.expected = expected
        self.seat = seat
        self.row = row
        where = _where(row) + ("" if seat is None else f" at seat {seat}")
        hand = "the wrong number of cards" if size is None else f"a hand of {size} cards"
        super().__init__(f"{hand}{where}; expected {expected}")


class BatchShapeError(StudevalError, ValueError):
    """A batch array whose shape is not (N, k) with k in 5..7."""

    def __init__(self, shape: tuple[int, ...] | None) -> None:
        self.shape = shape
        got = "rows of different lengths" if shape is None else f"shape {shape}"
        super().__init__(f"cards must have shape (N, k) with k in 5..7; got {got}")


class BatchDtypeError(StudevalError, TypeError):
    """A batch array whose dtype is not an integer type."""

    def __init__(self, dtype: object) -> None:
        self.dtype = dtype
        super().__init__(f"cards must be an integer array; got dtype {dtype}")


class BatchOutputError(StudevalError, ValueError):
    """An ``out=`` array that cannot receive a batch's ranks (type, dtype, shape, read-only)."""


class UnknownGameError(StudevalError, ValueError):
    """A game name other than "stud", "stud8", "razz", "stud_hilo_noq" (or a PHH code).

    ``"stud_hilo"`` is refused with a message that names both hi/lo games: most
    rooms mean 8-or-better by it, and guessing would be a silently wrong game.
    """

    def __init__(self, game: object) -> None:
        self.game = game
        if isinstance(game, str) and game.lower().replace("-", "_") in ("stud_hilo", "stud_hi_lo"):
            message = (
                f"{game!r} is ambiguous: use 'stud8' for Stud Hi/Lo 8-or-better, or "
                "'stud_hilo_noq' for Stud Hi/Lo with no low qualifier"
            )
        else:
            message = (
                f"unknown game {game!r}; expected one of 'stud', 'stud8', 'razz', "
                "'stud_hilo_noq' (or the PHH codes 'F7S', 'F7S/8', 'FR')"
            )
        super().__init__(message)


class UnknownRankingError(StudevalError, ValueError):
    """A ranking name other than "high", "low" or "low8"."""

    def __init__(self, ranking: object) -> None:
        self.ranking = ranking
        super().__init__(f"unknown ranking {ranking!r}; expected 'high', 'low' or 'low8'")


class ChipError(StudevalError, ValueError):
    """Chip amounts that are negative, not integers, or do not fit the seats."""


class SeatError(StudevalError, ValueError):
    """Seat lists that do not fit together (lengths, no live seat, bad index)."""


class IllegalActionError(StudevalError, ValueError):
    """An action, deal or showdown step the rules do not allow now (the message names
    the seat, the action and what is legal); the hand is left as it was."""


class OptionError(StudevalError, ValueError, TypeError):
    """An option (``threads``, ``check``, ...) given a value or a type it does not take.

    It is both a ``ValueError`` and a ``TypeError``, so code written for either
    (``threads=0`` is a bad value, ``threads="2"`` a bad type) catches it.
    """


class RulesError(OptionError):
    """A house-rules option, or a ``rules=`` argument, with a value it does not know."""


class NoDealError(StudevalError, ValueError):
    """A deal the deck cannot make: too few unseen cards are left for every hand, even
    with one community card on seventh street (equity), or for the seats still
    waiting for their card (the engine: deal the community card instead)."""


class StoppedError(StudevalError, ValueError):
    """A long exact equity count stopped early on request (the progress callback
    returned False, or Ctrl-C); :func:`studeval.equity` answers with a quick sample
    instead, or raises the ``KeyboardInterrupt``."""


class TooBigError(StudevalError, ValueError):
    """An exact heads-up count by class that would take too long; :func:`studeval.equity`
    walks the deals or samples them instead."""


class CoreCallError(StudevalError, ValueError):
    """Arguments the compiled core refuses (``studeval._core`` called directly: the
    public functions check their input first). ``status`` names the core's reason."""

    def __init__(self, message: str, status: str = "") -> None:
        self.status = status
        super().__init__(message)


class InvalidRankError(StudevalError, ValueError):
    """A rank outside its ranking's range (1..7462 high, 1..6175 low)."""

    def __init__(self, rank: object, ranking: str, last: int) -> None:
        self.rank = rank
        self.ranking = ranking
        super().__init__(f"{ranking} rank {rank!r} is outside 1..{last}")


class InvalidLineError(StudevalError, ValueError):
    """A line of hand text that is not a hand of 5 to 7 distinct cards.

    ``line`` is the 1-based line number, ``text`` the line and ``reason`` why.

    >>> from studeval.errors import InvalidLineError
    >>> err = InvalidLineError(3, "As Kd", "2 cards; a hand has 5 to 7")
    >>> str(err), err.line
    ("line 3: 'As Kd': 2 cards; a hand has 5 to 7", 3)
    """

    def __init__(self, line: int, text: str, reason: str) -> None:
        self.line = line
        self.text = text
        self.reason = reason
        super().__init__(f"line {line}: {_clip(text)}: {reason}")


#: How much of a bad line an error message shows: enough to recognise a hand
#: (a 7-card line is 20 characters), never megabytes of a runaway line.
_SHOWN = 60


def _clip(text: str) -> str:
    """``repr`` of a line, cut to :data:`_SHOWN` characters with its length after.

    >>> _clip("As Kd")
    "'As Kd'"
    >>> _clip("As " * 1000)
    "'As As As As As As As As As As As As As As As As As As As As '... (3,000 characters)"
    """
    if len(text) <= _SHOWN:
        return repr(text)
    return f"{text[:_SHOWN]!r}... ({len(text):,} characters)"


class RangeError(StudevalError, ValueError):
    """A range that cannot be read or holds nothing: ``text`` and ``position`` (the
    index of the offending character, None when the whole range is at fault) say
    where, and the message shows it under a caret.

    >>> err = RangeError("no such class", text="KK, pears", position=4)
    >>> print(err)
    no such class at character 5 of the range:
      KK, pears
          ^
    >>> isinstance(err, ValueError), err.position
    (True, 4)
    """

    def __init__(self, reason: str, text: str | None = None, position: int | None = None) -> None:
        self.reason = reason
        self.text = text
        self.position = position
        if text is not None and position is not None:
            message = (f"{reason} at character {position + 1} of the range:\n  {text}\n"
                       f"  {' ' * position}^")  # fmt: skip
        elif text is not None:
            message = f"{reason}: {text!r}"
        else:
            message = reason
        super().__init__(message)


class SolveError(StudevalError, ValueError):
    """A spot that cannot be solved, or a question a solution cannot answer (the
    message says why)."""


class DatabaseError(StudevalError, ValueError):
    """A hand database that cannot be used as asked: another program's file, one
    written by another version of studeval, or an option it does not take (the
    message names the file or the option)."""


class QueryError(StudevalError, ValueError):
    """A query that cannot be read, or asks what studeval does not answer: ``text``
    and ``position`` (the index of the offending character, None when the whole query
    is at fault) say where, and the message shows it under a caret.

    >>> print(QueryError("expected FROM", text="select avg(x)", position=13))
    expected FROM at character 14 of the query:
      select avg(x)
                   ^
    """

    def __init__(self, reason: str, text: str | None = None, position: int | None = None) -> None:
        self.reason = reason
        self.text = text
        self.position = position
        if text is not None and position is not None:
            line = text.replace("\n", " ")
            message = (f"{reason} at character {position + 1} of the query:\n  {line}\n"
                       f"  {' ' * position}^")  # fmt: skip
        else:
            message = reason
        super().__init__(message)


class StudevalWarning(UserWarning, StudevalError):
    """Base class of every warning studeval gives. Under ``-W error`` (or
    ``warnings.simplefilter("error")``) a warning is raised as an exception: it is
    then a :class:`StudevalError` too, caught with studeval's other errors.

    >>> import warnings
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("error")
    ...     try:
    ...         warnings.warn(RangeWarning("this term holds no combination"))
    ...     except ValueError as err:  # a RangeWarning is about its input
    ...         print(type(err).__name__, isinstance(err, StudevalError))
    RangeWarning True
    """


class RangeWarning(StudevalWarning, ValueError):
    """A term of a range's list that no combination the up and dead cards leave can
    hold (``"AA*, KK*"`` with three aces dead): it adds nothing, and the range is the
    other terms. The message shows the term under a caret. Raised as an error under
    ``-W error``, it is a ``ValueError`` as other bad input is."""


class QueryWarning(StudevalWarning):
    """A query answered on fewer trials than asked: its ``where`` clause kept too few
    of the trials its budget allowed (the result says how many it kept)."""


def install_hint(extra: str) -> str:
    """How to install one of studeval's optional extras: from PyPI once studeval is
    published there, from a source checkout until then.

    >>> install_hint("db")
    "pip install 'studeval[db]' (from a source checkout: pip install '.[db]')"
    """
    return f"pip install 'studeval[{extra}]' (from a source checkout: pip install '.[{extra}]')"
