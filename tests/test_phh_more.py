"""PHH records that keep everything of a hand: the money of a chip, a hand id as the
room wrote it, every character of a name; a showdown won unshown, written so that
pokerkit pays it; and pokerkit's short-stacked bring-ins, read as pokerkit plays them."""

from __future__ import annotations

import datetime
import random
import warnings
from decimal import Decimal
from typing import Any

import pytest
from helpers import example, pokerkit_automations, pokerkit_plays, pokerkit_stud8_defect
from hypothesis import given, settings
from hypothesis import strategies as st

from studeval import HouseRules, Stakes, StudHand
from studeval.histories import EXAMPLE, read
from studeval.histories._phhwrite import lone_winner
from studeval.phh import PHH_EXAMPLE, PHHError, dumps, hand_number, loads, money_unit

#: The rooms' example hands (tests/data/histories).
ONGAME_EXAMPLE = example("ongame.txt")

# ---- the money of a chip -----------------------------------------------------------------


@pytest.mark.parametrize("example", [EXAMPLE, ONGAME_EXAMPLE])
def test_a_rooms_hand_keeps_the_money_of_a_chip(example: str) -> None:
    """A cents game written as PHH reads back with its chip worth a cent: each seat
    wins or loses the same money as in the room's text, in the same currency."""
    history = next(iter(read(example)))
    text = history.to_phh()
    assert '_unit = "0.01"' in text and 'currency = "USD"' in text
    hand = loads(text)
    assert money_unit(hand) == history.unit == Decimal("0.01")
    assert hand.info["currency"] == history.currency
    ours = [(end - start) * money_unit(hand) for start, end in
            zip(hand.starting_stacks, hand.stacks, strict=True)]  # fmt: skip
    room = [(end - start) * history.unit for start, end in
            zip(history.hand.starting_stacks, history.hand.stacks, strict=True)]  # fmt: skip
    assert ours == room and any(ours)
    assert dumps(hand) == text


def test_chips_that_are_the_money_write_no_unit() -> None:
    hand = loads(PHH_EXAMPLE)
    assert "_unit" not in dumps(hand) and money_unit(hand) == 1


@pytest.mark.parametrize("value", ['"0"', '"-1"', '"1e-2"', '"0.01 "', "0.01", '"\uff10.01"', "1"])
def test_a_unit_is_positive_decimal_text(value: str) -> None:
    with pytest.raises(PHHError, match="_unit must be the money of a chip as text"):
        loads(PHH_EXAMPLE + f"_unit = {value}\n")


# ---- text fields ----------------------------------------------------------------------------

NAMES = ["a\U000e0001b", "x\U0010ffffy", "T\U000f0000", "\x00\x1f\x7f", "tab\tand\nline",
         'quote" back\\slash', "é名前 🂡", "\u2028\u00ad", "\ud7ff\ue000\ufffe"]  # fmt: skip


def _named(players: list[str], table: str) -> StudHand:
    hand = loads(PHH_EXAMPLE)
    hand.info = {"players": players, "table": table}
    return hand


def test_every_character_reads_back() -> None:
    """Non-printable characters above U+FFFF take TOML's eight-digit escape: ``\\u``
    with more than four digits would read back as another text."""
    hand = _named(NAMES[:2], NAMES[2])
    text = dumps(hand)
    assert 'players = ["a\\U000e0001b", "x\\U0010ffffy"]' in text
    for name in NAMES:
        assert loads(dumps(_named([name, name], name))).info == {"players": [name, name],
                                                                 "table": name}  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(), min_size=2, max_size=2), st.text())
def test_any_text_reads_back(players: list[str], table: str) -> None:
    hand = _named(players, table)
    assert loads(dumps(hand)).info == hand.info


def test_half_a_surrogate_pair_is_an_error() -> None:
    with pytest.raises(PHHError, match="surrogate pair, has no TOML form"):
        dumps(_named(["a\ud800", "b"], "t"))


# ---- hand ids ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("hand_id", "written"), [
    ("20261202017", ["hand = 20261202017"]),
    ("000123", ["hand = 123", '_hand_id = "000123"']),
    ("0", ["hand = 0"]),
    ("R5-700123456-12", ['_hand_id = "R5-700123456-12"']),
    ("99999999999999999999", ['_hand_id = "99999999999999999999"']),  # above TOML's 64 bits
])  # fmt: skip
def test_a_hand_id_reads_back_as_written(hand_id: str, written: list[str]) -> None:
    hand = loads(PHH_EXAMPLE)
    hand.info["hand"] = hand_number(hand_id)
    text = dumps(hand)
    assert [line for line in text.splitlines() if line.startswith(("hand =", "_hand_id"))] == (
        written
    )
    again = loads(text).info["hand"]
    assert str(again) == hand_id and again == hand.info["hand"]


