"""Measure a package's structure: import cycles between its modules (module- and function-level
imports, ``TYPE_CHECKING`` included), module sizes and function sizes (issue 33).

``python packages/oasis-sim-k8s/scripts/structure.py [--max-module 500] [--max-function 80]``
prints the cycles and every module or function over its limit and exits 1 when any exists.
``tests/test_structure.py`` runs the same measures, so the limits are checked by a test.
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

SOURCES = Path(__file__).resolve().parents[1] / "src" / "oasis_sim_k8s"
MAX_MODULE_LINES = 500
MAX_FUNCTION_LINES = 80


@dataclass
class Structure:
    """What a package's sources measure: its import graph, module and function sizes."""

    imports: dict[str, set[str]] = field(default_factory=dict)
    module_lines: dict[str, int] = field(default_factory=dict)
    function_lines: dict[str, int] = field(default_factory=dict)
    public_definitions: dict[str, bool] = field(default_factory=dict)


def module_name(root: Path, path: Path) -> str:
    """The dotted name of ``path`` under the package directory ``root``."""
    parts = [root.name, *path.relative_to(root).with_suffix("").parts]
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _resolve(current: str, is_package: bool, node: ast.ImportFrom) -> str:
    """The absolute module an ``ImportFrom`` names (relative levels resolved)."""
    if node.level == 0:
        return node.module or ""
    base = current.split(".")
    if not is_package:
        base = base[:-1]
    if node.level > 1:
        base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


def _imported(current: str, is_package: bool, tree: ast.AST, modules: set[str]) -> Iterator[str]:
    """The package's own modules that ``tree`` imports, at any nesting level."""
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            target = _resolve(current, is_package, node)
            # `from pkg import mod` imports the submodule pkg.mod when there is one
            names = [
                f"{target}.{alias.name}" if f"{target}.{alias.name}" in modules else target
                for alias in node.names
            ]
        for name in names:
            while name and name not in modules:
                name = name.rpartition(".")[0]
            if name and name != current:
                yield name


def _functions(prefix: str, tree: ast.AST) -> Iterator[tuple[str, int, bool]]:
    """``(qualified name, lines, has docstring)`` of every function, nested ones included."""
    stack: list[tuple[str, ast.AST]] = [(prefix, tree)]
    while stack:
        scope, node = stack.pop()
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                name = f"{scope}.{child.name}"
                if not isinstance(child, ast.ClassDef):
                    start = min([child.lineno] + [d.lineno for d in child.decorator_list])
                    yield name, (child.end_lineno or child.lineno) - start + 1, False
                stack.append((name, child))


def _public(prefix: str, tree: ast.Module) -> Iterator[tuple[str, bool]]:
    """Public top-level definitions and public methods of public classes, with docstring or not."""
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            if node.name.startswith("_"):
                continue
            yield f"{prefix}.{node.name}", ast.get_docstring(node) is not None
            if isinstance(node, ast.ClassDef):
                for item in node.body:
                    if isinstance(
                        item, (ast.FunctionDef, ast.AsyncFunctionDef)
                    ) and not item.name.startswith("_"):
                        yield (
                            f"{prefix}.{node.name}.{item.name}",
                            ast.get_docstring(item) is not None,
                        )


def measure(root: Path = SOURCES) -> Structure:
    """Read every module under ``root`` (a package directory)."""
    paths = sorted(root.rglob("*.py"))
    modules = {module_name(root, path) for path in paths}
    result = Structure()
    for path in paths:
        name = module_name(root, path)
        text = path.read_text(encoding="utf-8")
        tree = ast.parse(text, filename=str(path))
        result.module_lines[name] = len(text.splitlines())
        is_package = path.name == "__init__.py"
        result.imports[name] = set(_imported(name, is_package, tree, modules))
        for function, lines, _ in _functions(name, tree):
            result.function_lines[function] = lines
        result.public_definitions.update(_public(name, tree))
    return result


def cycles(imports: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(imports.get(node, ())):
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

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10 * len(imports) + 100))
    for node in sorted(imports):
        if node not in index:
            visit(node)
    return sorted(found)


def over(sizes: dict[str, int], limit: int) -> dict[str, int]:
    """The entries of ``sizes`` above ``limit``, largest first."""
    return dict(sorted(((k, v) for k, v in sizes.items() if v > limit), key=lambda kv: -kv[1]))


def main(argv: list[str] | None = None) -> int:
    """Print the cycles and the oversized modules and functions; 1 when there is any."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", nargs="?", type=Path, default=SOURCES)
    parser.add_argument("--max-module", type=int, default=MAX_MODULE_LINES)
    parser.add_argument("--max-function", type=int, default=MAX_FUNCTION_LINES)
    args = parser.parse_args(argv)
    found = measure(args.root)
    loops = cycles(found.imports)
    big_modules = over(found.module_lines, args.max_module)
    big_functions = over(found.function_lines, args.max_function)
    documented = sum(found.public_definitions.values())
    print(
        f"{len(found.module_lines)} modules, {sum(found.module_lines.values())} lines; "
        f"docstrings on {documented}/{len(found.public_definitions)} public definitions"
    )
    for loop in loops:
        print(f"cycle ({len(loop)} modules): {' '.join(loop)}")
    for name, lines in big_modules.items():
        print(f"module over {args.max_module} lines: {name} ({lines})")
    for name, lines in big_functions.items():
        print(f"function over {args.max_function} lines: {name} ({lines})")
    return 1 if loops or big_modules or big_functions else 0


if __name__ == "__main__":
    raise SystemExit(main())
