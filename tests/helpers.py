"""What several test modules share: the fixtures in ``tests/data/``, the building of
the C check programs, and the words users must never read.

A helper lives here (or in ``conftest.py`` when it is a fixture), never in a test
module that others import, so that every test module can run on its own.
"""

from __future__ import annotations

import csv
import itertools
import os
import random
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any, NoReturn

import pytest
import reference as ref

REPO = Path(__file__).resolve().parent.parent
CSRC = REPO / "csrc"
TESTS_C = REPO / "tests" / "c"
DATA = REPO / "tests" / "data"

#: Words that point at the project's internal papers, or quote the rule texts in the
#: languages they were written in: users never see those papers, so nothing they
#: read (pages, docstrings, help, messages) may cite them.
INTERNAL_WORDS = re.compile(
    r"\bSPEC\b|\bseeds? 0\d\d|shared/|notes/|anchors\.md|aturan|pasangan|semua setelan"
    r"|najbli|delilcu|\btisti\b|pemain|tangan"
)


# ---- tests/data ----------------------------------------------------------------------


def _data_rows(name: str, delimiter: str) -> list[dict[str, str]]:
    with (DATA / name).open(encoding="utf-8", newline="") as handle:
        lines = [line for line in handle if not line.startswith("#")]
    return list(csv.DictReader(lines, delimiter=delimiter))


@dataclass(frozen=True)
class Category:
    """A high category and its textbook counts among all 5-, 6- and 7-card hands."""

    name: str
    five_cards: int
    six_cards: int
    seven_cards: int


#: The nine high categories, best first (tests/data/high_categories.csv).
HIGH_CATEGORIES: tuple[Category, ...] = tuple(
    Category(row["category"], int(row["five_cards"]), int(row["six_cards"]),
             int(row["seven_cards"]))
    for row in _data_rows("high_categories.csv", ",")
)  # fmt: skip


@dataclass(frozen=True)
class KnownHand:
    """A hand checked by hand; ``None`` where a value is not pinned. ``low8`` is 0
    for a hand with no 8-or-better low."""

    cards: str
    high: int | None
    low: int | None
    low8: int | None
    high_words: str | None
    low_words: str | None


def _cell(text: str) -> int | None:
    return None if text == "" else 0 if text == "none" else int(text)


#: Hands with pinned ranks and words (tests/data/known_hands.tsv).
KNOWN_HANDS: tuple[KnownHand, ...] = tuple(
    KnownHand(row["cards"], _cell(row["high"]), _cell(row["low"]), _cell(row["low8"]),
              row["high_words"] or None, row["low_words"] or None)
    for row in _data_rows("known_hands.tsv", "\t")
)  # fmt: skip


# ---- the C check programs ------------------------------------------------------------

CFLAGS = ["-O2", "-std=c99", "-Wall", "-Wextra", "-Werror", "-pthread"]


def missing_tool(message: str) -> NoReturn:
    """Skip a test whose tool (git, a C compiler) this machine lacks, with the reason;
    where STUDEVAL_REQUIRE_TOOLS is set (CI sets it), fail instead, so that a proof
    that CI relies on is never skipped there unseen."""
    if os.environ.get("STUDEVAL_REQUIRE_TOOLS"):
        pytest.fail(message)
    pytest.skip(message)


def find_compiler() -> str:
    """Return the C compiler to use: $CC, else cc, gcc or clang on PATH; skip if none."""
    for candidate in (os.environ.get("CC"), "cc", "gcc", "clang"):
        if candidate and shutil.which(candidate.split()[0]):
            return candidate
    missing_tool(
        "no C compiler found (looked for $CC, cc, gcc, clang): the C checks of the core "
        "cannot run; install a C99 compiler"
    )


def run_checked(cmd: list[str], what: str, timeout: float) -> subprocess.CompletedProcess[str]:
    """Run a command; fail the test with its output when it fails."""
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, check=False)
    if proc.returncode != 0:
        pytest.fail(
            f"{what} failed with status {proc.returncode}\n$ {' '.join(cmd)}\n"
            f"--- stdout ---\n{proc.stdout}\n--- stderr ---\n{proc.stderr}"
        )
    return proc


def data_dir_flag() -> str:
    """The define that tells a C check where tests/data is."""
    return f'-DTEST_DATA_DIR="{DATA}"'


def core_sources() -> list[Path]:
    """The C core's files, from the one list CMake builds too (csrc/sources.txt)."""
    lines = (CSRC / "sources.txt").read_text(encoding="utf-8").splitlines()
    sources = [CSRC / line.strip() for line in lines if line.strip() and not line.startswith("#")]
    assert sources, f"no C core sources listed in {CSRC / 'sources.txt'}"
    return sources


