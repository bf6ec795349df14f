"""Files and hands into the database, a batch a transaction, and the report of what
became of each: stored, already stored, or refused with its reason (kept in the
``refused`` table). Files are read in this process, or on a Dask cluster that
writes each file's rows as Parquet partitions for this process to store."""

from __future__ import annotations

import datetime
import os
import shutil
import tempfile
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from studeval._collection import collection_paused
from studeval.db._rows import HandBatch, unstorable
from studeval.db._store import Conflict, refresh_facts, run, store, writing
from studeval.engine import StudHand
from studeval.errors import OptionError
from studeval.handinfo import HandInfo
from studeval.histories._files import first_missing
from studeval.histories._record import (
    ConflictingHandError,
    History,
    HistoryError,
    NotAHistoryError,
    where_read,
)
from studeval.histories._seen import hand_key_of
from studeval.histories._sources import Loaded, files_in, load
from studeval.histories._text import shown_path

if TYPE_CHECKING:
    import duckdb
    import pandas

    from studeval.histories._bulk import CompactHands

__all__ = ["BATCH", "EXAMPLES", "ImportReport", "import_files", "import_hands"]

#: Hands a transaction: a killed import loses at most the batch it was writing. (A
#: batch's rows of actions and cards fill DuckDB's row groups of 122,880 rows, which
#: it then compresses once, straight into the file, and not a second time from its
#: log: 4% faster than 10,000 hands, for about 100 MB more memory.)
BATCH = 50_000
#: The refusals an import's report names one by one (the rest: the ``refused`` table).
EXAMPLES = 10

_REFUSED = ("source", "line", "site", "hand_id", "status", "reason", "kind", "imported_at")


@dataclass
class ImportReport:
    """What an import did: ``files`` read, ``hands`` stored, ``duplicates`` (hands
    stored before, or read twice), ``refused`` (hands and files not stored: their
    reasons are in the ``refused`` table), ``rooms`` (hands stored by room; ``None``
    for hands no room numbered), ``statuses`` (refusals by status: ``"refused"``,
    ``"not stud"``, ``"not a history"``, ``"unreadable"``), ``reasons`` (refusals by
    status and reason without names and amounts), ``examples`` (where the first
    :data:`EXAMPLES` refusals were read, and why: the rest are in the ``refused``
    table) and ``seconds``.

    >>> report = ImportReport(files=2, hands=3)
    >>> report.count("refused", "P calls N; the call is N", "a.txt, line 40: Bo calls 5; "
    ...              "the call is 4")
    >>> print(report)
    3 hands stored from 2 files in 0.0 s (0 already stored, 1 refused)
      1 refused: P calls N; the call is N
      a.txt, line 40: Bo calls 5; the call is 4
    >>> report.failed()
    True
    """

    files: int = 0
    hands: int = 0
    duplicates: int = 0
    refused: int = 0
    rooms: Counter[str | None] = field(default_factory=Counter)
    statuses: Counter[str] = field(default_factory=Counter)
    reasons: Counter[str] = field(default_factory=Counter)
    examples: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def failed(self) -> bool:
        """Whether a hand was refused or a file could not be read (other games'
        hands and files that hold no history are only reported)."""
        return bool(self.statuses["refused"] or self.statuses["unreadable"])

    def count(self, error_status: str, kind: str, example: str | None = None) -> None:
        """Counts one refusal (``example``: where it was read, and why)."""
        self.refused += 1
        self.statuses[error_status] += 1
        self.reasons[f"{error_status}: {kind}"] += 1
        if example is not None and len(self.examples) < EXAMPLES:
            self.examples.append(example)

    def __str__(self) -> str:
        lines = [f"{self.hands:,} hands stored from {self.files:,} files in {self.seconds:.1f} s "
                 f"({self.duplicates:,} already stored, {self.refused:,} refused)"]  # fmt: skip
        lines += [f"  {room or 'no room'}: {n:,} hand{'s' * (n != 1)}"
                  for room, n in self.rooms.most_common()]  # fmt: skip
        lines += [f"  {n:,} {reason}" for reason, n in self.reasons.most_common()]
        lines += [f"  {example}" for example in self.examples]
        return "\n".join(lines)


