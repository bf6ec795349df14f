"""docs/index.md's pointer to the command line page names every command."""

from __future__ import annotations

import re
from pathlib import Path

from studeval.cli import COMMAND_NAMES


def test_the_home_page_names_every_command_of_the_command_line_page() -> None:
    page = (Path(__file__).resolve().parents[1] / "docs" / "index.md").read_text("utf-8")
    sentence = page[page.index("the [command line](cli.md) page covers") :].split(";")[0]
    named = set(re.findall(r"`([a-z-]+)`", sentence))
    names = set(COMMAND_NAMES)
    assert names <= named, sorted(names - named)
