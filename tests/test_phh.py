"""PHH hand histories: replayed through the engine, written back, read by pokerkit."""

from __future__ import annotations

import random
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from studeval import HouseRules, StudHand
from studeval.phh import PHHError, dumps, loads
from studeval.play import random_hand

HEADER = """
variant = "{variant}"
ante_trimming_status = true
antes = [1, 1, 1]
bring_in = 2
small_bet = 5
big_bet = 10
starting_stacks = [100, 100, 100]
"""


def _history(actions: list[str], variant: str = "F7S") -> str:
    quoted = ", ".join(f'"{a}"' for a in actions)
    return HEADER.format(variant=variant) + f"actions = [{quoted}]\n"


THIRD = ["d dh p1 ????Kc", "d dh p2 ????2d", "d dh p3 ????9h"]


def test_a_history_replays_with_literal_chips() -> None:
    hand = loads(_history([*THIRD, "p2 pb", "p3 cbr 5", "p1 f", "p2 cc"]))
    assert hand.street == 4 and hand.actor is None
    assert hand.stacks == [99, 94, 94]
    assert hand.contributions == [1, 6, 6]


def test_an_illegal_action_is_an_error_naming_it() -> None:
    with pytest.raises(PHHError, match=r"actions\[4\] 'p3 cbr 7': seat 2 cannot complete to 7"):
        loads(_history([*THIRD, "p2 pb", "p3 cbr 7"]))
    with pytest.raises(PHHError, match=r"actions\[3\] 'p1 cc': it is not p1's turn \(p2 acts\)"):
        loads(_history([*THIRD, "p1 cc"]))
    with pytest.raises(PHHError, match=r"actions\[3\] 'p2 jump': not an action"):
        loads(_history([*THIRD, "p2 jump"]))
    with pytest.raises(PHHError, match="variant 'NT' is not fixed-limit stud"):
        loads(_history([], variant="NT"))
    with pytest.raises(PHHError, match="not a PHH"):
        loads("variant = ")


def test_unknown_hole_cards_are_shown_at_the_end() -> None:
    actions = ["d dh p1 ????Kc", "d dh p2 AsAd2d", "p2 pb", "p1 cc"]
    for up in (["Kd", "3c"], ["7d", "8c"], ["Th", "Jc"]):
        actions += [f"d dh p1 {up[0]}", f"d dh p2 {up[1]}", "p1 cc", "p2 cc"]
    actions += ["d dh p1 ??", "d dh p2 4s", "p1 cc", "p2 cc", "p1 sm KsKh2s", "p2 sm -"]
    text = (
        HEADER.format(variant="F7S")
        .replace("[1, 1, 1]", "[1, 1]")
        .replace("[100, 100, 100]", "[100, 100]")
        + "actions = ["
        + ", ".join(f'"{a}"' for a in actions)
        + "]\n"
    )
    hand = loads(text)
    assert hand.over and hand.stacks == [103, 97]  # four kings


@pytest.mark.parametrize("game", ["stud", "stud8", "razz"])
def test_round_trip_keeps_every_action(game: str) -> None:
    rng = random.Random(game)
    for _ in range(60):
        hand = random_hand(game, rng.randint(2, 8), rng.getrandbits(32))
        text = dumps(hand)
        again = loads(text)
        assert dumps(again) == text
        assert again.stacks == hand.stacks and again.over


def test_no_phh_variant_for_the_no_qualifier_game() -> None:
    with pytest.raises(PHHError, match="no variant for 'stud_hilo_noq'"):
        dumps(StudHand("stud_hilo_noq", random_hand("stud", 2, 1).stakes, [10, 10]))


def _extra_rules_used(hand: StudHand) -> bool:
    """Whether the hand used the heads-up lifted cap, which pokerkit does not have."""
    bets: dict[int, int] = {}
    for event in hand.events:
        if event.kind in ("complete", "bet", "raise"):
            bets[event.street] = bets.get(event.street, 0) + 1
    return any(count > 4 for count in bets.values())


@pytest.mark.parametrize("game", ["stud", "stud8", "razz"])
def test_pokerkit_reads_what_we_write_with_the_same_final_stacks(game: str) -> None:
    """On hands where both rule sets agree (no open-pair big bet, no lifted cap),
    pokerkit replays our history to the same final stacks."""
    pokerkit = pytest.importorskip("pokerkit")
    rules = HouseRules(open_pair_big_bet=False)
    rng = random.Random(f"pokerkit {game}")
    compared = 0
    for _ in range(80):
        hand = random_hand(game, rng.randint(2, 8), rng.getrandbits(32), rules=rules)
        if _extra_rules_used(hand):
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # pokerkit warns on folds it finds needless
            final = list(pokerkit.HandHistory.loads(dumps(hand)))[-1]
        assert list(final.stacks) == hand.stacks, dumps(hand)
        compared += 1
    assert compared >= 60


def test_replay_command_prints_the_hand(tmp_path: Path) -> None:
    path = tmp_path / "hand.phh"
    path.write_text(_history([*THIRD, "p2 pb", "p3 cbr 5", "p1 f", "p2 f"]))
    proc = subprocess.run(
        [sys.executable, "-m", "studeval", "replay", str(path)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert "Third street\n  Seat 0 is dealt ?? ?? Kc" in proc.stdout
    assert "  Seat 2 completes to 5\n  Seat 0 folds\n  Seat 1 folds" in proc.stdout
    assert proc.stdout.rstrip().endswith("Final stacks 99 97 104")


def test_replay_command_names_the_bad_action(tmp_path: Path) -> None:
    path = tmp_path / "bad.phh"
    path.write_text(_history([*THIRD, "p2 pb", "p3 cbr 9"]))
    proc = subprocess.run(
        [sys.executable, "-m", "studeval", "replay", str(path)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert proc.returncode == 2  # bad input, as for every command
    assert "actions[4] 'p3 cbr 9': seat 2 cannot complete to 9" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_play_command_writes_a_history_replay_reads() -> None:
    played = subprocess.run(
        [sys.executable, "-m", "studeval", "play", "--seed", "5", "--format", "phh"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    replayed = subprocess.run(
        [sys.executable, "-m", "studeval", "replay", "-"], input=played.stdout,
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    text = subprocess.run(
        [sys.executable, "-m", "studeval", "play", "--seed", "5"],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    assert replayed.stdout == text
    speed = subprocess.run(
        [sys.executable, "-m", "studeval", "play", "--hands", "300"],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    assert speed.startswith("played 300 random 6-seat stud hands in ")


def test_bad_fields_are_phh_errors() -> None:
    with pytest.raises(PHHError, match="a hand history is text"):
        loads(None)  # type: ignore[arg-type]
    with pytest.raises(PHHError, match="antes must be whole chips"):
        loads(_history([]).replace("antes = [1, 1, 1]", 'antes = ["a", 1, 1]'))
    with pytest.raises(PHHError, match=r"antes \[1, 2, 1\] differ by player"):
        loads(_history([]).replace("antes = [1, 1, 1]", "antes = [1, 2, 1]"))
    with pytest.raises(PHHError, match="no 'bring_in' field"):
        loads(_history([]).replace("bring_in = 2\n", ""))
