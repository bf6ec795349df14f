"""Rooms' texts that were refused or misread: Full Tilt's two-word pots, the bring-in
a text does not state, Bovada's currency and hero, community cards written by the
Bovada and Winning-2016 writers, a name that is the start of another's, notes
pasted between hands, double-spaced files, and the refusal reasons counted by kind.

Every text here is the project's own: random hands written by a room's writer,
some with a line reworded the way the room words it.
"""

from __future__ import annotations

import importlib
import random
import re
from decimal import Decimal

import pytest
from helpers import play_out, room_writers

from studeval import Stakes, StudHand
from studeval.histories import HistoryError, read
from studeval.histories._record import reason_kind
from studeval.histories._writer import Table, amount_text
from studeval.histories.rooms import bovada, everleaf, fulltilt, pokerstars, winning
from studeval.houserules import HouseRules
from studeval.play import random_hand

WRITERS = room_writers()


def _names(site: str, seats: int) -> list[str]:
    return bovada.names(seats) if site == "Bovada" else [f"P{s} x" for s in range(seats)]


def _actions(hand: StudHand) -> list[tuple[str, int | None, int, int | None]]:
    return [(e.kind, e.seat, e.amount, e.to) for e in hand.events
            if e.kind not in ("deal", "community", "show", "muck")]  # fmt: skip


def _rules(site: str) -> HouseRules | None:
    return winning.GRAMMAR_2016.rules if site == "Winning 2016" else None


# ---- Full Tilt: "wins the low main pot" ------------------------------------------------


def _pot_lines(hand: StudHand, table: Table) -> list[str]:
    """Full Tilt's lines for who won each half of each pot ("wins the high side pot")."""
    result = hand.result
    assert result is not None
    lines = []
    for number, pot in enumerate(result.pots):
        which = "main" if number == 0 else "side"
        split = any(pot.low_shares)
        for seat in range(hand.seats):
            halves = [("high ", pot.high_shares[seat]), ("low ", pot.low_shares[seat])]
            for half, chips in halves if split else [("", pot.shares[seat])]:
                if chips:
                    money = amount_text(chips, table)
                    lines.append(f"{table.names[seat]} wins the {half}{which} pot ({money})")
    return lines


def test_full_tilt_pots_named_by_half_and_by_pot_are_collected() -> None:
    """Full Tilt names a hi/lo pot by both ("wins the low main pot ($41.05)")."""
    rng = random.Random(5)
    checked = 0
    while checked < 12:
        stacks = [rng.choice([12, 25, 40, 200]) for _ in range(rng.randint(3, 6))]
        hand = play_out(StudHand("stud8", Stakes(1, 2, 5, 10), stacks), rng)
        result = hand.result
        assert result is not None
        if len(result.pots) < 2 or not any(any(p.low_shares) for p in result.pots):
            continue
        names = [f"P{s} x" for s in range(hand.seats)]
        table = Table(names=names)
        text = fulltilt.write(hand, table)
        won = [line for line in text.splitlines() if " wins the pot (" in line]
        assert won
        at = text.index(won[0])
        rest = "".join(line + "\n" for line in text[at:].splitlines() if line not in won)
        text = text[:at] + "\n".join(_pot_lines(hand, table)) + "\n" + rest
        history = next(read(text))
        assert history.hand.stacks == hand.stacks, text
        assert [history.collected[n] for n in names] == [
            result.payouts[s] - result.returned[s] for s in range(hand.seats)]  # fmt: skip
        checked += 1


# ---- a name that is the start of another's ---------------------------------------------


