"""Card-room hand histories: read, replayed through the engine, every amount checked.

The texts here are written by the project: the example in
:mod:`studeval.histories.rooms.pokerstars`, edits of it, and random hands written by each
room's writer and read back (the round trip).
"""

from __future__ import annotations

import datetime
import io
import random
from datetime import timedelta
from decimal import Decimal
from pathlib import Path

import pytest
from helpers import example, raked_beyond_rooms, room_writers, writer_rooms

from studeval import Stakes
from studeval.cards import card_str
from studeval.histories import (
    EXAMPLE,
    SITES,
    History,
    HistoryError,
    OutsideHandsError,
    find_site,
    read,
)
from studeval.histories._writer import Table
from studeval.histories.rooms import bovada, merge, pokerstars, winning
from studeval.play import random_hand

#: The rooms' example hands (tests/data/histories).
BOVADA_EXAMPLE = example("bovada.txt")
EVERLEAF_EXAMPLE = example("everleaf.txt")
IPOKER_EXAMPLE = example("ipoker.xml")
MERGE_EXAMPLE = example("merge.xml")
ONGAME_EXAMPLE = example("ongame.txt")
WINNING_2016_EXAMPLE = example("winning_2016.txt")
WINNING_EXAMPLE = example("winning.txt")

WRITERS = room_writers()
#: How a room's hand number reads back from the number the writer was given.
HAND_IDS = {"Winamax": "1-{}-1", "OnGame": "R5-{}"}
#: The room each writer's text is read as.
SITE_OF = writer_rooms()


def _actions(hand: object) -> list[tuple[str, int | None, int, int | None]]:
    return [(e.kind, e.seat, e.amount, e.to) for e in hand.events  # type: ignore[attr-defined]
            if e.kind not in ("deal", "community", "show", "muck")]  # fmt: skip


def _as_read(actions: list[tuple[str, int | None, int, int | None]]
             ) -> list[tuple[str, int | None, int, int | None]]:  # fmt: skip
    """The actions of a hand without a bring-in as its text reads back where the text
    does not name the bring-in: a first bet is a completion (rooms write the bring-in
    seat's completion as a bet)."""
    at = next(i for i, a in enumerate(actions) if a[0] != "ante")
    if actions[at][0] != "bet":
        return actions
    return [*actions[:at], ("complete", *actions[at][1:]), *actions[at + 1 :]]


def test_a_pokerstars_hand_is_read_to_the_cent() -> None:
    history = next(read(EXAMPLE))
    assert isinstance(history, History)
    assert (history.site, history.hand_id, history.table, history.game) == (
        "PokerStars", "20261202017", "Vega III", "razz")  # fmt: skip
    assert history.unit == Decimal("0.01") and history.currency == "USD"
    assert history.stakes == Stakes(ante=1, bring_in=2, small_bet=4, big_bet=8)
    assert [p.name for p in history.players] == ["alba_k", "bruno1977", "cleo42", "Hero",
                                                  "DarioZ"]  # fmt: skip
    assert [p.seat for p in history.players] == [1, 3, 5, 7, 8]
    assert history.hero == "Hero" and history.hand.cards[3][:3] == [33, 3, 31]  # Td 2s 9s
    assert history.hand.cards[0][:2] == [None, None]  # alba_k's down cards: never shown
    # Antes 5, 3rd street 4 x 2, 4th 3 x 4, 5th 2 x 8: a 41-cent pot, 2 raked.
    assert history.hand.stacks == [130, 202, 164, 159, 189]
    assert history.collected == {"alba_k": 0, "bruno1977": 0, "cleo42": 0, "Hero": 0,
                                 "DarioZ": 39}  # fmt: skip
    assert history.rake == 2 and history.hand.result is not None
    assert history.hand.result.returned[4] == 8  # the uncalled 8 cents on 6th street
    at = history.played_at
    assert at is not None and at.utcoffset() == datetime.timedelta(hours=-5)
    assert (at.year, at.month, at.day, at.hour) == (2026, 12, 2, 10)
    assert history.line == 1 and history.text.startswith("PokerStars Game #20261202017")


def test_to_phh_keeps_the_room_names_and_replays_the_same() -> None:
    from studeval.phh import loads

    history = next(read(EXAMPLE))
    text = history.to_phh()
    assert 'venue = "PokerStars"' in text and "hand = 20261202017" in text
    assert 'players = ["alba_k", "bruno1977", "cleo42", "Hero", "DarioZ"]' in text
    assert loads(text).stacks == [130, 202, 164, 159, 189]


