"""The C reader of the XML rooms, iPoker and Merge (``se_history_xml.c``), against the
general reader: every hand it reads is the general reader's History, and what it is
not sure of (a changed attribute, a dropped element, an entity, text outside the
games) it leaves to the general reader, which reads it or names what is wrong."""

from __future__ import annotations

import random
import re
from unittest import mock

import pytest
from test_histories_fast import PLAIN_NAMES, _key

from studeval import Stakes
from studeval.histories import read
from studeval.histories._writer import Table
from studeval.histories.rooms import ipoker, merge
from studeval.play import random_hand

#: Each XML room's module, by name: its C path is ``_read_in_c``, its writer ``write``.
ROOMS = {"iPoker": ipoker, "Merge": merge}
_READ_IN_C = {name: module._read_in_c for name, module in ROOMS.items()}


class _Spy:
    """Counts the files the C reader read, and those it left to the general one."""

    def __init__(self, room: str) -> None:
        self.room = room
        self.read = self.refused = 0

    def __call__(self, *args: object) -> object:
        found = _READ_IN_C[self.room](*args)  # type: ignore[arg-type]
        if found is None:
            self.refused += 1
        else:
            self.read += 1
        return found


def _both(room: str, text: str) -> tuple[list[object], list[object], _Spy]:
    """What the reader makes of ``text`` with the C reader, without it, and a count."""
    spy = _Spy(room)
    with mock.patch.object(ROOMS[room], "_read_in_c", spy):
        fast = [_key(h) for h in read(text, errors="collect")]
    with mock.patch.object(ROOMS[room], "_read_in_c", lambda *args: None):
        general = [_key(h) for h in read(text, errors="collect")]
    return fast, general, spy


_STAKES = [Stakes(1, 2, 5, 10), Stakes(0, 2, 4, 8), Stakes(5, 10, 25, 50),
           Stakes(1, 0, 10, 20)]  # the last: no bring-in  # fmt: skip


def _sessions(room: str, seed: int, count: int, one_table: bool = False) -> list[str]:
    """``count`` files of a game each (``one_table``: one game, stakes and players)."""
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
        texts.append(ROOMS[room].write(hand, table))
    return texts


@pytest.mark.parametrize("room", sorted(ROOMS))
def test_random_hands_are_read_in_c_as_the_general_reader_reads_them(room: str) -> None:
    """400 files of every game, 2-8 seats, all-ins, rake, showdowns, games with no
    bring-in: each read in C, and each hand the general reader's History."""
    texts = _sessions(room, 2026, 400)
    fast, general, spy = [], [], _Spy(room)
    for text in texts:  # a hand a file: each is read in C or not, whole
        one_fast, one_general, one_spy = _both(room, text)
        fast += one_fast
        general += one_general
        spy.read += one_spy.read
        spy.refused += one_spy.refused
    assert fast == general
    assert spy.read == 400 and spy.refused == 0
    assert not [k for k in fast if k[0] == "error"]  # type: ignore[index]


@pytest.mark.parametrize("room", sorted(ROOMS))
def test_a_file_of_many_games_is_read_in_c_whole(room: str) -> None:
    """A real file's shape: its games on lines of their own (iPoker's in one session,
    tabs); the hands' lines and text are the file's own."""
    texts = _sessions(room, 3, 30, one_table=True)
    games = [re.search(r"<game\b.*</game>", t, re.DOTALL).group() for t in texts]  # type: ignore[union-attr]
    head = texts[0][: texts[0].index("<game ")]
    if room == "iPoker":
        session = head.replace("><", ">\n\t<") + "\n" + "\n\n".join(games) + "\n</session>\n"
    else:  # each game after its description
        session = "".join(f"{head.strip()}\n{game}\n" for game in games)
    fast, general, spy = _both(room, session)
    # (A Merge file is read a description and its game at a time.)
    assert spy.refused == 0 and spy.read >= 1 and fast == general and len(fast) == 30
    assert [k[15] for k in fast] == [session.count("\n", 0, session.index(g)) + 1 for g in games]  # type: ignore[index]
    assert [k[13] for k in fast] == games  # type: ignore[index]


