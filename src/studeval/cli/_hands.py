"""The hands ``replay``, ``convert`` and ``analyze`` read: PHH records and card rooms'
histories, from files, directories and standard input, each hand read or reported
in turn, and a hand counted once however many files hold it.

>>> import pathlib, tempfile
>>> from studeval.histories import EXAMPLE
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> _ = (folder / "stars.txt").write_text(EXAMPLE)
>>> _ = (folder / "copy.txt").write_text(EXAMPLE)
>>> [(found.status, found.history and found.history.hand_id) for found in load([str(folder)])]
[('read', '20261202017'), ('duplicate', None)]
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field

from studeval.cli._console import Progress, say
from studeval.histories import NotStudError
from studeval.histories._files import files_in
from studeval.histories._record import OutsideHandsError
from studeval.histories._sources import Loaded, SeenHands
from studeval.histories._sources import load as load_files
from studeval.histories._text import shown_path

__all__ = ["Loaded", "Tally", "load", "replayed"]


def load(inputs: list[str]) -> Iterator[Loaded]:
    """Every hand of ``inputs`` (files, directories, ``-``), read or reported; a
    progress bar on the terminal when there are many files and the hands go elsewhere
    (a bar between the hands printed on the same screen would only garble them)."""
    files = files_in(inputs)
    quiet = sys.stdout is not None and sys.stdout.isatty()
    bar = Progress(len(files), " files") if len(files) > 20 and not quiet else None
    try:
        yield from load_files(files, SeenHands(),
                              on_file=None if bar is None else lambda _: bar.update(1))  # fmt: skip
    finally:
        if bar is not None:
            bar.close()


@dataclass
class Tally:
    """How many hands were read, refused (by reason), skipped as other games (by
    game) and dropped as duplicates, and which files held no hand history."""

    read: int = 0
    refused: int = 0
    reasons: Counter[str] = field(default_factory=Counter)
    other_games: Counter[str] = field(default_factory=Counter)
    duplicates: int = 0
    not_histories: list[str] = field(default_factory=list)
    unreadable: list[str] = field(default_factory=list)
    outside: list[str] = field(default_factory=list)  # lines outside every hand: where

    def failed(self) -> bool:
        """Whether the exit status says something went wrong: a hand refused, a
        file that could not be read, or no hand read at all (inputs that hold no
        history, or no file: an empty folder). Hands of other games only, or copies
        only, were read."""
        return bool(self.refused or self.unreadable or (not self.read and self.not_histories)
                    or self.empty)  # fmt: skip

    @property
    def empty(self) -> bool:
        """Whether the inputs held no file at all (an empty folder)."""
        return not (self.read or self.refused or self.other_games or self.duplicates
                    or self.not_histories or self.unreadable)  # fmt: skip

    def summary(self, done: str) -> str:
        """The last lines a command writes: ``3 hands replayed, 1 refused``, the hands
        of other games skipped, the duplicates dropped, the files that are no hand
        history, and with more than one refusal, how many for each reason.

        >>> tally = Tally(3, 2, Counter({"P calls N; the call is N": 2}),
        ...               Counter({"Limit Hold'em": 4}), 1, ["README.txt"])
        >>> print(tally.summary("replayed"))
        studeval: 3 hands replayed, 2 refused
        studeval: skipped, not fixed-limit seven-card stud: 4 (Limit Hold'em 4)
        studeval: duplicates dropped (a hand already read, by room and hand id): 1
        studeval: files with no hand history: 1 (README.txt)
        studeval: refused by reason:
              2  P calls N; the call is N
        """
        lines = [f"studeval: {self.read} hand{'s' * (self.read != 1)} {done}, "
                 f"{self.refused} refused"]  # fmt: skip
        if self.other_games:
            games = ", ".join(f"{game} {n}" for game, n in self.other_games.most_common())
            lines.append(f"studeval: skipped, not fixed-limit seven-card stud: "
                         f"{sum(self.other_games.values())} ({games})")  # fmt: skip
        if self.duplicates:
            lines.append("studeval: duplicates dropped (a hand already read, by room and "
                         f"hand id): {self.duplicates}")  # fmt: skip
        for files, what in ((self.not_histories, "files with no hand history"),
                            (self.unreadable, "files that could not be read"),
                            (self.outside, "lines outside every hand, not read")):  # fmt: skip
            if files:
                names = ", ".join(files[:5]) + (", ..." * (len(files) > 5))
                lines.append(f"studeval: {what}: {len(files)} ({names})")
        if self.empty:
            lines.append("studeval: no file to read: the folders given are empty")
        if self.refused > 1:
            lines.append("studeval: refused by reason:")
            lines += [f"{count:>7}  {reason}" for reason, count in self.reasons.most_common()]
        return "\n".join(lines)


def replayed(inputs: list[str], tally: Tally) -> Iterator[Loaded]:
    """The hands of ``inputs`` that replayed; each one not read counted in ``tally``,
    and the refused hands and the files with no hand history named on stderr."""
    for loaded in load(inputs):
        error = loaded.error
        if error is None:
            tally.read += 1
            yield loaded
        elif isinstance(error, NotStudError):
            tally.other_games[error.game_name] += 1
        elif error.status == "duplicate":
            tally.duplicates += 1
        elif isinstance(error, OutsideHandsError):  # a file that holds hands, too
            tally.outside.append(f"{shown_path(error.source or loaded.where)} line {error.line}")
            say(f"studeval: not read: {error}")
        elif error.status in ("not a history", "unreadable"):
            files = tally.unreadable if error.status == "unreadable" else tally.not_histories
            files.append(shown_path(error.source or loaded.where))
            say(f"studeval: not read: {error}")
        else:
            tally.refused += 1
            tally.reasons[error.kind] += 1
            say(f"studeval: refused: {error}")