def _edited(old: str, new: str) -> str:
    assert old in EXAMPLE
    return EXAMPLE.replace(old, new, 1)


@pytest.mark.parametrize(
    ("old", "new", "words"),
    [
        ("bruno1977: calls $0.02", "bruno1977: calls $0.03", "line 20: bruno1977 calls 0.03"),
        ("DarioZ collected $0.39", "DarioZ collected $0.38", "DarioZ collected 0.38"),
        ("Total pot $0.41", "Total pot $0.42", "the total pot is 0.42"),
        ("| Rake $0.02", "| Rake $0.01", "collected 0.39; the replay pays 0.40"),
        ("Uncalled bet ($0.08)", "Uncalled bet ($0.04)", "got back 0.04 uncalled"),
        (
            "cleo42: calls $0.02\nHero: folds",
            "Hero: folds\ncleo42: calls $0.02",
            "line 21: Hero folds, but cleo42 is to act",
        ),
        ("Hero: folds", "Hero: dances", "a line this reader does not know: 'Hero: dances'"),
        ("Dealt to cleo42 [3s] [Js]", "Dealt to cleo42 [3s] [Qc]", "duplicate card Qc"),
        ("bruno1977: bets $0.04", "bruno1977: bets $0.08", "bets to 0.08"),
        ("Dealt to bruno1977 [6h]", "Dealt to nobody [6h]", "'nobody' is not seated"),
    ],
)
def test_a_history_that_disagrees_with_its_replay_is_refused(
    old: str, new: str, words: str
) -> None:
    """Every amount is checked: a call, a pot collected, the total pot, the rake, an
    uncalled bet, the turn, a card, a bet; the error names the hand and the line."""
    with pytest.raises(HistoryError) as caught:
        next(read(_edited(old, new)))
    message = str(caught.value)
    assert message.startswith("PokerStars, hand 20261202017") and words in message, message
    assert isinstance(caught.value, ValueError) and caught.value.site == "PokerStars"


def test_collect_yields_the_errors_and_reads_on() -> None:
    bad = _edited("bruno1977: calls $0.02", "bruno1977: calls $0.03")
    text = bad + "\n\n" + EXAMPLE.replace("20261202017", "2")
    found = list(read(text, errors="collect"))
    assert [type(x).__name__ for x in found] == ["HistoryError", "History"]
    assert isinstance(found[1], History) and found[1].hand_id == "2"
    assert found[1].line == EXAMPLE.count("\n") + 3  # after two blank lines
    with pytest.raises(HistoryError, match=r"calls 0\.03"):
        list(read(text))


def test_bad_arguments_are_named() -> None:
    with pytest.raises(HistoryError, match="unknown site 'Nowhere'; known: PokerStars"):
        list(read(EXAMPLE, site="Nowhere"))
    with pytest.raises(HistoryError, match="errors must be 'raise' or 'collect'"):
        list(read(EXAMPLE, errors="ignore"))  # type: ignore[call-overload]
    with pytest.raises(HistoryError, match="got int"):
        list(read(42))
    with pytest.raises(HistoryError, match="no such file or directory"):
        list(read("/no/such/history.txt"))
    # A text with no hand of the room asked for is reported, not passed over.
    with pytest.raises(HistoryError, match="no Full Tilt Poker hand in it"):
        list(read(EXAMPLE, site="Full Tilt Poker"))


def test_encodings_files_directories_and_open_files(tmp_path: Path) -> None:
    """UTF-8 with and without a byte-order mark, UTF-16 with one, code page 1252."""
    text = EXAMPLE.replace("cleo42", "mégane")
    (tmp_path / "deep").mkdir()
    (tmp_path / "a.txt").write_bytes(text.encode("utf-8"))
    (tmp_path / "b.txt").write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
    (tmp_path / "deep" / "c.txt").write_bytes(text.encode("utf-16"))
    (tmp_path / "deep" / "d.txt").write_bytes(text.encode("cp1252"))
    histories = list(read(tmp_path, duplicates="keep"))  # one hand in four files
    assert len(histories) == 4
    assert all(h.players[2].name == "mégane" for h in histories)
    assert [Path(h.source or "").name for h in histories] == ["a.txt", "b.txt", "c.txt", "d.txt"]
    with open(tmp_path / "deep" / "c.txt", "rb") as handle:
        assert next(read(handle)).players[2].name == "mégane"
    assert next(read(io.StringIO(text))).hand.stacks == [130, 202, 164, 159, 189]
    assert next(read(text.encode("utf-16"))).players[2].name == "mégane"


