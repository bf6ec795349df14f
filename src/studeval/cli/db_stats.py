r"""``studeval stats``: each player's statistics from a hand database.

>>> import tempfile, pathlib, contextlib, io
>>> from studeval.cli import main
>>> from studeval.histories import EXAMPLE
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> _ = (folder / "stars.txt").write_text(EXAMPLE)
>>> with contextlib.redirect_stderr(io.StringIO()):
...     main(["import", str(folder / "hands.duckdb"), str(folder / "stars.txt")])
0
>>> main(["stats", str(folder / "hands.duckdb"), "--player", "DarioZ", "--format", "csv"])
... # doctest: +ELLIPSIS
player,site,currency,hands,vpip,complete,raise,steal,...
DarioZ,PokerStars,USD,1,1.0,...
0
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shlex
from typing import Any

from studeval.cli._args import game, subcommand
from studeval.cli._console import Output, fail, say
from studeval.histories._text import shown_path

__all__ = ["NAME", "add", "run"]

#: The command's name.
NAME = "stats"

#: The table's short heading of each statistic, and what it means.
_HEADINGS = {
    "vpip": ("VPIP", "voluntarily put chips in on third street"),
    "complete": ("Compl", "completed the bring-in"),
    "raise": ("Raise", "raised on third street"),
    "steal": ("Steal", "completed from the best door card"),
    "fold_to_steal_bring_in": ("FBI", "the bring-in folded to a steal"),
    "fold_to_steal_later": ("FSteal", "a later seat folded to a steal"),
    "re_steal": ("ReSt", "raised a steal"),
    "fourth_street_bet": ("Bet4", "bet fourth street"),
    "fourth_street_fold": ("Fold4", "folded to a fourth-street bet"),
    "open_pair_bet": ("OPBet", "bet fourth street with an open pair"),
    "fold_to_open_pair": ("FoldOP", "folded to an open pair's bet"),
    "fifth_street_fold": ("Fold5", "folded to a fifth-street bet"),
    "went_to_showdown": ("WTSD", "went to showdown, having seen fourth street"),
    "won_at_showdown": ("W$SD", "won at showdown"),
    "won_seeing_fourth": ("W4th", "won a pot, having seen fourth street"),
    "scoop": ("Scoop", "stud8: won every pot whole at showdown"),
}

EPILOG = (
    """\
examples:
  studeval stats hands.duckdb
  studeval stats hands.duckdb --player Hero --game razz
  studeval stats hands.duckdb --format csv > stats.csv

Each player's statistics over the hands of the database DB (made by `studeval
import`), one row a player, room and currency (a name in two rooms is two players,
as trackers count them): money in dollars, euros, tournament chips
and a room's chips where its text names no currency is never added together. The
table shows percentages (a dash: no chance) and net and all-in adjusted net per 100
hands in big bets; csv and json give fractions named in full, with --counts the
chances and deeds of each. The documentation defines each statistic with an example.
The table's columns:
"""
    + "\n".join(f"  {short:<7} {words}" for short, words in _HEADINGS.values())
    + "\n  bb/100  net per 100 hands, in big bets\n  adj/100 the same, all-in adjusted\n"
)


def add(commands: Any) -> None:
    """The ``stats`` command's parser."""
    parser = subcommand(
        commands, NAME, run,
        help="each player's stud statistics from a hand database",
        description="Each player's stud statistics from a hand database.",
        epilog=EPILOG,
    )  # fmt: skip
    parser.add_argument("database", metavar="DB", help="the database file")
    parser.add_argument("--player", metavar="NAME", action="append",
                        help="only this player (repeat for more)")  # fmt: skip
    parser.add_argument("--game", type=game, help="only this game's hands")
    parser.add_argument("--currency", help="only hands in this money (USD, 'tournament chips')")
    parser.add_argument("--site", metavar="ROOM", help="only this room's hands (PokerStars)")
    parser.add_argument("--format", choices=("table", "csv", "json"), default="table",
                        help="a table (default), csv, or json (a list of rows)")  # fmt: skip
    parser.add_argument("--counts", action="store_true",
                        help="csv and json: each statistic's chances and deeds too")  # fmt: skip


def _cell(value: object) -> object:
    """A value as csv and json write it: NaN (no chance) as nothing."""
    if isinstance(value, float) and math.isnan(value):
        return None
    return value.item() if hasattr(value, "item") else value


def run(args: argparse.Namespace) -> int:
    """Write the statistics; the exit status."""
    import csv
    import io

    from studeval.db import STATISTIC_NAMES, connect
    from studeval.errors import StudevalError

    if args.counts and args.format == "table":  # (the table has no room for them)
        return fail("--counts goes with --format csv or json")
    if not os.path.exists(args.database):
        return fail(f"no such database: {shown_path(args.database)}")
    try:
        with connect(args.database, read_only=True) as db:
            frame = db.stats(args.player, game=args.game, currency=args.currency,
                             site=args.site, counts=args.counts)  # fmt: skip
            missing = [name for name in args.player or () if name not in set(frame["player"])]
            # A player with hands, none of them of the game or money asked, is an answer
            # (no row); a player in no hand at all is a mistyped name.
            dealt = set(db.sql("SELECT DISTINCT player FROM seats WHERE list_contains(?, player)",
                               [missing]).player) if missing else set()  # fmt: skip
    except StudevalError as err:
        return fail(str(err))
    absent = [name for name in missing if name not in dealt]
    if absent:
        return fail(f"no hand of {', '.join(absent)} in {shown_path(args.database)}")
    filters = (("game", args.game), ("currency", args.currency), ("site", args.site))
    asked = " ".join(f"--{option} {shlex.quote(str(value))}" for option, value in filters
                     if value) or "the filters asked for"  # fmt: skip
    for name in missing:
        say(f"studeval: {name}: no hand of {asked}")
    out = Output()
    rows: list[dict[str, Any]] = [
        {str(k): _cell(v) for k, v in row.items()} for row in frame.to_dict("records")
    ]
    if args.format == "json":
        out.line(json.dumps(rows, ensure_ascii=False, indent=1))
    elif args.format == "csv":
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(frame.columns)
        writer.writerows([row.values() for row in rows])
        out.line(buffer.getvalue().rstrip("\n"))
    else:
        for row in rows:  # a hand stored without its room (import_hands): a dash
            row["site"] = row["site"] if row["site"] is not None else "-"
        width = max([6, *(len(str(r["player"])) for r in rows)])
        rooms = max([4, *(len(str(r["site"])) for r in rows)])  # the room: its site
        money = max([8, *(len(str(r["currency"])) for r in rows)])
        heads = [_HEADINGS[name][0] for name in STATISTIC_NAMES]
        out.line(f"{'player':<{width}} {'site':<{rooms}} {'currency':<{money}} {'hands':>8} "
                 + " ".join(f"{h:>6}" for h in heads)
                 + f" {'bb/100':>8} {'adj/100':>8}")  # fmt: skip
        for row in rows:
            cells = [f"{100 * row[n]:>6.1f}" if row[n] is not None else f"{'-':>6}"
                     for n in STATISTIC_NAMES]  # fmt: skip
            out.line(f"{row['player']:<{width}} {row['site']:<{rooms}} "
                     f"{row['currency']:<{money}} {row['hands']:>8,} " + " ".join(cells)
                     + f" {row['net_bb100']:>8.2f} {row['adjusted_bb100']:>8.2f}")  # fmt: skip
    out.flush()
    return 0