def _add(batch: HandBatch, found: History | StudHand, source: str,
         line: int | None) -> HistoryError | None:  # fmt: skip
    """Adds a hand read to ``batch``, or gives why it cannot be stored (the money of a
    PHH record's chip, ``_unit``, beyond what the tables hold exactly)."""
    site, hand_id = hand_key_of(found)
    hand = found if isinstance(found, StudHand) else found.hand
    stakes = hand.stakes
    most = max(sum(hand.starting_stacks), stakes.ante, stakes.big_bet, hand.rake)
    info = HandInfo.of(found)
    problem = unstorable(info.unit, most)
    if problem is None:  # (room_seat is an INTEGER: a PHH record's seats can be any)
        problem = next((f"its seat number {seat:,} passes what the tables hold"
                        for seat in info.seats if not -(2**31) <= seat < 2**31), None)  # fmt: skip
    if problem is not None:
        return HistoryError(f"cannot be stored: {problem}", site=site, hand_id=hand_id,
                            line=line, source=source)  # fmt: skip
    batch.add(found, len(batch), site, hand_id, source, line)
    return None


def _example(row: dict[str, Any]) -> str:
    """A refused row (``_refusal``) as its error words it: the room, hand, file and
    line, then the reason."""
    return str(HistoryError(row["reason"], site=row["site"], hand_id=row["hand_id"],
                            line=row["line"], source=row["source"]))  # fmt: skip


def _refusal(error: HistoryError, source: str | None, now: datetime.datetime) -> dict[str, Any]:
    name = error.source or source
    return {"source": None if name is None else shown_path(name), "line": error.line,
            "site": error.site,
            "hand_id": error.hand_id, "status": error.status, "reason": error.reason,
            "kind": error.kind, "imported_at": now}  # fmt: skip


class _Writer:
    """Batches of hands and refusals, each stored in a transaction."""

    def __init__(self, con: duckdb.DuckDBPyConnection, report: ImportReport,
                 database: str, errors: str = "collect") -> None:  # fmt: skip
        self.con, self.report, self.database = con, report, database
        self.errors = errors  # "raise": a conflict found in storing is raised
        self.batch = HandBatch()
        self.refused: list[dict[str, Any]] = []
        self.forget: list[str] = []
        self.now = _utc_now()

    def hand(self, found: History | StudHand, source: str, line: int | None) -> None:
        refusal = _add(self.batch, found, source, line)
        if refusal is not None:
            self.refuse(refusal, source)
        elif len(self.batch) >= BATCH:
            self.flush()

    def compact(self, batch: CompactHands, source: str) -> None:
        """Adds a batch of hands read in bulk, a transaction's hands at a time."""
        start = 0
        while start < len(batch):
            part = batch.subset(slice(start, start + BATCH - len(self.batch)))
            self.batch.add_compact(part, source)
            start += len(part)
            if len(self.batch) >= BATCH:
                self.flush()

    def refuse(self, error: HistoryError, source: str | None) -> None:
        row = _refusal(error, source, self.now)
        self.refused.append(row)
        self.report.count(error.status, error.kind, _example(row))
        if len(self.refused) >= BATCH:  # a file of other games' hands: memory stays flat
            self.flush()

    def flush(self, frames: dict[str, Any] | None = None) -> None:
        """Stores the batch (or ``frames``, a worker's) and the refusals. (A thread
        that stores while the next batch is read was tried: the two threads contend
        for the GIL, which DuckDB takes to read the batch's frames, and the import
        ran 20% slower.)"""
        import pandas

        if frames is None:
            frames = self.batch.frames()
        refused = pandas.DataFrame(self.refused, columns=list(_REFUSED))
        with writing(self.database):
            stored, again, rooms, conflicts = store(self.con, frames, refused, self.forget,
                                                    self._conflicts, self.now)  # fmt: skip
        self.report.hands += stored
        self.report.duplicates += again
        self.report.rooms.update(rooms)
        self.refused, self.forget = [], []
        found = self._errors(conflicts)
        if found and self.errors == "raise":  # once its batch is stored (not it)
            raise found[0]
        for conflict in found:
            self.report.count(conflict.status, conflict.kind, str(conflict))

    def _errors(self, conflicts: list[Conflict]) -> list[ConflictingHandError]:
        """Each hand that differs from the hand kept under its number, as its refusal."""
        return [ConflictingHandError(where_read(first, first_line), site=site, hand_id=hand_id,
                                     line=line, source=source, how=how)
                for site, hand_id, source, line, first, first_line, how in conflicts]  # fmt: skip

    def _conflicts(self, conflicts: list[Conflict]) -> pandas.DataFrame:
        """The refused rows of the conflicts of a batch being stored (none where the
        first is raised)."""
        import pandas

        kept = self._errors(conflicts) if self.errors != "raise" else []
        return pandas.DataFrame([_refusal(error, error.source, self.now) for error in kept],
                                columns=list(_REFUSED))  # fmt: skip


