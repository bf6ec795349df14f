"""The ``studeval`` command: rank hands from files or at random, settle showdowns.

``main`` takes the arguments and returns the exit status, so tests and other
programs call it in-process; ``studeval`` and ``python -m studeval`` call it too.
Exit status: 0 on success, 2 for bad input (a bad hand line, a bad card, an unknown
game, a usage error, unreadable input), 1 when the output cannot be written (a
closed pipe, a full disk), 130 after Ctrl-C.

This module is argument parsing and dispatch; the rank pipeline lives in
``studeval._rank_job`` and the terminal plumbing in ``studeval._console``. numpy
is imported only by the commands that need it, so ``studeval --version`` and
``--help`` start fast.

>>> main(["bring-in", "--game", "stud", "7h", "2d", "2c"])
Seat 2 brings in with 2c
0
>>> main(["bring-in", "--game", "stud", "7h", "7h"])
2
"""

from __future__ import annotations

import argparse
import os
import stat
import sys
from collections.abc import Sequence
from typing import Any, BinaryIO

from studeval._console import InputError, Output, OutputError, Progress, detach_stdout, say
from studeval._core import cpu_count
from studeval._version import __version__
from studeval.errors import StudevalError

__all__ = ["console_main", "main"]

#: Game names offered by ``--game``; the PHH codes (F7S, F7S/8, FR) work too.
GAMES = ("stud", "stud8", "razz", "stud_hilo_noq")
#: Row formats of ``rank --format`` (those of :mod:`studeval.stream`).
FORMATS = ("table", "csv", "jsonl")
DEFAULT_RANDOM = 1_000_000
DEFAULT_CHUNK = 1 << 16
#: The most hands one chunk may hold: a chunk's buffers take about 100 bytes a
#: hand, so this keeps one chunk near 400 MB at most, whatever is asked.
MAX_CHUNK = 1 << 22


# ---------------------------------------------------------------------------
# Argument parsing


class _Formatter(argparse.RawDescriptionHelpFormatter):
    """Keeps the example epilogs as written."""


def _count(text: str) -> int:
    """A positive count: digits with optional _ and a k/M/G suffix ("10M")."""
    scale = {"k": 10**3, "m": 10**6, "g": 10**9}.get(text[-1:].lower(), 1)
    digits = text[:-1] if scale > 1 else text
    try:
        value = int(digits.replace("_", "")) * scale
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected a count such as 1000000 or 10M; got {text!r}"
        ) from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a count of at least 1; got {text!r}")
    return value


def _chunk_size(text: str) -> int:
    value = _count(text)
    if value > MAX_CHUNK:
        raise argparse.ArgumentTypeError(
            f"at most {MAX_CHUNK:,} hands per chunk (about 400 MB of buffers); got {text!r}"
        )
    return value


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number; got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected at least 1; got {text!r}")
    return value


def _chips(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected a whole number of chips; got {text!r}"
        ) from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"chips cannot be negative; got {text!r}")
    return value


def _chip_list(text: str) -> list[int]:
    return [_chips(part.strip()) for part in text.split(",")]


RANK_EPILOG = """\
examples:
  studeval rank                          # 1,000,000 random hands: speed and histogram
  studeval rank --random 10M --seed 7    # 10 million, reproducible
  studeval rank hands.txt --format csv > ranked.csv
  printf 'As Kd 7h 2c 3s 9d Th\\n' | studeval rank --format jsonl

Input: one hand of 5 to 7 cards per line, in any card text studeval reads
("As Kd 7h 2c 3s 9d Th", "AsKd7h2c3s9dTh", "10h ...", "A♠ ..."); blank lines
are ignored. With no FILE, hands piped in on stdin are ranked; from a terminal,
random hands are. Ranks: 1 is the best hand. high 1..7462; low is ace-to-five
(Razz) 1..6175; low8 is the 8-or-better low 1..56, or empty/null/- when the hand
has none.
"""

SHOWDOWN_EPILOG = """\
examples:
  studeval showdown --game stud8 --pot 100 "As 2d 3h 4s 5c Kd Kh" "Ks Kc Qd Qh 9s 8s 7c"
  studeval showdown --game razz --contributions 50,50,20 \\
      "Ac 2d 3h 4s 6c Kd Kh" "As 2c 3d 5h 7c Qd Qh" "8c 8d 9h Ts Jc 4d 5d"

Each HAND is one seat's cards in seat order; "-" marks a folded seat.
--pot splits one pot among the live seats; --contributions builds the main and
side pots from what each seat put in (folded seats included).
"""