def test_cards_shown_at_the_showdown_become_known() -> None:
    rng = random.Random(4)
    for _ in range(200):
        hand = random_hand("stud", 3, rng=rng)
        if hand.result is not None and any(e.kind == "show" for e in hand.events):
            break
    text = pokerstars.write(hand, Table(names=["A", "B", "C"], hero=None))
    replayed = next(read(text)).hand
    for seat in range(3):
        shown = [e for e in hand.events if e.kind == "show" and e.seat == seat]
        if shown:
            assert sorted(replayed.cards[seat]) == sorted(hand.cards[seat])  # type: ignore[type-var]
        elif hand.folded[seat]:
            assert replayed.cards[seat][0] is None


@pytest.mark.parametrize("site", sorted(WRITERS))
def test_random_hands_written_by_a_room_read_back_the_same(site: str) -> None:
    """The round trip: random legal hands (every game, 2-8 seats, short stacks for
    all-ins, a rake, a game without a bring-in) written in the room's words and read
    back end with the same actions, stacks, and the cards the text shows."""
    rng = random.Random(site)
    all_in = raked = 0
    for number in range(300):
        game = rng.choice(["stud", "stud8", "razz"])
        seats = rng.randint(2, 8)
        stakes = rng.choice([Stakes(1, 2, 5, 10), Stakes(0, 2, 4, 8), Stakes(5, 10, 25, 50),
                             Stakes(1, 0, 10, 20)])  # the last: no bring-in  # fmt: skip
        rules = winning.GRAMMAR_2016.rules if site == "Winning 2016" else None  # its odd chip
        hand = random_hand(game, seats, rng=rng, stakes=stakes, rules=rules,
                           stack=rng.choice([12, 40, 300]), rake=rng.choice([0, 3]))  # fmt: skip
        hero = rng.choice([None, 0, seats - 1])
        names = [f"Player {s} [{s}]" for s in range(seats)]
        if site == "Bovada":  # seats are named by number
            names = bovada.names(seats, hero)
        sign = rng.choice(["$", "€", ""])
        if site == "Merge" and hand.community is not None:  # no known text for one
            with pytest.raises(ValueError, match="community card"):
                merge.write(hand, Table(names=names))
            continue
        text = WRITERS[site](hand, Table(names=names, hand_id=number, hero=hero, sign=sign))
        if site == "Everleaf" and raked_beyond_rooms(hand):  # no room's rake: refused
            with pytest.raises(HistoryError, match=r"no player collects the pot of|more "
                                                   r"than any room's rake"):  # fmt: skip
                next(read(text))
            raked += 1
            continue
        history = next(read(text))
        expected_id = HAND_IDS.get(site, "{}").format(number)
        assert history.site == SITE_OF.get(site, site) and history.hand_id == expected_id
        assert history.hand.stacks == hand.stacks, text
        assert _actions(history.hand) in (_actions(hand), _as_read(_actions(hand))), text
        assert history.hero == (names[hero].removesuffix(" [ME]") if hero is not None else None)
        if hero is not None:
            assert history.hand.cards[hero] == hand.cards[hero]
        all_in += 0 in hand.stacks
    assert all_in > 30  # the short stacks really went all in
    assert (raked > 0) == (site == "Everleaf")  # (five: antes alone, raked whole)


def test_an_ipoker_session_is_read_in_the_order_the_actions_happened() -> None:
    """iPoker lists a round's actions seat by seat and numbers them in the order they
    happened; its "win" holds the uncalled bet given back, and "bet" what went in."""
    history = next(read(IPOKER_EXAMPLE))
    assert SITES == ("PokerStars", "Full Tilt Poker", "Winning", "Winamax", "Bovada", "OnGame",
                     "Everleaf", "PartyPoker", "iPoker", "Merge", "Absolute",
                     "KingsClub")  # fmt: skip
    assert (history.site, history.hand_id, history.hero, history.unit) == (
        "iPoker", "100", "Hero", Decimal(1))  # fmt: skip
    assert history.stakes == Stakes(ante=2, bring_in=5, small_bet=10, big_bet=20)
    # Hero: ante 2, brings in 5, calls 5, 10 and 20, folds; Villain's 20 comes back.
    assert history.hand.stacks == [158, 242] and history.collected == {"Hero": 0, "Villain": 104}
    assert history.hand.result is not None and history.hand.result.returned == [0, 20]
    assert history.hand.cards[1][:2] == [None, None] and history.hand.cards[0][:3] == [
        3,
        22,
        4,
    ]  # 2s 7h 3c
    wrong = IPOKER_EXAMPLE.replace('win="104" bet="62"', 'win="104" bet="64"')
    with pytest.raises(HistoryError, match="Villain bet 64; the replay puts in 62"):
        next(read(wrong))
    late = IPOKER_EXAMPLE.replace(
        'action no="4" player="Villain"', 'action no="99" player="Villain"'
    )
    with pytest.raises(HistoryError, match=r"line 15: Hero calls, but Villain is to act"):
        next(read(late))


