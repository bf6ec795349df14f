"""The source tree's shape: the compiled layer imports no typed module, its hub
includes every topic, no file grows past what a reader can hold, and the C core
carries the package's version.

These read ``src/`` and ``csrc/``, so they run from a checkout; the wheel proofs
(tools/wheel_proof.py), which test an installed wheel without ``src/``, leave them out.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

import studeval

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "src" / "studeval"
#: The compiled layer's own files: the hub, its topic includes, its C declarations.
CYTHON_FILES = sorted(p for pattern in ("*.pyx", "*.pxi", "*.pxd") for p in SOURCE.glob(pattern))


_CYTHON_IMPORT = re.compile(r"^\s*(?:from\s+(\S+)\s+c?import|c?import\s+(\S+))", re.MULTILINE)


def test_the_compiled_layer_imports_only_the_errors() -> None:
    """The compiled layer converts and dispatches: it may raise the package's errors,
    and imports no other studeval module (the card grammar is handed to it)."""
    assert {p.name for p in CYTHON_FILES} >= {"_core.pyx", "_status.pxi", "_engine.pxi"}
    found = {}
    for path in CYTHON_FILES:
        for match in _CYTHON_IMPORT.finditer(path.read_text(encoding="utf-8")):
            module = match.group(1) or match.group(2)
            found.setdefault(module, []).append(path.name)
    assert "studeval.errors" in found  # the reader sees the imports
    ours = {m for m in found if m.startswith("studeval")}
    assert ours == {"studeval.errors"}, ours


def test_the_hub_includes_every_topic() -> None:
    hub = (SOURCE / "_core.pyx").read_text(encoding="utf-8")
    included = set(re.findall(r'^include "(\w+\.pxi)"', hub, re.MULTILINE))
    assert included == {p.name for p in CYTHON_FILES if p.suffix == ".pxi"}


_LIMITS = [
    (ROOT / "src", ("*.py", "*.pyx", "*.pxi"), 500),
    (ROOT / "csrc", ("*.c",), 800),
]


@pytest.mark.parametrize(("folder", "patterns", "limit"), _LIMITS)
def test_no_source_file_is_too_long(folder: Path, patterns: tuple[str, ...], limit: int) -> None:
    """One job a file: a Python or Cython file over 500 lines, or a C file over 800,
    is doing too much and splits along what it holds (generated tables are built
    into the build tree, never kept in csrc/)."""
    files = [p for pattern in patterns for p in folder.rglob(pattern)]
    assert len(files) > 5
    long = {str(p.relative_to(ROOT)): n for p in files
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > limit}  # fmt: skip
    assert not long, long


def _listed_sources() -> list[str]:
    lines = (ROOT / "csrc" / "sources.txt").read_text(encoding="utf-8").splitlines()
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


def test_the_source_list_names_every_c_file_once() -> None:
    """csrc/sources.txt is the one list CMake, the C checks and the fuzz build
    compile: a file left out of it, or named twice, would be built by some and not
    others."""
    listed = _listed_sources()
    on_disk = sorted(str(p.relative_to(ROOT / "csrc")) for p in (ROOT / "csrc").rglob("*.c"))
    assert len(listed) == len(set(listed)), listed
    assert sorted(listed) == on_disk
    assert len({Path(name).stem for name in listed}) == len(listed)  # object names stay apart


# Each folder of csrc/ includes only its own headers and those of the layers below it.
_LAYERS = {
    "base": {"base"},
    "rank": {"base", "rank"},
    "equity": {"base", "rank", "equity"},
    "query": {"base", "rank", "equity", "query"},
    "solve": {"base", "rank", "equity", "solve"},
    "engine": {"base", "rank", "engine"},
    "history": {"base", "rank", "engine", "history"},
}


def test_the_c_layers_include_downwards_only() -> None:
    seen = 0
    for layer, allowed in _LAYERS.items():
        for path in (ROOT / "csrc" / layer).glob("*.[ch]"):
            for folder in re.findall(r'^#include "(\w+)/', path.read_text(encoding="utf-8"), re.M):
                seen += 1
                assert folder in allowed, f"{path.relative_to(ROOT)} includes {folder}/"
    assert seen > 10  # the includes were found
    assert set(_LAYERS) == {p.name for p in (ROOT / "csrc").iterdir()
                            if p.is_dir() and p.name != "include"}  # fmt: skip


def test_the_core_version_is_the_package_version() -> None:
    from studeval import _core

    header = (ROOT / "csrc" / "include" / "studeval.h").read_text(encoding="utf-8")
    parts = [re.search(rf"#define SE_VERSION_{p} (\d+)", header).group(1)  # type: ignore[union-attr]
             for p in ("MAJOR", "MINOR", "PATCH")]  # fmt: skip
    assert _core.CORE_VERSION == studeval.__version__ == ".".join(parts)


def test_the_architecture_names_every_file_with_its_true_length() -> None:
    """docs/architecture.md's tree: every C file and Python module named (a header as
    its source's ", .h"), and every count written the file's lines
    (``python tools/architecture_counts.py --write`` rewrites them)."""
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import architecture_counts
    finally:
        sys.path.pop(0)
    text = architecture_counts.DOC.read_text(encoding="utf-8")
    entries = architecture_counts.counts(text)
    assert len(entries) > 80  # the tree was read
    assert [(name, written, true) for _, name, written, true in entries if written != true] == []
    listed = architecture_counts.named(text)
    assert {
        "csrc/base/se_threads.h",
        "src/studeval/cli/db_stats.py",
        "src/studeval/histories/rooms/merge.py",
    } <= listed  # lists and pairs were read
    files = [*(ROOT / "csrc").rglob("*.[ch]"), *(ROOT / "src" / "studeval").rglob("*.py"),
             *(ROOT / "src" / "studeval").glob("*.pxi")]  # fmt: skip
    unnamed = [str(f.relative_to(ROOT)) for f in files
               if "_bench" not in f.parts and str(f.relative_to(ROOT)) not in listed]  # fmt: skip
    assert unnamed == []