BRING_IN_EPILOG = """\
examples:
  studeval bring-in --game stud 7h 2d 2c      # prints: Seat 2 brings in with 2c
  studeval bring-in --game razz Ac Kh - Ks    # "-" is an empty seat

One door card per seat, in seat order starting at the dealer's left.
"""

BENCH_EPILOG = """\
examples:
  studeval bench                        # every installed peer, 1,000,000 hands
  studeval bench --hands 200k --repeats 3 --peers pkrbot,eval7 --no-import

Times studeval's batch and single-hand calls and the per-hand calls of the peers
that are installed (pkrbot, eval7, phevaluator, treys, pokerkit), on the same
random 7-card hands after checking that every call agrees, and prints ns per
hand for each call and the ratios between them, all measured in this one run.
"""

GAME_HELP = (
    "stud (high, the default), stud8 (hi/lo 8-or-better), razz (A-5 low) or "
    "stud_hilo_noq (hi/lo, no qualifier); the hand-history codes F7S, F7S/8, FR work too"
)
RULES_HELP = "house rules: robert (Robert's Rules of Poker, the default) or wsop"


def _game(text: str) -> str:
    from studeval.games import check_game

    try:
        return check_game(text)
    except StudevalError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def _add_game_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", type=_game, default="stud", metavar="GAME", help=GAME_HELP)
    parser.add_argument("--rules", choices=("robert", "wsop"), default="robert", help=RULES_HELP)