def import_files(con: duckdb.DuckDBPyConnection, paths: Iterable[str | os.PathLike[str]],
                 errors: str, client: object, on_file: Callable[[str], None] | None,
                 database: str) -> ImportReport:  # fmt: skip
    """:meth:`studeval.db.Database.import_histories`'s work (``database``: the
    database's own file, which a folder imported may hold: reported, not read)."""
    started = _utc_now()
    names = [p if p == "-" else os.path.abspath(p)  # "-": standard input
             for p in ([paths] if isinstance(paths, (str, os.PathLike)) else paths)]  # fmt: skip
    if (missing := first_missing(name for name in names if name != "-")) is not None:
        raise OptionError(f"no such file or directory: {missing}")
    if errors not in ("raise", "collect"):
        raise OptionError(f"errors must be 'raise' or 'collect'; got {errors!r}")
    if client is not None and not hasattr(client, "map"):
        raise OptionError(f"client must be a distributed.Client; got {type(client).__name__}")
    # Each file by its real path (links resolved): a file read again, by whatever
    # name, is the same source, and has its refusals replaced, not kept twice.
    files = [os.path.realpath(f) if f != "-" and os.path.exists(f) else f
             for f in files_in(names)]  # fmt: skip
    report = ImportReport(files=len(files))
    writer = _Writer(con, report, database, errors)
    # The database's own files: itself, its log, and what DuckDB spills to its
    # temporary folder (left behind by an import that was killed).
    own = {os.path.realpath(database + suffix) for suffix in ("", ".wal")}
    spill = os.path.join(os.path.realpath(database + ".tmp"), "")
    for name in [f for f in files if os.path.realpath(f) in own
                 or os.path.realpath(f).startswith(spill)]:  # fmt: skip
        files.remove(name)
        writer.refuse(NotAHistoryError("the database being written, not read", source=name),
                      name)  # fmt: skip
        writer.forget += stored_names(name)
    # Every copy of a hand is read: the database keeps the first, and refuses a copy
    # that differs (another hand: players, results, cards) by what it stored, whichever import or
    # worker read it (store()). Standard input is read here, whatever the client.
    here = files if client is None else [f for f in files if f == "-"]
    if client is not None:
        _read_on_dask(writer, client, [f for f in files if f != "-"], on_file, errors)

    def read_whole(name: str) -> None:
        # A file's refusals kept by an earlier import are replaced once it has been read
        # to its end (load() calls this then): the transaction that stores its last
        # refusals removes the earlier import's (store()). An import stopped halfway
        # through a file leaves them, so none is lost. Standard input is no file read
        # again: its refusals stay.
        if errors == "collect" and name != "-":
            writer.forget += stored_names(name)
        if on_file is not None:
            on_file(name)

    if client is None or here:  # (its last flush stores the refusals held, if any)
        with collection_paused():
            _read_here(writer, load(here, None, read_whole, compact="rows"), errors)
    _log(con, report, started, database)
    return report


def _read_here(writer: _Writer, loaded: Iterator[Loaded], errors: str) -> None:
    try:
        for item in loaded:
            # (a file name that is not UTF-8 is stored as text: shown_path)
            source = shown_path(item.source or item.where)
            if item.compact is not None:
                writer.compact(item.compact, source)
            elif item.error is None:
                line = item.history.line if item.history is not None else None
                writer.hand(item.found, source, line)
            elif item.error.status == "duplicate":
                writer.report.duplicates += 1
            elif errors == "raise":
                raise item.error
            else:
                writer.refuse(item.error, source)
    finally:  # what was read before an error is stored
        writer.flush()


def import_hands(con: duckdb.DuckDBPyConnection, hands: Iterable[object],
                 source: str | None, database: str) -> ImportReport:  # fmt: skip
    """:meth:`studeval.db.Database.import_hands`'s work."""
    started = _utc_now()
    report = ImportReport()
    writer = _Writer(con, report, database)
    try:
        for number, hand in enumerate(hands):
            if not isinstance(hand, (StudHand, History)):
                raise OptionError(f"hand {number}: import_hands takes StudHand or History "
                                  f"objects; got {type(hand).__name__}")  # fmt: skip
            played = hand if isinstance(hand, StudHand) else hand.hand
            if not played.over:
                raise OptionError(f"hand {number}: not finished")
            writer.hand(hand, source or f"hand {number}", None)
    finally:
        writer.flush()
    _log(con, report, started, database)
    return report


