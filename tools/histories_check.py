"""Read a tree of card-room hand histories and count, per room, the hands replayed to
the recorded amounts and those refused, by reason.

    python tools/histories_check.py DIR [DIR ...]

Made for the regression files of fpdb (``regression-test-files/*/*/Stud/`` of
github.com/jejellyroll-fr/fpdb-3), which we read but do not ship. Files of other
games and fpdb's own answer files (``.hp``, ``.hands``, ``.gt``) are left out.
"""

from __future__ import annotations

import argparse
import collections
import re
from pathlib import Path

from studeval.histories import History, HistoryError, find_site, read
from studeval.histories._text import decode

#: fpdb's expected-result files beside each history.
ANSWERS = re.compile(r"\.(hp|hands|gt)(\.\w+)?$")


def _reason(err: HistoryError) -> str:
    """The kind of refusal, without the names and amounts that vary."""
    return err.kind


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dirs", nargs="+", type=Path)
    args = parser.parse_args()
    read_ok: collections.Counter[str] = collections.Counter()
    refused: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    files: collections.Counter[str] = collections.Counter()
    unknown = []
    for folder in args.dirs:
        for path in sorted(p for p in folder.rglob("*") if p.is_file()):
            if ANSWERS.search(path.name):
                continue
            site = find_site(decode(path.read_bytes()))
            if site is None:
                unknown.append(path)
                continue
            files[site] += 1
            for found in read(path, errors="collect"):
                if isinstance(found, History):
                    read_ok[found.site] += 1
                else:
                    refused[found.site or site][_reason(found)] += 1
    for site in sorted(files):
        total = read_ok[site] + sum(refused[site].values())
        print(f"{site}: {files[site]} files, {total} hands, {read_ok[site]} replayed "
              f"to the recorded amounts, {sum(refused[site].values())} refused")  # fmt: skip
        for reason, count in refused[site].most_common():
            print(f"    {count:4}  {reason}")
    for path in unknown:
        print(f"not read (no room recognised): {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
