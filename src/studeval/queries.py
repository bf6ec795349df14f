"""PQL for stud: ask a stud question in one line, answered on the C core.

``query(text)`` reads ProPokerTools' Poker Query Language (select, from, where) for
``stud``, ``stud8`` and ``razz``, compiles each selector and the where clause to a
small program of operations, and runs it in C (threads, the GIL released) on every
deal where the deals are few (exact), else on Monte Carlo trials. A trial deals
every player seven cards in dealing order; a street (``third`` .. ``seventh``) is a
player's first 3 .. 7 cards; the "board" of a stud player is its up cards. The
functions, their stud meanings and what is not supported are in ``docs/query.md``.

>>> r = query("select avg(riverEquity(hero)) as eq from game='stud', hero='As Ad Ah', "
...           "villain='*'", samples=100_000, seed=1)
>>> round(r["eq"], 2), r.trials
(0.93, 100000)
"""

from __future__ import annotations

import math
import secrets
from dataclasses import dataclass

import numpy as np

from studeval import _core, _pql
from studeval._query_run import HAND_TYPES, LOW_TYPES, Compiled, QueryResult, Seat, run
from studeval.batch import threads_arg, whole_arg
from studeval.cards import TEXT_OF_CODE, parse_cards
from studeval.equity_runs import samples_arg
from studeval.errors import OptionError, QueryError, StudevalError
from studeval.ranges import Range, split_range_text

__all__ = ["HAND_TYPES", "LOW_TYPES", "STREETS", "QueryResult", "query"]

