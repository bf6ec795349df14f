r"""``studeval analyze``: played hands' results, all-in adjusted, and the tracker's graph.

>>> import tempfile, pathlib, contextlib, io
>>> from studeval.cli import main
>>> from studeval.histories import EXAMPLE
>>> path = pathlib.Path(tempfile.mkdtemp()) / "stars.txt"
>>> _ = path.write_text(EXAMPLE)
>>> with contextlib.redirect_stderr(io.StringIO()):
...     main(["analyze", str(path), "--player", "DarioZ"])
player money   hands        net   adjusted net       luck   all-in hands
DarioZ USD         1       0.24           0.24       0.00              0
0
"""

from __future__ import annotations

import argparse
import csv
import datetime
import io
import json
import os
import re
from collections.abc import Callable
from typing import Any

from studeval.cli._args import history_inputs, subcommand
from studeval.cli._console import InputError, Output, fail, say
from studeval.errors import install_hint

__all__ = ["add", "run"]

EPILOG = """\
examples:
  studeval analyze HH20250101.txt --player Hero
  studeval analyze histories/ --player Hero --plot graph.png
  studeval analyze histories/ --format csv > results.csv

Reads what `studeval replay` reads, replays every hand, and finds each player's
result: net (chips or money won or lost), all-in adjusted net (where the betting
ended with a player all in, what each player's equity in the pots was worth, the
rake out) and luck (the difference). The table sums them by player and by money
(each currency, tournament chips, and each room's chips where its text names no
currency, apart: they are never added together); csv and jsonl write one row a
hand and player, with its currency and tournament. --plot draws the graph of
cumulative net and all-in adjusted net over the player's hands in the order
played, one graph a kind of money (needs matplotlib: pip install
'studeval[plot]'). A hand is counted once however many files hold it. Hands that
cannot be replayed are reported on stderr and left out; the exit status is then 2.
Hands of other games in mixed-game files are counted apart, and so are files that
hold no hand history.
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


def _table(rows: list[dict[str, Any]], money_of: Callable[[dict[str, Any]], str]) -> list[str]:
    """Totals by player and by money: dollars, euros and tournament chips are never
    added together."""
    totals: dict[tuple[str, str], list[float]] = {}
    for row in rows:
        total = totals.setdefault((row["player"], money_of(row)), [0, 0.0, 0.0, 0.0, 0])
        total[0] += 1
        total[1] += row["net"]
        total[2] += row["expected_net"]
        total[3] += row["luck"]
        total[4] += row["all_in"] is not None
    width = max([6, *(len(name) for name, _ in totals)])
    money_width = max([5, *(len(money) for _, money in totals)])
    lines = [f"{'player':<{width}} {'money':<{money_width}} {'hands':>7} {'net':>10} "
             f"{'adjusted net':>14} {'luck':>10} {'all-in hands':>14}"]  # fmt: skip
    for (name, money), (hands, net, adjusted, luck, all_in) in sorted(
            totals.items(), key=lambda item: (-item[1][0], item[0])):  # fmt: skip
        lines.append(f"{name:<{width}} {money:<{money_width}} {int(hands):>7} {_money(net):>10} "
                     f"{_money(adjusted):>14} {_money(luck):>10} {int(all_in):>14}")  # fmt: skip
    return lines


def _when(row: dict[str, Any]) -> tuple[bool, float]:
    """A row's place on the time line: hands with no time last, in the order read."""
    moment = row.get("played_at")
    if not isinstance(moment, datetime.datetime):
        return True, 0.0
    if moment.tzinfo is None:  # a room that names no zone: its clock, read as UTC
        moment = moment.replace(tzinfo=datetime.timezone.utc)
    return False, moment.timestamp()


def _graph_paths(path: str, moneys: list[str]) -> dict[str, str]:
    """One graph a money: ``graph.png`` as asked for one, ``graph-USD.png``,
    ``graph-tournament-chips.png`` ... for several."""
    if len(moneys) == 1:
        return {moneys[0]: path}
    stem, dot, suffix = path.rpartition(".")
    if not dot or "/" in suffix:
        stem, suffix = path, "png"
    # A room's name in a file name: letters, digits and "." kept ("KingsClub-chips").
    return {money: f"{stem}-{re.sub(r'[^A-Za-z0-9.]+', '-', money)}.{suffix}"
            for money in moneys}  # fmt: skip