def _subcommand(
    commands: Any, name: str, run: Any, *, help: str, description: str, epilog: str
) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = commands.add_parser(
        name, help=help, description=description, epilog=epilog, formatter_class=_Formatter
    )
    # The parser travels with the arguments, so that a stray option is reported
    # with this command's usage instead of the top-level one.
    parser.set_defaults(run=run, command_parser=parser)
    return parser


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="studeval",
        description="Seven Card Stud hand ranking (high, A-5 low, 8-or-better) and rules.",
        epilog="examples:\n  studeval rank\n  studeval rank hands.txt --format csv\n"
        "  studeval COMMAND --help",
        formatter_class=_Formatter,
    )
    parser.add_argument("--version", action="version", version=f"studeval {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    _add_rank(commands)
    _add_showdown(commands)
    _add_bring_in(commands)
    _add_equity(commands)
    _add_replay(commands)
    _add_play(commands)
    _add_bench(commands)
    return parser


def _add_rank(commands: Any) -> None:
    rank = _subcommand(
        commands, "rank", _rank,
        help="rank hands from a file, stdin or at random",
        description="Rank hands given one per line, or random 7-card hands.",
        epilog=RANK_EPILOG,
    )  # fmt: skip
    rank.add_argument(
        "input", nargs="?", metavar="FILE|-",
        help="hands, one per line ('-' reads stdin); without it, stdin when it is "
        "piped, else random hands",
    )  # fmt: skip
    rank.add_argument(
        "--random", type=_count, metavar="N",
        help=f"rank N random 7-card hands (default {DEFAULT_RANDOM:,} when there is no input)",
    )  # fmt: skip
    rank.add_argument("--seed", type=int, help="seed for --random (default: fresh)")
    rank.add_argument(
        "--format", choices=FORMATS,
        help="write one line per hand (default for FILE: table); with --random, "
        "writes the hands instead of the summary",
    )  # fmt: skip
    rank.add_argument(
        "--summary", action="store_true",
        help="print the summary (speed, category histogram) instead of one line per hand",
    )  # fmt: skip
    rank.add_argument(
        "--threads", type=_positive, metavar="T",
        help=f"threads to use (default: every core, {cpu_count()} here)",
    )  # fmt: skip
    rank.add_argument(
        "--skip-invalid", action="store_true",
        help="skip bad lines and count them instead of stopping at the first",
    )  # fmt: skip
    rank.add_argument(
        "--chunk-size", type=_chunk_size, metavar="HANDS", default=DEFAULT_CHUNK,
        help=f"hands read and ranked per chunk (default {DEFAULT_CHUNK}, at most "
        f"{MAX_CHUNK:,}); memory grows with it",
    )  # fmt: skip


def _add_showdown(commands: Any) -> None:
    showdown = _subcommand(
        commands, "showdown", _showdown,
        help="who wins what at showdown, and why",
        description="Split a pot (or the main and side pots) among the hands shown.",
        epilog=SHOWDOWN_EPILOG,
    )  # fmt: skip
    _add_game_options(showdown)
    chips = showdown.add_mutually_exclusive_group(required=True)
    chips.add_argument("--pot", type=_chips, metavar="P", help="one pot of P chips")
    chips.add_argument(
        "--contributions", type=_chip_list, metavar="C1,C2,...",
        help="chips each seat put in, one per HAND",
    )  # fmt: skip
    showdown.add_argument("--community", metavar="CARD", help="a shared card (deck ran out)")
    showdown.add_argument("hands", nargs="+", metavar="HAND", help="one seat's cards, or -")


def _add_bring_in(commands: Any) -> None:
    bring_in = _subcommand(
        commands, "bring-in", _bring_in,
        help="the seat that brings in on third street",
        description="Print the seat that must bring in, from the door cards.",
        epilog=BRING_IN_EPILOG,
    )  # fmt: skip
    _add_game_options(bring_in)
    bring_in.add_argument("cards", nargs="+", metavar="CARD", help="each seat's door card, or -")


EQUITY_EPILOG = """\
examples:
  studeval equity --game stud8 "As 2d 3h" "Kc Kd Qs" --dead "5c 9h"
  studeval equity --game razz "?? ?? 3h 5d" "?? ?? Kd 9c" --exact
  studeval equity "As Ad 7c" "Ks Kd Qh" "9h 9s 2c" --samples 2M --seed 7

Each HAND is one player's known cards (down cards first); "??" marks an unknown
card and may be left out. Heads-up answers are exact at any street; multiway
spots are walked exactly while that is quick, else sampled (Monte Carlo) to a
standard error of 0.05% unless --samples says otherwise.
"""


def _add_equity(commands: Any) -> None:
    equity = _subcommand(
        commands, "equity", _equity,
        help="each player's share of the pot: exact heads-up, or Monte Carlo",
        description="Who is ahead: each player's share of the pot, win, tie and scoop.",
        epilog=EQUITY_EPILOG,
    )  # fmt: skip
    equity.add_argument("--game", type=_game, default="stud", metavar="GAME", help=GAME_HELP)
    equity.add_argument("--dead", metavar="CARDS", default="", help="cards known to be out of play")
    how = equity.add_mutually_exclusive_group()
    how.add_argument("--exact", action="store_true", help="count every deal (may be slow multiway)")
    how.add_argument(
        "--samples", type=_count, metavar="N", help="Monte Carlo over N deals (10M, 200k work)"
    )
    equity.add_argument("--seed", type=int, help="seed for Monte Carlo (default: fresh)")
    equity.add_argument("--threads", type=_positive, metavar="T", help="default: every core")
    equity.add_argument("--format", choices=("table", "json"), default="table")
    equity.add_argument("hands", nargs="+", metavar="HAND", help="one player's known cards")


REPLAY_EPILOG = """\
examples:
  studeval replay hand.phh
  studeval play --seed 7 > hand.txt; studeval play --seed 7 --format phh | studeval replay -

Reads one hand history in the PHH format (variants F7S, F7S/8, FR; unknown cards
"??"), replays every action through the engine and prints the hand street by street
with the settlement. An action the rules do not allow is an error naming it.
"""

PLAY_EPILOG = """\
examples:
  studeval play                      # one random 6-handed stud hand, street by street
  studeval play --game razz --seats 8 --seed 3
  studeval play --hands 5000         # a speed line: random hands played per second

Each action is chosen at random among the legal ones; every seat shows at the end.
"""


def _add_replay(commands: Any) -> None:
    replay = _subcommand(
        commands, "replay", _replay,
        help="replay a PHH hand history through the rules engine",
        description="Replay one PHH hand history and print it street by street.",
        epilog=REPLAY_EPILOG,
    )  # fmt: skip
    replay.add_argument("input", metavar="FILE|-", help="the .phh file ('-' reads stdin)")


def _add_play(commands: Any) -> None:
    play = _subcommand(
        commands, "play", _play,
        help="play random legal hands through the engine",
        description="Play a seeded random hand of fixed-limit stud, or many for a speed line.",
        epilog=PLAY_EPILOG,
    )  # fmt: skip
    _add_game_options(play)
    play.add_argument("--seats", type=_positive, default=6, metavar="N", help="2 to 8 (default 6)")
    play.add_argument("--seed", type=int, help="seed for the cards and actions (default: fresh)")
    play.add_argument(
        "--hands", type=_count, metavar="N", help="play N hands and print only the speed"
    )
    play.add_argument("--format", choices=("text", "phh"), default="text")


def _add_bench(commands: Any) -> None:
    bench = _subcommand(
        commands, "bench", _bench,
        help="time studeval against the installed peer evaluators",
        description="Benchmark studeval and the installed peer evaluators, live.",
        epilog=BENCH_EPILOG,
    )  # fmt: skip
    bench.add_argument(
        "--hands", type=_count, default=1_000_000, metavar="N",
        help="random 7-card hands each call ranks (default 1,000,000; 200k, 1M work)",
    )  # fmt: skip
    bench.add_argument(
        "--repeats", type=_positive, default=5, metavar="R",
        help="timings of each call; the best and the median are shown (default 5)",
    )  # fmt: skip
    bench.add_argument("--threads", type=_positive, metavar="T", help="default: every core")
    bench.add_argument(
        "--peers", metavar="A,B", help="comma-separated peers to time (default: all installed)"
    )
    bench.add_argument("--no-import", action="store_true", help="skip timing 'import studeval'")
    bench.add_argument(
        "--min-time", type=float, default=0.1, metavar="S",
        help="time each call for at least S seconds per repeat (default 0.1)",
    )  # fmt: skip


# ---------------------------------------------------------------------------
# rank


def _error(message: str) -> int:
    say(f"studeval: error: {message}")
    return 2


def _keep_freed_memory() -> None:
    """Ask glibc to keep freed chunk buffers for reuse instead of unmapping them.

    Each chunk allocates a few MiB of temporaries. By default glibc returns such
    blocks to the kernel when they are freed, and the next chunk's pages fault in
    afresh: measured here, that was a fifth of the run time of `studeval rank` on a
    large file (system time 0.4 s of 2.1 s for 10 million hands). Memory stays flat
    either way, since every chunk needs the same amount. This changes the whole
    process's allocator, so only the console entry point does it, never ``main()``
    called from a host program. Elsewhere (musl, macOS, Windows) it does nothing.
    """
    if not sys.platform.startswith("linux"):
        return
    import ctypes

    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError, TypeError):
        return
    m_trim_threshold, m_mmap_threshold = -1, -3  # from glibc's malloc.h
    mallopt(m_mmap_threshold, 32 << 20)  # glibc's largest allowed value on 64-bit
    mallopt(m_trim_threshold, 128 << 20)


