"""Run every module's doctests and the README's examples against the installed package."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
from pathlib import Path

import pytest

import studeval

README = Path(__file__).resolve().parent.parent / "README.md"
MODULES = sorted(
    {"studeval", "studeval._core"}
    | {
        info.name
        for info in pkgutil.walk_packages(studeval.__path__, prefix="studeval.")
        if info.name != "studeval.__main__"
    }
)
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


@pytest.mark.parametrize("name", MODULES)
def test_module_doctests(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=FLAGS, verbose=False)
    if name != "studeval._version":  # a version string, nothing to show
        assert result.attempted > 0, f"{name} has no examples to run"
    assert result.failed == 0, f"{result.failed} doctest(s) failed in {name}"


def test_every_public_function_has_an_example() -> None:
    missing = [
        name
        for name in studeval.__all__
        if callable(obj := getattr(studeval, name))
        and not isinstance(obj, type)
        and ">>>" not in (obj.__doc__ or "")
    ]
    assert not missing, f"public functions without a doctest example: {missing}"


@pytest.mark.parametrize(
    "name",
    [
        "engine.md",
        "analysis.md",
        "tables.md",
        "equity.md",
        "index.md",
        "ranges.md",
        "histories.md",
        "query.md",
        "solve.md",
        "database.md",
        "stats.md",
    ],
)
def test_page_examples(name: str) -> None:
    page = README.parent / "docs" / name
    result = doctest.testfile(str(page), module_relative=False, optionflags=FLAGS)
    assert result.attempted > 0 and result.failed == 0


def test_readme_examples() -> None:
    result = doctest.testfile(str(README), module_relative=False, optionflags=FLAGS)
    assert result.attempted > 0, "the README has no examples to run"
    assert result.failed == 0
