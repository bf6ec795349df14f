"""What a hand history's text says twice must agree: the cards shown with the deal
lines, the cards a deal line repeats with those dealt before, the ``X`` of ``raises X
to Y`` with the bet it raises, ``and is all-in`` with the chips left, every amount's
currency with the header's. Each disagreement is a HistoryError naming the line, from
the C reader and the general reader alike. And the reader's patterns: the summary's
total in linear time, player names that hold a line's words read back."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from unittest import mock

import pytest

from studeval import Stakes, StudHand
from studeval.histories import EXAMPLE, HistoryError, read
from studeval.histories import _reader as reader_module
from studeval.histories._writer import Table
from studeval.histories.rooms import everleaf, fulltilt, pokerstars, winamax, winning
from studeval.play import random_hand

_HEADER = """\
PokerStars Hand #1:  7 Card Stud Limit ($0.05/$0.10 USD) - 2026/12/02 12:00:00 ET
Table 'studeval' 8-max
Seat 1: Ann ($1.00 in chips)
Seat 2: Bob ($1.00 in chips)
Ann: posts the ante $0.01
Bob: posts the ante $0.01
*** 3rd STREET ***
Dealt to Ann [2c]
Dealt to Bob [Kh]
Ann: brings in for $0.02
Bob: calls $0.02
*** 4th STREET ***
Dealt to Ann [2c] [7h]
Dealt to Bob [Kh] [Qd]
Bob: checks
Ann: checks
*** 5th STREET ***
Dealt to Ann [2c 7h] [3d]
Dealt to Bob [Kh Qd] [8c]
Bob: checks
Ann: checks
*** 6th STREET ***
Dealt to Ann [2c 7h 3d] [6s]
Dealt to Bob [Kh Qd 8c] [Td]
Bob: checks
Ann: checks
*** RIVER ***
Bob: checks
Ann: checks
*** SHOW DOWN ***
"""
#: Checked to the showdown: Ann's aces beat Bob's kings.
_SHOWDOWN = f"""{_HEADER}\
Bob: shows [3s 4d Kh Qd 8c Td Ks]
Ann: shows [As Ad 2c 7h 3d 6s 7s]
Ann collected $0.06 from pot
*** SUMMARY ***
Total pot $0.06 | Rake $0.00
"""


def _both(text: str) -> list[str]:
    """What the C reader (first, where it is sure) and the general reader alone make
    of ``text``: the same, as one list."""
    found = []
    for fast in (True, False):
        patch = mock.patch.object(reader_module, "read_fast", lambda *args: None)
        with patch if not fast else mock.MagicMock():
            found.append([x.reason if isinstance(x, HistoryError) else "read"
                          for x in read(text, errors="collect")])  # fmt: skip
    assert found[0] == found[1], found
    return found[0]


def _refused(text: str, words: str, line: int) -> None:
    with pytest.raises(HistoryError) as caught:
        next(read(text))
    assert words in caught.value.reason and caught.value.line == line, str(caught.value)
    assert _both(text) == [caught.value.reason]


def test_the_show_lines_as_written_are_read() -> None:
    assert _both(_SHOWDOWN) == ["read"]


@pytest.mark.parametrize(("show", "words"), [
    ("Ann: shows [As Ad Ac Ah 5c 5d 9s]", "Ann shows As Ad Ac Ah 5c 5d 9s: 7 cards besides"),
    ("Ann: shows [As Ks 2c 7h 3d 6s 7s]", "Ann shows Ks, a card Bob holds"),  # Bob showed it
    ("Ann: shows [As Qd 2c 7h 3d 6s 7s]", "Ann shows Qd, a card Bob holds"),  # Bob's up card
])  # fmt: skip
def test_a_show_line_that_contradicts_the_deal_lines_is_refused(show: str, words: str) -> None:
    text = _SHOWDOWN.replace("Ann: shows [As Ad 2c 7h 3d 6s 7s]", show)
    _refused(text, words, 32)


#: Ann the hero: her deal lines give her down cards.
_HERO = _SHOWDOWN.replace("Dealt to Ann [2c]\n", "Dealt to Ann [As Ad 2c]\n", 1).replace(
    "*** RIVER ***\n", "*** RIVER ***\nDealt to Ann [As Ad 2c 7h 3d 6s] [7s]\n"
)


_DEALT = "where the deal lines dealt As Ad 7s"


@pytest.mark.parametrize(("show", "words"), [
    ("Ann: shows [As Ac 2c 7h 3d 6s 7s]", f"Ann shows As Ac 7s down, {_DEALT}"),
    ("Ann: shows [As Ad 2c 7h 3d 6s 9s]", f"Ann shows As Ad 9s down, {_DEALT}"),
])  # fmt: skip
def test_a_heros_show_line_that_contradicts_her_deal_lines_is_refused(
    show: str, words: str
) -> None:
    # The hero's down cards, known from her deal lines, had not been compared with
    # what she showed: the hand was read with the deal lines' cards, the text
    # contradicting itself.
    assert _both(_HERO) == ["read"]
    _refused(_HERO.replace("Ann: shows [As Ad 2c 7h 3d 6s 7s]", show), words, 33)


def _written() -> str:
    """A hand with a raise over the bring-in, in PokerStars' words."""
    h = StudHand("stud", Stakes(1, 2, 5, 10), [100, 100])
    h.deal(0, ["As", "Ad", "2c"])
    h.deal(1, ["3s", "4d", "Kh"])
    h.act("bring_in")
    h.act("complete", 5)
    h.act("raise", 10)
    h.act("call")
    later = {4: ("7h", "8c"), 5: ("3d", "9d"), 6: ("6s", "Tc"), 7: ("7s", "Jh")}
    while not h.over:
        if h.actor is None:  # the later streets by hand: the lines below name them
            for seat, card in enumerate(later[h.street]):
                h.deal(seat, [card])
        elif h.showdown:
            h.show()
        else:
            h.act("check")
    text = pokerstars.write(h, Table(names=["Ann", "Bob"], hero=None))
    assert "Bob: raises $0.03 to $0.05" in text and "Dealt to Ann [2c 7h] [3d]" in text
    return text


