"""The layers import one way: no module imports the package ``__init__``, no cycles.

Read from the source with ``ast`` (every import, also those inside functions), so
that a lazy import cannot hide an upward or circular dependency.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import studeval

PACKAGE = Path(studeval.__file__).parent


def _modules() -> dict[str, Path]:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path
    return found


MODULES = _modules()


def _imports(path: Path) -> list[tuple[str, list[str]]]:
    """(module, names) for every import statement in a file."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out += [(alias.name, []) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.append((node.module, [alias.name for alias in node.names]))
    return out


def _dependencies(name: str) -> set[str]:
    deps = set()
    for module, names in _imports(MODULES[name]):
        if not module.startswith("studeval"):
            continue
        if module == "studeval":
            deps |= {f"studeval.{n}" for n in names if f"studeval.{n}" in MODULES}
        elif module in MODULES:
            deps.add(module)
    deps.discard(name)
    return deps


def test_the_modules_were_found() -> None:
    assert {"studeval.cli", "studeval.batch", "studeval._bench.run"} <= set(MODULES)
    assert _dependencies("studeval.cli")  # the parser sees imports


def test_no_module_imports_the_package_init() -> None:
    upward = []
    for name, path in MODULES.items():
        if name == "studeval":
            continue
        for module, names in _imports(path):
            if module == "studeval" and (
                not names or any(f"studeval.{n}" not in MODULES and n != "_core" for n in names)
            ):
                upward.append(f"{name}: from studeval import {', '.join(names) or '(package)'}")
    assert not upward, "\n".join(upward)


def _find_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every cycle a depth-first walk meets, each as the path that closes it."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    cycles: list[list[str]] = []

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for dep in sorted(graph.get(node, ())):
            if state.get(dep) == 1:
                cycles.append([*path[path.index(dep) :], dep])
            elif dep not in state:
                visit(dep, [*path, dep])
        state[node] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name, [name])
    return cycles


def test_the_cycle_finder_finds_cycles() -> None:
    assert _find_cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == [["a", "b", "c", "a"]]
    assert _find_cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycle() -> None:
    graph = {name: _dependencies(name) for name in MODULES if name != "studeval"}
    assert sum(map(len, graph.values())) > 40  # the graph really has the imports
    cycles = _find_cycles(graph)
    assert not cycles, cycles


def test_import_studeval_loads_no_numpy_and_no_cli() -> None:
    code = (
        "import sys, studeval; "
        "names = ('numpy', 'argparse', 'tqdm', 'studeval.cli'); "
        "print(sorted(m for m in names if m in sys.modules))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert result.stdout.strip() == "[]"


def test_one_card_text_table_and_one_random_hands() -> None:
    from studeval import _cardtext, bench, cards, parsing, stream

    assert cards.CODE_OF_TEXT is _cardtext.CODE_OF_TEXT
    assert bench.random_hands is stream.random_hands is parsing.random_hands
    defined = [
        name
        for name, path in MODULES.items()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.FunctionDef) and node.name == "random_hands"
    ]
    assert defined == ["studeval.parsing"]
