"""PQL text read into a tree: ``select AGG(EXPR) [as NAME], ... from KEY='VALUE', ...
[where EXPR]``, the syntax of ProPokerTools' Poker Query Language (keywords in any
case; strings in single or double quotes).

Each node keeps ``at``, where it starts in the text, so that every error points at a
character. What the tree means (functions, players, streets) is
:mod:`studeval.query`'s.

>>> tree = parse("select avg(riverEquity(hero)) as eq from game='stud', hero='AA@Kc'")
>>> tree.selectors[0].name, tree.sources["hero"].value
('eq', 'AA@Kc')
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from studeval.errors import QueryError

__all__ = ["AGGREGATES", "Call", "Name", "Number", "Operation", "Query", "Selector", "parse"]

#: The aggregates of a selector.
AGGREGATES = ("avg", "count", "histogram", "max", "min")
_KEYWORDS = {"select", "from", "where", "as", "and", "or", "not"}
#: PQL constructs this reader knows and refuses by name (never read another way).
_UNSUPPORTED = {"case": "CASE ... WHEN", "when": "CASE ... WHEN", "||": "the || operator"}
_TOKEN = re.compile(
    r"\s*(?:(?P<number>\d+(?:\.\d*)?|\.\d+)|(?P<name>[A-Za-z_][A-Za-z0-9_]*)"
    r"|(?P<string>'[^']*'|\"[^\"]*\")|(?P<op><>|!=|<=|>=|\|\||[=<>+\-*/(),]))"
)


@dataclass(frozen=True)
class Number:
    value: float
    at: int


@dataclass(frozen=True)
class Name:
    """A bare word: a player, a street or a hand type (the query says which)."""

    name: str
    at: int


@dataclass(frozen=True)
class Text:
    """A quoted string as a value (the pattern of upCardsInRange)."""

    text: str
    at: int


@dataclass(frozen=True)
class Call:
    name: str
    args: tuple[Expr, ...]
    at: int


@dataclass(frozen=True)
class Operation:
    """An operator (``+ - * / = <> < <= > >= and or not``, ``neg`` for a minus
    sign) on one or two operands."""

    op: str
    args: tuple[Expr, ...]
    at: int


Expr = Number | Name | Text | Call | Operation


@dataclass(frozen=True)
class Selector:
    aggregate: str
    expr: Expr
    name: str
    at: int


@dataclass(frozen=True)
class Source:
    """One ``KEY='VALUE'`` of the from clause."""

    value: str
    at: int


@dataclass(frozen=True)
class Query:
    text: str
    selectors: tuple[Selector, ...]
    sources: dict[str, Source]
    where: Expr | None


@dataclass(frozen=True)
class _Token:
    kind: str  # number, name, keyword, string, op, end
    text: str
    at: int


def _tokens(text: str) -> list[_Token]:
    tokens, at = [], 0
    while True:
        while at < len(text) and text[at].isspace():
            at += 1
        if at == len(text):
            tokens.append(_Token("end", "", at))
            return tokens
        found = _TOKEN.match(text, at)
        if found is None or found.end() == at:
            raise QueryError(f"unexpected character {text[at]!r}", text, at)
        kind = str(found.lastgroup)
        word = found.group(kind)
        start = found.start(kind)
        if word.lower() in _UNSUPPORTED:  # refused by name, never read another way
            raise QueryError(f"{_UNSUPPORTED[word.lower()]} is not supported by studeval",
                             text, start)  # fmt: skip
        if kind == "name" and word.lower() in _KEYWORDS:
            kind, word = "keyword", word.lower()
        tokens.append(_Token(kind, word, start))
        at = found.end()


#: Expressions nested deeper than this (parentheses, calls, "not" and "-" chains) are
#: refused: the parser and the compiler recurse into them.
MAX_DEPTH = 50


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens = _tokens(text)
        self.i = 0
        self.depth = 0

    def nested(self, parse: Callable[[], Expr]) -> Expr:
        """``parse()`` one level deeper; refused past MAX_DEPTH."""
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise self.fail(f"expressions nested more than {MAX_DEPTH} deep")
        try:
            return parse()
        finally:
            self.depth -= 1

    def peek(self) -> _Token:
        return self.tokens[self.i]

    def take(self) -> _Token:
        token = self.tokens[self.i]
        self.i += 1
        return token

    def fail(self, reason: str, token: _Token | None = None) -> QueryError:
        token = token or self.peek()
        return QueryError(reason, self.text, token.at)

    def expect(self, kind: str, text: str | None = None, what: str | None = None) -> _Token:
        token = self.peek()
        if token.kind != kind or (text is not None and token.text != text):
            found = "the end of the query" if token.kind == "end" else repr(token.text)
            raise self.fail(f"expected {what or text or kind}, found {found}")
        return self.take()

    def is_(self, kind: str, text: str) -> bool:
        token = self.peek()
        return token.kind == kind and token.text == text

    # -- the query ------------------------------------------------------------------

    def query(self) -> Query:
        self.expect("keyword", "select", "SELECT")
        selectors = [self.selector()]
        while self.is_("op", ","):
            self.take()
            selectors.append(self.selector())
        names = [s.name for s in selectors]
        for s in selectors:
            if names.count(s.name) > 1:
                raise QueryError(f"two selectors are named {s.name!r}", self.text, s.at)
        self.expect("keyword", "from", "FROM")
        sources: dict[str, Source] = {}
        while True:
            key = self.expect("name", what="a name (game, dead or a player)")
            self.expect("op", "=")
            value = self.expect("string", what="a quoted string")
            if key.text.lower() in sources:
                raise self.fail(f"{key.text!r} is given twice", key)
            sources[key.text.lower()] = Source(value.text[1:-1], value.at + 1)
            if not self.is_("op", ","):
                break
            self.take()
        where = None
        if self.is_("keyword", "where"):
            self.take()
            where = self.expr()
        if self.peek().kind != "end":
            raise self.fail(f"unexpected {self.peek().text!r} after the query")
        return Query(self.text, tuple(selectors), sources, where)

    def selector(self) -> Selector:
        start = self.peek()
        known = ", ".join(AGGREGATES)
        name = self.expect("name", what=f"an aggregate ({known})")
        if name.text.lower() not in AGGREGATES:
            raise self.fail(f"{name.text!r} is no aggregate ({known})", name)
        self.expect("op", "(")
        expr = self.expr()
        self.expect("op", ")")
        end = self.tokens[self.i - 1]
        label = self.text[start.at : end.at + 1]
        if self.is_("keyword", "as"):
            self.take()
            label = self.expect("name", what="a name after AS").text
        return Selector(name.text.lower(), expr, label, start.at)

    # -- expressions, loosest first -------------------------------------------------

    def expr(self) -> Expr:
        return self.nested(self._disjunction)

    def _disjunction(self) -> Expr:
        left = self.conjunction()
        while self.is_("keyword", "or"):
            at = self.take().at
            left = Operation("or", (left, self.conjunction()), at)
        return left

    def conjunction(self) -> Expr:
        left = self.negation()
        while self.is_("keyword", "and"):
            at = self.take().at
            left = Operation("and", (left, self.negation()), at)
        return left

    def negation(self) -> Expr:
        if self.is_("keyword", "not"):
            at = self.take().at
            return Operation("not", (self.nested(self.negation),), at)
        return self.comparison()

    def comparison(self) -> Expr:
        left = self.sum()
        token = self.peek()
        if token.kind == "op" and token.text in ("=", "<>", "!=", "<", "<=", ">", ">="):
            self.take()
            op = "<>" if token.text == "!=" else token.text
            return Operation(op, (left, self.sum()), token.at)
        return left

    def sum(self) -> Expr:
        left = self.product()
        while self.peek().kind == "op" and self.peek().text in "+-":
            token = self.take()
            left = Operation(token.text, (left, self.product()), token.at)
        return left

    def product(self) -> Expr:
        left = self.unary()
        while self.peek().kind == "op" and self.peek().text in "*/":
            token = self.take()
            left = Operation(token.text, (left, self.unary()), token.at)
        return left

    def unary(self) -> Expr:
        if self.is_("op", "-"):
            at = self.take().at
            return Operation("neg", (self.nested(self.unary),), at)
        return self.primary()

    def primary(self) -> Expr:
        token = self.peek()
        if token.kind == "number":
            self.take()
            return Number(float(token.text), token.at)
        if token.kind == "string":
            self.take()
            return Text(token.text[1:-1], token.at)
        if token.kind == "op" and token.text == "(":
            self.take()
            inner = self.expr()
            self.expect("op", ")")
            return inner
        if token.kind == "name":
            self.take()
            if not self.is_("op", "("):
                return Name(token.text, token.at)
            self.take()
            args: list[Expr] = []
            if not self.is_("op", ")"):
                args.append(self.expr())
                while self.is_("op", ","):
                    self.take()
                    args.append(self.expr())
            self.expect("op", ")")
            return Call(token.text, tuple(args), token.at)
        found = "the end of the query" if token.kind == "end" else repr(token.text)
        raise self.fail(f"expected a value, found {found}")


def parse(text: str) -> Query:
    """The query ``text`` as a tree; a :class:`~studeval.errors.QueryError` that
    points at the character where it cannot be read.

    >>> parse("select count(winsHi(p1)) from game='stud', p1='*', p2='*'").where is None
    True
    >>> parse("select avg(x) form game='stud'")
    Traceback (most recent call last):
    ...
    studeval.errors.QueryError: expected FROM, found 'form' at character 15 of the query:
      select avg(x) form game='stud'
                    ^
    """
    if not isinstance(text, str):
        raise QueryError(f"a query is text; got {type(text).__name__}")
    return _Parser(text).query()
