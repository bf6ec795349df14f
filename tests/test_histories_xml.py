"""The XML rooms, iPoker and Merge: mixed-game files, games without a bring-in, a
hero who mucks, amounts and players read strictly, texts holding several documents
or cut short.

The texts are the rooms' examples, edits of them, and random hands written by the
rooms' writers and read back.
"""

from __future__ import annotations

import random
import re
from decimal import Decimal

import pytest
from helpers import example

from studeval import Stakes, StudHand
from studeval.histories import ROOMS, HistoryError, read
from studeval.histories._record import NotStudError, Transcript
from studeval.histories._writer import Table
from studeval.histories.rooms import ipoker, merge
from studeval.play import random_hand

#: The rooms' example hands (tests/data/histories).
IPOKER_EXAMPLE = example("ipoker.xml")
MERGE_EXAMPLE = example("merge.xml")

#: The XML rooms' writers, from the list of rooms.
WRITERS = {r.site: r.write for r in ROOMS if r.xml is not None}
assert sorted(WRITERS) == ["Merge", "iPoker"]
#: Merge's code of each game in a mixed game's file, cash and tournament.
MIXED_CODES = {"stud": ("39", "41"), "stud8": ("43", "45"), "razz": ("47", "49")}


def _actions(hand: StudHand) -> list[tuple[str, int | None, int, int | None]]:
    return [(e.kind, e.seat, e.amount, e.to) for e in hand.events
            if e.kind not in ("deal", "community", "show", "muck")]  # fmt: skip


def _played(game: str, stakes: Stakes, stacks: list[int], opening: tuple[str, int | None],
            muck: int | None = None) -> StudHand:  # fmt: skip
    """A hand dealt As Ad 2c against 3s 4d Kh whose first seat to act ``opening``s,
    checked down after a call (or a check); seat ``muck`` concedes at the showdown."""
    hand = StudHand(game, stakes, stacks)
    hand.deal(0, ["As", "Ad", "2c"])
    hand.deal(1, ["3s", "4d", "Kh"])
    hand.act(*opening)
    hand.act("call" if "call" in hand.legal().kinds() else "check")
    while not hand.over:
        if hand.actor is None:
            hand.deal_random(5)
        elif hand.showdown:
            hand.muck() if hand.actor == muck else hand.show()
        else:
            hand.act("check")
    return hand


# ---- Merge's mixed games ----------------------------------------------------------


def _mixed(text: str, code: str, holes: int = 7, tournament: bool = False) -> str:
    """A Merge hand written by ``merge.write`` as a HORSE file's round of game ``code``."""
    kind = 'type="HORSE Tournament" stakes="Limit"' if tournament else r'type="HORSE" \1'
    text = re.sub(r'type="[^"]*" (stakes="Limit [^"]*")', kind, text, count=1)
    if tournament:  # the balance after the ante; the tournament's id in "data"
        antes = dict(re.findall(r'type="ANTE" player="(\d+)" amount="([\d.]+)"', text))
        text = re.sub(r'seat="(\d+)" nickname="([^"]*)" balance="\$?([\d.]+)"',
                      lambda m: f'seat="{m[1]}" nickname="{m[2]}" balance="$'
                      f'{Decimal(m[3]) - Decimal(antes.get(m[1], 0))}"', text)  # fmt: skip
        text = re.sub(r'data="(\d+)\|([^|]*)\|1\|', r'data="\1|\2|77-1|', text)
    return text.replace("<game ", f'<game numholecards="{holes}" multigametype="{code}" ', 1)


