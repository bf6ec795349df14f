"""Each room's example hand (tests/data/histories) read, with what it says checked
against figures worked out by hand from its text."""

from __future__ import annotations

from helpers import example

from studeval.histories import Player, read


def test_winning() -> None:
    history = next(read(example("winning.txt")))
    assert (history.site, history.game, history.hero, history.rake) == (
        "Winning",
        "stud",
        "Hero",
        1,
    )
    assert history.collected["Player2"] == 36
    old = next(read(example("winning_2016.txt")))
    assert old.hand.result is not None
    # 705 cents split: the low half takes the odd one.
    assert (old.game, old.hand.result.payouts) == ("stud8", [0, 353, 352])


def test_bovada() -> None:
    history = next(read(example("bovada.txt")))
    assert (history.site, history.hero, history.stakes.small_bet) == ("Bovada", "Seat+2", 10)
    assert history.hand.stacks == [1488, 1512]


def test_ongame() -> None:
    history = next(read(example("ongame.txt")))
    assert (history.site, history.hand_id, history.table) == (
        "OnGame",
        "R5-700123456-12",
        "Kestrel",
    )
    assert (history.hero, history.rake) == ("Hero", 40)
    assert history.hand.stacks == [2140, 6820]
    assert history.collected["Anna B"] == 680


def test_everleaf() -> None:
    history = next(read(example("everleaf.txt")))
    assert (history.site, history.hand_id, history.currency) == ("Everleaf", "300100200", "EUR")
    assert (history.hero, history.rake) == ("Nadia", 2)
    assert history.hand.result is not None
    assert history.hand.stacks == [234, 264]
    assert history.hand.result.returned == [0, 10]  # Olek's last bet came back


def test_ipoker() -> None:
    history = next(read(example("ipoker.xml")))
    assert (history.site, history.game, history.hand.stacks, history.rake) == (
        "iPoker", "stud", [158, 242], 0)  # fmt: skip


def test_merge() -> None:
    history = next(read(example("merge.xml")))
    assert (history.site, history.game, history.hand.stacks, history.rake) == (
        "Merge", "razz", [210, 188], 2)  # fmt: skip


def test_the_package_example() -> None:
    from studeval.histories import EXAMPLE

    history = next(read(EXAMPLE))
    assert (history.site, history.hand_id, history.game, str(history.unit)) == (
        "PokerStars", "20261202017", "razz", "0.01")  # fmt: skip
    # In cents: DarioZ collected 39 of 41.
    assert history.players[0] == Player(seat=1, name="alba_k", stack=133)
    assert history.hand.stacks == [130, 202, 164, 159, 189]
    assert (history.collected["DarioZ"], history.rake) == (39, 2)