def build_c_check(out: Path, name: str, sources: list[str], *flags: str) -> Path:
    """Build a check program (``sources`` in tests/c, compiled with ``flags``) against
    the core, warnings as errors; skip (or fail) first when no C compiler is found.
    The tables are generated and the core compiled once a test session (a worker's,
    under ``-n``), beside ``out`` (each check had built its own: about 35 s each on 2
    cores)."""
    compiler = find_compiler()
    tables, objects = _core_objects(compiler, out.parent)
    binary = out / name
    run_checked([*compiler.split(), *CFLAGS, *flags, data_dir_flag(), f"-I{CSRC / 'include'}",
                 f"-I{CSRC}", f"-I{tables}", *(str(TESTS_C / source) for source in sources),
                 *map(str, objects), "-o", str(binary), "-lpthread"],
                f"compiling {name}", 600)  # fmt: skip
    return binary


# The core's object files a test session built, by compiler (build_c_check).
_CORE_BUILDS: dict[str, tuple[Path, list[Path]]] = {}


def _core_objects(compiler: str, parent: Path) -> tuple[Path, list[Path]]:
    """The folder of the generated tables and the core's object files, built once a
    session into ``parent`` (a file at a time on each core)."""
    if compiler in _CORE_BUILDS:
        return _CORE_BUILDS[compiler]
    from concurrent.futures import ThreadPoolExecutor

    build = parent / f"c-core-{len(_CORE_BUILDS)}"
    build.mkdir(exist_ok=True)
    generator = CSRC / "rank" / "gen" / "gen_tables.py"
    run_checked([sys.executable, str(generator), "--output", str(build)], "table generator", 300)
    tables = build / "se_lookup_tables.c"
    assert tables.is_file(), f"the generator did not write {tables}"
    sources = [*core_sources(), tables]
    objects = [build / f"{number}-{source.stem}.o" for number, source in enumerate(sources)]
    commands = [[*compiler.split(), *CFLAGS, data_dir_flag(), f"-I{CSRC / 'include'}",
                 f"-I{CSRC}", f"-I{build}", "-c", str(source), "-o", str(target)]
                for source, target in zip(sources, objects, strict=True)]  # fmt: skip
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        for done in pool.map(lambda command: run_checked(command, "compiling the core", 600),
                             commands):  # fmt: skip
            assert done.returncode == 0
    _CORE_BUILDS[compiler] = (build, objects)
    return build, objects


# ---- equity by brute force ------------------------------------------------------------


def twin(game: str, hands: list[list[int]], dead: list[int]) -> dict[str, list[Fraction]]:
    """Every deal walked, as fractions of the deals: share, wins, ties, scoops, the
    part of the share won with a low, and the share's square (its second moment)."""
    n = len(hands)
    seen = {c for h in hands for c in h} | set(dead)
    unseen = [c for c in range(52) if c not in seen]
    need = [7 - len(h) for h in hands]
    community = sum(need) > len(unseen)
    if community:
        need = [6 - len(h) for h in hands]
    totals = {k: [Fraction(0)] * n for k in ("share", "high_win", "high_tie", "low_win", "low_tie",
                                             "scoop", "low_share", "share_sq")}  # fmt: skip
    deals = 0

    def walk(i: int, left: list[int], drawn: list[list[int]]) -> None:
        nonlocal deals
        if i == n:
            for shared in left if community else [None]:
                full = [h + d + ([shared] if shared is not None else []) for h, d in
                        zip(hands, drawn, strict=True)]  # fmt: skip
                score(full)
                deals += 1
            return
        for combo in itertools.combinations(left, need[i]):
            rest = [c for c in left if c not in combo]
            walk(i + 1, rest, [*drawn, list(combo)])

    def best(values: list[int | None]) -> list[int]:
        present = [v for v in values if v is not None]
        if not present:
            return []
        top = min(present)
        return [i for i, v in enumerate(values) if v == top]

    cache: dict[tuple[int, ...], tuple[int, int | None]] = {}

    def ranks(cards: list[int]) -> tuple[int, int | None]:
        key = tuple(sorted(cards))
        if key not in cache:
            low = ref.low8_rank(key) if game == "stud8" else ref.low_rank(key)
            cache[key] = (ref.high_rank(key), low)
        return cache[key]

    def score(full: list[list[int]]) -> None:
        pairs = [ranks(c) for c in full]
        highs = [h for h, _ in pairs]
        lows: list[int | None] = [low for _, low in pairs]
        got = [Fraction(0)] * n
        high_winners = best(highs)  # type: ignore[arg-type]
        low_winners = best(lows) if game != "stud" else []
        if game == "stud":
            pots = [(high_winners, Fraction(1), "high")]
        elif game == "razz":
            pots = [(low_winners, Fraction(1), "low")]
        elif game == "stud8" and not low_winners:  # nobody qualifies: high takes all
            pots = [(high_winners, Fraction(1), "high")]
        else:
            pots = [(high_winners, Fraction(1, 2), "high"), (low_winners, Fraction(1, 2), "low")]
        for winners, part, half in pots:
            for w in winners:
                got[w] += part / len(winners)
                if half == "low":
                    totals["low_share"][w] += part / len(winners)
        for half, winners in (("high", high_winners), ("low", low_winners)):
            if game == "razz" and half == "high":
                continue
            for w in winners:
                totals[f"{half}_{'win' if len(winners) == 1 else 'tie'}"][w] += 1
        for i in range(n):
            totals["share"][i] += got[i]
            totals["share_sq"][i] += got[i] * got[i]
            totals["scoop"][i] += got[i] == 1

    walk(0, unseen, [])
    return {k: [v / deals for v in values] for k, values in totals.items()} | {
        "deals": [Fraction(deals)],
        "community": [Fraction(community)],
    }