@pytest.mark.parametrize("tournament", [False, True])
def test_a_merge_horse_file_reads_its_stud_rounds_and_skips_the_others(tournament: bool) -> None:
    """A mixed game's file describes the mix ("HORSE"); each ``<game>`` names its own
    game by its code. A tournament's balance is written after the ante."""
    rng = random.Random(f"HORSE {tournament}")
    all_in = 0
    for number in range(60):
        game = rng.choice(["stud", "stud8", "razz"])
        hand = random_hand(game, rng.randint(2, 6), rng=rng, stack=rng.choice([12, 40, 300]),
                           stakes=Stakes(1, 2, 5, 10))  # fmt: skip
        if hand.community is not None:
            continue
        text = merge.write(hand, Table(names=["Ann", "Bob", "Cy", "Di", "Ed", "Flo"][:hand.seats],
                                       hand_id=number))  # fmt: skip
        history = next(read(_mixed(text, MIXED_CODES[game][tournament], tournament=tournament)))
        assert history.game == game and history.hand.stacks == hand.stacks, text
        assert _actions(history.hand) == _actions(hand)
        assert history.tournament == ("77" if tournament else None)
        all_in += 0 in hand.stacks
    assert all_in > 5
    # A hold'em or omaha round is not stud: counted apart, by its game.
    text = merge.write(random_hand("razz", 2, seed=3), Table(names=["Ann", "Bob"]))
    for code, holes, name in (("23", 2, "Hold'em"), ("37", 4, "Omaha H/L8"), ("41", 5, "game 41")):
        found = next(read(_mixed(text, code, holes, tournament=True), errors="collect"))
        assert isinstance(found, NotStudError) and found.status == "not stud"
        assert found.reason.endswith(f"HORSE Tournament Limit ({name})")
        assert found.kind == f"not a fixed-limit seven-card stud game: {name}"


# ---- a game without a bring-in ----------------------------------------------------


@pytest.mark.parametrize("site", sorted(WRITERS))
def test_a_game_without_a_bring_in_reads_back_its_stakes(site: str) -> None:
    """The first seat's all-in bet for less than the small bet in a game without a
    bring-in is not a completion over a bring-in: the stakes and kinds come back."""
    stakes = Stakes(ante=1, bring_in=0, small_bet=10, big_bet=20)
    openings = ((("bet", 7), [8, 40]), (("bet", 10), [40, 40]), (("check", None), [40, 40]))
    for opening, stacks in openings:
        hand = _played("stud", stakes, stacks, opening)
        history = next(read(WRITERS[site](hand, Table(names=["Ann", "Bob"]))))
        assert history.stakes == stakes
        assert _actions(history.hand) == _actions(hand) and history.hand.stacks == hand.stacks
    # A game with one still reads its bring-in from the text, as the rooms write it.
    hand = _played("stud", Stakes(1, 5, 10, 20), [40, 40], ("bring_in", None))
    assert next(read(WRITERS[site](hand, Table(names=["Ann", "Bob"])))).stakes.bring_in == 5


# ---- iPoker: a hero who mucks -----------------------------------------------------


def test_an_ipoker_hero_who_mucks_at_the_showdown_reads_back_the_same() -> None:
    """iPoker writes the hero's own cards in full, shown or not: a hero who took no
    pot at the showdown conceded it; one who won showed."""
    for muck in (0, None):
        hand = _played("stud", Stakes(1, 2, 5, 10), [100, 100], ("bring_in", None), muck=muck)
        text = ipoker.write(hand, Table(names=["Hero", "Vil"], hero=0))
        history = next(read(text))
        assert history.hand.stacks == hand.stacks and _actions(history.hand) == _actions(hand)
        assert history.hand.cards[0] == hand.cards[0]
        kinds = [e.kind for e in history.hand.events if e.seat == 0 and e.kind in ("show", "muck")]
        assert kinds == (["muck"] if muck == 0 else ["show"])


# ---- amounts and players, strictly ------------------------------------------------


def _ipoker(old: str, new: str) -> str:
    assert old in IPOKER_EXAMPLE
    return IPOKER_EXAMPLE.replace(old, new, 1)