def _one_blas_thread() -> None:
    """Keep numpy's OpenBLAS to the calling thread, unless the user says otherwise.

    No command does linear algebra, yet importing numpy starts OpenBLAS's thread
    pool, whose threads spin while they wait: measured here, that was a third of
    the CPU time of `studeval rank` on 4 million lines (0.70 s against 0.42 s with
    one thread). The setting must be made before numpy is imported, and it is
    inherited by child processes, so only the console entry point makes it.
    """
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


def _stdin_is_piped() -> bool:
    stream = sys.stdin
    if stream is None:
        return False
    try:
        return not stream.isatty()
    except (OSError, ValueError, AttributeError):
        return False


def _open_input(name: str) -> tuple[BinaryIO, int | None]:
    """The binary stream to read hands from, and its size when it is a plain file."""
    if name == "-":
        stream = sys.stdin
        if stream is None:
            raise InputError("standard input is closed; give FILE or --random N")
        binary = getattr(stream, "buffer", None)
        if binary is None:
            raise InputError("standard input cannot be read as bytes")
        return binary, None
    try:
        source: BinaryIO = open(name, "rb")  # noqa: SIM115 (closed by the caller)
        info = os.fstat(source.fileno())
    except OSError as err:
        raise InputError(f"cannot read {name!r}: {err.strerror or err}") from None
    return source, info.st_size if stat.S_ISREG(info.st_mode) else None