def test_a_rooms_hand_id_keeps_its_zeros() -> None:
    history = next(iter(read(EXAMPLE.replace("#20261202017", "#000123"))))
    hand = loads(history.to_phh())
    assert hand.info["hand"] == history.hand_id == "000123"


@pytest.mark.parametrize(("fields", "match"), [
    ('hand = 5\n_hand_id = "000123"\n', "hand = 5 is not the _hand_id '000123'"),
    ('_hand_id = "A-1"\nhand = 1\n', "hand = 1 is not the _hand_id 'A-1'"),
    ("_hand_id = 7\n", "_hand_id must be text"),
])  # fmt: skip
def test_hand_and_hand_id_must_agree(fields: str, match: str) -> None:
    with pytest.raises(PHHError, match=match):
        loads(PHH_EXAMPLE + fields)


# ---- a showdown won unshown, for pokerkit -------------------------------------------------------

#: A hand of ours: p3 mucks at the showdown and p2 takes the pot without showing.
MUCKED = """variant = "F7S/8"
ante_trimming_status = true
antes = [5, 5, 5, 5]
bring_in = 10
small_bet = 25
big_bet = 50
starting_stacks = [29, 9, 24, 22]
actions = ["d dh p1 4d8sKh", "d dh p2 7d9c5h", "d dh p3 9dJd8d", "d dh p4 2c7sAc", "p2 pb", \
"p3 cc", "p4 f", "p1 f", "d dh p2 7c", "d dh p3 3c", "d dh p2 2h", "d dh p3 8c", "d dh p2 9s", \
"d dh p3 2d", "d dh p2 6s", "d dh p3 3h", "p3 sm"]
finishing_stacks = [24, 28, 15, 17]
_house_rules = "pokerkit"
"""


def _pokerkit_stacks(pokerkit: Any, text: str) -> list[int]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pokerkit warns on folds it finds needless
        return list(list(pokerkit.HandHistory.loads(text))[-1].stacks)


def test_the_winner_of_a_mucked_showdown_shows_last() -> None:
    hand = loads(MUCKED)
    assert lone_winner(hand) == 1
    text = dumps(hand)
    assert '"p3 sm", "p2 sm 7d9c5h7c2h9s6s"]' in text
    assert dumps(loads(text)) == text and loads(text).stacks == [24, 28, 15, 17]
    with pytest.raises(PHHError, match="p2 shows 7h where it was dealt 7d"):
        loads(text.replace("p2 sm 7d9c", "p2 sm 7h9c"))
    hidden = MUCKED.replace("p2 7d9c5h", "p2 ????5h").replace("p2 6s", "p2 ??")
    assert dumps(loads(hidden)).count(" sm") == 1  # unknown cards: no show to write


def test_pokerkit_pays_the_winner_of_a_mucked_showdown() -> None:
    pokerkit = pytest.importorskip("pokerkit")
    assert _pokerkit_stacks(pokerkit, dumps(loads(MUCKED))) == [24, 28, 15, 17]


def _deep_hand(rng: random.Random) -> StudHand:
    """Random legal play under pokerkit's readings, stacks too deep to go all in (no
    side pot), each seat at the showdown showing or mucking at random."""
    stacks = [200] * rng.randint(2, 8)
    hand = StudHand(rng.choice(["stud", "stud8", "razz"]), Stakes(1, 2, 5, 10), stacks,
                    rules="pokerkit")  # fmt: skip
    seed = rng.getrandbits(64)
    while not hand.over:
        if hand.actor is None:
            hand.deal_random(seed)
        elif hand.showdown:
            hand.muck() if rng.random() < 0.6 else hand.show()
        else:
            legal = hand.legal()
            kind = "call" if legal.call and rng.random() < 0.6 else rng.choice(legal.kinds())
            totals = {"complete": legal.complete_to, "bet": legal.bet_to, "raise": legal.raise_to}
            hand.act(kind, rng.choice(totals[kind]) if kind in totals else None)
    return hand


def test_pokerkit_replays_mucked_showdowns_to_our_stacks() -> None:
    """Random hands in which seats muck at the showdown: pokerkit replays every record
    to our final stacks, also where the last seat won unshown."""
    pokerkit = pytest.importorskip("pokerkit")
    rng = random.Random(34)
    unshown = 0
    for _ in range(120):
        hand = _deep_hand(rng)
        text = dumps(hand)
        assert _pokerkit_stacks(pokerkit, text) == hand.stacks, text
        assert dumps(loads(text)) == text
        unshown += lone_winner(hand) is not None
    assert unshown >= 15