def _merge(old: str, new: str) -> str:
    assert old in MERGE_EXAMPLE
    return MERGE_EXAMPLE.replace(old, new, 1)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (_ipoker('chips="200"', 'chips="-200"'),
         "line 7: <player> chips='-200': an amount cannot be negative"),
        (_ipoker('sum="10"', 'sum="abc10xyz"'), "line 16: <action> sum='abc10xyz': not an amount"),
        (_ipoker('sum="10"', 'sum="1.0.0"'), "<action> sum='1.0.0': not an amount"),
        (_ipoker('chips="200"', 'chips="2,00"'), "<player> chips='2,00': not an amount"),
        (_ipoker(' chips="200"', ""), "line 7: <player> has no chips"),
        (_ipoker('seat="2"', 'seat="two"'), "line 8: <player> seat='two': not a whole number"),
        (_ipoker('name="Villain"', 'name="Hero"'),
         "line 8: 'Hero' is seated twice (seats 1 and 2)"),
        (IPOKER_EXAMPLE.replace('win="104"', 'win="110"'),
         "line 5: the players won 110 in all, more than the 104 they bet"),
        (_ipoker('<action no="4" player="Villain"', '<action no="4" player="Nobody"'),
         "line 16: 'Nobody' is not seated in this hand"),
        (_ipoker('<cards type="Third Street" player="Villain"',
                 '<cards type="Third Street" player="Ghost"'),
         "line 13: 'Ghost' is not seated in this hand"),
        (_merge('type="BET" player="1" amount="0.10"', 'type="BET" player="1" amount="-0.10"'),
         "line 21: <event> amount='-0.10': an amount cannot be negative"),
        (_merge('balance="$2.00"', 'balance="$2.00x"'), "line 4: <player> balance='$2.00x'"),
        (_merge('nickname="Villain"', 'nickname="Hero"'), "line 5: 'Hero' is listed twice"),
        (_merge('seat="2"', 'seat="1"'), "line 5: seat 1 is listed twice"),
        (_merge('amount="0.32"', 'amount="0.40"'),
         "line 27: the players won 0.40 in all, more than the 0.34 they bet"),
        (_merge('<event sequence="6" type="BET" player="1"', '<event sequence="6" type="BET" '
                'player="9"'), "line 21: player '9' is not seated in this hand"),
        (_merge('cards="As,2h,3c,4d" player="1"', 'cards="As,2h,3c,4d" player="7"'),
         "line 23: player '7' is not seated in this hand"),
        (_merge('potnumber="1" player="1"', 'potnumber="1" player="5"'),
         "line 27: player '5' is not seated in this hand"),
        (_merge('nickname="Villain" balance="$2.00" dealtin="true"',
                'nickname="Villain" balance="$2.00" dealtin="false"'),
         "player '2' is not seated in this hand"),
    ],
)  # fmt: skip
def test_amounts_and_players_are_read_strictly(text: str, words: str) -> None:
    """An amount is the whole attribute (a sign, digits, decimals; never negative),
    a seat a whole number, a name seated once; a player named by an action, a deal
    or a winner is seated; the winners take no more than was bet. Each error names
    the element, its attribute and its line, and is yielded, never raised, with
    ``errors="collect"``."""
    found = list(read(text, errors="collect"))
    assert len(found) == 1 and isinstance(found[0], HistoryError)
    assert words in str(found[0])
    with pytest.raises(HistoryError, match=re.escape(words)):
        next(read(text))


def test_amounts_as_the_rooms_write_them() -> None:
    """A currency sign before or after, thousands commas, cents; code page 1252's
    euro decoded as UTF-8 (a replacement character)."""
    for chips, stack in (("$200", 200), ("200€", 200), ("\ufffd200", 200), ("1,200", 1200)):
        text = IPOKER_EXAMPLE.replace('chips="200"', f'chips="{chips}"')
        assert next(read(text)).hand.starting_stacks == [stack, stack]


# ---- several documents in one text, and a text cut short ---------------------------


def _lines(found: list[Transcript | HistoryError]) -> list[tuple[str, str, int]]:
    return [(type(f).__name__, f.hand_id or "", f.line or 0) for f in found]


def test_ipoker_sessions_appended_in_one_text_are_all_read() -> None:
    """Files appended one after another: each session is read, its hands on their own
    lines; text after a session that is none is an error naming its line."""
    second = IPOKER_EXAMPLE.replace('gamecode="100"', 'gamecode="101"')
    text = IPOKER_EXAMPLE + second
    found = list(ipoker.transcripts(text, 1, None))
    assert _lines(found) == [("Transcript", "100", 5), ("Transcript", "101", 35)]
    assert [h.hand_id for h in read(text)] == ["100", "101"]
    found = list(ipoker.transcripts(IPOKER_EXAMPLE + "Notes: a long session\n" + second, 1, None))
    assert _lines(found) == [("Transcript", "100", 5), ("HistoryError", "", 31),
                             ("Transcript", "101", 36)]  # fmt: skip
    assert "text that is no iPoker document is not read: 'Notes: a long session'" in str(found[1])
    # A session cut short, then another: the cut hand is said, the next one read.
    cut = IPOKER_EXAMPLE[: IPOKER_EXAMPLE.index('<round no="4">')]
    found = list(ipoker.transcripts(cut + second, 1, None))
    assert _lines(found) == [("HistoryError", "100", 20), ("Transcript", "101", 25)]
    assert "line 20: the text ends before the hand does" in str(found[0])


