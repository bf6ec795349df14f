"""The line counts of docs/architecture.md's tree, checked against the files.

    python tools/architecture_counts.py           # lists the counts that are wrong
    python tools/architecture_counts.py --write   # writes the true counts in place

The tree names a file by its path under the folders above it (two spaces of
indent a folder); ``name.c, .h`` counts both files. A line that names several
files, or no count, is left alone. tests/test_source_tree.py runs the check.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "architecture.md"

# An entry: its indent, its name (a path, "x.c, .h" for a pair), and its count.
_ENTRY = re.compile(r"^(?P<indent> *)(?P<name>\S+(?:, \.\w+)?)(?P<gap> +)(?P<count>\d+)(?=   )")
_FOLDER = re.compile(r"^(?P<indent> *)(?P<name>[\w./]+/)(?: |$)")


def _lines(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def _files(folder: str, name: str) -> list[Path]:
    if ", ." in name:
        first, extension = name.split(", ")
        return [ROOT / folder / first, ROOT / folder / (first.rsplit(".", 1)[0] + extension)]
    return [ROOT / folder / name]


def _tree(text: str) -> Iterator[tuple[int, str, str]]:
    """Each line of the tree that names files: its number in ``text``, the line, and
    the folder it is in (the folders' own lines and the descriptions' next lines left
    out)."""
    folders: list[tuple[int, str]] = []  # (indent, path) of the folders open
    inside = False
    for number, line in enumerate(text.splitlines()):
        if line.startswith("```"):
            inside, folders = line == "```text" and not inside, []
            continue
        indent = len(line) - len(line.lstrip())
        if not inside or not line.strip() or indent >= 30:
            continue  # a description's next line
        while folders and folders[-1][0] >= indent:
            folders.pop()
        parent = folders[-1][1] if folders else ""
        folder = _FOLDER.match(line)
        if folder is not None:
            folders.append((indent, parent + folder["name"]))
        else:
            yield number, line, parent


def counts(text: str) -> list[tuple[int, str, int, int]]:
    """Each counted entry of the tree: its line in ``text``, its files (as written),
    the count written and the true count (-1 where a file is missing)."""
    found = []
    for number, line, parent in _tree(text):
        entry = _ENTRY.match(line)
        if entry is None:
            continue
        paths = _files(parent, entry["name"])
        true = sum(_lines(p) for p in paths) if all(p.is_file() for p in paths) else -1
        found.append((number, parent + entry["name"], int(entry["count"]), true))
    return found


def named(text: str) -> set[str]:
    """Every file the tree names, as a path from the repository's root: entries with a
    count or without, ``x.c, .h`` pairs, and lists of a folder's files over several
    lines (a parenthesis in a list is a remark)."""
    found: set[str] = set()
    lists: list[tuple[str, str]] = []  # (folder, the names as written, lines joined)
    continuing = False
    for _, line, parent in _tree(text):
        names = re.split(r" {2,}", line.strip())[0]
        if continuing:
            lists[-1] = (lists[-1][0], f"{lists[-1][1]} {names}")
        else:
            lists.append((parent, names))
        written = lists[-1][1]
        continuing = written.endswith(",") or written.count("(") > written.count(")")
    for folder, written in lists:
        tokens = [t.strip() for t in re.sub(r"\([^)]*\)", "", written).split(",") if t.strip()]
        first = folder + tokens[0]
        found.add(first)
        for token in tokens[1:]:
            if token.startswith("."):  # "x.c, .h": the header beside it
                found.add(first.rsplit(".", 1)[0] + token)
            else:  # another file of the first one's folder
                found.add(first.rsplit("/", 1)[0] + "/" + token)
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", action="store_true", help="write the true counts")
    args = parser.parse_args(argv)
    text = DOC.read_text(encoding="utf-8")
    wrong = [(n, name, written, true) for n, name, written, true in counts(text)
             if written != true]  # fmt: skip
    for _, name, written, true in wrong:
        print(f"{name}: {written} written, {'missing' if true < 0 else true} lines")
    if args.write and wrong:
        lines = text.splitlines(keepends=True)
        for number, _, _, true in wrong:
            entry = _ENTRY.match(lines[number])
            if entry is None or true < 0:
                continue
            width = len(entry["gap"]) + len(entry["count"])
            lines[number] = (entry["indent"] + entry["name"] + str(true).rjust(width)
                             + lines[number][entry.end():])  # fmt: skip
        DOC.write_text("".join(lines), encoding="utf-8")
    return 1 if wrong and not args.write else 0


if __name__ == "__main__":
    sys.exit(main())
