"""The hands of files that hold card rooms' histories or PHH records, as a tracker
imports them: every hand read or reported, every file read or reported, a hand
counted once however many exports hold it.

``studeval replay``, ``convert`` and ``analyze`` and :func:`studeval.analyze_many`
all read their inputs here, so that they read, skip and refuse the same hands.

>>> from studeval.histories import EXAMPLE
>>> seen = SeenHands()
>>> [(f.status, f.where) for f in load_text(EXAMPLE * 2, "stars.txt", seen)]
[('read', 'PokerStars hand 20261202017 (stars.txt:1)'), ('duplicate', 'stars.txt:55')]
>>> [(f.status, f.error.reason[:30]) for f in load_text("My notes\\n", "notes.txt", seen)]
[('not a history', 'not a hand history studeval re')]
"""

from __future__ import annotations

import functools
import os
import re
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from studeval.engine import StudHand
from studeval.handinfo import HandInfo
from studeval.histories._bulk import CompactHands
from studeval.histories._files import FileText, file_text, files_in, whole_text
from studeval.histories._reader import GRAMMARS, Compact, SeenHands, find_site, read_texts
from studeval.histories._record import History, HistoryError, UnreadableFileError
from studeval.histories._seen import hand_facts_of, hand_key_of
from studeval.histories._split import hand_starts
from studeval.histories._text import decode, shown_path
from studeval.histories.phh import PHHError, read_records

__all__ = ["Loaded", "SeenHands", "files_in", "load", "load_file", "load_text", "looks_like_phh"]

#: A PHH record names its variant on a line of its own.
_PHH_VARIANT = re.compile(r"^\s*variant\s*=", re.MULTILINE)


def looks_like_phh(text: str) -> bool:
    """Whether ``text`` is meant as PHH (TOML with a ``variant`` key).

    >>> looks_like_phh('variant = "F7S"\\n'), looks_like_phh("Seat 1: Bob")
    (True, False)
    """
    return _PHH_VARIANT.search(text) is not None


@dataclass
class Loaded:
    """One hand read (``hand``, and ``history`` for a room's text), a batch of a
    room's hands read in C (``compact``, where the caller asked), or one hand or file
    reported (``error``: a :class:`HistoryError` whose ``status`` says why)."""

    where: str
    hand: StudHand | None = None
    history: History | None = None
    error: HistoryError | None = None
    source: str | None = None  # the file (or "<stdin>") it was read from
    compact: CompactHands | None = None

    @property
    def found(self) -> History | StudHand:
        """The hand read: its :class:`History` (a room's text) or its StudHand (PHH);
        a ``ValueError`` for a batch, or a hand or file reported instead."""
        found = self.history or self.hand
        if found is None:
            what = "a batch of hands read in bulk" if self.compact else f"not read ({self.status})"
            raise ValueError(f"{self.where}: {what}")
        return found

    @property
    def status(self) -> str:
        """``"read"``, or the error's status: ``"refused"``, ``"not stud"``,
        ``"duplicate"``, ``"not a history"`` or ``"unreadable"``."""
        return "read" if self.error is None else self.error.status


def load(inputs: Sequence[str | os.PathLike[str]], seen: SeenHands | None,
         on_file: Callable[[str], None] | None = None,
         compact: Compact = False) -> Iterator[Loaded]:  # fmt: skip
    """Every hand of ``inputs`` (files, directories read whole, ``-`` for standard
    input), read or reported, a file at a time; ``on_file`` is called with each file's
    name once its hands are yielded (for a progress bar); ``compact``: the hands a
    room's C reader reads where no seat went all in, in batches (``Loaded.compact``,
    for a tracker's rows; ``"rows"``: with the database's rows). The one
    place the commands, :func:`studeval.analyze_many`, the database and the tools turn
    files into hands.

    >>> import pathlib, tempfile
    >>> from studeval.histories import EXAMPLE
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "stars.txt").write_text(EXAMPLE)
    >>> _ = (folder / "README.txt").write_text("My exports")
    >>> [(f.status, pathlib.Path(f.source).name) for f in load([folder], SeenHands())]
    [('not a history', 'README.txt'), ('read', 'stars.txt')]
    """
    for name in files_in(inputs):
        if name != "-":  # a file, a large one read a part at a time
            yield from load_file(name, seen, compact)
        else:
            yield from _standard_input(seen, compact)
        if on_file is not None:
            on_file(name)