@pytest.mark.parametrize("site", sorted(set(WRITERS) - {"Bovada"}))  # Bovada names seats
def test_a_name_that_starts_another_players_name_is_read_as_its_own(site: str) -> None:
    """Players "Ann" and "Ann B" at one table, in either order: a summary line whose name is
    followed by free text ("Player Ann B does not show cards.Bets: ...") is Ann B's.
    Winning 2016 had read it as Ann's, and refused the hand for her bets."""
    rng = random.Random(site)
    orders = (["Ann", "Ann B", "Ann Bo", "C", "Cy"], ["Ann Bo", "Cy", "Ann B", "C", "Ann"])
    for number in range(40):
        hand = random_hand(rng.choice(["stud", "stud8", "razz"]), rng.randint(2, 5), rng=rng,
                           rules=_rules(site))  # fmt: skip
        names = orders[number % 2][: hand.seats]
        text = WRITERS[site](hand, Table(names=names, hand_id=number))
        history = next(read(text))
        assert history.hand.stacks == hand.stacks, text
        assert _actions(history.hand) == _actions(hand), text
        assert history.hand.result is not None and hand.result is not None
        assert history.hand.result.payouts == hand.result.payouts, text


# ---- text pasted between hands ---------------------------------------------------------

_TEXT_ROOMS = sorted(site for site in WRITERS if site not in ("Merge", "iPoker"))  # not XML


def _two_hands(site: str, seed: int) -> list[str]:
    rng = random.Random(seed)
    hands = [random_hand(rng.choice(["stud", "stud8", "razz"]), rng.randint(2, 6), rng=rng,
                         rules=_rules(site)) for _ in range(2)]  # fmt: skip
    return [WRITERS[site](hand, Table(names=_names(site, hand.seats), hand_id=n + 1))
            for n, hand in enumerate(hands)]  # fmt: skip


@pytest.mark.parametrize("site", _TEXT_ROOMS)
def test_notes_pasted_between_two_hands_are_reported_at_their_line(site: str) -> None:
    """A user's note between two hands is no part of either: it is reported where it
    is (every room but PokerStars had read it as the first hand's last lines and
    passed over it), and both hands are read."""
    for seed in range(6):
        first, second = _two_hands(site, seed)
        note = "my note: he always bluffs the river\nSeat 9 was empty all night"
        text = first.rstrip("\n") + "\n\n" + note + "\n\n" + second
        read_back = list(read(text, errors="collect"))
        assert [type(r).__name__ for r in read_back] == ["History", "OutsideHandsError", "History"]
        assert read_back[1].line == first.rstrip("\n").count("\n") + 3  # type: ignore[union-attr]
        assert "he always bluffs" in str(read_back[1])
        glued = first.rstrip("\n") + "\n" + note + "\n\n" + second  # no blank line before it
        kinds = [type(r).__name__ for r in read(glued, errors="collect")]
        assert kinds == ["History", "OutsideHandsError", "History"], glued


#: Lines the rooms write at a hand's end that their writers here do not: a board line
#: (a hold'em hand's, in a file of many games), a player leaving, a showdown's words
#: after a win, a summary marker with a space after it. Each: the room, the line the
#: new one follows (a regular expression), the new line or the line's new end.
_END_LINES = [
    ("Winning 2016", r"\nPot: [^\n]*", "\nBoard: [Kd]"),
    ("Absolute", r"\nTotal Pot[^\n]*", "\nBoard [4c Qs 10d 8h 3d]"),
    ("Bovada", r"\nTotal Pot[^\n]*", "\nBoard [4c Qs Td 8h 3d]"),
    ("Everleaf", r"\n[^\n]* wins [^\n]*", "\nP1 x has left the table"),
    ("Everleaf", r"\n[^\n]* wins [^\n]* pot", " with a pair of nines"),
    ("Full Tilt Poker", r"\n\*\*\* SUMMARY \*\*\*", " "),
    ("Winamax", r"\n\*\*\* SUMMARY \*\*\*", "  "),
]


@pytest.mark.parametrize(("site", "after", "added"), _END_LINES)
def test_the_rooms_own_lines_at_a_hands_end_stay_in_it(site: str, after: str, added: str) -> None:
    """A line the room writes after its last section is the hand's, and a note after
    it is still reported: a Winning hand with a board line had been refused (its
    players' lines after the board cut off), a board line reported as outside text."""
    for seed in range(5):
        first, second = _two_hands(site, seed)
        found = re.search(after, first)
        assert found is not None, first
        edited = first[: found.end()] + added + first[found.end() :]
        text = edited.rstrip("\n") + "\n\nmy note: he bluffs\n\n" + second
        read_back = list(read(text, errors="collect"))
        assert [type(r).__name__ for r in read_back] == ["History", "OutsideHandsError",
                                                         "History"], text  # fmt: skip
        assert str(read_back[1]).endswith("not read: 'my note: he bluffs'")


