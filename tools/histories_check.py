"""Read a tree of card-room hand histories and count, per room, the hands replayed to
the recorded amounts and those refused, by reason.

    python tools/histories_check.py DIR [DIR ...]

Made for the regression files of fpdb (``regression-test-files/*/*/Stud/`` of
github.com/jejellyroll-fr/fpdb-3), which we read but do not ship. Files of other
games and fpdb's own answer files (``.hp``, ``.hands``, ``.gt``) are left out. The
files are read as the commands read them (``studeval.histories._sources.load``): a
hand counted once however many files hold it (its copies counted apart).
"""

from __future__ import annotations

import argparse
import collections
import re
from pathlib import Path

from studeval.histories._files import files_in
from studeval.histories._sources import SeenHands, load

#: fpdb's expected-result files beside each history.
ANSWERS = re.compile(r"\.(hp|hands|gt)(\.\w+)?$")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dirs", nargs="+", type=Path)
    args = parser.parse_args()
    read_ok: collections.Counter[str] = collections.Counter()
    refused: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    files: dict[str, set[str]] = collections.defaultdict(set)
    unknown: list[str] = []
    copies: collections.Counter[str] = collections.Counter()
    names = [name for name in files_in(args.dirs) if not ANSWERS.search(Path(name).name)]
    for found in load(names, SeenHands()):
        source = found.source or found.where
        if found.history is not None:
            read_ok[found.history.site] += 1
            files[found.history.site].add(source)
        elif found.error is not None and found.error.status == "not a history":
            unknown.append(source)
        elif found.error is not None and found.error.status == "duplicate":
            copies[found.error.site or "(no room)"] += 1  # read once, from its first file
        elif found.error is not None:
            site = found.error.site or "(no room)"
            refused[site][found.error.kind] += 1  # the reason without names and amounts
            files[site].add(source)
    for site in sorted(files):
        total = read_ok[site] + sum(refused[site].values())
        again = f", {copies[site]} copies of a hand read before" if copies[site] else ""
        print(f"{site}: {len(files[site])} files, {total} hands, {read_ok[site]} replayed "
              f"to the recorded amounts, {sum(refused[site].values())} refused{again}")  # fmt: skip
        for reason, count in refused[site].most_common():
            print(f"    {count:4}  {reason}")
    for path in unknown:
        print(f"not read (no room recognised): {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