def test_a_merge_game_is_read_with_its_totals_and_its_winners() -> None:
    """Merge gives a raise's street total and a call's chips; its winner amounts
    hold the uncalled bet given back, and the rake is what went in less what came out."""
    history = next(read(MERGE_EXAMPLE))
    assert (history.site, history.hand_id, history.table, history.currency) == (
        "Merge", "1-1", "Example (1)", "USD")  # fmt: skip
    assert history.stakes == Stakes(ante=2, bring_in=5, small_bet=10, big_bet=20)
    assert history.hand.stacks == [210, 188] and history.rake == 2
    assert history.hand.result is not None and history.hand.result.returned == [10, 0]
    # With no rake field the total cannot be checked on its own, but who won is.
    wrong = MERGE_EXAMPLE.replace('potnumber="1" player="1"', 'potnumber="1" player="2"')
    with pytest.raises(HistoryError, match=r"Hero collected 0\.00; the replay pays 0\.32, an"):
        next(read(wrong))
    no_limit = MERGE_EXAMPLE.replace('stakes="Limit', 'stakes="No Limit')
    assert "not a fixed-limit seven-card stud game" in str(next(read(no_limit, errors="collect")))


def test_a_bovada_hand_finds_its_streets_and_limits_from_its_lines() -> None:
    """Older Bovada files have no line between streets and name no limits: a street
    begins where the deals begin again, and the completion is the small bet."""
    history = next(read(BOVADA_EXAMPLE))
    assert history.tournament == "2" and history.hero == "Seat+2"
    assert [p.seat for p in history.players] == [1, 2]
    assert history.stakes == Stakes(ante=2, bring_in=5, small_bet=10, big_bet=20)
    assert [e.street for e in history.hand.events if e.kind == "deal"] == [3, 3, 4, 4, 5, 5]
    assert history.hand.stacks == [1488, 1512] and history.collected["Seat+2"] == 24
    wrong = BOVADA_EXAMPLE.replace("Seat+1 : Call 5", "Seat+1 : Call 6")
    with pytest.raises(HistoryError, match=r"line 11: Seat\+1 calls 6; the call is 5"):
        next(read(wrong))


def test_a_winning_hand_trusts_only_the_raise_total_and_reads_its_summary() -> None:
    """Since 2019 Winning writes "raises $A to $B" with an unreliable A, the total
    pot after the rake and the jackpot fee, and a pot won without a showdown only
    in the summary."""
    history = next(read(WINNING_EXAMPLE))
    assert (history.site, history.hand_id, history.table, history.hero) == (
        "Winning", "90412077", "Lindale", "Hero")  # fmt: skip
    assert history.stakes == Stakes(ante=1, bring_in=2, small_bet=4, big_bet=8)
    # Hero's "raises $0.04 to $0.04" completes to 4 cents: A would make it 8.
    assert [(e.kind, e.to) for e in history.hand.events if e.seat == 0 and e.street == 3][-1:] == [
        ("complete", 4)]  # fmt: skip
    assert history.collected["Player2"] == 36 and history.rake == 1
    assert history.hand.result is not None and history.hand.result.payouts[3] == 36 + 8
    with_fee = WINNING_EXAMPLE.replace(
        "Total pot $0.36 | Rake $0.01", "Total pot $0.36 | Rake $0.00 | JP Fee $0.01"
    )
    assert next(read(with_fee)).rake == 1  # the fee is taken as rake is
    wrong = WINNING_EXAMPLE.replace("show and won $0.36", "show and won $0.35")
    with pytest.raises(HistoryError, match=r"Player2 collected 0\.35; the replay pays 0\.36"):
        next(read(wrong))
    unknown = WINNING_EXAMPLE.replace("Player0 checks", "Player0 knocks", 1)
    with pytest.raises(HistoryError, match="a line this reader does not know: 'Player0 knocks'"):
        next(read(unknown))


