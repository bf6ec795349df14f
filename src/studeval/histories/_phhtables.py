"""Where each record of a ``.phhs`` text starts and ends, found before any TOML is
read, so that one record that cannot be read (its TOML too) refuses only itself.

>>> text = "# hands\\n[1]\\nvariant = 'FR'\\n\\n[2]\\nvariant = 'F7S'\\n"
>>> [(name, text[start:end].splitlines()[0], line) for name, start, end, line in tables(text)]
[('1', '[1]', 2), ('2', '[2]', 5)]
>>> tables("variant = 'FR'\\n") is None  # one record, no tables
True
"""

from __future__ import annotations

import re

__all__ = ["tables"]

#: A table's header on a line of its own: ``[1]``, ``[2]``...
_TABLE = re.compile(r"^[ \t]*\[[ \t]*([^\[\]\n]*?)[ \t]*\][ \t]*(?:#.*)?$", re.MULTILINE)
#: TOML's comments and blank lines: all a ``.phhs`` text may hold before its first table.
_NOTHING = re.compile(r"(?:[ \t]*(?:#[^\n]*)?\n?)*")


def tables(text: str) -> list[tuple[str, int, int, int]] | None:
    """Each table of a ``.phhs`` text: its name, where it starts and ends, and the
    line it starts on; ``None`` for a text that is no list of tables (one record)."""
    found = list(_TABLE.finditer(text))
    if not found or not _NOTHING.fullmatch(text, 0, found[0].start()):
        return None
    ends = [table.start() for table in found[1:]] + [len(text)]
    out, line = [], 1 + text.count("\n", 0, found[0].start())
    for table, end in zip(found, ends, strict=True):
        out.append((table.group(1), table.start(), end, line))
        line += text.count("\n", table.start(), end)
    return out