_RAISE = "Bob: raises $0.03 to $0.05"


@pytest.mark.parametrize(("old", "new", "words"), [
    (_RAISE, "Bob: raises $" + "1" * 60 + " to $0.05", "Bob raises 1111"),
    (_RAISE, "Bob: raises $0.62 to $0.05", "Bob raises 0.62 to 0.05; the bet to call was 0.02"),
    (_RAISE, _RAISE + " and is all-in", "Bob is all in with 0.94 left"),
    ("Ann: posts the ante $0.01", "Ann: posts the ante $0.01 and is all-in",
     "Ann is all in with 0.99 left"),
    ("Dealt to Ann [2c 7h] [3d]", "Dealt to Ann [Kc Kd] [3d]",
     "Ann was not dealt the cards this line repeats: 'Dealt to Ann [Kc Kd] [3d]'"),
    ("Bob: checks\nAnn: checks\n*** 5th", "Bob: checks\nDealt to Ann [2c] [9s]\nAnn: checks\n"
     "*** 5th", "a second deal line for Ann: 'Dealt to Ann [2c] [9s]'"),
    ("Bob: calls $0.05", "Bob: calls £0.05", "an amount in £ in a USD game: 'Bob: calls £0.05'"),
    # A comma that is no thousands comma: "$0,05" had been read as $5.
    ("Bob: calls $0.05", "Bob: calls $0,05", "a line this reader does not know: 'Bob: calls"),
    ("Bob: calls $0.05", "Bob: calls €0.05", "an amount in € in a USD game"),
    ("Seat 2: Bob ($1.00 in chips)", "Seat 2: Bob (£1.00 in chips)", "an amount in £ in a USD"),
    ("| Rake $0.00", "| Rake £0.00", "an amount in £ in a USD game"),
])  # fmt: skip
def test_amounts_and_cards_the_text_repeats_are_checked(old: str, new: str, words: str) -> None:
    """Each is refused at its line, by both readers (before, each was read)."""
    text = _written()
    changed = text.replace(old, new, 1)
    assert changed != text
    before = set(text.split("\n"))
    line = next(i for i, said in enumerate(changed.split("\n"), 1) if said not in before)
    _refused(changed, words, line)


def test_a_stack_whose_commas_are_no_thousands_commas_is_refused() -> None:
    # "$2,23" had been read as $223: the hand replayed with a stack of 22,300 cents.
    text = _written()
    assert _both(text.replace("Bob ($1.00 in", "Bob ($1,000.00 in")) == ["read"]
    for stack in ("$1,00", "$1,0000.00", "$10000,000"):
        assert _both(text.replace("Bob ($1.00 in", f"Bob ({stack} in")) == [
            "'Bob' is not seated in this hand"
        ]  # (its seat line is no seat line)