# ---- pokerkit's short-stacked bring-ins ---------------------------------------------------------

#: p1 brings in with 1 chip after the ante, the bring-in: pokerkit's ``cbr 1`` opens the
#: betting, and the completion goes a small bet on top (6, not 5).
SHORT_OPEN = """variant = "F7S"
antes = [1, 1, 1]
bring_in = 1
small_bet = 5
big_bet = 10
starting_stacks = [2, 100, 100]
actions = ["d dh p1 ????2c", "d dh p2 ????Kd", "d dh p3 ????Qh", "p1 cbr 1", "p2 cbr 6", "p3 f"]
"""


def test_pokerkits_short_bring_in_opens_the_betting() -> None:
    hand = loads(SHORT_OPEN)
    assert hand.rules == HouseRules.pokerkit() and hand.contributions == [2, 7, 1]
    assert _short_opening(hand)
    with pytest.raises(PHHError, match=r"actions\[4\] 'p2 cbr 6': seat 1 cannot complete to 6"):
        loads(SHORT_OPEN, rules="robert")  # there the 1 chip is the bring-in


def _pokerkit_hand(pokerkit: Any, rng: random.Random) -> tuple[str, list[int]]:
    """A random pokerkit hand, 2 to 8 seats, 40% of them short (the ante and 1 chip up
    to 6 big bets), any bring-in below the small bet, as PHH, and pokerkit's stacks."""
    kinds = [pokerkit.FixedLimitSevenCardStud, pokerkit.FixedLimitRazz,
             pokerkit.FixedLimitSevenCardStudHighLowSplitEightOrBetter]  # fmt: skip
    seats, small = rng.randint(2, 8), rng.choice([2, 4, 5, 10, 20])
    bring_in = rng.randint(1, small - 1)
    ante = rng.randint(0, bring_in)
    stacks = [rng.randint(ante + 1, 12 * small) if rng.random() < 0.4 else
              rng.randint(40 * small, 200 * small) for _ in range(seats)]  # fmt: skip
    table = rng.choice(kinds)(pokerkit_automations(pokerkit), True, ante, bring_in, small,
                              2 * small)  # fmt: skip
    return pokerkit_plays(pokerkit, table, stacks, rng)


def test_pokerkits_short_stacked_histories_load_to_its_stacks() -> None:
    """Random pokerkit hands with many short stacks and any bring-in: every one loads
    with plain ``loads`` (pokerkit's readings), to pokerkit's final stacks but for its
    stud8 defect. Among them the bring-in seats that open all in with ``cbr``."""
    pokerkit = pytest.importorskip("pokerkit")
    rng = random.Random(11)
    saved = random.getstate()
    random.seed(11)  # pokerkit shuffles its deck with the random module's generator
    outcome = {"same stacks": 0, "stud8 defect": 0, "short opening": 0}
    try:
        for _ in range(700):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                text, final = _pokerkit_hand(pokerkit, rng)
            hand = loads(text)  # a PHHError here fails the test
            assert hand.over, text
            outcome["same stacks" if hand.stacks == final else "stud8 defect"] += 1
            assert hand.stacks == final or pokerkit_stud8_defect(hand), (hand.stacks, final, text)
            outcome["short opening"] += _short_opening(hand)
    finally:
        random.setstate(saved)
    assert outcome["same stacks"] >= 690 and outcome["short opening"] >= 2, outcome


def _short_opening(hand: StudHand) -> bool:
    """Whether the first wager of the hand was a completion no larger than the bring-in."""
    first = next(e for e in hand.events if e.kind in ("bring_in", "complete", "bet", "raise",
                                                      "call", "check", "fold"))  # fmt: skip
    return first.kind == "complete" and first.to is not None and first.to <= hand.stakes.bring_in


def test_one_bad_record_of_a_phhs_file_refuses_itself_not_the_file(tmp_path) -> None:
    # Record 2's stacks end otherwise than the record says, record 3 is no TOML:
    # the file had been refused whole, its good hands with it.
    from studeval import db
    from studeval.histories.phh import PHH_EXAMPLE, dumps_all, read_records

    records = dumps_all([loads(PHH_EXAMPLE)] * 4).split("\n[")
    records[1] = records[1].replace("finishing_stacks = [103", "finishing_stacks = [104")
    records[2] = records[2].replace("variant = ", "variant = = ")
    text = "\n[".join(records)
    found = read_records(text)
    assert [type(hand).__name__ for _, hand in found] == ["StudHand", "PHHError", "PHHError",
                                                          "StudHand"]  # fmt: skip
    lines = [line for line, _ in found]
    assert lines == [1 + text[: text.index(f"[{n}]")].count("\n") for n in range(1, 5)]
    assert str(found[1][1]).startswith("[2]: the hand ends with stacks")
    assert str(found[2][1]).startswith("[3]: not a PHHS (TOML) text")
    (tmp_path / "hands.phhs").write_text(text)
    database = db.connect()
    report = database.import_histories(tmp_path / "hands.phhs")
    assert (report.hands, report.refused) == (1, 2)  # the 4th is the 1st again: a copy
    refused = database.sql("SELECT line FROM refused ORDER BY line").line.tolist()
    assert refused == lines[1:3]


