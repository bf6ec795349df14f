"""The hands ``replay`` and ``convert`` read: PHH records and card rooms' histories,
from files, directories and standard input, each hand or its refusal in turn.

>>> import pathlib, tempfile
>>> from studeval.histories.pokerstars import POKERSTARS_EXAMPLE
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> _ = (folder / "stars.txt").write_text(POKERSTARS_EXAMPLE)
>>> [(found.history.hand_id, found.error) for found in load([str(folder)])]
[('20261202017', None)]
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from studeval.cli._console import Progress, open_input, say
from studeval.engine import StudHand
from studeval.errors import StudevalError
from studeval.histories import History, HistoryError, find_site, read
from studeval.histories._record import reason_kind
from studeval.histories._text import decode
from studeval.phh import read as read_phh

__all__ = ["Loaded", "Tally", "load", "replayed"]


@dataclass
class Loaded:
    """One hand read (``hand``, and ``history`` for a room's text) or refused (``error``)."""

    where: str
    hand: StudHand | None = None
    history: History | None = None
    error: str | None = None
    reason: str | None = None  # the refusal's kind, to count refusals by


def _files(inputs: list[str]) -> list[str]:
    found: list[str] = []
    for name in inputs:
        path = Path(name)
        if name != "-" and path.is_dir():
            found += [str(p) for p in sorted(path.rglob("*")) if p.is_file()]
        else:
            found.append(name)
    return found


def load(inputs: list[str]) -> Iterator[Loaded]:
    """Every hand of ``inputs`` (files, directories, ``-``), read or refused; a
    progress bar on the terminal when there are many files and the hands go elsewhere
    (a bar between the hands printed on the same screen would only garble them)."""
    files = _files(inputs)
    quiet = sys.stdout is not None and sys.stdout.isatty()
    bar = Progress(len(files), " files") if len(files) > 20 and not quiet else None
    try:
        for name in files:
            stream, _size = open_input(name)
            with stream:
                text = decode(stream.read())
            where = "<stdin>" if name == "-" else name
            if find_site(text) is not None:
                source: object = text if name == "-" else Path(name)
                for found in read(source, errors="collect"):
                    if isinstance(found, HistoryError):
                        yield Loaded(f"{where}:{found.line}", error=str(found),
                                     reason=found.kind)  # fmt: skip
                    else:
                        label = f"{found.site} hand {found.hand_id} ({where}:{found.line})"
                        yield Loaded(label, found.hand, found)
            else:
                try:
                    for number, hand in enumerate(read_phh(text), 1):
                        yield Loaded(f"{where} hand {number}", hand)
                except (StudevalError, ValueError) as err:
                    yield Loaded(where, error=f"{where}: {err}", reason=reason_kind(str(err)))
            if bar is not None:
                bar.update(1)
    finally:
        if bar is not None:
            bar.close()


@dataclass
class Tally:
    """How many hands were read and how many refused, by reason."""

    read: int = 0
    refused: int = 0
    reasons: Counter[str] = field(default_factory=Counter)

    def summary(self, done: str) -> str:
        """The last lines a command writes: ``3 hands replayed, 1 refused``, and
        with more than one refusal, how many for each reason, most first.

        >>> tally = Tally(3, 2, Counter({"P calls N; the call is N": 2}))
        >>> print(tally.summary("replayed"))
        studeval: 3 hands replayed, 2 refused
        studeval: refused by reason:
              2  P calls N; the call is N
        """
        lines = [f"studeval: {self.read} hand{'s' * (self.read != 1)} {done}, "
                 f"{self.refused} refused"]  # fmt: skip
        if self.refused > 1:
            lines.append("studeval: refused by reason:")
            lines += [f"{count:>7}  {reason}" for reason, count in self.reasons.most_common()]
        return "\n".join(lines)


def replayed(inputs: list[str], tally: Tally) -> Iterator[Loaded]:
    """The hands of ``inputs`` that replayed; each refused one reported on stderr and
    counted in ``tally``."""
    for loaded in load(inputs):
        if loaded.hand is None:
            tally.refused += 1
            tally.reasons[loaded.reason or "unreadable"] += 1
            say(f"studeval: refused: {loaded.error}")
            continue
        tally.read += 1
        yield loaded
