"""What users read cites only what they can find, and says only what is true.

Users never see the project's internal specification, seed texts or research notes,
so neither the pages, nor the docstrings, nor the command's help may point at them;
the install page lists every extra; the README makes no claim a peer disproves.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from helpers import INTERNAL_WORDS

import studeval

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib  # in the test extra for Python 3.10

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = Path(studeval.__file__).parent
PAGES = [*sorted((ROOT / "docs").glob("*.md")), ROOT / "README.md"]
SOURCE = ROOT / "src" / "studeval"
# The installed modules, and the compiled layer's source where the checkout has it.
SOURCES = sorted({*PACKAGE.rglob("*.py"), *SOURCE.glob("*.pyx"), *SOURCE.glob("*.pxi")})
# Tests cite public rulebooks too; helpers.py holds the words themselves.
TESTS = sorted(p for p in (ROOT / "tests").rglob("*") if p.suffix in (".py", ".c", ".tsv", ".csv")
               and p.name != "helpers.py")  # fmt: skip


@pytest.mark.parametrize("path", PAGES + SOURCES + TESTS, ids=lambda p: p.name)
def test_no_internal_references(path: Path) -> None:
    found = [
        f"{path.name}:{number}: {line.strip()}"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if INTERNAL_WORDS.search(line)
    ]
    assert not found, "\n".join(found)


def test_pages_were_found() -> None:
    names = {p.name for p in PAGES}
    assert {"README.md", "rules.md", "install.md", "cli.md", "api.md"} <= names
    assert len(SOURCES) > 30 and len(TESTS) > 30
    assert any(p.name == "__init__.py" and p.parent.name == "cli" for p in SOURCES)


def test_install_page_lists_every_extra() -> None:
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]
    page = (ROOT / "docs" / "install.md").read_text()
    for extra, requirements in extras.items():
        row = next((line for line in page.splitlines() if f"`studeval[{extra}]`" in line), None)
        assert row is not None, f"docs/install.md has no row for the {extra!r} extra"
        for requirement in requirements:
            name = re.split(r"[\[<>=;~! ]", requirement, maxsplit=1)[0]
            assert name.lower() in row.lower(), f"the {extra!r} row does not name {name}"


def test_readme_claims_hold() -> None:
    readme = (ROOT / "README.md").read_text()
    assert "none has a batch API" not in readme  # poker-equity has score_batch
    assert "score_batch" in readme
    assert "incl. musl" not in readme  # musllinux aarch64 is not built
    assert "`pip install studeval` installs a prebuilt wheel" not in readme
    assert "parse_hands" in readme


def test_the_readings_are_numbered_in_order() -> None:
    page = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    readings = page[page.index("## Readings we had to decide") :]
    numbers = [int(n) for n in re.findall(r"^(\d+)\. \*\*", readings, re.MULTILINE)]
    assert numbers == list(range(1, len(numbers) + 1)), numbers


def test_every_command_has_a_section_on_the_command_line_page() -> None:
    from studeval.cli import COMMAND_NAMES

    page = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    names = list(COMMAND_NAMES)
    assert len(names) == 13
    missing = [name for name in names if f"## `studeval {name}`" not in page]
    assert not missing, missing
    assert "targets" not in page.split("## `studeval bench`")[1].split("\n## ")[0].replace(
        "the project's own targets live", ""
    )


def test_an_extra_is_installed_from_a_checkout_where_users_read_of_it() -> None:
    """Until studeval is on PyPI, `pip install "studeval[dask]"` finds nothing: every
    page that names an extra also gives the command that works from a checkout."""
    for path in PAGES:
        text = path.read_text(encoding="utf-8")
        for extra in re.findall(r'pip install "studeval\[(\w+)\]"', text):
            assert f'pip install ".[{extra}]"' in text, (path.name, extra)


def test_the_cluster_example_guards_its_entry_point() -> None:
    """A local cluster's workers import the script: without the guard each starts one."""
    page = (ROOT / "docs" / "dask.md").read_text(encoding="utf-8")
    example = page[page.index("from dask.distributed import Client") :].split("```")[0]
    assert 'if __name__ == "__main__":' in example
    assert "InvalidLineError" not in page
