"""docs/index.md's pointer to the command line page names every command."""

from __future__ import annotations

import re
from pathlib import Path

from studeval.cli import COMMANDS


def test_the_home_page_names_every_command_of_the_command_line_page() -> None:
    page = (Path(__file__).resolve().parents[1] / "docs" / "index.md").read_text("utf-8")
    sentence = page[page.index("the [command line](cli.md) page covers") :].split(";")[0]
    named = set(re.findall(r"`([a-z-]+)`", sentence))
    names = {command.__name__.rsplit(".", 1)[1].replace("_", "-") for command in COMMANDS}
    assert names <= named, sorted(names - named)