# ---- pokerkit ------------------------------------------------------------------------


def pokerkit_plays(pokerkit: Any, table: Any, stacks: list[int], rng: random.Random,
                   bring_in_odds: float = 0.5) -> tuple[str, list[int]]:  # fmt: skip
    """A hand that pokerkit plays at random at ``table`` (a game with its stakes), as
    pokerkit writes it in PHH, and its final stacks. The seat to bring in posts it at
    ``bring_in_odds``, else completes (all in, for a short stack) or acts as the others
    do: folds rarer than calls, wagers of the smallest or the largest total."""
    state = table(stacks, len(stacks))
    while state.status:
        if state.can_deal_board():
            state.deal_board()
            continue
        if state.can_post_bring_in() and rng.random() < bring_in_odds:
            state.post_bring_in()
            continue
        can = {"f": state.can_fold(), "cc": state.can_check_or_call(),
               "cbr": state.can_complete_bet_or_raise_to()}  # fmt: skip
        kind = rng.choice([k for k, ok in can.items() if ok])
        if kind == "f" and can["cc"] and rng.random() < 0.6:
            kind = "cc"
        if kind == "f":
            state.fold()
        elif kind == "cc":
            state.check_or_call()
        else:
            state.complete_bet_or_raise_to(rng.choice(
                [state.min_completion_betting_or_raising_to_amount,
                 state.max_completion_betting_or_raising_to_amount]))  # fmt: skip
    return pokerkit.HandHistory.from_game_state(table, state).dumps(), list(state.stacks)


def pokerkit_automations(pokerkit: Any) -> tuple[Any, ...]:
    """Every step pokerkit may take by itself: what is left are the players' choices."""
    a = pokerkit.Automation
    return (a.ANTE_POSTING, a.BET_COLLECTION, a.BLIND_OR_STRADDLE_POSTING, a.CARD_BURNING,
            a.HOLE_DEALING, a.HOLE_CARDS_SHOWING_OR_MUCKING, a.HAND_KILLING, a.CHIPS_PUSHING,
            a.CHIPS_PULLING)  # fmt: skip


def pokerkit_stud8_defect(hand: Any) -> bool:
    """Whether the hand has a pot pokerkit splits by its defect (docs/engine.md): a
    stud8 side pot with no low winner while another pot has one."""
    lows = [bool(pot.low_winners) for pot in (hand.result.pots if hand.result else [])]
    return bool(hand.game == "stud8" and any(lows) and not all(lows))


# ---- rooms' hand histories -----------------------------------------------------------


def room_writers() -> dict[str, Any]:
    """Each writer of every room (``write(hand, table)``), by the name of the format
    it writes (the room's name for its newest: "Winning 2016" writes the Winning
    Poker Network's format before 2019), from the list of rooms itself."""
    from studeval.histories.rooms import ROOMS

    writers = {name: w for room in ROOMS for name, w in room.writers.items()}
    assert len(writers) >= 13, writers  # every room but the refused one writes
    return writers


def writer_rooms() -> dict[str, str]:
    """The room each writer's text reads back as, by the writer's name ("Winning
    2016" writes a Winning hand)."""
    from studeval.histories.rooms import ROOMS

    return {name: room.site for room in ROOMS for name in room.writers}


def example(name: str) -> str:
    """A room's example hand from tests/data/histories, exactly as written."""
    return (DATA / "histories" / name).read_bytes().decode("utf-8")


def play_out(hand: Any, rng: random.Random, passive: bool = False) -> Any:
    """``hand`` (a ``StudHand``) played to the end as ``random_hand`` plays one, for
    stacks that differ: random legal actions, or with ``passive`` a check or a call
    wherever one is legal (the bring-in where neither is)."""
    deck_seed = rng.getrandbits(64)
    while not hand.over:
        if hand.actor is None:
            hand.deal_random(deck_seed)
        elif hand.showdown:
            hand.show()
        else:
            legal = hand.legal()
            kinds = legal.kinds()
            if passive:
                hand.act(next(k for k in ("check", "call", "bring_in") if k in kinds))
                continue
            kind = rng.choice(kinds)
            totals = legal.totals(kind)
            hand.act(kind, rng.choice(totals) if totals else None)
    return hand


def raked_beyond_rooms(hand: Any) -> bool:
    """Whether the rake took more than a tenth of the pot and a chip (a random hand's
    small pot and a rake of 3, or the whole pot): no room takes that much, and a room
    that writes no rake (Everleaf) refuses it, as a winner's amount edited or lost or
    a text cut before its winner's line."""
    result = hand.result
    pot = sum(result.payouts) + result.rake - sum(result.returned)
    return bool(result.rake > pot // 10 + 1)