def test_merge_text_that_is_no_merge_game_is_reported() -> None:
    """An iPoker session or plain text among a Merge file's games is not passed over."""
    found = list(merge.transcripts(MERGE_EXAMPLE + IPOKER_EXAMPLE, 1, None))
    assert _lines(found) == [("Transcript", "1-1", 2), ("HistoryError", "", 31)]
    assert "a <session> element is no Merge game: not read" in str(found[1])
    found = list(merge.transcripts(MERGE_EXAMPLE + "Notes: a long session\n" + MERGE_EXAMPLE,
                                   1, None))  # fmt: skip
    assert _lines(found) == [("Transcript", "1-1", 2), ("HistoryError", "", 30),
                             ("Transcript", "1-1", 32)]  # fmt: skip
    assert "text that is no Merge game is not read: 'Notes: a long session'" in str(found[1])


@pytest.mark.parametrize("site", sorted(WRITERS))
def test_a_text_cut_short_ends_before_the_hand_does(site: str) -> None:
    """A file cut inside a hand: the hands before it are read, and the cut one is
    "the text ends before the hand does" on the text's last line (one line number,
    as the text rooms say it)."""
    example = IPOKER_EXAMPLE if site == "iPoker" else MERGE_EXAMPLE
    for cut in ("<round", 'player="', "</round>"):
        text = example + example[: example.rindex(cut) + len(cut)]
        found = list(read(text, errors="collect", duplicates="keep"))
        assert [type(f).__name__ for f in found] == ["History", "HistoryError"]
        last = text.count("\n") + 1
        assert str(found[1]).endswith(f"line {last}: the text ends before the hand does")
        assert str(found[1]).count("line") == 1 and found[1].hand_id == found[0].hand_id
    if site == "Merge":  # cut inside the tag that begins the next file
        found = list(merge.transcripts(example + example[:8], 1, None))
        assert str(found[-1]).endswith("line 30: the text ends before the hand does")
    broken = example.replace("</round>", "</rounds>", 1)
    assert "not well-formed XML: mismatched tag" in str(next(read(broken, errors="collect")))


def test_an_ipoker_file_cut_after_its_last_hand_reads_it() -> None:
    """fpdb's sample ends after its last ``</game>``, without ``</session>``: the hand
    is whole, and read; a file cut before its first hand says so."""
    whole = IPOKER_EXAMPLE[: IPOKER_EXAMPLE.index("</session>")]
    assert [h.hand.stacks for h in read(whole)] == [[158, 242]]
    head = IPOKER_EXAMPLE[: IPOKER_EXAMPLE.index("<game ")]
    with pytest.raises(HistoryError, match="line 4: the text ends before its first hand"):
        next(read(head))


def test_many_documents_are_cut_apart_in_one_pass() -> None:
    """A file of many XML documents (a writer's hand each) is cut with one search for
    a text room's hand, not one a document (which took time growing as the square
    of the file), and each hand keeps the number of its first line."""
    from unittest import mock

    from studeval.histories import _reader

    hands = [random_hand("stud", 3, seed=seed) for seed in range(40)]
    texts = [WRITERS["iPoker"](h, Table(names=["Ann", "Bob", "Cy"], hand_id=n + 1))
             for n, h in enumerate(hands)]  # fmt: skip
    text = "\n\n".join(texts)
    calls = []
    real = _reader.starting_lines

    def counted(*args: object) -> object:
        calls.append(args[1])
        return real(*args)  # type: ignore[arg-type]

    with mock.patch.object(_reader, "starting_lines", counted):
        parts = _reader._segments(text, list(_reader.GRAMMARS))
    assert len(parts) == 40 and len(calls) == 1
    starts = [text.count("\n", 0, text.index(t)) + 1 for t in texts]
    assert [line for _, line in parts] == starts
    found = list(read(text))
    assert [h.hand.stacks for h in found] == [h.stacks for h in hands]


