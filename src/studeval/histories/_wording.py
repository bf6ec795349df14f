"""A room's wording, written once as slot templates and read and written both ways.

A template is a line as the room writes it, with slots in braces where the line
varies: ``"{name}: bets {amount}{all_in}"``. One room's templates, its
:class:`Wording`, are compiled three ways (as the ``parse`` library turns a
``str.format`` string into a reader):

- the general reader's regular expressions (:meth:`Wording.patterns`),
- the C reader's templates (:meth:`Wording.c_templates`, the notation of
  ``studeval.h``, "Hand histories", which is this one without choices),
- the writer's phrases (:meth:`Wording.phrases`, ``str.format`` strings).

The slots:

==================  ====================================  ==========================
slot                reads                                 writes
==================  ====================================  ==========================
``{name}``          a player's name, the shortest that    the player's name
                    lets the line match
``{seat}``          a seat number                         the seat number
``{stack}`` etc.    money: ``{stack}``, ``{amount}``,     the amount
                    ``{to}``, ``{pot}``, ``{rake}``,
                    ``{won}``, ``{bet}``, ``{fee}``,
                    ``{pot_part}``; ``{by}`` (a raise
                    over the bet) and ``{added}`` (what
                    an action puts in) read as ``amount``
``[{cards}]``       one bracketed group of cards          the cards, in the brackets
``{allcards}``      brackets to the line's end            (a deal line's writer
                                                          phrase is the room's own)
``{all_in}``        the room's all-in words, if there     the all-in words where the
                                                          action is all in
``{money}``         money not kept (an amount the room    nothing
                    writes that is not to be trusted)
``{text}``          any text, the shortest                nothing
``{rest}``          the rest of the line                  nothing
``{notparen}``      text up to a ``)``                    nothing
``{number}``        digits, not kept                      nothing
``{code}``          a currency code (``USD``)             nothing
``{spaces}``        spaces, if any                        nothing
``{+x}``            the literal ``x`` once or more        ``x``
``{?x}``            ``x`` (a template) if it is there     nothing
``{a|b}``           ``a`` or ``b`` (templates), in order  ``a``
``{w:r}``           slot ``r``                            slot ``w`` (``{added:money}``)
``{|}``             ``|`` (in a choice: ``{? {|} Rake}``)  ``|``
==================  ====================================  ==========================

A template matches a line whole, trailing spaces aside, unless it ends in
``{rest}``; a summary's template that starts with ``{*}`` is found anywhere in a
line, as often as it is there (OnGame names every winner of a pot on one line:
``won by Ann ($1), Bob ($1)``). A line the notation cannot say is given as a
compiled regular expression instead: it is read by the general reader only.

>>> words = Wording(seat=("Seat {seat}: {name} ({stack})",), streets={},
...                 lines=(("bet", "{name} bets {amount}{all_in}"),), all_in=(" and is all-in",))
>>> words.patterns().lines[0][2].match("Ann B bets $5 and is all-in").groupdict()
{'name': 'Ann B', 'amount': '$5', 'all_in': ' and is all-in'}
>>> words.c_templates(None)
(('seat', 0, 'Seat {seat}: {name} ({amount})'), ('bet', 0, '{name} bets {amount}{? and is all-in}'))
>>> words.phrase("bet")
'{name} bets {amount}{all_in}'
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from studeval.histories._record import StepKind
from studeval.histories._text import MONEY
from studeval.histories._writer import Phrases

__all__ = ["Compiled", "Line", "TemplateError", "Wording", "compile_line", "hint", "unnamed"]

#: A line as a template, or (where the notation cannot say it) a regular expression.
Line = str | re.Pattern[str]

_MONEY_SLOTS = ("stack", "amount", "to", "pot", "pot_part", "rake", "fee", "won", "bet")
# What each slot reads (a regular expression) where it is not money.
_READ = {
    "seat": r"(?P<seat>\d+)",
    "number": r"\d+",
    "money": MONEY,
    "cards": r"(?P<cards>\[[^\[\]]*\])",
    "allcards": r"(?P<cards>\[.*\])",
    "notparen": r"[^)]*",
    "text": r".*?",
    "rest": r".*",
    "spaces": r"\s*",
    "code": r"[A-Z]{3,4}",
}
# Slots read into another group: a raise's "by" and an action's "added" are its amount.
_GROUP = {"by": "amount", "added": "amount"}
# Slots the writer fills in (the others write nothing).
_WRITTEN = {"name", "seat", "stack", "amount", "by", "added", "to", "in_hand", "pot", "rake",
            "cards", "all_in"}  # fmt: skip
# The C reader's slot for each money slot, by the role of the line.
_C_MONEY = {
    "seat": {"stack": "{amount}"},
    "total": {"pot": "{amount}", "rake": "{to}", "fee": "{fee}", "pot_part": "{part}"},
    "won": {"won": "{amount}", "bet": "{to}"},
    "step": {"amount": "{amount}", "by": "{amount}", "added": "{amount}", "to": "{to}"},
}
#: Every slot the notation has.
_KNOWN = {*_READ, *_MONEY_SLOTS, *_GROUP, "name", "all_in"}
_C_SLOTS = {"name": "{name}", "seat": "{seat}", "money": "{money}", "cards": "{cards}",
            "allcards": "{allcards}", "notparen": "{notparen}", "text": "{text}",
            "rest": "{rest}", "spaces": "{spaces}", "code": "{code}",
            "number": "{number}"}  # fmt: skip


@dataclass(frozen=True)
class _Slot:
    read: str  # the slot read ("amount", "rest", ...)
    written: str  # the writer's field, "" for none


@dataclass(frozen=True)
class _Choice:
    options: tuple[tuple[_Node, ...], ...]  # tried in order; an empty one: may be absent
    optional: bool = False  # {?x}: the writer leaves it out (else writes the first)


@dataclass(frozen=True)
class _Repeat:
    literal: str


_Node = str | _Slot | _Choice | _Repeat

#: What a summary's template starts with to be found anywhere in a line, each time.
_ANYWHERE = "{*}"

#: The C reader's slot for a slot or nothing (``{?{code}}``): one template, not two.
_C_OPTIONAL_SLOTS = {((_Slot("code", ""),), ()): "{code?}"}


class TemplateError(ValueError):
    """A template that is not written in the notation (a room module's mistake)."""


def _closing(template: str, at: int) -> int:
    """The index of the brace that closes the one at ``at``."""
    depth = 0
    for i in range(at, len(template)):
        depth += {"{": 1, "}": -1}.get(template[i], 0)
        if depth == 0:
            return i
    raise TemplateError(f"no closing brace in {template!r}")


def _split_options(inner: str) -> list[str]:
    """``inner`` cut at each ``|`` outside braces."""
    parts, depth, start = [], 0, 0
    for i, char in enumerate(inner):
        depth += {"{": 1, "}": -1}.get(char, 0)
        if char == "|" and depth == 0:
            parts.append(inner[start:i])
            start = i + 1
    return [*parts, inner[start:]]


@functools.cache
def _parse(template: str) -> tuple[_Node, ...]:
    nodes: list[_Node] = []
    at = 0
    while at < len(template):
        brace = template.find("{", at)
        if brace < 0:
            nodes.append(template[at:])
            break
        if brace > at:
            nodes.append(template[at:brace])
        end = _closing(template, brace)
        inner = template[brace + 1 : end]
        at = end + 1
        if inner == "|":  # a "|" in a choice's text
            nodes.append("|")
        elif inner.startswith("?"):
            options = tuple(_parse(option) for option in _split_options(inner[1:]))
            nodes.append(_Choice((*options, ()), optional=True))
        elif inner.startswith("+"):
            nodes.append(_Repeat(inner[1:]))
        elif "|" in inner or "{" in inner:
            nodes.append(_Choice(tuple(_parse(option) for option in _split_options(inner))))
        else:
            written, _, read = inner.partition(":")
            read = read or written
            if read not in _KNOWN:
                raise TemplateError(f"no slot {read!r} in the notation ({template!r})")
            nodes.append(_Slot(read, written if written in _WRITTEN else ""))
    return _bracketed(_joined(nodes))


def _joined(nodes: list[_Node]) -> tuple[_Node, ...]:
    """Literal text next to literal text as one (a hint is the longest)."""
    out: list[_Node] = []
    for node in nodes:
        if isinstance(node, str) and out and isinstance(out[-1], str):
            out[-1] += node
        else:
            out.append(node)
    return tuple(out)


def _bracketed(nodes: tuple[_Node, ...]) -> tuple[_Node, ...]:
    """``[{cards}]``: the brackets belong to the slot (a cards group is read with them)."""
    out = list(nodes)
    for i, node in enumerate(out):
        if (isinstance(node, _Slot) and node.read == "cards" and 0 < i < len(out) - 1
                and isinstance(out[i - 1], str) and str(out[i - 1]).endswith("[")
                and isinstance(out[i + 1], str) and str(out[i + 1]).startswith("]")):  # fmt: skip
            out[i - 1] = str(out[i - 1])[:-1]
            out[i + 1] = str(out[i + 1])[1:]
    return tuple(node for node in out if node != "")


def _regex(nodes: tuple[_Node, ...], words: Wording) -> str:
    parts = []
    # A name's shape holds the seat's number only where the line says it no other way.
    seat_in_name = not any(isinstance(n, _Slot) and n.read == "seat" for n in nodes)
    for node in nodes:
        if isinstance(node, str):
            parts.append(re.escape(node))
        elif isinstance(node, _Repeat):
            parts.append(f"(?:{re.escape(node.literal)})+")
        elif isinstance(node, _Choice):
            parts.append("(?:" + "|".join(_regex(option, words) for option in node.options) + ")")
        elif node.read == "name":
            parts.append(words.name_regex(seat_in_name))
        elif node.read == "all_in":
            if words.all_in:
                parts.append("(?P<all_in>" + "|".join(map(re.escape, words.all_in)) + ")?")
        elif node.read in _READ:
            parts.append(_READ[node.read])
        else:
            parts.append(f"(?P<{_GROUP.get(node.read, node.read)}>{MONEY})")
    return "".join(parts)


def unnamed(pattern: str) -> str:
    """``pattern`` with its named groups made plain groups: for joining patterns that
    use the same names into one alternation.

    >>> unnamed("^Seat (?P<seat>[0-9]+): (?P<name>.+?)$")
    '^Seat (?:[0-9]+): (?:.+?)$'
    """
    return re.sub(r"\(\?P<\w+>", "(?:", pattern)


def compile_line(template: Line, words: Wording, flags: int = 0) -> re.Pattern[str]:
    """The general reader's pattern for one line's template."""
    if isinstance(template, re.Pattern):
        return template
    if template.startswith(_ANYWHERE):  # found anywhere, each time (finditer)
        return re.compile(_regex(_parse(template[len(_ANYWHERE) :]), words), flags)
    nodes = _parse(template)
    whole = not (nodes and isinstance(nodes[-1], _Slot) and nodes[-1].read == "rest")
    return re.compile("^" + _regex(nodes, words) + (r"\s*$" if whole else ""), flags)


def hint(template: Line) -> str | tuple[str, ...]:
    """Text every line of the template holds, a line without which is not tried
    against its pattern: its longest literal, or the words of a choice between
    literals where the shortest is longer ("" for none).

    >>> hint("{name}: posts the ante {amount}{all_in}"), hint("{name} : {Bets|D bets} {amount}")
    (': posts the ante ', ('Bets', 'D bets'))
    """
    if isinstance(template, re.Pattern):
        return ""
    nodes = _parse(template.removeprefix(_ANYWHERE))
    best: str | tuple[str, ...] = max((n for n in nodes if isinstance(n, str)), key=len,
                                      default="")  # fmt: skip
    for node in nodes:
        if not isinstance(node, _Choice) or node.optional:
            continue
        words = [o[0] for o in node.options if len(o) == 1 and isinstance(o[0], str)]
        if words and len(words) == len(node.options) and min(map(len, words)) > len(best):
            best = tuple(str(w) for w in words)
    return best


class _NotInC(Exception):
    pass


def _optional_literal(choice: _Choice) -> bool:
    """Whether ``choice`` is a literal or nothing, in that order (``{?.}``, ``{.|}``)."""
    first, *rest = choice.options
    return (rest == [()] and len(first) == 1 and isinstance(first[0], str)
            and not any(c in first[0] for c in "{}"))  # fmt: skip


def _c_texts(nodes: tuple[_Node, ...], role: str, words: Wording) -> list[str]:
    """The C templates of one template: a choice made each way."""
    texts = [""]
    for node in nodes:
        if isinstance(node, str):
            if "{" in node or "}" in node:
                raise _NotInC
            ways = [node]
        elif isinstance(node, _Repeat):
            if "{" in node.literal or "}" in node.literal:
                raise _NotInC
            ways = [f"{{+{node.literal}}}"]
        elif isinstance(node, _Choice) and node.options in _C_OPTIONAL_SLOTS:
            ways = [_C_OPTIONAL_SLOTS[node.options]]
        elif isinstance(node, _Choice) and _optional_literal(node):
            # "x" or nothing, x first: C's optional literal (one template, not two
            # that the reader's check for a nearly matching line would confuse).
            ways = [f"{{~{node.options[0][0]}}}"]
        elif isinstance(node, _Choice):
            ways = []
            for option in node.options:
                try:
                    ways += _c_texts(option, role, words)
                except _NotInC:
                    continue
            if not ways:
                raise _NotInC
        elif node.read == "all_in":
            ways = [f"{{?{text}}}" for text in words.all_in] or [""]
        elif node.read == "name" and words.name_mark:  # the mark after a name: not the name
            if "{" in words.name_mark or "}" in words.name_mark:
                raise _NotInC
            ways = [f"{{{'?' if role == 'seat' else '~'}{words.name_mark}}}"]
            ways = ["{name}" + way for way in ways]
        else:
            slot = _C_MONEY.get(role, _C_MONEY["step"]).get(node.read) or _C_SLOTS.get(node.read)
            slot = slot if role != "name" or node.read == "seat" else None  # a shape: {seat}
            if slot is None or (role == "street" and node.read != "rest"):
                raise _NotInC  # (a street marker's community card: the general reader's)
            ways = [slot]
        texts = [a + b for a, b in itertools.product(texts, ways)]
    return texts


@dataclass(frozen=True)
class Compiled:
    """A wording as the general reader's patterns."""

    seat: tuple[re.Pattern[str], ...]
    streets: tuple[tuple[int, re.Pattern[str]], ...]
    lines: tuple[tuple[StepKind, str | tuple[str, ...], re.Pattern[str]], ...]  # kind, hint
    reveals: tuple[re.Pattern[str], ...]
    reveal_hints: tuple[str, ...]
    totals: tuple[re.Pattern[str], ...]
    summary: tuple[re.Pattern[str], ...]
    ignore: tuple[re.Pattern[str], ...]


@dataclass(frozen=True)
class Wording:
    """One text format's lines, each kind in the notation above (several templates of
    a kind are tried in order; the writer writes the first).

    ``seat``: the seat lines (``{seat}``, ``{name}``, ``{stack}``). ``streets``: the
    markers, by street (3..7; 0 before the deal, 8 the showdown, 9 the summary);
    ``[{cards}]`` on a marker is a community card. ``lines``: (kind, template) for
    the steps (``{name}``, ``{amount}``, ``{to}``, cards, ``{all_in}``).
    ``reveals``: lines that show cards (``{name}``, ``[{cards}]``). ``totals``: the
    summary's total pot and rake (``{pot}``, ``{rake}``, ``{fee}``, ``{pot_part}``).
    ``summary``: the summary's lines of what a player won and bet (``{won}``,
    ``{bet}``). ``ignore``: lines that say nothing the replay needs. ``all_in``: the
    words of an all-in, the writer's first. ``name_shape``: what every name looks
    like where it is not any text, in the notation (Bovada's ``Seat+{seat}``, the
    seat's number in the name); ``name_mark``: text written after some names, no
    part of them (Bovada's `` [ME]`` after the hero's).
    """

    seat: Sequence[Line]
    streets: Mapping[int, Sequence[Line]]
    lines: Sequence[tuple[StepKind, Line]]
    reveals: Sequence[Line] = ()
    totals: Sequence[Line] = ()
    summary: Sequence[Line] = ()
    ignore: Sequence[Line] = ()
    all_in: tuple[str, ...] = ()
    name_shape: str | None = None
    name_mark: str | None = None
    streets_any_case: bool = False  # Everleaf writes "Street" and "street"

    def name_regex(self, with_seat: bool = True) -> str:
        """A name as the general reader's patterns read it (``name``; ``seat`` too
        where the shape holds the seat's number and ``with_seat``), its mark after it."""
        if self.name_shape is None:
            shape = ".+?"
        else:
            shape = _regex(_parse(self.name_shape), self)
            shape = shape if with_seat else unnamed(shape)
        mark = f"(?:{re.escape(self.name_mark)})?" if self.name_mark else ""
        return f"(?P<name>{shape}){mark}"

    def patterns(self) -> Compiled:
        """The general reader's patterns."""
        street_flags = re.IGNORECASE if self.streets_any_case else 0
        found = [hint(t) for t in self.reveals]
        reveal_hints = tuple(w for h in found for w in ((h,) if isinstance(h, str) else h))
        return Compiled(
            seat=tuple(compile_line(t, self) for t in self.seat),
            streets=tuple((street, compile_line(t, self, street_flags))
                          for street, marks in self.streets.items() for t in marks),
            lines=tuple((kind, hint(t), compile_line(t, self)) for kind, t in self.lines),
            reveals=tuple(compile_line(t, self) for t in self.reveals),
            reveal_hints=reveal_hints if all(reveal_hints) else ("",),
            totals=tuple(compile_line(t, self) for t in self.totals),
            summary=tuple(compile_line(t, self) for t in self.summary),
            ignore=tuple(compile_line(t, self) for t in self.ignore),
        )  # fmt: skip

    def c_templates(self, strict_prefix: str | None) -> tuple[tuple[str, int, str], ...]:
        """The C reader's templates, (role, value, text), by role in the reader's
        order; a template made with what C does not read is left to the general
        reader (a hand with such a line is read there)."""
        roles: list[tuple[str, int, Line]] = [("seat", 0, t) for t in self.seat]
        roles += [("street", street, t) for street, marks in self.streets.items() for t in marks]
        roles += [("reveal", 0, t) for t in self.reveals]
        roles += [("total", 0, t) for t in self.totals]
        roles += [("won", 0, t) for t in self.summary]
        roles += [("strict", 0, strict_prefix)] if strict_prefix else []
        roles += [("name", 0, self.name_shape)] if self.name_shape else []
        roles += [(kind, 0, t) for kind, t in self.lines]
        out: list[tuple[str, int, str]] = []
        for role, value, template in roles:
            if role == "strict":
                out.append((role, value, str(template)))
                continue
            if isinstance(template, re.Pattern):
                continue
            if role == "won" and template.startswith(_ANYWHERE):  # C: value 1, to {rest}
                value, template = 1, template[len(_ANYWHERE) :] + "{rest}"
            try:
                texts = _c_texts(_parse(template), role, self)
            except _NotInC:
                continue
            out += [(role, value, text) for text in dict.fromkeys(texts)
                    if (role, value, text) not in out]  # fmt: skip
        return tuple(out)

    def phrase(self, kind: str) -> str:
        """The writer's phrase of a kind of line: its first template, each slot the
        writer's field, each choice its first way and an optional part left out.

        >>> words = Wording((), {}, (("call", "{name} {calls|Calls} {amount}{? [{code}]}{rest}"),))
        >>> words.phrase("call")
        '{name} calls {amount}'
        """
        template = self._first(kind)
        return _phrase(_parse(template))

    def _first(self, kind: str) -> str:
        if kind == "seat":
            found: list[Line] = list(self.seat[:1])
        elif kind in ("total",):
            found = list(self.totals[:1])
        else:
            found = [t for k, t in self.lines if k == kind][:1]
        if not found or isinstance(found[0], re.Pattern):
            raise TemplateError(f"no template of a {kind} line to write")
        return found[0]

    def phrases(self, **given: Any) -> Phrases:
        """The writer's :class:`~studeval.histories._writer.Phrases`: each phrase from
        the first template of its kind unless ``given`` (the header, the deal lines,
        the room's flags, and any line the room writes otherwise than it is read)."""
        derived: dict[str, Any] = {"all_in": self.all_in[0] if self.all_in else ""}
        for field, kind in (("seat", "seat"), ("ante", "ante"), ("bring_in", "bring_in"),
                            ("complete", "complete"), ("bet", "bet"), ("raise_", "raise"),
                            ("call", "call"), ("check", "check"), ("fold", "fold"),
                            ("returned", "return"), ("show", "show"), ("muck", "muck"),
                            ("collect", "collect"), ("total", "total")):  # fmt: skip
            if field not in given:
                derived[field] = self.phrase(kind)
        marks = {street: _phrase(_parse(str(templates[0])))
                 for street, templates in self.streets.items()}  # fmt: skip
        derived["streets"] = {street: marks.get(street, "") for street in range(3, 8)}  # "": none
        derived["showdown"] = marks.get(8, "")
        derived["summary"] = marks.get(9, "")
        return Phrases(**{**derived, **given})


def _phrase(nodes: tuple[_Node, ...]) -> str:
    out = []
    for node in nodes:
        if isinstance(node, str):
            out.append(node.replace("{", "{{").replace("}", "}}"))
        elif isinstance(node, _Repeat):
            out.append(node.literal)
        elif isinstance(node, _Choice):
            out.append("" if node.optional else _phrase(node.options[0]))
        elif node.read == "cards" and node.written:
            out.append("[{cards}]")
        elif node.written:
            out.append(f"{{{node.written}}}")
    return "".join(out)