def test_a_word_that_is_no_card_is_refused_as_the_file_writes_it() -> None:
    """An fpdb regression file deals "[of]" on the river; the refusal had quoted it
    as 'Of', a text the file does not hold."""
    river = ("*** RIVER ***\nBob: checks\nAnn: bets $0.10\nBob: folds\n"
             "Uncalled bet ($0.10) returned to Ann\nAnn collected $0.06 from pot\n"
             "*** SUMMARY ***\nTotal pot $0.06 | Rake $0.00\n")  # fmt: skip
    text = _HEADER.replace("*** RIVER ***\nBob: checks\nAnn: checks\n*** SHOW DOWN ***\n", river)
    assert _both(text) == ["read"]
    for old, new in (("Dealt to Ann [2c 7h] [3d]", "Dealt to Ann [2c 7h] [of]"),
                     ("Dealt to Bob [Kh]\n", "Dealt to Bob [kX]\n")):  # fmt: skip
        changed = text.replace(old, new, 1)
        assert changed != text
        line = changed.split("\n").index(new.rstrip("\n")) + 1
        _refused(changed, f"invalid card '{new.split('[')[-1][:2]}'", line)


def test_cards_spelled_other_ways_are_still_cards() -> None:
    """An ace as "1", a ten as "10", a lowercase rank and a suit symbol: each read,
    alone or beside the card spelled our way on another line (a review found "1♥"
    and "k♥" refused once a word that is no card was kept as written)."""
    for word in ("1h", "1\u2665", "A\u2665", "k\u2665"):
        assert _both(_SHOWDOWN.replace("Kh", word)) == ["read"], word
    for first, later in (("k\u2665", "K\u2665"), ("10\u2665", "T\u2665"), ("kh", "Kh")):
        text = _SHOWDOWN.replace("Kh", later).replace(f"Dealt to Bob [{later}]\n",
                                                      f"Dealt to Bob [{first}]\n", 1)  # fmt: skip
        assert f"Dealt to Bob [{first}]" in text and f"Dealt to Bob [{later} Qd]" in text
        assert _both(text) == ["read"], (first, later)


def test_the_repeated_cards_may_be_the_up_cards_only() -> None:
    """Rooms that write 3rd street's down cards as hidden repeat the up cards only."""
    text = _SHOWDOWN.replace("Dealt to Ann [2c]\n", "Dealt to Ann [X X 2c]\n")
    assert _both(text) == ["read"]
    assert _both(text.replace("Dealt to Ann [2c] [7h]", "Dealt to Ann [X X 2c] [7h]")) == ["read"]
    refused = text.replace("Dealt to Ann [2c] [7h]", "Dealt to Ann [X 2c] [7h]")
    assert "Ann was not dealt the cards" in _both(refused)[0]


def test_an_earlier_line_that_disagrees_is_named_first() -> None:
    """A deal line changed on 4th street: the replay's refusal of its card comes
    before the 5th street line that no longer repeats it."""
    text = EXAMPLE.replace("Dealt to cleo42 [3s] [Js]",
                                                 "Dealt to cleo42 [3s] [Qc]")  # fmt: skip
    assert "duplicate card Qc" in _both(text)[0]


def test_the_totals_are_read_as_before() -> None:
    for room in (pokerstars, fulltilt, winamax):
        totals = room.GRAMMAR.totals
        said = totals("Total pot $0.41 | Rake $0.02")
        assert said is not None and (said["pot"], said["rake"]) == ("$0.41", "$0.02")
        said = totals("Total pot $3.50 Main pot $3.00. Side pot $0.50. | Rake $0.10 ")
        assert said is not None and (said["pot"], said["rake"]) == ("$3.50", "$0.10")
        said = totals("Total pot $1 | Rake $0.02 | Hand jackpot $0.01")
        assert said is not None and (said["pot"], said.groupdict().get("rake")) == ("$1", None)


