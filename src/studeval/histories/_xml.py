"""What the XML rooms (iPoker, Merge) share: their documents parsed with each
element's line, a cut or broken document reported by one line, and their amounts,
seat numbers and players read strictly.

A text may hold more than one document (files appended one after another):
:func:`documents` parses each in turn, and a part it cannot read is an error that
names its line, never passed over.

>>> [(p.root.tag, p.lines[p.root.find("b")]) for p in documents(
...     "<a>\\n <b/>\\n</a>\\n<a><b/></a>", 1, "a", "iPoker")]
[('a', 2), ('a', 4)]
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ElementTree
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from decimal import Decimal
from xml.parsers import expat

from studeval.histories._record import HistoryError, Transcript, kept

__all__ = ["Game", "Parsed", "documents", "parse", "resumed"]

#: An XML declaration anywhere (a file glued after another has one mid-text).
_DECLARATION = re.compile(r"<\?xml\b[^>]*\?>")
#: An amount as the XML rooms write it: a currency sign before or after (code page
#: 1252's euro, decoded as UTF-8, is a replacement character), digits with thousands
#: commas or none, decimals.
_AMOUNT = re.compile(r"[$€£\ufffd]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?[$€£\ufffd]?")
#: Expat's errors that mean the text ended inside the document (in a tag or a name).
_CUT = {expat.errors.codes[expat.errors.XML_ERROR_NO_ELEMENTS],
        expat.errors.codes[expat.errors.XML_ERROR_UNCLOSED_TOKEN],
        expat.errors.codes[expat.errors.XML_ERROR_PARTIAL_CHAR]}  # fmt: skip


@dataclass
class Parsed:
    """One document: its root, the line each element starts on, the elements whose
    end tag was read, and why the parse stopped early: ``error`` (its reason and
    line; ``None`` when it did not), ``cut`` when the text ends inside the document,
    ``ends_between`` when it ends between the root's children (a file that lacks no
    more than the root's end tag)."""

    root: ElementTree.Element
    lines: dict[ElementTree.Element, int]
    closed: set[ElementTree.Element] = field(default_factory=set)
    error: tuple[str, int] | None = None
    cut: bool = False
    ends_between: bool = False
    stray: list[tuple[int, str]] = field(default_factory=list)  # text between elements
    # Where each closed element is in the document: its UTF-8 bytes, start to end.
    spans: dict[ElementTree.Element, tuple[int, int]] = field(default_factory=dict)
    body: bytes = b""
    first_line: int = 1
    broken_at: int = -1  # where in ``body`` a document broken inside broke

    def text_of(self, element: ElementTree.Element) -> str:
        """The element's text as the document writes it, its start tag to its end tag."""
        start, end = self.spans[element]
        return self.body[start:end].decode("utf-8")


def _blanked(text: str) -> str:
    """``text`` with its XML declarations and byte-order marks as spaces: a
    declaration is allowed only at a document's very start, and a file glued after
    another brings both mid-text. Lines keep their numbers."""
    text = _DECLARATION.sub(lambda m: re.sub(r"[^\n]", " ", m.group()), text)
    return text.replace("\ufeff", " ")


