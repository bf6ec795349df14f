"""The C reader of iPoker's XML (``se_history_xml.c``) against the general reader: every
hand it reads is the general reader's History, and what it is not sure of (a
changed attribute, a dropped element, an entity, text outside the games) it leaves
to the general reader, which reads it or names what is wrong."""

from __future__ import annotations

import random
import re
from unittest import mock

import pytest
from test_histories_fast import PLAIN_NAMES, _key

from studeval import Stakes
from studeval.histories import read
from studeval.histories._writer import Table
from studeval.histories.rooms import ipoker
from studeval.play import random_hand


class _Spy:
    """Counts the sessions the C reader read, and those it left to the general one."""

    def __init__(self) -> None:
        self.read = self.refused = 0

    def __call__(self, *args: object) -> object:
        found = _READ_IN_C(*args)
        if found is None:
            self.refused += 1
        else:
            self.read += 1
        return found


_READ_IN_C = ipoker._read_in_c


def _both(text: str) -> tuple[list[object], list[object], _Spy]:
    """What the reader makes of ``text`` with the C reader, without it, and a count."""
    spy = _Spy()
    with mock.patch.object(ipoker, "_read_in_c", spy):
        fast = [_key(h) for h in read(text, errors="collect")]
    with mock.patch.object(ipoker, "_read_in_c", lambda *args: None):
        general = [_key(h) for h in read(text, errors="collect")]
    return fast, general, spy


_STAKES = [Stakes(1, 2, 5, 10), Stakes(0, 2, 4, 8), Stakes(5, 10, 25, 50),
           Stakes(1, 0, 10, 20)]  # the last: no bring-in  # fmt: skip


def _sessions(seed: int, count: int, one_table: bool = False) -> list[str]:
    """``count`` sessions of a game each (``one_table``: one game, stakes and players)."""
    rng = random.Random(seed)
    texts = []
    game, stakes, names = "stud8", _STAKES[0], PLAIN_NAMES[:5]
    for number in range(count):
        if not one_table:
            game, stakes = rng.choice(["stud", "stud8", "razz"]), rng.choice(_STAKES)
            names = rng.sample(PLAIN_NAMES, rng.randint(2, 8))
        seats = len(names)
        hand = random_hand(game, seats, rng=rng, stakes=stakes, stack=rng.choice([12, 40, 300]),
                           rake=rng.choice([0, 3]))  # fmt: skip
        sign = "$" if one_table else rng.choice(["$", ""])
        hero = 0 if one_table else rng.choice([None, 0, seats - 1])
        table = Table(names=names, hand_id=number + 1, sign=sign, hero=hero)
        texts.append(ipoker.write(hand, table))
    return texts


def test_random_sessions_are_read_in_c_as_the_general_reader_reads_them() -> None:
    """400 sessions of every game, 2-8 seats, all-ins, rake, showdowns, games with no
    bring-in: each read in C, and each hand the general reader's History."""
    texts = _sessions(2026, 400)
    fast, general, spy = [], [], _Spy()
    for text in texts:  # one session a text: each is read in C or not, whole
        one_fast, one_general, one_spy = _both(text)
        fast += one_fast
        general += one_general
        spy.read += one_spy.read
        spy.refused += one_spy.refused
    assert fast == general
    assert spy.read == 400 and spy.refused == 0
    assert not [k for k in fast if k[0] == "error"]  # type: ignore[index]


def test_a_file_of_many_games_is_read_in_c_whole() -> None:
    """A real file's shape: one session, its games on lines of their own, tabs; the
    hands' lines and text are the file's own."""
    texts = _sessions(3, 30, one_table=True)
    games = [re.search(r"<game\b.*</game>", t, re.DOTALL).group() for t in texts]  # type: ignore[union-attr]
    head = texts[0][: texts[0].index("<game ")]
    session = head.replace("><", ">\n\t<") + "\n" + "\n\n".join(games) + "\n</session>\n"
    fast, general, spy = _both(session)
    assert spy.read == 1 and fast == general and len(fast) == 30
    assert [k[15] for k in fast] == [session.count("\n", 0, session.index(g)) + 1 for g in games]  # type: ignore[index]
    assert [k[13] for k in fast] == games  # type: ignore[index]


def _mutated(text: str, rng: random.Random) -> str:
    """``text`` with one thing changed: a digit, an element dropped or doubled, an
    attribute's value, a card, an entity, a comment, text after the session."""
    kind = rng.randrange(8)
    elements = [m.span() for m in re.finditer(r"<(?:action|cards|player|round)\b[^>]*?/>|"
                                                r"<cards\b[^>]*>[^<]*</cards>", text)]  # fmt: skip
    if kind == 0:  # a digit changed
        places = [i for i, c in enumerate(text) if c.isdigit() and i > 60]
        at = rng.choice(places)
        return text[:at] + rng.choice("0123456789") + text[at + 1 :]
    if kind in (1, 2) and elements:  # an element dropped, or doubled
        start, end = rng.choice(elements)
        return text[:start] + (text[start:end] * 2 if kind == 2 else "") + text[end:]
    if kind == 3:  # an action's type or a player's name changed
        found = list(re.finditer(r'(type|player)="([^"]*)"', text))
        if found:
            m = rng.choice(found)
            new = rng.choice(["7", "23", "99", "1", "Nobody", "", "3"])
            return text[: m.start(2)] + new + text[m.end(2) :]
    if kind == 4:  # a card changed
        found = list(re.finditer(r">([^<>]+)</cards>", text))
        if found:
            m = rng.choice(found)
            cards = rng.choice(["X X S10", "ZZ", "H5 H5", "c1 DA", ""])
            return text[: m.start(1)] + cards + text[m.end(1) :]
    if kind == 5:  # an entity in a name
        return text.replace('name="', 'name="A&amp;', 1)
    if kind == 6:  # a comment inside a game
        return text.replace("<round", "<!-- x --><round", 1)
    return text + rng.choice(["<session/>", "trailing text", "\n"])


def test_a_thing_changed_is_read_the_same_or_left_to_the_general_reader() -> None:
    """Sessions with one thing changed: what the C reader reads is the general
    reader's History, and what it leaves is read or refused by the general reader."""
    rng = random.Random(9)
    read_in_c = refused = errors = 0
    for text in _sessions(11, 500):
        fast, general, spy = _both(_mutated(text, rng))
        assert fast == general
        read_in_c += spy.read
        refused += spy.refused
        errors += sum(1 for k in general if k[0] == "error")  # type: ignore[index]
    assert read_in_c > 60 and refused > 100 and errors > 100, (read_in_c, refused, errors)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ('name="', 'name="&lt;'),
        ("<round", "<!-- c --><round"),
        ('seat="1"', 'seat="x"'),
        ('type="3"', 'type="42"'),
        ("</session>", "</session><x/>"),
    ],
)
def test_what_the_c_reader_does_not_read_is_left_whole(old: str, new: str) -> None:
    text = next(t for t in _sessions(5, 20) if 'type="3"' in t).replace(old, new, 1)
    assert _READ_IN_C(text, 1, None) is None