def _check_plot(path: str) -> None:
    """An InputError where ``path`` names no file matplotlib can write a graph to: a
    folder, a name without the kind of image (matplotlib would add ".png" to it), or
    a kind it does not write (``graph.txt``)."""
    if path.endswith(("/", os.sep)) or os.path.isdir(path):
        raise InputError(f"--plot {path}: a folder; name the graph's file (graph.png)")
    if not os.path.isdir(os.path.dirname(path) or "."):
        raise InputError(f"cannot write {path}: no such folder")
    stem, dot, suffix = os.path.basename(path).rpartition(".")
    if not dot or not stem:
        raise InputError(f"--plot {path}: name the graph's file with its kind of image "
                         "(graph.png, graph.svg, graph.pdf)")  # fmt: skip
    try:
        import matplotlib
    except ImportError:
        raise InputError(f"--plot needs matplotlib: {install_hint('plot')}") from None
    matplotlib.use("Agg")  # a file, no window
    from matplotlib.backend_bases import FigureCanvasBase

    if suffix.lower() not in FigureCanvasBase.get_supported_filetypes():
        raise InputError(f"--plot {path}: matplotlib writes no .{suffix} file; name a .png, "
                         ".svg, .pdf or other image file")  # fmt: skip


def _plot(rows: list[dict[str, Any]], player: str, path: str,
          money_of: Callable[[dict[str, Any]], str]) -> None:  # fmt: skip
    try:
        import matplotlib
    except ImportError:
        raise InputError(f"--plot needs matplotlib: {install_hint('plot')}") from None
    matplotlib.use("Agg")  # a file, no window
    import matplotlib.pyplot as plt

    moneys = list(dict.fromkeys(money_of(row) for row in rows))
    paths = _graph_paths(path, moneys)
    if len(moneys) > 1:
        say(f"studeval: {player}'s hands are in {len(moneys)} kinds of money, never added "
            f"together: one graph each, {', '.join(paths.values())}")  # fmt: skip
    for money, file in paths.items():
        chosen = sorted((row for row in rows if money_of(row) == money), key=_when)
        net = adjusted = 0.0
        nets, adjusteds = [0.0], [0.0]
        for row in chosen:
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
        axes.grid(True, color="#dddddd", linewidth=0.6)
        axes.set_xlabel("hands, in the order played")
        axes.set_ylabel(f"won ({money})")
        axes.set_title(f"{player}: {len(chosen)} hands, {money}")
        axes.legend(loc="best")
        try:
            figure.savefig(file)
        except OSError as err:
            raise InputError(f"cannot write {file}: {err.strerror or err}") from None
        finally:
            plt.close(figure)


def _written(row: dict[str, Any]) -> dict[str, Any]:
    """A row as csv and jsonl write it: the time as ISO 8601 text."""
    moment = row.get("played_at")
    return {**row, "played_at": moment.isoformat() if moment is not None else None}


def run(args: argparse.Namespace) -> int:
    """Write the analysis; the exit status."""
    from studeval.cli._hands import Tally, replayed
    from studeval.tracker import COLUMNS, hand_rows, money_of

    if args.plot and not args.player:
        return fail("--plot draws one player's graph: give --player NAME")
    if args.plot:  # before the hands are read: a wrong name costs no analysis
        try:
            _check_plot(args.plot)
        except InputError as err:
            return fail(str(err))
    out = Output()
    rows: list[dict[str, Any]] = []
    tally = Tally()
    if args.format == "csv":
        out.line(",".join(COLUMNS))
    try:
        for loaded in replayed(args.inputs, tally):
            found = hand_rows(loaded.found, loaded.where, args.player,
                              seed=args.seed)  # fmt: skip
            rows += found
            for row in (_written(r) for r in found) if args.format != "table" else ():
                if args.format == "jsonl":
                    out.line(json.dumps(row, ensure_ascii=False))
                else:
                    buffer = io.StringIO()
                    csv.writer(buffer, lineterminator="").writerow([row[c] for c in COLUMNS])
                    out.line(buffer.getvalue())
        if args.player and not rows:
            say(tally.summary("analysed"))
            return fail(f"{args.player!r} played none of the {tally.read} hands read; "
                        "no table or graph written")  # fmt: skip
        if args.format == "table":
            for line in _table(rows, money_of):
                out.line(line)
        out.flush()
        if args.plot:
            _plot(rows, args.player, args.plot, money_of)
    except InputError as err:
        return fail(str(err))
    say(tally.summary("analysed"))
    return 2 if tally.failed() else 0