def parse(text: str, first_line: int, wrap: str | None = None) -> Parsed:
    """``text`` (one document, or with ``wrap`` a run of elements put under a root of
    that name) parsed; a document cut short or broken keeps what was read before,
    with the reason it stopped and its line (one: where the text ends for a cut).

    >>> parse("<a>\\n<b>", 1).error
    ('the text ends before the hand does', 2)
    """
    builder = ElementTree.TreeBuilder()
    parser = expat.ParserCreate()
    lines: dict[ElementTree.Element, int] = {}
    closed: set[ElementTree.Element] = set()
    stray: list[tuple[int, str]] = []
    starts: dict[ElementTree.Element, int] = {}
    spans: dict[ElementTree.Element, tuple[int, int]] = {}
    depth = 0
    # Byte offsets count from the document's start (past the wrapping tag, if any).
    shift = len(f"<{wrap}>".encode()) if wrap else 0
    body = _blanked(text)
    data = body.encode("utf-8")

    def start(tag: str, attributes: dict[str, str]) -> None:
        nonlocal depth
        depth += 1
        element = builder.start(tag, attributes)
        lines[element] = first_line + parser.CurrentLineNumber - 1
        starts[element] = parser.CurrentByteIndex - shift

    def end(tag: str) -> None:
        nonlocal depth
        depth -= 1
        element = builder.end(tag)
        closed.add(element)
        at = parser.CurrentByteIndex - shift  # the end tag's "<", or a "<x/>"'s own
        close = data.find(b">", at) if at >= 0 else -1
        if close >= 0:  # (not the wrapping element's, past the document)
            spans[element] = (starts[element], close + 1)

    def chunk_of(chunk: str) -> None:
        if depth == 1 and wrap is not None and chunk.strip():
            stray.append((first_line + parser.CurrentLineNumber - 1, chunk.strip()))
        builder.data(chunk)

    parser.StartElementHandler, parser.EndElementHandler = start, end
    parser.CharacterDataHandler = chunk_of
    last = first_line + body.rstrip().count("\n")
    error, cut, closing, broken_at = None, False, False, -1
    try:
        if wrap:
            parser.Parse(f"<{wrap}>", False)
        parser.Parse(body, False)
        cut = depth > (1 if wrap else 0) or not lines
        closing = True  # what fails now is at the text's end: a tag cut short
        if not cut:
            parser.Parse(f"</{wrap}>" if wrap else "", True)
    except expat.ExpatError as err:
        cut = err.code in _CUT or closing
        if not cut:
            reason = f"not well-formed XML: {expat.ErrorString(err.code)}"
            error = (reason, first_line + (err.lineno or 1) - 1)
            broken_at = max(parser.ErrorByteIndex - shift, 0)
    if cut:
        error = ("the text ends before the hand does", last)
    between = cut and depth == 1 and not wrap and body.rstrip().endswith(">")
    root = builder.close() if lines else ElementTree.Element(wrap or "document")
    return Parsed(root, lines, closed, error, cut, between, stray, spans, data, first_line,
                  broken_at)  # fmt: skip


def resumed(parsed: Parsed, starts: str, wrap: str, end: str | None = None) -> Parsed | None:
    """The elements after where ``parsed`` broke (not well-formed inside: a hand's
    text edited, not cut short), parsed on their own under a root ``wrap``, from
    the first start of one (``starts``, a regular expression) after where it broke,
    to the text's end less the end tag ``end`` of the root they were in:
    the hands after a broken one are read, never lost. None where it did not break
    there or no such element follows.

    >>> broken = parse('<s>\\n<g n="1"/>\\n<g n="2" x="&"/>\\n<g n="3"/>\\n</s>', 1)
    >>> broken.error, [g.get("n") for g in broken.root]
    (('not well-formed XML: not well-formed (invalid token)', 3), ['1'])
    >>> after = resumed(broken, "<g\\\\b", "s", "s")
    >>> [g.get("n") for g in after.root], after.lines[after.root[0]], after.error
    (['3'], 4, None)
    """
    if parsed.broken_at < 0:
        return None
    # From just past where it broke (an element whose start tag broke is not read again).
    text = parsed.body.decode("utf-8")
    at = len(parsed.body[: parsed.broken_at + 1].decode("utf-8", errors="ignore"))
    found = re.compile(starts).search(text, at)
    if found is None:
        return None
    rest = text[found.start() :]
    if end is not None:
        rest = re.sub(rf"</{end}\s*>\s*$", "", rest)
    return parse(rest, parsed.first_line + text.count("\n", 0, found.start()), wrap=wrap)


def documents(text: str, first_line: int, root: str, site: str,
              source: str | None = None) -> Iterator[Parsed | HistoryError]:  # fmt: skip
    """Each document whose root element is ``root`` in ``text``, one after another
    (files appended), parsed; text between them that is none is an error naming its
    line. ``site`` names the room in the errors."""
    start = re.compile(rf"<\?xml\b|<{root}\b")
    opening, end = re.compile(rf"<{root}\b"), re.compile(rf"</{root}\s*>")
    at = 0
    while True:
        found = re.compile(r"\S").search(text, at)
        if found is None:
            return
        begin = found.start()
        line = first_line + text.count("\n", 0, begin)
        if start.match(text, begin) is None:
            after = start.search(text, begin)
            stop = after.start() if after else len(text)
            yield HistoryError(f"text that is no {site} document is not read: "
                               f"{_shown(text[begin:stop])}", site=site, line=line,
                               source=source)  # fmt: skip
            at = stop
            continue
        # The document ends at its root's end tag, or where the next one starts (a
        # file cut short, then another).
        own = opening.search(text, begin)
        closing = end.search(text, begin)
        after = start.search(text, own.end()) if own else None
        stop = min(closing.end() if closing else len(text), after.start() if after else len(text))
        yield parse(text[begin:stop], line)
        at = stop


