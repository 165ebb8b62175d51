"""No import circle inside strata_pipeline: imports go one way (apps -> query layer -> stages).

Every import statement counts, wherever it stands: at module level, inside a function, or under
`if TYPE_CHECKING:`. A lazy or type-only import hides a circle from Python, not from the design;
shared types belong in a small module both sides import (retrieval/candidate.py, evaluation/results.py).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from strata_pipeline.settings import PROJECT_ROOT

PACKAGE = "strata_pipeline"


def module_files(root: Path, package: str) -> dict[str, Path]:
    """Dotted module name -> file, for every module of `package` under `root`."""
    modules = {}
    for file in sorted((root / package).rglob("*.py")):
        parts = list(file.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = file
    return modules


def imported_modules(module: str, file: Path, known: set[str]) -> set[str]:
    """The modules of `known` that `module` imports anywhere in its source."""
    is_package = file.name == "__init__.py"
    found = set()
    for node in ast.walk(ast.parse(file.read_text(encoding="utf-8"), str(file))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: resolve against this module's package
                anchor = module.split(".")[: len(module.split(".")) - node.level + (1 if is_package else 0)]
                base = ".".join([*anchor, *([base] if base else [])])
            found.add(base)
            found |= {f"{base}.{alias.name}" for alias in node.names}  # `from package import module`
    return {name for name in found if name in known and name != module}


def import_graph(root: Path, package: str) -> dict[str, set[str]]:
    modules = module_files(root, package)
    return {name: imported_modules(name, file, set(modules)) for name, file in modules.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module, or a module importing itself (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_strata_pipeline_has_no_import_cycle() -> None:
    graph = import_graph(PROJECT_ROOT, PACKAGE)
    assert len(graph) > 50  # the walk found the package
    found = cycles(graph)
    assert not found, "import cycles: " + "; ".join(" <-> ".join(component) for component in found)


@pytest.mark.parametrize("lazy", [False, True])
def test_the_check_finds_a_circle_even_through_a_lazy_import(tmp_path: Path, lazy: bool) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from pkg.b import thing\n")
    lazy_back = "def f():\n    from pkg import a\n"
    typed_back = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from . import a\n"
    back = lazy_back if lazy else typed_back
    (package / "b.py").write_text("thing = 1\n" + back)
    (package / "c.py").write_text("from pkg.a import thing\n")  # imports into the circle, not part of it
    assert cycles(import_graph(tmp_path, "pkg")) == [["pkg.a", "pkg.b"]]