def _mutated(text: str, rng: random.Random) -> str:
    """``text`` with one thing changed: a digit, an element dropped or doubled, an
    attribute's value, a card, an entity, a comment, text after the session."""
    kind = rng.randrange(8)
    tags = r"<(?:action|cards|player|round|event|winner)\b[^>]*?/>|<cards\b[^>]*>[^<]*</cards>"
    elements = [m.span() for m in re.finditer(tags, text)]
    if kind == 0:  # a digit changed
        places = [i for i, c in enumerate(text) if c.isdigit() and i > 60]
        at = rng.choice(places)
        return text[:at] + rng.choice("0123456789") + text[at + 1 :]
    if kind in (1, 2) and elements:  # an element dropped, or doubled
        start, end = rng.choice(elements)
        return text[:start] + (text[start:end] * 2 if kind == 2 else "") + text[end:]
    if kind == 3:  # an action's type or a player's name changed
        found = list(re.finditer(r'(type|player|sequence|id)="([^"]*)"', text))
        if found:
            m = rng.choice(found)
            new = rng.choice(["7", "23", "99", "1", "Nobody", "", "3", "RAISE", "BET", "HOLE"])
            return text[: m.start(2)] + new + text[m.end(2) :]
    if kind == 4:  # a card changed
        found = list(re.finditer(r'>([^<>]+)</cards>|cards="([^"]*)"', text))
        if found:
            m = rng.choice(found)
            group = 1 if m.group(1) is not None else 2
            cards = rng.choice(["X X S10", "ZZ", "H5 H5", "c1 DA", "", "null,Ah", "Tc,Tc,Tc"])
            return text[: m.start(group)] + cards + text[m.end(group) :]
    if kind == 5:  # an entity in a name
        return text.replace('name="', 'name="A&amp;', 1)
    if kind == 6:  # a comment inside a game
        return text.replace("<round", "<!-- x --><round", 1)
    return text + rng.choice(["<session/>", "trailing text", "\n", "<game>"])


@pytest.mark.parametrize("room", sorted(ROOMS))
def test_a_thing_changed_is_read_the_same_or_left_to_the_general_reader(room: str) -> None:
    """Files with one thing changed: what the C reader reads is the general reader's
    History, and what it leaves is read or refused by the general reader."""
    rng = random.Random(9)
    read_in_c = refused = errors = 0
    for text in _sessions(room, 11, 500):
        fast, general, spy = _both(room, _mutated(text, rng))
        assert fast == general
        read_in_c += spy.read
        refused += spy.refused
        errors += sum(1 for k in general if k[0] == "error")  # type: ignore[index]
    assert read_in_c > 60 and refused > 100 and errors > 100, (read_in_c, refused, errors)


_LEFT_WHOLE = [
    ("iPoker", 'name="', 'name="&lt;'), ("iPoker", "<round", "<!-- c --><round"),
    ("iPoker", 'seat="1"', 'seat="x"'), ("iPoker", 'type="3"', 'type="42"'),
    ("iPoker", "</session>", "</session><x/>"), ("Merge", 'nickname="', 'nickname="&lt;'),
    ("Merge", "<round", "<!-- c --><round"), ("Merge", 'seat="1"', 'seat="x"'),
    ("Merge", 'id="THIRD_STREET"', 'id="NINTH_STREET"'), ("Merge", "</game>", "</game>x"),
]  # fmt: skip


@pytest.mark.parametrize(("room", "old", "new"), _LEFT_WHOLE)
def test_what_the_c_reader_does_not_read_is_left_whole(room: str, old: str, new: str) -> None:
    """An entity, a comment, a number or a round it does not read, text after the
    games: the C reader leaves the whole file to the general reader."""
    text = next(t for t in _sessions(room, 5, 20) if old in t).replace(old, new, 1)
    assert _READ_IN_C[room](text, 1, None) is None