@collection_paused()  # a Dask task
def _file_parts(path: str, folder: str) -> tuple[list[dict[str, str]], list[dict[str, Any]],
                                                 int]:  # fmt: skip
    """A Dask task: one file's hands as Parquet partitions in ``folder`` (a set of
    files a batch, one a table), its refusals, and its duplicates."""
    parts: list[dict[str, str]] = []
    refused: list[dict[str, Any]] = []
    duplicates = 0
    batch = HandBatch()
    now = _utc_now()
    stem = tempfile.mkdtemp(prefix="file-", dir=folder)
    name = shown_path(path)  # as stored

    def write() -> None:
        import pyarrow.parquet

        part: dict[str, str] = {}
        for table, frame in batch.frames().items():
            part[table] = os.path.join(stem, f"{table}-{len(parts)}.parquet")
            pyarrow.parquet.write_table(frame, part[table])
        parts.append(part)

    for item in load([path], None, compact="rows"):  # copies: see import_files
        if item.compact is not None:  # in parts of a transaction's hands
            start = 0
            while start < len(item.compact):
                part = item.compact.subset(slice(start, start + BATCH - len(batch)))
                batch.add_compact(part, name)
                start += len(part)
                if len(batch) >= BATCH:
                    write()
            continue
        error = item.error
        if error is None:
            line = item.history.line if item.history is not None else None
            error = _add(batch, item.found, name, line)
            if error is None:
                if len(batch) >= BATCH:
                    write()
                continue
        if error.status == "duplicate":
            duplicates += 1
        else:
            refused.append(_refusal(error, path, now))
    if len(batch):  # (a file of no hand writes no part: its columns would have no type)
        write()
    return parts, refused, duplicates


def _read_on_dask(writer: _Writer, client: Any, files: list[str],
                  on_file: Callable[[str], None] | None, errors: str) -> None:  # fmt: skip
    """Each file read on a worker into Parquet partitions, stored here in order."""
    folder = tempfile.mkdtemp(prefix="studeval-import-")
    try:
        futures = client.map(_file_parts, files, folder=folder, pure=False)
        for path, future in zip(files, futures, strict=True):
            parts, refused, duplicates = future.result()
            future.release()
            if refused and errors == "raise":
                # The file read again here, as an import in one process reads it: the
                # hands before its first refusal stored, and the refusal raised (the
                # worker's parts hold the hands after it too).
                _read_here(writer, load([path], None, None, compact="rows"), errors)
                raise HistoryError(refused[0]["reason"], site=refused[0]["site"],
                                   hand_id=refused[0]["hand_id"], line=refused[0]["line"],
                                   source=refused[0]["source"])  # fmt: skip
            writer.forget += stored_names(path)
            for error in refused:
                writer.refused.append(error)
                writer.report.count(error["status"], error["kind"], _example(error))
            writer.report.duplicates += duplicates
            for part in parts:
                writer.flush(dict(part))
            if on_file is not None:
                on_file(path)
        writer.flush()  # the refusals of files that held no hand
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def stored_names(name: str) -> list[str]:
    """The names a file's refusals are stored under: as shown (:func:`shown_path`),
    and as an older studeval stored them, with their control characters raw, so that
    importing the file again replaces those too.

    >>> stored_names("a.txt"), stored_names("a\\x1bb.txt")
    (['a.txt'], ['a\\\\x1bb.txt', 'a\\x1bb.txt'])
    """
    shown = shown_path(name)
    if shown == name:
        return [name]
    try:
        name.encode()
    except UnicodeEncodeError:  # not UTF-8: stored as shown by every version
        return [shown]
    return [shown, name]


def _log(con: duckdb.DuckDBPyConnection, report: ImportReport, started: datetime.datetime,
         database: str) -> None:  # fmt: skip
    """The statistics' facts of the hands stored, and the import's line in
    ``imports``."""
    with writing(database):
        refresh_facts(con)
        finished = _utc_now()
        report.seconds = (finished - started).total_seconds()
        run(
            con,
            "INSERT INTO imports VALUES (?, ?, ?, ?, ?, ?)",
            [started, finished, report.files, report.hands, report.duplicates, report.refused],
        )


def _utc_now() -> datetime.datetime:
    """Now in UTC, as the database's TIMESTAMP columns hold it (no zone)."""
    return datetime.datetime.now(datetime.timezone.utc).replace(tzinfo=None)