@pytest.mark.parametrize("site", sorted(set(_TEXT_ROOMS) - {"PokerStars", "PokerStars Home Games"}))
def test_a_file_with_a_blank_line_after_every_line_is_read_whole(site: str) -> None:
    """Some exports put a blank line between every two lines (Full Tilt's and Winning's
    UTF-16 files): the hand's last section goes on past its blank lines, and no line
    of it is taken for text outside the hands. (PokerStars writes no blank line inside
    a hand: there one ends its summary.)"""
    for seed in range(6):
        hands = _two_hands(site, seed)
        text = "\n\n".join(hands).replace("\n", "\n\n")
        read_back = list(read(text, errors="collect"))
        assert [type(r).__name__ for r in read_back] == ["History", "History"], text


# ---- the bring-in the text does not state ----------------------------------------------


def _short_completion(hand: StudHand) -> bool:
    """Whether the bring-in seat completed all in for no more than half the small bet."""
    first = next(e for e in hand.events if e.kind not in ("ante", "deal"))
    return (first.kind in ("complete", "raise") and first.to is not None
            and first.to <= hand.stakes.small_bet // 2)  # fmt: skip


@pytest.mark.parametrize("site", sorted(WRITERS))
def test_a_bring_in_seat_completing_all_in_for_little_reads_back(site: str) -> None:
    """The bring-in seat completes all in for less than half the small bet (legal: more
    than the bring-in): the text never states the bring-in, and the one the reader
    takes must leave that completion a completion."""
    rng = random.Random(site)
    found = 0
    for number in range(200):
        stakes, stack = rng.choice([(Stakes(1, 2, 10, 20), 5), (Stakes(5, 5, 40, 80), 20),
                                    (Stakes(0, 1, 8, 16), 3)])  # fmt: skip
        stack += rng.randint(0, 1)
        hand = random_hand(rng.choice(["stud", "stud8", "razz"]), rng.randint(2, 6), rng=rng,
                           stakes=stakes, stack=stack, rules=_rules(site))  # fmt: skip
        if not _short_completion(hand) or (site == "Merge" and hand.community is not None):
            continue
        names = _names(site, hand.seats)
        text = WRITERS[site](hand, Table(names=names, hand_id=number, sign="$"))
        history = next(read(text))
        assert history.hand.stacks == hand.stacks, text
        assert _actions(history.hand) == _actions(hand), text
        first = next(e for e in hand.events if e.kind not in ("ante", "deal"))
        assert first.to is not None and history.stakes.bring_in < first.to
        found += 1
        if found == 8:
            break
    assert found == 8


def _first_wager_line(text: str, hand: StudHand, names: list[str]) -> str:
    first = next(e for e in hand.events if e.kind not in ("ante", "deal"))
    assert first.seat is not None
    return next(line for line in text.splitlines()
                if line.startswith(names[first.seat] + ": raises "))  # fmt: skip


def test_a_completion_written_as_a_bet_takes_half_the_small_bet_for_the_bring_in() -> None:
    """PokerStars writes the bring-in seat's completion "bets $0.04": the bring-in is
    then half the small bet, as for any completion, not a game without one."""
    rng = random.Random(11)
    checked = 0
    while checked < 6:
        hand = random_hand("stud", rng.randint(2, 6), rng=rng, stakes=Stakes(1, 2, 4, 8))
        first = next(e for e in hand.events if e.kind not in ("ante", "deal"))
        if first.kind != "complete":
            continue
        names = [f"P{s} x" for s in range(hand.seats)]
        text = pokerstars.write(hand, Table(names=names, hand_id=checked + 1))
        line = _first_wager_line(text, hand, names)
        text = text.replace(line, f"{names[first.seat or 0]}: bets $0.04", 1)
        history = next(read(text))
        assert history.stakes == Stakes(ante=1, bring_in=2, small_bet=4, big_bet=8), text
        assert history.hand.stacks == hand.stacks and "bring_in = 2" in history.to_phh()
        checked += 1


def test_the_bring_in_is_the_first_bring_in_line_even_all_in() -> None:
    """A PokerStars HORSE tournament names no bring-in in its header: a bring-in line
    ("brings in for 60 and is all-in") says it."""
    rng = random.Random(3)
    checked = 0
    while checked < 4:
        stacks = [70] + [rng.choice([500, 900]) for _ in range(rng.randint(1, 4))]
        hand = play_out(StudHand("razz", Stakes(10, 80, 160, 320), stacks), rng)
        first = next(e for e in hand.events if e.kind not in ("ante", "deal"))
        if first.kind != "bring_in" or first.seat != 0:
            continue
        names = [f"Player{s}" for s in range(hand.seats)]
        text = pokerstars.write(hand, Table(names=names, unit=Decimal(1), sign=""))
        header = text.splitlines()[0]
        horse = re.sub(r":  Razz Limit \(160/320\)",
                       ": Tournament #7, $5+$0.50 HORSE (Razz Limit) - Level IV (160/320)",
                       header)  # fmt: skip
        assert horse != header and "Player0: brings in for 60 and is all-in" in text
        history = next(read(text.replace(header, horse)))
        assert history.tournament == "7" and history.stakes.bring_in == 60
        assert history.hand.stacks == hand.stacks
        checked += 1


def test_a_first_seat_that_checks_plays_a_game_without_a_bring_in() -> None:
    """A bring-in seat can neither check nor fold: a first seat that does plays a game
    without a bring-in."""
    rng = random.Random(4)
    checked = 0
    while checked < 4:
        hand = random_hand("stud", rng.randint(2, 5), rng=rng, stakes=Stakes(1, 0, 10, 20))
        if next(e for e in hand.events if e.kind not in ("ante", "deal")).kind != "check":
            continue
        names = [f"P{s} x" for s in range(hand.seats)]
        history = next(read(pokerstars.write(hand, Table(names=names))))
        assert history.stakes.bring_in == 0 and history.hand.stacks == hand.stacks
        checked += 1


# ---- community cards -------------------------------------------------------------------


def _to_the_river(seed: int, rules: HouseRules | None) -> StudHand:
    """Eight players who call and check to 7th street: the deck runs out, and 7th
    street is one community card."""
    rng = random.Random(seed)
    hand = StudHand(rng.choice(["stud", "stud8", "razz"]), Stakes(1, 2, 5, 10), [1000] * 8,
                    rules=rules)  # fmt: skip
    hand = play_out(hand, rng, passive=True)
    assert hand.community is not None
    return hand


@pytest.mark.parametrize("site", sorted(set(WRITERS) - {"Merge"}))  # Merge: no known text
def test_a_community_card_hand_reads_back(site: str) -> None:
    for seed in range(3):
        hand = _to_the_river(seed, _rules(site))
        text = WRITERS[site](hand, Table(names=_names(site, 8), hero=seed))
        history = next(read(text))
        assert history.hand.community == hand.community, text
        assert history.hand.stacks == hand.stacks and _actions(history.hand) == _actions(hand)


# ---- Bovada: "$" and "[ME]" ------------------------------------------------------------


def test_a_bovada_cash_hand_is_in_dollars_and_its_hero_is_named_without_the_mark() -> None:
    """Older Bodog headers name no stakes and no currency; every amount has "$". The
    hero's name is written "Seat+3 [ME]": the player is "Seat+3"."""
    hand = random_hand("stud", 4, seed=8)
    text = bovada.write(hand, Table(names=bovada.names(4), hero=2))
    header = text.splitlines()[0]
    bodog = "Bodog Hand #2604291510 TBL#1178621 7CARD Fixed Limit - 2012-05-07 03:40:07"
    assert "Seat+3 [ME]: $" in text and "($" in header
    history = next(read(text.replace(header, bodog)))
    assert history.currency == "USD" and history.tournament is None
    assert history.hero == "Seat+3" and history.hand.cards[2] == hand.cards[2]
    assert [p.name for p in history.players] == ["Seat+1", "Seat+2", "Seat+3", "Seat+4"]
    assert "[ME]" not in history.to_phh() and history.hand.stacks == hand.stacks
    chips = bovada.write(hand, Table(names=bovada.names(4), hero=None, sign=""))
    assert next(read(chips.replace(chips.splitlines()[0], bodog))).currency is None


# ---- refusals counted by kind ----------------------------------------------------------


def test_a_refusal_kind_leaves_out_every_name_and_amount_but_not_game_names() -> None:
    """One reason, one kind: names with spaces, brackets or digits are ``P``."""
    hand = random_hand("stud", 4, seed=2, stack=400)
    kinds = set()
    for names in (["Ann", "Bob", "Cy", "Di"], ["Bob Jr", "E (x)", "L m n", "1Incubator1"],
                  ["the", "calls", "3rd", "is"]):  # fmt: skip
        text = pokerstars.write(hand, Table(names=names))
        call = next(line for line in text.splitlines() if ": calls $" in line)
        refused = next(read(text.replace(call, call.replace(": calls $", ": calls $1"), 1),
                            errors="collect"))  # fmt: skip
        assert isinstance(refused, HistoryError)
        kinds.add(refused.kind)
    assert kinds == {"P calls N; the call is N"}
    game = "not a fixed-limit seven-card stud game: Limit 2-7 Triple Draw (H/L8, 7-Stud)"
    assert reason_kind(game) == game
    assert reason_kind("Hero has no up card on 3rd street", ["Hero"]) == (
        "P has no up card on 3rd street")  # fmt: skip


def test_everleafs_older_files_are_refused_for_the_up_cards_they_do_not_show() -> None:
    """Before August 2011 Everleaf wrote no deal lines for other players' cards: the
    reason is PartyPoker's, not a missing card of one player."""
    rng = random.Random(6)
    shown = play_out(StudHand("stud", Stakes(1, 2, 5, 10), [100] * 3), rng, passive=True)
    for hand in (random_hand("stud", 3, rng=rng), shown):
        text = everleaf.write(hand, Table(names=["Ann", "Bob", "Cy"], hero=None))
        old = "".join(line + "\n" for line in text.splitlines()
                      if not line.startswith("Dealt to "))  # fmt: skip
        assert (" shows [" in old) == (hand is shown)
        refused = next(read(old, errors="collect"))
        assert isinstance(refused, HistoryError)
        assert refused.reason == ("Everleaf shows no other player's up cards: the bring-in "
                                  "and the order of play cannot be replayed")  # fmt: skip
        assert refused.kind == refused.reason


@pytest.mark.parametrize("site", ["PokerStars", "Full Tilt Poker", "Everleaf"])
def test_a_text_cut_in_a_street_marker_ends_before_the_hand_does(site: str) -> None:
    rng = random.Random(site)
    hand = next(h for h in iter(lambda: random_hand("razz", 3, rng=rng), None)
                if any(e.street == 5 for e in h.events))  # fmt: skip
    text = WRITERS[site](hand, Table(names=["Ann", "Bob", "Cy"]))
    marker = next(line for line in text.splitlines() if "4th" in line.lower())
    cut = text[: text.index(marker) + len(marker) // 2]
    refused = next(read(cut, errors="collect"))
    assert isinstance(refused, HistoryError)
    assert refused.reason == "the text ends before the hand does", cut
    # A text that goes on without one player's 4th-street card names the street so.
    deal = next(line for line in text[text.index(marker) :].splitlines() if "Dealt to" in line)
    missing = next(read(text.replace(deal + "\n", "", 1), errors="collect"))
    assert isinstance(missing, HistoryError) and missing.kind == "P has no up card on 4th street"


def test_every_room_module_is_in_the_list_of_rooms_once() -> None:
    """A room's module left out of ROOMS would be read by nothing, and silently."""
    import pkgutil

    from studeval.histories import rooms

    modules = {m.name for m in pkgutil.iter_modules(rooms.__path__)}
    listed = list(rooms.ROOMS)
    assert len(modules) == len(listed) == len({r.site for r in listed}) >= 10
    for name in modules:
        module = importlib.import_module(f"studeval.histories.rooms.{name}")
        assert sum(module.ROOM is r for r in listed) == 1, name
    for room in listed:  # a room writes its hands unless they are all refused
        assert bool(room.writers) == (room.refused is None), room.site
        assert all(g.site == room.site for g in room.formats)


# ---- one record of a hand's facts: HandInfo ----------------------------------------------


@pytest.mark.parametrize("writer", sorted(set(WRITERS) - {"Bovada"}))  # Bovada: "Seat+N" only
def test_a_history_is_written_again_in_any_rooms_words(writer: str) -> None:
    """A hand read from one room's text, written by another room's writer from its
    record (``Table.of(history.info)``), reads back with the same players, seats,
    stacks, payouts and hero."""
    rng = random.Random(5)
    for number in range(6):
        hand = random_hand(rng.choice(["stud", "stud8", "razz"]), rng.randint(2, 7), rng=rng,
                           rules=_rules(writer))  # fmt: skip
        names = [f"Pl{s}" for s in range(hand.seats)]
        table = Table(names=names, hand_id=700 + number, seat_numbers=[2 * s + 1 for s in
                      range(hand.seats)], hero=rng.choice([None, 0]))  # fmt: skip
        first = next(read(WRITERS["Winning 2016" if writer == "Winning 2016" else "PokerStars"](
            hand, table)))  # fmt: skip
        again = next(read(WRITERS[writer](first.hand, Table.of(first.info))))
        assert again.info.players == first.info.players == tuple(names)
        assert again.hand.stacks == first.hand.stacks == hand.stacks
        assert again.hand.result is not None and first.hand.result is not None
        assert again.hand.result.payouts == first.hand.result.payouts  # ("collected" is
        assert again.hero == first.hero  # as each room writes it: Merge's holds returns)
        if writer not in ("iPoker", "Merge", "Bovada", "Winamax", "OnGame"):
            assert again.info.seats == first.info.seats  # rooms that keep seat numbers


def test_a_hands_record_goes_to_phh_and_back() -> None:
    """HandInfo's PHH fields are what studeval.phh writes and reads."""
    from studeval.handinfo import HandInfo
    from studeval.histories import EXAMPLE
    from studeval.phh import dumps, loads

    history = next(read(EXAMPLE))
    back = HandInfo.of(loads(dumps(history.hand)))
    expected = history.info
    assert back.venue == expected.venue == "PokerStars" and back.hand_id == expected.hand_id
    assert back.players == expected.players and back.seats == expected.seats
    assert back.played_at == expected.played_at and back.currency == expected.currency == "USD"
    assert back.unit == expected.unit and back.hero is None  # PHH has no field for the hero


# ---- a rake found, not written -----------------------------------------------------------


@pytest.mark.parametrize("site", ["Everleaf", "OnGame"])
def test_a_hand_cut_before_its_winners_line_is_refused_not_raked_whole(site: str) -> None:
    # Everleaf writes no rake and OnGame its rake after the pot: the rake is found as
    # the pot less what was collected. A text cut before its winner's line (a file
    # read while the room wrote it) had been stored with the whole pot as rake and
    # every player losing; the whole text, read later, was then a conflict.
    checked = 0
    for seed in range(20):
        hand = random_hand("stud", 3, seed=seed)
        text = WRITERS[site](hand, Table(names=_names(site, 3)))
        winner = re.search(r"\n(P\d x wins .*|Main pot: \S+ won by P)", text)
        assert winner is not None, text
        cut = text[: winner.start() + 1] + (winner[1] if site == "OnGame" else "")
        assert next(read(text)).hand.stacks == hand.stacks
        with pytest.raises(HistoryError, match=r"no player collects the pot of \d+\.\d\d: the "
                                               "text ends before the hand does"):  # fmt: skip
            next(read(cut))
        checked += 1
    assert checked == 20


@pytest.mark.parametrize("site", _TEXT_ROOMS)
def test_a_text_cut_before_its_winners_first_line_says_it_ends_too_soon(site: str) -> None:
    """A text cut before its first line naming the winner's amount (a file read while
    the room wrote it): "the text ends before the hand does", in every room. It had
    been "Ann collected 0.00; the replay pays 0.41" where the room writes its rake."""
    checked = 0
    for seed in range(30):
        hand = random_hand("stud", 3, seed=seed)
        assert hand.result is not None
        names = _names(site, 3)
        text = WRITERS[site](hand, Table(names=names, hand_id=seed))
        nets = [hand.result.payouts[s] - hand.result.returned[s] for s in range(3)]
        winner = names[nets.index(max(nets))]
        lines = text.split("\n")
        first = next(i for i, line in enumerate(lines) if winner in line and re.search(
            r"collect|wins|won|Collects|Hand result", line))  # fmt: skip
        with pytest.raises(HistoryError, match=r"no player collects the pot of [\d.]+: the "
                                               "text ends before the hand does"):  # fmt: skip
            next(read("\n".join(lines[:first])))
        checked += 1
    assert checked == 30


def test_an_everleaf_winners_amount_edited_down_is_refused_not_taken_for_rake(tmp_path) -> None:
    """Everleaf writes no rake: it is the pot less what the winners collect. A winner's
    amount edited down (or a second winner's line lost) had been stored as a rake of
    most of the pot; more than a tenth of the pot and a chip is no room's rake."""
    from studeval import db

    checked = 0
    for seed in range(60):
        hand = random_hand("stud", 3, seed=seed, stack=300)
        text = WRITERS["Everleaf"](hand, Table(names=_names("Everleaf", 3), hand_id=seed))
        winner = re.search(r"\n(P\d x wins \$)(\d+)\.(\d\d)", text)
        assert winner is not None, text
        cents = int(winner[2]) * 100 + int(winner[3])
        if cents < 40:
            continue
        kept = cents * 7 // 100  # 93% of it taken away
        edited = text.replace(winner[0], f"\n{winner[1]}{kept // 100}.{kept % 100:02d}", 1)
        assert next(read(text)).hand.stacks == hand.stacks
        refusal = r"the winners collect \d+\.\d\d of the pot of \d+\.\d\d: .* any room's rake"
        with pytest.raises(HistoryError, match=refusal):
            next(read(edited))
        (tmp_path / f"{seed}.txt").write_text(edited)
        database = db.connect()
        report = database.import_histories(tmp_path / f"{seed}.txt")  # its own path: the same
        assert (report.hands, report.refused) == (0, 1)
        assert "more than any room's rake" in database.sql("SELECT reason FROM refused").reason[0]
        checked += 1
    assert checked >= 12


def test_a_kingsclub_2_7_razz_hand_is_another_games_not_a_refusal(tmp_path) -> None:
    # KingsClub's mixed tables deal 2-7 razz, a game studeval does not play: it had been
    # a refusal (exit status 2 for any such folder), where hold'em in a mixed file is
    # another game's hand, reported.
    from studeval.histories.rooms import kingsclub

    text = kingsclub.write(random_hand("razz", 2, seed=1), Table(names=["Ann", "Bob"]))
    assert text.startswith("#1: Limit Razz - ")
    found = next(read(text.replace("Limit Razz", "Limit 2-7 Razz", 1), errors="collect"))
    assert isinstance(found, HistoryError) and found.status == "not stud"
    assert found.reason.startswith("2-7 razz (deuce-to-seven lowball stud) is not a game")
    # The commands count it by its game's name (the reason's end had stood for it:
    # "its hands are reported as another game's, not replayed 1").
    from studeval.cli._hands import Tally, replayed

    tally = Tally()
    (tmp_path / "kc.txt").write_text(text.replace("Limit Razz", "Limit 2-7 Razz", 1))
    assert list(replayed([str(tmp_path / "kc.txt")], tally)) == []
    assert dict(tally.other_games) == {"Limit 2-7 Razz": 1}
