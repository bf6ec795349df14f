"""Where each record of a ``.phhs`` text starts and ends, found without reading its
TOML: where the text is no TOML as a whole, each record is read on its own, so that
one record that cannot be read refuses only itself. A record starts at a table
``[N]`` (a number, quoted or not) on a line of its own; any other table (``[1.x]``,
``[[x]]``) is part of the record before it.

>>> text = "# hands\\n[1]\\nvariant = 'FR'\\n\\n[2]\\nvariant = 'F7S'\\n"
>>> [(name, text[start:end].splitlines()[0], line) for name, start, end, line in tables(text)]
[('1', '[1]', 2), ('2', '[2]', 5)]
>>> tables("variant = 'FR'\\n") is None  # one record, no tables
True
"""

from __future__ import annotations

import re

__all__ = ["tables"]

#: A record's table on a line of its own: ``[1]``, ``["2"]``, ``['3']`` (CRLF too).
_TABLE = re.compile(r"^[ \t]*\[[ \t]*([\"']?)([0-9]+)\1[ \t]*\][ \t]*(?:#[^\n]*)?\r?$",
                    re.MULTILINE)  # fmt: skip
#: TOML's comments and blank lines: all a ``.phhs`` text may hold before its first table.
_NOTHING = re.compile(r"(?:[ \t]*(?:#[^\n]*)?\r?\n?)*")


def tables(text: str) -> list[tuple[str, int, int, int]] | None:
    """Each record of a ``.phhs`` text: its table's name, where it starts and ends,
    and the line it starts on; ``None`` for a text that is no list of tables."""
    found = list(_TABLE.finditer(text))
    if not found or not _NOTHING.fullmatch(text, 0, found[0].start()):
        return None
    ends = [table.start() for table in found[1:]] + [len(text)]
    out, line = [], 1 + text.count("\n", 0, found[0].start())
    for table, end in zip(found, ends, strict=True):
        out.append((table.group(2), table.start(), end, line))
        line += text.count("\n", table.start(), end)
    return out
