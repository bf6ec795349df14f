"""Griffe extension used by the docs build: compiled docstrings and doctest blocks.

Two things stand between studeval's docstrings and a clean API reference page:

1. Static analysis sees the compiled extension ``studeval._core`` only through its
   type stub ``_core.pyi``, which carries the signatures but, by design, no docstrings:
   those are written once, in ``_core.pyx``, and compiled into the module. For every
   module griffe loaded from a ``.pyi`` file, this imports the module and copies each
   missing docstring from the runtime object, so the page shows the stub's types with
   the compiled docstrings and neither text is written twice.
2. The docstrings are prose plus doctest examples (``>>>`` lines and their output), as
   pytest's doctest run wants them. Markdown would render a ``>>>`` line as a nested
   quote and read ``[a][b]`` in an output line as a link reference. Each doctest block
   (from its first ``>>>`` line to the next blank line) is fenced as ``pycon`` code.

Used by ``mkdocs.yml`` (``extensions: [tools/griffe_runtime_docs.py:RuntimeDocstrings]``);
the package must be importable (installed) when the docs are built.
"""

from __future__ import annotations

import importlib
import inspect
import re
from typing import Any

import griffe

FENCES = ("```", "~~~")

# A Sphinx cross-reference role (":func:`high_ranks`", ":class:`~studeval.Hand`"),
# which `help()` readers know but Markdown prints raw.
_ROLE = re.compile(r":(?:py:)?(?:func|class|meth|data|attr|mod|exc|obj|const):`~?([^`]+)`")


class RuntimeDocstrings(griffe.Extension):
    """Fill stub-only docstrings from the imported module; fence doctest blocks."""

    def on_package(self, *, pkg: griffe.Module, loader: griffe.GriffeLoader, **kwargs: Any) -> None:
        for module in _modules(pkg):
            if str(module.filepath).endswith(".pyi"):
                _fill(module, importlib.import_module(module.path))
        for obj in _objects(pkg):
            if obj.docstring is not None:
                obj.docstring.value = fence_doctests(obj.docstring.value)


def _modules(module: griffe.Module) -> list[griffe.Module]:
    """The module and its submodules, depth first (aliases are skipped)."""
    found = [module]
    for member in module.members.values():
        if not member.is_alias and member.is_module:
            found.extend(_modules(member))  # type: ignore[arg-type]
    return found


def _objects(obj: griffe.Object) -> list[griffe.Object]:
    """The object and every member defined under it (aliases are skipped)."""
    found = [obj]
    for member in obj.members.values():
        if not member.is_alias:
            found.extend(_objects(member))  # type: ignore[arg-type]
    return found


def _fill(obj: griffe.Object, runtime: object) -> None:
    """Copy docstrings from ``runtime`` onto ``obj`` and its functions and classes."""
    if obj.docstring is None:
        doc = inspect.getdoc(runtime)
        # A value such as an int constant would only give its type's docstring.
        if doc and (obj.is_module or obj.is_class or obj.is_function):
            obj.docstring = griffe.Docstring(doc, parent=obj)
    for name, member in obj.members.items():
        if member.is_alias or not (member.is_class or member.is_function):
            continue
        value = getattr(runtime, name, None)
        if value is not None:
            _fill(member, value)  # type: ignore[arg-type]


def plain_roles(line: str) -> str:
    """Turn Sphinx roles into inline code: ``:func:`x``` becomes ```x```.

    >>> plain_roles("See :func:`high_ranks` and :class:`~studeval.Hand`.")
    'See `high_ranks` and `studeval.Hand`.'
    """
    return _ROLE.sub(r"`\1`", line)


def fence_doctests(text: str) -> str:
    r"""Wrap each doctest block of ``text`` in a ``pycon`` code fence; plain roles in prose.

    A block runs from a ``>>>`` line to the next blank line, as doctest reads it;
    blocks already inside a fence are left alone. Outside code, Sphinx roles become
    inline code (:func:`plain_roles`).

    >>> fence_doctests("Sum:\n>>> 1 + 1\n2\n\nDone.").splitlines()
    ['Sum:', '```pycon', '>>> 1 + 1', '2', '```', '', 'Done.']
    """
    lines = text.splitlines()
    out: list[str] = []
    in_fence = False
    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.lstrip()
        if stripped.startswith(FENCES):
            in_fence = not in_fence
        elif not in_fence and stripped.startswith(">>>"):
            indent = line[: len(line) - len(stripped)]
            block: list[str] = []
            while i < len(lines) and lines[i].strip() and lines[i].startswith(indent):
                block.append(lines[i])
                i += 1
            out.extend([indent + "```pycon", *block, indent + "```"])
            continue
        out.append(line if in_fence else plain_roles(line))
        i += 1
    return "\n".join(out)