#: PQL's street names for stud: the cards a player has been dealt by then.
STREETS = {"third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7}
_TYPE_ALIASES = {"threeofakind": "trips", "set": "trips", "fourofakind": "quads"}
_RANKS, _SUITS = "23456789TJQKA", "cdhs"
_GAMES = {"stud": "stud", "studhi": "stud", "stud8": "stud8", "razz": "razz"}
#: PQL's default number of trials (ProPokerTools').
DEFAULT_SAMPLES = 600_000

Q = _core.QUERY_CODES


@dataclass(frozen=True)
class _Function:
    code: str
    args: tuple[str, ...]  # player, street, handtype
    kind: str  # the result: number, boolean, handtype, lowtype
    half: str = ""  # "high" or "low": the pot half it asks about
    least_street: int = 3


_FUNCTIONS = {
    "riverequity": _Function("equity", ("player",), "number"),
    # before seventh street: what the player sees (the others' ranges), or every hand
    "equity": _Function("street_equity", ("player", "street?"), "number"),
    "hvhequity": _Function("hvh_equity", ("player", "street"), "number"),
    "winshi": _Function("wins_hi", ("player",), "boolean", "high"),
    "tieshi": _Function("ties_hi", ("player",), "boolean", "high"),
    "winslo": _Function("wins_lo", ("player",), "boolean", "low"),
    "tieslo": _Function("ties_lo", ("player",), "boolean", "low"),
    "scoops": _Function("scoops", ("player",), "boolean"),
    "handtype": _Function("hand_type", ("player", "street"), "handtype"),
    "hirating": _Function("hi_rating", ("player", "street"), "number"),
    "lorating": _Function("lo_rating", ("player", "street"), "number", "low", 5),
    "besthirating": _Function("best_hi", ("player", "street"), "boolean", "high"),
    "bestlorating": _Function("best_lo", ("player", "street"), "boolean", "low", 5),
    "minhandtype": _Function("hand_type", ("player", "street", "handtype"), "boolean"),
    "winninghandtype": _Function("winning_type", (), "handtype", "high"),
    "lowtype": _Function("low_type", ("player", "street"), "lowtype", "low", 5),
    "nuthi": _Function("nut_hi", ("player", "street"), "boolean", "high"),
    "nutlo": _Function("nut_lo", ("player", "street"), "boolean", "low", 5),
    "outstohandtype": _Function("outs", ("player", "street", "handtype"), "number"),
    # studeval's: a stud player's board is its up cards (pairs, trips, quads alone),
    # and boardInRange's test on them
    "uphandtype": _Function("up_type", ("player", "street"), "handtype"),
    "upcardsinrange": _Function("up_in", ("player", "street", "pattern"), "boolean"),
}
#: PQL functions studeval knows of and does not answer yet, and why.
_NOT_YET = {
    "boardinrange": "boardInRange: stud has no board; upCardsInRange(p, street, '...') tests "
    "a player's up cards, upHandType(p, street) reads them",
    "minoutstohandtype": "minOutsToHandType is not supported: compare outsToHandType(p, "
    "street, type) with a number",
    "nuthiouts": "nutHiOuts is not supported yet",
}


@dataclass
class _Player:
    up: tuple[int, ...]
    range_text: str | None  # a range (with the up cards), or None
    fixed: tuple[int, ...]  # cards known in dealing order (no range)


def query(text: str, *, samples: int | None = None, seed: int | None = None,
          threads: int | None = None, exact: bool | None = None) -> QueryResult:  # fmt: skip
    """Answer the PQL query ``text`` on ``threads`` (every CPU when None).

    Where the deals are at most 2,000,000 and the ranges' weights alike, every
    deal is counted (``exact=None``, the default; ``True`` insists, ``False`` samples
    anyway). Otherwise ``samples`` Monte Carlo trials are kept (600,000 by default,
    PQL's), from ``seed`` (random when None): a trial the ``where`` clause rejects is
    dealt again, up to 100 times the trials asked for; fewer kept is a
    :class:`~studeval.errors.QueryWarning`, none a :class:`~studeval.errors.QueryError`.

    >>> query("select count(handType(p1, fifth) = flush) from game='stud', p1='*'",
    ...       samples=4096, seed=2).trials
    4096
    >>> r = query("select avg(riverEquity(h)) as h from game='stud', h='As Ad 2c 2d 7h 9s',"
    ...           " v='Kc Kd Ks 3c 4d 8h'")
    >>> r.exact, r.dealt, round(r["h"], 4)
    (True, 1560, 0.0859)
    """
    samples = DEFAULT_SAMPLES if samples is None else samples_arg(samples, "trial")
    n_threads = threads_arg(threads)  # 0: every core
    if seed is None:
        seed = secrets.randbits(63)
    wrong_seed = f"seed must be a whole number 0 .. 2**64 - 1; got {seed!r}"
    seed = whole_arg(seed, wrong_seed)
    if not 0 <= seed < 2**64:
        raise OptionError(wrong_seed)
    if exact is not None:
        if not isinstance(exact, (bool, np.bool_)):
            raise OptionError(f"exact must be True, False or None; got {exact!r}")
        exact = bool(exact)
    compiled = _compile(_pql.parse(text))
    return run(compiled, samples, seed, n_threads, exact)


# ---- compiling the tree to operations --------------------------------------------------


class _Compiler:
    def __init__(self, tree: _pql.Query) -> None:
        self.tree = tree
        self.ops: list[tuple[int, int, int, int, int, float]] = []
        self.drawn: list[str] = []  # street equities drawn from runouts in each trial
        self.hand_against_hand: list[tuple[int, str]] = []  # (street, text)
        source = tree.sources.get("game")
        if source is None:
            raise QueryError("the from clause names no game (game='stud', 'stud8' or 'razz')")
        game = _GAMES.get(source.value.strip().lower())
        if game is None:
            raise QueryError(f"{source.value!r} is no stud game (stud, studhi, stud8, razz)",
                             tree.text, source.at)  # fmt: skip
        self.game = game
        syntax = tree.sources.get("syntax")
        if syntax is not None and syntax.value.strip().lower() != "generic":
            raise QueryError(f"syntax {syntax.value!r} is not supported (only 'generic')",
                             tree.text, syntax.at)  # fmt: skip
        self.players = [k for k in tree.sources if k not in ("game", "dead", "syntax")]
        if not self.players:
            raise QueryError("the from clause names no player (p1='...')")
        if len(self.players) > _core.QUERY_MAX_PLAYERS:
            raise QueryError(f"{len(self.players)} players: a query deals seven cards to "
                             f"each of at most {_core.QUERY_MAX_PLAYERS} (one deck)")  # fmt: skip

    def fail(self, reason: str, node: object) -> QueryError:
        return QueryError(reason, self.tree.text, getattr(node, "at", None))

    def emit(self, code: str, a: int = -1, b: int = -1, player: int = 0, street: int = 7,
             value: float = 0.0) -> int:  # fmt: skip
        if len(self.ops) == _core.QUERY_MAX_OPS:
            raise QueryError(f"the query is too long (more than {_core.QUERY_MAX_OPS} operations)")
        self.ops.append((Q[code], a, b, player, street, value))
        return len(self.ops) - 1

    def expr(self, node: _pql.Expr) -> tuple[int, str]:
        """The operation that computes ``node``, and its kind."""
        if isinstance(node, _pql.Number):
            return self.emit("const", value=node.value), "number"
        if isinstance(node, _pql.Name) and node.name.lower() in LOW_TYPES:
            low = LOW_TYPES.index(node.name.lower())
            return self.emit("const", value=float(low)), "lowtype"
        if isinstance(node, _pql.Name):
            kind = self.hand_type(node)
            return self.emit("const", value=float(kind)), "handtype"
        if isinstance(node, _pql.Call):
            return self.call(node)
        if isinstance(node, _pql.Text):
            raise self.fail("a quoted string is a pattern of up cards, the last argument of "
                            "upCardsInRange(p, street, '...')", node)  # fmt: skip
        return self.operation(node)

    def hand_type(self, node: _pql.Expr) -> int:
        if not isinstance(node, _pql.Name):
            raise self.fail("expected a hand type (pair, flush, ...)", node)
        word = node.name.lower()
        word = _TYPE_ALIASES.get(word, word)
        if word not in HAND_TYPES:
            if word in STREETS or node.name.lower() in self.players:
                raise self.fail(f"{node.name!r} is an argument, not a value", node)
            if word in LOW_TYPES:
                raise self.fail(f"{node.name!r} is a low type; this argument is a hand type "
                                f"({', '.join(HAND_TYPES)})", node)  # fmt: skip
            raise self.fail(f"{node.name!r} is no hand type ({', '.join(HAND_TYPES)}) nor low "
                            f"type ({', '.join(LOW_TYPES)})", node)  # fmt: skip
        return HAND_TYPES.index(word)

    def operation(self, node: _pql.Operation) -> tuple[int, str]:
        parts = [self.expr(arg) for arg in node.args]
        kinds = [k for _, k in parts]
        op = node.op
        if op in ("and", "or", "not"):
            if any(k != "boolean" for k in kinds):
                raise self.fail(f"{op.upper()} takes true or false values", node)
            return self.emit(op, *(i for i, _ in parts)), "boolean"
        if op in ("=", "<>", "<", "<=", ">", ">="):
            if kinds[0] != kinds[1] or (kinds[0] == "boolean" and op not in ("=", "<>")):
                raise self.fail(f"{op} compares two numbers, hand types or low types; got a "
                                f"{kinds[0]} and a {kinds[1]}", node)  # fmt: skip
            code = {"=": "eq", "<>": "ne", "<": "lt", "<=": "le", ">": "gt", ">=": "ge"}[op]
            return self.emit(code, parts[0][0], parts[1][0]), "boolean"
        if any(k != "number" for k in kinds):
            raise self.fail(f"{op if op != 'neg' else '-'} takes numbers", node)
        code = {"+": "add", "-": "sub", "*": "mul", "/": "div", "neg": "neg"}[op]
        return self.emit(code, *(i for i, _ in parts)), "number"

    def call(self, node: _pql.Call) -> tuple[int, str]:
        key = node.name.lower()
        if key in _NOT_YET:
            raise self.fail(_NOT_YET[key], node)
        function = _FUNCTIONS.get(key)
        if function is None:
            raise self.fail(f"{node.name!r} is no PQL function studeval knows", node)
        if function.half == "high" and self.game == "razz":
            raise self.fail(f"{node.name} asks about a high hand; razz has only the low", node)
        if function.half == "low" and self.game == "stud":
            raise self.fail(f"{node.name} asks about a low hand; stud has only the high", node)
        needed = [a for a in function.args if not a.endswith("?")]
        if not len(needed) <= len(node.args) <= len(function.args):
            raise self.fail(f"{node.name} takes {len(function.args)} argument"
                            f"{'s' * (len(function.args) != 1)}: "
                            f"{', '.join(a.rstrip('?') for a in function.args)}", node)  # fmt: skip
        player, street, kind, value = 0, 7, 0, 0.0
        for arg_kind, arg in zip(function.args, node.args, strict=False):
            if arg_kind == "player":
                player = self.player(arg)
            elif arg_kind.rstrip("?") == "street":
                street = self.street(arg)
            elif arg_kind == "pattern":
                value = self.pattern(arg, street)
            else:
                kind = self.hand_type(arg)
                value = float(kind)
        if street < function.least_street:
            raise self.fail(f"{node.name} needs five cards (fifth street on): a low is five "
                            "cards", node)  # fmt: skip
        code = "equity" if key in ("equity", "hvhequity") and street == 7 else function.code
        label = f"{node.name}({', '.join(a.name for a in node.args if isinstance(a, _pql.Name))})"
        if code == "street_equity":
            self.drawn.append(label)
        elif code == "hvh_equity":
            self.hand_against_hand.append((street, label))
        made = self.emit(code, player=player, street=street, value=value)
        if key == "minhandtype":
            least = self.emit("const", value=float(kind))
            return self.emit("ge", made, least), "boolean"
        return made, function.kind

    def player(self, node: _pql.Expr) -> int:
        if not isinstance(node, _pql.Name) or node.name.lower() not in self.players:
            raise self.fail(f"expected a player of the from clause ({', '.join(self.players)})",
                            node)  # fmt: skip
        return self.players.index(node.name.lower())

    def pattern(self, node: _pql.Expr, street: int) -> float:
        """upCardsInRange's pattern: a rank (2..A) with or without a suit, or ``*``, an
        up card, in base 70 (rank 0..12 or 13 any, times 5, plus suit 0..3 or 4 any)."""
        if not isinstance(node, _pql.Text):
            raise self.fail("expected the up cards' pattern in quotes, such as 'K7' or 'Ks *'",
                            node)  # fmt: skip
        elements, text, i = [], node.text, 0
        while i < len(text):
            char = text[i]
            if char in " ,":
                i += 1
                continue
            if char == "*":
                elements.append(13 * 5 + 4)
                i += 1
                continue
            if char.upper() not in _RANKS:
                raise QueryError(f"{char!r} is no rank (2..9, T, J, Q, K, A) nor '*'",
                                 self.tree.text, node.at + 1 + i)  # fmt: skip
            suit = 4
            if i + 1 < len(text) and text[i + 1].lower() in _SUITS:
                suit = _SUITS.index(text[i + 1].lower())
                i += 1
            elements.append(_RANKS.index(char.upper()) * 5 + suit)
            i += 1
        up = min(street, 6) - 2
        if len(elements) != up:
            raise self.fail(f"'{text}' names {len(elements)} up card"
                            f"{'s' * (len(elements) != 1)}; a player has {up} by "
                            f"{next(k for k, v in STREETS.items() if v == street)} street",
                            node)  # fmt: skip
        return float(sum(e * 70**k for k, e in enumerate(elements)))

    def street(self, node: _pql.Expr) -> int:
        if not isinstance(node, _pql.Name) or node.name.lower() not in STREETS:
            raise self.fail(f"expected a street ({', '.join(STREETS)})", node)
        return STREETS[node.name.lower()]


def _depth(node: _pql.Expr) -> int:
    """How deep ``node``'s tree of operations and calls goes, found without recursion
    (a chain of thousands of ``+`` is as deep as it is long)."""
    deepest, stack = 0, [(node, 1)]
    while stack:
        item, depth = stack.pop()
        deepest = max(deepest, depth)
        if isinstance(item, (_pql.Call, _pql.Operation)):
            stack += [(arg, depth + 1) for arg in item.args]
    return deepest


def _compile(tree: _pql.Query) -> Compiled:
    c = _Compiler(tree)
    # Each level of an expression emits an operation at least: one deeper than the
    # operations a query may have is too long, said before the compiler walks it.
    for expr in [*(x.expr for x in tree.selectors), *([tree.where] if tree.where else [])]:
        if _depth(expr) > _core.QUERY_MAX_OPS:
            raise QueryError(f"the query is too long (more than {_core.QUERY_MAX_OPS} "
                             "operations)")  # fmt: skip
    outputs, kinds = [], []
    for number, selector in enumerate(tree.selectors):
        if number + (tree.where is not None) >= _core.QUERY_MAX_OUTPUTS:
            raise c.fail(f"a query has at most {_core.QUERY_MAX_OUTPUTS} selectors, its where "
                         "clause counted as one", selector)  # fmt: skip
        at, kind = c.expr(selector.expr)
        aggregate = selector.aggregate
        if aggregate == "count" and kind != "boolean":
            raise c.fail("count counts the trials where a condition holds: give it one",
                         selector)  # fmt: skip
        if aggregate in ("min", "max") and kind == "boolean":
            raise c.fail(f"{aggregate} takes a number or a hand type", selector)
        if aggregate == "avg" and kind in ("handtype", "lowtype"):
            raise c.fail(f"avg of a {kind[:-4]} type has no meaning: use histogram", selector)
        outputs.append(at)
        kinds.append(kind)
    where = tree.where is not None
    if tree.where is not None:
        at, kind = c.expr(tree.where)
        if kind != "boolean":
            raise c.fail("the where clause must be a condition (true or false)", tree.where)
        outputs.append(at)
    players, dead = _deal_of(tree, c.players, c.game)
    runouts = 1  # the most showdowns a street equity takes in a trial
    drawn = list(c.drawn)
    for street, label in c.hand_against_hand:
        count = _runouts(len(players), street, len(dead))
        if count > _core.QUERY_EXACT_RUNOUTS:
            drawn.append(label)
        runouts = max(runouts, count)
    sampled = None
    if drawn:
        sampled = (f"{drawn[0]} is drawn from {_core.QUERY_RUNOUTS:,} runouts in each trial "
                   "(so the query is sampled)")  # fmt: skip
    return Compiled(c.game, [s.name for s in tree.selectors], players, dead, c.ops, outputs,
                    kinds, [s.aggregate for s in tree.selectors], where, sampled,
                    runouts)  # fmt: skip


def _runouts(players: int, street: int, dead: int) -> int:
    """The runouts of a deal from ``street`` on, every player's cards by then known."""
    unseen, count = 52 - dead - players * street, 1
    for _ in range(players):
        count *= math.comb(unseen, 7 - street)
        unseen -= 7 - street
    return count


# ---- players' strings ------------------------------------------------------------------


def _deal_of(tree: _pql.Query, names: list[str], game: str) -> tuple[list[Seat], bytes]:
    """Each player's up cards and range of down cards (or none: dealt), and the dead
    cards, from the from clause's strings."""
    dead_source = tree.sources.get("dead")
    dead: list[int] = []
    if dead_source is not None and dead_source.value.strip():
        dead = _cards(tree, dead_source, dead_source.value)
    read = [_player(tree, tree.sources[name]) for name in names]
    _once_each(tree, dead_source, dead, names, read)
    players: list[Seat] = []
    for i, (name, player) in enumerate(zip(names, read, strict=True)):
        source = tree.sources[name]
        others = [c for j, p in enumerate(read) if j != i for c in (*p.up, *p.fixed)]
        if player.range_text is None and not player.fixed:
            players.append((player.up, 0, None, None))
            continue
        if player.range_text is None:
            fixed = player.fixed
            hidden = (*fixed[:2], *fixed[6:])
            players.append((player.up, len(hidden), np.array(hidden, dtype=np.uint8), None))
            continue
        try:
            r = Range(player.range_text, up=list(player.up), game=game, dead=[*dead, *others])
        except StudevalError as err:
            position = getattr(err, "position", None)
            lead = len(source.value) - len(source.value.lstrip())  # the string is stripped
            raise QueryError(f"player {name}'s range: {getattr(err, 'reason', err)}", tree.text,
                             source.at + lead + (position or 0)) from None  # fmt: skip
        weights = None if np.all(r.weights == r.weights[0]) else np.ascontiguousarray(r.weights)
        players.append((player.up, r.width, np.ascontiguousarray(r.hidden).reshape(-1), weights))
    return players, bytes(dead)


def _once_each(tree: _pql.Query, dead_source: _pql.Source | None, dead: list[int],
               names: list[str], read: list[_Player]) -> None:  # fmt: skip
    """Refuses a card given twice (in two players' strings, one twice, or also dead),
    naming it and pointing at the string where it is given again."""
    seen: dict[int, str] = {}
    given = [("the dead cards", dead_source, dead)] + [
        (f"player {name}'s cards", tree.sources[name], list(p.fixed or p.up))  # (up in fixed)
        for name, p in zip(names, read, strict=True)]  # fmt: skip
    for label, source, cards in given:
        for card in cards:
            if card in seen:
                where = "twice there" if seen[card] == label else f"in {seen[card]} too"
                reason = f"{TEXT_OF_CODE[card]} is in {label} and {where}: each card is dealt once"
                raise QueryError(reason, tree.text, getattr(source, "at", None))
            seen[card] = label


def _cards(tree: _pql.Query, source: _pql.Source, text: str) -> list[int]:
    try:
        return parse_cards(text.replace(",", " "))
    except StudevalError as err:
        raise QueryError(f"{err}", tree.text, source.at) from None


def _player(tree: _pql.Query, source: _pql.Source) -> _Player:
    """A player's string: ``*`` (nothing known), cards in dealing order (two down,
    up to four up, the seventh down), or ``RANGE@UP`` (a range of down cards, with
    those up cards), or a range with no up card."""
    text = source.value.strip()
    if text in ("", "*"):
        return _Player((), None, ())
    split = split_range_text(text)
    if split is not None:
        spec, up = split
        return _Player(tuple(_cards(tree, source, up)) if up.strip() else (), spec, ())
    if "," in text:  # a range's elements; cards are written apart or run together
        return _Player((), text, ())
    try:
        cards = parse_cards(text)
    except StudevalError:
        return _Player((), text, ())  # range text, no up card
    if not 2 <= len(cards) <= 7:
        raise QueryError(f"{len(cards)} card{'s' * (len(cards) != 1)}: a player's cards are two "
                         "down cards, then up to four up, then the seventh (or use a range, "
                         "'RANGE@UP')", tree.text, source.at)  # fmt: skip
    return _Player(tuple(cards[2:6]), None, tuple(cards))


# ---- running ----------------------------------------------------------------------------