def _standard_input(seen: SeenHands | None, compact: Compact) -> Iterator[Loaded]:
    """The hands of standard input, or why it cannot be read."""
    stream = sys.stdin
    binary = getattr(stream, "buffer", None) if stream is not None else None
    reason = None
    if binary is None:
        reason = ("standard input is closed" if stream is None
                  else "standard input cannot be read as bytes")  # fmt: skip
    else:
        try:
            text = decode(binary.read())
        except (OSError, ValueError) as err:
            reason = f"cannot read standard input: {getattr(err, 'strerror', None) or err}"
    if reason is not None:
        yield Loaded("<stdin>", error=UnreadableFileError(reason, source="<stdin>"),
                     source="<stdin>")  # fmt: skip
        return
    yield from load_text(text, "<stdin>", seen, compact)


def load_file(path: str, seen: SeenHands | None, compact: Compact = False) -> Iterator[Loaded]:
    """Every hand of the file ``path``, read or reported (a file that cannot be read
    is reported, naming it). A large file is read a part at a time."""
    if not Path(path).exists() and not Path(path).is_symlink():
        error = UnreadableFileError("no such file or directory", source=path)
        yield Loaded(shown_path(path), error=error, source=path)
        return
    text = file_text(Path(path), functools.partial(hand_starts, grammars=list(GRAMMARS)))
    if isinstance(text, HistoryError):
        yield Loaded(shown_path(path), error=text, source=path)
        return
    yield from _loaded(text, path, seen, compact)


def load_text(text: str, where: str, seen: SeenHands | None,
              compact: Compact = False) -> Iterator[Loaded]:  # fmt: skip
    """Every hand of one file's ``text`` (``where`` names it)."""
    yield from _loaded(whole_text(text, where), where, seen, compact)


def _loaded(text: FileText, where: str, seen: SeenHands | None,
            compact: Compact) -> Iterator[Loaded]:  # fmt: skip
    """A room's histories, else PHH records, else the file reported as holding no
    hand history. Labels show ``where`` escaped (:func:`shown_path`); sources keep it."""
    shown = shown_path(where)
    if find_site(text.head) is not None or not looks_like_phh(text.head):
        for found in read_texts([text], site=None, errors="collect", seen=seen,
                                compact=compact):  # fmt: skip
            if isinstance(found, HistoryError):
                at = f"{shown}:{found.line}" if found.line is not None else shown
                yield Loaded(at, error=found, source=where)
                continue
            if isinstance(found, CompactHands):
                yield Loaded(f"{shown}: {len(found)} hands", source=where, compact=found)
                continue
            label = f"{found.site} hand {found.hand_id} ({shown}:{found.line})"
            yield Loaded(label, found.hand, found, source=where)
        return
    # Each record on its own: one that cannot be read refuses itself, not the file.
    for number, (line, hand) in enumerate(read_records("".join(p for p, _ in text.parts)), 1):
        if isinstance(hand, PHHError):
            yield Loaded(shown, error=HistoryError(str(hand), line=line, source=where),
                         source=where)  # fmt: skip
            continue
        label = f"{shown} hand {number}"
        if seen is not None:
            # The room's hand where the record says, else a digest of its play (a
            # record copied to a second file is a copy, as the database finds it).
            site, hand_id = hand_key_of(hand)
            record = HandInfo.of(hand)  # (players "Seat 0"... where it names none)
            copy = seen.once(site, hand_id, label, None, record.seat_names(hand.seats),
                             hand_facts_of(hand, record))  # fmt: skip
            if copy is not None:
                yield Loaded(label, error=copy, source=where)
                continue
        yield Loaded(label, hand, source=where)
