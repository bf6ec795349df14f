"""A history file's text, in parts when it is large: a tracker's export of a year
of hands is read a few megabytes at a time, cut where a hand starts, so that
memory stays flat however large the file.

>>> import pathlib, tempfile
>>> path = pathlib.Path(tempfile.mkdtemp()) / "two.txt"
>>> _ = path.write_text("Hand 1\\nbet\\nHand 2\\ncall\\n")
>>> starts = lambda text, at: [i for i in range(at, len(text)) if text.startswith("Hand", i)
...                            and (i == 0 or text[i - 1] == "\\n")]
>>> text = file_text(path, starts, whole_below=0, block=8)
>>> text.head, list(text.parts)
('Hand 1\\nb', [('Hand 1\\nbet\\n', 1), ('Hand 2\\ncall\\n', 3)])
"""

from __future__ import annotations

import codecs
import errno
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from studeval.histories._record import UnreadableFileError, kept
from studeval.histories._text import (
    UTF8_ELSE_CP1252,
    decode,
    shown_path,
    unmarked_utf16,
    utf16_length,
)

__all__ = ["FileText", "file_text", "files_in", "first_missing", "whole_text"]

#: Files up to this size are read whole; larger ones in blocks.
WHOLE_BELOW = 16 * 1024 * 1024
#: The size of a block read from a large file.
BLOCK = 4 * 1024 * 1024
#: A part with no hand start in this many characters is given whole to the reader
#: (it is no room's text, and is reported as such) rather than grown for ever.
LONGEST_PART = 64 * 1024 * 1024

#: Where the hands start in a text, from an offset on: (text, offset) -> offsets.
HandStarts = Callable[[str, int], list[int]]


@dataclass
class FileText:
    """A file's text: ``head``, its start (all of a small file), to know what it
    is; ``parts``, the text in order, each part with the number of its first line
    (one part for a small file; a large one cut where hands start)."""

    where: str | None
    head: str
    parts: Iterator[tuple[str, int]]


def first_missing(names: Iterable[object]) -> str | None:
    """The first of ``names`` that names no file or folder, as :func:`shown_path`
    writes it (a terminal obeys nothing in it); None where each names one.

    >>> first_missing(["/"]), first_missing(["/", "/no/such\\x1b[2J"])
    (None, '/no/such\\\\x1b[2J')
    """
    return next((shown_path(str(name)) for name in names if not Path(str(name)).exists()), None)


def files_in(inputs: Sequence[str | os.PathLike[str]]) -> list[str]:
    """The files ``inputs`` name, in order: a directory read whole (recursively, in
    name order, through links to other directories), ``-`` (standard input) kept.
    The one walk of files and directories that :func:`~studeval.histories.read`,
    the commands, ``analyze_many`` and the tools make, so that they all read the
    same files. A file is listed once, however many names reach it (a folder and a
    file in it, a link to it); a directory that cannot be listed is listed itself,
    for its reader to report (:func:`file_text`), never passed over.

    >>> import pathlib, tempfile
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "b.txt").write_text(""); (folder / "a").mkdir()
    >>> _ = (folder / "a" / "c.txt").write_text("")
    >>> (folder / "link").symlink_to(folder / "a")
    >>> [pathlib.Path(f).relative_to(folder).as_posix()
    ...  for f in files_in([folder, folder / "b.txt"])]
    ['a/c.txt', 'b.txt']
    """
    found: list[str] = []
    files: set[str] = set()  # the real paths listed
    for name in inputs:
        path = Path(name)
        listed = _walk(path) if str(name) != "-" and path.is_dir() else [str(name)]
        for file in listed:
            real = file if file == "-" else os.path.realpath(file)  # "-": read once too
            if real not in files:
                files.add(real)
                found.append(file)
    return found


def _walk(top: Path) -> list[str]:
    """The files under ``top``, in name order, and each directory that could not be
    listed; a directory reached again (by a link) is walked once, so that a link
    to a folder above it ends."""
    found: list[Path] = []
    walked: set[str] = set()

    def unlisted(err: OSError) -> None:
        found.append(Path(err.filename if err.filename is not None else top))

    for folder, folders, names in os.walk(top, onerror=unlisted, followlinks=True):
        real = os.path.realpath(folder)
        if real in walked:
            folders[:] = []
            continue
        walked.add(real)
        folders.sort()  # a directory reached by two names: walked under the first
        found += [Path(folder, name) for name in names]
    return [str(p) for p in sorted(found)]


def _loops(path: Path) -> bool:
    """Whether the link ``path`` leads, link after link, back to a link it passed."""
    try:
        os.stat(path)
    except OSError as err:
        return err.errno == errno.ELOOP
    return False


