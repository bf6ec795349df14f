"""The package's lazy attributes: the submodules the docs name after a bare ``import studeval``."""

from __future__ import annotations

import subprocess
import sys

import pytest

import studeval


def _run(code: str) -> str:
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    return result.stdout.strip().splitlines()[-1]  # after any rebuild log of a dev install


@pytest.mark.parametrize(
    ("name", "attribute", "module"),
    [("phh", "dumps", "histories.phh"), ("histories", "read", "histories")],
)  # fmt: skip
def test_submodule_reachable_after_a_bare_import(name: str, attribute: str, module: str) -> None:
    """``studeval.phh`` is the PHH module that lives beside the rooms' readers."""
    code = (
        "import sys, studeval\n"
        f"before = 'studeval.{name}' in sys.modules\n"
        f"module = studeval.{name}\n"
        f"print(before, module.__name__, callable(module.{attribute}))"
    )
    assert _run(code) == f"False studeval.{module} True"


def test_the_lazy_submodules_are_the_real_modules() -> None:
    import studeval.histories
    import studeval.phh

    assert studeval.__getattr__("phh") is studeval.phh
    assert studeval.__getattr__("histories") is studeval.histories


def test_dir_lists_the_lazy_names_and_all_is_unchanged() -> None:
    names = dir(studeval)
    assert {"phh", "histories", "parse_hands", "equity", "high_rank"} <= set(names)
    assert names == sorted(names)
    # A star import brings functions and classes, never whole submodules.
    assert "phh" not in studeval.__all__ and "histories" not in studeval.__all__
    assert set(studeval.__all__) <= set(names)


def test_an_unknown_attribute_is_still_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        studeval.nope  # noqa: B018
    # A private module name is not made an attribute by the lazy lookup.
    with pytest.raises(AttributeError):
        studeval.__getattr__("_grammar")
