"""The rows of many files (:func:`studeval.analyze_many`'s, each file read on its own,
perhaps on a Dask worker) with a hand counted once: by room and hand id, the rows of
the first file that holds it kept; a later copy reported as a duplicate, or refused
where it is another hand under the same number (other players, money, game, stacks
or nets: the facts of ``histories._facts``, as ``read`` and the database compare).

>>> rows = {"site": ["PokerStars"], "hand_id": ["7"], "source": ["a.txt"], "player": ["Ann"],
...         LINE: [1], FACTS: [("USD", True, "razz", 1, 2)]}
>>> copy = dict(rows, source=["b.txt"], **{FACTS: [("USD", True, "razz", 1, 3)]})
>>> columns, reports = once([(rows, []), (copy, [])], ("source", "player"))
>>> columns, [r["reason"][-27:] for r in reports]
({'source': ['a.txt'], 'player': ['Ann']}, ['with other stacks: not read'])
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from studeval.histories._facts import Facts
    from studeval.histories._record import HistoryError

__all__ = [
    "ERROR", "FACTS", "FILE", "HANDS", "KEY", "LINE", "Rows", "first_error", "identities", "once",
    "report",
]  # fmt: skip

#: Rows as columns (each a list of the rows' values in order), and reports of what
#: was not analysed. A file's columns hold for each row its hand's first line too
#: (``LINE``, not a column of the frame: for the report of a later copy) and its
#: hand's facts (``FACTS``: None where not known) and, where no room numbered the
#: hand, the key copies know it by (``KEY``: room and digest, else None); where only
#: one player's rows are kept, ``HANDS`` lists every hand of the file (room and hand
#: id as copies know them, source, first line, the players dealt in, sorted, its
#: facts, and its hand id as shown), the player's or not: a copy of a hand is told by
#: the hands, not by the rows kept.
Rows = tuple[dict[str, list[Any]], list[dict[str, Any]]]
LINE = "line"
HANDS = "hands"
FACTS = "facts"
KEY = "key"
#: A report's error itself, and the place of its file in those given (not columns of
#: the report's frame).
ERROR = "error"
FILE = "file"


def report(error: HistoryError, where: str, keep: bool = False) -> dict[str, Any]:
    """The report's row of a hand or file not analysed (``keep``: with the error
    itself, ``ERROR``, for :func:`first_error`)."""
    row: dict[str, Any] = {"source": error.source or where, "line": error.line,
                           "site": error.site, "hand_id": error.hand_id,
                           "status": error.status, "reason": error.reason}  # fmt: skip
    if keep:
        row[ERROR] = error
    return row


def first_error(reports: list[dict[str, Any]]) -> HistoryError | None:
    """The first hand or file not analysed that is no duplicate, in the order the
    files were given (each report's ``FILE``, 0 where it has none: one file's, then
    its line; a file's own fault, at no line, first), with its error (reports made
    with ``keep``); None where none."""
    found = [r for r in reports if r["status"] != "duplicate" and ERROR in r]
    if not found:
        return None
    error: HistoryError = min(found, key=lambda r: (r.get(FILE, 0), r["line"] or 0))[ERROR]
    return error


def once(files: list[Rows], names: tuple[str, ...]) -> Rows:
    """All files' rows (the columns ``names``), a hand counted once, and all reports."""
    from studeval.histories._facts import differs
    from studeval.histories._record import ConflictingHandError, DuplicateHandError, where_read

    # By room and hand id: the file the hand was kept from (its place in files), its source
    # and first line; each file's players and facts by hand, made for the files copies are in.
    first: dict[tuple[str | None, str | None], tuple[int, str, int | None]] = {}
    players: dict[int, dict[tuple[str | None, str | None], tuple[str, ...]]] = {}
    facts: dict[int, dict[tuple[str | None, str | None], Facts | None]] = {}

    def keys(number: int) -> list[tuple[str | None, str | None]]:
        return identities(files[number][0])

    def dealt(number: int, key: tuple[str | None, str | None]) -> tuple[str, ...]:
        if number not in players:  # (every player's rows: the rows say who played)
            by_hand: dict[tuple[str | None, str | None], list[str]] = {}
            for hand, name in zip(keys(number), files[number][0]["player"], strict=True):
                by_hand.setdefault(hand, []).append(name)
            players[number] = {k: tuple(sorted(v)) for k, v in by_hand.items()}
        return players[number][key]

    def facts_of(number: int, key: tuple[str | None, str | None]) -> Facts | None:
        if number not in facts:
            known = files[number][0].get(FACTS)
            facts[number] = {} if known is None else dict(zip(keys(number), known, strict=True))
        return facts[number].get(key)

    def copy(text: str, found: dict[str, Any], same: bool, how: str | None) -> HistoryError:
        """A later copy's report: another hand, or a duplicate."""
        if not same:
            return ConflictingHandError(text, **found)
        if how is not None:
            return ConflictingHandError(text, **found, how=how)
        return DuplicateHandError(text, **found)

    # (HANDS: the players and facts of each hand kept, by room and hand id)
    kept_hands: dict[tuple[str | None, str | None], tuple[tuple[str, ...], Facts | None]] = {}
    columns: dict[str, list[Any]] = {name: [] for name in names}
    reports: list[dict[str, Any]] = []
    for number, (file_columns, file_reports) in enumerate(files):
        if HANDS in file_columns:
            kept_keys: set[tuple[str | None, str | None]] = set()
            for site, hand_id, source, line, dealt_in, known, shown in file_columns[HANDS]:
                if hand_id is None:
                    continue
                key = (site, hand_id)
                where, first_source, first_line = first.setdefault(key, (number, source, line))
                if where == number:
                    kept_keys.add(key)
                    kept_hands[key] = (dealt_in, known)
                    continue
                first_dealt, first_facts = kept_hands[key]
                found = {"site": site, "hand_id": shown, "line": line, "source": source}
                reports.append(report(copy(where_read(first_source, first_line), found,
                                           dealt_in == first_dealt, differs(known, first_facts)),
                                      source, keep=True) | {FILE: number})  # fmt: skip
            _take(columns, names, file_columns,
                  [hand_id is None or (site, hand_id) in kept_keys
                   for site, hand_id in identities(file_columns)])  # fmt: skip
            reports += [r | {FILE: number} for r in file_reports]
            continue
        lines = file_columns.get(LINE) or [None] * len(file_columns["site"])
        kept: dict[tuple[str | None, str | None], bool] = {}
        keep: list[bool] = []
        rows = zip(identities(file_columns), file_columns["hand_id"], file_columns["source"],
                   lines, strict=True)  # fmt: skip
        # A hand's rows follow one another: the last row's key and kept[key] (set once).
        last_site, last_id, last_kept = None, None, True
        for (site, hand_id), shown, source, line in rows:
            if hand_id is None:
                keep.append(True)
                continue
            if hand_id == last_id and site == last_site:
                keep.append(last_kept)
                continue
            key = (site, hand_id)
            if key not in kept:
                where, first_source, first_line = first.setdefault(key, (number, source, line))
                kept[key] = where == number
                if not kept[key]:
                    found = {"site": site, "hand_id": shown, "line": line, "source": source}
                    reports.append(report(copy(
                        where_read(first_source, first_line), found,
                        dealt(number, key) == dealt(where, key),
                        differs(facts_of(number, key), facts_of(where, key))), source,
                        keep=True) | {FILE: number})  # fmt: skip
            last_site, last_id, last_kept = site, hand_id, kept[key]
            keep.append(last_kept)
        _take(columns, names, file_columns, keep)
        reports += [r | {FILE: number} for r in file_reports]
    return columns, reports


def identities(file_columns: dict[str, list[Any]]) -> list[tuple[str | None, str | None]]:
    """Each row's hand as copies are told apart: its room and hand id, or where none
    numbered it, its ``KEY`` (``histories._seen.hand_key_of``'s digest)."""
    shown = zip(file_columns["site"], file_columns["hand_id"], strict=True)
    known = file_columns.get(KEY)
    if known is None:
        return list(shown)
    return [key or pair for key, pair in zip(known, shown, strict=True)]


def _take(columns: dict[str, list[Any]], names: tuple[str, ...],
          file_columns: dict[str, list[Any]], keep: list[bool]) -> None:  # fmt: skip
    """Adds a file's rows that ``keep`` keeps to ``columns``."""
    every = all(keep)
    for name in names:
        values = file_columns[name]
        columns[name] += values if every else [
            v for v, k in zip(values, keep, strict=True) if k]  # fmt: skip