def test_a_winning_2016_hand_is_read_card_by_card_and_pays_the_low_the_odd_chip() -> None:
    """The older software writes a line a card (no 3rd street marker; its "Third
    street" is the fourth), what each put in and took only in the summary, and
    gives the odd chip of a hi/lo split to the low half."""
    history = next(read(WINNING_2016_EXAMPLE))
    assert (history.game, history.hand_id, history.table, history.hero) == (
        "stud8", "700102033", "Pampas - 2", "Quill")  # fmt: skip
    assert history.played_at is not None and history.played_at.second == 5
    assert history.stakes == Stakes(ante=15, bring_in=40, small_bet=100, big_bet=200)
    assert [e.street for e in history.hand.events if e.kind == "deal" and e.seat == 1] == [
        3, 4, 5, 6, 7]  # fmt: skip
    hand = history.hand
    assert hand.rules.odd_chip_half == "low" and history.rake == 20
    assert hand.result is not None and hand.result.payouts == [0, 353, 352]
    # Rowan's down cards, the 7th-street one too, are known from the summary's show.
    assert [card_str(c) if c is not None else None for c in hand.cards[2]] == [
        "5d", "3d", "3s", "6s", "8s", "8h", "Ad"]  # fmt: skip
    assert history.collected == {"Moth": 0, "Quill": 353, "Rowan": 352}
    wrong = WINNING_2016_EXAMPLE.replace("3.55. Collects: 3.52", "3.45. Collects: 3.52")
    with pytest.raises(HistoryError, match=r"Rowan bet 3\.45; the replay puts in 3\.55"):
        next(read(wrong))
    cut = WINNING_2016_EXAMPLE.split("Player Moth ante")[0]
    assert "the text ends before a card is dealt" in str(next(read(cut, errors="collect")))


def test_an_ongame_hand_is_read_from_its_street_lines_and_its_summary() -> None:
    """OnGame: "-" for a card not seen; in "raises $A to $B" A is the street total
    (B the hand's); "big bring in" is a completion; the winners, the pot and the
    rake only in the summary."""
    history = next(read(ONGAME_EXAMPLE))
    assert (history.site, history.hand_id, history.table, history.currency) == (
        "OnGame", "R5-700123456-12", "Kestrel", "USD")  # fmt: skip
    assert history.played_at is not None and history.played_at.utcoffset() == timedelta(hours=1)
    assert history.stakes == Stakes(ante=10, bring_in=25, small_bet=50, big_bet=100)
    events = [(e.kind, e.seat, e.to) for e in history.hand.events if e.street == 4 and e.to]
    # Anna's open queens let her bet the big bet on 4th street; Hero raises to $2.
    assert events == [("bet", 1, 100), ("raise", 0, 200), ("call", 1, 200)]
    assert history.hand.stacks == [2140, 6820] and history.rake == 40
    assert history.hand.cards[1][:2] != [None, None]  # shown beside the seat
    completed = ONGAME_EXAMPLE.replace("small bring in $0.25", "big bring in $0.50")
    completed = completed.replace("Anna B raises $0.50 to $0.50", "Anna B raises $1 to $1")
    completed = completed.replace("Hero calls $0.25", "Hero calls $0.50")
    with pytest.raises(HistoryError, match=r"Anna B collected 6\.80; the replay pays 7\.80"):
        next(read(completed))  # read and replayed: only the summary's amounts differ now
    wrong = ONGAME_EXAMPLE.replace("Rake taken: $0.40", "Rake taken: $0.30")
    with pytest.raises(HistoryError, match=r"Anna B collected 6\.80; the replay pays 6\.90"):
        next(read(wrong))
    # A re-raise: "raises $2 to $4" adds 2 to Anna's bet of 1 on 4th street.
    reraised = ONGAME_EXAMPLE.replace(
        "Hero raises $2 to $2.50\nAnna B calls $1",
        "Hero raises $2 to $2.50\nAnna B raises $2 to $3.50\nHero calls $1",
    ).replace("$7.20 won by Anna B ($6.80)", "$9.20 won by Anna B ($8.80)")
    assert [(e.kind, e.to) for e in next(read(reraised)).hand.events if e.street == 4 and e.to] == [
        ("bet", 100), ("raise", 200), ("raise", 300), ("call", 300)]  # fmt: skip
    pot = ONGAME_EXAMPLE.replace("Main pot: $7.20", "Main pot: $7.30")
    with pytest.raises(HistoryError, match=r"the total pot is 7\.30; the replay's is 7\.20"):
        next(read(pot))