def _shown(part: str) -> str:
    """The start of a part of a text, to name it in an error."""
    first = part.strip().splitlines()[0]
    return repr(first[:60] + ("..." if len(first) > 60 or "\n" in part.strip() else ""))


@dataclass
class Game:
    """One hand's element being read: what its errors name (the room, the hand id,
    the file and each element's line), and its amounts read strictly."""

    site: str
    hand_id: str
    source: str | None
    lines: dict[ElementTree.Element, int]
    element: ElementTree.Element
    document: Parsed | None = None

    @property
    def text(self) -> str:
        """The hand's element as the document writes it."""
        if self.document is None or self.element not in self.document.spans:
            return ElementTree.tostring(self.element, encoding="unicode")
        return self.document.text_of(self.element)

    @property
    def line(self) -> int:
        """The line the hand's element starts on."""
        return self.lines.get(self.element, 1)

    def transcript(self, parsed: Parsed,
                   build: Callable[[Game], Transcript]) -> Transcript | HistoryError:  # fmt: skip
        """The hand's transcript as ``build`` reads it, or its error: the one that
        stopped the parse inside it, or the one ``build`` raised."""
        if self.element not in parsed.closed:
            reason, line = parsed.error or ("not read", self.line)
            return HistoryError(reason, site=self.site, hand_id=self.hand_id or None, line=line,
                                source=self.source)  # fmt: skip
        try:
            return build(self)
        except HistoryError as err:
            return kept(err)
        except (ValueError, IndexError, KeyError) as err:
            return self.error(f"cannot be read: {err}")

    def error(self, message: str, element: ElementTree.Element | None = None) -> HistoryError:
        """A HistoryError on the line of ``element`` (the hand's own by default)."""
        line = self.lines.get(element, self.line) if element is not None else self.line
        return HistoryError(message, site=self.site, hand_id=self.hand_id, line=line,
                            source=self.source)  # fmt: skip

    def amount(self, element: ElementTree.Element, attribute: str,
               default: Decimal | None = None) -> Decimal:  # fmt: skip
        """``element``'s ``attribute`` as money: the whole of it an amount (a sign,
        digits with thousands commas, decimals), never negative."""
        text = element.get(attribute)
        if text is None:
            if default is not None:
                return default
            raise self.error(f"<{element.tag}> has no {attribute}", element)
        return self._money(text, f"<{element.tag}> {attribute}={text!r}", element)

    def amount_text(self, element: ElementTree.Element) -> Decimal:
        """``element``'s text as money, as :meth:`amount` reads an attribute."""
        text = element.text or ""
        return self._money(text, f"<{element.tag}>{text}</{element.tag}>", element)

    def _money(self, text: str, what: str, element: ElementTree.Element) -> Decimal:
        value = text.strip()
        if _AMOUNT.fullmatch(value) is None:
            cause = ("an amount cannot be negative" if value.lstrip("$€£\ufffd").startswith("-")
                     else "not an amount")  # fmt: skip
            raise self.error(f"{what}: {cause}", element)
        return Decimal(value.strip("$€£\ufffd").replace(",", ""))

    def number(self, element: ElementTree.Element, attribute: str) -> int:
        """``element``'s ``attribute`` as a whole number (a seat, an action's order)."""
        text = element.get(attribute)
        if text is None or not re.fullmatch(r"[0-9]+", text.strip()):
            raise self.error(f"<{element.tag}> {attribute}={text!r}: not a whole number",
                             element)  # fmt: skip
        return int(text)

    def seated(self, name: str | None, seated: Iterable[str], element: ElementTree.Element,
               what: str = "") -> str:  # fmt: skip
        """``name`` when a player of the hand has it; else the error that names it
        (``what`` before the name: ``"player "`` where it is a seat number)."""
        if name is None or name not in seated:
            raise self.error(f"{what}{name!r} is not seated in this hand", element)
        return name

    def check_paid(self, won: Decimal, bet: Decimal,
                   element: ElementTree.Element | None) -> None:  # fmt: skip
        """Refuses a hand whose players won more in all than they bet (the error on
        ``element``'s line, the hand's without one)."""
        if won > bet:
            raise self.error(f"the players won {won} in all, more than the {bet} they bet",
                             element)  # fmt: skip