def test_long_lines_are_read_in_linear_time() -> None:
    """A summary line ``Total pot $1``, 300,000 spaces and ``x``, and lines of a
    pattern's words again and again with no end to them (``Dealt to cleo42 [``,
    ``DarioZ: shows [``, ``Seat 1: a (``): the patterns tried on them took time in
    the square of their length (minutes to hours here), now a fraction of a second.
    The subprocess's limit only keeps a hang from stalling the tests: it is far
    above what linear patterns take on any machine."""
    code = (
        "from studeval.histories import EXAMPLE, read\n"
        "from studeval.histories.rooms import fulltilt, pokerstars, winamax, winning\n"
        "line = 'Total pot $1' + ' ' * 300_000 + 'x'\n"
        "for room in (pokerstars, fulltilt, winamax):\n"
        "    assert room.GRAMMAR.totals(line)['pot'] == '$1'\n"
        "example = EXAMPLE\n"
        "for where, extra in [('Rake $0.02', line),\n"
        "                     ('3rd STREET ***', 'Dealt to cleo42 [' * 50_000),\n"
        "                     ('3rd STREET ***', 'DarioZ: shows [' * 50_000),\n"
        "                     ('Rake $0.02', 'DarioZ: shows [' * 50_000),\n"
        "                     ('Rake $0.02', 'Seat 1: a (' * 50_000 + ' showed [')]:\n"
        "    text = example.replace(where, where + '\\n' + extra, 1)\n"
        "    print(type(next(read(text, errors='collect'))).__name__)\n"
        "    for room in (fulltilt, winamax, winning):\n"
        "        for pattern in room.GRAMMAR.patterns.reveals:\n"
        "            assert pattern.match(extra.replace(':', '')) is None\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=300, check=True)  # fmt: skip
    # A line longer than any room writes (4,096 characters) refuses its hand, saying
    # so; a line of DarioZ's after the summary's totals ends the hand (reported as
    # text outside every hand), which is read.
    said = ["HistoryError", "HistoryError", "HistoryError", "History", "HistoryError"]
    assert done.stdout.split() == said


@pytest.mark.parametrize(("where", "start", "unit", "end"), [
    ("Rake $0.02", "Total pot $1", " ", "x"), ("3rd STREET ***", "", "Dealt to cleo42 [", ""),
    ("3rd STREET ***", "", "DarioZ: shows [", ""), ("Rake $0.02", "", "DarioZ: shows [", ""),
    ("Rake $0.02", "", "Seat 1: a (", " showed ["),
])  # fmt: skip
def test_a_long_line_costs_time_in_proportion_to_its_length(where: str, start: str, unit: str,
                                                            end: str) -> None:  # fmt: skip
    """Reading a hand with one long line of a pattern's words: ten times the line
    costs about ten times the time, never a hundred (a pattern that tries every
    position against the rest of the line). "Dealt to cleo42 [" and "Seat 1: a ("
    lines had cost time in the square of their length: 30 s for 50,000 of them,
    where the rest take 0.02 s. A ratio of two sizes in one process, the best of
    three CPU times each: no wall-clock limit."""
    import time

    def cost(times: int) -> float:
        text = EXAMPLE.replace(where, where + "\n" + start + unit * times + end, 1)
        best = float("inf")
        for _ in range(3):
            started = time.process_time()
            list(read(text, errors="collect"))
            best = min(best, time.process_time() - started)
        return best

    short, long = cost(4_000), cost(40_000)
    assert long < 30 * max(short, 1e-3)  # linear: about 10; quadratic: about 100


_Writer = Callable[[StudHand, Table], str]


@pytest.mark.parametrize(("write", "name"), [
    (pokerstars.write, "*** SUMMARY ***"), (fulltilt.write, "*** SUMMARY ***"),
    (winning.write, "*** SUMMARY ***"), (winamax.write, "*** SUMMARY ***"),
    (pokerstars.write, "*** 4th STREET ***"), (everleaf.write, "Dealt to"),
    (winamax.write, "Dealt to"), (winning.write, "bets 5"), (pokerstars.write, "Seat 1"),
    (pokerstars.write, "Uncalled bet (1) returned to Ann"),
])  # fmt: skip
def test_names_that_hold_a_lines_words_read_back(write: _Writer, name: str) -> None:
    """The seat lines say who plays: a line is read with the names they list."""
    for seed in range(12):
        hand = random_hand("stud", 3, seed=seed, stack=40)
        text = write(hand, Table(names=["Ann", name, "Cy"], hero=seed % 3))
        assert _both(text) == ["read"], text
        history = next(read(text))
        assert history.hand.stacks == hand.stacks
        assert [p.name for p in history.players] == ["Ann", name, "Cy"]
        assert _wagers(history.hand) == _wagers(hand)


def _wagers(hand: StudHand) -> list[tuple[str, int | None, int, int | None]]:
    return [(e.kind, e.seat, e.amount, e.to) for e in hand.events
            if e.kind not in ("deal", "community", "show", "muck")]  # fmt: skip


def test_full_tilt_repeats_the_down_cards_a_player_showed_all_in() -> None:
    """Once a player all in shows, Full Tilt repeats all three 3rd-street cards on the
    next deal lines: those are the cards the player was dealt, not a contradiction."""
    lines = [
        "Full Tilt Poker Game #28333847000: $2 + $0.10 Heads Up Sit & Go (220338000), "
        "Table 1 - 80/160 Ante 15 - Limit Razz - 05:46:00 ET - 2011/02/19",
        "Seat 1: Ann (24)", "Seat 2: Bob (976)", "Ann antes 15", "Bob antes 15",
        "*** 3RD STREET ***", "Dealt to Ann [Kc]", "Dealt to Bob [5d 6s] [2s]",
        "Ann is high with [Kc]", "Ann brings in for 9, and is all in", "Bob calls 9",
        "Ann shows [As 7c Kc]", "Bob shows [5d 6s 2s]",
        "*** 4TH STREET ***", "Dealt to Ann [As 7c Kc] [Js]", "Dealt to Bob [5d 6s 2s] [Td]",
        "*** 5TH STREET ***", "Dealt to Ann [As 7c Kc Js] [4s]",
        "Dealt to Bob [5d 6s 2s Td] [Jh]",
        "*** 6TH STREET ***", "Dealt to Ann [As 7c Kc Js 4s] [7d]",
        "Dealt to Bob [5d 6s 2s Td Jh] [2h]",
        "*** 7TH STREET ***", "Dealt to Ann [As 7c Kc Js 4s 7d] [Tc]",
        "Dealt to Bob [5d 6s 2s Td Jh 2h] [Qc]",
        "Ann shows [As 7c Kc Js 4s 7d Tc] J,T,7,4,A",
        "Bob shows [5d 6s 2s Td Jh 2h Qc] J,T,6,5,2",
        "Bob wins the pot (48) with J,T,6,5,2",
        "*** SUMMARY ***", "Total pot 48 | Rake 0",
        "Seat 1: Ann showed [As 7c Kc Js 4s 7d Tc] and lost with J,T,7,4,A",
        "Seat 2: Bob showed [5d 6s 2s Td Jh 2h Qc] and won (48) with J,T,6,5,2",
    ]  # fmt: skip
    history = next(read("\n".join(lines) + "\n"))
    assert history.collected == {"Ann": 0, "Bob": 48} and history.hand.stacks == [0, 1000]
    # A repeat that names other cards than those dealt is still refused.
    wrong = "\n".join(lines).replace("Dealt to Ann [As 7c Kc] [Js]", "Dealt to Ann [As 8c Kc] [Js]")
    with pytest.raises(HistoryError, match="was not dealt the cards this line repeats"):
        next(read(wrong + "\n"))


def test_a_summary_that_says_a_winner_won_other_than_its_collect_lines_is_a_contradiction() -> None:
    # Where a room writes both (a collect line in the hand, what each won again in the
    # summary), the summary had been thrown away unread.
    from decimal import Decimal

    from studeval.histories._record import Step, Transcript
    from studeval.histories._summary import check_won

    def said(*won: tuple[str, str]) -> list[tuple[int, str]]:
        t = Transcript("Room", "1", "stud", Decimal(1), Decimal(2), [(1, "Ann", Decimal(9))])
        t.steps = [Step(20, "collect", "Ann", Decimal("0.30")),
                   Step(21, "collect", "Ann", Decimal("0.20"))]  # fmt: skip
        check_won(t, [Step(30 + i, "collect", n, Decimal(a), street=9)
                       for i, (n, a) in enumerate(won)])  # fmt: skip
        return t.contradictions

    assert said(("Ann", "0.50")) == said(("Ann", "0.25"), ("Ann", "0.25")) == []
    assert said(("Ann", "9.99")) == [
        (30, "the summary says Ann won 9.99; the hand's lines say 0.50")
    ]
    assert said(("Ann", "0.50"), ("Bob", "0.10")) == [
        (31, "the summary says Bob won 0.10; the hand's lines say 0")
    ]