def test_an_everleaf_hand_has_no_line_for_the_uncalled_bet_nor_the_rake() -> None:
    """Everleaf writes what a call or a raise adds, no uncalled bet given back and no
    rake: the rake is what the pot held less what was won, and the rest is checked
    against it."""
    history = next(read(EVERLEAF_EXAMPLE))
    assert (history.site, history.table, history.currency, history.hero) == (
        "Everleaf", "Tammela", "EUR", "Nadia")  # fmt: skip
    assert history.stakes == Stakes(ante=1, bring_in=2, small_bet=5, big_bet=10)
    # Nadia's "raises [€ 0.08 EURO]" adds 8 to her bring-in of 2: a raise to 10.
    assert [(e.kind, e.to) for e in history.hand.events if e.seat == 0 and e.to][:2] == [
        ("bring_in", 2), ("raise", 10)]  # fmt: skip
    assert history.rake == 2 and history.hand.stacks == [234, 264]
    unraked = EVERLEAF_EXAMPLE.replace("€ 0.30 EURO", "€ 0.32 EURO")
    assert next(read(unraked)).rake == 0
    too_much = EVERLEAF_EXAMPLE.replace("€ 0.30 EURO", "€ 0.33 EURO")
    with pytest.raises(HistoryError, match=r"Olek collected 0\.33; the replay pays 0\.32"):
        next(read(too_much))
    # The older files show no other player's up cards: refused, with the reason.
    blind = EVERLEAF_EXAMPLE.replace("Dealt to Olek [ Kd ].\n", "")
    assert "Olek has no up card on 3rd street" in str(next(read(blind, errors="collect")))


def test_a_partypoker_hand_is_found_and_refused_for_its_hidden_up_cards() -> None:
    """PartyPoker writes no other player's up cards: its hands are counted as
    refused, with that reason, not as text of no room."""
    text = (
        "***** Hand History for Game 42 *****\n"
        "$0.50/$1 USD 7 Card Stud Hi-Lo - Wednesday, December 02, 12:00:00 EDT 2026\n"
        "Table Example (Real Money)\nSeat 1: Ann ( $10 USD )\nSeat 2: Bob ( $10 USD )\n"
        "Ann posts ante [$0.05 USD]\n** Dealing **\nDealt to Ann [  3h 8c 7c ]\n"
    )
    refused = next(read(text, errors="collect"))
    assert isinstance(refused, HistoryError) and find_site(text) == "PartyPoker"
    assert str(refused).startswith("PartyPoker, hand 42, line 1: PartyPoker shows no other")
    assert "not a fixed-limit seven-card stud game: $0.50/$1 USD 7 Card Draw" in str(
        next(read(text.replace("7 Card Stud Hi-Lo", "7 Card Draw"), errors="collect")))  # fmt: skip
    # The lines PartyPoker writes before each hand's first are the hand's, at a file's
    # start or after another room's hand; a note among them is still reported.
    preamble = "Game #42 starts.\n\n#Game No : 42\n"
    for before in ("", EXAMPLE + "\n\n"):
        found = list(read(before + preamble + text, errors="collect"))
        assert [type(f).__name__ for f in found][-1:] == ["HistoryError"]
        assert not any(isinstance(f, OutsideHandsError) for f in found), found
        noted = list(read(before + "my note\n" + preamble + text, errors="collect"))
        assert [str(f).split(": ", 1)[-1] for f in noted if isinstance(f, OutsideHandsError)] == [
            "1 line outside every hand, not read: 'my note'"]  # fmt: skip


def test_a_site_is_found_after_any_number_of_other_lines() -> None:
    """find_site reads a file's first 64 KiB of lines, then the rest: a hand after a
    long line, many short ones, Windows' line ends or a form feed is found all the
    same, and a text with no hand names no site."""
    for before in ("x" * 70_000 + "\n", "junk\n" * 20_000, "a\x0cb\r\n" * 9_000, ""):
        assert find_site(before + EXAMPLE) == "PokerStars", before[:10]
        assert find_site((before + EXAMPLE).replace("\n", "\r\n")) == "PokerStars"
        assert find_site(before + "no hand here\n") is None