@pytest.mark.parametrize(("named", "currency"), [
    ("SEK", "SEK"), ("NOK", "NOK"), ("DKK", "DKK"), ("PLN", "PLN"), ("EUR", "EUR"),
    ("XYZ", "XYZ"), ("sek", "SEK"), ("Fun chips", "Fun chips"), ("$", "USD"),
])  # fmt: skip
def test_an_ipoker_sessions_currency_is_kept_whatever_it_is(named: str, currency: str) -> None:
    """The currency the file names is the hands' currency: one this reader has no
    sign for is kept as written, never read as none (a room's chips), which had
    added 42 SEK, 42 NOK, 42 DKK and 42 PLN into one player's 168."""
    table = "<tablename>Example</tablename>"
    text = IPOKER_EXAMPLE.replace(table, f"{table}<currency>{named}</currency>")
    assert [h.currency for h in read(text)] == [currency]


def test_an_ipoker_tournament_is_its_code_not_its_title() -> None:
    """Every sit-and-go of a kind has one title ("$5 Limit 7 Card Stud"): the title
    had been the tournament, a player's many sit-and-gos one tournament. The code is
    the session's ``<tournamentcode>`` where it names one, else the number that ends
    the table's name."""
    found = []
    for code in ("699476041", "712345678"):
        text = IPOKER_EXAMPLE.replace(
            "<tablename>Example</tablename>",
            f"<tablename>$5 Limit 7 Card Stud, {code}, {code}</tablename>"
            "<tournamentname>$5 Limit 7 Card Stud</tournamentname>")  # fmt: skip
        found += [(h.tournament, h.currency) for h in read(text)]
        named = text.replace("<tournamentname>", "<tournamentcode>42</tournamentcode>"
                                                 "<tournamentname>")  # fmt: skip
        found += [h.tournament for h in read(named)]
    assert found == [("699476041", None), "42", ("712345678", None), "42"]


def _games_file(site: str, count: int) -> tuple[str, list[str]]:
    """The room's example with its one game written ``count`` times, each with its
    own number, and those numbers."""
    example, number = (IPOKER_EXAMPLE, 'gamecode="100"') if site == "iPoker" else (
        MERGE_EXAMPLE, 'id="1-1"')  # fmt: skip
    game = re.search(r"<game\b.*?</game>", example, re.S)
    assert game is not None and number in game[0]
    ids = [str(200 + n) if site == "iPoker" else f"1-{n + 2}" for n in range(count)]
    copies = "\n".join(game[0].replace(number, number.split("=")[0] + f'="{i}"') for i in ids)
    return example[: game.start()] + copies + example[game.end() :], ids


#: Ways a game's text is broken inside (an edit, a line lost): a name with a bare
#: "&", a closing tag lost, a start tag broken.
_BREAKS = [
    (r'(nickname|name)="[^"]*"', r'\1="A&B"'),
    (r"</round>", ""),
    (r"<game\b", "<game &"),
]


@pytest.mark.parametrize("site", ["iPoker", "Merge"])
@pytest.mark.parametrize("broken", range(len(_BREAKS)))
def test_the_games_after_a_broken_one_are_read(site: str, broken: int) -> None:
    """A game of a file broken inside (not well-formed: an edited name, a lost line) is
    refused, and every game after it is read: they had been neither stored nor
    reported (an iPoker file of 117 hands broken at the 52nd stored 51)."""
    text, ids = _games_file(site, 6)
    games = [m.start() for m in re.finditer(r"<game\b", text)]
    pattern, replacement = _BREAKS[broken]
    bad = text[: games[2]] + re.sub(pattern, replacement, text[games[2] :], count=1)
    assert bad != text
    found = list(read(bad, errors="collect"))
    read_ids = [f.hand_id for f in found if not isinstance(f, Exception)]
    assert read_ids == ids[:2] + ids[3:], found
    errors = [f for f in found if isinstance(f, Exception)]
    assert len(errors) == 1 and "not well-formed XML" in str(errors[0])