def whole_text(text: str, where: str | None) -> FileText:
    """A text held whole as one part."""
    return FileText(where, text, iter([(text, 1)]))


def _encoding(path: Path) -> str:
    """How a large file is decoded, as :func:`~studeval.histories._text.decode`
    would decode it whole: by its mark or its NUL bytes, else as UTF-8 with code
    page 1252 where the bytes are no UTF-8."""
    with path.open("rb") as stream:
        start = stream.read(4096)
    if start.startswith((b"\xff\xfe", b"\xfe\xff")):
        return "utf-16"
    order = unmarked_utf16(start)
    if order is not None:
        return order
    return "utf-8-sig" if start.startswith(b"\xef\xbb\xbf") else "utf-8"


def _blocks(path: Path, encoding: str, block: int) -> Iterator[str]:
    errors = UTF8_ELSE_CP1252 if encoding.startswith("utf-8") else "replace"
    decoder = codecs.getincrementaldecoder(encoding)(errors=errors)
    try:
        with path.open("rb") as stream:
            left = -1  # bytes to read: all, but a UTF-16 file's stray last line end
            if encoding.startswith("utf-16"):
                size = stream.seek(0, os.SEEK_END)
                stream.seek(max(size - 2, 0))
                left = utf16_length(size, stream.read(2))
                stream.seek(0)
            while data := stream.read(block if left < 0 else min(block, left)):
                left -= len(data)
                yield decoder.decode(data)
            yield decoder.decode(b"", final=True)
    except OSError as err:  # a disk error halfway: the rest of the file is reported
        raise UnreadableFileError(f"cannot read the file: {err.strerror or err}",
                                  source=str(path)) from None  # fmt: skip


def _cut(blocks: Iterator[str], starts: HandStarts) -> Iterator[tuple[str, int]]:
    """The text of ``blocks`` in parts that end where a hand starts: a part starts
    with its hand, but the first holds the text before its first hand too (its
    reading reports that text), and text with no start in ``LONGEST_PART``
    characters is a part of its own, cut at a line's end (``read_texts`` reports
    it)."""
    buffer, line, held = "", 1, False
    for block in blocks:
        buffer += block
        found = starts(buffer, 1 if held else 0)
        # The last start may begin a hand the next block goes on with: cut before it.
        ends = found if held else found[1:]
        if ends:
            cut = ends[-1]
        elif len(buffer) > LONGEST_PART:  # no room's text: its own part, at a line's end
            cut = found[0] if found and found[0] > 0 else buffer.rfind("\n") + 1 or len(buffer)
        else:
            cut = 0
        if cut > 0:
            held = held or cut in found
            yield buffer[:cut], line
            line += buffer.count("\n", 0, cut)
            buffer = buffer[cut:]
    if buffer:
        yield buffer, line


def file_text(path: Path, starts: HandStarts, *, whole_below: int | None = None,
              block: int | None = None) -> FileText | UnreadableFileError:  # fmt: skip
    """A file's text (in parts when it holds ``whole_below`` bytes or more; XML is
    read whole), or why it cannot be read: a pipe, a device, a broken link or an
    error reading it are each reported, never passed over."""
    if path.is_dir():  # a directory files_in could not list
        try:
            os.scandir(path).close()
        except OSError as err:
            return UnreadableFileError(f"cannot read the folder: {err.strerror or err}",
                                       source=str(path))  # fmt: skip
        return UnreadableFileError("a folder: not read", source=str(path))
    if not path.is_file():
        kind = "not a regular file"
        if path.is_symlink() and not path.exists():
            kind = "a link in a loop of links" if _loops(path) else "a link to nothing"
        return UnreadableFileError(f"{kind}: not read", source=str(path))
    where = str(path)
    whole_below = WHOLE_BELOW if whole_below is None else whole_below
    block = BLOCK if block is None else block
    try:
        if path.stat().st_size < whole_below:
            return whole_text(decode(path.read_bytes()), where)
        blocks = _blocks(path, _encoding(path), block)
        head = next(blocks, "")
    except OSError as err:
        return UnreadableFileError(f"cannot read the file: {err.strerror or err}", source=where)
    except UnreadableFileError as err:
        return kept(err)
    if head.lstrip("\ufeff \t\r\n").startswith("<"):  # XML is parsed whole
        try:
            return whole_text(head + "".join(blocks), where)
        except UnreadableFileError as err:
            return kept(err)

    def again() -> Iterator[str]:
        yield head
        yield from blocks

    return FileText(where, head, _cut(again(), starts))