@pytest.mark.parametrize("zone", [
    datetime.timezone(datetime.timedelta(hours=1)),  # OnGame's "GMT+0100"
    datetime.timezone(-datetime.timedelta(hours=5, minutes=30)),
    datetime.timezone.utc,
])  # fmt: skip
def test_a_time_at_a_fixed_offset_reads_back_at_that_offset(zone: datetime.tzinfo) -> None:
    # str() writes such a zone "UTC+01:00", which ZoneInfo cannot read: the time had
    # come back naive, an hour from where the room's text put it.
    from studeval.handinfo import HandInfo

    hand = loads(PHH_EXAMPLE)
    at = datetime.datetime(2026, 12, 2, 12, 0, tzinfo=zone)
    hand.info = HandInfo(venue="OnGame", hand_id="R5-1", players=("Ann", "Bob"),
                         played_at=at).to_phh()  # fmt: skip
    back = HandInfo.of(loads(dumps(hand))).played_at
    assert back == at and back is not None and back.utcoffset() == at.utcoffset()


@pytest.mark.parametrize("zone", ["UTC+99:00", "UTC+24:00", "UTC+05:60", "UTC+\uff10\uff11:00"])
def test_an_offset_no_clock_has_leaves_the_time_naive(zone: str) -> None:
    # As a zone not known does: such an offset had raised from HandInfo.of, and
    # stopped an import of every file with it.
    from studeval.handinfo import HandInfo

    text = (
        PHH_EXAMPLE + f'year = 2026\nmonth = 1\nday = 2\ntime = "12:00:00"\ntime_zone = "{zone}"\n'
    )
    played_at = HandInfo.of(loads(text)).played_at
    assert played_at == datetime.datetime(2026, 1, 2, 12, 0) and played_at.tzinfo is None


def test_good_phhs_texts_read_record_by_record_as_they_read_whole() -> None:
    # Every valid .phhs reads as the whole file did: CRLF, quoted names, a record's
    # own sub-table, a multi-line string holding a line "[3]", comments first.
    from studeval.histories.phh import PHH_EXAMPLE, dumps_all, read, read_records

    three = dumps_all([loads(PHH_EXAMPLE)] * 3)
    texts = [
        three,
        three.replace("\n", "\r\n"),
        "# exported\n\n" + three.replace("[2]", "['2']").replace("[3]", '["3"]'),
        three.replace("[1]\n", '[1]\nevent = """\nnotes\n[3]\n"""\n'),
        three.replace('_house_rules = "pokerkit"\n', "", 1).replace(
            "[2]\n", '[1._house_rules]\nheads_up_cap = "kept"\n[2]\n'),
    ]  # fmt: skip
    for text in texts:
        whole = read(text)
        found = read_records(text)
        assert all(isinstance(hand, StudHand) for _, hand in found), text[:80]
        assert [hand.rules for _, hand in found] == [hand.rules for hand in whole]  # type: ignore[union-attr]
        assert len(found) == 3
    assert read(texts[4])[0].rules.heads_up_cap == "kept"


def test_bad_phhs_texts_refuse_each_bad_record_by_name() -> None:
    from studeval.histories.phh import PHH_EXAMPLE, PHHError, dumps_all, read_records

    three = dumps_all([loads(PHH_EXAMPLE)] * 3)
    twice = three.replace("[3]", "[2]").replace("variant = ", "variant = = ", 1)
    found = read_records(twice)  # no TOML as a whole: each record on its own
    assert [type(hand).__name__ for _, hand in found] == ["PHHError", "StudHand", "PHHError"]
    assert str(found[2][1]) == "[2]: declared twice"
    crlf = three.replace("\n", "\r\n").replace("variant = ", "variant = = ", 1)
    assert [type(h).__name__ for _, h in read_records(crlf)] == ["PHHError", "StudHand",
                                                                 "StudHand"]  # fmt: skip
    assert isinstance(read_records("not toml = = 1")[0][1], PHHError)
