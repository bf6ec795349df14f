"""Tests that need git or a C compiler skip, with the reason, on a machine without
them, and fail instead where STUDEVAL_REQUIRE_TOOLS is set (as CI sets it)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import find_compiler


def _without_tools(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("CC", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))  # an empty folder: no cc, gcc, clang, git


def test_no_compiler_skips_with_the_reason(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    _without_tools(monkeypatch, tmp_path)
    monkeypatch.delenv("STUDEVAL_REQUIRE_TOOLS", raising=False)
    with pytest.raises(pytest.skip.Exception, match="no C compiler found"):
        find_compiler()


def test_no_compiler_fails_where_tools_are_required(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    _without_tools(monkeypatch, tmp_path)
    monkeypatch.setenv("STUDEVAL_REQUIRE_TOOLS", "1")
    with pytest.raises(pytest.fail.Exception, match="install a C99 compiler"):
        find_compiler()


def test_a_compiler_is_found_when_present() -> None:
    assert find_compiler()