def _rank(args: argparse.Namespace) -> int:
    from studeval import _rank_job

    if args.input is not None and args.random is not None:
        return _error("give FILE or --random N, not both")
    name = args.input
    if name is None and args.random is None and _stdin_is_piped():
        name = "-"
    if name is None and args.random is None and sys.stdin is None:
        return _error("standard input is closed; give FILE, or --random N for random hands")
    threads = args.threads or cpu_count()
    out = Output()
    if name is None:
        fmt = args.format if not args.summary else None
        count = args.random or DEFAULT_RANDOM
        job = _rank_job.RankJob(fmt, threads, args.chunk_size, count=count, seed=args.seed)
        _rank_job.rank_random(job, out)
        return 0
    try:
        source, size = _open_input(name)
    except InputError as err:
        return _error(str(err))
    fmt = None if args.summary else (args.format or "table")
    job = _rank_job.RankJob(fmt, threads, args.chunk_size, skip_invalid=args.skip_invalid)
    try:
        tally = _rank_job.rank_stream(job, source, size, out)
    except StudevalError as err:
        return _error(str(err))
    except BrokenPipeError:
        raise  # the output's reader went away: main() ends quietly
    except OSError as err:
        where = "standard input" if name == "-" else repr(name)
        return _error(f"cannot read {where}: {err.strerror or err}")
    finally:
        if name != "-":
            source.close()
    if tally.invalid:
        lines = f"{tally.invalid:,} invalid line{'s' if tally.invalid > 1 else ''}"
        say(f"studeval: skipped {lines} (first: {tally.first_invalid})")
    return 0


# ---------------------------------------------------------------------------
# showdown, bring-in, bench


def _house_rules(name: str) -> Any:
    from studeval.rules import HouseRules

    return HouseRules.wsop() if name == "wsop" else HouseRules.robert()


def _seat(text: str) -> str | None:
    return None if text.strip() in ("-", "") else text


def _showdown(args: argparse.Namespace) -> int:
    from studeval.showdown import award_pot, settle

    hands = [_seat(text) for text in args.hands]
    rules = _house_rules(args.rules)
    try:
        if args.pot is not None:
            result: object = award_pot(hands, args.pot, args.game, community=args.community,
                                       rules=rules)  # fmt: skip
        else:
            result = settle(hands, args.contributions, args.game, community=args.community,
                            rules=rules)  # fmt: skip
    except (StudevalError, ValueError, TypeError) as err:
        return _error(str(err))
    Output().line(str(result))
    return 0


def _bring_in(args: argparse.Namespace) -> int:
    from studeval.cards import cards_str, parse_cards
    from studeval.rules import bring_in

    doors = [_seat(text) for text in args.cards]
    try:
        seat = bring_in(doors, args.game, rules=_house_rules(args.rules))
        # The door card as the rules read it: any card text they accept ("2c,").
        card = cards_str(parse_cards(doors[seat]))  # type: ignore[arg-type]
    except (StudevalError, ValueError, TypeError) as err:
        return _error(str(err))
    Output().line(f"Seat {seat} brings in with {card}")
    return 0


def _equity(args: argparse.Namespace) -> int:
    from studeval.equity_calculator import equity

    method = "exact" if args.exact else "mc" if args.samples else "auto"
    bar = Progress(100, "%")  # drawn only on a terminal; long exact counts take seconds
    shown = 0

    def advance(fraction: float) -> None:
        nonlocal shown
        bar.update(int(fraction * 100) - shown)
        shown = int(fraction * 100)

    try:
        result = equity(args.hands, args.game, dead=args.dead, method=method,
                        samples=args.samples, seed=args.seed, threads=args.threads,
                        progress=advance)  # fmt: skip
    except (StudevalError, ValueError, TypeError) as err:
        return _error(str(err))
    finally:
        bar.close()
    if args.format == "json":
        import json
        from dataclasses import asdict

        data = {
            "game": result.game, "exact": result.exact, "deals": result.deals,
            "community": result.community, "method": result.method,
            "elapsed": round(result.elapsed, 6),
            "players": [asdict(player) for player in result.players],
        }  # fmt: skip
        Output().line(json.dumps(data))
    else:
        Output().line(str(result))
    return 0


