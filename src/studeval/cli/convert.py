r"""``studeval convert``: hand histories from any format read, written as PHH or JSON.

>>> import tempfile, pathlib, contextlib, io
>>> from studeval.cli import main
>>> from studeval.histories import EXAMPLE
>>> path = pathlib.Path(tempfile.mkdtemp()) / "stars.txt"
>>> _ = path.write_text(EXAMPLE)
>>> with contextlib.redirect_stderr(io.StringIO()):
...     main(["convert", str(path), "--to", "jsonl"])  # doctest: +ELLIPSIS
{"site": "PokerStars", "hand_id": "20261202017", ...}
0
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from studeval.cli._args import history_inputs, subcommand
from studeval.cli._console import InputError, Output, fail, say

__all__ = ["add", "run"]

EPILOG = """\
examples:
  studeval convert HH20250101.txt --to phhs > hands.phhs
  studeval convert histories/ --to jsonl > hands.jsonl

Reads what `studeval replay` reads (PHH and every card room it knows; directories
whole), replays and checks every hand, and writes them: phh (one hand only),
phhs (many hands, numbered) or jsonl (a JSON object a line: the room's names,
ids, stakes in chips, the money of a chip, the players, what each collected, the
rake, and the hand as PHH). Hands that cannot be replayed are reported on stderr
and left out; the exit status is then 2.
"""


def add(commands: Any) -> None:
    """The ``convert`` command's parser."""
    convert = subcommand(
        commands, "convert", run,
        help="convert hand histories to PHH or JSON lines, every hand replayed",
        description="Convert hand histories (PHH or card rooms') to phh, phhs or jsonl.",
        epilog=EPILOG,
    )  # fmt: skip
    history_inputs(convert)
    convert.add_argument("--to", choices=("phh", "phhs", "jsonl"), required=True,
                         help="the format written to stdout")  # fmt: skip


def _json(loaded: Any) -> str:
    from studeval.histories.phh import dumps

    hand, history = loaded.hand, loaded.history
    record: dict[str, object] = {}
    if history is not None:
        record = {
            "site": history.site, "hand_id": history.hand_id, "table": history.table,
            "tournament": history.tournament,
            "played_at": history.played_at.isoformat() if history.played_at else None,
            "currency": history.currency, "unit": str(history.unit),
            "players": [vars(p) for p in history.players], "hero": history.hero,
            "collected": history.collected, "rake": history.rake,
        }  # fmt: skip
    s = hand.stakes
    record |= {
        "game": hand.game, "stakes": {"ante": s.ante, "bring_in": s.bring_in,
                                      "small_bet": s.small_bet, "big_bet": s.big_bet},
        "starting_stacks": hand.starting_stacks, "finishing_stacks": hand.stacks,
        "phh": dumps(hand),
    }  # fmt: skip
    return json.dumps(record, ensure_ascii=False)


def run(args: argparse.Namespace) -> int:
    """Write the converted hands; the exit status."""
    from studeval.cli._hands import Tally, replayed
    from studeval.histories.phh import dumps

    out = Output()
    tally = Tally()
    pending: str | None = None  # --to phh: one hand only, written once known alone
    try:
        for loaded in replayed(args.inputs, tally):
            assert loaded.hand is not None
            written = tally.read
            if args.to == "jsonl":
                out.line(_json(loaded))
            elif args.to == "phhs":
                out.line(("\n" if written > 1 else "") + f"[{written}]\n" + dumps(loaded.hand))
            elif pending is None:
                pending = dumps(loaded.hand)
            else:
                return fail("--to phh writes one hand; these files hold more: use --to phhs")
    except InputError as err:
        return fail(str(err))
    if pending is not None:
        out.line(pending.rstrip("\n"))
    out.flush()  # the hands first, then the count after them
    say(tally.summary("converted"))
    return 2 if tally.failed() else 0
