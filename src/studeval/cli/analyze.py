r"""``studeval analyze``: played hands' results, all-in adjusted, and the tracker's graph.

>>> import tempfile, pathlib, contextlib, io
>>> from studeval.cli import main
>>> from studeval.histories.pokerstars import POKERSTARS_EXAMPLE
>>> path = pathlib.Path(tempfile.mkdtemp()) / "stars.txt"
>>> _ = path.write_text(POKERSTARS_EXAMPLE)
>>> with contextlib.redirect_stderr(io.StringIO()):
...     main(["analyze", str(path), "--player", "DarioZ"])
player   hands        net   adjusted net       luck   all-in hands
DarioZ       1       0.24           0.24       0.00              0
0
"""

from __future__ import annotations

import argparse
import csv
import io
import json
from typing import Any

from studeval.cli._args import history_inputs, subcommand
from studeval.cli._console import InputError, Output, fail, say

__all__ = ["add", "run"]

EPILOG = """\
examples:
  studeval analyze HH20250101.txt --player Hero
  studeval analyze histories/ --player Hero --plot graph.png
  studeval analyze histories/ --format csv > results.csv

Reads what `studeval replay` reads, replays every hand, and finds each player's
result: net (chips or money won or lost), all-in adjusted net (where the betting
ended with a player all in, what each player's equity in the pots was worth, the
rake out) and luck (the difference). The table sums them by player; csv and jsonl
write one row a hand and player. --plot draws the graph of cumulative net and
all-in adjusted net over the player's hands (needs matplotlib: pip install
'studeval[plot]'). Hands that cannot be replayed are reported on stderr and left
out; the exit status is then 2.
"""

#: The colours of the graph's two lines (a test finds them in the picture).
NET_COLOUR, ADJUSTED_COLOUR = "#1f77b4", "#d62728"


def add(commands: Any) -> None:
    """The ``analyze`` command's parser."""
    analyze = subcommand(
        commands, "analyze", run,
        help="net, all-in adjusted net and luck of played hands, and the graph",
        description="Analyse hand histories: each player's net, all-in adjusted net and luck.",
        epilog=EPILOG,
    )  # fmt: skip
    history_inputs(analyze)
    analyze.add_argument("--player", metavar="NAME", help="only this player's hands and rows")
    analyze.add_argument("--format", choices=("table", "csv", "jsonl"), default="table",
                         help="a table of totals by player (default), or a row a hand "
                              "and player")  # fmt: skip
    analyze.add_argument(
        "--plot",
        metavar="FILE.png",
        help="draw the player's cumulative net and all-in adjusted net",
    )
    analyze.add_argument(
        "--seed", type=int, default=None, help="the seed of Monte Carlo equities (multiway all-ins)"
    )


def _money(value: float) -> str:
    return f"{value:,.2f}"


def _table(rows: list[dict[str, Any]]) -> list[str]:
    totals: dict[str, list[float]] = {}
    for row in rows:
        total = totals.setdefault(row["player"], [0, 0.0, 0.0, 0.0, 0])
        total[0] += 1
        total[1] += row["net"]
        total[2] += row["expected_net"]
        total[3] += row["luck"]
        total[4] += row["all_in"] is not None
    width = max([6, *(len(name) for name in totals)])
    lines = [f"{'player':<{width}} {'hands':>7} {'net':>10} {'adjusted net':>14} "
             f"{'luck':>10} {'all-in hands':>14}"]  # fmt: skip
    for name, (hands, net, adjusted, luck, all_in) in sorted(
            totals.items(), key=lambda item: (-item[1][0], item[0])):  # fmt: skip
        lines.append(f"{name:<{width}} {int(hands):>7} {_money(net):>10} "
                     f"{_money(adjusted):>14} {_money(luck):>10} {int(all_in):>14}")  # fmt: skip
    return lines


def _plot(rows: list[dict[str, Any]], player: str, path: str) -> None:
    try:
        import matplotlib
    except ImportError:
        raise InputError("--plot needs matplotlib: pip install 'studeval[plot]'") from None
    matplotlib.use("Agg")  # a file, no window
    import matplotlib.pyplot as plt

    net = adjusted = 0.0
    nets, adjusteds = [0.0], [0.0]
    for row in rows:
        net += row["net"]
        adjusted += row["expected_net"]
        nets.append(net)
        adjusteds.append(adjusted)
    figure, axes = plt.subplots(figsize=(9, 5), dpi=100)
    hands = range(len(nets))
    axes.plot(hands, nets, color=NET_COLOUR, linewidth=2, label="net won")
    axes.plot(
        hands,
        adjusteds,
        color=ADJUSTED_COLOUR,
        linewidth=2,
        linestyle="--",
        label="all-in adjusted net",
    )  # dashed: the net shows where they meet
    axes.axhline(0, color="#888888", linewidth=0.8)
    axes.set_xlabel("hands")
    axes.set_ylabel("won")
    axes.set_title(f"{player}: {len(rows)} hands")
    axes.legend(loc="best")
    try:
        figure.savefig(path)
    except OSError as err:
        raise InputError(f"cannot write {path}: {err.strerror or err}") from None
    finally:
        plt.close(figure)


def run(args: argparse.Namespace) -> int:
    """Write the analysis; the exit status."""
    from studeval.analysis import COLUMNS, hand_rows
    from studeval.cli._hands import Tally, replayed

    if args.plot and not args.player:
        return fail("--plot draws one player's graph: give --player NAME")
    out = Output()
    rows: list[dict[str, Any]] = []
    tally = Tally()
    if args.format == "csv":
        out.line(",".join(COLUMNS))
    try:
        for loaded in replayed(args.inputs, tally):
            found = hand_rows(loaded.history or loaded.hand, loaded.where, args.player,
                              seed=args.seed)  # fmt: skip
            rows += found
            for row in found if args.format != "table" else ():
                if args.format == "jsonl":
                    out.line(json.dumps(row, ensure_ascii=False))
                else:
                    buffer = io.StringIO()
                    csv.writer(buffer, lineterminator="").writerow([row[c] for c in COLUMNS])
                    out.line(buffer.getvalue())
        if args.format == "table":
            for line in _table(rows):
                out.line(line)
        out.flush()
        if args.plot:
            _plot(rows, args.player, args.plot)
    except InputError as err:
        return fail(str(err))
    if args.player and not rows:
        say(f"studeval: {args.player!r} played none of the {tally.read} hands read")
    say(tally.summary("analysed"))
    return 2 if tally.refused else 0