def _replay(args: argparse.Namespace) -> int:
    from studeval.phh import loads
    from studeval.play import describe

    try:
        stream, _size = _open_input(args.input)
        with stream:
            raw = stream.read()
        text = raw.decode("utf-8-sig")
        hand = loads(text)
    except InputError as err:
        return _error(str(err))
    except UnicodeDecodeError:
        return _error(f"{args.input!r} is not UTF-8 text")
    except (StudevalError, ValueError, TypeError) as err:
        return _error(str(err))
    Output().line(describe(hand))
    return 0


def _play(args: argparse.Namespace) -> int:
    import random
    import time

    from studeval.phh import dumps
    from studeval.play import describe, random_hand

    if not 2 <= args.seats <= 8:
        return _error(f"--seats must be 2 to 8; got {args.seats}")
    rules = _house_rules(args.rules)
    if args.hands is None:
        try:
            hand = random_hand(args.game, args.seats, args.seed, rules=rules)
            Output().line(dumps(hand).rstrip("\n") if args.format == "phh" else describe(hand))
        except (StudevalError, ValueError) as err:
            return _error(str(err))
        return 0
    rng = random.Random(args.seed)  # one generator for every hand's deck and choices
    bar = Progress(args.hands, " hands")
    started = time.process_time()
    try:
        for done in range(args.hands):
            random_hand(args.game, args.seats, rules=rules, rng=rng)
            if done % 256 == 255:
                bar.update(256)
    finally:
        bar.close()
    spent = max(time.process_time() - started, 1e-9)
    Output().line(
        f"played {args.hands:,} random {args.seats}-seat {args.game} hands in {spent:.2f} s "
        f"CPU: {args.hands / spent:,.0f} hands/s"
    )
    return 0


def _bench(args: argparse.Namespace) -> int:
    from studeval import bench

    peers = None if args.peers is None else [p.strip() for p in args.peers.split(",") if p.strip()]

    def progress(text: str) -> None:
        say(f"  {text}")

    try:
        rows = bench.run_bench(
            args.hands,
            args.repeats,
            args.threads,
            peers=peers,
            include_import=not args.no_import,
            min_time=args.min_time,
            progress=progress,
        )
    except ValueError as err:
        return _error(str(err))
    Output().line(bench.format_table(rows))
    return 0


# ---------------------------------------------------------------------------
# Entry points


def _parse(argv: Sequence[str] | None) -> argparse.Namespace | int:
    parser = _parser()
    try:
        args, extra = parser.parse_known_args(argv)
        if extra:
            command_parser = getattr(args, "command_parser", parser)
            command_parser.error(f"unrecognized arguments: {' '.join(extra)}")
    except SystemExit as exit_:
        # argparse exits for --help, --version (0) and usage errors (2).
        return exit_.code if isinstance(exit_.code, int) else 2
    return args


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``studeval`` command with ``argv`` (default: ``sys.argv[1:]``).

    Returns the exit status instead of exiting, so it can be called in-process.

    >>> main(["showdown", "--game", "stud", "--pot", "10", "As Ah Kd Kc 7s 3d 2c", "-"])
    Pot of 10: Seat 0 wins 10 uncontested
    0
    """
    args = _parse(argv)
    if isinstance(args, int):
        return args
    try:
        status: int = args.run(args)
        if sys.stdout is not None:
            sys.stdout.flush()  # a full disk shows here, not at interpreter exit
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (`studeval rank big.txt | head`): stop, quietly.
        detach_stdout()
        say("studeval: stopped: the output pipe was closed")
        return 1
    except OutputError as err:
        detach_stdout()
        say(f"studeval: error: {err}")
        return 1
    except OSError as err:
        detach_stdout()
        say(f"studeval: error: cannot write the output: {err.strerror or err}")
        return 1
    return status


def console_main() -> None:
    """The ``studeval`` console script and ``python -m studeval``: ``main()``, then exit.

    Only here, in a process that is the command, is the allocator tuned for
    ``rank``'s chunk buffers and numpy's BLAS kept to one thread.
    """
    argv = sys.argv[1:]
    _one_blas_thread()
    if argv[:1] == ["rank"]:
        _keep_freed_memory()
    try:
        status = main(argv)
    except KeyboardInterrupt:
        status = 130
    sys.exit(status)
